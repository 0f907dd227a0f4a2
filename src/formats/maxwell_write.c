/* Maxwell's daemon JSON, the writer (docs/formats/maxwell.md): the messages Maxwell's RowMap
 * and DDLMap write, in their key order, with its output_* options and its defaults.
 *
 * Maxwell marks the last row of a transaction "commit":true, which it knows once it has read
 * the XID event. A row is therefore held until the next event says whether it was the last:
 * a COMMIT releases it with "commit":true, anything else without (rc_format.holding). Snapshot
 * reads are Maxwell's bootstrap: bootstrap-start before a table's first row, bootstrap-insert
 * for each row, bootstrap-complete after its last (the snapshot's "last" mark, another table,
 * another kind of event or the end of the input); the extra messages are parts of the event
 * that causes them (rc_format.split). An incremental snapshot's bootstrap (rc_event_incremental)
 * opens at its table's start edge (or first row) and closes at its end or stopped edge (or
 * another table's snapshot) only: the stream's changes go on between its rows. */
#include <stdlib.h>
#include <string.h>
#include "formats/enc_event.h"
#include "formats/maxwell.h"
#include "core/fmt.h"
#include "core/jsonw.h"

typedef struct mx_enc {
    rc_mx_opts opt;
    /* the held row: its message before "xoffset"/"commit" in head, from "position" on in tail */
    bool held;
    uint32_t held_index;
    rc_buf head, tail;
    uint32_t tx_rows; /* rows since the transaction began: the xoffset of rows that state none */
    /* the table being bootstrapped (its snapshot rows being written); boot_incr: by an
     * incremental snapshot */
    bool boot, boot_incr;
    rc_buf boot_db, boot_table, boot_server, boot_file;
    rc_buf boot_keys; /* its markers' primary_key and primary_key_columns (as the options ask) */
    rc_event boot_ev; /* its last row (names pointing into boot_db/boot_table, no columns) */
    rc_buf scratch;
    rc_enc_colkeys keys; /* "name": of the columns of the last cached list */
} mx_enc;

/* Parts of an event (rc_mx_split), told apart by the address of their snapshot mark */
static const char MARK_RELEASE[] = "maxwell:release", MARK_START[] = "maxwell:bootstrap-start",
                  MARK_START_INCR[] = "maxwell:bootstrap-start incremental", MARK_COMPLETE[] = "maxwell:bootstrap-complete";

enum { NBUFS = 8 };
static void bufs(mx_enc *e, rc_buf *out[NBUFS])
{
    out[0] = &e->head, out[1] = &e->tail, out[2] = &e->boot_db, out[3] = &e->boot_table, out[4] = &e->boot_server;
    out[5] = &e->boot_keys, out[6] = &e->scratch, out[7] = &e->boot_file;
}

rc_status rc_mx_enc_new(const rc_options *o, void **out, rc_error *err)
{
    rc_mx_opts opt;
    rc_status st = rc_options_parse(o, "maxwell", rc_mx_options, &opt, err);
    if (st != RC_OK) return st;
    mx_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->opt = opt;
    rc_buf *b[NBUFS];
    bufs(e, b);
    for (int k = 0; k < NBUFS; k++) rc_buf_init(b[k], 0);
    *out = e;
    return RC_OK;
}

void rc_mx_enc_free(void *p)
{
    mx_enc *e = p;
    if (!e) return;
    rc_buf *b[NBUFS];
    bufs(e, b);
    for (int k = 0; k < NBUFS; k++) rc_buf_fini(b[k]);
    rc_enc_colkeys_fini(&e->keys);
    free(e);
}

/* --- values, as Maxwell's ColumnDef.asJSON renders them --- */

/* The fraction of a temporal value with the column's fractional-second digits, as Maxwell's
 * appendFractionalSeconds pads it ("05:33:37.523000" for TIMESTAMP(6)); a fraction finer than
 * the declaration (or without one) is written whole, never cut. */
