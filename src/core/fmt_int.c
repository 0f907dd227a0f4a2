/* Integer text: writing with a two-digit table, parsing with exact range checks. */
#include "rowcast/fmt.h"

static const char digits2[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                 "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                 "8081828384858687888990919293949596979899";

void rc_fmt_u64(rc_buf *b, uint64_t v)
{
    char tmp[20];
    char *end = tmp + sizeof tmp, *p = end;
    while (v >= 100) {
        unsigned r = (unsigned)(v % 100) * 2;
        v /= 100;
        *--p = digits2[r + 1];
        *--p = digits2[r];
    }
    if (v >= 10) {
        unsigned r = (unsigned)v * 2;
        *--p = digits2[r + 1];
        *--p = digits2[r];
    } else {
        *--p = (char)('0' + v);
    }
    rc_buf_put(b, p, (size_t)(end - p));
}

void rc_fmt_i64(rc_buf *b, int64_t v)
{
    if (v < 0) {
        rc_buf_putc(b, '-');
        rc_fmt_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        rc_fmt_u64(b, (uint64_t)v);
    }
}

/* Accumulates the digits of s[0..n) (already known to be [0-9]+); RC_ERR_RANGE past max. */
static rc_status accumulate(const char *s, size_t n, uint64_t max, uint64_t *out)
{
    uint64_t v = 0;
    if (n <= 18) { /* below 10^18: no overflow possible, no checks */
        for (size_t i = 0; i < n; i++) v = v * 10 + (unsigned)(s[i] - '0');
        if (v > max) return RC_ERR_RANGE;
        *out = v;
        return RC_OK;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (max - d) / 10) return RC_ERR_RANGE;
        v = v * 10 + d;
    }
    *out = v;
    return RC_OK;
}

static bool int_syntax(const char *s, size_t n, size_t *start)
{
    size_t i = 0;
    if (i < n && s[i] == '-') i++;
    if (i >= n) return false;
    if (s[i] == '0' && n - i > 1) return false; /* JSON: no leading zeros */
    for (size_t k = i; k < n; k++)
        if (s[k] < '0' || s[k] > '9') return false;
    *start = i;
    return true;
}

rc_status rc_parse_u64(const char *s, size_t n, uint64_t *out)
{
    size_t i;
    if (!int_syntax(s, n, &i)) return RC_ERR_VALUE;
    if (i == 1) {
        /* "-0" is zero; any other negative number is out of range */
        if (n == 2 && s[1] == '0') return *out = 0, RC_OK;
        return RC_ERR_RANGE;
    }
    return accumulate(s, n, UINT64_MAX, out);
}

rc_status rc_parse_i64(const char *s, size_t n, int64_t *out)
{
    size_t i;
    if (!int_syntax(s, n, &i)) return RC_ERR_VALUE;
    uint64_t mag;
    uint64_t max = i ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    rc_status st = accumulate(s + i, n - i, max, &mag);
    if (st != RC_OK) return st;
    *out = i ? (int64_t)(0 - mag) : (int64_t)mag;
    return RC_OK;
}
