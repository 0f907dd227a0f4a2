/* MongoDB change stream events, writer side (docs/formats/mongo-change-stream.md): a document
 * event as the change event document in canonical Extended JSON, spaced as the Java driver's
 * toJson() writes it (what the MongoDB Kafka connector's tests hold): _id (the resume token),
 * operationType, fullDocumentBeforeChange, fullDocument, ns, documentKey, updateDescription,
 * clusterTime, wallTime, txnNumber, each when the event has it. mongo_change_stream.c reads it. */
#include <stdlib.h>
#include <string.h>
#include "formats/formats.h"
#include "formats/enc_event.h"
#include "formats/mongo_change_stream.h"
#include "core/bson.h"
#include "core/ejson.h"
#include "core/fmt.h"

const rc_option_desc rc_mongo_cs_options[] = {{0}}; /* none yet, for the reader too */

typedef struct cs_enc {
    rc_arena a; /* the event's tree, made again for each */
} cs_enc;

rc_status rc_mongo_cs_enc_new(const rc_options *o, void **out, rc_error *err)
{
    rc_status st = rc_options_check(o, "mongo-change-stream", rc_mongo_cs_options, err);
    if (st != RC_OK) return st;
    cs_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_arena_init(&e->a);
    *out = e;
    return RC_OK;
}

void rc_mongo_cs_enc_free(void *p)
{
    cs_enc *e = p;
    if (!e) return;
    rc_arena_fini(&e->a);
    free(e);
}

static rc_status refuse(rc_error *err, const rc_event *ev, const char *why)
{
    rc_enc_unsupported(err, "mongo-change-stream", ev, why);
    return RC_SKIP;
}

/* The members of a tree being built: n of them in m. */
typedef struct members {
    rc_bson_member m[10];
    uint32_t n;
} members;

static void add(members *t, const char *key, rc_bson v) { t->m[t->n++] = (rc_bson_member){{key, strlen(key)}, v}; }
static rc_bson str(const char *s) { return (rc_bson){.kind = RC_B_STRING, .s = {s, strlen(s)}}; }
static rc_bson doc_of(rc_arena *a, const rc_bson_member *m, uint32_t n, rc_bson_kind kind)
{
    rc_bson_member *p = rc_arena_alloc(a, (n ? n : 1) * sizeof *p);
    if (p && n) memcpy(p, m, n * sizeof *p);
    return (rc_bson){.kind = kind, .doc = {p, p ? n : 0}};
}

/* updateDescription {updatedFields, removedFields, truncatedArrays}; NULL why when written */
static const char *description(rc_arena *a, const rc_doc_change *d, rc_bson *out)
{
    static const rc_bson empty = {.kind = RC_B_DOCUMENT};
    uint32_t nu = d->unset ? d->unset->doc.n : 0;
    rc_bson_member *names = rc_arena_alloc(a, (nu + 1) * sizeof *names), *cut = rc_arena_alloc(a, (d->ntruncated + 1) * sizeof *cut);
    rc_bson_member *pairs = rc_arena_alloc(a, (2 * d->ntruncated + 1) * sizeof *pairs);
    if (!names || !cut || !pairs) return "out of memory";
    for (uint32_t i = 0; i < nu; i++) {
        const rc_bson_member *u = &d->unset->doc.items[i];
        if (u->val.kind != RC_B_BOOL || !u->val.b) return "removedFields names the fields removed only, and the event's $unset gives one a value other than true";
        names[i] = (rc_bson_member){{"", 0}, {.kind = RC_B_STRING, .s = u->key}};
    }
    for (uint32_t i = 0; i < d->ntruncated; i++) {
        pairs[2 * i] = (rc_bson_member){RC_STR("field"), {.kind = RC_B_STRING, .s = d->truncated[i].field}};
        pairs[2 * i + 1] = (rc_bson_member){RC_STR("newSize"), {.kind = RC_B_INT32, .i32 = (int32_t)d->truncated[i].new_size}};
        if (d->truncated[i].new_size > INT32_MAX) return "an array's new size beyond an int32";
        cut[i] = (rc_bson_member){{"", 0}, {.kind = RC_B_DOCUMENT, .doc = {pairs + 2 * i, 2}}};
    }
    members t = {.n = 0};
    add(&t, "updatedFields", d->set ? *d->set : empty);
    add(&t, "removedFields", (rc_bson){.kind = RC_B_ARRAY, .doc = {names, nu}});
    add(&t, "truncatedArrays", (rc_bson){.kind = RC_B_ARRAY, .doc = {cut, d->ntruncated}});
    *out = doc_of(a, t.m, t.n, RC_B_DOCUMENT);
    return out->doc.items ? NULL : "out of memory";
}

