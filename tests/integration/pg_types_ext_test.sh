#!/usr/bin/env bash
# Extension and unknown column types (issue 28 §1): no PostgreSQL column type stops a capture.
# A throwaway PostgreSQL 15 with contrib's citext, hstore, ltree, isn and cube, a composite type
# and pg_lsn (types rowcast does not know), and a table per group, filled with the SQL of
# Debezium's PostgreSQL connector tests where they have it (debezium/debezium,
# debezium-connector-postgres/src/test/resources/postgres_create_tables.ddl and
# .../postgresql/AbstractRecordsProducerTest.java: the lines are cited beside each value).
# Captured twice from one slot each: the rows inserted before as a snapshot (COPY text), then
# updates, deletes and inserts as a stream (pgoutput text); to native, and to upstream Debezium
# with schemas (its defaults), whose stderr (one warning per column of an unknown type) is kept
# too. The native output is then converted to upstream Debezium with include.unknown.datatypes=true
# and hstore.handling.mode=map. All compared byte for byte with reviewed goldens (LSNs, xids,
# times masked as in pg_types_test.sh).
# usage: pg_types_ext_test.sh ROWCAST   (RC_UPDATE_GOLDEN=1 rewrites the goldens)
set -u
RC=$1
HERE=$(cd "$(dirname "$0")" && pwd)
G=$HERE/data/pg_types_ext
. "$HERE/pg_lib.sh"
pg_test_start || exit 1

pg_test_sql <<'SQL' >/dev/null || exit 1
CREATE EXTENSION citext; CREATE EXTENSION hstore; CREATE EXTENSION ltree; CREATE EXTENSION isn; CREATE EXTENSION cube;
CREATE TYPE complex AS (r float8, i float8);
-- postgres_create_tables.ddl:18 (string_table.ct), :50 (array_table.citext_array), :52
-- (custom_table), :54 (hstore_table_mul), :23 (bitbin_table.bvunlimited1/2)
CREATE TABLE ext (pk serial PRIMARY KEY, ct citext, citext_array citext[], lt ltree, i isbn NOT NULL, n text,
  lt_array ltree[], e13 ean13, hs hstore, hsarr hstore[], bvunlimited1 bit varying, bvunlimited2 bit varying);
CREATE TABLE unk (pk serial PRIMARY KEY, c complex, cb cube, l pg_lsn, t text, la pg_lsn[]);
SQL
# PostGIS (Debian's postgresql-15-postgis-3, in scripts/lib.sh's TEST_PKGS): skipped, and said,
# where it is not installed; the goldens hold its table, so they are compared only with it
if [ "$(pg_test_sql -c "SELECT count(*) FROM pg_available_extensions WHERE name = 'postgis'")" = 1 ]; then
    postgis=1
    # in a schema of its own as Debezium's tests have it (its spatial_ref_sys is not captured);
    # postgres_create_tables.ddl's postgis_table (p geometry, ml geography)
    pg_test_sql -c 'CREATE SCHEMA postgis' -c 'CREATE EXTENSION postgis SCHEMA postgis' \
        -c 'CREATE TABLE gis (pk serial PRIMARY KEY, p postgis.geometry, ml postgis.geography, ga postgis.geometry[])' >/dev/null || exit 1
else
    postgis=0
    echo "SKIP: PostGIS is not installed (postgresql-15-postgis-3): table gis and the golden comparison"
fi
capture() { "$RC" capture "$PG_URL" --publication p1 --include 'public.*' --until caught-up -q "$@"; }

# the snapshot's rows
pg_test_sql <<'SQL' >/dev/null || exit 1
-- ct: AbstractRecordsProducerTest.java:138 ('Hello World', expected :435); citext_array: :184
-- ('{"four","five","six"}', expected :872-873); lt, i, n, lt_array: :217-218 (INSERT_CUSTOM_TYPES_STMT,
-- expected :996-999: isbn '978-0-393-04002-9' is "0-393-04002-X"); hs, hsarr: :222-225
-- (INSERT_HSTORE_TYPE_WITH_MULTIPLE_VALUES_STMT, expected :396-404 json, :351-366 map);
-- bvunlimited1/2: :128-130 (expected :646-647, Bits length 2147483647)
INSERT INTO ext VALUES (DEFAULT, 'Hello World', '{"four","five","six"}', 'Top.Collections.Pictures.Astronomy.Galaxies',
  '978-0-393-04002-9', NULL, '{"Ship.Frigate","Ship.Destroyer"}', '9780393040029',
  '"key1" => "val1","key2" => "val2","key3" => "val3"', array['"key4" => "val4","key5" => NULL'::hstore, '"key6" => "val6"'],
  '101', '111011010001000110000001000000001');
