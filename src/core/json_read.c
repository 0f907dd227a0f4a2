/* The JSON reader: recursive descent into a reusable flat node array. */
#include <stdlib.h>
#include <string.h>
#include "core/json.h"
#include "rowcast/buf.h"
#include "core/jsonw.h"
#include "rowcast/value.h"
#include "core/scan8.h"

enum { JSON_MAX_DEPTH = 64 };

typedef struct parser {
    rc_json *j;
    const char *p;
    size_t n, i;
    rc_error *err;
} parser;

void rc_json_init(rc_json *j, rc_arena *arena)
{
    j->nodes = NULL;
    j->nnodes = j->cap = 0;
    j->max_depth = JSON_MAX_DEPTH;
    j->arena = arena;
    j->memo = NULL;
    j->nmemo = 0;
}

void rc_json_fini(rc_json *j)
{
    free(j->nodes);
    j->nodes = NULL;
    j->nnodes = j->cap = 0;
}

static const char *const jtype_names[] = {"null", "false", "true", "number", "string", "array", "object", "value"};
const char *rc_jtype_name(rc_jtype t) { return (unsigned)t <= RC_J_MEMO ? jtype_names[t] : "?"; }

static rc_status fail(parser *restrict ps, rc_status code, size_t off, const char *what)
{
    if (off >= ps->n) return rc_error_set(ps->err, code, ps->n, "%s (unexpected end of input)", what);
    unsigned char c = (unsigned char)ps->p[off];
    if (c >= 0x20 && c < 0x7f) return rc_error_set(ps->err, code, off, "%s (found '%c')", what, c);
    return rc_error_set(ps->err, code, off, "%s (found byte 0x%02X)", what, c);
}

/* Slow path of new_node: doubles the node array. */
static __attribute__((noinline)) rc_status grow_nodes(parser *restrict ps)
{
    rc_json *j = ps->j;
    uint32_t cap = j->cap ? j->cap * 2 : 64;
    if (cap < j->cap) return rc_error_set(ps->err, RC_ERR_LIMIT, ps->i, "too many JSON values");
    rc_jnode *nn = realloc(j->nodes, cap * sizeof *nn);
    if (!nn) return rc_error_set(ps->err, RC_ERR_NOMEM, ps->i, "out of memory");
    j->nodes = nn;
    j->cap = cap;
    return RC_OK;
}

static inline rc_status new_node(parser *restrict ps, rc_jtype t, uint32_t *idx)
{
    rc_json *j = ps->j;
    if (j->nnodes == j->cap) {
        rc_status st = grow_nodes(ps);
        if (st != RC_OK) return st;
    }
    *idx = j->nnodes++;
    j->nodes[*idx] = (rc_jnode){.type = (uint8_t)t, .off = ps->i};
    return RC_OK;
}

/* Appends a node built whole (one store instead of a zeroed node filled in later). */
static inline rc_status push_node(parser *restrict ps, const rc_jnode *nd, uint32_t *idx)
{
    rc_json *j = ps->j;
    if (j->nnodes == j->cap) {
        rc_status st = grow_nodes(ps);
        if (st != RC_OK) return st;
    }
    *idx = j->nnodes++;
    j->nodes[*idx] = *nd;
    return RC_OK;
}

/* The index of the first byte at or after i that is not JSON whitespace. */
static inline size_t ws_end(const char *p, size_t n, size_t i)
{
    if (i < n && (unsigned char)p[i] > ' ') return i; /* compact JSON: nothing to skip */
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r')) i++;
    return i;
}

static inline void skip_ws(parser *restrict ps) { ps->i = ws_end(ps->p, ps->n, ps->i); }

