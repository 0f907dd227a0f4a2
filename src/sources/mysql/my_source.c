/* The MySQL/MariaDB source (rowcast/source.h, docs/sources/mysql.md): a consistent snapshot of
 * the included tables, then the binlog from the snapshot's position, as batches of items the
 * pipeline encodes and sends; the checkpoint file (--checkpoint) holds the last transaction
 * boundary whose every event the sink acknowledged, with the schema history as it was there.
 *
 * Phases. Without a checkpoint and with --snapshot initial (the default unless --start is
 * given), a read view is opened (my_snapshot.h), the structures of the tables go into the
 * history, and the included tables are read chunk by chunk (one read event per row). Once the
 * sink acknowledged every snapshot row, the view is closed, the checkpoint written at its
 * position, and the stream starts there: the view holds every transaction before that
 * position and none after, so nothing is missed and nothing comes twice. A run that dies
 * during the snapshot leaves no checkpoint: the next run takes the snapshot again, whole.
 * With a checkpoint, the run streams from it (--start and --snapshot are ignored, and said so).
 *
 * Items. Each binlog event that makes events is one item; its position (RC_POS_MYSQL) is the
 * last transaction boundary at or before its end: the end of the transaction's last event for
 * the COMMIT's item, the previous boundary for the events inside a transaction, so an
 * acknowledged position never falls inside a transaction. Snapshot rows carry file 0 and
 * their number. Boundaries handed out are kept (with the GTID set, and the history text after
 * a DDL) until acknowledged, when the checkpoint is written from the last one acknowledged.
 *
 * Faults. A lost connection while streaming is retried with backoff (the notice says why and
 * when), resuming at the last boundary handed out (by GTID on MariaDB): a transaction cut off
 * in the middle comes again whole. A purged binlog (error 1236) is fatal, naming the position
 * asked and the server's oldest binlog. During the snapshot a lost connection is fatal (the
 * next run starts it again). */
#include "sources/db_phases.h"
#include "sources/mysql/my_source.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errmsg.h>
#include "rowcast/colcache.h"
#include "sources/mysql/my_checkpoint.h"
#include "sources/mysql/my_conn.h"
#include "sources/mysql/my_decoder.h"
#include "sources/mysql/my_event.h"
#include "sources/mysql/my_gtid.h"
#include "sources/mysql/my_schema.h"
#include "sources/mysql/my_snapshot.h"
#include "sources/mysql/my_stream.h"
#include "sources/table_patterns.h"

enum { SNAPSHOT_CHUNK = 10000, STOP_EVENT = 3, ROTATE_EVENT = 4, FORMAT_DESCRIPTION_EVENT = 15 };

typedef rc_db_phase phase; /* sources/db_phases.h */

/* A transaction boundary handed out and not yet acknowledged. */
typedef struct boundary {
    rc_pos pos;
    char *file, *gtids;
    char *history; /* the history's text when a DDL came since the boundary before; NULL: unchanged */
    size_t history_len;
} boundary;

