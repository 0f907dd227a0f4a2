#!/usr/bin/env bash
# `rowcast capture mysql://...` as a user runs it, against one throwaway MariaDB 10.11
# (mariadb_lib.sh):
#  1. type fidelity: a table with a column of every MariaDB type (item 3 of issue 14) filled
#     with edge values (BIGINT UNSIGNED max, DECIMAL(65,30) negative, FLOAT 3.14, DOUBLE 1e308,
#     BIT(1) and BIT(64), YEAR 1901 and 2155, TIME -838:59:59.000000 and 838:59:59,
#     DATETIME(6) 9999-12-31 23:59:59.999999, zero dates with sql_mode='', TIMESTAMP(6) on
#     both sides of a DST change written in an America/New_York session, utf8mb4 emoji, latin1
#     é, BINARY(4) with trailing zeros, BLOB with 00 and FF, ENUM/SET, JSON with unicode,
#     points and polygons, INET6, UUID): two rows in the snapshot, then the same values
#     inserted again (decoded from the binlog), a row of NULLs, updated and deleted, captured
#     with --checkpoint into native, Canal (canal.flavor=canal), upstream Debezium with schemas
#     (BIGINT UNSIGNED precise) and drs-json: each whole output compared with its reviewed
#     golden (data/my_capture.types.FORMAT.golden, only the change and processing times and
#     thread ids masked); every value decoded from the binlog equals the snapshot's of the same
#     SQL (the snapshot reads it with SELECT), and the native stream replayed by key equals a
#     new snapshot (SELECT) of the final table.
#  2. the same rows with binlog_row_metadata=MINIMAL (names and types from the schema
#     history: same values) and with binlog_row_image=MINIMAL (absent columns unavailable):
#     golden data/my_capture.minimal.native.golden.
#  3. DDL mid-stream: ADD / DROP / MODIFY / RENAME COLUMN, RENAME TABLE, a DDL between two row
#     events of the same table; a restart from a copy of the checkpoint taken before the ALTERs
#     gives the same events (the rows before each ALTER decode with the structure before it):
#     golden data/my_capture.ddl.native.golden; the same as upstream Debezium with its
#     schema-change and transaction topics (data/my_capture.ddl.debezium.golden).
#     --on-loss=stop at a BIGINT UNSIGNED past upstream Debezium's int64: exit 2, naming the
#     binlog position, table and column; the checkpoint before the row.
#  4. snapshot then streaming under a concurrent writer: no gap, no overlap (each INSERT finds
#     no row, each UPDATE the row with w one less, each DELETE the row), the replay equals
#     SELECT.
#  5. setup errors by exact message and exit status: wrong password, no REPLICATION privilege,
#     binlog off (a second server), binlog_format STATEMENT, a database that does not exist,
#     --include that matches no table (each such pattern, beside one that matches); --slot
#     refused; without --checkpoint, the line saying that every run starts over (not with -q); a password never printed; -q says
#     warnings only (not the derived replica id); nothing listening at the address: exit 3
#     at once, naming it.
#  6. --to maxwell: section 1's binlog and a snapshot of shop.types, every MariaDB type as
#     Maxwell renders it, xoffset and commit: golden data/my_capture.types.maxwell.golden.
#  7. character sets converted by iconv(3): gbk, big5, cp1251, utf16, sjis, euckr, koi8r and
#     latin2 columns, two rows in the snapshot and the same inserted again: every value read
#     from the binlog equals SELECT CONVERT(column USING utf8mb4).
#  8. TLS: a second server with certificates made by openssl here and require_secure_transport:
#     capture over TLS (VERIFY_IDENTITY, the snapshot and the stream), TLS by default when the
#     server has it, the exact messages without TLS, with a wrong CA, for a REQUIRE X509 user
#     without a certificate; defaults-file and password-file (section 5) by exact behaviour.
# usage: my_capture_test.sh path/to/rowcast   (RC_UPDATE_GOLDEN=1 rewrites the golden files)
set -u
RC=${1:?path to rowcast}
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/mariadb_lib.sh"
# no thread cache: a connection that reuses the cached thread of the time-zone load below keeps
# that session's database charset and the server then writes a charset_database status
# variable into its Query events (3 bytes each), so the offsets depended on whether the next
# connection came before the cached thread was free (fresh-clone CI saw 6 bytes fewer)
my_test_start --thread-cache-size=0 || exit 1
. "$HERE/../common/check.sh"
U=$MY_URL
HP=127.0.0.1:$MY_PORT
# the zone's tables, kept out of the binlog (its offsets stay the same from run to run)
{ echo "SET sql_log_bin = 0;"; mariadb-tzinfo-to-sql /usr/share/zoneinfo/America/New_York America/New_York 2>/dev/null; } | my_sql mysql ||
    { echo "cannot load the America/New_York time zone" >&2; exit 1; }

