#!/usr/bin/env bash
# Issue 27: a record an encoder holds (Maxwell's row, held until the next event says whether its
# transaction ended with it) with a Kafka source, whose items come from several partitions
# interleaved. The held row is sent before an item of another partition (pipeline/output.c,
# hold_per_file), so (1) its rowcast.position header names its own partition, not the next
# message's, and (2) items are marked and offsets committed while the run goes on (before, every
# message left a row held, nothing was marked, and no offset moved until the end of the run).
# And no offset passes a record not acknowledged: a member killed with SIGKILL mid-run (after a
# commit was observed in its metrics) and a second run of the group write every message's row.
#
# The first run also sets consumer-only and producer-only -o kafka.* properties: no CONFWARN.
#
# Input: 6 partitions, partition P gets N Debezium inserts whose row says (P, message number O),
# so each output record names the message it came from. Output: Maxwell, compressed (zstd) as the
# input, so that every topic fits in what the mock keeps (about 5 MiB a partition).
# usage: kafka_source_held_test.sh path/to/rowcast path/to/rowcast-kafka-mock
RC=${1:?path to rowcast}
. "$(dirname "$0")/kafka_lib.sh"
. "$(dirname "$0")/../common/check.sh"
kafka_test_start "${2:?path to rowcast-kafka-mock}" || exit 1
[ -z "${KEEP:-}" ] || trap 'mock_stop; echo "kept $W" >&2' EXIT # KEEP=1: the work directory stays
T0=$SECONDS
N=${N:-8000}
mock_cmd "topic in 6" && mock_cmd "topic out1 6" && mock_cmd "topic out2 6" && mock_cmd "topic out3 6" || exit 1
for p in 0 1 2 3 4 5; do
    awk -v p="$p" -v n="$N" 'BEGIN { for (o = 0; o < n; o++)
        printf "{\"before\":null,\"after\":{\"id\":%d,\"p\":%d,\"o\":%d},\"source\":{\"connector\":\"mysql\",\"db\":\"d\",\"table\":\"t\",\"file\":\"b.1\",\"pos\":%d,\"server_id\":1},\"op\":\"c\",\"ts_ms\":1}\n", p * n + o, p, o, o }' |
        kcat -b "$BOOTSTRAP" -P -t in -p "$p" -X linger.ms=50 -X compression.codec=zstd || bad "kcat -P -p $p"
done
total=$((6 * N))
echo "[$((SECONDS - T0)) s] $total messages in topic in"
# conv GROUP OUT: the command's arguments in A
conv() { A=(convert --source "kafka://$BOOTSTRAP/in?group=$1" --from debezium --to maxwell --sink "kafka://$BOOTSTRAP/$2" -o kafka.compression.type=zstd); }
# rows TOPIC: "P O HEADER-PARTITION" per record (its row's p and o, the partition its
# rowcast.position header names)
rows() {
    kcat -C -b "$BOOTSTRAP" -t "$1" -o beginning -e -q -f '%s\t%h\n' 2>/dev/null |
        sed -E 's/.*"p":([0-9]+),"o":([0-9]+).*rowcast\.position=in\[([0-9]+)\]:[0-9]+.*/\1 \2 \3/; t; s/.*/unparsed/'
}

# 1. the whole topic: every message's row once, each named by its own partition
conv g1 out1
# (with properties of one client each: each goes to its own client, kafka_prop_client.h, and
# librdkafka says no CONFWARN about one the other client would have ignored)
"$RC" "${A[@]}" -o kafka.source.stop=end -o kafka.auto.offset.reset=earliest -o kafka.fetch.wait.max.ms=100 \
    -o kafka.queued.min.messages=50000 -o kafka.linger.ms=10 -o kafka.queue.buffering.max.kbytes=65536 >/dev/null 2>"$W/err1"
expect_rc "run 1" $? 0
grep -q CONFWARN "$W/err1" && bad "run 1: $(grep -m1 CONFWARN "$W/err1")" || ok
rows out1 >"$W/rows1"
[ "$(wc -l <"$W/rows1")" = "$total" ] && ok || bad "run 1 wrote $(wc -l <"$W/rows1") records, $total expected"
[ "$(sort -u "$W/rows1" | wc -l)" = "$total" ] && ok || bad "run 1: a message's row twice"
awk '$1 != $3 { n++ } END { exit n > 0 }' "$W/rows1" && ok ||
    bad "run 1: $(awk '$1 != $3' "$W/rows1" | wc -l) records whose rowcast.position header names another partition than their message's, e.g. $(awk '$1 != $3 { print; exit }' "$W/rows1")"

echo "[$((SECONDS - T0)) s] run 1 done"
# 2. offsets move while the run goes on; a SIGKILL then loses nothing. The mock takes the
# group's session timeout from its last joiner and drops the killed member after it: both runs
# say 6 s (a dead member's session of 45 s made the next run wait about 90 s to be assigned)
GROUP=(-o kafka.session.timeout.ms=6000 -o kafka.heartbeat.interval.ms=500)
conv g2 out2
"$RC" "${A[@]}" --metrics 127.0.0.1:0 "${GROUP[@]}" >/dev/null 2>"$W/err2" &
pid=$!
scrape() { curl -sf "$(sed -n "s/^rowcast: metrics on //p" "$W/err2")"; }
committed() { scrape | awk '/^rowcast_kafka_source_committed_offset\{/ && $NF > 0 { found = 1 } END { exit !found }'; }
if wait_for 60 committed; then ok; else bad "run 2: no offset committed while it ran ($(tail -2 "$W/err2"))"; fi
echo "[$((SECONDS - T0)) s] run 2: SIGKILL"
kill -9 "$pid"
wait "$pid" 2>/dev/null
conv g2 out3
"$RC" "${A[@]}" "${GROUP[@]}" -o kafka.source.stop=end >/dev/null 2>"$W/err3"
expect_rc "run 3" $? 0
rows out2 >"$W/rows2"
rows out3 >"$W/rows3"
n3=$(wc -l <"$W/rows3")
[ "$(cat "$W/rows2" "$W/rows3" | cut -d' ' -f1,2 | sort -u | wc -l)" = "$total" ] && ok ||
    bad "runs 2 and 3 wrote $(cat "$W/rows2" "$W/rows3" | cut -d' ' -f1,2 | sort -u | wc -l) of the $total messages' rows"
[ "$n3" -lt "$total" ] && ok || bad "run 3 read all $total messages again: run 2 committed nothing"
echo "[$((SECONDS - T0)) s] $total messages in 6 partitions -> Maxwell: headers name their own partition; killed run wrote $(wc -l <"$W/rows2"), the next $n3"
echo "kafka_source_held: $pass passed, $fail failed"
[ "$fail" = 0 ]
