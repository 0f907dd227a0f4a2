/* Debezium's MongoDB connector, writer side (docs/formats/debezium-mongodb.md): a document
 * event (rc_event.doc) in the envelope of the release debezium.compat / debezium.version names,
 * its documents as Extended JSON text in the legacy strict mode Debezium writes
 * ({"_id": {"$oid": "…"},"n": {"$numberLong": "5"}}), with or without the Kafka Connect schema;
 * the key {"id": "<Extended JSON of _id>"}. The layouts, from the connector's own messages:
 *   1.0-1.5 (compat 10): after, patch, filter; source ... db, rs, collection, ord, h, tord
 *   1.6-1.9 (16): + updateDescription; source ... db, sequence, rs, collection, ord, h, tord,
 *                 stxnid, lsid, txnNumber
 *   2.0-2.1 (20): before, after, patch, filter, updateDescription; source ... db, sequence, rs,
 *                 collection, ord, lsid, txnNumber
 *   2.2-2.5 (20): before, after, updateDescription; source + wallTime
 *   2.6 on (26, 30): as 2.2, source without rs, with ts_us and ts_ns after sequence
 * then op, ts_ms, transaction. */
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "formats/enc_event.h"
#include "core/bson.h"
#include "core/ejson.h"
#include "core/fmt.h"
#include "core/jsonw.h"

typedef struct mg_layout {
    bool before, patch, ud; /* envelope members */
    bool seq, ts_us, rs, h_tord, stxnid, lsid, wall; /* source members */
} mg_layout;

static mg_layout layout_of(const up_enc *e)
{
    mg_layout l = {0};
    l.before = e->compat >= 20;
    l.patch = !e->mongo_22;
    l.ud = e->compat >= 16;
    l.seq = e->compat >= 16;
    l.ts_us = e->compat >= 26;
    l.rs = e->compat < 26;
    l.h_tord = e->compat < 20;
    l.stxnid = e->compat == 16;
    l.lsid = e->compat >= 16;
    l.wall = e->mongo_22;
    return l;
}

/* A tree as strict Extended JSON text in a JSON string; null when absent. */
static void put_ejson(up_enc *e, rc_buf *b, const rc_bson *v)
{
    if (!v) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_buf_reset(&e->scratch);
    rc_ejson_write(&e->scratch, v, RC_EJSON_STRICT);
    rc_jw_str(b, e->scratch.data ? e->scratch.data : "", e->scratch.len);
}

static void put_opt_i64(rc_buf *b, bool has, int64_t v)
{
    if (has) rc_fmt_i64(b, v);
    else RC_BUF_LIT(b, "null");
}

/* The source's ts_ms and ord: the cluster time (seconds in ms, increment), else the event's
 * time and 0 (no increment known). */
static int64_t source_ms(const rc_event *ev)
{
    const rc_doc_change *d = ev->doc;
    return d->has_cluster_time ? (int64_t)d->cluster_t * 1000 : ev->has_ts ? rc_floor_div(ev->ts_us, 1000) : 0;
}

