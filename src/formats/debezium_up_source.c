/* Upstream Debezium: the source block (its schema and its value) of the MySQL, PostgreSQL and
 * SQL Server connectors. */
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "core/jsonw.h"

static const char *const connector_names[] = {"mysql", "postgresql", "sqlserver"};
static const char *const source_names[] = {"io.debezium.connector.mysql.Source", "io.debezium.connector.postgresql.Source",
                                           "io.debezium.connector.sqlserver.Source"};

/* Fields after the common head (version, connector, name, ts_ms, snapshot, db[, sequence,
 * ts_us, ts_ns]) per connector. */
static const rc_dbz_field mysql_tail[] = {{"table", "string", true},  {"server_id", "int64", false}, {"gtid", "string", true},
                                       {"file", "string", false},  {"pos", "int64", false},       {"row", "int32", false},
                                       {"thread", "int64", true},  {"query", "string", true},     {0}};
static const rc_dbz_field pg_tail[] = {{"schema", "string", false}, {"table", "string", false}, {"txId", "int64", true},
                                    {"lsn", "int64", true},       {"xmin", "int64", true},    {0}};
static const rc_dbz_field ss_tail[] = {{"schema", "string", false},    {"table", "string", false},
                                    {"change_lsn", "string", true}, {"commit_lsn", "string", true},
                                    {"event_serial_no", "int64", true}, {0}};
static const rc_dbz_field *const tails[] = {mysql_tail, pg_tail, ss_tail};
/* The head before snapshot. */
static const rc_dbz_field head[] = {{"version", "string", false}, {"connector", "string", false}, {"name", "string", false}, {"ts_ms", "int64", false}, {0}};

void rc_dbz_snapshot_schema(const up_enc *e, rc_buf *b)
{
    RC_BUF_LIT(b, "{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.data.Enum\",\"version\":1,\"parameters\":{\"allowed\":\"");
    /* SnapshotRecord's values: 2.0 writes first, first_in_data_collection and
     * last_in_data_collection (DBZ-5136), but the schema lists them from 2.6 on (2.4.0's does not) */
    rc_buf_puts(b, e->compat < 16   ? "true,last,false"
                   : e->compat < 26 ? "true,last,false,incremental" /* still in 2.4.0's schema */
                                    : "true,first,first_in_data_collection,last_in_data_collection,last,false,incremental");
    RC_BUF_LIT(b, "\"},\"default\":\"false\",\"field\":\"snapshot\"}");
}

void rc_dbz_source_schema(up_enc *e, rc_buf *b, int conn)
{
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    rc_dbz_put_simple_fields(b, head, false);
    if (e->compat < 10) { /* 0.x: a boolean */
        RC_BUF_LIT(b, ",{\"type\":\"boolean\",\"optional\":true,\"default\":false,\"field\":\"snapshot\"}");
        goto db;
    }
    rc_buf_putc(b, ',');
    rc_dbz_snapshot_schema(e, b);
db:
    rc_buf_putc(b, ',');
    rc_dbz_put_simple_field(b, "string", false, "db");
    if (e->compat >= 16) {
        RC_BUF_LIT(b, ",");
        rc_dbz_put_simple_field(b, "string", true, "sequence");
    }
    if (e->compat >= 26) rc_dbz_put_simple_fields(b, rc_dbz_ts_us_ns, true);
    rc_dbz_put_simple_fields(b, tails[conn], true);
    RC_BUF_LIT(b, "],\"optional\":false,\"name\":\"");
    rc_buf_puts(b, source_names[conn]);
    rc_buf_putc(b, '"');
    if (e->compat >= 30) RC_BUF_LIT(b, ",\"version\":1");
    RC_BUF_LIT(b, ",\"field\":\"source\"}");
}

/* Hex digits p[0..n) as a 32-bit number: false when there are none, one is not a hex digit,
 * or the value does not fit (leading zeros are fine). */
static bool hex32(const char *p, size_t n, uint32_t *out)
{
    uint32_t v = 0;
    if (!n) return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        unsigned d = c - (unsigned)'0';
        if (d > 9) { /* A-F or a-f (| 0x20 folds the case); anything else is no digit */
            d = (c | 0x20u) - (unsigned)'a';
            if (d > 5) return false;
            d += 10;
        }
        if (v >> 28) return false; /* a fifth nibble past 32 bits */
        v = v << 4 | d;
    }
    *out = v;
    return true;
}

/* PostgreSQL LSN "X/Y" (each half 32 bits in hex, as pg_lsn writes them) or a decimal
 * number, as Debezium's int64 (X << 32 | Y); false for anything else, a half of more than 32
 * bits included. */
