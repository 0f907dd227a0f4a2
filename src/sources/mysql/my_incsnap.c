/* The MySQL/MariaDB source's incremental snapshots (docs/design/incremental-snapshots.md §1.3,
 * docs/sources/mysql.md "Incremental snapshots"): signals read from the binlog (the rows
 * INSERTed into -o mysql.signal.table), chunks read on a SQL session of their own while the
 * binlog stream goes on, MariaDB's "point" watermark: each chunk is read in
 * START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY, whose binlog_snapshot_file/position P
 * is exactly the view's, so LW = HW = P and the chunk's rows are handed out as op `read`
 * (snapshot "incremental") when the stream's handed boundary reaches P. The core
 * (sources/incsnap.c) keeps the queue, the buffer and the edges; the rows it emits wait here
 * (`pending`) and go into the batches one item each, the stream waiting until they are out. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_incsnap_int.h"
#include "sources/signal.h"


static uint32_t get32(const char *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}
static void put32(rc_buf *b, uint32_t v) { rc_buf_put(b, &v, 4); }

static rc_status inc_notice(my_source *s, rc_error *e)
{
    rc_my_source_notice(s, "warning: %s", e->message); /* said under --quiet too */
    rc_error_clear(e);
    return RC_OK;
}

/* ---- the ops of the core ---- */

/* Point watermarks: nothing is written; the chunk's read records P (read_chunk). Table
 * watermarks: a row of the signal table (my_incsnap_wm.c). */
static rc_status write_watermark(void *ctx, const rc_incsnap_table *t, uint64_t chunk, rc_incsnap_mark mark, rc_error *err)
{
    my_source *s = ctx;
    s->inc->chunk = chunk;
    return s->inc->table_wm ? rc_my_incsnap_wm_write(s, t, chunk, mark, err) : RC_OK;
}

/* One row of the chunk into the core, its fields as `row` holds them; its key is parsed only
 * when the core asks (row_key): a point watermark's chunk has no window for a change to fall in. */
static rc_status add_row(my_source *s, inc_table *it, char **fields, const unsigned long *lens, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    rc_buf_reset(&x->row);
    for (uint32_t i = 0; i < it->st.t->ncols; i++) {
        put32(&x->row, fields[i] ? (uint32_t)lens[i] : NULL_LEN);
        if (fields[i]) rc_buf_put(&x->row, fields[i], lens[i]), rc_buf_putc(&x->row, '\0');
    }
    if (x->row.err) return rc_my_source_nomem(err);
    return rc_incsnap_add_raw(x->core, x->row.data, x->row.len, err);
}

/* A row as `row` holds it: its fields (pointing into raw) and their lengths. */
static void row_fields(const rc_my_snap_table *t, const char *p, char **fields, unsigned long *lens)
{
    for (uint32_t i = 0; i < t->t->ncols; i++) {
        uint32_t l = get32(p);
        p += 4;
        fields[i] = l == NULL_LEN ? NULL : (char *)p, lens[i] = l == NULL_LEN ? 0 : l;
        p += l == NULL_LEN ? 0 : l + 1;
    }
}

/* The key values of a row as `row` holds it (in x->scratch, reset here); last (non-NULL) gets
 * their text as rc_my_incsnap_key_put packs it. */
static rc_status row_key_values(rc_my_incsnap *x, const inc_table *it, const char *raw, rc_value *key, rc_buf *last, rc_error *err)
{
    const rc_my_snap_table *t = &it->st;
    rc_arena_reset(&x->scratch);
    char **fields = rc_arena_alloc(&x->scratch, (t->t->ncols + 1) * sizeof *fields);
    unsigned long *lens = rc_arena_alloc(&x->scratch, (t->t->ncols + 1) * sizeof *lens);
    if (!fields || !lens) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    row_fields(t, raw, fields, lens);
    for (uint32_t k = 0; k < t->npk; k++) {
        uint32_t c = t->pk[k];
        if (rc_my_text_value(&t->cols[c], fields[c], lens[c], &x->scratch, &key[k], err) != RC_OK) return err->code;
        if (last) rc_my_incsnap_key_put(last, fields[c], (uint32_t)lens[c], key[k].kind == RC_V_BYTES || key[k].kind == RC_V_BITS ||
                                        key[k].kind == RC_V_GEOMETRY);
    }
    return last && last->err ? rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory") : RC_OK;
}

static rc_status row_key(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn, rc_buf *img, rc_error *err)
{
    (void)rawn;
    my_source *s = ctx;
    const inc_table *it = rc_my_incsnap_table(s->inc, t->name);
    if (!it) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "incremental snapshot of %s: not prepared", t->name);
    rc_value key[MAX_KEY];
    if (row_key_values(s->inc, it, raw, key, NULL, err) != RC_OK) return err->code;
    return rc_incsnap_key_image(img, key, it->st.npk, err);
}

