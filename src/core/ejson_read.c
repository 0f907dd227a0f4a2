/* Extended JSON reader (core/ejson.h): one recursive descent over JSON and the Java driver's
 * shell forms. An object is read as a document first; one whose first key is a type wrapper
 * ($oid, $numberLong, $date, ...) then becomes that value (ejson_wrap.c), any other $-key
 * ("$set") stays a document. */
#include <stdlib.h>
#include <string.h>
#include "core/ejson_int.h"
#include "core/fmt.h"
#include "core/jsonw.h"

/* A number at c->i: an integer is int32 when it fits, else int64 (beyond int64: a double, as
 * the Java driver reads it); a fraction or exponent makes a double. */
static rc_status number(ej_ctx *c, rc_bson *v)
{
    size_t at = c->i, k = at;
    bool real = false;
    if (k < c->n && (c->p[k] == '-' || c->p[k] == '+')) k++;
    size_t d0 = k;
    while (k < c->n && ((c->p[k] >= '0' && c->p[k] <= '9') || c->p[k] == '.' || c->p[k] == 'e' || c->p[k] == 'E' ||
                        ((c->p[k] == '-' || c->p[k] == '+') && (c->p[k - 1] == 'e' || c->p[k - 1] == 'E'))))
        real |= c->p[k] == '.' || c->p[k] == 'e' || c->p[k] == 'E', k++;
    if (k == d0 || c->p[d0] < '0' || c->p[d0] > '9') return rc_ej_fail(c, RC_ERR_SYNTAX, at, "bad number");
    c->i = k;
    if (!real && c->p[at] != '+') {
        int64_t i;
        rc_status st = rc_parse_i64(c->p + at, k - at, &i);
        if (st == RC_OK) {
            if (i >= INT32_MIN && i <= INT32_MAX) v->kind = RC_B_INT32, v->i32 = (int32_t)i;
            else v->kind = RC_B_INT64, v->i64 = i;
            return RC_OK;
        }
        if (st != RC_ERR_RANGE) return rc_ej_fail(c, RC_ERR_SYNTAX, at, "bad number");
    }
    return rc_ej_double(c, c->p + at, k - at, at, v);
}


typedef struct vec {
    rc_bson_member *items;
    uint32_t n, cap;
} vec;

static rc_bson_member *vec_push(vec *m)
{
    if (m->n == m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 8;
        rc_bson_member *p = realloc(m->items, cap * sizeof *p);
        if (!p) return NULL;
        m->items = p, m->cap = cap;
    }
    return &m->items[m->n++];
}

static rc_status vec_done(ej_ctx *c, vec *m, rc_bson *v, rc_bson_kind kind, size_t at)
{
    v->kind = kind, v->doc.n = m->n, v->doc.items = NULL;
    if (m->n) {
        rc_bson_member *p = rc_arena_alloc(c->a, m->n * sizeof *p);
        if (!p) return free(m->items), rc_ej_fail(c, RC_ERR_NOMEM, at, "out of memory");
        memcpy(p, m->items, m->n * sizeof *p);
        v->doc.items = p;
    }
    free(m->items);
    return RC_OK;
}

/* An object or an array at c->i (its opening bracket). */
static rc_status container(ej_ctx *c, rc_bson *v, bool obj)
{
    size_t at = c->i++;
    if (++c->depth > RC_EJSON_MAX_DEPTH) return rc_ej_fail(c, RC_ERR_LIMIT, at, "nested too deep");
    vec m = {0};
    char close = obj ? '}' : ']';
    rc_status st = RC_OK;
    if (!rc_ej_expect(c, close)) {
        do {
            rc_bson_member *e = vec_push(&m);
            if (!e) return free(m.items), rc_ej_fail(c, RC_ERR_NOMEM, c->i, "out of memory");
            e->key = (rc_str){"", 0};
            if (obj) {
                rc_ej_skip_ws(c);
                if (c->i >= c->n || c->p[c->i] != '"') return free(m.items), rc_ej_fail(c, RC_ERR_SYNTAX, c->i, "expected a member name");
                if ((st = rc_ej_string(c, &e->key)) != RC_OK) return free(m.items), st;
                if (!rc_ej_expect(c, ':')) return free(m.items), rc_ej_fail(c, RC_ERR_SYNTAX, c->i, "expected ':'");
            }
            if ((st = rc_ej_value(c, &e->val)) != RC_OK) return free(m.items), st;
        } while (rc_ej_expect(c, ','));
        if (!rc_ej_expect(c, close)) return free(m.items), rc_ej_fail(c, RC_ERR_SYNTAX, c->i, obj ? "expected ',' or '}'" : "expected ',' or ']'");
    }
    c->depth--;
    if ((st = vec_done(c, &m, v, obj ? RC_B_DOCUMENT : RC_B_ARRAY, at)) != RC_OK) return st;
    return obj ? rc_ej_unwrap(c, v, at) : RC_OK;
}

