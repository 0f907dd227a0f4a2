/* Canal flat messages (docs/formats/canal.md; Alibaba Canal's FlatMessage).
 *
 * Three flavours: `canal` (default) is what Canal itself writes — every value a string, keys
 * in alphabetical order (fastjson), an "id", the declared column types as mysqlType; `oms`
 * (the name oms-canal, registry.c) what OMS writes — typed values, the seed's key order, OMS
 * type names; `ticdc` TiCDC's canal-json. With
 * canal.group=true the rows of one statement (consecutive events at the same source
 * position) share one message, as Canal does. See docs/formats/canal.md. */
#include <stdlib.h>
#include <string.h>
#include "formats/canal_read.h"
#include "formats/canal_values.h"
#include "formats/oms_common.h"
#include "core/ddl.h"
#include "core/fmt.h"
#include "core/jsonw.h"

enum { FLAVOR_OMS, FLAVOR_CANAL, FLAVOR_TICDC };

/* One message being assembled: every field rendered as JSON text. */
typedef struct canal_msg {
    rc_buf database, table, sqltype, mysqltype, pknames, data, old, type, sql;
    int64_t es, ts;
    uint64_t id;
    bool is_ddl, has_old;
    size_t rows;
} canal_msg;

typedef struct canal_enc {
    int flavor;
    oms_style style;
    bool group, init_type;
    uint64_t next_id;
    canal_msg m;
    bool pending; /* m holds rows not yet written (grouping) */
    rc_buf key;   /* grouping key of the pending message */
    rc_buf probe; /* grouping key of the current event */
    const void *types_of; /* the cols_id m's sqlType, mysqlType and pkNames were written for */
    rc_buf row;   /* scratch */
    rc_buf geo;   /* scratch: a geometry's binlog value */
} canal_enc;

static rc_buf *msg_bufs(canal_msg *m, size_t *n)
{
    *n = 9;
    return &m->database;
}

static rc_status canal_new(const rc_options *o, void **out, rc_error *err)
{
    rc_canal_opts co = {.values = -1};
    rc_status st = rc_options_parse(o, "canal", rc_canal_options, &co, err);
    if (st != RC_OK) return st;
    canal_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->flavor = co.flavor, e->style.tz = co.tz, e->group = co.group, e->init_type = co.init;
    e->style.canal = true;
    e->style.all_strings = co.values < 0 ? e->flavor != FLAVOR_OMS : co.values == 1;
    e->next_id = 1;
    size_t n;
    rc_buf *b = msg_bufs(&e->m, &n);
    for (size_t i = 0; i < n; i++) rc_buf_init(&b[i], 0);
    rc_buf_init(&e->key, 0);
    rc_buf_init(&e->probe, 0);
    rc_buf_init(&e->row, 0);
    rc_buf_init(&e->geo, 0);
    *out = e;
    return RC_OK;
}

static void canal_free(void *p)
{
    canal_enc *e = p;
    if (!e) return;
    size_t n;
    rc_buf *b = msg_bufs(&e->m, &n);
    for (size_t i = 0; i < n; i++) rc_buf_fini(&b[i]);
    rc_buf_fini(&e->key);
    rc_buf_fini(&e->probe);
    rc_buf_fini(&e->row);
    rc_buf_fini(&e->geo);
    free(e);
}

static const char *ddl_type(rc_ddl_class c)
{
    static const char *const names[RC_DDL_CLASS_COUNT] = {
        [RC_DDL_OTHER] = "QUERY",         [RC_DDL_CREATE_TABLE] = "CREATE", [RC_DDL_ALTER_TABLE] = "ALTER",
        [RC_DDL_DROP_TABLE] = "ERASE",    [RC_DDL_TRUNCATE] = "TRUNCATE",   [RC_DDL_RENAME_TABLE] = "RENAME",
        [RC_DDL_CREATE_INDEX] = "CINDEX", [RC_DDL_DROP_INDEX] = "DINDEX",   [RC_DDL_CREATE_DATABASE] = "QUERY",
        [RC_DDL_DROP_DATABASE] = "QUERY",
    };
    return names[c];
}