/* The reader at the chunk's start: back at `from` when the core's cursor did not move since the
 * last chunk began (that chunk is read again), else `from` (and `at`) marked here. */
static rc_status reader_at_chunk(inc_table *it, const rc_incsnap_table *t)
{
    if (it->at.len == t->cursor.len && !memcmp(it->at.data ? it->at.data : "", t->cursor.data ? t->cursor.data : "", t->cursor.len))
        return rc_my_snap_reader_rewind(it->rd, &it->from);
    rc_buf_reset(&it->at);
    rc_buf_put(&it->at, t->cursor.data, t->cursor.len);
    return it->at.err ? it->at.err : rc_my_snap_reader_mark(it->rd, &it->from);
}

/* Point watermarks: whether the stream handed out a transaction after P. The server sends a
 * transaction to the stream once it is in the binlog, and makes it visible to read views a
 * little later (MariaDB's group commit: binlog write, then the commit step, which moves
 * binlog_snapshot_position; with semi-sync's AFTER_SYNC, after a replica's acknowledgement), so
 * a view begun while the stream is caught up can have a P before a transaction the stream
 * already handed: rows read in it could be older than that change. */
static bool behind_stream(const rc_my_incsnap *x)
{
    return x->change_file[0] && rc_my_binlog_compare(x->change_file, x->change_offset, x->point.file, x->point.offset) > 0;
}

/* Point watermarks: the chunk's read view, begun again until its P is not before the stream
 * (behind_stream); RC_ERR_RETRY (the chunk is read later, after the stream's poll) when the
 * server has not made the stream's last transaction visible in VIEW_WAIT_US. */
enum { VIEW_WAIT_US = 1000000 };
static rc_status point_view(my_source *s, const char *name, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    int64_t t0 = rc_db_wall_us();
    for (;;) {
        if (rc_my_snapshot_view(x->sql, &s->url, &x->point, err) != RC_OK) return err->code;
        if (!behind_stream(x)) return RC_OK;
        if (rc_my_snapshot_end(x->sql, &s->url, err) != RC_OK) return err->code;
        if (rc_db_wall_us() - t0 > VIEW_WAIT_US)
            return rc_error_set(err, RC_ERR_RETRY, RC_NO_OFFSET,
                                "incremental snapshot of %s: the read view's binlog_snapshot_position %s:%" PRIu64 " stayed before "
                                "the stream's last transaction %s:%" PRIu64 " for 1 s (not visible yet: a semi-sync replica's "
                                "acknowledgement?); the chunk is read again later", name, x->point.file, x->point.offset,
                                x->change_file, x->change_offset);
        rc_db_phase_nap(1);
    }
}

static rc_status read_chunk(void *ctx, rc_incsnap *core, const rc_incsnap_table *t, size_t limit, rc_error *err)
{
    (void)core;
    my_source *s = ctx;
    rc_my_incsnap *x = s->inc;
    inc_table *it = rc_my_incsnap_table(x, t->name);
    if (!it) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "incremental snapshot of %s: not prepared", t->name);
    /* read with the structure the history has at the stream's position; reach() checks it is
     * still the one at P (a DDL in between: read again) */
    if (rc_my_incsnap_session(s, err) != RC_OK || rc_my_incsnap_refresh(s, it, err) != RC_OK) return err->code;
    x->stale = false;
    if (!it->rd && !(it->rd = rc_my_snap_reader_new(x->sql, &s->url, &it->st, (uint32_t)limit))) return rc_my_source_nomem(err);
    rc_my_snap_reader_filter(it->rd, t->filter);
    if (it->resume && rc_my_incsnap_resume_reader(it, err) != RC_OK) return err->code;
    if (reader_at_chunk(it, t) != RC_OK) return rc_my_snap_reader_free(it->rd), it->rd = NULL, rc_my_source_nomem(err);
    x->cur = it->index;
    /* point: the chunk in a read view whose binlog position is P; table: a plain SELECT between
     * the two rows (autocommit) */
    if (!x->table_wm && point_view(s, t->name, err) != RC_OK) return rc_my_incsnap_again(x, err->code);
    rc_buf_reset(&x->last_key);
    x->read_us = rc_db_wall_us();
    rc_my_snap_reader_chunk(it->rd, (uint32_t)limit);
    rc_status st = RC_OK;
    size_t n = 0;
    for (; n < limit && st == RC_OK; n++) {
        char **fields;
        unsigned long *lens;
        bool got;
        if ((st = rc_my_snap_reader_next(it->rd, &fields, &lens, &got, err)) != RC_OK || !got) break;
        st = add_row(s, it, fields, lens, err);
    }
    if (st == RC_ERR_LIMIT) st = RC_OK; /* the buffer is full: the chunk is what was read */
    /* the chunk's last key (x->row holds its last row) for the state after it */
    rc_value key[MAX_KEY];
    if (st == RC_OK && n) st = row_key_values(x, it, x->row.data, key, &x->last_key, err);
    /* a DDL the stream has not reached; with a filter, past the rereads a DDL would take, the
     * filter's fault (a column it names that the table does not have): its message stands */
    if (st != RC_OK && rc_my_incsnap_ddl_errno(mysql_errno(x->sql)) && !(t->filter && it->ddl_rereads >= INC_DDL_REREADS))
        x->stale = true, st = RC_OK, rc_error_clear(err);
    rc_my_snap_reader_chunk(it->rd, (uint32_t)limit);
    rc_error cerr;
    rc_error_clear(&cerr);
    if (!x->table_wm && rc_my_snapshot_end(x->sql, &s->url, &cerr) != RC_OK && st == RC_OK) *err = cerr, st = cerr.code;
    return st == RC_OK ? st : rc_my_incsnap_again(x, st);
}