/* A shell regular expression /pattern/flags at c->i; "\/" in the pattern is a '/'. */
static rc_status regex(ej_ctx *c, rc_bson *v)
{
    size_t at = c->i, k = at + 1;
    bool esc = false;
    for (; k < c->n && c->p[k] != '/'; k++)
        if (c->p[k] == '\\' && k + 1 < c->n) esc |= c->p[k + 1] == '/', k++;
    if (k >= c->n) return rc_ej_fail(c, RC_ERR_SYNTAX, at, "unterminated regular expression");
    rc_str pat = {c->p + at + 1, k - at - 1};
    if (esc) {
        char *w = rc_arena_alloc(c->a, pat.n + 1), *o = w;
        if (!w) return rc_ej_fail(c, RC_ERR_NOMEM, at, "out of memory");
        for (size_t j = 0; j < pat.n; j++) {
            if (pat.p[j] == '\\' && j + 1 < pat.n && pat.p[j + 1] == '/') j++;
            *o++ = pat.p[j];
        }
        pat = (rc_str){w, (size_t)(o - w)};
    }
    size_t f = ++k;
    while (k < c->n && c->p[k] >= 'a' && c->p[k] <= 'z') k++;
    c->i = k;
    if (rc_utf8_valid_prefix(pat.p, pat.n) != pat.n) return rc_ej_fail(c, RC_ERR_UTF8, at, "a pattern is not valid UTF-8");
    v->kind = RC_B_REGEX, v->re.pattern = pat, v->re.options = (rc_str){c->p + f, k - f};
    return RC_OK;
}


rc_status rc_ej_value(ej_ctx *c, rc_bson *v)
{
    rc_ej_skip_ws(c);
    if (c->i >= c->n) return rc_ej_fail(c, RC_ERR_SYNTAX, c->i, "expected a value");
    memset(v, 0, sizeof *v);
    char ch = c->p[c->i];
    if (ch == '{' || ch == '[') return container(c, v, ch == '{');
    if (ch == '"') return v->kind = RC_B_STRING, rc_ej_string(c, &v->s);
    if (ch == '/') return regex(c, v);
    if (ch == '-' && c->i + 9 <= c->n && !memcmp(c->p + c->i, "-Infinity", 9)) {
        c->i += 9;
        return v->kind = RC_B_DOUBLE, v->f64 = -__builtin_inf(), RC_OK;
    }
    if (ch == '-' || (ch >= '0' && ch <= '9')) return number(c, v);
    size_t at = c->i, k = at;
    while (k < c->n && rc_ej_is_ident(c->p[k])) k++;
    if (k == at) return rc_ej_fail(c, RC_ERR_SYNTAX, at, "expected a value");
    c->i = k;
    rc_str w = {c->p + at, k - at};
    if (w.n == 3 && !memcmp(w.p, "new", 3)) { /* new Date(…), new BinData(…), ... */
        rc_ej_skip_ws(c);
        at = c->i, k = at;
        while (k < c->n && rc_ej_is_ident(c->p[k])) k++;
        if (k == at) return rc_ej_fail(c, RC_ERR_SYNTAX, at, "expected a constructor after \"new\"");
        c->i = k, w = (rc_str){c->p + at, k - at};
    }
    return rc_ej_word(c, w, at, v);
}

static rc_status read_at(const char *p, size_t n, size_t *end, rc_arena *a, rc_bson *out, rc_error *err)
{
    ej_ctx c = {p, n, 0, 0, a, err};
    rc_status st = rc_ej_value(&c, out);
    if (st != RC_OK) return st;
    *end = c.i;
    return RC_OK;
}

rc_status rc_ejson_read_prefix(const char *p, size_t n, size_t *end, rc_arena *a, rc_bson *out, rc_error *err)
{
    return read_at(p, n, end, a, out, err);
}

rc_status rc_ejson_read(const char *p, size_t n, rc_arena *a, rc_bson *out, rc_error *err)
{
    size_t end;
    rc_status st = read_at(p, n, &end, a, out, err);
    if (st != RC_OK) return st;
    while (end < n && rc_ej_is_ws(p[end])) end++;
    if (end < n) return rc_error_set(err, RC_ERR_SYNTAX, end, "Extended JSON: text after the value");
    return RC_OK;
}
