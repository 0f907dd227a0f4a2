/* Huawei DRS DDS (MongoDB) JSON, reader side (docs/formats/drs-dds.md): one message, one
 * document change. Strict: every member of the layout is required and no other is allowed,
 * `value` and `where` must read as shell-mode (or canonical) Extended JSON documents, and
 * op, recordType and extra must agree, so that nothing is passed on half understood. */
#include <string.h>
#include "formats/drs_dds.h"
#include "core/bson.h"
#include "core/ejson.h"
#include "core/fmt.h"
#include "core/jsondec.h"

enum { M_ID, M_OP, M_DBTYPE, M_DB, M_COLL, M_VALUE, M_WHERE, M_RT, M_EXTRA, M_ES, M_TS, M_CT, M_N };
static const char *const names[M_N] = {"id", "op", "dbType", "db", "coll", "value", "where", "recordType", "extra", "es", "ts", "clusterTime"};

typedef struct dds_dec {
    rc_jsondec jd;
    rc_jkeys keys;
} dds_dec;

rc_status rc_drs_dds_dec_new(const rc_options *opts, void **out, rc_error *err)
{
    static const rc_option_desc none[] = {{0}};
    rc_status st = rc_options_check(opts, "drs-dds", none, err);
    if (st != RC_OK) return st;
    void *p;
    if ((st = rc_jsondec_new(sizeof(dds_dec), &p, err)) != RC_OK) return st;
    dds_dec *d = p;
    rc_jkeys_init(&d->keys, names, M_N);
    *out = d;
    return RC_OK;
}

void rc_drs_dds_dec_free(void *dec) { rc_jsondec_free(dec); }

typedef struct ctx {
    const rc_json *j;
    uint32_t m[M_N];
    rc_arena *a;
    rc_error *err;
} ctx;

static const rc_jnode *node(const ctx *c, int k) { return rc_json_node(c->j, c->m[k]); }
static bool is(const rc_jnode *n, const char *s) { return n->type == RC_J_STRING && n->n == strlen(s) && !memcmp(n->s, s, n->n); }

/* Member k's text (a string), or the error naming it. */
static rc_status text(const ctx *c, int k, rc_str *out)
{
    rc_status st = rc_jsondec_want(c->j, c->m[k], RC_J_STRING, names[k], c->err);
    if (st == RC_OK) *out = (rc_str){node(c, k)->s, node(c, k)->n};
    return st;
}

/* Member k (value or where) as a document; null gives NULL when `nullable`. */
static rc_status document(const ctx *c, int k, bool nullable, const rc_bson **out)
{
    const rc_jnode *n = node(c, k);
    *out = NULL;
    if (n->type == RC_J_NULL && nullable) return RC_OK;
    rc_str s;
    rc_status st = text(c, k, &s);
    if (st != RC_OK) return st;
    rc_bson *v = rc_arena_alloc(c->a, sizeof *v);
    if (!v) return rc_error_set(c->err, RC_ERR_NOMEM, n->off, "out of memory");
    if ((st = rc_ejson_read(s.p, s.n, c->a, v, c->err)) != RC_OK) {
        char why[sizeof c->err->message];
        memcpy(why, c->err->message, sizeof why);
        return rc_error_set(c->err, st, n->off, "\"%s\": %s", names[k], why);
    }
    if (v->kind != RC_B_DOCUMENT) return rc_error_set(c->err, RC_ERR_SCHEMA, n->off, "\"%s\" must be a document", names[k]);
    *out = v;
    return RC_OK;
}

/* An update's operators: {"$set": {…}} and/or {"$unset": {…}}, each once. */
static rc_status operators(const ctx *c, const rc_bson *v, rc_doc_change *d)
{
    size_t at = node(c, M_VALUE)->off;
    for (uint32_t i = 0; i < v->doc.n; i++) {
        const rc_bson_member *m = &v->doc.items[i];
        bool set = m->key.n == 4 && !memcmp(m->key.p, "$set", 4), unset = m->key.n == 6 && !memcmp(m->key.p, "$unset", 6);
        const rc_bson **slot = set ? &d->set : unset ? &d->unset : NULL;
        if (!slot || *slot || m->val.kind != RC_B_DOCUMENT)
            return rc_error_set(c->err, RC_ERR_SCHEMA, at, "an update's \"value\" holds \"$set\" and \"$unset\" documents, each once; found \"%.*s\"",
                                (int)(m->key.n > 40 ? 40 : m->key.n), m->key.p);
        *slot = &m->val;
        if (unset && !d->set && i + 1 < v->doc.n) d->unset_first = true;
    }
    if (!d->set && !d->unset) return rc_error_set(c->err, RC_ERR_SCHEMA, at, "an update's \"value\" has neither \"$set\" nor \"$unset\"");
    return RC_OK;
}

/* "seconds:increment" */
static rc_status cluster_time(const ctx *c, rc_doc_change *d)
{
    const rc_jnode *n = node(c, M_CT);
    if (n->type == RC_J_NULL) return RC_OK;
    rc_str s;
    rc_status st = text(c, M_CT, &s);
    if (st != RC_OK) return st;
    const char *colon = memchr(s.p, ':', s.n);
    uint64_t t, i;
    if (!colon || rc_parse_u64(s.p, (size_t)(colon - s.p), &t) != RC_OK || rc_parse_u64(colon + 1, s.n - (size_t)(colon - s.p) - 1, &i) != RC_OK ||
        t > UINT32_MAX || i > UINT32_MAX)
        return rc_error_set(c->err, RC_ERR_VALUE, n->off, "\"clusterTime\" must be \"seconds:increment\", found \"%.*s\"", (int)(s.n > 40 ? 40 : s.n), s.p);
    d->has_cluster_time = true, d->cluster_t = (uint32_t)t, d->cluster_i = (uint32_t)i;
    return RC_OK;
}