static rc_status pend(my_source *s, const rc_incsnap_table *t, uint32_t kind, const void *raw, size_t n, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    inc_table *it = rc_my_incsnap_table(x, t->name);
    if (!it) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "incremental snapshot of %s: not prepared", t->name);
    put32(&x->pending, it->index);
    put32(&x->pending, kind);
    put32(&x->pending, (uint32_t)n);
    rc_buf_put(&x->pending, raw, n);
    x->npending++;
    return x->pending.err ? rc_my_source_nomem(err) : RC_OK;
}

static rc_status emit_row(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn, rc_error *err)
{
    return pend(ctx, t, 0, raw, rawn, err);
}

static rc_status emit_edge(void *ctx, const rc_incsnap_table *t, rc_incsnap_edge edge, rc_error *err)
{
    my_source *s = ctx;
    if (edge == RC_INCSNAP_EDGE_START) {
        inc_table *it = rc_my_incsnap_table(s->inc, t->name);
        if (it) it->started_us = rc_db_wall_us();
    } else {
        inc_table *it = rc_my_incsnap_table(s->inc, t->name);
        double secs = it ? (double)(rc_db_wall_us() - it->started_us) / 1e6 : 0;
        rc_my_source_notice(s, "incremental snapshot of %s %s: %" PRIu64 " rows, %" PRIu64 " dropped by the window, %" PRIu64 " chunks, %.0f s",
                            t->name, edge == RC_INCSNAP_EDGE_END ? "completed" : "stopped", t->rows_emitted, t->rows_dropped,
                            t->chunks, secs);
    }
    return pend(s, t, 1 + (uint32_t)edge, NULL, 0, err);
}

/* ---- the items handed out ---- */

static const char *const edge_marks[] = {"incremental", "incremental:start", "incremental:end", "incremental:stopped"};

/* The pending item at x->pend_at as an event of the batch; *file: the binlog file's name in the
 * batch's arena (made at the batch's first item, NULL before). */
static rc_status pending_event(my_source *s, rc_event *ev, rc_str *file, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    rc_batch *b = rc_db_batch(&s->db.batches);
    const char *p = x->pending.data + x->pend_at;
    inc_table *it = x->tabs[get32(p)];
    uint32_t kind = get32(p + 4), n = get32(p + 8);
    p += 12;
    x->pend_at += 12 + n;
    const rc_my_snap_table *t = &it->st;
    memset(ev, 0, sizeof *ev);
    ev->op = RC_OP_READ;
    ev->snapshot = (rc_str){edge_marks[kind], strlen(edge_marks[kind])};
    ev->src = (rc_origin){.kind = s->srv.mariadb ? RC_DB_MARIADB : RC_DB_MYSQL, .server = s->server, .version = s->version, .db = t->t->db, .table = t->t->name};
    if (!file->p) {
        char *f = rc_arena_alloc(&b->arena, strlen(s->file) + 1);
        if (!f) return rc_my_source_nomem(err);
        *file = (rc_str){strcpy(f, s->file), strlen(s->file)};
    }
    ev->pos.file = *file;
    ev->pos.offset = s->offset, ev->pos.has_offset = true;
    ev->ts_us = x->read_us, ev->has_ts = true;
    ev->ncols = t->t->ncols, ev->cols = t->cols, ev->cols_id = t->cols, ev->dflts = t->dflts; /* (one per structure: a DDL makes new ones) */
    if (kind) return RC_OK;
    char **fields = rc_arena_alloc(&b->arena, (t->t->ncols + 1) * sizeof *fields);
    unsigned long *lens = rc_arena_alloc(&b->arena, (t->t->ncols + 1) * sizeof *lens);
    rc_value *vals = rc_arena_alloc(&b->arena, (t->t->ncols + 1) * sizeof *vals);
    if (!fields || !lens || !vals) return rc_my_source_nomem(err);
    row_fields(t, p, fields, lens);
    ev->after = vals;
    return rc_my_snap_row_parse(t, fields, lens, &b->arena, vals, err);
}

