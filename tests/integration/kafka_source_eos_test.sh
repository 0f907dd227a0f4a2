#!/usr/bin/env bash
# Issue 27 step K5: --exactly-once from a Kafka source to a Kafka sink (docs/sources/kafka.md,
# Exactly once) against the mock cluster in its own process (3 brokers): topic `in` (6
# partitions) holds 6,000 keyed native messages (examples/shop.ndjson again and again); each run
# converts them to Debezium with the consumer's offsets sent in the sink's transactions.
# What the mock allows to be checked (docs/design/exactly-once.md §7): it accepts
# TxnOffsetCommit but does not store the offsets (a restarted member starts at
# auto.offset.reset) and shows aborted records to every reader; so the committed offsets are the
# member's own (rowcast_kafka_source_committed_offset, set when the transaction carrying them
# committed), checked against the output:
#   1. SIGKILL at observed points (the committed-transactions counter, three kills, a restart
#      after each): at each point, for every partition, every input message below the committed
#      offset that gives a record has it in the output (the offsets never pass output that was
#      not written); after the last run every input message's records are there (at least once;
#      the duplicates counted);
#   2. the run to the end commits offsets up to each partition's end (the metrics at the end of
#      a run that stays on, -o kafka.source.stop=never), its output = the at-least-once run's as
#      multisets;
#   3. an abort (TxnOffsetCommit answered GROUP_AUTHORIZATION_FAILED, an abortable error, after
#      the member committed offsets of its first transactions): exit 3, the transaction aborted
#      (the mock cannot show the group's offsets: that they stayed is not checked here);
#   4. fencing: TxnOffsetCommit answered ILLEGAL_GENERATION (a zombie of an older generation), and
#      EndTxn answered PRODUCER_FENCED: exit 4 with the fenced line, the transaction aborted.
# Points are observed (metrics, process state), never fixed sleeps.
# usage: kafka_source_eos_test.sh path/to/rowcast path/to/rowcast-kafka-mock
RC=${1:?path to rowcast}
. "$(dirname "$0")/kafka_lib.sh"
. "$(dirname "$0")/../common/check.sh"
kafka_test_start "${2:?path to rowcast-kafka-mock}" || exit 1
T0=$SECONDS
N=6000
TO=(--to debezium -o debezium.bigint.unsigned.handling.mode=precise)
EOS=(--exactly-once --server k5 -o kafka.transaction.ms=100 -o kafka.session.timeout.ms=6000 -o kafka.heartbeat.interval.ms=500)
COMMITTED='rowcast_kafka_transactions_total{result="committed"}'
mock_cmd "topic in 6" || exit 1
for t in ref out1 out2 out3 out4 out5 in3 in4 in5; do mock_cmd "topic $t 6" || exit 1; done
sample=examples/shop.ndjson
lines=$(grep -c . "$sample")
for _ in $(seq $((N / lines))); do grep . "$sample"; done | awk '{ print (NR % 11) "|" $0 }' >"$W/in.keyed"
kcat -b "$BOOTSTRAP" -P -t in -K '|' <"$W/in.keyed" 2>"$W/kcat.err" || { bad "kcat -P: $(cat "$W/kcat.err")"; exit 1; }
src() { echo "kafka://$BOOTSTRAP/${2:-in}?group=$1"; }
# feed TOPIC FROM TO: lines FROM..TO of the keyed input into TOPIC
feed() { sed -n "$2,$3p" "$W/in.keyed" | kcat -b "$BOOTSTRAP" -P -t "$1" -K '|'; }
# metric URL NAME: one sample of a scrape ('' when absent); metrics_url ERRFILE: the run's URL
metric() { curl -sS --max-time 5 "$1" 2>/dev/null | awk -v n="$2" '$1 == n { print $2 }'; }
metrics_url() { wait_until 20 grep -qs '^rowcast: metrics on ' "$1" && sed -n 's/^rowcast: metrics on //p' "$1"; }
# committed URL: "PARTITION OFFSET" per partition the member committed for (set when the
# transaction that carried the offsets committed)
committed() {
    curl -sS --max-time 5 "$1" 2>/dev/null |
        sed -n 's/^rowcast_kafka_source_committed_offset{topic="[^"]*",partition="\([0-9]*\)"} \([0-9]*\)$/\1 \2/p'
}
# positions TOPIC: the input message of each record ("PARTITION OFFSET", from rowcast.position=in[P]:O)
positions() { kcat_all "$1" | sed -n 's/.*rowcast\.position=in\[\([0-9]*\)\]:\([0-9]*\).*/\1 \2/p'; }
alive() { kill -0 "$1" 2>/dev/null; }
# run NAME GROUP TOPIC ARGS...: an exactly-once member in the background: $pid, $URL, $W/NAME.err;
# it reads topic in, or $IN when set
run() {
    local name=$1 group=$2 topic=$3
    shift 3
    "$RC" convert --source "$(src "$group" "${IN:-in}")" "${TO[@]}" --sink "kafka://$BOOTSTRAP/$topic" "${EOS[@]}" --metrics 127.0.0.1:0 \
        "$@" >/dev/null 2>"$W/$name.err" &
    pid=$!
    URL=$(metrics_url "$W/$name.err") || bad "$name: no metrics line: $(cat "$W/$name.err")"
}

