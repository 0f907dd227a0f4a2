/* MySQL's binary JSON (the JSON column's payload; json_binary.h documents the layout) -> JSON
 * text, written as MySQL's SELECT prints it: `{"a": 1, "b": [true, null]}` (", " and ": "),
 * members in stored order (MySQL keeps keys sorted by length, then bytes), doubles in MySQL's
 * layout (shortest digits; ".0" on whole numbers; exponent "1e16", "1.5e-5"), opaque values as
 * MySQL prints them: DECIMAL as the number, DATE "2015-01-15", DATETIME/TIMESTAMP
 * "2015-01-15 23:24:25.000000", TIME "-23:24:25.120000", any other type
 * "base64:type15:yv4=".
 *
 * Layout: a type byte, then the value. Objects and arrays (small: 2-byte counts and offsets,
 * large: 4-byte) hold the element count and the byte size, then key entries (offset, 2-byte
 * length) for objects, then value entries (type byte, offset — or the value itself for
 * literals and 16-bit integers, and in large containers 32-bit ones), then the keys and values
 * the offsets point at (offsets from the container's start). Strings have a variable-length
 * size (7 bits a byte, low first). Unreferenced bytes (left by partial updates) are skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/fmt.h"
#include "core/jsonw.h"
#include "my_json_int.h"

enum {
    J_SMALL_OBJ = 0, J_LARGE_OBJ, J_SMALL_ARR, J_LARGE_ARR, J_LITERAL, J_INT16, J_UINT16, J_INT32, J_UINT32, J_INT64, J_UINT64,
    J_DOUBLE, J_STRING, J_OPAQUE = 0x0f,
};
enum { MAX_DEPTH = 150 }; /* MySQL refuses documents nested deeper than 100 */

typedef struct jr {
    const uint8_t *doc; /* the whole document (for error offsets) */
    rc_buf *out;
    rc_error *err;
    unsigned depth;
} jr;

static rc_status bad(jr *r, const uint8_t *at, const char *what)
{
    size_t off = (size_t)(at - r->doc);
    return rc_error_set(r->err, RC_ERR_VALUE, off, "binary JSON: %s at byte %zu", what, off);
}

void rc_my_json_quote(rc_buf *b, const char *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    rc_buf_putc(b, '"');
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        rc_buf_put(b, p + run, i - run);
        run = i + 1;
        char e[6] = {'\\', 0};
        switch (c) {
        case '"': e[1] = '"'; break;
        case '\\': e[1] = '\\'; break;
        case '\b': e[1] = 'b'; break;
        case '\f': e[1] = 'f'; break;
        case '\n': e[1] = 'n'; break;
        case '\r': e[1] = 'r'; break;
        case '\t': e[1] = 't'; break;
        default: e[1] = 'u', e[2] = '0', e[3] = '0', e[4] = hex[c >> 4], e[5] = hex[c & 15]; break;
        }
        rc_buf_put(b, e, e[1] == 'u' ? 6 : 2);
    }
    rc_buf_put(b, p + run, n - run);
    rc_buf_putc(b, '"');
}

void rc_my_json_double(rc_buf *b, double d)
{
    if (d != d || d - d != 0) { /* MySQL stores no NaN or infinity in JSON */
        RC_BUF_LIT(b, "null");
        return;
    }
    /* the shortest digits that read back to d, and where the point goes (d = 0.D × 10^decpt) */
    char s[40];
    int prec = 1;
    for (; prec < 17; prec++) {
        snprintf(s, sizeof s, "%.*e", prec - 1, d);
        if (strtod(s, NULL) == d) break;
    }
    snprintf(s, sizeof s, "%.*e", prec - 1, d);
    char digits[20];
    int nd = 0, neg = s[0] == '-';
    const char *q = s + neg;
    for (; *q && *q != 'e'; q++)
        if (*q != '.') digits[nd++] = *q;
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    int decpt = atoi(q + 1) + 1;
    if (d == 0) nd = 1, decpt = 1;
    if (neg) rc_buf_putc(b, '-');
    if (decpt >= -14 && (decpt <= 15 || nd > decpt)) { /* fixed notation (my_gcvt's window) */
        if (decpt <= 0) {
            RC_BUF_LIT(b, "0.");
            for (int i = decpt; i < 0; i++) rc_buf_putc(b, '0');
            rc_buf_put(b, digits, (size_t)nd);
        } else if (nd > decpt) {
            rc_buf_put(b, digits, (size_t)decpt);
            rc_buf_putc(b, '.');
            rc_buf_put(b, digits + decpt, (size_t)(nd - decpt));
        } else {
            rc_buf_put(b, digits, (size_t)nd);
            for (int i = nd; i < decpt; i++) rc_buf_putc(b, '0');
            RC_BUF_LIT(b, ".0");
        }
        return;
    }
    rc_buf_putc(b, digits[0]);
    if (nd > 1) {
        rc_buf_putc(b, '.');
        rc_buf_put(b, digits + 1, (size_t)(nd - 1));
    }
    rc_buf_putc(b, 'e');
    rc_fmt_i64(b, decpt - 1);
}

