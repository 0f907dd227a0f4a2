/* The native format, writer side: one JSON object per event, keys in a fixed order, absent
 * fields omitted, values laid out by their kind (docs/native-format.md). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "formats/enc_event.h"
#include "formats/native.h"
#include "core/fmt.h"
#include "core/jsonw.h"

static inline void key(rc_buf *b, const char *k, bool *first)
{
    size_t n = strlen(k); /* a literal: folded where inlined */
    char *w = rc_buf_reserve(b, n + 4); /* one reservation: this runs a dozen times an event */
    if (!w) return;
    size_t at = 0;
    if (!*first) w[at++] = ',';
    *first = false;
    w[at++] = '"';
    memcpy(w + at, k, n), at += n;
    w[at++] = '"', w[at++] = ':';
    rc_buf_commit(b, at);
}

static void str_field(rc_buf *b, const char *k, rc_str v, bool *first)
{
    if (!v.n) return;
    key(b, k, first);
    rc_jw_str(b, v.p, v.n);
}

/* "k":"name" for one of rowcast's own names (an op, a database kind: nothing to escape). */
static void name_field(rc_buf *b, const char *k, const char *name, bool *first)
{
    key(b, k, first);
    rc_buf_putc(b, '"');
    rc_buf_puts(b, name);
    rc_buf_putc(b, '"');
}

static void u64_field(rc_buf *b, const char *k, uint64_t v, bool *first)
{
    key(b, k, first);
    rc_fmt_u64(b, v);
}

/* One value; the kinds written as JSON strings of their text open the quote and break to the
 * closing one after the switch. */
static void put_value(rc_buf *b, const rc_value *v)
{
    switch (v->kind) {
    case RC_V_NULL: RC_BUF_LIT(b, "null"); return;
    case RC_V_BOOL:
        if (v->b) RC_BUF_LIT(b, "true");
        else RC_BUF_LIT(b, "false");
        return;
    case RC_V_INT: rc_fmt_i64(b, v->i); return;
    case RC_V_UINT:
    case RC_V_BITS: rc_fmt_u64(b, v->u); return;
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: rc_fmt_json_float(b, v); return;
    case RC_V_BYTES: rc_fmt_base64_quoted(b, (const unsigned char *)v->s.p, v->s.n); return;
    case RC_V_DECIMAL: rc_buf_putc(b, '"'), rc_fmt_dec_canonical(b, &v->dec); break;
    case RC_V_DATE: rc_buf_putc(b, '"'), rc_fmt_date(b, &v->date); break;
    case RC_V_TIME: rc_buf_putc(b, '"'), rc_fmt_time(b, &v->time); break;
    case RC_V_DATETIME: rc_buf_putc(b, '"'), rc_fmt_datetime(b, &v->dt, ' ', true); break;
    case RC_V_TIMESTAMP: rc_buf_putc(b, '"'), rc_fmt_ts_iso(b, &v->ts); break;
    case RC_V_INVALID:
        RC_BUF_LIT(b, "{\"invalid\":");
        rc_jw_str(b, v->s.p, v->s.n);
        rc_buf_putc(b, '}');
        return;
    case RC_V_UNAVAILABLE: RC_BUF_LIT(b, "{\"unavailable\":true}"); return;
    default: /* text, interval, json, enum, set, geometry */
        rc_jw_str(b, v->s.p, v->s.n);
        return;
    }
    rc_buf_putc(b, '"');
}

static void put_image(rc_buf *b, const char *k, const rc_value *img, uint32_t n, bool *first)
{
    if (!img) return;
    key(b, k, first);
    rc_buf_putc(b, '[');
    for (uint32_t i = 0; i < n; i++) {
        if (i) rc_buf_putc(b, ',');
        put_value(b, &img[i]);
    }
    rc_buf_putc(b, ']');
}

/* The encoder's memory (NULL works too: nothing kept): the "columns" text of the last cached
 * column list (rc_event.cols_id), which the events of one table repeat. */
typedef struct native_enc {
    const void *cols_of;
    rc_buf cols;
    /* the last event's "source" text and what it was made from: kind, then each name's
     * length and bytes (a name may hold any byte) */
    rc_buf src_text, src_of;
} native_enc;

static void put_origin(rc_buf *b, const rc_origin *o)
{
    bool f2 = true;
    rc_buf_putc(b, '{');
    name_field(b, "kind", rc_dbkind_name(o->kind), &f2);
    str_field(b, "server", o->server, &f2);
    str_field(b, "version", o->version, &f2);
    str_field(b, "tenant", o->tenant, &f2);
    str_field(b, "db", o->db, &f2);
    str_field(b, "schema", o->schema, &f2);
    if (o->table.p && !o->table.n) { /* an empty name the input stated ("table":"" of Canal's database DDL) */
        key(b, "table", &f2);
        RC_BUF_LIT(b, "\"\"");
    } else {
        str_field(b, "table", o->table, &f2);
    }
    rc_buf_putc(b, '}');
}