bool rc_dbz_lsn_value(rc_str s, uint64_t *out)
{
    const char *slash = s.n ? memchr(s.p, '/', s.n) : NULL;
    if (!slash) return s.n && rc_parse_u64(s.p, s.n, out) == RC_OK;
    uint32_t hi, lo;
    size_t hn = (size_t)(slash - s.p);
    if (!hex32(s.p, hn, &hi) || !hex32(slash + 1, s.n - hn - 1, &lo)) return false;
    *out = (uint64_t)hi << 32 | lo;
    return true;
}

/* ---- the source block's value: the fields that repeat from event to event (one table in one
 * transaction) are made once into memos, the per-event ones (times, LSN, position) written
 * around them ---- */

/* Whether memo m was made from fields f[0..n) (n <= MEMO_FIELDS); if not, m takes them and
 * is emptied, and the caller makes its text. The lengths are compared before any byte, and
 * the bytes in place (rc_short_eq: the fields are a few bytes, shorter than a call). */
static bool memo_hit(str_memo *m, const rc_str *f, size_t n)
{
    if (m->json.len && m->nf == n) {
        size_t i = 0, off = 0;
        for (; i < n; off += f[i].n, i++) /* a field of 0 bytes reads none (raw.data may be NULL) */
            if (m->lens[i] != f[i].n || (f[i].n && !rc_short_eq(m->raw.data + off, f[i].p, f[i].n))) break;
        if (i == n) return true;
    }
    rc_buf_reset(&m->raw), rc_buf_reset(&m->json);
    m->nf = n;
    for (size_t i = 0; i < n; i++) m->lens[i] = f[i].n, rc_buf_put(&m->raw, f[i].p, f[i].n);
    return false;
}

/* Memo m's text; one that could not be made (out of memory) fails the message, and is made
 * again for the next one. */
static void put_memo(rc_buf *b, str_memo *m)
{
    if (m->raw.err != RC_OK || m->json.err != RC_OK) {
        if (b->err == RC_OK) b->err = RC_ERR_NOMEM;
        rc_buf_reset(&m->json);
        return;
    }
    rc_buf_put(b, m->json.data, m->json.len);
}

/* A snapshot marker of a later Debezium than compat level e->compat, which writes "true" for
 * such a row instead: 2.0's first, first_in_data_collection, last_in_data_collection
 * (DBZ-5136), and 1.6's incremental (DBZ-3473: incremental snapshots, SnapshotRecord.INCREMENTAL;
 * before 1.6 no Debezium read a table while streaming). */
static bool snapshot_later(const up_enc *e, const rc_event *ev)
{
    rc_str m = ev->snapshot;
    if (e->compat < 16 && rc_event_incremental(ev) == RC_INCR_READ) return true;
    return e->compat < 20 && ((m.n == 5 && !memcmp(m.p, "first", 5)) || (m.n == 24 && !memcmp(m.p, "first_in_data_collection", 24)) ||
                              (m.n == 23 && !memcmp(m.p, "last_in_data_collection", 23)));
}

/* ,"snapshot":..,"db":..[,"sequence":"[<last commit LSN>,] (PostgreSQL; others: ,"sequence":null) */
static void put_mid(up_enc *e, rc_buf *t, const rc_event *ev, int conn)
{
    RC_BUF_LIT(t, ",\"snapshot\":");
    if (e->compat < 10) /* 0.x: true for every row of a snapshot */
        rc_buf_puts(t, (ev->snapshot.n ? !(ev->snapshot.n == 5 && !memcmp(ev->snapshot.p, "false", 5)) : ev->op == RC_OP_READ) ? "true" : "false");
    else if (ev->snapshot.n && snapshot_later(e, ev)) RC_BUF_LIT(t, "\"true\"");
    else if (ev->snapshot.n) rc_jw_str(t, ev->snapshot.p, ev->snapshot.n);
    else rc_buf_puts(t, ev->op == RC_OP_READ ? "\"true\"" : "\"false\"");
    RC_BUF_LIT(t, ",\"db\":");
    rc_jw_str(t, ev->src.db.p, ev->src.db.n);
    if (e->compat >= 16 && conn == CONN_POSTGRES) {
        /* SourceInfo.sequence(): the JSON array text ["<last commit LSN>","<LSN>"], decimal, null
         * for what is not known (Jackson's layout: no spaces) */
        uint64_t v;
        RC_BUF_LIT(t, ",\"sequence\":\"[");
        if (rc_dbz_lsn_value(ev->pos.last_commit_lsn, &v)) {
            RC_BUF_LIT(t, "\\\"");
            rc_fmt_u64(t, v);
            RC_BUF_LIT(t, "\\\"");
        } else {
            RC_BUF_LIT(t, "null");
        }
        rc_buf_putc(t, ',');
    } else if (e->compat >= 16) {
        RC_BUF_LIT(t, ",\"sequence\":null");
    }
}

