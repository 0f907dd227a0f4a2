/* The native format's "document" member: a document change (rc_event.doc) as canonical
 * Extended JSON, written and read back whole (docs/native-format.md, "Documents"). */
#include <string.h>
#include "formats/native.h"
#include "formats/enc_event.h"
#include "core/bson.h"
#include "core/ejson.h"
#include "core/fmt.h"
#include "core/jsonw.h"

static void put_tree(rc_buf *b, const char *k, const rc_bson *v, bool *first)
{
    if (!v) return;
    rc_enc_key(b, k, strlen(k), first);
    rc_ejson_write(b, v, RC_EJSON_CANONICAL);
}

/* Debezium's MongoDB source details (rc_doc_change's rs ... patch_v): strings, and integers as
 * canonical Extended JSON ({"$numberLong":"…"}, patch_v {"$numberInt":"…"}) */
static void put_dbz(rc_buf *b, const rc_doc_change *d, bool *first)
{
    const rc_str strs[] = {d->rs, d->lsid, d->stxnid};
    static const char *const snames[] = {"rs", "lsid", "stxnid"};
    for (int k = 0; k < 3; k++)
        if (strs[k].n) rc_enc_key(b, snames[k], strlen(snames[k]), first), rc_jw_str(b, strs[k].p, strs[k].n);
    const bool has[] = {d->has_h, d->has_tord, d->has_wall};
    const int64_t nums[] = {d->h, d->tord, d->wall_ms};
    static const char *const nnames[] = {"h", "tord", "wall_ms"};
    for (int k = 0; k < 3; k++)
        if (has[k]) {
            rc_bson v = {.kind = RC_B_INT64, .i64 = nums[k]};
            put_tree(b, nnames[k], &v, first);
        }
    if (d->has_patch_v) {
        rc_bson v = {.kind = RC_B_INT32, .i32 = d->patch_v};
        put_tree(b, "patch_v", &v, first);
    }
}

void rc_native_put_doc(rc_buf *b, const rc_doc_change *d, bool *first)
{
    rc_enc_key(b, RC_ENC_K("document"), first);
    bool f = true;
    rc_buf_putc(b, '{');
    put_tree(b, "full", d->full, &f);
    put_tree(b, "key", d->key, &f);
    put_tree(b, "set", d->set, &f);
    put_tree(b, "unset", d->unset, &f);
    put_tree(b, "before", d->before, &f);
    if (d->ntruncated) {
        rc_enc_key(b, RC_ENC_K("truncated"), &f);
        for (uint32_t i = 0; i < d->ntruncated; i++) {
            rc_buf_puts(b, i ? ",[" : "[[");
            rc_jw_str(b, d->truncated[i].field.p, d->truncated[i].field.n);
            rc_buf_putc(b, ',');
            rc_fmt_u64(b, d->truncated[i].new_size);
            rc_buf_putc(b, ']');
        }
        rc_buf_putc(b, ']');
    }
    if (d->replace) rc_enc_key(b, RC_ENC_K("replace"), &f), rc_buf_puts(b, "true");
    if (d->unset_first) rc_enc_key(b, RC_ENC_K("unset_first"), &f), rc_buf_puts(b, "true");
    if (d->has_cluster_time) {
        rc_enc_key(b, RC_ENC_K("cluster_time"), &f);
        rc_buf_putc(b, '[');
        rc_fmt_u64(b, d->cluster_t);
        rc_buf_putc(b, ',');
        rc_fmt_u64(b, d->cluster_i);
        rc_buf_putc(b, ']');
    }
    put_dbz(b, d, &f);
    rc_buf_putc(b, '}');
}

static rc_status truncated(const rc_bson *v, rc_arena *a, rc_doc_change *d)
{
    if (v->kind != RC_B_ARRAY) return RC_ERR_SCHEMA;
    rc_doc_truncated *t = rc_arena_alloc(a, (v->doc.n ? v->doc.n : 1) * sizeof *t);
    if (!t) return RC_ERR_NOMEM;
    for (uint32_t i = 0; i < v->doc.n; i++) {
        const rc_bson *e = &v->doc.items[i].val;
        if (e->kind != RC_B_ARRAY || e->doc.n != 2 || e->doc.items[0].val.kind != RC_B_STRING || !rc_bson_u32(&e->doc.items[1].val, &t[i].new_size))
            return RC_ERR_SCHEMA;
        t[i].field = e->doc.items[0].val.s;
    }
    d->truncated = t, d->ntruncated = v->doc.n;
    return RC_OK;
}

