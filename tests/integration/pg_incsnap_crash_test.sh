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
# usage: pg_incsnap_crash_test.sh path/to/rowcast path/to/bf_writer
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
trap 'for p in ${WPID:-} ${CAP:-} ${BIAS:-}; do kill -9 "$p" 2>/dev/null; done; pg_test_stop' EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
SIG=public.rowcast_signal
CK=$W/t.state
OUT=$W/out
RUN=0
capture() {
    exec "$RC" capture "$URL" --include public.t --snapshot never --to native --sink "file:$OUT" --checkpoint "$CK" \
        -o postgres.signal.table=$SIG -o postgres.snapshot.chunk.rows=$CHUNK "$@"
}
# run R's output starts at FROM[R]: OUT's size when it started, or where it cut OUT back to
FROM=()
start() {
    RUN=$((RUN + 1))
    FROM[$RUN]=$(stat -c %s "$OUT" 2>/dev/null || echo 0)
    (capture "$@" 2>"$W/err.$RUN") &
    CAP=$!
}
# the output of run R (once it started writing: the cut back is said before)
out_of() {
    local cut from=${FROM[$1]}
    cut=$(sed -n "s|^rowcast: cut $OUT back from [0-9]* to \([0-9]*\) bytes.*|\1|p" "$W/err.$1" | head -1)
    [ -n "$cut" ] && from=$cut
    FROM[$1]=$from
    tail -c +$((from + 1)) "$OUT"
}
killed() { # kill -9 at the point just observed
    kill -9 "$CAP"
    wait "$CAP" 2>/dev/null
    CAP=
    step "run $RUN killed: $1"
}
signal() { pg_test_sql -c "INSERT INTO $SIG VALUES ('$1', '$2', $3)" >/dev/null; }
# the newest chunk number a notice of run RUN gave for `what`
chunk_of() { grep -o "incremental snapshot public.t chunk [0-9]*: $1" "$W/err.$RUN" | tail -1 | sed 's/.*chunk \([0-9]*\).*/\1/'; }
seen() { [ "$(chunk_of "$1")" -ge "$2" ] 2>/dev/null; }

step "load"
"$WRITER" "$URL" --table public.t --key pk --rows $N --count 0 --seed 1 2>>"$W/writer.err" ||
    { bad "bf_writer could not load public.t: $(tail -1 "$W/writer.err")"; exit 1; }
pg_test_sql -c "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)" >/dev/null

step "--checkpoint without postgres.signal.table: refused as before"
"$RC" capture "$URL" --include public.t --snapshot never --to native --checkpoint "$CK" --until caught-up >/dev/null 2>"$W/refused.err"
st=$?
[ $st != 0 ] && grep -q -- "--checkpoint is MySQL's and MariaDB's: PostgreSQL's position is its replication slot (--slot)" "$W/refused.err" &&
    ok || bad "--checkpoint alone: status $st, $(cat "$W/refused.err")"

step "run 1: the signal, killed with a chunk's window open"
start
echo 1:$CHUNK:50 >"$W/bias"
"$WRITER" "$URL" --table public.t --key pk --rate 400 --bias-file "$W/bias" --seed 2 --batch 2 2>>"$W/writer.err" &
WPID=$!
(
    while :; do # the writer's bias follows the reads: the next chunk's keys
        last=$(tail -c 100000 "$OUT" 2>/dev/null | grep '"op":"read"' | tail -1 | sed -n 's/.*"after":\[\([0-9]*\).*/\1/p')
        echo "$((${last:-0} + 1)):$((${last:-0} + 2 * CHUNK)):50" >"$W/bias.new" && mv "$W/bias.new" "$W/bias"
        sleep 0.2
    done
) &
BIAS=$!
wait_for 30 grep -qs '"op":"update"' "$OUT" || bad "run 1 streamed nothing in 30 s"
signal s-1 execute-snapshot "'{\"data-collections\": [\"public.t\"], \"type\": \"incremental\"}'"
wait_for 60 seen "acknowledged" 3 || bad "run 1: no chunk 3 acknowledged in 60 s: $(tail -3 "$W/err.1")"
wait_for 30 seen "window open" 5 || bad "run 1: no window of chunk 5 in 30 s"
killed "window of chunk $(chunk_of 'window open') open"

