/* CHAR, VARCHAR, TEXT, BINARY, VARBINARY, BLOB, ENUM and SET in row images.
 *
 * VARCHAR: a 1-byte length (2 bytes when the maximum length in the metadata exceeds 255),
 * then the bytes. CHAR and BINARY are type STRING: the same with the maximum length unfolded
 * from the metadata (MySQL folds its bits 8-9 into the real-type byte). The servers leave the
 * trailing pad characters out (Field_string::pack): CHAR's spaces, which SELECT does not show
 * either, and BINARY's zero bytes, which it does: BINARY(n) is padded back to n bytes. BLOB
 * and TEXT: a little-endian length of 1 to 4 bytes (the metadata), then the bytes. ENUM: the
 * 1-based label index in 1 or 2 bytes (0: the empty string MySQL stores for an invalid
 * value); SET: a bitmask of 1 to 8 bytes, one bit per label. */
#include <string.h>
#include "rowcast/error.h"
#include "my_value_int.h"

/* keybcs2 and geostd8: glibc's iconv has no converter for them */
#define NOT_CONVERTED                                                                                                         \
    "is not converted to UTF-8 by rowcast (glibc's iconv has no converter for it; every other character set of MySQL "       \
    "and MariaDB is); ALTER the column to utf8mb4 to capture it"

/* The column's character set: its collation, else the declared `character set`, else utf8mb4
 * (what a binlog without charset metadata and a history without a declaration leaves). A
 * declared binary type (BINARY, VARBINARY, BLOB) is binary whatever the collation says. */
static rc_status column_cs(const rc_my_col *c, rc_my_cs *cs, rc_error *err)
{
    if (c->decl && c->decl->info && c->decl->info->vkind == RC_V_BYTES) return *cs = RC_MY_CS_BINARY, RC_OK;
    if (c->collation) {
        *cs = rc_my_collation_cs(c->collation);
        /* a text declaration with the binary collation (a history and a TABLE_MAP that
         * disagree; the event decoder reports those): the declaration's kind, as UTF-8 */
        if (*cs == RC_MY_CS_BINARY && c->decl && c->decl->info && c->decl->info->vkind != RC_V_BYTES) *cs = RC_MY_CS_UTF8;
        if (*cs == RC_MY_CS_UNKNOWN)
            return rc_error_set(err, RC_ERR_UNSUPPORTED, 0,
                                RC_MY_COLFMT ": collation id %u is not one of MySQL's or MariaDB's that this reader knows; "
                                             "its bytes cannot be read as text",
                                RC_MY_COLARG(c), c->collation);
        if (*cs == RC_MY_CS_UNSUPPORTED)
            return rc_error_set(err, RC_ERR_UNSUPPORTED, 0,
                                RC_MY_COLFMT ": character set %s (collation %u, %s) " NOT_CONVERTED, RC_MY_COLARG(c),
                                rc_my_charset_name(c->collation), c->collation, rc_my_collation_name(c->collation));
        return RC_OK;
    }
    if (c->decl && c->decl->charset.n) {
        *cs = rc_my_charset_by_name(c->decl->charset.p, c->decl->charset.n);
        if (*cs == RC_MY_CS_UNSUPPORTED)
            return rc_error_set(err, RC_ERR_UNSUPPORTED, 0, RC_MY_COLFMT ": character set %.*s " NOT_CONVERTED, RC_MY_COLARG(c),
                                (int)c->decl->charset.n, c->decl->charset.p);
        return RC_OK;
    }
    *cs = RC_MY_CS_UTF8;
    return RC_OK;
}

static bool is_fixed16(const rc_my_col *c)
{
    const char *dn = rc_my_decl_name(c);
    return !strcmp(dn, "inet6") || !strcmp(dn, "uuid");
}

static rc_my_decode_fn *own_reader(const rc_my_col *c);

void rc_my_str_prepare(rc_my_col *c)
{
    rc_my_cs cs;
    c->fixed16 = is_fixed16(c);
    c->text_cs = column_cs(c, &cs, NULL) == RC_OK ? (uint8_t)(cs + 1) : 0;
    rc_my_decode_fn *own = own_reader(c);
    if (own) c->decode = own;
}

