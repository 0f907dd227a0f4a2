/* PostgreSQL incremental snapshots: the chunk reads (pg_incsnap_int.h): key-ordered COPY
 * chunks of a table with a primary key, ctid page ranges of one without, each in its own
 * REPEATABLE READ transaction with the table's columns read again (a DDL since the last one). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/pg/pg_copy.h"
#include "sources/snapshot_stop.h"
#include "sources/pg/pg_incsnap_int.h"

void rc_pgis_say(rc_pg_incsnap *is, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (is->o.notice) is->o.notice(is->o.notice_ud, msg);
}

/* RC_SNAPSHOT_VERBOSE=1: "incremental snapshot public.t chunk 17: window open". */
void rc_pgis_chunk_said(rc_pg_incsnap *is, const char *what)
{
    if (!is->o.verbose || is->chunk_table >= is->ntables) return;
    const char *name = is->tables[is->chunk_table].name;
    const rc_incsnap_table *t = rc_incsnap_table_named(is->core, name);
    rc_pgis_say(is, "incremental snapshot %s chunk %" PRIu64 ": %s", name, t ? t->chunks : 0, what);
    rc_snapshot_stop_point(what);
}

started *rc_pgis_table_of(rc_pg_incsnap *is, const char *name)
{
    for (size_t i = 0; i < is->ntables; i++)
        if (!strcmp(is->tables[i].name, name)) return &is->tables[i];
    return NULL;
}


/* The key columns of a relation's event in key order: their indexes (count returned); every
 * column for a table without a primary key (read in ctid ranges, its replica identity FULL). */
uint32_t rc_pgis_key_of(const rc_event *ev, bool keyless, uint32_t *idx)
{
    if (!keyless) return rc_event_pk(ev, idx, KEY_MAX);
    uint32_t n = ev->ncols < KEY_MAX ? (uint32_t)ev->ncols : KEY_MAX;
    for (uint32_t k = 0; k < n; k++) idx[k] = k;
    return n;
}

/* A row of NULLs for rel's columns (the edges' zero-row reads). */
rc_status rc_pgis_null_row(rc_arena *a, const rc_pg_relation *rel, rc_pgo_tuple *row, rc_error *err)
{
    rc_pgo_datum *nulls = rc_arena_alloc(a, (rel->ncols + 1) * sizeof *nulls);
    if (!nulls) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (uint16_t k = 0; k < rel->ncols; k++) nulls[k] = (rc_pgo_datum){NULL, 0, RC_PGO_NULL};
    *row = (rc_pgo_tuple){rel->ncols, nulls};
    return RC_OK;
}

