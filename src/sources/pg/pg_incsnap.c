/* PostgreSQL incremental snapshots: signals, watermarks, the stream, the state (pg_incsnap.h;
 * the chunk reads are pg_incsnap_chunk.c). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sources/pg/pg_copy.h"
#include "sources/pg/pg_incsnap_int.h"
#include "sources/signal.h"

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
    return enqueue(is, rc_pgis_table_of(is, t->name)->table, QK_ROW, raw, rawn, err);
}

static rc_status emit_edge(void *ctx, const rc_incsnap_table *t, rc_incsnap_edge edge, rc_error *err)
{
    rc_pg_incsnap *is = ctx;
    started *tb = rc_pgis_table_of(is, t->name);
    if (edge == RC_INCSNAP_EDGE_START) clock_gettime(CLOCK_MONOTONIC, &tb->t0);
    else {
        struct timespec now;
        clock_gettime(CLOCK_MONOTONIC, &now);
        double secs = (double)(now.tv_sec - tb->t0.tv_sec) + (double)(now.tv_nsec - tb->t0.tv_nsec) / 1e9;
        rc_pgis_say(is, "incremental snapshot of %s %s: %" PRIu64 " rows, %" PRIu64 " dropped by the window, %" PRIu64
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

/* The state file's path (--checkpoint, else the default one: a directory that cannot be made
 * is said when a snapshot is asked for) and what it holds, kept for rc_pg_incsnap_resume. */
static rc_status state_open(rc_pg_incsnap *is, rc_error *err)
{
    PGconn *sql = rc_pg_sql(is->conn);
    rc_pg_state_locate(is->state_path, sizeof is->state_path, is->state_why, sizeof is->state_why, is->o.state_path,
                       PQhost(sql), PQport(sql), PQdb(sql), is->o.slot);
    if (is->state_why[0]) return RC_OK; /* said when a snapshot is asked for */
    rc_status st = rc_pg_state_read(is->state_path, &is->o.home, is->o.slot, &is->loaded_at, &is->loaded, err);
    return st == RC_SKIP ? RC_OK : st;
}

rc_pg_rc rc_pg_incsnap_new(rc_pg_conn *c, const rc_pg_incsnap_opts *o, bool owned, rc_pg_incsnap **out,
                           rc_error *err)
{
    *out = NULL;
    const char *dot = o->signal_table ? strchr(o->signal_table, '.') : NULL;
    if (o->signal_table &&
        (!dot || dot == o->signal_table || !dot[1] || (size_t)(dot - o->signal_table) >= 64 || strlen(dot + 1) >= 64))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o postgres.signal.table=%s: expected SCHEMA.TABLE",
                            o->signal_table),
               RC_PG_FATAL;
    rc_pg_incsnap *is = calloc(1, sizeof *is);
    if (!is) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"), RC_PG_FATAL;
    is->conn = c, is->o = *o;
    if (dot) { /* without a signal table these stay "": no event is a signal */
        snprintf(is->signal_ns, sizeof is->signal_ns, "%.*s", (int)(dot - o->signal_table), o->signal_table);
        snprintf(is->signal_rel, sizeof is->signal_rel, "%s", dot + 1);
    }
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    is->run = ((uint64_t)ts.tv_sec * 1000000007u) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32);
    is->run &= (UINT64_C(1) << 53) - 1; /* exact in any JSON reader */
    rc_buf_init(&is->cursor, 0), rc_buf_init(&is->cursor_next, 0), rc_buf_init(&is->qtext, 0);
    rc_arena_init(&is->scratch);
    rc_incsnap_ops ops = {write_watermark, rc_pgis_read_chunk, recognise, emit_row, emit_edge, rc_pgis_row_key};
    rc_incsnap_limits lim = {.chunk_rows = o->chunk_rows};
    is->core = rc_incsnap_new(&ops, is, &lim);
    rc_isstate_init(&is->loaded);
    const char *verbose = getenv("RC_SNAPSHOT_VERBOSE");
    is->o.verbose = is->o.verbose || (verbose && !strcmp(verbose, "1"));
    is->cursor_table = is->chunk_table = SIZE_MAX;
    rc_pg_rc rc = !is->core ? (rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"), RC_PG_FATAL)
                  : o->signal_table ? check_signal_table(is, owned, err)
                                    : RC_PG_OK;
    if (rc == RC_PG_OK && o->flush) {
        PGresult *r = PQexec(rc_pg_sql(c), "SET synchronous_commit = local");
        if (PQresultStatus(r) != PGRES_COMMAND_OK) rc = rc_pg_query_fail(c, r, "SET synchronous_commit", err);
        else PQclear(r);
    }
    if (rc == RC_PG_OK && state_open(is, err) != RC_OK) rc = RC_PG_FATAL;
    if (rc != RC_PG_OK) rc_pg_incsnap_free(is);
    else *out = is;
    return rc;
}

