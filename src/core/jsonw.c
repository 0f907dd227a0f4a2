/* JSON string escaping from one table, UTF-8 validation, Latin-1 rendering. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "core/scan8.h"
#include "core/jsonw.h"

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

/* The escapes of the control characters, each in 6 bytes, and their lengths. */
static const char ctrl_esc[32][7] = {
    "\\u0000", "\\u0001", "\\u0002", "\\u0003", "\\u0004", "\\u0005", "\\u0006", "\\u0007",
    "\\b",     "\\t",     "\\n",     "\\u000B", "\\f",     "\\r",     "\\u000E", "\\u000F",
    "\\u0010", "\\u0011", "\\u0012", "\\u0013", "\\u0014", "\\u0015", "\\u0016", "\\u0017",
    "\\u0018", "\\u0019", "\\u001A", "\\u001B", "\\u001C", "\\u001D", "\\u001E", "\\u001F",
};
static const uint8_t ctrl_len[32] = {6, 6, 6, 6, 6, 6, 6, 6, 2, 2, 2, 6, 2, 2, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6};

enum { CHUNK_IN = 4096 };

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
    while ((i += rc_ascii_prefix(s + i, n - i)) < n) {
        size_t bad, k = utf8_seq(p + i, n - i, &bad);
        if (!k) return i;
        i += k;
    }
    return n;
}

/* Copies k < 16 bytes as two fixed-size copies that overlap (no call, no byte loop). */
static inline void copy_short(char *o, const unsigned char *s, size_t k)
{
    if (k >= 8) {
        memcpy(o, s, 8), memcpy(o + k - 8, s + k - 8, 8);
    } else if (k >= 4) {
        memcpy(o, s, 4), memcpy(o + k - 4, s + k - 4, 4);
    } else if (k >= 2) {
        memcpy(o, s, 2), memcpy(o + k - 2, s + k - 2, 2);
    } else if (k) {
        *o = (char)*s;
    }
}

/* The byte at p[*i], one a scan stopped at (c is it, a control, quote, backslash or non-ASCII
 * byte), escaped or validated at o: the end of the output and *i past what it took; NULL when
 * it is a sequence the chunk boundary cut (the next chunk finishes it). */
static inline char *escape_stop(char *o, const unsigned char *p, size_t n, size_t *ip, unsigned c)
{
    size_t i = *ip;
    if (c == '"' || c == '\\') { /* the usual ones: themselves after a backslash */
        o[0] = '\\', o[1] = (char)c;
        *ip = i + 1;
        return o + 2;
    }
    if (c < 0x20) { /* a control: from the table */
        memcpy(o, ctrl_esc[c], 6); /* fits: 6 bytes are reserved per input byte */
        *ip = i + 1;
        return o + ctrl_len[c];
    }
    if (c >= 0xC2 && c <= 0xDF && i + 1 < n && (p[i + 1] & 0xC0) == 0x80) { /* two bytes (Latin letters): checked here */
        o[0] = (char)c, o[1] = (char)p[i + 1];
        *ip = i + 2;
        return o + 2;
    }
    size_t bad, k = utf8_seq(p + i, n - i, &bad);
    if (k) {
        for (size_t j = 0; j < k; j++) *o++ = (char)p[i + j];
        *ip = i + k;
        return o;
    }
    if (i + 4 > n && n == CHUNK_IN && bad == n - i) return NULL;
    *ip = i + bad;
    o[0] = (char)0xEF, o[1] = (char)0xBF, o[2] = (char)0xBD; /* U+FFFD */
    return o + 3;
}

/* Escapes one chunk of input into space reserved for its worst case (6 output bytes per
 * input byte: \u00XX), so the loops write through a pointer with no checks. */
