/* WKT/EWKT -> little-endian WKB (2D), by recursive descent. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/fmt.h"
#include "core/wkb.h"

typedef struct wp {
    const char *s;
    size_t n, i;
    rc_error *err;
    rc_wkb_info *info;
    int depth;
} wp;

static void ws(wp *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n')) p->i++;
}

static bool eat(wp *p, char c)
{
    ws(p);
    if (p->i < p->n && p->s[p->i] == c) return p->i++, true;
    return false;
}

static rc_status bad(wp *p, const char *what)
{
    return rc_error_set(p->err, RC_ERR_VALUE, p->i, "bad WKT geometry: %s at byte %zu", what, p->i);
}

static void put_u32(rc_buf *b, uint32_t v)
{
    char w[4] = {(char)v, (char)(v >> 8), (char)(v >> 16), (char)(v >> 24)};
    rc_buf_put(b, w, 4);
}

static void put_f64(rc_buf *b, double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    char w[8];
    for (int i = 0; i < 8; i++) w[i] = (char)(u >> (8 * i));
    rc_buf_put(b, w, 8);
}

static rc_status number(wp *p, double *out)
{
    ws(p);
    char tmp[64];
    size_t k = 0;
    while (p->i < p->n && k + 1 < sizeof tmp && strchr("+-.0123456789eE", p->s[p->i])) tmp[k++] = p->s[p->i++];
    tmp[k] = '\0';
    char *end;
    *out = strtod(tmp, &end);
    if (!k || *end) return bad(p, "number expected");
    return RC_OK;
}

static rc_status coord(wp *p, rc_buf *b, double *x, double *y)
{
    rc_status st;
    if ((st = number(p, x)) != RC_OK || (st = number(p, y)) != RC_OK) return st;
    put_f64(b, *x);
    put_f64(b, *y);
    return RC_OK;
}

static const char *const kinds[] = {NULL, "POINT", "LINESTRING", "POLYGON", "MULTIPOINT", "MULTILINESTRING", "MULTIPOLYGON", "GEOMETRYCOLLECTION"};

static rc_status geometry(wp *p, rc_buf *b);

/* What a WKT list holds: points "x y" (each may be in parentheses: MULTIPOINT((1 2),(3 4))),
 * lists of points "(x y, ...)", lists of those (a polygon's rings), geometries. */
typedef enum wmember { W_POINT, W_POINTS, W_RINGS, W_GEOMETRY } wmember;

/* "(m, m, ...)" -> the count and the members; with a `header` kind each member is a full WKB
 * geometry of that kind (the members of a MULTI*), else its body alone. */
static rc_status wkt_list(wp *p, rc_buf *b, wmember m, uint32_t header)
{
    if (!eat(p, '(')) return bad(p, "'(' expected");
    size_t at = b->len;
    put_u32(b, 0);
    uint32_t count = 0;
    do {
        if (header) rc_buf_putc(b, 1), put_u32(b, header);
        rc_status st = RC_OK;
        double x, y;
        bool paren;
        switch (m) {
        case W_POINT:
            paren = eat(p, '(');
            st = coord(p, b, &x, &y);
            if (st == RC_OK && paren && !eat(p, ')')) return bad(p, "')' expected");
            break;
        case W_POINTS: st = wkt_list(p, b, W_POINT, 0); break;
        case W_RINGS: st = wkt_list(p, b, W_POINTS, 0); break;
        case W_GEOMETRY: st = geometry(p, b); break;
        }
        if (st != RC_OK) return st;
        count++;
    } while (eat(p, ','));
    if (!eat(p, ')')) return bad(p, m == W_POINT && !header ? "')' or ',' expected" : "')' expected");
    if (b->err == RC_OK) memcpy(b->data + at, (char[4]){(char)count, (char)(count >> 8), (char)(count >> 16), (char)(count >> 24)}, 4);
    return RC_OK;
}

static rc_status geometry(wp *p, rc_buf *b)
{
    if (++p->depth > 16) return bad(p, "nested too deep");
    ws(p);
    size_t st0 = p->i;
    while (p->i < p->n && ((p->s[p->i] >= 'A' && p->s[p->i] <= 'Z') || (p->s[p->i] >= 'a' && p->s[p->i] <= 'z'))) p->i++;
    uint32_t kind = 0;
    for (uint32_t k = 1; k < 8; k++)
        if (strlen(kinds[k]) == p->i - st0 && !strncasecmp(kinds[k], p->s + st0, p->i - st0)) kind = k;
    if (!kind) return p->i = st0, bad(p, "geometry type expected");
    rc_buf_putc(b, 1); /* little-endian */
    put_u32(b, kind);
    rc_status st = RC_OK;
    double x, y;
    switch (kind) {
    case 1:
        if (!eat(p, '(')) return bad(p, "'(' expected");
        if ((st = coord(p, b, &x, &y)) != RC_OK) return st;
        if (!eat(p, ')')) return bad(p, "')' expected");
        if (p->depth == 1) p->info->is_point = true, p->info->x = x, p->info->y = y;
        break;
    case 2: st = wkt_list(p, b, W_POINT, 0); break;
    case 3: st = wkt_list(p, b, W_POINTS, 0); break;
    case 4: st = wkt_list(p, b, W_POINT, 1); break;
    case 5: st = wkt_list(p, b, W_POINTS, 2); break;
    case 6: st = wkt_list(p, b, W_RINGS, 3); break;
    default: st = wkt_list(p, b, W_GEOMETRY, 0); break;
    }
    p->depth--;
    return st;
}