void rc_pg_incsnap_free(rc_pg_incsnap *is)
{
    if (!is) return;
    rc_pgis_ahead_free(is);
    rc_pgis_keyer_free(is);
    rc_incsnap_free(is->core);
    for (size_t i = 0; i < is->ntables; i++) free(is->tables[i].name);
    free(is->tables);
    rc_pg_tables_free(is->cat, is->ntables);
    free(is->q);
    rc_buf_fini(&is->cursor), rc_buf_fini(&is->cursor_next), rc_buf_fini(&is->qtext);
    rc_arena_fini(&is->scratch);
    rc_pg_xidsnap_fini(&is->snap);
    free(is->emitted);
    rc_isstate_fini(&is->loaded);
    rc_state_store_close(is->store);
    for (size_t i = 0; i < is->ncaptured; i++) free(is->captured[i]);
    free(is->captured);
    free(is);
}

rc_status rc_pg_incsnap_captured(rc_pg_incsnap *is, const char *name, rc_error *err)
{
    for (size_t i = 0; i < is->ncaptured; i++)
        if (!strcmp(is->captured[i], name)) return RC_OK;
    char **c = realloc(is->captured, (is->ncaptured + 1) * sizeof *c);
    if (c) is->captured = c;
    char *dup = c ? strdup(name) : NULL;
    if (!dup) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    is->captured[is->ncaptured++] = dup;
    is->captured_dirty = true;
    return RC_OK;
}

bool rc_pg_incsnap_active(const rc_pg_incsnap *is) { return rc_incsnap_ntables(is->core) > 0; }

const char *rc_pg_incsnap_state_path(const rc_pg_incsnap *is) { return is->state_path; }

/* ---- signals ---- */

const char *rc_pg_incsnap_refusal(const rc_pg_table *t)
{
    return t->pk_rank ? NULL
           : t->rel->replident != RC_PG_REPLIDENT_FULL
               ? "it has no primary key and its replica identity is not FULL (ALTER TABLE ... REPLICA IDENTITY FULL "
                 "lets it be read in ctid ranges)"
           : t->relkind != 'r' ? "a partitioned table without a primary key (snapshot its partitions)"
           : t->rel->ncols > KEY_MAX ? "it has no primary key and more than 32 columns"
                                     : NULL;
}

/* Looks `name` up and registers it for chunk reads (its catalog entry): NULL, or why not
 * (*refused: the table's fault, else the catalog's or memory's), in why. */
static const char *add_table(rc_pg_incsnap *is, const char *name, bool *refused, char *why, size_t whyn)
{
    rc_error err;
    rc_error_clear(&err);
    rc_pg_table *found = NULL;
    size_t n = 0;
    const char *pat[] = {name};
    *refused = false;
    if (rc_pg_catalog_tables(is->conn, is->o.publication, is->o.companion, pat, 1, &found, &n, &err) != RC_PG_OK)
        return snprintf(why, whyn, "%s", err.message), why;
    const char *r = !n ? "it is not a captured table (not in the publication)" : rc_pg_incsnap_refusal(&found[0]);
    *refused = r != NULL;
    if (!r && !rc_pgis_table_of(is, name)) {
        started *t = realloc(is->tables, (is->ntables + 1) * sizeof *t);
        rc_pg_table *c = realloc(is->cat, (is->ntables + 1) * sizeof *c);
        if (t) is->tables = t;
        if (c) is->cat = c;
        char *dup = strdup(name);
        if (!t || !c || !dup) {
            free(dup);
            r = "out of memory";
        } else {
            is->cat[is->ntables] = found[0]; /* its references move here */
            found[0] = (rc_pg_table){0};
            is->tables[is->ntables] = (started){.name = dup, .table = is->ntables};
            is->ntables++;
        }
    }
    rc_pg_tables_free(found, n);
    if (!r && rc_pgis_gate_set(is, rc_pgis_table_of(is, name), &err) != RC_OK) r = (snprintf(why, whyn, "%s", err.message), why);
    return r;
}