static int hexval(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static bool hex4(const char *p, size_t n, size_t i, unsigned *out)
{
    if (i + 4 > n) return false;
    unsigned v = 0;
    for (size_t k = 0; k < 4; k++) {
        int h = hexval(p[i + k]);
        if (h < 0) return false;
        v = v << 4 | (unsigned)h;
    }
    *out = v;
    return true;
}

static size_t put_utf8(char *w, unsigned cp)
{
    if (cp < 0x80) return w[0] = (char)cp, 1;
    if (cp < 0x800) return w[0] = (char)(0xC0 | cp >> 6), w[1] = (char)(0x80 | (cp & 63)), 2;
    if (cp < 0x10000) {
        w[0] = (char)(0xE0 | cp >> 12), w[1] = (char)(0x80 | ((cp >> 6) & 63)), w[2] = (char)(0x80 | (cp & 63));
        return 3;
    }
    w[0] = (char)(0xF0 | cp >> 18), w[1] = (char)(0x80 | ((cp >> 12) & 63));
    w[2] = (char)(0x80 | ((cp >> 6) & 63)), w[3] = (char)(0x80 | (cp & 63));
    return 4;
}

/* Any string: escapes, UTF-8 validation, errors. */
static __attribute__((noinline)) rc_status parse_string_slow(parser *restrict ps, rc_jnode *nd)
{
    const char *p = ps->p;
    size_t n = ps->n, start = ++ps->i, i = start;
    bool escaped = false;
    while (i < n) {
        while (i + 16 <= n) { /* sixteen plain bytes at a time */
            unsigned k = rc_scan16_stop(p + i);
            i += k;
            if (k < 16) break;
        }
        if (i >= n) break;
        unsigned char c = (unsigned char)p[i];
        if (c == '"') break;
        if (c == '\\') {
            escaped = true;
            i += 2;
            continue;
        }
        if (c < 0x20) return fail(ps, RC_ERR_SYNTAX, i, "control character in string must be escaped");
        if (c >= 0x80) {
            size_t ok = rc_utf8_valid_prefix(p + i, n - i < 4 ? n - i : 4);
            if (ok == 0) return rc_error_set(ps->err, RC_ERR_UTF8, i, "invalid UTF-8 byte 0x%02X in string", c);
            /* advance over one whole sequence */
            size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            if (ok < len) return rc_error_set(ps->err, RC_ERR_UTF8, i, "invalid UTF-8 sequence in string");
            i += len;
            continue;
        }
        i++;
    }
    if (i >= n) return rc_error_set(ps->err, RC_ERR_SYNTAX, n, "unterminated string starting at byte %zu", start - 1);
    ps->i = i + 1;
    if (!escaped) {
        nd->s = p + start;
        nd->n = i - start;
        return RC_OK;
    }
    char *w = rc_arena_alloc(ps->j->arena, i - start + 1);
    if (!w) return rc_error_set(ps->err, RC_ERR_NOMEM, start, "out of memory");
    size_t o = 0;
    for (size_t k = start; k < i;) {
        if (p[k] != '\\') {
            w[o++] = p[k++];
            continue;
        }
        char e = p[k + 1];
        unsigned cp;
        switch (e) {
        case '"': w[o++] = '"'; break;
        case '\\': w[o++] = '\\'; break;
        case '/': w[o++] = '/'; break;
        case 'b': w[o++] = '\b'; break;
        case 'f': w[o++] = '\f'; break;
        case 'n': w[o++] = '\n'; break;
        case 'r': w[o++] = '\r'; break;
        case 't': w[o++] = '\t'; break;
        case 'u':
            if (!hex4(p, i, k + 2, &cp)) return fail(ps, RC_ERR_SYNTAX, k, "bad \\u escape");
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo;
                if (k + 12 > i || p[k + 6] != '\\' || p[k + 7] != 'u' || !hex4(p, i, k + 8, &lo) ||
                    lo < 0xDC00 || lo > 0xDFFF)
                    return rc_error_set(ps->err, RC_ERR_UTF8, k, "lone UTF-16 surrogate \\u%04X in string", cp);
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                k += 6;
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return rc_error_set(ps->err, RC_ERR_UTF8, k, "lone UTF-16 surrogate \\u%04X in string", cp);
            }
            o += put_utf8(w + o, cp);
            k += 6;
            continue;
        default:
            return fail(ps, RC_ERR_SYNTAX, k + 1, "bad escape in string");
        }
        k += 2;
    }
    w[o] = '\0';
    nd->s = w;
    nd->n = o;
    return RC_OK;
}

static bool isdig(char c) { return c >= '0' && c <= '9'; }

