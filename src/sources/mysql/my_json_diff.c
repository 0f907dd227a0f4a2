/* PARTIAL_UPDATE_ROWS' JSON diffs (binlog_row_value_options=PARTIAL_JSON): the after image of
 * a JSON column that JSON_SET / JSON_REPLACE / JSON_REMOVE changed in place is a list of
 * changes to the before image instead of the document. The list: a 4-byte little-endian byte
 * length, then per change an operation byte (0 REPLACE, 1 INSERT, 2 REMOVE), the JSON path as
 * text ("$.a[1]", '$."b c"') with a length-encoded size, and — but for REMOVE — the new value
 * as binary JSON (type byte first) with a length-encoded size (1 byte below 251; 0xFC + 2,
 * 0xFD + 3, 0xFE + 8 bytes).
 *
 * The changes apply in order, each to the document the previous one left: the document as
 * JSON text (my_json.c's layout) is read into the project's JSON reader, the change is made
 * while writing it out again, and the next change reads that. A new member goes where MySQL
 * keeps it (keys by length, then bytes), so the result reads as MySQL's SELECT prints it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json.h"
#include "my_json_int.h"

enum { OP_REPLACE = 0, OP_INSERT = 1, OP_REMOVE = 2 };
enum { MAX_LEGS = 100 };

typedef struct leg {
    bool member; /* .key, else [index] */
    rc_str key;  /* unescaped (arena) */
    uint64_t index;
} leg;

typedef struct change {
    int op;
    leg legs[MAX_LEGS];
    unsigned nlegs;
    const char *value; /* the new value as JSON text */
    size_t vn;
} change;

static rc_status derr(rc_error *err, size_t off, const char *what)
{
    return rc_error_set(err, RC_ERR_VALUE, off, "JSON diff: %s at byte %zu of the diff list", what, off);
}

/* MySQL's length-encoded integer at d[*at], within dn. */
static bool lenenc(const uint8_t *d, size_t dn, size_t *at, uint64_t *v)
{
    if (*at >= dn) return false;
    uint8_t c = d[(*at)++];
    unsigned k = c < 251 ? 0 : c == 0xfc ? 2 : c == 0xfd ? 3 : c == 0xfe ? 8 : 9;
    if (k == 9 || dn - *at < k) return false;
    *v = k ? rc_my_le(d + *at, k) : c;
    *at += k;
    return true;
}

/* A path as Json_path's text writes it: $ then .key, ."quoted key" or [n] legs. */
static rc_status parse_path(const char *s, size_t n, change *c, rc_arena *a, size_t off, rc_error *err)
{
    if (!n || s[0] != '$') return derr(err, off, "a path that does not start with $");
    size_t i = 1;
    c->nlegs = 0;
    while (i < n) {
        if (c->nlegs == MAX_LEGS) return derr(err, off + i, "a path of more than 100 legs");
        leg *l = &c->legs[c->nlegs++];
        if (s[i] == '[') {
            size_t j = ++i;
            uint64_t v = 0;
            while (i < n && s[i] >= '0' && s[i] <= '9' && v < (UINT64_C(1) << 40)) v = v * 10 + (uint64_t)(s[i++] - '0');
            if (i == j || i >= n || s[i] != ']') return derr(err, off + i, "an array index in the path that is not [n]");
            i++;
            *l = (leg){.member = false, .index = v};
        } else if (s[i] == '.' && i + 1 < n && s[i + 1] == '"') {
            /* a quoted key: a JSON string */
            size_t j = i + 2;
            while (j < n && s[j] != '"') j += s[j] == '\\' ? 2 : 1;
            if (j >= n) return derr(err, off + i, "an unterminated quoted key in the path");
            rc_json js;
            rc_json_init(&js, a);
            rc_error e;
            rc_error_clear(&e);
            rc_status st = rc_json_parse(&js, s + i + 1, j + 1 - (i + 1), &e);
            if (st == RC_OK) {
                const rc_jnode *k = rc_json_node(&js, 0);
                char *copy = rc_arena_memdup(a, k->s, k->n);
                if (!copy) st = RC_ERR_NOMEM;
                else *l = (leg){.member = true, .key = {copy, k->n}};
            }
            rc_json_fini(&js);
            if (st != RC_OK) return derr(err, off + i, "a quoted key in the path that is not a JSON string");
            i = j + 1;
        } else if (s[i] == '.') {
            size_t j = ++i;
            while (i < n && s[i] != '.' && s[i] != '[') i++;
            if (i == j) return derr(err, off + j, "an empty key in the path");
            *l = (leg){.member = true, .key = {s + j, i - j}};
        } else {
            return derr(err, off + i, "a path leg that is neither .key nor [n]");
        }
    }
    return RC_OK;
}

