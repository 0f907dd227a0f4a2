#!/usr/bin/env bash
# Issue 24, MariaDB's point watermark (docs/sources/mysql.md, "How the rows are read"): a chunk's
# read view must not be older than a transaction the stream already handed out. MariaDB sends a
# transaction to the binlog stream once it is in the binlog and makes it visible a moment later;
# semi-sync's AFTER_SYNC wait point makes that moment last (here until its timeout, no replica
# acknowledges), so the race a loaded machine hits by chance (a DBLog violation in CI, stop 36)
# is set up on purpose:
#   the capture streams shop.t (6 rows) with a signal table; semi-sync on, AFTER_SYNC, 3 s;
#   UPDATE id 5 to 999: the stream hands it out while SELECT still gives 5 (checked);
#   the signal asks for shop.t (its row waits too): the chunk's view, begun now, has a P before
#   the UPDATE. rowcast begins it again until P passes the UPDATE, saying so after 1 s, and the
#   read of id 5 carries 999 (before the fix: 5, older than the update handed out before it).
# usage: my_incsnap_visible_test.sh path/to/rowcast path/to/bf_writer
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/mariadb_lib.sh"
my_test_start || exit 1
. "$HERE/../common/check.sh"
CAP=
trap '[ -n "$CAP" ] && kill -KILL $CAP 2>/dev/null; my_test_stop' EXIT
my_sql -e 'CREATE DATABASE shop'
my_sql shop -e 'CREATE TABLE rowcast_signal (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB;
    CREATE TABLE t (id INT PRIMARY KEY, v BIGINT) ENGINE=InnoDB; INSERT INTO t VALUES (1,1),(2,2),(3,3),(4,4),(5,5),(6,6);
    CREATE TABLE u (id INT PRIMARY KEY) ENGINE=InnoDB'
( RC_SNAPSHOT_VERBOSE=1 exec "$RC" capture "$MY_URL/shop" --include 'shop.*' --to native --server-id 21 \
    -o mysql.signal.table=shop.rowcast_signal --snapshot never >"$W/out" 2>"$W/err" ) &
CAP=$!
# streaming: a row of u written after the capture started is in its output
k=0
streaming() { k=$((k + 1)); my_sql shop -e "INSERT INTO u VALUES ($k)" && grep -q '"table":"u"' "$W/out"; }
wait_for 30 streaming || bad "the capture streamed nothing in 30 s: $(cat "$W/err")"
my_sql -e 'SET GLOBAL rpl_semi_sync_master_wait_point = AFTER_SYNC; SET GLOBAL rpl_semi_sync_master_timeout = 3000;
    SET GLOBAL rpl_semi_sync_master_enabled = ON'
( my_sql shop -e 'UPDATE t SET v = 999 WHERE id = 5' ) &
U=$!
wait_for 10 grep -q '"after":\[5,999\]' "$W/out" || bad "the UPDATE was not streamed in 10 s"
seen=$(my_sql shop -e 'SELECT v FROM t WHERE id = 5')
[ "$seen" = 5 ] && ok || bad "the UPDATE was visible (v $seen) when the stream had it: the race is not set up"
( my_sql shop -e "INSERT INTO rowcast_signal VALUES ('s-1', 'execute-snapshot', '{\"data-collections\": [\"shop.t\"]}')" ) &
S=$!
wait_for 30 grep -q 'incremental snapshot of shop.t completed: 6 rows' "$W/err" || bad "no completed line in 30 s: $(cat "$W/err")"
wait $U || bad "the UPDATE failed"
wait $S || bad "the signal's INSERT failed"
my_sql -e 'SET GLOBAL rpl_semi_sync_master_enabled = OFF'
kill -TERM $CAP
wait $CAP
expect_rc "the capture (SIGTERM)" $? 143
CAP=
grep -q "warning: incremental snapshot of shop.t: the read view's binlog_snapshot_position bin.000001:[0-9]* stayed before the stream's last transaction bin.000001:[0-9]* for 1 s" "$W/err" &&
    ok || bad "the wait for the UPDATE's visibility not said: $(cat "$W/err")"
# the stream of shop.t: the UPDATE, then six reads, id 5's with the UPDATE's value
got=$(grep '"table":"t"' "$W/out" | sed -n 's/.*"op":"\([a-z]*\)".*"after":\(\[[0-9]*,[0-9]*\]\).*/\1 \2/p' | paste -sd' ')
want='update [5,999] read [1,1] read [2,2] read [3,3] read [4,4] read [5,999] read [6,6]'
[ "$got" = "$want" ] && ok || bad "shop.t's stream: $got, expected $want"
[ "$fail" = 0 ] && echo "my_incsnap_visible: $pass checks passed" || echo "my_incsnap_visible: $fail of $((pass + fail)) checks failed"
exit $((fail > 0))
