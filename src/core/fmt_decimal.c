/* Arbitrary-precision decimals as digits + scale, laid out like Java BigDecimal. */
#include <stdlib.h>
#include <string.h>
#include "core/fmt.h"

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

rc_status rc_dec_parse(const char *s, size_t n, rc_arena *a, rc_decimal *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    size_t int_start = i;
    while (i < n && is_digit(s[i])) i++;
    size_t int_len = i - int_start, frac_start = i, frac_len = 0;
    if (i < n && s[i] == '.') {
        frac_start = ++i;
        while (i < n && is_digit(s[i])) i++;
        frac_len = i - frac_start;
    }
    if (int_len + frac_len == 0) return RC_ERR_VALUE;
    int64_t exp = 0;
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < n && (s[i] == '-' || s[i] == '+')) eneg = s[i++] == '-';
        if (i >= n || !is_digit(s[i])) return RC_ERR_VALUE;
        while (i < n && is_digit(s[i])) {
            exp = exp * 10 + (s[i++] - '0');
            if (exp > 1000000000) return RC_ERR_RANGE;
        }
        if (eneg) exp = -exp;
    }
    if (i != n) return RC_ERR_VALUE;
    int64_t scale = (int64_t)frac_len - exp;
    if (scale > RC_DEC_MAX_SCALE || scale < -RC_DEC_MAX_SCALE) return RC_ERR_RANGE;

    size_t total = int_len + frac_len;
    char *d = rc_arena_alloc(a, total + 1);
    if (!d) return RC_ERR_NOMEM;
    memcpy(d, s + int_start, int_len);
    memcpy(d + int_len, s + frac_start, frac_len);
    size_t lead = 0;
    while (lead + 1 < total && d[lead] == '0') lead++;
    out->digits = d + lead;
    out->ndigits = (uint32_t)(total - lead);
    out->scale = (int32_t)scale;
    out->neg = neg && !(out->ndigits == 1 && out->digits[0] == '0');
    return RC_OK;
}

static void put_zeros(rc_buf *b, size_t k)
{
    char *w = rc_buf_reserve(b, k);
    if (!w) return;
    memset(w, '0', k);
    rc_buf_commit(b, k);
}

void rc_fmt_dec_plain(rc_buf *b, const rc_decimal *d)
{
    bool zero = d->ndigits == 1 && d->digits[0] == '0';
    if (d->neg) rc_buf_putc(b, '-');
    if (d->scale <= 0) {
        rc_buf_put(b, d->digits, d->ndigits);
        if (!zero) put_zeros(b, (size_t)(-(int64_t)d->scale));
        return;
    }
    size_t sc = (size_t)d->scale;
    if (d->ndigits > sc) {
        size_t ip = d->ndigits - sc;
        rc_buf_put(b, d->digits, ip);
        rc_buf_putc(b, '.');
        rc_buf_put(b, d->digits + ip, sc);
    } else {
        RC_BUF_LIT(b, "0.");
        put_zeros(b, sc - d->ndigits);
        rc_buf_put(b, d->digits, d->ndigits);
    }
}

void rc_fmt_dec_java(rc_buf *b, const rc_decimal *d)
{
    int64_t adjusted = -(int64_t)d->scale + ((int64_t)d->ndigits - 1);
    if (d->scale >= 0 && adjusted >= -6) {
        rc_fmt_dec_plain(b, d);
        return;
    }
    if (d->neg) rc_buf_putc(b, '-');
    rc_buf_putc(b, d->digits[0]);
    if (d->ndigits > 1) {
        rc_buf_putc(b, '.');
        rc_buf_put(b, d->digits + 1, d->ndigits - 1);
    }
    rc_buf_putc(b, 'E');
    if (adjusted >= 0) rc_buf_putc(b, '+');
    rc_fmt_i64(b, adjusted);
}

void rc_fmt_dec_canonical(rc_buf *b, const rc_decimal *d)
{
    if (d->scale >= 0) rc_fmt_dec_plain(b, d);
    else rc_fmt_dec_java(b, d);
}