/* Pending items into the batch, one item each at position (the emit boundary, k). */
static rc_status drain(my_source *s, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    rc_batch *b = rc_db_batch(&s->db.batches);
    rc_str file = {NULL, 0}; /* one copy for the items of this batch (its arena) */
    while (x->pend_at < x->pending.len && b->n < RC_DB_BATCH_ITEMS) {
        if (*s->stop) return RC_OK;
        /* a chunk's last item opens a batch of its own rather than end a full one: after a batch
         * that is not full the pipeline stores the checkpoint at once (rc_my_incsnap_waiting),
         * which the next chunk waits for */
        if (x->mark_k && x->k + 1 == x->mark_k && rc_batch_full(b)) break;
        rc_source_item *it = rc_my_source_item_new(s);
        rc_event ev;
        rc_error ierr;
        rc_error_clear(&ierr);
        rc_event *slot = NULL;
        if (pending_event(s, &ev, &file, &ierr) == RC_OK && !(slot = rc_event_list_push(&b->events))) rc_my_source_nomem(&ierr);
        if (slot) *slot = ev, it->raw = 1;
        else rc_my_source_item_bad(s, it, &ierr, (const uint8_t *)"", 0);
        rc_db_item_end(&s->db, it, rc_pos_mysql(rc_pos_mysql_file(&s->handed), s->offset, ++x->k));
        rc_db_item_order(&s->db, it, 'm', 'a', rc_pos_mysql_file(&s->handed), s->offset);
        x->npending--;
        /* no checkpoint between them (a restart reads at the boundary before), but after the
         * chunk's last one: the state there has the chunk done */
        it->inside = x->k != x->mark_k;
        if (!it->inside) x->mark_k = 0;
    }
    if (x->pend_at == x->pending.len) rc_buf_reset(&x->pending), x->pend_at = 0;
    (void)err;
    return RC_OK;
}

/* ---- signals ---- */

/* The table is queued or being read (a signal for it is refused by the core's queue). */
static bool busy(const rc_my_incsnap *x, const char *name)
{
    for (size_t i = 0; i < rc_incsnap_ntables(x->core); i++) {
        const rc_incsnap_table *t = rc_incsnap_table_at(x->core, i);
        if (!strcmp(t->name, name) && (t->state == RC_INCSNAP_QUEUED || t->state == RC_INCSNAP_RUNNING)) return true;
    }
    return false;
}

/* Queues a prepared table (signal: the id that asked or NULL, filter: its additional-conditions
 * or NULL, why: for the started line). */
static rc_status queue_filtered(my_source *s, const char *name, rc_incsnap_by by, const char *signal, const char *filter,
                                const char *why, rc_error *e)
{
    rc_my_incsnap *x = s->inc;
    if (rc_incsnap_queue(x->core, name, by, signal, filter, e) != RC_OK) return e->code;
    const inc_table *it = rc_my_incsnap_table(x, name);
    char own[300];
    snprintf(own, sizeof own, "%.*s.%.*s", (int)it->own->db.n, it->own->db.p, (int)it->own->name.n, it->own->name.p);
    uint64_t est = 0; /* by name: a table of the start may have been dropped since (its `t` freed) */
    for (size_t k = 0; k < s->ntables; k++)
        if (s->tables[k].qname && !strcmp(s->tables[k].qname, own)) est = s->tables[k].rows_estimate;
    rc_incsnap_estimate(x->core, name, est, 0);
    rc_my_source_notice(s, "incremental snapshot of %s started (%s, ~%" PRIu64 " rows, by %s%s%s)", name, why, est,
                        by == RC_INCSNAP_BY_PK ? "primary key" : "unique index", filter ? ", the rows where " : "",
                        filter ? filter : "");
    return RC_OK;
}

rc_status rc_my_incsnap_queue_table(my_source *s, const char *name, rc_incsnap_by by, const char *signal, const char *why,
                                    rc_error *e)
{
    return queue_filtered(s, name, by, signal, NULL, why, e);
}

/* An execute-snapshot's tables into the queue, each refused by name when it cannot be read. */
static int execute(my_source *s, const rc_signal *sg)
{
    rc_my_incsnap *x = s->inc;
    int result = RC_SIGNAL_IGNORED;
    char why[140];
    snprintf(why, sizeof why, "signal %s", sg->id);
    for (size_t i = 0; i < sg->ntables; i++) {
        bool was_busy = false;
        const char *name = sg->tables[i].name;
        rc_incsnap_by by = RC_INCSNAP_BY_PK;
        rc_error e;
        rc_error_clear(&e);
        if (((was_busy = busy(x, name)) || rc_my_incsnap_prepare(s, name, &by, &e) == RC_OK) &&
            queue_filtered(s, name, by, sg->id, sg->tables[i].filter, why, &e) == RC_OK) {
            result = rc_incsnap_signal_worse(result, RC_SIGNAL_OK);
            continue;
        }
        result = rc_incsnap_signal_worse(result, was_busy ? RC_SIGNAL_IGNORED : RC_SIGNAL_ERROR);
        rc_my_source_notice(s, "warning: signal id=%s in %s.%s: %s", sg->id, x->sig_db, x->sig_table, e.message);
    }
    return result;
}

