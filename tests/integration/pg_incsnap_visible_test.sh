#!/usr/bin/env bash
# Issue 24, session 22: PostgreSQL's side of my_incsnap_visible (docs/sources/postgres.md, "The
# guarantee"). A committing backend flushes its commit record and, with synchronous
# replication, waits for the standby (SyncRep) before it leaves the ProcArray: the walsender
# decodes the flushed commit, so the stream hands the transaction out while new snapshots do
# not see it yet. synchronous_standby_names names a standby that never connects, so an UPDATE
# run with synchronous_commit = on waits until pg_cancel_backend (then it is committed locally
# and visible): the race set up on purpose. rowcast's own commits (watermarks: synchronous_commit
# = local; the signals here: local too) never wait.
#   - the capture streams public.t (6 rows) with a signal table, no snapshot;
#   - the visibility check: t queued and paused in one signal transaction; UPDATE id 5 to 999
#     waits for the standby, streamed while SELECT gives 5 (checked); resume: each chunk's
#     snapshot has the UPDATE in progress, so the chunk is read again (chunk 3 seen, none
#     completed), until the UPDATE is cancelled;
#   - the gate (pg_incsnap_gate.c): UPDATE id 6 to 998 waits the same way, then t is asked for
#     again: its first chunk waits for that transaction (or, if it was read, is read again);
#     none completed before the cancel;
#   - the gate's bound (pg_current_xact_id, not pg_snapshot_xmax): a transaction that got its
#     xid after the signal's and stays open after it committed holds the first chunk back;
#   - the stream of t: each UPDATE, then six reads with the UPDATEs' values.
# usage: pg_incsnap_visible_test.sh path/to/rowcast
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
pg_test_start || exit 1
. "$HERE/../common/check.sh"
export XDG_STATE_HOME=$W/xdg # never the user's
CAP=
trap '[ -n "$CAP" ] && kill -KILL $CAP 2>/dev/null; pg_test_stop' EXIT
SIG=public.rowcast_signal
pg_test_sql -c "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text);
    CREATE TABLE t (id int PRIMARY KEY, v bigint); INSERT INTO t SELECT g, g FROM generate_series(1, 6) g;
    CREATE TABLE u (id int PRIMARY KEY)" >/dev/null
( RC_SNAPSHOT_VERBOSE=1 exec "$RC" capture "$PG_URL" --include 'public.*' --to native --snapshot never \
    -o postgres.signal.table=$SIG >"$W/out" 2>"$W/err" ) &
