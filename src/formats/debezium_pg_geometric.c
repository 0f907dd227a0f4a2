/* Upstream Debezium, PostgreSQL's geometric types (box, circle, line, lseg, path, polygon) with
 * include.unknown.datatypes=true: the connector writes the bytes of the text the JDBC driver's
 * PGbox, PGcircle, ... make (their getValue()), whose numbers are Java's Double.toString of the
 * server's: "(1.0,1.0),(0.0,0.0)" where the server writes "(1,1),(0,0)" (AbstractRecordsProducerTest
 * schemasAndValuesForDomainAliasTypes). The numbers are rewritten as text, never through a double:
 * the server's float8out text is already the shortest that reads back, as Java's is (JDK 19+;
 * only the subnormals next to 0 differ: Java writes at least two digits, the closer, 4.9E-324
 * for 5e-324). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_upstream.h"
#include "core/fmt.h"

bool rc_dbz_pg_geometric(const rc_type_info *t)
{
    static const char *const names[] = {"box", "circle", "line", "lseg", "path", "polygon"};
    if (t->family != RC_FAM_PG) return false;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(t->name, names[i])) return true;
    return false;
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

/* One number of float8out's text (s, n bytes) as Double.toString writes it: at least one digit
 * after the point, and from 10^7 up or below 10^-3 "d.dddE<exp>". Anything else (Infinity,
 * NaN, which Java writes alike) is copied. */
static void java_double(rc_buf *b, const char *s, size_t n)
{
    size_t i = 0;
    bool neg = n && s[0] == '-';
    if (n && (s[0] == '-' || s[0] == '+')) i++;
    char dg[40];
    int nd = 0, exp10 = 0; /* the value is 0.dg x 10^exp10 */
    bool point = false, seen = false;
    for (; i < n && (is_digit(s[i]) || s[i] == '.'); i++) {
        seen |= s[i] != '.';
        if (s[i] == '.') {
            point = true;
        } else if (!nd && s[i] == '0') {
            exp10 -= point;
        } else {
            if (nd == (int)sizeof dg) {
                rc_buf_put(b, s, n);
                return;
            }
            dg[nd++] = s[i];
            exp10 += !point;
        }
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        bool eneg = ++i < n && s[i] == '-';
        int e = 0;
        for (i += i < n && (s[i] == '-' || s[i] == '+'); i < n && is_digit(s[i]) && e < 10000; i++) e = e * 10 + (s[i] - '0');
        exp10 += eneg ? -e : e;
    }
    if (i != n || !seen) { /* not a number */
        rc_buf_put(b, s, n);
        return;
    }
    while (nd > 1 && dg[nd - 1] == '0') nd--;
    if (neg) rc_buf_putc(b, '-');
    if (!nd) {
        rc_buf_puts(b, "0.0");
        return;
    }
    int x = exp10 - 1; /* d.ddd x 10^x */
    if (x < -3 || x >= 7) {
        rc_buf_putc(b, dg[0]), rc_buf_putc(b, '.');
        if (nd > 1) rc_buf_put(b, dg + 1, (size_t)nd - 1);
        else rc_buf_putc(b, '0');
        char ex[16];
        snprintf(ex, sizeof ex, "E%d", x);
        rc_buf_puts(b, ex);
        return;
    }
    if (x < 0) {
        rc_buf_puts(b, "0.");
        for (int k = -1; k > x; k--) rc_buf_putc(b, '0');
        rc_buf_put(b, dg, (size_t)nd);
        return;
    }
    for (int k = 0; k <= x; k++) rc_buf_putc(b, k < nd ? dg[k] : '0');
    rc_buf_putc(b, '.');
    if (nd > x + 1) rc_buf_put(b, dg + x + 1, (size_t)(nd - x - 1));
    else rc_buf_putc(b, '0');
}

void rc_dbz_pg_geometric_text(rc_buf *b, rc_str s)
{
    size_t start = 0;
    for (size_t i = 0; i <= s.n; i++)
        if (i == s.n || strchr("()[]{}<>, ", s.p[i])) {
            if (i > start) java_double(b, s.p + start, i - start);
            if (i < s.n) rc_buf_putc(b, s.p[i]);
            start = i + 1;
        }
}

/* ---- Debezium 3.7 (dbz#2135, PostgresValueConverter.convertBox ... convertLine) ---- */

const char *rc_dbz_pg_geometric_schema(const rc_type_info *t, int *version)
{
    *version = 1;
    if (!strcmp(t->name, "circle")) return "io.debezium.data.geometry.Circle";
    if (!strcmp(t->name, "line")) return "io.debezium.data.geometry.Line";
    *version = 2; /* Geometry with its extensions map */
    return "io.debezium.data.geometry.Geometry";
}

#define GEO_MAX 4096 /* numbers of one value rowcast converts (a path or polygon of 2048 points) */

/* The numbers of the text, in order: each token between ()[]{}<>, and spaces, with its double
 * (strtod: float8out's text reads back to the server's double); false when one is not a finite
 * number or there are more than max. */
static bool numbers(rc_str s, rc_str *tok, double *d, size_t max, size_t *n)
{
    *n = 0;
    size_t start = 0;
    char t[64];
    for (size_t i = 0; i <= s.n; i++) {
        if (i < s.n && !strchr("()[]{}<>, ", s.p[i])) continue;
        if (i > start) {
            size_t l = i - start;
            if (*n == max || l >= sizeof t) return false;
            memcpy(t, s.p + start, l), t[l] = 0;
            char *end;
            double v = strtod(t, &end);
            if (*end || !isfinite(v)) return false;
            tok[*n] = (rc_str){s.p + start, l}, d[(*n)++] = v;
        }
        start = i + 1;
    }
    return true;
}

