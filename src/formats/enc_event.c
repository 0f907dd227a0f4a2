/* What every encoder reads from an event, whatever its format: the row image, the times in
 * milliseconds, the changed columns, the primary key, the DDL text, and the errors for an
 * event a format cannot write (enc_event.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/enc_event.h"
#include "core/fmt.h"
#include "core/jsonw.h"

void rc_enc_put_ddl_text(rc_buf *b, const rc_event *ev)
{
    if (ev->ddl.n) {
        rc_jw_str(b, ev->ddl.p, ev->ddl.n);
        return;
    }
    RC_BUF_LIT(b, "\"TRUNCATE TABLE ");
    rc_jw_str_body(b, ev->src.db.p, ev->src.db.n);
    if (ev->src.db.n) rc_buf_putc(b, '.');
    rc_jw_str_body(b, ev->src.table.p, ev->src.table.n);
    rc_buf_putc(b, '"');
}

void rc_enc_put_str_or_null(rc_buf *b, rc_str s)
{
    if (s.n) rc_jw_str(b, s.p, s.n);
    else RC_BUF_LIT(b, "null");
}

bool rc_enc_has_pk(const rc_event *ev)
{
    for (uint32_t i = 0; i < ev->ncols; i++)
        if (ev->cols[i].pk) return true;
    return false;
}

uint32_t rc_enc_pk_order(const rc_event *ev, uint32_t idx[RC_ENC_PK_MAX])
{
    uint32_t n = rc_event_pk(ev, idx, RC_ENC_PK_MAX);
    return n > RC_ENC_PK_MAX ? RC_ENC_PK_MAX : n;
}

const uint32_t *rc_enc_pk_memo_order(rc_enc_pk_memo *m, const rc_event *ev, uint32_t *n)
{
    if (!ev->cols_id || ev->cols_id != m->of) {
        m->n = rc_enc_pk_order(ev, m->idx);
        m->of = ev->cols_id;
    }
    *n = m->n;
    return m->idx;
}

const uint8_t *rc_enc_changed(const rc_event *ev, rc_buf *scratch)
{
    if (ev->changed) return ev->changed;
    rc_buf_reset(scratch);
    uint8_t *flags = (uint8_t *)rc_buf_reserve(scratch, ev->ncols ? ev->ncols : 1);
    if (!flags) return NULL;
    for (uint32_t i = 0; i < ev->ncols; i++) flags[i] = !rc_value_equal(&ev->before[i], &ev->after[i]);
    rc_buf_commit(scratch, ev->ncols);
    return flags;
}

typedef struct name_type_ctx {
    const char *(*type)(const rc_coltype *t);
} name_type_ctx;

static void put_type(rc_buf *b, const rc_column *c, const void *ctx)
{
    RC_BUF_LIT(b, ",\"type\":\"");
    rc_buf_puts(b, ((const name_type_ctx *)ctx)->type(&c->type));
    RC_BUF_LIT(b, "\"}");
}

void rc_enc_put_name_types(rc_buf *b, const rc_event *ev, const char *(*type)(const rc_coltype *t))
{
    name_type_ctx ctx = {type};
    rc_enc_put_name_objects(b, ev, put_type, &ctx);
}

void rc_enc_put_pk_array(rc_buf *b, const rc_event *ev)
{
    if (!rc_enc_has_pk(ev)) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_buf_putc(b, '[');
    rc_enc_put_pk_items(b, ev);
    rc_buf_putc(b, ']');
}

void rc_enc_put_pk_items(rc_buf *b, const rc_event *ev)
{
    uint32_t idx[RC_ENC_PK_MAX], n = rc_enc_pk_order(ev, idx);
    for (uint32_t k = 0; k < n; k++) {
        if (k) rc_buf_putc(b, ',');
        rc_jw_str(b, ev->cols[idx[k]].name.p, ev->cols[idx[k]].name.n);
    }
}

int64_t rc_enc_es_ms(const rc_event *ev) { return ev->has_ts ? rc_floor_div(ev->ts_us, 1000) : 0; }
int64_t rc_enc_ts_ms(const rc_event *ev) { return ev->has_proc ? rc_floor_div(ev->proc_us, 1000) : rc_enc_es_ms(ev); }

const rc_value *rc_enc_row(const rc_event *ev) { return ev->op == RC_OP_DELETE ? ev->before : ev->after; }

rc_status rc_enc_need_before(const rc_event *ev, const char *format, const char *what, bool update_only, rc_error *err)
{
    if (ev->before || !(ev->op == RC_OP_UPDATE || (ev->op == RC_OP_DELETE && !update_only))) return RC_OK;
    char why[320];
    int n = snprintf(why, sizeof why, "%s %s the before image (%s), which the event lacks", ev->op == RC_OP_UPDATE ? "an UPDATE" : "a DELETE",
                     "needs", what);
    if (ev->src.kind == RC_DB_POSTGRES && n > 0 && (size_t)n < sizeof why) /* the server sends it when told to */
        snprintf(why + n, sizeof why - (size_t)n, ": ALTER TABLE %.*s.%.*s REPLICA IDENTITY FULL makes PostgreSQL send the whole old row",
                 (int)ev->src.schema.n, ev->src.schema.p, (int)ev->src.table.n, ev->src.table.p);
    return rc_enc_unsupported(err, format, ev, why);
}

rc_status rc_enc_unsupported(rc_error *err, const char *format, const rc_event *ev, const char *why)
{
    /* PostgreSQL names a table by its schema */
    const rc_str *ns = ev->src.kind == RC_DB_POSTGRES && ev->src.schema.n ? &ev->src.schema : &ev->src.db;
    return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "%s cannot write this %s event of %.*s.%.*s: %s", format,
                        rc_op_name(ev->op), (int)ns->n, ns->p, (int)ev->src.table.n, ev->src.table.p, why);
}

void rc_enc_colkeys_fini(rc_enc_colkeys *k)
{
    rc_buf_fini(&k->text);
    free(k->off);
    memset(k, 0, sizeof *k);
}

bool rc_enc_colkeys_make(rc_enc_colkeys *k, const rc_event *ev, rc_str (*name)(void *ctx, rc_str col), void *ctx, size_t pad)
{
    if (!ev->cols_id) return false;
    if (ev->cols_id == k->of) return true;
    k->of = NULL;
    if (!k->text.max) rc_buf_init(&k->text, 0); /* zeroed until the first cached list */
    if (ev->ncols + 1 > k->cap) {
        uint32_t *no = realloc(k->off, sizeof *no * (ev->ncols + 1));
        if (!no) return false;
        k->off = no, k->cap = ev->ncols + 1;
    }
    rc_buf_reset(&k->text);
    for (uint32_t i = 0; i < ev->ncols; i++) {
        k->off[i] = (uint32_t)k->text.len;
        rc_str n = name ? name(ctx, ev->cols[i].name) : ev->cols[i].name;
        rc_jw_str(&k->text, n.p, n.n);
        rc_buf_putc(&k->text, ':');
    }
    k->off[ev->ncols] = (uint32_t)k->text.len;
    char *z = rc_buf_reserve(&k->text, pad);
    if (z) memset(z, 0, pad);
    if (k->text.err != RC_OK || k->text.len > UINT32_MAX) return false;
    rc_buf_commit(&k->text, pad);
    k->of = ev->cols_id;
    return true;
}

bool rc_enc_colkeys_for(rc_enc_colkeys *k, const rc_event *ev) { return rc_enc_colkeys_make(k, ev, NULL, NULL, 0); }
