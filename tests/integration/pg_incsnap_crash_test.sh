#!/usr/bin/env bash
# Issue 24 step P2: an incremental snapshot of PostgreSQL survives kill -9
# (docs/sources/postgres.md, "Incremental snapshots", "After a kill"). One PostgreSQL 15
# server: bf_writer loads t (PRIMARY KEY (id), 200,000 rows) and changes it all along (half of
# its changes on the chunk being read); the capture runs with --checkpoint STATE,
# -o postgres.signal.table and RC_SNAPSHOT_VERBOSE=1 (a notice per chunk state, so that every
# kill is at an observed point, never after a sleep). A signal asks for t, then
# the capture (into --sink file:OUT, which a restart cuts back to the acknowledged position) is
# killed with SIGKILL:
#   1. while a chunk's window is open (its rows buffered, none emitted);
#   2. right after a chunk was emitted (its rows in the output, not acknowledged yet);
#   3. right after a state write (a chunk acknowledged);
#   4. a pause-snapshot signal acknowledged (the state file says paused 1), then killed: the
#      next run says the snapshot is paused and reads no chunk until resume-snapshot.
# Each restart uses the same --checkpoint: it says "resuming incremental snapshot of public.t
# after key [...]", its first read comes after that key, and the snapshot completes. Then, on
# the output of every run (+ a --until caught-up run after the writer stopped), one after the
# other in OUT: check_stream.sh (replay equals SELECT, DBLog check event by event); the keys a
# restarted run reads that an earlier run's output holds are at most one chunk's; the signal
# was executed once. Also: --checkpoint without
# postgres.signal.table is refused as before; a state file of another slot is refused.
# With a third argument (issue 25 §2, "what the incremental snapshot needs beyond [the slot]
# goes to the same state topic"): the same runs with --checkpoint kafka://…/rc-state --server
# shop, the state a record of the mock cluster (its own process) instead of a file; the checks
# read the topic's last record where they read the file.
# usage: pg_incsnap_crash_test.sh path/to/rowcast path/to/bf_writer [path/to/rowcast-kafka-mock]
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=200000
CHUNK=4096
. "$HERE/pg_lib.sh"
pg_test_start || exit 1
. "$HERE/../common/check.sh"
URL=$PG_URL
export XDG_STATE_HOME=$W/xdg # never the user's
export RC_SNAPSHOT_VERBOSE=1 # the chunk notices
trap 'for p in ${WPID:-} ${CAP:-} ${BIAS:-}; do kill -9 "$p" 2>/dev/null; done; [ -z "${MOCK:-}" ] || mock_stop; pg_test_stop' EXIT
SIG=public.rowcast_signal
MOCK=${3:-}
STATE_OPTS=()
CK=$W/t.state
state_text() { cat "$CK" 2>/dev/null; }
if [ -n "$MOCK" ]; then
    . "$HERE/kafka_lib.sh"
    mock_start "$MOCK" "$W" 1 && mock_cmd "topic rc-state 1" || exit 1
    CK=kafka://$BOOTSTRAP/rc-state
    STATE_OPTS=(--server shop)
    # the newest record of the state's key (the topic holds no other)
    state_text() { kcat -b "$BOOTSTRAP" -C -t rc-state -o -1 -e -q -f '%s\n' 2>/dev/null; }
fi
OUT=$W/out
# flush=false: each chunk paced by the test server's wal_writer_delay (it runs with
# synchronous_commit = off), so that the kill points fall while chunks run
capture() {
    exec "$RC" capture "$URL" --include public.t --snapshot never --to native --sink "file:$OUT" --checkpoint "$CK" "${STATE_OPTS[@]}" \
        -o postgres.signal.table=$SIG -o postgres.snapshot.chunk.rows=$CHUNK -o postgres.snapshot.flush=false "$@"
}
. "$HERE/pg_incsnap_lib.sh"
signal() { pg_test_sql -c "INSERT INTO $SIG VALUES ('$1', '$2', $3)" >/dev/null; }
step "load"
"$WRITER" "$URL" --table public.t --key pk --rows $N --count 0 --seed 1 2>>"$W/writer.err" ||
    { bad "bf_writer could not load public.t: $(tail -1 "$W/writer.err")"; exit 1; }
pg_test_sql -c "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)" >/dev/null

step "--checkpoint without postgres.signal.table: refused as before"
"$RC" capture "$URL" --include public.t --snapshot never --to native --checkpoint "$CK" "${STATE_OPTS[@]}" --until caught-up >/dev/null 2>"$W/refused.err"
st=$?
[ $st != 0 ] && grep -q -- "--checkpoint is MySQL's and MariaDB's: PostgreSQL's position is its replication slot (--slot)" "$W/refused.err" &&
    ok || bad "--checkpoint alone: status $st, $(cat "$W/refused.err")"