/* Appends p[0..n) to b with \t and \\ escaped, then a tab (key texts as one line). */
static void put_key_text(rc_buf *b, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\t' || p[i] == '\\') rc_buf_putc(b, '\\');
        rc_buf_putc(b, p[i]);
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

/* The key texts of a cursor (put_key_text's), unescaped into v (cursor->len + 1 bytes): up to
 * KEY_MAX of them into k, their count returned. */
size_t rc_pgis_cursor_keys(const rc_buf *cursor, char *v, rc_isstate_key *k)
{
    const char *p = cursor->data, *end = p + cursor->len;
    size_t nk = 0;
    while (p < end && nk < KEY_MAX) {
        k[nk] = (rc_isstate_key){v, 0, false};
        for (; p < end && *p != '\t'; p++) v[k[nk].n++] = *p == '\\' ? *++p : *p;
        v += k[nk++].n, p++;
    }
    return nk;
}

/* The cursor of a table read first in this run: its key texts from the core's cursor, which
 * an imported state made of text values (rc_incsnap_import); empty when there is none. */
static void cursor_from_core(rc_pg_incsnap *is, const rc_incsnap_table *t)
{
    rc_buf_reset(&is->cursor);
    rc_value v[KEY_MAX];
    size_t n = 0;
    if (!t->cursor.len || rc_incsnap_key_decode(t->cursor.data, t->cursor.len, v, KEY_MAX, &n, NULL) != RC_OK) return;
    for (size_t i = 0; i < n; i++) {
        if (v[i].kind != RC_V_TEXT) { /* not a resumed one: from the start (repeats, never skips) */
            rc_buf_reset(&is->cursor);
            return;
        }
        put_key_text(&is->cursor, v[i].s.p, v[i].s.n);
    }
}

/* `(k1, k2) > ('v1', 'v2') ` from the cursor texts, or nothing for the first chunk. */
static bool put_where(rc_pg_incsnap *is, PGconn *sql, rc_buf *q, const char *const *keys, uint32_t nkey)
{
    if (!is->cursor.len) return true;
    rc_buf_puts(q, " WHERE (");
    for (uint32_t k = 0; k < nkey; k++) rc_buf_puts(q, k ? ", " : ""), rc_buf_puts(q, keys[k]);
    rc_buf_puts(q, ") > (");
    char *v = malloc(is->cursor.len + 1);
    if (!v) return false;
    rc_isstate_key kv[KEY_MAX];
    size_t nk = rc_pgis_cursor_keys(&is->cursor, v, kv);
    for (uint32_t k = 0; k < nkey && k < nk; k++) {
        char *lit = PQescapeLiteral(sql, kv[k].p, kv[k].n);
        rc_buf_puts(q, k ? ", " : "");
        rc_buf_puts(q, lit ? lit : "NULL");
        PQfreemem(lit);
    }
    free(v);
    rc_buf_putc(q, ')');
    return true;
}

/* ` WHERE ctid > 'AFTER'::tid AND ctid < '(END,0)'::tid` (a TID range scan): the rest of page
 * range [.., END) after tid AFTER ("(0,0)": from the first page). */
static void put_ctid_range(rc_buf *q, const char *after, uint64_t end)
{
    char w[120];
    snprintf(w, sizeof w, " WHERE ctid > '%s'::tid AND ctid < '(%" PRIu64 ",0)'::tid", after, end);
    rc_buf_puts(q, w);
}

/* The additional-conditions filter ANDed to the chunk's WHERE (` WHERE (F)` when the chunk has
 * none yet: the first chunk by key), run as written. Nothing when there is no filter. */
static void put_filter(rc_buf *q, const char *filter, bool has_where)
{
    if (!filter) return;
    rc_buf_puts(q, has_where ? " AND (" : " WHERE ("), rc_buf_puts(q, filter), rc_buf_putc(q, ')');
}

/* COPY (SELECT cols FROM ONLY t [WHERE key > cursor] ORDER BY key LIMIT n) TO STDOUT; a table
 * without a key (rank NULL): COPY (SELECT cols, ctid FROM ONLY t WHERE ctid in a page range
 * ORDER BY ctid) TO STDOUT, the range from tid `after` to page `end`; either with `AND (filter)`
 * when the snapshot has one (additional-conditions) */
static char *chunk_query(rc_pg_incsnap *is, const rc_pg_table *t, const uint16_t *rank, const char *filter, size_t limit,
                         const char *after, uint64_t end)
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
    nkey = rank ? pk_cols(rank, ncols, pk) : 0;
    for (uint32_t k = 0; k < nkey; k++) keys[k] = ids[pk[k]] ? ids[pk[k]] : "";
    if (!rank) rc_buf_puts(&q, ", ctid");
    char *ns = PQescapeIdentifier(sql, rel->nspname, strlen(rel->nspname));
    char *tb = PQescapeIdentifier(sql, rel->relname, strlen(rel->relname));
    rc_buf_puts(&q, " FROM ONLY "), rc_buf_puts(&q, ns ? ns : ""), rc_buf_putc(&q, '.'), rc_buf_puts(&q, tb ? tb : "");
    PQfreemem(ns);
    PQfreemem(tb);
    bool ok = true;
    if (rank) {
        ok = put_where(is, sql, &q, keys, nkey);
        put_filter(&q, filter, is->cursor.len > 0);
        rc_buf_puts(&q, " ORDER BY ");
        for (uint32_t k = 0; k < nkey; k++) rc_buf_puts(&q, k ? ", " : ""), rc_buf_puts(&q, keys[k]);
        char lim[40];
        snprintf(lim, sizeof lim, " LIMIT %zu", limit);
        rc_buf_puts(&q, lim);
    } else {
        put_ctid_range(&q, after, end);
        put_filter(&q, filter, true);
        rc_buf_puts(&q, " ORDER BY ctid");
    }
    rc_buf_puts(&q, ") TO STDOUT");
    for (uint16_t k = 0; k < ncols; k++) PQfreemem(ids[k]);
    rc_buf_putc(&q, '\0');
    char *out = ok && q.err == RC_OK ? strdup(q.data) : NULL;
    rc_buf_fini(&q);
    return out;
}

/* What every row of a chunk shares: the table, the columns whose values are built for a key
 * (keep: the events' key, and the primary key for the cursor; the others stay NULL until the
 * row is emitted, when it is built whole; a keyless table's at read, a keyed table's when the
 * core asks rc_pgis_row_key), a row of datums to fill, the events' key columns (idx), the
 * primary key's columns in key order, and the event list the rows are built into (reused: no
 * allocation a row). */
typedef struct chunk_rows {
    const rc_pg_table *t;
    unsigned char *keep;
    rc_pgo_datum *d;
    uint32_t idx[KEY_MAX], nk;
    uint16_t pk[KEY_MAX];
    uint32_t npk;
    bool ordered; /* the events' key is the primary key, column for column (rc_incsnap_set_ordered) */
    rc_event_list l;
} chunk_rows;

struct rc_pgis_ahead {
    const rc_incsnap_table *t;
    chunk_rows c;
};

