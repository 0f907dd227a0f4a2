/* OMS "debezium", "debeziumflatten" and "debeziumsmt" (the names oms-debezium,
 * oms-debeziumflatten, oms-debeziumsmt; docs/formats/debezium.md), and the `debezium` format,
 * whose default flavour is upstream Debezium's (debezium_upstream.h).
 *
 * OMS's debezium: {"payload": {...}} or, with debezium.schemas=true, {"schema": ..., "payload": ...}
 * where the Kafka Connect schema is generated from the column types and cached per table.
 * debeziumflatten: the payload object alone. debeziumsmt: the row image plus "__deleted".
 * Values follow the OMS debezium mapping: DATE as epoch days, TIME as µs, DATETIME as ms,
 * TIMESTAMP as ISO UTC, DECIMAL as a string, binary as upper-case hex, BIGINT UNSIGNED as a
 * string. See docs/formats/debezium.md. */
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_read.h"
#include "formats/debezium_upstream.h"
#include "formats/oms_common.h"
#include "core/bson.h"
#include "core/fmt.h"
#include "core/hash.h"
#include "core/jsonw.h"

enum { DBZ_ENVELOPE, DBZ_FLATTEN, DBZ_SMT };
enum { SCHEMA_SLOTS = 256 };

typedef struct schema_slot {
    uint64_t hash;
    char *sig;   /* the signature the schema was built from */
    size_t sig_n;
    char *text;  /* rendered "schema" value */
    size_t text_n;
} schema_slot;

typedef struct dbz_enc {
    int kind;
    bool schemas;
    rc_cut_log *cuts; /* --on-loss=cut (check_units); NULL: refuse */
    rc_buf sig;     /* signature of the current event's table */
    rc_buf scratch;
    schema_slot slots[SCHEMA_SLOTS];
} dbz_enc;

static const rc_option_desc none_options[] = {{0}};

/* The OMS encoder of that kind; `schemas`: debezium.schemas (DBZ_ENVELOPE, whose options the
 * caller read). */
static rc_status new_kind(const rc_options *o, void **out, rc_error *err, int kind, bool schemas)
{
    static const char *const prefix[] = {"debezium", "debeziumflatten", "debeziumsmt"};
    rc_status st = kind == DBZ_ENVELOPE ? RC_OK : rc_options_check(o, prefix[kind], none_options, err);
    if (st != RC_OK) return st;
    dbz_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->kind = kind;
    e->schemas = schemas;
    rc_buf_init(&e->sig, 0);
    rc_buf_init(&e->scratch, 0);
    *out = e;
    return RC_OK;
}

/* The `debezium` format holds either flavour's encoder. */
typedef struct dbz_any {
    bool upstream;
    void *impl;
} dbz_any;

static rc_status dbz_new(const rc_options *o, void **out, rc_error *err)
{
    rc_dbz_opts opt;
    rc_status st = rc_dbz_opts_parse(o, &opt, err);
    if (st != RC_OK) return st;
    if (!opt.flavor) /* the upstream-only options make no sense for OMS; the server name is still the topic prefix */
        for (const rc_option_desc *d = rc_dbz_up_options; d->key; d++)
            if (rc_options_get(o, d->key) && strcmp(d->key, "debezium.server"))
                return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s is upstream Debezium's (--to debezium), not OMS's", d->key);
    dbz_any *a = calloc(1, sizeof *a);
    if (!a) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    a->upstream = opt.flavor == 1;
    st = a->upstream ? rc_dbz_up_open(&opt, &a->impl, err) : new_kind(o, &a->impl, err, DBZ_ENVELOPE, opt.schemas);
    if (st != RC_OK) {
        free(a);
        return st;
    }
    *out = a;
    return RC_OK;
}
static rc_status flatten_new(const rc_options *o, void **out, rc_error *err) { return new_kind(o, out, err, DBZ_FLATTEN, false); }
static rc_status smt_new(const rc_options *o, void **out, rc_error *err) { return new_kind(o, out, err, DBZ_SMT, false); }

static void dbz_free(void *p);

static void dbz_any_free(void *p)
{
    dbz_any *a = p;
    if (!a) return;
    if (a->upstream) rc_dbz_up_free(a->impl);
    else dbz_free(a->impl);
    free(a);
}

