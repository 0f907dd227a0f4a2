#!/usr/bin/env bash
# Issue 27 step K1: Kafka as a source (docs/sources/kafka.md), against the mock cluster in its
# own process (3 brokers): topic `in` (24 partitions) holds 30,000 native messages (the sample
# examples/shop.ndjson again and again, keyed by their line number modulo 7); `rowcast convert
# kafka://…/in?group=… --to debezium "${TO[@]}"` writes them to topic `out`.
#   1. one member reads everything ("${GROUP[@]}" -o kafka.source.stop=end): `out` holds, as a multiset, what
#      `rowcast convert` of the same lines from a file gives; a second run of the group reads
#      nothing (its offsets were committed);
#   2. a member killed with SIGKILL once `out2` holds 3,000 records, then the group run again:
#      every expected message is in `out2` at least once (nothing lost; the duplicates, counted,
#      are what the killed member wrote after its last commit);
#   3. two members at once split the partitions (each one's last assignment, in its log, is fewer
#      than 24), and together write every message at least once; SIGTERM stops them.
# usage: kafka_source_test.sh path/to/rowcast path/to/rowcast-kafka-mock
RC=${1:?path to rowcast}
. "$(dirname "$0")/kafka_lib.sh"
. "$(dirname "$0")/../common/check.sh"
kafka_test_start "${2:?path to rowcast-kafka-mock}" || exit 1
T0=$SECONDS
N=30000
TO=(-o debezium.bigint.unsigned.handling.mode=precise) # the sample's BIGINT UNSIGNED past int64
# a member killed is replaced after its session times out (45 s by default): 6 s here
GROUP=(-o kafka.session.timeout.ms=6000 -o kafka.heartbeat.interval.ms=500)
mock_cmd "topic in 24" && mock_cmd "topic out 24" || exit 1
sample=examples/shop.ndjson
lines=$(grep -c . "$sample")
reps=$((N / lines))
for _ in $(seq "$reps"); do cat "$sample"; done >"$W/in.ndjson"
awk 'NF { print (NR % 7) "|" $0 }' "$W/in.ndjson" | kcat -b "$BOOTSTRAP" -P -t in -K '|' 2>"$W/kcat.err" || { bad "kcat -P: $(cat "$W/kcat.err")"; exit 1; }
n_in=$(grep -c . "$W/in.ndjson")
"$RC" convert "$W/in.ndjson" --to debezium "${TO[@]}" 2>/dev/null | grep '"op":' | LC_ALL=C sort >"$W/want"
echo "[$((SECONDS - T0)) s] $n_in messages in topic in; $(wc -l <"$W/want") expected records"
src() { echo "kafka://$BOOTSTRAP/in?group=$1"; }

# 1. one member, to the end
"$RC" convert --source "$(src g1)" --to debezium "${TO[@]}" "${GROUP[@]}" -o kafka.source.stop=end >"$W/stdout1" 2>"$W/err1"
expect_rc "run 1" $? 0
grep -q "24 partitions assigned" "$W/err1" && ok || bad "run 1: not 24 partitions assigned: $(grep assigned "$W/err1")"
grep '"op":' "$W/stdout1" | LC_ALL=C sort >"$W/got1"
expect_eq "Kafka -> stdout = convert of the same lines from a file (as multisets)" "$W/want" "$W/got1"
# Kafka -> Kafka: the first 2,000 messages of the output topic (the mock keeps ~5 MiB a partition,
# and the sample's few keys put many records in one): each one of the expected records
"$RC" convert --source "$(src g1k)" --to debezium "${TO[@]}" --sink "kafka://$BOOTSTRAP/out" "${GROUP[@]}" -o kafka.source.stop=end >/dev/null 2>"$W/err1k"
expect_rc "run 1, to Kafka" $? 0
kcat -b "$BOOTSTRAP" -C -t out -c 2000 -e -q -f '%s\n' 2>/dev/null | grep '"op":' | LC_ALL=C sort -u >"$W/got1k"
[ -s "$W/got1k" ] && [ -z "$(LC_ALL=C comm -13 <(uniq "$W/want") "$W/got1k")" ] && ok || bad "Kafka -> Kafka: records that convert of the file does not give"
"$RC" convert --source "$(src g1)" --to debezium "${TO[@]}" "${GROUP[@]}" -o kafka.source.stop=end >"$W/again" 2>"$W/err1b"
expect_rc "run 1 again" $? 0
[ ! -s "$W/again" ] && ok || bad "the group's second run read $(wc -l <"$W/again") messages again: offsets not committed"
echo "[$((SECONDS - T0)) s] one member: done"

