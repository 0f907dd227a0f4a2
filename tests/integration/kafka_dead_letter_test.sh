#!/usr/bin/env bash
# Issue 27 step K3: bad messages dead-lettered to Kafka (--on-error=dead-letter:kafka://HOSTS/TOPIC,
# docs/sources/kafka.md "Bad messages"), against the mock cluster in its own process (3 brokers).
# Topic `in` (one partition, so that offsets are known) holds good native messages and bad ones,
# with keys and headers: a broken JSON, a Canal message (the wrong format), a message without
# key or headers that is not JSON; and a null value with a key (a tombstone: no event, not bad).
#   1. Kafka -> Kafka with a Kafka dead letter: `dlq` holds exactly the expected records (key,
#      value, every header: the message's own, then rowcast.source.topic/partition/offset and
#      rowcast.error), compared byte for byte with kcat's -f output; `out` holds the good
#      messages as `rowcast convert` of the same lines from a file gives them; the group's
#      committed offsets (the metrics) are at the end of `in`, and a second run reads nothing;
#   2. the same input with a file dead letter: the file's expected lines (each value as it came);
#   3. a file input with a Kafka dead letter: the line as the value, rowcast.source.file/line/byte;
#   4. a dead-letter write that fails (the mock refuses the Produce): the run stops, naming the
#      topic and the message's position, and its offset is not committed: the group's next run
#      dead-letters it;
#   5. SIGKILL once the first dead letter of a fed stream is acknowledged (seen in `dlq2`), then
#      the group again: every bad message is in `dlq2` (at least once; the duplicates counted).
# usage: kafka_dead_letter_test.sh path/to/rowcast path/to/rowcast-kafka-mock
RC=${1:?path to rowcast}
. "$(dirname "$0")/kafka_lib.sh"
. "$(dirname "$0")/../common/check.sh"
kafka_test_start "${2:?path to rowcast-kafka-mock}" || exit 1
T0=$SECONDS
for t in in out dlq dlq3 dlq4 in5 dlq5; do mock_cmd "topic $t 1" || exit 1; done
# a good native message (its id three times)
MSG='{"op":"insert","source":{"kind":"mysql","server":"s","db":"d","table":"t"},"pos":{"file":"b.000001","offset":%d},"ts_us":1732960800000000,"columns":[{"name":"id","type":"bigint","pk":true},{"name":"v","type":"varchar(20)"}],"after":[%d,"m%d"]}\n'
msg() { printf "$MSG" "$1" "$1" "$1"; } # ID
canal='{"data":[{"id":"1"}],"database":"d","table":"t","type":"INSERT","isDdl":false,"pkNames":["id"],"es":1,"ts":1}'
put() { kcat -b "$BOOTSTRAP" -P -t "$@" 2>>"$W/kcat.err" || bad "kcat -P: $(cat "$W/kcat.err")"; }
# offsets 0..6 of `in`: good, bad JSON, good, wrong format, tombstone, good, not JSON
msg 1 | sed 's/^/k0|/' | put in -K '|' -H h=a
echo 'k1|{"bad json' | put in -K '|' -H trace=1 -H two=2
msg 2 | sed 's/^/k2|/' | put in -K '|'
echo "k3|$canal" | put in -K '|' -H x=y
echo 'k4|' | put in -K '|' -Z -H n=1
msg 3 | sed 's/^/k5|/' | put in -K '|' -H h=b
echo 'not json' | put in
{ msg 1; msg 2; msg 3; } >"$W/good.ndjson"
TO=(--to debezium)
# the Kafka source's runs: the mock does not let a closed member leave its group, so the next run
# of a group waits for the last one's session to time out (45 s by default; 6 s here)
KS=(--to debezium -o kafka.session.timeout.ms=6000 -o kafka.heartbeat.interval.ms=500)
# key length, key, value length, value, headers: what kcat reads of a dead letter
DLQ_FMT='%K\t%k\t%S\t%s\t%h\n'
dlq() { kcat -C -b "$BOOTSTRAP" -t "$1" -o beginning -e -q -f "$DLQ_FMT"; }
at() { printf 'rowcast.source.topic=%s,rowcast.source.partition=0,rowcast.source.offset=%s' "$1" "$2"; }
e_json='rowcast.error=syntax error: unterminated string starting at byte 1'
e_canal='rowcast.error=schema error: unknown field "data" in the event'
e_not="rowcast.error=syntax error: not JSON: expected true, false or null (found 'n')"
{
    printf '2\tk1\t10\t{"bad json\ttrace=1,two=2,%s,%s\n' "$(at in 1)" "$e_json"
    printf '2\tk3\t%d\t%s\tx=y,%s,%s\n' "${#canal}" "$canal" "$(at in 3)" "$e_canal"
    printf -- '-1\t\t8\tnot json\t%s,%s\n' "$(at in 6)" "$e_not"
} >"$W/want.dlq"