rc_status rc_native_read_doc(const char *text, size_t n, size_t off, rc_arena *a, const rc_doc_change **out, rc_error *err)
{
    static const char *const names[] = {"full", "key", "set", "unset", "before", "truncated", "replace", "unset_first", "cluster_time",
                                        "rs", "lsid", "stxnid", "h", "tord", "wall_ms", "patch_v"};
    enum { N_TREES = 5, N_NAMES = sizeof names / sizeof *names };
    rc_bson v;
    rc_status st = rc_ejson_read(text, n, a, &v, err);
    if (st != RC_OK) {
        if (err->offset != RC_NO_OFFSET) err->offset += off;
        return st;
    }
    rc_doc_change *d = rc_arena_alloc(a, sizeof *d);
    if (!d) return rc_error_set(err, RC_ERR_NOMEM, off, "out of memory");
    memset(d, 0, sizeof *d);
    if (v.kind != RC_B_DOCUMENT) return rc_error_set(err, RC_ERR_SCHEMA, off, "\"document\" must be an object");
    unsigned seen = 0;
    for (uint32_t i = 0; i < v.doc.n; i++) {
        const rc_bson_member *m = &v.doc.items[i];
        unsigned k = 0;
        while (k < N_NAMES && !(m->key.n == strlen(names[k]) && !memcmp(m->key.p, names[k], m->key.n))) k++;
        if (k == N_NAMES || (seen >> k & 1))
            return rc_error_set(err, RC_ERR_SCHEMA, off, "%s member \"%.*s\" in \"document\"", k == N_NAMES ? "unknown" : "repeated",
                                (int)(m->key.n > 40 ? 40 : m->key.n), m->key.p);
        seen |= 1u << k;
        const rc_bson *x = &m->val;
        bool ok = true;
        if (k < N_TREES) {
            const rc_bson **slot[N_TREES] = {&d->full, &d->key, &d->set, &d->unset, &d->before};
            ok = x->kind == RC_B_DOCUMENT, *slot[k] = x;
        } else if (k == N_TREES) {
            if ((st = truncated(x, a, d)) == RC_ERR_NOMEM) return rc_error_set(err, st, off, "out of memory");
            ok = st == RC_OK;
        } else if (k < N_TREES + 3) {
            ok = x->kind == RC_B_BOOL && x->b;
            if (k == N_TREES + 1) d->replace = true;
            else d->unset_first = true;
        } else if (k == N_TREES + 3) {
            ok = x->kind == RC_B_ARRAY && x->doc.n == 2 && rc_bson_u32(&x->doc.items[0].val, &d->cluster_t) && rc_bson_u32(&x->doc.items[1].val, &d->cluster_i);
            d->has_cluster_time = true;
        } else if (k < N_TREES + 7) { /* rs, lsid, stxnid */
            rc_str *slot[3] = {&d->rs, &d->lsid, &d->stxnid};
            ok = x->kind == RC_B_STRING && x->s.n, *slot[k - N_TREES - 4] = x->s;
        } else if (k < N_TREES + 10) { /* h, tord, wall_ms */
            int64_t *slot[3] = {&d->h, &d->tord, &d->wall_ms};
            bool *has[3] = {&d->has_h, &d->has_tord, &d->has_wall};
            ok = x->kind == RC_B_INT64, *slot[k - N_TREES - 7] = x->i64, *has[k - N_TREES - 7] = true;
        } else {
            ok = x->kind == RC_B_INT32, d->patch_v = x->i32, d->has_patch_v = true;
        }
        if (!ok)
            return rc_error_set(err, RC_ERR_SCHEMA, off, "document \"%s\" must be %s", names[k],
                                k < N_TREES ? "an object" : k == N_TREES ? "[[\"field\", size], ...]" : k < N_TREES + 3 ? "true"
                                : k == N_TREES + 3 ? "[seconds, increment]" : k < N_TREES + 7 ? "a string, not empty"
                                : k < N_TREES + 10 ? "{\"$numberLong\": …}" : "{\"$numberInt\": …}");
    }
    *out = d;
    return RC_OK;
}

rc_status rc_native_doc_check(const rc_event *ev, size_t at, rc_error *err)
{
    const rc_doc_change *d = ev->doc;
    const char *op = rc_op_name(ev->op);
    if (ev->ncols || ev->before || ev->after || ev->changed)
        return rc_error_set(err, RC_ERR_SCHEMA, at, "a \"document\" event has no \"columns\" nor row images");
    switch (ev->op) {
    case RC_OP_INSERT:
    case RC_OP_READ:
        if (!d->full) return rc_error_set(err, RC_ERR_SCHEMA, at, "op \"%s\" needs document \"full\"", op);
        break;
    case RC_OP_UPDATE:
        if (!d->full && !d->set && !d->unset && !d->ntruncated)
            return rc_error_set(err, RC_ERR_SCHEMA, at, "op \"update\" needs document \"full\", \"set\", \"unset\" or \"truncated\"");
        if (d->replace && !d->full) return rc_error_set(err, RC_ERR_SCHEMA, at, "a replacement needs document \"full\"");
        break;
    case RC_OP_DELETE:
        if (!d->key) return rc_error_set(err, RC_ERR_SCHEMA, at, "op \"delete\" needs document \"key\"");
        break;
    default: return rc_error_set(err, RC_ERR_SCHEMA, at, "op \"%s\" has no \"document\"", op);
    }
    if ((d->set || d->unset || d->ntruncated || d->unset_first) && ev->op != RC_OP_UPDATE)
        return rc_error_set(err, RC_ERR_SCHEMA, at, "only an update has document \"set\", \"unset\", \"truncated\" or \"unset_first\"");
    if (d->before && ev->op == RC_OP_INSERT) return rc_error_set(err, RC_ERR_SCHEMA, at, "op \"insert\" has no document \"before\"");
    if (d->replace && ev->op != RC_OP_UPDATE) return rc_error_set(err, RC_ERR_SCHEMA, at, "only an update is a replacement");
    return RC_OK;
}