static void put_frac(rc_buf *b, const rc_column *col, uint32_t nanos)
{
    int digits = col->type.p1 > 0 && col->type.p1 <= 9 ? col->type.p1 : 0;
    uint32_t unit = 1;
    for (int i = digits; i < 9; i++) unit *= 10;
    if (!digits || nanos % unit) {
        rc_fmt_frac(b, nanos);
        return;
    }
    rc_fmt_frac_digits(b, nanos / unit, digits);
}

/* A SET's labels ("a,b") as Maxwell's list: ["a","b"] */
static void put_set(rc_buf *b, rc_str s)
{
    rc_buf_putc(b, '[');
    for (size_t st = 0, i = 0; s.n && i <= s.n; i++) {
        if (i < s.n && s.p[i] != ',') continue;
        if (st) rc_buf_putc(b, ',');
        rc_jw_str(b, s.p + st, i - st);
        st = i + 1;
    }
    rc_buf_putc(b, ']');
}

/* Geometry as JTS's Geometry.toText() spaces it (GeometryColumnDef): "POINT (1 2)",
 * "POLYGON ((0 0, 1 0, 0 1, 0 0))"; the coordinates as they are. JTS writes no SRID: SRID 0
 * (none) is left out, another one kept as EWKT's "SRID=n;" so that it is not lost. */
static void put_jts_wkt(rc_buf *b, rc_str s)
{
    if (s.n > 7 && !memcmp(s.p, "SRID=0;", 7)) s.p += 7, s.n -= 7;
    rc_buf_putc(b, '"');
    size_t run = 0; /* the text since the last space put in, escaped as one piece */
    for (size_t i = 0; i < s.n; i++) {
        bool letter = i && ((s.p[i - 1] >= 'A' && s.p[i - 1] <= 'Z') || (s.p[i - 1] >= 'a' && s.p[i - 1] <= 'z'));
        bool space_before = s.p[i] == '(' && letter, space_after = s.p[i] == ',' && i + 1 < s.n && s.p[i + 1] != ' ';
        if (!space_before && !space_after) continue;
        size_t end = space_before ? i : i + 1;
        rc_jw_str_body(b, s.p + run, end - run);
        rc_buf_putc(b, ' ');
        run = end;
    }
    rc_jw_str_body(b, s.p + run, s.n - run);
    rc_buf_putc(b, '"');
}

/* A value MySQL could not represent (a zero date) as its text; a DATETIME, TIMESTAMP or TIME
 * one with the column's fraction digits, as Maxwell pads "0000-00-00 00:00:00" */
static void put_invalid(rc_buf *b, const rc_column *col, rc_str s)
{
    rc_buf_putc(b, '"');
    rc_jw_str_body(b, s.p, s.n);
    uint8_t k = col->type.info->vkind;
    if ((k == RC_V_DATETIME || k == RC_V_TIMESTAMP || k == RC_V_TIME) && col->type.p1 > 0 && col->type.p1 <= 9 &&
        !memchr(s.p, '.', s.n)) {
        rc_buf_putc(b, '.');
        for (int i = 0; i < col->type.p1; i++) rc_buf_putc(b, '0');
    }
    rc_buf_putc(b, '"');
}

/* TIME, DATETIME, TIMESTAMP (in UTC, as Maxwell formats it): whole seconds, then the
 * fraction as the column declares it */
static void put_temporal(rc_buf *b, const rc_column *col, const rc_value *v)
{
    rc_value w = *v;
    uint32_t nanos;
    if (v->kind == RC_V_TIME) {
        nanos = w.time.nanos, w.time.nanos = 0;
        rc_fmt_time(b, &w.time);
    } else if (v->kind == RC_V_DATETIME) {
        nanos = w.dt.nanos, w.dt.nanos = 0;
        rc_fmt_datetime(b, &w.dt, ' ', false);
    } else {
        nanos = w.ts.nanos, w.ts.nanos = 0;
        rc_fmt_ts_local(b, &w.ts, 0, ' ');
    }
    if (nanos || col->type.p1 > 0) put_frac(b, col, nanos);
}