/* The state file can be written (checked once, at the first snapshot): else why not. */
static bool state_ready(rc_pg_incsnap *is)
{
    if (is->state_checked) return !is->state_why[0];
    is->state_checked = true;
    rc_error err;
    rc_error_clear(&err);
    if (!is->state_why[0] && rc_pg_state_writable(is->state_path, &err) != RC_OK)
        snprintf(is->state_why, sizeof is->state_why, "%s; give --checkpoint PATH (a file it can write)", err.message);
    return !is->state_why[0];
}

/* Queues `name` (signal: the id that asked, NULL: rowcast itself; `asked`: who, for the
 * started line): RC_SIGNAL_OK, or _ERROR / _IGNORED with why (*refused: the table's fault). */
static int queue_one(rc_pg_incsnap *is, const char *name, const char *signal, const char *filter, const char *asked,
                     char *why, size_t whyn, bool *refused)
{
    rc_error err;
    rc_error_clear(&err);
    *refused = true;
    const char *no = add_table(is, name, refused, why, whyn);
    if (!no && !state_ready(is)) no = is->state_why, *refused = true;
    if (no) {
        if (no != why) snprintf(why, whyn, "%s", no);
        return RC_SIGNAL_ERROR;
    }
    const rc_pg_table *c = &is->cat[rc_pgis_table_of(is, name)->table];
    if (rc_incsnap_queue(is->core, name, c->pk_rank ? RC_INCSNAP_BY_PK : RC_INCSNAP_BY_CTID, signal, filter, &err) != RC_OK) {
        snprintf(why, whyn, "%s", err.message);
        return RC_SIGNAL_IGNORED;
    }
    uint64_t est = c->reltuples > 0 ? (uint64_t)c->reltuples : 0;
    rc_incsnap_estimate(is->core, name, est, 0);
    rc_pgis_say(is, "incremental snapshot of %s started (%s, ~%" PRIu64 " rows, %s%s%s); its progress is kept in %s", name,
        asked, est, c->pk_rank ? "by primary key" : "in ctid ranges: no primary key", filter ? ", the rows where " : "",
        filter ? filter : "", is->state_path);
    return RC_SIGNAL_OK;
}

rc_status rc_pg_incsnap_queue_all(rc_pg_incsnap *is, const char *const *include, size_t ninclude, size_t *ntables,
                                  uint64_t *rows, rc_error *err)
{
    rc_pg_table *t = NULL;
    size_t n = 0;
    rc_pg_rc rc = rc_pg_catalog_tables(is->conn, is->o.publication, is->o.companion, include, ninclude, &t, &n, err);
    if (rc != RC_PG_OK) return err->code ? err->code : RC_ERR_IO;
    rc_status st = RC_OK;
    char why[600], name[300];
    for (size_t i = 0; i < n && st == RC_OK; i++) {
        const char *no = rc_pg_incsnap_refusal(&t[i]);
        if (no)
            st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--snapshot incremental: table %s.%s cannot be read in chunks: %s; "
                              "or take an initial snapshot (--snapshot initial)", t[i].rel->nspname, t[i].rel->relname, no);
    }
    *ntables = 0, *rows = 0;
    for (size_t i = 0; i < n && st == RC_OK; i++) {
        /* without --include (a publication of all tables) the signal table is rowcast's, not read */
        if (!ninclude && is->o.signal_table && !strcmp(t[i].rel->nspname, is->signal_ns) && !strcmp(t[i].rel->relname, is->signal_rel))
            continue;
        ++*ntables;
        snprintf(name, sizeof name, "%s.%s", t[i].rel->nspname, t[i].rel->relname);
        const char *no = rc_pg_incsnap_queue(is, name, "--snapshot incremental", why, sizeof why);
        if (!no) st = rc_pg_incsnap_captured(is, name, err);
        else st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--snapshot incremental: %s: %s", name, no);
        if (t[i].reltuples > 0) *rows += (uint64_t)t[i].reltuples;
    }
    rc_pg_tables_free(t, n);
    return st;
}