/* The last chunk's column set and an arena of its own: the chunk's rows wait in the core
 * without their keys (rc_incsnap_add_raw) until rc_pgis_row_key is asked for one, at the
 * chunk's end or while its window is open. */
struct rc_pgis_keyer {
    chunk_rows c;
    size_t table; /* the chunk's table, into is->cat: looked up once a chunk, not once a key */
    rc_arena a;
};

static void chunk_rows_fini(chunk_rows *c)
{
    free(c->keep);
    free(c->d);
    rc_event_list_fini(&c->l);
}

/* `ev`, an event of the table built with this column set: the columns to build at read. */
static rc_status chunk_rows_init(chunk_rows *c, const rc_pg_table *t, const rc_event *ev, rc_error *err)
{
    *c = (chunk_rows){.t = t};
    uint16_t ncols = t->rel->ncols;
    c->keep = calloc((size_t)ncols + 1, 1);
    c->d = calloc((size_t)ncols + 1, sizeof *c->d);
    if (!c->keep || !c->d) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    c->nk = rc_pgis_key_of(ev, !t->pk_rank, c->idx);
    for (uint32_t k = 0; k < c->nk; k++)
        if (c->idx[k] < ncols) c->keep[c->idx[k]] = 1;
    c->npk = t->pk_rank ? pk_cols(t->pk_rank, ncols, c->pk) : 0;
    for (uint32_t k = 0; k < c->npk; k++) c->keep[c->pk[k]] = 1;
    c->ordered = c->npk && c->nk == c->npk;
    for (uint32_t k = 0; c->ordered && k < c->nk; k++) c->ordered = c->idx[k] == c->pk[k];
    return RC_OK;
}

/* A keyless table's COPY line ends with the row's ctid: where it starts (0: none). */
static size_t ctid_at(const char *line, size_t n)
{
    size_t tab = n;
    while (tab > 0 && line[tab - 1] != '\t') tab--;
    return tab;
}

/* The events' key values of one COPY line (a keyless table's: every column, the line without
 * its ctid), built in `a`: only the kept columns are parsed and converted. */
static rc_status line_key(chunk_rows *c, rc_pg_events *ev, rc_arena *a, const char *line, size_t n, rc_value *key,
                          rc_error *err)
{
    c->l.count = 0;
    rc_pgo_tuple row;
    rc_status st = rc_pg_copy_row(a, c->t->rel, line, n, &row, err);
    if (st == RC_OK) {
        for (uint16_t k = 0; k < row.ncols; k++)
            c->d[k] = c->keep[k] ? row.cols[k] : (rc_pgo_datum){NULL, 0, RC_PGO_NULL};
        row.cols = c->d;
        st = rc_pg_events_read(ev, c->t->rel, &row, a, &c->l, err);
    }
    if (st == RC_OK && c->l.count != 1)
        return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "%s.%s: no event for a row", c->t->rel->nspname, c->t->rel->relname);
    for (uint32_t k = 0; st == RC_OK && k < c->nk; k++) key[k] = c->l.items[0].after[c->idx[k]];
    return st;
}

/* One COPY line of the chunk to the core: a table with a primary key's as it is (its key's
 * image made when the core needs it: rc_pgis_row_key), a keyless one's with every value. */
static rc_status chunk_row(rc_pg_incsnap *is, rc_incsnap *core, chunk_rows *c, const char *line, size_t n,
                           rc_error *err)
{
    if (c->t->pk_rank) return rc_incsnap_add_raw(core, line, n, err);
    size_t tab = ctid_at(line, n);
    if (!tab) return rc_error_set(err, RC_ERR_SYNTAX, RC_NO_OFFSET, "incremental snapshot chunk: a line without its ctid");
    rc_arena_reset(&is->scratch);
    rc_value key[KEY_MAX];
    rc_status st = line_key(c, is->ev, &is->scratch, line, tab - 1, key, err);
    return st == RC_OK ? rc_incsnap_add_row(core, key, c->nk, line, tab - 1, err) : st;
}

rc_status rc_pgis_row_key(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn, rc_buf *img, rc_error *err)
{
    rc_pg_incsnap *is = ctx;
    rc_pgis_keyer *k = is->keyer;
    if (!k || !k->c.keep || k->table >= is->ntables)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "incremental snapshot of %s: a key asked for without its chunk", t->name);
    k->c.t = &is->cat[k->table]; /* the entry read with the chunk (is->cat may have moved since) */
    rc_arena_reset(&k->a);
    rc_value key[KEY_MAX];
    rc_status st = line_key(&k->c, is->ev, &k->a, raw, rawn, key, err);
    return st == RC_OK ? rc_incsnap_key_image(img, key, k->c.nk, err) : st;
}

