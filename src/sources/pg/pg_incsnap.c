/* PostgreSQL incremental snapshots: signals, watermarks, chunk reads (pg_incsnap.h). */
#include "sources/pg/pg_incsnap.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sources/incsnap.h"
#include "sources/pg/pg_copy.h"
#include "sources/pg/pg_xidsnap.h"
#include "sources/signal.h"

enum { QK_ROW, QK_START, QK_END, QK_STOPPED };
enum { KEY_MAX = 32 };

typedef struct queued {
    size_t table; /* into is->tables */
    int kind;     /* QK_* */
    size_t off, len;
} queued;

typedef struct started {
    char *name;
    size_t table; /* into is->tables */
    struct timespec t0;
} started;

struct rc_pg_incsnap {
    rc_pg_conn *conn;
    rc_pg_events *ev;
    rc_incsnap *core;
    rc_pg_incsnap_opts o;
    char signal_ns[64], signal_rel[64];
    uint64_t run;
    started *tables; /* every table asked for, with its catalog entry */
    rc_pg_table *cat;
    size_t ntables;
    /* the key texts of the last row read and of the last chunk emitted (the next chunk's
     * start), each followed by a tab, tabs and backslashes in them escaped */
    rc_buf cursor_next, cursor;
    /* the queue of rows and edges to hand out */
    queued *q;
    size_t nq, capq, qi;
    rc_buf qtext;
    rc_arena scratch;
    /* the visibility check (pg_xidsnap.h): the chunk's snapshot, the xids whose Commit the
     * stream handed since an xmin (nbefore of them before the chunk's LW) */
    rc_pg_xidsnap snap;
    uint32_t *emitted, cur_xid;
    size_t nemit, capemit, nbefore;
};