/* Variable-length size at p (at most 5 bytes, none past end). */
static rc_status varlen(jr *r, const uint8_t **p, const uint8_t *end, size_t *len)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < 5; i++) {
        if (*p >= end) return bad(r, *p, "a string's length runs past the value");
        uint8_t c = *(*p)++;
        v |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80)) {
            if (v > (uint64_t)(end - *p)) return bad(r, *p, "a string longer than the bytes left");
            *len = (size_t)v;
            return RC_OK;
        }
    }
    return bad(r, *p, "a string length of more than 5 bytes");
}

/* An opaque value's packed temporal payload (8 bytes little-endian, MySQL's "packed" longlong)
 * as MySQL prints it. */
static void packed_temporal(rc_buf *b, uint8_t field, int64_t v)
{
    char s[64];
    bool neg = v < 0;
    uint64_t m = neg ? -(uint64_t)v : (uint64_t)v; /* unsigned: INT64_MIN has no signed negation */
    uint64_t frac = m % (1 << 24), hi = m >> 24;
    if (field == 11) { /* TIME */
        snprintf(s, sizeof s, "%s%02u:%02u:%02u.%06u", neg ? "-" : "", (unsigned)(hi >> 12) % 1024, (unsigned)(hi >> 6) % 64,
                 (unsigned)hi % 64, (unsigned)frac);
    } else {
        uint64_t ymd = hi >> 17, ym = ymd >> 5, hms = hi % (1 << 17);
        int k = snprintf(s, sizeof s, "%04u-%02u-%02u", (unsigned)(ym / 13), (unsigned)(ym % 13), (unsigned)(ymd % 32));
        if (field != 10) /* DATETIME, TIMESTAMP */
            snprintf(s + k, sizeof s - (size_t)k, " %02u:%02u:%02u.%06u", (unsigned)(hms >> 12), (unsigned)(hms >> 6) % 64,
                     (unsigned)hms % 64, (unsigned)frac);
    }
    rc_buf_putc(b, '"');
    rc_buf_puts(b, s);
    rc_buf_putc(b, '"');
}

static rc_status opaque(jr *r, const uint8_t *p, const uint8_t *end)
{
    if (p >= end) return bad(r, p, "an opaque value without its type");
    uint8_t field = *p++;
    size_t len;
    if (varlen(r, &p, end, &len) != RC_OK) return RC_ERR_VALUE;
    switch (field) {
    case 246: { /* NEWDECIMAL: precision, scale, packed decimal */
        if (len < 2) return bad(r, p, "an opaque DECIMAL shorter than its precision and scale");
        rc_arena a;
        rc_arena_init(&a);
        rc_decimal d;
        size_t used;
        rc_error e;
        rc_error_clear(&e);
        rc_status st = rc_my_packed_decimal(p + 2, len - 2, p[0], p[1], &used, &d, &a, &e);
        if (st == RC_OK && used != len - 2) st = bad(r, p, "an opaque DECIMAL of the wrong size");
        else if (st != RC_OK) st = rc_error_set(r->err, e.code, (size_t)(p - r->doc), "binary JSON: opaque DECIMAL at byte %zu: %s", (size_t)(p - r->doc), e.message);
        else rc_fmt_dec_plain(r->out, &d);
        rc_arena_fini(&a);
        return st;
    }
    case 10: /* DATE */
    case 11: /* TIME */
    case 12: /* DATETIME */
    case 7:  /* TIMESTAMP */
        if (len != 8) return bad(r, p, "an opaque date or time that is not 8 bytes");
        packed_temporal(r->out, field, (int64_t)rc_my_le(p, 8));
        return RC_OK;
    default: {
        char head[32];
        snprintf(head, sizeof head, "\"base64:type%u:", field);
        rc_buf_puts(r->out, head);
        rc_fmt_base64(r->out, p, len);
        rc_buf_putc(r->out, '"');
        return RC_OK;
    }
    }
}

