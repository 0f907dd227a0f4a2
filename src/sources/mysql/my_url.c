/* mysql:// and mariadb:// URLs: their parts, their TLS and password parameters, and what a
 * message may show of them (never the password). */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sources/mysql/my_conn.h"

bool rc_my_is_url(const char *s)
{
    return strncmp(s, "mysql://", 8) == 0 || strncmp(s, "mariadb://", 10) == 0;
}

static int hexval(int c)
{
    return isdigit(c) ? c - '0' : isxdigit(c) ? tolower(c) - 'a' + 10 : -1;
}

/* A percent-decoded copy of s[0..n) (malloc'd), NULL when out of memory or malformed. */
static char *decode(const char *s, size_t n)
{
    char *d = malloc(n + 1), *o = d;
    if (!d) return NULL;
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (s[i] != '%') {
            *o++ = s[i];
        } else if (i + 2 < n && (hi = hexval((unsigned char)s[i + 1])) >= 0 && (lo = hexval((unsigned char)s[i + 2])) >= 0) {
            *o++ = (char)(hi << 4 | lo);
            i += 2;
        } else {
            free(d);
            return NULL;
        }
    }
    *o = '\0';
    return d;
}

/* The secrets of a URL: the userinfo's password and password-file's path. */
static bool secret_key(const char *s, size_t n)
{
    return (n == 8 && !memcmp(s, "password", 8)) || (n == 13 && !memcmp(s, "password-file", 13));
}

/* Appends s[0..n) to out (cap bytes, *len used), cut where it does not fit. */
static void put(char *out, size_t cap, size_t *len, const char *s, size_t n)
{
    size_t k = n < cap - 1 - *len ? n : cap - 1 - *len;
    memcpy(out + *len, s, k);
    *len += k;
    out[*len] = '\0';
}

void rc_my_url_redact(const char *url, char *out, size_t cap)
{
    if (!cap) return;
    out[0] = '\0';
    const char *p = strstr(url, "://");
    if (!p) {
        snprintf(out, cap, "(not a URL)");
        return;
    }
    p += 3;
    /* the userinfo ends at the authority's last @: a password with an unescaped @ (refused by
     * the parser) is hidden whole all the same */
    const char *aend = p + strcspn(p, "/?"), *q = aend;
    for (const char *r = p; r < aend; r++)
        if (*r == '@') q = r;
    size_t len = 0;
    if (q < aend) {
        const char *colon = memchr(p, ':', (size_t)(q - p));
        put(out, cap, &len, url, (size_t)((colon ? colon : q) - url));
        p = q;
    } else {
        put(out, cap, &len, url, (size_t)(p - url));
    }
    const char *qm = strchr(p, '?');
    put(out, cap, &len, p, qm ? (size_t)(qm - p) : strlen(p));
    char sep = '?';
    for (const char *s = qm ? qm + 1 : NULL; s && *s;) {
        const char *e = strchr(s, '&');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        const char *eq = memchr(s, '=', n);
        if (n && !secret_key(s, eq ? (size_t)(eq - s) : n)) {
            put(out, cap, &len, &sep, 1);
            put(out, cap, &len, s, n);
            sep = '&';
        }
        s += n + (e != NULL);
    }
}

static rc_status bad_url(const rc_my_url *u, const char *what, rc_error *err)
{
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s: %s (mysql://USER@HOST:PORT[/DB][?PARAMS])", u->shown, what);
}

/* The first line of PATH (without its line end), malloc'd. */
static rc_status read_password_file(const rc_my_url *u, const char *path, char **out, rc_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s: password-file %s: %s", u->shown, path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, f);
    fclose(f);
    if (n < 0) {
        free(line);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s: password-file %s is empty", u->shown, path);
    }
    line[strcspn(line, "\r\n")] = '\0';
    *out = line;
    return RC_OK;
}

static const char *const ssl_modes[] = {"", "DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA", "VERIFY_IDENTITY", NULL};

/* One key=value of the query. */
static rc_status param(rc_my_url *u, const char *k, const char *v, rc_error *err)
{
    char **slot = !strcmp(k, "ssl-ca")          ? &u->ssl_ca
                  : !strcmp(k, "ssl-cert")      ? &u->ssl_cert
                  : !strcmp(k, "ssl-key")       ? &u->ssl_key
                  : !strcmp(k, "defaults-file") ? &u->defaults_file
                                                : NULL;
    if (slot) {
        free(*slot);
        if (!(*slot = strdup(v))) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        return RC_OK;
    }
    if (!strcmp(k, "ssl-mode")) {
        for (int i = 1; ssl_modes[i]; i++)
            if (!strcasecmp(v, ssl_modes[i])) return u->ssl_mode = i, RC_OK;
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "%s: ssl-mode is DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY, not '%s'", u->shown, v);
    }
    if (!strcmp(k, "ssl-verify-server-cert")) {
        if (!strcmp(v, "true") || !strcmp(v, "1")) return u->verify_cert = 1, RC_OK;
        if (!strcmp(v, "false") || !strcmp(v, "0")) return u->verify_cert = 0, RC_OK;
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s: ssl-verify-server-cert is true or false, not '%s'", u->shown, v);
    }
    if (!strcmp(k, "password-file")) {
        char *pw = NULL;
        if (read_password_file(u, v, &pw, err) != RC_OK) return err->code;
        if (u->password) free(pw); /* the URL's own password wins */
        else u->password = pw;
        return RC_OK;
    }
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                        "%s: unknown parameter '%s' (ssl-mode, ssl-ca, ssl-cert, ssl-key, ssl-verify-server-cert, "
                        "defaults-file, password-file)",
                        u->shown, k);
}