static void dbz_free(void *p)
{
    dbz_enc *e = p;
    if (!e) return;
    for (int i = 0; i < SCHEMA_SLOTS; i++) free(e->slots[i].sig), free(e->slots[i].text);
    rc_buf_fini(&e->sig);
    rc_buf_fini(&e->scratch);
    free(e);
}

/* One value in the OMS debezium mapping (docs/formats/debezium.md). */
static void dbz_value(rc_buf *b, const rc_column *col, const rc_value *v)
{
    switch (v->kind) {
    case RC_V_NULL: RC_BUF_LIT(b, "null"); return;
    case RC_V_BOOL: rc_buf_puts(b, v->b ? "true" : "false"); return;
    case RC_V_INT: rc_fmt_i64(b, v->i); return;
    case RC_V_UINT: /* BIGINT UNSIGNED: a string with the full value */
        rc_buf_putc(b, '"');
        rc_fmt_u64(b, v->u);
        rc_buf_putc(b, '"');
        return;
    case RC_V_DECIMAL:
        rc_buf_putc(b, '"');
        rc_fmt_dec_plain(b, &v->dec);
        rc_buf_putc(b, '"');
        return;
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: rc_fmt_json_float(b, v); return;
    case RC_V_BYTES:
        rc_buf_putc(b, '"');
        rc_fmt_hex(b, (const unsigned char *)v->s.p, v->s.n, true);
        rc_buf_putc(b, '"');
        return;
    case RC_V_BITS: {
        unsigned char by[8];
        size_t nb = rc_bits_bytes(col->type.p1, v->u, by);
        rc_buf_putc(b, '"');
        rc_fmt_hex(b, by, nb, true);
        rc_buf_putc(b, '"');
        return;
    }
    case RC_V_DATE: rc_fmt_i64(b, rc_date_epoch_days(&v->date)); return;
    case RC_V_TIME: rc_fmt_i64(b, rc_time_micros(&v->time)); return;
    case RC_V_DATETIME: rc_fmt_i64(b, rc_datetime_epoch_ms(&v->dt)); return;
    case RC_V_TIMESTAMP:
        rc_buf_putc(b, '"');
        rc_fmt_ts_iso(b, &v->ts);
        rc_buf_putc(b, '"');
        return;
    case RC_V_INVALID:
        /* a zero date or time: null where the column allows it, else the epoch, as
         * Debezium does; text columns keep the text */
        if (col->type.info->vclass >= RC_VC_DATE) {
            if (col->nullable) RC_BUF_LIT(b, "null");
            else if (col->type.info->vclass == RC_VC_TIMESTAMP) RC_BUF_LIT(b, "\"1970-01-01T00:00:00Z\"");
            else rc_buf_putc(b, '0');
            return;
        }
        rc_jw_str(b, v->s.p, v->s.n);
        return;
    default: rc_jw_str(b, v->s.p, v->s.n); return;
    }
}

/* OMS writes DATETIME as epoch milliseconds and TIME as microseconds: an event with a value
 * those would cut is not expressible (RC_SKIP with the reason), unless --on-loss=cut asked for
 * what OMS writes (e->cuts: the finer digits cut off, noted there). */
static rc_status check_units(const dbz_enc *e, const rc_event *ev, rc_error *err)
{
    /* what keeps the value: upstream Debezium's microseconds (the format debezium), or OMS's
     * own cut */
    static const char keep[] = "--to debezium (upstream Debezium) writes datetime(4-6) in microseconds, --on-loss=cut OMS's milliseconds";
    const rc_value *imgs[2] = {ev->before, ev->after};
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; imgs[k] && i < ev->ncols; i++) {
            const rc_value *v = &imgs[k][i];
            rc_status st = RC_OK;
            if (v->kind == RC_V_DATETIME)
                st = rc_dbz_fits_unit(&ev->cols[i], v->dt.nanos, v->dt.zone, true, keep, e->cuts, err);
            else if (v->kind == RC_V_TIME)
                st = rc_dbz_fits_unit(&ev->cols[i], v->time.nanos, (rc_str){0}, false, "--on-loss=cut writes OMS's microseconds", e->cuts, err);
            if (st != RC_OK) return st;
        }
    return RC_OK;
}