# cap NAME ARGS...: rowcast capture ARGS (replica id 7), stdout in $W/NAME.out, stderr in
# $W/NAME.err, the exit status in $st
cap() {
    local name=$1
    shift
    "$RC" capture "$@" --server-id 7 >"$W/$name.out" 2>"$W/$name.err"
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
# msg_bytes NAME: what the summary counts of NAME's stdout: the messages without their newlines
msg_bytes() { echo $(($(wc -c <"$W/$1.out") - $(wc -l <"$W/$1.out"))); }
# summary NAME MESSAGES [EVENTS [ENCODED [FORMAT]]]: the summary lines of a run that read
# MESSAGES messages making EVENTS events (default: as many), ENCODED of them encoded (default:
# all) and the others BEGIN/COMMIT markers FORMAT (default native) has no message for, each
# encoded one delivered
summary() {
    local m=$2 e=${3:-$2} enc=${4:-${3:-$2}} f=${5:-native} markers=
    [ "$e" -gt "$enc" ] && markers=", $((e - enc)) transaction markers (BEGIN/COMMIT) it has no message for"
    cat <<EOF
rowcast: $m messages read: $m converted, 0 filtered out, 0 bad
rowcast: $e events decoded: $enc encoded, 0 filtered out, 0 not expressible in $f$markers
rowcast: $enc messages written ($(msg_bytes "$1") bytes): $enc delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
}
# mask: what differs per run: change and processing times (T: native ts_us; Debezium's
# ts_ms/ts_us/ts_ns; Canal's and DRS's es and ts) and thread ids (the server numbers
# connections as they come)
mask() {
    perl -pe 's/"(ts_us|ts_ms|ts_ns|es|ts)":[1-9]\d{9,}/"$1":"T"/g; s/"thread":\d+/"thread":"N"/g' "$@"
}
# golden NAME FILE: FILE masked equals data/my_capture.NAME.golden
golden() {
    local g=$HERE/data/my_capture.$1.golden
    mask "$2" >"$W/$1.masked"
    if [ "${RC_UPDATE_GOLDEN:-}" = 1 ]; then cp "$W/$1.masked" "$g"; fi
    if cmp -s "$g" "$W/$1.masked"; then ok; else
        bad "$1 differs from $g"
        diff <(cut -c1-300 "$g") <(cut -c1-300 "$W/$1.masked") | head -30 >&2
    fi
}
# rows FILE...: the final rows the native events of FILEs leave, per table, as
# "db.table<TAB>[values]" sorted (the key is the column id; a read or insert puts the row, an
# update replaces it, a delete removes it; an unavailable value keeps the row's previous one)
rows() {
    jq -n -r 'reduce (inputs | select(.after or .before)) as $e ({};
          ($e.source.db + "." + $e.source.table) as $t
          | ([$e.columns[].name] | index("id")) as $k
          | (if $e.before then $e.before[$k] else null end) as $bk
          | (if $e.before then del(.[$t][$bk | tostring]) else . end)
          | if $e.after then
              (.[$t][$e.after[$k] | tostring] // null) as $old
              | .[$t][$e.after[$k] | tostring] = [$e.after | to_entries[]
                  | if (.value | type) == "object" and .value.unavailable then $old[.key] else .value end]
            else . end)
        | to_entries[] | .key as $t | .value | to_entries[] | "\($t)\t\(.value | tojson)"' "$@" | sort
}
same() { if [ "$2" = "$3" ]; then ok; else bad "$1"; diff <(echo "$2") <(echo "$3") >&2; fi; }

# ---- 1. type fidelity
my_sql <<'SQL' || exit 1
CREATE DATABASE shop;
CREATE TABLE shop.types (id int PRIMARY KEY, ti tinyint, tiu tinyint unsigned, si smallint, mi mediumint unsigned,
  i int, bu bigint unsigned, bi bigint, dec65 decimal(65,30), d102 decimal(10,2), f float, dbl double, b1 bit(1),
  b64 bit(64), y year, dt date, tm time(6), tm0 time, dtm datetime(6), dtm0 datetime, ts timestamp(6) NULL,
  c char(5), vc varchar(50), txt text, l1 varchar(10) CHARACTER SET latin1, bin4 binary(4), vb varbinary(10),
  bl blob, e enum('a','b','c'), st set('x','y','z'), j json, g geometry, poly polygon, ip inet6, u uuid);
SET sql_mode = '';
SET time_zone = 'America/New_York';
INSERT INTO shop.types VALUES
 (1, 127, 0, 32767, 0, 2147483647, 18446744073709551615, -9223372036854775808,
  -12345678901234567890123456789012345.123456789012345678901234567890, 12345678.99, 3.14, 1e308, b'1',
  b'1111111111111111111111111111111111111111111111111111111111111111', 1901, '1000-01-01', '-838:59:59.000000',
  '838:59:59', '9999-12-31 23:59:59.999999', '1000-01-01 00:00:00', '2021-03-14 01:59:59.999999',
  'ab', 'emoji 😀 ü', 'long text', 'é', x'61620000', x'00ff', x'00FF00FF', 'b', 'x,z',
  '{"k": "ü€😀", "n": [1, 2.5, null, true, {"a": "b"}]}', ST_GeomFromText('POINT(1 2)'),
  ST_GeomFromText('POLYGON((0 0,4 0,4 4,0 4,0 0),(1 1,2 1,2 2,1 1))'), '::ffff:192.0.2.1',
  '123e4567-e89b-12d3-a456-426614174000'),
 (2, -128, 255, -32768, 16777215, -2147483648, 0, 9223372036854775807, 0, -0.01, -0.5, -2.2250738585072014e-308, b'0',
  b'0', 2155, '0000-00-00', '00:00:00', '-00:00:01', '0000-00-00 00:00:00', '2000-02-29 12:34:56',
  '2021-03-14 03:00:00', '', '', '', '', x'00000000', x'', x'', 'a', '', '[]', ST_GeomFromText('POINT(-1.5 0.25)'),
  ST_GeomFromText('POLYGON((0 0,1 0,0 1,0 0))'), '2001:db8::1', '00000000-0000-0000-0000-000000000000');
SQL
# the binlog's end after that table's two rows: where each snapshot hands over to the stream
P1=$(my_sql -e 'SHOW MASTER STATUS' | cut -f2)
FMT_native=(--to native)
FMT_canal=(--to canal -o canal.flavor=canal)
FMT_debezium=(--to debezium -o debezium.flavor=upstream -o debezium.schemas=true -o debezium.bigint.unsigned.handling.mode=precise)
FMT_drs=(--to drs-json)
FORMATS="native canal debezium drs"
fmt_name() { case $1 in drs) echo drs-json ;; *) echo "$1" ;; esac; }
# the events of the workload each format writes: native all 16 (5 transactions of one row
# change, one of two inserts: BEGIN, rows, COMMIT), Canal and DRS the 6 row changes, upstream
# Debezium too (transaction markers are its metadata topic's, off here)
enc_of() { case $1 in native) echo 16 ;; *) echo 6 ;; esac; }
for f in $FORMATS; do
    opts="FMT_$f[@]"
    cap "$f.1" "$U" --include 'shop.types' --checkpoint "$W/$f.ck" --until caught-up "${!opts}"
    expect_err "$f.1" 0 <<EOF
