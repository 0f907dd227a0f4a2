#!/usr/bin/env bash
# Issue 24 step M1, first slice: an incremental snapshot on MariaDB 10.11 asked for by a row of
# -o mysql.signal.table while the capture streams, with the read-only "point" watermark
# (docs/sources/mysql.md, "Incremental snapshots"). One server: bf_writer loads shop.t
# (PRIMARY KEY (id), 200,000 rows), shop.tc (PRIMARY KEY (id, k2)), shop.tu (no primary key,
# UNIQUE NOT NULL id) and shop.tn (no key), and keeps changing t, tc and tu while
# `rowcast capture --snapshot never` streams; the signal asks for all four; tn is refused by
# name and the capture goes on. After the snapshots completed, the writers stop, the capture
# is stopped and a second run with --until caught-up delivers the rest. Then per table
# check_stream.sh: the replay of the stream (reads and changes; not strict: the stream starts
# after the rows were loaded) equals SELECT, and DBLog holds event by event.
# Options: without the signal table the CREATE TABLE to run; -o mysql.x is "unknown source option".
# usage: my_incsnap_test.sh path/to/rowcast path/to/bf_writer
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=200000
. "$HERE/mariadb_lib.sh"
my_test_start || exit 1

. "$HERE/../common/check.sh"
my_sql -e 'CREATE DATABASE shop'
URL=$MY_URL/shop
WPIDS=()
trap 'for p in "${WPIDS[@]}" ${CAP:-}; do kill "$p" 2>/dev/null; done; my_test_stop' EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
capture() { exec "$RC" capture "$URL" --include 'shop.t*' --checkpoint "$W/ck" --server-id 12 --to native \
    -o mysql.signal.table=shop.rowcast_signal -o mysql.snapshot.chunk.rows=1000 "$@"; }

# the options
"$RC" capture "$URL" --include 'shop.t*' --to native -q -o mysql.nope=1 >/dev/null 2>"$W/o.err"
expect_rc "-o mysql.nope (a usage error)" $? 1
grep -q "unknown source option 'mysql.nope': mysql.signal.table, mysql.snapshot.chunk.rows" "$W/o.err" && ok || bad "-o mysql.nope: $(cat "$W/o.err")"
"$RC" capture "$URL" --include 'shop.t*' --checkpoint "$W/ck0" --to native -q -o mysql.signal.table=shop.rowcast_signal >/dev/null 2>"$W/o.err"
[ $? != 0 ] && grep -q 'CREATE TABLE shop.rowcast_signal (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT)' "$W/o.err" &&
    ok || bad "no signal table: $(cat "$W/o.err")"
# another source's option: said before connecting (sources/source.c)
"$RC" capture postgres://u@127.0.0.1:1/db --to native -o mysql.signal.table=shop.s >/dev/null 2>"$W/o.err"
grep -q -- "-o mysql.signal.table is an option of another source, not of postgres" "$W/o.err" && ok || bad "postgres with -o mysql.*: $(cat "$W/o.err")"
my_sql shop -e 'CREATE TABLE rowcast_signal (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB'

