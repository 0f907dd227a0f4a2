/* PostgreSQL value texts -> canonical values: the grammar of the text each type's output
 * function writes (pg_value_text.c), with the settings the PostgreSQL source's connection pins
 * (DateStyle ISO, IntervalStyle postgres, TimeZone UTC, extra_float_digits 3, bytea_output
 * hex). In core, not in the source: the PostgreSQL source reads pgoutput's and COPY's values
 * with it, and the upstream Debezium format re-reads the elements of an array text with it.
 * Which reader a column takes (its type by OID and typmod) is the source's
 * (sources/pg/pg_value.h). */
#ifndef RC_CORE_PG_VALUE_TEXT_H
#define RC_CORE_PG_VALUE_TEXT_H

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

/* Reads the text s[0..n) of a value of column `col` of type `t`. Strings are copied into the
 * arena. A text that is not a value of the type is RC_ERR_VALUE (RC_ERR_RANGE beyond the
 * type's range) whose message names the column, its type and the byte, and whose offset is
 * that byte's offset in s. */
rc_status rc_pg_value_parse(const rc_pg_type *t, const rc_column *col, const char *s, size_t n, rc_arena *a, rc_value *out,
                            rc_error *err);

#endif