rowcast: snapshot of 1 table (2 rows) delivered; streaming from bin.000001:$P1
$(summary "$f.1" 2 2 2 "$(fmt_name "$f")")
EOF
done
cols=$(my_sql -e "SELECT GROUP_CONCAT(COLUMN_NAME ORDER BY ORDINAL_POSITION) FROM information_schema.COLUMNS
    WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'types' AND COLUMN_NAME <> 'id'")
my_sql <<SQL || bad "the type workload failed"
SET sql_mode = '';
SET time_zone = 'America/New_York';
INSERT INTO shop.types SELECT id + 3, $cols FROM shop.types WHERE id IN (1, 2) ORDER BY id;
INSERT INTO shop.types (id) VALUES (3);
UPDATE shop.types SET vc = 'changed ✓', bu = bu - 1, ts = '2021-11-07 01:30:00', b64 = b'101' WHERE id = 4;
DELETE FROM shop.types WHERE id = 5;
UPDATE shop.types SET ti = 1, dec65 = dec65 / 2 WHERE id = 1;
SQL
for f in $FORMATS; do
    opts="FMT_$f[@]"
    cap "$f.2" "$U" --include 'shop.types' --checkpoint "$W/$f.ck" --until caught-up --start current "${!opts}"
    expect_err "$f.2" 0 <<EOF
rowcast: resuming from checkpoint $W/$f.ck at bin.000001:$P1 (GTID 0-1-3)
rowcast: --start current ignored: the checkpoint says where to resume
$(summary "$f.2" 15 16 "$(enc_of "$f")" "$(fmt_name "$f")")
EOF
    cat "$W/$f.1.out" "$W/$f.2.out" >"$W/$f.out"
    golden "types.$f" "$W/$f.out"
done
# every value decoded from the binlog = the snapshot's (SELECT) of the same row
jq -c 'select(.op == "read" or .op == "insert") | [.after[0], .after[1:]]' "$W/native.out" >"$W/images"
same "rows 4, 5 from the binlog = rows 1, 2 from the snapshot" \
    "$(jq -c 'select(.[0] == 1 or .[0] == 2) | .[1]' "$W/images")" \
    "$(jq -c 'select(.[0] == 4 or .[0] == 5) | .[1]' "$W/images")"
same "row 3: NULL but its key" "[3,$(printf 'null,%.0s' $(seq 34) | sed 's/,$//')]" \
    "$(jq -c 'select(.op == "insert" and .after[0] == 3) | .after' "$W/native.out")"
cap final "$U" --include 'shop.types' --snapshot initial_only
expect_err final 0 <<EOF
$(summary final 4)
EOF
same "native stream replayed = a new snapshot (SELECT)" "$(rows "$W/final.out")" "$(rows "$W/native.out")"

# ---- 2. binlog_row_metadata=MINIMAL, binlog_row_image=MINIMAL (new sessions get them)
my_sql -e "CREATE TABLE shop.mini (id int PRIMARY KEY, name varchar(20), e enum('x','y'), bu bigint unsigned, d decimal(8,3))"
cap mini.1 "$U" --include 'shop.mini' --checkpoint "$W/mini.ck" --until caught-up
my_sql <<'SQL' || bad "the minimal workload failed"
SET GLOBAL binlog_row_metadata = 'MINIMAL';
SQL
my_sql <<'SQL' || bad "the minimal workload failed"
INSERT INTO shop.mini VALUES (1, 'Ann', 'y', 18446744073709551615, -12.345);
UPDATE shop.mini SET name = 'Ann B' WHERE id = 1;
SET GLOBAL binlog_row_image = 'MINIMAL';
SQL
my_sql <<'SQL' || bad "the minimal workload failed"
UPDATE shop.mini SET name = 'Ann C' WHERE id = 1;
INSERT INTO shop.mini (id, d) VALUES (2, 1.5);
DELETE FROM shop.mini WHERE id = 2;
SET GLOBAL binlog_row_image = 'FULL';
SET GLOBAL binlog_row_metadata = 'FULL';
SQL
mini_at=$(sed -n 's/^offset //p' "$W/mini.ck")
mini_gtid=$(sed -n 's/^gtids //p' "$W/mini.ck")
cp "$W/mini.ck" "$W/mini.mx.ck"
cap mini.2 "$U" --include 'shop.mini' --checkpoint "$W/mini.ck" --until caught-up
expect_err mini.2 0 <<EOF
rowcast: resuming from checkpoint $W/mini.ck at bin.000001:$mini_at (GTID $mini_gtid)
$(summary mini.2 15)
EOF
golden minimal.native "$W/mini.2.out"
# the same binlog as Maxwell writes it (issue 28 §4; Maxwell's docs/compat.md): the columns the
# row images carry and no others (an update's key from its before image, "old" only where both
# images have the column); rowcast refused these rows before
cap mini.mx "$U" --include 'shop.mini' --checkpoint "$W/mini.mx.ck" --until caught-up --to maxwell
expect_rc "minimal: maxwell" "$st" 0
golden minimal.maxwell "$W/mini.mx.out"

# ---- 3. DDL mid-stream, and a restart before it
my_sql -e "CREATE TABLE shop.evolve (id int PRIMARY KEY, a varchar(10), b int)"
cap ddl.1 "$U" --include 'shop.evolve*' --checkpoint "$W/ddl.ck" --until caught-up
cp "$W/ddl.ck" "$W/ddl.ck.before"
cp "$W/ddl.ck" "$W/ddl.ck.dbz"
cp "$W/ddl.ck" "$W/ddl.ck.one"
my_sql <<'SQL' || bad "the DDL workload failed"
INSERT INTO shop.evolve VALUES (1, 'a', 1);
ALTER TABLE shop.evolve ADD COLUMN c text;
INSERT INTO shop.evolve VALUES (2, 'b', 2, 'c');
ALTER TABLE shop.evolve DROP COLUMN a;
UPDATE shop.evolve SET c = 'cc' WHERE id = 2;
ALTER TABLE shop.evolve MODIFY COLUMN b bigint NOT NULL;
INSERT INTO shop.evolve VALUES (3, 3000000000, 'd');
ALTER TABLE shop.evolve RENAME COLUMN c TO note;
INSERT INTO shop.evolve VALUES (4, 4, 'e');
RENAME TABLE shop.evolve TO shop.evolved;
INSERT INTO shop.evolved VALUES (5, 5, 'f');
UPDATE shop.evolved SET note = 'g' WHERE id = 1;
SQL
cap ddl.2 "$U" --include 'shop.evolve*' --checkpoint "$W/ddl.ck" --until caught-up
golden ddl.native "$W/ddl.2.out"
# from the checkpoint before the ALTERs: each row decodes with the structure it was written with
cap ddl.3 "$U" --include 'shop.evolve*' --checkpoint "$W/ddl.ck.before" --until caught-up
expect_eq "restart before the ALTERs = the first pass" "$W/ddl.2.out" "$W/ddl.3.out"
# one thread (decoding, then encoding, each batch): the same as the default's two
cap ddl.one "$U" --include 'shop.evolve*' --checkpoint "$W/ddl.ck.one" --until caught-up --threads 1
mask "$W/ddl.one.out" >"$W/ddl.one.masked"
expect_eq "--threads 1 = the default (2)" "$W/ddl.native.masked" "$W/ddl.one.masked"
# the same stream as upstream Debezium writes it with its other topics: each DDL on the
# schema-change topic <server> (tableChanges: the table after it, from the schema history), each
# transaction's BEGIN and END on <server>.transaction (id: the GTID), as Kafka records
cap ddl.4 "$U" --include 'shop.evolve*' --checkpoint "$W/ddl.ck.dbz" --until caught-up --records \
    --to debezium -o debezium.flavor=upstream -o debezium.transactions=true
golden ddl.debezium "$W/ddl.4.out"

# ---- 3b. --on-loss: a BIGINT UNSIGNED past int64 in upstream Debezium's long mode stops the
# capture with exit 2, naming the row's binlog position, its table and column; the checkpoint
# stays before the row's transaction: the next run, with the option that keeps the value,
# starts with that row (the source keeps every transaction's end as a checkpoint boundary, so
# the transaction before it is not written again)
my_sql -e "CREATE TABLE shop.loss (id int PRIMARY KEY, n bigint unsigned)"
cap loss.0 "$U" --include shop.loss --checkpoint "$W/loss.ck" --until caught-up
expect_rc loss.0 "$st" 0
my_sql <<'SQL' || bad "the --on-loss workload failed"
INSERT INTO shop.loss VALUES (1, 5);
INSERT INTO shop.loss VALUES (2, 18446744073709551615);
INSERT INTO shop.loss VALUES (3, 7);
SQL
cap loss.1 "$U" --include shop.loss --checkpoint "$W/loss.ck" --until caught-up --to debezium -o debezium.flavor=upstream
sed -i -E 's/(at |\/)bin\.[0-9]+:[0-9]+/\1bin.N:P/g; s/GTID [0-9-]+/GTID G/' "$W/loss.1.err"
expect_err loss.1 2 <<EOF
rowcast: resuming from checkpoint $W/loss.ck at bin.N:P (GTID G)
rowcast: $U at bin.N:P: range error: table shop.loss: column "n": 18446744073709551615 does not fit an int64 (bigint.unsigned.handling.mode=long; -o debezium.bigint.unsigned.handling.mode=precise keeps it, --on-loss=cut wraps it as Debezium does); the row is not written, and the run stops here (--on-loss=stop)
rowcast: 5 messages read: 4 converted, 0 filtered out, 0 bad, 1 interrupted
rowcast: 5 events decoded: 1 encoded, 0 filtered out, 0 not expressible in debezium, 3 transaction markers (BEGIN/COMMIT) it has no message for, 1 row with a value it cannot hold (stopped there: --on-loss)
rowcast: 1 message written ($(msg_bytes loss.1) bytes): 1 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
same "--on-loss=stop: the row before" "1" "$(jq -r '.after.id' "$W/loss.1.out" | paste -sd,)"
cap loss.2 "$U" --include shop.loss --checkpoint "$W/loss.ck" --until caught-up --to debezium -o debezium.flavor=upstream \
    -o debezium.bigint.unsigned.handling.mode=precise
expect_rc loss.2 "$st" 0
same "after --on-loss=stop: from the refused row on" "2,3" "$(jq -r '.after.id' "$W/loss.2.out" | paste -sd,)"
# (a Decimal of scale 0: the bytes 00 FF FF FF FF FF FF FF FF, 2^64-1, in base64)
same "after --on-loss=stop: the refused value kept" "AP//////////" "$(jq -r 'select(.after.id == 2) | .after.n' "$W/loss.2.out")"

# ---- 4. snapshot, then the stream, under a concurrent writer: no gap, no overlap
my_sql <<'SQL' || exit 1
CREATE TABLE shop.load (id int PRIMARY KEY, v int, w int);
INSERT INTO shop.load SELECT seq, seq, 0 FROM shop.seq_1_to_30000;
SQL
# each INSERT a new id with w = 0, each UPDATE w = w + 1, a DELETE now and then
awk 'BEGIN { srand(14); n = 30000;
    for (i = 0; i < 3000; i++) {
        r = rand();
        if (r < 0.3) { n++; printf "INSERT INTO shop.load VALUES (%d, %d, 0);\n", n, i }
        else if (r < 0.9) printf "UPDATE shop.load SET v = v + 1, w = w + 1 WHERE id = %d;\n", 1 + int(rand() * n)
        else printf "DELETE FROM shop.load WHERE id = %d;\n", 1 + int(rand() * n)
        if (i % 10 == 0) print "DO SLEEP(0.002);"
    } }' >"$W/writer.sql"
