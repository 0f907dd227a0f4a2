/* Upstream Debezium: record keys, and an UPDATE that changes the key (a delete and a create,
 * with the __debezium.oldkey / newkey headers). */
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "formats/enc_event.h"
#include "core/json.h"
#include "core/jsonw.h"

/* The key payload {"<key column>":<value>,...} of image img. */
rc_status rc_dbz_put_key_fields(up_enc *e, rc_buf *b, const rc_event *ev, const rc_value *img, rc_error *err)
{
    uint32_t n;
    const uint32_t *idx = rc_enc_pk_memo_order(&e->pk, ev, &n);
    bool keys = rc_dbz_column_keys(e, ev); /* the column list's "name": texts, made once per list */
    rc_buf_putc(b, '{');
    for (uint32_t k = 0; k < n; k++) {
        if (k) rc_buf_putc(b, ',');
        rc_dbz_put_col_key(e, b, ev, idx[k], keys);
        /* a key value the format cannot hold is an error here: RC_SKIP would mean a null key */
        rc_status st = rc_dbz_put_value(e, b, &ev->cols[idx[k]], &img[idx[k]], err);
        if (st != RC_OK) return st == RC_SKIP ? err->code : st;
    }
    rc_buf_putc(b, '}');
    return RC_OK;
}

/* A string as Kafka Connect's Values writes it (SimpleHeaderConverter, the worker's default
 * header.converter): quoted, only backslash and quote escaped. */
static void values_str(rc_buf *b, const char *p, size_t n)
{
    rc_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\' || p[i] == '"') rc_buf_putc(b, '\\');
        rc_buf_putc(b, p[i]);
    }
    rc_buf_putc(b, '"');
}

/* Values.convertToString of the value at node i of a JSON value as the envelope writes it:
 * strings (and bytes, base64) as values_str, structs and arrays with their members so,
 * numbers, booleans and null as in JSON. */
static void values_text(rc_buf *b, const rc_json *j, uint32_t i)
{
    const rc_jnode *nd = rc_json_node(j, i);
    if (nd->type == RC_J_STRING) {
        values_str(b, nd->s, nd->n);
    } else if (nd->type == RC_J_ARRAY || nd->type == RC_J_OBJECT) {
        bool obj = nd->type == RC_J_OBJECT;
        rc_buf_putc(b, obj ? '{' : '[');
        uint32_t k = 0;
        for (uint32_t c = nd->first; c; c = rc_json_node(j, c)->next, k++) {
            if (obj && k % 2) rc_buf_putc(b, ':');
            else if (k) rc_buf_putc(b, ',');
            values_text(b, j, c);
        }
        rc_buf_putc(b, obj ? '}' : ']');
    } else {
        rc_json_write(j, i, b);
    }
}

/* The key struct of image img as the __debezium.oldkey / newkey header holds it (Values'
 * text of the Struct: {"id":2}), copied into `a`; a Decimal is its BigDecimal's toString(). */
