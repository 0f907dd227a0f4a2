/* Key images of the incremental snapshot core (incsnap.h): rc_values serialised as kind,
 * length and bytes, so that a row read by a chunk SELECT and the same row decoded from the
 * stream compare equal byte for byte, and read back to bind the next chunk's key. */
#include <string.h>
#include "sources/incsnap.h"

enum { IMG_HEAD = 5 }; /* kind byte + 4-byte length */

static void put_u32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* The fixed-size fields of the temporal kinds, in one order for writing and reading. */
typedef struct fields {
    uint64_t f[8];
    unsigned n;
} fields;

static void fields_of(const rc_value *v, fields *o)
{
    switch (v->kind) {
    case RC_V_DATE:
        *o = (fields){{(uint64_t)(int64_t)v->date.year, v->date.month, v->date.day}, 3};
        break;
    case RC_V_TIME:
        *o =
            (fields){{v->time.hour, v->time.minute, v->time.second, v->time.neg, v->time.nanos}, 5};
        break;
    case RC_V_DATETIME:
        *o = (fields){{(uint64_t)(int64_t)v->dt.year, v->dt.month, v->dt.day, v->dt.hour,
                       v->dt.minute, v->dt.second, v->dt.nanos},
                      7};
        break;
    case RC_V_TIMESTAMP:
        *o = (fields){{(uint64_t)v->ts.sec, v->ts.nanos}, 2};
        break;
    default:
        o->n = 0;
        break;
    }
}

static void value_of(rc_value *v, const fields *o)
{
    const uint64_t *f = o->f;
    switch (v->kind) {
    case RC_V_DATE:
        v->date = (rc_date){(int32_t)f[0], (uint8_t)f[1], (uint8_t)f[2]};
        break;
    case RC_V_TIME:
        v->time =
            (rc_time){(uint32_t)f[0], (uint8_t)f[1], (uint8_t)f[2], f[3] != 0, (uint32_t)f[4]};
        break;
    case RC_V_DATETIME:
        v->dt = (rc_datetime){(int32_t)f[0], (uint8_t)f[1], (uint8_t)f[2],  (uint8_t)f[3],
                              (uint8_t)f[4], (uint8_t)f[5], (uint32_t)f[6], {NULL, 0}};
        break;
    case RC_V_TIMESTAMP:
        v->ts = (rc_timestamp){(int64_t)f[0], (uint32_t)f[1]};
        break;
    default:
        break;
    }
}

static bool is_string_kind(rc_vkind k)
{
    switch (k) {
    case RC_V_TEXT:
    case RC_V_BYTES:
    case RC_V_INTERVAL:
    case RC_V_JSON:
    case RC_V_ENUM:
    case RC_V_SET:
    case RC_V_GEOMETRY:
    case RC_V_INVALID:
        return true;
    default:
        return false;
    }
}

/* The payload of one value: fixed bytes into fixed[], or a pointer to the string bytes (a
 * DATETIME's zone and a decimal's digits follow their fixed part). */
static size_t payload(const rc_value *v, unsigned char *fixed, size_t *fixedn, rc_str *tail)
{
    *fixedn = 0;
    *tail = (rc_str){NULL, 0};
    fields f;
    switch (v->kind) {
    case RC_V_NULL:
        break;
    case RC_V_BOOL:
        fixed[0] = v->b, *fixedn = 1;
        break;
    case RC_V_INT:
    case RC_V_UINT:
    case RC_V_BITS:
        put_u64(fixed, v->u), *fixedn = 8;
        break;
    case RC_V_FLOAT32: {
        uint32_t b;
        memcpy(&b, &v->f32, 4), put_u32(fixed, b), *fixedn = 4;
        break;
    }
    case RC_V_FLOAT64: {
        uint64_t b;
        memcpy(&b, &v->f64, 8), put_u64(fixed, b), *fixedn = 8;
        break;
    }
    case RC_V_DECIMAL:
        fixed[0] = v->dec.neg, put_u32(fixed + 1, (uint32_t)v->dec.scale), *fixedn = 5;
        *tail = (rc_str){v->dec.digits, v->dec.ndigits};
        break;
    default:
        if (is_string_kind(v->kind)) {
            *tail = v->s;
            break;
        }
        fields_of(v, &f);
        for (unsigned i = 0; i < f.n; i++) put_u64(fixed + 8 * i, f.f[i]);
        *fixedn = 8 * f.n;
        if (v->kind == RC_V_DATETIME) *tail = v->dt.zone;
        break;
    }
    return *fixedn + tail->n;
}

rc_status rc_incsnap_key_image(rc_buf *out, const rc_value *v, size_t n, rc_error *err)
{
    for (size_t i = 0; i < n; i++) {
        if (v[i].kind == RC_V_UNAVAILABLE || v[i].kind >= RC_V_KIND_COUNT)
            return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET,
                                "key column %zu has no value to compare", i + 1);
        unsigned char fixed[64];
        size_t fixedn;
        rc_str tail;
        size_t len = payload(&v[i], fixed, &fixedn, &tail);
        if (len > UINT32_MAX)
            return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET, "key column %zu too long", i + 1);
        unsigned char *p = (unsigned char *)rc_buf_reserve(out, IMG_HEAD + len);
        if (!p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        p[0] = (unsigned char)v[i].kind;
        put_u32(p + 1, (uint32_t)len);
        memcpy(p + IMG_HEAD, fixed, fixedn);
        if (tail.n) memcpy(p + IMG_HEAD + fixedn, tail.p, tail.n);
        rc_buf_commit(out, IMG_HEAD + len);
    }
    return RC_OK;
}