/* An origin field's length in the cache key: a stated empty name differs from an absent one. */
static size_t key_len(const rc_str *s) { return s->n ? s->n : s->p ? SIZE_MAX : 0; }

static void origin_key(rc_buf *k, const rc_origin *o)
{
    const rc_str *f[6] = {&o->server, &o->version, &o->tenant, &o->db, &o->schema, &o->table};
    rc_buf_reset(k);
    rc_buf_putc(k, (char)o->kind);
    for (int i = 0; i < 6; i++) {
        size_t l = key_len(f[i]);
        rc_buf_put(k, &l, sizeof l);
        rc_buf_put(k, f[i]->p, f[i]->n);
    }
}

static bool same_origin(const native_enc *e, const rc_origin *o)
{
    const rc_str *f[6] = {&o->server, &o->version, &o->tenant, &o->db, &o->schema, &o->table};
    const char *k = e->src_of.data;
    size_t at = 1, n = e->src_of.len;
    if (!n || k[0] != (char)o->kind) return false;
    for (int i = 0; i < 6; i++) {
        size_t l;
        if (at + sizeof l > n) return false;
        memcpy(&l, k + at, sizeof l);
        at += sizeof l;
        if (l != key_len(f[i])) return false;
        l = f[i]->n;
        if (at + l > n || (l && memcmp(k + at, f[i]->p, l))) return false;
        at += l;
    }
    return true;
}

static void keep_origin(native_enc *e, const rc_origin *o)
{
    origin_key(&e->src_of, o);
    if (e->src_of.err != RC_OK || e->src_text.err != RC_OK) rc_buf_reset(&e->src_of); /* not kept */
}

/* The column list [{"name":..., "type":..., "pk":..., "nullable":true}, ...]. */
static void put_columns(rc_buf *b, const rc_event *ev)
{
    /* "pk": true while the key columns come in column order; their positions otherwise */
    bool in_order = true;
    uint16_t rank = 0;
    for (uint32_t i = 0; i < ev->ncols; i++)
        if (ev->cols[i].pk && ev->cols[i].pk != ++rank) in_order = false;
    rc_buf_putc(b, '[');
    for (uint32_t i = 0; i < ev->ncols; i++) {
        const rc_column *c = &ev->cols[i];
        if (i) rc_buf_putc(b, ',');
        RC_BUF_LIT(b, "{\"name\":");
        rc_jw_str(b, c->name.p, c->name.n);
        RC_BUF_LIT(b, ",\"type\":");
        rc_jw_str(b, c->type.decl.p, c->type.decl.n);
        if (c->pk && in_order) {
            RC_BUF_LIT(b, ",\"pk\":true");
        } else if (c->pk) {
            RC_BUF_LIT(b, ",\"pk\":");
            rc_fmt_u64(b, c->pk);
        }
        if (c->nullable) RC_BUF_LIT(b, ",\"nullable\":true");
        if (c->has_jdbc) {
            RC_BUF_LIT(b, ",\"jdbc\":");
            rc_fmt_i64(b, c->jdbc);
        }
        rc_buf_putc(b, '}');
    }
    rc_buf_putc(b, ']');
}

