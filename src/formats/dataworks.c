/* OMS "dataworks" (DataWorks 2.0; docs/formats/oms-dataworks.md): {version, schema, payload,
 * extend}. DECIMAL is written plain (toPlainString). See docs/formats/oms-dataworks.md. */
#include <stdlib.h>
#include <string.h>
#include "formats/dataworks_read.h"
#include "formats/oms_common.h"
#include "core/ddl.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsondec.h"
#include "core/jsonw.h"

typedef struct dw_enc {
    oms_style style;
    char *extend; /* the "extend" object as given, validated */
    size_t extend_n;
} dw_enc;

/* dataworks.extend: a JSON object, kept as given (it is written as it is) */
static rc_status parse_extend(const char *key, const char *ext, void *field, rc_error *err)
{
    rc_arena a;
    rc_arena_init(&a);
    rc_json j;
    rc_json_init(&j, &a);
    rc_error jerr;
    rc_error_clear(&jerr);
    rc_status st = rc_json_parse(&j, ext, strlen(ext), &jerr);
    bool obj = st == RC_OK && j.nodes[0].type == RC_J_OBJECT;
    rc_json_fini(&j);
    rc_arena_fini(&a);
    if (!obj)
        return st != RC_OK ? rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s must be a JSON object: at byte %zu of its value: %s", key,
                                          (size_t)jerr.offset, jerr.message)
                           : rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s must be a JSON object", key);
    *(const char **)field = ext;
    return RC_OK;
}

static const rc_option_desc dw_options[] = {
    {"dataworks.extend", RC_OPT_FUNC, "JSON object", "{}", "the free-form \"extend\" object written in every message", .parse = parse_extend},
    {0},
};