/* After a chunk's read: its column set kept for rc_pgis_row_key (c emptied). */
static void keep_rows(rc_pg_incsnap *is, chunk_rows *c)
{
    chunk_rows_fini(&is->keyer->c);
    is->keyer->c = *c;
    is->keyer->table = is->chunk_table;
    *c = (chunk_rows){0};
}

void rc_pgis_keyer_free(rc_pg_incsnap *is)
{
    if (!is->keyer) return;
    chunk_rows_fini(&is->keyer->c);
    rc_arena_fini(&is->keyer->a);
    free(is->keyer);
    is->keyer = NULL;
}

/* The cursor_next of the last line the chunk added: its ctid (keyless), else its primary key's
 * texts (put_key_text's); taken once a chunk, not for every row. */
static rc_status chunk_cursor(rc_pg_incsnap *is, const chunk_rows *c, const char *line, size_t n, rc_error *err)
{
    rc_buf_reset(&is->cursor_next);
    if (!c->t->pk_rank) {
        size_t tab = ctid_at(line, n);
        rc_buf_put(&is->cursor_next, line + tab, n - tab);
        return RC_OK;
    }
    rc_arena_reset(&is->scratch);
    rc_pgo_tuple row;
    if (rc_pg_copy_row(&is->scratch, c->t->rel, line, n, &row, err) != RC_OK) return err->code;
    for (uint32_t k = 0; k < c->npk; k++)
        put_key_text(&is->cursor_next, (const char *)row.cols[c->pk[k]].data, row.cols[c->pk[k]].len);
    return RC_OK;
}

/* The text of pg_current_snapshot() into is->snap; the emitted xids it sees whatever comes are
 * forgotten. */
static rc_status use_snapshot(rc_pg_incsnap *is, const char *text, size_t n, rc_error *err)
{
    rc_status st = rc_pg_xidsnap_parse(&is->snap, text, n, err);
    size_t k = 0;
    for (size_t i = 0; st == RC_OK && i < is->nemit; i++)
        if (!rc_pg_xidsnap_before_xmin(&is->snap, is->emitted[i])) is->emitted[k++] = is->emitted[i];
    if (st == RC_OK) is->nemit = k;
    return st;
}

/* pg_current_snapshot() into is->snap; the emitted xids it sees whatever comes are forgotten. */
rc_status rc_pgis_take_snapshot(rc_pg_incsnap *is, rc_error *err)
{
    PGresult *r = PQexec(rc_pg_sql(is->conn), "SELECT pg_catalog.pg_current_snapshot()");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(is->conn, r, "pg_current_snapshot", err), RC_ERR_IO;
    rc_status st = use_snapshot(is, PQgetvalue(r, 0, 0), (size_t)PQgetlength(r, 0, 0), err);
    PQclear(r);
    return st;
}

/* At HW: a transaction the stream handed before LW that the chunk's snapshot saw in progress
 * (the chunk misses its changes, which the stream emitted already). */
bool rc_pgis_chunk_missed_one(const rc_pg_incsnap *is)
{
    for (size_t i = 0; i < is->nbefore && i < is->nemit; i++)
        if (rc_pg_xidsnap_in_progress(&is->snap, is->emitted[i])) return true;
    return false;
}

void rc_pgis_emitted_add(rc_pg_incsnap *is, uint32_t xid)
{
    if (is->nemit == is->capemit) {
        size_t cap = is->capemit ? 2 * is->capemit : 256;
        uint32_t *p = realloc(is->emitted, cap * sizeof *p);
        if (!p) return; /* kept as it was: the next take_snapshot prunes */
        is->emitted = p, is->capemit = cap;
    }
    is->emitted[is->nemit++] = xid;
}

/* A keyless table's chunk, in the chunk's transaction: the pages after tid `after` to read for
 * about `limit` rows (the planner's rows per page; 100 when never analyzed), *end the page
 * after them, *nblocks the table's pages now. */
