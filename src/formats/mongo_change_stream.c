/* MongoDB change stream events as JSON (docs/formats/mongo-change-stream.md): a change event
 * document in Extended JSON (canonical or relaxed), as the MongoDB Kafka connector publishes
 * it, or in the layout of Flink CDC's MongoDB source (the same fields, with _id, fullDocument,
 * documentKey, updateDescription and clusterTime as Extended JSON text in strings, and its
 * `source` and `ts_ms`). One message, one document change; mongo_change_stream_write.c writes
 * them (canonical). */
#include <stdio.h>
#include <string.h>
#include "formats/formats.h"
#include "formats/mongo_change_stream.h"
#include "core/bson.h"
#include "core/ejson.h"
#include "core/fmt.h"

static rc_status dec_new(const rc_options *o, void **out, rc_error *err)
{
    static char stateless; /* the reader keeps nothing between messages */
    rc_status st = rc_options_check(o, "mongo-change-stream", rc_mongo_cs_options, err);
    if (st == RC_OK) *out = &stateless;
    return st;
}

static void dec_free(void *p) { (void)p; }

static bool is(rc_str s, const char *lit) { return s.n == strlen(lit) && !memcmp(s.p, lit, s.n); }

typedef struct cs_ctx {
    rc_arena *a;
    rc_error *err;
} cs_ctx;

static rc_status fail(cs_ctx *c, rc_status code, const char *what, rc_str name)
{
    return rc_error_set(c->err, code, RC_NO_OFFSET, "change event \"%.*s\": %s", (int)name.n, name.p, what);
}

/* A member that is a document, or Extended JSON text of one in a string (Flink CDC's layout);
 * null is NULL. */
static rc_status tree(cs_ctx *c, const rc_bson_member *m, rc_bson_kind want, const rc_bson **out)
{
    const rc_bson *v = &m->val;
    *out = NULL;
    if (v->kind == RC_B_NULL) return RC_OK;
    if (v->kind == RC_B_STRING) {
        rc_bson *t = rc_arena_alloc(c->a, sizeof *t);
        if (!t) return fail(c, RC_ERR_NOMEM, "out of memory", m->key);
        rc_status st = rc_ejson_read(v->s.p, v->s.n, c->a, t, c->err);
        if (st != RC_OK) {
            char why[sizeof c->err->message];
            memcpy(why, c->err->message, sizeof why);
            return rc_error_set(c->err, st, RC_NO_OFFSET, "change event \"%.*s\": %s", (int)m->key.n, m->key.p, why);
        }
        v = t;
    }
    if (v->kind != want) return fail(c, RC_ERR_SCHEMA, want == RC_B_TIMESTAMP ? "must be a timestamp" : "must be a document", m->key);
    *out = v;
    return RC_OK;
}

/* updateDescription: updatedFields (set), removedFields (unset, each name true),
 * truncatedArrays (field, newSize); disambiguatedPaths says nothing the paths do not. */