static rc_status parse_number(parser *restrict ps, rc_jnode *nd)
{
    const char *p = ps->p;
    size_t n = ps->n, i = ps->i, start = i;
    if (i < n && p[i] == '-') i++;
    if (i >= n || !isdig(p[i])) return fail(ps, RC_ERR_SYNTAX, i, "bad number");
    if (p[i] == '0') {
        i++;
        if (i < n && isdig(p[i])) return fail(ps, RC_ERR_SYNTAX, i, "leading zero in number");
    } else {
        while (i < n && isdig(p[i])) i++;
    }
    if (i < n && p[i] == '.') {
        i++;
        if (i >= n || !isdig(p[i])) return fail(ps, RC_ERR_SYNTAX, i, "digit expected after decimal point");
        while (i < n && isdig(p[i])) i++;
    }
    if (i < n && (p[i] == 'e' || p[i] == 'E')) {
        i++;
        if (i < n && (p[i] == '+' || p[i] == '-')) i++;
        if (i >= n || !isdig(p[i])) return fail(ps, RC_ERR_SYNTAX, i, "digit expected in exponent");
        while (i < n && isdig(p[i])) i++;
    }
    nd->s = p + start;
    nd->n = i - start;
    ps->i = i;
    return RC_OK;
}

static rc_status parse_value(parser *restrict ps, unsigned depth, uint32_t *out);

/* A string at p[*pi] (its opening quote) into nd, *pi moved past it: plain ASCII here, the
 * rest by parse_string_slow. */
static inline rc_status string_at(parser *restrict ps, size_t *pi, rc_jnode *nd)
{
    const char *p = ps->p;
    size_t n = ps->n, start = *pi + 1, i = start;
    for (;;) {
        if (i + 16 <= n) {
            unsigned k = rc_scan16_stop(p + i);
            i += k;
            if (k == 16) continue;
        } else {
            while (i < n && p[i] != '"' && p[i] != '\\' && (unsigned char)p[i] >= 0x20 && (unsigned char)p[i] < 0x80) i++;
        }
        break;
    }
    if (i >= n || p[i] != '"') {
        ps->i = *pi;
        rc_status st = parse_string_slow(ps, nd);
        *pi = ps->i;
        return st;
    }
    nd->s = p + start;
    nd->n = i - start;
    *pi = i + 1;
    return RC_OK;
}

/* A root member whose value is a memo's text (see rc_json_memo): one RC_J_MEMO node. */
static bool memo_value(parser *restrict ps, const rc_jnode *key, uint32_t *child)
{
    const rc_json *j = ps->j;
    for (unsigned k = 0; k < j->nmemo; k++) {
        const rc_json_memo *m = &j->memo[k];
        if (!m->n || m->keyn != key->n || !rc_short_eq(m->key, key->s, key->n)) continue;
        if (ps->n - ps->i < m->n || memcmp(ps->p + ps->i, m->text, m->n) != 0) return false;
        if (new_node(ps, RC_J_MEMO, child) != RC_OK) return false; /* parsed instead, failing there */
        rc_jnode *nd = &ps->j->nodes[*child];
        nd->s = ps->p + ps->i, nd->n = m->n, nd->count = k;
        ps->i += m->n;
        return true;
    }
    return false;
}

/* An array or object at ps->i (its bracket) into node idx. The position is kept in a local
 * (i) and handed to ps->i only around calls that read it. */
static rc_status parse_container(parser *restrict ps, unsigned depth, uint32_t idx, bool obj)
{
    const char *p = ps->p;
    size_t n = ps->n, start = ps->i, i = ws_end(p, n, start + 1);
    char close = obj ? '}' : ']';
    uint32_t prev = 0, count = 0;
    rc_status st;
    if (i < n && p[i] == close) {
        i++;
        goto done;
    }
    for (;;) {
        uint32_t child;
        if (obj) {
            if (i >= n || p[i] != '"') return fail(ps, RC_ERR_SYNTAX, i, "object key expected");
            rc_jnode key = {.type = RC_J_STRING, .off = i};
            if ((st = string_at(ps, &i, &key)) != RC_OK || (st = push_node(ps, &key, &child)) != RC_OK) return st;
            if (prev) ps->j->nodes[prev].next = child;
            else ps->j->nodes[idx].first = child;
            prev = child;
            if (i < n && p[i] == ':') { /* compact JSON */
                i++;
            } else {
                i = ws_end(p, n, i);
                if (i >= n || p[i] != ':') return fail(ps, RC_ERR_SYNTAX, i, "':' expected after object key");
                i++;
            }
            i = ws_end(p, n, i);
        }
        char v = i < n ? p[i] : '\0';
        bool memo = false;
        if ((v == '{' || v == '[') && idx == 0 && ps->j->nmemo && obj) {
            ps->i = i;
            if ((memo = memo_value(ps, &ps->j->nodes[prev], &child))) i = ps->i; /* a value seen before */
        }
        if (memo) {
        } else if (v == '"') { /* the common scalars without the general dispatch */
            rc_jnode sn = {.type = RC_J_STRING, .off = i};
            if ((st = string_at(ps, &i, &sn)) != RC_OK || (st = push_node(ps, &sn, &child)) != RC_OK) return st;
        } else if ((v >= '0' && v <= '9') || v == '-') {
            ps->i = i;
            if ((st = new_node(ps, RC_J_NUMBER, &child)) != RC_OK || (st = parse_number(ps, &ps->j->nodes[child])) != RC_OK) return st;
            i = ps->i;
        } else {
            ps->i = i;
            if ((st = parse_value(ps, depth + 1, &child)) != RC_OK) return st;
            i = ps->i;
        }
        if (prev) ps->j->nodes[prev].next = child;
        else ps->j->nodes[idx].first = child;
        prev = child;
        count++;
        i = ws_end(p, n, i);
        if (i < n && p[i] == ',') {
            i = ws_end(p, n, i + 1);
            continue;
        }
        if (i < n && p[i] == close) {
            i++;
            break;
        }
        return fail(ps, RC_ERR_SYNTAX, i, obj ? "',' or '}' expected" : "',' or ']' expected");
    }
done:;
    rc_jnode *nd = &ps->j->nodes[idx];
    nd->count = count;
    nd->s = p + start;
    nd->n = i - start;
    ps->i = i;
    return RC_OK;
}

