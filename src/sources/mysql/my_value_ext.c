/* The types beyond SQL's classic ones: GEOMETRY (MySQL's 4-byte little-endian SRID, then
 * WKB), MariaDB's INET6 and UUID (binlog type STRING, 16 binary bytes; the declared type tells
 * them from a BINARY(16)) and MySQL 9's VECTOR (float32 little-endian, 4 bytes per dimension). */
#include <arpa/inet.h>
#include <string.h>
#include "core/fmt.h"
#include "core/wkb.h"
#include "my_value_int.h"

static rc_status text_of(const rc_my_col *c, rc_vkind kind, const char *s, size_t n, rc_value *out, rc_arena *a, rc_error *err)
{
    char *p = rc_arena_memdup(a, s, n);
    if (!p) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory decoding " RC_MY_COLFMT, RC_MY_COLARG(c));
    *out = (rc_value){.kind = kind, .s = {p, n}};
    return RC_OK;
}

/* GEOMETRY as EWKT: the SRID is always written ("SRID=0;POINT(1 2)"), as MySQL always stores
 * one and Debezium's MySQL connector always writes it. */
rc_status rc_my_geometry_value(const rc_my_col *c, const uint8_t *p, size_t n, rc_value *out, rc_arena *a, rc_error *err)
{
    if (n < 4) return rc_my_need(c, 4, n, err);
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_error e;
    rc_error_clear(&e);
    rc_status st = rc_wkb_to_wkt(p + 4, n - 4, true, (int32_t)(uint32_t)rc_my_le(p, 4), &b, &e);
    if (st == RC_OK && b.err != RC_OK) st = rc_error_set(&e, b.err, 0, "out of memory");
    if (st == RC_OK) st = text_of(c, RC_V_GEOMETRY, b.data ? b.data : "", b.len, out, a, err);
    else rc_error_set(err, st, e.offset == RC_NO_OFFSET ? 0 : e.offset + 4, RC_MY_COLFMT ": the WKB after the 4-byte SRID: %s", RC_MY_COLARG(c), e.message);
    rc_buf_fini(&b);
    return st;
}

/* UUID as 8-4-4-4-12 lower-case hex of the bytes in the order the binlog has them (MariaDB
 * 10.11 writes a UUID's bytes as it prints them, also for the time-based versions whose
 * record it keeps with segments swapped). */
static void uuid_text(const uint8_t *m, char *w)
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0, o = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10) w[o++] = '-';
        w[o++] = hex[m[i] >> 4], w[o++] = hex[m[i] & 15];
    }
}

/* body[0..len): the STRING column's bytes (MariaDB leaves the trailing zero bytes out, as for
 * BINARY(n): they are put back). */
rc_status rc_my_fixed16_value(const rc_my_col *c, const uint8_t *body, size_t len, rc_value *out, rc_arena *a, rc_error *err)
{
    if (len > 16) return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": a %s value of %zu bytes, not 16", RC_MY_COLARG(c), rc_my_decl_name(c), len);
    uint8_t v[16] = {0};
    memcpy(v, body, len);
    char s[64];
    if (!strcmp(rc_my_decl_name(c), "uuid")) {
        uuid_text(v, s);
        return text_of(c, RC_V_TEXT, s, 36, out, a, err);
    }
    /* INET6: the address in network order, written as inet_ntop (RFC 5952; ::ffff:1.2.3.4) */
    if (!inet_ntop(AF_INET6, v, s, sizeof s)) return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": not an IPv6 address", RC_MY_COLARG(c));
    return text_of(c, RC_V_TEXT, s, strlen(s), out, a, err);
}

/* VECTOR as the text of its float32 array, each element as Java's Float.toString writes it
 * (the shortest digits that read back: nothing is rounded), "[1.5,-2.0]". */
rc_status rc_my_vector_value(const rc_my_col *c, const uint8_t *p, size_t n, rc_value *out, rc_arena *a, rc_error *err)
{
    if (n % 4 || (c->vector_dim && n / 4 != c->vector_dim))
        return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": a VECTOR value of %zu bytes%s", RC_MY_COLARG(c), n,
                            c->vector_dim ? " does not hold the column's dimensions" : " is not a whole number of float32");
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_buf_putc(&b, '[');
    for (size_t i = 0; i < n; i += 4) {
        uint32_t bits = (uint32_t)rc_my_le(p + i, 4);
        float f;
        memcpy(&f, &bits, 4);
        if (i) rc_buf_putc(&b, ',');
        rc_fmt_f32_java(&b, f);
    }
    rc_buf_putc(&b, ']');
    rc_status st = b.err != RC_OK ? rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory decoding " RC_MY_COLFMT, RC_MY_COLARG(c))
                                  : text_of(c, RC_V_TEXT, b.data, b.len, out, a, err);
    rc_buf_fini(&b);
    return st;
}