static void put_value(rc_buf *b, const rc_column *col, const rc_value *v)
{
    switch (v->kind) {
    case RC_V_NULL: RC_BUF_LIT(b, "null"); return;
    case RC_V_BOOL: /* MySQL's BOOLEAN is TINYINT(1), a number to Maxwell */
        if (col->type.info->family == RC_FAM_MYSQL) rc_buf_putc(b, v->b ? '1' : '0');
        else v->b ? RC_BUF_LIT(b, "true") : RC_BUF_LIT(b, "false");
        return;
    case RC_V_INT: rc_fmt_i64(b, v->i); return;
    case RC_V_UINT:
    case RC_V_BITS: rc_fmt_u64(b, v->u); return; /* BitColumnDef: a Long, a BigInteger beyond */
    case RC_V_DECIMAL: rc_fmt_dec_java(b, &v->dec); return; /* Jackson writes BigDecimal.toString() */
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: rc_fmt_json_float(b, v); return; /* Java's toString; Jackson quotes NaN and the infinities */
    case RC_V_BYTES: /* StringColumnDef: a binary string as base64 */
    case RC_V_DATE:
    case RC_V_TIME:
    case RC_V_DATETIME:
    case RC_V_TIMESTAMP:
        rc_buf_putc(b, '"');
        if (v->kind == RC_V_BYTES) rc_fmt_base64(b, (const unsigned char *)v->s.p, v->s.n);
        else if (v->kind == RC_V_DATE) rc_fmt_date(b, &v->date);
        else put_temporal(b, col, v);
        rc_buf_putc(b, '"');
        return;
    case RC_V_JSON: /* JsonColumnDef: the document itself (RawJSONString) */
        if (v->s.n) rc_buf_put(b, v->s.p, v->s.n);
        else RC_BUF_LIT(b, "null");
        return;
    case RC_V_SET: put_set(b, v->s); return;
    case RC_V_GEOMETRY: put_jts_wkt(b, v->s); return;
    case RC_V_INVALID: put_invalid(b, col, v->s); return;
    default: rc_jw_str(b, v->s.p, v->s.n); return; /* text, ENUM label, geometry WKT, zero dates' text */
    }
}

/* "name":value of the columns whose flag is set (all when flags is NULL), nulls left out
 * unless output_nulls */
/* Column i of img, or, where a partial MySQL row image (binlog_row_image=MINIMAL) has not got it,
 * of the other image (an update's key columns are in its before image only); NULL when neither
 * has it: Maxwell writes the columns the binlog carries and leaves the others out. */
static const rc_value *value_at(const rc_event *ev, const rc_value *img, uint32_t i)
{
    const rc_value *v = &img[i];
    if (v->kind == RC_V_UNAVAILABLE && img == ev->after && ev->before) v = &ev->before[i];
    return v->kind == RC_V_UNAVAILABLE ? NULL : v;
}

/* Whether "old" has column i: changed, and in both images (a partial image has not got all) */
static bool in_old(const rc_event *ev, const uint8_t *changed, uint32_t i)
{
    return changed[i] && ev->after[i].kind != RC_V_UNAVAILABLE && ev->before[i].kind != RC_V_UNAVAILABLE;
}

/* A value of a row read from the binlog, as Maxwell writes it where that differs from the value
 * SELECT gives (a bootstrap (snapshot) row keeps SELECT's, as Maxwell's SELECT does):
 *  - BINARY(n): the binlog leaves BINARY's trailing zero bytes out and Maxwell writes the bytes
 *    it carries ("AAECAw==" for a BINARY(10) holding 00 01 02 03), where rowcast's value is
 *    padded to n;
 *  - a DATE or DATETIME with a zero year, month or day: mysql-binlog-connector-java reads any
 *    such date as invalid (its asUnixTime), which Maxwell writes as the zero date
 *    ("0000-00-00 00:00:00" for 0003-00-00 00:00:01: Maxwell's test_zero_created_at), padded
 *    to the column's fraction digits as put_invalid pads it. */
static bool zero_part(const char *p, size_t n)
{
    return n >= 10 && (!memcmp(p, "0000", 4) || !memcmp(p + 5, "00", 2) || !memcmp(p + 8, "00", 2));
}