rows_now() { my_sql -e "SELECT COUNT(*) FROM shop.load WHERE w > 0"; }
my_sql <"$W/writer.sql" &
writer=$!
writer_started() { [ "$(rows_now)" -gt 20 ]; }
wait_for 20 writer_started || bad "the writer did not start"
"$RC" capture "$U" --include 'shop.load' --checkpoint "$W/load.ck" --server-id 8 >"$W/load.1.out" 2>"$W/load.1.err" &
capture=$!
wait "$writer" || bad "the writer failed"
# the capture has everything once its checkpoint is at the end of the binlog
at_end() {
    [ "$(sed -n 's/^offset //p' "$W/load.ck" 2>/dev/null)" = "$(my_sql -e 'SHOW MASTER STATUS' | cut -f2)" ]
}
wait_for 60 at_end || bad "the capture did not reach the end of the binlog"
kill -TERM "$capture"
wait "$capture"
expect_rc "capture stopped by SIGTERM" $? 143
cap load.2 "$U" --include 'shop.load' --checkpoint "$W/load.ck" --server-id 8 --until caught-up
cat "$W/load.1.out" "$W/load.2.out" >"$W/load.out"
# the replay checks each change against the row it finds (awk: jq's reduce is slow on 30,000 rows)
jq -r 'select(.after or .before) | [.op, (.before // [] | join(",")), (.after // [] | join(","))] | @tsv' "$W/load.out" |
    awk -F'\t' '
        function key(r) { sub(/,.*/, "", r); return r }
        function w(r) { sub(/.*,/, "", r); return r + 0 }
        function flaw(m) { if (nbad++ < 5) print m }
        $1 == "read" { k = key($3); if (k in row) flaw("read of " k " twice"); row[k] = $3; next }
        $1 == "insert" { k = key($3); if (k in row || w($3) != 0) flaw("insert of " k " over a row or with w " w($3)); row[k] = $3; next }
        $1 == "update" { k = key($2); if (row[k] != $2 || w($3) != w($2) + 1) flaw("update of " k ": " row[k] " then " $2 " -> " $3)
                         delete row[k]; row[key($3)] = $3; next }
        $1 == "delete" { k = key($2); if (row[k] != $2) flaw("delete of " k " finds " row[k]); delete row[k]; next }
        END { for (k in row) print "shop.load\t[" row[k] "]" > "/dev/stderr" }' 2>"$W/load.replayed" >"$W/load.flaws"