/* Queues one table of an execute-snapshot signal, or says why not: RC_SIGNAL_OK, _ERROR, _IGNORED. */
static int execute_one(rc_pg_incsnap *is, const rc_signal *sg, const rc_signal_table *st)
{
    char why[600], asked[120];
    bool refused;
    snprintf(asked, sizeof asked, "signal %s", sg->id);
    int r = queue_one(is, st->name, sg->id, st->filter, asked, why, sizeof why, &refused);
    if (r == RC_SIGNAL_IGNORED) rc_pgis_say(is, "%s", why); /* the core's: "TABLE: already being snapshotted (chunk N); signal ID ignored for it" */
    else if (r == RC_SIGNAL_ERROR && refused) rc_pgis_say(is, "signal id=%s: incremental snapshot of %s refused: %s", sg->id, st->name, why);
    else if (r == RC_SIGNAL_ERROR) rc_pgis_say(is, "signal id=%s: %s", sg->id, why);
    return r;
}

const char *rc_pg_incsnap_queue(rc_pg_incsnap *is, const char *name, const char *asked, char *why, size_t whyn)
{
    bool refused;
    int r = queue_one(is, name, NULL, NULL, asked, why, whyn, &refused);
    is->signal_seen = is->signal_seen || r == RC_SIGNAL_OK; /* the state as of the next Commit */
    return r == RC_SIGNAL_ERROR ? why : NULL;
}

static void on_signal(rc_pg_incsnap *is, const rc_event *ev)
{
    if (ev->ncols < 3 || !ev->after) return;
    rc_arena a;
    rc_arena_init(&a);
    rc_signal sg;
    rc_error err;
    rc_error_clear(&err);
    const rc_value *v = ev->after;
    rc_str type = v[1].kind == RC_V_TEXT ? v[1].s : (rc_str){"", 0}; /* (counted by it) */
    rc_status st = rc_signal_parse_values(&sg, &a, is->o.signal_table, ev->after, &err);
    int result = RC_SIGNAL_IGNORED;
    is->signal_seen = true; /* the state as of its Commit (rc_pg_incsnap_commit) */
    if (st != RC_OK) rc_pgis_say(is, "%s", err.message), result = RC_SIGNAL_ERROR;
    else if (sg.kind == RC_SIGNAL_EXECUTE)
        for (size_t i = 0; i < sg.ntables; i++) result = rc_incsnap_signal_worse(result, execute_one(is, &sg, &sg.tables[i]));
    else if (sg.kind == RC_SIGNAL_STOP) {
        for (size_t i = 0; i < (sg.ntables ? sg.ntables : 1); i++)
            result = rc_incsnap_signal_worse(
                result, rc_incsnap_signal_result(rc_incsnap_stop(is->core, sg.ntables ? sg.tables[i].name : NULL, &err)));
    } else if (sg.kind == RC_SIGNAL_PAUSE || sg.kind == RC_SIGNAL_RESUME)
        result = rc_incsnap_signal_pause(is->core, sg.kind == RC_SIGNAL_PAUSE);
    if (st != RC_OK || sg.kind != RC_SIGNAL_WATERMARK) rc_incsnap_signal_count(&is->signals, type, result);
    rc_arena_fini(&a);
}

/* ---- the stream ---- */