rc_status rc_native_encode(void *enc, const rc_event *ev, rc_buf *b, rc_error *err)
{
    bool first = true;
    rc_buf_putc(b, '{');
    name_field(b, "op", rc_op_name(ev->op), &first);

    key(b, "source", &first);
    native_enc *e = enc;
    if (e && same_origin(e, &ev->src)) { /* the last event's table: its text again */
        rc_buf_put(b, e->src_text.data, e->src_text.len);
    } else if (e) {
        rc_buf_reset(&e->src_text);
        put_origin(&e->src_text, &ev->src);
        keep_origin(e, &ev->src);
        if (e->src_of.len) rc_buf_put(b, e->src_text.data, e->src_text.len);
        else put_origin(b, &ev->src);
    } else {
        put_origin(b, &ev->src);
    }
    bool f2;

    const rc_position *p = &ev->pos;
    if (p->file.n || p->has_offset || p->gtid.n || p->lsn.n || p->last_commit_lsn.n || p->scn.n || p->txid.n || p->checkpoint.n || p->has_seq || p->has_tx_index || p->has_tx_count ||
        p->has_server_id || p->has_thread || p->has_row || p->has_xmin || p->query.n || p->collections) {
        key(b, "pos", &first);
        f2 = true;
        rc_buf_putc(b, '{');
        str_field(b, "file", p->file, &f2);
        if (p->has_offset) u64_field(b, "offset", p->offset, &f2);
        str_field(b, "gtid", p->gtid, &f2);
        str_field(b, "lsn", p->lsn, &f2);
        str_field(b, "scn", p->scn, &f2);
        str_field(b, "txid", p->txid, &f2);
        str_field(b, "checkpoint", p->checkpoint, &f2);
        if (p->has_seq) u64_field(b, "seq", p->seq, &f2);
        if (p->has_tx_index) u64_field(b, "index", p->tx_index, &f2);
        if (p->has_tx_count) u64_field(b, "count", p->tx_count, &f2);
        if (p->has_server_id) u64_field(b, "server_id", p->server_id, &f2);
        if (p->has_row) u64_field(b, "row", p->row, &f2);
        if (p->has_thread) u64_field(b, "thread", p->thread, &f2);
        str_field(b, "query", p->query, &f2);
        if (p->has_xmin) u64_field(b, "xmin", p->xmin, &f2);
        str_field(b, "last_commit_lsn", p->last_commit_lsn, &f2);
        if (p->collections) {
            key(b, "collections", &f2);
            rc_buf_putc(b, '[');
            for (uint32_t i = 0; i < p->ncollections; i++) {
                rc_buf_puts(b, i ? ",[" : "[");
                rc_jw_str(b, p->collections[i].name.p, p->collections[i].name.n);
                rc_buf_putc(b, ',');
                rc_fmt_u64(b, p->collections[i].count);
                rc_buf_putc(b, ']');
            }
            rc_buf_putc(b, ']');
        }
        rc_buf_putc(b, '}');
    }
    str_field(b, "snapshot", ev->snapshot, &first);
    if (ev->has_ts) {
        key(b, "ts_us", &first);
        rc_fmt_i64(b, ev->ts_us);
    }
    if (ev->has_proc) {
        key(b, "proc_us", &first);
        rc_fmt_i64(b, ev->proc_us);
    }
    if (ev->ncols) {
        key(b, "columns", &first);
        if (e && ev->cols_id) { /* a cached column list: its text made once */
            if (e->cols_of != ev->cols_id) {
                rc_buf_reset(&e->cols);
                put_columns(&e->cols, ev);
                e->cols_of = e->cols.err == RC_OK ? ev->cols_id : NULL;
            }
            if (e->cols_of) rc_buf_put(b, e->cols.data, e->cols.len);
            else put_columns(b, ev);
        } else {
            put_columns(b, ev);
        }
    }
    put_image(b, "before", ev->before, ev->ncols, &first);
    if (ev->before_key_only) {
        key(b, "before_key_only", &first);
        RC_BUF_LIT(b, "true");
    }
    put_image(b, "after", ev->after, ev->ncols, &first);
    if (ev->changed) {
        key(b, "changed", &first);
        rc_buf_putc(b, '[');
        bool f3 = true;
        for (uint32_t i = 0; i < ev->ncols; i++) {
            if (!ev->changed[i]) continue;
            if (!f3) rc_buf_putc(b, ',');
            f3 = false;
            rc_jw_str(b, ev->cols[i].name.p, ev->cols[i].name.n);
        }
        rc_buf_putc(b, ']');
    }
    if (ev->ddl.n || ev->ddl_kind.n) {
        key(b, "ddl", &first);
        f2 = true;
        rc_buf_putc(b, '{');
        str_field(b, "kind", ev->ddl_kind, &f2);
        str_field(b, "text", ev->ddl, &f2);
        str_field(b, "charset", ev->table_charset, &f2);
        rc_buf_putc(b, '}');
    }
    if (ev->doc) rc_native_put_doc(b, ev->doc, &first);
    rc_buf_putc(b, '}');
    return rc_enc_finish(b, err);
}

static rc_status native_enc_new(const rc_options *opts, void **out, rc_error *err)
{
    static const rc_option_desc none[] = {{0}};
    *out = NULL;
    rc_status st = rc_options_check(opts, "native", none, err);
    if (st != RC_OK) return st;
    native_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_buf_init(&e->cols, 0), rc_buf_init(&e->src_text, 0), rc_buf_init(&e->src_of, 0);
    *out = e;
    return RC_OK;
}

static void native_enc_free(void *enc)
{
    native_enc *e = enc;
    if (!e) return;
    rc_buf_fini(&e->cols), rc_buf_fini(&e->src_text), rc_buf_fini(&e->src_of);
    free(e);
}

static const rc_option_desc native_options[] = {{0}};

const rc_format rc_format_native = {
    .name = "native",
    .summary = "rowcast's lossless JSON lines: every field of the canonical change event",
    .content_type = "application/json",
    .snapshot_edges = true, /* lossless: an incremental snapshot's table edges too */
    .options = native_options,
    .enc_new = native_enc_new,
    .enc_free = native_enc_free,
    .encode_value = rc_native_encode,
    .encode_key = NULL,
    .dec_new = rc_native_dec_new,
    .dec_free = rc_native_dec_free,
    .decode = rc_native_decode,
};
