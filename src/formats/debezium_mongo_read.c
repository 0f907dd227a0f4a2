/* Debezium's MongoDB connector, reader side (docs/formats/debezium-mongodb.md): a change of a
 * document in the envelope of any release from 1.1 to 3.x, with or without the Kafka Connect
 * schema. `after`, `before`, `patch` (1.x: the oplog's update), `filter` (1.x: the document
 * key) and `updateDescription.updatedFields` are Extended JSON text in strings, read into the
 * document change (core/bson.h); the record key's `id` likewise. Strict: a member the layout
 * has not, or a value rowcast would have to drop, is an error. debezium_read.c hands a message
 * here when its source block says connector "mongodb". */
#include <stdio.h>
#include <string.h>
#include "formats/debezium_read_int.h"
#include "core/bson.h"
#include "core/ejson.h"
#include "core/fmt.h"

enum { E_BEFORE, E_AFTER, E_PATCH, E_FILTER, E_UD, E_SOURCE, E_OP, E_TS_MS, E_TS_US, E_TS_NS, E_TX, E_N };
static const char *const env_names[E_N] = {"before", "after", "patch", "filter", "updateDescription", "source",
                                           "op",     "ts_ms", "ts_us", "ts_ns",  "transaction"};
enum { S_VERSION, S_CONNECTOR, S_NAME, S_TS_MS, S_TS_US, S_TS_NS, S_SNAPSHOT, S_DB, S_SEQUENCE,
       S_RS,      S_COLLECTION, S_ORD, S_H,     S_TORD,  S_STXNID, S_LSID,     S_TXN, S_WALL, S_N };
static const char *const src_names[S_N] = {"version", "connector", "name", "ts_ms", "ts_us", "ts_ns",  "snapshot", "db",        "sequence",
                                           "rs",      "collection", "ord", "h",     "tord",  "stxnid", "lsid",     "txnNumber", "wallTime"};

void rc_dbz_mongo_keys_init(dz_dec *d)
{
    rc_jkeys_init(&d->mg_env, env_names, E_N);
    rc_jkeys_init(&d->mg_src, src_names, S_N);
}

static const rc_jnode *node(const ctx *c, uint32_t i) { return rc_jread_node(&c->r, i); }
static bool null_or_absent(const ctx *c, uint32_t i) { return !i || node(c, i)->type == RC_J_NULL; }

static rc_status members(const ctx *c, uint32_t obj, const rc_jkeys *k, uint32_t *m, const char *what)
{
    bool repeated = false;
    uint32_t bad = rc_json_members_strict(c->r.j, obj, k, m, &repeated);
    if (!bad) return RC_OK;
    const rc_jnode *n = node(c, bad);
    return rc_error_set(c->r.err, RC_ERR_SCHEMA, n->off, "%s member \"%.*s\" of %s in a Debezium MongoDB message", repeated ? "repeated" : "unknown",
                        (int)(n->n > 40 ? 40 : n->n), n->s, what);
}

/* Member v (named `name`): Extended JSON text in a string, of kind `want` (a document: any
 * kind when want is RC_B_KIND_COUNT), or null (NULL). */
static rc_status ejson_member(const ctx *c, uint32_t v, const char *name, rc_bson_kind want, const rc_bson **out)
{
    *out = NULL;
    if (null_or_absent(c, v)) return RC_OK;
    rc_status st = rc_jsondec_want(c->r.j, v, RC_J_STRING, name, c->r.err);
    if (st != RC_OK) return st;
    const rc_jnode *n = node(c, v);
    rc_bson *t = rc_arena_alloc(c->r.a, sizeof *t);
    if (!t) return rc_error_set(c->r.err, RC_ERR_NOMEM, n->off, "out of memory");
    if ((st = rc_ejson_read(n->s, n->n, c->r.a, t, c->r.err)) != RC_OK) {
        char why[sizeof c->r.err->message];
        memcpy(why, c->r.err->message, sizeof why);
        return rc_error_set(c->r.err, st, n->off, "%s: %s", name, why);
    }
    if (want != RC_B_KIND_COUNT && t->kind != want) return rc_error_set(c->r.err, RC_ERR_SCHEMA, n->off, "%s must be a document", name);
    *out = t;
    return RC_OK;
}

