/* The type catalog: one row per source column type (docs/types.md).
 *
 * Columns: name, family, value class, value kind, DTS Avro record, java.sql.Types code (as
 * OMS canal writes it), the code real Canal writes (its binlog mapping, RowsLogBuffer.mysqlToJavaType:
 * FLOAT REAL 7, YEAR VARCHAR 12, ENUM INTEGER 4, SET BINARY -2, TINYTEXT/TINYBLOB VARBINARY -3,
 * the other TEXT and BLOB kinds LONGVARBINARY -4, JSON OTHER 1111, NUMERIC DECIMAL 3, BOOL
 * TINYINT -6; as Paimon's all-types Canal capture shows), DRS sqlType code (for
 * MySQL the seed's JDBC-like codes with datetime 94; for PostgreSQL/GaussDB DRS's own codes
 * where the DRS document shows them — smallint 2, boolean 8, character 9, bytea 15, timestamp 16,
 * bit 20, json 22, int4range 42, tstzrange 46 — and java.sql.Types otherwise), MySQL type code, OMS canal mysqlType name, DataWorks column type,
 * __light_type schemaType, Kafka Connect type of the OMS debezium flavour, and the type name
 * DRS writes (mysqlType: the bare MySQL name; columnType: PostgreSQL's formal name).
 *
 * Notes on choices the seeds leave open:
 * - BIGINT signed is "int64" in the OMS canal and DataWorks examples while BIGINT UNSIGNED
 *   (whose values may exceed int64) is "bigint"/"BIGINT"; we follow the examples.
 * - PostgreSQL rows are rowcast's own mapping (docs/types.md); the MySQL code and java
 *   code are the nearest MySQL equivalents so that formats defined for MySQL still work.
 * - YEAR is a Long value written as an Avro DateTime record (as the OMS documentation maps it). */
#include <string.h>
#include "rowcast/types.h"