/* Fixed bytes before the string tail, by kind (decode side of payload). */
static size_t fixed_size(rc_vkind k)
{
    switch (k) {
    case RC_V_NULL:
        return 0;
    case RC_V_BOOL:
        return 1;
    case RC_V_FLOAT32:
        return 4;
    case RC_V_INT:
    case RC_V_UINT:
    case RC_V_BITS:
    case RC_V_FLOAT64:
        return 8;
    case RC_V_DECIMAL:
        return 5;
    case RC_V_DATE:
        return 24;
    case RC_V_TIME:
        return 40;
    case RC_V_DATETIME:
        return 56;
    case RC_V_TIMESTAMP:
        return 16;
    default:
        return 0;
    }
}

static bool has_tail(rc_vkind k)
{
    return is_string_kind(k) || k == RC_V_DECIMAL || k == RC_V_DATETIME;
}

rc_status rc_incsnap_key_decode(const void *img, size_t imgn, rc_value *v, size_t max, size_t *n,
                                rc_error *err)
{
    const unsigned char *p = img, *end = p + imgn;
    size_t k = 0;
    while (p < end) {
        size_t off = (size_t)(p - (const unsigned char *)img);
        if ((size_t)(end - p) < IMG_HEAD || p[0] >= RC_V_UNAVAILABLE)
            return rc_error_set(err, RC_ERR_SYNTAX, off, "not a key image");
        rc_vkind kind = p[0];
        size_t len = get_u32(p + 1), fixedn = fixed_size(kind);
        if ((size_t)(end - p) - IMG_HEAD < len || len < fixedn ||
            (!has_tail(kind) && len != fixedn))
            return rc_error_set(err, RC_ERR_SYNTAX, off, "not a key image");
        if (k == max)
            return rc_error_set(err, RC_ERR_SYNTAX, off, "key image of more than %zu values", max);
        const unsigned char *q = p + IMG_HEAD;
        rc_value *o = &v[k++];
        memset(o, 0, sizeof *o);
        o->kind = kind;
        rc_str tail = {(const char *)q + fixedn, len - fixedn};
        fields f = {{0}, (unsigned)(fixedn / 8)};
        switch (kind) {
        case RC_V_NULL:
            break;
        case RC_V_BOOL:
            o->b = q[0] != 0;
            break;
        case RC_V_INT:
        case RC_V_UINT:
        case RC_V_BITS:
            o->u = get_u64(q);
            break;
        case RC_V_FLOAT32: {
            uint32_t b = get_u32(q);
            memcpy(&o->f32, &b, 4);
            break;
        }
        case RC_V_FLOAT64: {
            uint64_t b = get_u64(q);
            memcpy(&o->f64, &b, 8);
            break;
        }
        case RC_V_DECIMAL:
            o->dec = (rc_decimal){tail.p, (uint32_t)tail.n, (int32_t)get_u32(q + 1), q[0] != 0};
            break;
        default:
            if (is_string_kind(kind)) {
                o->s = tail;
                break;
            }
            for (unsigned i = 0; i < f.n; i++) f.f[i] = get_u64(q + 8 * i);
            value_of(o, &f);
            if (kind == RC_V_DATETIME) o->dt.zone = tail;
            break;
        }
        /* only the bytes rc_incsnap_key_image writes (a BOOL of 2, a month of 300: not images) */
        unsigned char again[64];
        size_t againn;
        rc_str t2;
        payload(o, again, &againn, &t2);
        if (againn != fixedn || memcmp(again, q, fixedn))
            return rc_error_set(err, RC_ERR_SYNTAX, off, "not a key image");
        p += IMG_HEAD + len;
    }
    *n = k;
    return RC_OK;
}

int rc_incsnap_key_order(const void *a, size_t an, const void *b, size_t bn)
{
    const unsigned char *p = a, *q = b, *pe = p + an, *qe = q + bn;
    if (!an || !bn) return RC_INCSNAP_UNORDERED;
    for (; p < pe && q < qe; p += IMG_HEAD + 8, q += IMG_HEAD + 8) {
        if (pe - p < IMG_HEAD + 8 || qe - q < IMG_HEAD + 8 || p[0] != q[0] ||
            (p[0] != RC_V_INT && p[0] != RC_V_UINT) || get_u32(p + 1) != 8 || get_u32(q + 1) != 8)
            return RC_INCSNAP_UNORDERED;
        uint64_t x = get_u64(p + IMG_HEAD), y = get_u64(q + IMG_HEAD);
        int c = p[0] == RC_V_INT ? ((int64_t)x > (int64_t)y) - ((int64_t)x < (int64_t)y) : (x > y) - (x < y);
        if (c) return c;
    }
    return p == pe && q == qe ? 0 : RC_INCSNAP_UNORDERED;
}