static rc_status parse(const char *url, rc_my_url *u, rc_error *err)
{
    const char *p = strstr(url, "://") + 3;
    const char *end = p + strcspn(p, "/?");
    const char *at = memchr(p, '@', (size_t)(end - p));
    if (!at) return bad_url(u, "no user (USER@ before the host)", err);
    if (memchr(at + 1, '@', (size_t)(end - at - 1))) return bad_url(u, "two @ before the host (write an @ of the user or password as %40)", err);
    const char *colon = memchr(p, ':', (size_t)(at - p));
    u->user = decode(p, (size_t)((colon ? colon : at) - p));
    if (colon) u->password = decode(colon + 1, (size_t)(at - colon - 1));
    if (!u->user || (colon && !u->password)) return bad_url(u, "a malformed %-escape in the user or password", err);
    if (!u->user[0]) return bad_url(u, "no user (USER@ before the host)", err);
    const char *h = at + 1, *hend = end, *pc = NULL;
    if (*h == '[') { /* [::1]:3306 */
        const char *rb = memchr(h, ']', (size_t)(end - h));
        if (!rb) return bad_url(u, "an IPv6 host without its ]", err);
        u->host = decode(h + 1, (size_t)(rb - h - 1));
        pc = rb + 1 < end && rb[1] == ':' ? rb + 1 : NULL;
        if (rb + 1 < end && !pc) return bad_url(u, "text after the IPv6 host's ]", err);
    } else {
        pc = memchr(h, ':', (size_t)(end - h));
        u->host = decode(h, (size_t)((pc ? pc : hend) - h));
    }
    if (!u->host || !u->host[0]) return bad_url(u, "no host", err);
    u->port = 3306;
    if (pc) {
        char *e;
        unsigned long port = strtoul(pc + 1, &e, 10);
        if (e != end || pc + 1 == end || port == 0 || port > 65535) return bad_url(u, "the port is not a number 1-65535", err);
        u->port = (unsigned)port;
    }
    p = end;
    if (*p == '/') {
        const char *dend = p + 1 + strcspn(p + 1, "?");
        if (dend > p + 1 && !(u->db = decode(p + 1, (size_t)(dend - p - 1)))) return bad_url(u, "a malformed %-escape in the database", err);
        p = dend;
    }
    if (*p != '?') return RC_OK;
    for (const char *s = p + 1; *s;) {
        size_t n = strcspn(s, "&");
        const char *eq = memchr(s, '=', n);
        if (!eq) return bad_url(u, "a parameter without =VALUE", err);
        char *k = decode(s, (size_t)(eq - s)), *v = decode(eq + 1, n - (size_t)(eq + 1 - s));
        rc_status st = k && v ? param(u, k, v, err) : bad_url(u, "a malformed %-escape in a parameter", err);
        free(k);
        free(v);
        if (st != RC_OK) return st;
        s += n + (s[n] == '&');
    }
    return RC_OK;
}

rc_status rc_my_url_parse(const char *url, rc_my_url *u, rc_error *err)
{
    memset(u, 0, sizeof *u);
    u->verify_cert = -1;
    rc_my_url_redact(url, u->shown, sizeof u->shown);
    if (!rc_my_is_url(url)) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s is not a mysql:// URL", u->shown);
    rc_status st = parse(url, u, err);
    if (st == RC_OK && !u->password && getenv("MYSQL_PWD") && !(u->password = strdup(getenv("MYSQL_PWD"))))
        st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (st != RC_OK) rc_my_url_fini(u);
    return st;
}

void rc_my_url_fini(rc_my_url *u)
{
    if (u->password) memset(u->password, 0, strlen(u->password));
    free(u->user), free(u->password), free(u->host), free(u->db);
    free(u->ssl_ca), free(u->ssl_cert), free(u->ssl_key), free(u->defaults_file);
    char shown[sizeof u->shown];
    memcpy(shown, u->shown, sizeof shown);
    memset(u, 0, sizeof *u);
    memcpy(u->shown, shown, sizeof shown); /* errors after a failed parse still name the URL */
}
