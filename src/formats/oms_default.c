/* OMS "default" and "defaultextendcolumntype" (docs/formats/oms-default*.md):
 * {"prevStruct", "postStruct", "allMetaData", "recordType"}. The extended flavour adds a
 * "__light_type" object to each image. See docs/formats/oms-default.md. */
#include <stdlib.h>
#include <string.h>
#include "formats/oms_common.h"
#include "formats/oms_default_read.h"
#include "core/ddl.h"
#include "core/fmt.h"
#include "core/jsondec.h"
#include "core/jsonw.h"

typedef struct dflt_enc {
    bool light_type; /* defaultextendcolumntype */
    bool sequence;   /* write storeDataSequence */
    uint32_t seq;    /* the ≤5-digit increasing part of storeDataSequence */
    oms_style style;
    rc_buf scratch;
} dflt_enc;

typedef struct dflt_opts {
    bool sequence;
} dflt_opts;
static const rc_option_desc default_options[] = {
    {"default.sequence", RC_OPT_BOOL, NULL, "false", "write allMetaData.storeDataSequence ({timestamp}{5-digit sequence}) as OMS does with sequenceEnabled", .off = offsetof(dflt_opts, sequence)},
    {0},
};
static const rc_option_desc extend_options[] = {
    {"defaultextendcolumntype.sequence", RC_OPT_BOOL, NULL, "false", "as default.sequence", .off = offsetof(dflt_opts, sequence)},
    {0},
};

static rc_status read_options(const rc_options *o, bool light, dflt_opts *d, rc_error *err)
{
    return rc_options_parse(o, light ? "defaultextendcolumntype" : "default", light ? extend_options : default_options, d, err);
}

static rc_status enc_new(const rc_options *o, void **out, rc_error *err, bool light)
{
    dflt_opts d;
    rc_status st = read_options(o, light, &d, err);
    if (st != RC_OK) return st;
    dflt_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->light_type = light;
    rc_buf_init(&e->scratch, 0);
    e->sequence = d.sequence;
    *out = e;
    return RC_OK;
}

static rc_status default_new(const rc_options *o, void **out, rc_error *err) { return enc_new(o, out, err, false); }
static rc_status extend_new(const rc_options *o, void **out, rc_error *err) { return enc_new(o, out, err, true); }

/* The readers take the writer's options (one command line reads and writes): a bad one is an
 * error on either side. */
static rc_status dec_new(const rc_options *o, void **out, rc_error *err, bool light)
{
    dflt_opts d;
    rc_status st = read_options(o, light, &d, err);
    return st != RC_OK ? st : rc_jsondec_new(sizeof(rc_jsondec), out, err);
}
static rc_status default_dec_new(const rc_options *o, void **out, rc_error *err) { return dec_new(o, out, err, false); }
static rc_status extend_dec_new(const rc_options *o, void **out, rc_error *err) { return dec_new(o, out, err, true); }

static void enc_free(void *p)
{
    dflt_enc *e = p;
    if (!e) return;
    rc_buf_fini(&e->scratch);
    free(e);
}

static void put_image(rc_buf *b, const rc_event *ev, const rc_value *img, const dflt_enc *e)
{
    if (!img) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_buf_putc(b, '{');
    rc_oms_put_row_members(b, ev, img, NULL, &e->style);
    if (e->light_type) {
        RC_BUF_LIT(b, ",\"__light_type\":{");
        for (uint32_t i = 0; i < ev->ncols; i++) {
            if (i) rc_buf_putc(b, ',');
            rc_jw_str(b, ev->cols[i].name.p, ev->cols[i].name.n);
            RC_BUF_LIT(b, ":{\"schemaType\":\"");
            rc_buf_puts(b, ev->cols[i].type.info->light_type);
            RC_BUF_LIT(b, "\"}");
        }
        rc_buf_putc(b, '}');
    }
    rc_buf_putc(b, '}');
}

static void put_ddl_image(rc_buf *b, const rc_event *ev, const dflt_enc *e)
{
    RC_BUF_LIT(b, "{\"ddl\":");
    rc_enc_put_ddl_text(b, ev);
    if (e->light_type) RC_BUF_LIT(b, ",\"__light_type\":{\"ddl\":{\"schemaType\":\"VAR_STRING\"}}");
    rc_buf_putc(b, '}');
}

static void put_seconds_string(rc_buf *b, const rc_event *ev)
{
    if (!ev->has_ts) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_buf_putc(b, '"');
    rc_fmt_i64(b, rc_floor_div(rc_enc_es_ms(ev), 1000));
    rc_buf_putc(b, '"');
}