same "no gap, no overlap" "" "$(cat "$W/load.flaws")"
same "the replay = SELECT" "$(my_sql -e "SELECT 'shop.load', CONCAT('[', id, ',', v, ',', w, ']') FROM shop.load" | sort)" \
    "$(sort "$W/load.replayed")"
same "the snapshot read rows while the writer wrote" 1 "$(($(grep -c '"op":"read"' "$W/load.1.out") > 30000 - 400 && $(grep -c '"op":"update"' "$W/load.1.out") > 0))"

# ---- 5. setup errors
my_sql <<'SQL'
CREATE USER 'pw'@'127.0.0.1' IDENTIFIED BY 'right-secret';
GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO 'pw'@'127.0.0.1';
CREATE USER 'norepl'@'127.0.0.1' IDENTIFIED BY 'x';
GRANT SELECT ON *.* TO 'norepl'@'127.0.0.1';
SQL
cap wrongpw "mysql://pw:wrong-secret@$HP?ssl-mode=DISABLED" --include shop.mini
expect_err wrongpw 1 <<EOF
rowcast capture: cannot connect to mysql://pw@$HP?ssl-mode=DISABLED: Access denied for user 'pw'@'127.0.0.1' (using password: YES) (check the user and the password: MYSQL_PWD, ?password-file= or ?defaults-file=; or TLS, which the user (REQUIRE SSL) or the server (require_secure_transport) may require: ssl-mode=REQUIRED)
EOF
printf 'right-secret\n' >"$W/pw"
cap pwfile "mysql://pw@$HP?password-file=$W/pw" --include shop.mini --snapshot initial_only
expect_err pwfile 0 <<EOF
rowcast: 1 message read: 1 converted, 0 filtered out, 0 bad
rowcast: 1 event decoded: 1 encoded, 0 filtered out, 0 not expressible in native
rowcast: 1 message written ($(msg_bytes pwfile) bytes): 1 delivered, 0 dead-lettered, 0 refused, 0 undelivered
rowcast: T s, R events/s
EOF
# the [client] group of a defaults-file; a wrong password there; a file that is not there
printf '[client]\npassword=right-secret\n' >"$W/ok.cnf"
printf '[client]\npassword=wrong-secret\n' >"$W/bad.cnf"
cap dflt "mysql://pw@$HP?defaults-file=$W/ok.cnf" --include shop.mini --snapshot initial_only -q
expect_err dflt 0 </dev/null
cap dfltbad "mysql://pw@$HP?defaults-file=$W/bad.cnf" --include shop.mini --snapshot initial_only
expect_err dfltbad 1 <<EOF
rowcast capture: cannot connect to mysql://pw@$HP?defaults-file=$W/bad.cnf: Access denied for user 'pw'@'127.0.0.1' (using password: YES) (check the user and the password: MYSQL_PWD, ?password-file= or ?defaults-file=)
EOF
cap dfltnone "mysql://pw@$HP?defaults-file=$W/none.cnf" --include shop.mini --snapshot initial_only
expect_err dfltnone 1 <<EOF
rowcast capture: cannot connect to mysql://pw@$HP?defaults-file=$W/none.cnf: defaults-file $W/none.cnf: No such file or directory
EOF
# the password-file's line, not the URL's path, is the password; a wrong one; an empty file
printf 'wrong-secret\n' >"$W/pwbad"
cap pwfilebad "mysql://pw@$HP?password-file=$W/pwbad" --include shop.mini --snapshot initial_only
expect_err pwfilebad 1 <<EOF
rowcast capture: cannot connect to mysql://pw@$HP: Access denied for user 'pw'@'127.0.0.1' (using password: YES) (check the user and the password: MYSQL_PWD, ?password-file= or ?defaults-file=)
EOF
: >"$W/pwempty"
cap pwempty "mysql://pw@$HP?password-file=$W/pwempty" --include shop.mini --snapshot initial_only
expect_err pwempty 1 <<EOF
rowcast capture: mysql://pw@$HP: password-file $W/pwempty is empty
EOF
# no password in any message or output, nor in the checkpoint
cap pwck "mysql://pw:right-secret@$HP" --include shop.mini --checkpoint "$W/pw.ck" --until caught-up
expect_rc "a password in the URL" "$st" 0
same "no password printed or stored" "" "$(cat "$W"/*.err "$W"/*.out "$W/pw.ck" | grep -c -e right-secret -e wrong-secret | grep -v '^0$')"
MYSQL_PWD=right-secret cap pwenv "mysql://pw@$HP/shop" --include shop.mini --snapshot initial_only
expect_rc "MYSQL_PWD" "$st" 0
cap norepl "mysql://norepl:x@$HP"
expect_err norepl 1 <<EOF
rowcast capture: user 'norepl'@'127.0.0.1' has no REPLICATION SLAVE or REPLICATION CLIENT privilege on mysql://norepl@$HP: run GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO 'norepl'@'127.0.0.1' as an administrator
EOF
cap nodb "$U/nosuch"
expect_err nodb 1 <<EOF
rowcast capture: cannot connect to $U/nosuch: Unknown database 'nosuch' (the database after the port is one the server has, or none)
EOF
cap notable "$U" --include shop.nosuch --snapshot initial_only
expect_err notable 0 <<EOF
rowcast: warning: --include 'shop.nosuch' matched no table on $U; a table created later is captured from its CREATE TABLE
$(summary notable 0)
EOF
# each pattern that matches nothing, beside one that matches (convert's words); a database
cap notable2 "$U" --include shop.mini --include 'shop.nosuch*' --include nodb --snapshot initial_only
expect_rc notable2 "$st" 0
same "a pattern that matched nothing beside one that matched" "rowcast: warning: --include 'shop.nosuch*' matched no table on $U; a table created later is captured from its CREATE TABLE
rowcast: warning: --include 'nodb' matched no table on $U (as nodb.*: a pattern without a dot names databases); a table created later is captured from its CREATE TABLE" "$(grep warning "$W/notable2.err")"
# without --checkpoint, every run starts over: said first (after the server's checks)
cap nock "$U" --include shop.mini --snapshot never --until caught-up
expect_err nock 0 <<EOF
rowcast: no --checkpoint: every run streams from the binlog's end, not where the last one stopped (--checkpoint PATH keeps the position)
$(summary nock 0)
EOF
cap nock2 "$U" --include shop.mini --until caught-up
expect_rc nock2 "$st" 0
same "without --checkpoint and with a snapshot" "rowcast: no --checkpoint: every run takes a new snapshot (every row again) and streams from it, not where the last one stopped (--checkpoint PATH keeps the position)" "$(head -1 "$W/nock2.err")"
"$RC" capture "$U" --include shop.mini --until caught-up -q >"$W/nock3.out" 2>"$W/nock3.err"
st=$?
expect_err nock3 0 </dev/null
# -q: no notice (the derived replica id among them), warnings still said
"$RC" capture "$U" --include shop.mini --snapshot initial_only -q >"$W/quiet.out" 2>"$W/quiet.err"
st=$?
expect_err quiet 0 </dev/null
"$RC" capture "$U" --include shop.nosuch --snapshot initial_only --quiet >"$W/quietwarn.out" 2>"$W/quietwarn.err"
st=$?
expect_err quietwarn 0 <<EOF
rowcast: warning: --include 'shop.nosuch' matched no table on $U; a table created later is captured from its CREATE TABLE
EOF
# nothing listens: an error at once, the address and what to check
noport=$(my_free_port)
cap refused "mysql://root@127.0.0.1:$noport" --include shop.mini
expect_err refused 3 <<EOF
rowcast capture: cannot connect to mysql://root@127.0.0.1:$noport: Can't connect to server on '127.0.0.1' (115) (nothing accepted the connection at 127.0.0.1 port $noport: check that the server runs, its port and bind-address, and any firewall on the way)
EOF
my_sql -e "SET GLOBAL binlog_format = 'STATEMENT'"
cap stmt "$U"
my_sql -e "SET GLOBAL binlog_format = 'ROW'"
expect_err stmt 1 <<EOF
rowcast capture: binlog_format is STATEMENT on $U: capture needs row events: SET GLOBAL binlog_format = 'ROW' and binlog_format=ROW in the server's configuration (sessions open before keep their format)
EOF
cap slot "$U" --slot s
expect_err slot 1 <<EOF
rowcast capture: --slot is PostgreSQL's: MySQL and MariaDB have no slots or publications (the position is kept in --checkpoint PATH)
(see rowcast help capture)
EOF
# a server without binary log (a second one)
saved=("$MY_DIR" "$MY_PORT" "$MY_SOCK" "$MY_URL")
if my_throwaway_start "$W/nolog" --skip-log-bin >/dev/null; then
    nolog=$MY_URL
    cap nolog "$nolog"
    expect_err nolog 1 <<EOF
