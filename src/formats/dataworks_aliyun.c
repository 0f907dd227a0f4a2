/* DataWorks real-time sync JSON, the "aliyun" layout (version 0.0.1), writer side
 * (docs/formats/dataworks-aliyun.md): {schema {dataColumn, primaryKey, source}, payload
 * {before, after, sequenceId, timestamp, op, ddl}, version}, in the member order of the real
 * messages Paimon keeps. DataWorks maps every column to one of six types (LONG, DOUBLE,
 * STRING, DATE, BYTES, BOOLEAN); the mapping is by the column's value kind (rc_dwa_type in
 * dataworks_aliyun_common.c, which the reader uses too), since no other format names those
 * types. */
#include <stdlib.h>
#include <string.h>
#include "formats/dataworks_aliyun.h"
#include "formats/enc_event.h"
#include "formats/oms_common.h"
#include "core/fmt.h"
#include "core/jsonw.h"

typedef struct dwa_enc {
    rc_tz tz;   /* wall-clock DATE / DATETIME values are in this zone */
    bool split; /* an UPDATE as UPDATE_BEFORE + UPDATE_AFTER messages */
    /* what a cached column list (rc_event.cols_id) writes the same in each message: the
     * images' "name": keys, and schema.dataColumn and primaryKey (made for schema_of) */
    rc_enc_colkeys keys;
    const void *schema_of;
    rc_buf schema;
    rc_cut_log *cuts; /* --on-loss=cut (epoch_ms); NULL: refuse */
} dwa_enc;

typedef struct dwa_opts {
    rc_tz tz;
    int update;
} dwa_opts;
static const rc_option_desc dwa_options[] = {
    {"dataworks-aliyun.timezone", RC_OPT_TZ, NULL, "UTC", "zone of DATE and DATETIME values written as DATE epoch milliseconds", .off = offsetof(dwa_opts, tz)},
    {"dataworks-aliyun.update", RC_OPT_CHOICE, "one|split", "one",
     "an UPDATE as one UPDATE_AFTER message with before and after (one) or as UPDATE_BEFORE then UPDATE_AFTER (split)", .off = offsetof(dwa_opts, update)},
    {0},
};

