/* PostgreSQL URLs and LSNs as text: what a message may show of a URL (never its password),
 * and the "16/B374D848" form of positions. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "sources/pg/pg_conn.h"

/* Up to 8 hex digits of one half of an LSN; *s moves past them. */
static bool hex32(const char **s, uint64_t *v)
{
    int n = 0;
    *v = 0;
    for (; isxdigit((unsigned char)**s); (*s)++, n++) {
        if (n == 8) return false;
        int c = tolower((unsigned char)**s);
        *v = *v << 4 | (uint64_t)(isdigit(c) ? c - '0' : c - 'a' + 10);
    }
    return n > 0;
}

bool rc_pg_lsn_parse(const char *s, uint64_t *lsn)
{
    uint64_t hi, lo;
    if (!hex32(&s, &hi) || *s++ != '/' || !hex32(&s, &lo) || *s) return false;
    *lsn = hi << 32 | lo;
    return true;
}

/* Upper-case hex without leading zeros, as "%X" writes it; returns the end. */
static char *put_hex(char *o, uint32_t v)
{
    int shift = 28;
    while (shift > 0 && !(v >> shift)) shift -= 4;
    for (; shift >= 0; shift -= 4) *o++ = "0123456789ABCDEF"[(v >> shift) & 15];
    return o;
}

/* By hand: snprintf was 5% of a streamed event (bench/run_capture_pg.sh, callgrind). */
void rc_pg_lsn_format(uint64_t lsn, char out[RC_PG_LSN_MAX])
{
    char *o = put_hex(out, (uint32_t)(lsn >> 32));
    *o++ = '/';
    *put_hex(o, (uint32_t)lsn) = '\0';
}

/* Appends to a caller buffer, counting what does not fit (snprintf semantics). */
typedef struct outbuf {
    char *p;
    size_t cap, len;
} outbuf;

static void out_put(outbuf *o, const char *s, size_t n)
{
    if (o->len < o->cap) {
        size_t room = o->cap - 1 - o->len, k = n < room ? n : room;
        memcpy(o->p + o->len, s, k);
        o->p[o->len + k] = '\0';
    }
    o->len += n;
}

static int hexval(int c)
{
    return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* True when the percent-decoded key of "key=value" (n bytes) is a secret libpq reads. */
static bool secret_param(const char *s, size_t n)
{
    char key[32];
    size_t k = 0;
    for (size_t i = 0; i < n && s[i] != '=' && k < sizeof key - 1; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < n && (hi = hexval((unsigned char)s[i + 1])) >= 0 &&
            (lo = hexval((unsigned char)s[i + 2])) >= 0) {
            key[k++] = (char)(hi << 4 | lo);
            i += 2;
        } else {
            key[k++] = s[i];
        }
    }
    key[k] = '\0';
    return strcmp(key, "password") == 0 || strcmp(key, "sslpassword") == 0;
}

bool rc_pg_is_url(const char *s)
{
    return strncmp(s, "postgres://", 11) == 0 || strncmp(s, "postgresql://", 13) == 0;
}

size_t rc_pg_url_redact(const char *url, char *out, size_t cap)
{
    outbuf o = {out, cap, 0};
    if (cap) out[0] = '\0';
    if (!rc_pg_is_url(url)) {
        /* a key=value string may hold password=... anywhere: show none of it */
        out_put(&o, "(not a URL)", 11);
        return o.len;
    }
    const char *p = strstr(url, "://") + 3;
    /* userinfo ends at the first '@' before any '/', as libpq reads it */
    const char *q = p;
    while (*q && *q != '@' && *q != '/') q++;
    if (*q == '@') {
        const char *colon = memchr(p, ':', (size_t)(q - p));
        out_put(&o, url, (size_t)((colon ? colon : q) - url));
        p = q;
    } else {
        out_put(&o, url, (size_t)(p - url));
    }
    const char *qm = strchr(p, '?');
    if (!qm) {
        out_put(&o, p, strlen(p));
        return o.len;
    }
    out_put(&o, p, (size_t)(qm - p));
    char sep = '?';
    for (const char *s = qm + 1; *s;) {
        const char *e = strchr(s, '&');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        if (n && !secret_param(s, n)) {
            out_put(&o, &sep, 1);
            out_put(&o, s, n);
            sep = '&';
        }
        s += n + (e != NULL);
    }
    return o.len;
}

void rc_pg_url_mask(const char *url, char *msg, size_t cap)
{
    const char *vals[16];
    size_t lens[16], n = 0;
    const char *p = strstr(url, "://"), *q;
    p = p ? p + 3 : url;
    for (q = p; *q && *q != '@' && *q != '/'; q++) {
    }
    const char *colon = *q == '@' ? memchr(p, ':', (size_t)(q - p)) : NULL;
    if (colon && q > colon + 1) vals[n] = colon + 1, lens[n++] = (size_t)(q - colon - 1);
    for (const char *s = strchr(url, '?'); s && n < 16; s = strchr(s, '&')) {
        s++;
        size_t len = strcspn(s, "&");
        const char *eq = memchr(s, '=', len);
        if (eq && secret_param(s, len) && len > (size_t)(eq + 1 - s))
            vals[n] = eq + 1, lens[n++] = len - (size_t)(eq + 1 - s);
    }
    for (size_t i = 0; i < n; i++) {
        char tmp[512];
        size_t k = 0;
        for (const char *m = msg; *m && k + 4 < sizeof tmp;) {
            if (strncmp(m, vals[i], lens[i]) == 0) {
                memcpy(tmp + k, "***", 3);
                k += 3;
                m += lens[i];
            } else {
                tmp[k++] = *m++;
            }
        }
        if (k >= cap) k = cap - 1;
        memcpy(msg, tmp, k);
        msg[k] = '\0';
    }
}