static rc_status description(cs_ctx *c, const rc_bson *u, rc_doc_change *d)
{
    static const rc_bson yes = {.kind = RC_B_BOOL, .b = true};
    for (uint32_t i = 0; i < u->doc.n; i++) {
        const rc_bson_member *m = &u->doc.items[i];
        const rc_bson *v = &m->val;
        if (is(m->key, "updatedFields")) {
            rc_status st = tree(c, m, RC_B_DOCUMENT, &d->set);
            if (st != RC_OK) return st;
        } else if (is(m->key, "removedFields") || is(m->key, "truncatedArrays")) {
            if (v->kind == RC_B_NULL) continue;
            if (v->kind != RC_B_ARRAY) return fail(c, RC_ERR_SCHEMA, "must be an array", m->key);
            bool removed = m->key.n == 13;
            rc_bson_member *names = removed ? rc_arena_alloc(c->a, (v->doc.n + 1) * sizeof *names) : NULL;
            rc_doc_truncated *t = removed ? NULL : rc_arena_alloc(c->a, (v->doc.n + 1) * sizeof *t);
            if (!names && !t) return fail(c, RC_ERR_NOMEM, "out of memory", m->key);
            for (uint32_t k = 0; k < v->doc.n; k++) {
                const rc_bson *e = &v->doc.items[k].val;
                const rc_bson *f = rc_bson_get(e, "field"), *n = rc_bson_get(e, "newSize");
                if (removed && e->kind == RC_B_STRING) names[k] = (rc_bson_member){e->s, yes};
                else if (!removed && f && f->kind == RC_B_STRING && n && e->doc.n == 2 && rc_bson_u32(n, &t[k].new_size)) t[k].field = f->s;
                else return fail(c, RC_ERR_SCHEMA, removed ? "must hold field names" : "must hold {\"field\": …, \"newSize\": …}", m->key);
            }
            if (removed && v->doc.n) {
                rc_bson *un = rc_arena_alloc(c->a, sizeof *un);
                if (!un) return fail(c, RC_ERR_NOMEM, "out of memory", m->key);
                *un = (rc_bson){.kind = RC_B_DOCUMENT, .doc = {names, v->doc.n}};
                d->unset = un;
            } else if (!removed) {
                d->truncated = t, d->ntruncated = v->doc.n;
            }
        } else if (!is(m->key, "disambiguatedPaths")) {
            return fail(c, RC_ERR_SCHEMA, "unknown member of updateDescription", m->key);
        }
    }
    return RC_OK;
}

static rc_status operation(cs_ctx *c, const rc_bson_member *m, rc_event *ev, rc_doc_change *d)
{
    static const char *const ops[] = {"insert", "update", "replace", "delete"};
    static const rc_op codes[] = {RC_OP_INSERT, RC_OP_UPDATE, RC_OP_UPDATE, RC_OP_DELETE};
    if (m->val.kind == RC_B_STRING)
        for (int k = 0; k < 4; k++)
            if (is(m->val.s, ops[k])) return ev->op = codes[k], d->replace = k == 2, RC_OK;
    rc_str s = m->val.kind == RC_B_STRING ? m->val.s : RC_STR("?");
    return rc_error_set(c->err, RC_ERR_SCHEMA, RC_NO_OFFSET,
                        "operationType \"%.*s\" is not a change of a document (insert, update, replace, delete: the only ones rowcast reads)",
                        (int)(s.n > 40 ? 40 : s.n), s.p);
}

/* Milliseconds as the event's microseconds; beyond them, an error naming the member. */
static rc_status micros(cs_ctx *c, int64_t ms, rc_str name, int64_t *us, bool *has)
{
    if (ms > INT64_MAX / 1000 || ms < INT64_MIN / 1000) return fail(c, RC_ERR_RANGE, "milliseconds beyond the range of a time", name);
    *us = ms * 1000, *has = true;
    return RC_OK;
}

/* Flink CDC's source {ts_ms, snapshot} */
static rc_status source(cs_ctx *c, const rc_bson_member *m, rc_event *ev)
{
    for (uint32_t i = 0; m->val.kind == RC_B_DOCUMENT && i < m->val.doc.n; i++) {
        const rc_bson_member *s = &m->val.doc.items[i];
        if (is(s->key, "ts_ms") && (s->val.kind == RC_B_INT32 || s->val.kind == RC_B_INT64)) {
            rc_status st = micros(c, s->val.kind == RC_B_INT32 ? s->val.i32 : s->val.i64, s->key, &ev->ts_us, &ev->has_ts);
            if (st != RC_OK) return st;
        } else if (is(s->key, "snapshot") && s->val.kind == RC_B_STRING) ev->snapshot = s->val.s;
        else return fail(c, RC_ERR_SCHEMA, "must be {\"ts_ms\": …, \"snapshot\": …}", m->key);
    }
    return m->val.kind == RC_B_DOCUMENT ? RC_OK : fail(c, RC_ERR_SCHEMA, "must be a document", m->key);
}

