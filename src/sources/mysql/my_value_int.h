/* Internals shared by the row-image value readers (my_value*.c, my_charset.c, my_json*.c):
 * the truncation error and one reader per group of types. Not for the rest
 * of the source: it uses my_value.h. */
#ifndef ROWCAST_MY_VALUE_INT_H
#define ROWCAST_MY_VALUE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "my_value.h" /* my_types.h: rc_my_le, rc_my_be */

/* "column NAME" or "column @?" for messages; the event decoder prefixes file and offset. */
#define RC_MY_COLFMT "column %.*s%s (%s)"
#define RC_MY_COLARG(c) (int)(c)->name.n, (c)->name.p ? (c)->name.p : "", (c)->name.n ? "" : "@?", rc_my_type_name((c)->type)

/* RC_ERR_VALUE "value truncated" when fewer than `need` of the `n` bytes are left (inline: every
 * value asks, and a call was a tenth of an integer's decoding). */
rc_status rc_my_need_fail(const rc_my_col *c, size_t need, size_t n, rc_error *err);
static inline rc_status rc_my_need(const rc_my_col *c, size_t need, size_t n, rc_error *err)
{
    return need <= n ? RC_OK : rc_my_need_fail(c, need, n, err);
}

/* The declared type's name when the history gave one ("" otherwise), for type checks that
 * the catalog entries of MariaDB's own types (inet6, uuid) and MySQL's vector decide. */
const char *rc_my_decl_name(const rc_my_col *c);

/* Readers of one group of types each; same contract as rc_my_value_decode. */
rc_status rc_my_num_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err);
rc_status rc_my_dec_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err);
rc_status rc_my_time_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err);
rc_status rc_my_str_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err);
rc_status rc_my_blob_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err);
/* rc_my_col_prepare's part for character columns (my_value_str.c): fixed16 and text_cs, and
 * for the common ones (VARCHAR and TEXT in UTF-8, VARBINARY) a reader of their own in decode. */
void rc_my_str_prepare(rc_my_col *c);
/* Its part for integer columns (my_value_num.c): a reader with the signedness decided. */
void rc_my_num_prepare(rc_my_col *c);

/* The payload (after the length) of JSON, GEOMETRY and VECTOR columns, and the 16 bytes of
 * MariaDB's INET6 and UUID columns (my_value_ext.c, my_json.c). */
rc_status rc_my_json_value(const rc_my_col *c, const uint8_t *p, size_t n, rc_value *out, rc_arena *a, rc_error *err);
rc_status rc_my_geometry_value(const rc_my_col *c, const uint8_t *p, size_t n, rc_value *out, rc_arena *a, rc_error *err);
rc_status rc_my_vector_value(const rc_my_col *c, const uint8_t *p, size_t n, rc_value *out, rc_arena *a, rc_error *err);
rc_status rc_my_fixed16_value(const rc_my_col *c, const uint8_t *body, size_t len, rc_value *out, rc_arena *a, rc_error *err);

/* Packed DECIMAL(precision, scale) at p (MySQL's decimal2bin layout): its size in *used.
 * Shared with the opaque DECIMAL of binary JSON. Errors name offsets relative to p. */
rc_status rc_my_packed_decimal(const uint8_t *p, size_t n, unsigned precision, unsigned scale, size_t *used, rc_decimal *out,
                               rc_arena *a, rc_error *err);
/* Bytes a packed DECIMAL(precision, scale) takes (0 when precision/scale are impossible). */
size_t rc_my_packed_decimal_size(unsigned precision, unsigned scale);

/* ---- character sets (my_charset.c) ---- */
typedef enum rc_my_cs {
    RC_MY_CS_UNKNOWN = 0, /* an id this reader does not know at all */
    RC_MY_CS_UNSUPPORTED, /* a charset the server has and this reader does not convert */
    RC_MY_CS_BINARY,
    RC_MY_CS_UTF8,        /* utf8mb4, utf8mb3 (and MariaDB's utf8 alias) */
    RC_MY_CS_LATIN1,      /* MySQL's latin1: Windows-1252 with 0x81 0x8D 0x8F 0x90 0x9D as C1 controls */
    RC_MY_CS_ASCII,
    RC_MY_CS_UCS2,        /* UCS-2 big-endian */
    RC_MY_CS_UTF16,       /* UTF-16 big-endian */
    RC_MY_CS_UTF16LE,
    RC_MY_CS_UTF32,       /* UTF-32 big-endian */
    RC_MY_CS_ICONV,       /* RC_MY_CS_ICONV + i: the i-th of my_charset.c's table, converted by iconv(3) */
} rc_my_cs;

/* The iconv(3) name of an RC_MY_CS_ICONV character set (NULL for the others). */
const char *rc_my_cs_iconv_name(rc_my_cs cs);

/* The character set's and the collation's names the client library knows for an id ("?"). */
const char *rc_my_charset_name(uint16_t id);
const char *rc_my_collation_name(uint16_t id);

/* The character set of a collation id. */
rc_my_cs rc_my_collation_cs(uint16_t id);
/* The character set of a name as a declaration writes it (`character set latin1`). */
rc_my_cs rc_my_charset_by_name(const char *s, size_t n);

/* Bytes of charset cs as UTF-8: RC_V_TEXT in the arena when every byte is valid; otherwise
 * RC_V_INVALID whose text keeps every byte (docs/sources/mysql-types.md, "Character sets").
 * RC_ERR_NOMEM, or RC_ERR_UNSUPPORTED when iconv(3) has no converter for cs here. */
rc_status rc_my_text(rc_my_cs cs, const uint8_t *p, size_t n, rc_value *out, rc_arena *a);

#endif