static rc_status ctid_range(rc_pg_incsnap *is, const rc_pg_table *ct, const char *after, size_t limit, uint64_t *end,
                            uint64_t *nblocks, rc_error *err)
{
    char oid[16];
    snprintf(oid, sizeof oid, "%" PRIu32, ct->rel->oid);
    const char *args[] = {oid};
    PGresult *r = rc_pg_query(is->conn,
                              "SELECT pg_catalog.pg_relation_size(c.oid) / pg_catalog.current_setting('block_size')::bigint, "
                              "c.reltuples, c.relpages FROM pg_catalog.pg_class c WHERE c.oid = $1::oid",
                              1, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(is->conn, r, "the table's pages", err), RC_ERR_IO;
    if (PQntuples(r) != 1) {
        PQclear(r);
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s.%s was dropped", ct->rel->nspname, ct->rel->relname);
    }
    *nblocks = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
    double tuples = atof(PQgetvalue(r, 0, 1)), pages = atof(PQgetvalue(r, 0, 2));
    PQclear(r);
    double per_page = tuples > 0 && pages > 0 ? tuples / pages : 100;
    uint64_t n = (uint64_t)((double)limit / (per_page < 1 ? 1 : per_page));
    *end = strtoull(after + 1, NULL, 10) + (n ? n : 1);
    return RC_OK;
}

/* Whether two versions of a relation have the same columns (names, types, type modifiers). */
bool rc_pgis_same_columns(const rc_pg_relation *a, const rc_pg_relation *b)
{
    if (a->ncols != b->ncols) return false;
    for (uint16_t k = 0; k < a->ncols; k++)
        if (strcmp(a->cols[k].name, b->cols[k].name) || a->cols[k].type_oid != b->cols[k].type_oid ||
            a->cols[k].typmod != b->cols[k].typmod)
            return false;
    return true;
}

/* Appends s, quoted as an identifier (or as a literal), to q. */
static void put_quoted(rc_buf *q, PGconn *sql, const char *s, bool literal)
{
    char *e = literal ? PQescapeLiteral(sql, s, strlen(s)) : PQescapeIdentifier(sql, s, strlen(s));
    rc_buf_puts(q, e ? e : "NULL");
    PQfreemem(e);
}

/* The columns of a relation as begin_chunk's query writes those of the catalog: for each,
 * "<bytes of the name>:<name>:<type oid>:<typmod>,". */
static void put_fingerprint(rc_buf *b, const rc_pg_relation *rel)
{
    for (uint16_t k = 0; k < rel->ncols; k++) {
        char num[64];
        snprintf(num, sizeof num, "%zu:", strlen(rel->cols[k].name));
        rc_buf_puts(b, num), rc_buf_puts(b, rel->cols[k].name);
        snprintf(num, sizeof num, ":%" PRIu32 ":%" PRId32 ",", rel->cols[k].type_oid, rel->cols[k].typmod);
        rc_buf_puts(b, num);
    }
}

/* The chunk's transaction begun: BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; the table
 * locked (ACCESS SHARE, as the COPY would: an ALTER waits for the chunk, never lands inside
 * it); then the first statement, which takes the transaction's snapshot: that snapshot and
 * what of the catalog the chunk depends on (the table still published under its name, its
 * primary key there or not, its columns' names, types and modifiers), for begin_checked. In
 * one round trip where it took seven (BEGIN, LOCK, the three catalog queries of
 * rc_pg_catalog_tables, the snapshot): round trips are what a chunk waits for on a busy
 * machine (docs/BENCHMARKS.md, "Backfill while streaming"). */
static void put_begin(rc_buf *q, rc_pg_incsnap *is, const rc_pg_relation *rel)
{
    PGconn *sql = rc_pg_sql(is->conn);
    char oid[16];
    snprintf(oid, sizeof oid, "%" PRIu32, rel->oid);
    rc_buf_puts(q, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; LOCK TABLE ONLY ");
    put_quoted(q, sql, rel->nspname, false), rc_buf_putc(q, '.'), put_quoted(q, sql, rel->relname, false);
    rc_buf_puts(q, " IN ACCESS SHARE MODE; SELECT pg_catalog.pg_current_snapshot(), EXISTS (SELECT 1 FROM "
                   "pg_catalog.pg_publication_tables WHERE pubname IN (");
    put_quoted(q, sql, is->o.publication, true), rc_buf_puts(q, ", ");
    put_quoted(q, sql, is->o.companion ? is->o.companion : "", true), rc_buf_puts(q, ") AND schemaname = ");
    put_quoted(q, sql, rel->nspname, true), rc_buf_puts(q, " AND tablename = "), put_quoted(q, sql, rel->relname, true);
    rc_buf_puts(q, "), EXISTS (SELECT 1 FROM pg_catalog.pg_index WHERE indrelid = "), rc_buf_puts(q, oid);
    rc_buf_puts(q, "::oid AND indisprimary), (SELECT pg_catalog.string_agg(pg_catalog.octet_length(a.attname::text) "
                   "|| ':' || a.attname || ':' || a.atttypid::int8 || ':' || a.atttypmod || ',', '' ORDER BY a.attnum) "
                   "FROM pg_catalog.pg_attribute a WHERE a.attrelid = ");
    rc_buf_puts(q, oid), rc_buf_puts(q, "::oid AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = '')");
}

/* put_begin's SELECT answered (r, cleared): the snapshot into is->snap; *same: the catalog is
 * as the entry ct says, else the entry is to be read again (reread_table). */
static rc_status begin_checked(rc_pg_incsnap *is, const rc_pg_table *ct, PGresult *r, bool *same, rc_error *err)
{
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1 || PQnfields(r) != 4)
        return rc_pg_query_fail(is->conn, r, "beginning the chunk", err), RC_ERR_IO;
    rc_buf fp;
    rc_buf_init(&fp, 0);
    put_fingerprint(&fp, ct->rel);
    const char *cols = PQgetvalue(r, 0, 3);
    *same = PQgetvalue(r, 0, 1)[0] == 't' && (PQgetvalue(r, 0, 2)[0] == 't') == (ct->pk_rank != NULL) &&
            fp.err == RC_OK && strlen(cols) == fp.len && !memcmp(cols, fp.data, fp.len);
    rc_status st = use_snapshot(is, PQgetvalue(r, 0, 0), (size_t)PQgetlength(r, 0, 0), err);
    PQclear(r);
    rc_buf_fini(&fp);
    return st;
}

/* The chunk's transaction begun (put_begin, begin_checked) on its own. */
static rc_status begin_chunk(rc_pg_incsnap *is, const rc_pg_table *ct, bool *same, rc_error *err)
{
    rc_buf q;
    rc_buf_init(&q, 0);
    put_begin(&q, is, ct->rel);
    rc_buf_putc(&q, '\0');
    PGresult *r = q.err == RC_OK ? PQexec(rc_pg_sql(is->conn), q.data) : NULL;
    rc_buf_fini(&q);
    return begin_checked(is, ct, r, same, err);
}

/* In the chunk's transaction, the table locked, when begin_chunk saw the catalog differ from
 * its entry: the entry read again, a new structure (a DDL since the last chunk) replacing the
 * old one: the chunk's rows are read and built with the structure they have. */
static rc_status reread_table(rc_pg_incsnap *is, started *tb, rc_error *err)
{
    rc_pg_table *old = &is->cat[tb->table];
    rc_pg_table *found = NULL;
    size_t n = 0;
    const char *pat[] = {tb->name};
    if (rc_pg_catalog_tables(is->conn, is->o.publication, is->o.companion, pat, 1, &found, &n, err) != RC_PG_OK)
        return RC_ERR_IO;
    const char *why = !n ? "it is no longer captured (dropped, or out of the publication)"
                      : !found[0].pk_rank != !old->pk_rank ? "its primary key was added or dropped"
                                                          : NULL;
    if (!why && !rc_pgis_same_columns(found[0].rel, old->rel)) {
        rc_pgis_say(is, "incremental snapshot of %s: its columns changed; the next rows are read with the new ones", tb->name);
        rc_pg_table_fini(old);
        *old = found[0];
        found[0] = (rc_pg_table){0};
    }
    rc_pg_tables_free(found, n);
    return why ? rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "%s: %s", tb->name, why) : RC_OK;
}

