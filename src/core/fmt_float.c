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

void rc_fmt_f64_java(rc_buf *b, double v)
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