static void put_image(rc_buf *b, const rc_event *ev, const rc_value *img)
{
    rc_buf_putc(b, '{');
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (i) rc_buf_putc(b, ',');
        rc_jw_str(b, ev->cols[i].name.p, ev->cols[i].name.n);
        rc_buf_putc(b, ':');
        dbz_value(b, &ev->cols[i], &img[i]);
    }
}

/* "<offset>@<file or checkpoint>" */
static void put_pos(rc_buf *b, const rc_event *ev)
{
    rc_buf_putc(b, '"');
    if (ev->pos.has_offset) rc_fmt_u64(b, ev->pos.offset);
    rc_buf_putc(b, '@');
    rc_str where = ev->pos.file.n ? ev->pos.file : ev->pos.checkpoint;
    rc_jw_str_body(b, where.p, where.n);
    rc_buf_putc(b, '"');
}

static void put_payload(rc_buf *b, const rc_event *ev, const char *op)
{
    RC_BUF_LIT(b, "{\"op\":\"");
    rc_buf_puts(b, op);
    rc_buf_putc(b, '"');
    if (ev->before && (ev->op == RC_OP_UPDATE || ev->op == RC_OP_DELETE)) {
        RC_BUF_LIT(b, ",\"before\":");
        put_image(b, ev, ev->before);
        rc_buf_putc(b, '}');
    }
    RC_BUF_LIT(b, ",\"source\":{\"connector\":\"");
    rc_buf_puts(b, rc_oms_dbtype(ev->src.kind, false));
    RC_BUF_LIT(b, "\",\"pos\":");
    put_pos(b, ev);
    RC_BUF_LIT(b, ",\"name\":\"OMS\",\"version\":\"\",\"ts_ms\":");
    rc_fmt_i64(b, rc_enc_es_ms(ev));
    RC_BUF_LIT(b, ",\"db\":");
    rc_enc_put_str_or_null(b, ev->src.db);
    RC_BUF_LIT(b, ",\"table\":");
    rc_enc_put_str_or_null(b, ev->src.table);
    rc_buf_putc(b, '}');
    if (ev->after && ev->op != RC_OP_DELETE && ev->op != RC_OP_HEARTBEAT) {
        RC_BUF_LIT(b, ",\"after\":");
        put_image(b, ev, ev->after);
        rc_buf_putc(b, '}');
    }
    RC_BUF_LIT(b, ",\"ts_ms\":");
    rc_fmt_i64(b, rc_enc_ts_ms(ev));
    rc_buf_putc(b, '}');
}

/* ---- schemas ---- */

static void field_schema(rc_buf *b, const char *name, size_t n, bool optional, const char *type)
{
    RC_BUF_LIT(b, "{\"field\":");
    rc_jw_str(b, name, n);
    RC_BUF_LIT(b, ",\"optional\":");
    rc_buf_puts(b, optional ? "true" : "false");
    RC_BUF_LIT(b, ",\"type\":\"");
    rc_buf_puts(b, type);
    RC_BUF_LIT(b, "\"}");
}

static void image_schema(rc_buf *b, const char *which, const rc_event *ev)
{
    RC_BUF_LIT(b, "{\"field\":\"");
    rc_buf_puts(b, which);
    RC_BUF_LIT(b, "\",\"optional\":false,\"type\":\"struct\",\"fields\":[");
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (i) rc_buf_putc(b, ',');
        field_schema(b, ev->cols[i].name.p, ev->cols[i].name.n, ev->cols[i].nullable, ev->cols[i].type.info->connect);
    }
    RC_BUF_LIT(b, "]}");
}

static void build_schema(rc_buf *b, const rc_event *ev)
{
    static const char *const src[][2] = {{"version", "string"}, {"connector", "string"}, {"name", "string"}, {"ts_ms", "int64"},
                                        {"db", "string"},      {"table", "string"},     {"server_id", "int64"}, {"pos", "string"}};
    RC_BUF_LIT(b, "{\"optional\":false,\"type\":\"STRUCT\",\"fields\":[");
    /* a heartbeat's payload has no images: its schema has no before and after, which a
     * consumer would otherwise require (they are not optional) */
    if (ev->op != RC_OP_HEARTBEAT) {
        image_schema(b, "before", ev);
        rc_buf_putc(b, ',');
        image_schema(b, "after", ev);
        rc_buf_putc(b, ',');
    }
    RC_BUF_LIT(b, "{\"field\":\"source\",\"optional\":false,\"type\":\"struct\",\"fields\":[");
    for (size_t i = 0; i < sizeof src / sizeof *src; i++) {
        if (i) rc_buf_putc(b, ',');
        /* a heartbeat names no table: its db and table are null */
        bool nul = ev->op == RC_OP_HEARTBEAT && (!strcmp(src[i][0], "db") || !strcmp(src[i][0], "table"));
        field_schema(b, src[i][0], strlen(src[i][0]), nul, src[i][1]);
    }
    RC_BUF_LIT(b, "]},{\"field\":\"op\",\"optional\":false,\"type\":\"string\"},{\"field\":\"ts_ms\",\"optional\":false,\"type\":\"int64\"}]}");
}