# 1. Kafka -> Kafka, dead letters to Kafka; the group's committed offsets seen in the metrics
"$RC" convert --source "kafka://$BOOTSTRAP/in?group=g1" "${KS[@]}" --sink "kafka://$BOOTSTRAP/out" \
    --on-error="dead-letter:kafka://$BOOTSTRAP/dlq" --metrics 127.0.0.1:0 >/dev/null 2>"$W/err1" &
pid=$!
scrape() { curl -sf "$(sed -n "s/^rowcast: metrics on //p" "$W/err1")"; }
committed_at_end() { scrape | grep -q '^rowcast_kafka_source_committed_offset{.*} 7$'; }
wait_for 60 committed_at_end && ok || bad "run 1: the group's committed offset did not reach 7 (the end of in): $(scrape | grep committed_offset)"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ $rc = 0 ] || [ $rc = 143 ] && ok || bad "run 1 (SIGTERM): exit status $rc"
dlq dlq >"$W/got.dlq"
expect_eq "dlq = the bad messages as they came, with rowcast's headers" "$W/want.dlq" "$W/got.dlq"
"$RC" convert "$W/good.ndjson" "${TO[@]}" 2>/dev/null >"$W/want.out"
kcat -C -b "$BOOTSTRAP" -t out -o beginning -e -q -f '%s\n' >"$W/got.out"
expect_eq "out = convert of the good messages from a file" "$W/want.out" "$W/got.out"
grep -q "7 messages read: 4 converted, 0 filtered out, 3 bad (dead-lettered)" "$W/err1" && ok || bad "run 1's summary: $(grep 'messages read' "$W/err1")"
"$RC" convert --source "kafka://$BOOTSTRAP/in?group=g1" "${KS[@]}" --sink "kafka://$BOOTSTRAP/out" \
    --on-error="dead-letter:kafka://$BOOTSTRAP/dlq" -o kafka.source.stop=end >/dev/null 2>"$W/err1b"
expect_rc "run 1 again" $? 0
[ "$(kcat_count dlq)" = 3 ] && [ "$(kcat_count out)" = 3 ] && ok || bad "the group's second run wrote again: dlq $(kcat_count dlq), out $(kcat_count out)"
echo "[$((SECONDS - T0)) s] 1. Kafka -> Kafka: $(kcat_count dlq) dead letters, $(kcat_count out) records"

# 2. the same input, a file dead letter: each bad message's value, one a line
"$RC" convert --source "kafka://$BOOTSTRAP/in?group=g2" "${KS[@]}" --on-error="dead-letter:$W/dead2" -o kafka.source.stop=end >"$W/out2" 2>"$W/err2"
expect_rc "run 2" $? 0
printf '%s\n' '{"bad json' "$canal" 'not json' >"$W/want.dead2"
expect_eq "file dead letter" "$W/want.dead2" "$W/dead2"
expect_eq "run 2's output" "$W/want.out" "$W/out2"

# 3. a file input, a Kafka dead letter: the line as the value
{ msg 1; echo '{"bad json'; msg 2; } >"$W/in3.ndjson"
"$RC" convert "$W/in3.ndjson" "${TO[@]}" --on-error="dead-letter:kafka://$BOOTSTRAP/dlq3" >/dev/null 2>"$W/err3"
expect_rc "run 3" $? 0
off=$(($(msg 1 | wc -c)))
printf -- '-1\t\t10\t{"bad json\trowcast.source.file=%s,rowcast.source.line=2,rowcast.source.byte=%d,%s\n' "$W/in3.ndjson" "$off" "$e_json" >"$W/want.dlq3"
dlq dlq3 >"$W/got.dlq3"
expect_eq "a file's bad line in Kafka" "$W/want.dlq3" "$W/got.dlq3"