/* Whether the chunk in flight is of table `name`. */
static bool running_chunk_of(const rc_pg_incsnap *is, const char *name)
{
    for (size_t i = 0; i < rc_incsnap_ntables(is->core); i++) {
        const rc_incsnap_table *t = rc_incsnap_table_at(is->core, i);
        if (t->state == RC_INCSNAP_RUNNING && !strcmp(t->name, name)) return true;
    }
    return false;
}

rc_status rc_pg_incsnap_on_message(rc_pg_incsnap *is, const rc_pgo_msg *m, rc_error *err)
{
    if (m->kind == RC_PGO_BEGIN) is->cur_xid = m->u.begin.xid;
    if (m->kind == RC_PGO_COMMIT) rc_pgis_emitted_add(is, is->cur_xid);
    if (m->kind == RC_PGO_STREAM_COMMIT) rc_pgis_emitted_add(is, m->u.commit.xid);
    if (m->kind == RC_PGO_RELATION && rc_incsnap_phase_of(is->core) == RC_INCSNAP_OPEN) {
        /* the table's structure changed while its chunk's window is open: the chunk (read with
         * the old one, or the new one before the stream's changes of the old) is read again */
        const rc_pg_relation *rel = m->u.relation.rel;
        char name[300];
        snprintf(name, sizeof name, "%s.%s", rel->nspname, rel->relname);
        const started *tb = rc_pgis_table_of(is, name);
        if (tb && running_chunk_of(is, name) && !rc_pgis_same_columns(rel, is->cat[tb->table].rel)) {
            rc_pgis_say(is, "incremental snapshot of %s: its columns changed while a chunk was open; the chunk is read again", name);
            rc_incsnap_reread(is->core);
        }
    }
    if (m->kind != RC_PGO_MESSAGE || strcmp(m->u.message.prefix, "rowcast.watermark")) return RC_OK;
    rc_incsnap_phase was = rc_incsnap_phase_of(is->core);
    rc_status st = rc_incsnap_on_message(is->core, m->u.message.content, m->u.message.len, err);
    if (was == RC_INCSNAP_READ && rc_incsnap_phase_of(is->core) == RC_INCSNAP_OPEN) {
        is->nbefore = is->nemit;
        rc_pgis_chunk_said(is, "window open");
    }
    return st;
}

static bool is_table(const rc_event *ev, const char *ns, const char *rel)
{
    return ev->src.schema.n == strlen(ns) && !memcmp(ev->src.schema.p, ns, ev->src.schema.n) &&
           ev->src.table.n == strlen(rel) && !memcmp(ev->src.table.p, rel, ev->src.table.n);
}

rc_status rc_pg_incsnap_on_events(rc_pg_incsnap *is, rc_event_list *l, size_t first, bool own_signals, rc_error *err)
{
    for (size_t i = first; i < l->count; i++) {
        const rc_event *ev = &l->items[i];
        bool sig = is->o.signal_table && is_table(ev, is->signal_ns, is->signal_rel);
        if (ev->op != RC_OP_INSERT && ev->op != RC_OP_UPDATE && ev->op != RC_OP_DELETE && ev->op != RC_OP_TRUNCATE)
            continue;
        if (sig) {
            if (ev->op == RC_OP_INSERT) on_signal(is, ev);
            continue;
        }
        /* the tables asked for ("schema.table") against the event's names in place: no name
         * printed and looked up for every streamed change */
        const started *tb = NULL;
        size_t sn = ev->src.schema.n, tn = ev->src.table.n;
        for (size_t k = 0; k < is->ntables && !tb; k++) {
            const char *nm = is->tables[k].name;
            if (strlen(nm) == sn + 1 + tn && nm[sn] == '.' && !memcmp(nm, ev->src.schema.p, sn) &&
                !memcmp(nm + sn + 1, ev->src.table.p, tn))
                tb = &is->tables[k];
        }
        if (!tb) continue;
        const char *name = tb->name;
        if (ev->op == RC_OP_TRUNCATE) {
            rc_incsnap_on_truncate(is->core, name);
            continue;
        }
        uint32_t idx[KEY_MAX], nk = rc_pgis_key_of(ev, !is->cat[tb->table].pk_rank, idx);
        rc_value before[KEY_MAX], after[KEY_MAX];
        for (uint32_t k = 0; k < nk; k++) {
            if (ev->before) before[k] = ev->before[idx[k]];
            if (ev->after) after[k] = ev->after[idx[k]];
        }
        rc_status st = rc_incsnap_on_change(is->core, name, ev->before ? before : NULL, ev->after ? after : NULL, nk, err);
        if (st != RC_OK) return st;
    }
    size_t w = first;
    for (size_t i = first; i < l->count; i++)
        if (!(own_signals && is->o.signal_table && is_table(&l->items[i], is->signal_ns, is->signal_rel))) l->items[w++] = l->items[i];
    l->count = w;
    return RC_OK;
}