/* A signal column's text, for counting signals by type ("" when it is not text). */
static rc_str text_of(const rc_value *v) { return v->kind == RC_V_TEXT ? v->s : (rc_str){"", 0}; }

/* One signal row: a command for the core, or an error line naming the row (the capture goes on). */
static void signal_row(my_source *s, const rc_event *ev)
{
    rc_my_incsnap *x = s->inc;
    if (ev->op != RC_OP_INSERT || !ev->after || ev->ncols < 3) return; /* UPDATEs and DELETEs are ignored */
    rc_arena_reset(&x->scratch);
    char where[140];
    snprintf(where, sizeof where, "%s.%s", x->sig_db, x->sig_table);
    rc_signal sg;
    rc_error e;
    rc_error_clear(&e);
    if (rc_signal_parse_values(&sg, &x->scratch, where, ev->after, &e) != RC_OK) {
        rc_incsnap_signal_count(&x->signals, text_of(&ev->after[1]), RC_SIGNAL_ERROR);
        inc_notice(s, &e);
        return;
    }
    int result = RC_SIGNAL_IGNORED;
    if (sg.kind == RC_SIGNAL_EXECUTE) result = execute(s, &sg);
    else if (sg.kind == RC_SIGNAL_PAUSE || sg.kind == RC_SIGNAL_RESUME)
        result = rc_incsnap_signal_pause(x->core, sg.kind == RC_SIGNAL_PAUSE);
    else if (sg.kind == RC_SIGNAL_STOP) {
        for (size_t i = 0; i < (sg.ntables ? sg.ntables : 1); i++) {
            rc_status st = rc_incsnap_stop(x->core, sg.ntables ? sg.tables[i].name : NULL, &e);
            result = rc_incsnap_signal_worse(result, rc_incsnap_signal_result(st));
            if (st != RC_OK && e.code != RC_OK) inc_notice(s, &e);
        }
    }
    if (sg.kind == RC_SIGNAL_WATERMARK) rc_my_incsnap_wm_seen(x, text_of(&ev->after[0]));
    else rc_incsnap_signal_count(&x->signals, text_of(&ev->after[1]), result);
}

static bool is_signal_table(const rc_my_incsnap *x, rc_str db, rc_str table)
{
    /* no signal table (--snapshot incremental alone): nothing is one (and memcmp never gets a
     * NULL name of an event without a database) */
    return x->sig_db[0] && db.n == strlen(x->sig_db) && !memcmp(db.p, x->sig_db, db.n) && table.n == strlen(x->sig_table) &&
           !memcmp(table.p, x->sig_table, table.n);
}

bool rc_my_incsnap_signal_only(const my_source *s, rc_str db, rc_str table)
{
    return s->inc && is_signal_table(s->inc, db, table) && !(s->accept && s->accept(s->accept_ctx, db, table));
}

bool rc_my_incsnap_accept(void *ctx, rc_str db, rc_str table)
{
    my_source *s = ctx;
    return is_signal_table(s->inc, db, table) || !s->accept || s->accept(s->accept_ctx, db, table);
}

rc_status rc_my_incsnap_signals(my_source *s, size_t first, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    rc_event_list *l = &rc_db_batch(&s->db.batches)->events;
    size_t w = first;
    for (size_t i = first; i < l->count; i++) {
        const rc_event *ev = &l->items[i];
        bool sig = is_signal_table(x, ev->src.db, ev->src.table);
        if (sig) signal_row(s, ev);
        else if (x->table_wm && rc_my_incsnap_wm_change(s, ev, err) != RC_OK) return err->code;
        /* signal rows reach the sink only when --include names the signal table (without
         * --include they do not: every table but it) */
        if (!sig || !rc_my_incsnap_signal_only(s, ev->src.db, ev->src.table)) l->items[w++] = l->items[i];
    }
    l->count = w;
    return RC_OK;
}

/* ---- the chunks ---- */

static bool at_point(const my_source *s)
{
    return rc_my_binlog_compare(s->file ? s->file : "", s->offset, s->inc->point.file, s->inc->point.offset) >= 0;
}

void rc_my_incsnap_streamed(my_source *s, size_t first, bool in_tx)
{
    rc_my_incsnap *x = s->inc;
    if (rc_db_batch(&s->db.batches)->events.count > first) x->changed = true;
    if (in_tx || !x->changed || !s->file) return;
    /* the name copied only when the file changed (once a binlog file, not once a transaction) */
    if (strcmp(x->change_file, s->file)) snprintf(x->change_file, sizeof x->change_file, "%s", s->file);
    x->change_offset = s->offset;
    x->changed = false;
}

