/* Floating-point text in Java's Float/Double.toString layout. Digits come from the C
 * library's correctly rounded %e conversion: the shortest precision that reads back to the
 * same value, or a fixed number of significant digits for the OMS formats. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/fmt.h"

bool rc_f64_special(double v) { return isnan(v) || isinf(v); }

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

/* Java prints at least two significant digits: when one digit suffices it picks the
 * two-digit decimal closest to the value (Double.MIN_VALUE is 4.9E-324, not 5.0E-324). */
static void emit_sci(rc_buf *b, const char *sci, bool neg)
{
    char dg[40];
    int e;
    size_t nd = split_sci(sci, dg, &e);
    java_layout(b, neg, dg, nd, e);
}

static const double pow10_tab[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Fast exact path for 1e-3 <= |v| < 1e7 (Java's plain layout): the fewest decimals k such
 * that the decimal m / 10^k reads back as v. Both m (< 2^53) and 10^k (k <= 22) are exact
 * doubles and IEEE division is correctly rounded, so `m / 10^k == v` is exactly the
 * round-trip test strtod would make. Returns false when the value needs the slow path. */
static bool f64_plain_fast(rc_buf *b, double v)
{
    double a = v < 0 ? -v : v;
    if (!(a >= 1e-3 && a < 1e7)) return false;
    for (int k = 0; k <= 22; k++) {
        double scaled = a * pow10_tab[k];
        if (scaled >= 9007199254740992.0) return false;
        double m0 = __builtin_round(scaled);
        for (int d = 0; d < 3; d++) {
            double m = m0 + (d == 0 ? 0 : d == 1 ? -1 : 1);
            if (m <= 0 || m / pow10_tab[k] != a) continue;
            /* digits of m with k decimals */
            char dg[24];
            int nd = 0;
            uint64_t u = (uint64_t)m;
            while (u) dg[nd++] = (char)('0' + u % 10), u /= 10;
            char out[48];
            int o = 0;
            if (v < 0) out[o++] = '-';
            if (nd <= k) {
                out[o++] = '0';
                out[o++] = '.';
                for (int z = nd; z < k; z++) out[o++] = '0';
                for (int i = nd - 1; i >= 0; i--) out[o++] = dg[i];
            } else {
                for (int i = nd - 1; i >= k; i--) out[o++] = dg[i];
                out[o++] = '.';
                if (k == 0) out[o++] = '0';
                for (int i = k - 1; i >= 0; i--) out[o++] = dg[i];
            }
            rc_buf_put(b, out, (size_t)o);
            return true;
        }
    }
    return false;
}

/* The general path: the shortest %.Ne precision that reads back as v. */
void rc_fmt_f64_java_slow(rc_buf *b, double v);

void rc_fmt_f64_java(rc_buf *b, double v)
{
    if (write_special(b, v)) return;
    if (f64_plain_fast(b, v)) return;
    rc_fmt_f64_java_slow(b, v);
}

void rc_fmt_f64_java_slow(rc_buf *b, double v)
{
    if (write_special(b, v)) return;
    char sci[40];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec - 1, v);
        if (strtod(sci, NULL) == v) {
            if (prec == 1) snprintf(sci, sizeof sci, "%.1e", v);
            break;
        }
    }
    emit_sci(b, sci, v < 0);
}

void rc_fmt_f32_java(rc_buf *b, float v)
{
    if (write_special(b, v)) return;
    char sci[40];
    for (int prec = 1; prec <= 9; prec++) {
        snprintf(sci, sizeof sci, "%.*e", prec - 1, (double)v);
        if (strtof(sci, NULL) == v) {
            if (prec == 1) snprintf(sci, sizeof sci, "%.1e", (double)v);
            break;
        }
    }
    emit_sci(b, sci, v < 0);
}

void rc_fmt_f64_sig(rc_buf *b, double v, int sig)
{
    if (write_special(b, v)) return;
    if (sig < 1) sig = 1;
    if (sig > 17) sig = 17;
    char sci[40];
    snprintf(sci, sizeof sci, "%.*e", sig - 1, v);
    emit_sci(b, sci, v < 0);
}