static rc_status encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    dflt_enc *e = p;
    const char *fmt = e->light_type ? "defaultextendcolumntype" : "default";
    if (rc_event_refuse_unavailable(ev, fmt, err) != RC_OK) return RC_SKIP;
    const char *type;
    bool ddl = false, hb = false;
    switch (ev->op) {
    case RC_OP_INSERT:
    case RC_OP_READ: type = "INSERT"; break;
    case RC_OP_UPDATE:
    case RC_OP_DELETE: {
        rc_status st = rc_enc_need_before(ev, fmt, "prevStruct", false, err);
        if (st != RC_OK) return st;
        type = ev->op == RC_OP_UPDATE ? "UPDATE" : "DELETE";
        break;
    }
    case RC_OP_DDL:
    case RC_OP_TRUNCATE:
        if (ev->op == RC_OP_DDL && !ev->ddl.n) return rc_enc_unsupported(err, fmt, ev, "a DDL record needs the statement text");
        type = "DDL", ddl = true;
        break;
    case RC_OP_HEARTBEAT: type = "HEARTBEAT", hb = true; break;
    default: return RC_SKIP; /* begin / commit: no message (docs/formats/: each page's "no message" list) */
    }
    bool row = !ddl && !hb;
    RC_BUF_LIT(b, "{\"prevStruct\":");
    put_image(b, ev, row && ev->op == RC_OP_UPDATE ? ev->before : row && ev->op == RC_OP_DELETE ? ev->before : NULL, e);
    RC_BUF_LIT(b, ",\"postStruct\":");
    if (ddl) put_ddl_image(b, ev, e);
    else put_image(b, ev, row && ev->op != RC_OP_DELETE ? ev->after : NULL, e);

    RC_BUF_LIT(b, ",\"allMetaData\":{\"checkpoint\":");
    rc_enc_put_str_or_null(b, ev->pos.checkpoint);
    RC_BUF_LIT(b, ",\"record_primary_key\":");
    if (row) rc_oms_put_pk_names(b, ev, "\x01");
    else RC_BUF_LIT(b, "null");
    RC_BUF_LIT(b, ",\"record_primary_value\":");
    if (row) rc_oms_put_pk_values(b, &e->scratch, ev, rc_enc_row(ev), "\x01", &e->style);
    else RC_BUF_LIT(b, "null");
    RC_BUF_LIT(b, ",\"source_identity\":null,\"dbType\":\"");
    rc_buf_puts(b, rc_oms_dbtype(ev->src.kind, false));
    rc_buf_putc(b, '"');
    if (e->sequence || ddl) {
        RC_BUF_LIT(b, ",\"storeDataSequence\":");
        if (e->sequence && ev->has_ts) {
            /* {timestamp in seconds}{increasing sequence, 5 digits} */
            int64_t sec = rc_enc_es_ms(ev) / 1000;
            rc_fmt_i64(b, sec);
            char d[6];
            uint32_t s = e->seq++ % 100000;
            for (int i = 4; i >= 0; i--, s /= 10) d[i] = (char)('0' + s % 10);
            rc_buf_put(b, d, 5);
        } else {
            RC_BUF_LIT(b, "null");
        }
    }
    RC_BUF_LIT(b, ",\"table_name\":");
    rc_enc_put_str_or_null(b, ev->src.table);
    RC_BUF_LIT(b, ",\"db\":");
    rc_oms_put_db(b, ev, true);
    RC_BUF_LIT(b, ",\"timestamp\":");
    put_seconds_string(b, ev);
    if (ev->pos.has_seq || ddl) {
        RC_BUF_LIT(b, ",\"uniqueId\":");
        if (ev->pos.has_seq) {
            rc_buf_putc(b, '"');
            rc_fmt_u64(b, ev->pos.seq);
            rc_buf_putc(b, '"');
        } else {
            RC_BUF_LIT(b, "null");
        }
    }
    if (ddl) {
        RC_BUF_LIT(b, ",\"ddlType\":\"");
        rc_buf_puts(b, rc_ddl_class_name(rc_ddl_classify(ev)));
        rc_buf_putc(b, '"');
    }
    RC_BUF_LIT(b, "},\"recordType\":\"");
    rc_buf_puts(b, type);
    RC_BUF_LIT(b, "\"}");
    return rc_enc_finish(b, err);
}

const rc_format rc_format_default = {
    .name = "default",
    .summary = "OMS default JSON: prevStruct / postStruct / allMetaData / recordType",
    .content_type = "application/json",
    .options = default_options,
    .enc_new = default_new,
    .enc_free = enc_free,
    .encode_value = encode,
    .encode_key = rc_oms_encode_key,
    .dec_new = default_dec_new,
    .dec_free = rc_jsondec_free,
    .decode = rc_dflt_decode,
};

const rc_format rc_format_defaultextendcolumntype = {
    .name = "defaultextendcolumntype",
    .summary = "OMS default JSON plus __light_type column types",
    .content_type = "application/json",
    .options = extend_options,
    .enc_new = extend_new,
    .enc_free = enc_free,
    .encode_value = encode,
    .encode_key = rc_oms_encode_key,
    .dec_new = extend_dec_new,
    .dec_free = rc_jsondec_free,
    .decode = rc_dflt_decode,
};