static void put_u32(rc_buf *b, uint32_t v)
{
    for (int k = 0; k < 4; k++) rc_buf_putc(b, (char)(v >> 8 * k & 0xff));
}

/* WkbWriter: little-endian, the byte order byte, the type, the points' count, x and y each. */
static void put_xy(rc_buf *b, double x, double y)
{
    double xy[2] = {x, y};
    for (int i = 0; i < 2; i++) {
        uint64_t u;
        memcpy(&u, &xy[i], sizeof u);
        for (int k = 0; k < 8; k++) rc_buf_putc(b, (char)(u >> 8 * k & 0xff));
    }
}

static void wkb_head(rc_buf *b, uint32_t type)
{
    rc_buf_putc(b, 1);
    put_u32(b, type);
}

/* {"wkb":"<base64>","srid":null,"extensions":{...}} of the WKB in w. */
static void geometry_json(rc_buf *out, const rc_buf *w, const char *type, const char *closed)
{
    RC_BUF_LIT(out, "{\"wkb\":\"");
    rc_fmt_base64(out, (const unsigned char *)w->data, w->len);
    RC_BUF_LIT(out, "\",\"srid\":null,\"extensions\":{\"type\":\"");
    rc_buf_puts(out, type);
    rc_buf_putc(out, '"');
    if (closed) {
        RC_BUF_LIT(out, ",\"closed\":\"");
        rc_buf_puts(out, closed);
        rc_buf_putc(out, '"');
    }
    RC_BUF_LIT(out, "}}");
}

static void put_num(rc_buf *out, const char *name, rc_str tok)
{
    rc_buf_putc(out, '"');
    rc_buf_puts(out, name);
    RC_BUF_LIT(out, "\":");
    java_double(out, tok.p, tok.n);
}

rc_status rc_dbz_pg_geometric_json(rc_buf *out, rc_buf *wkb, const rc_column *c, rc_str s, rc_error *err)
{
    const char *name = c->type.info->name;
    rc_str *tok = malloc(GEO_MAX * sizeof *tok);
    double *d = malloc(GEO_MAX * sizeof *d);
    size_t n = 0;
    bool ok = tok && d && numbers(s, tok, d, GEO_MAX, &n);
    bool circle = !strcmp(name, "circle"), line = !strcmp(name, "line"), box = !strcmp(name, "box"), lseg = !strcmp(name, "lseg");
    bool path = !strcmp(name, "path");
    ok = ok && (circle || line ? n == 3 : box || lseg ? n == 4 : n >= 2 && n % 2 == 0);
    if (ok) {
        rc_buf_reset(wkb);
        if (circle) { /* Circle {center: Point {x, y, wkb, srid}, radius} */
            wkb_head(wkb, 1);
            put_xy(wkb, d[0], d[1]);
            RC_BUF_LIT(out, "{\"center\":{");
            put_num(out, "x", tok[0]), rc_buf_putc(out, ','), put_num(out, "y", tok[1]);
            RC_BUF_LIT(out, ",\"wkb\":\"");
            rc_fmt_base64(out, (const unsigned char *)wkb->data, wkb->len);
            RC_BUF_LIT(out, "\",\"srid\":null},");
            put_num(out, "radius", tok[2]);
            rc_buf_putc(out, '}');
        } else if (line) { /* Line {a, b, c}: Ax + By + C = 0 */
            rc_buf_putc(out, '{');
            put_num(out, "a", tok[0]), rc_buf_putc(out, ','), put_num(out, "b", tok[1]), rc_buf_putc(out, ','), put_num(out, "c", tok[2]);
            rc_buf_putc(out, '}');
        } else if (box) { /* the closed ring of its corners (x1,y1) (x1,y2) (x2,y2) (x2,y1) (x1,y1) */
            wkb_head(wkb, 3), put_u32(wkb, 1), put_u32(wkb, 5);
            put_xy(wkb, d[0], d[1]), put_xy(wkb, d[0], d[3]), put_xy(wkb, d[2], d[3]), put_xy(wkb, d[2], d[1]), put_xy(wkb, d[0], d[1]);
            geometry_json(out, wkb, "box", NULL);
        } else if (lseg || path) { /* a line string; a path says whether it is closed: "((...))" */
            wkb_head(wkb, 2), put_u32(wkb, (uint32_t)(n / 2));
            for (size_t i = 0; i < n; i += 2) put_xy(wkb, d[i], d[i + 1]);
            geometry_json(out, wkb, name, path ? (s.n && s.p[0] == '(' ? "true" : "false") : NULL);
        } else { /* polygon: one ring, closed with its first point when the last is not it */
            bool closed = n >= 4 && d[0] == d[n - 2] && d[1] == d[n - 1];
            wkb_head(wkb, 3), put_u32(wkb, 1), put_u32(wkb, (uint32_t)(n / 2 + !closed));
            for (size_t i = 0; i < n; i += 2) put_xy(wkb, d[i], d[i + 1]);
            if (!closed) put_xy(wkb, d[0], d[1]);
            geometry_json(out, wkb, "polygon", NULL);
        }
    }
    free(tok), free(d);
    if (!ok)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                            "column \"%.*s\" (%.*s): the value %.*s is not one rowcast writes as Debezium 3.7's struct (a coordinate "
                            "NaN or infinite, whose JSON Kafka Connect would write as a string, or past %d numbers)",
                            (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (int)s.n, s.p, GEO_MAX);
    return out->err == RC_OK && wkb->err == RC_OK ? RC_OK : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}
