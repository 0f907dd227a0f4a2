/* JSON string escaping from one table, UTF-8 validation, Latin-1 rendering. */
#include <stdint.h>
#include "rowcast/jsonw.h"

/* 0: copy as is; 1: needs escaping (control, quote, backslash); 2: start of a multi-byte
 * sequence (or an invalid byte) that must be validated. */
static const uint8_t esc_class[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
};

static const char hexdig[] = "0123456789ABCDEF";

/* Length of the well-formed UTF-8 sequence at p (1..4), or 0 when ill-formed; in that case
 * *bad is set to the length of the maximal ill-formed subpart to replace (>= 1). */
static size_t utf8_seq(const unsigned char *p, size_t n, size_t *bad)
{
    unsigned c = p[0];
    size_t need;
    unsigned lo = 0x80, hi = 0xBF;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF) need = 2;
    else if (c == 0xE0) need = 3, lo = 0xA0;
    else if (c == 0xED) need = 3, hi = 0x9F;
    else if (c >= 0xE1 && c <= 0xEF) need = 3;
    else if (c == 0xF0) need = 4, lo = 0x90;
    else if (c == 0xF4) need = 4, hi = 0x8F;
    else if (c >= 0xF1 && c <= 0xF3) need = 4;
    else {
        *bad = 1;
        return 0;
    }
    size_t i = 1;
    for (; i < need; i++) {
        if (i >= n) break;
        unsigned cc = p[i];
        unsigned l = i == 1 ? lo : 0x80, h = i == 1 ? hi : 0xBF;
        if (cc < l || cc > h) break;
    }
    if (i == need) return need;
    *bad = i;
    return 0;
}

size_t rc_utf8_valid_prefix(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        if (p[i] < 0x80) {
            i++;
            continue;
        }
        size_t bad, k = utf8_seq(p + i, n - i, &bad);
        if (!k) return i;
        i += k;
    }
    return n;
}

void rc_jw_str_body(rc_buf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t start = i;
        while (i < n && esc_class[p[i]] == 0) i++;
        rc_buf_put(b, p + start, i - start);
        if (i >= n) break;
        unsigned c = p[i];
        if (esc_class[c] == 1) {
            char e[6] = {'\\', 0, 0, 0, 0, 0};
            size_t len = 2;
            switch (c) {
            case '"': e[1] = '"'; break;
            case '\\': e[1] = '\\'; break;
            case '\b': e[1] = 'b'; break;
            case '\f': e[1] = 'f'; break;
            case '\n': e[1] = 'n'; break;
            case '\r': e[1] = 'r'; break;
            case '\t': e[1] = 't'; break;
            default:
                e[1] = 'u', e[2] = '0', e[3] = '0', e[4] = hexdig[c >> 4], e[5] = hexdig[c & 15];
                len = 6;
            }
            rc_buf_put(b, e, len);
            i++;
            continue;
        }
        size_t bad, k = utf8_seq(p + i, n - i, &bad);
        if (k) {
            rc_buf_put(b, p + i, k);
            i += k;
        } else {
            RC_BUF_LIT(b, "\xEF\xBF\xBD");
            i += bad;
        }
    }
}

void rc_jw_str(rc_buf *b, const char *p, size_t n)
{
    rc_buf_putc(b, '"');
    rc_jw_str_body(b, p, n);
    rc_buf_putc(b, '"');
}

void rc_jw_latin1(rc_buf *b, const unsigned char *p, size_t n)
{
    rc_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned c = p[i];
        if (c < 0x80) {
            rc_jw_str_body(b, (const char *)p + i, 1);
        } else {
            char u[2] = {(char)(0xC0 | (c >> 6)), (char)(0x80 | (c & 0x3F))};
            rc_buf_put(b, u, 2);
        }
    }
    rc_buf_putc(b, '"');
}
