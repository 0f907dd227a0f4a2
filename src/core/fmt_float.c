/* Floating-point text in Java's Float/Double.toString layout.
 *
 * Digits: the shortest decimal that reads back as the same value (Java's rule, with its
 * minimum of two significant digits), from an exact fast path for ordinary doubles or from
 * the C library's correctly rounded %e conversion. The OMS formats then round those digits
 * half-up to 7 (FLOAT) or 16 (DOUBLE) significant digits, as OMS does with BigDecimal. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/fmt.h"

bool rc_f64_special(double v) { return isnan(v) || isinf(v); }

enum { MAXDIG = 40 };

/* Splits "d.ddde±x" into digits without trailing zeros and the decimal exponent. */
static size_t split_sci(const char *sci, char *digits, int *exp10)
{
    size_t nd = 0;
    const char *p = sci;
    if (*p == '-') p++;
    for (; *p && *p != 'e'; p++)
        if (*p != '.') digits[nd++] = *p;
    *exp10 = *p == 'e' ? atoi(p + 1) : 0;
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    digits[nd] = '\0';
    return nd;
}

/* Lays out digits (value = d.ddd × 10^e) the way Java's toString does. */
static void java_layout(rc_buf *b, bool neg, const char *dg, size_t nd, int e)
{
    if (neg) rc_buf_putc(b, '-');
    if (e >= -3 && e < 7) {
        if (e >= 0) {
            size_t ip = (size_t)e + 1;
            if (nd <= ip) {
                rc_buf_put(b, dg, nd);
                for (size_t k = nd; k < ip; k++) rc_buf_putc(b, '0');
                RC_BUF_LIT(b, ".0");
            } else {
                rc_buf_put(b, dg, ip);
                rc_buf_putc(b, '.');
                rc_buf_put(b, dg + ip, nd - ip);
            }
        } else {
            RC_BUF_LIT(b, "0.");
            for (int k = -1; k > e; k--) rc_buf_putc(b, '0');
            rc_buf_put(b, dg, nd);
        }
        return;
    }
    rc_buf_putc(b, dg[0]);
    rc_buf_putc(b, '.');
    if (nd > 1) rc_buf_put(b, dg + 1, nd - 1);
    else rc_buf_putc(b, '0');
    rc_buf_putc(b, 'E');
    rc_fmt_i64(b, e);
}

static bool write_special(rc_buf *b, double v)
{
    if (isnan(v)) return RC_BUF_LIT(b, "NaN"), true;
    if (isinf(v)) {
        if (v < 0) RC_BUF_LIT(b, "-Infinity");
        else RC_BUF_LIT(b, "Infinity");
        return true;
    }
    if (v == 0) {
        if (signbit(v)) RC_BUF_LIT(b, "-0.0");
        else RC_BUF_LIT(b, "0.0");
        return true;
    }
    return false;
}

static const double pow10_tab[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* The digits of the integer m (> 0) as the decimal m / 10^k: d.ddd x 10^e, trailing zeros dropped. */
static size_t put_digits(uint64_t m, int k, char *dg, int *e)
{
    char rev[24];
    int nd = 0;
    for (; m; m /= 10) rev[nd++] = (char)('0' + m % 10);
    for (int i = 0; i < nd; i++) dg[i] = rev[nd - 1 - i];
    *e = nd - 1 - k;
    while (nd > 1 && dg[nd - 1] == '0') nd--;
    return (size_t)nd;
}

/* Fast exact path for 1e-3 <= |v| < 1e7: the fewest decimals k such that the decimal
 * m / 10^k reads back as v. Both m (< 2^53) and 10^k (k <= 22) are exact doubles and IEEE
 * division is correctly rounded, so `m / 10^k == v` is exactly the round-trip test strtod
 * would make. Returns 0 when the value needs the general path. */
static size_t shortest_fast(double a, char *dg, int *e)
{
    if (!(a >= 1e-3 && a < 1e7)) return 0;
    for (int k = 0; k <= 22; k++) {
        double scaled = a * pow10_tab[k];
        if (scaled >= 9007199254740992.0) return 0;
        double m0 = __builtin_round(scaled);
        for (int d = 0; d < 3; d++) {
            double m = m0 + (d == 0 ? 0 : d == 1 ? -1 : 1);
            if (m <= 0 || m / pow10_tab[k] != a) continue;
            return put_digits((uint64_t)m, k, dg, e);
        }
    }
    return 0;
}

/* Whether the decimal m / 10^k reads back as the float a (strtof's test), or -1 when this cannot
 * say: the decimal's double q is correctly rounded, and rounding q to float gives strtof's
 * result unless q falls exactly halfway between two floats (double rounding). */
static int reads_back_f32(double m, int k, double a)
{
    double q = m / pow10_tab[k];
    float f = (float)q;
    if ((double)f != a) {
        float g = nextafterf((float)a, q > a ? INFINITY : -INFINITY);
        return q == (a + (double)g) / 2 ? -1 : 0;
    }
    if (q == a) return 1;
    float g = nextafterf(f, q > a ? INFINITY : -INFINITY);
    return q == (a + (double)g) / 2 ? -1 : 1;
}

/* The same for a float (a = its exact value), giving the digits the general path's %.*e and
 * strtof loop gives: for each k the nearest decimal m / 10^k (a * 10^k is exact for k <= 12: a
 * has 24 significant bits and 5^12 28, and a float of 1e-3 <= a < 1e7 needs at most 11
 * decimals) and whether it reads back. An exact tie in a * 10^k, which %e rounds to even, and
 * a decimal halfway between two floats go to the general path when they would decide the
 * digits. Returns 0 then. */
static size_t shortest_fast_f32(double a, char *dg, int *e)
{
    if (!(a >= 1e-3 && a < 1e7)) return 0;
    for (int k = 0; k <= 12; k++) {
        double scaled = a * pow10_tab[k], m = __builtin_floor(scaled), frac = scaled - m;
        if (frac == 0.5) { /* a tie: only when neither neighbour reads back can it be passed */
            if ((m > 0 && reads_back_f32(m, k, a) != 0) || reads_back_f32(m + 1, k, a) != 0) return 0;
            continue;
        }
        if (frac > 0.5) m += 1;
        if (m <= 0) continue;
        int back = reads_back_f32(m, k, a);
        if (back < 0) return 0;
        if (back) return put_digits((uint64_t)m, k, dg, e);
    }
    return 0;
}

/* Shortest round-trip digits of a finite non-zero |v| (as float when f32). */
static size_t shortest(double a, bool f32, char *dg, int *e)
{
    size_t nd = f32 ? shortest_fast_f32(a, dg, e) : shortest_fast(a, dg, e);
    if (nd) return nd;
    char sci[MAXDIG];
    int maxp = f32 ? 9 : 17;
    for (int prec = 1; prec <= maxp; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec - 1, a);
        bool back = f32 ? strtof(sci, NULL) == (float)a : strtod(sci, NULL) == a;
        if (back) {
            /* Java prints at least two significant digits: when one suffices it picks the
             * two-digit decimal closest to the value (Double.MIN_VALUE is 4.9E-324). */
            if (prec == 1) snprintf(sci, sizeof sci, "%.1e", a);
            break;
        }
    }
    return split_sci(sci, dg, e);
}