static size_t escape_chunk(char *w, const unsigned char *p, size_t n, size_t *consumed)
{
    char *o = w;
    size_t i = 0;
    while (i + 16 <= n) { /* sixteen bytes at a time: copied whole, kept up to the first stop */
        unsigned bits = rc_scan16_bits((const char *)p + i);
        memcpy(o, p + i, 16); /* fits: 6 bytes are reserved per input byte */
        if (!bits) {
            o += 16, i += 16;
            continue;
        }
        unsigned k = (unsigned)__builtin_ctz(bits);
        o += k, i += k;
        char *end = escape_stop(o, p, n, &i, p[i]);
        if (!end) goto done;
        o = end;
    }
    while (i < n) {
        unsigned k;
        bool stop;
        if (n >= 16) { /* the tail of 16 bytes or more: the last 16 scanned, from where it is */
            k = rc_scan16_stop_from((const char *)p + n - 16, (unsigned)(i + 16 - n));
            copy_short(o, p + i, k);
            stop = true; /* at i + k, unless that is the end */
        } else if (i + 8 <= n) { /* a short text: eight at a time */
            k = rc_scan8_stop((const char *)p + i);
            memcpy(o, p + i, 8);
            stop = k < 8;
        } else {
            k = esc_class[p[i]] == 0;
            *o = (char)p[i];
            stop = !k;
        }
        o += k, i += k;
        if (i == n || !stop) continue;
        char *end = escape_stop(o, p, n, &i, p[i]);
        if (!end) break;
        o = end;
    }
done: /* i: the end, or a sequence the chunk boundary cut, which the next chunk finishes */
    *consumed = i;
    return (size_t)(o - w);
}

void rc_jw_str_body(rc_buf *b, const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    while (n) {
        size_t chunk = n < CHUNK_IN ? n : CHUNK_IN;
        char *w = rc_buf_reserve(b, chunk * 6);
        if (!w) return;
        size_t used;
        rc_buf_commit(b, escape_chunk(w, p, chunk, &used));
        p += used;
        n -= used;
    }
}

void rc_jw_str(rc_buf *b, const char *p, size_t n)
{
    if (n < 16) { /* short (names, most values): scan and copy in one loop, one reservation */
        char *w = rc_buf_reserve(b, n * 6 + 2);
        if (!w) return;
        size_t i = 0;
        w[0] = '"';
        if (n >= 8 && rc_scan8_stop(p) == 8 && rc_scan8_stop(p + n - 8) == 8) { /* two scans that overlap: clean */
            copy_short(w + 1, (const unsigned char *)p, n);
            w[n + 1] = '"';
            rc_buf_commit(b, n + 2);
            return;
        }
        while (i < n && esc_class[(unsigned char)p[i]] == 0) {
            w[1 + i] = p[i];
            i++;
        }
        size_t used, len = i == n ? 0 : escape_chunk(w + 1 + i, (const unsigned char *)p + i, n - i, &used);
        w[1 + i + len] = '"';
        rc_buf_commit(b, i + len + 2);
        return;
    }
    size_t i = 0; /* plain bytes before the first one to escape or validate */
    while (i + 16 <= n) {
        unsigned k = rc_scan16_stop(p + i);
        i += k;
        if (k < 16) break;
    }
    if (i + 16 > n)
        while (i < n && esc_class[(unsigned char)p[i]] == 0) i++;
    if (i == n) { /* nothing to escape: copied as it is */
        char *w = rc_buf_reserve(b, n + 2);
        if (!w) return;
        w[0] = '"';
        if (n) memcpy(w + 1, p, n);
        w[n + 1] = '"';
        rc_buf_commit(b, n + 2);
        return;
    }
    if (n < CHUNK_IN) { /* a string of a few hundred bytes: one reservation, quotes included; the plain bytes found are copied */
        char *w = rc_buf_reserve(b, n * 6 + 2);
        if (!w) return;
        w[0] = '"';
        if (i < 16) copy_short(w + 1, (const unsigned char *)p, i); /* the usual: a stop near the start */
        else memcpy(w + 1, p, i);
        size_t used, len = i + escape_chunk(w + 1 + i, (const unsigned char *)p + i, n - i, &used);
        w[len + 1] = '"';
        rc_buf_commit(b, len + 2);
        return;
    }
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