/* Positions in the resume records: (lsn, k) big-endian, so that memcmp orders them. */
static void pos_bytes(unsigned char *p, uint64_t lsn, uint64_t k)
{
    for (int i = 0; i < 8; i++) p[i] = (unsigned char)(lsn >> (56 - 8 * i)), p[8 + i] = (unsigned char)(k >> (56 - 8 * i));
}

static int pos_cmp(const void *a, size_t an, const void *b, size_t bn)
{
    return an == bn ? memcmp(a, b, an) : an < bn ? -1 : 1;
}

/* The emitted chunk's end: its items are (lsn, 1..n), n the queue's length now. */
static rc_status chunk_end(rc_pg_incsnap *is, uint64_t lsn, rc_error *err)
{
    unsigned char pos[16];
    size_t n = is->nq - is->qi;
    pos_bytes(pos, lsn, n);
    char *v = malloc(is->cursor_next.len + 1);
    if (!v) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_isstate_key k[KEY_MAX];
    size_t nk = rc_pgis_cursor_keys(&is->cursor_next, v, k);
    rc_status st = rc_incsnap_chunk_end(is->core, is->tables[is->chunk_table].name, pos, sizeof pos, k, nk, err);
    free(v);
    if (st == RC_OK && is->o.verbose) {
        char what[80];
        snprintf(what, sizeof what, "emitted (%zu items at LSN %X/%X)", n, (unsigned)(lsn >> 32), (unsigned)lsn);
        rc_pgis_chunk_said(is, what);
    }
    return st;
}

static rc_status step(rc_pg_incsnap *is, bool ahead, rc_error *err);

rc_status rc_pg_incsnap_commit(rc_pg_incsnap *is, uint64_t lsn, rc_error *err)
{
    if (is->signal_seen) { /* the queue or the pause as of this Commit */
        unsigned char pos[16];
        pos_bytes(pos, lsn, 0);
        is->signal_seen = false;
        if (rc_incsnap_at(is->core, pos, sizeof pos, err) != RC_OK) return err->code;
    }
    if (rc_incsnap_phase_of(is->core) == RC_INCSNAP_EMIT && rc_pgis_chunk_missed_one(is)) {
        rc_incsnap_reread(is->core); /* the next step reads it again, from the same key */
        rc_pgis_gate_missed(is);
        return RC_OK;
    }
    rc_status st = rc_incsnap_emit(is->core, err);
    if (st == RC_OK) {
        rc_buf_reset(&is->cursor), rc_buf_put(&is->cursor, is->cursor_next.data, is->cursor_next.len);
        st = chunk_end(is, lsn, err);
    }
    /* the next chunk read while this one's rows are handed out (design §1.2 "Reading ahead") */
    if (st == RC_OK && is->o.read_ahead && rc_pg_incsnap_rows(is)) st = step(is, true, err);
    return st == RC_SKIP ? RC_OK : st;
}

/* The next chunk when none is in flight; ahead: its read may be left in flight. A failed read
 * stopped its table (said): the capture goes on. */
static rc_status step(rc_pg_incsnap *is, bool ahead, rc_error *err)
{
    if (rc_incsnap_phase_of(is->core) != RC_INCSNAP_IDLE) return RC_OK;
    if (!ahead && is->nemit > 4096 && rc_pgis_take_snapshot(is, err) != RC_OK) return err->code; /* idle: forget the old ones */
    if (rc_pgis_gate_waits(is)) return RC_OK; /* transactions open when its table was queued */
    is->ahead_ok = ahead;
    rc_status st = rc_incsnap_step(is->core, true, err);
    is->ahead_ok = false;
    if (st != RC_OK && st != RC_SKIP) {
        rc_pgis_say(is, "warning: %s", err->message); /* that table stopped; the capture goes on */
        rc_error_clear(err);
    }
    return RC_OK;
}