typedef struct my_source {
    rc_source base;
    rc_capture_config cfg;
    volatile sig_atomic_t *stop;
    rc_my_url url;
    rc_my_server srv;
    rc_str server, version;
    MYSQL *sql;
    rc_my_history *hist;
    rc_my_decoder *dec;
    rc_colcache *cols; /* the decoders' column lists (a restart's decoder keeps them) */
    rc_my_stream *stream;
    phase ph;
    rc_db_batches batches; /* the one being filled: rc_db_batch */
    /* snapshot */
    rc_my_snap_table *tables;
    size_t ntables, table_i, tables_done, tables_included;
    rc_my_snap_reader *reader;
    char *ahead;           /* the next row, read ahead (to mark the last one): its bytes */
    size_t ahead_cap;
    char **ahead_fields;   /* into `ahead`, NULL for NULL */
    unsigned long *ahead_lens;
    uint32_t ahead_ncols;
    bool has_ahead;
    size_t ahead_table;
    uint64_t snap_rows, snap_acked, snap_estimate;
    int64_t snap_us;
    rc_my_snap_pos snap;
    bool view_open;
    /* stream */
    char *file, *gtids;    /* the last boundary handed out: file, GTID set text */
    uint64_t offset;
    rc_pos handed;         /* ... as a position */
    rc_pos last_pos;       /* the last item's position */
    bool acked_all;        /* the sink acknowledged the last item */
    boundary *q;
    size_t qn, qcap;
    rc_my_checkpoint acked; /* what the checkpoint file holds (its sink state: the last ack_state's) */
    char *stored_sink;      /* the sink state the checkpoint held at open (NULL: none) */
    rc_pos acked_pos;
    bool hist_dirty;       /* a DDL since the last boundary kept */
    bool until;            /* --until caught-up: stop at until_file:until_off */
    char until_file[256];
    uint64_t until_off;
    uint64_t row_events;
    uint32_t server_id;
    int backoff_ms;
    double retry_at;
    bool by_gtid;          /* the stream resumes by GTID */
    bool seen_fde;         /* this stream sent its FORMAT_DESCRIPTION */
    bool rotated, stopped; /* ... and then a ROTATE to the next file, a STOP (the file's end) */
} my_source;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void notice(my_source *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void notice(my_source *s, const char *fmt, ...)
{
    if (!s->cfg.notice) return;
    char msg[800];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->cfg.notice(s->cfg.notice_ctx, msg);
}

static rc_status nomem(rc_error *err)
{
    return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

/* mysql-bin.000042: 42 (the position's file number; names without digits: 0). */
static uint64_t file_no(const char *file)
{
    const char *dot = file ? strrchr(file, '.') : NULL;
    return dot ? strtoull(dot + 1, NULL, 10) : 0;
}

static rc_status set_text(char **dst, const char *src, rc_error *err)
{
    char *c = strdup(src ? src : "");
    if (!c) return nomem(err);
    free(*dst);
    *dst = c;
    return RC_OK;
}

/* The boundary handed out becomes file:offset with the GTID set `gtids`. */
static rc_status hand(my_source *s, const char *file, uint64_t offset, const char *gtids, rc_error *err)
{
    if (file != s->file && set_text(&s->file, file, err) != RC_OK) return err->code;
    if (gtids != s->gtids && set_text(&s->gtids, gtids, err) != RC_OK) return err->code;
    s->offset = offset;
    s->handed = rc_pos_mysql(file_no(s->file), offset, 0);
    return RC_OK;
}

/* ---- items ---- */

static rc_source_item *item_new(my_source *s)
{
    rc_batch *b = rc_db_batch(&s->batches);
    rc_source_item *it = &b->lines[b->n++];
    memset(it, 0, sizeof *it);
    it->file = s->url.shown;
    it->off = b->len;
    it->ev_first = b->events.count;
    rc_error_clear(&it->err);
    return it;
}

static void item_end(my_source *s, rc_source_item *it)
{
    it->ev_count = rc_db_batch(&s->batches)->events.count - it->ev_first;
    it->end = s->ph == PH_SNAPSHOT ? rc_pos_mysql(0, 0, s->snap_rows) : s->handed;
    s->last_pos = it->end;
    s->acked_all = false;
}

/* A bad item: its events dropped, the error kept, and a line for the dead-letter file (the
 * event as hex after its place). */
static void item_bad(my_source *s, rc_source_item *it, const rc_error *err, const uint8_t *msg, size_t len)
{
    rc_batch *b = rc_db_batch(&s->batches);
    b->events.count = it->ev_first;
    it->st = err->code ? err->code : RC_ERR_SYNTAX;
    it->err = *err;
    size_t need = 320 + 2 * len + 2;
    if (b->len + need > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + need) cap *= 2;
        char *t = realloc(b->text, cap);
        if (!t) return;
        b->text = t, b->cap = cap;
    }
    b->len += (size_t)snprintf(b->text + b->len, need, "binlog event after %s:%" PRIu64 ":", s->file ? s->file : "",
                               s->offset);
    for (size_t i = 0; i < len; i++) b->len += (size_t)snprintf(b->text + b->len, 3, "%02x", msg[i]);
    b->text[b->len++] = '\n';
    it->raw = b->len - it->off;
    it->n = it->raw - 1;
}

/* ---- snapshot ---- */

/* Copies the reader's row into s->ahead. */
static rc_status keep_ahead(my_source *s, size_t table, char **fields, const unsigned long *lens, rc_error *err)
{
    uint32_t n = s->tables[table].t->ncols;
    size_t need = 0;
    for (uint32_t i = 0; i < n; i++) need += fields[i] ? lens[i] + 1 : 0;
    if (need > s->ahead_cap) {
        char *p = realloc(s->ahead, need);
        if (!p) return nomem(err);
        s->ahead = p, s->ahead_cap = need;
    }
    if (n > s->ahead_ncols) {
        char **f = realloc(s->ahead_fields, n * sizeof *f);
        if (f) s->ahead_fields = f;
        unsigned long *l = realloc(s->ahead_lens, n * sizeof *l);
        if (l) s->ahead_lens = l;
        if (!f || !l) return nomem(err);
        s->ahead_ncols = n;
    }
    char *w = s->ahead;
    for (uint32_t i = 0; i < n; i++) {
        s->ahead_lens[i] = fields[i] ? lens[i] : 0;
        s->ahead_fields[i] = fields[i] ? memcpy(w, fields[i], lens[i]) : NULL;
        if (fields[i]) w[lens[i]] = '\0', w += lens[i] + 1;
    }
    s->has_ahead = true, s->ahead_table = table;
    return RC_OK;
}

/* Reads the next snapshot row into s->ahead (has_ahead false after the last row of the last table). */
static rc_status snapshot_fetch(my_source *s, rc_error *err)
{
    s->has_ahead = false;
    while (s->table_i < s->ntables) {
        const rc_my_snap_table *t = &s->tables[s->table_i];
        if (!t->included) {
            s->table_i++;
            continue;
        }
        if (!s->reader && !(s->reader = rc_my_snap_reader_new(s->sql, &s->url, t, SNAPSHOT_CHUNK))) return nomem(err);
        char **fields;
        unsigned long *lens;
        bool got;
        if (rc_my_snap_reader_next(s->reader, &fields, &lens, &got, err) != RC_OK) return err->code;
        if (got) return keep_ahead(s, s->table_i, fields, lens, err);
        rc_my_snap_reader_free(s->reader);
        s->reader = NULL;
        s->table_i++;
        s->tables_done++;
    }
    return RC_OK;
}

static rc_status push(rc_event_list *out, const rc_event *ev, rc_error *err)
{
    rc_event *slot = rc_event_list_push(out);
    if (!slot) return nomem(err);
    *slot = *ev;
    return RC_OK;
}

/* The read event of the row ahead. */
static rc_status read_event(my_source *s, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->batches);
    const rc_my_snap_table *t = &s->tables[s->ahead_table];
    rc_value *vals = rc_arena_alloc(&b->arena, (t->t->ncols ? t->t->ncols : 1) * sizeof *vals);
    if (!vals) return nomem(err);
    rc_status st = rc_my_snap_row_parse(t, s->ahead_fields, s->ahead_lens, &b->arena, vals, err);
    if (st != RC_OK) return st;
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.op = RC_OP_READ;
    ev.src = (rc_origin){.kind = s->srv.mariadb ? RC_DB_MARIADB : RC_DB_MYSQL, .server = s->server, .version = s->version,
                         .db = t->t->db, .table = t->t->name};
    ev.pos.file = (rc_str){s->snap.file, strlen(s->snap.file)};
    ev.pos.offset = s->snap.offset, ev.pos.has_offset = true;
    ev.ts_us = s->snap_us, ev.has_ts = true;
    ev.ncols = t->t->ncols, ev.cols = t->cols, ev.cols_id = t;
    ev.after = vals;
    return push(&b->events, &ev, err);
}