/* An integer or null member into *out / *has. */
static rc_status opt_i64(const ctx *c, uint32_t v, const char *name, int64_t *out, bool *has)
{
    *has = false;
    return null_or_absent(c, v) ? RC_OK : rc_jsondec_i64_at(c->r.j, v, name, out, has, c->r.err);
}

/* A string or null member. */
static rc_status opt_str(const ctx *c, uint32_t v, const char *name, rc_str *out)
{
    *out = (rc_str){0};
    if (null_or_absent(c, v)) return RC_OK;
    rc_status st = rc_jsondec_want(c->r.j, v, RC_J_STRING, name, c->r.err);
    if (st == RC_OK) *out = rc_dbz_read_copy_str(c, v);
    return st;
}

/* source.ts_us / ts_ns (2.6 and later) say ts_ms again: another value would be lost. */
static rc_status same_time(const ctx *c, uint32_t v, const char *name, int64_t ms, bool has_ms, int64_t per_ms)
{
    int64_t x;
    bool has;
    rc_status st = opt_i64(c, v, name, &x, &has);
    if (st != RC_OK || !has) return st;
    if (has_ms && ms <= INT64_MAX / per_ms && ms >= INT64_MIN / per_ms && x == ms * per_ms) return RC_OK;
    return rc_error_set(c->r.err, RC_ERR_VALUE, node(c, v)->off, "source \"%s\" is not \"ts_ms\" in its unit (rowcast keeps the cluster time's seconds)", name);
}