# 4. the dead letter's topic refused (TOPIC_AUTHORIZATION_FAILED, 29; the producer gives the
# message up after kafka.message.timeout.ms): the run stops there
mock_cmd "topic-error dlq4 29" || exit 1
"$RC" convert --source "kafka://$BOOTSTRAP/in?group=g4" "${KS[@]}" --on-error="dead-letter:kafka://$BOOTSTRAP/dlq4" \
    -o kafka.message.timeout.ms=3000 -o kafka.source.stop=end >"$W/out4" 2>"$W/err4"
expect_rc "run 4 (the dead letter refused)" $? 3
mock_cmd "topic-error dlq4 0" || exit 1
grep -q "dead-letter kafka://$BOOTSTRAP/dlq4: the bad message at topic in partition 0 offset 1 was not written" "$W/err4" && ok ||
    bad "run 4 does not name the topic and the position: $(grep -v '^rowcast: [0-9]' "$W/err4")"
"$RC" convert --source "kafka://$BOOTSTRAP/in?group=g4" "${KS[@]}" --on-error="dead-letter:kafka://$BOOTSTRAP/dlq4" \
    -o kafka.source.stop=end >>"$W/out4" 2>"$W/err4b"
expect_rc "run 4 again" $? 0
dlq dlq4 | sed 's/dlq4/dlq/' >"$W/got.dlq4"
expect_eq "run 4 again: every dead letter (none skipped)" "$W/want.dlq" "$W/got.dlq4"
echo "[$((SECONDS - T0)) s] 4. a refused dead letter stopped the run; the next run wrote it"

# 5. SIGKILL once the first dead letter of a stream is acknowledged, then the group again
N5=3000
awk -v n="$N5" -v fmt="$MSG" 'BEGIN { for (i = 1; i <= n; i++) if (i % 100 == 50) printf "b%d|{\"bad\":%d\n", i, i; else printf "k%d|" fmt, i, i, i, i }' >"$W/in5"
"$RC" convert --source "kafka://$BOOTSTRAP/in5?group=g5" "${KS[@]}" --sink "file:$W/out5" \
    --on-error="dead-letter:kafka://$BOOTSTRAP/dlq5" >/dev/null 2>"$W/err5" &
pid=$!
# the report of the second bad message is said once the first one's dead letter was
# acknowledged (each is awaited): the kill lands there, with the rest of the input not fed yet
reported() { [ "$(grep -c '^rowcast: in5\[0\]:' "$W/err5" 2>/dev/null)" -ge 2 ] 2>/dev/null; }
# fed once the member has its partitions (a group join under load can outlast the whole feed)
wait_for 60 grep -Eq 'partitions? assigned' "$W/err5" || bad "run 5: no partitions assigned in 60 s"
from=1
while [ "$from" -le "$N5" ] && ! reported; do
    sed -n "${from},$((from + 19))p" "$W/in5" | put in5 -K '|'
    from=$((from + 20))
done
wait_for 30 reported || bad "run 5: the second bad message was not reported"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
killed_at=$(kcat_count dlq5)
[ "$from" -le "$N5" ] && ok || bad "run 5: the whole input was fed before the kill (not the point wanted)"
[ "$from" -le "$N5" ] && tail -n +"$from" "$W/in5" | put in5 -K '|'
"$RC" convert --source "kafka://$BOOTSTRAP/in5?group=g5" "${KS[@]}" --sink "file:$W/out5" \
    --on-error="dead-letter:kafka://$BOOTSTRAP/dlq5" -o kafka.source.stop=end >/dev/null 2>"$W/err5b"
expect_rc "run 5 after the kill" $? 0
grep '^b' "$W/in5" | cut -d'|' -f2 | sort >"$W/want5"
kcat -C -b "$BOOTSTRAP" -t dlq5 -o beginning -e -q -f '%s\n' | sort >"$W/got5"
missing=$(comm -23 "$W/want5" <(uniq "$W/got5") | wc -l)
dups=$(($(wc -l <"$W/got5") - $(wc -l <"$W/want5")))
[ "$missing" = 0 ] && ok || bad "run 5: $missing bad messages missing from dlq5 after the kill"
[ -z "$(comm -13 "$W/want5" <(uniq "$W/got5"))" ] && ok || bad "run 5: dlq5 holds what no bad message was"
echo "[$((SECONDS - T0)) s] 5. killed with $killed_at dead letters acknowledged; after the restart $(wc -l <"$W/got5") dead letters: $missing missing, $dups duplicates"
echo "kafka_dead_letter: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