static rc_status ns(cs_ctx *c, const rc_bson_member *m, rc_event *ev)
{
    const rc_bson *db = rc_bson_get(&m->val, "db"), *coll = rc_bson_get(&m->val, "coll");
    if (!db || db->kind != RC_B_STRING || !coll || coll->kind != RC_B_STRING || m->val.doc.n != 2)
        return fail(c, RC_ERR_SCHEMA, "must be {\"db\": …, \"coll\": …}", m->key);
    ev->src.db = db->s, ev->src.table = coll->s;
    return RC_OK;
}

/* The resume token (_id) as the position's checkpoint: its canonical Extended JSON text. */
static rc_status token(cs_ctx *c, const rc_bson_member *m, rc_event *ev)
{
    const rc_bson *t;
    rc_status st = tree(c, m, RC_B_DOCUMENT, &t);
    if (st != RC_OK || !t) return st;
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_ejson_write(&b, t, RC_EJSON_CANONICAL);
    char *p = b.err == RC_OK ? rc_arena_memdup(c->a, b.data, b.len) : NULL;
    ev->pos.checkpoint = (rc_str){p, p ? b.len : 0};
    rc_buf_fini(&b);
    return p ? RC_OK : fail(c, RC_ERR_NOMEM, "out of memory", m->key);
}

static rc_status integer(cs_ctx *c, const rc_bson_member *m, int64_t *out, bool *has)
{
    if (m->val.kind == RC_B_NULL) return RC_OK;
    if (m->val.kind != RC_B_INT32 && m->val.kind != RC_B_INT64) return fail(c, RC_ERR_SCHEMA, "must be an integer", m->key);
    *out = m->val.kind == RC_B_INT32 ? m->val.i32 : m->val.i64, *has = true;
    return RC_OK;
}

static rc_status member(cs_ctx *c, const rc_bson_member *m, rc_event *ev, rc_doc_change *d, const rc_bson **ud)
{
    rc_str k = m->key;
    const rc_bson *ct;
    rc_status st;
    int64_t x = 0;
    bool has = false;
    if (is(k, "_id")) return token(c, m, ev);
    if (is(k, "operationType")) return operation(c, m, ev, d);
    if (is(k, "fullDocument")) return tree(c, m, RC_B_DOCUMENT, &d->full);
    if (is(k, "fullDocumentBeforeChange")) return tree(c, m, RC_B_DOCUMENT, &d->before);
    if (is(k, "documentKey")) return tree(c, m, RC_B_DOCUMENT, &d->key);
    if (is(k, "updateDescription")) return tree(c, m, RC_B_DOCUMENT, ud);
    if (is(k, "ns")) return ns(c, m, ev);
    if (is(k, "source")) return source(c, m, ev);
    if (is(k, "clusterTime")) {
        if ((st = tree(c, m, RC_B_TIMESTAMP, &ct)) == RC_OK && ct) d->has_cluster_time = true, d->cluster_t = ct->ts.t, d->cluster_i = ct->ts.i;
        return st;
    }
    if (is(k, "ts_ms")) { /* Flink CDC: when the record was made */
        if ((st = integer(c, m, &x, &has)) == RC_OK && has) st = micros(c, x, k, &ev->proc_us, &ev->has_proc);
        return st;
    }
    if (is(k, "wallTime")) {
        if (m->val.kind == RC_B_NULL) return RC_OK;
        if (m->val.kind != RC_B_DATE) return fail(c, RC_ERR_SCHEMA, "must be a date", k);
        return ev->has_ts ? RC_OK : micros(c, m->val.i64, k, &ev->ts_us, &ev->has_ts);
    }
    if (is(k, "txnNumber")) {
        if ((st = integer(c, m, &x, &has)) != RC_OK || !has) return st;
        char num[24];
        int n = snprintf(num, sizeof num, "%lld", (long long)x);
        char *p = rc_arena_memdup(c->a, num, (size_t)n);
        if (!p) return fail(c, RC_ERR_NOMEM, "out of memory", k);
        ev->pos.txid = (rc_str){p, (size_t)n};
        return RC_OK;
    }
    if (is(k, "to")) return m->val.kind == RC_B_NULL ? RC_OK : fail(c, RC_ERR_SCHEMA, "a rename is not a change of a document", k);
    if (is(k, "lsid") || is(k, "collectionUUID")) return RC_OK; /* the session and the collection's id: not kept (docs page) */
    return fail(c, RC_ERR_SCHEMA, "unknown member", k);
}