static void put_source(up_enc *e, const mg_layout *l, rc_buf *b, const rc_event *ev)
{
    const rc_doc_change *d = ev->doc;
    rc_str server = server_of(e, ev);
    int64_t ms = source_ms(ev);
    RC_BUF_LIT(b, "{\"version\":");
    rc_jw_str(b, e->version, strlen(e->version));
    RC_BUF_LIT(b, ",\"connector\":\"mongodb\",\"name\":");
    rc_jw_str(b, server.p, server.n);
    RC_BUF_LIT(b, ",\"ts_ms\":");
    rc_fmt_i64(b, ms);
    RC_BUF_LIT(b, ",\"snapshot\":");
    if (ev->snapshot.n) rc_jw_str(b, ev->snapshot.p, ev->snapshot.n);
    else rc_buf_puts(b, ev->op == RC_OP_READ ? "\"true\"" : "\"false\"");
    RC_BUF_LIT(b, ",\"db\":");
    rc_jw_str(b, ev->src.db.p, ev->src.db.n);
    if (l->seq) RC_BUF_LIT(b, ",\"sequence\":null");
    if (l->ts_us) {
        RC_BUF_LIT(b, ",\"ts_us\":");
        rc_fmt_i64(b, ms * 1000);
        RC_BUF_LIT(b, ",\"ts_ns\":");
        rc_fmt_i64(b, ms * 1000);
        if (ms) RC_BUF_LIT(b, "000"); /* ms * 10^6, which may not fit in int64 */
    }
    if (l->rs) RC_BUF_LIT(b, ",\"rs\":"), rc_enc_put_str_or_null(b, d->rs);
    RC_BUF_LIT(b, ",\"collection\":");
    rc_jw_str(b, ev->src.table.p, ev->src.table.n);
    RC_BUF_LIT(b, ",\"ord\":");
    rc_fmt_u64(b, d->has_cluster_time ? d->cluster_i : 0);
    if (l->h_tord) {
        RC_BUF_LIT(b, ",\"h\":");
        put_opt_i64(b, d->has_h, d->h);
        RC_BUF_LIT(b, ",\"tord\":");
        put_opt_i64(b, d->has_tord, d->tord);
    }
    if (l->stxnid) RC_BUF_LIT(b, ",\"stxnid\":"), rc_enc_put_str_or_null(b, d->stxnid);
    if (l->lsid) {
        int64_t txn = 0;
        bool has = ev->pos.txid.n && rc_parse_i64(ev->pos.txid.p, ev->pos.txid.n, &txn) == RC_OK;
        RC_BUF_LIT(b, ",\"lsid\":");
        rc_enc_put_str_or_null(b, d->lsid);
        RC_BUF_LIT(b, ",\"txnNumber\":");
        put_opt_i64(b, has, txn);
    }
    if (l->wall) RC_BUF_LIT(b, ",\"wallTime\":"), put_opt_i64(b, d->has_wall, d->wall_ms);
    rc_buf_putc(b, '}');
}

/* 1.x's patch: the oplog's update {"$v": n, "$set": …, "$unset": …}, or the new document. */
static void put_patch(up_enc *e, rc_buf *b, const rc_doc_change *d)
{
    if (!d->set && !d->unset) {
        put_ejson(e, b, d->full);
        return;
    }
    rc_bson_member ops[3];
    uint32_t n = 0;
    if (d->has_patch_v) ops[n++] = (rc_bson_member){RC_STR("$v"), {.kind = RC_B_INT32, .i32 = d->patch_v}};
    const rc_bson *order[2] = {d->unset_first ? d->unset : d->set, d->unset_first ? d->set : d->unset};
    for (int k = 0; k < 2; k++)
        if (order[k]) ops[n].key = order[k] == d->set ? RC_STR("$set") : RC_STR("$unset"), ops[n++].val = *order[k];
    rc_bson v = {.kind = RC_B_DOCUMENT, .doc = {ops, n}};
    put_ejson(e, b, &v);
}

/* 1.9's updateDescription, or null when the update says no fields. */
static void put_description(up_enc *e, rc_buf *b, const rc_doc_change *d)
{
    if (!d->set && !d->unset && !d->ntruncated) {
        RC_BUF_LIT(b, "null");
        return;
    }
    RC_BUF_LIT(b, "{\"removedFields\":");
    for (uint32_t i = 0; d->unset && i < d->unset->doc.n; i++) {
        rc_buf_putc(b, i ? ',' : '[');
        rc_jw_str(b, d->unset->doc.items[i].key.p, d->unset->doc.items[i].key.n);
    }
    rc_buf_puts(b, d->unset && d->unset->doc.n ? "]" : "null");
    RC_BUF_LIT(b, ",\"updatedFields\":");
    put_ejson(e, b, d->set);
    RC_BUF_LIT(b, ",\"truncatedArrays\":");
    for (uint32_t i = 0; i < d->ntruncated; i++) {
        rc_buf_puts(b, i ? ",{\"field\":" : "[{\"field\":");
        rc_jw_str(b, d->truncated[i].field.p, d->truncated[i].field.n);
        RC_BUF_LIT(b, ",\"size\":");
        rc_fmt_u64(b, d->truncated[i].new_size);
        rc_buf_putc(b, '}');
    }
    rc_buf_puts(b, d->ntruncated ? "]" : "null");
    rc_buf_putc(b, '}');
}