/* The table's schema text, built once per distinct (columns, types, nullability). */
static rc_status schema_for(dbz_enc *e, const rc_event *ev, const char **text, size_t *n, rc_error *err)
{
    rc_buf *s = &e->sig;
    rc_buf_reset(s);
    rc_buf_putc(s, ev->op == RC_OP_HEARTBEAT ? 'H' : 'R'); /* the heartbeat's schema is another */
    for (uint32_t i = 0; i < ev->ncols; i++) {
        rc_buf_put(s, ev->cols[i].name.p, ev->cols[i].name.n);
        rc_buf_putc(s, '\0');
        rc_buf_puts(s, ev->cols[i].type.info->connect);
        rc_buf_putc(s, ev->cols[i].nullable ? '?' : '!');
    }
    if (s->err != RC_OK) return rc_error_set(err, s->err, RC_NO_OFFSET, "out of memory");
    uint64_t h = rc_hash64(s->data, s->len, 0);
    schema_slot *sl = &e->slots[h % SCHEMA_SLOTS];
    if (!(sl->text && sl->hash == h && sl->sig_n == s->len && !memcmp(sl->sig, s->data, s->len))) {
        rc_buf_reset(&e->scratch);
        build_schema(&e->scratch, ev);
        char *sig = malloc(s->len + 1), *txt = malloc(e->scratch.len + 1);
        if (!sig || !txt || e->scratch.err != RC_OK) {
            free(sig), free(txt);
            return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        }
        memcpy(sig, s->data, s->len);
        memcpy(txt, e->scratch.data, e->scratch.len);
        free(sl->sig), free(sl->text);
        *sl = (schema_slot){h, sig, s->len, txt, e->scratch.len};
    }
    *text = sl->text;
    *n = sl->text_n;
    return RC_OK;
}

static rc_status dbz_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    dbz_enc *e = p;
    static const char *const names[] = {"debezium", "debeziumflatten", "debeziumsmt"};
    static const char *const oms_names[] = {"oms-debezium", "oms-debeziumflatten", "oms-debeziumsmt"};
    if (ev->doc) return rc_doc_refuse(oms_names[e->kind], err); /* OMS's flavours: rows only (upstream's writes documents) */
    if (rc_event_refuse_unavailable(ev, names[e->kind], err) != RC_OK) return RC_SKIP;
    const char *op;
    switch (ev->op) {
    case RC_OP_INSERT:
    case RC_OP_READ: op = "c"; break;
    case RC_OP_UPDATE: op = "u"; break;
    case RC_OP_DELETE: op = "d"; break;
    case RC_OP_HEARTBEAT: op = "HEARTBEAT"; break;
    default: return RC_SKIP; /* DDL, truncate, begin, commit: no message (docs/formats/: each page's "no message" list) */
    }
    rc_status need = rc_enc_need_before(ev, names[e->kind], e->kind == DBZ_SMT ? "the row of the delete" : "before", false, err);
    if (need != RC_OK && !(e->kind == DBZ_SMT && ev->op == RC_OP_UPDATE)) return need;
    rc_error_clear(err);
    if ((need = check_units(e, ev, err)) != RC_OK) return need;
    if (e->kind == DBZ_SMT) {
        if (ev->op == RC_OP_HEARTBEAT) return RC_SKIP;
        put_image(b, ev, rc_enc_row(ev));
        RC_BUF_LIT(b, ",\"__deleted\":\"");
        rc_buf_puts(b, ev->op == RC_OP_DELETE ? "true" : "false");
        RC_BUF_LIT(b, "\"}");
    } else if (e->kind == DBZ_FLATTEN) {
        put_payload(b, ev, op);
    } else {
        rc_buf_putc(b, '{');
        if (e->schemas && (ev->ncols || ev->op == RC_OP_HEARTBEAT)) {
            const char *text = NULL;
            size_t n = 0;
            rc_status st = schema_for(e, ev, &text, &n, err);
            if (st != RC_OK) return st;
            RC_BUF_LIT(b, "\"schema\":");
            rc_buf_put(b, text, n);
            rc_buf_putc(b, ',');
        }
        RC_BUF_LIT(b, "\"payload\":");
        put_payload(b, ev, op);
        rc_buf_putc(b, '}');
    }
    return rc_enc_finish(b, err);
}

