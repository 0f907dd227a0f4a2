/* Packed DECIMAL (NEWDECIMAL) in row images and in binary JSON's opaque values: MySQL's
 * decimal2bin layout. The digits are split into groups of nine, each stored big-endian in four
 * bytes; a shorter group of the integer part's leading digits and of the fraction's trailing
 * digits takes 1 to 4 bytes (dig2bytes). The top bit of the first byte is set for a
 * non-negative number; a negative number has every byte inverted. The digits are kept as
 * digits (rc_decimal): nothing passes through a double. Columns have at most 65 digits; a
 * decimal inside binary JSON may have up to 81 (MySQL writes a DECIMAL(65,10) value cast to
 * JSON as DECIMAL(73,10)). */
#include <string.h>
#include "rowcast/error.h"
#include "core/fmt.h"
#include "my_value_int.h"

static const uint8_t dig2bytes[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
static const uint32_t pow10[10] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

size_t rc_my_packed_decimal_size(unsigned precision, unsigned scale)
{
    if (precision == 0 || precision > 81 || scale > precision) return 0;
    unsigned intg = precision - scale;
    return (size_t)(intg / 9) * 4 + dig2bytes[intg % 9] + (size_t)(scale / 9) * 4 + dig2bytes[scale % 9];
}

/* Writes v as `ndig` digits (zero-padded) at w, two at a time (a digit at a time was a third of
 * a value's instructions). */
static void put_digits(char *w, uint32_t v, unsigned ndig)
{
    unsigned i = ndig;
    for (; i >= 2; v /= 100) i -= 2, memcpy(w + i, rc_fmt_digits2 + 2 * (v % 100), 2);
    if (i) w[0] = (char)('0' + v);
}

/* The digits of v (1 for 0), v below 10^9. */
static unsigned digits_of(uint32_t v)
{
    unsigned d = 1;
    while (d < 9 && v >= pow10[d]) d++;
    return d;
}

/* The group of nb (1 to 4) big-endian bytes at p with its bits XORed with x (a negative
 * number's bytes are inverted), read in place: no copy of the value is inverted first. */
static uint32_t group_at(const uint8_t *p, unsigned nb, uint32_t x)
{
    uint32_t v;
    switch (nb) {
    case 1: return (p[0] ^ x) & 0xff;
    case 2: return (((uint32_t)p[0] << 8 | p[1]) ^ x) & 0xffff;
    case 3: return (((uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2]) ^ x) & 0xffffff;
    default: memcpy(&v, p, 4); return __builtin_bswap32(v) ^ x;
    }
}

rc_status rc_my_packed_decimal(const uint8_t *p, size_t n, unsigned precision, unsigned scale, size_t *used, rc_decimal *out,
                               rc_arena *a, rc_error *err)
{
    size_t size = rc_my_packed_decimal_size(precision, scale);
    if (!size)
        return rc_error_set(err, RC_ERR_VALUE, 0, "DECIMAL(%u,%u) is not a possible type (precision 1 to 81, scale at most the precision)",
                            precision, scale);
    if (size > n)
        return rc_error_set(err, RC_ERR_VALUE, n, "packed DECIMAL(%u,%u) truncated: it needs %zu bytes, %zu are left", precision, scale,
                            size, n);
    bool neg = !(p[0] & 0x80);
    uint32_t x = neg ? 0xffffffffu : 0;
    char *digits = rc_arena_alloc(a, precision + 1);
    if (!digits) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory decoding a DECIMAL");
    unsigned intg = precision - scale;
    /* the groups in storage order: leading partial integer group, whole integer groups, whole
     * fraction groups, trailing partial fraction group */
    unsigned groups[4][2] = {{intg % 9, 1}, {9, intg / 9}, {9, scale / 9}, {scale % 9, 1}};
    size_t at = 0;
    unsigned nd = 0;     /* digits written: none before the first that is not 0 (rc_decimal has no leading zeros) */
    uint32_t flip = 0x80; /* the sign bit, in the first byte, which the first group read holds */
    for (int g = 0; g < 4; g++) {
        unsigned ndig = groups[g][0];
        if (!ndig) continue;
        unsigned nb = dig2bytes[ndig];
        for (unsigned k = 0; k < groups[g][1]; k++) {
            uint32_t v = group_at(p + at, nb, x) ^ flip << 8 * (nb - 1);
            flip = 0;
            if (v >= pow10[ndig])
                return rc_error_set(err, RC_ERR_VALUE, at,
                                    "malformed packed DECIMAL(%u,%u): the digit group at byte %zu is %u, more than %u digits", precision,
                                    scale, at, v, ndig);
            if (nd) put_digits(digits + nd, v, ndig), nd += ndig;
            else if (v) nd = digits_of(v), put_digits(digits, v, nd);
            at += nb;
        }
    }
    /* zero is "0" and never negative (rc_decimal's rule) */
    if (!nd) digits[0] = '0', nd = 1, neg = false;
    digits[nd] = '\0';
    *out = (rc_decimal){.digits = digits, .ndigits = nd, .scale = (int32_t)scale, .neg = neg};
    *used = size;
    return RC_OK;
}

rc_status rc_my_dec_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    unsigned precision = c->meta >> 8, scale = c->meta & 0xff;
    rc_error e;
    rc_error_clear(&e);
    out->kind = RC_V_DECIMAL;
    if (rc_my_packed_decimal(p, n, precision, scale, used, &out->dec, a, &e) != RC_OK)
        return rc_error_set(err, e.code, e.offset, RC_MY_COLFMT ": %s", RC_MY_COLARG(c), e.message);
    return RC_OK;
}
