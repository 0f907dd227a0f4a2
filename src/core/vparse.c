/* Typed values from text (see vparse.h). */
#include <stdlib.h>
#include <string.h>
#include "core/fmt.h"
#include "core/jsonw.h"
#include "core/vparse.h"

static rc_status bad(const rc_column *col, const char *s, size_t n, const char *what, rc_status code, rc_error *err)
{
    return rc_error_set(err, code, RC_NO_OFFSET, "column \"%.*s\" (%.*s): \"%.*s\" is not %s", (int)col->name.n, col->name.p,
                        (int)col->type.decl.n, col->type.decl.p, (int)(n > 40 ? 40 : n), s, what);
}

static rc_status copy(rc_arena *a, const char *s, size_t n, rc_str *out)
{
    char *p = rc_arena_memdup(a, s, n);
    if (!p) return RC_ERR_NOMEM;
    *out = (rc_str){p, n};
    return RC_OK;
}

bool rc_latin1_bytes(const char *s, size_t n, rc_arena *a, rc_str *out)
{
    unsigned char *d = rc_arena_alloc(a, n + 1);
    if (!d) return false;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c < 0x80) d[o++] = c;
        else if ((c == 0xC2 || c == 0xC3) && i + 1 < n && ((unsigned char)s[i + 1] & 0xC0) == 0x80)
            d[o++] = (unsigned char)(((c & 0x03) << 6) | ((unsigned char)s[++i] & 0x3F));
        else return false;
    }
    *out = (rc_str){(const char *)d, o};
    return true;
}

static bool hex_bytes(const char *s, size_t n, rc_arena *a, rc_str *out)
{
    if (n % 2) return false;
    unsigned char *d = rc_arena_alloc(a, n / 2 + 1);
    if (!d) return false;
    for (size_t i = 0; i < n; i += 2) {
        int v = 0;
        for (int k = 0; k < 2; k++) {
            char c = s[i + k];
            int h = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
            if (h < 0) return false;
            v = v * 16 + h;
        }
        d[i / 2] = (unsigned char)v;
    }
    *out = (rc_str){(const char *)d, n / 2};
    return true;
}

/* Java's Arrays.toString(byte[]): "[]" or "[b, b, ...]" with each b in -128..127. */
static bool java_list_bytes(const char *s, size_t n, rc_arena *a, rc_str *out)
{
    if (n < 2 || s[0] != '[' || s[n - 1] != ']') return false;
    unsigned char *d = rc_arena_alloc(a, n / 2 + 1);
    if (!d) return false;
    size_t o = 0, i = 1;
    while (i < n - 1) {
        if (o && (i + 1 >= n - 1 || s[i] != ',' || s[i + 1] != ' ')) return false;
        if (o) i += 2;
        bool neg = s[i] == '-';
        i += neg;
        int v = 0, digits = 0;
        while (i < n - 1 && s[i] >= '0' && s[i] <= '9' && digits < 4) v = v * 10 + (s[i++] - '0'), digits++;
        if (!digits || (neg ? v > 128 : v > 127)) return false;
        d[o++] = (unsigned char)(neg ? 256 - v : v);
    }
    *out = (rc_str){(const char *)d, o};
    return true;
}

/* Zero dates and partial dates MySQL can store: kept as their text. */
/* Clinger's fast path of strtod for [-]DIGITS[.DIGITS] with at most 15 digits: m < 10^15 and
 * 10^k (k <= 15) are exact doubles and IEEE division is correctly rounded, so m / 10^k is the
 * double strtod gives, without its general (multi-precision) path. False: anything else (an
 * exponent, more digits, a sign '+', spaces), for strtod. */