static rc_status snapshot_batch(my_source *s, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->batches);
    static const char *const marks[] = {"first", "true", "last"};
    while (b->n < RC_DB_BATCH_ITEMS && s->has_ahead) {
        if (*s->stop) return RC_OK;
        rc_source_item *it = item_new(s);
        rc_error ierr;
        rc_error_clear(&ierr);
        rc_status st = read_event(s, &ierr);
        if (st != RC_OK) {
            const char *none = "";
            item_bad(s, it, &ierr, (const uint8_t *)none, 0);
        }
        bool first = s->snap_rows == 0;
        s->snap_rows++;
        if (snapshot_fetch(s, err) != RC_OK) return err->code;
        if (st == RC_OK) {
            rc_event *ev = &b->events.items[b->events.count - 1];
            const char *m = marks[!s->has_ahead ? 2 : first ? 0 : 1];
            ev->snapshot = (rc_str){m, strlen(m)};
        }
        item_end(s, it);
        if (st == RC_OK) it->raw = 1; /* counted as one message of the snapshot */
        if (st == RC_OK && s->cfg.max_events && ++s->row_events >= s->cfg.max_events) {
            s->ph = PH_DONE;
            return RC_OK;
        }
    }
    if (!s->has_ahead) s->ph = PH_SNAPSHOT_ACK;
    return RC_OK;
}

/* ---- checkpoints ---- */

static void boundary_free(boundary *e)
{
    free(e->file), free(e->gtids), free(e->history);
}

/* The history's text now (malloc'd). */
static char *history_text(my_source *s, size_t *len)
{
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    rc_my_history_write(s->hist, &b);
    char *t = b.err ? NULL : malloc(b.len + 1);
    if (t) memcpy(t, b.data ? b.data : "", b.len), t[b.len] = '\0', *len = b.len;
    rc_buf_fini(&b);
    return t;
}

/* Keeps the boundary handed out last, until it is acknowledged. */
static rc_status keep_boundary(my_source *s, rc_error *err)
{
    if (s->qn && rc_pos_compare(&s->q[s->qn - 1].pos, &s->handed) >= 0) return RC_OK;
    if (!s->qn && s->acked_pos.kind && rc_pos_compare(&s->acked_pos, &s->handed) >= 0) return RC_OK;
    if (s->qn == s->qcap) {
        size_t cap = s->qcap ? s->qcap * 2 : 64;
        boundary *q = realloc(s->q, cap * sizeof *q);
        if (!q) return nomem(err);
        s->q = q, s->qcap = cap;
    }
    boundary e = {.pos = s->handed, .file = strdup(s->file ? s->file : ""), .gtids = strdup(s->gtids ? s->gtids : "")};
    if (s->hist_dirty) e.history = history_text(s, &e.history_len);
    if (!e.file || !e.gtids || (s->hist_dirty && !e.history)) {
        boundary_free(&e);
        return nomem(err);
    }
    s->hist_dirty = false;
    s->q[s->qn++] = e;
    return RC_OK;
}

static void write_checkpoint(my_source *s)
{
    if (!s->cfg.checkpoint) return;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_checkpoint_write(s->cfg.checkpoint, s->url.shown, &s->acked, &err) != RC_OK)
        notice(s, "warning: %s (the previous checkpoint stays)", err.message);
}

/* Everything up to `pos` is acknowledged: the checkpoint moves to the last boundary kept at or
 * before it. */
static void acknowledge(my_source *s, const rc_pos *pos)
{
    size_t k = 0;
    while (k < s->qn && rc_pos_compare(&s->q[k].pos, pos) <= 0) k++;
    if (!k) return;
    for (size_t i = 0; i < k; i++) {
        boundary *e = &s->q[i];
        free(s->acked.file), free(s->acked.gtids);
        s->acked.file = e->file, s->acked.gtids = e->gtids;
        s->acked.offset = rc_pos_mysql_offset(&e->pos);
        if (e->history) {
            free(s->acked.history);
            s->acked.history = e->history, s->acked.history_len = e->history_len;
        }
        s->acked_pos = e->pos;
    }
    memmove(s->q, s->q + k, (s->qn - k) * sizeof *s->q);
    s->qn -= k;
    write_checkpoint(s);
}

/* The stream starts at the handed boundary with nothing in flight (after the snapshot, or
 * without one): that is the checkpoint already, history and all. */
static rc_status checkpoint_here(my_source *s, rc_error *err)
{
    s->hist_dirty = true;
    if (keep_boundary(s, err) != RC_OK) return err->code;
    rc_pos p = s->handed;
    acknowledge(s, &p);
    return RC_OK;
}

/* ---- stream ---- */

static void decoder_free(void *d) { rc_my_decoder_free(d); }

static rc_status decoder_start(my_source *s, rc_error *err)
{
    /* the events handed out point at the decoder (the file name, the column lists): it goes
     * once their batches came back */
    rc_db_batches_later(&s->batches, decoder_free, s->dec);
    s->dec = NULL;
    rc_my_decoder_config dc = {.file = s->file ? s->file : "", .server = s->server, .history = s->hist, .cols = s->cols};
    if (rc_my_decoder_new(&dc, &s->dec, err) != RC_OK) return err->code;
    if (s->gtids && s->gtids[0]) {
        rc_my_gtid_set *g = rc_my_gtid_set_new();
        if (!g) return nomem(err);
        rc_status st = rc_my_gtid_set_parse(g, s->gtids, strlen(s->gtids), err);
        if (st == RC_OK) st = rc_my_decoder_set_gtids(s->dec, g, err);
        rc_my_gtid_set_free(g);
        if (st != RC_OK) return st;
    }
    return RC_OK;
}

/* The connection went away while streaming: start again after a pause. */
static void lost(my_source *s, const rc_error *why)
{
    rc_my_stream_close(s->stream);
    s->stream = NULL;
    s->backoff_ms = s->backoff_ms ? (s->backoff_ms * 2 > 10000 ? 10000 : s->backoff_ms * 2) : 100;
    notice(s, "%s; reconnecting in %d ms (resuming at %s:%" PRIu64 "%s%s)", why->message, s->backoff_ms, s->file, s->offset,
           s->by_gtid && s->gtids[0] ? ", GTID " : "", s->by_gtid ? s->gtids : "");
    s->retry_at = now_s() + s->backoff_ms / 1000.0;
    s->ph = PH_STREAM_START;
}