rc_status rc_pg_incsnap_step(rc_pg_incsnap *is, rc_error *err)
{
    return rc_pg_incsnap_pending(is) ? RC_OK : step(is, false, err);
}

rc_status rc_pg_incsnap_read_end(rc_pg_incsnap *is, rc_error *err)
{
    rc_status st = rc_pgis_read_end(is, err);
    if (st != RC_OK && st != RC_SKIP) {
        rc_pgis_say(is, "warning: %s", err->message); /* as step: that table stopped, the capture goes on */
        rc_error_clear(err);
    }
    return RC_OK;
}

bool rc_pg_incsnap_rows(const rc_pg_incsnap *is) { return is->qi < is->nq; }

bool rc_pg_incsnap_pending(const rc_pg_incsnap *is) { return is && (rc_pg_incsnap_rows(is) || is->ahead); }

bool rc_pg_incsnap_working(const rc_pg_incsnap *is) { return is && (rc_incsnap_working(is->core) || rc_pg_incsnap_pending(is)); }

rc_status rc_pg_incsnap_next(rc_pg_incsnap *is, rc_arena *a, rc_event_list *out, rc_error *err)
{
    static const char *const marks[] = {"incremental", "incremental:start", "incremental:end", "incremental:stopped"};
    const queued *q = &is->q[is->qi];
    const rc_pg_relation *rel = is->cat[q->table].rel;
    rc_pgo_tuple row;
    rc_status st = q->kind == QK_ROW ? rc_pg_copy_row(a, rel, is->qtext.data + q->off, q->len, &row, err)
                                     : rc_pgis_null_row(a, rel, &row, err);
    size_t first = out->count;
    if (st == RC_OK) st = rc_pg_events_read(is->ev, rel, &row, a, out, err);
    if (st == RC_OK && out->count > first) {
        rc_event *ev = &out->items[first];
        ev->snapshot = (rc_str){marks[q->kind], strlen(marks[q->kind])};
        if (q->kind != QK_ROW) ev->after = NULL;
    }
    if (++is->qi == is->nq) is->qi = is->nq = 0, rc_buf_reset(&is->qtext);
    if (!(is->qi & 511)) rc_pgis_read_poll(is); /* the next chunk's COPY off the socket (about 30 KB of it a poll) */
    return st;
}

void rc_pg_incsnap_stats(const rc_pg_incsnap *is, rc_source_stats *out) { rc_incsnap_stats(is->core, &is->signals, out); }

/* ---- resuming ---- */

/* "after key ["17","b"]" of a resumed table. */
static void say_resumed(rc_pg_incsnap *is, const rc_isstate_table *t)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_pg_state_last_json(&b, t);
    rc_pgis_say(is, "resuming incremental snapshot of %s after key %.400s (%" PRIu64 " rows done, chunk %" PRIu64 "; state file %s)",
        t->name, b.err == RC_OK ? b.data : "[]", t->rows, t->chunks, is->state_path);
    rc_buf_fini(&b);
}