/* PostgreSQL: ,"schema":..,"table":..,"txId":..,"lsn":  MySQL: ,"table":..,"server_id":..,"gtid":..,"file":..,"pos":
 * SQL Server: ,"schema":..,"table":..,"change_lsn": */
static void put_tail(rc_buf *t, const rc_event *ev, int conn)
{
    const rc_position *p = &ev->pos;
    if (conn == CONN_MYSQL) {
        RC_BUF_LIT(t, ",\"table\":");
        rc_enc_put_str_or_null(t, ev->src.table);
        RC_BUF_LIT(t, ",\"server_id\":");
        rc_fmt_u64(t, p->has_server_id ? p->server_id : 0);
        RC_BUF_LIT(t, ",\"gtid\":");
        rc_enc_put_str_or_null(t, p->gtid);
        RC_BUF_LIT(t, ",\"file\":");
        rc_jw_str(t, p->file.p, p->file.n);
        RC_BUF_LIT(t, ",\"pos\":");
        return;
    }
    RC_BUF_LIT(t, ",\"schema\":");
    rc_jw_str(t, ev->src.schema.p, ev->src.schema.n);
    RC_BUF_LIT(t, ",\"table\":");
    rc_jw_str(t, ev->src.table.p, ev->src.table.n);
    if (conn == CONN_POSTGRES) {
        uint64_t v;
        RC_BUF_LIT(t, ",\"txId\":");
        if (p->txid.n && rc_parse_u64(p->txid.p, p->txid.n, &v) == RC_OK) rc_fmt_u64(t, v);
        else RC_BUF_LIT(t, "null");
        RC_BUF_LIT(t, ",\"lsn\":");
    } else {
        RC_BUF_LIT(t, ",\"change_lsn\":");
    }
}

/* The source block up to its per-event fields (MySQL: "pos":, PostgreSQL: "lsn":, SQL
 * Server: "change_lsn":), the LSN's digits in *lsn (PostgreSQL; lsn->n 0 for none). */
static void put_head_to_pos(up_enc *e, rc_buf *b, const rc_event *ev, int conn, const us_text *tsp, us_text *lsn)
{
    us_text ts = *tsp;
    /* the head depends on the connector and the server name only: made again when they change */
    rc_str server = server_of(e, ev);
    rc_buf *h = &e->src_head, *of = &e->src_head_of;
    if (!h->len || of->len != server.n + 1 || of->data[0] != (char)conn || memcmp(of->data + 1, server.p, server.n) != 0) {
        rc_buf_reset(h), rc_buf_reset(of);
        rc_buf_putc(of, (char)conn);
        rc_buf_put(of, server.p, server.n);
        RC_BUF_LIT(h, "{\"version\":");
        rc_jw_str(h, e->version, strlen(e->version));
        RC_BUF_LIT(h, ",\"connector\":\"");
        rc_buf_puts(h, connector_names[conn]);
        RC_BUF_LIT(h, "\",\"name\":");
        rc_jw_str(h, server.p, server.n);
        RC_BUF_LIT(h, ",\"ts_ms\":");
        if ((h->err != RC_OK || of->err != RC_OK) && b->err == RC_OK) b->err = RC_ERR_NOMEM; /* the message fails */
        if (h->err != RC_OK || of->err != RC_OK) rc_buf_reset(h);
    }
    rc_buf_put(b, h->data, h->len);
    put_ms(b, &ts);
    const rc_position *p = &ev->pos;
    char tag[2] = {(char)conn, (char)(ev->op == RC_OP_READ)};
    rc_str mid[] = {{tag, 2}, ev->snapshot, ev->src.db, p->last_commit_lsn};
    if (!memo_hit(&e->src_mid, mid, conn == CONN_POSTGRES ? 4 : 3)) put_mid(e, &e->src_mid.json, ev, conn);
    put_memo(b, &e->src_mid);
    uint64_t lsn_v = 0;
    bool has_lsn = conn == CONN_POSTGRES && rc_dbz_lsn_value(p->lsn, &lsn_v);
    lsn->n = 0;
    if (has_lsn) {
        rc_buf tmp = {lsn->s, 0, sizeof lsn->s, sizeof lsn->s, RC_OK};
        rc_fmt_u64(&tmp, lsn_v);
        lsn->n = tmp.len;
    }
    char *w = rc_buf_reserve(b, 160); /* the sequence's end and the times: at most 100 bytes, and 24 of slack */
    if (!w) return;                   /* the buffer's error: the message fails */
    char *o = w;
    if (e->compat >= 16 && conn == CONN_POSTGRES) o = has_lsn ? RAW_LIT(raw_us(RAW_LIT(o, "\\\""), lsn), "\\\"]\"") : RAW_LIT(o, "null]\"");
    if (e->compat >= 26) {
        o = raw_us(RAW_LIT(o, ",\"ts_us\":"), &ts);
        o = raw_ns(RAW_LIT(o, ",\"ts_ns\":"), &ts);
    }
    rc_buf_commit(b, (size_t)(o - w));
    uint64_t sid = p->has_server_id ? p->server_id : 0;
    rc_str tail_my[] = {{tag, 1}, ev->src.table, p->gtid, p->file, {(const char *)&sid, sizeof sid}};
    rc_str tail[] = {{tag, 1}, ev->src.schema, ev->src.table, p->txid};
    bool hit = conn == CONN_MYSQL ? memo_hit(&e->src_tail, tail_my, 5) : memo_hit(&e->src_tail, tail, conn == CONN_POSTGRES ? 4 : 3);
    if (!hit) put_tail(&e->src_tail.json, ev, conn);
    put_memo(b, &e->src_tail);
}

