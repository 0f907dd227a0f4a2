/* PostgreSQL column types and text values -> rowcast's canonical column types and values
 * (docs/sources/postgres-types.md).
 *
 * pgoutput describes a column by its type OID and typmod and sends each value as the text
 * the type's output function writes, in the walsender session's settings, which the
 * connection pins: DateStyle ISO, IntervalStyle postgres, TimeZone UTC, extra_float_digits 3,
 * bytea_output hex.
 * rc_pg_type_resolve turns (OID, typmod) into the declaration PostgreSQL's format_type()
 * prints ("numeric(10,2)", "timestamp(3) with time zone", "integer[]"), parsed against the
 * type catalog as every decoder fills a column, plus the reader its values need;
 * rc_pg_value_parse reads one value text exactly (numbers never pass through a double
 * unless the column is a float).
 *
 * Built-in types have fixed OIDs (the table in pg_value_types.c, PostgreSQL 15's pg_type.dat).
 * Enum and domain types, and arrays of them, get their OIDs when created: the connection
 * looks them up in pg_type and registers them in an rc_pg_types, the cache resolve reads. */
#ifndef RC_SOURCES_PG_VALUE_H
#define RC_SOURCES_PG_VALUE_H

#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/error.h"
#include "rowcast/event.h"

/* How the text values of a column are read (chosen by rc_pg_type_resolve). */
typedef enum rc_pg_reader {
    RC_PG_R_INT = 0,   /* int2/int4/int8/oid: RC_V_INT */
    RC_PG_R_NUMERIC,   /* RC_V_DECIMAL; NaN, Infinity, -Infinity: RC_V_INVALID with the text */
    RC_PG_R_FLOAT4,    /* RC_V_FLOAT32 */
    RC_PG_R_FLOAT8,    /* RC_V_FLOAT64 */
    RC_PG_R_BOOL,      /* t / f */
    RC_PG_R_TEXT,      /* any text, kept as it is (RC_V_TEXT) */
    RC_PG_R_BYTEA,     /* \x hex -> RC_V_BYTES */
    RC_PG_R_DATE,      /* RC_V_DATE (astronomical year: 44 BC is -43); ±infinity: RC_V_INVALID */
    RC_PG_R_TIME,      /* RC_V_TIME, 00:00:00 to 24:00:00 */
    RC_PG_R_TIMETZ,    /* RC_V_TEXT, checked: 12:00:00+05:30 */
    RC_PG_R_TIMESTAMP, /* RC_V_DATETIME; ±infinity: RC_V_INVALID */
    RC_PG_R_TIMESTAMPTZ, /* RC_V_TIMESTAMP (UTC instant); ±infinity: RC_V_INVALID */
    RC_PG_R_INTERVAL,  /* RC_V_INTERVAL, the text as the server writes it, checked */
    RC_PG_R_JSON,      /* RC_V_JSON, the document text */
    RC_PG_R_UUID,      /* RC_V_TEXT, checked: 8-4-4-4-12 lower-case hex */
    RC_PG_R_BITS,      /* RC_V_TEXT, checked: '0'/'1' digits, as many as bit(n) declares */
    RC_PG_R_ENUM,      /* RC_V_ENUM, the label */
    RC_PG_R_ARRAY,     /* RC_V_TEXT, the array literal, its structure and elements checked */
    RC_PG_R_COUNT
} rc_pg_reader;

/* A resolved column type: what a decoder puts in rc_column.type, and how values are read. */
typedef struct rc_pg_type {
    rc_coltype type;     /* decl points into the arena given to rc_pg_type_resolve */
    rc_pg_reader reader;
    int32_t width;       /* bit(n): n (values must have exactly n digits); -1 otherwise */
    char delim;          /* arrays: the element delimiter (';' for box, ',' for every other type) */
    rc_pg_reader elem_reader; /* arrays: how each element's text is checked */
    int32_t elem_width;       /* arrays of bit(n): n; -1 otherwise */
} rc_pg_type;

/* The enum, domain and array types of one database, by OID (registered by the connection
 * from pg_type). Entries are replaced by a new registration of the same OID. */
typedef struct rc_pg_types rc_pg_types;
rc_pg_types *rc_pg_types_new(void);
void rc_pg_types_free(rc_pg_types *r);
/* `labels`: the enum's labels in sort order, each label[i] of label_len[i] bytes. */
rc_status rc_pg_types_add_enum(rc_pg_types *r, uint32_t oid, uint32_t nlabels, const char *const *labels, const size_t *label_len,
                               rc_error *err);
/* A domain over `base_oid` with the domain's typmod (pg_type.typbasetype, typtypmod). */
rc_status rc_pg_types_add_domain(rc_pg_types *r, uint32_t oid, uint32_t base_oid, int32_t base_typmod, rc_error *err);
/* An array type whose element type is `elem_oid` (pg_type.typelem of a typcategory 'A' type). */
rc_status rc_pg_types_add_array(rc_pg_types *r, uint32_t oid, uint32_t elem_oid, rc_error *err);
/* Forgets what is known about `oid` (a Type message announced a change). */
void rc_pg_types_forget(rc_pg_types *r, uint32_t oid);

/* The column type of (oid, typmod), typmod -1 when the column has none. `reg` may be NULL
 * (built-in types only). An OID neither built in nor registered is RC_ERR_TYPE naming it. */
rc_status rc_pg_type_resolve(const rc_pg_types *reg, uint32_t oid, int32_t typmod, rc_arena *a, rc_pg_type *out, rc_error *err);

/* Reads the text s[0..n) of a value of column `col` of type `t`. Strings are copied into the
 * arena. A text that is not a value of the type is RC_ERR_VALUE (RC_ERR_RANGE beyond the
 * type's range) whose message names the column, its type and the byte, and whose offset is
 * that byte's offset in s. */
rc_status rc_pg_value_parse(const rc_pg_type *t, const rc_column *col, const char *s, size_t n, rc_arena *a, rc_value *out,
                            rc_error *err);

#endif
