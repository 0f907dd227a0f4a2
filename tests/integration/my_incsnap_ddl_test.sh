#!/usr/bin/env bash
# Issue 24: DDL during a MariaDB table's incremental snapshot (docs/sources/mysql.md,
# "Incremental snapshots", DDL). One MariaDB 10.11 server: bf_writer loads shop.t (PRIMARY KEY
# (id), 50,000 rows) and changes it continuously while an incremental snapshot reads it in chunks
# of 500 rows (RC_SNAPSHOT_VERBOSE=1: a notice per chunk). At two points of the snapshot (after
# its 10th and its 30th chunk's read, where it stops itself: RC_SNAPSHOT_STOP) two ALTERs land
# while a chunk is being read: another session holds
# LOCK TABLES shop.t WRITE until the chunk's SELECT waits for it in the process list (its read
# view and point P are taken by then), then runs the ALTER and unlocks:
#  1. ALTER TABLE ADD COLUMN c INT NOT NULL DEFAULT 7 (instant: the view before it reads the old
#     columns, which is the table at P);
#  2. ALTER TABLE MODIFY v DECIMAL(20,0) NOT NULL (the table is rebuilt: the view before it
#     cannot read it, "Table definition has changed"; the chunk is read again at P, then again
#     once the stream passed the ALTER, with the new type).
# Then:
#  - the snapshot completes (a structure change does not stop it) and says its columns changed;
#  - reads carry the structure they were read with: c only in reads after it was added, v
#    bigint before the type change and decimal(20,0) after it, never mixed back;
#  - the replay of the stream equals SELECT on every column, c included: a row whose last event
#    came before the ADD COLUMN gets its DEFAULT 7, as a consumer applying the stream's DDL
#    event does; the DBLog check holds event by event.
# usage: my_incsnap_ddl_test.sh path/to/rowcast path/to/bf_writer
set -u
RC=${1:?path to rowcast}
WRITER=${2:?path to bf_writer}
HERE=$(cd "$(dirname "$0")" && pwd)
TOOLS=$HERE/../tools
N=50000
CHUNK=500
. "$HERE/mariadb_lib.sh"
my_test_start || exit 1

. "$HERE/../common/check.sh"
my_sql -e 'CREATE DATABASE shop'
URL=$MY_URL/shop
CAP= WPID= LPID=
trap 'for p in $WPID $CAP $LPID; do kill -KILL "$p" 2>/dev/null; done; my_test_stop' EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }
capture() { RC_SNAPSHOT_VERBOSE=1 exec "$RC" capture "$URL" --include shop.t --checkpoint "$W/ck" --server-id 12 --to native \
    -o mysql.signal.table=shop.rowcast_signal -o mysql.snapshot.chunk.rows=$CHUNK "$@"; }
reads() { grep -c '"op":"read".*"table":"t".*"snapshot":"incremental"' "$W/stream"; }
# the chunk's SELECT of shop.t waits for the table's metadata lock
chunk_waits() {
    [ "$(my_sql -e "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE STATE LIKE 'Waiting for table metadata lock'
        AND INFO LIKE 'SELECT \`id\`, \`v\`, \`pad\`%FROM \`shop\`.\`t\`%'")" -ge 1 ]
}
# the capture stopped itself at its next RC_SNAPSHOT_STOP point (its process state T)
stopped() { [ "$(cut -d' ' -f3 /proc/$CAP/stat 2>/dev/null)" = T ]; }
# alter_in_chunk STATEMENT: once the capture stopped itself after a chunk's read (the points
# "window open:10" and ":30", RC_SNAPSHOT_STOP: exact, where waiting for a count of reads let a
# loaded run finish the snapshot first), the ALTER's session locks the table and the capture
# goes on (SIGCONT); STATEMENT lands while the next chunk is read (its view taken, its SELECT
# waiting for that lock)
alter_in_chunk() {
    wait_for 90 stopped || bad "the capture did not stop at its point in 90 s: $(tail -2 "$W/cap1.err")"
    rm -f "$W/lock"
    mkfifo "$W/lock"
    my_sql --unbuffered shop <"$W/lock" >"$W/lock.out" 2>&1 &
    LPID=$!
    exec 3>"$W/lock"
    echo "LOCK TABLES t WRITE; SELECT 'locked';" >&3
    wait_for 30 grep -q '^locked$' "$W/lock.out" || bad "the table not locked in 30 s: $(cat "$W/lock.out")"
    kill -CONT "$CAP"
    wait_for 30 chunk_waits || bad "no chunk waited for the lock in 30 s"
    echo "$1; UNLOCK TABLES;" >&3
    exec 3>&-
    wait "$LPID" || bad "$1: $(cat "$W/lock.out")"
    LPID=
}

"$WRITER" "$URL" --table shop.t --key pk --rows $N --count 0 --seed 1 2>>"$W/writer.err" ||
    { bad "bf_writer could not load shop.t: $(tail -1 "$W/writer.err")"; exit 1; }