static bool decimal_fast(const char *s, size_t n, double *out)
{
    static const double p10[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    size_t i = n && s[0] == '-', nd = 0;
    int k = -1; /* decimals after the point (-1: no point) */
    uint64_t m = 0;
    for (; i < n; i++) {
        if (s[i] == '.' && k < 0) k = 0;
        else if (s[i] >= '0' && s[i] <= '9' && ++nd <= 15) m = m * 10 + (uint64_t)(s[i] - '0'), k += k >= 0;
        else return false;
    }
    if (!nd || nd > 15) return false;
    double d = (double)m / p10[k < 0 ? 0 : k];
    *out = n && s[0] == '-' ? -d : d;
    return true;
}

static bool zero_like(const char *s, size_t n)
{
    return n >= 10 && s[4] == '-' && s[7] == '-' && (!memcmp(s, "0000", 4) || !memcmp(s + 5, "00", 2) || !memcmp(s + 8, "00", 2));
}

rc_status rc_value_from_text(const rc_column *col, const char *s, size_t n, const rc_vparse_opts *o, rc_arena *a,
                             rc_value *v, rc_error *err)
{
    memset(v, 0, sizeof *v);
    rc_vkind kind = (rc_vkind)col->type.info->vkind;
    v->kind = kind;
    rc_status st;
    switch (kind) {
    case RC_V_BOOL:
        if ((n == 1 && s[0] == '1') || (n == 4 && !memcmp(s, "true", 4))) return v->b = true, RC_OK;
        if ((n == 1 && s[0] == '0') || (n == 5 && !memcmp(s, "false", 5))) return v->b = false, RC_OK;
        return bad(col, s, n, "a boolean", RC_ERR_VALUE, err);
    case RC_V_INT:
        if ((st = rc_parse_i64(s, n, &v->i)) != RC_OK) return bad(col, s, n, st == RC_ERR_RANGE ? "within int64" : "an integer", st, err);
        return RC_OK;
    case RC_V_UINT:
    case RC_V_BITS:
        if ((st = rc_parse_u64(s, n, &v->u)) != RC_OK) return bad(col, s, n, st == RC_ERR_RANGE ? "within 0..2^64-1" : "an integer", st, err);
        if (kind == RC_V_BITS && !rc_bits_fit(col, v->u)) return bad(col, s, n, "within the BIT width", RC_ERR_RANGE, err);
        return RC_OK;
    case RC_V_DECIMAL:
        if ((st = rc_dec_parse(s, n, a, &v->dec)) != RC_OK) return bad(col, s, n, "a decimal number", st, err);
        return RC_OK;
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: {
        double d;
        if (decimal_fast(s, n, &d)) {
            if (kind == RC_V_FLOAT32) v->f32 = (float)d;
            else v->f64 = d;
            return RC_OK;
        }
        /* OMS writes some doubles as their exact decimal expansion (hundreds of digits) */
        char small[64], *tmp = n < sizeof small ? small : rc_arena_alloc(a, n + 1);
        if (!tmp) return RC_ERR_NOMEM;
        if (n == 0) return bad(col, s, n, "a number", RC_ERR_VALUE, err);
        memcpy(tmp, s, n);
        tmp[n] = '\0';
        char *end;
        d = strtod(tmp, &end);
        if (*end) return bad(col, s, n, "a number", RC_ERR_VALUE, err);
        if (kind == RC_V_FLOAT32) v->f32 = (float)d;
        else v->f64 = d;
        return RC_OK;
    }
    case RC_V_BYTES: {
        bool ok;
        size_t badpos;
        if (o->bytes == RC_BYTES_BASE64) ok = rc_base64_decode(s, n, a, &v->s, &badpos) == RC_OK;
        else if (o->bytes == RC_BYTES_BASE64URL) ok = rc_base64url_decode(s, n, a, &v->s, &badpos) == RC_OK;
        else if (o->bytes == RC_BYTES_HEX) ok = hex_bytes(s, n, a, &v->s);
        else if (o->bytes == RC_BYTES_JAVA_LIST) ok = java_list_bytes(s, n, a, &v->s);
        else ok = rc_latin1_bytes(s, n, a, &v->s);
        static const char *const what[] = {"Latin-1 text", "base64", "hex", "a Java byte list like [106, -1]", "URL-safe base64"};
        if (!ok) return bad(col, s, n, what[o->bytes], RC_ERR_VALUE, err);
        return RC_OK;
    }
    case RC_V_DATE:
        if (rc_parse_date(s, n, &v->date)) return RC_OK;
        break;
    case RC_V_TIME:
        if (rc_parse_time(s, n, &v->time)) return RC_OK;
        break;
    case RC_V_DATETIME:
        if (rc_parse_datetime(s, n, &v->dt)) {
            if (v->dt.zone.n && copy(a, v->dt.zone.p, v->dt.zone.n, &v->dt.zone) != RC_OK) return RC_ERR_NOMEM;
            return RC_OK;
        }
        break;
    case RC_V_TIMESTAMP: {
        if (rc_parse_ts_iso(s, n, &v->ts)) return RC_OK;
        rc_datetime dt;
        if (rc_parse_datetime(s, n, &dt) && !dt.zone.n) { /* wall clock in the configured offset */
            int64_t local = rc_datetime_epoch_sec(&dt);
            v->ts.sec = local - rc_tz_offset_of_local(&o->ts_tz, local);
            v->ts.nanos = dt.nanos;
            return RC_OK;
        }
        /* epoch seconds with fraction ("1606233662.012345") */
        rc_decimal d;
        if (rc_dec_parse(s, n, a, &d) == RC_OK && d.scale >= 0 && d.scale <= 9 &&
            (d.ndigits > (uint32_t)d.scale ? d.ndigits - (uint32_t)d.scale : 0) <= 18) {
            int64_t sec = 0;
            uint32_t frac = 0, intd = d.ndigits > (uint32_t)d.scale ? d.ndigits - (uint32_t)d.scale : 0; /* "0.000001": no integer digits */
            for (uint32_t i = 0; i < d.ndigits; i++) {
                if (i < intd) sec = sec * 10 + (d.digits[i] - '0');
                else frac = frac * 10 + (uint32_t)(d.digits[i] - '0');
            }
            for (int32_t k = d.scale; k < 9; k++) frac *= 10;
            v->ts.sec = d.neg ? -sec - (frac ? 1 : 0) : sec;
            v->ts.nanos = d.neg && frac ? 1000000000u - frac : frac;
            if (v->ts.sec < -62167219200LL || v->ts.sec > 253402300799LL) /* years 0..9999, as every format writes them */
                return bad(col, s, n, "an instant within the years 0 to 9999", RC_ERR_RANGE, err);
            return RC_OK;
        }
        break;
    }
    default: /* text, enum, set, json, interval, geometry */
        if (copy(a, s, n, &v->s) != RC_OK) return RC_ERR_NOMEM;
        return RC_OK;
    }
    /* a date or time the type cannot hold: zero dates keep their text, anything else is an error */
    if (zero_like(s, n) || (n >= 8 && !memcmp(s, "00:00:00", 8) && kind != RC_V_TIME)) {
        v->kind = RC_V_INVALID;
        if (copy(a, s, n, &v->s) != RC_OK) return RC_ERR_NOMEM;
        return RC_OK;
    }
    return bad(col, s, n, "a valid date or time", RC_ERR_VALUE, err);
}