static const rc_value *binlog_value_slow(const rc_column *c, const rc_value *v, rc_value *tmp)
{
    uint8_t k = c->type.info->vkind;
    if (v->kind == RC_V_BYTES) {
        if (strcmp(c->type.info->name, "binary")) return v;
        *tmp = *v;
        while (tmp->s.n && tmp->s.p[tmp->s.n - 1] == '\0') tmp->s.n--;
        return tmp;
    }
    bool zero = (v->kind == RC_V_INVALID && zero_part(v->s.p, v->s.n)) || (v->kind == RC_V_DATE && v->date.year == 0) ||
                (v->kind == RC_V_DATETIME && v->dt.year == 0);
    if (!zero || (k != RC_V_DATE && k != RC_V_DATETIME)) return v;
    *tmp = (rc_value){.kind = RC_V_INVALID};
    tmp->s = k == RC_V_DATE ? (rc_str){"0000-00-00", 10} : (rc_str){"0000-00-00 00:00:00", 19};
    return tmp;
}

/* the kinds first: this runs for every value, the rest for few */
static inline const rc_value *binlog_value(const rc_event *ev, const rc_column *c, const rc_value *v, rc_value *tmp)
{
    switch (v->kind) {
    case RC_V_BYTES:
    case RC_V_INVALID: break;
    case RC_V_DATE: if (v->date.year) return v; break;
    case RC_V_DATETIME: if (v->dt.year) return v; break;
    default: return v;
    }
    return ev->op == RC_OP_READ || c->type.info->family != RC_FAM_MYSQL ? v : binlog_value_slow(c, v, tmp);
}

static void put_map(mx_enc *e, rc_buf *b, const char *name, const rc_event *ev, const rc_value *img, const uint8_t *only)
{
    rc_buf_putc(b, ',');
    rc_jw_str(b, name, strlen(name));
    rc_buf_put(b, ":{", 2);
    bool first = true, cached = rc_enc_colkeys_for(&e->keys, ev);
    for (uint32_t i = 0; img && i < ev->ncols; i++) {
        const rc_value *v = value_at(ev, img, i);
        if ((only && !in_old(ev, only, i)) || !v || (!e->opt.nulls && v->kind == RC_V_NULL)) continue;
        if (!first) rc_buf_putc(b, ',');
        first = false;
        rc_enc_put_colkey(b, &e->keys, ev, i, cached);
        rc_value tmp;
        put_value(b, &ev->cols[i], binlog_value(ev, &ev->cols[i], v, &tmp));
    }
    rc_buf_putc(b, '}');
}

/* --- messages --- */

static void put_num_field(rc_buf *b, const char *name, uint64_t v)
{
    rc_buf_putc(b, ',');
    rc_jw_str(b, name, strlen(name));
    rc_buf_putc(b, ':');
    rc_fmt_u64(b, v);
}

static bool all_digits(rc_str s)
{
    if (!s.n || s.n > 19) return false;
    for (size_t i = 0; i < s.n; i++)
        if (s.p[i] < '0' || s.p[i] > '9') return false;
    return true;
}

/* {"database":..,"table":..,"type":..,"ts":.. — ts in seconds for rows, milliseconds for DDL
 * (Maxwell's DDLMap keeps the millisecond time); no ts when the event has no time */
static void put_head(const mx_enc *e, rc_buf *b, const rc_event *ev, const char *type, bool ddl)
{
    rc_buf_putc(b, '{');
    if (ddl) {
        RC_BUF_LIT(b, "\"type\":");
        rc_jw_str(b, type, strlen(type));
        RC_BUF_LIT(b, ",\"database\":");
        rc_jw_str(b, ev->src.db.p, ev->src.db.n);
        if (ev->src.table.n) {
            RC_BUF_LIT(b, ",\"table\":");
            rc_jw_str(b, ev->src.table.p, ev->src.table.n);
        }
    } else {
        RC_BUF_LIT(b, "\"database\":");
        rc_jw_str(b, ev->src.db.p, ev->src.db.n);
        RC_BUF_LIT(b, ",\"table\":");
        rc_jw_str(b, ev->src.table.p, ev->src.table.n);
        if (e->opt.row_query && ev->pos.query.n) { /* output_row_query: RowMap's "query" */
            RC_BUF_LIT(b, ",\"query\":");
            rc_jw_str(b, ev->pos.query.p, ev->pos.query.n);
        }
        RC_BUF_LIT(b, ",\"type\":");
        rc_jw_str(b, type, strlen(type));
    }
    int64_t us = ev->has_ts ? ev->ts_us : ev->proc_us;
    if (ev->has_ts || ev->has_proc) {
        RC_BUF_LIT(b, ",\"ts\":");
        rc_fmt_i64(b, rc_floor_div(us, ddl ? 1000 : 1000000));
    }
}

