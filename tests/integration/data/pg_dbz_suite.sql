-- The tables of Debezium's PostgreSQL connector suite (debezium/debezium,
-- debezium-connector-postgres/src/test/resources/postgres_create_tables.ddl and
-- postgis_create_tables.ddl; time_array_table and macaddr8_table from RecordsSnapshotProducerIT /
-- RecordsStreamProducerIT), as PostgreSQL 15 with Debian's contrib creates them. PostGIS's tables
-- are in pg_dbz_suite_postgis.sql. Skipped (no values asserted in AbstractRecordsProducerTest):
-- not_null_table, table_without_pk.
CREATE EXTENSION citext; CREATE EXTENSION hstore; CREATE EXTENSION ltree; CREATE EXTENSION isn;
CREATE TABLE numeric_table (pk SERIAL, si SMALLINT, i INTEGER, bi BIGINT, r REAL, db DOUBLE PRECISION,
  r_int REAL, db_int DOUBLE PRECISION, r_nan REAL, db_nan DOUBLE PRECISION, r_pinf REAL, db_pinf DOUBLE PRECISION,
  r_ninf REAL, db_ninf DOUBLE PRECISION, ss SMALLSERIAL, bs BIGSERIAL, b BOOLEAN, o OID, PRIMARY KEY(pk));
CREATE TABLE numeric_decimal_table (pk SERIAL,
  d DECIMAL(3,2), dzs DECIMAL(4), dvs DECIMAL, d_nn DECIMAL(3,2) NOT NULL, n NUMERIC(6,4), nzs NUMERIC(4), nvs NUMERIC,
  d_int DECIMAL(3,2), dzs_int DECIMAL(4), dvs_int DECIMAL, n_int NUMERIC(6,4), nzs_int NUMERIC(4), nvs_int NUMERIC,
  d_nan DECIMAL(3,2), dzs_nan DECIMAL(4), dvs_nan DECIMAL, n_nan NUMERIC(6,4), nzs_nan NUMERIC(4), nvs_nan NUMERIC,
  PRIMARY KEY(pk));
CREATE TABLE string_table (pk SERIAL, vc VARCHAR(2), vcv CHARACTER VARYING(2), ch CHARACTER(4), c CHAR(3), t TEXT,
  b BYTEA, bnn BYTEA NOT NULL, ct CITEXT, PRIMARY KEY(pk));
CREATE TABLE network_address_table (pk SERIAL, i INET, PRIMARY KEY(pk));
CREATE TABLE cidr_network_address_table (pk SERIAL, i CIDR, PRIMARY KEY(pk));
CREATE TABLE macaddr_table (pk SERIAL, m MACADDR, PRIMARY KEY(pk));
CREATE TABLE macaddr8_table (pk SERIAL, m MACADDR8, PRIMARY KEY(pk));
CREATE TABLE cash_table (pk SERIAL, csh MONEY, PRIMARY KEY(pk));
CREATE TABLE bitbin_table (pk SERIAL, ba BYTEA, bol BIT(1), bol2 BIT, bs BIT(2), bs7 BIT(7), bv1 BIT VARYING(1),
  bv BIT VARYING(2), bv2 BIT VARYING(24), bvl BIT VARYING(64), bvunlimited1 BIT VARYING, bvunlimited2 BIT VARYING, PRIMARY KEY(pk));
CREATE TABLE bytea_binmode_table (pk SERIAL, ba BYTEA, bytea_array BYTEA[], PRIMARY KEY(pk));
CREATE TABLE time_table (pk SERIAL, ts TIMESTAMP, tsneg TIMESTAMP(6) WITHOUT TIME ZONE, ts_ms TIMESTAMP(3), ts_us TIMESTAMP(6),
  tz TIMESTAMPTZ, date DATE, date_pinf DATE, date_ninf DATE, ti TIME, tip TIME(3), ttf TIME,
  ttz TIME WITH TIME ZONE, tptz TIME(3) WITH TIME ZONE, it INTERVAL, tsp TIMESTAMP (0) WITH TIME ZONE,
  ts_large TIMESTAMP, ts_large_us TIMESTAMP(6), ts_large_ms TIMESTAMP(3), tz_large TIMESTAMPTZ,
  ts_max TIMESTAMP(6), ts_min TIMESTAMP(6), tz_max TIMESTAMPTZ, tz_min TIMESTAMPTZ,
  ts_pinf TIMESTAMP(6), ts_ninf TIMESTAMP(6), tz_pinf TIMESTAMPTZ, tz_ninf TIMESTAMPTZ, tz_zero TIMESTAMP WITH TIME ZONE,
  PRIMARY KEY(pk));