/* len bytes as a BYTES value, zero-padded to `size` (>= len). */
static rc_status bytes_value(const rc_my_col *c, const uint8_t *p, size_t len, size_t size, rc_value *out, rc_arena *a, rc_error *err)
{
    char *s = rc_arena_alloc(a, size + 1);
    if (!s) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory decoding " RC_MY_COLFMT, RC_MY_COLARG(c));
    if (len) memcpy(s, p, len);
    if (size > len) memset(s + len, 0, size - len);
    s[size] = '\0';
    *out = (rc_value){.kind = RC_V_BYTES, .s = {s, size}};
    return RC_OK;
}

/* The bytes of a column in character set cs (not binary) as its text. */
static inline __attribute__((always_inline)) rc_status text_value(const rc_my_col *c, rc_my_cs cs, const uint8_t *p, size_t len,
                                                                 rc_value *out, rc_arena *a, rc_error *err)
{
    rc_status st = rc_my_text(cs, p, len, out, a);
    if (st == RC_ERR_UNSUPPORTED)
        return rc_error_set(err, st, 0, RC_MY_COLFMT ": iconv(3) cannot convert from %s here (glibc's gconv modules missing?)",
                            RC_MY_COLARG(c), rc_my_cs_iconv_name(cs));
    if (st != RC_OK) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory decoding " RC_MY_COLFMT, RC_MY_COLARG(c));
    return RC_OK;
}

/* The bytes of a character column as its value: BYTES for binary (padded to `size`: BINARY(n)),
 * else text. */
static rc_status chars(const rc_my_col *c, const uint8_t *p, size_t len, size_t size, rc_value *out, rc_arena *a, rc_error *err)
{
    rc_my_cs cs;
    if (c->text_cs) cs = (rc_my_cs)(c->text_cs - 1);
    else if (column_cs(c, &cs, err) != RC_OK) return err->code;
    if (cs == RC_MY_CS_BINARY) return bytes_value(c, p, len, size, out, a, err);
    return text_value(c, cs, p, len, out, a, err);
}

/* A length-prefixed value: `lb` bytes of little-endian length, then that many bytes (inline:
 * every VARCHAR, TEXT and BLOB value asks, and the call was a fifth of their decoding). */
static inline __attribute__((always_inline)) rc_status prefixed(const rc_my_col *c, const uint8_t *p, size_t n, unsigned lb,
                                                               size_t *used, const uint8_t **body, size_t *len, rc_error *err)
{
    if (rc_my_need(c, lb, n, err) != RC_OK) return RC_ERR_VALUE;
    *len = (size_t)rc_my_le(p, lb);
    if (rc_my_need(c, lb + *len, n, err) != RC_OK) return RC_ERR_VALUE;
    *body = p + lb;
    *used = lb + *len;
    return RC_OK;
}

/* The i-th label (0-based): the TABLE_MAP's, else the declaration's. */
static bool label(const rc_my_col *c, unsigned i, rc_str *l)
{
    if (c->nlabels) {
        if (i >= c->nlabels) return false;
        *l = c->labels[i];
        return true;
    }
    return c->decl && c->decl->labels.n && rc_coltype_label(c->decl, i, l);
}

static bool has_labels(const rc_my_col *c) { return c->nlabels || (c->decl && c->decl->labels.n); }

static rc_status enum_value(const rc_my_col *c, const uint8_t *p, size_t n, unsigned size, size_t *used, rc_value *out,
                            rc_error *err)
{
    if (size != 1 && size != 2)
        return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": ENUM of %u bytes (the metadata): 1 or 2 expected", RC_MY_COLARG(c), size);
    if (rc_my_need(c, size, n, err) != RC_OK) return RC_ERR_VALUE;
    *used = size;
    unsigned idx = (unsigned)rc_my_le(p, size);
    if (!has_labels(c)) { /* no labels anywhere (offline files without metadata): the index */
        *out = (rc_value){.kind = RC_V_INT, .i = idx};
        return RC_OK;
    }
    rc_str l = {"", 0};
    if (idx && !label(c, idx - 1, &l))
        return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": ENUM index %u is past its labels", RC_MY_COLARG(c), idx);
    *out = (rc_value){.kind = RC_V_ENUM, .s = l};
    return RC_OK;
}