/* "position" and "gtid" as the options ask and the event has them */
static void put_position(const mx_enc *e, rc_buf *b, const rc_event *ev)
{
    if (e->opt.position && ev->pos.file.n && ev->pos.has_offset) {
        RC_BUF_LIT(b, ",\"position\":\"");
        rc_jw_str_body(b, ev->pos.file.p, ev->pos.file.n);
        rc_buf_putc(b, ':');
        rc_fmt_u64(b, ev->pos.offset);
        rc_buf_putc(b, '"');
    }
    if (e->opt.gtid && ev->pos.gtid.n) {
        RC_BUF_LIT(b, ",\"gtid\":");
        rc_jw_str(b, ev->pos.gtid.p, ev->pos.gtid.n);
    }
}

/* "primary_key" and "primary_key_columns" as the options ask; img NULL: a bootstrap marker,
 * whose data is empty (Maxwell writes a null for each key column there) */
static void put_keys(const mx_enc *e, rc_buf *b, const rc_event *ev, const rc_value *img)
{
    uint32_t pk[RC_ENC_PK_MAX], npk = rc_enc_pk_order(ev, pk);
    if (e->opt.pks) {
        RC_BUF_LIT(b, ",\"primary_key\":[");
        for (uint32_t k = 0; k < npk; k++) {
            if (k) rc_buf_putc(b, ',');
            const rc_value *v = img ? value_at(ev, img, pk[k]) : NULL;
            rc_value tmp;
            if (v) put_value(b, &ev->cols[pk[k]], binlog_value(ev, &ev->cols[pk[k]], v, &tmp));
            else RC_BUF_LIT(b, "null");
        }
        rc_buf_putc(b, ']');
    }
    if (e->opt.pk_cols) {
        RC_BUF_LIT(b, ",\"primary_key_columns\":[");
        for (uint32_t k = 0; k < npk; k++) {
            if (k) rc_buf_putc(b, ',');
            rc_jw_str(b, ev->cols[pk[k]].name.p, ev->cols[pk[k]].name.n);
        }
        rc_buf_putc(b, ']');
    }
}

/* "position", "gtid", "server_id", "thread_id" as the options ask and the event has them */
static void put_ids(const mx_enc *e, rc_buf *b, const rc_event *ev)
{
    put_position(e, b, ev);
    if (e->opt.server_id && ev->pos.has_server_id) put_num_field(b, "server_id", ev->pos.server_id);
    if (e->opt.thread_id && ev->pos.has_thread) put_num_field(b, "thread_id", ev->pos.thread);
}

/* From "position" to the end of a row message */
static void put_tail(mx_enc *e, rc_buf *b, const rc_event *ev)
{
    const rc_value *img = rc_enc_row(ev);
    put_ids(e, b, ev);
    put_keys(e, b, ev, img);
    put_map(e, b, "data", ev, img, NULL);
    if (ev->op == RC_OP_UPDATE) { /* "old": the changed columns' previous values */
        const uint8_t *changed = rc_enc_changed(ev, &e->scratch);
        bool any = false;
        for (uint32_t i = 0; changed && i < ev->ncols; i++) any |= in_old(ev, changed, i);
        if (any) put_map(e, b, "old", ev, ev->before, changed);
    }
    rc_buf_putc(b, '}');
}

static const char *row_type(rc_op op)
{
    switch (op) {
    case RC_OP_INSERT: return "insert";
    case RC_OP_UPDATE: return "update";
    case RC_OP_DELETE: return "delete";
    default: return "bootstrap-insert";
    }
}