CAP=$!
# streaming: a row of u written after the capture started is in its output
k=0
streaming() { k=$((k + 1)); pg_test_sql -c "INSERT INTO u VALUES ($k)" >/dev/null && grep -q '"table":"u"' "$W/out"; }
wait_for 30 streaming || bad "the capture streamed nothing in 30 s: $(cat "$W/err")"
# signal VALUES...: rows of the signal table, one transaction, never waiting for the standby
signal() { pg_test_sql -c "SET synchronous_commit = local" -c "INSERT INTO $SIG VALUES $*" >/dev/null || bad "signal $*"; }
ask() { printf "('%s', 'execute-snapshot', '{\"data-collections\": [\"public.t\"]}')" "$1"; }
# waiting_update ID V: UPDATE t in the background (U), waiting for the standby; streamed while
# its old value is what SELECT gives
waiting_update() {
    ( PGAPPNAME=upd pg_test_sql -c "SET synchronous_commit = on" -c "UPDATE t SET v = $2 WHERE id = $1" >"$W/upd.$1" 2>&1 ) &
    U=$!
    wait_for 10 grep -q "\"after\":\[$1,$2\]" "$W/out" || bad "the UPDATE of id $1 was not streamed in 10 s"
    local seen
    seen=$(pg_test_sql -c "SELECT v FROM t WHERE id = $1")
    [ "$seen" = "$1" ] && ok || bad "the UPDATE of id $1 was visible (v $seen) when the stream had it: the race is not set up"
}
# the UPDATE cancelled: committed locally, visible
cancel_update() {
    local n
    n=$(pg_test_sql -c "SELECT count(pg_catalog.pg_cancel_backend(pid)) FROM pg_catalog.pg_stat_activity
                        WHERE application_name = 'upd' AND wait_event = 'SyncRep'")
    [ "$n" = 1 ] && ok || bad "the UPDATE was not waiting for the standby ($n sessions)"
    wait $U || bad "the UPDATE failed: $(cat "$W"/upd.*)"
}
completed() { grep -c 'incremental snapshot of public.t completed: 6 rows' "$W/err"; }

signal "$(ask s-1), ('p-1', 'pause-snapshot', NULL)"
wait_for 10 grep -q 'incremental snapshot of public.t started (signal s-1' "$W/err" || bad "s-1 not queued: $(cat "$W/err")"
pg_test_sql -c "ALTER SYSTEM SET synchronous_standby_names = 'nosuchstandby'" -c "SELECT pg_catalog.pg_reload_conf()" >/dev/null
wait_for 10 eval '[ "$(pg_test_sql -c "SHOW synchronous_standby_names")" = nosuchstandby ]' || bad "no reload in 10 s"

# the visibility check: the chunk read again while the UPDATE waits
waiting_update 5 999
signal "('r-1', 'resume-snapshot', NULL)"
wait_for 10 grep -q 'incremental snapshot public.t chunk 3: window open' "$W/err" && ok ||
    bad "the chunk was not read again while the UPDATE waited: $(grep -v 'chunk [0-9]*:' "$W/err")"
[ "$(completed)" = 0 ] && ok || bad "t completed while the UPDATE it streamed was invisible"
cancel_update
wait_for 10 eval '[ "$(completed)" = 1 ]' && ok || bad "s-1 not completed 10 s after the cancel: $(cat "$W/err")"

# the gate: the first chunk waits for the transaction open when t was queued (said at once with
# RC_SNAPSHOT_VERBOSE), or, read, is read again
waiting_update 6 998
from=$(wc -l <"$W/err") # s-2's lines come after
signal "$(ask s-2)"
held() { tail -n +"$((from + 1))" "$W/err" | grep -c 'public.t waits for the transactions open\|public.t chunk [0-9]*: window open'; }
wait_for 10 eval '[ "$(held)" -ge 2 ] || tail -n +$((from + 1)) "$W/err" | grep -q "public.t waits for the transactions open"' && ok ||
    bad "s-2: its chunk neither waited nor was read again: $(tail -n +"$((from + 1))" "$W/err")"
# said, the wait names what the oldest transaction waits for
tail -n +"$((from + 1))" "$W/err" | grep 'public.t waits for the transactions open' | grep -qv 'waiting for a synchronous standby' &&
    bad "s-2: the wait line does not say the UPDATE waits for its standby: $(tail -n +"$((from + 1))" "$W/err" | grep waits)"
[ "$(completed)" = 1 ] && ok || bad "t completed again while the UPDATE it streamed was invisible"
cancel_update
wait_for 10 eval '[ "$(completed)" = 2 ]' && ok || bad "s-2 not completed 10 s after the cancel: $(cat "$W/err")"
pg_test_sql -c "ALTER SYSTEM RESET synchronous_standby_names" -c "SELECT pg_catalog.pg_reload_conf()" >/dev/null

# the gate's bound is an xid assigned when t is queued, not pg_snapshot_xmax (the newest finished
# xid + 1): the signal's transaction S gets its xid, then an UPDATE's transaction A (xid above
# S's), then S commits while A stays open: xmax was S + 1, at or below A's xid, so the gate let
# the first chunk be read while A was open (a table just added to the publication: A's changes
# from before the ADD lost). Now the first chunk waits for A.
# session NAME: a psql reading statements from the fifo W/NAME (fd in the variable NAME)
session() { mkfifo "$W/$1"; ( PGAPPNAME=$1 pg_test_sql <"$W/$1" >"$W/$1.out" 2>&1 ) & exec {fd}>"$W/$1"; eval "$1=\$fd"; }
in_tx() { [ "$(pg_test_sql -c "SELECT count(*) FROM pg_catalog.pg_stat_activity WHERE application_name = '$1'
    AND state = 'idle in transaction' AND backend_xid IS NOT NULL")" = 1 ]; }
session sig_s
session upd_a
echo "BEGIN; SET LOCAL synchronous_commit = local; INSERT INTO $SIG VALUES $(ask s-3);" >&"$sig_s"
wait_for 10 in_tx sig_s || bad "the signal's transaction S did not start"
echo "BEGIN; UPDATE t SET v = 997 WHERE id = 4;" >&"$upd_a"
wait_for 10 in_tx upd_a || bad "the UPDATE's transaction A did not start"
from=$(wc -l <"$W/err")
echo "COMMIT;" >&"$sig_s"
exec {sig_s}>&-
wait_for 10 eval 'tail -n +$((from + 1)) "$W/err" | grep -q "incremental snapshot of public.t started (signal s-3"' ||
    bad "s-3 not queued: $(tail -n +"$((from + 1))" "$W/err")"
wait_for 10 eval 'tail -n +$((from + 1)) "$W/err" | grep -q "public.t waits for the transactions open when it was queued"' && ok ||
    bad "s-3: the first chunk did not wait for A, open above the newest finished xid: $(tail -n +"$((from + 1))" "$W/err")"
[ "$(completed)" = 2 ] && ok || bad "s-3 completed while A, open when t was queued, was open"
echo "COMMIT;" >&"$upd_a"
exec {upd_a}>&-
wait_for 10 eval '[ "$(completed)" = 3 ]' && ok || bad "s-3 not completed 10 s after A committed: $(tail -n +"$((from + 1))" "$W/err")"
grep -q ERROR "$W/sig_s.out" "$W/upd_a.out" && bad "a session failed: $(cat "$W/sig_s.out" "$W/upd_a.out")"
kill -TERM $CAP
wait $CAP
expect_rc "the capture (SIGTERM)" $? 143
CAP=

# the stream of t: each UPDATE, then six reads (between the edges) with the values it handed out
got=$(grep '"table":"t"' "$W/out" | sed -n 's/.*"op":"\([a-z]*\)".*"after":\(\[[0-9]*,[0-9]*\]\).*/\1 \2/p' | paste -sd' ')
want='update [5,999] read [1,1] read [2,2] read [3,3] read [4,4] read [5,999] read [6,6]'
want="$want update [6,998] read [1,1] read [2,2] read [3,3] read [4,4] read [5,999] read [6,998]"
want="$want update [4,997] read [1,1] read [2,2] read [3,3] read [4,997] read [5,999] read [6,998]"
[ "$got" = "$want" ] && ok || bad "t's stream: $got, expected $want"
grep -v 'chunk [0-9]*: ' "$W/err"
echo "chunks read: $(grep -c 'public.t chunk [0-9]*: window open' "$W/err")"
[ "$fail" = 0 ] && echo "pg_incsnap_visible: $pass checks passed" || echo "pg_incsnap_visible: $fail of $((pass + fail)) checks failed"
exit $((fail > 0))
