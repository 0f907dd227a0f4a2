#!/usr/bin/env bash
# Issue 24 step M2: an incremental snapshot of MariaDB 10.11 survives kill -9 (docs/sources/
# mysql.md, "Incremental snapshots", "What survives a kill"). One server: bf_writer loads shop.t
# (PRIMARY KEY (id), 200,000 rows) and keeps changing it (half its changes on the keys being read)
# while `rowcast capture --checkpoint` streams with RC_SNAPSHOT_VERBOSE=1 (a notice per chunk)
# and no other setting (by default a chunk is read once the sink acknowledged the one before);
# a signal asks for shop.t. rowcast is killed with SIGKILL at points the verbose notices show:
#   run 1: a chunk's window open (read, not handed out);
#   run 2: a chunk handed out after some were acknowledged (its rows in the sink, unacknowledged);
#   run 3: right after a checkpoint write (the "acknowledged" notice follows the write);
#   run 4: paused by a pause-snapshot signal, once the checkpoint holds "paused 1";
# and restarted each time with the same --checkpoint. Each restart resumes after the key the
# checkpoint held (says so on stderr), never reads a key at or before it again, and the rows read
# twice (in the killed run and the next) are counted: at most what was handed out after the last
# checkpoint, and at most one chunk. Run 5 stays paused (no chunk in 3 s) until a resume-snapshot signal, then completes.
# Over the concatenated outputs of all runs (what a consumer of stdout got, duplicates and all;
# a last line a kill cut short dropped)
# check_stream.sh: the replay equals SELECT, DBLog holds event by event; the signal was executed
# once (one "started" line, no "already being snapshotted").
# usage: my_incsnap_crash_test.sh path/to/rowcast path/to/bf_writer
N=200000
CHUNK=10000
TABLE=shop.t
. "$(dirname "$0")/my_incsnap_lib.sh" # RC, WRITER from the arguments; W, URL
RUN_OPTS=(--include 'shop.t' --checkpoint "$W/ck" --server-id 12 --to native -o mysql.signal.table=shop.rowcast_signal)
my_sql shop -e 'CREATE TABLE rowcast_signal (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB'
load_table pk
signal() { my_sql shop -e "INSERT INTO rowcast_signal VALUES ('$1', '$2', '{\"data-collections\": [\"shop.t\"], \"type\": \"incremental\"}')"; }

STOP="window open:3" start_run --snapshot never
start_writer pk
wait_for 30 grep -q '"op":"update"' "$W/out1" || bad "run 1 streamed nothing in 30 s"
signal s-1 execute-snapshot
step "signal written"

# run 1: killed at the third chunk's window open (where it stopped itself: STOP)
stopped_at 40
kill9 "chunk window open"
stop_if_failed
# run 2: killed once a chunk was handed out after one was acknowledged
run_killed_unacked
# run 3: killed right after a checkpoint write (its first chunk's "acknowledged": STOP)
STOP=acknowledged:1 start_run
resumed 3
stopped_at 40
kill9 "right after a checkpoint write"
after 3
stop_if_failed
# run 4: paused, killed once the checkpoint holds it
start_run
resumed 4
wait_for 40 seen 4 'window open' 1 || bad "run 4: no chunk read in 40 s"
signal s-2 pause-snapshot
wait_for 20 grep -q '^paused 1$' "$W/ck" || bad "run 4: the checkpoint never held paused 1"
kill9 "paused"
after 4
stop_if_failed
# run 5: still paused; a resume-snapshot signal, then the snapshot completes (no more kills)
start_run
resumed 5
wait_for 10 grep -qs "incremental snapshots paused (a pause-snapshot signal)" "$W/err5" && ok || bad "run 5: not said to be paused"
sleep 3
! seen 5 'window open' 1 && ok || bad "run 5: a chunk was read while paused"
signal s-3 resume-snapshot
wait_for 150 grep -q "incremental snapshot of shop.t completed" "$W/err5" || bad "run 5: no completed line in 150 s"
read_keys "$W/out5" | LC_ALL=C sort >"$W/reads5"
step "completed"
stop_if_failed
finish_runs

[ "$(cat "$W"/err[1-6] | grep -c 'incremental snapshot of shop.t started (signal s-1')" = 1 ] && ok || bad "the signal was not executed once"
cat "$W"/err[1-6] | grep -q 'already being snapshotted' && bad "a signal was executed again" || ok
grep -q '^snapshot ' "$W/ck" && ok || bad "the checkpoint has no snapshot section"
total=0
for k in 1 2 3 4 5; do total=$((total + $(wc -l <"$W/reads$k"))); done
echo "rows read over the runs: $total (the table had $N at the start)"
check_runs my_incsnap_crash
