/* Typed column values of the canonical change event. Values are lossless: integers keep
 * 64 bits signed or unsigned, decimals keep their digits and scale, temporal values keep
 * nanoseconds and MySQL's out-of-range TIME, and a value the source could not represent
 * (zero dates) keeps its original text as RC_V_INVALID. String payloads point to memory the
 * event's owner manages (usually an rc_arena). */
#ifndef ROWCAST_VALUE_H
#define ROWCAST_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "rowcast/api.h"

typedef struct rc_str {
    const char *p;
    size_t n;
} rc_str;

#define RC_STR(lit) ((rc_str){(lit), sizeof(lit) - 1})

/* a[0..n) == b[0..n) for the short names of JSON members and columns, inlined where a
 * memcmp call would cost more than the comparison: 8 bytes at a time, then the tail as two
 * overlapping loads (4 to 7 or 2 to 3 bytes) or one byte. */
static inline bool rc_short_eq(const char *a, const char *b, size_t n)
{
    for (; n >= 8; a += 8, b += 8, n -= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8), memcpy(&y, b, 8);
        if (x != y) return false;
    }
    if (n >= 4) {
        uint32_t x0, y0, x1, y1;
        memcpy(&x0, a, 4), memcpy(&y0, b, 4), memcpy(&x1, a + n - 4, 4), memcpy(&y1, b + n - 4, 4);
        return x0 == y0 && x1 == y1;
    }
    if (n >= 2) {
        uint16_t x0, y0, x1, y1;
        memcpy(&x0, a, 2), memcpy(&y0, b, 2), memcpy(&x1, a + n - 2, 2), memcpy(&y1, b + n - 2, 2);
        return x0 == y0 && x1 == y1;
    }
    return !n || *a == *b;
}

typedef enum rc_vkind {
    RC_V_NULL = 0,
    RC_V_BOOL,
    RC_V_INT,      /* i: signed 64-bit */
    RC_V_UINT,     /* u: unsigned 64-bit */
    RC_V_DECIMAL,  /* dec: arbitrary precision */
    RC_V_FLOAT32,  /* f32 */
    RC_V_FLOAT64,  /* f64 */
    RC_V_TEXT,     /* s: UTF-8 text */
    RC_V_BYTES,    /* s: raw bytes */
    RC_V_BITS,     /* u: BIT(n) value, width from the column type */
    RC_V_DATE,     /* date */
    RC_V_TIME,     /* time: may be negative or beyond 24 h (MySQL) */
    RC_V_DATETIME, /* dt: wall-clock date and time, optional zone id */
    RC_V_TIMESTAMP,/* ts: an instant, seconds and nanoseconds since the epoch, UTC */
    RC_V_INTERVAL, /* s: interval text as the source writes it */
    RC_V_JSON,     /* s: JSON document text */
    RC_V_ENUM,     /* s: the label */
    RC_V_SET,      /* s: labels joined by ',' */
    RC_V_GEOMETRY, /* s: WKT / EWKT text */
    RC_V_INVALID,  /* s: a value the source could not represent; the original text */
    RC_V_UNAVAILABLE, /* no payload: the source did not send the value and it is not NULL
                       * (PostgreSQL's unchanged TOAST value); never a column type's kind */
    RC_V_KIND_COUNT
} rc_vkind;

/* value = (neg ? -1 : 1) * digits * 10^-scale; `digits` are ASCII decimal digits without
 * leading zeros ("0" for zero, where `neg` is always false, as in Java BigDecimal). */
typedef struct rc_decimal {
    const char *digits;
    uint32_t ndigits;
    int32_t scale;
    bool neg;
} rc_decimal;

typedef struct rc_date {
    int32_t year; /* 0..9999 */
    uint8_t month, day;
} rc_date;

typedef struct rc_time {
    uint32_t hour; /* may exceed 23 (MySQL allows up to 838) */
    uint8_t minute, second;
    bool neg;
    uint32_t nanos;
} rc_time;

typedef struct rc_datetime {
    int32_t year;
    uint8_t month, day, hour, minute, second;
    uint32_t nanos;
    rc_str zone; /* zone id or offset ("Asia/Shanghai", "+08:00"); n == 0 when none */
} rc_datetime;

typedef struct rc_timestamp {
    int64_t sec; /* seconds since 1970-01-01T00:00:00Z */
    uint32_t nanos;
} rc_timestamp;

typedef struct rc_value {
    rc_vkind kind;
    union {
        bool b;
        int64_t i;
        uint64_t u;
        float f32;
        double f64;
        rc_str s;
        rc_decimal dec;
        rc_date date;
        rc_time time;
        rc_datetime dt;
        rc_timestamp ts;
    };
} rc_value;

RC_API const char *rc_vkind_name(rc_vkind k);

/* Field-by-field equality (floats compared bitwise, so NaN equals itself). */
RC_API bool rc_value_equal(const rc_value *a, const rc_value *b);

#endif