/* The server's oldest binlog (SHOW BINARY LOGS), for the purged-binlog message. */
static void oldest_binlog(my_source *s, char *out, size_t cap)
{
    snprintf(out, cap, "unknown");
    MYSQL *m = NULL;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_connect(&s->url, &m, &err) != RC_OK) return;
    if (!mysql_query(m, "SHOW BINARY LOGS")) {
        MYSQL_RES *r = mysql_store_result(m);
        MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
        if (row && row[0]) snprintf(out, cap, "%s", row[0]);
        if (r) mysql_free_result(r);
    }
    mysql_close(m);
}

/* The stream is at the start of the binlog after s->file (SHOW BINARY LOGS); false when there
 * is none or the server cannot say. */
static bool next_binlog(my_source *s)
{
    MYSQL *m = NULL;
    rc_error e;
    rc_error_clear(&e);
    if (rc_my_connect(&s->url, &m, &e) != RC_OK) return false; /* a session of its own: s->sql may be gone */
    MYSQL_RES *r = mysql_query(m, "SHOW BINARY LOGS") ? NULL : mysql_store_result(m);
    mysql_close(m);
    if (!r) return false;
    MYSQL_ROW row;
    bool found = false, moved = false;
    while (!moved && (row = mysql_fetch_row(r)) && row[0]) {
        if (found) moved = hand(s, row[0], 4, s->gtids, &e) == RC_OK;
        found = found || (s->file && !strcmp(row[0], s->file));
    }
    mysql_free_result(r);
    return moved;
}

static rc_status stream_failed(my_source *s, unsigned server_errno, rc_error *why, rc_error *err)
{
    if (server_errno == CR_BINLOG_ERROR && (s->rotated || (s->stopped && next_binlog(s)))) {
        /* libmariadb 3.3 (Debian 12's) hands a real ROTATE over (the last event of every binlog
         * but the newest) and then fails with CR_BINLOG_ERROR "Malformed packet" (a mangled
         * file name in the message) on the next file's first event; after a STOP (a server
         * restarted: the last event of its file) it fails on the ROTATE itself. The stream
         * goes on at the next file's start, by file and position (by GTID the server would
         * start in the same file again). */
        s->by_gtid = false;
        rc_my_stream_close(s->stream);
        s->stream = NULL;
        s->retry_at = 0;
        s->ph = PH_STREAM_START;
        return RC_OK;
    }
    if (why->code == RC_ERR_RETRY) {
        lost(s, why);
        return RC_OK;
    }
    if (server_errno == 1236) { /* ER_MASTER_FATAL_ERROR_READING_BINLOG: the binlog asked is gone */
        char oldest[256];
        oldest_binlog(s, oldest, sizeof oldest);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "%s (asked: %s:%" PRIu64 "%s%s; the server's oldest binlog is %s): the changes in between are "
                            "lost to this capture; remove the checkpoint and capture again with a snapshot",
                            why->message, s->file, s->offset, s->by_gtid && s->gtids[0] ? ", GTID " : "",
                            s->by_gtid ? s->gtids : "", oldest);
    }
    if (server_errno == 1227 || server_errno == 1045) /* access denied */
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s (GRANT REPLICATION SLAVE ON *.* TO the user)", why->message);
    *err = *why;
    return err->code;
}

static rc_status stream_start(my_source *s, rc_error *err)
{
    if (now_s() < s->retry_at) return RC_OK;
    if (s->sql) { /* the SQL session's work (checks, snapshot) is done: the server gets its connection back */
        mysql_close(s->sql);
        s->sql = NULL;
    }
    if (decoder_start(s, err) != RC_OK) return err->code;
    rc_my_stream_start st = {.file = s->file,
                             .offset = s->offset,
                             .gtids = s->by_gtid ? s->gtids : NULL,
                             .server_id = s->server_id,
                             .heartbeat_s = 1.0};
    rc_error oerr;
    rc_error_clear(&oerr);
    if (rc_my_stream_open(&s->url, &st, &s->stream, &oerr) != RC_OK) return stream_failed(s, 0, &oerr, err);
    s->seen_fde = s->rotated = s->stopped = false;
    if (s->backoff_ms) notice(s, "binlog stream from %s resumed", s->url.shown);
    s->backoff_ms = 0;
    s->ph = PH_STREAM;
    return RC_OK;
}

/* At the --until target: no transaction open, everything up to it read. */
static bool at_target(const my_source *s, bool in_tx)
{
    if (!s->until || in_tx) return false;
    int c = strcmp(s->file ? s->file : "", s->until_file);
    return c > 0 || (c == 0 && s->offset >= s->until_off);
}

/* Caught up to --until: at the target and everything acknowledged. */
static bool caught_up(const my_source *s, bool in_tx) { return s->acked_all && at_target(s, in_tx); }

/* Row events among the batch's events from `first` on: --max-events counts them; a DDL means
 * the next boundary kept carries the history. */
static void count_events(my_source *s, size_t first)
{
    const rc_batch *b = rc_db_batch(&s->batches);
    for (size_t i = first; i < b->events.count; i++) {
        rc_op op = b->events.items[i].op;
        if (op == RC_OP_DDL) s->hist_dirty = true;
        if (op == RC_OP_INSERT || op == RC_OP_UPDATE || op == RC_OP_DELETE) s->row_events++;
    }
    if (s->cfg.max_events && s->row_events >= s->cfg.max_events) s->ph = PH_DONE;
}