static rc_status source(const ctx *c, uint32_t s, rc_event *ev, rc_doc_change *d)
{
    uint32_t m[S_N];
    rc_status st = members(c, s, &c->d->mg_src, m, "\"source\"");
    if (st != RC_OK) return st;
    ev->src.server = rc_dbz_read_copy_str(c, m[S_NAME]);
    ev->src.db = rc_dbz_read_copy_str(c, m[S_DB]);
    ev->src.table = rc_dbz_read_copy_str(c, m[S_COLLECTION]);
    if (!ev->src.table.n) return rc_error_set(c->r.err, RC_ERR_SCHEMA, node(c, s)->off, "\"source\" names no \"collection\"");
    int64_t ms, ord, txn;
    bool has_ms, has_ord, has_txn;
    if ((st = opt_i64(c, m[S_TS_MS], "ts_ms", &ms, &has_ms)) != RC_OK || (st = opt_i64(c, m[S_ORD], "ord", &ord, &has_ord)) != RC_OK ||
        (st = same_time(c, m[S_TS_US], "ts_us", ms, has_ms, 1000)) != RC_OK || (st = same_time(c, m[S_TS_NS], "ts_ns", ms, has_ms, 1000000)) != RC_OK)
        return st;
    if (has_ms && (st = rc_jsondec_us_at(c->r.j, m[S_TS_MS], "ts_ms", 1000, &ev->ts_us, &ev->has_ts, c->r.err)) != RC_OK) return st;
    /* ts_ms and ord are the oplog entry's timestamp: seconds (in ms) and increment */
    if (has_ord != has_ms || (has_ms && (ms < 0 || ms % 1000 || ms / 1000 > UINT32_MAX || ord < 0 || ord > UINT32_MAX)))
        return rc_error_set(c->r.err, RC_ERR_VALUE, node(c, s)->off,
                            "source \"ts_ms\" and \"ord\" must be a cluster time (whole seconds in ms, and the increment)");
    if (has_ms) d->has_cluster_time = true, d->cluster_t = (uint32_t)(ms / 1000), d->cluster_i = (uint32_t)ord;
    uint32_t snap = m[S_SNAPSHOT];
    rc_str sn = rc_dbz_read_copy_str(c, snap);
    if (snap && node(c, snap)->type == RC_J_TRUE) sn = RC_STR("true");
    bool implied = (ev->op == RC_OP_READ && sn.n == 4 && !memcmp(sn.p, "true", 4)) || (ev->op != RC_OP_READ && sn.n == 5 && !memcmp(sn.p, "false", 5));
    if (!implied) ev->snapshot = sn;
    if (!null_or_absent(c, m[S_SEQUENCE]))
        return rc_error_set(c->r.err, RC_ERR_UNSUPPORTED, node(c, m[S_SEQUENCE])->off, "source \"sequence\" of a MongoDB message is not read (rowcast has no place for it)");
    if ((st = opt_str(c, m[S_RS], "rs", &d->rs)) != RC_OK || (st = opt_str(c, m[S_STXNID], "stxnid", &d->stxnid)) != RC_OK ||
        (st = opt_str(c, m[S_LSID], "lsid", &d->lsid)) != RC_OK || (st = opt_i64(c, m[S_H], "h", &d->h, &d->has_h)) != RC_OK ||
        (st = opt_i64(c, m[S_TORD], "tord", &d->tord, &d->has_tord)) != RC_OK || (st = opt_i64(c, m[S_WALL], "wallTime", &d->wall_ms, &d->has_wall)) != RC_OK ||
        (st = opt_i64(c, m[S_TXN], "txnNumber", &txn, &has_txn)) != RC_OK)
        return st;
    if (has_txn) {
        char num[24];
        int k = snprintf(num, sizeof num, "%lld", (long long)txn);
        ev->pos.txid = (rc_str){rc_arena_memdup(c->r.a, num, (size_t)k), (size_t)k};
        if (!ev->pos.txid.p) return rc_error_set(c->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    return RC_OK;
}

static bool is_key(rc_str k, const char *s) { return k.n == strlen(s) && !memcmp(k.p, s, k.n); }

/* A 1.x patch: the oplog's update, {"$v": n, "$set": {…}, "$unset": {…}} ($v first, each
 * operator once), or a whole document (a replacement). */
static rc_status patch(const ctx *c, const rc_bson *p, uint32_t at, rc_doc_change *d)
{
    if (!p->doc.n || p->doc.items[0].key.n < 1 || p->doc.items[0].key.p[0] != '$') {
        d->replace = true, d->full = p;
        return RC_OK;
    }
    for (uint32_t i = 0; i < p->doc.n; i++) {
        const rc_bson_member *m = &p->doc.items[i];
        if (i == 0 && is_key(m->key, "$v") && m->val.kind == RC_B_INT32) {
            d->has_patch_v = true, d->patch_v = m->val.i32;
            continue;
        }
        const rc_bson **slot = is_key(m->key, "$set") ? &d->set : is_key(m->key, "$unset") ? &d->unset : NULL;
        if (!slot || *slot || m->val.kind != RC_B_DOCUMENT)
            return rc_error_set(c->r.err, RC_ERR_UNSUPPORTED, node(c, at)->off,
                                "patch: \"%.*s\" is not read (rowcast reads \"$v\" first, then \"$set\" and \"$unset\", each once)",
                                (int)(m->key.n > 40 ? 40 : m->key.n), m->key.p);
        *slot = &m->val;
        if (slot == &d->unset && !d->set && i + 1 < p->doc.n) d->unset_first = true;
    }
    return RC_OK;
}

/* 1.9 and later: updateDescription {removedFields: [names], updatedFields: "<Extended JSON>",
 * truncatedArrays: [{field, size}]}, each null when empty. */
static rc_status description(const ctx *c, uint32_t u, rc_doc_change *d)
{
    static const rc_bson yes = {.kind = RC_B_BOOL, .b = true};
    static const char *const names[] = {"removedFields", "updatedFields", "truncatedArrays"};
    rc_status st = rc_jsondec_want(c->r.j, u, RC_J_OBJECT, "updateDescription", c->r.err);
    if (st != RC_OK) return st;
    for (uint32_t k = node(c, u)->first; k; k = node(c, node(c, k)->next)->next) {
        /* an object's children are key, value, key, value... */
        const rc_jnode *kn = node(c, k);
        uint32_t v = kn->next;
        int which = 0;
        while (which < 3 && !(kn->n == strlen(names[which]) && !memcmp(kn->s, names[which], kn->n))) which++;
        if (which == 3)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, kn->off, "unknown member \"%.*s\" of updateDescription", (int)(kn->n > 40 ? 40 : kn->n), kn->s);
        if (which == 1) {
            if ((st = ejson_member(c, v, "updatedFields", RC_B_DOCUMENT, &d->set)) != RC_OK) return st;
            continue;
        }
        if (null_or_absent(c, v)) continue;
        if ((st = rc_jsondec_want(c->r.j, v, RC_J_ARRAY, names[which], c->r.err)) != RC_OK) return st;
        uint32_t n = node(c, v)->count;
        if (!n) continue;
        rc_bson_member *gone = which == 0 ? rc_arena_alloc(c->r.a, n * sizeof *gone) : NULL;
        rc_doc_truncated *t = which == 2 ? rc_arena_alloc(c->r.a, n * sizeof *t) : NULL;
        rc_bson *un = which == 0 ? rc_arena_alloc(c->r.a, sizeof *un) : NULL;
        if (!gone && !t) return rc_error_set(c->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        if (which == 0 && !un) return rc_error_set(c->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        uint32_t i = 0;
        for (uint32_t e = node(c, v)->first; e; e = node(c, e)->next, i++) {
            int64_t size;
            bool has;
            if (which == 0) {
                if ((st = rc_jsondec_want(c->r.j, e, RC_J_STRING, "a removedFields entry", c->r.err)) != RC_OK) return st;
                gone[i] = (rc_bson_member){rc_dbz_read_copy_str(c, e), yes};
                continue;
            }
            uint32_t f = rc_json_get(c->r.j, e, "field"), sz = rc_json_get(c->r.j, e, "size");
            if (node(c, e)->type != RC_J_OBJECT || node(c, e)->count != 2 || !f || node(c, f)->type != RC_J_STRING ||
                rc_jsondec_i64_at(c->r.j, sz, "size", &size, &has, c->r.err) != RC_OK || !has || size < 0 || size > UINT32_MAX)
                return rc_error_set(c->r.err, RC_ERR_SCHEMA, node(c, e)->off, "a truncatedArrays entry must be {\"field\": name, \"size\": n}");
            t[i] = (rc_doc_truncated){rc_dbz_read_copy_str(c, f), (uint32_t)size};
        }
        if (which == 0) *un = (rc_bson){.kind = RC_B_DOCUMENT, .doc = {gone, n}}, d->unset = un;
        else d->truncated = t, d->ntruncated = n;
    }
    return RC_OK;
}

/* What must be null for the op: a member it names that is not. */
static rc_status none_of(const ctx *c, const uint32_t *m, unsigned mask, const char *op)
{
    for (int k = 0; k < E_N; k++)
        if (mask >> k & 1 && !null_or_absent(c, m[k]))
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, node(c, m[k])->off, "a%s %s has no \"%s\"", op[0] == 'u' ? "n" : "", op, env_names[k]);
    return RC_OK;
}

rc_status rc_dbz_mongo_read(const ctx *c, uint32_t payload, rc_event *ev, rc_event_list *out)
{
    uint32_t m[E_N];
    rc_status st = members(c, payload, &c->d->mg_env, m, "the envelope");
    if (st != RC_OK) return st;
    if (ev->op != RC_OP_INSERT && ev->op != RC_OP_READ && ev->op != RC_OP_UPDATE && ev->op != RC_OP_DELETE)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, node(c, m[E_OP])->off, "op \"%.*s\" is not a change of a document (c, r, u, d)", (int)node(c, m[E_OP])->n,
                            node(c, m[E_OP])->s);
    rc_doc_change *d = rc_arena_alloc(c->r.a, sizeof *d);
    if (!d) return rc_error_set(c->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    memset(d, 0, sizeof *d);
    if ((st = source(c, m[E_SOURCE], ev, d)) != RC_OK) return st;
    if (!rc_event_list_accepts(out, ev->src.db, ev->src.table)) return RC_OK;
    int64_t x;
    bool h;
    if ((st = opt_i64(c, m[E_TS_US], "ts_us", &x, &h)) != RC_OK) return st;
    if (h) ev->proc_us = x, ev->has_proc = true;
    else if ((st = rc_jsondec_us_at(c->r.j, m[E_TS_MS], "ts_ms", 1000, &ev->proc_us, &ev->has_proc, c->r.err)) != RC_OK)
        return st;
    if (!null_or_absent(c, m[E_TX]))
        return rc_error_set(c->r.err, RC_ERR_UNSUPPORTED, node(c, m[E_TX])->off,
                            "the \"transaction\" block of a MongoDB message is not read (its source \"txnNumber\" and \"lsid\" are)");
    const rc_bson *after, *filter, *p;
    if ((st = ejson_member(c, m[E_AFTER], "after", RC_B_DOCUMENT, &after)) != RC_OK ||
        (st = ejson_member(c, m[E_BEFORE], "before", RC_B_DOCUMENT, &d->before)) != RC_OK ||
        (st = ejson_member(c, m[E_PATCH], "patch", RC_B_DOCUMENT, &p)) != RC_OK ||
        (st = ejson_member(c, m[E_FILTER], "filter", RC_B_DOCUMENT, &filter)) != RC_OK)
        return st;
    d->key = filter;
    const char *op = rc_op_name(ev->op);
    switch (ev->op) {
    case RC_OP_INSERT:
    case RC_OP_READ:
        if ((st = none_of(c, m, 1u << E_BEFORE | 1u << E_PATCH | 1u << E_FILTER | 1u << E_UD, op)) != RC_OK) return st;
        if (!after) return rc_error_set(c->r.err, RC_ERR_SCHEMA, node(c, payload)->off, "op %s without \"after\"", op);
        d->full = after;
        break;
    case RC_OP_UPDATE:
        if (p && (st = patch(c, p, m[E_PATCH], d)) != RC_OK) return st;
        if (!null_or_absent(c, m[E_UD]) && (st = description(c, m[E_UD], d)) != RC_OK) return st;
        if (after && d->full) return rc_error_set(c->r.err, RC_ERR_SCHEMA, node(c, m[E_AFTER])->off, "an update with both a replacement \"patch\" and \"after\"");
        if (after) d->full = after;
        /* the document after and no description: a replacement (the connector writes a change
         * stream's replace so) */
        if (after && !p && !d->set && !d->unset && !d->ntruncated) d->replace = true;
        if (!d->full && !d->set && !d->unset && !d->ntruncated)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, node(c, payload)->off, "an update without \"after\", \"patch\" or \"updateDescription\"");
        break;
    default: /* delete: the key from the filter (1.x) or the record key */
        if ((st = none_of(c, m, 1u << E_AFTER | 1u << E_PATCH | 1u << E_UD, op)) != RC_OK) return st;
        if (!d->key && !c->d->keyed)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, node(c, payload)->off,
                                "a delete without \"filter\": its document key is in the record key (read the records: --input-layout records)");
        break;
    }
    ev->doc = d;
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(c->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    *e = *ev;
    return RC_OK;
}

/* The record key {"id": "<Extended JSON of _id>"}: the document key {"_id": …}, unless the
 * message's filter gave it (then they must agree). */
rc_status rc_dbz_mongo_key(const ctx *kc, uint32_t krow, rc_event *ev)
{
    uint32_t id = rc_json_get(kc->r.j, krow, "id");
    if (!id || rc_jread_node(&kc->r, krow)->count != 1)
        return rc_error_set(kc->r.err, RC_ERR_SCHEMA, rc_jread_node(&kc->r, krow)->off, "the key of a MongoDB message is {\"id\": \"<Extended JSON of _id>\"}");
    const rc_bson *v;
    rc_status st = ejson_member(kc, id, "the key's \"id\"", RC_B_KIND_COUNT, &v);
    if (st != RC_OK) return st;
    if (!v) return rc_error_set(kc->r.err, RC_ERR_SCHEMA, rc_jread_node(&kc->r, id)->off, "the key's \"id\" is null");
    rc_doc_change *d = (rc_doc_change *)ev->doc; /* this reader's, in the arena */
    if (d->key) {
        const rc_bson *kid = rc_bson_get(d->key, "_id");
        if (!kid || !rc_bson_equal(kid, v))
            return rc_error_set(kc->r.err, RC_ERR_VALUE, rc_jread_node(&kc->r, id)->off, "the key's \"id\" is not the \"_id\" of the message's \"filter\"");
        return RC_OK;
    }
    rc_bson_member *mem = rc_arena_alloc(kc->r.a, sizeof *mem);
    rc_bson *k = rc_arena_alloc(kc->r.a, sizeof *k);
    if (!mem || !k) return rc_error_set(kc->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    *mem = (rc_bson_member){RC_STR("_id"), *v};
    *k = (rc_bson){.kind = RC_B_DOCUMENT, .doc = {mem, 1}};
    d->key = k;
    return RC_OK;
}
