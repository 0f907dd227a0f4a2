/* OMS family: value rendering (docs/formats/oms-values.md), rows, the database name and type,
 * primary-key text and the OMS message key. What any format reads from an event is in
 * enc_event.c. */
#include <stdio.h>
#include <string.h>
#include "formats/oms_common.h"
#include "core/fmt.h"
#include "core/jsonw.h"

static void open_q(rc_buf *b, bool q)
{
    if (q) rc_buf_putc(b, '"');
}

static void put_latin1_raw(rc_buf *b, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] < 0x80) {
            rc_buf_putc(b, (char)p[i]);
        } else {
            char u[2] = {(char)(0xC0 | (p[i] >> 6)), (char)(0x80 | (p[i] & 0x3F))};
            rc_buf_put(b, u, 2);
        }
    }
}

static void put_text(rc_buf *b, rc_str s, bool json)
{
    if (json) rc_jw_str(b, s.p, s.n);
    else rc_buf_put(b, s.p, s.n);
}

void rc_oms_value(rc_buf *b, const rc_column *col, const rc_value *v, const oms_style *st, bool json)
{
    bool qnum = json && st->all_strings; /* quote numbers */
    bool q = json;                       /* quote strings */
    switch (v->kind) {
    case RC_V_NULL:
        if (json) RC_BUF_LIT(b, "null");
        return;
    case RC_V_BOOL:
        open_q(b, qnum);
        rc_buf_putc(b, v->b ? '1' : '0');
        open_q(b, qnum);
        return;
    case RC_V_INT:
        open_q(b, qnum);
        rc_fmt_i64(b, v->i);
        open_q(b, qnum);
        return;
    case RC_V_UINT:
        open_q(b, qnum);
        rc_fmt_u64(b, v->u);
        open_q(b, qnum);
        return;
    case RC_V_DECIMAL:
        open_q(b, qnum);
        if (st->decimal_plain || st->all_strings) rc_fmt_dec_plain(b, &v->dec);
        else rc_fmt_dec_java(b, &v->dec);
        open_q(b, qnum);
        return;
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: {
        double d = v->kind == RC_V_FLOAT32 ? (double)v->f32 : v->f64;
        bool quote = json && (st->all_strings || rc_f64_special(d));
        open_q(b, quote);
        if (st->all_strings) {
            if (v->kind == RC_V_FLOAT32) rc_fmt_f32_java(b, v->f32);
            else rc_fmt_f64_java(b, v->f64);
        } else {
            if (v->kind == RC_V_FLOAT32) rc_fmt_f32_sig(b, v->f32, 7);
            else rc_fmt_f64_sig(b, v->f64, 16);
        }
        open_q(b, quote);
        return;
    }
    case RC_V_BYTES:
        if (st->canal) {
            if (json) rc_jw_latin1(b, (const unsigned char *)v->s.p, v->s.n);
            else put_latin1_raw(b, (const unsigned char *)v->s.p, v->s.n);
            return;
        }
        open_q(b, q);
        rc_fmt_base64(b, (const unsigned char *)v->s.p, v->s.n);
        open_q(b, q);
        return;
    case RC_V_BITS:
        if (st->canal) {
            open_q(b, qnum);
            rc_fmt_u64(b, v->u);
            open_q(b, qnum);
        } else {
            unsigned char by[8];
            size_t nb = rc_bits_bytes(col->type.p1, v->u, by);
            open_q(b, q);
            rc_fmt_base64(b, by, nb);
            open_q(b, q);
        }
        return;
    case RC_V_DATE:
        open_q(b, q);
        rc_fmt_date(b, &v->date);
        open_q(b, q);
        return;
    case RC_V_TIME:
        open_q(b, q);
        rc_fmt_time(b, &v->time);
        open_q(b, q);
        return;
    case RC_V_DATETIME:
        open_q(b, q);
        rc_fmt_datetime(b, &v->dt, ' ', true);
        open_q(b, q);
        return;
    case RC_V_TIMESTAMP:
        open_q(b, q);
        if (st->canal) rc_fmt_ts_local(b, &v->ts, rc_tz_offset_at(&st->tz, v->ts.sec), ' ');
        else rc_fmt_ts_epoch(b, &v->ts);
        open_q(b, q);
        return;
    case RC_V_INVALID:
        /* TIMESTAMP writes its invalid marker; every other type passes the text through */
        if (col->type.info->vclass == RC_VC_TIMESTAMP) {
            if (json) RC_BUF_LIT(b, "\"0000-00-00 00:00:00\"");
            else RC_BUF_LIT(b, "0000-00-00 00:00:00");
            return;
        }
        put_text(b, v->s, json);
        return;
    default: /* text, enum, set, json, interval, geometry */
        put_text(b, v->s, json);
        return;
    }
}