/* The value of k < 20 decimal digits. */
static uint64_t digits_u64(const char *s, uint32_t k)
{
    uint64_t m = 0;
    for (uint32_t i = 0; i < k; i++) m = m * 10 + (unsigned)(s[i] - '0');
    return m;
}

size_t rc_dec_unscaled_small(const rc_decimal *d, unsigned char out[8])
{
    if (d->ndigits > 18) return 0;
    uint64_t m = digits_u64(d->digits, d->ndigits);
    if (d->neg && !m) return 0; /* -0: the long path's bytes */
    int64_t x = d->neg ? -(int64_t)m : (int64_t)m;
    uint64_t mag = x < 0 ? ~(uint64_t)x : (uint64_t)x; /* the bits besides the sign's */
    unsigned bits = mag ? 64u - (unsigned)__builtin_clzll(mag) : 0;
    size_t n = bits / 8 + 1; /* the fewest bytes that keep a sign bit */
    /* m < 10^18 < 2^60, so n <= 8; said for GCC -O3, whose stringop-overflow sees n up to 9 */
    if (n > 8) return 0;
    for (size_t k = 0; k < n; k++) out[k] = (unsigned char)((uint64_t)x >> (8 * (n - 1 - k)));
    return n;
}

void rc_dec_unscaled_bytes(rc_buf *b, const rc_decimal *d)
{
    unsigned char small[8];
    size_t ns = rc_dec_unscaled_small(d, small);
    if (ns) {
        rc_buf_put(b, small, ns);
        return;
    }
    /* the magnitude in 32-bit limbs, little-endian: times 10^9 and plus the next nine digits
     * (the first group: what is left over), one pass over the limbs per group */
    size_t cap = d->ndigits / 9 + 2, n = 1;
    uint32_t stack[64], *limb = cap <= sizeof stack / sizeof *stack ? stack : malloc(cap * sizeof *limb);
    unsigned char mstack[sizeof stack + 1], *mag = cap * 4 + 1 <= sizeof mstack ? mstack : malloc(cap * 4 + 1);
    if (!limb || !mag) {
        if (limb != stack) free(limb);
        if (mag != mstack) free(mag);
        b->err = RC_ERR_NOMEM;
        return;
    }
    static const uint32_t pow10[10] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};
    limb[0] = 0;
    for (uint32_t i = 0, k = d->ndigits % 9 ? d->ndigits % 9 : 9; i < d->ndigits; i += k, k = 9) {
        uint64_t carry = digits_u64(d->digits + i, k);
        for (size_t j = 0; j < n; j++) {
            uint64_t v = (uint64_t)limb[j] * pow10[k] + carry;
            limb[j] = (uint32_t)v;
            carry = v >> 32;
        }
        if (carry) limb[n++] = (uint32_t)carry;
    }
    size_t nb = n * 4;
    for (size_t j = 0; j < nb; j++) mag[j] = (unsigned char)(limb[j / 4] >> (8 * (j % 4)));
    if (limb != stack) free(limb);
    n = nb;
    while (n > 1 && mag[n - 1] == 0) n--;
    if (d->neg) { /* two's complement: invert and add one */
        unsigned carry = 1;
        for (size_t k = 0; k < n; k++) {
            unsigned v = (unsigned char)~mag[k] + carry;
            mag[k] = (unsigned char)v;
            carry = v >> 8;
        }
        /* keep the sign: drop redundant FF bytes, add one if the top bit is clear */
        while (n > 1 && mag[n - 1] == 0xFF && (mag[n - 2] & 0x80)) n--;
        if (!(mag[n - 1] & 0x80)) mag[n++] = 0xFF;
    } else if (mag[n - 1] & 0x80) {
        mag[n++] = 0x00;
    }
    char *w = rc_buf_reserve(b, n);
    if (w) {
        for (size_t k = 0; k < n; k++) w[k] = (char)mag[n - 1 - k];
        rc_buf_commit(b, n);
    }
    if (mag != mstack) free(mag);
}
