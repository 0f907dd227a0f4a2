#!/usr/bin/env bash
# Issue 24 review (session 13): the defects found by reading the incremental-snapshot code, each
# shown on a real server (/tmp/review24.md lists them). One PostgreSQL 15 and one MariaDB 10.11.
# No writer runs: every row of each table must come as exactly one `read`, and the snapshot must
# say "completed".
#  PG 1. a composite primary key declared in another order than the columns
#        (PRIMARY KEY (b, a)): the next chunk's lower bound must be in the key's order;
#  PG 2. REPLICA IDENTITY USING INDEX on a unique index other than the primary key: the lower
#        bound is the primary key's, not the identity's;
#  PG 3. a text key in a linguistic collation (when the server has one): the lower bound is
#        compared by the server, never by bytes;
#  PG 4. a column added to a table after its snapshot, then a new signal for it: the new
#        snapshot's reads carry the column (the catalog entry of the first signal was kept);
#  PG 5. UPDATEs of a table with out-of-line (TOASTed) key values while it is snapshotted: the
#        capture goes on and the snapshot completes;
#  MariaDB 2. a composite key with an ENUM column (id, kind): ORDER BY sorts an ENUM by its
#        number, a comparison with a quoted label by the label's text;
#  MariaDB 1. the chunks' SQL session killed again and again while a snapshot runs (at START
#        TRANSACTION, in a chunk's SELECT, while its rows come): the snapshot goes on on a new
#        session, each failed chunk read again from where it began: every row once.
# usage: incsnap_review_test.sh path/to/rowcast
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
. "$HERE/mariadb_lib.sh"
pg_test_start || exit 1
PGW=$W
MYW=
. "$HERE/../common/check.sh"
CAP=
cleanup() {
    [ -n "$CAP" ] && kill "$CAP" 2>/dev/null
    [ -n "$PGW" ] && W=$PGW pg_test_stop
    [ -n "$MYW" ] && W=$MYW my_test_stop
}
trap cleanup EXIT
T0=$SECONDS
step() { echo "[$((SECONDS - T0)) s] $*"; }

# reads_of FILE TABLE: the "after" images of its incremental reads, one a line
reads_of() { grep '"op":"read"' "$1" | grep "\"table\":\"$2\"" | grep '"snapshot":"incremental"' | sed -n 's/.*"after":\(\[[^]]*\]\).*/\1/p'; }
# exact_reads LIST NAME ROWS: ROWS distinct images in LIST (reads_of's output), none twice
exact_reads() {
    local n d
    n=$(wc -l <"$1")
    d=$(sort -u "$1" | wc -l)
    [ "$n" = "$3" ] && [ "$d" = "$3" ] && ok || bad "$2: $n reads ($d distinct), expected $3 once each"
}
# exact FILE TABLE ROWS: as exact_reads, the reads of TABLE in FILE
exact() {
    reads_of "$1" "$2" >"$W/$2.reads"
    exact_reads "$W/$2.reads" "$2" "$3"
}
# completed FILE TABLE N: TABLE's snapshot completed N times
completed() { [ "$(grep -c "incremental snapshot of $2 completed" "$1")" = "$3" ]; }

if [ -z "${SKIP_PG:-}" ]; then
step "PostgreSQL: load"
URL=$PG_URL
SIG=public.rowcast_signal
pg_test_sql -c "CREATE TABLE $SIG (id varchar(64) PRIMARY KEY, type varchar(32) NOT NULL, data text)" >/dev/null
pg_test_sql >/dev/null <<'SQL'
CREATE TABLE public.r_ba (a int NOT NULL, b int NOT NULL, v int, PRIMARY KEY (b, a));
INSERT INTO public.r_ba SELECT a, b, a * 100 + b FROM generate_series(1, 20) a, generate_series(1, 10) b;
CREATE TABLE public.r_ident (id int PRIMARY KEY, u int NOT NULL UNIQUE, v int);
INSERT INTO public.r_ident SELECT i, 1000 - i, i FROM generate_series(1, 200) i;
ALTER TABLE public.r_ident REPLICA IDENTITY USING INDEX r_ident_u_key;
CREATE TABLE public.r_tick (id int PRIMARY KEY);
CREATE TABLE public.r_toast (k text PRIMARY KEY, v int);
ALTER TABLE public.r_toast ALTER COLUMN k SET STORAGE EXTERNAL;
INSERT INTO public.r_toast SELECT i || '-' || string_agg(md5(i::text || j::text), ''), i FROM generate_series(1, 50) i, generate_series(1, 78) j GROUP BY i;
SQL
COLL=$(pg_test_sql -c "SELECT collname FROM pg_collation WHERE collname IN ('en-x-icu', 'en_US.utf8', 'en_US') ORDER BY collname LIMIT 1")
NTEXT=0
if [ -n "$COLL" ]; then
    pg_test_sql -c "CREATE TABLE public.r_text (k text COLLATE \"$COLL\" PRIMARY KEY, v int)" >/dev/null
    pg_test_sql -c "INSERT INTO public.r_text SELECT x, ord FROM unnest(ARRAY['a', 'B', 'b', 'A', 'é', 'E', 'e', 'Z', 'z', 'ab', 'aB', 'Ab', 'a b', 'a-b', '_a', '1', '10', '9', 'ß', 'ss', 'Ä', 'ä']) WITH ORDINALITY AS t(x, ord)" >/dev/null
    NTEXT=22