rowcast capture: the binary log is off on $nolog: start the server with log_bin (--log-bin) and binlog_format=ROW in its configuration
EOF
    my_throwaway_stop "$W/nolog"
else
    bad "the second server did not start"
fi
MY_DIR=${saved[0]} MY_PORT=${saved[1]} MY_SOCK=${saved[2]} MY_URL=${saved[3]}

# ---- 6. --to maxwell: section 1's binlog (6 row changes in 5 transactions; the last row of
# each "commit":true, the INSERT ... SELECT's first "xoffset":0) and a snapshot of shop.types
# (bootstrap-start, a bootstrap-insert per row, bootstrap-complete), every MariaDB type
# rendered as Maxwell renders it (docs/formats/maxwell.md); golden
# data/my_capture.types.maxwell.golden
MX=(--to maxwell -o maxwell.output_xoffset=true -o maxwell.output_binlog_position=true -o maxwell.output_server_id=true
    -o maxwell.output_primary_keys=true -o maxwell.output_primary_key_columns=true)
# (the binlog to its end: the other sections' transactions are markers without a message here,
# their number depends on section 4's concurrent writer)
cap maxwell.stream "$U" --include 'shop.types' --start bin.000001:$P1 --until caught-up "${MX[@]}"
expect_rc maxwell.stream "$st" 0
cap maxwell.snap "$U" --include 'shop.types' --snapshot initial_only "${MX[@]}"
expect_rc maxwell.snap "$st" 0
# (the snapshot's position is the binlog's end, which section 4's writer moves from run to run)
{ cat "$W/maxwell.stream.out"; sed -E 's/"position":"bin[.][0-9]+:[0-9]+"/"position":"P"/' "$W/maxwell.snap.out"; } >"$W/maxwell.out"
golden "types.maxwell" "$W/maxwell.out"
# ---- 7. character sets other than utf8mb4, latin1, ascii and binary
my_sql <<'SQL' || bad "the charset table failed"
CREATE TABLE shop.cs (id int PRIMARY KEY, g varchar(20) CHARACTER SET gbk, b5 varchar(20) CHARACTER SET big5,
  w text CHARACTER SET cp1251, u16 varchar(20) CHARACTER SET utf16, sj char(10) CHARACTER SET sjis,
  kr varchar(20) CHARACTER SET euckr, k8 varchar(20) CHARACTER SET koi8r, l2 varchar(20) CHARACTER SET latin2);