/* One binlog event: its events as an item. */
static rc_status binlog_event(my_source *s, const rc_my_raw_event *raw, bool *in_tx, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->batches);
    size_t first = b->events.count;
    rc_source_item *it = item_new(s);
    rc_error ierr;
    rc_error_clear(&ierr);
    uint64_t offset = raw->log_pos >= raw->n ? raw->log_pos - raw->n : 0;
    rc_pos before = s->handed;
    const uint8_t *data = raw->data;
    size_t n = raw->n;
    uint8_t rotate[600];
    if (raw->type == ROTATE_EVENT && s->seen_fde) s->rotated = true;
    if (raw->type == STOP_EVENT) s->stopped = true;
    if (raw->type == FORMAT_DESCRIPTION_EVENT) s->seen_fde = true;
    if (raw->type == ROTATE_EVENT && !s->seen_fde && n > 23 && n - 4 <= sizeof rotate && raw->summed &&
        raw->sum == rc_my_le(data + n - 4, 4)) {
        /* the server's first event, the artificial ROTATE, ends in the CRC32 that
         * @master_binlog_checksum asked for, before the FORMAT_DESCRIPTION that tells the
         * decoder events have one: handed over without it (its size field too) */
        memcpy(rotate, data, n - 4);
        n -= 4;
        rotate[9] = (uint8_t)n, rotate[10] = (uint8_t)(n >> 8), rotate[11] = (uint8_t)(n >> 16), rotate[12] = (uint8_t)(n >> 24);
        data = rotate;
    }
    rc_status st = raw->summed && data == raw->data ? rc_my_decoder_feed_summed(s->dec, data, n, offset, raw->sum, &b->events, &b->arena, &ierr)
                                                    : rc_my_decoder_feed(s->dec, data, n, offset, &b->events, &b->arena, &ierr);
    rc_my_decoder_pos p;
    rc_my_decoder_position(s->dec, &p);
    *in_tx = p.in_transaction;
    if (p.file && (p.offset != s->offset || !s->file || strcmp(p.file, s->file))) {
        rc_buf g;
        rc_buf_init(&g, RC_BUF_DEFAULT_MAX);
        if (p.gtids) rc_my_gtid_set_format(p.gtids, &g);
        rc_buf_putc(&g, '\0');
        rc_status hs = g.err ? nomem(err) : hand(s, p.file, p.offset, g.data, err);
        rc_buf_fini(&g);
        if (hs != RC_OK) return hs;
    }
    if (st != RC_OK) {
        item_bad(s, it, &ierr, raw->data, raw->n);
    } else if (b->events.count == first) {
        b->n--; /* no event (FORMAT_DESCRIPTION, TABLE_MAP, GTID...): no item */
        return RC_OK;
    } else {
        it->raw = raw->n;
    }
    item_end(s, it);
    count_events(s, first);
    /* an event that did not end a transaction (or a DDL) is inside one: its position is the
     * boundary before it. Every other item's end is kept, so that each position the sink may
     * be marked at is one a checkpoint can be stored at, with the sink's sizes there */
    it->inside = rc_pos_equal(&it->end, &before);
    if (!it->inside && keep_boundary(s, err) != RC_OK) return err->code;
    return RC_OK;
}

static rc_status stream_batch(my_source *s, int timeout_ms, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->batches);
    int wait = timeout_ms;
    bool in_tx = false;
    rc_my_decoder_pos p;
    rc_my_decoder_position(s->dec, &p);
    in_tx = p.in_transaction;
    while (!rc_batch_full(b) && s->ph == PH_STREAM) { /* two batches are out at a time: a few MB */
        if (caught_up(s, in_tx)) {
            s->ph = PH_DONE;
            break;
        }
        /* at the target, waiting only for the sink's acknowledgement: nothing past it is read
         * (it is the next run's; the checkpoint stays at the target) */
        if (at_target(s, in_tx)) {
            if (!b->n) rc_db_phase_nap(wait < 10 ? wait : 10);
            break;
        }
        rc_my_raw_event raw;
        bool got;
        unsigned server_errno;
        rc_error rerr;
        rc_error_clear(&rerr);
        rc_status st = rc_my_stream_next(s->stream, wait, &raw, &got, &server_errno, &rerr);
        wait = 0;
        if (st != RC_OK) {
            if (stream_failed(s, server_errno, &rerr, err) != RC_OK) return err->code;
            break;
        }
        if (!got) break;
        if (binlog_event(s, &raw, &in_tx, err) != RC_OK) return err->code;
    }
    if (s->ph != PH_STREAM_START && keep_boundary(s, err) != RC_OK) return err->code;
    /* nothing in flight: the checkpoint may move past events that made no item */
    if (!b->n && s->acked_all && !in_tx && s->qn) {
        rc_pos h = s->handed;
        acknowledge(s, &h);
    }
    return RC_OK;
}

/* ---- the source interface ---- */

static rc_status snapshot_done(my_source *s, rc_error *err)
{
    if (rc_my_snapshot_end(s->sql, &s->url, err) != RC_OK) return err->code;
    s->view_open = false;
    if (s->cfg.snapshot == RC_SNAPSHOT_INITIAL_ONLY) {
        /* delivered whole: the checkpoint without position (my_ack_state) has nothing to
         * cut back to any more, and no stream follows */
        if (s->cfg.checkpoint && s->acked.sink && s->acked.sink[0]) remove(s->cfg.checkpoint);
        s->ph = PH_DONE;
        return RC_OK;
    }
    if (checkpoint_here(s, err) != RC_OK) return err->code;
    notice(s, "snapshot of %zu table%s (%" PRIu64 " row%s) delivered; streaming from %s:%" PRIu64, s->tables_included,
           s->tables_included == 1 ? "" : "s", s->snap_rows, s->snap_rows == 1 ? "" : "s", s->file, s->offset);
    s->ph = PH_STREAM_START;
    s->retry_at = 0;
    return RC_OK;
}

/* The phases' work for the driver (sources/db_phases.c). */
static rc_status ph_snapshot_batch(void *s, rc_error *err) { return snapshot_batch(s, err); }
static bool ph_snapshot_acked(const void *p)
{
    const my_source *s = p;
    return s->snap_acked >= s->snap_rows;
}
static rc_status ph_snapshot_done(void *s, rc_error *err) { return snapshot_done(s, err); }
static rc_status ph_stream_start(void *s, rc_error *err) { return stream_start(s, err); }
static rc_status ph_stream_batch(void *s, int timeout_ms, rc_error *err) { return stream_batch(s, timeout_ms, err); }
static const rc_db_phase_ops phase_ops = {ph_snapshot_batch, ph_snapshot_acked, ph_snapshot_done, ph_stream_start, ph_stream_batch};

