#!/usr/bin/env bash
# `rowcast capture postgres://...` as a user runs it, against one throwaway PostgreSQL 15:
#  1. one scripted workload captured with --include 'public.*' --until caught-up, once to
#     native and once to upstream Debezium (a slot each): the first run takes the snapshot of
#     two tables with rows (op read, 2.x's snapshot markers) and creates the slot, the second
#     streams REPLICA IDENTITY DEFAULT / FULL updates and deletes (before image absent,
#     key-only, full), an insert into a REPLICA IDENTITY NOTHING table (published by
#     -o postgres.publish.no_identity=insert_only for its INSERTs only: the application's
#     UPDATE and DELETE of it and of a table without key still work), an unchanged TOAST value, ALTER TABLE add / drop / retype
#     mid-stream, TRUNCATE, a rolled-back transaction (nothing), two tables in one transaction,
#     an enum and a domain column. Each format's whole stdout is compared with its reviewed
#     golden file (data/pg_capture.native.golden, data/pg_capture.debezium.golden) after
#     `mask` (below: only LSNs, xids and commit times, which differ per run); stderr exactly
#     (the clock's numbers replaced). Unmasked, Debezium's txId, lsn and ts_us equal native's
#     for every row; replaying the native events by key gives what SELECT returns.
#  1b. never break the application: a table without replica identity is left out of the
#     publication rowcast creates, with the fixes (the application's UPDATE and DELETE of it
#     work afterwards); every table lacking identity: exit 1, nothing created; an --include
#     pattern that matches no table, or none of an existing publication (ALTER PUBLICATION
#     ... ADD TABLE said): exit 1, each message exact; a pattern without a dot: a schema; a
#     publication made by someone else holding such a table: used, with the warning and fix.
#     A partitioned table named by --include: its rows in both partitions, snapshot and stream,
#     each once under its name (rowcast's publication: publish_via_partition_root); an existing
#     publication listing the partitions under their own names: refused with the ALTER
#     PUBLICATION to run; a partition named by itself: captured under its own name.
#  2. setup errors and usage, by exact message and exit status: wrong password (`password`
#     authentication for one role), a role without REPLICATION, a slot of test_decoding, a
#     missing publication without --include, a publication dropped while capturing (and
#     created again: the slot still cannot pass), no password at all (libpq's fe_sendauth,
#     with where one comes from), an invalidated slot, wal_level = replica; a password in the URL never printed;
#     usage errors.
#  3. --snapshot initial_only (the rows, no slot kept), --snapshot never, --max-events N (mid-
#     transaction: the next run has that transaction again, whole), SIGTERM while idle: exit
#     143 with the slot's confirmed_flush_lsn at (or past) the last commit's end; SIGINT: 130;
#     --on-loss=stop at a row OMS Debezium cannot hold: exit 2, the slot before its transaction.
# usage: pg_capture_test.sh path/to/rowcast   (RC_UPDATE_GOLDEN=1 rewrites the golden files)
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/pg_lib.sh"
# no autovacuum: nothing writes WAL or takes xids behind the test's back
pg_test_start "autovacuum = off" || exit 1
. "$HERE/../common/check.sh"
HP=127.0.0.1:$PGPORT
U=$PG_URL