# the reference: an at-least-once run; which input messages give records, and the records
"$RC" convert --source "$(src gref)" "${TO[@]}" --server k5 --sink "kafka://$BOOTSTRAP/ref" -o kafka.source.stop=end 2>"$W/ref.err" >/dev/null
expect_rc "reference run" $? 0
positions ref | sort -u >"$W/ref.pos"
kcat_all ref | cut -f6 | LC_ALL=C sort >"$W/ref.values"
echo "[$((SECONDS - T0)) s] $(wc -l <"$W/in.keyed") messages in topic in; $(wc -l <"$W/ref.values") records from $(wc -l <"$W/ref.pos") of them"

# 1. SIGKILL at observed points (200 records a transaction: about 28 in a run), a restart after each
for k in 1 2 3; do
    run "kill$k" g1 out1 -o kafka.transaction.records=200
    want=$((6 * k - 3))
    wait_until 60 eval '[ "$(metric "$URL" "$COMMITTED")" -ge $want ] 2>/dev/null || ! alive $pid' || bad "kill $k: $want transactions not committed"
    committed "$URL" >"$W/kill$k.committed"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
    [ -s "$W/kill$k.committed" ] && ok || bad "kill $k: no committed offsets in the metrics: $(cat "$W/kill$k.err")"
    positions out1 | sort -u >"$W/kill$k.out"
    # every message below a committed offset that gives a record has it in the output
    awk 'NR == FNR { c[$1] = $2; next } ($1 in c) && $2 < c[$1]' "$W/kill$k.committed" "$W/ref.pos" | sort -u >"$W/kill$k.need"
    missing=$(comm -23 "$W/kill$k.need" "$W/kill$k.out" | wc -l)
    [ "$missing" = 0 ] && ok || bad "kill $k: $missing messages below the committed offsets have no record in the output"
    [ "$(wc -l <"$W/kill$k.need")" -lt "$(wc -l <"$W/ref.pos")" ] && ok || bad "kill $k: the run had committed everything before the kill (not the point wanted)"
    echo "[$((SECONDS - T0)) s] kill $k after ≥$want transactions: committed $(tr '\n' ' ' <"$W/kill$k.committed"); $(wc -l <"$W/kill$k.need") messages below them, $missing without output"
done
"$RC" convert --source "$(src g1)" "${TO[@]}" --sink "kafka://$BOOTSTRAP/out1" "${EOS[@]}" -o kafka.source.stop=end >/dev/null 2>"$W/last1.err"
expect_rc "1: the run after the kills" $? 0
positions out1 | sort -u >"$W/out1.pos"
[ -z "$(comm -23 "$W/ref.pos" "$W/out1.pos")" ] && ok || bad "1: input messages without output after the kills: $(comm -23 "$W/ref.pos" "$W/out1.pos" | wc -l)"
kcat_all out1 | cut -f6 | LC_ALL=C sort >"$W/out1.values"
extra=$(($(wc -l <"$W/out1.values") - $(wc -l <"$W/ref.values")))
[ -z "$(LC_ALL=C comm -23 "$W/ref.values" "$W/out1.values")" ] && ok || bad "1: records of the reference missing from out1"
echo "[$((SECONDS - T0)) s] 1. after 3 kills and a last run: every message's records in out1, $extra more records than the reference (the mock restarts a member at the earliest offset and shows aborted records)"

