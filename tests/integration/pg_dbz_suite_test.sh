#!/usr/bin/env bash
# Debezium's PostgreSQL connector suite against rowcast (issue 28): the tables of its
# postgres_create_tables.ddl (tests/integration/data/pg_dbz_suite*.sql), the INSERTs of its
# AbstractRecordsProducerTest, captured from a throwaway PostgreSQL 15 with Debian's contrib and
# PostGIS to upstream Debezium with schemas (Debezium's defaults) once as a snapshot and once as a
# stream (the same rows again after TRUNCATE ... RESTART IDENTITY, read from the same slot), and
# as snapshots with the settings the suite varies. tests/tools/dbz_fields_check.py compares every
# field of data/pg_dbz_suite.expected (the values and Connect schemas the suite asserts) and prints
# the counts; a field listed as known (with its reason, docs/sources/postgres.md "Debezium's
# suite") is counted, not failed.
# usage: pg_dbz_suite_test.sh ROWCAST [KEEP_DIR]   (KEEP_DIR: copy the captures there)
set -uf   # -f: the --include patterns of the modes below stay patterns
RC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
D=$HERE/data
CHECK="python3 $HERE/../tools/dbz_fields_check.py $D/pg_dbz_suite.expected"
check() { $CHECK "$@" | tee -a "$W/counts"; [ "${PIPESTATUS[0]}" = 0 ]; }
. "$HERE/pg_lib.sh"
pg_test_start "timezone = 'UTC'" || exit 1

pg_test_sql -f "$D/pg_dbz_suite.sql" >/dev/null || exit 1
if [ "$(pg_test_sql -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'")" = 1 ]; then
    pg_test_sql -f "$D/pg_dbz_suite_postgis.sql" >/dev/null || exit 1
    postgis=1
else
    postgis=0
    CHECK="$CHECK --skip-table postgis_table --skip-table postgis_array_table"
    echo "SKIP: PostGIS is not installed (postgresql-15-postgis-3): postgis_table, postgis_array_table"
fi
rows() {
    pg_test_sql -f "$D/pg_dbz_suite_rows.sql" >/dev/null || exit 1
    [ "$postgis" = 0 ] || pg_test_sql -f "$D/pg_dbz_suite_postgis_rows.sql" >/dev/null || exit 1
}
dbz() {
    "$RC" capture "$PG_URL" --include 'public.*' --include 'Quoted_" . Schema.*' --until caught-up -q \
        --to debezium -o debezium.flavor=upstream -o debezium.schemas=true "$@"
}

# the snapshot, then the same rows streamed from the same slot
rows
dbz --slot s1 --publication p1 >"$W/snapshot" 2>"$W/snapshot.err" || bad "snapshot failed: $(head -c 500 "$W/snapshot.err")"
pg_test_sql -c "SELECT 'TRUNCATE ' || string_agg(format('%I.%I', schemaname, tablename), ', ') || ' RESTART IDENTITY'
  FROM pg_tables WHERE schemaname IN ('public', 'nan', 'unk', 'alias', 'Quoted_\" . Schema')" | pg_test_sql >/dev/null || exit 1
rows
dbz --slot s1 --publication p1 >"$W/stream" 2>"$W/stream.err" || bad "stream failed: $(head -c 500 "$W/stream.err")"
check --mode default --op r "$W/snapshot" || fail=1
check --mode default --op c "$W/stream" || fail=1

# the settings the suite varies, each a snapshot of the same rows
n=0
while read -r mode opts; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    dbz --slot "v$n" --publication "pv$n" --snapshot initial_only $opts >"$W/v$n" 2>"$W/v$n.err" ||
        { bad "snapshot with $opts failed: $(head -c 500 "$W/v$n.err")"; continue; }
    nth=() # a mode ending in _nth: its rows named by their place (a table of the ITs' without a pk column)
    [[ $mode == *_nth ]] && nth=(--nth)
    check --mode "$mode" --op r "${nth[@]}" "$W/v$n" || fail=1
done <<'MODES'
adaptive_us -o debezium.time.precision.mode=adaptive_time_microseconds
dec_string --include nan.* -o debezium.decimal.handling.mode=string
dec_double --include nan.* -o debezium.decimal.handling.mode=double
hstore_map -o debezium.hstore.handling.mode=map
bin_hex -o debezium.binary.handling.mode=hex
bin_base64 -o debezium.binary.handling.mode=base64
bin_base64_url -o debezium.binary.handling.mode=base64-url-safe
unknown_bytes --include unk.* -o debezium.include.unknown.datatypes=true
unknown_base64 --include unk.* -o debezium.include.unknown.datatypes=true -o debezium.binary.handling.mode=base64
unknown_base64_url --include unk.* -o debezium.include.unknown.datatypes=true -o debezium.binary.handling.mode=base64-url-safe
unknown_hex --include unk.* -o debezium.include.unknown.datatypes=true -o debezium.binary.handling.mode=hex
alias --include alias.* -o debezium.decimal.handling.mode=double -o debezium.include.unknown.datatypes=true
interval_string -o debezium.interval.handling.mode=string
unknown_out --include unk.* --include alias.*
srctype -o debezium.column.propagate.source.type=.*vc.*
srctype_dec --include nan.* -o debezium.column.propagate.source.type=.*(d|dzs) -o debezium.decimal.handling.mode=double
dtsrctype_nth -o debezium.datatype.propagate.source.type=.+\.NUMERIC,.+\.VARCHAR,.+\.FLOAT4
MODES
# the counts of docs/sources/postgres.md "Debezium's suite"
awk -F'[:,] *' '/ fields compared/ { for (i = 2; i <= NF; i++) { split($i, w, " "); t[i] += w[1] } }
  END { printf "all: %d fields compared, %d equal, %d different with reason, %d different, %d skipped\n", t[3], t[4], t[5], t[6], t[7] }' "$W/counts"
[ -n "${2:-}" ] && cp -r "$W"/. "$2"/
[ "$fail" = 0 ] && echo "pg_dbz_suite: all passed"
exit "$fail"