# cap NAME ARGS...: rowcast capture ARGS, stdout in $W/NAME.out, stderr in $W/NAME.err, the
# exit status in $st
cap() {
    local name=$1
    shift
    "$RC" capture "$@" >"$W/$name.out" 2>"$W/$name.err"
    st=$?
}
# expect_err NAME STATUS: the last run's status is STATUS and its stderr (the clock's numbers
# replaced) is stdin exactly
expect_err() {
    expect_rc "$1" "$st" "$2"
    sed -E 's/^rowcast: [0-9]+\.[0-9]{3} s, [0-9]+ events\/s$/rowcast: T s, R events\/s/' "$W/$1.err" >"$W/$1.err.norm"
    cat >"$W/$1.want"
    expect_eq "$1: stderr" "$W/$1.want" "$W/$1.err.norm"
}
# mask: what differs per run, as placeholders in order of appearance: LSNs L1, L2, ... (native
# "lsn"/"checkpoint" text, Debezium's "lsn" number and the LSNs in its "sequence"), xids X1, ... ("txid" text, "txId"
# number; Debezium 2.x's transaction id "<xid>:<LSN>" as "X1:L1"), commit times T (native ts_us;
# Debezium's ts_ms/ts_us/ts_ns where not 0). The same
# LSN or xid gets the same placeholder, so the masked text still shows which events share them.
mask() {
    perl -pe 's/"(lsn|checkpoint|last_commit_lsn)":("?)([0-9A-F]+\/[0-9A-F]+|\d+)\2/"\"$1\":\"L" . ($l{$3} \/\/= ++$nl) . "\""/ge;
      s/\\"(\d+)\\"/"\\\"L" . ($l{$1} \/\/= ++$nl) . "\\\""/ge;
      s/"(txid|txId)":("?)(\d+)\2/"\"$1\":\"X" . ($x{$3} \/\/= ++$nx) . "\""/ge;
      s/"ts_(us|ms|ns)":[1-9]\d*/"\"ts_$1\":\"T\""/ge;
      s/"id":"(\d+):(\d+)"/"\"id\":\"X" . ($x{$1} \/\/= ++$nx) . ":L" . ($l{$2} \/\/= ++$nl) . "\""/ge' "$@"
}
# golden NAME FILE: FILE masked equals data/pg_capture.NAME.golden
golden() {
    local g=$HERE/data/pg_capture.$1.golden
    mask "$2" >"$W/$1.masked"
    if [ "${RC_UPDATE_GOLDEN:-}" = 1 ]; then cp "$W/$1.masked" "$g"; fi
    if cmp -s "$g" "$W/$1.masked"; then ok; else
        bad "$1 differs from $g"
        diff <(cut -c1-200 "$g") <(cut -c1-200 "$W/$1.masked") | head -30 >&2
    fi
}
# replay FILE...: the rows the native events of FILEs leave, per table, as "table|v1|v2..."
# in the table's present columns (NULL for null), ordered by id; an unavailable (unchanged
# TOAST) value keeps the row's previous one, as a consumer would
replay() {
    jq -n -r --argjson cols "$(table_columns)" '
        def row($e; $v): [$e.columns, $v] | transpose | map({key: .[0].name, value: .[1]}) | from_entries;
        reduce (inputs | select(.op != "begin" and .op != "commit")) as $e ({};
          $e.source.table as $t
          | if $e.op == "truncate" then .[$t] = {}
            else
              (if $e.before then row($e; $e.before).id else null end) as $bk
              | (if $e.after then row($e; $e.after) else null end) as $a
              | (.[$t][($bk // $a.id) | tostring] // {}) as $old
              | (if $bk != null then del(.[$t][$bk | tostring]) else . end)
              | if $a then .[$t][$a.id | tostring] = ($a | with_entries(
                    if (.value | type) == "object" and .value.unavailable then .value = $old[.key] else . end))
                else . end
            end)
        | . as $s | $cols | to_entries[] | .key as $t | .value as $c
        | ($s[$t] // {}) | [.[]] | sort_by(.id)[]
        | [$t, ($c[] as $k | .[$k] | if . == null then "NULL" elif type == "string" then . else tostring end)] | join("|")' "$@"
}
# table_columns: {"table": ["column", ...]} of the tables checked by replay
TABLES="customers docs evolve orders rid_full rid_nothing"
table_columns() {
    pg_test_sql -c "SELECT json_object_agg(c.relname, (SELECT json_agg(attname ORDER BY attnum) FROM pg_attribute
        WHERE attrelid = c.oid AND attnum > 0 AND NOT attisdropped) ORDER BY c.relname) FROM pg_class c
        WHERE c.relname IN ('${TABLES// /\',\'}') AND c.relnamespace = 'public'::regnamespace"
}
# selected: the same from SELECT
selected() {
    local t cols
    for t in $TABLES; do
        cols=$(pg_test_sql -c "SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) FROM pg_attribute
            WHERE attrelid = 'public.$t'::regclass AND attnum > 0 AND NOT attisdropped")
        pg_test_sql -F '|' -P null=NULL -c "SELECT '$t', $cols FROM public.$t ORDER BY id"
    done
}
# msg_bytes NAME: what the summary counts of NAME's stdout: the messages without their newlines
msg_bytes() { echo $(($(wc -c <"$W/$1.out") - $(wc -l <"$W/$1.out"))); }
# rec_bytes NAME: the same of --records output: the keys' and values' lengths (-1: none)
rec_bytes() { awk -F'\t' '$2 > 0 { n += $2 } $4 > 0 { n += $4 } END { print n + 0 }' "$W/$1.out"; }
# same NAME WANT GOT: the two texts are equal
same() { if [ "$2" = "$3" ]; then ok; else bad "$1"; diff <(echo "$2") <(echo "$3") >&2; fi; }
slot_lsn() { pg_test_sql -c "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '$1'"; }
slot_active() { [ "$(pg_test_sql -c "SELECT active FROM pg_replication_slots WHERE slot_name = '$1'")" = t ]; }
# lsn_num A/B: the LSN as a number
lsn_num() { echo $((16#${1%/*} * 4294967296 + 16#${1#*/})); }

# ---- 1. the workload, to native and to upstream Debezium
pg_test_sql <<'SQL' >/dev/null || exit 1
CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy');
CREATE DOMAIN posint AS integer CHECK (VALUE > 0);
CREATE TABLE customers (id int PRIMARY KEY, name text, mood mood, visits posint);
CREATE TABLE orders (id bigint PRIMARY KEY, customer int, amount numeric(10,2), note text);
INSERT INTO customers VALUES (1, 'Ann', 'happy', 3), (2, 'Bob', 'sad', NULL);
INSERT INTO orders VALUES (10, 1, 12.50, 'first'), (11, 2, 0.01, NULL);
CREATE TABLE rid_full (id int PRIMARY KEY, v text);
ALTER TABLE rid_full REPLICA IDENTITY FULL;
CREATE TABLE rid_nothing (id int PRIMARY KEY, v text);
ALTER TABLE rid_nothing REPLICA IDENTITY NOTHING;
CREATE TABLE nokey (v text);
-- EXTERNAL: the 2,100-byte body is stored out of line (TOAST), not compressed into the row
CREATE TABLE docs (id int PRIMARY KEY, title text, body text);
ALTER TABLE docs ALTER COLUMN body SET STORAGE EXTERNAL;
CREATE TABLE evolve (id int PRIMARY KEY, a text, b int);
CREATE TABLE ev (id int PRIMARY KEY);
SQL
# the tables without replica identity (nokey, rid_nothing) by the opt-in: their INSERTs only,
# through a second publication; the application's UPDATE and DELETE on them still work (below)
NOID=(-o postgres.publish.no_identity=insert_only)
cap native1 "$U" --include 'public.*' --until caught-up "${NOID[@]}"
expect_err native1 0 <<EOF
rowcast: publication rowcast created
rowcast: table public.nokey has no replica identity: its INSERTs and TRUNCATEs only are captured, through publication rowcast_inserts (publish = 'insert, truncate')
rowcast: table public.rid_nothing has no replica identity: its INSERTs and TRUNCATEs only are captured, through publication rowcast_inserts (publish = 'insert, truncate')
rowcast: snapshot of 8 tables (4 rows) delivered; replication slot rowcast created
rowcast: 4 messages read: 4 converted, 0 filtered out, 0 bad
rowcast: 4 events decoded: 4 encoded, 0 filtered out, 0 not expressible in native
rowcast: 4 messages written ($(msg_bytes native1) bytes): 4 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
# a third consumer: upstream Debezium with its transaction topic, as Kafka records (its slot
# made before dbz's, whose first LSNs the debezium golden shows)
DBZTX=(--to debezium -o debezium.flavor=upstream -o debezium.transactions=true --records)
cap dbztx1 "$U" --slot dbztx --include 'public.*' --until caught-up "${DBZTX[@]}"
expect_err dbztx1 0 <<EOF
rowcast: snapshot of 8 tables (4 rows) delivered; replication slot dbztx created
rowcast: 4 messages read: 4 converted, 0 filtered out, 0 bad
rowcast: 4 events decoded: 4 encoded, 0 filtered out, 0 not expressible in debezium
rowcast: 4 messages written ($(rec_bytes dbztx1) bytes): 4 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
# two threads (the next batch decoded while the last is encoded: MySQL's default): from a slot
# of its own, compared with native2 below (made before dbz's, as dbztx's)
cap one1 "$U" --slot one --include 'public.*' --until caught-up --threads 2
DBZ=(--to debezium -o debezium.flavor=upstream)
cap dbz1 "$U" --slot dbz --include 'public.*' --until caught-up "${DBZ[@]}"
expect_err dbz1 0 <<EOF
rowcast: snapshot of 8 tables (4 rows) delivered; replication slot dbz created
rowcast: 4 messages read: 4 converted, 0 filtered out, 0 bad
rowcast: 4 events decoded: 4 encoded, 0 filtered out, 0 not expressible in debezium
rowcast: 4 messages written ($(msg_bytes dbz1) bytes): 4 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF

pg_test_sql <<'SQL' >/dev/null || bad "the workload failed"
UPDATE customers SET name = 'Ann B' WHERE id = 1;
UPDATE customers SET id = 3 WHERE id = 2;
DELETE FROM customers WHERE id = 3;
INSERT INTO rid_full VALUES (1, 'a');
UPDATE rid_full SET v = 'b' WHERE id = 1;
DELETE FROM rid_full WHERE id = 1;
INSERT INTO rid_nothing VALUES (1, 'a');
INSERT INTO docs VALUES (1, 't', repeat('0123456789', 210));
UPDATE docs SET title = 't2' WHERE id = 1;
INSERT INTO evolve VALUES (1, 'a', 1);
ALTER TABLE evolve ADD COLUMN c text;
INSERT INTO evolve VALUES (2, 'b', 2, 'c');
ALTER TABLE evolve DROP COLUMN a;
UPDATE evolve SET c = 'cc' WHERE id = 2;
ALTER TABLE evolve ALTER COLUMN b TYPE bigint;
INSERT INTO evolve VALUES (3, 3000000000, 'd');
INSERT INTO rid_full VALUES (2, 'x'), (3, 'y');
TRUNCATE rid_full;
BEGIN; INSERT INTO orders VALUES (99, 1, 1, 'rolled back'); ROLLBACK;
BEGIN;
INSERT INTO orders VALUES (12, 1, 5.00, 'two tables');
UPDATE customers SET visits = 4 WHERE id = 1;
INSERT INTO customers VALUES (4, 'Cy', 'ok', 1);
DELETE FROM orders WHERE id = 10;
COMMIT;
SQL
# REPLICA IDENTITY NOTHING, no key: the application's own UPDATE and DELETE work (PostgreSQL
# refused them while rowcast published those tables' UPDATEs); not captured, so the UPDATE
# leaves the value as it was, for the replay below
out=$(pg_test_sql -c "UPDATE rid_nothing SET v = v" -c "UPDATE nokey SET v = v" -c "DELETE FROM nokey" 2>&1)
same "the application's UPDATE and DELETE of tables without identity" "" "$out"
cap native2 "$U" --include 'public.*' --until caught-up
expect_err native2 0 <<EOF
rowcast: 52 messages read: 52 converted, 0 filtered out, 0 bad
rowcast: 52 events decoded: 52 encoded, 0 filtered out, 0 not expressible in native
rowcast: 52 messages written ($(msg_bytes native2) bytes): 52 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
cap one2 "$U" --slot one --include 'public.*' --until caught-up --threads 2
mask "$W/native2.out" >"$W/native2.masked"
mask "$W/one2.out" >"$W/one2.masked"
expect_eq "--threads 2 = the default (1)" "$W/native2.masked" "$W/one2.masked"
pg_test_sql -c "SELECT pg_drop_replication_slot('one')" >/dev/null || bad "cannot drop the slot one"
cap dbz2 "$U" --slot dbz --include 'public.*' --until caught-up "${DBZ[@]}"
expect_err dbz2 0 <<EOF
rowcast: 52 messages read: 52 converted, 0 filtered out, 0 bad
rowcast: 52 events decoded: 19 encoded, 0 filtered out, 1 not expressible in debezium, 32 transaction markers (BEGIN/COMMIT) it has no message for
rowcast: 20 messages written ($(msg_bytes dbz2) bytes): 20 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
cap dbztx2 "$U" --slot dbztx --include 'public.*' --until caught-up "${DBZTX[@]}"
# every marker has its message now (32 BEGIN/COMMIT), the key-changing update two
expect_err dbztx2 0 <<EOF
rowcast: 52 messages read: 52 converted, 0 filtered out, 0 bad
rowcast: 52 events decoded: 51 encoded, 0 filtered out, 1 not expressible in debezium
rowcast: 52 messages written ($(rec_bytes dbztx2) bytes): 52 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
pg_test_sql -c "SELECT pg_drop_replication_slot('dbztx')" >/dev/null || bad "cannot drop the slot dbztx"
# each transaction's BEGIN and END on rowcast.transaction (id "<xid>:<LSN>"; END: event_count and
# data_collections of the rows written), the rows' transaction blocks
cut -f1,3,5 "$W/dbztx2.out" >"$W/dbztx.records"
golden debezium.transactions "$W/dbztx.records"
cat "$W/native1.out" "$W/native2.out" >"$W/native.out"
cat "$W/dbz1.out" "$W/dbz2.out" >"$W/dbz.out"
golden native "$W/native.out"
golden debezium "$W/dbz.out"
# unmasked: each Debezium row carries its native event's xid, LSN and commit time (snapshot
# rows: the time each run took its snapshot, which differs between the two runs; the truncate:
# Debezium 2.x skips it, skipped.operations=t; an update that changes the key is two messages,
# a delete and a create, both with the update's source block)
jq -r 'select(.op != "begin" and .op != "commit" and .op != "read" and .op != "truncate") |
    ([.columns | to_entries[] | select(.value.pk) | .key]) as $k |
    if .op == "update" and .before != null and ([$k[] as $i | .before[$i]] != [$k[] as $i | .after[$i]]) then (., .) else . end |
    [.pos.txid // "null", .pos.lsn // "null", .ts_us // 0] | @tsv' "$W/native.out" |
    while IFS=$'\t' read -r x l t; do
        [ "$l" = null ] || l=$(lsn_num "$l")
        printf '%s\t%s\t%s\n' "$x" "$l" "$t"
    done >"$W/native.pos"
jq -r 'select(.op != "r") | [.source.txId // "null", .source.lsn // "null", .source.ts_us] | @tsv' "$W/dbz.out" >"$W/dbz.pos"
expect_eq "Debezium's txId, lsn, ts_us = native's" "$W/native.pos" "$W/dbz.pos"
# the final state: replayed from the captured events = SELECT
selected >"$W/selected"
replay "$W/native.out" >"$W/replayed"
expect_eq "native events replayed = SELECT" "$W/selected" "$W/replayed"
same "rows in the final state" 9 "$(grep -c . "$W/selected")"

# ---- never break the application: a table without replica identity is left out of the
# publication rowcast creates, said with the fixes; the application's UPDATE and DELETE on it
# work afterwards. Every --include pattern must match a captured table (exit 1 otherwise).
pg_test_sql -c "CREATE SCHEMA app" -c "CREATE TABLE app.keyed (id int PRIMARY KEY, v text)" \
    -c "CREATE TABLE app.nopk (v text)" -c "INSERT INTO app.keyed VALUES (1, 'a')" \
    -c "CREATE TABLE app.parted (id int PRIMARY KEY) PARTITION BY RANGE (id)" \
    -c "CREATE TABLE app.parted_1 PARTITION OF app.parted FOR VALUES FROM (0) TO (100)" \
    -c "INSERT INTO app.nopk VALUES ('a')" >/dev/null || bad "the app tables"
cap app1 "$U" --publication p_app --slot s_app --include 'app.*' --until caught-up
expect_err app1 0 <<EOF
rowcast: publication p_app created
rowcast: warning: table app.nopk is left out of publication p_app: it has no replica identity (no primary key): add a primary key, or ALTER TABLE app.nopk REPLICA IDENTITY FULL, then ALTER PUBLICATION p_app ADD TABLE app.nopk; published without one, the application's UPDATEs and DELETEs on it would fail (-o postgres.publish.no_identity=insert_only: its INSERTs only)
rowcast: snapshot of 2 tables (1 row) delivered; replication slot s_app created
rowcast: 1 message read: 1 converted, 0 filtered out, 0 bad
rowcast: 1 event decoded: 1 encoded, 0 filtered out, 0 not expressible in native
rowcast: 1 message written ($(msg_bytes app1) bytes): 1 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
# pub_tables NAME: the publication's tables, schema.table,...
pub_tables() { pg_test_sql -c "SELECT string_agg(schemaname || '.' || tablename, ',' ORDER BY schemaname, tablename) FROM pg_publication_tables WHERE pubname = '$1'"; }
# (a partitioned table is named, with publish_via_partition_root: pg_publication_tables lists it,
# not its partitions)
same "p_app's tables" "app.keyed,app.parted" "$(pub_tables p_app)"
cap app_parted "$U" --publication p_app --include app.parted --snapshot initial_only -q
expect_err app_parted 0 </dev/null
out=$(pg_test_sql -c "UPDATE app.nopk SET v = 'b'" -c "DELETE FROM app.nopk" -c "UPDATE app.keyed SET v = 'b'" 2>&1)
same "the application's UPDATE and DELETE on app.nopk after rowcast created its publication" "" "$out"
# every table a pattern matches lacks identity: nothing is created, exit 1
cap app_none "$U" --publication p_none --slot s_none --include app.nopk
expect_err app_none 1 <<EOF
rowcast capture: --include 'app.nopk': table app.nopk has no replica identity (no primary key): add a primary key, or ALTER TABLE app.nopk REPLICA IDENTITY FULL; published without one, the application's UPDATEs and DELETEs on it would fail, so rowcast does not publish it (-o postgres.publish.no_identity=insert_only: its INSERTs only)
EOF
same "no publication p_none" 0 "$(pg_test_sql -c "SELECT count(*) FROM pg_publication WHERE pubname = 'p_none'")"
# the existing publication lacks a table --include names: what to run
pg_test_sql -c "CREATE TABLE app.later (id int PRIMARY KEY)" >/dev/null
cap app_later "$U" --publication p_app --slot s_app --include 'app.*' --include app.later --until caught-up
expect_err app_later 1 <<EOF
rowcast capture: --include 'app.later': publication "p_app" on $U has no table it matches (app.later is not in it): run ALTER PUBLICATION p_app ADD TABLE app.later, or leave the pattern out
EOF
cap app_noid "$U" --publication p_app --include app.nopk --snapshot initial_only
expect_err app_noid 1 <<EOF
rowcast capture: --include 'app.nopk': table app.nopk is not in publication "p_app" and has no replica identity (no primary key): add a primary key, or ALTER TABLE app.nopk REPLICA IDENTITY FULL, then ALTER PUBLICATION p_app ADD TABLE app.nopk
EOF
# a pattern that matches nothing, beside one that matches (as convert says it); and a schema
cap app_typo "$U" --publication p_app --include app.keyed --include 'app.kyed*' --snapshot initial_only
expect_err app_typo 1 <<EOF
rowcast capture: --include 'app.kyed*' matched no table on $U
EOF
cap app_schema "$U" --publication p_app --include apps --snapshot initial_only
expect_err app_schema 1 <<EOF
rowcast capture: --include 'apps' matched no table on $U (as apps.*: a pattern without a dot names schemas)
EOF
cap app_schema2 "$U" --publication p_schema --include app --snapshot initial_only -q
expect_err app_schema2 0 <<EOF
rowcast: warning: table app.nopk is left out of publication p_schema: it has no replica identity (no primary key): add a primary key, or ALTER TABLE app.nopk REPLICA IDENTITY FULL, then ALTER PUBLICATION p_schema ADD TABLE app.nopk; published without one, the application's UPDATEs and DELETEs on it would fail (-o postgres.publish.no_identity=insert_only: its INSERTs only)
EOF
same "p_schema's tables (a pattern without a dot: a schema)" "app.keyed,app.later,app.parted" "$(pub_tables p_schema)"

# ---- a partitioned table named by --include (part.parent, partitions parent_1 and parent_2):
# its rows in both partitions, in the snapshot and in the stream, each exactly once, under the
# name the pattern gave. The publication rowcast creates publishes it through its root
# (publish_via_partition_root); an existing one that publishes the partitions under their own
# names is refused with what to run; a partition named by itself is captured as before.
pg_test_sql -c "CREATE SCHEMA part" \
    -c "CREATE TABLE part.parent (id int PRIMARY KEY, v text) PARTITION BY RANGE (id)" \
    -c "CREATE TABLE part.parent_1 PARTITION OF part.parent FOR VALUES FROM (0) TO (100)" \
    -c "CREATE TABLE part.parent_2 PARTITION OF part.parent FOR VALUES FROM (100) TO (200)" \
    -c "INSERT INTO part.parent VALUES (1, 'a'), (2, 'b'), (101, 'c'), (102, 'd')" >/dev/null || bad "the part tables"
# rows NAME: the row events of NAME's native stdout as "op schema.table id v", one a line
rows() { jq -r 'select(.after or .before) | [.op, .source.schema + "." + .source.table, (.after // .before)[0], (.after // [])[1]] | map(tostring) | join(" ")' "$W/$1.out"; }
cap part1 "$U" --publication p_part --slot s_part --include part.parent --until caught-up
expect_err part1 0 <<EOF
rowcast: publication p_part created
rowcast: snapshot of 1 table (4 rows) delivered; replication slot s_part created
rowcast: 4 messages read: 4 converted, 0 filtered out, 0 bad
rowcast: 4 events decoded: 4 encoded, 0 filtered out, 0 not expressible in native
rowcast: 4 messages written ($(msg_bytes part1) bytes): 4 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
same "part1: the snapshot" "$(printf '%s\n' 'read part.parent 1 a' 'read part.parent 2 b' 'read part.parent 101 c' 'read part.parent 102 d')" "$(rows part1)"
pg_test_sql -c "INSERT INTO part.parent VALUES (3, 'e'), (103, 'f')" \
    -c "UPDATE part.parent SET v = 'a2' WHERE id = 1" -c "UPDATE part.parent SET v = 'c2' WHERE id = 101" \
    -c "DELETE FROM part.parent WHERE id = 2" -c "DELETE FROM part.parent WHERE id = 102" >/dev/null || bad "part writes"
cap part2 "$U" --publication p_part --slot s_part --include part.parent --until caught-up -q
expect_err part2 0 </dev/null
same "part2: the stream" "$(printf '%s\n' 'insert part.parent 3 e' 'insert part.parent 103 f' 'update part.parent 1 a2' 'update part.parent 101 c2' 'delete part.parent 2 null' 'delete part.parent 102 null')" "$(rows part2)"
pg_test_sql -c "SELECT pg_drop_replication_slot('s_part')" >/dev/null
# an existing publication without publish_via_partition_root (its partitions under their own
# names): a pattern naming the partitioned table alone is refused, with what to run
pg_test_sql -c "CREATE PUBLICATION p_old FOR TABLE part.parent" >/dev/null || bad "p_old"
same "p_old's tables" "part.parent_1,part.parent_2" "$(pub_tables p_old)"
cap part_old "$U" --publication p_old --include part.parent --snapshot initial_only
expect_err part_old 1 <<EOF
rowcast capture: --include 'part.parent': publication "p_old" on $U publishes partition part.parent_1 of part.parent under the partition's name, which the pattern does not match: run ALTER PUBLICATION p_old SET (publish_via_partition_root = true) to capture its rows as part.parent, or include the partition too
EOF
# a partition named by itself, and every partition with the parent: each row once, as before
cap part_old1 "$U" --publication p_old --include part.parent_1 --snapshot initial_only -q
expect_err part_old1 0 </dev/null
same "part_old1: partition 1's rows" "$(printf '%s\n' 'read part.parent_1 1 a2' 'read part.parent_1 3 e')" "$(rows part_old1 | sort -k3,3n)"
cap part_oldall "$U" --publication p_old --include 'part.*' --snapshot initial_only -q
expect_err part_oldall 0 </dev/null
same "part_oldall: both partitions' rows" "$(printf '%s\n' 'read part.parent_1 1 a2' 'read part.parent_1 3 e' 'read part.parent_2 101 c2' 'read part.parent_2 103 f')" "$(rows part_oldall | sort -k3,3n)"
# the fix the message names: then the partitioned table's rows, once each
pg_test_sql -c "ALTER PUBLICATION p_old SET (publish_via_partition_root = true)" >/dev/null || bad "ALTER p_old"
cap part_old2 "$U" --publication p_old --include part.parent --snapshot initial_only -q
expect_err part_old2 0 </dev/null
same "part_old2: the rows after ALTER PUBLICATION" "$(printf '%s\n' 'read part.parent 1 a2' 'read part.parent 3 e' 'read part.parent 101 c2' 'read part.parent 103 f')" "$(rows part_old2 | sort -k3,3n)"
# a partition named by itself when rowcast creates the publication: published under its own name
cap part_new1 "$U" --publication p_new1 --include part.parent_1 --snapshot initial_only -q
expect_err part_new1 0 </dev/null
same "p_new1's tables" "part.parent_1" "$(pub_tables p_new1)"
same "part_new1: partition 1's rows" "$(printf '%s\n' 'read part.parent_1 1 a2' 'read part.parent_1 3 e')" "$(rows part_new1 | sort -k3,3n)"
# a publication someone else made with such a table: used as it is, with a warning and the fix
pg_test_sql -c "CREATE PUBLICATION p_user FOR TABLE app.keyed, app.nopk" >/dev/null
cap app_user "$U" --publication p_user --include app.keyed --snapshot initial_only -q
expect_err app_user 0 <<EOF
rowcast: warning: table app.nopk has no replica identity (no primary key): add a primary key, or ALTER TABLE app.nopk REPLICA IDENTITY FULL: while a publication publishes its UPDATEs and DELETEs, PostgreSQL refuses them ("cannot update table ... because it does not have a replica identity")
EOF
pg_test_sql -c "SELECT pg_drop_replication_slot('s_app')" -c "DROP PUBLICATION p_app" -c "DROP PUBLICATION p_schema" \
    -c "DROP PUBLICATION p_user" >/dev/null || bad "cannot drop s_app"

# ---- 3. snapshot modes, --max-events, SIGTERM
# initial_only: the snapshot (the same final state), then exit 0; no slot is kept, not even
# the temporary one
cap only "$U" --slot s_only --snapshot initial_only
expect_err only 0 <<EOF
rowcast: 9 messages read: 9 converted, 0 filtered out, 0 bad
rowcast: 9 events decoded: 9 encoded, 0 filtered out, 0 not expressible in native
rowcast: 9 messages written ($(msg_bytes only) bytes): 9 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
replay "$W/only.out" >"$W/only.replayed"
expect_eq "initial_only replayed = SELECT" "$W/selected" "$W/only.replayed"
# slots: the slots' names. The snapshot's temporary slot goes when its session ends, which the
# server sees a moment after rowcast exits (seen still there once under ASan)
slots() { pg_test_sql -c "SELECT string_agg(slot_name, ' ' ORDER BY slot_name) FROM pg_replication_slots"; }
slots_are() { [ "$(slots)" = "$1" ]; }
wait_for 10 slots_are "dbz rowcast"
same "initial_only: no slot left" "dbz rowcast" "$(slots)"
# --max-events 1 during a snapshot: one read event, and no slot (the next run snapshots again)
cap snapmax "$U" --slot s_snapmax --max-events 1
expect_rc snapmax "$st" 0
same "--max-events 1 in the snapshot" "read customers 1" "$(jq -r '[.op, .source.table, .after[0]] | join(" ")' "$W/snapmax.out")"
wait_for 10 slots_are "dbz rowcast"
same "--max-events in the snapshot: no slot left" "dbz rowcast" "$(slots)"

# never: the slot is created where the WAL is now, nothing before it comes
cap never "$U" --slot s_max --snapshot never --until caught-up
expect_err never 0 <<EOF
rowcast: replication slot s_max created (no snapshot)
rowcast: 0 messages read: 0 converted, 0 filtered out, 0 bad
rowcast: 0 events decoded: 0 encoded, 0 filtered out, 0 not expressible in native
rowcast: 0 messages written (0 bytes): 0 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
# --max-events 2 stops in the second transaction: the slot stays at the end of the first,
# the next run has the second again, whole
pg_test_sql -c "INSERT INTO ev VALUES (1)" -c "BEGIN" -c "INSERT INTO ev VALUES (2), (3)" -c "COMMIT" -c "INSERT INTO ev VALUES (4)" >/dev/null
cap max "$U" --slot s_max --max-events 2
expect_rc max "$st" 0
ops() { jq -r '[.op, (.after[0]? // empty | tostring)] | join(" ")' "$1" | paste -sd, -; }
same "--max-events 2" "begin,insert 1,commit,begin,insert 2" "$(ops "$W/max.out")"
same "--max-events 2: the slot at the first commit's end" "$(jq -r 'select(.op == "commit") | .pos.checkpoint' "$W/max.out")" "$(slot_lsn s_max)"
cap max2 "$U" --slot s_max --until caught-up
expect_rc max2 "$st" 0
same "after --max-events: the rest" "begin,insert 2,insert 3,commit,begin,insert 4,commit" "$(ops "$W/max2.out")"

# SIGTERM while idle: once the last commit is written, the run exits 143 and the slot is at
# its end (or at the keepalive's end of WAL past it, which nothing else wrote in between)
"$RC" capture "$U" --slot s_max >"$W/term.out" 2>"$W/term.err" &
pid=$!
wait_for 20 slot_active s_max || bad "SIGTERM: the capture never streamed"
pg_test_sql -c "INSERT INTO ev VALUES (5)" >/dev/null
committed() { grep -q '"op":"commit"' "$W/term.out"; }
wait_for 20 committed || bad "SIGTERM: the commit never came"
kill -TERM $pid
wait $pid
st=$?
end=$(jq -r 'select(.op == "commit") | .pos.checkpoint' "$W/term.out")
now=$(pg_test_sql -c "SELECT pg_current_wal_lsn()")
conf=$(slot_lsn s_max)
if [ -n "$end" ] && [ "$(lsn_num "$conf")" -ge "$(lsn_num "$end")" ] && [ "$(lsn_num "$conf")" -le "$(lsn_num "$now")" ]; then ok; else
    bad "SIGTERM: confirmed_flush_lsn $conf, the commit's end $end, the WAL's $now"
fi
expect_err term 143 <<EOF
rowcast: SIGTERM: stopping; waiting up to 30 s for deliveries
rowcast: 3 messages read: 3 converted, 0 filtered out, 0 bad
rowcast: 3 events decoded: 3 encoded, 0 filtered out, 0 not expressible in native
rowcast: 3 messages written ($(msg_bytes term) bytes): 3 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
echo "SIGTERM: exit $st; confirmed_flush_lsn $conf, last commit's end $end"
# SIGINT while streaming, nothing new: 130, and the slot where it was (or past: keepalives)
"$RC" capture "$U" --slot s_max >"$W/int.out" 2>"$W/int.err" &
pid=$!
wait_for 20 slot_active s_max || bad "SIGINT: the capture never streamed"
kill -INT $pid
wait $pid
st=$?
expect_err int 130 <<EOF
rowcast: SIGINT: stopping; waiting up to 30 s for deliveries
rowcast: 0 messages read: 0 converted, 0 filtered out, 0 bad
rowcast: 0 events decoded: 0 encoded, 0 filtered out, 0 not expressible in native
rowcast: 0 messages written (0 bytes): 0 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
[ "$(lsn_num "$(slot_lsn s_max)")" -ge "$(lsn_num "$conf")" ] || bad "SIGINT: the slot went back to $(slot_lsn s_max)"
# --snapshot initial with an existing slot: said, and the slot streamed as it is
at=$(slot_lsn s_max)
cap reuse "$U" --slot s_max --snapshot initial --until caught-up
expect_err reuse 0 <<EOF
rowcast: replication slot s_max exists: streaming from its position (LSN $at), no snapshot; drop the slot to take a new one
rowcast: 0 messages read: 0 converted, 0 filtered out, 0 bad
rowcast: 0 events decoded: 0 encoded, 0 filtered out, 0 not expressible in native
rowcast: 0 messages written (0 bytes): 0 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF

# --until LSN: the transactions committed before the LSN and nothing after it, though the WAL
# holds more. A transaction open across the LSN (its first row before it, its commit after it)
# is after it: it was handed out whole before, which overshot the target. The slot stays at the
# last commit handed, so the next run has the rest.
cap until0 "$U" --slot s_until --snapshot never --until caught-up
expect_rc until0 "$st" 0
mkfifo "$W/txa"
pg_test_sql <"$W/txa" >"$W/txa.out" 2>&1 &
txa=$!
exec 3>"$W/txa"
step() { echo "$1" >&3; echo "\\! touch $W/txa.$2" >&3; wait_for 20 test -e "$W/txa.$2" || bad "--until LSN: transaction A stuck at $2"; }
step "SET synchronous_commit = on; BEGIN; INSERT INTO ev VALUES (20);" 1
pg_test_sql -c "INSERT INTO ev VALUES (11)" -c "INSERT INTO ev SELECT g FROM generate_series(1000, 5999) g" >/dev/null
step "INSERT INTO ev VALUES (21);" 2
target=$(pg_test_sql -c "SELECT pg_current_wal_insert_lsn()")
step "COMMIT;" 3
exec 3>&-
wait $txa
pg_test_sql -c "SET synchronous_commit = on" -c "INSERT INTO ev VALUES (14)" >/dev/null
cap until1 "$U" --slot s_until --until "$target"
expect_rc until1 "$st" 0
jq -r 'select(.op == "insert") | .after[0]' "$W/until1.out" >"$W/until1.ids"
expect_eq "--until LSN: only what committed before it, in order" <(echo 11; seq 1000 5999) "$W/until1.ids"
same "--until LSN: the slot at the last commit handed" "$(jq -r 'select(.op == "commit") | .pos.checkpoint' "$W/until1.out" | tail -1)" "$(slot_lsn s_until)"
cap until2 "$U" --slot s_until --until caught-up
expect_rc until2 "$st" 0
same "after --until LSN: the rest" "begin,insert 20,insert 21,commit,begin,insert 14,commit" "$(ops "$W/until2.out")"
pg_test_sql -c "SELECT pg_drop_replication_slot('s_until')" >/dev/null || bad "cannot drop the slot s_until"

# --on-loss: a row with a value the format cannot hold (a timestamp's microseconds in OMS
# Debezium's milliseconds) stops the capture with exit 2, naming the row's LSN, its table and
# column; the slot stays before the row's transaction: a run with --on-loss=cut starts there
# (the refused row cut to milliseconds, then the next), and never has the row before again
pg_test_sql -c "CREATE TABLE loss (id int PRIMARY KEY, at timestamp(6))" >/dev/null
cap loss0 "$U" --slot s_loss --publication p_loss --include public.loss --snapshot never --until caught-up
expect_rc loss0 "$st" 0
pg_test_sql -c "INSERT INTO loss VALUES (1, '2024-05-01 10:00:00.25')" -c "INSERT INTO loss VALUES (2, '2024-05-01 10:00:00.123456')" \
    -c "INSERT INTO loss VALUES (3, '2024-05-01 10:00:01')" >/dev/null
cap loss "$U" --slot s_loss --publication p_loss --until caught-up --to oms-debezium
sed -i -E 's/ at LSN [0-9A-F]+\/[0-9A-F]+:/ at LSN L:/' "$W/loss.err"
expect_err loss 2 <<EOF
rowcast: $U at LSN L: range error: table public.loss: column "at" (timestamp(6) without time zone): the value's fraction of a second .123456000 is finer than the milliseconds Debezium writes for it; --to debezium (upstream Debezium) writes datetime(4-6) in microseconds, --on-loss=cut OMS's milliseconds; the row is not written, and the run stops here (--on-loss=stop)
rowcast: 5 messages read: 4 converted, 0 filtered out, 0 bad, 1 interrupted
rowcast: 5 events decoded: 1 encoded, 0 filtered out, 0 not expressible in debezium, 3 transaction markers (BEGIN/COMMIT) it has no message for, 1 row with a value it cannot hold (stopped there: --on-loss)
rowcast: 1 message written ($(msg_bytes loss) bytes): 1 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
same "--on-loss=stop: the row before" "1" "$(jq -r '.payload.after.id' "$W/loss.out" | paste -sd,)"
cap losscut "$U" --slot s_loss --publication p_loss --until caught-up --to oms-debezium --on-loss=cut
expect_rc losscut "$st" 0
same "--on-loss=cut after stop: the refused row cut, then the next" "2 1714557600123,3 1714557601000" \
    "$(jq -r '"\(.payload.after.id) \(.payload.after.at)"' "$W/losscut.out" | paste -sd,)"
grep -qx 'rowcast: cut (--on-loss=cut): public.loss.at 1 row (to milliseconds)' "$W/losscut.err" && ok || bad "--on-loss=cut: $(cat "$W/losscut.err")"
pg_test_sql -c "SELECT pg_drop_replication_slot('s_loss')" >/dev/null || bad "cannot drop the slot s_loss"

# ---- one transaction of 100,000 rows: memory stays flat, streamed (protocol 2, spilled past a
# small threshold) or not; every row captured once, in one transaction
pg_test_sql -c "ALTER SYSTEM SET logical_decoding_work_mem = '64kB'" -c "SELECT pg_reload_conf()" \
    -c "CREATE TABLE bulk (id int PRIMARY KEY, pad text)" -c "ALTER PUBLICATION rowcast ADD TABLE bulk" >/dev/null
cap bulk0 "$U" --slot s_bulk1 --snapshot never --until caught-up -q
cap bulk0 "$U" --slot s_bulk2 --snapshot never --until caught-up -q
pg_test_sql -c "INSERT INTO bulk SELECT g, repeat('x', 200) || g FROM generate_series(1, 100000) g" >/dev/null
sanitized=$(ldd "$RC" 2>/dev/null | grep -c libasan)
for run in "bulk1 s_bulk1 -o postgres.streaming=true -o postgres.stream.spill_bytes=1000000" "bulk2 s_bulk2"; do
    read -r name slot opts <<<"$run"
    # shellcheck disable=SC2086 # the options are words
    /usr/bin/time -f %M -o "$W/$name.rss" "$RC" capture "$U" --slot "$slot" --until caught-up -q $opts >"$W/$name.out" 2>"$W/$name.err"
    expect_rc "$name" $? 0
    same "$name: one transaction of 100000 inserts" "begin 1, commit 1, insert 100000" \
        "$(jq -r .op "$W/$name.out" | sort | uniq -c | awk '{printf "%s%s %s", (NR > 1 ? ", " : ""), $2, $1}')"
    same "$name: the rows" "$(pg_test_sql -c "SELECT md5(string_agg(id || ':' || pad, ',' ORDER BY id)) FROM bulk")" \
        "$(jq -r 'select(.op == "insert") | "\(.after[0]):\(.after[1])"' "$W/$name.out" | paste -sd, - | tr -d '\n' | md5sum | cut -d' ' -f1)"
    rss=$(cat "$W/$name.rss")
    if [ "$sanitized" = 0 ]; then
        [ "$rss" -lt 65536 ] && ok || bad "$name: peak RSS $rss kB, not under 64 MB"
    fi
    echo "$name: peak RSS $rss kB"
done
pg_test_sql -c "SELECT pg_drop_replication_slot('s_bulk1'), pg_drop_replication_slot('s_bulk2')" \
    -c "ALTER PUBLICATION rowcast DROP TABLE bulk" -c "DROP TABLE bulk" >/dev/null

# a snapshot table the role may not read: the GRANT that fixes it
pg_test_sql -c "CREATE ROLE nosel LOGIN REPLICATION" -c "CREATE TABLE hidden (id int PRIMARY KEY)" \
    -c "CREATE PUBLICATION p_hidden FOR TABLE hidden" >/dev/null
cap nosel "postgres://nosel@$HP/postgres" --slot s_nosel --publication p_hidden
expect_err nosel 1 <<EOF
rowcast capture: snapshot of public.hidden on postgres://nosel@$HP/postgres: permission denied for table hidden (GRANT SELECT ON public.hidden TO nosel)
EOF
# a role that may not create a publication: the server's words, without "ERROR:"
cap nopub_priv "postgres://nosel@$HP/postgres" --slot s_nosel --publication p_nosel --include public.ev
expect_err nopub_priv 1 <<EOF
rowcast capture: creating the publication on postgres://nosel@$HP/postgres: permission denied for database postgres
EOF
pg_test_sql -c "DROP PUBLICATION p_hidden" -c "DROP TABLE hidden" >/dev/null

# ---- 2. setup errors and usage
pg_test_sql -c "CREATE ROLE norepl LOGIN" -c "CREATE ROLE pwuser LOGIN REPLICATION PASSWORD 'right-secret'" \
    -c "SELECT pg_create_logical_replication_slot('td', 'test_decoding')" >/dev/null || bad "roles and slot"
# pwuser authenticates with a clear-text password over TCP; everyone else stays trusted
hba=$W/pg/data/pg_hba.conf
{ printf 'host all pwuser 127.0.0.1/32 password\n'; cat "$hba"; } | pg_as tee "$hba.new" >/dev/null && pg_as mv "$hba.new" "$hba"
pg_test_sql -c "SELECT pg_reload_conf()" >/dev/null
no_pw_refused() { ! "$PG_BIN/psql" -X -w -h 127.0.0.1 -U pwuser -c 'SELECT 1' >/dev/null 2>&1; }
wait_for 20 no_pw_refused || bad "pg_hba.conf not reloaded"

cap pw "postgres://pwuser:wrong-secret@$HP/postgres" --include 'public.*'
expect_err pw 1 <<EOF
rowcast capture: cannot connect to postgres://pwuser@$HP/postgres: connection to server at "127.0.0.1", port $PGPORT failed: FATAL: password authentication failed for user "pwuser" (check the password: PGPASSWORD, ~/.pgpass or passfile=)
EOF
# no password at all: libpq's fe_sendauth, with where a password comes from
PGPASSFILE=/nonexistent cap nopw "postgres://pwuser@$HP/postgres" --include 'public.*'
expect_err nopw 1 <<EOF
rowcast capture: cannot connect to postgres://pwuser@$HP/postgres: connection to server at "127.0.0.1", port $PGPORT failed: fe_sendauth: no password supplied (the server asks for a password: set PGPASSWORD, add a line to ~/.pgpass, or give passfile=PATH in the URL)
EOF
cap norepl "postgres://norepl:x-secret@$HP/postgres?password=y-secret&application_name=t"
expect_err norepl 1 <<EOF
rowcast capture: role norepl has no REPLICATION privilege on postgres://norepl@$HP/postgres?application_name=t: run ALTER ROLE norepl REPLICATION as a superuser
EOF
cap td "postgres://pwuser:right-secret@$HP/postgres" --slot td
expect_err td 1 <<EOF
rowcast capture: replication slot "td" on postgres://pwuser@$HP/postgres uses the plugin test_decoding, rowcast reads pgoutput: choose another slot name, or drop it (SELECT pg_drop_replication_slot('td')) if nothing reads it
EOF
cap nopub "$U" --publication nopub
expect_err nopub 1 <<EOF
rowcast capture: publication "nopub" does not exist on $U: name its tables with --include SCHEMA.TABLE (rowcast creates it FOR TABLE those) or create it yourself
EOF
same "no publication FOR ALL TABLES" 0 "$(pg_test_sql -c "SELECT count(*) FROM pg_publication WHERE puballtables")"
# a publication dropped while capturing: the stream stops at the next change; created again,
# the slot still cannot pass the change made while it was missing
pg_test_sql -c "CREATE PUBLICATION p_drop FOR TABLE ev" >/dev/null
# (bounded: a stream that does not stop is ended by timeout, and its status says so)
timeout 60 "$RC" capture "postgres://pwuser:right-secret@$HP/postgres" --publication p_drop --slot s_drop --snapshot never >"$W/drop.out" 2>"$W/drop.err" &
pid=$!
wait_for 20 slot_active s_drop || bad "publication dropped: the capture never streamed"
pg_test_sql -c "INSERT INTO ev VALUES (6)" >/dev/null
dropped_fix="create it again, drop the slot (SELECT pg_drop_replication_slot('s_drop')) and capture again with a snapshot"
drop_committed() { grep -q '"op":"commit"' "$W/drop.out"; }
wait_for 20 drop_committed || bad "publication dropped: the first change never came"
# and acknowledged: else the next run has that transaction again (rightly) before the error
drop_acked() { [ "$(slot_lsn s_drop)" = "$(jq -r 'select(.op == "commit") | .pos.checkpoint' "$W/drop.out")" ]; }
wait_for 20 drop_acked || bad "publication dropped: the first change was never acknowledged"
pg_test_sql -c "DROP PUBLICATION p_drop" -c "INSERT INTO ev VALUES (7)" >/dev/null
wait $pid
st=$?
expect_err drop 1 <<EOF
rowcast: replication slot s_drop created (no snapshot)
rowcast: replication from postgres://pwuser@$HP/postgres stopped: publication "p_drop" does not exist: $dropped_fix
rowcast: 3 messages read: 3 converted, 0 filtered out, 0 bad
rowcast: 3 events decoded: 3 encoded, 0 filtered out, 0 not expressible in native
rowcast: 3 messages written ($(msg_bytes drop) bytes): 3 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
pg_test_sql -c "CREATE PUBLICATION p_drop FOR TABLE ev" -c "INSERT INTO ev VALUES (8)" >/dev/null
cap drop2 "$U" --publication p_drop --slot s_drop --until caught-up
expect_err drop2 1 <<EOF
rowcast: replication from $U stopped: publication "p_drop" does not exist: $dropped_fix
rowcast: 0 messages read: 0 converted, 0 filtered out, 0 bad
rowcast: 0 events decoded: 0 encoded, 0 filtered out, 0 not expressible in native
rowcast: 0 messages written (0 bytes): 0 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF

# usage
usage_err() { printf 'rowcast capture: %s\n(see rowcast help capture)\n' "$1"; }
cap u_nourl
expect_err u_nourl 1 < <(usage_err "which database? give postgres://USER@HOST:PORT/DB or mysql://USER@HOST:PORT")
cap u_file "$W/events.json"
expect_err u_file 1 < <(usage_err "$W/events.json is not a database URL: capture reads postgres://USER@HOST:PORT/DB (files are for rowcast convert)")
cap u_mssql "sqlserver://app:my-secret@db:1433/shop"
expect_err u_mssql 1 < <(usage_err "sqlserver://app:***@db:1433/shop is not a database URL rowcast reads: capture reads postgres://USER@HOST:PORT/DB and mysql://USER@HOST:PORT[/DB] (mariadb:// too)")
cap u_conninfo "host=db password=kv-secret"
expect_err u_conninfo 1 < <(usage_err "a key=value connection string is not a database URL: capture reads postgres://USER@HOST:PORT/DB[?PARAMS] (libpq's parameters go after the ?)")
cap u_snap "$U" --snapshot full
expect_err u_snap 1 < <(usage_err "--snapshot is initial, never, initial_only or incremental, not 'full'")
cap u_until "$U" --until soon
expect_err u_until 1 < <(usage_err "--until is caught-up or an LSN such as 0/16B3748, not 'soon'")
cap u_max "$U" --max-events 0
expect_err u_max 1 < <(usage_err "--max-events needs a positive number, got '0'")
cap u_max2 "$U" --max-events 5x
expect_err u_max2 1 < <(usage_err "--max-events needs a positive number, got '5x'")
cap u_opt "$U" -o postgres.x=1
expect_err u_opt 1 < <(usage_err "unknown source option 'postgres.x': postgres.streaming, postgres.heartbeat.interval, postgres.stream.spill_bytes, postgres.stream.max_bytes, postgres.stream.spill_dir, postgres.signal.table, postgres.snapshot.chunk.rows, postgres.snapshot.flush, postgres.snapshot.read_ahead, postgres.publish.no_identity")
cap u_slot "$U" --slot Bad-Name --publication p_new --include 'public.*'
expect_err u_slot 1 < <(usage_err "--slot 'Bad-Name' is not a slot name: use lower-case letters, digits and _ (at most 63)")
same "a bad slot name creates no publication" 0 "$(pg_test_sql -c "SELECT count(*) FROM pg_publication WHERE pubname = 'p_new'")"
cap u_two "$U" "$U"
expect_err u_two 1 < <(usage_err "one database URL only; '$U' is a second one")

# an invalidated slot: at most 1 MB of WAL kept for slots, 3 segments switched (every slot
# is lost then: this comes last but one)
pg_test_sql -c "ALTER SYSTEM SET max_slot_wal_keep_size = '1MB'" -c "SELECT pg_reload_conf()" \
    -c "SELECT pg_create_logical_replication_slot('lost1', 'pgoutput')" >/dev/null
for _ in 1 2 3; do pg_test_sql -c "INSERT INTO ev VALUES (100 + $_)" -c "SELECT pg_switch_wal()" >/dev/null; done
pg_test_sql -c CHECKPOINT
slot_lost() { [ "$(pg_test_sql -c "SELECT wal_status FROM pg_replication_slots WHERE slot_name = 'lost1'")" = lost ]; }
if wait_for 20 slot_lost; then
    cap lost "$U" --slot lost1
    expect_err lost 1 <<EOF
rowcast capture: replication slot "lost1" on $U is invalidated (wal_status lost, see max_slot_wal_keep_size): drop it with SELECT pg_drop_replication_slot('lost1') and capture again with a snapshot
EOF
else
    echo "SKIP: invalidated slot: wal_status of lost1 is not lost after 3 WAL switches and a checkpoint"
fi

# wal_level = replica (no logical slot may exist then)
pg_test_sql -c "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots" -c "ALTER SYSTEM SET wal_level = replica" >/dev/null
pg_test_restart || bad "restart"
cap wal "postgres://pwuser:right-secret@$HP/postgres" --include 'public.*'
expect_err wal 1 <<EOF
rowcast capture: postgres://pwuser@$HP/postgres has wal_level = replica, logical decoding needs logical: set wal_level = logical in postgresql.conf and restart PostgreSQL
EOF

# a password given in a URL appears in no message
if grep -l 'secret' "$W"/*.err; then bad "a password is printed"; else ok; fi

echo "pg_capture: $pass passed, $fail failed"
[ "$fail" = 0 ]