/* The held row's message, with "commit":true when its transaction ends with it. */
static void release(mx_enc *e, rc_buf *out, bool commit)
{
    rc_buf_put(out, e->head.data, e->head.len);
    if (e->opt.commit_info && !commit && e->opt.xoffset) put_num_field(out, "xoffset", e->held_index);
    if (e->opt.commit_info && commit) RC_BUF_LIT(out, ",\"commit\":true");
    rc_buf_put(out, e->tail.data, e->tail.len);
    e->held = false;
}

/* The DDL messages that need no table definition: a drop names what it drops. The others
 * carry "def" (table-create, table-alter) or the charset (database-create, database-alter),
 * which no event holds. */
static const char *ddl_type(const rc_event *ev)
{
    static const char *const kinds[][2] = {{"DROP_TABLE", "table-drop"}, {"DROP_DATABASE", "database-drop"}};
    for (size_t k = 0; k < 2; k++)
        if (ev->ddl_kind.n == strlen(kinds[k][0]) && !memcmp(ev->ddl_kind.p, kinds[k][0], ev->ddl_kind.n)) return kinds[k][1];
    return NULL;
}

static rc_status refuse_ddl(const rc_event *ev, rc_error *err)
{
    return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                        "DDL %.*s is not written: Maxwell's message for it carries the table's definition (\"def\", "
                        "\"old\") or the database's charset, which the event does not hold (only table-drop and "
                        "database-drop need neither; -o maxwell.output_ddl=false leaves DDL out, as Maxwell does by default)",
                        (int)(ev->ddl_kind.n ? ev->ddl_kind.n : 5), ev->ddl_kind.n ? ev->ddl_kind.p : "other");
}

/* RC_OK when the event has a message of its own; RC_SKIP otherwise (err set when it is one
 * that Maxwell would write but this event cannot give). */
static rc_status expressible(const mx_enc *e, const rc_event *ev, rc_error *err)
{
    switch (ev->op) {
    case RC_OP_INSERT:
    case RC_OP_UPDATE:
    case RC_OP_DELETE:
    case RC_OP_READ:
        /* a MySQL row image without some columns (binlog_row_image=MINIMAL or NOBLOB): Maxwell
         * writes the columns it has (value_at); another source's missing value (PostgreSQL's
         * unchanged TOAST value) is refused, not left out */
        if (ev->src.kind != RC_DB_MYSQL && ev->src.kind != RC_DB_MARIADB && rc_event_refuse_unavailable(ev, "maxwell", err) != RC_OK)
            return RC_SKIP;
        /* "old" holds the changed columns' previous values, "data" a delete's row */
        if (rc_enc_need_before(ev, "maxwell", ev->op == RC_OP_UPDATE ? "\"old\"" : "\"data\"", false, err) != RC_OK) return RC_SKIP;
        if (!rc_enc_row(ev)) return rc_enc_unsupported(err, "maxwell", ev, "its row (Maxwell's \"data\") is missing"), RC_SKIP;
        return RC_OK;
    case RC_OP_DDL:
        if (!e->opt.ddl) return RC_SKIP;
        if (!ddl_type(ev)) return refuse_ddl(ev, err), RC_SKIP;
        return RC_OK;
    default: return RC_SKIP; /* BEGIN, COMMIT (they mark rows), heartbeats, truncates: Maxwell writes none */
    }
}

static bool same(const rc_buf *b, rc_str s) { return b->len == s.n && (!s.n || !memcmp(b->data, s.p, s.n)); }

static bool is_mark(const rc_event *ev, const char *mark) { return ev->snapshot.p == mark; }

/* parts[n] is ev as the part its mark says */
static size_t part(rc_event_part *parts, size_t n, const rc_event *ev, const char *mark)
{
    parts[n].ev = *ev, parts[n].ev.snapshot = (rc_str){mark, 0};
    return n + 1;
}

