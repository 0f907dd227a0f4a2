/* The head of an HTTP/1.x request (pipeline/metrics.h), read as RFC 9112 writes it: request
 * line, header lines, blank line. The metrics server reads nothing of the headers but their
 * shape; they are checked so that a malformed request is refused (400) rather than guessed at.
 * The text is read as it arrives: RC_PENDING until the blank line, but a byte that cannot be
 * part of a request is refused as soon as it is seen. */
#include <stdbool.h>
#include <string.h>
#include <strings.h>
#include "pipeline/metrics.h"

typedef struct cursor {
    const char *s;
    size_t n, i;
} cursor;

/* tchar of RFC 9110 §5.6.2: the characters of a method and of a header name */
static bool is_tchar(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c && strchr("!#$%&'*+-.^_`|~", c));
}

static rc_status bad(rc_error *err, size_t at, const char *what)
{
    return rc_error_set(err, RC_ERR_SYNTAX, at, "%s at byte %zu", what, at);
}

/* The end of a line at the cursor: CRLF or LF. RC_OK past it, RC_PENDING at the end of the
 * text, RC_ERR_SYNTAX when the cursor is on anything else. */
static rc_status line_end(cursor *c, rc_error *err, const char *what)
{
    if (c->i < c->n && c->s[c->i] == '\r') c->i++;
    if (c->i == c->n) return RC_PENDING;
    if (c->s[c->i] != '\n') return bad(err, c->i, what);
    c->i++;
    return RC_OK;
}

/* One or more tchar; RC_PENDING when the text ends in them. */
static rc_status token(cursor *c, size_t *len, rc_error *err, const char *what)
{
    size_t start = c->i;
    while (c->i < c->n && is_tchar((unsigned char)c->s[c->i])) c->i++;
    if (c->i == c->n) return RC_PENDING;
    if (c->i == start) return bad(err, c->i, what);
    *len = c->i - start;
    return RC_OK;
}

static rc_status request_line(cursor *c, rc_http_request *req, rc_error *err)
{
    rc_status st;
    req->method = c->s + c->i;
    if ((st = token(c, &req->method_len, err, "a method (a token such as GET) expected")) != RC_OK)
        return st;
    if (c->s[c->i++] != ' ') return bad(err, c->i - 1, "one space expected after the method");
    size_t t = c->i;
    while (c->i < c->n && (unsigned char)c->s[c->i] > ' ' && (unsigned char)c->s[c->i] < 0x7f)
        c->i++;
    if (c->i == c->n) return RC_PENDING;
    if (c->i == t) return bad(err, c->i, "a request target (such as /metrics) expected");
    if (c->s[c->i] != ' ') return bad(err, c->i, "one space expected after the request target");
    /* the path: an absolute-form target's after its authority, without the query */
    const char *p = c->s + t, *end = c->s + c->i;
    static const char *const schemes[] = {"http://", "https://"};
    for (int k = 0; k < 2; k++) {
        size_t sl = strlen(schemes[k]);
        if ((size_t)(end - p) >= sl && !strncasecmp(p, schemes[k], sl)) {
            const char *slash = memchr(p + sl, '/', (size_t)(end - p) - sl);
            p = slash ? slash : "/", end = slash ? end : p + 1;
            break;
        }
    }
    const char *q = memchr(p, '?', (size_t)(end - p));
    req->path = p, req->path_len = (size_t)((q ? q : end) - p);
    c->i++;
    static const char version[] = "HTTP/";
    for (size_t k = 0; k < sizeof version - 1; k++, c->i++) {
        if (c->i == c->n) return RC_PENDING;
        if (c->s[c->i] != version[k])
            return bad(err, c->i, "HTTP/1.1 expected after the request target");
    }
    const char *v = c->s + c->i; /* DIGIT "." DIGIT */
    for (size_t k = 0; k < 3; k++, c->i++) {
        if (c->i == c->n) return RC_PENDING;
        char ch = c->s[c->i];
        if (k == 1 ? ch != '.' : !(ch >= '0' && ch <= '9'))
            return bad(err, c->i, "a version such as 1.1 expected");
    }
    if (v[0] != '1')
        return rc_error_set(err, RC_ERR_UNSUPPORTED, c->i - 3,
                            "HTTP/%c.%c is not supported: this server speaks HTTP/1.1", v[0], v[2]);
    req->minor = v[2] - '0';
    return line_end(c, err, "the end of the request line expected after the version");
}

/* A header line (field-name ":" field-value), the cursor at its start. */
static rc_status header_line(cursor *c, rc_error *err)
{
    if (c->s[c->i] == ' ' || c->s[c->i] == '\t')
        return bad(err, c->i, "a header line folded onto the next (obsolete)");
    size_t len;
    rc_status st = token(c, &len, err, "a header name expected");
    if (st != RC_OK) return st;
    if (c->s[c->i] != ':') return bad(err, c->i, "':' expected after the header name");
    for (c->i++; c->i < c->n; c->i++) {
        unsigned char ch = (unsigned char)c->s[c->i];
        if (ch == '\r' || ch == '\n') break;
        if ((ch < ' ' && ch != '\t') || ch == 0x7f)
            return bad(err, c->i, "a control character in a header value");
    }
    return line_end(c, err, "a line end expected after '\\r'");
}

rc_status rc_http_request_parse(const char *text, size_t n, rc_http_request *req, rc_error *err)
{
    memset(req, 0, sizeof *req);
    cursor c = {text, n, 0};
    rc_status st;
    for (;;) { /* empty lines before the request line */
        if (c.i < c.n && c.s[c.i] == '\n')
            c.i++;
        else if (c.i + 1 < c.n && c.s[c.i] == '\r' && c.s[c.i + 1] == '\n')
            c.i += 2;
        else
            break;
    }
    if (c.i == c.n || (c.i + 1 == c.n && c.s[c.i] == '\r')) return RC_PENDING;
    if ((st = request_line(&c, req, err)) != RC_OK) return st;
    for (;;) {
        if (c.i == c.n) return RC_PENDING;
        if (c.s[c.i] == '\r' || c.s[c.i] == '\n') {
            if ((st = line_end(&c, err, "a line end expected after '\\r'")) != RC_OK) return st;
            req->head_len = c.i;
            return RC_OK;
        }
        if ((st = header_line(&c, err)) != RC_OK) return st;
    }
}