/* What the layout cannot hold: the reason, or NULL. */
static const char *not_expressible(const mg_layout *l, const rc_event *ev)
{
    const rc_doc_change *d = ev->doc;
    if (ev->op != RC_OP_INSERT && ev->op != RC_OP_READ && ev->op != RC_OP_UPDATE && ev->op != RC_OP_DELETE)
        return "Debezium's MongoDB connector writes inserts, reads, updates and deletes of documents only";
    if (ev->op == RC_OP_UPDATE && !l->ud && d->ntruncated) return "a 1.x patch (the oplog's $set and $unset) has no way to write arrays truncated";
    if (ev->op == RC_OP_UPDATE && !l->ud && !d->key) return "a 1.x update needs the document's filter, which the event lacks";
    if (ev->op == RC_OP_UPDATE && l->ud && d->unset)
        for (uint32_t i = 0; i < d->unset->doc.n; i++)
            if (d->unset->doc.items[i].val.kind != RC_B_BOOL || !d->unset->doc.items[i].val.b)
                return "updateDescription.removedFields names the fields removed only, and the event's $unset gives one a value other than true";
    return NULL;
}

static void envelope_schema(up_enc *e, const mg_layout *l, rc_buf *b, const rc_event *ev);

rc_status rc_dbz_mongo_value(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err)
{
    const rc_doc_change *d = ev->doc;
    mg_layout l = layout_of(e);
    const char *why = not_expressible(&l, ev);
    if (why) return rc_enc_unsupported(err, "debezium", ev, why), RC_SKIP;
    if (e->skip_set && (e->skip_ops >> ev->op & 1)) return RC_SKIP;
    bool upd = ev->op == RC_OP_UPDATE, del = ev->op == RC_OP_DELETE;
    if (e->schemas) {
        RC_BUF_LIT(b, "{\"schema\":");
        envelope_schema(e, &l, b, ev);
        RC_BUF_LIT(b, ",\"payload\":");
    }
    rc_buf_putc(b, '{');
    if (l.before) RC_BUF_LIT(b, "\"before\":"), put_ejson(e, b, upd || del ? d->before : NULL), rc_buf_putc(b, ',');
    RC_BUF_LIT(b, "\"after\":");
    put_ejson(e, b, del || (upd && !l.ud) ? NULL : d->full);
    if (l.patch) {
        RC_BUF_LIT(b, ",\"patch\":");
        if (upd && !l.ud) put_patch(e, b, d);
        else RC_BUF_LIT(b, "null");
        RC_BUF_LIT(b, ",\"filter\":");
        put_ejson(e, b, (upd || del) && !l.ud ? d->key : NULL);
    }
    if (l.ud) {
        RC_BUF_LIT(b, ",\"updateDescription\":");
        if (upd) put_description(e, b, d);
        else RC_BUF_LIT(b, "null");
    }
    RC_BUF_LIT(b, ",\"source\":");
    put_source(e, &l, b, ev);
    RC_BUF_LIT(b, ",\"op\":\"");
    rc_buf_puts(b, rc_dbz_up_op(ev));
    RC_BUF_LIT(b, "\",\"ts_ms\":");
    rc_fmt_i64(b, rc_floor_div(ev->has_proc ? ev->proc_us : ev->has_ts ? ev->ts_us : 0, 1000));
    RC_BUF_LIT(b, ",\"transaction\":null}");
    if (e->schemas) rc_buf_putc(b, '}');
    return RC_OK;
}

/* The document's _id: the key's, else (an insert without one) the document's. */
static const rc_bson *doc_id(const rc_event *ev)
{
    const rc_bson *id = rc_bson_get(ev->doc->key, "_id");
    return id ? id : rc_bson_get(ev->doc->full, "_id");
}

/* "<server>.<db>.<collection>" */
static void put_prefix(up_enc *e, rc_buf *b, const rc_event *ev)
{
    rc_str server = server_of(e, ev);
    rc_jw_str_body(b, server.p, server.n);
    rc_buf_putc(b, '.');
    rc_jw_str_body(b, ev->src.db.p, ev->src.db.n);
    rc_buf_putc(b, '.');
    rc_jw_str_body(b, ev->src.table.p, ev->src.table.n);
}

rc_status rc_dbz_mongo_key_put(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err)
{
    (void)err;
    const rc_bson *id = doc_id(ev);
    if (!id) return RC_SKIP; /* no _id known: a null key */
    if (e->schemas) {
        RC_BUF_LIT(b, "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"string\",\"optional\":false,\"field\":\"id\"}],\"optional\":false,\"name\":\"");
        put_prefix(e, b, ev);
        RC_BUF_LIT(b, ".Key\"},\"payload\":");
    }
    RC_BUF_LIT(b, "{\"id\":");
    put_ejson(e, b, id);
    rc_buf_putc(b, '}');
    if (e->schemas) rc_buf_putc(b, '}');
    return RC_OK;
}

