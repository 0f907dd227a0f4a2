/* Huawei DRS's DDS (MongoDB) to Kafka JSON (docs/formats/drs-dds.md): id, op, dbType, db,
 * coll, value, where, recordType, extra, es, ts, clusterTime, with `value` and `where` the
 * Java driver's shell-mode Extended JSON in a string. The writer; drs_dds_read.c reads it. */
#include <stdlib.h>
#include <string.h>
#include "formats/drs_dds.h"
#include "formats/enc_event.h"
#include "core/bson.h"
#include "core/ejson.h"
#include "core/fmt.h"
#include "core/jsonw.h"

typedef struct dds_enc {
    uint64_t next_id;
    rc_buf text;
} dds_enc;

static const rc_option_desc dds_options[] = {{0}};

static rc_status enc_new(const rc_options *o, void **out, rc_error *err)
{
    rc_status st = rc_options_check(o, "drs-dds", dds_options, err);
    if (st != RC_OK) return st;
    dds_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->next_id = 1;
    rc_buf_init(&e->text, 0);
    *out = e;
    return RC_OK;
}

static void enc_free(void *p)
{
    dds_enc *e = p;
    if (!e) return;
    rc_buf_fini(&e->text);
    free(e);
}

/* A tree as shell-mode text in a JSON string; null when absent. */
static void put_shell(rc_buf *b, dds_enc *e, const rc_bson *v)
{
    if (!v) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_buf_reset(&e->text);
    rc_ejson_write(&e->text, v, RC_EJSON_SHELL);
    rc_jw_str(b, e->text.data ? e->text.data : "", e->text.len);
}

/* An update description as the update operators DRS writes: {"$set": …} and {"$unset": …} in
 * the order the source wrote them. */
static void put_update(rc_buf *b, dds_enc *e, const rc_doc_change *d)
{
    rc_bson_member ops[2];
    uint32_t n = 0;
    const rc_bson *order[2] = {d->unset_first ? d->unset : d->set, d->unset_first ? d->set : d->unset};
    for (int k = 0; k < 2; k++)
        if (order[k]) ops[n].key = order[k] == d->set ? RC_STR("$set") : RC_STR("$unset"), ops[n++].val = *order[k];
    rc_bson v = {.kind = RC_B_DOCUMENT, .doc = {ops, n}};
    put_shell(b, e, &v);
}

/* An event the layout cannot hold: reported as not expressible, nothing written. */
static rc_status refuse(rc_error *err, const rc_event *ev, const char *why)
{
    rc_enc_unsupported(err, "drs-dds", ev, why);
    return RC_SKIP;
}

static rc_status dds_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    dds_enc *e = p;
    const rc_doc_change *d = ev->doc;
    if (ev->op == RC_OP_HEARTBEAT || ev->op == RC_OP_BEGIN || ev->op == RC_OP_COMMIT) return RC_SKIP; /* no message */
    if (!d && rc_event_refuse_unavailable(ev, "drs-dds", err) != RC_OK) return RC_SKIP; /* the first thing wrong, as every format says it */
    if (!d) return refuse(err, ev, "drs-dds holds MongoDB document changes only, and the event has no document (drs-json writes rows)");
    const char *op, *rt;
    const rc_bson *value, *where = NULL;
    switch (ev->op) {
    case RC_OP_INSERT: op = "INSERT", rt = "insert", value = d->full; break;
    case RC_OP_DELETE: op = "DELETE", rt = "doc", value = d->key; break;
    case RC_OP_UPDATE:
        op = "UPDATE", rt = d->replace ? "replace" : "update", value = d->full, where = d->key;
        if (!where) return refuse(err, ev, "an update needs the document's filter for \"where\", which the event lacks");
        if (d->ntruncated) return refuse(err, ev, "DRS's update operators ($set, $unset) have no way to write arrays truncated");
        if (!d->replace && !d->set && !d->unset)
            return refuse(err, ev, "an update needs its fields set or removed ($set, $unset), which the event lacks");
        break;
    default: return refuse(err, ev, "the DDS layout of DRS has no message for it (insert, update, replace and delete only)");
    }
    if (!value && !(ev->op == RC_OP_UPDATE && !d->replace)) return refuse(err, ev, "the document (or a delete's key) is missing");
    uint64_t id = ev->pos.has_seq ? ev->pos.seq : e->next_id;
    e->next_id++;
    RC_BUF_LIT(b, "{\"id\":");
    rc_fmt_u64(b, id);
    RC_BUF_LIT(b, ",\"op\":\"");
    rc_buf_puts(b, op);
    RC_BUF_LIT(b, "\",\"dbType\":\"MongoDB\",\"db\":");
    rc_jw_str(b, ev->src.db.p, ev->src.db.n);
    RC_BUF_LIT(b, ",\"coll\":");
    rc_jw_str(b, ev->src.table.p, ev->src.table.n);
    RC_BUF_LIT(b, ",\"value\":");
    if (ev->op == RC_OP_UPDATE && !d->replace) put_update(b, e, d);
    else put_shell(b, e, value);
    RC_BUF_LIT(b, ",\"where\":");
    put_shell(b, e, where);
    for (int k = 0; k < 2; k++) {
        rc_buf_puts(b, k ? ",\"extra\":\"" : ",\"recordType\":\"");
        rc_buf_puts(b, rt);
        rc_buf_putc(b, '"');
    }
    RC_BUF_LIT(b, ",\"es\":");
    rc_fmt_i64(b, rc_enc_es_ms(ev));
    RC_BUF_LIT(b, ",\"ts\":");
    rc_fmt_i64(b, rc_enc_ts_ms(ev));
    RC_BUF_LIT(b, ",\"clusterTime\":");
    if (d->has_cluster_time) {
        rc_buf_putc(b, '"');
        rc_fmt_u64(b, d->cluster_t);
        rc_buf_putc(b, ':');
        rc_fmt_u64(b, d->cluster_i);
        rc_buf_putc(b, '"');
    } else {
        RC_BUF_LIT(b, "null");
    }
    rc_buf_putc(b, '}');
    return rc_enc_finish(b, err);
}

const rc_format rc_format_drs_dds = {
    .name = "drs-dds",
    .summary = "Huawei DRS DDS (MongoDB) JSON: document changes, value and where as shell-mode Extended JSON",
    .content_type = "application/json",
    .options = dds_options,
    .enc_new = enc_new,
    .enc_free = enc_free,
    .encode_value = dds_encode,
    .dec_new = rc_drs_dds_dec_new,
    .dec_free = rc_drs_dds_dec_free,
    .decode = rc_drs_dds_decode,
};
