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
#include "rowcast/fmt.h"
#include "my_value_int.h"

static const uint8_t dig2bytes[10] = {0, 1, 1, 2, 2, 3, 3, 4, 4, 4};
static const uint32_t pow10[10] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

size_t rc_my_packed_decimal_size(unsigned precision, unsigned scale)
{
    if (precision == 0 || precision > 81 || scale > precision) return 0;
    unsigned intg = precision - scale;
    return (size_t)(intg / 9) * 4 + dig2bytes[intg % 9] + (size_t)(scale / 9) * 4 + dig2bytes[scale % 9];
}

/* Appends the group's `ndig` digits (zero-padded) at w, two at a time (a digit at a time was a
 * third of a value's instructions); false when the group is not a number of that many digits. */
static bool put_group(char *w, uint32_t v, unsigned ndig)
{
    if (v >= pow10[ndig]) return false;
    unsigned i = ndig;
    for (; i >= 2; v /= 100) i -= 2, memcpy(w + i, rc_fmt_digits2 + 2 * (v % 100), 2);
    if (i) w[0] = (char)('0' + v);
    return true;
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
    uint8_t buf[40]; /* 81 digits take at most 37 bytes */
    memcpy(buf, p, size);
    bool neg = !(buf[0] & 0x80);
    buf[0] ^= 0x80;
    if (neg)
        for (size_t i = 0; i < size; i++) buf[i] = (uint8_t)~buf[i];
    char *digits = rc_arena_alloc(a, precision + 1);
    if (!digits) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory decoding a DECIMAL");
    unsigned intg = precision - scale;
    /* the groups in storage order: leading partial integer group, whole integer groups, whole
     * fraction groups, trailing partial fraction group */
    unsigned groups[4][2] = {{intg % 9, 1}, {9, intg / 9}, {9, scale / 9}, {scale % 9, 1}};
    size_t at = 0;
    unsigned nd = 0;
    for (int g = 0; g < 4; g++) {
        unsigned ndig = groups[g][0];
        if (!ndig) continue;
        for (unsigned k = 0; k < groups[g][1]; k++) {
            unsigned nb = dig2bytes[ndig];
            uint32_t v = (uint32_t)rc_my_be(buf + at, nb);
            if (!put_group(digits + nd, v, ndig))
                return rc_error_set(err, RC_ERR_VALUE, at,
                                    "malformed packed DECIMAL(%u,%u): the digit group at byte %zu is %u, more than %u digits", precision,
                                    scale, at, v, ndig);
            at += nb, nd += ndig;
        }
    }
    /* no leading zeros; zero is "0" and never negative (rc_decimal's rule) */
    unsigned lead = 0;
    while (lead < nd && digits[lead] == '0') lead++;
    if (lead == nd) {
        digits[0] = '0';
        *out = (rc_decimal){.digits = digits, .ndigits = 1, .scale = (int32_t)scale, .neg = false};
    } else {
        *out = (rc_decimal){.digits = digits + lead, .ndigits = nd - lead, .scale = (int32_t)scale, .neg = neg};
    }
    digits[nd] = '\0';
    *used = size;
    return RC_OK;
}

rc_status rc_my_dec_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    unsigned precision = c->meta >> 8, scale = c->meta & 0xff;
    rc_error e;
    rc_my_value_err_reset(&e);
    out->kind = RC_V_DECIMAL;
    if (rc_my_packed_decimal(p, n, precision, scale, used, &out->dec, a, &e) != RC_OK)
        return rc_error_set(err, e.code, e.offset, RC_MY_COLFMT ": %s", RC_MY_COLARG(c), e.message);
    return RC_OK;
}