# 2. a member that stays on: its committed offsets reach each partition's end (of those that have messages)
run stay g2 out2 -o kafka.source.stop=never
ends() { kcat -b "$BOOTSTRAP" -Q -t in:0:-1 -t in:1:-1 -t in:2:-1 -t in:3:-1 -t in:4:-1 -t in:5:-1 2>/dev/null | sed -n 's/^in \[\([0-9]*\)\] offset \([1-9][0-9]*\)$/\1 \2/p' | sort; }
ends >"$W/ends"
at_end() { [ "$(committed "$URL" | sort)" = "$(cat "$W/ends")" ]; }
wait_until 60 at_end && ok || bad "2: committed offsets $(committed "$URL" | tr '\n' ' '), not the ends $(tr '\n' ' ' <"$W/ends")"
kill -TERM "$pid"
wait "$pid"
expect_rc "2: SIGTERM" $? 143
kcat_all out2 | cut -f6 | LC_ALL=C sort >"$W/out2.values"
expect_eq "2: out2 = the at-least-once run's records (multisets)" "$W/ref.values" "$W/out2.values"
[ -f "$W/stay.err" ] && ! grep -q "fenced\|aborted" "$W/stay.err" && ok || bad "2: an abort or a fence: $(cat "$W/stay.err")"
echo "[$((SECONDS - T0)) s] 2. committed offsets at the ends ($(tr '\n' ' ' <"$W/ends")), out2 = reference"

# 3. an abort: the offsets refused (an abortable error). Topic in3 is fed by the test: 1,000
# messages, their transactions committed, then the error injected and 1,000 more
IN=in3 run abort g3 out3
feed in3 1 1000
wait_until 60 eval '[ -n "$(committed "$URL")" ]' ||
    bad "3: no offsets committed: $(curl -sS "$URL" | grep -E '^rowcast_(kafka|sink_messages|input)'; cat "$W/abort.err")"
committed "$URL" | sort >"$W/abort.before"
mock_cmd err 28 1 30 || exit 1 # the next TxnOffsetCommit: GROUP_AUTHORIZATION_FAILED
feed in3 1001 2000
wait_until 60 eval '! alive $pid' || bad "3: the run did not stop after the refused offsets"
wait "$pid"
expect_rc "3: abort" $? 3
grep -q "the transaction was aborted" "$W/abort.err" && ok || bad "3: no aborted line: $(cat "$W/abort.err")"
echo "[$((SECONDS - T0)) s] 3. committed before: $(tr '\n' ' ' <"$W/abort.before"); $(grep -m1 'aborted' "$W/abort.err")"

# 4. fencing: a zombie of an older group generation, and a newer producer (topics fed as in 3)
fence() { # NAME GROUP TOPIC-IN TOPIC-OUT APIKEY CODE EXPECTED-LINE
    IN=$3 run "$1" "$2" "$4"
    feed "$3" 1 1000
    wait_until 60 eval '[ "$(metric "$URL" "$COMMITTED")" -ge 1 ] 2>/dev/null' || bad "$1: no transaction committed"
    mock_cmd err "$5" 1 "$6" || exit 1
    feed "$3" 1001 2000
    wait_until 60 eval '! alive $pid' || bad "$1: did not stop"
    wait "$pid"
    expect_rc "$1" $? 4
    grep -q "$7" "$W/$1.err" && ok || bad "$1: no line '$7': $(cat "$W/$1.err")"
    echo "[$((SECONDS - T0)) s] 4. $1: $(grep -m1 'fenced' "$W/$1.err")"
}
fence generation g4 in4 out4 28 22 "fenced: sending the input's offsets.*ILLEGAL_GENERATION.*the transaction was aborted"
fence producer g5 in5 out5 26 90 "fenced: another producer with transactional.id rowcast.k5\."

echo "kafka_source_eos: $pass passed, $fail failed"
[ "$fail" = 0 ]