INSERT INTO shop.cs VALUES (1, '中文 gbk\\', '中文 big5', 'Привет, мир', '𝄞 utf16 ü', '日本語\\~', '한글 갂', 'Привет', 'Łódź ąę'),
  (2, '', '', '', '', '', '', '', '');
SQL
cap cs.1 "$U" --include 'shop.cs' --checkpoint "$W/cs.ck" --until caught-up
expect_rc "charsets: the snapshot" "$st" 0
my_sql -e "INSERT INTO shop.cs SELECT id + 10, g, b5, w, u16, sj, kr, k8, l2 FROM shop.cs" || bad "the charset inserts failed"
cap cs.2 "$U" --include 'shop.cs' --checkpoint "$W/cs.ck" --until caught-up
expect_rc "charsets: the stream" "$st" 0
same "charsets: the values from the binlog = SELECT CONVERT(... USING utf8mb4)" \
    "$(my_sql --raw -e "SELECT JSON_ARRAY(id, CONVERT(g USING utf8mb4), CONVERT(b5 USING utf8mb4), CONVERT(w USING utf8mb4),
        CONVERT(u16 USING utf8mb4), CONVERT(sj USING utf8mb4), CONVERT(kr USING utf8mb4), CONVERT(k8 USING utf8mb4),
        CONVERT(l2 USING utf8mb4)) FROM shop.cs WHERE id > 10 ORDER BY id" | jq -c .)" \
    "$(jq -c 'select(.op == "insert") | .after' "$W/cs.2.out")"
same "charsets: the snapshot = the binlog" "$(jq -c 'select(.op == "read") | .after[1:]' "$W/cs.1.out")" \
    "$(jq -c 'select(.op == "insert") | .after[1:]' "$W/cs.2.out")"

# ---- 7b. issue 28 §3: ZEROFILL columns (SELECT pads them: "00005" stopped the snapshot), zero
# dates in NOT NULL columns (upstream Debezium writes the epoch there, null in a nullable one),
# a POINT of SRID 0 (Debezium: "srid": null): the snapshot's and the binlog's payloads equal,
# and equal the golden data/my_capture.zerofill.debezium.golden
my_sql <<'SQL' || bad "the zerofill table failed"
SET SESSION sql_mode = '';
CREATE TABLE shop.zf (id int PRIMARY KEY, a int(5) zerofill, b decimal(6,2) zerofill, c float(7,2) zerofill,
  u bigint unsigned zerofill, d date NOT NULL, dt datetime(3) NOT NULL, ts timestamp NOT NULL DEFAULT '0000-00-00 00:00:00',
  dn date, g point);