static rc_status dbz_any_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    dbz_any *a = p;
    return a->upstream ? rc_dbz_up_encode(a->impl, ev, b, err) : dbz_encode(a->impl, ev, b, err);
}

static bool dbz_any_tombstone(void *p, const rc_event *ev)
{
    dbz_any *a = p;
    return a->upstream && rc_dbz_up_tombstone(a->impl, ev);
}

static size_t dbz_any_split(void *p, const rc_event *ev, rc_event_part *parts, rc_arena *arena)
{
    dbz_any *a = p;
    return a->upstream ? rc_dbz_up_split(a->impl, ev, parts, arena) : 0;
}

static rc_status dbz_any_route(void *p, const rc_event *ev, rc_buf *topic, int32_t *partition)
{
    dbz_any *a = p;
    return a->upstream ? rc_dbz_hb_route(a->impl, ev, topic, partition) : RC_SKIP;
}

static void dbz_any_set_topics(void *p, const char *tmpl)
{
    dbz_any *a = p;
    if (a->upstream) rc_dbz_up_set_topics(a->impl, tmpl);
}

static void dbz_set_cut(void *p, rc_cut_log *cuts)
{
    dbz_enc *e = p;
    e->cuts = cuts;
}

static void dbz_any_set_cut(void *p, rc_cut_log *cuts)
{
    dbz_any *a = p;
    if (a->upstream) rc_dbz_up_set_cut(a->impl, cuts);
    else dbz_set_cut(a->impl, cuts);
}

static rc_status dbz_any_key(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    dbz_any *a = p;
    return a->upstream ? rc_dbz_up_key(a->impl, ev, b, err) : rc_oms_encode_key(a->impl, ev, b, err);
}

const rc_format rc_format_debezium = {
    .name = "debezium",
    .summary = "Debezium's envelope, keys and Kafka Connect schemas as Debezium 0.10-3.x write them",
    .content_type = "application/json",
    .options = rc_dbz_all_options,
    .enc_new = dbz_new,
    .enc_free = dbz_any_free,
    .encode_value = dbz_any_encode,
    .encode_key = dbz_any_key,
    .tombstone = dbz_any_tombstone,
    .split = dbz_any_split,
    .route = dbz_any_route,
    .set_topics = dbz_any_set_topics,
    .set_cut = dbz_any_set_cut,
    .dec_new = rc_dbz_dec_new,
    .dec_free = rc_dbz_dec_free,
    .decode = rc_dbz_decode,
    .decode_record = rc_dbz_decode_record,
};

const rc_format rc_format_debeziumflatten = {
    .name = "debeziumflatten",
    .summary = "OMS debezium payload object without wrapper or schema",
    .content_type = "application/json",
    .options = none_options,
    .enc_new = flatten_new,
    .enc_free = dbz_free,
    .encode_value = dbz_encode,
    .encode_key = rc_oms_encode_key,
    .set_cut = dbz_set_cut,
    .dec_new = rc_dbz_flatten_dec_new,
    .dec_free = rc_dbz_dec_free,
    .decode = rc_dbz_decode,
};

const rc_format rc_format_debeziumsmt = {
    .name = "debeziumsmt",
    .summary = "OMS debezium with ExtractNewRecordState: the row plus \"__deleted\"",
    .content_type = "application/json",
    .options = none_options,
    .enc_new = smt_new,
    .enc_free = dbz_free,
    .encode_value = dbz_encode,
    .encode_key = rc_oms_encode_key,
    .set_cut = dbz_set_cut,
};
