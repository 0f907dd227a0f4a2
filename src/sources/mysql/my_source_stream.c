/* The MySQL/MariaDB source's binlog stream: the decoder, starting and restarting the stream
 * (lost connections, purged binlogs), and the batches of items its events make. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errmsg.h>
#include "sources/mysql/my_ddl_fallback.h"
#include "sources/mysql/my_source_int.h"

/* ---- stream ---- */

static void decoder_free(void *d) { rc_my_decoder_free(d); }

static rc_status decoder_start(my_source *s, rc_error *err)
{
    /* the events handed out point at the decoder (the file name, the column lists): it goes
     * once their batches came back */
    rc_db_batches_later(&s->db.batches, decoder_free, s->dec);
    s->dec = NULL;
    rc_my_decoder_config dc = {.file = s->file ? s->file : "", .server = s->server, .history = s->hist, .cols = s->cols,
                               .with_query = s->with_query, .ddl_unapplied = rc_my_ddl_unapplied, .ddl_ctx = s}; /* a DDL never stops a capture */
    if (rc_my_decoder_new(&dc, &s->dec, err) != RC_OK) return err->code;
    if (s->gtids && s->gtids[0]) {
        rc_my_gtid_set *g = rc_my_gtid_set_new();
        if (!g) return rc_my_source_nomem(err);
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
    rc_my_source_notice(s, "%s; reconnecting in %d ms (resuming at %s:%" PRIu64 "%s%s)", why->message, s->backoff_ms, s->file, s->offset,
           s->by_gtid && s->gtids[0] ? ", GTID " : "", s->by_gtid ? s->gtids : "");
    s->retry_at = rc_db_now_s() + s->backoff_ms / 1000.0;
    rc_db_source_lost(&s->db);
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
        if (found) moved = rc_my_source_hand(s, row[0], 4, s->gtids, &e) == RC_OK;
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
        s->db.ph = PH_STREAM_START;
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

rc_status rc_my_source_stream_start(void *arg, rc_error *err)
{
    my_source *s = arg;
    if (rc_db_now_s() < s->retry_at) return RC_OK;
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
    if (s->backoff_ms) rc_my_source_notice(s, "binlog stream from %s resumed", s->url.shown);
    s->backoff_ms = 0;
    s->db.ph = PH_STREAM;
    return RC_OK;
}

/* At the --until target: no transaction open, everything up to it read, and no incremental
 * snapshot left to do (its chunks need the stream to go on past the target). */
bool rc_my_source_at_target(const my_source *s, bool in_tx)
{
    if (!s->until || in_tx || rc_my_incsnap_working(s)) return false;
    return rc_my_binlog_compare(s->file ? s->file : "", s->offset, s->until_file, s->until_off) >= 0;
}

/* Caught up to --until: at the target and everything acknowledged. */
static bool caught_up(const my_source *s, bool in_tx) { return s->db.acked_all && rc_my_source_at_target(s, in_tx); }

/* Row events among the batch's events from `first` on: --max-events counts them; a DDL means
 * the next boundary kept carries the history. */
static void count_events(my_source *s, size_t first)
{
    const rc_batch *b = rc_db_batch(&s->db.batches);
    for (size_t i = first; i < b->events.count; i++) {
        rc_op op = b->events.items[i].op;
        if (op == RC_OP_DDL) s->hist_dirty = true;
        if (op == RC_OP_DDL) rc_my_incsnap_after_ddl(s, &b->events.items[i]);
        if (op == RC_OP_INSERT || op == RC_OP_UPDATE || op == RC_OP_DELETE) s->row_events++;
    }
    if (s->cfg.max_events && s->row_events >= s->cfg.max_events) s->db.ph = PH_DONE;
}

/* One binlog event: its events as an item. */
static rc_status binlog_event(my_source *s, const rc_my_raw_event *raw, bool *in_tx, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->db.batches);
    size_t first = b->events.count;
    rc_source_item *it = rc_my_source_item_new(s);
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
        rc_status hs = g.err ? rc_my_source_nomem(err) : rc_my_source_hand(s, p.file, p.offset, g.data, err);
        rc_buf_fini(&g);
        if (hs != RC_OK) return hs;
    }
    if (s->inc) rc_my_incsnap_streamed(s, first, *in_tx);
    if (st == RC_OK && s->inc && rc_my_incsnap_signals(s, first, err) != RC_OK) return err->code;
    if (st != RC_OK) rc_my_source_item_bad(s, it, &ierr, raw->data, raw->n);
    else if (rc_db_item_none(b, it, raw->n)) return RC_OK; /* no event (FORMAT_DESCRIPTION, TABLE_MAP, GTID...) */
    rc_my_source_item_end(s, it);
    /* ordered by the transaction's first event (the boundary before it: its end is not known yet) */
    rc_db_item_order(&s->db, it, 'm', 'e', rc_pos_mysql_file(&before), rc_pos_mysql_offset(&before));
    count_events(s, first);
    /* an event that did not end a transaction (or a DDL) is inside one: its position is the
     * boundary before it. Every other item's end is kept, so that each position the sink may
     * be marked at is one a checkpoint can be stored at, with the sink's sizes there */
    it->inside = rc_pos_equal(&it->end, &before);
    if (!it->inside && rc_my_source_keep_boundary(s, err) != RC_OK) return err->code;
    return RC_OK;
}