static rc_status my_next(rc_source *src, int timeout_ms, rc_batch **out, rc_error *err)
{
    my_source *s = (my_source *)src;
    return rc_db_phase_next(&phase_ops, s, &s->ph, &s->batches, timeout_ms, out, err);
}

static void my_release(rc_source *src, rc_batch *b)
{
    (void)src, (void)b;
}

static void my_ack(rc_source *src, const rc_pos *pos)
{
    my_source *s = (my_source *)src;
    if (pos->kind != RC_POS_MYSQL) return;
    s->acked_all = rc_pos_compare(pos, &s->last_pos) >= 0;
    if (!rc_pos_mysql_file(pos) && !rc_pos_mysql_offset(pos)) {
        s->snap_acked = rc_pos_mysql_snapshot_rows(pos);
        return;
    }
    acknowledge(s, pos);
}

/* The pipeline's sink state at `pos` goes into the checkpoint written there; the state where
 * the run starts (pos NULL) is stored at once: a run taking its snapshot writes a checkpoint
 * without position (my_checkpoint.h), so that the next one, which takes the snapshot again,
 * cuts the file back to what it held before the snapshot. */
static void my_ack_state(rc_source *src, const rc_pos *pos, const char *state)
{
    my_source *s = (my_source *)src;
    char *t = strdup(state);
    if (!t) return; /* nothing moves: the checkpoint stays behind, with its sizes */
    free(s->acked.sink);
    s->acked.sink = t;
    if (pos) {
        my_ack(src, pos);
        return;
    }
    if (!s->cfg.checkpoint) return;
    if ((s->ph == PH_SNAPSHOT || s->ph == PH_SNAPSHOT_ACK) && t[0]) { /* (no file: nothing to cut back) */
        rc_my_checkpoint begun = {.file = "", .gtids = "", .sink = t};
        rc_error err;
        rc_error_clear(&err);
        if (rc_my_checkpoint_write(s->cfg.checkpoint, s->url.shown, &begun, &err) != RC_OK)
            notice(s, "warning: %s (the previous checkpoint stays)", err.message);
    } else if (s->acked_pos.kind) {
        write_checkpoint(s);
    }
}

static const char *my_stored_state(const rc_source *src) { return ((const my_source *)src)->stored_sink; }

static void my_progress(const rc_source *src, uint64_t *size, uint64_t *start)
{
    (void)src;
    *size = 0, *start = 0;
}

static void my_close(rc_source *src)
{
    my_source *s = (my_source *)src;
    if (!s) return;
    rc_my_stream_close(s->stream);
    rc_my_snap_reader_free(s->reader);
    if (s->sql) mysql_close(s->sql); /* an open read view goes with the session */
    rc_my_tables_free(s->tables, s->ntables);
    rc_my_decoder_free(s->dec);
    rc_my_history_free(s->hist);
    rc_my_snap_pos_fini(&s->snap);
    for (size_t i = 0; i < s->qn; i++) boundary_free(&s->q[i]);
    free(s->q);
    rc_my_checkpoint_fini(&s->acked);
    free(s->stored_sink);
    free(s->file), free(s->gtids);
    free(s->ahead), free(s->ahead_fields), free(s->ahead_lens);
    rc_db_batches_fini(&s->batches); /* the decoders still waiting to be freed */
    rc_colcache_free(s->cols);
    rc_my_url_fini(&s->url);
    free(s);
}

uint32_t rc_my_default_server_id(const char *host, unsigned port, const char *checkpoint)
{
    char key[4600];
    snprintf(key, sizeof key, "%s:%u:%s", host, port, checkpoint ? checkpoint : "");
    uint32_t h = 2166136261u; /* FNV-1a */
    for (const char *p = key; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
    /* above the small ids people give their servers by hand, below 2^31 */
    return 1000000u + h % 2000000000u;
}

/* The history from information_schema now, and the structures of the tables to read. */
static rc_status load_structures(my_source *s, const rc_source_config *cfg, rc_error *err)
{
    if (rc_my_tables_load(s->sql, &s->url, s->hist, cfg->accept, cfg->accept_ctx, &s->tables, &s->ntables, err) != RC_OK)
        return err->code;
    for (size_t i = 0; i < s->ntables; i++)
        if (s->tables[i].included) s->tables_included++, s->snap_estimate += s->tables[i].rows_estimate;
    for (size_t k = 0; k < s->cfg.ninclude; k++) { /* each pattern that matched no table, as PostgreSQL's */
        const char *p = s->cfg.include[k];
        size_t i = 0;
        while (i < s->ntables && !rc_table_pattern_match(p, s->tables[i].t->db.p, s->tables[i].t->db.n,
                                                         s->tables[i].t->name.p, s->tables[i].t->name.n))
            i++;
        if (i < s->ntables) continue;
        char msg[600];
        rc_table_pattern_unmatched(msg, sizeof msg, p, s->url.shown, "databases");
        notice(s, "warning: %s; a table created later is captured from its CREATE TABLE", msg);
    }
    return RC_OK;
}

/* SHOW MASTER STATUS: the end of the binlog now, with the GTID set there. */
static rc_status binlog_end(my_source *s, char *file, size_t cap, uint64_t *offset, char **gtids, rc_error *err)
{
    MYSQL_RES *r = NULL;
    if (mysql_query(s->sql, "SHOW MASTER STATUS") && mysql_query(s->sql, "SHOW BINARY LOG STATUS"))
        return rc_my_fail(s->sql, &s->url, "SHOW MASTER STATUS", err);
    r = mysql_store_result(s->sql);
    MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
    if (!row) {
        if (r) mysql_free_result(r);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "SHOW MASTER STATUS on %s gives no binlog: is log_bin on?", s->url.shown);
    }
    snprintf(file, cap, "%s", row[0]);
    *offset = strtoull(row[1], NULL, 10);
    const char *g = !s->srv.mariadb && mysql_num_fields(r) >= 5 ? row[4] : NULL;
    rc_status st = set_text(gtids, g, err);
    mysql_free_result(r);
    if (st == RC_OK && s->srv.mariadb) {
        if (rc_my_select(s->sql, &s->url, "SELECT @@global.gtid_binlog_pos", &r, err) != RC_OK) return err->code;
        row = mysql_fetch_row(r);
        st = set_text(gtids, row ? row[0] : "", err);
        mysql_free_result(r);
    }
    if (st == RC_OK && *gtids) /* MySQL breaks the set's lines after commas */
        for (char *p = *gtids, *d = *gtids;; p++) {
            if (*p != '\n') *d++ = *p;
            if (!*p) break;
        }
    return st;
}

