/* "avro-json": the JSON view of the DTS Avro Record, laid out as the OMS manual shows it, for
 * people to read. It carries exactly what the binary `avro` format carries (both use dts_common).
 * Bytes appear as {"bytes": "..."} with each byte as the code point U+0000..U+00FF (the Avro
 * JSON encoding of bytes). See docs/formats/oms-avro.md. */
#include <stdlib.h>
#include <string.h>
#include "formats/dts_common.h"
#include "formats/oms_common.h"
#include "core/fmt.h"
#include "core/jsonw.h"

typedef struct aj_enc {
    uint64_t seq;
    rc_buf scratch, pos, text;
} aj_enc;

static const rc_option_desc aj_options[] = {{0}};

static const char *const op_names[] = {"INSERT", "UPDATE", "DELETE", "DDL", "BEGIN", "COMMIT", "ROLLBACK", "ABORT", "HEARTBEAT",
                                       "CHECKPOINT", "COMMAND", "FILL", "FINISH", "CONTROL", "RDB", "NOOP", "INIT"};
static const char *const source_types[] = {"MySQL", "Oracle", "SQLServer", "PostgreSQL", "MongoDB", "Redis", "DB2",
                                           "PPAS", "DRDS", "HBASE", "HDFS", "FILE", "OTHER"};
static const char *const dt_names[DTS_DT_N] = {"year", "month", "day", "hour", "minute", "second", "millis"};

static rc_status aj_new(const rc_options *o, void **out, rc_error *err)
{
    rc_status st = rc_options_check(o, "avro-json", aj_options, err);
    if (st != RC_OK) return st;
    aj_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_buf_init(&e->scratch, 0), rc_buf_init(&e->pos, 0), rc_buf_init(&e->text, 0);
    *out = e;
    return RC_OK;
}

static void aj_free(void *p)
{
    aj_enc *e = p;
    if (!e) return;
    rc_buf_fini(&e->scratch), rc_buf_fini(&e->pos), rc_buf_fini(&e->text);
    free(e);
}

static void put_bytes(rc_buf *b, rc_str s)
{
    RC_BUF_LIT(b, "{\"bytes\":");
    rc_jw_latin1(b, (const unsigned char *)s.p, s.n);
    rc_buf_putc(b, '}');
}

static void put_datetime(rc_buf *b, const dts_val *v)
{
    rc_buf_putc(b, '{');
    for (int f = 0; f < DTS_DT_N; f++) {
        if (f) rc_buf_putc(b, ',');
        rc_buf_putc(b, '"');
        rc_buf_puts(b, dt_names[f]);
        RC_BUF_LIT(b, "\":");
        if (v->dt_has & (1u << f)) rc_fmt_i64(b, v->dt[f]);
        else RC_BUF_LIT(b, "null");
    }
    rc_buf_putc(b, '}');
}

static void put_item(rc_buf *b, const dts_val *v)
{
    switch (v->br) {
    case DTS_NULL: RC_BUF_LIT(b, "null"); return;
    case DTS_EMPTY_OBJECT: RC_BUF_LIT(b, "\"NULL\""); return;
    case DTS_INTEGER:
        RC_BUF_LIT(b, "{\"precision\":");
        rc_fmt_i64(b, v->precision);
        RC_BUF_LIT(b, ",\"value\":");
        rc_jw_str(b, v->text.p, v->text.n);
        rc_buf_putc(b, '}');
        return;
    case DTS_CHARACTER:
        RC_BUF_LIT(b, "{\"charset\":");
        rc_jw_str(b, v->type.p, v->type.n);
        RC_BUF_LIT(b, ",\"value\":");
        put_bytes(b, v->text);
        rc_buf_putc(b, '}');
        return;
    case DTS_DECIMAL:
        RC_BUF_LIT(b, "{\"value\":");
        rc_jw_str(b, v->text.p, v->text.n);
        RC_BUF_LIT(b, ",\"precision\":");
        rc_fmt_i64(b, v->precision);
        RC_BUF_LIT(b, ",\"scale\":");
        rc_fmt_i64(b, v->scale);
        rc_buf_putc(b, '}');
        return;
    case DTS_FLOAT: {
        RC_BUF_LIT(b, "{\"value\":");
        rc_value fv = {.kind = RC_V_FLOAT64, .f64 = v->f};
        rc_fmt_json_float(b, &fv);
        RC_BUF_LIT(b, ",\"precision\":");
        rc_fmt_i64(b, v->precision);
        RC_BUF_LIT(b, ",\"scale\":");
        rc_fmt_i64(b, v->scale);
        rc_buf_putc(b, '}');
        return;
    }
    case DTS_TIMESTAMP:
        RC_BUF_LIT(b, "{\"timestamp\":");
        rc_fmt_i64(b, v->ts_sec);
        RC_BUF_LIT(b, ",\"millis\":");
        rc_fmt_i64(b, v->ts_micros);
        rc_buf_putc(b, '}');
        return;
    case DTS_DATETIME: put_datetime(b, v); return;
    case DTS_TSTZ:
        RC_BUF_LIT(b, "{\"value\":");
        put_datetime(b, v);
        RC_BUF_LIT(b, ",\"timezone\":");
        rc_jw_str(b, v->type.p, v->type.n);
        rc_buf_putc(b, '}');
        return;
    default:
        RC_BUF_LIT(b, "{\"type\":");
        rc_jw_str(b, v->type.p, v->type.n);
        RC_BUF_LIT(b, ",\"value\":");
        if (v->br == DTS_BINARY_OBJECT || v->br == DTS_BINARY_GEOMETRY) put_bytes(b, v->text);
        else rc_jw_str(b, v->text.p, v->text.n);
        rc_buf_putc(b, '}');
        return;
    }
}