static bool match_lit(parser *restrict ps, const char *lit, size_t len)
{
    if (ps->n - ps->i < len || memcmp(ps->p + ps->i, lit, len) != 0) return false;
    ps->i += len;
    return true;
}

static rc_status parse_value(parser *restrict ps, unsigned depth, uint32_t *out)
{
    skip_ws(ps);
    if (depth > ps->j->max_depth) return rc_error_set(ps->err, RC_ERR_LIMIT, ps->i, "JSON nested deeper than %u levels", ps->j->max_depth);
    if (ps->i >= ps->n) return fail(ps, RC_ERR_SYNTAX, ps->i, "value expected");
    char c = ps->p[ps->i];
    rc_status st;
    switch (c) {
    case '{':
    case '[':
        if ((st = new_node(ps, c == '{' ? RC_J_OBJECT : RC_J_ARRAY, out)) != RC_OK) return st;
        return parse_container(ps, depth, *out, c == '{');
    case '"':
        if ((st = new_node(ps, RC_J_STRING, out)) != RC_OK) return st;
        return string_at(ps, &ps->i, &ps->j->nodes[*out]);
    case 't':
    case 'f':
    case 'n': {
        size_t at = ps->i;
        rc_jtype t = c == 't' ? RC_J_TRUE : c == 'f' ? RC_J_FALSE : RC_J_NULL;
        const char *lit = c == 't' ? "true" : c == 'f' ? "false" : "null";
        if (!match_lit(ps, lit, strlen(lit))) return fail(ps, RC_ERR_SYNTAX, at, "not JSON: expected true, false or null");
        if ((st = new_node(ps, t, out)) != RC_OK) return st;
        ps->j->nodes[*out].off = at;
        return RC_OK;
    }
    default:
        if (c == '-' || isdig(c)) {
            if ((st = new_node(ps, RC_J_NUMBER, out)) != RC_OK) return st;
            return parse_number(ps, &ps->j->nodes[*out]);
        }
        return fail(ps, RC_ERR_SYNTAX, ps->i, "value expected");
    }
}

rc_status rc_json_parse(rc_json *j, const char *p, size_t n, rc_error *err)
{
    parser ps = {j, p, n, 0, err};
    j->nnodes = 0;
    uint32_t root;
    rc_status st = parse_value(&ps, 0, &root);
    if (st != RC_OK) return st;
    skip_ws(&ps);
    if (ps.i != n) return fail(&ps, RC_ERR_SYNTAX, ps.i, "unexpected data after the JSON value");
    return RC_OK;
}

uint32_t rc_json_get(const rc_json *j, uint32_t obj, const char *key)
{
    const rc_jnode *o = &j->nodes[obj];
    if (o->type != RC_J_OBJECT) return 0;
    size_t kl = strlen(key);
    const rc_jnode *nodes = j->nodes;
    for (uint32_t k = o->first; k;) {
        const rc_jnode *kn = &nodes[k];
        if (kn->n == kl && rc_short_eq(kn->s, key, kl)) return kn->next;
        k = nodes[kn->next].next;
    }
    return 0;
}