rc_status rc_pg_incsnap_resume(rc_pg_incsnap *is, bool slot_exists, rc_error *err)
{
    rc_isstate *st = &is->loaded;
    if (!st->nt && !st->paused) return RC_OK;
    if (!slot_exists) {
        rc_pgis_say(is, "state file %s ignored: replication slot %s does not exist, so the stream its snapshot went with is gone",
            is->state_path, is->o.slot);
        return RC_OK;
    }
    size_t k = 0;
    for (size_t i = 0; i < st->nt; i++) {
        char why[600];
        bool refused;
        const char *no = st->t[i].initial ? "an initial snapshot is not resumed yet"
                                          : add_table(is, st->t[i].name, &refused, why, sizeof why);
        if (no) rc_pgis_say(is, "state file %s: the incremental snapshot of %s does not go on: %s", is->state_path, st->t[i].name, no);
        else st->t[k++] = st->t[i];
    }
    st->nt = k;
    /* a table without a key (ctid ranges) starts again, with a new start edge: its consumer
     * rebuilds it from there, and the multiset of what the stream delivered is not in the state */
    for (size_t i = 0; i < st->nt; i++) {
        if (st->t[i].queued || is->cat[rc_pgis_table_of(is, st->t[i].name)->table].pk_rank) continue;
        st->t[i].has_last = false, st->t[i].rows = st->t[i].chunks = 0;
        rc_pgis_say(is, "incremental snapshot of %s starts again from its first page (a table without a key is rebuilt from a "
                "new start edge)", st->t[i].name);
    }
    if (rc_incsnap_import(is->core, st, err) != RC_OK) return err->code;
    for (size_t i = 0; i < st->nt; i++) clock_gettime(CLOCK_MONOTONIC, &rc_pgis_table_of(is, st->t[i].name)->t0);
    for (size_t i = 0; i < st->nt; i++)
        if (st->t[i].has_last && !st->t[i].last_is_page) say_resumed(is, &st->t[i]);
        else rc_pgis_say(is, "incremental snapshot of %s (signal %s) goes on from the state file %s, from its first row", st->t[i].name,
                 st->t[i].signal ? st->t[i].signal : "none", is->state_path);
    if (st->paused) rc_pgis_say(is, "incremental snapshots are paused (state file %s): a resume-snapshot signal goes on", is->state_path);
    is->state_checked = true; /* it was read: it can be written */
    return RC_OK;
}

rc_pg_state_pos rc_pg_incsnap_state_at(const rc_pg_incsnap *is) { return is->loaded_at; }

rc_status rc_pg_incsnap_acked(rc_pg_incsnap *is, uint64_t lsn, uint64_t k, rc_error *err)
{
    unsigned char pos[16];
    pos_bytes(pos, lsn, k);
    bool changed = false;
    rc_status rc = rc_incsnap_export(is->core, pos, sizeof pos, pos_cmp, NULL, &changed, err);
    if (rc != RC_OK || (!changed && !is->state_failed && !is->captured_dirty)) return rc;
    rc_isstate st;
    rc_isstate_init(&st);
    rc = rc_incsnap_export(is->core, pos, sizeof pos, pos_cmp, &st, NULL, err);
    if (rc == RC_OK) {
        st.captured = (const char **)is->captured, st.ncaptured = is->ncaptured; /* not the arena's */
        rc = rc_pg_state_write(&is->store, is->state_path, &is->o.home, is->o.slot, (rc_pg_state_pos){lsn, k}, &st, err);
        st.captured = NULL, st.ncaptured = 0;
        is->captured_dirty = is->captured_dirty && rc != RC_OK;
        if (rc != RC_OK && !is->state_failed) rc_pgis_say(is, "%s; the replication slot waits until it can be written", err->message);
        is->state_failed = rc != RC_OK;
        for (size_t i = 0; rc == RC_OK && is->o.verbose && i < st.nt; i++)
            if (!st.t[i].queued)
                rc_pgis_say(is, "incremental snapshot %s chunk %" PRIu64 ": acknowledged (%" PRIu64 " rows; state written to %s)",
                    st.t[i].name, st.t[i].chunks, st.t[i].rows, is->state_path);
        if (rc == RC_OK && is->o.verbose && !st.nt) rc_pgis_say(is, "incremental snapshot state written to %s: none running", is->state_path);
    }
    rc_isstate_fini(&st);
    return rc;
}

rc_status rc_pg_incsnap_save(rc_pg_incsnap *is, rc_error *err)
{
    unsigned char pos[16];
    pos_bytes(pos, 0, 0);
    is->signal_seen = false;
    if (!state_ready(is)) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s", is->state_why);
    if (rc_incsnap_at(is->core, pos, sizeof pos, err) != RC_OK) return err->code;
    return rc_pg_incsnap_acked(is, 0, 0, err);
}