/* Rounds digits half-up to `sig` significant digits, dropping trailing zeros. */
static size_t round_sig(char *dg, size_t nd, int *e, int sig)
{
    if ((int)nd <= sig) return nd;
    bool up = dg[sig] >= '5';
    nd = (size_t)sig;
    if (up) {
        int i = sig - 1;
        while (i >= 0 && dg[i] == '9') dg[i--] = '0';
        if (i >= 0) {
            dg[i]++;
        } else { /* 9.99 -> 10.0 */
            memmove(dg + 1, dg, nd - 1);
            dg[0] = '1';
            (*e)++;
        }
    }
    while (nd > 1 && dg[nd - 1] == '0') nd--;
    return nd;
}

static void fmt_float(rc_buf *b, double v, bool f32, int sig)
{
    if (write_special(b, v)) return;
    char dg[MAXDIG];
    int e;
    size_t nd = shortest(fabs(v), f32, dg, &e);
    if (sig > 0) nd = round_sig(dg, nd, &e, sig);
    java_layout(b, v < 0, dg, nd, e);
}

void rc_fmt_f64_java(rc_buf *b, double v) { fmt_float(b, v, false, 0); }

void rc_fmt_json_float(rc_buf *b, const rc_value *v)
{
    double d = v->kind == RC_V_FLOAT32 ? (double)v->f32 : v->f64;
    bool q = rc_f64_special(d);
    if (q) rc_buf_putc(b, '"');
    fmt_float(b, d, v->kind == RC_V_FLOAT32, 0);
    if (q) rc_buf_putc(b, '"');
}
void rc_fmt_f32_java(rc_buf *b, float v) { fmt_float(b, v, true, 0); }
void rc_fmt_f64_sig(rc_buf *b, double v, int sig) { fmt_float(b, v, false, sig < 1 ? 1 : sig); }
void rc_fmt_f32_sig(rc_buf *b, float v, int sig) { fmt_float(b, v, true, sig < 1 ? 1 : sig); }

/* The general path alone (the tests' reference for the fast ones). */
static void java_slow(rc_buf *b, double v, bool f32)
{
    if (write_special(b, v)) return;
    char sci[MAXDIG], dg[MAXDIG];
    double a = fabs(v);
    for (int prec = 1; prec <= (f32 ? 9 : 17); prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec - 1, a);
        if (f32 ? strtof(sci, NULL) == (float)a : strtod(sci, NULL) == a) {
            if (prec == 1) snprintf(sci, sizeof sci, "%.1e", a);
            break;
        }
    }
    int e;
    size_t nd = split_sci(sci, dg, &e);
    java_layout(b, v < 0, dg, nd, e);
}

void rc_fmt_f64_java_slow(rc_buf *b, double v) { java_slow(b, v, false); }
void rc_fmt_f32_java_slow(rc_buf *b, float v) { java_slow(b, v, true); }