/* The events' column set of the chunk's table, built in its transaction (for a replica
 * identity FULL it asks the catalog for a primary key on this connection, which the COPY will
 * be using), and from it the columns chunk_row builds. */
static rc_status chunk_prepare(rc_pg_incsnap *is, const rc_pg_table *ct, chunk_rows *c, rc_error *err)
{
    rc_arena_reset(&is->scratch);
    rc_event_list l = {0};
    rc_pgo_tuple nulls;
    rc_status st = rc_pgis_null_row(&is->scratch, ct->rel, &nulls, err);
    if (st == RC_OK) st = rc_pg_events_read(is->ev, ct->rel, &nulls, &is->scratch, &l, err);
    if (st == RC_OK && l.count != 1)
        st = rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "%s.%s: no event for a row", ct->rel->nspname, ct->rel->relname);
    if (st == RC_OK) st = chunk_rows_init(c, ct, &l.items[0], err);
    rc_event_list_fini(&l);
    return st;
}

/* What a failed chunk query names: the table, and the filter when the snapshot has one. */
static const char *chunk_what(char *w, size_t n, const rc_incsnap_table *t)
{
    if (t->filter)
        snprintf(w, n, "incremental snapshot chunk of %s with the additional-conditions filter \"%s\"", t->name, t->filter);
    else
        snprintf(w, n, "incremental snapshot chunk of %s", t->name);
    return w;
}

/* The COPY's rows to the core (COPY OUT started; c NULL: read and dropped); the status of the
 * whole, the query's results read to their end. */