/* What op and recordType say, and the value and where each combination carries. */
static rc_status change(const ctx *c, rc_event *ev, rc_doc_change *d)
{
    const rc_jnode *op = node(c, M_OP), *rt = node(c, M_RT), *ex = node(c, M_EXTRA);
    rc_status st;
    const rc_bson *value, *where;
    if ((st = rc_jsondec_want(c->j, c->m[M_RT], RC_J_STRING, "recordType", c->err)) != RC_OK ||
        (st = rc_jsondec_want(c->j, c->m[M_EXTRA], RC_J_STRING, "extra", c->err)) != RC_OK)
        return st;
    if (ex->n != rt->n || memcmp(ex->s, rt->s, rt->n))
        return rc_error_set(c->err, RC_ERR_SCHEMA, ex->off, "\"extra\" differs from \"recordType\" (rowcast knows no other extra)");
    bool upd = is(op, "UPDATE");
    if ((st = document(c, M_VALUE, false, &value)) != RC_OK || (st = document(c, M_WHERE, !upd, &where)) != RC_OK) return st;
    if (is(op, "INSERT") && is(rt, "insert")) ev->op = RC_OP_INSERT, d->full = value;
    else if (is(op, "DELETE") && is(rt, "doc")) ev->op = RC_OP_DELETE, d->key = value;
    else if (upd && is(rt, "replace")) ev->op = RC_OP_UPDATE, d->full = value, d->replace = true;
    else if (upd && is(rt, "update")) ev->op = RC_OP_UPDATE;
    else
        return rc_error_set(c->err, RC_ERR_SCHEMA, op->off, "op %.*s with recordType \"%.*s\" is not one of DRS's DDS messages (INSERT insert, UPDATE update or replace, DELETE doc)",
                            (int)(op->n > 20 ? 20 : op->n), op->type == RC_J_STRING ? op->s : "?", (int)(rt->n > 20 ? 20 : rt->n), rt->s);
    if (ev->op != RC_OP_UPDATE && where) return rc_error_set(c->err, RC_ERR_SCHEMA, node(c, M_WHERE)->off, "\"where\" of an insert or delete must be null");
    if (upd) d->key = where;
    if (upd && !d->replace) return operators(c, value, d);
    return RC_OK;
}

rc_status rc_drs_dds_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    dds_dec *dd = p;
    rc_status st = rc_jsondec_parse(&dd->jd, msg, n, a, err);
    if (st != RC_OK) return st;
    ctx c = {&dd->jd.json, {0}, a, err};
    if (rc_json_node(c.j, 0)->type != RC_J_OBJECT) return rc_error_set(err, RC_ERR_SCHEMA, 0, "a DRS DDS message is a JSON object");
    bool repeated = false;
    uint32_t bad = rc_json_members_strict(c.j, 0, &dd->keys, c.m, &repeated);
    if (bad) {
        const rc_jnode *k = rc_json_node(c.j, bad);
        return rc_error_set(err, RC_ERR_SCHEMA, k->off, "%s member \"%.*s\"", repeated ? "repeated" : "unknown", (int)(k->n > 40 ? 40 : k->n), k->s);
    }
    for (int k = 0; k < M_N; k++)
        if (!c.m[k]) return rc_error_set(err, RC_ERR_SCHEMA, 0, "the message has no \"%s\"", names[k]);
    /* the document's examples write "MongoDB", its table "Mongo": both are DRS's */
    if (!is(node(&c, M_DBTYPE), "MongoDB") && !is(node(&c, M_DBTYPE), "Mongo"))
        return rc_error_set(err, RC_ERR_SCHEMA, node(&c, M_DBTYPE)->off, "\"dbType\" must be \"MongoDB\" (or \"Mongo\")");
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    if ((st = text(&c, M_DB, &ev.src.db)) != RC_OK || (st = text(&c, M_COLL, &ev.src.table)) != RC_OK) return st;
    if (!rc_event_list_accepts(out, ev.src.db, ev.src.table)) return RC_OK;
    int64_t id;
    bool has;
    if ((st = rc_jsondec_i64_at(c.j, c.m[M_ID], "id", &id, &has, err)) != RC_OK) return st;
    if (!has || id < 0) return rc_error_set(err, RC_ERR_VALUE, node(&c, M_ID)->off, "\"id\" must be an integer from 0");
    ev.pos.seq = (uint64_t)id, ev.pos.has_seq = true;
    if ((st = rc_jsondec_us_at(c.j, c.m[M_ES], "es", 1000, &ev.ts_us, &ev.has_ts, err)) != RC_OK ||
        (st = rc_jsondec_us_at(c.j, c.m[M_TS], "ts", 1000, &ev.proc_us, &ev.has_proc, err)) != RC_OK)
        return st;
    rc_doc_change *d = rc_arena_alloc(a, sizeof *d);
    if (!d) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    memset(d, 0, sizeof *d);
    if ((st = cluster_time(&c, d)) != RC_OK || (st = change(&c, &ev, d)) != RC_OK) return st;
    ev.doc = d;
    rc_event *slot = rc_event_list_push(out);
    if (!slot) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *slot = ev;
    return RC_OK;
}