/* --start: where a run without checkpoint streams from. */
static rc_status start_position(my_source *s, const char *spec, rc_error *err)
{
    char file[256];
    uint64_t off = 4;
    char *g = NULL;
    if (!spec || !strcmp(spec, "current")) {
        if (binlog_end(s, file, sizeof file, &off, &g, err) != RC_OK) return err->code;
        rc_status st = hand(s, file, off, g, err);
        free(g);
        return st;
    }
    if (!strcmp(spec, "earliest")) {
        MYSQL_RES *r;
        if (rc_my_select(s->sql, &s->url, "SHOW BINARY LOGS", &r, err) != RC_OK) return err->code;
        MYSQL_ROW row = mysql_fetch_row(r);
        snprintf(file, sizeof file, "%s", row && row[0] ? row[0] : "");
        mysql_free_result(r);
        return hand(s, file, 4, "", err);
    }
    const char *colon = strrchr(spec, ':');
    if (colon && memchr(spec, '.', (size_t)(colon - spec)) && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        snprintf(file, sizeof file, "%.*s", (int)(colon - spec), spec);
        return hand(s, file, strtoull(colon + 1, NULL, 10), "", err);
    }
    rc_my_gtid_set *set = rc_my_gtid_set_new();
    if (!set) return nomem(err);
    rc_error gerr;
    rc_error_clear(&gerr);
    rc_status st = rc_my_gtid_set_parse(set, spec, strlen(spec), &gerr);
    rc_my_gtid_set_free(set);
    if (st != RC_OK)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--start is current, earliest, FILE:POS (mysql-bin.000003:4) or a GTID set, not '%s' (%s)", spec,
                            gerr.message);
    if (!s->srv.mariadb)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--start with a GTID set needs MariaDB: give MySQL a FILE:POS (SHOW BINARY LOGS)");
    s->by_gtid = true;
    return hand(s, "", 4, spec, err);
}

/* A checkpoint file: where to resume, with the history as it was there. */
static rc_status resume(my_source *s, const rc_my_checkpoint *ck, rc_error *err)
{
    if (rc_my_history_read(s->hist, ck->history, ck->history_len, err) != RC_OK) {
        char why[sizeof err->message];
        snprintf(why, sizeof why, "%s", err->message);
        rc_error_clear(err);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "checkpoint %s: its schema history: %s", s->cfg.checkpoint, why);
    }
    if (hand(s, ck->file, ck->offset, ck->gtids, err) != RC_OK) return err->code;
    s->by_gtid = s->srv.mariadb && ck->gtids[0];
    notice(s, "resuming from checkpoint %s at %s:%" PRIu64 "%s%s%s", s->cfg.checkpoint, ck->file, ck->offset,
           s->by_gtid ? " (GTID " : "", s->by_gtid ? ck->gtids : "", s->by_gtid ? ")" : "");
    if (s->cfg.start) notice(s, "--start %s ignored: the checkpoint says where to resume", s->cfg.start);
    if (s->cfg.snapshot == RC_SNAPSHOT_INITIAL || s->cfg.snapshot == RC_SNAPSHOT_INITIAL_ONLY)
        notice(s, "no snapshot: the checkpoint says where to resume (remove it to take a new one)");
    s->acked.file = strdup(ck->file), s->acked.gtids = strdup(ck->gtids), s->acked.offset = ck->offset;
    s->acked.history = malloc(ck->history_len + 1);
    if (!s->acked.file || !s->acked.gtids || !s->acked.history) return nomem(err);
    memcpy(s->acked.history, ck->history, ck->history_len + 1);
    s->acked.history_len = ck->history_len;
    if (ck->sink && (!(s->stored_sink = strdup(ck->sink)) || !(s->acked.sink = strdup(ck->sink)))) return nomem(err);
    s->acked_pos = s->handed;
    s->ph = PH_STREAM_START;
    return RC_OK;
}