/* documentKey: the event's key, else (an insert or replacement that has none) the document's
 * _id, which a change stream always gives */
static const rc_bson *document_key(rc_arena *a, const rc_doc_change *d)
{
    if (d->key) return d->key;
    const rc_bson *id = rc_bson_get(d->full, "_id");
    if (!id) return NULL;
    rc_bson *k = rc_arena_alloc(a, sizeof *k);
    rc_bson_member m = {RC_STR("_id"), *id};
    if (k) *k = doc_of(a, &m, 1, RC_B_DOCUMENT);
    return k && k->doc.items ? k : NULL;
}

rc_status rc_mongo_cs_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    cs_enc *e = p;
    const rc_doc_change *d = ev->doc;
    if (ev->op == RC_OP_HEARTBEAT || ev->op == RC_OP_BEGIN || ev->op == RC_OP_COMMIT) return RC_SKIP; /* no message */
    if (!d && rc_event_refuse_unavailable(ev, "mongo-change-stream", err) != RC_OK) return RC_SKIP;
    if (!d) return refuse(err, ev, "a change stream event is a change of a document, and the event has none");
    const char *op = ev->op == RC_OP_INSERT || ev->op == RC_OP_READ ? "insert"
                   : ev->op == RC_OP_DELETE                         ? "delete"
                   : ev->op == RC_OP_UPDATE                         ? (d->replace ? "replace" : "update")
                                                                    : NULL;
    if (!op) return refuse(err, ev, "a change stream's insert, update, replace and delete are the changes of a document");
    if (ev->has_ts && ev->ts_us % 1000) return refuse(err, ev, "wallTime holds milliseconds, and the event's time has microseconds");
    rc_arena_reset(&e->a);
    members t = {.n = 0};
    rc_bson v;
    if (ev->pos.checkpoint.n) { /* the resume token, as the reader keeps it */
        rc_error terr;
        rc_error_clear(&terr);
        if (rc_ejson_read(ev->pos.checkpoint.p, ev->pos.checkpoint.n, &e->a, &v, &terr) != RC_OK)
            return refuse(err, ev, "the event's checkpoint is not a resume token (Extended JSON)");
        add(&t, "_id", v);
    }
    add(&t, "operationType", str(op));
    if (d->before) add(&t, "fullDocumentBeforeChange", *d->before);
    if (d->full) add(&t, "fullDocument", *d->full);
    rc_bson_member nsm[2] = {{RC_STR("db"), {.kind = RC_B_STRING, .s = ev->src.db}}, {RC_STR("coll"), {.kind = RC_B_STRING, .s = ev->src.table}}};
    add(&t, "ns", (rc_bson){.kind = RC_B_DOCUMENT, .doc = {nsm, 2}});
    const rc_bson *key = document_key(&e->a, d);
    if (key) add(&t, "documentKey", *key);
    else if (ev->op == RC_OP_DELETE || ev->op == RC_OP_UPDATE) return refuse(err, ev, "the document key is missing");
    if (ev->op == RC_OP_UPDATE && !d->replace) {
        const char *why = description(&e->a, d, &v);
        if (why) return refuse(err, ev, why);
        add(&t, "updateDescription", v);
    }
    if (d->has_cluster_time) add(&t, "clusterTime", (rc_bson){.kind = RC_B_TIMESTAMP, .ts = {d->cluster_t, d->cluster_i}});
    if (ev->has_ts) add(&t, "wallTime", (rc_bson){.kind = RC_B_DATE, .i64 = ev->ts_us / 1000});
    int64_t txn;
    if (ev->pos.txid.n && rc_parse_i64(ev->pos.txid.p, ev->pos.txid.n, &txn) == RC_OK) add(&t, "txnNumber", (rc_bson){.kind = RC_B_INT64, .i64 = txn});
    rc_bson root = {.kind = RC_B_DOCUMENT, .doc = {t.m, t.n}};
    rc_ejson_write(b, &root, RC_EJSON_JAVA_CANONICAL);
    return rc_enc_finish(b, err);
}
