#!/usr/bin/env bash
# Issue 24 N1: tables that start to match --include (docs/sources/postgres.md, "Tables that
# start to match --include"). One PostgreSQL 15 server, captures with --snapshot incremental:
#   1. a table created while the capture runs (rowcast's publication, --include 'public.n*'):
#      bf_writer creates and loads public.n1 and a second one changes it continuously; within a
#      poll (5 s) the capture says it added n1 to its publication and reads it in chunks; its
#      rows from before the ADD come as reads, later ones by the stream: replay equals SELECT,
#      the DBLog check passes, no key is read twice (exactly once after the snapshot);
#   2. a widened --include and a restart: public.w1 (made while the capture was stopped, not
#      matched before) is not in the state's `captured` line: added to the publication, read;
#      the tables captured before are not read again;
#   3. a publication the user made (no "created by rowcast" comment): a new matching table is
#      warned about once, with the exact ALTER PUBLICATION, and the publication is unchanged;
#      once the user runs it, the table's snapshot is queued and its rows arrive.
# usage: pg_incsnap_newtable_test.sh path/to/rowcast path/to/bf_writer
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
. "$HERE/pg_lib.sh"
pg_test_start || exit 1
. "$HERE/../common/check.sh"
URL=$PG_URL
export XDG_STATE_HOME=$W/xdg # never the user's
trap 'for p in ${WPID:-} ${CAP:-}; do kill -9 "$p" 2>/dev/null; done; pg_test_stop' EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
OUT=$W/out
INC=(--include public.t --include 'public.n*')
capture() { # capture ERR ARGS...: in the background (CAP), into OUT
    local e=$1
    shift
    "$RC" capture "$URL" --snapshot incremental --to native --sink "file:$OUT" -o postgres.snapshot.chunk.rows=500 "$@" 2>"$e" &
    CAP=$!
}
stop_capture() {
    kill -TERM "$CAP"
    wait "$CAP"
    expect_rc "$1 (SIGTERM: 143)" $? 143
    CAP=
}
stop_writer() {
    kill -TERM "$WPID"
    wait "$WPID"
    WPID=
}
# the table's events are all there: replay equals SELECT, DBLog, no key read twice
check_table() {
    local t=$1
    "$TOOLS/check_stream.sh" "$URL" "$t" "$W/rows" --out "$W" 2>"$W/check.$t"
    expect_rc "$t: replay equal to SELECT, DBLog check" $? 0
    cat "$W/check.$t"
    local tb=${t#*.} twice
    twice=$(grep "\"table\":\"$tb\"" "$W/rows" | grep '"op":"read"' | sed -n 's/.*"after":\[\([0-9]*\).*/\1/p' | sort | uniq -d | wc -l)
    [ "$twice" = 0 ] && ok || bad "$t: $twice keys read twice"
}
rows_file() { grep -v '"snapshot":"incremental:' "$OUT" >"$W/rows"; }

step "load"
"$WRITER" "$URL" --table public.t --key pk --rows 3000 --count 0 --seed 1 2>>"$W/writer.err" || { bad "load t"; exit 1; }
pg_test_sql -c "CREATE TABLE public.n0 (id int PRIMARY KEY)" >/dev/null

step "1. a table created while capturing, with rows before and after it is added"
capture "$W/err.1" "${INC[@]}"
wait_for 60 grep -q 'incremental snapshot of public.t completed' "$W/err.1" || bad "t not read: $(cat "$W/err.1")"
"$WRITER" "$URL" --table public.n1 --key pk --rows 5000 --count 0 --seed 3 2>>"$W/writer.err" || bad "load n1"
"$WRITER" "$URL" --table public.n1 --key pk --rate 200 --seed 4 --batch 2 2>>"$W/writer.err" &
WPID=$!
wait_for 30 grep -q 'table public.n1 matches --include: added to publication rowcast (ALTER PUBLICATION rowcast ADD TABLE public.n1)' "$W/err.1" &&
    ok || bad "n1 not added: $(cat "$W/err.1")"
wait_for 60 grep -q 'incremental snapshot of public.n1 completed' "$W/err.1" && ok || bad "n1 not read: $(cat "$W/err.1")"
sleep 1 # the writer's changes after the snapshot
stop_writer
stop_capture "run 1"
capture "$W/err.2" "${INC[@]}" --until caught-up
wait "$CAP"
expect_rc "run 2 (--until caught-up)" $? 0
CAP=
rows_file
check_table public.n1
grep '"table":"n1"' "$W/rows" | grep -q '"op":"insert"' && ok || bad "n1: no insert streamed after the ADD"
cap=$(grep '^captured ' "$W"/xdg/rowcast/*.state | tr ' ' '\n' | LC_ALL=C sort | tr '\n' ' ')
[ "$cap" = "captured public.n0 public.n1 public.t " ] && ok || bad "the state's captured line: $cap"

step "2. a widened --include and a restart"
"$WRITER" "$URL" --table public.w1 --key pk --rows 2000 --count 0 --seed 5 2>>"$W/writer.err" || bad "load w1"
capture "$W/err.3" "${INC[@]}" --include public.w1
wait_for 30 grep -q 'table public.w1 matches --include: added to publication rowcast' "$W/err.3" && ok || bad "w1 not added: $(cat "$W/err.3")"
wait_for 60 grep -q 'incremental snapshot of public.w1 completed' "$W/err.3" && ok || bad "w1 not read: $(cat "$W/err.3")"
! grep -q 'incremental snapshot of public.\(t\|n1\) started' "$W/err.3" && ok || bad "a captured table read again: $(cat "$W/err.3")"
stop_capture "run 3"
rows_file
check_table public.w1

step "3. a publication the user made: warned, never altered"
pg_test_sql -c "CREATE TABLE public.u1 (id int PRIMARY KEY); INSERT INTO public.u1 VALUES (1); CREATE PUBLICATION userpub FOR TABLE public.u1" >/dev/null
OUT=$W/out.user
capture "$W/err.4" --include 'public.u*' --publication userpub --slot s_user --checkpoint "$W/user.state"
wait_for 30 grep -q 'incremental snapshot of public.u1 completed' "$W/err.4" || bad "u1 not read: $(cat "$W/err.4")"
"$WRITER" "$URL" --table public.u2 --key pk --rows 1000 --count 0 --seed 6 2>>"$W/writer.err" || bad "load u2"
want="warning: table public.u2 matches --include but publication userpub (not created by rowcast: never altered) does not publish it, so it is not captured: ALTER PUBLICATION userpub ADD TABLE public.u2 (rowcast then snapshots its rows)"
wait_for 30 grep -qF "$want" "$W/err.4" && ok || bad "no warning for u2: $(cat "$W/err.4")"
sleep 6 # another poll: said once, nothing altered
[ "$(grep -cF "$want" "$W/err.4")" = 1 ] && ok || bad "the warning came $(grep -cF "$want" "$W/err.4") times"
[ "$(pg_test_sql -c "SELECT string_agg(tablename, ',') FROM pg_publication_tables WHERE pubname = 'userpub'")" = u1 ] && ok ||
    bad "userpub was altered"
pg_test_sql -c "ALTER PUBLICATION userpub ADD TABLE public.u2" >/dev/null
wait_for 30 grep -q 'incremental snapshot of public.u2 completed' "$W/err.4" && ok || bad "u2 not read once published: $(cat "$W/err.4")"
stop_capture "run 4"
rows_file
check_table public.u2
for r in 1 2 3 4; do echo "--- run $r"; cat "$W/err.$r"; done
echo "pg_incsnap_newtable: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
