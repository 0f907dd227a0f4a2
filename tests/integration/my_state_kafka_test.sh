#!/usr/bin/env bash
# Issue 25 §2 (step E4, MySQL part): a MariaDB capture keeps its checkpoint in a Kafka topic
# (--checkpoint kafka://BROKERS/rc-state --server shop; docs/sinks.md, "State in Kafka"), against
# the mock cluster in its own process. bf_writer loads shop.t (200,000 rows) and keeps changing it
# while the capture runs (snapshot, then stream), killed with SIGKILL at observed points:
#   run 1: during the initial snapshot, once rows are out (no state is stored before the
#          snapshot is delivered, with stdout as the sink): run 2 takes the snapshot again;
#   run 2: streaming, once two state records were stored after its snapshot's position;
#   run 3: resumed from the state topic (says so), killed once it stored a state record;
# then SIGTERM of run 4 and run 5 with --until caught-up after the writer stopped. The
# concatenated outputs of runs 2-5 replay to exactly what SELECT gives (nothing lost; at least once:
# duplicates allowed), the keys in the topic are rowcast/shop/state and the schema history's chunks
# (rowcast/shop/history/HASH/N), and the last state is a rowcast-mysql-checkpoint of version 4. Refusals: without --server; a PostgreSQL URL.
# usage: my_state_kafka_test.sh path/to/rowcast path/to/bf_writer path/to/rowcast-kafka-mock
N=200000
CHUNK=5000
TABLE=shop.t
MOCK=${3:?path to rowcast-kafka-mock}
. "$(dirname "$0")/my_incsnap_lib.sh" # RC, WRITER; W, URL; start_run, kill9, finish_runs
. "$HERE/kafka_lib.sh"
trap 'for p in $WPID $CAP; do kill -KILL "$p" 2>/dev/null; done; mock_stop; my_test_stop' EXIT
mock_start "$MOCK" "$W" 3 || exit 1
mock_cmd "topic rc-state 1" || exit 1
STATE="kafka://$BOOTSTRAP/rc-state"
RUN_OPTS=(--include 'shop.t' --checkpoint "$STATE" --server shop --server-id 14 --to native)
# state_records: how many records the state topic holds; state_after K N: more than N
state_records() { kcat -b "$BOOTSTRAP" -C -t rc-state -e -q -f '%o\n' 2>/dev/null | wc -l; }
state_after() { [ "$(state_records)" -gt "$1" ]; }
rows_out() { [ "$(grep -c '"op"' "$W/out$run" 2>/dev/null)" -ge "$1" ]; }

"$RC" capture "$URL" --include shop.t --checkpoint "$STATE" --until caught-up >/dev/null 2>"$W/noserver.err"
expect_rc "--checkpoint kafka:// without --server (usage)" $? 1
grep -q 'needs --server NAME' "$W/noserver.err" && ok || bad "no --server: $(cat "$W/noserver.err")"

load_table pk
start_writer pk
start_run
wait_for 30 rows_out 1000 || bad "run 1: no rows out"
kill9 "snapshot rows out"
! grep -q 'delivered; streaming' "$W/err1" && ok || bad "run 1: the snapshot was delivered before the kill (not the point wanted)"
stop_if_failed

start_run
wait_for 60 grep -q '"op":"update"' "$W/out$run" || bad "run 2: streamed nothing in 60 s"
n=$(state_records)
wait_for 30 state_after $((n + 2)) || bad "run 2: no two more state records in 30 s"
kill9 "streaming, two state records stored"
stop_if_failed

start_run
wait_for 30 grep -qF "resuming from checkpoint $STATE at " "$W/err$run" && ok || bad "run 3: no resuming line: $(grep -i checkpoint "$W/err$run")"
n=$(state_records)
wait_for 30 state_after "$n" || bad "run 3: no state record in 30 s"
kill9 "resumed, a state record stored"
stop_if_failed

start_run
wait_for 30 grep -qF "resuming from checkpoint $STATE at " "$W/err$run" && ok || bad "run 4: no resuming line"
finish_runs

# the state and its schema history's chunks (rowcast/shop/history/HASH/N), nothing else
keys=$(kcat -b "$BOOTSTRAP" -C -t rc-state -e -q -f '%k\n' 2>/dev/null | sort -u)
[ "$(grep -cvE '^rowcast/shop/(state|history/[0-9a-f]{16}/[0-9]+)$' <<<"$keys")" = 0 ] && grep -qx rowcast/shop/state <<<"$keys" && ok ||
    bad "state topic keys: $keys"
kcat -b "$BOOTSTRAP" -C -t rc-state -e -q -f '%k\t%s\036' 2>/dev/null |
    awk 'BEGIN { RS = "\036" } index($0, "rowcast/shop/state\t") == 1 { v = substr($0, 20) } END { print v }' | head -1 |
    grep -q '^rowcast-mysql-checkpoint 4$' && ok || bad "the last state record is no checkpoint naming history chunks (version 4)"
cat "$W"/out[2-9] >"$W/all" # run 1's snapshot was taken again whole by run 2 (rows deleted between the two are in run 1's only)
"$TOOLS/check_stream.sh" "$URL" "$TABLE" "$W/all" --out "$W" 2>"$W/check.err"
expect_rc "replay of the concatenated outputs equal to SELECT" $? 0
cat "$W/check.err"
echo "my_state_kafka: $pass passed, $fail failed ($((SECONDS - T0)) s, $(state_records) state records)"
[ "$fail" = 0 ]
