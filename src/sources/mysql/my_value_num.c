/* Integers, FLOAT, DOUBLE, BIT(n) and YEAR in row images. Integers are little-endian two's
 * complement of 1, 2, 3, 4 or 8 bytes; the column's signedness (TABLE_MAP SIGNEDNESS metadata,
 * or the declared type) says how to read the top bit. */
#include <string.h>
#include "rowcast/error.h"
#include "my_value_int.h"

/* The declared type decides when the history has one (so the value has its column's kind);
 * else the TABLE_MAP's SIGNEDNESS. */
static bool is_unsigned(const rc_my_col *c)
{
    if (c->decl && c->decl->info) return c->decl->is_unsigned || c->decl->info->vkind == RC_V_UINT;
    return c->is_unsigned;
}

static unsigned int_size(uint8_t type)
{
    switch (type) {
    case RC_MY_TINY: return 1;
    case RC_MY_SHORT: return 2;
    case RC_MY_INT24: return 3;
    case RC_MY_LONG: return 4;
    default: return 8;
    }
}

/* The integer as its binlog type and signedness say, before the declaration has its say. */
static inline rc_status int_plain(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, bool uns,
                                  rc_error *err)
{
    unsigned size = int_size(c->type);
    if (rc_my_need(c, size, n, err) != RC_OK) return RC_ERR_VALUE;
    *used = size;
    uint64_t u = rc_my_le(p, size);
    if (uns) {
        /* BIGINT UNSIGNED needs the whole 64 bits; the narrower ones fit a signed int */
        if (c->type == RC_MY_LONGLONG) *out = (rc_value){.kind = RC_V_UINT, .u = u};
        else *out = (rc_value){.kind = RC_V_INT, .i = (int64_t)u};
    } else {
        unsigned shift = 64 - 8 * size; /* sign-extend from the value's top bit */
        *out = (rc_value){.kind = RC_V_INT, .i = (int64_t)(u << shift) >> shift};
    }
    return RC_OK;
}

/* The readers rc_my_num_prepare gives an integer column whose declaration asks nothing more
 * of its values (no BOOL, no declared unsigned kind): the decisions of integer() made once. */
static rc_status int_signed(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    (void)a;
    return int_plain(c, p, n, used, out, false, err);
}

static rc_status int_unsigned(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    (void)a;
    return int_plain(c, p, n, used, out, true, err);
}

static rc_status integer(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_error *err)
{
    if (int_plain(c, p, n, used, out, is_unsigned(c), err) != RC_OK) return RC_ERR_VALUE;
    /* a BOOL/BOOLEAN declaration (MariaDB reports tinyint(1) as such only when asked to) is a
     * bool for 0 and 1; any other number it holds is a range error, never truncated to true */
    if (c->decl && c->decl->info && c->decl->info->vkind == RC_V_BOOL) {
        if (out->kind == RC_V_INT && (out->i == 0 || out->i == 1)) {
            *out = (rc_value){.kind = RC_V_BOOL, .b = out->i == 1};
            return RC_OK;
        }
        return rc_error_set(err, RC_ERR_RANGE, 0, RC_MY_COLFMT ": %lld is not a boolean (0 or 1) as its declared type %s says",
                            RC_MY_COLARG(c), (long long)out->i, rc_my_decl_name(c));
    }
    /* a declared BIGINT UNSIGNED whose binlog type is narrower keeps the kind of its type */
    if (c->decl && c->decl->info && c->decl->info->vkind == RC_V_UINT && out->kind == RC_V_INT && out->i >= 0)
        *out = (rc_value){.kind = RC_V_UINT, .u = (uint64_t)out->i};
    return RC_OK;
}

void rc_my_num_prepare(rc_my_col *c)
{
    switch (c->type) {
    case RC_MY_TINY: case RC_MY_SHORT: case RC_MY_INT24: case RC_MY_LONG: case RC_MY_LONGLONG:
        if (c->decl && c->decl->info && (c->decl->info->vkind == RC_V_BOOL || c->decl->info->vkind == RC_V_UINT)) return;
        c->decode = is_unsigned(c) ? int_unsigned : int_signed;
        return;
    default: return;
    }
}

rc_status rc_my_num_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    (void)a;
    switch (c->type) {
    case RC_MY_FLOAT: {
        if (rc_my_need(c, 4, n, err) != RC_OK) return RC_ERR_VALUE;
        uint32_t bits = (uint32_t)rc_my_le(p, 4);
        float f;
        memcpy(&f, &bits, 4);
        *out = (rc_value){.kind = RC_V_FLOAT32, .f32 = f};
        *used = 4;
        return RC_OK;
    }
    case RC_MY_DOUBLE: {
        if (rc_my_need(c, 8, n, err) != RC_OK) return RC_ERR_VALUE;
        uint64_t bits = rc_my_le(p, 8);
        double d;
        memcpy(&d, &bits, 8);
        *out = (rc_value){.kind = RC_V_FLOAT64, .f64 = d};
        *used = 8;
        return RC_OK;
    }
    case RC_MY_BIT: {
        /* meta: bits % 8 in the low byte, whole bytes in the high byte; the value big-endian */
        unsigned bits = (c->meta & 0xff) + 8u * (c->meta >> 8);
        unsigned size = (bits + 7) / 8;
        if (bits == 0 || bits > 64)
            return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": BIT metadata 0x%04x gives %u bits, not 1 to 64",
                                RC_MY_COLARG(c), c->meta, bits);
        if (rc_my_need(c, size, n, err) != RC_OK) return RC_ERR_VALUE;
        uint64_t u = rc_my_be(p, size);
        if (bits < 64 && u >> bits)
            return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": value 0x%llx does not fit BIT(%u)", RC_MY_COLARG(c),
                                (unsigned long long)u, bits);
        *out = (rc_value){.kind = RC_V_BITS, .u = u};
        *used = size;
        return RC_OK;
    }
    case RC_MY_YEAR:
        /* one byte: 0 is the year 0000, else 1900 + the byte (1901..2155) */
        if (rc_my_need(c, 1, n, err) != RC_OK) return RC_ERR_VALUE;
        *out = (rc_value){.kind = RC_V_INT, .i = p[0] ? 1900 + p[0] : 0};
        *used = 1;
        return RC_OK;
    default:
        return integer(c, p, n, used, out, err);
    }
}