/* ---- the Kafka Connect schema of the envelope ---- */

static void json_field(rc_buf *b, const char *field)
{
    RC_BUF_LIT(b, "{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.data.Json\",\"version\":1,\"field\":\"");
    rc_buf_puts(b, field);
    RC_BUF_LIT(b, "\"},");
}

static void source_schema(up_enc *e, const mg_layout *l, rc_buf *b)
{
    static const rc_dbz_field head[] = {{"version", "string", false}, {"connector", "string", false}, {"name", "string", false}, {"ts_ms", "int64", false}, {0}};
    static const rc_dbz_field rs[] = {{"rs", "string", false}, {0}}, coll[] = {{"collection", "string", false}, {"ord", "int32", false}, {0}};
    static const rc_dbz_field h_tord[] = {{"h", "int64", true}, {"tord", "int64", true}, {0}}, stxnid[] = {{"stxnid", "string", true}, {0}};
    static const rc_dbz_field lsid[] = {{"lsid", "string", true}, {"txnNumber", "int64", true}, {0}}, wall[] = {{"wallTime", "int64", true}, {0}};
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    rc_dbz_put_simple_fields(b, head, false);
    rc_buf_putc(b, ',');
    rc_dbz_snapshot_schema(e, b);
    rc_buf_putc(b, ',');
    rc_dbz_put_simple_field(b, "string", false, "db");
    if (l->seq) rc_buf_putc(b, ','), rc_dbz_put_simple_field(b, "string", true, "sequence");
    if (l->ts_us) rc_dbz_put_simple_fields(b, rc_dbz_ts_us_ns, true);
    if (l->rs) rc_dbz_put_simple_fields(b, rs, true);
    rc_dbz_put_simple_fields(b, coll, true);
    if (l->h_tord) rc_dbz_put_simple_fields(b, h_tord, true);
    if (l->stxnid) rc_dbz_put_simple_fields(b, stxnid, true);
    if (l->lsid) rc_dbz_put_simple_fields(b, lsid, true);
    if (l->wall) rc_dbz_put_simple_fields(b, wall, true);
    RC_BUF_LIT(b, "],\"optional\":false,\"name\":\"io.debezium.connector.mongo.Source\"");
    if (e->compat >= 30) RC_BUF_LIT(b, ",\"version\":1");
    RC_BUF_LIT(b, ",\"field\":\"source\"}");
}

static void envelope_schema(up_enc *e, const mg_layout *l, rc_buf *b, const rc_event *ev)
{
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    if (l->before) json_field(b, "before");
    json_field(b, "after");
    if (l->patch) json_field(b, "patch"), json_field(b, "filter");
    if (l->ud)
        RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[{\"type\":\"array\",\"items\":{\"type\":\"string\",\"optional\":false},\"optional\":true,"
                      "\"field\":\"removedFields\"},{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.data.Json\",\"version\":1,"
                      "\"field\":\"updatedFields\"},{\"type\":\"array\",\"items\":{\"type\":\"struct\",\"fields\":[{\"type\":\"string\","
                      "\"optional\":false,\"field\":\"field\"},{\"type\":\"int32\",\"optional\":false,\"field\":\"size\"}],\"optional\":false,"
                      "\"name\":\"io.debezium.connector.mongodb.changestream.truncatedarray\",\"version\":1},\"optional\":true,\"field\":"
                      "\"truncatedArrays\"}],\"optional\":true,\"name\":\"io.debezium.connector.mongodb.changestream.updatedescription\","
                      "\"version\":1,\"field\":\"updateDescription\"},");
    source_schema(e, l, b);
    rc_buf_putc(b, ',');
    rc_dbz_put_simple_field(b, "string", true, "op");
    rc_buf_putc(b, ',');
    rc_dbz_put_simple_field(b, "int64", true, "ts_ms");
    rc_buf_putc(b, ',');
    rc_dbz_transaction_schema(e, b);
    RC_BUF_LIT(b, "],\"optional\":false,\"name\":\"");
    put_prefix(e, b, ev);
    RC_BUF_LIT(b, ".Envelope\"}");
}