INSERT INTO shop.zf VALUES (1, 5, 3.5, 1.25, 7, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', '0000-00-00', ST_GeomFromText('POINT(1 2)')),
  (2, 12345, 1234.56, 12.5, 18446744073709551615, '2024-02-29', '2024-02-29 12:00:00.125', '2024-02-29 12:00:00', NULL, NULL);
SQL
zf_opts=(--include 'shop.zf' --checkpoint "$W/zf.ck" --until caught-up --to debezium -o debezium.flavor=upstream
    -o debezium.schemas=true -o debezium.bigint.unsigned.handling.mode=precise)
cap zf.1 "$U" "${zf_opts[@]}"
expect_rc "zerofill: the snapshot" "$st" 0
cp "$W/zf.ck" "$W/zq.ck"
zf_sql="SET SESSION sql_mode = ''; INSERT INTO shop.zf SELECT id + 10, a, b, c, u, d, dt, ts, dn, g FROM shop.zf"
my_sql -e "$zf_sql" || bad "the zerofill inserts failed"
cap zf.2 "$U" "${zf_opts[@]}"
expect_rc "zerofill: the stream" "$st" 0
same "zerofill: the snapshot's values = the binlog's" "$(jq -c '.payload.after | .id -= 0 | del(.id)' "$W/zf.1.out")" \
    "$(jq -c '.payload.after | del(.id)' "$W/zf.2.out")"
cat "$W/zf.1.out" "$W/zf.2.out" >"$W/zf.out"
golden zerofill.debezium "$W/zf.out"
# the rows' statement (MariaDB's ANNOTATE_ROWS) when the output asks for it: Maxwell's
# output_row_query, Debezium's include.query (issue 28 §4); not asked, none (zf.2: null)
cap zq.mx "$U" --include 'shop.zf' --checkpoint "$W/zq.ck" --until caught-up --to maxwell -o maxwell.output_row_query=true
same "row query: maxwell's query is the INSERT" "$(printf '%s\n%s' "${zf_sql#*; }" "${zf_sql#*; }")" "$(jq -r .query "$W/zq.mx.out")"
same "row query: not asked, debezium's source.query is null" "null null" "$(jq -r .payload.source.query "$W/zf.2.out" | xargs)"

# ---- 8. TLS: a second server with a certificate of a CA made here, require_secure_transport
T=$W/tls
mkdir -p "$T"
tls_cert() { # NAME CN [EXTFILE]: NAME.key, NAME.pem signed by ca
    openssl req -newkey rsa:2048 -nodes -keyout "$T/$1.key" -out "$T/$1.csr" -subj "/CN=$2" 2>/dev/null &&
        openssl x509 -req -in "$T/$1.csr" -CA "$T/ca.pem" -CAkey "$T/ca.key" -CAcreateserial -out "$T/$1.pem" -days 2 ${3:+-extfile "$3"} 2>/dev/null
}
printf 'subjectAltName=IP:127.0.0.1\n' >"$T/san.ext"
if openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/ca.key" -out "$T/ca.pem" -days 2 -subj "/CN=rowcast test CA" 2>/dev/null &&
    openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/other.key" -out "$T/other.pem" -days 2 -subj "/CN=another CA" 2>/dev/null &&
    tls_cert server 127.0.0.1 "$T/san.ext" && tls_cert client "rowcast client" && chmod 644 "$T"/*.key &&
    my_throwaway_start "$W/tlsdb" --ssl-ca="$T/ca.pem" --ssl-cert="$T/server.pem" --ssl-key="$T/server.key" \
        --require-secure-transport=ON >/dev/null; then
    TU=mysql://root@127.0.0.1:$MY_PORT
    TS=$MY_SOCK
    mariadb --no-defaults -S "$TS" -uroot <<'SQL' || bad "the TLS server's setup failed"
CREATE DATABASE d;
CREATE TABLE d.t (id int PRIMARY KEY, v varchar(10));
INSERT INTO d.t VALUES (1, 'snap');
CREATE USER 'x509'@'127.0.0.1' REQUIRE X509;
GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO 'x509'@'127.0.0.1';
SQL
    # over TLS (the CA verified, the host name too): the snapshot, then the binlog stream
    cap tls1 "$TU?ssl-mode=VERIFY_IDENTITY&ssl-ca=$T/ca.pem" --include d.t --checkpoint "$W/tls.ck" --until caught-up
    expect_rc "TLS: the snapshot" "$st" 0
    mariadb --no-defaults -S "$TS" -uroot -e "INSERT INTO d.t VALUES (2, 'stream')"
    cap tls2 "$TU?ssl-mode=VERIFY_IDENTITY&ssl-ca=$T/ca.pem" --include d.t --checkpoint "$W/tls.ck" --until caught-up
    expect_rc "TLS: the stream" "$st" 0
    same "TLS: the rows" '["read",[1,"snap"]] ["insert",[2,"stream"]]' \
        "$(cat "$W/tls1.out" "$W/tls2.out" | jq -c 'select(.after) | [.op, .after]' | paste -sd' ')"
    # without ssl-mode: TLS when the server has it (PREFERRED)
    cap tlspref "$TU" --include d.t --snapshot initial_only -q
    expect_err tlspref 0 </dev/null
    # without TLS; with a CA that did not sign the server's certificate
    cap notls "$TU?ssl-mode=DISABLED&ssl-ca=$T/ca.pem" --include d.t --snapshot initial_only
    expect_err notls 1 <<EOF
rowcast capture: cannot connect to $TU?ssl-mode=DISABLED&ssl-ca=$T/ca.pem: Access denied for user 'root'@'127.0.0.1' (using password: NO) (check the user and the password: MYSQL_PWD, ?password-file= or ?defaults-file=; or TLS, which the user (REQUIRE SSL) or the server (require_secure_transport) may require: ssl-mode=REQUIRED)
EOF
    cap wrongca "$TU?ssl-mode=VERIFY_CA&ssl-ca=$T/other.pem" --include d.t --snapshot initial_only
    expect_err wrongca 1 <<EOF
rowcast capture: cannot connect to $TU?ssl-mode=VERIFY_CA&ssl-ca=$T/other.pem: TLS/SSL error: self-signed certificate in certificate chain (check ?ssl-ca=: the CA that signed the server's certificate; ?ssl-cert= and ?ssl-key=: a certificate and its key; or ?ssl-mode=)
EOF
    # a user that requires a client certificate: with ssl-cert and ssl-key, without
    XU=mysql://x509@127.0.0.1:$MY_PORT
    cap x509 "$XU?ssl-mode=VERIFY_CA&ssl-ca=$T/ca.pem&ssl-cert=$T/client.pem&ssl-key=$T/client.key" --include d.t --snapshot initial_only -q
    expect_err x509 0 </dev/null
    cap nocert "$XU?ssl-mode=REQUIRED" --include d.t --snapshot initial_only
    expect_err nocert 1 <<EOF
rowcast capture: cannot connect to $XU?ssl-mode=REQUIRED: Access denied for user 'x509'@'127.0.0.1' (using password: NO) (check the user and the password: MYSQL_PWD, ?password-file= or ?defaults-file=; or a client certificate, which the user may require (REQUIRE X509): ?ssl-cert= and ?ssl-key=)
EOF
    cap nokey "$XU?ssl-mode=REQUIRED&ssl-cert=$T/client.pem&ssl-key=$T/none.key" --include d.t --snapshot initial_only
    expect_err nokey 1 <<EOF
rowcast capture: cannot connect to $XU?ssl-mode=REQUIRED&ssl-cert=$T/client.pem&ssl-key=$T/none.key: ssl-key $T/none.key: No such file or directory
EOF
    my_throwaway_stop "$W/tlsdb"
else
    bad "the TLS server did not start (or openssl failed)"
fi
MY_DIR=${saved[0]} MY_PORT=${saved[1]} MY_SOCK=${saved[2]} MY_URL=${saved[3]}

echo "my_capture: $pass passed, $fail failed"
[ "$fail" = 0 ]