/* Whether the stream reached the chunk in flight's high watermark: point, its handed boundary
 * at P (LW = HW = P: no window); table, the end of the high mark row's transaction (the low
 * mark's, which opens the window, given to the core at the end of its own). */
static rc_status at_high(my_source *s, bool *high, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    uint64_t low = x->seen_low, hw = x->seen_high;
    x->seen_low = x->seen_high = 0;
    rc_incsnap_phase ph = rc_incsnap_phase_of(x->core);
    if (!x->table_wm) {
        *high = (ph == RC_INCSNAP_READ || ph == RC_INCSNAP_OPEN) && at_point(s);
        return RC_OK;
    }
    if (low && rc_incsnap_on_mark(x->core, RC_INCSNAP_LOW, low, err) != RC_OK) return err->code;
    if (!hw) return RC_OK;
    *high = hw == x->chunk && rc_incsnap_phase_of(x->core) == RC_INCSNAP_OPEN;
    /* another chunk's: ignored by the core; this chunk's without its LW: read again */
    return *high ? RC_OK : rc_incsnap_on_mark(x->core, RC_INCSNAP_HIGH, hw, err);
}

/* The chunk in flight, once the stream reached its high watermark: handed out. */
static rc_status reach(my_source *s, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    bool high = false;
    if (at_high(s, &high, err) != RC_OK) return err->code;
    if (high) {
        inc_table *it = x->tabs[x->cur];
        /* the history at HW has the table as the chunk read it, else (a DDL between the stream's
         * position at the read and HW) the chunk is read again with the structure at HW */
        if (!x->table_wm && behind_stream(x)) {
            rc_incsnap_reread(x->core);
            it->behind_rereads++;
            rc_my_incsnap_say(s, x->cur, 0, "read again (its point is before a transaction the stream handed out)");
            return RC_OK;
        }
        if (x->stale || !rc_my_incsnap_current(s, it)) {
            rc_incsnap_reread(x->core);
            it->ddl_rereads++;
            rc_my_incsnap_say(s, x->cur, 0, "read again (its structure changed before its point)");
            return RC_OK;
        }
        /* items are (boundary, k): k goes on over chunks handed at the same boundary (an idle
         * stream), so that each chunk ends at a position of its own, acknowledged on its own */
        rc_pos here = rc_pos_mysql(rc_pos_mysql_file(&s->handed), s->offset, 0);
        if (rc_pos_compare(&here, &x->k_at) != 0) x->k = 0, x->k_at = here;
        if ((!x->table_wm && rc_incsnap_on_mark(x->core, RC_INCSNAP_LOW, x->chunk, err) != RC_OK) ||
            rc_incsnap_on_mark(x->core, RC_INCSNAP_HIGH, x->chunk, err) != RC_OK)
            return err->code;
    }
    if (rc_incsnap_phase_of(x->core) != RC_INCSNAP_EMIT) return RC_OK;
    /* the boundary the rows follow, with the state before them */
    if (rc_my_source_keep_boundary(s, err) != RC_OK) return err->code;
    rc_status st = rc_incsnap_emit(x->core, err);
    x->tabs[x->cur]->ddl_rereads = x->tabs[x->cur]->behind_rereads = 0;
    rc_pos end;
    bool keep = false;
    if (st == RC_OK) st = rc_my_incsnap_chunk_done(s, &end, &keep, err);
    /* ... and the boundary after them, with the state after them */
    if (st == RC_OK && keep) st = rc_my_source_keep_boundary_at(s, &end, err);
    return st == RC_SKIP ? RC_OK : st;
}

/* Edges handed outside a chunk's emit (a table stopped by a failed read or watermark): the last
 * one ends at a boundary of its own, so that the sink's acknowledgement reaches past them (else
 * --until caught-up waits for it forever on an idle stream). */
static rc_status close_edges(my_source *s, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    if (!x->npending || x->mark_k) return RC_OK;
    x->mark_k = x->k + x->npending;
    rc_pos end = rc_pos_mysql(rc_pos_mysql_file(&s->handed), s->offset, x->mark_k);
    return rc_my_source_keep_boundary_at(s, &end, err);
}

bool rc_my_incsnap_pending(const my_source *s) { return s->inc && (s->inc->pend_at < s->inc->pending.len || s->inc->hold); }

bool rc_my_incsnap_working(const my_source *s)
{
    return (s->inc && rc_incsnap_working(s->inc->core)) || rc_my_incsnap_pending(s);
}

bool rc_my_incsnap_ready(const my_source *s)
{
    const rc_my_incsnap *x = s->inc;
    return x && !x->step_failed && !rc_incsnap_paused(x->core) && rc_incsnap_phase_of(x->core) == RC_INCSNAP_IDLE &&
           x->pend_at == x->pending.len && x->nemitted < x->unacked && rc_my_incsnap_working(s);
}