static rc_status copy_rows(rc_pg_incsnap *is, rc_incsnap *core, chunk_rows *c, const rc_incsnap_table *t, rc_error *err)
{
    PGconn *sql = rc_pg_sql(is->conn);
    rc_status st = RC_OK;
    char *buf = NULL, *last = NULL; /* the last line added, for the cursor */
    size_t lastn = 0;
    int n;
    /* ordered only when the chunk starts where the core's cursor says (cursor_from_core reads
     * a chunk from the start when it cannot use that cursor: then keys at or before it are in
     * the buffer too) */
    if (c) rc_incsnap_set_ordered(core, c->ordered && (is->cursor.len || !t->cursor.len));
    while ((n = PQgetCopyData(sql, &buf, 0)) > 0) {
        if (st != RC_OK || !c) {
            PQfreemem(buf);
            continue;
        }
        size_t len = (size_t)n - (buf[n - 1] == '\n');
        st = chunk_row(is, core, c, buf, len, err);
        PQfreemem(last);
        last = buf, lastn = len;
    }
    if (c && last && (st == RC_OK || st == RC_ERR_LIMIT)) {
        rc_status cst = chunk_cursor(is, c, last, lastn, err);
        if (cst != RC_OK) st = cst;
    }
    PQfreemem(last);
    PGresult *r = PQgetResult(sql);
    if (st == RC_OK && (n != -1 || PQresultStatus(r) != PGRES_COMMAND_OK)) { /* cut off: not the table's end */
        char w[300];
        st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s: %s", chunk_what(w, sizeof w, t),
                          r ? PQresultErrorMessage(r) : PQerrorMessage(sql));
        err->message[strcspn(err->message, "\n")] = '\0';
    }
    PQclear(r);
    while ((r = PQgetResult(sql))) PQclear(r);
    return st;
}

/* A table with a primary key in one round trip where the general way (read_general) takes
 * three: put_begin's statements, the COPY built from the catalog entry as it is and COMMIT in
 * one query string, sent by at_once_send and its answers read by at_once_receive (at once, or
 * later: reading ahead, below). */
static rc_status at_once_send(rc_pg_incsnap *is, const rc_incsnap_table *t, const rc_pg_table *ct, size_t limit,
                              chunk_rows *c, rc_error *err)
{
    PGconn *sql = rc_pg_sql(is->conn);
    rc_status st = chunk_prepare(is, ct, c, err); /* before: the connection is busy from the send on */
    char *copy = st == RC_OK ? chunk_query(is, ct, ct->pk_rank, t->filter, limit, NULL, 0) : NULL;
    rc_buf q;
    rc_buf_init(&q, 0);
    put_begin(&q, is, ct->rel);
    rc_buf_puts(&q, "; "), rc_buf_puts(&q, copy ? copy : ""), rc_buf_puts(&q, "; COMMIT"), rc_buf_putc(&q, '\0');
    if (st == RC_OK && (!copy || q.err != RC_OK)) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    free(copy);
    if (st == RC_OK && !PQsendQuery(sql, q.data))
        st = (rc_pg_query_fail(is->conn, NULL, "incremental snapshot chunk", err), RC_ERR_IO);
    rc_buf_fini(&q);
    return st;
}

/* at_once_send's answers (st: its status). *done false: put_begin's check saw the catalog
 * differ from the entry (a DDL since it was read): the COPY's rows, of the old structure, were
 * dropped, and the chunk is to be read the general way (a new transaction: its snapshot is
 * after the low watermark as well). */
static rc_status at_once_receive(rc_pg_incsnap *is, rc_incsnap *core, const rc_incsnap_table *t, const rc_pg_table *ct,
                                 chunk_rows *c, rc_status st, bool *done, rc_error *err)
{
    PGconn *sql = rc_pg_sql(is->conn);
    bool same = false;
    char w[300];
    PGresult *r = NULL;
    if (st == RC_OK) /* BEGIN's and LOCK's results, then the SELECT's */
        while ((r = PQgetResult(sql)) && PQresultStatus(r) == PGRES_COMMAND_OK) PQclear(r);
    bool checked = st == RC_OK && (st = begin_checked(is, ct, r, &same, err)) == RC_OK;
    if (checked && PQresultStatus(r = PQgetResult(sql)) == PGRES_COPY_OUT) {
        PQclear(r);
        st = copy_rows(is, core, same ? c : NULL, t, err);
    } else if (checked)
        st = (rc_pg_query_fail(is->conn, r, chunk_what(w, sizeof w, t), err), RC_ERR_IO);
    if (checked && !same && st != RC_OK) { /* the COPY of the old structure failed (a dropped column): no matter */
        rc_error_clear(err);
        st = RC_OK;
    }
    while ((r = PQgetResult(sql))) PQclear(r); /* after an error: the statements it skipped */
    if (PQtransactionStatus(sql) != PQTRANS_IDLE) PQclear(PQexec(sql, "ROLLBACK"));
    keep_rows(is, c);
    if (!checked && st != RC_OK && t->filter && PQstatus(sql) == CONNECTION_OK) /* a filter's syntax error fails the */
        rc_error_clear(err), st = RC_OK;                                       /* whole string: the general way names it */
    *done = same || st != RC_OK;
    return st;
}

/* Any table: BEGIN ... (begin_chunk), the catalog entry read again when it differs, a keyless
 * table's page range, the COPY, COMMIT. */