static rc_status setup(my_source *s, const rc_source_config *cfg, rc_error *err)
{
    if (rc_my_url_parse(cfg->urls[0], &s->url, err) != RC_OK) return err->code;
    rc_status st = rc_my_connect(&s->url, &s->sql, err);
    if (st == RC_ERR_RETRY) err->code = st = RC_ERR_IO;
    if (st != RC_OK) return st;
    if (rc_my_server_check(s->sql, &s->url, &s->srv, s->cfg.notice, s->cfg.notice_ctx, err) != RC_OK) return err->code;
    s->version = (rc_str){s->srv.version, strlen(s->srv.version)};
    s->server_id = s->cfg.server_id ? s->cfg.server_id : rc_my_default_server_id(s->url.host, s->url.port, s->cfg.checkpoint);
    if (!s->cfg.server_id)
        notice(s, "replica server id %" PRIu32 " (derived from the host, port and checkpoint path; --server-id to choose one: "
               "each replica of a server needs its own)", s->server_id);
    if (s->cfg.until_caught_up) {
        char *g = NULL;
        st = binlog_end(s, s->until_file, sizeof s->until_file, &s->until_off, &g, err);
        free(g);
        if (st != RC_OK) return st;
        s->until = true;
    }
    rc_my_checkpoint ck;
    if (s->cfg.checkpoint) {
        st = rc_my_checkpoint_read(s->cfg.checkpoint, &ck, err);
        if (st == RC_OK && rc_my_checkpoint_snapshot_begun(&ck)) { /* a snapshot cut short: taken again */
            notice(s, "checkpoint %s: the snapshot the last run began was not delivered: taking it again", s->cfg.checkpoint);
            s->stored_sink = ck.sink, ck.sink = NULL;
            rc_my_checkpoint_fini(&ck);
        } else if (st == RC_OK) {
            st = resume(s, &ck, err);
            rc_my_checkpoint_fini(&ck);
            return st;
        } else if (st != RC_SKIP) {
            return st;
        }
    }
    bool snapshot = s->cfg.snapshot == RC_SNAPSHOT_INITIAL || s->cfg.snapshot == RC_SNAPSHOT_INITIAL_ONLY ||
                    (s->cfg.snapshot == RC_SNAPSHOT_AUTO && !s->cfg.start);
    if (snapshot && s->cfg.start)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--start and --snapshot %s: a snapshot streams from its own position (use --snapshot never "
                            "with --start)", s->cfg.snapshot == RC_SNAPSHOT_INITIAL_ONLY ? "initial_only" : "initial");
    if (!s->cfg.checkpoint && s->cfg.snapshot != RC_SNAPSHOT_INITIAL_ONLY) /* a restart starts over: said once */
        notice(s, "no --checkpoint: every run %s, not where the last one stopped (--checkpoint PATH keeps the "
               "position)", snapshot ? "takes a new snapshot (every row again) and streams from it"
               : s->cfg.start ? "streams from --start" : "streams from the binlog's end");
    if (!snapshot) {
        /* the structures as they are now: a --start in the past decodes with them (documented) */
        if (load_structures(s, cfg, err) != RC_OK || start_position(s, s->cfg.start, err) != RC_OK ||
            checkpoint_here(s, err) != RC_OK)
            return err->code;
        s->ph = PH_STREAM_START;
        return RC_OK;
    }
    if (rc_my_snapshot_begin(s->sql, &s->url, s->srv.mariadb, &s->snap, err) != RC_OK) return err->code;
    s->view_open = true;
    if (load_structures(s, cfg, err) != RC_OK || hand(s, s->snap.file, s->snap.offset, s->snap.gtids, err) != RC_OK)
        return err->code;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    s->snap_us = (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
    s->ph = PH_SNAPSHOT;
    if (snapshot_fetch(s, err) != RC_OK) return err->code;
    if (!s->has_ahead) s->ph = PH_SNAPSHOT_ACK;
    return RC_OK;
}

static const rc_source_ops *ops_of(const char *url)
{
    return strncmp(url, "mariadb://", 10) == 0 ? &rc_source_mariadb : &rc_source_mysql;
}

static rc_status my_open(const rc_source_config *cfg, const rc_pos *resume_pos, rc_source **out, rc_error *err)
{
    (void)resume_pos; /* the checkpoint file is the source's own */
    if (!cfg->capture) {
        char shown[512];
        rc_my_url_redact(cfg->urls[0], shown, sizeof shown);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s is a database: use rowcast capture", shown);
    }
    my_source *s = calloc(1, sizeof *s);
    if (!s) return nomem(err);
    s->base.ops = ops_of(cfg->urls[0]);
    s->cfg = *cfg->capture;
    s->stop = cfg->stop;
    s->server = (rc_str){s->cfg.server ? s->cfg.server : "rowcast", strlen(s->cfg.server ? s->cfg.server : "rowcast")};
    bool batches = rc_db_batches_init(&s->batches, cfg->accept, cfg->accept_ctx);
    s->hist = rc_my_history_new();
    s->cols = rc_colcache_new();
    rc_status st = batches && s->hist && s->cols ? setup(s, cfg, err) : nomem(err);
    if (st != RC_OK) {
        my_close(&s->base);
        return st;
    }
    s->acked_all = true;
    *out = &s->base;
    return RC_OK;
}

static void my_stats(const rc_source *src, rc_source_stats *out)
{
    const my_source *s = (const my_source *)src;
    memset(out, 0, sizeof *out);
    out->has_ack_position = s->acked_pos.kind != 0;
    out->ack_position = rc_pos_mysql_offset(&s->acked_pos);
    snprintf(out->ack_position_text, sizeof out->ack_position_text, "%s:%" PRIu64, s->acked.file ? s->acked.file : "",
             s->acked.offset);
    out->in_snapshot = s->ph == PH_SNAPSHOT || s->ph == PH_SNAPSHOT_ACK;
    out->snapshot_tables_total = s->tables_included;
    out->snapshot_tables_done = s->tables_done;
    out->snapshot_rows_read = s->snap_rows;
    out->snapshot_rows_estimate = s->snap_estimate;
}

static bool my_waiting(const rc_source *src)
{
    const my_source *s = (const my_source *)src;
    if (s->ph == PH_SNAPSHOT_ACK) return true;
    if (s->ph != PH_STREAM) return false;
    rc_my_decoder_pos p;
    rc_my_decoder_position(s->dec, &p);
    return at_target(s, p.in_transaction);
}

#define MY_SOURCE_OPS(var, nm, prefix)                                                                                 \
    const rc_source_ops var = {.name = nm,                                                                             \
                               .scheme = prefix,                                                                       \
                               .open = my_open,                                                                        \
                               .next = my_next,                                                                        \
                               .release = my_release,                                                                  \
                               .ack = my_ack,                                                                          \
                               .ack_state = my_ack_state,                                                              \
                               .stored_state = my_stored_state,                                                        \
                               .progress = my_progress,                                                                \
                               .close = my_close,                                                                      \
                               .stats = my_stats,                                                                      \
                               .waiting = my_waiting,                                                              \
                               .two_batches = true}
MY_SOURCE_OPS(rc_source_mysql, "mysql", "mysql://");
MY_SOURCE_OPS(rc_source_mariadb, "mariadb", "mariadb://");