static rc_status set_value(const rc_my_col *c, const uint8_t *p, size_t n, unsigned size, size_t *used, rc_value *out, rc_arena *a,
                           rc_error *err)
{
    if (size < 1 || size > 8)
        return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": SET of %u bytes (the metadata): 1 to 8 expected", RC_MY_COLARG(c), size);
    if (rc_my_need(c, size, n, err) != RC_OK) return RC_ERR_VALUE;
    *used = size;
    uint64_t bits = rc_my_le(p, size);
    if (!has_labels(c)) {
        *out = (rc_value){.kind = RC_V_UINT, .u = bits};
        return RC_OK;
    }
    size_t len = 0;
    rc_str l;
    for (unsigned i = 0; i < 64; i++) {
        if (!(bits >> i & 1)) continue;
        if (!label(c, i, &l))
            return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": SET bit %u is set and the column has no label %u",
                                RC_MY_COLARG(c), i, i + 1);
        len += l.n + 1;
    }
    char *s = rc_arena_alloc(a, len + 1), *w = s;
    if (!s) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory decoding " RC_MY_COLFMT, RC_MY_COLARG(c));
    for (unsigned i = 0; i < 64; i++) {
        if (!(bits >> i & 1)) continue;
        label(c, i, &l);
        if (w != s) *w++ = ',';
        memcpy(w, l.p, l.n), w += l.n;
    }
    *w = '\0';
    *out = (rc_value){.kind = RC_V_SET, .s = {s, (size_t)(w - s)}};
    return RC_OK;
}

static rc_status too_long(const rc_my_col *c, size_t len, unsigned maxlen, rc_error *err)
{
    return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": value of %zu bytes in a column of at most %u", RC_MY_COLARG(c), len, maxlen);
}

rc_status rc_my_str_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    unsigned maxlen;
    uint8_t real = c->type;
    if (c->type == RC_MY_VARCHAR || c->type == RC_MY_VAR_STRING) {
        maxlen = c->meta;
    } else {
        /* STRING, ENUM, SET: byte 0 the real type (bits 4-5 of a STRING's hold the complement
         * of the maximum length's bits 8-9), byte 1 the length's low byte */
        unsigned b0 = c->meta >> 8, b1 = c->meta & 0xff;
        if ((b0 & 0x30) != 0x30) maxlen = b1 | (((b0 & 0x30) ^ 0x30) << 4), b0 |= 0x30;
        else maxlen = b1;
        if (c->type == RC_MY_STRING && (b0 == RC_MY_ENUM || b0 == RC_MY_SET)) real = (uint8_t)b0;
        if (real == RC_MY_ENUM) return enum_value(c, p, n, b1, used, out, err);
        if (real == RC_MY_SET) return set_value(c, p, n, b1, used, out, a, err);
    }
    const uint8_t *body;
    size_t len;
    if (prefixed(c, p, n, maxlen > 255 ? 2 : 1, used, &body, &len, err) != RC_OK) return RC_ERR_VALUE;
    if (len > maxlen) return too_long(c, len, maxlen, err);
    if (c->prepared ? c->fixed16 : is_fixed16(c)) return rc_my_fixed16_value(c, body, len, out, a, err);
    /* BINARY(n): the servers leave the trailing zero bytes out; SELECT has them */
    return chars(c, body, len, c->type == RC_MY_STRING ? maxlen : len, out, a, err);
}