static void put_type_number(rc_buf *b, const rc_column *c, const void *ctx)
{
    (void)ctx;
    RC_BUF_LIT(b, ",\"dataTypeNumber\":");
    rc_fmt_i64(b, c->type.info->mysql_code);
    rc_buf_putc(b, '}');
}

static void put_images(aj_enc *e, rc_buf *b, const rc_event *ev, const rc_value *img)
{
    if (!img) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_buf_putc(b, '[');
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (i) rc_buf_putc(b, ',');
        dts_val v;
        rc_dts_value(&ev->cols[i], &img[i], &e->scratch, &v);
        put_item(b, &v);
    }
    rc_buf_putc(b, ']');
}

static rc_status aj_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    aj_enc *e = p;
    if (rc_event_refuse_unavailable(ev, "avro-json", err) != RC_OK) return RC_SKIP;
    rc_status need = rc_enc_need_before(ev, "avro-json", "beforeImages", false, err);
    if (need != RC_OK) return need;
    if (ev->op == RC_OP_DDL && !ev->ddl.n) return rc_enc_unsupported(err, "avro-json", ev, "a DDL record needs the statement text");
    dts_record r;
    rc_dts_record_of(ev, e->seq++, &e->pos, &r);
    if (r.op < 0) return RC_SKIP;
    bool ddl = r.op == DTS_OP_DDL, row = ev->ncols > 0 && !ddl;
    RC_BUF_LIT(b, "{\"version\":1,\"id\":");
    rc_fmt_i64(b, r.id);
    RC_BUF_LIT(b, ",\"sourceTimestamp\":");
    rc_fmt_i64(b, r.source_ts);
    RC_BUF_LIT(b, ",\"sourcePosition\":");
    rc_jw_str(b, r.position.p, r.position.n);
    RC_BUF_LIT(b, ",\"safeSourcePosition\":");
    rc_jw_str(b, r.position.p, r.position.n);
    RC_BUF_LIT(b, ",\"sourceTxid\":");
    rc_jw_str(b, ev->pos.txid.p, ev->pos.txid.n);
    RC_BUF_LIT(b, ",\"source\":{\"sourceType\":\"");
    rc_buf_puts(b, source_types[r.source_type]);
    RC_BUF_LIT(b, "\",\"version\":");
    rc_jw_str(b, r.source_version_s.p, r.source_version_s.n);
    RC_BUF_LIT(b, "},\"operation\":\"");
    rc_buf_puts(b, op_names[r.op]);
    RC_BUF_LIT(b, "\",\"objectName\":");
    rc_buf_reset(&e->text);
    rc_dts_object_name(&e->text, ev);
    rc_jw_str(b, e->text.data, e->text.len);
    RC_BUF_LIT(b, ",\"processTimestamps\":[");
    rc_fmt_i64(b, r.process_ms);
    RC_BUF_LIT(b, "],\"tags\":{");
    if (row && rc_enc_has_pk(ev)) {
        rc_buf_reset(&e->text);
        rc_dts_pk_info(&e->text, ev);
        RC_BUF_LIT(b, "\"pk_uk_info\":");
        rc_jw_str(b, e->text.data, e->text.len);
    }
    RC_BUF_LIT(b, "},\"fields\":");
    if (row) rc_enc_put_name_objects(b, ev, put_type_number, NULL);
    else RC_BUF_LIT(b, "null");
    RC_BUF_LIT(b, ",\"beforeImages\":");
    put_images(e, b, ev, ev->op == RC_OP_UPDATE || ev->op == RC_OP_DELETE ? ev->before : NULL);
    RC_BUF_LIT(b, ",\"afterImages\":");
    if (ddl) {
        rc_str sql = rc_dts_ddl_text(&e->text, ev);
        rc_jw_str(b, sql.p, sql.n);
    } else {
        put_images(e, b, ev, ev->op == RC_OP_DELETE ? NULL : ev->after);
    }
    rc_buf_putc(b, '}');
    return rc_enc_finish(b, err);
}

const rc_format rc_format_avro_json = {
    .name = "avro-json",
    .summary = "the DTS Avro Record as JSON, laid out as the OMS documentation shows it (for people to read)",
    .content_type = "application/json",
    .options = aj_options,
    .enc_new = aj_new,
    .enc_free = aj_free,
    .encode_value = aj_encode,
    .encode_key = rc_oms_encode_key,
};
