/* The type catalog: one row per source column type (FORMATS.md §1, §8, §13).
 *
 * Columns: name, family, value class, value kind, DTS Avro record, java.sql.Types code (as
 * OMS canal writes it), the code real Canal writes (FLOAT is REAL, 7), DRS sqlType code, MySQL type code, OMS canal mysqlType name, DataWorks column type,
 * __light_type schemaType, Kafka Connect type of the OMS debezium flavour.
 *
 * Notes on choices the seeds leave open:
 * - BIGINT signed is "int64" in the OMS canal and DataWorks examples while BIGINT UNSIGNED
 *   (whose values may exceed int64) is "bigint"/"BIGINT"; we follow the examples.
 * - PostgreSQL rows are rowcast's own mapping (FORMATS.md §1.3); the MySQL code and java
 *   code are the nearest MySQL equivalents so that formats defined for MySQL still work.
 * - YEAR is a Long value written as an Avro DateTime record (seed 000). */
#include "rowcast/types.h"

#define M RC_FAM_MYSQL
#define O RC_FAM_ORACLE
#define P RC_FAM_PG
#define ROWC(name, fam, vc, vk, av, jdbc, canal_jdbc, drs, code, canal, dw, light, connect)         \
    {name, fam, RC_VC_##vc, RC_V_##vk, RC_AVRO_##av, jdbc, canal_jdbc, drs, code, canal, dw, light, connect}
#define ROW(name, fam, vc, vk, av, jdbc, drs, code, canal, dw, light, connect)                      \
    ROWC(name, fam, vc, vk, av, jdbc, jdbc, drs, code, canal, dw, light, connect)

const rc_type_info rc_type_catalog[] = {
    /* ---- MySQL family: MySQL, MariaDB, OceanBase MySQL tenant ---- */
    ROW("tinyint", M, LONG, INT, INTEGER, -6, -6, 1, "tinyint", "TINYINT", "TINYINT", "int16"),
    ROW("tinyint unsigned", M, LONG, INT, INTEGER, -6, -6, 1, "tinyint", "TINYINT", "TINYINT", "int16"),
    ROW("smallint", M, LONG, INT, INTEGER, 5, 5, 2, "smallint", "SMALLINT", "SMALLINT", "int16"),
    ROW("smallint unsigned", M, LONG, INT, INTEGER, 5, 5, 2, "smallint", "SMALLINT", "SMALLINT", "int32"),
    ROW("mediumint", M, LONG, INT, INTEGER, 4, 4, 9, "mediumint", "INT", "INT", "int32"),
    ROW("mediumint unsigned", M, LONG, INT, INTEGER, 4, 4, 9, "mediumint", "INT", "INT", "int32"),
    ROW("int", M, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32"),
    ROW("int unsigned", M, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int64"),
    ROW("integer", M, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32"),
    ROW("integer unsigned", M, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int64"),
    ROW("bigint", M, LONG, INT, INTEGER, -5, -5, 8, "int64", "INT64", "INT64", "int64"),
    ROW("bigint unsigned", M, BIGDECIMAL, UINT, INTEGER, -5, -5, 8, "bigint", "BIGINT", "BIGINT", "string"),
    ROW("year", M, LONG, INT, DATETIME, 91, 91, 13, "year", "YEAR", "YEAR", "int32"),
    ROW("bool", M, LONG, BOOL, INTEGER, 16, -6, 1, "tinyint", "BOOLEAN", "BOOLEAN", "boolean"),
    ROW("boolean", M, LONG, BOOL, INTEGER, 16, -6, 1, "tinyint", "BOOLEAN", "BOOLEAN", "boolean"),
    ROW("decimal", M, BIGDECIMAL, DECIMAL, DECIMAL, 3, 3, 246, "decimal", "DECIMAL", "DECIMAL", "string"),
    ROW("decimal unsigned", M, BIGDECIMAL, DECIMAL, DECIMAL, 3, 3, 246, "decimal", "DECIMAL", "DECIMAL", "string"),
    ROW("numeric", M, BIGDECIMAL, DECIMAL, DECIMAL, 2, 3, 246, "decimal", "DECIMAL", "DECIMAL", "string"),
    ROW("numeric unsigned", M, BIGDECIMAL, DECIMAL, DECIMAL, 2, 3, 246, "decimal", "DECIMAL", "DECIMAL", "string"),
    ROWC("float", M, DOUBLE, FLOAT32, FLOAT, 6, 7, 7, 4, "float", "FLOAT", "FLOAT", "float64"),
    ROWC("float unsigned", M, DOUBLE, FLOAT32, FLOAT, 6, 7, 7, 4, "float", "FLOAT", "FLOAT", "float64"),
    ROW("double", M, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double", "DOUBLE", "DOUBLE", "float64"),
    ROW("double unsigned", M, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double", "DOUBLE", "DOUBLE", "float64"),
    ROW("double precision", M, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double", "DOUBLE", "DOUBLE", "float64"),
    ROW("real", M, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double", "DOUBLE", "DOUBLE", "float64"),
    ROW("bit", M, BYTES, BITS, INTEGER, -7, -7, 16, "bit", "BIT", "BIT", "bytes"),
    ROW("char", M, STRING, TEXT, CHARACTER, 1, 1, 254, "char", "CHAR", "CHAR", "string"),
    ROW("varchar", M, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar", "VARCHAR", "VARCHAR", "string"),
    ROW("tinytext", M, STRING, TEXT, CHARACTER, -1, -1, 252, "tinytext", "TEXT", "TEXT", "string"),
    ROW("text", M, STRING, TEXT, CHARACTER, -1, -1, 252, "text", "TEXT", "TEXT", "string"),
    ROW("mediumtext", M, STRING, TEXT, CHARACTER, -1, -1, 252, "mediumtext", "TEXT", "TEXT", "string"),
    ROW("longtext", M, STRING, TEXT, CHARACTER, -1, -1, 252, "longtext", "TEXT", "TEXT", "string"),
    ROW("enum", M, STRING, ENUM, TEXT, 1, 1, 247, "enum", "ENUM", "ENUM", "string"),
    ROW("set", M, STRING, SET, TEXT, 1, 1, 248, "set", "SET", "SET", "string"),
    ROW("json", M, STRING, JSON, TEXT, -1, -1, 245, "json", "JSON", "JSON", "string"),
    ROW("binary", M, BYTES, BYTES, BINARY, -2, -2, 254, "binary", "BINARY", "BINARY", "bytes"),
    ROW("varbinary", M, BYTES, BYTES, BINARY, -3, -3, 15, "varbinary", "VARBINARY", "VARBINARY", "bytes"),
    ROW("tinyblob", M, BYTES, BYTES, BINARY, 2004, 2004, 249, "tinyblob", "BLOB", "BLOB", "bytes"),
    ROW("blob", M, BYTES, BYTES, BINARY, 2004, 2004, 252, "blob", "BLOB", "BLOB", "bytes"),
    ROW("mediumblob", M, BYTES, BYTES, BINARY, 2004, 2004, 250, "mediumblob", "BLOB", "BLOB", "bytes"),
    ROW("longblob", M, BYTES, BYTES, BINARY, 2004, 2004, 251, "longblob", "BLOB", "BLOB", "bytes"),
    ROW("date", M, DATE, DATE, DATETIME, 91, 91, 10, "date", "DATE", "DATE", "int32"),
    ROW("time", M, TIME, TIME, DATETIME, 92, 92, 11, "time", "TIME", "TIME", "int64"),
    ROW("datetime", M, DATETIME, DATETIME, DATETIME, 93, 94, 12, "datetime", "DATETIME", "DATETIME", "int64"),
    ROW("timestamp", M, TIMESTAMP, TIMESTAMP, TIMESTAMP, 93, 93, 7, "timestamp", "TIMESTAMP", "TIMESTAMP", "string"),
    ROW("geometry", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "geometry", "GEOMETRY", "GEOMETRY", "string"),
    ROW("point", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "point", "GEOMETRY", "GEOMETRY", "string"),
    ROW("linestring", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "linestring", "GEOMETRY", "GEOMETRY", "string"),
    ROW("polygon", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "polygon", "GEOMETRY", "GEOMETRY", "string"),
    ROW("multipoint", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "multipoint", "GEOMETRY", "GEOMETRY", "string"),
    ROW("multilinestring", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "multilinestring", "GEOMETRY", "GEOMETRY", "string"),
    ROW("multipolygon", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "multipolygon", "GEOMETRY", "GEOMETRY", "string"),
    /* OceanBase types that OMS change records of MySQL tenants carry (seed 000, DataWorks
     * example: ZONED_DATETIME, INTERVAL_DAY_TO_SECOND, INTERVAL_YEAR_TO_MONTH) */
    ROW("timestamp with time zone", M, DATETIME, DATETIME, DATETIME, 2014, 2014, 12, "timestamp with time zone", "ZONED_DATETIME", "ZONED_DATETIME", "string"),
    ROW("interval day to second", M, STRING, INTERVAL, CHARACTER, 12, 12, 15, "interval day to second", "INTERVAL_DAY_TO_SECOND", "INTERVAL_DAY_TO_SECOND", "string"),
    ROW("interval year to month", M, STRING, INTERVAL, CHARACTER, 12, 12, 15, "interval year to month", "INTERVAL_YEAR_TO_MONTH", "INTERVAL_YEAR_TO_MONTH", "string"),
    ROW("geometrycollection", M, STRING, GEOMETRY, GEOMETRY, -2, -2, 255, "geometrycollection", "GEOMETRY", "GEOMETRY", "string"),

    /* ---- OceanBase Oracle tenant (FORMATS.md §1.2) ---- */
    ROW("integer", O, LONG, INT, INTEGER, 4, 4, 8, "integer", "INT64", "INT64", "int64"),
    ROW("number", O, BIGDECIMAL, DECIMAL, DECIMAL, 2, 2, 246, "number", "DECIMAL", "DECIMAL", "string"),
    ROW("float", O, BIGDECIMAL, DECIMAL, DECIMAL, 6, 6, 246, "float", "DECIMAL", "DECIMAL", "string"),
    ROW("binary_float", O, DOUBLE, FLOAT32, FLOAT, 7, 7, 4, "binary_float", "FLOAT", "FLOAT", "float32"),
    ROW("binary_double", O, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "binary_double", "DOUBLE", "DOUBLE", "float64"),
    ROW("char", O, STRING, TEXT, CHARACTER, 1, 1, 254, "char", "CHAR", "CHAR", "string"),
    ROW("nchar", O, STRING, TEXT, CHARACTER, -15, -15, 254, "nchar", "CHAR", "CHAR", "string"),
    ROW("varchar2", O, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar2", "VARCHAR", "VARCHAR", "string"),
    ROW("varchar", O, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar", "VARCHAR", "VARCHAR", "string"),
    ROW("nvarchar2", O, STRING, TEXT, CHARACTER, -9, -9, 15, "nvarchar2", "VARCHAR", "VARCHAR", "string"),
    ROW("clob", O, STRING, TEXT, CHARACTER, 2005, 2005, 252, "clob", "TEXT", "TEXT", "string"),
    ROW("nclob", O, STRING, TEXT, CHARACTER, 2011, 2011, 252, "nclob", "TEXT", "TEXT", "string"),
    ROW("rowid", O, STRING, TEXT, CHARACTER, -8, -8, 15, "rowid", "VARCHAR", "VARCHAR", "string"),
    ROW("urowid", O, STRING, TEXT, CHARACTER, -8, -8, 15, "urowid", "VARCHAR", "VARCHAR", "string"),
    ROW("interval year to month", O, STRING, INTERVAL, CHARACTER, 12, 12, 15, "interval year to month", "INTERVAL_YEAR_TO_MONTH", "INTERVAL_YEAR_TO_MONTH", "string"),
    ROW("interval day to second", O, STRING, INTERVAL, CHARACTER, 12, 12, 15, "interval day to second", "INTERVAL_DAY_TO_SECOND", "INTERVAL_DAY_TO_SECOND", "string"),
    ROW("blob", O, BYTES, BYTES, BINARY, 2004, 2004, 252, "blob", "BLOB", "BLOB", "bytes"),
    ROW("bfile", O, BYTES, BYTES, BINARY, -13, -13, 252, "bfile", "BLOB", "BLOB", "bytes"),
    ROW("raw", O, BYTES, BYTES, BINARY, -3, -3, 15, "raw", "BLOB", "BLOB", "bytes"),
    ROW("date", O, DATETIME, DATETIME, DATETIME, 93, 93, 12, "date", "DATETIME", "DATETIME", "int64"),
    ROW("timestamp", O, DATETIME, DATETIME, DATETIME, 93, 93, 12, "timestamp", "DATETIME", "DATETIME", "int64"),
    ROW("timestamp with time zone", O, DATETIME, DATETIME, DATETIME, 2014, 2014, 12, "timestamp with time zone", "ZONED_DATETIME", "ZONED_DATETIME", "string"),
    ROW("timestamp with local time zone", O, DATETIME, DATETIME, DATETIME, 2014, 2014, 12, "timestamp with local time zone", "ZONED_DATETIME", "ZONED_DATETIME", "string"),

    /* ---- PostgreSQL (FORMATS.md §1.3, rowcast's own mapping) ---- */
    ROW("smallint", P, LONG, INT, INTEGER, 5, 5, 2, "smallint", "SMALLINT", "SMALLINT", "int16"),
    ROW("int2", P, LONG, INT, INTEGER, 5, 5, 2, "smallint", "SMALLINT", "SMALLINT", "int16"),
    ROW("integer", P, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32"),
    ROW("int", P, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32"),
    ROW("int4", P, LONG, INT, INTEGER, 4, 4, 3, "int", "INT", "INT", "int32"),
    ROW("bigint", P, LONG, INT, INTEGER, -5, -5, 8, "bigint", "INT64", "INT64", "int64"),
    ROW("int8", P, LONG, INT, INTEGER, -5, -5, 8, "bigint", "INT64", "INT64", "int64"),
    ROW("numeric", P, BIGDECIMAL, DECIMAL, DECIMAL, 2, 2, 246, "numeric", "DECIMAL", "DECIMAL", "string"),
    ROW("decimal", P, BIGDECIMAL, DECIMAL, DECIMAL, 3, 3, 246, "numeric", "DECIMAL", "DECIMAL", "string"),
    ROW("real", P, DOUBLE, FLOAT32, FLOAT, 7, 7, 4, "real", "FLOAT", "FLOAT", "float32"),
    ROW("float4", P, DOUBLE, FLOAT32, FLOAT, 7, 7, 4, "real", "FLOAT", "FLOAT", "float32"),
    ROW("double precision", P, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double precision", "DOUBLE", "DOUBLE", "float64"),
    ROW("float8", P, DOUBLE, FLOAT64, FLOAT, 8, 8, 5, "double precision", "DOUBLE", "DOUBLE", "float64"),
    ROW("boolean", P, LONG, BOOL, INTEGER, 16, 16, 1, "boolean", "BOOLEAN", "BOOLEAN", "boolean"),
    ROW("bool", P, LONG, BOOL, INTEGER, 16, 16, 1, "boolean", "BOOLEAN", "BOOLEAN", "boolean"),
    ROW("text", P, STRING, TEXT, CHARACTER, 12, 12, 15, "text", "VARCHAR", "VARCHAR", "string"),
    ROW("varchar", P, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar", "VARCHAR", "VARCHAR", "string"),
    ROW("character varying", P, STRING, TEXT, CHARACTER, 12, 12, 15, "varchar", "VARCHAR", "VARCHAR", "string"),
    ROW("char", P, STRING, TEXT, CHARACTER, 1, 1, 254, "bpchar", "CHAR", "CHAR", "string"),
    ROW("character", P, STRING, TEXT, CHARACTER, 1, 1, 254, "bpchar", "CHAR", "CHAR", "string"),
    ROW("bpchar", P, STRING, TEXT, CHARACTER, 1, 1, 254, "bpchar", "CHAR", "CHAR", "string"),
    ROW("name", P, STRING, TEXT, CHARACTER, 12, 12, 15, "name", "VARCHAR", "VARCHAR", "string"),
    ROW("uuid", P, STRING, TEXT, CHARACTER, 1111, 1111, 254, "uuid", "VARCHAR", "VARCHAR", "string"),
    ROW("xml", P, STRING, TEXT, CHARACTER, 2009, 2009, 252, "xml", "TEXT", "TEXT", "string"),
    ROW("inet", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "inet", "VARCHAR", "VARCHAR", "string"),
    ROW("cidr", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "cidr", "VARCHAR", "VARCHAR", "string"),
    ROW("macaddr", P, STRING, TEXT, CHARACTER, 1111, 1111, 15, "macaddr", "VARCHAR", "VARCHAR", "string"),
    ROW("json", P, STRING, JSON, TEXT, 1111, 1111, 245, "json", "JSON", "JSON", "string"),
    ROW("jsonb", P, STRING, JSON, TEXT, 1111, 1111, 245, "jsonb", "JSON", "JSON", "string"),
    ROW("array", P, STRING, TEXT, CHARACTER, 2003, 2003, 252, "array", "VARCHAR", "VARCHAR", "string"),
    ROW("bytea", P, BYTES, BYTES, BINARY, -2, -2, 252, "bytea", "BLOB", "BLOB", "bytes"),
    ROW("date", P, DATE, DATE, DATETIME, 91, 91, 10, "date", "DATE", "DATE", "int32"),
    ROW("time", P, TIME, TIME, DATETIME, 92, 92, 11, "time", "TIME", "TIME", "int64"),
    ROW("time without time zone", P, TIME, TIME, DATETIME, 92, 92, 11, "time", "TIME", "TIME", "int64"),
    ROW("timestamp", P, DATETIME, DATETIME, DATETIME, 93, 93, 12, "timestamp", "DATETIME", "DATETIME", "int64"),
    ROW("timestamp without time zone", P, DATETIME, DATETIME, DATETIME, 93, 93, 12, "timestamp", "DATETIME", "DATETIME", "int64"),
    ROW("timestamptz", P, TIMESTAMP, TIMESTAMP, TIMESTAMP, 2014, 2014, 7, "timestamptz", "TIMESTAMP", "TIMESTAMP", "string"),
    ROW("timestamp with time zone", P, TIMESTAMP, TIMESTAMP, TIMESTAMP, 2014, 2014, 7, "timestamptz", "TIMESTAMP", "TIMESTAMP", "string"),
    ROW("interval", P, STRING, INTERVAL, CHARACTER, 1111, 1111, 15, "interval", "VARCHAR", "VARCHAR", "string"),
    {0},
};