static rc_status dwa_new(const rc_options *o, void **out, rc_error *err)
{
    dwa_opts d;
    rc_status st = rc_options_parse(o, "dataworks-aliyun", dwa_options, &d, err);
    if (st != RC_OK) return st;
    dwa_enc e = {.tz = d.tz, .split = d.update == 1};
    dwa_enc *p = malloc(sizeof *p);
    if (!p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    *p = e;
    *out = p;
    return RC_OK;
}

/* The reader takes the writer's options (one command line reads and writes): a bad one is an
 * error on either side. */
static rc_status dwa_dec_new(const rc_options *o, void **out, rc_error *err)
{
    dwa_opts d;
    rc_status st = rc_options_parse(o, "dataworks-aliyun", dwa_options, &d, err);
    return st != RC_OK ? st : rc_dwa_dec_new(o, out, err);
}

static void dwa_free(void *p)
{
    dwa_enc *e = p;
    if (e) rc_enc_colkeys_fini(&e->keys), rc_buf_fini(&e->schema);
    free(e);
}

/* A DATE, DATETIME or TIMESTAMP value as epoch milliseconds; false (with the reason in err)
 * when the value has digits below the millisecond, which DataWorks' DATE cannot carry, unless
 * --on-loss=cut asked for what DataWorks writes (e->cuts: the digits cut off, noted there when
 * err is given, which check_dates does). */
static bool epoch_ms(const dwa_enc *e, const rc_column *c, const rc_value *v, int64_t *ms, rc_error *err)
{
    uint32_t nanos = 0;
    int64_t local_sec = 0;
    switch (v->kind) {
    case RC_V_DATE: local_sec = rc_date_epoch_days(&v->date) * 86400; break;
    case RC_V_DATETIME:
        local_sec = rc_datetime_epoch_sec(&v->dt);
        nanos = v->dt.nanos;
        break;
    case RC_V_TIMESTAMP: nanos = v->ts.nanos; break;
    default: return false;
    }
    if (nanos % 1000000u) {
        if (!e->cuts) {
            rc_error_set(err, RC_ERR_RANGE, RC_NO_OFFSET,
                         "column \"%.*s\" (%.*s): the value's fraction of a second .%09u is finer than the milliseconds of a DataWorks DATE",
                         (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (unsigned)nanos);
            return false;
        }
        if (err) rc_cut_note(e->cuts, c, "milliseconds");
    }
    if (v->kind == RC_V_TIMESTAMP) *ms = v->ts.sec * 1000 + nanos / 1000000;
    else *ms = (local_sec - rc_tz_offset_of_local(&e->tz, local_sec)) * 1000 + nanos / 1000000;
    return true;
}

/* Every epoch value of the event fits a DATE: checked before anything is written. */
static rc_status check_dates(const dwa_enc *e, const rc_event *ev, rc_error *err)
{
    const rc_value *imgs[2] = {ev->before, ev->after};
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; imgs[k] && i < ev->ncols; i++) {
            const rc_value *v = &imgs[k][i];
            int64_t ms;
            if ((v->kind == RC_V_DATE || v->kind == RC_V_DATETIME || v->kind == RC_V_TIMESTAMP) && !epoch_ms(e, &ev->cols[i], v, &ms, err))
                return RC_SKIP;
        }
    return RC_OK;
}

static void put_value(rc_buf *b, const dwa_enc *e, const rc_column *c, const rc_value *v)
{
    int64_t ms;
    switch (v->kind) {
    case RC_V_NULL: RC_BUF_LIT(b, "null"); return;
    case RC_V_BOOL: rc_buf_puts(b, v->b ? "true" : "false"); return;
    case RC_V_INT: rc_fmt_i64(b, v->i); return;
    case RC_V_UINT:
    case RC_V_BITS: rc_fmt_u64(b, v->u); return;
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: rc_fmt_json_float(b, v); return;
    case RC_V_DATE:
    case RC_V_DATETIME:
    case RC_V_TIMESTAMP:
        if (epoch_ms(e, c, v, &ms, NULL)) rc_fmt_i64(b, ms); /* checked by check_dates */
        return;
    case RC_V_DECIMAL: /* a string with its scale, as the real messages carry DECIMAL */
    case RC_V_BYTES:   /* base64 */
    case RC_V_TIME:    /* as MySQL prints it */
        rc_buf_putc(b, '"');
        if (v->kind == RC_V_DECIMAL) rc_fmt_dec_plain(b, &v->dec);
        else if (v->kind == RC_V_BYTES) rc_fmt_base64(b, (const unsigned char *)v->s.p, v->s.n);
        else rc_fmt_time(b, &v->time);
        rc_buf_putc(b, '"');
        return;
    default: rc_jw_str(b, v->s.p, v->s.n); return;
    }
}

static void put_image(rc_buf *b, dwa_enc *e, const rc_event *ev, const rc_value *img)
{
    if (!img) {
        RC_BUF_LIT(b, "null");
        return;
    }
    RC_BUF_LIT(b, "{\"dataColumn\":{");
    bool cached = rc_enc_colkeys_for(&e->keys, ev);
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (i) rc_buf_putc(b, ',');
        rc_enc_put_colkey(b, &e->keys, ev, i, cached);
        put_value(b, e, &ev->cols[i], &img[i]);
    }
    RC_BUF_LIT(b, "}}");
}

/* schema.dataColumn's array and "primaryKey" */
static void put_schema_columns(rc_buf *b, const rc_event *ev)
{
    rc_enc_put_name_types(b, ev, rc_dwa_type);
    RC_BUF_LIT(b, ",\"primaryKey\":");
    if (rc_enc_has_pk(ev)) rc_enc_put_pk_array(b, ev);
    else RC_BUF_LIT(b, "[]");
}

/* put_schema_columns, made once for a cached column list */
static void put_schema(rc_buf *b, dwa_enc *e, const rc_event *ev)
{
    if (ev->cols_id && e->schema_of != ev->cols_id) {
        if (!e->schema.max) rc_buf_init(&e->schema, 0); /* zeroed until the first cached list */
        rc_buf_reset(&e->schema);
        put_schema_columns(&e->schema, ev);
        e->schema_of = e->schema.err == RC_OK ? ev->cols_id : NULL;
    }
    if (ev->cols_id && e->schema_of == ev->cols_id) rc_buf_put(b, e->schema.data, e->schema.len);
    else put_schema_columns(b, ev);
}

static const char *op_name(const rc_event *ev)
{
    switch (ev->op) {
    case RC_OP_INSERT:
    case RC_OP_READ: return "INSERT";
    case RC_OP_DELETE: return "DELETE";
    default: return ev->after ? "UPDATE_AFTER" : "UPDATE_BEFORE"; /* an UPDATE_BEFORE part has no after */
    }
}