void rc_dbz_put_source(up_enc *e, rc_buf *b, const rc_event *ev, int conn)
{
    us_text ts, lsn = {.n = 0};
    us_text_memo(&e->us_last, &ts, ev->has_ts ? ev->ts_us : 0);
    const rc_position *p = &ev->pos;
    int64_t us = ev->has_ts ? ev->ts_us : 0;
    bool same_ts = e->src_my_us_set && us == e->src_my_us; /* a run of events of one time (a binlog's: seconds) */
    e->src_my_us = us, e->src_my_us_set = true;
    if (conn == CONN_MYSQL && same_ts) { /* all before "pos": is the same for a transaction's events of one table: one memo */
        char tag[2] = {(char)conn, (char)(ev->op == RC_OP_READ)};
        rc_str server = server_of(e, ev);
        uint64_t sid = p->has_server_id ? p->server_id : 0;
        rc_str f[] = {{tag, 2}, {(const char *)&us, sizeof us}, {(const char *)&sid, sizeof sid}, server, ev->snapshot,
                      ev->src.db, ev->src.table, p->gtid, p->file};
        if (!memo_hit(&e->src_my, f, sizeof f / sizeof *f)) put_head_to_pos(e, &e->src_my.json, ev, conn, &ts, &lsn);
        put_memo(b, &e->src_my);
    } else {
        put_head_to_pos(e, b, ev, conn, &ts, &lsn);
    }
    bool has_lsn = lsn.n != 0;
    if (conn == CONN_MYSQL) { /* pos, row and thread in one reservation */
        char *w = rc_buf_reserve(b, 3 * RC_FMT_INT_MAX + 32);
        if (!w) return; /* the buffer's error: the message fails */
        char *o = rc_fmt_u64_at(w, p->has_offset ? p->offset : 0);
        o = rc_fmt_u64_at(RAW_LIT(o, ",\"row\":"), p->has_row ? p->row : 0);
        o = RAW_LIT(o, ",\"thread\":");
        o = p->has_thread ? rc_fmt_u64_at(o, p->thread) : RAW_LIT(o, "null");
        o = RAW_LIT(o, ",\"query\":");
        rc_buf_commit(b, (size_t)(o - w));
        rc_enc_put_str_or_null(b, e->include_query ? p->query : (rc_str){0});
    } else if (conn == CONN_POSTGRES) {
        if (has_lsn) rc_buf_put(b, lsn.s, lsn.n);
        else RC_BUF_LIT(b, "null");
        RC_BUF_LIT(b, ",\"xmin\":");
        if (p->has_xmin) rc_fmt_u64(b, p->xmin);
        else RC_BUF_LIT(b, "null");
    } else {
        rc_enc_put_str_or_null(b, p->lsn);
        RC_BUF_LIT(b, ",\"commit_lsn\":");
        rc_enc_put_str_or_null(b, p->lsn);
        RC_BUF_LIT(b, ",\"event_serial_no\":");
        if (p->has_row) rc_fmt_u64(b, p->row);
        else RC_BUF_LIT(b, "null");
    }
    rc_buf_putc(b, '}');
}

const char *rc_dbz_up_connector(const rc_event *ev)
{
    int conn = connector_of(ev->src.kind);
    return conn < 0 ? NULL : connector_names[conn];
}

void rc_dbz_up_put_source(void *p, rc_buf *b, const rc_event *ev) { rc_dbz_put_source(p, b, ev, connector_of(ev->src.kind)); }