void rc_oms_put_row_members(rc_buf *b, const rc_event *ev, const rc_value *img, const uint8_t *only, const oms_style *st)
{
    bool first = true;
    for (uint32_t i = 0; img && i < ev->ncols; i++) {
        if (only && !only[i]) continue;
        if (!first) rc_buf_putc(b, ',');
        first = false;
        rc_jw_str(b, ev->cols[i].name.p, ev->cols[i].name.n);
        rc_buf_putc(b, ':');
        rc_oms_value(b, &ev->cols[i], &img[i], st, true);
    }
}

void rc_oms_put_row(rc_buf *b, const rc_event *ev, const rc_value *img, const uint8_t *only, const oms_style *st)
{
    rc_buf_putc(b, '{');
    rc_oms_put_row_members(b, ev, img, only, st);
    rc_buf_putc(b, '}');
}

const char *rc_oms_dbtype(rc_dbkind k, bool lower)
{
    static const char *const upper[RC_DB_COUNT] = {"UNKNOWN", "MYSQL", "MYSQL", "OB_MYSQL", "OB_ORACLE", "ORACLE", "POSTGRESQL", "SQLSERVER"};
    static const char *const low[RC_DB_COUNT] = {"unknown", "mysql", "mysql", "ob_mysql", "ob_oracle", "oracle", "postgresql", "sqlserver"};
    if ((unsigned)k >= RC_DB_COUNT) k = RC_DB_UNKNOWN;
    return lower ? low[k] : upper[k];
}

void rc_oms_put_db(rc_buf *b, const rc_event *ev, bool with_tenant)
{
    bool ob = ev->src.kind == RC_DB_OB_MYSQL || ev->src.kind == RC_DB_OB_ORACLE;
    if (with_tenant && ob && ev->src.tenant.n) {
        rc_buf_putc(b, '"');
        rc_jw_str_body(b, ev->src.tenant.p, ev->src.tenant.n);
        rc_buf_putc(b, '.');
        rc_jw_str_body(b, ev->src.db.p, ev->src.db.n);
        rc_buf_putc(b, '"');
        return;
    }
    rc_enc_put_str_or_null(b, ev->src.db);
}

void rc_oms_put_pk_names(rc_buf *b, const rc_event *ev, const char *sep)
{
    if (!rc_enc_has_pk(ev)) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_buf_putc(b, '"');
    uint32_t idx[RC_ENC_PK_MAX], n = rc_enc_pk_order(ev, idx);
    for (uint32_t k = 0; k < n; k++) {
        if (k) rc_jw_str_body(b, sep, strlen(sep));
        rc_jw_str_body(b, ev->cols[idx[k]].name.p, ev->cols[idx[k]].name.n);
    }
    rc_buf_putc(b, '"');
}

/* pk values as raw text joined by sep, appended to `b` unescaped. */
static void pk_values_raw(rc_buf *b, const rc_event *ev, const rc_value *img, const char *sep, const oms_style *st)
{
    uint32_t idx[RC_ENC_PK_MAX], n = rc_enc_pk_order(ev, idx);
    for (uint32_t k = 0; k < n; k++) {
        if (k) rc_buf_puts(b, sep);
        rc_oms_value(b, &ev->cols[idx[k]], &img[idx[k]], st, false);
    }
}

void rc_oms_put_pk_values_body(rc_buf *b, rc_buf *scratch, const rc_event *ev, const rc_value *img, const char *sep,
                            const oms_style *st)
{
    if (!img || !rc_enc_has_pk(ev)) return;
    rc_buf_reset(scratch);
    pk_values_raw(scratch, ev, img, sep, st);
    if (scratch->err != RC_OK) {
        b->err = scratch->err;
        return;
    }
    rc_jw_str_body(b, scratch->data, scratch->len);
}

void rc_oms_put_pk_values(rc_buf *b, rc_buf *scratch, const rc_event *ev, const rc_value *img, const char *sep,
                       const oms_style *st)
{
    if (!img || !rc_enc_has_pk(ev)) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_buf_putc(b, '"');
    rc_oms_put_pk_values_body(b, scratch, ev, img, sep, st);
    rc_buf_putc(b, '"');
}

rc_status rc_oms_encode_key(void *enc, const rc_event *ev, rc_buf *out, rc_error *err)
{
    const rc_value *img = rc_enc_row(ev);
    if (!img || !rc_enc_has_pk(ev)) return RC_SKIP;
    static const oms_style st = {0};
    pk_values_raw(out, ev, img, "\x01", &st);
    return rc_enc_finish(out, err);
}