/* TiCDC's code where it is not Canal's (tiflow pkg/sink/codec/canal, mysqlType2JavaType): the
 * TEXT kinds CLOB, binary strings and BLOBs BLOB, SET BIT, JSON VARCHAR. */
static int16_t ticdc_jdbc(const rc_type_info *t)
{
    if (t->family != RC_FAM_MYSQL) return t->canal_jdbc;
    switch (t->vkind) {
    case RC_V_BYTES: return 2004;
    case RC_V_SET: return -7;
    case RC_V_JSON: return 12;
    case RC_V_TEXT: return t->canal_jdbc == -3 || t->canal_jdbc == -4 ? 2005 : t->canal_jdbc; /* TINYTEXT..LONGTEXT */
    default: return t->canal_jdbc;
    }
}

/* The sqlType of a column: the code its input stated (a Canal message read back), else the
 * catalog's for the flavour. */
static int16_t sql_type(const canal_enc *e, const rc_column *c)
{
    if (c->has_jdbc) return c->jdbc;
    if (e->flavor == FLAVOR_TICDC) return ticdc_jdbc(c->type.info);
    return e->flavor == FLAVOR_CANAL ? c->type.info->canal_jdbc : c->type.info->jdbc;
}

static void put_types(canal_enc *e, const rc_event *ev)
{
    canal_msg *m = &e->m;
    rc_buf_putc(&m->sqltype, '{');
    rc_buf_putc(&m->mysqltype, '{');
    for (uint32_t i = 0; i < ev->ncols; i++) {
        const rc_column *c = &ev->cols[i];
        if (i) rc_buf_putc(&m->sqltype, ','), rc_buf_putc(&m->mysqltype, ',');
        rc_jw_str(&m->sqltype, c->name.p, c->name.n);
        rc_buf_putc(&m->sqltype, ':');
        rc_fmt_i64(&m->sqltype, sql_type(e, c));
        rc_jw_str(&m->mysqltype, c->name.p, c->name.n);
        rc_buf_putc(&m->mysqltype, ':');
        if (e->flavor != FLAVOR_OMS) rc_jw_str(&m->mysqltype, c->type.decl.p, c->type.decl.n);
        else {
            rc_buf_putc(&m->mysqltype, '"');
            rc_buf_puts(&m->mysqltype, c->type.info->canal_type);
            rc_buf_putc(&m->mysqltype, '"');
        }
    }
    rc_buf_putc(&m->sqltype, '}');
    rc_buf_putc(&m->mysqltype, '}');
}

/* Grouping key: rows of one binlog row event share op, table and source position. */
static void group_key(rc_buf *k, const rc_event *ev)
{
    rc_buf_reset(k);
    rc_str parts[] = {ev->src.db, ev->src.table, ev->pos.file, ev->pos.gtid, ev->pos.lsn, ev->pos.txid};
    rc_buf_putc(k, (char)('0' + ev->op));
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        rc_fmt_u64(k, parts[i].n);
        rc_buf_putc(k, ':');
        rc_buf_put(k, parts[i].p, parts[i].n);
    }
    rc_fmt_u64(k, ev->pos.offset);
    rc_buf_putc(k, ev->pos.has_offset ? 'o' : '-');
    rc_fmt_i64(k, ev->ts_us);
    for (uint32_t i = 0; i < ev->ncols; i++) {
        rc_buf_putc(k, '|');
        rc_buf_put(k, ev->cols[i].name.p, ev->cols[i].name.n);
        rc_buf_putc(k, ' ');
        rc_buf_put(k, ev->cols[i].type.decl.p, ev->cols[i].type.decl.n);
        if (ev->cols[i].has_jdbc) rc_buf_putc(k, ' '), rc_fmt_i64(k, ev->cols[i].jdbc);
    }
}

/* database and table: a string, "" when the input said "" (Canal's CREATE DATABASE), null
 * when absent */
static void put_name(rc_buf *b, rc_str s)
{
    if (s.p) rc_jw_str(b, s.p, s.n);
    else RC_BUF_LIT(b, "null");
}

/* {col: value, ...} of the columns selected by `only` (NULL = all); the Canal flavour writes
 * ENUM, SET and geometry values as Canal does (canal_values.h) */