# 2. SIGKILL mid-run, then the group goes on
"$RC" convert --source "$(src g2)" --to debezium "${TO[@]}" --sink "file:$W/out2" "${GROUP[@]}" >/dev/null 2>"$W/err2" &
pid=$!
lines_out() { [ -f "$W/out2" ] && [ "$(wc -l <"$W/out2")" -ge "$1" ]; }
wait_for 60 lines_out 3000 || bad "run 2: out2 did not reach 3,000 records in 60 s"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ -z "$(tail -c 1 "$W/out2")" ] || sed -i '$d' "$W/out2" # a line the kill cut short
killed_at=$(grep -c '"op":' "$W/out2")
[ "$killed_at" -lt "$(wc -l <"$W/want")" ] && ok || bad "run 2 had written everything before the kill (not the point wanted)"
"$RC" convert --source "$(src g2)" --to debezium "${TO[@]}" --sink "file:$W/out2" "${GROUP[@]}" -o kafka.source.stop=end >/dev/null 2>"$W/err2b"
expect_rc "run 2 after the kill" $? 0
grep '"op":' "$W/out2" | LC_ALL=C sort >"$W/got2"
missing=$(LC_ALL=C comm -23 <(uniq "$W/want") <(uniq "$W/got2") | wc -l)
dups=$(($(wc -l <"$W/got2") - $(wc -l <"$W/want")))
[ "$missing" = 0 ] && ok || bad "run 2: $missing expected records missing after the kill"
echo "[$((SECONDS - T0)) s] killed at $killed_at records; after the restart: $missing missing, $dups duplicates"
[ "$dups" -le "$killed_at" ] && ok || bad "more duplicates ($dups) than records before the kill ($killed_at)"

# 3. two members of one group, both staying (no stop at the end): whichever starts first may
# take all 24 partitions and read much before the other joins, so the split is waited for, not
# assumed: each one's last assignment is a share (1 to 23), and together they wrote every message
member3() { "$RC" convert --source "$(src g3)" --to debezium "${TO[@]}" --sink "file:$W/out3.$1" "${GROUP[@]}" >/dev/null 2>"$W/err3.$1" & }
shared() { local n; n=$(grep -o '[0-9]* partitions\? assigned' "$W/err3.$1" 2>/dev/null | tail -1 | cut -d' ' -f1); [ -n "$n" ] && [ "$n" -ge 1 ] && [ "$n" -le 23 ]; }
missing3() { LC_ALL=C comm -23 "$W/want" <(cat "$W"/out3.* 2>/dev/null | grep '"op":' | LC_ALL=C sort) | wc -l; } # as multisets
complete3() { [ "$(missing3)" = 0 ]; }
member3 a
a=$!
member3 b
b=$!
wait_for 90 shared a && wait_for 30 shared b && ok || bad "the two members did not split the partitions: $(grep -h assigned "$W"/err3.*)"
wait_for 90 complete3 || bad "two members: $(missing3) expected records missing after 90 s"
grep -h "assigned" "$W"/err3.*
kill -TERM "$a" "$b"
wait "$a"; ra=$?
wait "$b"; rb=$?
expect_rc "member a at SIGTERM" "$ra" 143
expect_rc "member b at SIGTERM" "$rb" 143
echo "[$((SECONDS - T0)) s] two members: $(cat "$W"/out3.* | grep -c '"op":') records, $(missing3) missing"
echo "kafka_source: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