rc_status rc_my_incsnap_tick(my_source *s, bool in_tx, bool caught_up, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    bool held = x->hold; /* the batch before ended here, waiting for the sink with nothing else to do */
    x->hold = false;
    if (x->pend_at < x->pending.len || in_tx) return drain(s, err);
    if (reach(s, err) != RC_OK) return err->code;
    /* -o mysql.snapshot.unacked.chunks (default 1): the next chunk is read once the sink
     * acknowledged the ones handed out (rc_my_incsnap_waiting says the source waits for it),
     * so a kill repeats at most that many chunks */
    bool room = x->nemitted < x->unacked;
    if ((caught_up || held) && x->pend_at == x->pending.len && room) {
        rc_error e;
        rc_error_clear(&e);
        rc_status st = rc_incsnap_step(x->core, true, &e);
        x->step_failed = st != RC_OK && st != RC_SKIP;
        /* that table is stopped; the others and the capture go on */
        if (st != RC_OK && st != RC_SKIP && (inc_notice(s, &e), close_edges(s, err)) != RC_OK) return err->code;
        if (st == RC_OK) rc_my_incsnap_say(s, x->cur, 0, "window open");
        if (st == RC_OK && reach(s, err) != RC_OK) return err->code;
    }
    /* waiting for the sink with nothing to hand: the batch ends here rather than wait for the
     * stream's poll, so that the acknowledgement (which takes the source's lock, prefetch.c)
     * comes at once; the next chunk then starts without that poll */
    rc_status st = drain(s, err);
    x->hold = st == RC_OK && !(x->nemitted < x->unacked) && x->pend_at == x->pending.len && !rc_db_batch(&s->db.batches)->n;
    if (x->hold) rc_db_phase_nap(1);
    return st;
}

/* ---- open, check, free ---- */

rc_status rc_my_incsnap_new(my_source *s, const rc_source_config *cfg, rc_error *err)
{
    rc_my_capture_options o;
    if (rc_my_options_read(cfg->opts, &o, err) != RC_OK) return err->code;
    if (o.watermark == RC_MY_WM_TABLE && !o.signal_table)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "-o mysql.snapshot.watermark=table INSERTs two rows a chunk into the signal table: give it with -o "
                            "mysql.signal.table=DATABASE.TABLE (the capture's user needs INSERT on it)");
    /* --snapshot incremental needs the chunks without signals: no signal table then */
    if (!o.signal_table && s->cfg.snapshot != RC_SNAPSHOT_INCREMENTAL) return RC_OK;
    const char *sig = o.signal_table ? o.signal_table : ".", *dot = strchr(sig, '.');
    if (o.signal_table && (!dot || dot == sig || !dot[1] || dot - sig > 64 || strlen(dot + 1) > 64))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o mysql.signal.table=%s: give DATABASE.TABLE", o.signal_table);
    rc_my_incsnap *x = calloc(1, sizeof *x);
    if (!x) return rc_my_source_nomem(err);
    s->inc = x;
    x->o = o;
    rc_my_incsnap_wm_init(x);
    /* the environment's switch (as PostgreSQL's RC_SNAPSHOT_VERBOSE; rowcast has no -v) */
    const char *verbose = getenv("RC_SNAPSHOT_VERBOSE");
    x->verbose = verbose && !strcmp(verbose, "1");
    x->unacked = o.unacked_chunks > 0 ? (size_t)o.unacked_chunks : 1;
    snprintf(x->sig_db, sizeof x->sig_db, "%.*s", (int)(dot - sig), sig); /* "" without one: no table matches */
    snprintf(x->sig_table, sizeof x->sig_table, "%s", dot + 1);
    rc_buf_init(&x->row, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&x->last_key, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&x->pending, (size_t)1 << 30);
    rc_buf_init(&x->captured, RC_BUF_DEFAULT_MAX), rc_buf_init(&x->names, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&x->live, RC_BUF_DEFAULT_MAX);
    x->captured_stale = true; /* the first checkpoint has it */
    rc_arena_init(&x->scratch);
    rc_incsnap_ops ops = {.write_watermark = write_watermark, .read_chunk = read_chunk, .emit_row = emit_row, .emit_edge = emit_edge,
                         .row_key = row_key};
    rc_incsnap_limits lim = {.chunk_rows = o.chunk_rows ? (size_t)o.chunk_rows : RC_MY_INCSNAP_CHUNK_ROWS};
    if (!(x->core = rc_incsnap_new(&ops, s, &lim))) return rc_my_source_nomem(err);
    s->accept = cfg->accept, s->accept_ctx = cfg->accept_ctx;
    return RC_OK;
}