static void put_row(canal_enc *e, rc_buf *b, const rc_event *ev, const rc_value *img, const uint8_t *only)
{
    if (e->flavor != FLAVOR_CANAL) {
        rc_oms_put_row(b, ev, img, only, &e->style);
        return;
    }
    rc_buf_putc(b, '{');
    bool first = true;
    for (uint32_t i = 0; img && i < ev->ncols; i++) {
        const rc_column *c = &ev->cols[i];
        if (only && !only[i]) continue;
        if (!first) rc_buf_putc(b, ',');
        first = false;
        rc_jw_str(b, c->name.p, c->name.n);
        rc_buf_putc(b, ':');
        rc_vkind k = img[i].kind; /* only these kinds have a binlog rendering */
        if ((k != RC_V_ENUM && k != RC_V_SET && k != RC_V_GEOMETRY) ||
            !rc_canal_put_binlog_value(b, c, sql_type(e, c), &img[i], e->style.all_strings, &e->geo))
            rc_oms_value(b, c, &img[i], &e->style, true);
    }
    rc_buf_putc(b, '}');
}

static void start_message(canal_enc *e, const rc_event *ev, const char *type, bool ddl)
{
    canal_msg *m = &e->m;
    size_t n;
    rc_buf *b = msg_bufs(m, &n);
    /* the type maps and key list depend on the columns only: kept while the events carry the
     * same cached list (rc_event.cols_id) */
    bool same = !ddl && ev->cols_id && ev->cols_id == e->types_of;
    for (size_t i = 0; i < n; i++)
        if (!same || (&b[i] != &m->sqltype && &b[i] != &m->mysqltype && &b[i] != &m->pknames)) rc_buf_reset(&b[i]);
    e->types_of = ddl ? NULL : ev->cols_id;
    m->rows = 0;
    m->has_old = false;
    m->is_ddl = ddl;
    m->es = rc_enc_es_ms(ev);
    m->ts = rc_enc_ts_ms(ev);
    m->id = ev->pos.has_seq ? ev->pos.seq : e->flavor == FLAVOR_TICDC ? 0 : e->next_id; /* TiCDC writes 0 */
    e->next_id++;
    put_name(&m->database, ev->src.db);
    put_name(&m->table, ev->src.table);
    rc_buf_putc(&m->type, '"');
    rc_buf_puts(&m->type, type);
    rc_buf_putc(&m->type, '"');
    if (ddl) {
        rc_enc_put_ddl_text(&m->sql, ev);
        return;
    }
    RC_BUF_LIT(&m->sql, "\"\"");
    if (same) return;
    put_types(e, ev);
    rc_enc_put_pk_array(&m->pknames, ev);
}

static rc_status add_row(canal_enc *e, const rc_event *ev, rc_error *err)
{
    canal_msg *m = &e->m;
    if (m->rows++) rc_buf_putc(&m->data, ',');
    put_row(e, &m->data, ev, rc_enc_row(ev), NULL);
    if (ev->op != RC_OP_UPDATE) return RC_OK;
    /* old: the previous values of the changed columns only; TiCDC's the whole previous row */
    const uint8_t *changed = e->flavor == FLAVOR_TICDC ? NULL : rc_enc_changed(ev, &e->row);
    if (!changed && e->flavor != FLAVOR_TICDC) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (m->has_old) rc_buf_putc(&m->old, ',');
    m->has_old = true;
    put_row(e, &m->old, ev, ev->before, changed);
    return RC_OK;
}

static inline void put_field(rc_buf *b, const char *k, size_t kn, const rc_buf *v, bool *first)
{
    rc_enc_key(b, k, kn, first);
    rc_buf_put(b, v->data, v->len);
}

static inline void put_list_or_null(rc_buf *b, const char *k, size_t kn, const rc_buf *items, bool present, bool *first)
{
    rc_enc_key(b, k, kn, first);
    if (!present) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_buf_putc(b, '[');
    rc_buf_put(b, items->data, items->len);
    rc_buf_putc(b, ']');
}

