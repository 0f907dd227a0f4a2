/* Base64 (RFC 4648, standard alphabet, padded) and base16. */
#include "core/fmt.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* rc_fmt_base64_at's loop, inlined into each writer. */
static inline __attribute__((always_inline)) char *b64_at(char *o, const unsigned char *p, size_t n)
{
    size_t i = 0;
    for (; i + 3 <= n; i += 3, o += 4) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
        o[0] = b64[v >> 18], o[1] = b64[(v >> 12) & 63], o[2] = b64[(v >> 6) & 63], o[3] = b64[v & 63];
    }
    if (i < n) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);
        o[0] = b64[v >> 18], o[1] = b64[(v >> 12) & 63], o[2] = i + 1 < n ? b64[(v >> 6) & 63] : '=', o[3] = '=';
        o += 4;
    }
    return o;
}

char *rc_fmt_base64_at(char *o, const unsigned char *p, size_t n) { return b64_at(o, p, n); }

void rc_fmt_base64(rc_buf *b, const unsigned char *p, size_t n)
{
    char *w = rc_buf_reserve(b, RC_BASE64_LEN(n));
    if (!w) return;
    rc_buf_commit(b, (size_t)(b64_at(w, p, n) - w));
}

void rc_fmt_base64_quoted(rc_buf *b, const unsigned char *p, size_t n)
{
    char *w = rc_buf_reserve(b, RC_BASE64_LEN(n) + 2);
    if (!w) return;
    w[0] = '"';
    char *o = b64_at(w + 1, p, n);
    *o++ = '"';
    rc_buf_commit(b, (size_t)(o - w));
}

/* RFC 4648's URL-safe alphabet: '-' and '_' for '+' and '/' (Java's Base64.getUrlEncoder(),
 * padding kept) */
void rc_fmt_base64url(rc_buf *b, const unsigned char *p, size_t n)
{
    size_t at = b->len;
    rc_fmt_base64(b, p, n);
    for (size_t i = at; i < b->len; i++)
        if (b->data[i] == '+' || b->data[i] == '/') b->data[i] = b->data[i] == '+' ? '-' : '_';
}

static int b64_val(unsigned char c, bool url)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == (url ? '-' : '+')) return 62;
    if (c == (url ? '_' : '/')) return 63;
    return -1;
}

static rc_status decode64(const char *s, size_t n, bool url, rc_arena *a, rc_str *out, size_t *bad);

rc_status rc_base64_decode(const char *s, size_t n, rc_arena *a, rc_str *out, size_t *bad) { return decode64(s, n, false, a, out, bad); }

rc_status rc_base64url_decode(const char *s, size_t n, rc_arena *a, rc_str *out, size_t *bad) { return decode64(s, n, true, a, out, bad); }

static rc_status decode64(const char *s, size_t n, bool url, rc_arena *a, rc_str *out, size_t *bad)
{
    if (n % 4) {
        *bad = n;
        return RC_ERR_VALUE;
    }
    unsigned char *d = rc_arena_alloc(a, n / 4 * 3 + 1);
    if (!d) return RC_ERR_NOMEM;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        size_t pad = 0;
        for (int k = 0; k < 4; k++) {
            unsigned char c = (unsigned char)s[i + k];
            if (c == '=' && i + 4 == n && k >= 2) {
                pad++;
                v[k] = 0;
                continue;
            }
            v[k] = pad ? -1 : b64_val(c, url);
            if (v[k] < 0) {
                *bad = i + (size_t)k;
                return RC_ERR_VALUE;
            }
        }
        unsigned x = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 | (unsigned)v[2] << 6 | (unsigned)v[3];
        /* Non-canonical encodings (stray bits in the padding) are rejected, so that a
         * decoded value re-encodes to the same text. */
        if ((pad == 1 && (x & 0xFF)) || (pad == 2 && (x & 0xFFFF))) {
            *bad = i + 3 - pad;
            return RC_ERR_VALUE;
        }
        d[o++] = (unsigned char)(x >> 16);
        if (pad < 2) d[o++] = (unsigned char)(x >> 8);
        if (pad < 1) d[o++] = (unsigned char)x;
    }
    out->p = (const char *)d;
    out->n = o;
    return RC_OK;
}

void rc_fmt_java_bytes(rc_buf *b, const unsigned char *p, size_t n)
{
    rc_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) RC_BUF_LIT(b, ", ");
        rc_fmt_i64(b, (int8_t)p[i]);
    }
    rc_buf_putc(b, ']');
}

size_t rc_bits_bytes(int width, uint64_t u, unsigned char out[8])
{
    size_t nb = width > 0 ? (size_t)(width + 7) / 8 : 1;
    if (nb > 8) nb = 8;
    for (size_t i = 0; i < nb; i++) out[nb - 1 - i] = (unsigned char)(u >> (8 * i));
    return nb;
}

void rc_fmt_hex(rc_buf *b, const unsigned char *p, size_t n, bool upper)
{
    const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    char *w = rc_buf_reserve(b, n * 2);
    if (!w) return;
    for (size_t i = 0; i < n; i++) {
        w[2 * i] = dig[p[i] >> 4];
        w[2 * i + 1] = dig[p[i] & 15];
    }
    rc_buf_commit(b, n * 2);
}