-- hstore with NULL and special characters: :227 and :229 (expected :407-415)
INSERT INTO ext (i, hs) VALUES ('0-393-04002-X', '"key1" => "val1","key2" => NULL');
INSERT INTO ext (i, hs, ct) VALUES ('0-393-04002-X', '"key_#1" => "val 1","key 2" =>" ##123 78"', E'quo"te\\ é');
INSERT INTO unk VALUES (DEFAULT, ROW(1.5, -2), '(1,2),(3,4)', '16/B374D848', 'a', '{0/1,NULL}');
SQL
# AbstractRecordsProducerTest.java:194-195 (INSERT_POSTGIS_TYPES_STMT; expected :928-939:
# wkb 0101000020730C00001C7C613255DE6540787AA52C435C42C0 srid 3187, and the geography's EWKB
# with srid 4326); ga: :200-204 (INSERT_POSTGIS_ARRAY_TYPES_STMT, expected :943-956: srid null)
[ "$postgis" = 1 ] && { pg_test_sql -c "INSERT INTO gis (p, ml, ga) VALUES ('SRID=3187;POINT(174.9479 -36.7208)'::postgis.geometry,
  'MULTILINESTRING((169.1321 -44.7032, 167.8974 -44.6414))'::postgis.geography,
  ARRAY['GEOMETRYCOLLECTION EMPTY'::postgis.geometry, 'POLYGON((166.51 -46.64, 178.52 -46.64, 178.52 -34.45, 166.51 -34.45, 166.51 -46.64))'::postgis.geometry])" >/dev/null || exit 1; }
capture --slot s1 >"$W/native" 2>"$W/native.err" || bad "snapshot to native failed: $(cat "$W/native.err")"
capture --slot s2 --to debezium -o debezium.flavor=upstream -o debezium.schemas=true >"$W/dbz" 2>"$W/dbz.err" ||
    bad "snapshot to debezium failed: $(cat "$W/dbz.err")"

# the stream's changes
pg_test_sql <<'SQL' >/dev/null || exit 1
INSERT INTO ext VALUES (DEFAULT, 'Hello World', '{"four","five","six"}', 'Top.Collections.Pictures.Astronomy.Galaxies',
  '978-0-393-04002-9', NULL, '{"Ship.Frigate","Ship.Destroyer"}', '9780393040029',
  '"key1" => "val1","key2" => "val2","key3" => "val3"', array['"key4" => "val4","key5" => NULL'::hstore, '"key6" => "val6"'],
  '101', '111011010001000110000001000000001');
UPDATE ext SET ct = 'CHANGED', hs = '"a" => "x"', bvunlimited1 = B'0' WHERE pk = 2;
DELETE FROM ext WHERE pk = 3;
INSERT INTO unk VALUES (DEFAULT, ROW(0, 0), '(1),(2)', '0/0', 'b', NULL);
UPDATE unk SET c = NULL, l = 'FF/FF' WHERE pk = 1;
DELETE FROM unk WHERE pk = 2;
SQL
[ "$postgis" = 1 ] && { pg_test_sql -c "UPDATE gis SET p = 'GEOMETRYCOLLECTION EMPTY'::postgis.geometry, ml = NULL WHERE pk = 1" \
  -c "INSERT INTO gis (p) VALUES ('POLYGON((166.51 -46.64, 178.52 -46.64, 178.52 -34.45, 166.51 -34.45, 166.51 -46.64))')" >/dev/null || exit 1; }
capture --slot s1 >>"$W/native" 2>>"$W/native.err" || bad "stream to native failed: $(cat "$W/native.err")"
capture --slot s2 --to debezium -o debezium.flavor=upstream -o debezium.schemas=true >>"$W/dbz" 2>>"$W/dbz.err" ||
    bad "stream to debezium failed: $(cat "$W/dbz.err")"
[ -s "$W/native.err" ] && bad "native: stderr: $(head -c 300 "$W/native.err")"

# the same events in upstream Debezium with the other settings, from the native lines
conv() { "$RC" convert -q --from native --to debezium -o debezium.flavor=upstream -o debezium.schemas=true "$@"; }
conv -o debezium.include.unknown.datatypes=true <"$W/native" >"$W/dbz_unknown" 2>"$W/dbz_unknown.err" ||
    bad "convert with include.unknown.datatypes=true failed: $(cat "$W/dbz_unknown.err")"
conv -o debezium.hstore.handling.mode=map <"$W/native" >"$W/dbz_map" 2>"$W/dbz_map.err" ||
    bad "convert with hstore.handling.mode=map failed: $(cat "$W/dbz_map.err")"