static rc_status cs_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    (void)p;
    rc_bson root;
    rc_status st = rc_ejson_read(msg, n, a, &root, err);
    if (st != RC_OK) return st;
    if (root.kind != RC_B_DOCUMENT) return rc_error_set(err, RC_ERR_SCHEMA, 0, "a change event is a document");
    cs_ctx c = {a, err};
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    rc_doc_change *d = rc_arena_alloc(a, sizeof *d);
    if (!d) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    memset(d, 0, sizeof *d);
    const rc_bson *ud = NULL;
    bool op = false;
    for (uint32_t i = 0; i < root.doc.n; i++) {
        if ((st = member(&c, &root.doc.items[i], &ev, d, &ud)) != RC_OK) return st;
        op |= is(root.doc.items[i].key, "operationType");
    }
    if (!op) return rc_error_set(err, RC_ERR_SCHEMA, 0, "the change event has no \"operationType\"");
    if (!ev.src.table.n) return rc_error_set(err, RC_ERR_SCHEMA, 0, "the change event has no \"ns\"");
    if (ud && (ev.op != RC_OP_UPDATE || d->replace))
        return rc_error_set(err, RC_ERR_SCHEMA, 0, "only an update has an \"updateDescription\" (this is a%s %s)", ev.op == RC_OP_INSERT ? "n" : "",
                            d->replace ? "replace" : rc_op_name(ev.op));
    if (ud && (st = description(&c, ud, d)) != RC_OK) return st;
    if (d->before && ev.op == RC_OP_INSERT) return rc_error_set(err, RC_ERR_SCHEMA, 0, "an insert has no \"fullDocumentBeforeChange\"");
    if (d->full && ev.op == RC_OP_DELETE) return rc_error_set(err, RC_ERR_SCHEMA, 0, "a delete has no \"fullDocument\"");
    if (!rc_event_list_accepts(out, ev.src.db, ev.src.table)) return RC_OK;
    /* Flink CDC marks the records of its snapshot: reads, as every snapshot's rows are */
    if (ev.op == RC_OP_INSERT && (is(ev.snapshot, "true") || is(ev.snapshot, "last"))) ev.op = RC_OP_READ;
    else if (is(ev.snapshot, "false")) ev.snapshot = (rc_str){0};
    bool ok = ev.op == RC_OP_DELETE ? d->key != NULL
            : ev.op == RC_OP_UPDATE ? (d->replace ? d->full != NULL : d->full || d->set || d->unset || d->ntruncated)
                                    : d->full != NULL;
    if (!ok)
        return rc_error_set(err, RC_ERR_SCHEMA, 0, "a %s change event needs %s", rc_op_name(ev.op),
                            ev.op == RC_OP_DELETE ? "\"documentKey\"" : ev.op == RC_OP_UPDATE && !d->replace ? "\"updateDescription\" or \"fullDocument\"" : "\"fullDocument\"");
    ev.doc = d;
    rc_event *slot = rc_event_list_push(out);
    if (!slot) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *slot = ev;
    return RC_OK;
}

const rc_format rc_format_mongo_change_stream = {
    .name = "mongo-change-stream",
    .summary = "MongoDB change stream events as Extended JSON (the MongoDB Kafka connector's, Flink CDC's): document changes",
    .content_type = "application/json",
    .options = rc_mongo_cs_options,
    .enc_new = rc_mongo_cs_enc_new,
    .enc_free = rc_mongo_cs_enc_free,
    .encode_value = rc_mongo_cs_encode,
    .dec_new = dec_new,
    .dec_free = dec_free,
    .decode = cs_decode,
};