rc_status rc_my_source_stream_batch(void *arg, int timeout_ms, rc_error *err)
{
    my_source *s = arg;
    rc_batch *b = rc_db_batch(&s->db.batches);
    int wait = timeout_ms;
    bool in_tx = false;
    rc_my_decoder_pos p;
    rc_my_decoder_position(s->dec, &p);
    in_tx = p.in_transaction;
    while (!rc_batch_full(b) && s->db.ph == PH_STREAM) { /* two batches are out at a time: a few MB */
        if (caught_up(s, in_tx)) {
            s->db.ph = PH_DONE;
            break;
        }
        /* at the target, waiting only for the sink's acknowledgement: nothing past it is read
         * (it is the next run's; the checkpoint stays at the target) */
        if (rc_my_source_at_target(s, in_tx)) {
            if (!b->n) rc_db_phase_nap(wait < 10 ? wait : 10);
            break;
        }
        if (s->inc && rc_my_incsnap_tick(s, in_tx, false, err) != RC_OK) return err->code;
        /* a chunk's rows first: the stream waits; and they may have filled the batch */
        if (rc_my_incsnap_pending(s) || rc_batch_full(b)) break;
        rc_my_raw_event raw;
        bool got;
        unsigned server_errno;
        rc_error rerr;
        rc_error_clear(&rerr);
        /* the stream is waited for only by an empty batch with no chunk to read: a chunk's last
         * rows in the batch go out now, and an idle stream does not hold the next chunk back by
         * the poll's timeout */
        if (b->n || rc_my_incsnap_ready(s)) wait = 0;
        rc_status st = rc_my_stream_next(s->stream, wait, &raw, &got, &server_errno, &rerr);
        wait = 0;
        if (st != RC_OK) {
            if (stream_failed(s, server_errno, &rerr, err) != RC_OK) return err->code;
            break;
        }
        if (!got) { /* caught up: the next chunk of an incremental snapshot */
            if (s->inc && rc_my_incsnap_tick(s, in_tx, true, err) != RC_OK) return err->code;
            break;
        }
        if (binlog_event(s, &raw, &in_tx, err) != RC_OK) return err->code;
    }
    if (s->db.ph != PH_STREAM_START && rc_my_source_keep_boundary(s, err) != RC_OK) return err->code;
    /* nothing in flight: the checkpoint may move past events that made no item */
    if (!b->n && s->db.acked_all && !in_tx && s->qn) {
        rc_pos h = s->handed;
        rc_my_incsnap_captured_ack(s, &h);
        rc_my_source_acknowledge(s, &h);
    }
    return RC_OK;
}

