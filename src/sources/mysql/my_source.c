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
 * With --snapshot incremental (MariaDB), the first run streams from the binlog's end at once and
 * queues every included table for an incremental snapshot (my_incsnap.c): chunks whose progress
 * is in the checkpoint, so a restart goes on at the next chunk.
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
 * next run starts it again).
 *
 * This file holds the source interface; the helpers its parts share, the snapshot, the
 * checkpoints and the stream are in my_source_common.c, my_source_snapshot.c,
 * my_source_checkpoint.c and my_source_stream.c (my_source_int.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <errmsg.h>
#include "sources/mysql/my_source_decl.h"
#include "sources/mysql/my_source_int.h"

/* ---- the source interface ---- */

static rc_status checkpoint_start(my_source *s, rc_error *err);

static rc_status snapshot_done(void *p, rc_error *err)
{
    my_source *s = p;
    if (rc_my_snapshot_end(s->sql, &s->url, err) != RC_OK) return err->code;
    s->view_open = false;
    if (s->cfg.snapshot == RC_SNAPSHOT_INITIAL_ONLY) {
        /* delivered whole: the checkpoint without position (my_ack_state) has nothing to
         * cut back to any more, and no stream follows */
        if (s->store && s->acked.sink && s->acked.sink[0]) {
            rc_error cerr;
            rc_error_clear(&cerr);
            if (rc_state_store_clear(s->store, &cerr) != RC_OK) rc_my_source_notice(s, "warning: %s", cerr.message);
        }
        s->db.ph = PH_DONE;
        return RC_OK;
    }
    if (checkpoint_start(s, err) != RC_OK) return err->code;
    rc_my_source_notice(s, "snapshot of %zu table%s (%" PRIu64 " row%s) delivered; streaming from %s:%" PRIu64, s->tables_included,
           s->tables_included == 1 ? "" : "s", s->db.snap_rows, s->db.snap_rows == 1 ? "" : "s", s->file, s->offset);
    s->db.ph = PH_STREAM_START;
    s->retry_at = 0;
    return RC_OK;
}

/* The phases' work for the driver (sources/db_phases.c). */
static const rc_db_phase_ops phase_ops = {rc_my_source_snapshot_batch, snapshot_done, rc_my_source_stream_start,
                                          rc_my_source_stream_batch};

static void my_ack(rc_source *src, const rc_pos *pos)
{
    my_source *s = (my_source *)src;
    if (pos->kind != RC_POS_MYSQL) return;
    bool snapshot = !rc_pos_mysql_file(pos) && !rc_pos_mysql_offset(pos);
    if (!rc_db_source_ack(&s->db, pos, snapshot, rc_pos_mysql_snapshot_rows(pos))) return;
    rc_my_incsnap_captured_ack(s, pos);
    rc_my_source_acknowledge(s, pos);
}

/* The stream starts at the handed boundary with nothing in flight: the checkpoint there
 * (rc_my_source_checkpoint_here), its state with the tables captured. */
static rc_status checkpoint_start(my_source *s, rc_error *err)
{
    s->hist_dirty = true;
    if (rc_my_source_keep_boundary(s, err) != RC_OK) return err->code;
    rc_pos p = s->handed;
    rc_my_incsnap_captured_ack(s, &p);
    return rc_my_source_checkpoint_here(s, err);
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
    if ((s->db.ph == PH_SNAPSHOT || s->db.ph == PH_SNAPSHOT_ACK) && t[0]) { /* (no file: nothing to cut back) */
        rc_my_checkpoint begun = {.file = "", .gtids = "", .sink = t};
        rc_my_source_save_checkpoint(s, &begun);
    } else if (s->acked_pos.kind) {
        rc_my_source_write_checkpoint(s);
    }
}

static const char *my_stored_state(const rc_source *src) { return ((const my_source *)src)->stored_sink; }
static bool my_resumed(const rc_source *src) { return ((const my_source *)src)->from_checkpoint; }

static void my_close(rc_source *src)
{
    my_source *s = (my_source *)src;
    if (!s) return;
    rc_my_stream_close(s->stream);
    rc_my_snap_reader_free(s->reader);
    rc_my_incsnap_free(s);
    if (s->sql) mysql_close(s->sql); /* an open read view goes with the session */
    rc_my_tables_free(s->tables, s->ntables);
    rc_my_decoder_free(s->dec);
    rc_my_history_free(s->hist);
    rc_my_snap_pos_fini(&s->snap);
    for (size_t i = 0; i < s->qn; i++) rc_my_source_boundary_free(&s->q[i]);
    free(s->q);
    rc_my_checkpoint_fini(&s->acked);
    rc_my_source_checkpoint_fini(s);
    rc_state_store_close(s->store);
    free(s->stored_sink);
    free(s->file), free(s->gtids);
    free(s->ahead), free(s->ahead_fields), free(s->ahead_lens);
    rc_db_batches_fini(&s->db.batches); /* the decoders still waiting to be freed */
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
    for (size_t i = 0; i < s->ntables; i++) {
        /* the signal table is rowcast's, not the application's: read only when --include names it */
        if (rc_my_incsnap_signal_only(s, s->tables[i].t->db, s->tables[i].t->name)) s->tables[i].included = false;
        if (s->tables[i].included) s->tables_included++, s->snap_estimate += s->tables[i].rows_estimate;
    }
    for (size_t k = 0; k < s->cfg.ninclude; k++) { /* each pattern that matched no table, as PostgreSQL's */
        const char *p = s->cfg.include[k];
        size_t i = 0;
        while (i < s->ntables && !rc_table_pattern_match(p, s->tables[i].t->db.p, s->tables[i].t->db.n,
                                                         s->tables[i].t->name.p, s->tables[i].t->name.n))
            i++;
        if (i < s->ntables) continue;
        char msg[600];
        rc_table_pattern_unmatched(msg, sizeof msg, p, s->url.shown, "databases");
        rc_my_source_notice(s, "warning: %s; a table created later is captured from its CREATE TABLE", msg);
    }
    return RC_OK;
}

/* A table of a million rows or more in the initial snapshot: one line on why a kill starts it over. */
static void big_table_notice(my_source *s)
{
    size_t big = s->ntables;
    for (size_t i = 0; i < s->ntables; i++)
        if (s->tables[i].included && s->tables[i].rows_estimate >= 1000000 &&
            (big == s->ntables || s->tables[i].rows_estimate > s->tables[big].rows_estimate))
            big = i;
    if (big == s->ntables) return;
    const rc_my_table *t = s->tables[big].t;
    rc_my_source_notice(s, "snapshot of %.*s.%.*s (~%" PRIu64 " rows) in one read view: a run killed during it takes it again from "
                        "the first row (the view ends with its session and cannot be opened again at its position); "
                        "--snapshot incremental reads it in chunks that resume after a kill", (int)t->db.n, t->db.p, (int)t->name.n,
                        t->name.p, s->tables[big].rows_estimate);
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
    rc_status st = rc_my_source_set_text(gtids, g, err);
    mysql_free_result(r);
    if (st == RC_OK && s->srv.mariadb) {
        if (rc_my_select(s->sql, &s->url, "SELECT @@global.gtid_binlog_pos", &r, err) != RC_OK) return err->code;
        row = mysql_fetch_row(r);
        st = rc_my_source_set_text(gtids, row ? row[0] : "", err);
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
        rc_status st = rc_my_source_hand(s, file, off, g, err);
        free(g);
        return st;
    }
    if (!strcmp(spec, "earliest")) {
        MYSQL_RES *r;
        if (rc_my_select(s->sql, &s->url, "SHOW BINARY LOGS", &r, err) != RC_OK) return err->code;
        MYSQL_ROW row = mysql_fetch_row(r);
        snprintf(file, sizeof file, "%s", row && row[0] ? row[0] : "");
        mysql_free_result(r);
        return rc_my_source_hand(s, file, 4, "", err);
    }
    const char *colon = strrchr(spec, ':');
    if (colon && memchr(spec, '.', (size_t)(colon - spec)) && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        snprintf(file, sizeof file, "%.*s", (int)(colon - spec), spec);
        return rc_my_source_hand(s, file, strtoull(colon + 1, NULL, 10), "", err);
    }
    rc_my_gtid_set *set = rc_my_gtid_set_new();
    if (!set) return rc_my_source_nomem(err);
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
    return rc_my_source_hand(s, "", 4, spec, err);
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
    if (rc_my_source_hand(s, ck->file, ck->offset, ck->gtids, err) != RC_OK) return err->code;
    s->by_gtid = s->srv.mariadb && ck->gtids[0];
    rc_my_source_notice(s, "resuming from checkpoint %s at %s:%" PRIu64 "%s%s%s", s->cfg.checkpoint, ck->file, ck->offset,
           s->by_gtid ? " (GTID " : "", s->by_gtid ? ck->gtids : "", s->by_gtid ? ")" : "");
    if (ck->history_at.hash[0])
        rc_my_source_notice(s, "checkpoint %s: its schema history %s read from %zu chunks (%zu bytes)", s->cfg.checkpoint, ck->history_at.hash,
                            ck->history_at.chunks, ck->history_len);
    if (s->cfg.start) rc_my_source_notice(s, "--start %s ignored: the checkpoint says where to resume", s->cfg.start);
    if (s->cfg.snapshot == RC_SNAPSHOT_INITIAL || s->cfg.snapshot == RC_SNAPSHOT_INITIAL_ONLY)
        rc_my_source_notice(s, "no snapshot: the checkpoint says where to resume (remove it to take a new one)");
    s->acked.file = strdup(ck->file), s->acked.gtids = strdup(ck->gtids), s->acked.offset = ck->offset;
    s->acked.history = malloc(ck->history_len + 1);
    if (!s->acked.file || !s->acked.gtids || !s->acked.history) return rc_my_source_nomem(err);
    memcpy(s->acked.history, ck->history, ck->history_len + 1);
    s->acked.history_len = ck->history_len;
    if (ck->sink && (!(s->stored_sink = strdup(ck->sink)) || !(s->acked.sink = strdup(ck->sink)))) return rc_my_source_nomem(err);
    if (ck->snapshot) { /* kept as it is until the state moves (a run without -o mysql.signal.table too) */
        if (!(s->acked.snapshot = malloc(ck->snapshot_len + 1))) return rc_my_source_nomem(err);
        memcpy(s->acked.snapshot, ck->snapshot, ck->snapshot_len + 1);
        s->acked.snapshot_len = ck->snapshot_len;
    }
    s->acked_pos = s->handed;
    s->db.ph = PH_STREAM_START;
    s->from_checkpoint = true;
    return RC_OK;
}

static rc_status setup(my_source *s, const rc_source_config *cfg, rc_error *err)
{
    if (rc_my_url_parse(cfg->urls[0], &s->url, err) != RC_OK) return err->code;
    rc_status st = rc_my_connect(&s->url, &s->sql, err);
    if (st == RC_ERR_RETRY) err->code = st = RC_ERR_IO;
    if (st != RC_OK) return st;
    if (rc_my_server_check(s->sql, &s->url, &s->srv, s->cfg.notice, s->cfg.notice_ctx, err) != RC_OK) return err->code;
    /* before anything is written (--snapshot incremental writes its first checkpoint here) */
    if (rc_my_incsnap_check(s, err) != RC_OK) return err->code;
    s->version = (rc_str){s->srv.version, strlen(s->srv.version)};
    s->server_id = s->cfg.server_id ? s->cfg.server_id : rc_my_default_server_id(s->url.host, s->url.port, s->cfg.checkpoint);
    if (!s->cfg.server_id)
        rc_my_source_notice(s, "replica server id %" PRIu32 " (derived from the host, port and checkpoint path; --server-id to choose one: "
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
        st = rc_my_checkpoint_load(s->store, &ck, err);
        if (st == RC_OK && rc_my_checkpoint_snapshot_begun(&ck)) { /* a snapshot cut short: taken again */
            rc_my_source_notice(s, "checkpoint %s: the snapshot the last run began was not delivered: taking it again", s->cfg.checkpoint);
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
    bool incremental = s->cfg.snapshot == RC_SNAPSHOT_INCREMENTAL;
    bool snapshot = s->cfg.snapshot == RC_SNAPSHOT_INITIAL || s->cfg.snapshot == RC_SNAPSHOT_INITIAL_ONLY ||
                    (s->cfg.snapshot == RC_SNAPSHOT_AUTO && !s->cfg.start);
    if ((snapshot || incremental) && s->cfg.start)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--start and --snapshot %s: a snapshot streams from its own position (use --snapshot never "
                            "with --start)", incremental ? "incremental" : s->cfg.snapshot == RC_SNAPSHOT_INITIAL_ONLY ? "initial_only" : "initial");
    if (!s->cfg.checkpoint && s->cfg.snapshot != RC_SNAPSHOT_INITIAL_ONLY) /* a restart starts over: said once */
        rc_my_source_notice(s, "no --checkpoint: every run %s, not where the last one stopped (--checkpoint PATH keeps the "
               "position)", snapshot ? "takes a new snapshot (every row again) and streams from it"
               : incremental ? "streams from the binlog's end and takes a new incremental snapshot (every row again): it is not resumable"
               : s->cfg.start ? "streams from --start" : "streams from the binlog's end");
    if (!snapshot) {
        /* the structures as they are now: a --start in the past decodes with them (documented);
         * --snapshot incremental: every included table queued, the stream from the end at once */
        if (load_structures(s, cfg, err) != RC_OK || start_position(s, s->cfg.start, err) != RC_OK ||
            (incremental && rc_my_incsnap_queue_included(s, err) != RC_OK) || checkpoint_start(s, err) != RC_OK)
            return err->code;
        s->db.ph = PH_STREAM_START;
        return RC_OK;
    }
    if (rc_my_snapshot_begin(s->sql, &s->url, s->srv.mariadb, &s->snap, err) != RC_OK) return err->code;
    s->view_open = true;
    if (load_structures(s, cfg, err) != RC_OK || rc_my_source_hand(s, s->snap.file, s->snap.offset, s->snap.gtids, err) != RC_OK)
        return err->code;
    big_table_notice(s);
    s->snap_us = rc_db_wall_us();
    s->db.ph = PH_SNAPSHOT;
    if (rc_my_source_snapshot_fetch(s, err) != RC_OK) return err->code;
    if (!s->has_ahead) s->db.ph = PH_SNAPSHOT_ACK;
    return RC_OK;
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
    if (!s) return rc_my_source_nomem(err);
    s->db.base.ops = &rc_source_mysql;
    s->db.phase_ops = &phase_ops;
    s->cfg = *cfg->capture;
    s->stop = cfg->stop;
    s->server = (rc_str){s->cfg.server ? s->cfg.server : "rowcast", strlen(s->cfg.server ? s->cfg.server : "rowcast")};
    if (s->cfg.checkpoint && rc_state_store_open(s->cfg.checkpoint, "checkpoint", s->cfg.server, "state", cfg->opts, cfg->stop, &s->store, err) != RC_OK)
        return rc_db_source_opened(&s->db, err->code, out);
    if (rc_my_incsnap_new(s, cfg, err) != RC_OK) return rc_db_source_opened(&s->db, err->code, out);
    /* the rows' statements (ANNOTATE_ROWS / ROWS_QUERY) when the output writes them */
    static const char *const wants_query[] = {"debezium.include.query", "maxwell.output_row_query"};
    for (size_t i = 0; i < sizeof wants_query / sizeof *wants_query; i++) {
        const char *v = rc_options_get(cfg->opts, wants_query[i]);
        if (v && !strcmp(v, "true")) s->with_query = true;
    }
    bool batches = s->inc ? rc_db_batches_init(&s->db.batches, rc_my_incsnap_accept, s)
                          : rc_db_batches_init(&s->db.batches, cfg->accept, cfg->accept_ctx);
    s->hist = rc_my_history_new();
    s->cols = rc_colcache_new();
    rc_status st = batches && s->hist && s->cols ? setup(s, cfg, err) : rc_my_source_nomem(err);
    if (st == RC_OK && s->from_checkpoint) st = rc_my_incsnap_resume(s, err);
    if (st == RC_OK && s->from_checkpoint) st = rc_my_incsnap_newly_included(s, err);
    if (st == RC_OK) st = rc_my_incsnap_live_init(s, err);
    return rc_db_source_opened(&s->db, st, out);
}

static void my_stats(const rc_source *src, rc_source_stats *out)
{
    const my_source *s = (const my_source *)src;
    memset(out, 0, sizeof *out);
    out->has_ack_position = s->acked_pos.kind != 0;
    out->ack_position = rc_pos_mysql_offset(&s->acked_pos);
    snprintf(out->ack_position_text, sizeof out->ack_position_text, "%s:%" PRIu64, s->acked.file ? s->acked.file : "",
             s->acked.offset);
    rc_db_snapshot_stats(out, &s->db, s->tables_included, s->tables_done, s->snap_estimate);
    rc_my_incsnap_stats(s, out);
}

static bool my_waiting(const rc_source *src)
{
    const my_source *s = (const my_source *)src;
    if (s->db.ph == PH_SNAPSHOT_ACK) return true;
    if (s->db.ph != PH_STREAM) return false;
    if (rc_my_incsnap_waiting(s)) return true; /* the next chunk of an incremental snapshot */
    rc_my_decoder_pos p;
    rc_my_decoder_position(s->dec, &p);
    return rc_my_source_at_target(s, p.in_transaction);
}

const rc_source_ops rc_source_mysql = {.name = "mysql",
                                       RC_MY_SOURCE_DECL,
                                       .open = my_open,
                                       .next = rc_db_source_next,
                                       .release = rc_db_source_release,
                                       .ack = my_ack,
                                       .ack_state = my_ack_state,
                                       .stored_state = my_stored_state,
                                       .resumed = my_resumed,
                                       .progress = rc_db_source_progress,
                                       .close = my_close,
                                       .stats = my_stats,
                                       .waiting = my_waiting,
                                       .two_batches = true};