bool rc_json_memo_keep(rc_json_memo *m, rc_buf *copy, const char *text, size_t n)
{
    rc_buf_reset(copy);
    rc_buf_put(copy, text, n);
    bool ok = copy->err == RC_OK;
    m->text = ok ? copy->data : NULL, m->n = ok ? n : 0;
    return ok;
}

static unsigned jkey_hash(const char *s, size_t n) { return (unsigned)(n * 31 + (unsigned char)s[0] * 7 + (unsigned char)s[n - 1]) & 63; }

void rc_jkeys_init(rc_jkeys *k, const char *const *names, unsigned n)
{
    memset(k, 0, sizeof *k);
    k->names = names;
    k->n = n < RC_JKEYS_MAX ? n : RC_JKEYS_MAX;
    for (unsigned i = 0; i < k->n; i++) {
        size_t len = strlen(names[i]);
        k->len[i] = (uint8_t)len;
        unsigned h = jkey_hash(names[i], len);
        while (k->slot[h]) h = (h + 1) & 63;
        k->slot[h] = (uint8_t)(i + 1);
    }
}

/* Which of k's names key node kn is: its index, or -1. */
static int jkey_find(const rc_jkeys *k, const rc_jnode *kn)
{
    if (!kn->n || kn->n > 255) return -1;
    for (unsigned h = jkey_hash(kn->s, kn->n); k->slot[h]; h = (h + 1) & 63) {
        unsigned i = k->slot[h] - 1u;
        if (k->len[i] == kn->n && rc_short_eq(k->names[i], kn->s, kn->n)) return (int)i;
    }
    return -1;
}

void rc_json_members(const rc_json *j, uint32_t obj, const rc_jkeys *k, uint32_t *out)
{
    memset(out, 0, sizeof *out * k->n);
    const rc_jnode *nodes = j->nodes, *o = &nodes[obj];
    if (o->type != RC_J_OBJECT) return;
    for (uint32_t m = o->first; m; m = nodes[nodes[m].next].next) {
        int i = jkey_find(k, &nodes[m]);
        if (i >= 0 && !out[i]) out[i] = nodes[m].next; /* the first of equal names, as rc_json_get */
    }
}

uint32_t rc_json_members_strict(const rc_json *j, uint32_t obj, const rc_jkeys *k, uint32_t *out, bool *repeated)
{
    memset(out, 0, sizeof *out * k->n);
    *repeated = false;
    const rc_jnode *nodes = j->nodes, *o = &nodes[obj];
    if (o->type != RC_J_OBJECT) return 0;
    for (uint32_t m = o->first; m; m = nodes[nodes[m].next].next) {
        int i = jkey_find(k, &nodes[m]);
        if (i < 0) return m;
        if (out[i]) return *repeated = true, m;
        out[i] = nodes[m].next;
    }
    return 0;
}

void rc_json_write(const rc_json *j, uint32_t i, rc_buf *b)
{
    const rc_jnode *nd = &j->nodes[i];
    switch (nd->type) {
    case RC_J_NULL: RC_BUF_LIT(b, "null"); return;
    case RC_J_TRUE: RC_BUF_LIT(b, "true"); return;
    case RC_J_FALSE: RC_BUF_LIT(b, "false"); return;
    case RC_J_NUMBER: rc_buf_put(b, nd->s, nd->n); return;
    case RC_J_STRING: rc_jw_str(b, nd->s, nd->n); return;
    case RC_J_MEMO: rc_buf_put(b, nd->s, nd->n); return;
    case RC_J_ARRAY:
        rc_buf_putc(b, '[');
        for (uint32_t k = nd->first; k; k = j->nodes[k].next) {
            if (k != nd->first) rc_buf_putc(b, ',');
            rc_json_write(j, k, b);
        }
        rc_buf_putc(b, ']');
        return;
    default:
        rc_buf_putc(b, '{');
        for (uint32_t k = nd->first; k; k = j->nodes[j->nodes[k].next].next) {
            if (k != nd->first) rc_buf_putc(b, ',');
            rc_json_write(j, k, b);
            rc_buf_putc(b, ':');
            rc_json_write(j, j->nodes[k].next, b);
        }
        rc_buf_putc(b, '}');
        return;
    }
}
