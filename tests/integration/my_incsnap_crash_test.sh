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
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=200000
CHUNK=10000
. "$HERE/mariadb_lib.sh"
my_test_start || exit 1

. "$HERE/../common/check.sh"
my_sql -e 'CREATE DATABASE shop'
URL=$MY_URL/shop
WPID= CAP=
trap 'for p in $WPID $CAP; do kill -KILL "$p" 2>/dev/null; done; my_test_stop' EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
my_sql shop -e 'CREATE TABLE rowcast_signal (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB'
"$WRITER" "$URL" --table shop.t --key pk --rows $N --count 0 --seed 1 2>>"$W/writer.err" ||
    { bad "bf_writer could not load shop.t: $(tail -1 "$W/writer.err")"; exit 1; }
step "loaded"

run=0
start_run() { # start_run [OPTION...]: run N+1 in the background, stdout W/outN, stderr W/errN
    run=$((run + 1))
    ( RC_SNAPSHOT_VERBOSE=1 exec "$RC" capture "$URL" --include 'shop.t' \
        --checkpoint "$W/ck" --server-id 12 --to native -o mysql.signal.table=shop.rowcast_signal \
        -o mysql.snapshot.chunk.rows=$CHUNK "$@" >"$W/out$run" 2>"$W/err$run" ) &
    CAP=$!
}
signal() { my_sql shop -e "INSERT INTO rowcast_signal VALUES ('$1', '$2', '{\"data-collections\": [\"shop.t\"], \"type\": \"incremental\"}')"; }
# the checkpoint's last key of shop.t ("" when it holds none)
ck_last() { sed -n 's/^last shop\.t \["\([0-9]*\)"\]$/\1/p' "$W/ck" 2>/dev/null; }
# the keys of shop.t's incremental reads in a stream, one a line (the edges have no row)
read_keys() {
    awk -f "$TOOLS/native_events.awk" -e '{ ne_parse($0, "shop.t") }
        NE_OP == "read" && NE_TABLE == "shop.t" && NE_NA && index($0, "\"snapshot\":\"incremental\"") { print ne_key("a") }' "$1"
}
# kill9 WHAT: SIGKILL of the run, then what it read, what the checkpoint holds
declare -A LAST
kill9() {
    kill -KILL "$CAP"
    wait "$CAP" 2>/dev/null
    CAP=
    # a line the kill cut short is no message: a consumer of the output drops it
    [ -z "$(tail -c 1 "$W/out$run")" ] || sed -i '$d' "$W/out$run"
    LAST[$run]=$(ck_last)
    read_keys "$W/out$run" | LC_ALL=C sort >"$W/reads$run"
    step "run $run killed at: $1 (checkpoint's last key ${LAST[$run]:-none}, $(wc -l <"$W/reads$run") rows read)"
}
# resumed K: run K (just started after run K-1 was killed) resumed after the checkpoint's key
resumed() {
    local k=$1 last=${LAST[$(($1 - 1))]}
    if [ -n "$last" ]; then
        wait_for 20 grep -qs "resuming incremental snapshot of shop.t after key \[\"$last\"\] ([0-9]* rows done)" "$W/err$k" &&
            ok || bad "run $k: no 'resuming ... after key [\"$last\"]' line: $(grep -i resum "$W/err$k")"
    fi
}
# after K: what run K read (once it ran on) against run K-1: nothing at or before the checkpoint's
# key read again; the rows read twice counted
after() {
    local k=$1 p=$(($1 - 1)) last=${LAST[$(($1 - 1))]:-0}
    read_keys "$W/out$k" | LC_ALL=C sort >"$W/reads$k.now"
    local first again
    first=$(sort -n "$W/reads$k.now" | head -1)
    [ -n "$first" ] && [ "$first" -gt "$last" ] && ok || bad "run $k: first key read $first, not after the checkpoint's $last"
    again=$(comm -12 "$W/reads$p" "$W/reads$k.now" | wc -l)
    local unacked
    unacked=$(awk -v l="$last" '$1 > l' "$W/reads$p" | wc -l)
    echo "restart $p -> $k: resumed after key $last at $first; rows read twice: $again (run $p had handed out $unacked rows after the checkpoint; a chunk is $CHUNK)"
    [ "$again" -le "$unacked" ] && ok || bad "run $k: $again rows read again, more than the $unacked run $p handed out after its checkpoint"
    [ "$again" -le $CHUNK ] && ok || bad "run $k: $again rows read again, more than a chunk"
}
# chunks_seen K WHAT: how many "chunk N: WHAT" notices run K wrote; seen K WHAT N: at least N
chunks_seen() { grep -c "incremental snapshot shop.t chunk [0-9]*: $2" "$W/err$1" 2>/dev/null; }
seen() { local n; n=$(chunks_seen "$1" "$2"); [ "${n:-0}" -ge "$3" ]; }
# the first failure ends the run (the later steps would only time out), with the runs' last lines
stop_if_failed() { [ "$fail" = 0 ] || { tail -n 4 "$W"/err* >&2; exit 1; }; }