static rc_status value(jr *r, uint8_t type, const uint8_t *p, const uint8_t *end);

/* The type byte at t is one of the value types (checked where it is, for the message). */
static rc_status known_type(jr *r, const uint8_t *t)
{
    if (*t <= J_STRING || *t == J_OPAQUE) return RC_OK;
    char what[48];
    snprintf(what, sizeof what, "unknown value type 0x%02x", *t);
    return bad(r, t, what);
}

/* An object or array whose bytes start at p (the count); end bounds what it may use. */
static rc_status container(jr *r, bool large, bool obj, const uint8_t *p, const uint8_t *end)
{
    if (++r->depth > MAX_DEPTH) return bad(r, p, "documents nested deeper than 150 levels");
    unsigned w = large ? 4 : 2;
    if ((size_t)(end - p) < 2u * w) return bad(r, p, "a container shorter than its header");
    uint64_t count = rc_my_le(p, w), size = rc_my_le(p + w, w);
    if (size > (uint64_t)(end - p) || size < 2u * w) return bad(r, p, "a container size past the value");
    const uint8_t *cend = p + size;
    size_t kesz = w + 2, vesz = 1 + w;
    if (count > (size - 2u * w) / (obj ? kesz + vesz : vesz)) return bad(r, p, "more elements than the container holds");
    const uint8_t *keys = p + 2 * w, *vals = keys + (obj ? count * kesz : 0);
    rc_buf_putc(r->out, obj ? '{' : '[');
    for (uint64_t i = 0; i < count; i++) {
        if (i) RC_BUF_LIT(r->out, ", ");
        if (obj) {
            const uint8_t *ke = keys + i * kesz;
            uint64_t koff = rc_my_le(ke, w), klen = rc_my_le(ke + w, 2);
            if (koff > size || klen > size - koff) return bad(r, ke, "a key past its container");
            if (rc_utf8_valid_prefix((const char *)p + koff, klen) != klen) return bad(r, p + koff, "a key that is not UTF-8");
            rc_my_json_quote(r->out, (const char *)p + koff, (size_t)klen);
            RC_BUF_LIT(r->out, ": ");
        }
        const uint8_t *ve = vals + i * vesz;
        uint8_t t = ve[0];
        if (known_type(r, ve) != RC_OK) return RC_ERR_VALUE;
        bool inl = t == J_LITERAL || t == J_INT16 || t == J_UINT16 || (large && (t == J_INT32 || t == J_UINT32));
        rc_status st;
        if (inl) {
            st = value(r, t, ve + 1, ve + 1 + w);
        } else {
            uint64_t off = rc_my_le(ve + 1, w);
            if (off >= size) return bad(r, ve, "a value offset past its container");
            st = value(r, t, p + off, cend);
        }
        if (st != RC_OK) return st;
    }
    rc_buf_putc(r->out, obj ? '}' : ']');
    r->depth--;
    return RC_OK;
}

static rc_status need(jr *r, const uint8_t *p, const uint8_t *end, size_t k)
{
    return (size_t)(end - p) >= k ? RC_OK : bad(r, p, "a number past the value");
}

