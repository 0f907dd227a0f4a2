/* Upstream Debezium, PostgreSQL's geometric types (box, circle, line, lseg, path, polygon) with
 * include.unknown.datatypes=true: the connector writes the bytes of the text the JDBC driver's
 * PGbox, PGcircle, ... make (their getValue()), whose numbers are Java's Double.toString of the
 * server's: "(1.0,1.0),(0.0,0.0)" where the server writes "(1,1),(0,0)" (AbstractRecordsProducerTest
 * schemasAndValuesForDomainAliasTypes). The numbers are rewritten as text, never through a double:
 * the server's float8out text is already the shortest that reads back, as Java's is (JDK 19+;
 * only the subnormals next to 0 differ: Java writes at least two digits, the closer, 4.9E-324
 * for 5e-324). */
#include <stdio.h>
#include <string.h>
#include "formats/debezium_upstream.h"

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
