# shellcheck shell=bash
# The helpers of MariaDB's incremental-snapshot kill tests (my_incsnap_crash_test.sh,
# my_incsnap_initial_test.sh, whose arguments are path/to/rowcast path/to/bf_writer). The test
# sets N (rows), CHUNK (chunk rows) and TABLE (DB.TABLE snapshotted, in database shop), then
# sources this file, which takes RC and WRITER from the arguments, starts the server (W, mariadb_lib.sh), creates database shop
# (URL), and kills the writer (WPID) and the capture (CAP) at exit; then the test sets RUN_OPTS (an
# array: the capture options of every run, --checkpoint "$W/ck" among them).
# Keys are tab-separated key values (one column: the value; a composite key: "12<TAB>3").
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
. "$HERE/mariadb_lib.sh"
my_test_start || exit 1
. "$HERE/../common/check.sh"
my_sql -e 'CREATE DATABASE shop'
URL=$MY_URL/shop
WPID=
trap 'for p in $WPID $CAP; do kill -KILL "$p" 2>/dev/null; done; my_test_stop' EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
run=0
CAP=
# start_run [OPTION...]: run N+1 in the background, stdout W/outN, stderr W/errN; with STOP=WHAT:N
# it stops itself (SIGSTOP) at its Nth chunk notice WHAT (src/sources/snapshot_stop.h): the kill
# point is then exact, where a test polling the notices under load kills a few chunks later
start_run() {
    run=$((run + 1))
    ( RC_SNAPSHOT_VERBOSE=1 RC_SNAPSHOT_STOP=${STOP:-} exec "$RC" capture "$URL" "${RUN_OPTS[@]}" \
        -o mysql.snapshot.chunk.rows=$CHUNK "$@" >"$W/out$run" 2>"$W/err$run" ) &
    CAP=$!
    STOP=
}
# stopped_at SECONDS: the run stopped at its STOP point within SECONDS (its process state T)
stopped_at() {
    wait_for "$1" eval '[ "$(cut -d" " -f3 /proc/$CAP/stat 2>/dev/null)" = T ]' ||
        bad "run $run: not stopped at its point in $1 s: $(tail -n 2 "$W/err$run")"
}
# the checkpoint's last key of TABLE as the state writes it, inside the brackets ("12","3"; "" when none)
ck_last() { sed -n "s/^last ${TABLE//./\\.} \[\(.*\)\]\$/\1/p" "$W/ck" 2>/dev/null; }
# a state key ("12","3") as a tab-separated key
key_tab() { printf '%s\n' "$1" | sed 's/"//g; s/,/\t/g'; }
# the keys of TABLE's incremental reads in a stream, one a line (the edges have no row)
read_keys() {
    awk -f "$TOOLS/native_events.awk" -v t="$TABLE" -e '{ ne_parse($0, t) }
        NE_OP == "read" && NE_TABLE == t && NE_NA && index($0, "\"snapshot\":\"incremental\"") { print ne_key("a") }' "$1"
}
# keys_after LAST [FILE]: the keys of FILE (stdin) in key order (numeric columns) after LAST ("": all)
keys_after() {
    awk -F '\t' -v last="$1" 'function gt(a, b,    x, y, n, i) {
            n = split(a, x, "\t"); split(b, y, "\t")
            for (i = 1; i <= n; i++) { if (x[i] + 0 > y[i] + 0) return 1; if (x[i] + 0 < y[i] + 0) return 0 }
            return 0 }
        last == "" || gt($0, last)' "${2:--}"
}
# the smallest key of FILE in key order
first_key() { sort -t "$(printf '\t')" -k1,1n -k2,2n "$1" | head -1; }
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
        wait_for 20 grep -qsF "resuming incremental snapshot of $TABLE after key [$last] (" "$W/err$k" &&
            ok || bad "run $k: no 'resuming ... after key [$last]' line: $(grep -i resum "$W/err$k")"
    fi
}
# after K: what run K read (once it ran on) against run K-1: nothing at or before the checkpoint's
# key read again; the rows read twice counted
after() {
    local k=$1 p=$(($1 - 1)) last
    last=$(key_tab "${LAST[$(($1 - 1))]}")
    read_keys "$W/out$k" | LC_ALL=C sort >"$W/reads$k.now"
    local first again unacked
    first=$(first_key "$W/reads$k.now")
    [ -n "$first" ] && [ -n "$(printf '%s\n' "$first" | keys_after "$last")" ] && ok ||
        bad "run $k: first key read $first, not after the checkpoint's ${last:-none}"
    again=$(comm -12 "$W/reads$p" "$W/reads$k.now" | wc -l)
    unacked=$(keys_after "$last" "$W/reads$p" | wc -l)
    echo "restart $p -> $k: resumed after key ${last:-none} at $first; rows read twice: $again (run $p had handed out $unacked rows after the checkpoint; a chunk is $CHUNK)"
    [ "$again" -le "$unacked" ] && ok || bad "run $k: $again rows read again, more than the $unacked run $p handed out after its checkpoint"
    [ "$again" -le "$CHUNK" ] && ok || bad "run $k: $again rows read again, more than a chunk"
    AGAIN[$k]=$again
}
declare -A AGAIN
# chunks_seen K WHAT: how many "chunk N: WHAT" notices run K wrote; seen K WHAT N: at least N
chunks_seen() { grep -c "incremental snapshot $TABLE chunk [0-9]*: $2" "$W/err$1" 2>/dev/null; }
seen() { local n; n=$(chunks_seen "$1" "$2"); [ "${n:-0}" -ge "$3" ]; }
# the first failure ends the run (the later steps would only time out), with the runs' last lines
stop_if_failed() { [ "$fail" = 0 ] || { tail -n 4 "$W"/err* >&2; exit 1; }; }
# load_table KEY: TABLE loaded with N rows (bf_writer --key KEY); start_writer KEY: it changes
# them on at 1,500 changes a second, half of them on the keys 1..N (WPID)
load_table() {
    "$WRITER" "$URL" --table "$TABLE" --key "$1" --rows "$N" --count 0 --seed 1 2>>"$W/writer.err" ||
        { bad "bf_writer could not load $TABLE: $(tail -1 "$W/writer.err")"; exit 1; }
    step "loaded"
}
start_writer() {
    "$WRITER" "$URL" --table "$TABLE" --key "$1" --rate 1500 --bias "1:$N:50" --seed 2 --batch 2 2>>"$W/writer.err" &
    WPID=$!
}
# finish_runs: the writer stopped, the last run stopped with SIGTERM, then one more run with
# --until caught-up
finish_runs() {
    kill -TERM "$WPID"
    wait "$WPID" || bad "the writer ended with status $?"
    WPID=
    kill -TERM "$CAP"
    wait "$CAP"
    expect_rc "run $run (SIGTERM: 143)" $? 143
    CAP=
    run=$((run + 1))
    "$RC" capture "$URL" "${RUN_OPTS[@]}" --until caught-up >"$W/out$run" 2>"$W/err$run"
    expect_rc "run $run (--until caught-up)" $? 0
    step "caught up"
}
# check_runs NAME: one completed line over all runs; the replay of their concatenated outputs
# equals SELECT and the DBLog check passes; the counts; exits
check_runs() {
    cat "$W"/err[1-9] | grep "incremental snapshot of $TABLE \(started\|completed\)\|resuming"
    [ "$(cat "$W"/err[1-9] | grep -c "incremental snapshot of $TABLE completed")" = 1 ] && ok || bad "not one completed line"
    cat "$W"/out[1-9] | grep -v '"snapshot":"incremental:' >"$W/all"
    "$TOOLS/check_stream.sh" "$URL" "$TABLE" "$W/all" --out "$W" 2>"$W/check.err"
    expect_rc "replay of the concatenated outputs equal to SELECT, DBLog check" $? 0
    cat "$W/check.err"
    step "done"
    [ "$fail" = 0 ] && echo "$1: $pass checks passed" || echo "$1: $fail of $((pass + fail)) checks failed"
    exit $((fail > 0))
}
# run_killed_unacked: the next run resumes (checked), and is killed once it handed out a chunk
# after one was acknowledged (its rows in the sink, not acknowledged); what it read again checked.
# The point: the run's second chunk handed out, which (one chunk in flight) comes after the
# first one's acknowledgement; the run stops itself there (STOP). (Its stderr may not show that
# acknowledgement yet: the source thread's notices reach stderr through the pipeline's thread.)
run_killed_unacked() {
    STOP=emitted:2 start_run
    resumed $run
    stopped_at 60
    kill9 "a chunk handed out after one was acknowledged"
    after $run
    stop_if_failed
}