static rc_status value(jr *r, uint8_t type, const uint8_t *p, const uint8_t *end)
{
    switch (type) {
    case J_SMALL_OBJ:
    case J_LARGE_OBJ:
    case J_SMALL_ARR:
    case J_LARGE_ARR:
        return container(r, type == J_LARGE_OBJ || type == J_LARGE_ARR, type <= J_LARGE_OBJ, p, end);
    case J_LITERAL:
        if (need(r, p, end, 1) != RC_OK) return RC_ERR_VALUE;
        if (p[0] > 2) return bad(r, p, "a literal that is not null, true or false");
        rc_buf_puts(r->out, p[0] == 0 ? "null" : p[0] == 1 ? "true" : "false");
        return RC_OK;
    case J_INT16:
    case J_INT32:
    case J_INT64: {
        unsigned k = type == J_INT16 ? 2 : type == J_INT32 ? 4 : 8, s = 64 - 8 * k;
        if (need(r, p, end, k) != RC_OK) return RC_ERR_VALUE;
        rc_fmt_i64(r->out, (int64_t)(rc_my_le(p, k) << s) >> s);
        return RC_OK;
    }
    case J_UINT16:
    case J_UINT32:
    case J_UINT64: {
        unsigned k = type == J_UINT16 ? 2 : type == J_UINT32 ? 4 : 8;
        if (need(r, p, end, k) != RC_OK) return RC_ERR_VALUE;
        rc_fmt_u64(r->out, rc_my_le(p, k));
        return RC_OK;
    }
    case J_DOUBLE: {
        if (need(r, p, end, 8) != RC_OK) return RC_ERR_VALUE;
        uint64_t bits = rc_my_le(p, 8);
        double d;
        memcpy(&d, &bits, 8);
        rc_my_json_double(r->out, d);
        return RC_OK;
    }
    case J_STRING: {
        size_t len;
        if (varlen(r, &p, end, &len) != RC_OK) return RC_ERR_VALUE;
        if (rc_utf8_valid_prefix((const char *)p, len) != len) return bad(r, p, "a string that is not UTF-8");
        rc_my_json_quote(r->out, (const char *)p, len);
        return RC_OK;
    }
    case J_OPAQUE:
        return opaque(r, p, end);
    default: /* known_type() refused it already */
        return bad(r, p, "an unknown value type");
    }
}

rc_status rc_my_json_text(const uint8_t *p, size_t n, rc_buf *out, rc_error *err)
{
    if (!n) { /* a NOT NULL JSON column left unset (MySQL writes no bytes): JSON null */
        RC_BUF_LIT(out, "null");
        return RC_OK;
    }
    jr r = {.doc = p, .out = out, .err = err};
    if (known_type(&r, p) != RC_OK) return RC_ERR_VALUE;
    return value(&r, p[0], p + 1, p + n);
}

/* A JSON column value that is not binary JSON — MySQL before 5.7.22 wrote such values for
 * virtual generated JSON columns — is kept as an invalid value, its bytes in MySQL's notation
 * for what it cannot print ("base64:type245:..."), not dropped and not a stopped stream. */
static rc_status unreadable(const rc_my_col *c, const uint8_t *p, size_t n, rc_buf *b, rc_value *out, rc_arena *a, rc_error *err)
{
    rc_buf_reset(b);
    RC_BUF_LIT(b, "base64:type245:");
    rc_fmt_base64(b, p, n);
    char *s = b->err == RC_OK ? rc_arena_memdup(a, b->data, b->len) : NULL;
    if (!s) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory decoding " RC_MY_COLFMT, RC_MY_COLARG(c));
    *out = (rc_value){.kind = RC_V_INVALID, .s = {s, b->len}};
    return RC_OK;
}

rc_status rc_my_json_value(const rc_my_col *c, const uint8_t *p, size_t n, rc_value *out, rc_arena *a, rc_error *err)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_error e;
    rc_error_clear(&e);
    rc_status st = rc_my_json_text(p, n, &b, &e);
    if (st == RC_ERR_VALUE) {
        st = unreadable(c, p, n, &b, out, a, err);
        rc_buf_fini(&b);
        return st;
    }
    if (st == RC_OK && b.err != RC_OK) st = rc_error_set(&e, b.err, 0, "the JSON text does not fit in memory");
    char *s = st == RC_OK ? rc_arena_memdup(a, b.data, b.len) : NULL;
    if (st == RC_OK && !s) st = rc_error_set(&e, RC_ERR_NOMEM, 0, "out of memory");
    if (st == RC_OK) *out = (rc_value){.kind = RC_V_JSON, .s = {s, b.len}};
    else rc_error_set(err, st, e.offset, RC_MY_COLFMT ": %s", RC_MY_COLARG(c), e.message);
    rc_buf_fini(&b);
    return st;
}