else
    echo "no linguistic collation on this server: PG 3 skipped"
fi

step "PostgreSQL: capture, signal"
( exec "$RC" capture "$URL" --include 'public.r_*' --snapshot never --to native -o postgres.signal.table=$SIG \
    -o postgres.snapshot.chunk.rows=7 >"$W/pg.stream" 2>"$W/pg.err" ) &
CAP=$!
# streaming once a tick inserted after the start comes out
for i in $(seq 1 100); do
    pg_test_sql -c "INSERT INTO public.r_tick VALUES ($i)" >/dev/null
    grep -q '"table":"r_tick"' "$W/pg.stream" 2>/dev/null && break
    sleep 0.2
done
grep -q '"table":"r_tick"' "$W/pg.stream" && ok || bad "PostgreSQL: the capture streamed nothing: $(cat "$W/pg.err")"
tables='"public.r_ba", "public.r_ident"'
[ -n "$COLL" ] && tables="$tables, \"public.r_text\""
pg_test_sql -c "INSERT INTO $SIG VALUES ('rv-1', 'execute-snapshot', '{\"data-collections\": [$tables], \"type\": \"incremental\"}')" >/dev/null
for t in r_ba r_ident ${COLL:+r_text}; do
    wait_for 60 grep -q "incremental snapshot of public.$t \(completed\|stopped\)" "$W/pg.err" || bad "public.$t: not completed in 60 s"
done
# PG 5: UPDATEs of v in r_toast while it is snapshotted: its 2,500-byte keys are stored out of
# line, so the update's new row has them as "unchanged TOAST" (no old row: the key did not change)
pg_test_sql -c "INSERT INTO $SIG VALUES ('rv-4', 'execute-snapshot', '{\"data-collections\": [\"public.r_toast\"], \"type\": \"incremental\"}')" >/dev/null
for i in $(seq 1 100); do
    grep -q "incremental snapshot of public.r_toast \(completed\|stopped\)" "$W/pg.err" && break
    kill -0 $CAP 2>/dev/null || break
    pg_test_sql -c "UPDATE public.r_toast SET v = v + 1000 WHERE v % 50 = $((i % 50))" >/dev/null
    sleep 0.05
done
wait_for 60 completed "$W/pg.err" public.r_toast 1 || bad "public.r_toast: not completed in 60 s (capture alive: $(kill -0 $CAP 2>/dev/null && echo yes || echo no))"
# PG 4: a column added after the table's snapshot, then a new signal: its reads carry it
pg_test_sql -c "ALTER TABLE public.r_ba ADD COLUMN w int DEFAULT 7" >/dev/null
pg_test_sql -c "INSERT INTO $SIG VALUES ('rv-3', 'execute-snapshot', '{\"data-collections\": [\"public.r_ba\"], \"type\": \"incremental\"}')" >/dev/null
kill -0 $CAP 2>/dev/null && wait_for 60 completed "$W/pg.err" public.r_ba 2 ||
    bad "public.r_ba: the second snapshot not completed in 60 s"
kill -TERM $CAP
wait $CAP
CAP=
cat "$W/pg.err" | tail -5
step "PostgreSQL: checks"
for t in r_ba r_ident ${COLL:+r_text}; do
    grep -q "incremental snapshot of public.$t completed" "$W/pg.err" && ok || bad "public.$t: no completed line"
done
reads_of "$W/pg.stream" r_ba | head -200 >"$W/r_ba.1"
reads_of "$W/pg.stream" r_ba | tail -n +201 >"$W/r_ba.2"
exact_reads "$W/r_ba.1" r_ba 200
[ "$(wc -l <"$W/r_ba.2")" = 200 ] && ! grep -qv ',7\]$' "$W/r_ba.2" && ok ||
    bad "public.r_ba after ADD COLUMN w DEFAULT 7: $(wc -l <"$W/r_ba.2") reads, $(grep -cv ',7\]$' "$W/r_ba.2") without w: $(head -2 "$W/r_ba.2")"