size_t rc_mx_split(void *p, const rc_event *ev, rc_event_part *parts, rc_arena *a)
{
    mx_enc *e = p;
    (void)a;
    rc_error err;
    rc_error_clear(&err);
    rc_incremental inc = rc_event_incremental(ev);
    bool edge = inc >= RC_INCR_START;
    if (!edge && expressible(e, ev, &err) != RC_OK) return 0; /* nothing released for an event without a message */
    size_t n = 0;
    bool read = ev->op == RC_OP_READ;
    bool boot_same = e->boot && same(&e->boot_db, ev->src.db) && same(&e->boot_table, ev->src.table);
    /* what ends the open bootstrap before this event: an edge (the end edge of its own table
     * writes the complete message itself), a read of another table, and for an initial
     * snapshot's bootstrap any other event */
    bool close = e->boot && (edge ? inc == RC_INCR_START || !boot_same : read ? !boot_same : !e->boot_incr);
    if (e->held) n = part(parts, n, ev, MARK_RELEASE);
    if (close) n = part(parts, n, &e->boot_ev, MARK_COMPLETE);
    if (edge) { /* bootstrap-start, or -complete (end or stopped), from the edge itself */
        n = part(parts, n, ev, inc == RC_INCR_START ? MARK_START_INCR : MARK_COMPLETE);
        goto done;
    }
    if (read && !boot_same) n = part(parts, n, ev, inc ? MARK_START_INCR : MARK_START);
    bool last = read && ev->snapshot.n == 4 && !memcmp(ev->snapshot.p, "last", 4);
    if (!n && !last) return 0;
    parts[n++].ev = *ev;
    if (last) n = part(parts, n, ev, MARK_COMPLETE);
done:
    for (size_t k = 0; k < n; k++) parts[k].header = NULL, parts[k].header_value = (rc_str){0};
    return n;
}

/* Opens the bootstrap of ev's table: its names and keys kept for the bootstrap-complete. */
static void boot_open(mx_enc *e, const rc_event *ev)
{
    rc_buf_reset(&e->boot_db);
    rc_buf_reset(&e->boot_table);
    rc_buf_reset(&e->boot_server);
    rc_buf_reset(&e->boot_keys);
    rc_buf_put(&e->boot_db, ev->src.db.p, ev->src.db.n);
    rc_buf_put(&e->boot_table, ev->src.table.p, ev->src.table.n);
    rc_buf_put(&e->boot_server, ev->src.server.p, ev->src.server.n);
    put_keys(e, &e->boot_keys, ev, NULL);
    e->boot = true;
}

/* The bootstrap's last row so far, for the complete message (and where it goes): the names,
 * times, binlog position and numbers, copied: the event's memory is gone by then. */
static void boot_row(mx_enc *e, const rc_event *ev)
{
    rc_event *b = &e->boot_ev;
    memset(b, 0, sizeof *b);
    b->op = RC_OP_READ;
    b->src.kind = ev->src.kind;
    b->src.db = (rc_str){e->boot_db.data, e->boot_db.len};
    b->src.table = (rc_str){e->boot_table.data, e->boot_table.len};
    b->src.server = (rc_str){e->boot_server.data, e->boot_server.len};
    b->ts_us = ev->ts_us, b->has_ts = ev->has_ts, b->proc_us = ev->proc_us, b->has_proc = ev->has_proc;
    rc_buf_reset(&e->boot_file);
    rc_buf_put(&e->boot_file, ev->pos.file.p, ev->pos.file.n);
    b->pos.file = (rc_str){e->boot_file.data, e->boot_file.len};
    b->pos.offset = ev->pos.offset, b->pos.has_offset = ev->pos.has_offset;
    b->pos.server_id = ev->pos.server_id, b->pos.has_server_id = ev->pos.has_server_id;
    b->pos.thread = ev->pos.thread, b->pos.has_thread = ev->pos.has_thread;
}

/* bootstrap-start / -complete: Maxwell's RowMap with empty data; the keys of the event's
 * columns, or of the bootstrap's when it has none (its last row kept, an edge without columns) */