static void say(rc_pg_incsnap *is, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(rc_pg_incsnap *is, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (is->o.notice) is->o.notice(is->o.notice_ud, msg);
}

static started *table_of(rc_pg_incsnap *is, const char *name)
{
    for (size_t i = 0; i < is->ntables; i++)
        if (!strcmp(is->tables[i].name, name)) return &is->tables[i];
    return NULL;
}

/* ---- the core's ops ---- */

static rc_status write_watermark(void *ctx, const rc_incsnap_table *t, uint64_t chunk, rc_incsnap_mark mark,
                                 rc_error *err)
{
    rc_pg_incsnap *is = ctx;
    (void)t;
    char content[96], run[24];
    snprintf(run, sizeof run, "%" PRIu64, is->run);
    snprintf(content, sizeof content, "{\"run\":%s,\"chunk\":%" PRIu64 ",\"w\":\"%s\"}", run, chunk,
             mark == RC_INCSNAP_LOW ? "low" : "high");
    const char *args[] = {content};
    PGresult *r = rc_pg_query(is->conn, "SELECT pg_catalog.pg_logical_emit_message(true, 'rowcast.watermark', $1)", 1, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(is->conn, r, "watermark", err), RC_ERR_IO;
    PQclear(r);
    return RC_OK;
}

static rc_incsnap_mark recognise(void *ctx, const void *msg, size_t n, uint64_t *chunk)
{
    rc_pg_incsnap *is = ctx;
    char want[48];
    int w = snprintf(want, sizeof want, "{\"run\":%" PRIu64 ",\"chunk\":", is->run);
    const char *p = msg, *end = p + n;
    if (n <= (size_t)w || memcmp(p, want, (size_t)w)) return RC_INCSNAP_NOT_MARK;
    uint64_t c = 0;
    for (p += w; p < end && *p >= '0' && *p <= '9'; p++) c = c * 10 + (uint64_t)(*p - '0');
    *chunk = c;
    if (end - p >= 11 && !memcmp(p, ",\"w\":\"low\"", 10)) return RC_INCSNAP_LOW;
    if (end - p >= 12 && !memcmp(p, ",\"w\":\"high\"", 11)) return RC_INCSNAP_HIGH;
    return RC_INCSNAP_NOT_MARK;
}

/* The key columns of a relation's event in key order: their indexes (count returned). */
static uint32_t key_of(const rc_event *ev, uint32_t *idx) { return rc_event_pk(ev, idx, KEY_MAX); }

/* Appends `s` to b with \t and \\ escaped (key texts as one line). */
static void put_key_text(rc_buf *b, const rc_pgo_datum *d)
{
    for (uint32_t i = 0; i < d->len; i++) {
        char c = (char)d->data[i];
        if (c == '\t' || c == '\\') rc_buf_putc(b, '\\');
        rc_buf_putc(b, c);
    }
    rc_buf_putc(b, '\t');
}

/* The primary key's columns in its order (their count): the chunk query's ORDER BY, and the
 * next chunk's lower bound (not the events' key: replica identity columns, in column order). */
static uint32_t pk_cols(const uint16_t *rank, uint16_t ncols, uint16_t *cols)
{
    uint32_t n = 0;
    for (uint16_t r = 1; r <= KEY_MAX; r++)
        for (uint16_t k = 0; k < ncols; k++)
            if (rank[k] == r) cols[n++] = k;
    return n;
}

/* `(k1, k2) > ('v1', 'v2') ` from the cursor texts, or nothing for the first chunk. */
static bool put_where(rc_pg_incsnap *is, PGconn *sql, rc_buf *q, const char *const *keys, uint32_t nkey)
{
    if (!is->cursor.len) return true;
    rc_buf_puts(q, " WHERE (");
    for (uint32_t k = 0; k < nkey; k++) rc_buf_puts(q, k ? ", " : ""), rc_buf_puts(q, keys[k]);
    rc_buf_puts(q, ") > (");
    const char *p = is->cursor.data, *end = p + is->cursor.len;
    char *v = malloc(is->cursor.len + 1);
    if (!v) return false;
    for (uint32_t k = 0; k < nkey && p < end; k++) {
        size_t n = 0;
        for (; p < end && *p != '\t'; p++) v[n++] = *p == '\\' ? *++p : *p;
        p++;
        char *lit = PQescapeLiteral(sql, v, n);
        rc_buf_puts(q, k ? ", " : "");
        rc_buf_puts(q, lit ? lit : "NULL");
        PQfreemem(lit);
    }
    free(v);
    rc_buf_putc(q, ')');
    return true;
}

/* COPY (SELECT cols FROM ONLY t [WHERE key > cursor] ORDER BY key LIMIT n) TO STDOUT */
static char *chunk_query(rc_pg_incsnap *is, const rc_pg_table *t, const uint16_t *rank, size_t limit)
{
    PGconn *sql = rc_pg_sql(is->conn);
    const rc_pg_relation *rel = t->rel;
    const char *keys[KEY_MAX];
    char *ids[1024];
    uint32_t nkey = 0;
    uint16_t ncols = rel->ncols < 1024 ? rel->ncols : 1024;
    rc_buf q;
    rc_buf_init(&q, 0);
    rc_buf_puts(&q, "COPY (SELECT ");
    for (uint16_t k = 0; k < ncols; k++) {
        ids[k] = PQescapeIdentifier(sql, rel->cols[k].name, strlen(rel->cols[k].name));
        rc_buf_puts(&q, k ? ", " : ""), rc_buf_puts(&q, ids[k] ? ids[k] : "");
    }
    uint16_t pk[KEY_MAX];
    nkey = pk_cols(rank, ncols, pk);
    for (uint32_t k = 0; k < nkey; k++) keys[k] = ids[pk[k]] ? ids[pk[k]] : "";
    char *ns = PQescapeIdentifier(sql, rel->nspname, strlen(rel->nspname));
    char *tb = PQescapeIdentifier(sql, rel->relname, strlen(rel->relname));
    rc_buf_puts(&q, " FROM ONLY "), rc_buf_puts(&q, ns ? ns : ""), rc_buf_putc(&q, '.'), rc_buf_puts(&q, tb ? tb : "");
    PQfreemem(ns);
    PQfreemem(tb);
    bool ok = put_where(is, sql, &q, keys, nkey);
    rc_buf_puts(&q, " ORDER BY ");
    for (uint32_t k = 0; k < nkey; k++) rc_buf_puts(&q, k ? ", " : ""), rc_buf_puts(&q, keys[k]);
    char lim[40];
    snprintf(lim, sizeof lim, " LIMIT %zu) TO STDOUT", limit);
    rc_buf_puts(&q, lim);
    for (uint16_t k = 0; k < ncols; k++) PQfreemem(ids[k]);
    rc_buf_putc(&q, '\0');
    char *out = ok && q.err == RC_OK ? strdup(q.data) : NULL;
    rc_buf_fini(&q);
    return out;
}

/* One COPY line of the chunk: its key values to the core, its key texts kept as the cursor. */
static rc_status chunk_row(rc_pg_incsnap *is, rc_incsnap *core, const rc_pg_table *t, const char *line, size_t n,
                           rc_error *err)
{
    rc_arena_reset(&is->scratch);
    rc_event_list l = {0};
    rc_pgo_tuple row;
    rc_status st = rc_pg_copy_row(&is->scratch, t->rel, line, n, &row, err);
    if (st == RC_OK) st = rc_pg_events_read(is->ev, t->rel, &row, &is->scratch, &l, err);
    if (st == RC_OK && l.count == 1) {
        uint32_t idx[KEY_MAX], nk = key_of(&l.items[0], idx);
        rc_value key[KEY_MAX];
        uint16_t pk[KEY_MAX];
        rc_buf_reset(&is->cursor_next);
        for (uint32_t k = 0; k < nk; k++) key[k] = l.items[0].after[idx[k]];
        for (uint32_t k = 0, npk = pk_cols(t->pk_rank, t->rel->ncols, pk); k < npk; k++) put_key_text(&is->cursor_next, &row.cols[pk[k]]);
        st = rc_incsnap_add_row(core, key, nk, line, n, err);
    }
    rc_event_list_fini(&l);
    return st;
}

/* pg_current_snapshot() into is->snap; the emitted xids it sees whatever comes are forgotten. */
static rc_status take_snapshot(rc_pg_incsnap *is, rc_error *err)
{
    PGresult *r = PQexec(rc_pg_sql(is->conn), "SELECT pg_catalog.pg_current_snapshot()");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(is->conn, r, "pg_current_snapshot", err), RC_ERR_IO;
    rc_status st = rc_pg_xidsnap_parse(&is->snap, PQgetvalue(r, 0, 0), (size_t)PQgetlength(r, 0, 0), err);
    PQclear(r);
    size_t k = 0;
    for (size_t i = 0; st == RC_OK && i < is->nemit; i++)
        if (!rc_pg_xidsnap_before_xmin(&is->snap, is->emitted[i])) is->emitted[k++] = is->emitted[i];
    if (st == RC_OK) is->nemit = k;
    return st;
}

/* At HW: a transaction the stream handed before LW that the chunk's snapshot saw in progress
 * (the chunk misses its changes, which the stream emitted already). */
static bool chunk_missed_one(const rc_pg_incsnap *is)
{
    for (size_t i = 0; i < is->nbefore && i < is->nemit; i++)
        if (rc_pg_xidsnap_in_progress(&is->snap, is->emitted[i])) return true;
    return false;
}

static void emitted_add(rc_pg_incsnap *is, uint32_t xid)
{
    if (is->nemit == is->capemit) {
        size_t cap = is->capemit ? 2 * is->capemit : 256;
        uint32_t *p = realloc(is->emitted, cap * sizeof *p);
        if (!p) return; /* kept as it was: the next take_snapshot prunes */
        is->emitted = p, is->capemit = cap;
    }
    is->emitted[is->nemit++] = xid;
}

static rc_status read_chunk(void *ctx, rc_incsnap *core, const rc_incsnap_table *t, size_t limit, rc_error *err)
{
    rc_pg_incsnap *is = ctx;
    started *tb = table_of(is, t->name);
    const rc_pg_table *ct = &is->cat[tb->table];
    if (!t->cursor.len) rc_buf_reset(&is->cursor); /* the table's first chunk */
    char *q = chunk_query(is, ct, ct->pk_rank, limit);
    if (!q) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    PGconn *sql = rc_pg_sql(is->conn);
    PQclear(PQexec(sql, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
    if (take_snapshot(is, err) != RC_OK) {
        free(q);
        PQclear(PQexec(sql, "ROLLBACK"));
        return err->code;
    }
    PGresult *r = PQexec(sql, q);
    free(q);
    if (PQresultStatus(r) != PGRES_COPY_OUT) {
        rc_pg_query_fail(is->conn, r, "incremental snapshot chunk", err);
        PQclear(PQexec(sql, "ROLLBACK"));
        return RC_ERR_IO;
    }
    PQclear(r);
    rc_status st = RC_OK;
    char *buf = NULL;
    int n;
    while ((n = PQgetCopyData(sql, &buf, 0)) > 0) {
        if (st == RC_OK) st = chunk_row(is, core, ct, buf, (size_t)n - (buf[n - 1] == '\n'), err);
        PQfreemem(buf);
    }
    r = PQgetResult(sql);
    if (st == RC_OK && (n != -1 || PQresultStatus(r) != PGRES_COMMAND_OK)) { /* cut off: not the table's end */
        st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "incremental snapshot chunk of %s: %s", t->name,
                          r ? PQresultErrorMessage(r) : PQerrorMessage(sql));
        err->message[strcspn(err->message, "\n")] = '\0';
    }
    PQclear(r);
    while ((r = PQgetResult(sql))) PQclear(r);
    PQclear(PQexec(sql, "COMMIT"));
    return st == RC_ERR_LIMIT ? RC_OK : st;
}

static rc_status enqueue(rc_pg_incsnap *is, size_t table, int kind, const void *raw, size_t n, rc_error *err)
{
    if (is->nq == is->capq) {
        size_t cap = is->capq ? 2 * is->capq : 256;
        queued *q = realloc(is->q, cap * sizeof *q);
        if (!q) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        is->q = q, is->capq = cap;
    }
    is->q[is->nq++] = (queued){table, kind, is->qtext.len, n};
    rc_buf_put(&is->qtext, raw, n);
    return is->qtext.err == RC_OK ? RC_OK : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

static rc_status emit_row(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn, rc_error *err)
{
    rc_pg_incsnap *is = ctx;
    return enqueue(is, table_of(is, t->name)->table, QK_ROW, raw, rawn, err);
}

static rc_status emit_edge(void *ctx, const rc_incsnap_table *t, rc_incsnap_edge edge, rc_error *err)
{
    rc_pg_incsnap *is = ctx;
    started *tb = table_of(is, t->name);
    if (edge == RC_INCSNAP_EDGE_START) clock_gettime(CLOCK_MONOTONIC, &tb->t0);
    else {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double secs = (double)(now.tv_sec - tb->t0.tv_sec) + (double)(now.tv_nsec - tb->t0.tv_nsec) / 1e9;
        say(is, "incremental snapshot of %s %s: %" PRIu64 " rows, %" PRIu64 " dropped by the window, %" PRIu64
                " chunks, %.1f s", t->name, edge == RC_INCSNAP_EDGE_END ? "completed" : "stopped", t->rows_emitted,
            t->rows_dropped, t->chunks, secs);
    }
    int kind = edge == RC_INCSNAP_EDGE_START ? QK_START : edge == RC_INCSNAP_EDGE_END ? QK_END : QK_STOPPED;
    return enqueue(is, tb->table, kind, "", 0, err);
}

/* ---- setup ---- */

rc_pg_rc rc_pg_incsnap_table_exists(rc_pg_conn *c, const char *signal_table, rc_error *err)
{
    const char *args[] = {signal_table};
    PGresult *r = rc_pg_query(c, "SELECT to_regclass($1) IS NOT NULL", 1, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, "signal table", err);
    bool exists = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (exists) return RC_PG_OK;
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                        "signal table %s does not exist; rowcast never creates it: CREATE TABLE %s (id varchar(64) "
                        "PRIMARY KEY, type varchar(32) NOT NULL, data text);",
                        signal_table, signal_table),
           RC_PG_FATAL;
}

static rc_pg_rc check_signal_table(rc_pg_incsnap *is, bool owned, rc_error *err)
{
    rc_pg_rc rc = rc_pg_incsnap_table_exists(is->conn, is->o.signal_table, err);
    if (rc != RC_PG_OK) return rc;
    const char *args[] = {is->o.publication, is->signal_ns, is->signal_rel};
    PGresult *r = rc_pg_query(is->conn,
                              "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_publication_tables "
                              "WHERE pubname = $1 AND schemaname = $2 AND tablename = $3)",
                              3, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(is->conn, r, "signal table", err);
    bool published = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (published) return RC_PG_OK;
    if (!owned)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "publication %s does not publish the signal table %s: ALTER PUBLICATION %s ADD TABLE %s",
                            is->o.publication, is->o.signal_table, is->o.publication, is->o.signal_table),
               RC_PG_FATAL;
    char q[400], pub[140];
    rc_pg_quote_ident(pub, sizeof pub, is->o.publication);
    snprintf(q, sizeof q, "ALTER PUBLICATION %s ADD TABLE %s", pub, is->o.signal_table);
    r = PQexec(rc_pg_sql(is->conn), q);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) return rc_pg_query_fail(is->conn, r, "signal table", err);
    PQclear(r);
    return RC_PG_OK;
}

void rc_pg_incsnap_use(rc_pg_incsnap *is, rc_pg_events *ev) { is->ev = ev; }

rc_pg_rc rc_pg_incsnap_new(rc_pg_conn *c, const rc_pg_incsnap_opts *o, bool owned, rc_pg_incsnap **out,
                           rc_error *err)
{
    *out = NULL;
    const char *dot = strchr(o->signal_table, '.');
    if (!dot || dot == o->signal_table || !dot[1] || (size_t)(dot - o->signal_table) >= 64 || strlen(dot + 1) >= 64)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o postgres.signal.table=%s: expected SCHEMA.TABLE",
                            o->signal_table),
               RC_PG_FATAL;
    rc_pg_incsnap *is = calloc(1, sizeof *is);
    if (!is) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"), RC_PG_FATAL;
    is->conn = c, is->o = *o;
    snprintf(is->signal_ns, sizeof is->signal_ns, "%.*s", (int)(dot - o->signal_table), o->signal_table);
    snprintf(is->signal_rel, sizeof is->signal_rel, "%s", dot + 1);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    is->run = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    is->run &= (UINT64_C(1) << 53) - 1; /* exact in any JSON reader */
    rc_buf_init(&is->cursor, 0), rc_buf_init(&is->cursor_next, 0), rc_buf_init(&is->qtext, 0);
    rc_arena_init(&is->scratch);
    rc_incsnap_ops ops = {write_watermark, read_chunk, recognise, emit_row, emit_edge};
    rc_incsnap_limits lim = {.chunk_rows = o->chunk_rows};
    is->core = rc_incsnap_new(&ops, is, &lim);
    rc_pg_rc rc = is->core ? check_signal_table(is, owned, err)
                           : (rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"), RC_PG_FATAL);
    if (rc != RC_PG_OK) rc_pg_incsnap_free(is);
    else *out = is;
    return rc;
}

void rc_pg_incsnap_free(rc_pg_incsnap *is)
{
    if (!is) return;
    rc_incsnap_free(is->core);
    for (size_t i = 0; i < is->ntables; i++) free(is->tables[i].name);
    free(is->tables);
    rc_pg_tables_free(is->cat, is->ntables);
    free(is->q);
    rc_buf_fini(&is->cursor), rc_buf_fini(&is->cursor_next), rc_buf_fini(&is->qtext);
    rc_arena_fini(&is->scratch);
    rc_pg_xidsnap_fini(&is->snap);
    free(is->emitted);
    free(is);
}

/* ---- signals ---- */

/* Queues one table of an execute-snapshot signal, or says why not. */
static void execute_one(rc_pg_incsnap *is, const rc_signal *sg, const rc_signal_table *st)
{
    rc_error err;
    rc_error_clear(&err);
    rc_pg_table *found = NULL;
    size_t n = 0;
    const char *pat[] = {st->name};
    if (rc_pg_catalog_tables(is->conn, is->o.publication, is->o.companion, pat, 1, &found, &n, &err) != RC_PG_OK) {
        say(is, "signal id=%s: %s", sg->id, err.message);
        return;
    }
    const char *why = !n ? "it is not a captured table (not in the publication)"
                      : !found[0].pk_rank ? "it has no primary key (tables without one are not snapshotted incrementally yet)"
                      : st->filter ? "additional-conditions are not supported yet"
                                   : NULL;
    if (why) {
        say(is, "signal id=%s: incremental snapshot of %s refused: %s", sg->id, st->name, why);
        rc_pg_tables_free(found, n);
        return;
    }
    started *tb = table_of(is, st->name);
    if (!tb) {
        started *t = realloc(is->tables, (is->ntables + 1) * sizeof *t);
        rc_pg_table *c = realloc(is->cat, (is->ntables + 1) * sizeof *c);
        if (t) is->tables = t;
        if (c) is->cat = c;
        char *name = strdup(st->name);
        if (!t || !c || !name) {
            free(name);
            rc_pg_tables_free(found, n);
            say(is, "signal id=%s: out of memory", sg->id);
            return;
        }
        is->cat[is->ntables] = found[0]; /* its references move here */
        found[0] = (rc_pg_table){0};
        is->tables[is->ntables] = (started){.name = name, .table = is->ntables};
        is->ntables++;
    }
    rc_status q = rc_incsnap_queue(is->core, st->name, RC_INCSNAP_BY_PK, sg->id, NULL, &err);
    if (q == RC_OK && tb) { /* queued anew: read with the structure now, not its last snapshot's */
        rc_pg_table *c = &is->cat[tb->table];
        rc_pg_relation_release(c->rel), free(c->pk_rank);
        *c = found[0], found[0] = (rc_pg_table){0};
    }
    rc_pg_tables_free(found, n);
    if (q != RC_OK) {
        say(is, "%s: %s; signal %s ignored for it", st->name, err.message, sg->id);
        return;
    }
    const rc_pg_table *c = &is->cat[table_of(is, st->name)->table];
    uint64_t est = c->reltuples > 0 ? (uint64_t)c->reltuples : 0;
    rc_incsnap_estimate(is->core, st->name, est, 0);
    say(is, "incremental snapshot of %s started (signal %s, ~%" PRIu64 " rows, by primary key)", st->name, sg->id, est);
}

static void on_signal(rc_pg_incsnap *is, const rc_event *ev)
{
    if (ev->ncols < 3 || !ev->after) return;
    rc_arena a;
    rc_arena_init(&a);
    rc_signal sg;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_signal_parse_values(&sg, &a, is->o.signal_table, ev->after, &err);
    if (st != RC_OK) say(is, "%s", err.message);
    else if (sg.kind == RC_SIGNAL_EXECUTE)
        for (size_t i = 0; i < sg.ntables; i++) execute_one(is, &sg, &sg.tables[i]);
    else if (sg.kind == RC_SIGNAL_STOP) {
        if (!sg.ntables) (void)rc_incsnap_stop(is->core, NULL, &err);
        for (size_t i = 0; i < sg.ntables; i++) (void)rc_incsnap_stop(is->core, sg.tables[i].name, &err);
    } else if (sg.kind == RC_SIGNAL_PAUSE || sg.kind == RC_SIGNAL_RESUME)
        rc_incsnap_pause(is->core, sg.kind == RC_SIGNAL_PAUSE);
    rc_arena_fini(&a);
}

/* ---- the stream ---- */

rc_status rc_pg_incsnap_on_message(rc_pg_incsnap *is, const rc_pgo_msg *m, rc_error *err)
{
    if (m->kind == RC_PGO_BEGIN) is->cur_xid = m->u.begin.xid;
    if (m->kind == RC_PGO_COMMIT) emitted_add(is, is->cur_xid);
    if (m->kind == RC_PGO_STREAM_COMMIT) emitted_add(is, m->u.commit.xid);
    if (m->kind != RC_PGO_MESSAGE || strcmp(m->u.message.prefix, "rowcast.watermark")) return RC_OK;
    rc_incsnap_phase was = rc_incsnap_phase_of(is->core);
    rc_status st = rc_incsnap_on_message(is->core, m->u.message.content, m->u.message.len, err);
    if (was == RC_INCSNAP_READ && rc_incsnap_phase_of(is->core) == RC_INCSNAP_OPEN) is->nbefore = is->nemit;
    return st;
}

static bool is_table(const rc_event *ev, const char *ns, const char *rel)
{
    return ev->src.schema.n == strlen(ns) && !memcmp(ev->src.schema.p, ns, ev->src.schema.n) &&
           ev->src.table.n == strlen(rel) && !memcmp(ev->src.table.p, rel, ev->src.table.n);
}

rc_status rc_pg_incsnap_on_events(rc_pg_incsnap *is, const rc_event *evs, size_t n, rc_error *err)
{
    for (size_t i = 0; i < n; i++) {
        const rc_event *ev = &evs[i];
        if (ev->op != RC_OP_INSERT && ev->op != RC_OP_UPDATE && ev->op != RC_OP_DELETE && ev->op != RC_OP_TRUNCATE)
            continue;
        if (is_table(ev, is->signal_ns, is->signal_rel)) {
            if (ev->op == RC_OP_INSERT) on_signal(is, ev);
            continue;
        }
        char name[300];
        snprintf(name, sizeof name, "%.*s.%.*s", (int)ev->src.schema.n, ev->src.schema.p, (int)ev->src.table.n,
                 ev->src.table.p);
        if (!table_of(is, name)) continue;
        if (ev->op == RC_OP_TRUNCATE) {
            rc_incsnap_on_truncate(is->core, name);
            continue;
        }
        uint32_t idx[KEY_MAX], nk = key_of(ev, idx);
        rc_value before[KEY_MAX], after[KEY_MAX];
        for (uint32_t k = 0; k < nk; k++) {
            if (ev->before) before[k] = ev->before[idx[k]];
            if (ev->after) after[k] = ev->after[idx[k]];
        }
        rc_status st = rc_incsnap_on_change(is->core, name, ev->before ? before : NULL, ev->after ? after : NULL, nk, err);
        if (st != RC_OK) return st;
    }
    return RC_OK;
}

rc_status rc_pg_incsnap_commit(rc_pg_incsnap *is, rc_error *err)
{
    if (rc_incsnap_phase_of(is->core) == RC_INCSNAP_EMIT && chunk_missed_one(is)) {
        rc_incsnap_reread(is->core); /* the next step reads it again, from the same key */
        return RC_OK;
    }
    rc_status st = rc_incsnap_emit(is->core, err);
    if (st == RC_OK) rc_buf_reset(&is->cursor), rc_buf_put(&is->cursor, is->cursor_next.data, is->cursor_next.len);
    return st == RC_SKIP ? RC_OK : st;
}

rc_status rc_pg_incsnap_step(rc_pg_incsnap *is, rc_error *err)
{
    if (rc_pg_incsnap_pending(is) || rc_incsnap_phase_of(is->core) != RC_INCSNAP_IDLE) return RC_OK;
    if (is->nemit > 4096 && take_snapshot(is, err) != RC_OK) return err->code; /* idle: forget the old ones */
    rc_status st = rc_incsnap_step(is->core, true, err);
    if (st != RC_OK && st != RC_SKIP) {
        say(is, "%s", err->message); /* that table stopped; the capture goes on */
        rc_error_clear(err);
    }
    return RC_OK;
}

bool rc_pg_incsnap_pending(const rc_pg_incsnap *is) { return is->qi < is->nq; }

rc_status rc_pg_incsnap_next(rc_pg_incsnap *is, rc_arena *a, rc_event_list *out, rc_error *err)
{
    static const char *const marks[] = {"incremental", "incremental:start", "incremental:end", "incremental:stopped"};
    const queued *q = &is->q[is->qi];
    const rc_pg_relation *rel = is->cat[q->table].rel;
    rc_pgo_tuple row;
    rc_status st;
    if (q->kind == QK_ROW) {
        st = rc_pg_copy_row(a, rel, is->qtext.data + q->off, q->len, &row, err);
    } else {
        rc_pgo_datum *nulls = rc_arena_alloc(a, (rel->ncols + 1) * sizeof *nulls);
        if (!nulls) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        for (uint16_t k = 0; k < rel->ncols; k++) nulls[k] = (rc_pgo_datum){NULL, 0, RC_PGO_NULL};
        row = (rc_pgo_tuple){rel->ncols, nulls};
        st = RC_OK;
    }
    size_t first = out->count;
    if (st == RC_OK) st = rc_pg_events_read(is->ev, rel, &row, a, out, err);
    if (st == RC_OK && out->count > first) {
        rc_event *ev = &out->items[first];
        ev->snapshot = (rc_str){marks[q->kind], strlen(marks[q->kind])};
        if (q->kind != QK_ROW) ev->after = NULL;
    }
    if (++is->qi == is->nq) is->qi = is->nq = 0, rc_buf_reset(&is->qtext);
    return st;
}