# a restarted run: resumes after the key its state file holds, its first read after it
resumed() {
    start
    wait_for 30 grep -q "resuming incremental snapshot of public.t after key \[\"[0-9]*\"\]" "$W/err.$RUN" ||
        { bad "run $RUN: no resuming line: $(cat "$W/err.$RUN")"; return; }
    ok
    after=$(sed -n 's/.*resuming incremental snapshot of public.t after key \["\([0-9]*\)"\].*/\1/p' "$W/err.$RUN" | head -1)
    wait_for 30 eval 'out_of $RUN | grep -q "\"op\":\"read\""' || { bad "run $RUN read nothing in 30 s"; return; }
    first=$(out_of $RUN | grep -m1 '"op":"read"' | sed -n 's/.*"after":\[\([0-9]*\).*/\1/p')
    [ "$first" -gt "$after" ] && [ "$first" -le $((after + CHUNK)) ] && ok ||
        bad "run $RUN: first read $first, expected the chunk after key $after"
    echo "run $RUN resumed after key $after, first read $first"
}

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
wait_for 30 grep -q '^paused 1$' "$CK" || bad "run 4: the state file never said paused"
killed "paused"

step "run 5: still paused; resume-snapshot completes it"
start
wait_for 30 grep -q "incremental snapshots are paused" "$W/err.$RUN" && ok || bad "run 5: not said paused: $(cat "$W/err.$RUN")"
wait_for 30 eval 'out_of $RUN | grep -q "\"op\":\"update\""' || bad "run 5 streamed nothing in 30 s"
sleep 2 # paused: no window opens while the stream goes on
! grep -q 'window open' "$W/err.$RUN" && ok || bad "run 5 read a chunk while paused"
signal r-1 resume-snapshot NULL
wait_for 90 grep -q 'incremental snapshot of public.t completed' "$W/err.$RUN" || bad "run 5: no completion in 90 s: $(tail -3 "$W/err.$RUN")"
kill "$BIAS"
wait "$BIAS" 2>/dev/null
BIAS=
kill -TERM "$WPID"
wait "$WPID"
WPID=
kill -TERM "$CAP"
wait "$CAP"
expect_rc "run 5 (SIGTERM: 143)" $? 143
CAP=
step "run 6: --until caught-up"
start --until caught-up
wait "$CAP"
expect_rc "run 6 (--until caught-up)" $? 0
CAP=

step "checks: every run's output"
grep -v '"snapshot":"incremental:' "$OUT" >"$W/rows"
"$TOOLS/check_stream.sh" "$URL" public.t "$W/rows" --out "$W" 2>"$W/check.err"
expect_rc "replay of every run's output equal to SELECT, DBLog check" $? 0
cat "$W/check.err"
step "checks: reads again"
# the keys each restarted run read that the output before it holds: at most one chunk's
for r in 2 3 4 5; do out_of $r >/dev/null; done # FROM[r]: where run r's output starts
LC_ALL=C awk -v from="${FROM[2]} ${FROM[3]} ${FROM[4]} ${FROM[5]}" -v chunk=$CHUNK '
    BEGIN { nb = split(from, b, " ") }
    /"op":"read"/ && match($0, /"after":\[[0-9]+/) {
        k = substr($0, RSTART + 9, RLENGTH - 9); r = 1
        for (i = 1; i <= nb; i++) if (off >= b[i]) r = i + 1
        if ((k in first) && first[k] < r && !((r, k) in again)) { again[r, k] = 1; n[r]++ }
        if (!(k in first)) first[k] = r
        reads++; times[k]++
    }
    { off += length($0) + 1 }
    END {
        for (k in times) if (times[k] > 1) twice++
        printf "reads: %d, keys read more than once: %d\n", reads, twice
        for (r = 2; r <= nb + 1; r++) {
            printf "run %d read again %d keys of the output before it (chunk %d)\n", r, n[r], chunk
            if (n[r] > chunk) bad = 1
        }
        exit bad
    }' "$OUT"
expect_rc "each restart read at most one chunk again" $? 0
reads=$(grep -c '"op":"read"' "$W/rows")
[ "$reads" -ge $((N / 2)) ] && ok || bad "only $reads reads"
started=$(cat "$W"/err.* | grep -c 'incremental snapshot of public.t started (signal s-1')
[ "$started" = 1 ] && ok || bad "the signal was executed $started times"
[ "$(grep -c '"table":"t".*"snapshot":"incremental:end"' "$OUT")" = 1 ] && ok || bad "not one end edge"
grep -q '^paused 0$' "$CK" && ! grep -q '^table ' "$CK" && ok || bad "the final state file: $(cat "$CK")"

step "a state file of another slot is refused"
"$RC" capture "$URL" --include public.t --snapshot never --to native --checkpoint "$CK" --slot other \
    -o postgres.signal.table=$SIG --until caught-up >/dev/null 2>"$W/other.err"
st=$?
[ $st != 0 ] && grep -q "state file $CK is slot rowcast's, not other's" "$W/other.err" && ok || bad "another slot's state: status $st, $(cat "$W/other.err")"
pg_test_sql -c "SELECT pg_drop_replication_slot('other')" >/dev/null 2>&1
for r in 1 2 3 4 5; do echo "--- run $r"; grep -v 'chunk [0-9]*: ' "$W/err.$r"; done
echo "pg_incsnap_crash: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