rc_status rc_my_incsnap_check(my_source *s, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    if (!x) return RC_OK;
    x->table_wm = x->o.watermark == RC_MY_WM_TABLE || (x->o.watermark == RC_MY_WM_AUTO && !s->srv.mariadb);
    if (!s->srv.mariadb && x->o.watermark == RC_MY_WM_POINT)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "-o mysql.snapshot.watermark=point: %s is MySQL, whose read views have no binlog position "
                            "(MariaDB's binlog_snapshot_file/position); use the table watermark (table, or auto) with -o "
                            "mysql.signal.table (docs/sources/mysql.md, \"Incremental snapshots\")", s->url.shown);
    if (x->table_wm && !x->sig_db[0])
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--snapshot incremental: %s is MySQL, where chunks are framed by the table watermark (two rows a "
                            "chunk INSERTed into the signal table; the read-only gtid watermark is not built): give -o "
                            "mysql.signal.table=DATABASE.TABLE, with INSERT on it (docs/sources/mysql.md, \"Incremental "
                            "snapshots\")", s->url.shown);
    if (!x->sig_db[0]) return RC_OK;
    char sql[400], db[140], tb[140];
    mysql_real_escape_string(s->sql, db, x->sig_db, (unsigned long)strlen(x->sig_db));
    mysql_real_escape_string(s->sql, tb, x->sig_table, (unsigned long)strlen(x->sig_table));
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = '%s' AND TABLE_NAME = '%s'", db, tb);
    MYSQL_RES *r;
    if (rc_my_select(s->sql, &s->url, sql, &r, err) != RC_OK) return err->code;
    MYSQL_ROW row = mysql_fetch_row(r);
    long ncols = row && row[0] ? strtol(row[0], NULL, 10) : 0;
    mysql_free_result(r);
    if (ncols >= 3) return RC_OK;
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                        "the signal table %s.%s %s on %s; rowcast does not create it: CREATE TABLE %s.%s (id VARCHAR(64) PRIMARY "
                        "KEY, type VARCHAR(32) NOT NULL, data TEXT) ENGINE=InnoDB",
                        x->sig_db, x->sig_table, ncols ? "has fewer than 3 columns (id, type, data)" : "does not exist", s->url.shown,
                        x->sig_db, x->sig_table);
}

void rc_my_incsnap_free(my_source *s)
{
    rc_my_incsnap *x = s->inc;
    if (!x) return;
    rc_incsnap_free(x->core);
    for (size_t i = 0; i < x->ntabs; i++) {
        inc_table *it = x->tabs[i];
        rc_my_snap_reader_free(it->rd);
        rc_buf_fini(&it->from), rc_buf_fini(&it->at);
        rc_my_incsnap_table_drop(x, it, false);
        free(it->name), free(it->resume), free(it);
    }
    free(x->tabs);
    for (size_t i = 0; i < x->nretired; i++) free(x->retired[i]);
    free(x->retired);
    if (x->sql) mysql_close(x->sql);
    rc_buf_fini(&x->row);
    rc_buf_fini(&x->last_key);
    free(x->emitted);
    rc_buf_fini(&x->pending);
    rc_buf_fini(&x->captured), rc_buf_fini(&x->names), rc_buf_fini(&x->live);
    rc_arena_fini(&x->scratch);
    free(x);
    s->inc = NULL;
}

void rc_my_incsnap_stats(const my_source *s, rc_source_stats *out)
{
    if (s->inc) rc_incsnap_stats(s->inc->core, &s->inc->signals, out);
}

/* ---- tables queued without a signal ---- */

rc_status rc_my_incsnap_queue_included(my_source *s, rc_error *err)
{
    char name[140];
    rc_incsnap_by *by = calloc(s->ntables ? s->ntables : 1, sizeof *by);
    if (!by) return rc_my_source_nomem(err);
    /* every table checked before any is queued: a refusal stops the run before it streams */
    for (size_t i = 0; i < s->ntables; i++) {
        const rc_my_table *t = s->tables[i].t;
        snprintf(name, sizeof name, "%.*s.%.*s", (int)t->db.n, t->db.p, (int)t->name.n, t->name.p);
        rc_error e;
        rc_error_clear(&e);
        if (!s->tables[i].included || rc_my_incsnap_prepare(s, name, &by[i], &e) == RC_OK) continue;
        free(by);
        if (e.code != RC_SKIP) return *err = e, err->code;
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--snapshot incremental: table %s has no primary key and no unique index on NOT NULL columns, so it "
                            "cannot be read in chunks while the stream runs; add one (ALTER TABLE %s ADD PRIMARY KEY (...)), "
                            "leave it out of --include, or use --snapshot initial (reads it in one view)", name, name);
    }
    rc_status st = RC_OK;
    for (size_t i = 0; i < s->ntables && st == RC_OK; i++) {
        const rc_my_table *t = s->tables[i].t;
        snprintf(name, sizeof name, "%.*s.%.*s", (int)t->db.n, t->db.p, (int)t->name.n, t->name.p);
        if (s->tables[i].included) st = rc_my_incsnap_queue_table(s, name, by[i], NULL, "--snapshot incremental", err);
    }
    free(by);
    return st;
}