my_sql shop -e 'CREATE TABLE rowcast_signal (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB'
( RC_SNAPSHOT_STOP="window open:10,window open:30" capture --snapshot never >"$W/stream" 2>"$W/cap1.err" ) &
CAP=$!
"$WRITER" "$URL" --table shop.t --key pk --rate 300 --bias 1:$N:50 --seed 2 2>>"$W/writer.err" &
WPID=$!
wait_for 30 grep -q '"op":"update"' "$W/stream" || bad "the capture streamed nothing in 30 s"
my_sql shop -e "INSERT INTO rowcast_signal VALUES ('d-1', 'execute-snapshot', '{\"data-collections\": [\"shop.t\"]}')"
step "signal written"
alter_in_chunk "ALTER TABLE t ADD COLUMN c INT NOT NULL DEFAULT 7"
at_add=$(reads)
step "c added after ~$at_add reads"
alter_in_chunk "ALTER TABLE t MODIFY v DECIMAL(20,0) NOT NULL"
at_type=$(reads)
step "v retyped after ~$at_type reads"
wait_for 90 grep -q 'incremental snapshot of shop.t completed' "$W/cap1.err" || bad "no completion in 90 s"
kill -0 $WPID 2>/dev/null && ok || bad "the writer stopped before the snapshot ended: $(tail -2 "$W/writer.err")"
kill -TERM $WPID
wait $WPID
WPID=
kill -TERM $CAP
wait $CAP
CAP=
( capture --until caught-up >>"$W/stream" 2>"$W/cap2.err" )
expect_rc "capture run 2 (--until caught-up)" $? 0
step "caught up"
grep -v 'chunk [0-9]*: \(window open\|emitted\|acknowledged\)' "$W/cap1.err"
# the chunk the MODIFY rebuilt the table under (its view before it) was read again
again=$(grep -c 'chunk [0-9]*: read again' "$W/cap1.err")
echo "chunks read again: $again"
[ "$again" -ge 1 ] && ok || bad "no chunk was read again after the MODIFY"

grep -q 'incremental snapshot of shop.t: its columns changed' "$W/cap1.err" && ok || bad "the structure change was not said"
! grep -q 'incremental snapshot of shop.t stopped' "$W/cap1.err" && ok || bad "the snapshot stopped"
# the structure each read was read with
grep '"op":"read".*"table":"t"' "$W/stream" | grep '"snapshot":"incremental"' >"$W/reads"
first_c=$(grep -n '"name":"c"' "$W/reads" | head -1 | cut -d: -f1)
last_no_c=$(grep -vn '"name":"c"' "$W/reads" | tail -1 | cut -d: -f1)
[ -n "$first_c" ] && [ -n "$last_no_c" ] && [ "$last_no_c" -lt "$first_c" ] && [ "$last_no_c" -ge 4500 ] &&
    ok || bad "c: the last read without it is #$last_no_c, the first with it #$first_c"
grep '"name":"c"' "$W/reads" | grep -v ',7\]}$' | head -1 | grep -q . && bad "a read of c is not its default 7" || ok
first_dec=$(grep -n '"name":"v","type":"decimal(20,0)"' "$W/reads" | head -1 | cut -d: -f1)
last_big=$(grep -n '"name":"v","type":"bigint' "$W/reads" | tail -1 | cut -d: -f1)
[ -n "$first_dec" ] && [ -n "$last_big" ] && [ "$last_big" -lt "$first_dec" ] && [ "$first_dec" -gt "$first_c" ] &&
    ok || bad "v: the last bigint read is #$last_big, the first decimal one #$first_dec"
echo "reads: $(wc -l <"$W/reads"); without c up to #$last_no_c, with c from #$first_c (added after ~$at_add);" \
    "v bigint up to #$last_big, decimal from #$first_dec (retyped after ~$at_type)"

# replay = SELECT on every column: a row whose last event had no c gets the ALTER's DEFAULT 7
LIB=(-f "$TOOLS/native_events.awk")
grep -v '"snapshot":"incremental:' "$W/stream" >"$W/rows"
awk -v table=shop.t "${LIB[@]}" -f "$TOOLS/replay.awk" "$W/rows" 2>"$W/replay.err" |
    awk -F '\t' -v OFS='\t' 'NF == 3 { $4 = 7 } { print }' | LC_ALL=C sort >"$W/rebuilt"
expect_rc "replay" "${PIPESTATUS[0]}" 0
cat "$W/replay.err"
echo "rows rebuilt without c (their last event before the ADD COLUMN): $(awk -v table=shop.t "${LIB[@]}" -f "$TOOLS/replay.awk" "$W/rows" 2>/dev/null | awk -F '\t' 'NF == 3' | wc -l)"
my_sql shop -e 'SELECT id, v, pad, c FROM t' | LC_ALL=C sort >"$W/select"
cmp -s "$W/select" "$W/rebuilt" && ok || { bad "the replay differs from SELECT"; diff "$W/select" "$W/rebuilt" | head -10 >&2; }
awk -v table=shop.t -v keys=id "${LIB[@]}" -f "$TOOLS/dblog_check.awk" "$W/rows"
expect_rc "DBLog check" $? 0
step "done"
echo "my_incsnap_ddl: $pass passed, $fail failed"
[ "$fail" = 0 ]
