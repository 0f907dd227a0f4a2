/* Upstream Debezium: the tables' schema names and their envelope and key schemas, made once per
 * table and kept. */
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "core/hash.h"
#include "core/jsonw.h"

/* "<server>.<db>.<table>" (MySQL), "<server>.<schema>.<table>" (PostgreSQL, SQL Server 1.x),
 * "<server>.<db>.<schema>.<table>" (SQL Server 2.x and later), adjusted by
 * schema.name.adjustment.mode. */
/* The name parts as one key: each part's length, then its bytes (names may hold any byte). */
static void put_parts(rc_buf *b, const rc_str *parts, size_t n)
{
    rc_buf_reset(b);
    for (size_t i = 0; i < n; i++) {
        rc_buf_put(b, &parts[i].n, sizeof parts[i].n);
        rc_buf_put(b, parts[i].p, parts[i].n);
    }
}

/* Whether key (put_parts) holds exactly these parts: compared in place (rc_short_eq: names are
 * shorter than a call), as most events name the table of the event before them. */
static bool parts_match(const rc_buf *key, const rc_str *parts, size_t n)
{
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        if (key->len - at < sizeof len) return false;
        memcpy(&len, key->data + at, sizeof len);
        at += sizeof len;
        if (len != parts[i].n || key->len - at < len || (len && !rc_short_eq(key->data + at, parts[i].p, len))) return false;
        at += len;
    }
    return at == key->len;
}

/* The table's Avro full name into e->name, checked against the names of other tables once per
 * run of events of one table (the name depends only on the parts compared here). */
static rc_status table_name(up_enc *e, const rc_event *ev, int conn, rc_error *err)
{
    rc_buf *out = &e->name;
    rc_str server = server_of(e, ev);
    rc_str parts[4];
    size_t n = 0;
    parts[n++] = server;
    if (conn == CONN_MYSQL) parts[n++] = ev->src.db;
    else if (conn == CONN_POSTGRES) parts[n++] = ev->src.schema;
    else {
        if (e->compat >= 20) parts[n++] = ev->src.db;
        parts[n++] = ev->src.schema;
    }
    parts[n++] = ev->src.table;
    if (e->name_of.len && parts_match(&e->name_of, parts, n)) return RC_OK;
    rc_buf_reset(&e->name_of); /* named again below; kept only when that succeeds */
    rc_buf_reset(out);
    rc_buf *joined = &e->scratch;
    rc_buf_reset(joined);
    for (size_t i = 0; i < n; i++) {
        if (i) rc_buf_putc(joined, '.');
        rc_buf_put(joined, parts[i].p, parts[i].n);
    }
    rc_dbz_adjust_name(out, joined->data, joined->len, e->schema_adjust, false);
    if (joined->err != RC_OK || out->err != RC_OK) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    /* where each adjusted name came from, to catch two tables meeting in one name, as
     * Debezium's adjuster does */
    rc_status st = rc_name_registry_add(e->names, joined->data, joined->len, out->data, out->len, err);
    if (st == RC_OK) put_parts(&e->name_of, parts, n);
    return st;
}

/* Column i's default as JSON in buf (Connect's "default"), NULL when it has none. */
static rc_buf *column_default(up_enc *e, const rc_event *ev, uint32_t i, rc_buf *buf)
{
    return ev->dflts && ev->dflts[i].p && rc_dbz_default_json(e, &ev->cols[i], ev->dflts[i], buf) ? buf : NULL;
}

static void image_schema(up_enc *e, rc_buf *b, const rc_event *ev, const char *prefix, size_t pn, const char *field,
                         rc_buf *params, rc_buf *dflt)
{
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    for (uint32_t i = 0, n = 0; i < ev->ncols; i++) {
        if (rc_dbz_left_out(e, ev, i)) continue; /* include.unknown.datatypes=false */
        if (n++) rc_buf_putc(b, ',');
        rc_dbz_put_column_schema(e, b, ev, i, ev->cols[i].nullable, params, column_default(e, ev, i, dflt));
    }
    RC_BUF_LIT(b, "],\"optional\":true,\"name\":\"");
    rc_jw_str_body(b, prefix, pn);
    RC_BUF_LIT(b, ".Value\",\"field\":\"");
    rc_buf_puts(b, field);
    RC_BUF_LIT(b, "\"}");
}

