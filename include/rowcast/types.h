/* The type catalog: one table, one row per source column type, and the parser of declared
 * types such as `decimal(10,2) unsigned` or `timestamp(6) with time zone`.
 *
 * Encoders read what they need about a column (value class, java.sql.Types code, MySQL type
 * code, per-format type names) from its row; nobody switches over type names in an encoder. */
#ifndef ROWCAST_TYPES_H
#define ROWCAST_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/api.h"
#include "rowcast/error.h"
#include "rowcast/value.h"

/* Which type system a declaration belongs to. */
typedef enum rc_family { RC_FAM_MYSQL = 0, RC_FAM_ORACLE, RC_FAM_PG, RC_FAM_COUNT } rc_family;

/* Value classes (docs/formats/oms-values.md): how the OMS family renders a value. */
typedef enum rc_vclass {
    RC_VC_LONG = 0,
    RC_VC_BIGDECIMAL,
    RC_VC_DOUBLE,
    RC_VC_STRING,
    RC_VC_BYTES,
    RC_VC_DATE,
    RC_VC_TIME,
    RC_VC_DATETIME,
    RC_VC_TIMESTAMP,
    RC_VC_COUNT
} rc_vclass;

/* Record of the DTS Avro schema a value is written as (docs/formats/oms-avro.md). */
typedef enum rc_avro_rec {
    RC_AVRO_INTEGER = 0,
    RC_AVRO_FLOAT,
    RC_AVRO_DECIMAL,
    RC_AVRO_CHARACTER,
    RC_AVRO_BINARY,
    RC_AVRO_TIMESTAMP,
    RC_AVRO_DATETIME,
    RC_AVRO_TEXT,
    RC_AVRO_GEOMETRY,
} rc_avro_rec;

typedef struct rc_type_info {
    const char *name;       /* canonical lower-case name, e.g. "bigint unsigned" */
    uint8_t family;         /* rc_family */
    uint8_t vclass;         /* rc_vclass */
    uint8_t vkind;          /* rc_vkind a non-null value of this type has */
    uint8_t avro;           /* rc_avro_rec */
    int16_t jdbc;           /* java.sql.Types code (OMS canal sqlType) */
    int16_t canal_jdbc;     /* sqlType real Canal writes: its binlog mapping (FLOAT REAL 7, TEXT -4, ENUM 4, ...) */
    int16_t drs_sqltype;    /* sqlType code DRS json writes (Huawei DRS «JSON格式»; docs/formats/drs-json.md) */
    int16_t mysql_code;     /* MySQL column type code (DTS Avro dataTypeNumber) */
    const char *canal_type; /* Canal/DRS mysqlType name */
    const char *dataworks;  /* DataWorks column type */
    const char *light_type; /* defaultextendcolumntype __light_type schemaType */
    const char *connect;    /* Kafka Connect schema type in the OMS debezium flavour */
    const char *drs_type;   /* DRS mysqlType / columnType name (no length or precision) */
} rc_type_info;

/* A parsed column type declaration. */
typedef struct rc_coltype {
    const rc_type_info *info;
    int32_t p1;       /* length / precision / fractional-second digits, -1 if not given */
    int32_t p2;       /* scale, -1 if not given */
    bool is_unsigned; /* `unsigned` was declared (also reflected in info) */
    bool zerofill;
    rc_str charset;   /* `character set X` / `charset X`, n == 0 if not given */
    rc_str labels;    /* enum/set: the text inside the parentheses, quotes included */
    rc_str decl;      /* the declaration as given */
} rc_coltype;

/* The catalog rows, terminated by an entry with name == NULL. */
RC_API extern const rc_type_info rc_type_catalog[];

/* A type of family `fam` whose label field (at byte offset `field` in rc_type_info, e.g.
 * offsetof(rc_type_info, light_type)) is s[0..n): the type of that very name when there is one
 * (INT is int, not mediumint), else the first in catalog order (INT64 is bigint, BIGINT
 * bigint unsigned); NULL when none. For reading formats that name types by such labels. */
RC_API const char *rc_type_by_label(rc_family fam, size_t field, const char *s, size_t n);

/* For readers that infer column types from JSON values, named as MySQL types (bigint, bigint
 * unsigned, decimal, double, boolean, json, text): the type of family `fam` that holds the
 * same values (PostgreSQL int8, numeric, float8...; Oracle integer, number, binary_double,
 * clob); `name` itself for MySQL and where the family has none. */
RC_API const char *rc_type_in_family(rc_family fam, const char *name);

/* Looks a type up by family and canonical name (case-insensitive); NULL if unknown. */
RC_API const rc_type_info *rc_type_lookup(rc_family fam, const char *name, size_t n);

/* Parses a declaration. `s` must stay valid as long as `out` is used (rc_str fields point
 * into it). Errors name the byte offset inside `s`. */
RC_API rc_status rc_coltype_parse(rc_family fam, const char *s, size_t n, rc_coltype *out, rc_error *err);

/* Number of labels of an enum/set type and the i-th label (unquoted, with '' escapes left
 * as they are). Returns false when i is out of range. */
RC_API bool rc_coltype_label(const rc_coltype *t, unsigned i, rc_str *label);
/* The labels in order: *pos 0 before the first; false after the last. */
RC_API bool rc_coltype_label_next(const rc_coltype *t, size_t *pos, rc_str *label);

RC_API const char *rc_family_name(rc_family f);

/* Parsed declarations cached by (family, text), so that a decoder does not re-parse the same
 * column types for every message. Returned types point into the cache (or, once it is three
 * quarters full, into the arena given): entries are never evicted, so a type stays valid as
 * long as the cache, or the arena, does. */
typedef struct rc_type_cache rc_type_cache;
struct rc_arena;
RC_API rc_type_cache *rc_type_cache_new(void);
RC_API void rc_type_cache_free(rc_type_cache *c);
/* `off` is the byte offset of the declaration in the message, for errors. */
RC_API rc_status rc_type_cache_get(rc_type_cache *c, struct rc_arena *a, rc_family fam, const char *s, size_t n, size_t off,
                                   const rc_coltype **out, rc_error *err);

#endif
