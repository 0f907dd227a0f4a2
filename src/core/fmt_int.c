/* Integer text: writing with a two-digit table, parsing with exact range checks. */
#include <string.h>
#include "core/fmt.h"

const char rc_fmt_digits2[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                  "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                  "8081828384858687888990919293949596979899";

static const uint64_t pow10s[20] = {1u,
                                    10u,
                                    100u,
                                    1000u,
                                    10000u,
                                    100000u,
                                    1000000u,
                                    10000000u,
                                    100000000u,
                                    1000000000u,
                                    10000000000u,
                                    100000000000u,
                                    1000000000000u,
                                    10000000000000u,
                                    100000000000000u,
                                    1000000000000000u,
                                    10000000000000000u,
                                    100000000000000000u,
                                    1000000000000000000u,
                                    10000000000000000000u};

/* Decimal digits of v >= 10: log10 from the bit length (1233/4096 ~ log10 2), then one
 * comparison. */
static unsigned ndigits(uint64_t v)
{
    unsigned t = ((64u - (unsigned)__builtin_clzll(v)) * 1233u) >> 12;
    return t + 1u - (v < pow10s[t]);
}

/* Four digits of v < 10000 ending at p (two pairs from the table, each a two-byte copy). */
static inline char *put4(char *p, uint32_t v)
{
    uint32_t hi = v / 100, lo = v - hi * 100;
    memcpy(p - 2, rc_fmt_digits2 + lo * 2, 2);
    memcpy(p - 4, rc_fmt_digits2 + hi * 2, 2);
    return p - 4;
}

/* Decimal digits of v: len of them (ndigits(v), or 1 for v < 10) at w; the end. */
static inline __attribute__((always_inline)) char *digits_at(char *w, uint64_t v, unsigned len)
{
    char *p = w + len; /* written backwards, four digits at a time */
    while (v >= 100000000u) { /* eight digits split off, then 32-bit arithmetic for them */
        uint32_t lo = (uint32_t)(v % 100000000u);
        v /= 100000000u;
        uint32_t hi4 = lo / 10000;
        p = put4(put4(p, lo - hi4 * 10000), hi4);
    }
    uint32_t v32 = (uint32_t)v; /* below 10^8 */
    while (v32 >= 10000) {
        uint32_t q = v32 / 10000;
        p = put4(p, v32 - q * 10000);
        v32 = q;
    }
    if (v32 >= 100) {
        uint32_t q = v32 / 100;
        memcpy(p - 2, rc_fmt_digits2 + (v32 - q * 100) * 2, 2);
        p -= 2;
        v32 = q;
    }
    if (v32 >= 10) memcpy(p - 2, rc_fmt_digits2 + v32 * 2, 2);
    else p[-1] = (char)('0' + v32);
    return w + len;
}

static inline unsigned len_of(uint64_t v) { return v < 10 ? 1 : ndigits(v); }

char *rc_fmt_u64_at(char *w, uint64_t v) { return digits_at(w, v, len_of(v)); }

char *rc_fmt_i64_at(char *w, int64_t v)
{
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    *w = '-'; /* overwritten by the digits when not negative */
    w += v < 0;
    return digits_at(w, m, len_of(m));
}

/* The buffer's writers reserve what the digits take, not RC_FMT_INT_MAX: a buffer near its
 * limit takes a number that fits. */
void rc_fmt_u64(rc_buf *b, uint64_t v)
{
    if (v < 10) { /* one digit (flags, key positions, small counts): no digit count */
        rc_buf_putc(b, (char)('0' + v));
        return;
    }
    unsigned len = ndigits(v);
    char *w = rc_buf_reserve(b, len);
    if (w) digits_at(w, v, len), rc_buf_commit(b, len);
}

void rc_fmt_i64(rc_buf *b, int64_t v)
{
    if (v >= 0 && v < 10) {
        rc_buf_putc(b, (char)('0' + v));
        return;
    }
    uint64_t m = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    unsigned len = len_of(m), neg = v < 0;
    char *w = rc_buf_reserve(b, len + neg);
    if (!w) return;
    *w = '-'; /* overwritten by the digits when not negative */
    digits_at(w + neg, m, len), rc_buf_commit(b, len + neg);
}

/* One pass over s[0..n): an optional '-' (*neg), then digits without a leading zero (JSON
 * syntax: RC_ERR_VALUE otherwise), accumulated up to max (RC_ERR_RANGE past it). */
static rc_status digits_value(const char *s, size_t n, bool *neg, uint64_t max, uint64_t *out)
{
    size_t i = n && s[0] == '-';
    *neg = i;
    if (i >= n || (s[i] == '0' && n - i > 1)) return RC_ERR_VALUE;
    uint64_t v = 0;
    if (n - i <= 18) { /* below 10^18: no overflow possible, no checks */
        for (; i < n; i++) {
            unsigned d = (unsigned)(unsigned char)s[i] - '0';
            if (d > 9) return RC_ERR_VALUE;
            v = v * 10 + d;
        }
        if (v > max) return RC_ERR_RANGE;
        *out = v;
        return RC_OK;
    }
    rc_status st = RC_OK;
    for (; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9) return RC_ERR_VALUE; /* a syntax error wins over a range error */
        if (v > (max - d) / 10) st = RC_ERR_RANGE;
        else v = v * 10 + d;
    }
    if (st == RC_OK) *out = v;
    return st;
}

rc_status rc_parse_u64(const char *s, size_t n, uint64_t *out)
{
    bool neg;
    uint64_t v;
    rc_status st = digits_value(s, n, &neg, UINT64_MAX, &v);
    if (st == RC_OK && neg && v) return RC_ERR_RANGE; /* "-0" is zero; any other negative number is out of range */
    if (st == RC_OK) *out = v;
    return st;
}

rc_status rc_parse_i64(const char *s, size_t n, int64_t *out)
{
    bool neg = n && s[0] == '-';
    uint64_t mag;
    rc_status st = digits_value(s, n, &neg, neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX, &mag);
    if (st != RC_OK) return st;
    *out = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    return RC_OK;
}