void rc_dbz_transaction_schema(const up_enc *e, rc_buf *b)
{
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[{\"type\":\"string\",\"optional\":false,\"field\":\"id\"},"
                  "{\"type\":\"int64\",\"optional\":false,\"field\":\"total_order\"},"
                  "{\"type\":\"int64\",\"optional\":false,\"field\":\"data_collection_order\"}],\"optional\":true");
    if (e->compat >= 20) RC_BUF_LIT(b, ",\"name\":\"event.block\",\"version\":1");
    RC_BUF_LIT(b, ",\"field\":\"transaction\"}");
}

static void envelope_schema(up_enc *e, rc_buf *b, const rc_event *ev, int conn, const char *prefix, size_t pn)
{
    rc_buf params, dflt;
    rc_buf_init(&params, 0);
    rc_buf_init(&dflt, 0);
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    image_schema(e, b, ev, prefix, pn, "before", &params, &dflt);
    rc_buf_putc(b, ',');
    image_schema(e, b, ev, prefix, pn, "after", &params, &dflt);
    rc_buf_putc(b, ',');
    rc_dbz_source_schema(e, b, conn);
    rc_buf_putc(b, ',');
    if (e->compat >= 26) { /* 2.6 (DBZ-7107) adds ts_us and ts_ns, after a transaction moved up */
        rc_dbz_transaction_schema(e, b);
        rc_buf_putc(b, ',');
    }
    rc_dbz_put_simple_field(b, "string", false, "op");
    rc_buf_putc(b, ',');
    rc_dbz_put_simple_field(b, "int64", true, "ts_ms");
    if (e->compat >= 26) {
        rc_dbz_put_simple_fields(b, rc_dbz_ts_us_ns, true);
    } else if (e->compat >= 10) { /* 0.x has no transaction block */
        rc_buf_putc(b, ',');
        rc_dbz_transaction_schema(e, b);
    }
    RC_BUF_LIT(b, "],\"optional\":false,\"name\":\"");
    rc_jw_str_body(b, prefix, pn);
    RC_BUF_LIT(b, ".Envelope\"");
    /* 2.0 versions its schemas (DBZ-5044), 2.6 the envelope again for ts_us/ts_ns */
    if (e->compat >= 26) RC_BUF_LIT(b, ",\"version\":2");
    else if (e->compat >= 20) RC_BUF_LIT(b, ",\"version\":1");
    rc_buf_putc(b, '}');
    rc_buf_fini(&params);
    rc_buf_fini(&dflt);
}

static void key_schema(up_enc *e, rc_buf *b, const rc_event *ev, const char *prefix, size_t pn)
{
    rc_buf params, dflt;
    rc_buf_init(&params, 0);
    rc_buf_init(&dflt, 0);
    uint32_t idx[RC_ENC_PK_MAX], n = rc_enc_pk_order(ev, idx);
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    for (uint32_t k = 0; k < n; k++) {
        if (k) rc_buf_putc(b, ',');
        rc_dbz_put_column_schema(e, b, ev, idx[k], false, &params, column_default(e, ev, idx[k], &dflt));
    }
    rc_dbz_naming_key_schema(e, b); /* the regex strategy's topic.key.field.name */
    RC_BUF_LIT(b, "],\"optional\":false,\"name\":\"");
    rc_jw_str_body(b, prefix, pn);
    RC_BUF_LIT(b, ".Key\"}");
    rc_buf_fini(&params);
    rc_buf_fini(&dflt);
}

/* Cached schema text: the signature is the prefix, connector and every column's name, type
 * declaration, nullability and key position. */
static rc_status cached_schema(up_enc *e, up_slot *slots, bool key, const rc_event *ev, int conn, const char *prefix,
                               size_t pn, const char **text, size_t *n, rc_error *err)
{
    /* the same cached column list and name as the last message's: its slot, without the
     * signature (most of the work here) */
    up_memo *m = key ? &e->key_memo : &e->value_memo;
    if (ev->cols_id && m->cols_id == ev->cols_id && m->conn == conn && m->prefix.len == pn && (!pn || rc_short_eq(m->prefix.data, prefix, pn))) {
        *text = m->slot->text;
        *n = m->slot->text_n;
        return RC_OK;
    }
    rc_buf *s = &e->sig;
    rc_buf_reset(s);
    rc_buf_put(s, prefix, pn);
    rc_buf_putc(s, (char)('0' + conn));
    for (uint32_t i = 0; i < ev->ncols; i++) {
        rc_buf_putc(s, '\0');
        rc_buf_put(s, ev->cols[i].name.p, ev->cols[i].name.n);
        rc_buf_putc(s, '\0');
        rc_buf_put(s, ev->cols[i].type.decl.p, ev->cols[i].type.decl.n);
        rc_buf_putc(s, ev->cols[i].nullable ? '?' : '!');
        rc_fmt_u64(s, ev->cols[i].pk);
        if (ev->dflts && ev->dflts[i].p) { /* the default: its length and text */
            rc_buf_putc(s, '=');
            rc_fmt_u64(s, ev->dflts[i].n);
            rc_buf_putc(s, ':');
            rc_buf_put(s, ev->dflts[i].p, ev->dflts[i].n);
        }
    }
    if (s->err != RC_OK) return rc_error_set(err, s->err, RC_NO_OFFSET, "out of memory");
    uint64_t h = rc_hash64(s->data, s->len, 0);
    up_slot *sl = &slots[h % SCHEMA_SLOTS];
    if (!(sl->text && sl->hash == h && sl->sig_n == s->len && !memcmp(sl->sig, s->data, s->len))) {
        rc_buf t;
        rc_buf_init(&t, 0);
        if (key) key_schema(e, &t, ev, prefix, pn);
        else envelope_schema(e, &t, ev, conn, prefix, pn);
        char *sig = malloc(s->len + 1);
        if (!sig || t.err != RC_OK) {
            free(sig);
            rc_buf_fini(&t);
            return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        }
        memcpy(sig, s->data, s->len);
        free(sl->sig), free(sl->text);
        *sl = (up_slot){h, sig, t.data, s->len, t.len};
        e->value_memo.cols_id = e->key_memo.cols_id = NULL; /* a memo may have named this slot */
    }
    *text = sl->text;
    *n = sl->text_n;
    if (ev->cols_id) {
        rc_buf_reset(&m->prefix);
        rc_buf_put(&m->prefix, prefix, pn);
        if (m->prefix.err == RC_OK) m->cols_id = ev->cols_id, m->conn = conn, m->slot = sl;
        else rc_buf_reset(&m->prefix), m->prefix.err = RC_OK, m->cols_id = NULL;
    }
    return RC_OK;
}

rc_status rc_dbz_open_envelope(up_enc *e, up_slot *slots, bool key, const rc_event *ev, int conn, rc_buf *b, rc_error *err)
{
    rc_status st = table_name(e, ev, conn, err); /* into e->name, which nothing below rewrites */
    if (st != RC_OK || !e->schemas) return st;
    const char *text = NULL, *prefix = e->name.data;
    size_t n = 0, pn = e->name.len;
    if (e->naming) rc_dbz_naming_prefix(e, ev, &prefix, &pn); /* the router: the new topic's */
    if ((st = cached_schema(e, slots, key, ev, conn, prefix, pn, &text, &n, err)) != RC_OK) return st;
    RC_BUF_LIT(b, "{\"schema\":");
    rc_buf_put(b, text, n);
    RC_BUF_LIT(b, ",\"payload\":");
    return RC_OK;
}