rc_status rc_wkt_to_wkb(const char *s, size_t n, rc_buf *out, rc_wkb_info *info, rc_error *err)
{
    memset(info, 0, sizeof *info);
    wp p = {s, n, 0, err, info, 0};
    ws(&p);
    if (n - p.i >= 5 && !strncasecmp(s + p.i, "SRID=", 5)) {
        p.i += 5;
        long v = 0;
        size_t st = p.i;
        while (p.i < n && s[p.i] >= '0' && s[p.i] <= '9' && v < 0x7fffffff) v = v * 10 + (s[p.i++] - '0');
        if (p.i == st || !eat(&p, ';')) return bad(&p, "SRID=<number>; expected");
        info->has_srid = true;
        info->srid = (int32_t)v;
    }
    rc_status st = geometry(&p, out);
    if (st != RC_OK) return st;
    ws(&p);
    if (p.i != n) return bad(&p, "unexpected text after the geometry");
    return RC_OK;
}

/* ---- WKB -> WKT ---- */

typedef struct rp {
    const unsigned char *p;
    size_t n, i;
    rc_error *err;
} rp;

static rc_status rbad(rp *r, const char *what) { return rc_error_set(r->err, RC_ERR_VALUE, r->i, "bad WKB geometry: %s at byte %zu", what, r->i); }

static bool u32(rp *r, bool le, uint32_t *out)
{
    if (r->n - r->i < 4) return false;
    const unsigned char *q = r->p + r->i;
    *out = le ? (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24
              : (uint32_t)q[3] | (uint32_t)q[2] << 8 | (uint32_t)q[1] << 16 | (uint32_t)q[0] << 24;
    r->i += 4;
    return true;
}

static bool f64(rp *r, bool le, double *out)
{
    if (r->n - r->i < 8) return false;
    uint64_t u = 0;
    for (int k = 0; k < 8; k++) u |= (uint64_t)r->p[r->i + (size_t)(le ? k : 7 - k)] << (8 * k);
    memcpy(out, &u, 8);
    r->i += 8;
    return true;
}

static void put_coord(rc_buf *b, double d)
{
    /* Java-style shortest digits, but integral values without ".0" as WKT writes them */
    size_t mark = b->len;
    rc_fmt_f64_java(b, d);
    if (b->err == RC_OK && b->len >= mark + 2 && !memcmp(b->data + b->len - 2, ".0", 2) && !memchr(b->data + mark, 'E', b->len - mark))
        b->len -= 2;
}

static rc_status read_point(rp *r, bool le, rc_buf *b)
{
    double x, y;
    if (!f64(r, le, &x) || !f64(r, le, &y)) return rbad(r, "truncated point");
    put_coord(b, x);
    rc_buf_putc(b, ' ');
    put_coord(b, y);
    return RC_OK;
}

/* What a list holds: points (a line string, a ring), rings (a polygon), geometries (a multi or
 * collection). */
typedef enum member { M_POINT, M_RING, M_GEOMETRY } member;

static rc_status read_geometry(rp *r, rc_buf *b, bool body_only, int depth);

/* A count (`bad`: the error when it is wrong or more than the bytes left hold, `min` bytes a
 * member) and that many members as "(m,m,...)"; geometries as read_geometry at `depth`. */
static rc_status read_list(rp *r, bool le, rc_buf *b, uint32_t min, const char *bad, member m, bool body_only, int depth)
{
    uint32_t n;
    if (!u32(r, le, &n) || n > (r->n - r->i) / min) return rbad(r, bad);
    rc_buf_putc(b, '(');
    for (uint32_t k = 0; k < n; k++) {
        if (k) rc_buf_putc(b, ',');
        rc_status st = m == M_POINT  ? read_point(r, le, b)
                       : m == M_RING ? read_list(r, le, b, 16, "bad point count", M_POINT, false, depth)
                                     : read_geometry(r, b, body_only, depth);
        if (st != RC_OK) return st;
    }
    rc_buf_putc(b, ')');
    return RC_OK;
}

static rc_status read_geometry(rp *r, rc_buf *b, bool body_only, int depth)
{
    if (depth > 16) return rbad(r, "nested too deep");
    if (r->i >= r->n || r->p[r->i] > 1) return rbad(r, "byte order expected");
    bool le = r->p[r->i++] == 1;
    uint32_t type;
    if (!u32(r, le, &type) || type < 1 || type > 7) return rbad(r, "geometry type 1..7 expected");
    if (!body_only) rc_buf_puts(b, kinds[type]);
    switch (type) {
    case 1: {
        rc_buf_putc(b, '(');
        rc_status st = read_point(r, le, b);
        rc_buf_putc(b, ')');
        return st;
    }
    case 2: return read_list(r, le, b, 16, "bad point count", M_POINT, false, depth);
    case 3: return read_list(r, le, b, 4, "bad ring count", M_RING, false, depth);
    /* MULTIPOINT((1 2),(3 4)) keeps each point's parentheses; other multis their bodies */
    default: return read_list(r, le, b, 5, "bad member count", M_GEOMETRY, type != 7, depth + 1);
    }
}

rc_status rc_wkb_to_wkt(const unsigned char *p, size_t n, bool has_srid, int32_t srid, rc_buf *out, rc_error *err)
{
    rp r = {p, n, 0, err};
    if (has_srid) {
        RC_BUF_LIT(out, "SRID=");
        rc_fmt_i64(out, srid);
        rc_buf_putc(out, ';');
    }
    rc_status st = read_geometry(&r, out, false, 0);
    if (st == RC_OK && r.i != n) return rbad(&r, "bytes after the geometry");
    return st;
}