CREATE TABLE time_array_table (pk SERIAL, timea time[] NOT NULL, timetza timetz[] NOT NULL,
  timestampa timestamp[] NOT NULL, timestamptza timestamptz[] NOT NULL, PRIMARY KEY(pk));
CREATE TABLE text_table (pk SERIAL, j JSON, jb JSONB, x XML, u Uuid, PRIMARY KEY(pk));
CREATE TABLE geom_table (pk SERIAL, p POINT, PRIMARY KEY(pk));
CREATE TABLE range_table (pk SERIAL, unbounded_exclusive_tsrange TSRANGE, bounded_inclusive_tsrange TSRANGE,
  unbounded_exclusive_tstzrange TSTZRANGE, bounded_inclusive_tstzrange TSTZRANGE, unbounded_exclusive_daterange DATERANGE,
  bounded_exclusive_daterange DATERANGE, int4_number_range INT4RANGE, numerange NUMRANGE, int8_number_range INT8RANGE, PRIMARY KEY(pk));
CREATE TABLE array_table (pk SERIAL, int_array INT[], bigint_array BIGINT[], text_array TEXT[], char_array CHAR(10)[],
  varchar_array VARCHAR(10)[], date_array DATE[], numeric_array NUMERIC(10, 2)[], varnumeric_array NUMERIC[3],
  citext_array CITEXT[], inet_array INET[], cidr_array CIDR[], macaddr_array MACADDR[], tsrange_array TSRANGE[],
  tstzrange_array TSTZRANGE[], daterange_array DATERANGE[], int4range_array INT4RANGE[], numerange_array NUMRANGE[],
  int8range_array INT8RANGE[], uuid_array UUID[], json_array json[], jsonb_array jsonb[], oid_array OID[], PRIMARY KEY(pk));
CREATE TABLE array_table_with_nulls (pk SERIAL, int_array INT[], bigint_array BIGINT[], text_array TEXT[], char_array CHAR(10)[],
  varchar_array VARCHAR(10)[], date_array DATE[], numeric_array NUMERIC(10, 2)[], varnumeric_array NUMERIC[3],
  citext_array CITEXT[], inet_array INET[], cidr_array CIDR[], macaddr_array MACADDR[], tsrange_array TSRANGE[],
  tstzrange_array TSTZRANGE[], daterange_array DATERANGE[], int4range_array INT4RANGE[], numerange_array NUMRANGE[],
  int8range_array INT8RANGE[], uuid_array UUID[], json_array json[], jsonb_array jsonb[], PRIMARY KEY(pk));