rc_status rc_my_blob_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    unsigned lb = c->meta;
    if (lb < 1 || lb > 4)
        return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": length of %u bytes (the metadata): 1 to 4 expected", RC_MY_COLARG(c), lb);
    const uint8_t *body;
    size_t len;
    if (prefixed(c, p, n, lb, used, &body, &len, err) != RC_OK) return RC_ERR_VALUE;
    switch (c->type) {
    case RC_MY_JSON: return rc_my_json_value(c, body, len, out, a, err);
    case RC_MY_GEOMETRY: return rc_my_geometry_value(c, body, len, out, a, err);
    case RC_MY_VECTOR: return rc_my_vector_value(c, body, len, out, a, err);
    default: break;
    }
    /* MariaDB's JSON is LONGTEXT: text, of kind json when the history declares it so */
    if (c->decl && c->decl->info && c->decl->info->vkind == RC_V_JSON) {
        rc_status st = chars(c, body, len, len, out, a, err);
        if (st == RC_OK && out->kind == RC_V_TEXT) out->kind = RC_V_JSON;
        return st;
    }
    /* TEXT has a character collation; BLOB the binary one, and so does a BLOB-type column of
     * which neither the binlog nor the history says more (bytes lose nothing) */
    if (!c->collation && !(c->decl && c->decl->info && c->decl->info->vkind == RC_V_TEXT)) return bytes_value(c, body, len, len, out, a, err);
    return chars(c, body, len, len, out, a, err);
}

/* The readers rc_my_str_prepare gives the common columns: what rc_my_str_decode and
 * rc_my_blob_decode decide per value (the real type, INET6/UUID, JSON, the character set)
 * decided once, for VARCHAR in UTF-8 or binary (VARBINARY) and TEXT in UTF-8. */
static inline __attribute__((always_inline)) rc_status varchar_value(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used,
                                                                    const uint8_t **body, size_t *len, rc_error *err)
{
    if (prefixed(c, p, n, c->meta > 255 ? 2 : 1, used, body, len, err) != RC_OK) return RC_ERR_VALUE;
    return *len > c->meta ? too_long(c, *len, c->meta, err) : RC_OK;
}

/* A VARCHAR (UTF-8 text) or VARBINARY (bytes) value. */
static rc_status varchar_as(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err,
                            bool binary)
{
    const uint8_t *body;
    size_t len;
    rc_status st = varchar_value(c, p, n, used, &body, &len, err);
    if (st != RC_OK) return st;
    return binary ? bytes_value(c, body, len, len, out, a, err) : text_value(c, RC_MY_CS_UTF8, body, len, out, a, err);
}

static rc_status varchar_utf8(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    return varchar_as(c, p, n, used, out, a, err, false);
}

static rc_status varbinary(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    return varchar_as(c, p, n, used, out, a, err, true);
}

static rc_status text_utf8(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    const uint8_t *body;
    size_t len;
    if (prefixed(c, p, n, c->meta, used, &body, &len, err) != RC_OK) return RC_ERR_VALUE;
    return text_value(c, RC_MY_CS_UTF8, body, len, out, a, err);
}

/* The reader of its own for column c (prepared but for decode), NULL when it has none. */
static rc_my_decode_fn *own_reader(const rc_my_col *c)
{
    if (!c->text_cs || c->fixed16) return NULL;
    rc_my_cs cs = (rc_my_cs)(c->text_cs - 1);
    rc_vkind decl = c->decl && c->decl->info ? c->decl->info->vkind : RC_V_NULL;
    switch (c->type) {
    case RC_MY_VARCHAR:
    case RC_MY_VAR_STRING:
        return cs == RC_MY_CS_UTF8 ? varchar_utf8 : cs == RC_MY_CS_BINARY ? varbinary : NULL;
    case RC_MY_TINY_BLOB:
    case RC_MY_MEDIUM_BLOB:
    case RC_MY_LONG_BLOB:
    case RC_MY_BLOB:
        /* rc_my_blob_decode's text path: a length of 1 to 4 bytes, not MariaDB's JSON, text */
        if (c->meta < 1 || c->meta > 4 || decl == RC_V_JSON || !(c->collation || decl == RC_V_TEXT)) return NULL;
        return cs == RC_MY_CS_UTF8 ? text_utf8 : NULL;
    default:
        return NULL;
    }
}