static inline void put_null_or(rc_buf *b, const char *k, size_t kn, const rc_buf *v, bool is_null, bool *first)
{
    rc_enc_key(b, k, kn, first);
    if (is_null) RC_BUF_LIT(b, "null");
    else rc_buf_put(b, v->data, v->len);
}

/* Writes the assembled message in the flavour's key order. */
static rc_status emit(canal_enc *e, rc_buf *b, rc_error *err)
{
    canal_msg *m = &e->m;
    bool first = true, ddl = m->is_ddl;
    rc_buf_putc(b, '{');
    if (e->flavor == FLAVOR_OMS) {
        put_field(b, RC_ENC_K("database"), &m->database, &first);
        put_null_or(b, RC_ENC_K("sqlType"), &m->sqltype, ddl, &first);
        put_list_or_null(b, RC_ENC_K("data"), &m->data, !ddl, &first);
        put_null_or(b, RC_ENC_K("pkNames"), &m->pknames, ddl, &first);
        put_list_or_null(b, RC_ENC_K("old"), &m->old, m->has_old, &first);
        put_null_or(b, RC_ENC_K("mysqlType"), &m->mysqltype, ddl, &first);
        put_field(b, RC_ENC_K("type"), &m->type, &first);
        put_field(b, RC_ENC_K("table"), &m->table, &first);
        rc_enc_key(b, RC_ENC_K("es"), &first);
        rc_fmt_i64(b, m->es);
        rc_enc_key(b, RC_ENC_K("isDdl"), &first);
        rc_buf_puts(b, ddl ? "true" : "false");
        rc_enc_key(b, RC_ENC_K("ts"), &first);
        rc_fmt_i64(b, m->ts);
        put_field(b, RC_ENC_K("sql"), &m->sql, &first);
    } else if (e->flavor == FLAVOR_TICDC) { /* TiCDC's canal-json: its struct's field order */
        rc_enc_key(b, RC_ENC_K("id"), &first);
        rc_fmt_u64(b, m->id);
        put_field(b, RC_ENC_K("database"), &m->database, &first);
        put_field(b, RC_ENC_K("table"), &m->table, &first);
        put_null_or(b, RC_ENC_K("pkNames"), &m->pknames, ddl, &first);
        rc_enc_key(b, RC_ENC_K("isDdl"), &first);
        rc_buf_puts(b, ddl ? "true" : "false");
        put_field(b, RC_ENC_K("type"), &m->type, &first);
        rc_enc_key(b, RC_ENC_K("es"), &first);
        rc_fmt_i64(b, m->es);
        rc_enc_key(b, RC_ENC_K("ts"), &first);
        rc_fmt_i64(b, m->ts);
        put_field(b, RC_ENC_K("sql"), &m->sql, &first);
        put_null_or(b, RC_ENC_K("sqlType"), &m->sqltype, ddl, &first);
        put_null_or(b, RC_ENC_K("mysqlType"), &m->mysqltype, ddl, &first);
        put_list_or_null(b, RC_ENC_K("data"), &m->data, !ddl, &first);
        put_list_or_null(b, RC_ENC_K("old"), &m->old, m->has_old, &first);
    } else {
        put_list_or_null(b, RC_ENC_K("data"), &m->data, !ddl, &first);
        put_field(b, RC_ENC_K("database"), &m->database, &first);
        rc_enc_key(b, RC_ENC_K("es"), &first);
        rc_fmt_i64(b, m->es);
        rc_enc_key(b, RC_ENC_K("id"), &first);
        rc_fmt_u64(b, m->id);
        rc_enc_key(b, RC_ENC_K("isDdl"), &first);
        rc_buf_puts(b, ddl ? "true" : "false");
        put_null_or(b, RC_ENC_K("mysqlType"), &m->mysqltype, ddl, &first);
        put_list_or_null(b, RC_ENC_K("old"), &m->old, m->has_old, &first);
        put_null_or(b, RC_ENC_K("pkNames"), &m->pknames, ddl, &first);
        put_field(b, RC_ENC_K("sql"), &m->sql, &first);
        put_null_or(b, RC_ENC_K("sqlType"), &m->sqltype, ddl, &first);
        put_field(b, RC_ENC_K("table"), &m->table, &first);
        rc_enc_key(b, RC_ENC_K("ts"), &first);
        rc_fmt_i64(b, m->ts);
        put_field(b, RC_ENC_K("type"), &m->type, &first);
    }
    rc_buf_putc(b, '}');
    e->pending = false;
    size_t n;
    rc_buf *parts = msg_bufs(m, &n);
    for (size_t i = 0; i < n; i++)
        if (parts[i].err != RC_OK) b->err = parts[i].err;
    return rc_enc_finish(b, err);
}

