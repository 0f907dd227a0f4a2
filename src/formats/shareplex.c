/* OMS "shareplex" (docs/formats/oms-shareplex.md): {data, meta, key, sql}. An UPDATE writes only
 * the changed columns' new values in "data" and the before image in "key". Key order follows
 * the seed (OMS writes it so consistently). See docs/formats/oms-shareplex.md. */
#include <stdlib.h>
#include <string.h>
#include "formats/oms_common.h"
#include "formats/shareplex_read.h"
#include "core/fmt.h"
#include "core/jsonw.h"

typedef struct sp_enc {
    oms_style style;
    rc_tz tz; /* meta.time / meta.posttime zone */
    rc_buf scratch;
    rc_buf changed;
} sp_enc;

static rc_status sp_new(const rc_options *o, void **out, rc_error *err)
{
    rc_sp_opts so = {0};
    rc_status st = rc_options_parse(o, "shareplex", rc_sp_options, &so, err);
    if (st != RC_OK) return st;
    sp_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->tz = so.tz;
    rc_buf_init(&e->scratch, 0);
    rc_buf_init(&e->changed, 0);
    *out = e;
    return RC_OK;
}

static void sp_free(void *p)
{
    sp_enc *e = p;
    if (!e) return;
    rc_buf_fini(&e->scratch);
    rc_buf_fini(&e->changed);
    free(e);
}

/* "YYYY-MM-DDTHH:mm:ss" of a time in ms, seconds only. */
static void put_time(rc_buf *b, int64_t ms, const rc_tz *tz)
{
    rc_timestamp ts = {rc_floor_div(ms, 1000), 0};
    rc_buf_putc(b, '"');
    rc_fmt_ts_local(b, &ts, rc_tz_offset_at(tz, ts.sec), 'T');
    rc_buf_putc(b, '"');
}

static void put_db_table(rc_buf *b, const rc_event *ev)
{
    rc_jw_str_body(b, ev->src.db.p, ev->src.db.n);
    rc_buf_putc(b, '.');
    rc_jw_str_body(b, ev->src.table.p, ev->src.table.n);
}

static rc_status sp_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    sp_enc *e = p;
    if (rc_event_refuse_unavailable(ev, "shareplex", err) != RC_OK) return RC_SKIP;
    const char *op;
    switch (ev->op) {
    case RC_OP_INSERT:
    case RC_OP_READ: op = "ins"; break;
    case RC_OP_UPDATE: op = "upd"; break;
    case RC_OP_DELETE: op = "del"; break;
    case RC_OP_DDL:
    case RC_OP_TRUNCATE: op = "ddl"; break;
    default: return RC_SKIP; /* heartbeat, begin, commit: no message (docs/formats/: each page's "no message" list) */
    }
    bool ddl = op[0] == 'd' && op[1] == 'd';
    rc_status need = rc_enc_need_before(ev, "shareplex", ev->op == RC_OP_UPDATE ? "\"key\"" : "\"data\"", false, err);
    if (need != RC_OK) return need;
    if (ev->op == RC_OP_DDL && !ev->ddl.n) return rc_enc_unsupported(err, "shareplex", ev, "a DDL message needs the statement text");

    RC_BUF_LIT(b, "{\"data\":");
    if (ddl) {
        RC_BUF_LIT(b, "{}");
    } else if (ev->op == RC_OP_UPDATE) {
        const uint8_t *changed = rc_enc_changed(ev, &e->changed);
        if (!changed) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        rc_oms_put_row(b, ev, ev->after, changed, &e->style);
    } else {
        rc_oms_put_row(b, ev, rc_enc_row(ev), NULL, &e->style);
    }
    RC_BUF_LIT(b, ",\"meta\":{\"posttime\":");
    put_time(b, rc_enc_ts_ms(ev), &e->tz);
    RC_BUF_LIT(b, ",\"op\":\"");
    rc_buf_puts(b, op);
    RC_BUF_LIT(b, "\",\"size\":");
    bool tx = ev->pos.has_tx_index && ev->pos.has_tx_count;
    rc_fmt_u64(b, tx ? ev->pos.tx_count : 0);
    RC_BUF_LIT(b, ",\"time\":");
    put_time(b, rc_enc_es_ms(ev), &e->tz);
    RC_BUF_LIT(b, ",\"idx\":\"");
    rc_fmt_u64(b, tx ? (uint64_t)ev->pos.tx_index + 1 : 0);
    rc_buf_putc(b, '/');
    rc_fmt_u64(b, tx ? ev->pos.tx_count : 0);
    RC_BUF_LIT(b, "\",\"seq\":");
    rc_fmt_u64(b, ev->pos.has_seq ? ev->pos.seq : 0);
    RC_BUF_LIT(b, ",\"table\":\"");
    put_db_table(b, ev);
    RC_BUF_LIT(b, "\",\"rowid\":\"");
    put_db_table(b, ev);
    rc_buf_putc(b, '-');
    if (!ddl) rc_oms_put_pk_values_body(b, &e->scratch, ev, rc_enc_row(ev), "\x01", &e->style);
    RC_BUF_LIT(b, "\",\"trans\":");
    rc_enc_put_str_or_null(b, ev->pos.txid);
    RC_BUF_LIT(b, ",\"scn\":");
    if (ev->pos.scn.n) rc_jw_str(b, ev->pos.scn.p, ev->pos.scn.n);
    else RC_BUF_LIT(b, "\"null\"");
    rc_buf_putc(b, '}');
    if (ev->op == RC_OP_UPDATE) {
        RC_BUF_LIT(b, ",\"key\":");
        rc_oms_put_row(b, ev, ev->before, NULL, &e->style);
    }
    if (ddl) {
        RC_BUF_LIT(b, ",\"sql\":{\"ddl\":");
        rc_enc_put_ddl_text(b, ev);
        rc_buf_putc(b, '}');
    }
    rc_buf_putc(b, '}');
    return rc_enc_finish(b, err);
}

const rc_format rc_format_shareplex = {
    .name = "shareplex",
    .summary = "OMS SharePlex JSON: data / meta / key / sql",
    .content_type = "application/json",
    .options = rc_sp_options,
    .enc_new = sp_new,
    .enc_free = sp_free,
    .encode_value = sp_encode,
    .encode_key = rc_oms_encode_key,
    .dec_new = rc_sp_dec_new,
    .dec_free = rc_sp_dec_free,
    .decode = rc_sp_decode,
};
