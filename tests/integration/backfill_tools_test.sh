#!/usr/bin/env bash
# Issue 24's harness on today's capture (initial snapshot, then streaming), which is consistent
# and so must pass it: on one PostgreSQL 15 (pg) or MariaDB 10.11 (my) server, bf_writer loads
# three tables (t: PRIMARY KEY (id); tc: PRIMARY KEY (id, k2); tn: no key, PostgreSQL replica
# identity FULL / MariaDB a UNIQUE index on id) and keeps changing them (INSERT, UPDATE,
# DELETE on random keys, a third of them biased into the first keys) while `rowcast capture`
# takes its snapshot and streams; after the writers stop (SIGTERM for one, --duration for the
# others), the capture is stopped (SIGTERM) and a second run with --until caught-up delivers
# the rest. Then, per table:
#  - replay.awk (strict: no read or insert of a key there, no update or delete of one missing;
#    tn a multiset on PostgreSQL; on MariaDB keyed by id, since its snapshot reads carry no pk
#    flag and its binlog events flag id) rebuilds the table and it equals SELECT of it, byte
#    for byte (both sorted), all through tests/tools/check_stream.sh;
#  - dblog_check.awk passes (tn keyed by its unique id);
#  - the snapshot was read while the writers ran, and the stream holds reads and changes.
# bf_writer's --count, --v-from, --bias and --bias-file (moved while it runs) on a small table.
# And the checkers catch what they must in this real stream: a copy of a key's read placed
# after that key's first update (dblog_check names its line), one streamed change dropped
# (the replay differs from SELECT).
# usage: backfill_tools_test.sh pg|my path/to/rowcast path/to/bf_writer
set -u
DB=${1:?pg or my}
RC=${2:?path to rowcast}
WRITER=${3:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=15000    # rows a table
DUR=8      # seconds the writers run
RATE=400   # changes a second, each writer

if [ "$DB" = pg ]; then
    . "$HERE/pg_lib.sh"
    pg_test_start || exit 1
    URL=$PG_URL
    NS=public
    NOKEY=none
    sql() { pg_test_sql -c "$1"; }
    capture() { exec "$RC" capture "$URL" --include "$NS.t*" --to native -q "$@"; }
else
    . "$HERE/mariadb_lib.sh"
    my_test_start || exit 1
    my_sql -e 'CREATE DATABASE shop'
    URL=$MY_URL/shop
    NS=shop
    NOKEY=unique
    sql() { my_sql shop -e "$1"; }
    capture() { exec "$RC" capture "$URL" --include "$NS.t*" --checkpoint "$W/ck" --server-id 11 --to native -q "$@"; }
fi
. "$HERE/../common/check.sh"
WPIDS=()
trap 'for p in "${WPIDS[@]}" ${CAP:-}; do kill "$p" 2>/dev/null; done; '"$( [ "$DB" = pg ] && echo pg_test_stop || echo my_test_stop )" EXIT
LIB=(-f "$TOOLS/native_events.awk")
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }

# the tables and their load
i=0
for spec in t:pk tc:composite tn:$NOKEY; do
    i=$((i + 1))
    "$WRITER" "$URL" --table "$NS.${spec%%:*}" --key "${spec#*:}" --rows $N --count 0 --seed $i 2>>"$W/writer.err" ||
        { bad "bf_writer could not load $NS.${spec%%:*}: $(tail -1 "$W/writer.err")"; exit 1; }