start_run --snapshot never
"$WRITER" "$URL" --table shop.t --key pk --rate 1500 --bias "1:$N:50" --seed 2 --batch 2 2>>"$W/writer.err" &
WPID=$!
wait_for 30 grep -q '"op":"update"' "$W/out1" || bad "run 1 streamed nothing in 30 s"
signal s-1 execute-snapshot
step "signal written"

# run 1: killed at the third chunk's window open
wait_for 40 seen 1 'window open' 3 || bad "run 1: no third chunk in 40 s"
kill9 "chunk window open"
stop_if_failed
# run 2: killed once a chunk was handed out after one was acknowledged
start_run
resumed 2
wait_for 40 seen 2 acknowledged 1 || bad "run 2: no chunk acknowledged in 40 s"
wait_for 20 seen 2 emitted $(($(chunks_seen 2 emitted) + 1)) || bad "run 2: no chunk emitted after an acknowledged one"
kill9 "a chunk handed out, not acknowledged"
after 2
stop_if_failed
# run 3: killed right after a checkpoint write
start_run
resumed 3
wait_for 40 seen 3 acknowledged 1 || bad "run 3: no chunk acknowledged in 40 s"
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
wait_for 60 grep -q "incremental snapshot of shop.t completed" "$W/err5" || bad "run 5: no completed line in 60 s"
read_keys "$W/out5" | LC_ALL=C sort >"$W/reads5"
step "completed"
stop_if_failed
kill -TERM "$WPID"
wait "$WPID" || bad "the writer ended with status $?"
WPID=
kill -TERM "$CAP"
wait "$CAP"
expect_rc "run 5 (SIGTERM: 143)" $? 143
CAP=
run=6
"$RC" capture "$URL" --include 'shop.t' --checkpoint "$W/ck" --server-id 12 --to native --until caught-up \
    -o mysql.signal.table=shop.rowcast_signal >"$W/out6" 2>"$W/err6"
expect_rc "run 6 (--until caught-up)" $? 0
step "caught up"

cat "$W"/err[1-6] | grep 'incremental snapshot of shop.t \(started\|completed\)\|resuming'
[ "$(cat "$W"/err[1-6] | grep -c 'incremental snapshot of shop.t started (signal s-1')" = 1 ] && ok || bad "the signal was not executed once"
cat "$W"/err[1-6] | grep -q 'already being snapshotted' && bad "a signal was executed again" || ok
[ "$(cat "$W"/err[1-6] | grep -c 'incremental snapshot of shop.t completed')" = 1 ] && ok || bad "not one completed line"
grep -q '^snapshot ' "$W/ck" && ok || bad "the checkpoint has no snapshot section"
total=0
for k in 1 2 3 4 5; do total=$((total + $(wc -l <"$W/reads$k"))); done
echo "rows read over the runs: $total (the table had $N at the start)"
cat "$W"/out[1-6] | grep -v '"snapshot":"incremental:' >"$W/all"
"$TOOLS/check_stream.sh" "$URL" shop.t "$W/all" --out "$W" 2>"$W/check.err"
expect_rc "replay of the concatenated outputs equal to SELECT, DBLog check" $? 0
cat "$W/check.err"
step "done"
[ "$fail" = 0 ] && echo "my_incsnap_crash: $pass checks passed" || echo "my_incsnap_crash: $fail of $((pass + fail)) checks failed"
exit $((fail > 0))
