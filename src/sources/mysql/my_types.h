/* MySQL/MariaDB binlog column types and the column description that the row-image decoder
 * (my_value.h), the event decoder (my_decoder.h) and the schema history (my_schema.h) share.
 * The type codes are MySQL's enum_field_types as TABLE_MAP events write them. */
#ifndef ROWCAST_MY_TYPES_H
#define ROWCAST_MY_TYPES_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "rowcast/arena.h"
#include "rowcast/error.h"
#include "rowcast/types.h"
#include "rowcast/value.h"

enum rc_my_type {
    RC_MY_DECIMAL = 0, /* old DECIMAL (before 5.0): not written by any server this reads */
    RC_MY_TINY = 1,
    RC_MY_SHORT = 2,
    RC_MY_LONG = 3,
    RC_MY_FLOAT = 4,
    RC_MY_DOUBLE = 5,
    RC_MY_NULL = 6,
    RC_MY_TIMESTAMP = 7,
    RC_MY_LONGLONG = 8,
    RC_MY_INT24 = 9,
    RC_MY_DATE = 10,
    RC_MY_TIME = 11,
    RC_MY_DATETIME = 12,
    RC_MY_YEAR = 13,
    RC_MY_NEWDATE = 14,
    RC_MY_VARCHAR = 15,
    RC_MY_BIT = 16,
    RC_MY_TIMESTAMP2 = 17,
    RC_MY_DATETIME2 = 18,
    RC_MY_TIME2 = 19,
    RC_MY_TYPED_ARRAY = 20,
    RC_MY_VECTOR = 242,
    RC_MY_INVALID = 243,
    RC_MY_BOOL = 244,
    RC_MY_JSON = 245,
    RC_MY_NEWDECIMAL = 246,
    RC_MY_ENUM = 247,
    RC_MY_SET = 248,
    RC_MY_TINY_BLOB = 249,
    RC_MY_MEDIUM_BLOB = 250,
    RC_MY_LONG_BLOB = 251,
    RC_MY_BLOB = 252,
    RC_MY_VAR_STRING = 253,
    RC_MY_STRING = 254,
    RC_MY_GEOMETRY = 255,
};

enum { RC_MY_COLLATION_BINARY = 63 };

/* Unsigned integer of n (0..8) bytes, little-endian (integers, lengths, event fields) or
 * big-endian (the packed temporal and decimal layouts, BIT). */
static inline uint64_t rc_my_le(const uint8_t *p, unsigned n)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* one load for the common sizes (integers, lengths): the byte loop was a tenth of a row's
     * integer decoding */
    if (n == 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        return w;
    }
    if (n == 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        return w;
    }
    if (n == 2) {
        uint16_t w;
        memcpy(&w, p, 2);
        return w;
    }
#endif
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) v = v << 8 | p[i];
    return v;
}
static inline uint64_t rc_my_be(const uint8_t *p, unsigned n)
{
    /* the sizes of the temporal and decimal layouts in a load or two (the byte loop was a
     * tenth of a DATETIME's decoding) */
    if (n == 3) return (uint64_t)p[0] << 16 | (uint64_t)p[1] << 8 | p[2];
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (n == 4) {
        uint32_t w;
        memcpy(&w, p, 4);
        return __builtin_bswap32(w);
    }
    if (n == 5) {
        uint32_t w;
        memcpy(&w, p + 1, 4);
        return (uint64_t)p[0] << 32 | __builtin_bswap32(w);
    }
#endif
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++) v = v << 8 | p[i];
    return v;
}

/* One column of a table as the binlog's TABLE_MAP describes it, completed by the schema
 * history where the binlog says less (binlog_row_metadata=MINIMAL: no names, no labels).
 *
 * `type` is the TABLE_MAP's code, except for RC_MY_STRING whose metadata names the real type:
 * the event decoder stores RC_MY_ENUM / RC_MY_SET there for such columns (as MySQL's own
 * decoder does), and keeps `meta` as the TABLE_MAP has it:
 *   FLOAT, DOUBLE, BLOB kinds, GEOMETRY, JSON, VECTOR: 1 byte (the length's byte count, for
 *     FLOAT/DOUBLE the size);
 *   TIME2, DATETIME2, TIMESTAMP2: 1 byte, the fractional-second precision;
 *   VARCHAR, VAR_STRING: 2 bytes little-endian, the maximum length in bytes;
 *   NEWDECIMAL: precision << 8 | scale (byte 0 precision, byte 1 scale);
 *   BIT: bytes << 8 | bits (byte 0 bits % 8, byte 1 whole bytes), i.e. meta = b0 | b1 << 8;
 *   STRING, ENUM, SET: b0 << 8 | b1 as stored (b0 the real type with the length's high bits
 *     folded in, b1 the length's low byte): the decoder of values unfolds it.
 * The event decoder (my_tablemap.c) reads these bytes; the value decoder uses them. */
typedef struct rc_my_col rc_my_col;
/* A reader of one group of types (my_value_int.h): the contract of rc_my_value_decode. */
typedef rc_status rc_my_decode_fn(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a,
                                  rc_error *err);

struct rc_my_col {
    uint8_t type;        /* enum rc_my_type */
    uint16_t meta;
    bool is_unsigned;    /* numeric columns: SIGNEDNESS metadata, or the history's declaration */
    bool nullable;
    uint16_t collation;  /* character columns: collation id (63: binary); 0 when unknown */
    uint32_t nlabels;    /* ENUM/SET labels, in declaration order (unquoted UTF-8) */
    const rc_str *labels;
    uint32_t vector_dim; /* VECTOR: dimensions from the metadata, 0 unknown */
    /* The declared type from the schema history (decimal(10,2), inet6, uuid, tinyint(1)...),
     * NULL when there is none: then the binlog type alone decides the value's kind. */
    const rc_coltype *decl;
    rc_str name;         /* COLUMN_NAME metadata or the history's; n == 0: unknown ("@1") */
    rc_str dflt;         /* the history's default (rc_column.dflt), when has_dflt */
    bool has_dflt;
    /* What rc_my_col_prepare (my_value.h) worked out once per TABLE_MAP instead of per value;
     * a column it did not see (prepared false) has it worked out at each value. */
    bool prepared;
    bool fixed16;        /* MariaDB's inet6 or uuid (the declared type's name) */
    uint8_t text_cs;     /* the rc_my_cs of its text + 1; 0: none, or its values are an error */
    rc_my_decode_fn *decode; /* the reader of its type or of its own (NULL: rc_my_value_decode finds it) */
};

#endif