done
# the writers: t until SIGTERM (two changes a transaction), the others for DUR seconds
for spec in t:pk: tc:composite:"--duration $DUR" tn:$NOKEY:"--duration $DUR"; do
    set -- ${spec//:/ }
    i=$((i + 1))
    # shellcheck disable=SC2086
    "$WRITER" "$URL" --table "$NS.$1" --key "$2" --rate $RATE --bias 1:1500:33 --seed $i ${3:---batch} ${4:-2} 2>>"$W/writer.err" &
    WPIDS+=($!)
done
sleep 1
step "capture run 1 under 3 writers"
( capture >"$W/stream" 2>"$W/cap1.err" ) &
CAP=$!
wait_for 60 grep -q '"op":"insert"\|"op":"update"\|"op":"delete"' "$W/stream" || bad "the capture streamed nothing in 60 s"
alive=0
for p in "${WPIDS[@]}"; do kill -0 "$p" 2>/dev/null && alive=$((alive + 1)); done
[ $alive = 3 ] && ok || bad "the snapshot ended after $alive writers of 3 stopped: not read under writes"
sleep $((DUR - 2))
kill -TERM "${WPIDS[0]}"
for p in "${WPIDS[@]}"; do wait "$p" || bad "a writer ended with status $?"; done
WPIDS=()
step "writers stopped"
kill -TERM $CAP
wait $CAP
expect_rc "capture run 1 (SIGTERM: 143)" $? 143
CAP=
step "capture run 2 --until caught-up"
( capture --until caught-up >>"$W/stream" 2>"$W/cap2.err" )
st=$?
expect_rc "capture run 2 (--until caught-up)" $st 0; [ $st = 0 ] || cat "$W/cap2.err" >&2
grep -c '' "$W/writer.err" | grep -qx 6 && ok || bad "the writers: $(cat "$W/writer.err")"
grep -q 'stopped by a signal' "$W/writer.err" && ok || bad "the writer of t did not say it stopped on SIGTERM"

# check T KEYS [REPLAY_KEYS]: check_stream.sh (strict replay, keyed by REPLAY_KEYS when given,
# equal to SELECT; DBLog, keyed by KEYS when given) over the stream for table NS.T
check() {
    local t=$NS.$1 ops
    "$TOOLS/check_stream.sh" "$URL" "$t" "$W/stream" --strict --dblog-keys "$2" ${3:+--keys "$3"} --out "$W" 2>"$W/$1.check.err"
    expect_rc "$t: replay equal to SELECT, DBLog check" $? 0
    cat "$W/$1.check.err"
    ops=$(grep '^replay ' "$W/$1.check.err")
    [[ $ops =~ :\ ([0-9]+)\ reads,\ ([0-9]+)\ inserts,\ ([0-9]+)\ updates,\ ([0-9]+)\ deletes ]] &&
        [ "${BASH_REMATCH[1]}" -ge $((N / 2)) ] && [ "${BASH_REMATCH[2]}" -gt 0 ] && [ "${BASH_REMATCH[3]}" -gt 0 ] && [ "${BASH_REMATCH[4]}" -gt 0 ] &&
        ok || bad "$t: expected $((N / 2)) reads or more and inserts, updates, deletes: $ops"
}
step "checks"
check t ""
check tc ""
# MariaDB: tn's snapshot reads carry no pk flag, its binlog events flag id (its UNIQUE NOT NULL
# index): replay.awk refuses a table whose key changes, so tn is keyed by id there
if [ "$DB" = pg ]; then check tn id; else check tn id id; fi

# the checkers on this stream made wrong: a stale read after t's first update of a read key
cat >"$W/stale.awk" <<'EOF'
{ ne_parse($0); print }
NE_TABLE == table && NE_OP == "read" { r[ne_key("a", "")] = $0 }
NE_TABLE == table && NE_OP == "update" && !done && (ne_key("a", "") in r) { print r[ne_key("a", "")]; done = NR + 1 }
END { print done > "/dev/stderr" }
EOF
at=$(awk -v table="$NS.t" "${LIB[@]}" -f "$W/stale.awk" "$W/stream" 2>&1 >"$W/stale")
"$TOOLS/check_stream.sh" "$URL" "$NS.t" "$W/stale" 2>"$W/stale.err"
expect_rc "a stale read: check_stream.sh" $? 1
grep -q "^DBLOG VIOLATION: line $at: read of $NS.t key " "$W/stale.err" && ok || bad "a stale read at line $at: $(cat "$W/stale.err")"
# one change dropped: the last update of t
last=$(grep -n '"op":"update"' "$W/stream" | grep "\"table\":\"t\"" | tail -1 | cut -d: -f1)
sed "${last}d" "$W/stream" >"$W/dropped"
"$TOOLS/check_stream.sh" "$URL" "$NS.t" "$W/dropped" 2>"$W/dropped.err"
expect_rc "a dropped update: check_stream.sh" $? 1
grep -q "^FAIL: $NS.t: the replay differs from SELECT" "$W/dropped.err" && ok || bad "a dropped update at line $last: $(cat "$W/dropped.err")"

# the writer's options: --count, --v-from, --bias LO:HI:100 (every change on keys 1..10), --bias-file
"$WRITER" "$URL" --table "$NS.tb" --rows 1000 --count 0 --v-from 1000 2>"$W/tb.err" &&
    "$WRITER" "$URL" --table "$NS.tb" --count 300 --bias 1:10:100 --v-from 5000 2>>"$W/tb.err" ||
    bad "bf_writer on $NS.tb: $(cat "$W/tb.err")"
# the load: row i has v 1000 + i; the changes only on keys 1..10, v from 5001 on
got=$(sql "SELECT min(v), max(v), count(*) FROM $NS.tb WHERE id > 10" | tr "\t|" "  ")
[ "$got" = "1011 2000 990" ] && ok || bad "tb: rows 11..1000 changed (min v, max v, count: $got)"
got=$(sql "SELECT count(*) FROM $NS.tb WHERE id <= 10 AND v > 5000")
[ "$got" -gt 0 ] && ok || bad "tb: no change on keys 1..10"
# --bias-file moved while the writer runs: keys 1..10, then 21..30; no other key changes (each
# move once a change under the bias before it is seen, not after a fixed time: a loaded machine)
changed() { [ "$(sql "SELECT count(*) FROM $NS.tb WHERE v > 10000 AND id BETWEEN $1")" -gt 0 ]; }
echo 1:10:100 >"$W/bias"
"$WRITER" "$URL" --table "$NS.tb" --rate 200 --bias-file "$W/bias" --v-from 10000 2>>"$W/tb.err" &
WPIDS=($!)
wait_for 30 changed "1 AND 10" || bad "--bias-file: no change on keys 1..10 in 30 s: $(cat "$W/tb.err")"
echo 21:30:100 >"$W/bias.new" && mv "$W/bias.new" "$W/bias"
wait_for 30 changed "21 AND 30" || bad "--bias-file: no change on keys 21..30 in 30 s after the move"
kill -TERM "${WPIDS[0]}"
wait "${WPIDS[0]}" || bad "bf_writer --bias-file: exit status $?"
WPIDS=()
got=$(sql "SELECT count(*) FROM $NS.tb WHERE v > 10000 AND NOT (id BETWEEN 1 AND 10 OR id BETWEEN 21 AND 30)")
[ "$got" = 0 ] && ok || bad "--bias-file: $got rows outside 1..10 and 21..30 changed"
for r in "1 AND 10" "21 AND 30"; do
    got=$(sql "SELECT count(*) FROM $NS.tb WHERE v > 10000 AND id BETWEEN $r")
    [ "$got" -gt 0 ] && ok || bad "--bias-file: no change on keys $r"
done

echo "backfill_tools $DB: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
