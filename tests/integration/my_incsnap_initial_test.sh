#!/usr/bin/env bash
# Issue 24 (M3-lite): `--snapshot incremental` on MariaDB 10.11, a resumable initial snapshot
# (docs/sources/mysql.md, "Snapshot" and "Incremental snapshots"). bf_writer loads shop.t
# (PRIMARY KEY (id, k2), 50,000 rows) and keeps inserting, updating and deleting keys (half its
# changes on the keys being read) while `rowcast capture --snapshot incremental --checkpoint`
# runs without a signal table: the first run streams from the binlog's end at once and reads
# shop.t in 2,000-row chunks (RC_SNAPSHOT_VERBOSE=1: a notice per chunk;
# by default a chunk is read once the one before is acknowledged). SIGKILL at
# two observed points:
#   run 1: once its third chunk was handed out (emitted);
#   run 2: once it acknowledged a chunk and handed out the next one;
# run 3 completes. Each restart resumes after the checkpoint's last key (said on stderr), never
# reads a key at or before it again, and the rows read twice are counted (at most one chunk).
# Over the concatenated outputs (duplicates and all): the replay equals SELECT, DBLog holds event
# by event (check_stream.sh). Also: a table without a key is refused at start by name, and a run
# without --checkpoint says once that it is not resumable.
# usage: my_incsnap_initial_test.sh path/to/rowcast path/to/bf_writer
N=50000
CHUNK=2000
TABLE=shop.t
. "$(dirname "$0")/my_incsnap_lib.sh" # RC, WRITER from the arguments; W, URL
RUN_OPTS=(--include 'shop.t' --checkpoint "$W/ck" --server-id 13 --to native --snapshot incremental)
load_table composite
my_sql shop -e 'CREATE TABLE k (a INT, b INT) ENGINE=InnoDB; INSERT INTO k VALUES (1, 1)'

# refused at start: a table without a key (nothing streamed, no checkpoint written)
"$RC" capture "$URL" --include 'shop.*' --checkpoint "$W/ck.k" --to native --snapshot incremental >"$W/out.k" 2>"$W/err.k"
expect_rc "a keyless table included" $? 1
grep -q 'table shop.k has no primary key.*--snapshot initial (reads it in one view)' "$W/err.k" && ok ||
    bad "the keyless table is not refused by name with the fix: $(cat "$W/err.k")"
[ ! -s "$W/out.k" ] && [ ! -e "$W/ck.k" ] && ok || bad "the refused run wrote output or a checkpoint"
# without --checkpoint: runs, said once not to be resumable
"$RC" capture "$URL" --include 'shop.t' --to native --snapshot incremental --until caught-up -o mysql.snapshot.chunk.rows=20000 \
    >"$W/out.nock" 2>"$W/err.nock"
expect_rc "without --checkpoint" $? 0
[ "$(grep -c 'not resumable' "$W/err.nock")" = 1 ] && ok || bad "without --checkpoint, not said once: $(cat "$W/err.nock")"
[ "$(grep -c '"snapshot":"incremental"' "$W/out.nock")" = $N ] && ok ||
    bad "without --checkpoint, --until caught-up: $(grep -c '"snapshot":"incremental"' "$W/out.nock") rows read, not $N"

start_writer composite
# run 1: streams at once, killed once its third chunk was handed out
start_run
wait_for 30 grep -qs 'incremental snapshot of shop.t started (--snapshot incremental, ~[0-9]* rows, by primary key)' "$W/err1" && ok ||
    bad "run 1: no started line: $(cat "$W/err1")"
wait_for 40 seen 1 emitted 3 || bad "run 1: no third chunk emitted in 40 s"
kill9 "third chunk handed out"
[ -n "${LAST[1]}" ] && ok || bad "run 1: the checkpoint holds no last key of shop.t"
# streamed from the first second: changes of the writer before the snapshot's last read of run 1
first_change=$(grep -n '"op":"\(insert\|update\|delete\)"' "$W/out1" | head -1 | cut -d: -f1)
last_read=$(grep -n '"snapshot":"incremental"' "$W/out1" | tail -1 | cut -d: -f1)
[ -n "$first_change" ] && [ -n "$last_read" ] && [ "$first_change" -lt "$last_read" ] && ok ||
    bad "run 1: no streamed change before its last read (line ${first_change:-none} vs ${last_read:-none})"
stop_if_failed
# run 2: killed once a chunk was handed out after one was acknowledged
run_killed_unacked
# run 3: goes on to the end (chunks do not wait for the sink)
start_run
resumed 3
wait_for 90 grep -q "incremental snapshot of shop.t completed" "$W/err3" || bad "run 3: no completed line in 90 s"
after 3
step "completed"
stop_if_failed
finish_runs
grep -q 'incremental snapshot of shop.t started' "$W/err4" && bad "run 4 snapshotted again" || ok
[ "$(cat "$W"/err[1-4] | grep -c 'incremental snapshot of shop.t started')" = 1 ] && ok || bad "not one started line"
echo "rows read twice: run 1 -> 2: ${AGAIN[2]}, run 2 -> 3: ${AGAIN[3]} (a chunk is $CHUNK)"
# the chunks whose read view came before a transaction the stream had handed out (MariaDB makes
# a transaction visible a moment after the stream has it): read again, else DBLog breaks
echo "chunks read again, their point before the stream: $(cat "$W"/err[1-4] | grep -c 'its point is before a transaction')"
check_runs my_incsnap_initial