step "run 1: the signal, killed with a chunk's window open"
start
echo 1:$CHUNK:50 >"$W/bias"
"$WRITER" "$URL" --table public.t --key pk --rate 400 --bias-file "$W/bias" --seed 2 --batch 2 2>>"$W/writer.err" &
WPID=$!
bias_follows_reads
wait_for 30 grep -qs '"op":"update"' "$OUT" || bad "run 1 streamed nothing in 30 s"
signal s-1 execute-snapshot "'{\"data-collections\": [\"public.t\"], \"type\": \"incremental\"}'"
wait_for 60 seen "acknowledged" 3 || bad "run 1: no chunk 3 acknowledged in 60 s: $(tail -3 "$W/err.1")"
wait_for 30 seen "window open" 5 || bad "run 1: no window of chunk 5 in 30 s"
killed "window of chunk $(chunk_of 'window open') open"

step "run 2: resumes; killed right after a chunk was emitted"
resumed
wait_for 30 seen "emitted" 1 || bad "run 2: no chunk emitted in 30 s"
killed "chunk $(chunk_of emitted) emitted, not acknowledged"

step "run 3: resumes; killed right after a state write"
resumed
wait_for 30 seen "acknowledged" 1 || bad "run 3: no chunk acknowledged in 30 s"
killed "chunk $(chunk_of acknowledged) acknowledged, state written"

step "run 4: resumes; paused, killed once the pause is in the state file"
resumed
signal p-1 pause-snapshot NULL
wait_for 30 eval 'state_text | grep -q "^paused 1$"' || bad "run 4: the state file never said paused"
killed "paused"

step "run 5: still paused; resume-snapshot completes it"
start
wait_for 30 grep -q "incremental snapshots are paused" "$W/err.$RUN" && ok || bad "run 5: not said paused: $(cat "$W/err.$RUN")"
wait_for 30 eval 'out_of $RUN | grep -q "\"op\":\"update\""' || bad "run 5 streamed nothing in 30 s"
sleep 2 # paused: no window opens while the stream goes on
! grep -q 'window open' "$W/err.$RUN" && ok || bad "run 5 read a chunk while paused"
signal r-1 resume-snapshot NULL
wait_for 90 grep -q 'incremental snapshot of public.t completed' "$W/err.$RUN" || bad "run 5: no completion in 90 s: $(tail -3 "$W/err.$RUN")"
stop_all
step "run 6: --until caught-up"
until_caught_up

step "checks: every run's output"
grep -v '"snapshot":"incremental:' "$OUT" >"$W/rows"
"$TOOLS/check_stream.sh" "$URL" public.t "$W/rows" --out "$W" 2>"$W/check.err"
expect_rc "replay of every run's output equal to SELECT, DBLog check" $? 0
cat "$W/check.err"
step "checks: reads again"
reads_again
expect_rc "each restart read at most one chunk again" $? 0
reads=$(grep -c '"op":"read"' "$W/rows")
[ "$reads" -ge $((N / 2)) ] && ok || bad "only $reads reads"
started=$(cat "$W"/err.* | grep -c 'incremental snapshot of public.t started (signal s-1')
[ "$started" = 1 ] && ok || bad "the signal was executed $started times"
[ "$(grep -c '"table":"t".*"snapshot":"incremental:end"' "$OUT")" = 1 ] && ok || bad "not one end edge"
state_text >"$W/final.state"
grep -q '^paused 0$' "$W/final.state" && ! grep -q '^table ' "$W/final.state" && ok || bad "the final state: $(cat "$W/final.state")"

step "a state file of another slot is refused"
"$RC" capture "$URL" --include public.t --snapshot never --to native --checkpoint "$CK" "${STATE_OPTS[@]}" --slot other \
    -o postgres.signal.table=$SIG --until caught-up >/dev/null 2>"$W/other.err"
st=$?
[ $st != 0 ] && grep -q "state file $CK is slot rowcast's, not other's" "$W/other.err" && ok || bad "another slot's state: status $st, $(cat "$W/other.err")"
pg_test_sql -c "SELECT pg_drop_replication_slot('other')" >/dev/null 2>&1
for r in 1 2 3 4 5; do echo "--- run $r"; grep -v 'chunk [0-9]*: ' "$W/err.$r"; done
echo "pg_incsnap_crash: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