exact "$W/pg.stream" r_ident 200
exact "$W/pg.stream" r_toast 50
grep -q "incremental snapshot of public.r_toast completed" "$W/pg.err" && ok || bad "public.r_toast: no completed line"
[ -n "$COLL" ] && exact "$W/pg.stream" r_text $NTEXT
fi
W=$PGW pg_test_stop
PGW=

step "MariaDB: load"
f=$fail
my_test_start || exit 1
fail=$f
MYW=$W
trap cleanup EXIT
NMY=${NMY:-6000}
my_sql -e "CREATE DATABASE shop"
my_sql shop -e "CREATE TABLE rowcast_signal (id VARCHAR(64) PRIMARY KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB;
CREATE TABLE t (id INT PRIMARY KEY, v INT, pad TEXT) ENGINE=InnoDB;
INSERT INTO t SELECT seq, seq, REPEAT('x', 4000) FROM seq_1_to_$NMY;
CREATE TABLE tick (id INT PRIMARY KEY) ENGINE=InnoDB;
CREATE TABLE te (id INT, kind ENUM('small', 'medium', 'large'), v INT, PRIMARY KEY (id, kind)) ENGINE=InnoDB;
INSERT INTO te SELECT s.seq, k.kind, s.seq FROM seq_1_to_20 s, (SELECT 'small' AS kind UNION SELECT 'medium' UNION SELECT 'large') k;"
step "MariaDB: capture, signal, the chunks' session killed"
( exec "$RC" capture "$MY_URL/shop" --include 'shop.t*' --snapshot never --checkpoint "$W/ck" --server-id 31 --to native \
    -o mysql.signal.table=shop.rowcast_signal -o mysql.snapshot.chunk.rows=20 >"$W/my.stream" 2>"$W/my.err" ) &
CAP=$!
for i in $(seq 1 100); do
    my_sql shop -e "INSERT INTO tick VALUES ($i)"
    grep -q '"table":"tick"' "$W/my.stream" 2>/dev/null && break
    sleep 0.2
done
grep -q '"table":"tick"' "$W/my.stream" && ok || bad "MariaDB: the capture streamed nothing: $(cat "$W/my.err")"
my_sql shop -e "INSERT INTO rowcast_signal VALUES ('rv-2', 'execute-snapshot', '{\"data-collections\": [\"shop.t\"], \"type\": \"incremental\"}')"
wait_for 30 grep -q '"snapshot":"incremental"' "$W/my.stream" || bad "MariaDB: no read in 30 s"
# every session of the server but the binlog dump's and ours: the chunks' one
# (every few tens of ms until the snapshot ends: the kills land anywhere in a chunk's read)
[ -z "${NO_KILL:-}" ] && for k in $(seq 1 100); do
    grep -q "incremental snapshot of shop.t \(completed\|stopped\)" "$W/my.err" && break
    my_sql -e "SELECT CONCAT('KILL CONNECTION ', ID, ';') FROM information_schema.PROCESSLIST WHERE COMMAND NOT IN ('Binlog Dump', 'Daemon') AND ID <> CONNECTION_ID() AND USER = 'root'" | my_sql 2>/dev/null
    sleep 0.0$((RANDOM % 10))
done
wait_for 90 grep -q "incremental snapshot of shop.t \(completed\|stopped\)" "$W/my.err" || bad "shop.t: not completed in 90 s after its session was killed"
# MariaDB 2: a key with an ENUM column (ORDER BY sorts it by the value's number)
my_sql shop -e "INSERT INTO rowcast_signal VALUES ('rv-5', 'execute-snapshot', '{\"data-collections\": [\"shop.te\"], \"type\": \"incremental\"}')"
wait_for 30 grep -q "incremental snapshot of shop.te \(completed\|stopped\)" "$W/my.err" || bad "shop.te: not completed in 30 s"
kill -TERM $CAP
wait $CAP
CAP=
grep 'warning\|incremental snapshot' "$W/my.err" | sed 's/[0-9][0-9]*/N/g' | sort | uniq -c | head
step "MariaDB: checks"
grep -q "incremental snapshot of shop.t completed" "$W/my.err" && ok || bad "shop.t: no completed line"
exact "$W/my.stream" t $NMY
exact "$W/my.stream" te 60
echo "incsnap_review: $pass passed, $fail failed ($((SECONDS - T0)) s)"
[ "$fail" = 0 ]
