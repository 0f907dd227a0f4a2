/* The Extended JSON reader's tokens (core/ejson_int.h): white space, strings, doubles from
 * their text, and the argument lists of the shell's constructors. */
#include <stdlib.h>
#include <string.h>
#include "core/ejson_int.h"
#include "core/jsonw.h"

bool rc_ej_is_ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
void rc_ej_skip_ws(ej_ctx *c)
{
    while (c->i < c->n && rc_ej_is_ws(c->p[c->i])) c->i++;
}
bool rc_ej_is_ident(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$'; }

rc_status rc_ej_fail(ej_ctx *c, rc_status code, size_t at, const char *what)
{
    return rc_error_set(c->err, code, at, "Extended JSON: %s", what);
}

bool rc_ej_expect(ej_ctx *c, char ch)
{
    rc_ej_skip_ws(c);
    if (c->i < c->n && c->p[c->i] == ch) return c->i++, true;
    return false;
}

static bool hex4(const char *p, unsigned *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        int h = rc_ej_hexv(p[k]);
        if (h < 0) return false;
        v = v << 4 | (unsigned)h;
    }
    *out = v;
    return true;
}

static size_t put_utf8(char *w, unsigned cp)
{
    if (cp < 0x80) return w[0] = (char)cp, 1;
    if (cp < 0x800) return w[0] = (char)(0xC0 | cp >> 6), w[1] = (char)(0x80 | (cp & 0x3F)), 2;
    if (cp < 0x10000) return w[0] = (char)(0xE0 | cp >> 12), w[1] = (char)(0x80 | (cp >> 6 & 0x3F)), w[2] = (char)(0x80 | (cp & 0x3F)), 3;
    w[0] = (char)(0xF0 | cp >> 18), w[1] = (char)(0x80 | (cp >> 12 & 0x3F)), w[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    return w[3] = (char)(0x80 | (cp & 0x3F)), 4;
}

/* A string in double quotes at c->i, unescaped into the arena (or borrowed when it has no
 * escape); valid UTF-8 only. */
rc_status rc_ej_string(ej_ctx *c, rc_str *out)
{
    size_t at = c->i, k = at + 1;
    bool esc = false;
    for (; k < c->n && c->p[k] != '"'; k++) {
        if ((unsigned char)c->p[k] < 0x20) return rc_ej_fail(c, RC_ERR_SYNTAX, k, "control character in a string");
        if (c->p[k] == '\\') esc = true, k++;
    }
    if (k >= c->n) return rc_ej_fail(c, RC_ERR_SYNTAX, at, "unterminated string");
    const char *s = c->p + at + 1;
    size_t len = k - at - 1;
    c->i = k + 1;
    if (rc_utf8_valid_prefix(s, len) != len) return rc_ej_fail(c, RC_ERR_UTF8, at, "a string is not valid UTF-8");
    if (!esc) return *out = (rc_str){s, len}, RC_OK;
    char *w = rc_arena_alloc(c->a, len + 1), *o = w;
    if (!w) return rc_ej_fail(c, RC_ERR_NOMEM, at, "out of memory");
    for (size_t j = 0; j < len; j++) {
        if (s[j] != '\\') {
            *o++ = s[j];
            continue;
        }
        size_t e = at + 1 + j;
        char x = s[++j];
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *f = x ? strchr(from, x) : NULL;
        if (f) {
            *o++ = to[f - from];
            continue;
        }
        unsigned cp, lo;
        if (x != 'u' || j + 4 >= len || !hex4(s + j + 1, &cp)) return rc_ej_fail(c, RC_ERR_SYNTAX, e, "bad escape in a string");
        j += 4;
        if (cp >= 0xD800 && cp < 0xDC00) {
            if (j + 6 >= len || s[j + 1] != '\\' || s[j + 2] != 'u' || !hex4(s + j + 3, &lo) || lo < 0xDC00 || lo > 0xDFFF)
                return rc_ej_fail(c, RC_ERR_UTF8, e, "lone UTF-16 surrogate in a string");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00), j += 6;
        } else if (cp >= 0xDC00 && cp < 0xE000) {
            return rc_ej_fail(c, RC_ERR_UTF8, e, "lone UTF-16 surrogate in a string");
        }
        o += put_utf8(o, cp); /* at most 4 bytes for the 6 or 12 read */
    }
    *out = (rc_str){w, (size_t)(o - w)};
    return RC_OK;
}

/* A double from its text (a number, or NaN, Infinity, -Infinity). */
rc_status rc_ej_double(ej_ctx *c, const char *s, size_t n, size_t at, rc_bson *v)
{
    char tmp[64];
    v->kind = RC_B_DOUBLE;
    if (n == 3 && !memcmp(s, "NaN", 3)) return v->f64 = __builtin_nan(""), RC_OK;
    if (n == 8 && !memcmp(s, "Infinity", 8)) return v->f64 = __builtin_inf(), RC_OK;
    if (n == 9 && !memcmp(s, "-Infinity", 9)) return v->f64 = -__builtin_inf(), RC_OK;
    if (!n || n >= sizeof tmp) return rc_ej_fail(c, RC_ERR_VALUE, at, "bad double");
    memcpy(tmp, s, n), tmp[n] = 0;
    for (size_t k = 0; k < n; k++)
        if (!strchr("0123456789.eE+-", tmp[k])) return rc_ej_fail(c, RC_ERR_VALUE, at, "bad double");
    char *end;
    v->f64 = strtod(tmp, &end);
    if ((size_t)(end - tmp) != n) return rc_ej_fail(c, RC_ERR_VALUE, at, "bad double");
    return RC_OK;
}

/* The arguments of a shell constructor: '(' then up to `max` numbers or strings, ')'. Each
 * argument's text (a string unescaped) with whether it was quoted. */
rc_status rc_ej_args(ej_ctx *c, ej_arg *args, int max, int *nargs)
{
    size_t at = c->i;
    *nargs = 0;
    if (!rc_ej_expect(c, '(')) return rc_ej_fail(c, RC_ERR_SYNTAX, at, "expected '('");
    if (rc_ej_expect(c, ')')) return RC_OK;
    do {
        if (*nargs == max) return rc_ej_fail(c, RC_ERR_SYNTAX, c->i, "too many arguments");
        ej_arg *g = &args[(*nargs)++];
        rc_ej_skip_ws(c);
        g->at = c->i;
        g->quoted = c->i < c->n && c->p[c->i] == '"';
        if (g->quoted) {
            rc_status st = rc_ej_string(c, &g->s);
            if (st != RC_OK) return st;
        } else {
            size_t k = c->i;
            while (k < c->n && (rc_ej_is_ident(c->p[k]) || c->p[k] == '-' || c->p[k] == '+' || c->p[k] == '.')) k++;
            if (k == c->i) return rc_ej_fail(c, RC_ERR_SYNTAX, c->i, "expected a number or a string");
            g->s = (rc_str){c->p + c->i, k - c->i};
            c->i = k;
        }
    } while (rc_ej_expect(c, ','));
    if (!rc_ej_expect(c, ')')) return rc_ej_fail(c, RC_ERR_SYNTAX, c->i, "expected ')'");
    return RC_OK;
}