static rc_status canal_flush(void *p, rc_buf *out, rc_error *err)
{
    canal_enc *e = p;
    if (!e->pending) return RC_SKIP;
    return emit(e, out, err);
}

static bool canal_holding(void *p) { return ((canal_enc *)p)->pending; }

static rc_status canal_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    canal_enc *e = p;
    if (rc_event_refuse_unavailable(ev, "canal", err) != RC_OK) return RC_SKIP;
    const char *type;
    bool ddl = false;
    switch (ev->op) {
    case RC_OP_INSERT: type = "INSERT"; break;
    case RC_OP_READ: type = e->init_type ? "INIT" : "INSERT"; break;
    case RC_OP_UPDATE: type = "UPDATE"; break;
    case RC_OP_DELETE: type = "DELETE"; break;
    case RC_OP_DDL:
    case RC_OP_TRUNCATE:
        if (ev->op == RC_OP_DDL && !ev->ddl.n) return rc_enc_unsupported(err, "canal", ev, "a DDL message needs the statement text");
        type = ddl_type(rc_ddl_classify(ev)), ddl = true;
        break;
    default: return RC_SKIP; /* heartbeat, begin, commit: Canal has no message (docs/formats/: each page's "no message" list) */
    }
    rc_status st = rc_enc_need_before(ev, "canal", ev->op == RC_OP_UPDATE ? "\"old\"" : "\"data\"", false, err);
    if (st != RC_OK) return st;
    if (!e->group) {
        start_message(e, ev, type, ddl);
        if (!ddl && (st = add_row(e, ev, err)) != RC_OK) return st;
        return emit(e, b, err);
    }
    /* Grouping: every event is held; a call writes at most the previous group. */
    if (!ddl) {
        group_key(&e->probe, ev);
        /* row 0 of a rows event (or of a Canal message read back) starts a message */
        bool starts = ev->pos.has_row && ev->pos.row == 0;
        if (e->pending && !starts && !e->m.is_ddl && e->probe.len == e->key.len && !memcmp(e->probe.data, e->key.data, e->key.len)) {
            size_t dmark = e->m.data.len, omark = e->m.old.len, rows = e->m.rows;
            bool had_old = e->m.has_old;
            if ((st = add_row(e, ev, err)) != RC_OK) { /* leave the group as it was */
                e->m.data.len = dmark, e->m.old.len = omark, e->m.rows = rows, e->m.has_old = had_old;
                return st;
            }
            return RC_PENDING;
        }
    }
    rc_status out = RC_PENDING;
    if (e->pending && (out = emit(e, b, err)) != RC_OK) return out;
    rc_buf_reset(&e->key);
    if (!ddl) rc_buf_put(&e->key, e->probe.data, e->probe.len);
    start_message(e, ev, type, ddl);
    if (!ddl && (st = add_row(e, ev, err)) != RC_OK) return st;
    e->pending = true;
    return out; /* RC_OK when the previous group was written, else RC_PENDING */
}

const rc_format rc_format_canal = {
    .name = "canal",
    .summary = "Canal flat message JSON as Canal writes it (-o canal.flavor=ticdc: TiCDC's canal-json)",
    .content_type = "application/json",
    .options = rc_canal_options,
    .enc_new = canal_new,
    .enc_free = canal_free,
    .encode_value = canal_encode,
    .encode_key = rc_oms_encode_key,
    .flush = canal_flush,
    .holding = canal_holding,
    .dec_new = rc_canal_dec_new,
    .dec_free = rc_canal_dec_free,
    .decode = rc_canal_decode,
};