#define M RC_FAM_MYSQL
#define O RC_FAM_ORACLE
#define P RC_FAM_PG
#define ROWC(name, fam, vc, vk, av, jdbc, canal_jdbc, drs, code, canal, dw, light, connect, drs_type)  \
    {name, fam, RC_VC_##vc, RC_V_##vk, RC_AVRO_##av, jdbc, canal_jdbc, drs, code, canal, dw, light, connect, drs_type}
#define ROW(name, fam, vc, vk, av, jdbc, drs, code, canal, dw, light, connect, drs_type)            \
    ROWC(name, fam, vc, vk, av, jdbc, jdbc, drs, code, canal, dw, light, connect, drs_type)

const rc_type_info rc_type_catalog[] = {
    /* ---- MySQL family: MySQL, MariaDB, OceanBase MySQL tenant ---- */
    ROW("tinyint", M, LONG, INT, INTEGER, -6, -6, 1, "tinyint", "TINYINT", "TINYINT", "int16", "tinyint"),
    ROW("tinyint unsigned", M, LONG, INT, INTEGER, -6, -6, 1, "tinyint", "TINYINT", "TINYINT", "int16", "tinyint"),
    ROW("smallint", M, LONG, INT, INTEGER, 5, 5, 2, "smallint", "SMALLINT", "SMALLINT", "int16", "smallint"),
    ROW("smallint unsigned", M, LONG, INT, INTEGER, 5, 5, 2, "smallint", "SMALLINT", "SMALLINT", "int32", "smallint"),
    ROW("mediumint", M, LONG, INT, INTEGER, 4, 4, 9, "mediumint", "INT", "INT", "int32", "mediumint"),
    ROW("mediumint unsigned", M, LONG, INT, INTEGER, 4, 4, 9, "mediumint", "INT", "INT", "int32", "mediumint"),
    ROW("int", M, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32", "int"),
    ROW("int unsigned", M, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int64", "int"),
    ROW("integer", M, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32", "integer"),
    ROW("integer unsigned", M, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int64", "integer"),
    ROW("bigint", M, LONG, INT, INTEGER, -5, -5, 8, "int64", "INT64", "INT64", "int64", "bigint"),
    ROW("bigint unsigned", M, BIGDECIMAL, UINT, INTEGER, -5, -5, 8, "bigint", "BIGINT", "BIGINT", "string", "bigint"),
    ROWC("year", M, LONG, INT, DATETIME, 91, 12, 91, 13, "year", "YEAR", "YEAR", "int32", "year"),
    ROWC("bool", M, LONG, BOOL, INTEGER, 16, -6, -6, 1, "tinyint", "BOOLEAN", "BOOLEAN", "boolean", "bool"),
    ROWC("boolean", M, LONG, BOOL, INTEGER, 16, -6, -6, 1, "tinyint", "BOOLEAN", "BOOLEAN", "boolean", "boolean"),
    ROW("decimal", M, BIGDECIMAL, DECIMAL, DECIMAL, 3, 3, 246, "decimal", "DECIMAL", "DECIMAL", "string", "decimal"),
    ROW("decimal unsigned", M, BIGDECIMAL, DECIMAL, DECIMAL, 3, 3, 246, "decimal", "DECIMAL", "DECIMAL", "string", "decimal"),
    ROWC("numeric", M, BIGDECIMAL, DECIMAL, DECIMAL, 2, 3, 3, 246, "decimal", "DECIMAL", "DECIMAL", "string", "numeric"),
    ROWC("numeric unsigned", M, BIGDECIMAL, DECIMAL, DECIMAL, 2, 3, 3, 246, "decimal", "DECIMAL", "DECIMAL", "string", "numeric"),
    ROWC("float", M, DOUBLE, FLOAT32, FLOAT, 6, 7, 6, 4, "float", "FLOAT", "FLOAT", "float64", "float"),
    ROWC("float unsigned", M, DOUBLE, FLOAT32, FLOAT, 6, 7, 6, 4, "float", "FLOAT", "FLOAT", "float64", "float"),
    ROW("double", M, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double", "DOUBLE", "DOUBLE", "float64", "double"),
    ROW("double unsigned", M, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double", "DOUBLE", "DOUBLE", "float64", "double"),
    ROW("double precision", M, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double", "DOUBLE", "DOUBLE", "float64", "double precision"),
    ROW("real", M, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double", "DOUBLE", "DOUBLE", "float64", "real"),
    ROW("bit", M, BYTES, BITS, INTEGER, -7, -7, 16, "bit", "BIT", "BIT", "bytes", "bit"),
    ROW("char", M, STRING, TEXT, CHARACTER, 1, 1, 254, "char", "CHAR", "CHAR", "string", "char"),
    ROW("varchar", M, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar", "VARCHAR", "VARCHAR", "string", "varchar"),
    ROWC("tinytext", M, STRING, TEXT, CHARACTER, -1, -3, -1, 252, "tinytext", "TEXT", "TEXT", "string", "tinytext"),
    ROWC("text", M, STRING, TEXT, CHARACTER, -1, -4, -1, 252, "text", "TEXT", "TEXT", "string", "text"),
    ROWC("mediumtext", M, STRING, TEXT, CHARACTER, -1, -4, -1, 252, "mediumtext", "TEXT", "TEXT", "string", "mediumtext"),
    ROWC("longtext", M, STRING, TEXT, CHARACTER, -1, -4, -1, 252, "longtext", "TEXT", "TEXT", "string", "longtext"),
    ROWC("enum", M, STRING, ENUM, TEXT, 1, 4, 1, 247, "enum", "ENUM", "ENUM", "string", "enum"),
    ROWC("set", M, STRING, SET, TEXT, 1, -2, 1, 248, "set", "SET", "SET", "string", "set"),
    ROWC("json", M, STRING, JSON, TEXT, -1, 1111, -1, 245, "json", "JSON", "JSON", "string", "json"),
    ROW("binary", M, BYTES, BYTES, BINARY, -2, -2, 254, "binary", "BINARY", "BINARY", "bytes", "binary"),
    ROW("varbinary", M, BYTES, BYTES, BINARY, -3, -3, 15, "varbinary", "VARBINARY", "VARBINARY", "bytes", "varbinary"),
    ROWC("tinyblob", M, BYTES, BYTES, BINARY, 2004, -3, 2004, 249, "tinyblob", "BLOB", "BLOB", "bytes", "tinyblob"),
    ROWC("blob", M, BYTES, BYTES, BINARY, 2004, -4, 2004, 252, "blob", "BLOB", "BLOB", "bytes", "blob"),
    ROWC("mediumblob", M, BYTES, BYTES, BINARY, 2004, -4, 2004, 250, "mediumblob", "BLOB", "BLOB", "bytes", "mediumblob"),
    ROWC("longblob", M, BYTES, BYTES, BINARY, 2004, -4, 2004, 251, "longblob", "BLOB", "BLOB", "bytes", "longblob"),
    ROW("date", M, DATE, DATE, DATETIME, 91, 91, 10, "date", "DATE", "DATE", "int32", "date"),
    ROW("time", M, TIME, TIME, DATETIME, 92, 92, 11, "time", "TIME", "TIME", "int64", "time"),
    ROW("datetime", M, DATETIME, DATETIME, DATETIME, 93, 94, 12, "datetime", "DATETIME", "DATETIME", "int64", "datetime"),
    ROW("timestamp", M, TIMESTAMP, TIMESTAMP, TIMESTAMP, 93, 93, 7, "timestamp", "TIMESTAMP", "TIMESTAMP", "string", "timestamp"),
    ROW("geometry", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "geometry", "GEOMETRY", "GEOMETRY", "string", "geometry"),
    ROW("point", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "point", "GEOMETRY", "GEOMETRY", "string", "point"),
    ROW("linestring", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "linestring", "GEOMETRY", "GEOMETRY", "string", "linestring"),
    ROW("polygon", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "polygon", "GEOMETRY", "GEOMETRY", "string", "polygon"),
    ROW("multipoint", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "multipoint", "GEOMETRY", "GEOMETRY", "string", "multipoint"),
    ROW("multilinestring", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "multilinestring", "GEOMETRY", "GEOMETRY", "string", "multilinestring"),
    ROW("multipolygon", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "multipolygon", "GEOMETRY", "GEOMETRY", "string", "multipolygon"),
    /* OceanBase types that OMS change records of MySQL tenants carry (OMS documentation, DataWorks
     * example: ZONED_DATETIME, INTERVAL_DAY_TO_SECOND, INTERVAL_YEAR_TO_MONTH) */
    ROW("timestamp with time zone", M, DATETIME, DATETIME, DATETIME, 2014, 2014, 12, "timestamp with time zone", "ZONED_DATETIME", "ZONED_DATETIME", "string", "timestamp with time zone"),
    ROW("interval day to second", M, STRING, INTERVAL, CHARACTER, 12, 12, 15, "interval day to second", "INTERVAL_DAY_TO_SECOND", "INTERVAL_DAY_TO_SECOND", "string", "interval day to second"),
    ROW("interval year to month", M, STRING, INTERVAL, CHARACTER, 12, 12, 15, "interval year to month", "INTERVAL_YEAR_TO_MONTH", "INTERVAL_YEAR_TO_MONTH", "string", "interval year to month"),
    ROW("geometrycollection", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "geometrycollection", "GEOMETRY", "GEOMETRY", "string", "geometrycollection"),
    /* MySQL 8's spelling of geometrycollection (information_schema writes it so) */
    ROW("geomcollection", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "geomcollection", "GEOMETRY", "GEOMETRY", "string", "geomcollection"),
    /* MariaDB's own types (10.5 INET6, 10.7 UUID, 11.3 INET4): fixed binary strings in the binlog
     * (code 254), text values ('::1', the UUID's 36 characters), VARCHAR to the JDBC family as
     * MariaDB Connector/J reports them; MySQL 9's VECTOR (binlog code 242), whose value is the
     * text of its float32 array ("[1.5,-2]": src/sources/mysql/my_value_ext.c) */
    ROW("inet6", M, STRING, TEXT, CHARACTER, 12, 12, 254, "inet6", "VARCHAR", "VARCHAR", "string", "inet6"),
    ROW("inet4", M, STRING, TEXT, CHARACTER, 12, 12, 254, "inet4", "VARCHAR", "VARCHAR", "string", "inet4"),
    ROW("uuid", M, STRING, TEXT, CHARACTER, 12, 12, 254, "uuid", "VARCHAR", "VARCHAR", "string", "uuid"),
    ROW("vector", M, STRING, TEXT, CHARACTER, 12, 12, 242, "vector", "VARCHAR", "VARCHAR", "string", "vector"),

    /* ---- OceanBase Oracle tenant ---- */
    ROW("integer", O, LONG, INT, INTEGER, 4, 4, 8, "integer", "INT64", "INT64", "int64", "integer"),
    ROW("number", O, BIGDECIMAL, DECIMAL, DECIMAL, 2, 2, 246, "number", "DECIMAL", "DECIMAL", "string", "number"),
    ROW("float", O, BIGDECIMAL, DECIMAL, DECIMAL, 6, 6, 246, "float", "DECIMAL", "DECIMAL", "string", "float"),
    ROW("binary_float", O, DOUBLE, FLOAT32, FLOAT, 7, 7, 4, "binary_float", "FLOAT", "FLOAT", "float32", "binary_float"),
    ROW("binary_double", O, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "binary_double", "DOUBLE", "DOUBLE", "float64", "binary_double"),
    ROW("char", O, STRING, TEXT, CHARACTER, 1, 1, 254, "char", "CHAR", "CHAR", "string", "char"),
    ROW("nchar", O, STRING, TEXT, CHARACTER, -15, -15, 254, "nchar", "CHAR", "CHAR", "string", "nchar"),
    ROW("varchar2", O, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar2", "VARCHAR", "VARCHAR", "string", "varchar2"),
    ROW("varchar", O, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar", "VARCHAR", "VARCHAR", "string", "varchar"),
    ROW("nvarchar2", O, STRING, TEXT, CHARACTER, -9, -9, 15, "nvarchar2", "VARCHAR", "VARCHAR", "string", "nvarchar2"),
    ROW("clob", O, STRING, TEXT, CHARACTER, 2005, 2005, 252, "clob", "TEXT", "TEXT", "string", "clob"),
    ROW("nclob", O, STRING, TEXT, CHARACTER, 2011, 2011, 252, "nclob", "TEXT", "TEXT", "string", "nclob"),
    ROW("rowid", O, STRING, TEXT, CHARACTER, -8, -8, 15, "rowid", "VARCHAR", "VARCHAR", "string", "rowid"),
    ROW("urowid", O, STRING, TEXT, CHARACTER, -8, -8, 15, "urowid", "VARCHAR", "VARCHAR", "string", "urowid"),
    ROW("interval year to month", O, STRING, INTERVAL, CHARACTER, 12, 12, 15, "interval year to month", "INTERVAL_YEAR_TO_MONTH", "INTERVAL_YEAR_TO_MONTH", "string", "interval year to month"),
    ROW("interval day to second", O, STRING, INTERVAL, CHARACTER, 12, 12, 15, "interval day to second", "INTERVAL_DAY_TO_SECOND", "INTERVAL_DAY_TO_SECOND", "string", "interval day to second"),
    ROW("blob", O, BYTES, BYTES, BINARY, 2004, 2004, 252, "blob", "BLOB", "BLOB", "bytes", "blob"),
    ROW("bfile", O, BYTES, BYTES, BINARY, -13, -13, 252, "bfile", "BLOB", "BLOB", "bytes", "bfile"),
    ROW("raw", O, BYTES, BYTES, BINARY, -3, -3, 15, "raw", "BLOB", "BLOB", "bytes", "raw"),
    ROW("date", O, DATETIME, DATETIME, DATETIME, 93, 93, 12, "date", "DATETIME", "DATETIME", "int64", "date"),
    ROW("timestamp", O, DATETIME, DATETIME, DATETIME, 93, 93, 12, "timestamp", "DATETIME", "DATETIME", "int64", "timestamp"),
    ROW("timestamp with time zone", O, DATETIME, DATETIME, DATETIME, 2014, 2014, 12, "timestamp with time zone", "ZONED_DATETIME", "ZONED_DATETIME", "string", "timestamp with time zone"),
    ROW("timestamp with local time zone", O, DATETIME, DATETIME, DATETIME, 2014, 2014, 12, "timestamp with local time zone", "ZONED_DATETIME", "ZONED_DATETIME", "string", "timestamp with local time zone"),

    /* ---- PostgreSQL (rowcast's own mapping) ---- */
    ROW("smallint", P, LONG, INT, INTEGER, 5, 2, 2, "smallint", "SMALLINT", "SMALLINT", "int16", "smallint"),
    ROW("int2", P, LONG, INT, INTEGER, 5, 2, 2, "smallint", "SMALLINT", "SMALLINT", "int16", "smallint"),
    ROW("integer", P, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32", "integer"),
    ROW("int", P, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32", "integer"),
    ROW("int4", P, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32", "integer"),
    ROW("bigint", P, LONG, INT, INTEGER, -5, -5, 8, "bigint", "INT64", "INT64", "int64", "bigint"),
    ROW("int8", P, LONG, INT, INTEGER, -5, -5, 8, "bigint", "INT64", "INT64", "int64", "bigint"),
    ROW("numeric", P, BIGDECIMAL, DECIMAL, DECIMAL, 2, 2, 246, "numeric", "DECIMAL", "DECIMAL", "string", "numeric"),
    ROW("decimal", P, BIGDECIMAL, DECIMAL, DECIMAL, 3, 3, 246, "numeric", "DECIMAL", "DECIMAL", "string", "numeric"),
    ROW("real", P, DOUBLE, FLOAT32, FLOAT, 7, 7, 4, "real", "FLOAT", "FLOAT", "float32", "real"),
    ROW("float4", P, DOUBLE, FLOAT32, FLOAT, 7, 7, 4, "real", "FLOAT", "FLOAT", "float32", "real"),
    ROW("double precision", P, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double precision", "DOUBLE", "DOUBLE", "float64", "double precision"),
    ROW("float8", P, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double precision", "DOUBLE", "DOUBLE", "float64", "double precision"),
    ROW("boolean", P, LONG, BOOL, INTEGER, 16, 8, 1, "boolean", "BOOLEAN", "BOOLEAN", "boolean", "boolean"),
    ROW("bool", P, LONG, BOOL, INTEGER, 16, 8, 1, "boolean", "BOOLEAN", "BOOLEAN", "boolean", "boolean"),
    ROW("text", P, STRING, TEXT, CHARACTER, 12, 12, 15, "text", "VARCHAR", "VARCHAR", "string", "text"),
    ROW("varchar", P, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar", "VARCHAR", "VARCHAR", "string", "character varying"),
    ROW("character varying", P, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar", "VARCHAR", "VARCHAR", "string", "character varying"),
    ROW("char", P, STRING, TEXT, CHARACTER, 1, 9, 254, "bpchar", "CHAR", "CHAR", "string", "character"),
    ROW("character", P, STRING, TEXT, CHARACTER, 1, 9, 254, "bpchar", "CHAR", "CHAR", "string", "character"),
    ROW("bpchar", P, STRING, TEXT, CHARACTER, 1, 9, 254, "bpchar", "CHAR", "CHAR", "string", "character"),
    ROW("name", P, STRING, TEXT, CHARACTER, 12, 12, 15, "name", "VARCHAR", "VARCHAR", "string", "name"),
    ROW("uuid", P, STRING, TEXT, CHARACTER, 1111, 1111, 254, "uuid", "VARCHAR", "VARCHAR", "string", "uuid"),
    ROW("xml", P, STRING, TEXT, CHARACTER, 2009, 2009, 252, "xml", "TEXT", "TEXT", "string", "xml"),
    ROW("inet", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "inet", "VARCHAR", "VARCHAR", "string", "inet"),
    ROW("cidr", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "cidr", "VARCHAR", "VARCHAR", "string", "cidr"),
    ROW("macaddr", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "macaddr", "VARCHAR", "VARCHAR", "string", "macaddr"),
    ROW("json", P, STRING, JSON, TEXT, 1111, 22, 245, "json", "JSON", "JSON", "string", "json"),
    ROW("jsonb", P, STRING, JSON, TEXT, 1111, 1111, 245, "jsonb", "JSON", "JSON", "string", "jsonb"),
    ROW("array", P, STRING, TEXT, CHARACTER, 2003, 2003, 252, "array", "VARCHAR", "VARCHAR", "string", "array"),
    ROW("bytea", P, BYTES, BYTES, BINARY, -2, 15, 252, "bytea", "BLOB", "BLOB", "bytes", "bytea"),
    ROW("date", P, DATE, DATE, DATETIME, 91, 91, 10, "date", "DATE", "DATE", "int32", "date"),
    ROW("time", P, TIME, TIME, DATETIME, 92, 92, 11, "time", "TIME", "TIME", "int64", "time without time zone"),
    ROW("time without time zone", P, TIME, TIME, DATETIME, 92, 92, 11, "time", "TIME", "TIME", "int64", "time without time zone"),
    ROW("timestamp", P, DATETIME, DATETIME, DATETIME, 93, 16, 12, "timestamp", "DATETIME", "DATETIME", "int64", "timestamp without time zone"),
    ROW("timestamp without time zone", P, DATETIME, DATETIME, DATETIME, 93, 16, 12, "timestamp", "DATETIME", "DATETIME", "int64", "timestamp without time zone"),
    ROW("timestamptz", P, TIMESTAMP, TIMESTAMP, TIMESTAMP, 2014, 2014, 7, "timestamptz", "TIMESTAMP", "TIMESTAMP", "string", "timestamp with time zone"),
    ROW("timestamp with time zone", P, TIMESTAMP, TIMESTAMP, TIMESTAMP, 2014, 2014, 7, "timestamptz", "TIMESTAMP", "TIMESTAMP", "string", "timestamp with time zone"),
    ROW("bit", P, STRING, TEXT, CHARACTER, -7, 20, 16, "bit", "BIT", "BIT", "string", "bit"),
    ROW("bit varying", P, STRING, TEXT, CHARACTER, -7, -7, 16, "varbit", "BIT", "BIT", "string", "bit varying"),
    ROW("varbit", P, STRING, TEXT, CHARACTER, -7, -7, 16, "varbit", "BIT", "BIT", "string", "bit varying"),
    ROW("int4range", P, STRING, TEXT, CHARACTER, 1111, 42, 15, "int4range", "VARCHAR", "VARCHAR", "string", "int4range"),
    ROW("int8range", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "int8range", "VARCHAR", "VARCHAR", "string", "int8range"),
    ROW("numrange", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "numrange", "VARCHAR", "VARCHAR", "string", "numrange"),
    ROW("tsrange", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "tsrange", "VARCHAR", "VARCHAR", "string", "tsrange"),
    ROW("tstzrange", P, STRING, TEXT, CHARACTER, 1111, 46, 15, "tstzrange", "VARCHAR", "VARCHAR", "string", "tstzrange"),
    ROW("daterange", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "daterange", "VARCHAR", "VARCHAR", "string", "daterange"),
    ROW("interval", P, STRING, INTERVAL, CHARACTER, 1111, 1111, 15, "interval", "VARCHAR", "VARCHAR", "string", "interval"),
    /* The rest of PostgreSQL 15's built-in types, as pgoutput names them
     * (src/sources/pg/pg_value_types.c maps type OIDs to these declarations). jdbc: the
     * java.sql.Types code pgjdbc's TypeInfoCache reports (timetz TIME, money DOUBLE, oid BIGINT,
     * the others OTHER); connect: the Kafka Connect type of the value as rowcast holds it (text
     * for everything but oid). What upstream Debezium writes for each (PostgresValueConverter:
     * ZonedTime, Decimal for money, Point/Geometry/Line/Circle structs, TsVector) is in
     * docs/sources/postgres-types.md. */
    ROW("time with time zone", P, STRING, TEXT, CHARACTER, 92, 92, 15, "timetz", "VARCHAR", "VARCHAR", "string", "time with time zone"),
    ROW("timetz", P, STRING, TEXT, CHARACTER, 92, 92, 15, "timetz", "VARCHAR", "VARCHAR", "string", "time with time zone"),
    ROW("oid", P, LONG, INT, INTEGER, -5, -5, 8, "oid", "INT64", "INT64", "int64", "oid"),
    ROW("money", P, STRING, TEXT, CHARACTER, 8, 8, 15, "money", "VARCHAR", "VARCHAR", "string", "money"),
    ROW("macaddr8", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "macaddr8", "VARCHAR", "VARCHAR", "string", "macaddr8"),
#define PG_TEXT(name) ROW(name, P, STRING, TEXT, CHARACTER, 1111, 1111, 15, name, "VARCHAR", "VARCHAR", "string", name)
    PG_TEXT("point"), PG_TEXT("line"), PG_TEXT("lseg"), PG_TEXT("box"), PG_TEXT("path"), PG_TEXT("polygon"), PG_TEXT("circle"),
    PG_TEXT("tsvector"), PG_TEXT("tsquery"),
    PG_TEXT("int4multirange"), PG_TEXT("int8multirange"), PG_TEXT("nummultirange"), PG_TEXT("tsmultirange"),
    PG_TEXT("tstzmultirange"), PG_TEXT("datemultirange"),
#undef PG_TEXT
    /* enum types: the declaration carries the labels, enum('sad','ok'), as for MySQL */
    ROW("enum", P, STRING, ENUM, TEXT, 1111, 1111, 247, "enum", "ENUM", "ENUM", "string", "enum"),
    /* interval with fields, as format_type() prints the typmod: "interval day to second(3)" */
#define PG_INTERVAL(name) ROW(name, P, STRING, INTERVAL, CHARACTER, 1111, 1111, 15, "interval", "VARCHAR", "VARCHAR", "string", "interval")
    PG_INTERVAL("interval year"), PG_INTERVAL("interval month"), PG_INTERVAL("interval day"), PG_INTERVAL("interval hour"),
    PG_INTERVAL("interval minute"), PG_INTERVAL("interval second"), PG_INTERVAL("interval year to month"),
    PG_INTERVAL("interval day to hour"), PG_INTERVAL("interval day to minute"), PG_INTERVAL("interval day to second"),
    PG_INTERVAL("interval hour to minute"), PG_INTERVAL("interval hour to second"), PG_INTERVAL("interval minute to second"),
#undef PG_INTERVAL
#define PG_EXT(name) ROW(name, P, STRING, TEXT, CHARACTER, 1111, 1111, 15, name, "VARCHAR", "VARCHAR", "string", name)
    /* (last, so that the rows before keep their place in the unit tests' random events)
     * extensions' types, looked up by name (src/sources/pg/pg_value_types.c): contrib's citext,
     * ltree, hstore and isn types, their values the server's text; and "unknown", the row of a
     * type rowcast does not know, which any other single-word PostgreSQL type name parses as
     * (its values their text; docs/sources/postgres.md, "Extension and unknown types") */
    PG_EXT("citext"), PG_EXT("ltree"), PG_EXT("hstore"), PG_EXT("isbn"), PG_EXT("isbn13"), PG_EXT("ismn"),
    PG_EXT("ismn13"), PG_EXT("issn"), PG_EXT("issn13"), PG_EXT("ean13"), PG_EXT("upc"), PG_EXT("unknown"),
    /* PostGIS: the server's text, hex EWKB */
    PG_EXT("geometry"), PG_EXT("geography"),
#undef PG_EXT
    {0},
};

const char *rc_type_by_label(rc_family fam, size_t field, const char *s, size_t n)
{
    const char *first = NULL;
    for (const rc_type_info *t = rc_type_catalog; t->name; t++) {
        const char *label = *(const char *const *)((const char *)t + field);
        if (t->family != fam || !label || strlen(label) != n || memcmp(label, s, n)) continue;
        if (!first) first = t->name;
        size_t k = 0;
        while (k < n && t->name[k] && (t->name[k] == s[k] || (s[k] >= 'A' && s[k] <= 'Z' && t->name[k] == s[k] + ('a' - 'A')))) k++;
        if (k == n && !t->name[k]) return t->name;
    }
    return first;
}

const char *rc_type_in_family(rc_family fam, const char *name)
{
    /* MySQL name, PostgreSQL, Oracle (OceanBase Oracle tenant) */
    static const char *const map[][3] = {{"bigint", "bigint", "integer"},      {"bigint unsigned", "numeric", "number"},
                                         {"decimal", "numeric", "number"},   {"double", "float8", "binary_double"},
                                         {"boolean", "boolean", NULL},       {"json", "json", "clob"},
                                         {"text", "text", "clob"}};
    if (fam == RC_FAM_MYSQL) return name;
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(map[i][0], name)) return map[i][fam == RC_FAM_PG ? 1 : 2] ? map[i][fam == RC_FAM_PG ? 1 : 2] : name;
    return name;
}