/* MySQL's key order: shorter first, then by bytes. */
static int key_cmp(const char *a, size_t an, const char *b, size_t bn)
{
    if (an != bn) return an < bn ? -1 : 1;
    return memcmp(a, b, an);
}

typedef struct writer {
    const rc_json *j;
    const change *c;
    rc_buf *out;
    bool done; /* the change was made */
} writer;

static void write_node(writer *w, uint32_t i, unsigned depth, bool on_path);

static void write_value_text(writer *w) { rc_buf_put(w->out, w->c->value, w->c->vn); }

/* Writes container i; on_path: i is the container at legs[depth - 1] of the path (the root for
 * depth 0), so its child at legs[depth] is changed or followed. */
static void write_container(writer *w, uint32_t i, unsigned depth, bool on_path)
{
    const rc_jnode *n = rc_json_node(w->j, i);
    bool obj = n->type == RC_J_OBJECT;
    const leg *l = on_path && depth < w->c->nlegs ? &w->c->legs[depth] : NULL;
    if (l && l->member != obj) l = NULL; /* the path does not go through here */
    bool last = l && depth + 1 == w->c->nlegs;
    rc_buf_putc(w->out, obj ? '{' : '[');
    bool first = true, inserted = false;
    uint64_t k = 0;
    for (uint32_t c = n->first; c; k++) {
        const rc_jnode *key = obj ? rc_json_node(w->j, c) : NULL;
        uint32_t v = obj ? key->next : c;
        bool hit = l && (obj ? l->key.n == key->n && !memcmp(l->key.p, key->s, key->n) : l->index == k);
        /* a new member before the first greater key; a new element at its index */
        if (last && w->c->op == OP_INSERT && !inserted && !w->done &&
            (obj ? key_cmp(l->key.p, l->key.n, key->s, key->n) < 0 : l->index == k)) {
            if (!first) RC_BUF_LIT(w->out, ", ");
            if (obj) rc_my_json_quote(w->out, l->key.p, l->key.n), RC_BUF_LIT(w->out, ": ");
            write_value_text(w);
            first = false, inserted = true, w->done = true;
        }
        if (!(hit && last && w->c->op == OP_REMOVE)) {
            if (!first) RC_BUF_LIT(w->out, ", ");
            first = false;
            if (obj) rc_my_json_quote(w->out, key->s, key->n), RC_BUF_LIT(w->out, ": ");
            if (hit && last && w->c->op == OP_REPLACE) write_value_text(w), w->done = true;
            else write_node(w, v, depth + 1, hit && !last);
        } else {
            w->done = true;
        }
        c = rc_json_node(w->j, v)->next;
    }
    if (last && w->c->op == OP_INSERT && !inserted && !w->done) { /* at the end */
        if (!first) RC_BUF_LIT(w->out, ", ");
        if (obj) rc_my_json_quote(w->out, l->key.p, l->key.n), RC_BUF_LIT(w->out, ": ");
        write_value_text(w);
        w->done = true;
    }
    rc_buf_putc(w->out, obj ? '}' : ']');
}

static void write_node(writer *w, uint32_t i, unsigned depth, bool on_path)
{
    const rc_jnode *n = rc_json_node(w->j, i);
    switch (n->type) {
    case RC_J_OBJECT:
    case RC_J_ARRAY: write_container(w, i, depth, on_path); break;
    case RC_J_STRING: rc_my_json_quote(w->out, n->s, n->n); break;
    case RC_J_NULL: RC_BUF_LIT(w->out, "null"); break;
    case RC_J_TRUE: RC_BUF_LIT(w->out, "true"); break;
    case RC_J_FALSE: RC_BUF_LIT(w->out, "false"); break;
    default: rc_buf_put(w->out, n->s, n->n); break; /* numbers: their text */
    }
}

static const char *op_name(int op) { return op == OP_REPLACE ? "REPLACE" : op == OP_INSERT ? "INSERT" : "REMOVE"; }

