#!/usr/bin/env bash
# Issue 27 step K1: Kafka as a source (docs/sources/kafka.md), against the mock cluster in its
# own process (3 brokers): topic `in` (6 partitions) holds 100,000 native messages (the sample
# examples/shop.ndjson again and again, keyed by their line number modulo 7); `rowcast convert
# kafka://…/in?group=… --to debezium` writes them to topic `out`.
#   1. one member reads everything (-o kafka.source.stop=end): `out` holds, as a multiset, what
#      `rowcast convert` of the same lines from a file gives; a second run of the group reads
#      nothing (its offsets were committed);
#   2. a member killed with SIGKILL once `out` holds 30,000 records, then the group run again:
#      every expected message is in `out2` at least once (nothing lost; the duplicates, counted,
#      are what the killed member wrote after its last commit);
#   3. two members at once split the partitions (each says how many it was assigned, fewer than
#      6), and together write every message at least once.
# usage: kafka_source_test.sh path/to/rowcast path/to/rowcast-kafka-mock
RC=${1:?path to rowcast}
. "$(dirname "$0")/kafka_lib.sh"
. "$(dirname "$0")/../common/check.sh"
kafka_test_start "${2:?path to rowcast-kafka-mock}" || exit 1
trap 'mock_stop; rm -rf /tmp/h16/kst; cp -r "$W" /tmp/h16/kst; rm -rf "$W"' EXIT
T0=$SECONDS
N=100000
mock_cmd "topic in 6" && mock_cmd "topic out 1" && mock_cmd "topic out2 1" && mock_cmd "topic out3 1" || exit 1
sample=examples/shop.ndjson
lines=$(grep -c . "$sample")
reps=$((N / lines))
for _ in $(seq "$reps"); do cat "$sample"; done >"$W/in.ndjson"
awk 'NF { print (NR % 7) "|" $0 }' "$W/in.ndjson" | kcat -b "$BOOTSTRAP" -P -t in -K '|' 2>"$W/kcat.err" || { bad "kcat -P: $(cat "$W/kcat.err")"; exit 1; }
n_in=$(grep -c . "$W/in.ndjson")
"$RC" convert "$W/in.ndjson" --to debezium 2>/dev/null | LC_ALL=C sort >"$W/want"
echo "[$((SECONDS - T0)) s] $n_in messages in topic in; $(wc -l <"$W/want") expected records"
src() { echo "kafka://$BOOTSTRAP/in?group=$1"; }
out_count() { kcat -b "$BOOTSTRAP" -C -t "$1" -e -q -f '%o\n' 2>/dev/null | wc -l; }
topic_sorted() { kcat -b "$BOOTSTRAP" -C -t "$1" -e -q -f '%s\n' 2>/dev/null | LC_ALL=C sort; }

# 1. one member, to the end
"$RC" convert --source "$(src g1)" --to debezium --sink "kafka://$BOOTSTRAP/out" -o kafka.source.stop=end >/dev/null 2>"$W/err1"
expect_rc "run 1" $? 0
grep -q "6 partitions assigned" "$W/err1" && ok || bad "run 1: not 6 partitions assigned: $(grep assigned "$W/err1")"
topic_sorted out >"$W/got1"
expect_eq "topic out = convert of the same lines from a file (as multisets)" "$W/want" "$W/got1"
"$RC" convert --source "$(src g1)" --to debezium -o kafka.source.stop=end >"$W/again" 2>"$W/err1b"
expect_rc "run 1 again" $? 0
[ ! -s "$W/again" ] && ok || bad "the group's second run read $(wc -l <"$W/again") messages again: offsets not committed"
echo "[$((SECONDS - T0)) s] one member: done"

# 2. SIGKILL mid-run, then the group goes on
"$RC" convert --source "$(src g2)" --to debezium --sink "kafka://$BOOTSTRAP/out2" >/dev/null 2>"$W/err2" &
pid=$!
wait_for 60 sh -c "[ \$(kcat -b $BOOTSTRAP -C -t out2 -e -q -f '%o\n' 2>/dev/null | wc -l) -ge 30000 ]" || bad "run 2: out2 did not reach 30,000 records in 60 s"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
killed_at=$(out_count out2)
"$RC" convert --source "$(src g2)" --to debezium --sink "kafka://$BOOTSTRAP/out2" -o kafka.source.stop=end >/dev/null 2>"$W/err2b"
expect_rc "run 2 after the kill" $? 0
topic_sorted out2 >"$W/got2"
missing=$(LC_ALL=C comm -23 <(uniq "$W/want") <(uniq "$W/got2") | wc -l)
dups=$(($(wc -l <"$W/got2") - $(wc -l <"$W/want")))
[ "$missing" = 0 ] && ok || bad "run 2: $missing expected records missing after the kill"
echo "[$((SECONDS - T0)) s] killed at $killed_at records; after the restart: $missing missing, $dups duplicates"
[ "$dups" -le "$killed_at" ] && ok || bad "more duplicates ($dups) than records before the kill ($killed_at)"

# 3. two members of one group
"$RC" convert --source "$(src g3)" --to debezium --sink "kafka://$BOOTSTRAP/out3" -o kafka.source.stop=end >/dev/null 2>"$W/err3a" &
a=$!
"$RC" convert --source "$(src g3)" --to debezium --sink "kafka://$BOOTSTRAP/out3" -o kafka.source.stop=end >/dev/null 2>"$W/err3b" &
b=$!
wait "$a"; ra=$?
wait "$b"; rb=$?
expect_rc "member a" "$ra" 0
expect_rc "member b" "$rb" 0
grep -h "assigned" "$W/err3a" "$W/err3b"
grep -qE ": [1-5] partitions? assigned" "$W/err3a" && grep -qE ": [1-5] partitions? assigned" "$W/err3b" && ok ||
    bad "the two members did not split the partitions"
topic_sorted out3 >"$W/got3"
missing=$(LC_ALL=C comm -23 <(uniq "$W/want") <(uniq "$W/got3") | wc -l)
[ "$missing" = 0 ] && ok || bad "two members: $missing expected records missing"
echo "[$((SECONDS - T0)) s] two members: $(wc -l <"$W/got3") records, $missing missing"
echo "kafka_source: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