static rc_status read_general(rc_pg_incsnap *is, rc_incsnap *core, const rc_incsnap_table *t, started *tb, size_t limit,
                              rc_error *err)
{
    PGconn *sql = rc_pg_sql(is->conn);
    bool same = false;
    chunk_rows c = {0};
    char w[300];
    rc_status st = begin_chunk(is, &is->cat[tb->table], &same, err);
    if (st == RC_OK && !same) st = reread_table(is, tb, err);
    const rc_pg_table *ct = &is->cat[tb->table]; /* (after a reread) */
    if (st == RC_OK) st = chunk_prepare(is, ct, &c, err);
    /* keyless: the core's cursor is the tid after which the chunk starts */
    char after[48] = "(0,0)";
    if (t->cursor.len && t->cursor.len < sizeof after) memcpy(after, t->cursor.data, t->cursor.len), after[t->cursor.len] = '\0';
    uint64_t end = 0, nblocks = 0;
    char *q = NULL;
    if (st == RC_OK && (ct->pk_rank || (st = ctid_range(is, ct, after, limit, &end, &nblocks, err)) == RC_OK) &&
        !(q = chunk_query(is, ct, ct->pk_rank, t->filter, limit, after, end)))
        st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    PGresult *r = q ? PQexec(sql, q) : NULL;
    free(q);
    if (st == RC_OK && PQresultStatus(r) != PGRES_COPY_OUT)
        st = (rc_pg_query_fail(is->conn, r, chunk_what(w, sizeof w, t), err), RC_ERR_IO);
    else PQclear(r);
    if (st == RC_OK) st = copy_rows(is, core, &c, t, err);
    keep_rows(is, &c);
    PQclear(PQexec(sql, st == RC_OK || st == RC_ERR_LIMIT ? "COMMIT" : "ROLLBACK"));
    if (!ct->pk_rank && (st == RC_OK || st == RC_ERR_LIMIT)) {
        /* stopped early (the buffer's bound): after the last row read; else the next pages */
        char next[40];
        int nn = snprintf(next, sizeof next, "(%" PRIu64 ",0)", end);
        st = st == RC_ERR_LIMIT ? rc_incsnap_set_cursor(core, is->cursor_next.data, is->cursor_next.len, false)
                                : rc_incsnap_set_cursor(core, next, (size_t)nn, end >= nblocks);
        if (st != RC_OK) return rc_error_set(err, st, RC_NO_OFFSET, "out of memory");
    }
    return st;
}

rc_status rc_pgis_read_chunk(void *ctx, rc_incsnap *core, const rc_incsnap_table *t, size_t limit, rc_error *err)
{
    rc_pg_incsnap *is = ctx;
    started *tb = rc_pgis_table_of(is, t->name);
    if (!is->keyer) {
        if (!(is->keyer = calloc(1, sizeof *is->keyer))) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        rc_arena_init(&is->keyer->a);
    }
    if (!t->cursor.len || is->cursor_table != tb->table) cursor_from_core(is, t); /* first chunk here */
    is->cursor_table = is->chunk_table = tb->table;
    bool done = false;
    rc_status st = RC_OK;
    const rc_pg_table *ct = &is->cat[tb->table];
    if (ct->pk_rank) {
        chunk_rows c = {0};
        st = at_once_send(is, t, ct, limit, &c, err);
        if (st == RC_OK && is->ahead_ok && (is->ahead = malloc(sizeof *is->ahead))) {
            *is->ahead = (rc_pgis_ahead){.t = t, .c = c}; /* the stream waits for its end: rc_pgis_read_end */
            rc_incsnap_read_later(core);
            return RC_OK;
        }
        st = at_once_receive(is, core, t, ct, &c, st, &done, err);
    }
    if (!done) st = read_general(is, core, t, tb, limit, err);
    return st == RC_ERR_LIMIT ? RC_OK : st;
}

/* Reading ahead (pg_incsnap_int.h): the server's answer so far taken off the socket, so that
 * it goes on with the COPY while the previous chunk's rows are handed out. */
void rc_pgis_read_poll(rc_pg_incsnap *is)
{
    if (is->ahead) (void)PQconsumeInput(rc_pg_sql(is->conn));
}

rc_status rc_pgis_read_end(rc_pg_incsnap *is, rc_error *err)
{
    rc_pgis_ahead *a = is->ahead;
    if (!a) return RC_OK;
    is->ahead = NULL;
    started *tb = rc_pgis_table_of(is, a->t->name);
    bool done = false;
    size_t limit = a->t->limit;
    rc_status st = at_once_receive(is, is->core, a->t, &is->cat[tb->table], &a->c, RC_OK, &done, err);
    if (!done) st = read_general(is, is->core, a->t, tb, limit, err);
    free(a);
    if (st == RC_ERR_LIMIT) st = RC_OK;
    return rc_incsnap_read_end(is->core, st, err);
}

void rc_pgis_ahead_free(rc_pg_incsnap *is)
{
    if (!is->ahead) return;
    chunk_rows_fini(&is->ahead->c);
    free(is->ahead);
    is->ahead = NULL;
}