static bool header_key(up_enc *e, const rc_event *ev, const rc_value *img, rc_arena *a, rc_str *out)
{
    uint32_t n;
    const uint32_t *idx = rc_enc_pk_memo_order(&e->pk, ev, &n);
    rc_buf *h = &e->hdr;
    rc_buf_reset(h);
    rc_json j;
    rc_json_init(&j, a);
    bool ok = true;
    rc_buf_putc(h, '{');
    for (uint32_t k = 0; k < n && ok; k++) {
        const rc_column *c = &ev->cols[idx[k]];
        const rc_value *v = &img[idx[k]];
        if (k) rc_buf_putc(h, ',');
        rc_str name = rc_dbz_field_name(e, c->name);
        values_str(h, name.p, name.n);
        rc_buf_putc(h, ':');
        rc_decimal d;
        rc_error err;
        rc_error_clear(&err);
        if (v->kind == RC_V_DECIMAL && e->dec_mode == DEC_PRECISE && !(c->type.p2 < 0 && c->type.info->family == RC_FAM_PG)) {
            if ((ok = rc_dbz_rescale(&v->dec, dec_scale(c, &v->dec), &e->digits, &d))) rc_fmt_dec_java(h, &d);
        } else if (v->kind == RC_V_UINT && e->unsigned_precise) {
            rc_fmt_u64(h, v->u);
        } else {
            rc_buf_reset(&e->hval);
            ok = rc_dbz_put_value(e, &e->hval, c, v, &err) == RC_OK && e->hval.err == RC_OK &&
                 rc_json_parse(&j, e->hval.data, e->hval.len, &err) == RC_OK;
            if (ok) values_text(h, &j, 0);
        }
    }
    rc_buf_putc(h, '}');
    rc_json_fini(&j);
    char *p = ok && h->err == RC_OK ? rc_arena_alloc(a, h->len) : NULL;
    if (!p) return false;
    memcpy(p, h->data, h->len);
    *out = (rc_str){p, h->len};
    return true;
}

/* RelationalChangeRecordEmitter: an UPDATE whose old key is known and differs from the new one
 * is written as a delete of the old key (header __debezium.newkey, then its tombstone) and a
 * create of the new one (header __debezium.oldkey), both with the update's source block. */
size_t rc_dbz_up_split(void *p, const rc_event *ev, rc_event_part *parts, rc_arena *a)
{
    up_enc *e = p;
    if (ev->op != RC_OP_UPDATE || !ev->before || !ev->after || connector_of(ev->src.kind) < 0 || !rc_enc_has_pk(ev)) return 0;
    uint32_t n;
    const uint32_t *idx = rc_enc_pk_memo_order(&e->pk, ev, &n);
    bool same = true; /* the same values (most updates): the same key text, no need to write it */
    for (uint32_t k = 0; k < n; k++) { /* a key column's old value not sent: the old key is not known */
        if (ev->before[idx[k]].kind == RC_V_NULL || ev->before[idx[k]].kind == RC_V_UNAVAILABLE) return 0;
        same = same && rc_value_equal(&ev->before[idx[k]], &ev->after[idx[k]]);
    }
    if (same) return 0;
    rc_error err;
    rc_error_clear(&err);
    rc_buf_reset(&e->key_old), rc_buf_reset(&e->key_new);
    /* a key that cannot be written: the update says so as one event */
    if (rc_dbz_put_key_fields(e, &e->key_old, ev, ev->before, &err) != RC_OK || rc_dbz_put_key_fields(e, &e->key_new, ev, ev->after, &err) != RC_OK ||
        e->key_old.err != RC_OK || e->key_new.err != RC_OK)
        return 0;
    if (e->key_old.len == e->key_new.len && !memcmp(e->key_old.data, e->key_new.data, e->key_old.len)) return 0;
    rc_str oldk, newk;
    if (!header_key(e, ev, ev->before, a, &oldk) || !header_key(e, ev, ev->after, a, &newk)) return 0;
    parts[0] = (rc_event_part){*ev, "__debezium.newkey", newk};
    parts[0].ev.op = RC_OP_DELETE, parts[0].ev.after = NULL, parts[0].ev.changed = NULL;
    parts[1] = (rc_event_part){*ev, "__debezium.oldkey", oldk};
    parts[1].ev.op = RC_OP_INSERT, parts[1].ev.before = NULL, parts[1].ev.changed = NULL, parts[1].ev.before_key_only = false;
    /* two messages in the transaction's total_order: the delete keeps the update's place
     * (index - 1 with the one more counted from here on), the create the next one */
    if (e->tx_meta && ev->pos.txid.n && ev->pos.has_tx_index) {
        rc_dbz_tx_enter(e, ev);
        e->tx_extra++;
        parts[0].ev.pos.tx_index--;
    }
    return 2;
}