CREATE TABLE custom_table (pk serial, lt ltree, i isbn NOT NULL, n TEXT, lt_array ltree[], PRIMARY KEY(pk));
CREATE TABLE hstore_table (pk serial, hs hstore, PRIMARY KEY(pk));
CREATE TABLE hstore_table_mul (pk serial, hs hstore, hsarr hstore[], PRIMARY KEY(pk));
CREATE TABLE hstore_table_with_null (pk serial, hs hstore, PRIMARY KEY(pk));
CREATE TABLE hstore_table_with_special (pk serial, hs hstore, PRIMARY KEY(pk));
-- in schemas of their own, captured only with the settings whose rows they hold: NaN and Infinity
-- (INSERT_NUMERIC_DECIMAL_TYPES_STMT, ..._WITH_INFINITY) stop Debezium in decimal.handling.mode
-- precise; tsquery is written only with include.unknown.datatypes=true
CREATE SCHEMA nan; CREATE TABLE nan.numeric_decimal_table (LIKE public.numeric_decimal_table INCLUDING ALL EXCLUDING DEFAULTS);
CREATE SEQUENCE nan.pk OWNED BY nan.numeric_decimal_table.pk; ALTER TABLE nan.numeric_decimal_table ALTER pk SET DEFAULT nextval('nan.pk');
CREATE SCHEMA unk; CREATE TABLE unk.unknown_type_table (pk serial, tsq tsquery, PRIMARY KEY(pk));
CREATE SCHEMA "Quoted_"" . Schema";
CREATE TABLE "Quoted_"" . Schema"."Quoted_"" . Table" (pk SERIAL, "Quoted_"" . Text_Column" TEXT, PRIMARY KEY(pk));
-- RecordsStreamProducerIT.shouldStreamValuesForAliasLikeBaseTypes: a domain over each base type
CREATE SCHEMA alias; SET search_path = alias, public;
CREATE DOMAIN bit2 AS BIT(3); CREATE DOMAIN smallint2 AS smallint; CREATE DOMAIN integer2 as integer;
CREATE DOMAIN bigint2 as bigint; CREATE DOMAIN real2 as real; CREATE DOMAIN bool2 AS BOOL DEFAULT false;
CREATE DOMAIN float82 as float8; CREATE DOMAIN numeric2 as numeric(6,2); CREATE DOMAIN string2 AS varchar(25) DEFAULT NULL;
CREATE DOMAIN date2 AS date; CREATE DOMAIN time2 as time; CREATE DOMAIN timetz2 as timetz; CREATE DOMAIN timestamp2 as timestamp;
CREATE DOMAIN timestamptz2 AS timestamptz; CREATE DOMAIN timewotz2 as time without time zone; CREATE DOMAIN box2 as box;
CREATE DOMAIN circle2 as circle; CREATE DOMAIN interval2 as interval; CREATE DOMAIN line2 as line; CREATE DOMAIN lseg2 as lseg;
CREATE DOMAIN path2 as path; CREATE DOMAIN point2 as point; CREATE DOMAIN polygon2 as polygon; CREATE DOMAIN char2 as char;
CREATE DOMAIN text2 as text; CREATE DOMAIN json2 as json; CREATE DOMAIN xml2 as xml; CREATE DOMAIN uuid2 as uuid;
CREATE DOMAIN varbit2 as varbit(3); CREATE DOMAIN inet2 as inet; CREATE DOMAIN cidr2 as cidr; CREATE DOMAIN macaddr2 as macaddr;
CREATE TABLE alias_table (pk SERIAL, PRIMARY KEY (pk),
  bit_base bit(3) NOT NULL, bit_alias bit2 NOT NULL, smallint_base smallint NOT NULL, smallint_alias smallint2 NOT NULL,
  integer_base integer NOT NULL, integer_alias integer2 NOT NULL, bigint_base bigint NOT NULL, bigint_alias bigint2 NOT NULL,
  real_base real NOT NULL, real_alias real2 NOT NULL, float8_base float8 NOT NULL, float8_alias float82 NOT NULL,
  numeric_base numeric(6,2) NOT NULL, numeric_alias numeric2 NOT NULL, bool_base bool NOT NULL, bool_alias bool2 NOT NULL,
  string_base varchar(25) NOT NULL, string_alias string2 NOT NULL, date_base date NOT NULL, date_alias date2 NOT NULL,
  time_base time NOT NULL, time_alias time2 NOT NULL, timetz_base timetz NOT NULL, timetz_alias timetz2 NOT NULL,
  timestamp_base timestamp NOT NULL, timestamp_alias timestamp2 NOT NULL, timestamptz_base timestamptz NOT NULL,
  timestamptz_alias timestamptz2 NOT NULL, timewottz_base time without time zone NOT NULL, timewottz_alias timewotz2 NOT NULL,
  box_base box NOT NULL, box_alias box2 NOT NULL, circle_base circle NOT NULL, circle_alias circle2 NOT NULL,
  interval_base interval NOT NULL, interval_alias interval2 NOT NULL, line_base line NOT NULL, line_alias line2 NOT NULL,
  lseg_base lseg NOT NULL, lseg_alias lseg2 NOT NULL, path_base path NOT NULL, path_alias path2 NOT NULL,
  point_base point NOT NULL, point_alias point2 NOT NULL, polygon_base polygon NOT NULL, polygon_alias polygon2 NOT NULL,
  char_base char NOT NULL, char_alias char2 NOT NULL, text_base text NOT NULL, text_alias text2 NOT NULL,
  json_base json NOT NULL, json_alias json2 NOT NULL, xml_base xml NOT NULL, xml_alias xml2 NOT NULL,
  uuid_base UUID NOT NULL, uuid_alias uuid2 NOT NULL, varbit_base varbit(3) NOT NULL, varbit_alias varbit2 NOT NULL,
  inet_base inet NOT NULL, inet_alias inet2 NOT NULL, cidr_base cidr NOT NULL, cidr_alias cidr2 NOT NULL,
  macaddr_base macaddr NOT NULL, macaddr_alias macaddr2 NOT NULL);
RESET search_path;
-- RecordsStreamProducerIT.shouldPropagateSourceTypeByDatatype's table (the IT creates it)
CREATE TABLE public.test_table (id SERIAL, c1 INT, c2 INT, c3a NUMERIC(5,2), c3b VARCHAR(128), f1 float(10), f2 decimal(8,4), primary key (id));