static void bootstrap_marker(mx_enc *e, rc_buf *out, const rc_event *ev, const char *type)
{
    put_head(e, out, ev, type, false);
    put_ids(e, out, ev);
    if (ev->ncols || !e->boot) put_keys(e, out, ev, NULL);
    else rc_buf_put(out, e->boot_keys.data, e->boot_keys.len);
    RC_BUF_LIT(out, ",\"data\":{}}");
}

rc_status rc_mx_encode(void *p, const rc_event *ev, rc_buf *out, rc_error *err)
{
    mx_enc *e = p;
    if (is_mark(ev, MARK_RELEASE)) {
        release(e, out, false);
        return RC_OK;
    }
    if (is_mark(ev, MARK_COMPLETE)) {
        bootstrap_marker(e, out, ev, "bootstrap-complete");
        e->boot = false;
        return RC_OK;
    }
    if (is_mark(ev, MARK_START) || is_mark(ev, MARK_START_INCR)) {
        boot_open(e, ev);
        e->boot_incr = is_mark(ev, MARK_START_INCR);
        bootstrap_marker(e, out, ev, "bootstrap-start");
        boot_row(e, ev);
        return RC_OK;
    }
    if (ev->op == RC_OP_COMMIT || ev->op == RC_OP_BEGIN) {
        e->tx_rows = 0;
        if (ev->op == RC_OP_COMMIT && e->held) {
            release(e, out, true);
            return RC_OK;
        }
    }
    rc_status st = expressible(e, ev, err);
    if (st != RC_OK) return st;
    if (ev->op == RC_OP_DDL) {
        e->tx_rows = 0;
        put_head(e, out, ev, ddl_type(ev), true);
        RC_BUF_LIT(out, ",\"sql\":");
        rc_jw_str(out, ev->ddl.p, ev->ddl.n);
        put_position(e, out, ev);
        rc_buf_putc(out, '}');
        return RC_OK;
    }
    if (ev->op == RC_OP_READ) { /* bootstrap rows carry no transaction */
        put_head(e, out, ev, row_type(ev->op), false);
        put_tail(e, out, ev);
        boot_row(e, ev);
        return RC_OK;
    }
    /* a row: held until the next event tells whether its transaction ends with it */
    rc_buf_reset(&e->head);
    rc_buf_reset(&e->tail);
    put_head(e, &e->head, ev, row_type(ev->op), false);
    if (e->opt.commit_info && all_digits(ev->pos.txid)) { /* Maxwell's xid is the XID event's number */
        RC_BUF_LIT(&e->head, ",\"xid\":");
        rc_buf_put(&e->head, ev->pos.txid.p, ev->pos.txid.n);
    }
    put_tail(e, &e->tail, ev);
    if (e->head.err != RC_OK || e->tail.err != RC_OK) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->held_index = ev->pos.has_tx_index ? ev->pos.tx_index : e->tx_rows;
    e->tx_rows++;
    e->held = true;
    /* nothing to wait for: no commit info asked, or the event says where it stands */
    if (!e->opt.commit_info || (ev->pos.has_tx_index && ev->pos.has_tx_count)) {
        release(e, out, e->opt.commit_info && ev->pos.tx_index + 1 == ev->pos.tx_count);
        return RC_OK;
    }
    return RC_PENDING;
}

rc_status rc_mx_flush(void *p, rc_buf *out, rc_error *err)
{
    mx_enc *e = p;
    (void)err;
    if (e->held) { /* the input ended before saying whether the transaction did */
        release(e, out, false);
        return RC_OK;
    }
    if (e->boot && !e->boot_incr) { /* an incremental snapshot's goes on in the next run */
        bootstrap_marker(e, out, &e->boot_ev, "bootstrap-complete");
        e->boot = false;
        return RC_OK;
    }
    return RC_SKIP;
}

/* A held row, or an open bootstrap: its complete message is still to come (the next event or
 * the end of the input writes it), so the pipeline keeps where it goes. Not an incremental
 * snapshot's bootstrap: its end edge writes its complete message, and the stream's messages
 * between its rows go where their own events do. */
bool rc_mx_holding(void *p)
{
    const mx_enc *e = p;
    return e->held || (e->boot && !e->boot_incr);
}