/* Applies one change to the document text doc, writing the result into out. */
static rc_status apply(const char *doc, size_t dn, const change *c, const char *path, size_t pn, size_t off, rc_buf *out, rc_arena *a,
                       rc_error *err)
{
    rc_json j;
    rc_json_init(&j, a);
    j.max_depth = 200;
    rc_error e;
    rc_error_clear(&e);
    rc_status st = rc_json_parse(&j, doc, dn, &e);
    if (st != RC_OK) {
        rc_json_fini(&j);
        return rc_error_set(err, st, off, "JSON diff: the document before the change at byte %zu does not read back: %s", off, e.message);
    }
    writer w = {.j = &j, .c = c, .out = out};
    if (!c->nlegs) { /* the whole document */
        if (c->op == OP_REPLACE) write_value_text(&w), w.done = true;
    } else {
        write_node(&w, 0, 0, true);
    }
    rc_json_fini(&j);
    if (!w.done)
        return rc_error_set(err, RC_ERR_VALUE, off, "JSON diff: %s of %.*s at byte %zu of the diff list: the before image has no such %s",
                            op_name(c->op), (int)pn, path, off, c->op == OP_INSERT ? "parent" : "value");
    return RC_OK;
}

rc_status rc_my_json_diff_apply(const uint8_t *before, size_t bn, const uint8_t *diff, size_t dn, size_t *used, rc_buf *out,
                                rc_error *err)
{
    if (dn < 4) return derr(err, 0, "a diff list shorter than its 4-byte length");
    uint64_t len = rc_my_le(diff, 4);
    if (len > dn - 4) return derr(err, 0, "a diff list longer than the bytes left");
    size_t end = 4 + (size_t)len;
    rc_arena a;
    rc_arena_init(&a);
    rc_buf doc, next, val;
    rc_buf_init(&doc, 0), rc_buf_init(&next, 0), rc_buf_init(&val, 0);
    change *c = malloc(sizeof *c); /* the legs take 3 KB: kept off the stack */
    if (!c) return rc_error_set(err, RC_ERR_NOMEM, 0, "JSON diff: out of memory");
    rc_status st = rc_my_json_text(before, bn, &doc, err);
    for (size_t at = 4; st == RC_OK && at < end;) {
        size_t start = at;
        uint64_t pl, vl;
        c->op = diff[at++];
        if (c->op > OP_REMOVE) { st = derr(err, start, "an operation that is not REPLACE, INSERT or REMOVE"); break; }
        if (!lenenc(diff, end, &at, &pl) || pl > end - at) { st = derr(err, at, "a path length past the diff list"); break; }
        const char *path = (const char *)diff + at;
        if ((st = parse_path(path, (size_t)pl, c, &a, at, err)) != RC_OK) break;
        at += (size_t)pl;
        c->value = NULL, c->vn = 0;
        if (c->op != OP_REMOVE) {
            if (!lenenc(diff, end, &at, &vl) || vl > end - at || !vl) { st = derr(err, at, "a value length past the diff list"); break; }
            rc_buf_reset(&val);
            rc_error e;
            rc_error_clear(&e);
            if (rc_my_json_text(diff + at, (size_t)vl, &val, &e) != RC_OK) {
                st = rc_error_set(err, e.code, at + e.offset, "JSON diff: the value at byte %zu: %s", at, e.message);
                break;
            }
            c->value = val.data, c->vn = val.len;
            at += (size_t)vl;
        } else if (!c->nlegs) {
            st = derr(err, start, "a REMOVE of the whole document");
            break;
        }
        rc_buf_reset(&next);
        if ((st = apply(doc.data ? doc.data : "", doc.len, c, path, (size_t)pl, start, &next, &a, err)) != RC_OK) break;
        rc_buf t = doc;
        doc = next, next = t;
    }
    if (st == RC_OK && (doc.err != RC_OK || val.err != RC_OK || next.err != RC_OK))
        st = rc_error_set(err, RC_ERR_NOMEM, 0, "JSON diff: out of memory");
    if (st == RC_OK) {
        rc_buf_put(out, doc.data ? doc.data : "", doc.len);
        *used = end;
    }
    rc_buf_fini(&doc), rc_buf_fini(&next), rc_buf_fini(&val);
    rc_arena_fini(&a);
    free(c);
    return st;
}
