#!/usr/bin/env bash
# Issue 24, session 19: a table added to the capture's publication while a transaction that
# changes it is open (docs/design/incremental-snapshots.md, "Tables added to the publication").
# pgoutput decides per change, with the catalog as of that change in the WAL, whether its table
# is published: the changes a transaction T made to public.n1 before `ALTER PUBLICATION ... ADD
# TABLE public.n1` committed are never streamed, even when T commits after the ADD. If the
# table's chunks are read while T is open, they do not see those changes either: lost. One
# PostgreSQL 15 server, a capture of a publication the test made (userpub, FOR TABLE public.n0)
# with --include 'public.n*', no sleeps (each psql session held open on a FIFO, every statement
# waited for):
#   - public.n1 (even ids 2..4000) is created and loaded, committed;
#   - T1 opens: updates, inserts (in gaps, before and after the range) and deletes across the
#     key range of n1; T2 opens and writes another table only (an xid, open across the ADD);
#   - ALTER PUBLICATION userpub ADD TABLE public.n1 (what rowcast runs itself on a publication
#     it owns); the capture's poll (5 s) queues n1's snapshot;
#   - T1 and T2 change n1 again, after the ADD (published: PostgreSQL 15.13+ sends the ADD's
#     invalidations to transactions in progress);
#   - the test waits until n1's snapshot completed or the capture says its first chunk waits
#     for the transactions open at the ADD, then commits T1 and T2;
#   - a --until caught-up run: the replay of n1 equals SELECT, the DBLog check passes.
# usage: pg_incsnap_opentx_test.sh path/to/rowcast
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
. "$HERE/pg_lib.sh"
pg_test_start || exit 1
. "$HERE/../common/check.sh"
URL=$PG_URL
export XDG_STATE_HOME=$W/xdg # never the user's
export RC_SNAPSHOT_VERBOSE=1 # the chunk notices (and the wait's, at once)
trap 'exec 3>&- 4>&-; for p in ${CAP:-} ${SA:-} ${SB:-}; do kill -9 "$p" 2>/dev/null; done; pg_test_stop' EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
OUT=$W/out
INC=(--include 'public.n*')
capture() { # capture ERR ARGS...: in the background (CAP), into OUT
    local e=$1
    shift
    "$RC" capture "$URL" --publication userpub --snapshot incremental --to native --sink "file:$OUT" \
        -o postgres.snapshot.chunk.rows=200 "$@" 2>"$e" &
    CAP=$!
}
# A psql session held open: session NAME FD starts it reading the FIFO W/NAME.in (its output
# in W/NAME.out) on file descriptor FD; sql FD NAME SQL runs SQL there and waits for it.
N=0
session() {
    mkfifo "$W/$1.in"
    pg_test_sql <"$W/$1.in" >"$W/$1.out" 2>&1 &
    eval "S${1}=\$!; exec $2>\"\$W/\$1.in\""
}
sql() {
    N=$((N + 1))
    printf '%s\n\\echo done-%s\n' "$3" "$N" >&"$1"
    wait_for 30 grep -q "^done-$N\$" "$W/$2.out" && ok || bad "session $2: $3: $(cat "$W/$2.out")"
}

step "load"
pg_test_sql -c "CREATE TABLE public.n0 (id bigint PRIMARY KEY, v bigint); CREATE PUBLICATION userpub FOR TABLE public.n0" >/dev/null
capture "$W/err.1" "${INC[@]}"
wait_for 30 grep -q 'incremental snapshot of public.n0 completed' "$W/err.1" || bad "n0 not read: $(cat "$W/err.1")"
pg_test_sql -c "CREATE TABLE public.n1 (id bigint PRIMARY KEY, v bigint);
                INSERT INTO public.n1 SELECT 2 * g, 2 * g FROM generate_series(1, 2000) g" >/dev/null

step "T1 changes n1 across its key range, T2 writes n0; both stay open"
session A 3
session B 4
sql 3 A "BEGIN; UPDATE public.n1 SET v = 100000 + id WHERE id IN (2, 2000, 4000);
         INSERT INTO public.n1 VALUES (1, 100001), (2001, 102001), (3999, 103999), (5000, 105000);
         DELETE FROM public.n1 WHERE id IN (1000, 3000);"
sql 4 B "BEGIN; INSERT INTO public.n0 VALUES (1, 1);"

step "n1 added to the publication while T1 and T2 are open"
pg_test_sql -c "ALTER PUBLICATION userpub ADD TABLE public.n1" >/dev/null

step "T1 and T2 change n1 after the ADD"
sql 3 A "UPDATE public.n1 SET v = 200000 + id WHERE id IN (4, 2004, 3998); INSERT INTO public.n1 VALUES (7, 200007);"
sql 4 B "UPDATE public.n1 SET v = 300000 + id WHERE id IN (6, 2006, 3996); INSERT INTO public.n1 VALUES (9, 300009);
         DELETE FROM public.n1 WHERE id = 1002;"

step "n1's snapshot queued; then completed, or its first chunk waits for T1 and T2"
wait_for 30 grep -q 'incremental snapshot of public.n1 started' "$W/err.1" && ok || bad "n1 not queued: $(cat "$W/err.1")"
wait_for 60 grep -q 'incremental snapshot of public.n1 completed\|incremental snapshot of public.n1 waits for' "$W/err.1" ||
    bad "n1: neither read nor waiting: $(cat "$W/err.1")"
grep -q 'incremental snapshot of public.n1 waits for' "$W/err.1" && ok ||
    bad "n1 was read while transactions open across its ADD were in progress"
sql 3 A "COMMIT;"
sql 4 B "COMMIT;"
wait_for 60 grep -q 'incremental snapshot of public.n1 completed' "$W/err.1" && ok || bad "n1 not read: $(cat "$W/err.1")"
kill -TERM "$CAP"
wait "$CAP"
expect_rc "run 1 (SIGTERM: 143)" $? 143
CAP=

step "--until caught-up, then the checks"
capture "$W/err.2" "${INC[@]}" --until caught-up
wait "$CAP"
expect_rc "run 2 (--until caught-up)" $? 0
CAP=
grep -v '"snapshot":"incremental:' "$OUT" >"$W/rows"
"$TOOLS/check_stream.sh" "$URL" public.n1 "$W/rows" --out "$W" 2>"$W/check.n1"
expect_rc "n1: replay equal to SELECT, DBLog check" $? 0
cat "$W/check.n1"
for r in 1 2; do echo "--- run $r"; grep -v 'chunk [0-9]*: ' "$W/err.$r"; done
echo "pg_incsnap_opentx: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