i=0
for spec in t:pk:$N tc:composite:20000 tu:unique:20000 tn:none:1000; do
    set -- ${spec//:/ }
    i=$((i + 1))
    "$WRITER" "$URL" --table "shop.$1" --key "$2" --rows "$3" --count 0 --seed $i 2>>"$W/writer.err" ||
        { bad "bf_writer could not load shop.$1: $(tail -1 "$W/writer.err")"; exit 1; }
done
step "loaded"
( capture --snapshot never >"$W/stream" 2>"$W/cap1.err" ) &
CAP=$!
for spec in t:pk:1:100000 tc:composite:2:20000 tu:unique:3:20000; do
    set -- ${spec//:/ }
    i=$((i + 1))
    "$WRITER" "$URL" --table "shop.$1" --key "$2" --rate 1500 --bias "$3:$4:50" --seed $i --batch 2 2>>"$W/writer.err" &
    WPIDS+=($!)
done
wait_for 30 grep -q '"op":"update"' "$W/stream" || bad "the capture streamed nothing in 30 s"
sleep 1
# s-2 asks again for a table s-1 queued; s-3 is not JSON: both said by id, the capture goes on
my_sql shop -e "INSERT INTO rowcast_signal VALUES ('s-1', 'execute-snapshot', '{\"data-collections\": [\"shop.t\", \"shop.tc\", \"shop.tu\", \"shop.tn\"], \"type\": \"incremental\"}'),
    ('s-2', 'execute-snapshot', '{\"data-collections\": [\"shop.t\"], \"type\": \"incremental\"}'), ('s-3', 'execute-snapshot', '{bad')"
step "signal written"
for t in t tc tu; do
    wait_for 40 grep -q "incremental snapshot of shop.$t completed" "$W/cap1.err" || bad "shop.$t: no completed line in 40 s"
done
step "snapshots completed"
[ "$fail" = 0 ] || { cat "$W/cap1.err" >&2; exit 1; }
alive=0
for p in "${WPIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
[ $alive = 3 ] && ok || bad "a writer stopped during the snapshot"
for p in "${WPIDS[@]}"; do kill -TERM "$p"; wait "$p" || bad "a writer ended with status $?"; done
WPIDS=()
kill -TERM $CAP
wait $CAP
expect_rc "capture run 1 (SIGTERM: 143)" $? 143
CAP=
( capture --until caught-up >>"$W/stream" 2>"$W/cap2.err" )
st=$?
expect_rc "capture run 2 (--until caught-up)" $st 0; [ $st = 0 ] || cat "$W/cap2.err" >&2
step "caught up"
grep 'incremental snapshot of' "$W/cap1.err"

grep -q "incremental snapshot of shop.t started (signal s-1, ~[0-9]* rows, by primary key)" "$W/cap1.err" && ok || bad "no started line for shop.t"
grep -q "incremental snapshot of shop.tu started (signal s-1, ~[0-9]* rows, by unique index)" "$W/cap1.err" && ok || bad "no started line for shop.tu"
grep -q "warning: signal id=s-1 in shop.rowcast_signal: table shop.tn has no primary key and no unique index on NOT NULL columns" "$W/cap1.err" &&
    ok || bad "shop.tn not refused by name: $(cat "$W/cap1.err")"
grep -q "warning: signal id=s-2 in shop.rowcast_signal: shop.t: already being snapshotted" "$W/cap1.err" && ok || bad "s-2 not refused for shop.t"
grep -q "warning: signal id=s-3 in shop.rowcast_signal: data is not JSON" "$W/cap1.err" && ok || bad "s-3 not said: $(grep s-3 "$W/cap1.err")"
grep -q '"snapshot":"incremental"' "$W/stream" && ok || bad "no incremental read in the stream"
grep -q 'rowcast_signal' "$W/stream" && bad "a signal row reached the sink (--include does not name it)" || ok
# the table edges (zero-row reads "incremental:start" / ":end", which the native format writes)
# are not rows: the checkers get the stream without them
for t in t tc tu; do
    [ "$(grep -c "\"table\":\"$t\".*\"snapshot\":\"incremental:\(start\|end\)\"" "$W/stream")" = 2 ] && ok || bad "shop.$t: not one start and one end edge"
done
grep -v '"snapshot":"incremental:' "$W/stream" >"$W/rows"
check() { # check T DBLOG_KEYS REPLAY_KEYS MIN_READS
    "$TOOLS/check_stream.sh" "$URL" "shop.$1" "$W/rows" --dblog-keys "$2" ${3:+--keys "$3"} --out "$W" 2>"$W/$1.check.err"
    expect_rc "shop.$1: replay equal to SELECT, DBLog check" $? 0
    cat "$W/$1.check.err"
    local reads
    reads=$(grep -c "\"table\":\"$1\".*\"snapshot\":\"incremental\"\|\"snapshot\":\"incremental\".*\"table\":\"$1\"" "$W/stream")
    [ "$reads" -ge "$4" ] && ok || bad "shop.$1: $reads incremental reads, expected $4 or more"
}
check t "" "" $((N * 3 / 4))
check tc "" "" 10000
check tu id id 10000
step "done"
[ "$fail" = 0 ] && echo "my_incsnap: $pass checks passed" || echo "my_incsnap: $fail of $((pass + fail)) checks failed"
exit $((fail > 0))