static rc_status dwa_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    dwa_enc *e = p;
    if (ev->op == RC_OP_HEARTBEAT || ev->op == RC_OP_BEGIN || ev->op == RC_OP_COMMIT) return RC_SKIP; /* no message (docs page) */
    if (ev->op != RC_OP_INSERT && ev->op != RC_OP_READ && ev->op != RC_OP_UPDATE && ev->op != RC_OP_DELETE) {
        rc_enc_unsupported(err, "dataworks-aliyun", ev, "only row changes are written (the layout of DataWorks' DDL messages is not known here)");
        return RC_SKIP;
    }
    if (rc_event_refuse_unavailable(ev, "dataworks-aliyun", err) != RC_OK) return RC_SKIP;
    if (check_dates(e, ev, err) != RC_OK) return RC_SKIP;
    if (ev->op == RC_OP_DELETE && !ev->before) return rc_enc_need_before(ev, "dataworks-aliyun", "payload.before", false, err);
    RC_BUF_LIT(b, "{\"schema\":{\"dataColumn\":");
    put_schema(b, e, ev);
    RC_BUF_LIT(b, ",\"source\":{\"dbType\":\"");
    rc_buf_puts(b, rc_dwa_dbtype(ev->src.kind));
    RC_BUF_LIT(b, "\",\"dbName\":");
    rc_enc_put_str_or_null(b, ev->src.db);
    if (ev->src.schema.n) {
        RC_BUF_LIT(b, ",\"schemaName\":");
        rc_jw_str(b, ev->src.schema.p, ev->src.schema.n);
    }
    RC_BUF_LIT(b, ",\"tableName\":");
    rc_enc_put_str_or_null(b, ev->src.table);
    RC_BUF_LIT(b, "}},\"payload\":{\"before\":");
    put_image(b, e, ev, ev->op == RC_OP_INSERT || ev->op == RC_OP_READ ? NULL : ev->before);
    RC_BUF_LIT(b, ",\"after\":");
    put_image(b, e, ev, ev->op == RC_OP_DELETE ? NULL : ev->after);
    /* sequenceId, eventTime and checkpointTime are -1 when unknown (Paimon's snapshot insert) */
    RC_BUF_LIT(b, ",\"sequenceId\":\"");
    if (ev->pos.has_seq) rc_fmt_u64(b, ev->pos.seq);
    else RC_BUF_LIT(b, "-1");
    int64_t es = ev->has_ts ? rc_floor_div(ev->ts_us, 1000) : -1;
    RC_BUF_LIT(b, "\",\"timestamp\":{\"eventTime\":");
    rc_fmt_i64(b, es);
    RC_BUF_LIT(b, ",\"systemTime\":");
    rc_fmt_i64(b, ev->has_proc ? rc_floor_div(ev->proc_us, 1000) : es);
    RC_BUF_LIT(b, ",\"checkpointTime\":");
    rc_fmt_i64(b, es);
    RC_BUF_LIT(b, "},\"op\":\"");
    rc_buf_puts(b, op_name(ev));
    RC_BUF_LIT(b, "\",\"ddl\":null},\"version\":\"0.0.1\"}");
    return rc_enc_finish(b, err);
}

/* dataworks-aliyun.update=split: an UPDATE with both images is UPDATE_BEFORE (the before
 * image, after null) then UPDATE_AFTER (before null, the after image). */
static size_t dwa_split(void *p, const rc_event *ev, rc_event_part *parts, rc_arena *a)
{
    (void)a;
    const dwa_enc *e = p;
    if (!e->split || ev->op != RC_OP_UPDATE || !ev->before || !ev->after) return 0;
    memset(parts, 0, sizeof *parts * 2);
    parts[0].ev = *ev, parts[0].ev.after = NULL, parts[0].ev.changed = NULL;
    parts[1].ev = *ev, parts[1].ev.before = NULL, parts[1].ev.changed = NULL;
    return 2;
}

static void dwa_set_cut(void *p, rc_cut_log *cuts)
{
    dwa_enc *e = p;
    e->cuts = cuts;
}

const rc_format rc_format_dataworks_aliyun = {
    .name = "dataworks-aliyun",
    .summary = "DataWorks real-time sync JSON (\"aliyun\", version 0.0.1): schema {dataColumn, primaryKey, source} / payload {before, after, op}",
    .content_type = "application/json",
    .options = dwa_options,
    .enc_new = dwa_new,
    .enc_free = dwa_free,
    .encode_value = dwa_encode,
    .encode_key = rc_oms_encode_key,
    .split = dwa_split,
    .set_cut = dwa_set_cut,
    .dec_new = dwa_dec_new,
    .dec_free = rc_dwa_dec_free,
    .decode = rc_dwa_decode,
};