# placeholders, in order of appearance in the native lines: LSN texts (and, in the Debezium
# outputs, their decimal values) L1, L2...; xids X1...; times T
perl -e '
  sub v { my ($h, $l) = split m{/}, $_[0]; hex($h) * 2**32 + hex($l) }
  open my $n, "<", $ARGV[0] or die; open my $on, ">", "$ARGV[0].masked" or die;
  while (<$n>) {
    s/"(lsn|checkpoint|last_commit_lsn)":"([0-9A-F]+\/[0-9A-F]+)"/"\"$1\":\"" . ($l{$2} \/\/= "L" . ++$nl) . "\""/ge;
    s/"txid":"(\d+)"/"\"txid\":\"" . ($x{$1} \/\/= "X" . ++$nx) . "\""/ge;
    s/"ts_us":\d+/"ts_us":"T"/; print $on $_ }
  my %d = map { (v($_) => $l{$_}) } keys %l;
  for my $f (@ARGV[1..$#ARGV]) {
    open my $b, "<", $f or die; open my $ob, ">", "$f.masked" or die;
    while (<$b>) {
      s/"(lsn|txId)":(\d+)/"\"$1\":\"" . ($1 eq "lsn" ? $d{$2} \/\/ "L?" : $x{$2} \/\/ "X?") . "\""/ge;
      s/\\"(\d+)\\"/"\\\"" . ($d{$1} \/\/ "L?") . "\\\""/ge;
      s/"(ts_ms|ts_us|ts_ns)":\d+/"\"$1\":\"T\""/ge; print $ob $_ } }' \
  "$W/native" "$W/dbz" "$W/dbz_unknown" "$W/dbz_map"
sed -E "s|$PG_URL|PG_URL|g" "$W/dbz.err" >"$W/dbz.err.masked"
for f in native dbz dbz.err dbz_unknown dbz_map; do
    [ "$postgis" = 1 ] || break
    [ "${RC_UPDATE_GOLDEN:-}" = 1 ] && cp "$W/$f.masked" "$G.$f.golden"
    cmp -s "$G.$f.golden" "$W/$f.masked" ||
        { bad "output differs from $G.$f.golden"; diff <(cut -c1-300 "$G.$f.golden") <(cut -c1-300 "$W/$f.masked") | head -20 >&2; }
done

# the native values are the server's text (SELECT of the same columns)
sel=$(pg_test_sql -F $'\x1f' -c "SELECT ct, citext_array, lt, i, lt_array, e13, hs, hsarr, bvunlimited2 FROM ext WHERE pk = 1")
got=$(grep '"table":"ext"' "$W/native" | head -1 | jq -r '. as $e | ["ct","citext_array","lt","i","lt_array","e13","hs","hsarr","bvunlimited2"]
  | [.[] as $c | $e.columns | map(.name) | index($c) | $e.after[.] | tostring] | join("\u001f")')
[ -n "$sel" ] && [ "$sel" = "$got" ] ||
    { bad "native values differ from SELECT"; diff <(echo "$sel" | tr '\037' '\n') <(echo "$got" | tr '\037' '\n') >&2; }

# a built-in type the connector has no converter for, with include.unknown.datatypes=true: the
# bytes of its text in each binary.handling.mode (postgres_create_tables.ddl:57 unknown_type_table,
# AbstractRecordsProducerTest.java:132 INSERT_UNKNOWN_TYPE_STMT, expected :466-480)
pg_test_sql -c 'CREATE SCHEMA other' -c 'CREATE TABLE other.unknown_type_table (pk serial PRIMARY KEY, tsq tsquery)' \
    -c "INSERT INTO other.unknown_type_table (tsq) VALUES ('fat <-> cat'::tsquery)" >/dev/null || exit 1
"$RC" capture "$PG_URL" --publication p2 --slot s3 --include 'other.*' --snapshot initial_only -q >"$W/tsq" 2>"$W/tsq.err" ||
    bad "capture of other.unknown_type_table failed: $(cat "$W/tsq.err")"
for mode in bytes:J2ZhdCcgPC0+ICdjYXQn base64:J2ZhdCcgPC0+ICdjYXQn hex:2766617427203c2d3e202763617427; do
    got=$(conv -o debezium.include.unknown.datatypes=true -o debezium.binary.handling.mode=${mode%%:*} <"$W/tsq" | jq -r '.payload.after.tsq')
    [ "$got" = "${mode#*:}" ] || bad "tsquery with include.unknown.datatypes=true, binary.handling.mode=${mode%%:*}: $got"
done

[ "$fail" = 0 ] && echo "pg_types_ext: all passed"
exit "$fail"
