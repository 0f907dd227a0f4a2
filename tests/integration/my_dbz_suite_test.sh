#!/usr/bin/env bash
# Debezium's MySQL connector suite against rowcast on MariaDB 10.11 (issue 28): the DDL files of
# its integration tests (debezium-connector-binlog/src/test/resources/ddl) and the values and
# Connect schemas its ITs assert (MariaDB's branch where they differ), restated in
# my_dbz_suite.cases: `database NAME` and `sql STATEMENT` lines make the SQL (each file in a
# database of its name, as Debezium's UniqueDatabase does, without the suffix); the other lines are
# the expected fields in tests/tools/dbz_fields_check.py's format, a row named by its place
# among its table's events (--nth).
# The SQL runs once; rowcast captures it to upstream Debezium with schemas (Debezium's defaults) as
# a snapshot (mode default, op r) and as a stream from the binlog position before it (modes
# default and stream, op c: the stream sees each row with the structure of its time), then as
# snapshots with the settings the ITs vary. A field listed as known (`!`, with its reason,
# docs/sources/mysql.md "Debezium's suite") is counted, not failed.
# usage: my_dbz_suite_test.sh ROWCAST [KEEP_DIR]   (KEEP_DIR: copy the captures there)
set -uf
RC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/mariadb_lib.sh"
# Debezium's MariaDB test server: UTC (docker-maven-plugin's TZ), utf8mb4
my_test_start --default-time-zone=+00:00 --character-set-server=utf8mb4 || exit 1
. "$HERE/../common/check.sh"

# the .cases file split: the SQL, the expected fields, the databases (`database NAME own`: only
# the modes that name it with --include capture it)
awk -v sql="$W/suite.sql" -v fields="$W/suite.expected" -v dbs="$W/dbs" '
    /^database / { printf "CREATE DATABASE `%s`;\nUSE `%s`;\n", $2, $2 >sql; if ($3 != "own") print $2 >dbs; next }
    /^sql / { print substr($0, 5) ";" >sql; next }
    { print >fields }' "$HERE/my_dbz_suite.cases"
CHECK="python3 $HERE/../tools/dbz_fields_check.py $W/suite.expected --nth"
check() { $CHECK "$@" | tee -a "$W/counts"; [ "${PIPESTATUS[0]}" = 0 ] && ok || bad "$*"; }
inc=()
while read -r d; do inc+=(--include "$d.*"); done <"$W/dbs"

pos=$(my_sql -e 'SHOW MASTER STATUS' | awk '{ print $1 ":" $2 }')
my_sql --comments <"$W/suite.sql" >"$W/sql.out" 2>&1 || { bad "the suite's SQL failed: $(cat "$W/sql.out")"; exit 1; }
# the databases of the suite, or those the arguments name (--include: a mode of a database marked own)
dbz() {
    local dbs=("${inc[@]}")
    [[ " $* " == *" --include "* ]] && dbs=()
    "$RC" capture "$MY_URL" "${dbs[@]}" --server-id 61 -q --to debezium -o debezium.flavor=upstream \
        -o debezium.schemas=true -o debezium.version=3.7.0.Final "$@"
}
dbz --snapshot initial_only >"$W/snapshot" 2>"$W/snapshot.err" || bad "snapshot failed: $(head -c 500 "$W/snapshot.err")"
dbz --start "$pos" --until caught-up >"$W/stream" 2>"$W/stream.err" || bad "stream failed: $(head -c 500 "$W/stream.err")"
check --mode default --op r "$W/snapshot"
check --mode default --op c "$W/stream"
check --mode stream --op c "$W/stream"

# the settings the ITs vary, each a snapshot of the same rows (a mode stream_*: the stream again)
n=0
while read -r mode opts; do
    n=$((n + 1))
    how=(--snapshot initial_only) op=r
    [[ $mode == stream_* ]] && how=(--start "$pos" --until caught-up) op=c
    # shellcheck disable=SC2086
    dbz "${how[@]}" $opts >"$W/v$n" 2>"$W/v$n.err" ||
        { bad "capture with $opts failed: $(head -c 500 "$W/v$n.err")"; continue; }
    check --mode "$mode" --op "$op" "$W/v$n"
done <<'MODES'
dec_string -o debezium.decimal.handling.mode=string
dec_double -o debezium.decimal.handling.mode=double
bigint_precise -o debezium.bigint.unsigned.handling.mode=precise
no_adjuster -o debezium.enable.time.adjuster=false
stream_srctype -o debezium.column.propagate.source.type=.*\.c1,.*\.c2,.*\.c3.*,.*\.f.
stream_dtsrctype -o debezium.datatype.propagate.source.type=.+\.FLOAT,.+\.VARCHAR
cut_long --include unsigned_integer_test.* --on-loss=cut
stream_cut_long --include unsigned_integer_test.* --on-loss=cut
cut_connect --include default_value.DATE_TIME_TABLE --on-loss=cut -o debezium.time.precision.mode=connect
bool_selector --include tinyint_test.DBZ1773 -o debezium.converters=boolean -o debezium.boolean.type=io.debezium.connector.binlog.converters.TinyIntOneToBooleanConverter -o debezium.boolean.selector=.*DBZ1773.b
stream_bool_selector --include tinyint_test.DBZ1773 -o debezium.converters=boolean -o debezium.boolean.type=io.debezium.connector.binlog.converters.TinyIntOneToBooleanConverter -o debezium.boolean.selector=.*DBZ1773.b
bool_default --include tinyint_test.DBZ2085 -o debezium.converters=boolean -o debezium.boolean.type=io.debezium.connector.binlog.converters.TinyIntOneToBooleanConverter -o debezium.boolean.selector=.*DBZ2085.b
bool_unsigned --include tinyint_test.DBZ5236 -o debezium.converters=boolean -o debezium.boolean.type=io.debezium.connector.mysql.converters.TinyIntOneToBooleanConverter
bool_nolength --include tinyint_test.DBZ5236 -o debezium.converters=boolean -o debezium.boolean.type=io.debezium.connector.binlog.converters.TinyIntOneToBooleanConverter -o debezium.boolean.length.checker=false -o debezium.boolean.selector=.*DBZ5236.ti2,.*DBZ5236.ti3
MODES
# the counts of docs/sources/mysql.md "Debezium's suite"
awk -F'[:,] *' '/ fields compared/ { for (i = 2; i <= NF; i++) { split($i, w, " "); t[i] += w[1] } }
  END { printf "all: %d fields compared, %d equal, %d different with reason, %d different, %d skipped\n", t[3], t[4], t[5], t[6], t[7] }' "$W/counts"
[ -n "${2:-}" ] && cp -r "$W"/. "$2"/
echo "my_dbz_suite: $pass passed, $fail failed"
[ "$fail" = 0 ]