static rc_status dw_new(const rc_options *o, void **out, rc_error *err)
{
    const char *ext; /* the options struct: dataworks.extend alone */
    rc_status st = rc_options_parse(o, "dataworks", dw_options, &ext, err);
    if (st != RC_OK) return st;
    dw_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->style.decimal_plain = true;
    e->extend_n = strlen(ext);
    e->extend = malloc(e->extend_n + 1);
    if (!e->extend) {
        free(e);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    memcpy(e->extend, ext, e->extend_n + 1);
    *out = e;
    return RC_OK;
}

/* The reader takes the writer's options (one command line reads and writes): a bad one is an
 * error on either side. */
static rc_status dw_dec_new(const rc_options *o, void **out, rc_error *err)
{
    const char *ext;
    rc_status st = rc_options_parse(o, "dataworks", dw_options, &ext, err);
    return st != RC_OK ? st : rc_jsondec_new(sizeof(rc_jsondec), out, err);
}

static void dw_free(void *p)
{
    dw_enc *e = p;
    if (!e) return;
    free(e->extend);
    free(e);
}

static const char *dw_op(const rc_event *ev)
{
    static const char *const ddl[RC_DDL_CLASS_COUNT] = {
        [RC_DDL_OTHER] = "QUERY",         [RC_DDL_CREATE_TABLE] = "CREATE", [RC_DDL_ALTER_TABLE] = "ALTER",
        [RC_DDL_DROP_TABLE] = "ERASE",    [RC_DDL_TRUNCATE] = "TRUNCATE",   [RC_DDL_RENAME_TABLE] = "RENAME",
        [RC_DDL_CREATE_INDEX] = "CINDEX", [RC_DDL_DROP_INDEX] = "DINDEX",   [RC_DDL_CREATE_DATABASE] = "QUERY",
        [RC_DDL_DROP_DATABASE] = "QUERY",
    };
    switch (ev->op) {
    case RC_OP_INSERT:
    case RC_OP_READ: return "INSERT";
    case RC_OP_UPDATE: return "UPDATE";
    case RC_OP_DELETE: return "DELETE";
    case RC_OP_HEARTBEAT: return "HEARTBEAT";
    case RC_OP_BEGIN: return "TRANSACTION_BEGIN";
    case RC_OP_COMMIT: return "TRANSACTION_END";
    default: return ddl[rc_ddl_classify(ev)];
    }
}

static void put_image(rc_buf *b, const rc_event *ev, const rc_value *img, const oms_style *st)
{
    if (!img) {
        RC_BUF_LIT(b, "null");
        return;
    }
    RC_BUF_LIT(b, "{\"data\":");
    rc_oms_put_row(b, ev, img, NULL, st);
    rc_buf_putc(b, '}');
}

/* checkpointTime: the source's checkpoint in seconds, or the change time. */
static const char *dw_type(const rc_coltype *t) { return t->info->dataworks; }

static int64_t checkpoint_seconds(const rc_event *ev)
{
    int64_t v;
    if (ev->pos.checkpoint.n && rc_parse_i64(ev->pos.checkpoint.p, ev->pos.checkpoint.n, &v) == RC_OK) return v;
    int64_t ms = rc_enc_es_ms(ev);
    return rc_floor_div(ms, 1000);
}

static rc_status dw_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    dw_enc *e = p;
    if (rc_event_refuse_unavailable(ev, "dataworks", err) != RC_OK) return RC_SKIP;
    const char *op = dw_op(ev);
    if (ev->op == RC_OP_HEARTBEAT || ev->op == RC_OP_BEGIN || ev->op == RC_OP_COMMIT) {
        /* the short form of the OMS documentation's heartbeat message */
        RC_BUF_LIT(b, "{\"version\":\"2.0\",\"payload\":{\"timestamp\":{\"eventTime\":");
        rc_fmt_i64(b, rc_enc_es_ms(ev));
        RC_BUF_LIT(b, "},\"op\":\"");
        rc_buf_puts(b, op);
        RC_BUF_LIT(b, "\"}}");
        goto done;
    }
    bool ddl = ev->op == RC_OP_DDL || ev->op == RC_OP_TRUNCATE;
    rc_status need = rc_enc_need_before(ev, "dataworks", "payload.before", false, err);
    if (need != RC_OK) return need;
    if (ev->op == RC_OP_DDL && !ev->ddl.n) return rc_enc_unsupported(err, "dataworks", ev, "a DDL message needs the statement text");

    RC_BUF_LIT(b, "{\"version\":\"2.0\",\"schema\":{\"source\":{\"dbType\":\"");
    rc_buf_puts(b, rc_oms_dbtype(ev->src.kind, true));
    RC_BUF_LIT(b, "\",\"dbVersion\":");
    rc_enc_put_str_or_null(b, ev->src.version);
    RC_BUF_LIT(b, ",\"dbName\":");
    rc_enc_put_str_or_null(b, ev->src.db);
    RC_BUF_LIT(b, ",\"schema\":");
    rc_enc_put_str_or_null(b, ev->src.schema);
    RC_BUF_LIT(b, ",\"table\":");
    rc_enc_put_str_or_null(b, ev->src.table);
    RC_BUF_LIT(b, "},\"column\":");
    if (ddl) {
        RC_BUF_LIT(b, "null,\"pk\":null");
    } else {
        rc_enc_put_name_types(b, ev, dw_type);
        RC_BUF_LIT(b, ",\"pk\":");
        rc_enc_put_pk_array(b, ev);
    }
    RC_BUF_LIT(b, "},\"payload\":{\"before\":");
    put_image(b, ev, ddl || ev->op == RC_OP_INSERT || ev->op == RC_OP_READ ? NULL : ev->before, &e->style);
    RC_BUF_LIT(b, ",\"after\":");
    put_image(b, ev, ddl || ev->op == RC_OP_DELETE ? NULL : ev->after, &e->style);
    RC_BUF_LIT(b, ",\"op\":\"");
    rc_buf_puts(b, op);
    RC_BUF_LIT(b, "\",\"timestamp\":{\"eventTime\":");
    rc_fmt_i64(b, rc_enc_es_ms(ev));
    RC_BUF_LIT(b, ",\"systemTime\":");
    rc_fmt_i64(b, rc_enc_ts_ms(ev));
    RC_BUF_LIT(b, ",\"checkpointTime\":");
    rc_fmt_i64(b, checkpoint_seconds(ev));
    RC_BUF_LIT(b, "},\"ddl\":");
    if (ddl) {
        RC_BUF_LIT(b, "{\"text\":");
        rc_enc_put_ddl_text(b, ev);
        rc_buf_putc(b, '}');
    } else {
        RC_BUF_LIT(b, "null");
    }
    /* the seed writes an absent SCN as the string "null" */
    RC_BUF_LIT(b, ",\"scn\":");
    if (ev->pos.scn.n) rc_jw_str(b, ev->pos.scn.p, ev->pos.scn.n);
    else RC_BUF_LIT(b, "\"null\"");
    RC_BUF_LIT(b, "},\"extend\":");
    rc_buf_put(b, e->extend, e->extend_n);
    rc_buf_putc(b, '}');
done:
    return rc_enc_finish(b, err);
}

const rc_format rc_format_dataworks = {
    .name = "dataworks",
    .summary = "OMS DataWorks 2.0 JSON: schema / payload {before, after, op, timestamp, ddl, scn} / extend",
    .content_type = "application/json",
    .options = dw_options,
    .enc_new = dw_new,
    .enc_free = dw_free,
    .encode_value = dw_encode,
    .encode_key = rc_oms_encode_key,
    .dec_new = dw_dec_new,
    .dec_free = rc_jsondec_free,
    .decode = rc_dw_decode,
};
