/* The PostgreSQL source (rowcast/source.h, docs/sources/postgres.md): a snapshot of the
 * publication's tables, then the slot's pgoutput stream, as batches of items the pipeline
 * encodes and sends; the flush LSN the server gets is the end of the last transaction whose
 * every event the sink acknowledged (`ack`).
 *
 * Phases. With a new slot and --snapshot initial, a TEMPORARY slot is created with an
 * exported snapshot, which a REPEATABLE READ transaction on the SQL session adopts; every
 * table is read with COPY (one read event per row). Once the sink acknowledged every snapshot
 * row, the temporary slot is copied to the permanent one (pg_copy_logical_replication_slot:
 * same consistent point) and the stream starts there. A run that dies during the snapshot
 * leaves no slot behind (a temporary slot dies with its session), so the next run takes the
 * snapshot again, whole: never a gap. --snapshot initial_only stops after the snapshot and
 * never creates the permanent slot; never streams from the slot as it is (created without
 * snapshot when missing). An existing slot is streamed from its confirmed position.
 *
 * Items. Each pgoutput message that makes events is one item; its position is the end LSN of
 * the last Commit handed out up to and including it (mid-transaction items carry the last
 * transaction's: acknowledging them moves nothing new). Snapshot rows carry LSN 0 and their
 * number. When no transaction is open and the sink acknowledged every item, a keepalive's
 * end of WAL is acknowledged too, so an idle table never holds WAL back.
 *
 * Faults. A lost connection while streaming is retried with backoff (the notice says why and
 * when), resuming after the last Commit handed out: the sink has all before it, and a
 * transaction cut off in the middle comes again whole (its first part twice). During the
 * snapshot it is fatal (the next run starts it again). */
#include "sources/db_phases.h"
#include "sources/pg/pg_source.h"
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "sources/pg/pg_catalog.h"
#include "sources/pg/pg_conn.h"
#include "sources/pg/pg_copy.h"
#include "sources/pg/pg_events.h"
#include "sources/pg/pg_incsnap.h"
#include "sources/pg/pg_newtables.h"
#include "sources/pg/pg_publication.h"
#include "sources/pg/pg_source_decl.h"

typedef struct pg_source {
    rc_db_source db; /* the phase, the batches, the acknowledgements (sources/db_phases.h) */
    rc_capture_config cfg;
    volatile sig_atomic_t *stop;
    rc_pg_conn *conn;
    rc_pg_types *types;
    rc_pgo_decoder *dec;
    rc_pg_events *ev;
    char shown[512]; /* the URL without password: the name items (and errors) carry */
    char temp_slot[64];
    char companion[RC_PG_PUB_MAX]; /* the publication's companion, read beside it ("": none) */
    /* snapshot */
    rc_pg_table *tables;
    size_t ntables, table_i, tables_done;
    bool copying;      /* a COPY of tables[table_i] runs */
    char *ahead;       /* the next row, read ahead (to mark the last one), or NULL */
    int ahead_len;
    size_t ahead_table;
    size_t last_table; /* the table of the last row handed out */
    uint64_t snap_estimate;
    int64_t snap_us; /* when the snapshot was taken (wall clock): the change time of its rows */
    char snap_lsn[RC_PG_LSN_MAX]; /* its consistent point: the LSN of its rows, as Debezium's */
    /* stream */
    uint64_t handed_lsn; /* end LSN of the last Commit handed out */
    uint64_t pending_lsn; /* a streamed transaction being released: its end LSN */
    double status_at;     /* when a status update went out while releasing one */
    uint64_t acked_lsn;  /* the last position the pipeline acknowledged */
    uint64_t ack_later;  /* one acknowledged while reconnecting, for the new stream */
    uint64_t until_lsn;  /* stop once caught up to here (0: never) */
    uint64_t wal_end;    /* the server's, from its last keepalive */
    bool past_target;    /* a transaction committed at or after --until began: it is not handed */
    uint64_t row_events;
    int backoff_ms;
    double retry_at;
    double heartbeat_at;
    uint64_t resume_lsn; /* the slot's confirmed position at open, when it existed (0: a fresh start) */
    bool pub_created;    /* the publication was created by this run */
    /* incremental snapshots (-o postgres.signal.table; NULL: none): the items of a chunk's rows
     * are (L, k), L the end LSN of the high watermark's Commit, k = 1, 2, ... */
    rc_pg_incsnap *inc;
    uint64_t inc_lsn, inc_k;
    rc_pg_newtables *nt; /* tables that start to match --include (NULL: initial_only) */
} pg_source;

static rc_status pg_fail(rc_error *err, rc_pg_rc rc)
{
    if (rc == RC_PG_RETRY) err->code = RC_ERR_RETRY;
    return err->code ? err->code : RC_ERR_IO;
}

/* ---- items ---- */

static rc_source_item *item_new(pg_source *s) { return rc_db_item_new(&s->db, s->shown); }

static void item_end(pg_source *s, rc_source_item *it)
{
    bool stream = s->db.ph == PH_STREAM; /* order key: a change's is its commit LSN, a snapshot row's 0 */
    rc_db_item_end(&s->db, it, stream ? rc_pos_pg(s->handed_lsn, 0) : rc_pos_pg(0, s->db.snap_rows));
    rc_db_item_order(&s->db, it, 'p', stream ? 'e' : 's', stream ? rc_pg_events_order_lsn(s->ev) : 0, 0);
}

/* A bad item: its events dropped, the error kept, and a line for the dead-letter file. */
static void item_bad(pg_source *s, rc_source_item *it, const rc_error *err, const uint8_t *msg, size_t len,
                     bool hex)
{
    rc_batch *b = rc_db_batch(&s->db.batches);
    /* a dead-letter line of its own: the COPY line as it came, or the message as hex */
    size_t need = 64 + 2 * len + 2;
    if (!rc_db_item_bad(b, it, err, need)) return;
    if (hex) {
        char lsn[RC_PG_LSN_MAX];
        rc_pg_lsn_format(s->handed_lsn, lsn);
        b->len += (size_t)snprintf(b->text + b->len, need, "pgoutput after %s:", lsn);
        rc_db_item_hex(b, msg, len);
    } else {
        memcpy(b->text + b->len, msg, len);
        b->len += len;
    }
    rc_db_item_line_end(b, it);
}

/* ---- snapshot ---- */

/* COPY (SELECT the columns FROM the table) TO STDOUT for tables[i]. */
static rc_status copy_start(pg_source *s, size_t i, rc_error *err)
{
    PGconn *sql = rc_pg_sql(s->conn);
    const rc_pg_relation *rel = s->tables[i].rel;
    size_t cap = 256;
    for (uint16_t k = 0; k < rel->ncols; k++) cap += 2 * strlen(rel->cols[k].name) + 4;
    cap += 2 * (strlen(rel->nspname) + strlen(rel->relname)) + 8;
    char *q = malloc(cap);
    if (!q) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    size_t n = (size_t)snprintf(q, cap, "COPY (SELECT ");
    for (uint16_t k = 0; k < rel->ncols; k++) {
        char *id = PQescapeIdentifier(sql, rel->cols[k].name, strlen(rel->cols[k].name));
        n += (size_t)snprintf(q + n, cap - n, "%s%s", k ? ", " : "", id ? id : "");
        PQfreemem(id);
    }
    char *ns = PQescapeIdentifier(sql, rel->nspname, strlen(rel->nspname));
    char *tb = PQescapeIdentifier(sql, rel->relname, strlen(rel->relname));
    snprintf(q + n, cap - n, " FROM %s%s.%s) TO STDOUT", s->tables[i].relkind == 'p' ? "" : "ONLY ", ns ? ns : "",
             tb ? tb : "");
    PQfreemem(ns);
    PQfreemem(tb);
    PGresult *r = PQexec(sql, q);
    free(q);
    if (PQresultStatus(r) != PGRES_COPY_OUT) {
        const char *state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        bool denied = state && !strcmp(state, "42501"); /* insufficient_privilege: the role's to fix */
        char why[200], fix[300] = "";
        const char *primary = PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY);
        snprintf(why, sizeof why, "%s", primary ? primary : PQresultErrorMessage(r));
        why[strcspn(why, "\n")] = '\0';
        if (denied) snprintf(fix, sizeof fix, " (GRANT SELECT ON %s.%s TO %s)", rel->nspname, rel->relname, PQuser(sql));
        rc_error_set(err, denied ? RC_ERR_USAGE : RC_ERR_IO, RC_NO_OFFSET, "snapshot of %s.%s on %s: %s%s", rel->nspname,
                     rel->relname, s->shown, why, fix);
        PQclear(r);
        return err->code;
    }
    PQclear(r);
    s->copying = true;
    return RC_OK;
}

/* Reads the next snapshot row into s->ahead (NULL after the last row of the last table). */
static rc_status snapshot_fetch(pg_source *s, rc_error *err)
{
    PGconn *sql = rc_pg_sql(s->conn);
    PQfreemem(s->ahead);
    s->ahead = NULL;
    while (s->table_i < s->ntables) {
        if (!s->copying && copy_start(s, s->table_i, err) != RC_OK) return err->code;
        char *buf = NULL;
        int n = PQgetCopyData(sql, &buf, 0);
        if (n > 0) {
            s->ahead = buf, s->ahead_len = n, s->ahead_table = s->table_i;
            return RC_OK;
        }
        PGresult *r = PQgetResult(sql);
        bool ok = n == -1 && PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok) {
            const rc_pg_relation *rel = s->tables[s->table_i].rel;
            rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                         "snapshot of %s.%s on %s interrupted: %s (run again: the snapshot starts over)",
                         rel->nspname, rel->relname, s->shown, r ? PQresultErrorMessage(r) : PQerrorMessage(sql));
            err->message[strcspn(err->message, "\n")] = '\0';
        }
        PQclear(r);
        while ((r = PQgetResult(sql))) PQclear(r);
        if (!ok) return RC_ERR_IO;
        s->copying = false;
        s->table_i++;
        s->tables_done++;
    }
    return RC_OK;
}

/* Debezium 2.x's snapshot marker (RelationalSnapshotChangeEventSource.setSnapshotMarker) of a
 * row of tables[ti]: the last row of the last table "last", the first of the first table "first",
 * then the last and the first of any table "last_in_data_collection" and
 * "first_in_data_collection", the others "true". The last row of all is always "last" (Debezium
 * makes a final "true" "last"; rowcast also when the tables after it are empty, so that a
 * consumer waiting for "last" gets it). Encoders for Debezium 1.x write the three 2.x markers
 * as "true" (docs/sources/postgres.md). */
static const char *snapshot_mark(const pg_source *s, size_t ti, bool first_in_table, bool last_in_table)
{
    if (!s->ahead) return "last";
    if (last_in_table && ti + 1 == s->ntables) return "last";
    if (first_in_table && ti == 0) return "first";
    if (last_in_table) return "last_in_data_collection";
    if (first_in_table) return "first_in_data_collection";
    return "true";
}

static rc_status snapshot_batch(void *p, rc_error *err)
{
    pg_source *s = p;
    rc_batch *b = rc_db_batch(&s->db.batches);
    while (b->n < RC_DB_BATCH_ITEMS && s->ahead) {
        if (*s->stop) return RC_OK;
        const rc_pg_table *t = &s->tables[s->ahead_table];
        rc_source_item *it = item_new(s);
        rc_pgo_tuple row;
        rc_error ierr;
        rc_error_clear(&ierr);
        size_t len = (size_t)s->ahead_len - (s->ahead[s->ahead_len - 1] == '\n');
        rc_status st = rc_pg_copy_row(&b->arena, t->rel, s->ahead, len, &row, &ierr);
        if (st == RC_OK) st = rc_pg_events_read(s->ev, t->rel, &row, &b->arena, &b->events, &ierr);
        if (st != RC_OK) item_bad(s, it, &ierr, (const uint8_t *)s->ahead, len, false);
        else it->raw = (size_t)s->ahead_len;
        size_t ti = s->ahead_table;
        bool first = s->db.snap_rows == 0 || s->last_table != ti;
        s->last_table = ti;
        s->db.snap_rows++;
        if (snapshot_fetch(s, err) != RC_OK) return err->code;
        if (st == RC_OK) {
            rc_event *ev = &b->events.items[b->events.count - 1];
            const char *m = snapshot_mark(s, ti, first, !s->ahead || s->ahead_table != ti);
            ev->snapshot = (rc_str){m, strlen(m)};
            ev->ts_us = s->snap_us, ev->has_ts = true;
            ev->pos.lsn = (rc_str){s->snap_lsn, strlen(s->snap_lsn)};
        }
        item_end(s, it);
        if (st == RC_OK && s->cfg.max_events && ++s->row_events >= s->cfg.max_events) {
            s->db.ph = PH_DONE;
            return RC_OK;
        }
    }
    if (!s->ahead) {
        PQclear(PQexec(rc_pg_sql(s->conn), "COMMIT"));
        s->db.ph = PH_SNAPSHOT_ACK;
    }
    return RC_OK;
}

/* Every snapshot row is acknowledged: make the slot permanent (or stop: initial_only). */
static rc_status snapshot_done(void *p, rc_error *err)
{
    pg_source *s = p;
    if (s->cfg.snapshot == RC_SNAPSHOT_INITIAL_ONLY) {
        s->db.ph = PH_DONE;
        return RC_OK;
    }
    rc_pg_rc rc = rc_pg_slot_copy(s->conn, s->temp_slot, s->cfg.slot, err);
    if (rc != RC_PG_OK) return pg_fail(err, rc);
    rc_pg_repl_reset(s->conn); /* drops the temporary slot */
    rc_db_notice(s->cfg.notice, s->cfg.notice_ctx, 300,
                 "snapshot of %zu table%s (%" PRIu64 " row%s) delivered; replication slot %s created", s->ntables,
                 s->ntables == 1 ? "" : "s", s->db.snap_rows, s->db.snap_rows == 1 ? "" : "s", s->cfg.slot);
    s->db.ph = PH_STREAM_START;
    s->retry_at = 0;
    return RC_OK;
}

/* ---- stream ---- */

/* A notice through the capture configuration's (rc_db_notice, up to 600 bytes). */
#define notice(s, ...) rc_db_notice((s)->cfg.notice, (s)->cfg.notice_ctx, 600, __VA_ARGS__)

/* The connection went away while streaming: start again after a pause. */
static void lost(pg_source *s, const rc_error *why)
{
    rc_pg_repl_reset(s->conn);
    rc_pgo_session_reset(s->dec);
    rc_pg_events_session_reset(s->ev);
    s->backoff_ms = s->backoff_ms ? (s->backoff_ms * 2 > 10000 ? 10000 : s->backoff_ms * 2) : 100;
    char lsn[RC_PG_LSN_MAX];
    rc_pg_lsn_format(s->handed_lsn, lsn);
    notice(s, "%s; reconnecting in %d ms (resuming after LSN %s)", why->message, s->backoff_ms, lsn);
    s->retry_at = rc_db_now_s() + s->backoff_ms / 1000.0;
    rc_db_source_lost(&s->db);
}

static rc_status stream_start(void *p, rc_error *err)
{
    pg_source *s = p;
    if (rc_db_now_s() < s->retry_at) return RC_OK;
    rc_pg_stream_opts o = {.slot = s->cfg.slot,
                           .publication = s->cfg.publication,
                           .publication2 = s->companion,
                           .start_lsn = s->handed_lsn,
                           .proto_version = s->cfg.streaming ? 2 : 1,
                           .streaming = s->cfg.streaming,
                           .messages = s->inc != NULL};
    rc_pg_rc rc = rc_pg_stream_start(s->conn, &o, err);
    if (rc == RC_PG_RETRY) {
        lost(s, err);
        rc_error_clear(err);
        return RC_OK;
    }
    if (rc != RC_PG_OK) return pg_fail(err, rc);
    if (s->backoff_ms) notice(s, "replication from %s resumed", s->shown);
    s->backoff_ms = 0;
    s->db.ph = PH_STREAM;
    if (s->ack_later > s->acked_lsn && rc_pg_stream_ack(s->conn, s->ack_later, err) == RC_PG_OK) s->acked_lsn = s->ack_later;
    rc_error_clear(err); /* a failure is the connection's: the next read finds it */
    return RC_OK;
}

/* At the --until target: everything committed before it handed out and nothing open, or the
 * next transaction commits at or after it; never while an incremental snapshot works. Nothing
 * more is read from here (the changes after the target are the next run's). */
static bool at_target(const pg_source *s)
{
    return s->until_lsn && !rc_pg_incsnap_working(s->inc) && (s->past_target || (rc_pg_events_idle(s->ev) && (s->handed_lsn >= s->until_lsn || s->wal_end >= s->until_lsn)));
}

/* Caught up to --until: at the target and everything handed out acknowledged. */
static bool caught_up(const pg_source *s) { return s->db.acked_all && at_target(s); }

/* Commits at or after --until: its Begin (or Stream Commit) is not handed, and reading stops. */
static bool after_target(pg_source *s, const rc_pgo_msg *m)
{
    uint64_t lsn = m->kind == RC_PGO_BEGIN ? m->u.begin.final_lsn : m->kind == RC_PGO_STREAM_COMMIT ? m->u.commit.commit_lsn : 0;
    if (!s->until_lsn || !lsn || lsn < s->until_lsn || rc_pg_events_pending(s->ev) || rc_pg_incsnap_working(s->inc)) return false;
    s->past_target = true;
    return true;
}

static void keepalive(pg_source *s, const rc_pg_msg *m)
{
    s->wal_end = m->wal_end;
    if (!rc_pg_events_idle(s->ev) || !s->db.acked_all) return;
    /* nothing in flight: the server may let go of the WAL up to here (idle tables) */
    rc_error err;
    rc_error_clear(&err);
    if (s->inc && rc_pg_incsnap_acked(s->inc, m->wal_end, 0, &err) != RC_OK) return; /* said; the slot waits */
    if (m->wal_end > s->acked_lsn && rc_pg_stream_ack(s->conn, m->wal_end, &err) == RC_PG_OK) s->acked_lsn = m->wal_end;
}

/* Row events among the batch's events from `first` on: --max-events counts them. */
static void count_rows(pg_source *s, size_t first)
{
    const rc_batch *b = rc_db_batch(&s->db.batches);
    for (size_t i = first; i < b->events.count; i++) {
        rc_op op = b->events.items[i].op;
        if (op != RC_OP_BEGIN && op != RC_OP_COMMIT) s->row_events++;
    }
    if (s->cfg.max_events && s->row_events >= s->cfg.max_events) s->db.ph = PH_DONE;
}

/* The events of one stream item, from `first` on, for the incremental snapshot. */
static rc_status incsnap_events(pg_source *s, size_t first, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->db.batches); /* without --include, signal rows are rowcast's: taken out */
    return s->inc ? rc_pg_incsnap_on_events(s->inc, &b->events, first, s->cfg.ninclude == 0, err) : RC_OK;
}

/* The next row (or table edge) of an emitted chunk as one item at (L, k). */
static rc_status incsnap_item(pg_source *s, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->db.batches);
    size_t first = b->events.count;
    rc_source_item *it = item_new(s);
    if (rc_pg_incsnap_next(s->inc, &b->arena, &b->events, err) != RC_OK) return err->code;
    if (s->inc_lsn != s->handed_lsn) s->inc_lsn = s->handed_lsn, s->inc_k = 0;
    rc_db_item_end(&s->db, it, rc_pos_pg(s->handed_lsn, ++s->inc_k));
    rc_db_item_order(&s->db, it, 'p', 'a', s->handed_lsn, 0); /* after HW's transaction, before the next's */
    count_rows(s, first);
    return RC_OK;
}

static rc_status message(pg_source *s, const rc_pg_msg *m, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->db.batches);
    rc_pgo_msg msg;
    rc_error ierr;
    rc_error_clear(&ierr);
    size_t first = b->events.count;
    rc_source_item *it = item_new(s);
    uint64_t before = s->handed_lsn;
    rc_status st = rc_pgo_decode(s->dec, m->data, m->len, m->wal_start, &b->arena, &msg, &ierr);
    if (st == RC_OK && msg.kind == RC_PGO_TYPE) {
        rc_pg_rc rc = rc_pg_catalog_types(s->conn, s->types, msg.u.type.type->oid, err);
        if (rc != RC_PG_OK) return pg_fail(err, rc);
    }
    if (st == RC_OK && after_target(s, &msg)) {
        b->n--; /* the next run's */
        return RC_OK;
    }
    if (st == RC_OK && s->inc && rc_pg_incsnap_on_message(s->inc, &msg, err) != RC_OK) return err->code;
    if (st == RC_OK) st = rc_pg_events_add(s->ev, &msg, m->data, m->len, &b->arena, &b->events, &ierr);
    if (st == RC_OK && incsnap_events(s, first, err) != RC_OK) return err->code;
    if (st == RC_OK && (msg.kind == RC_PGO_COMMIT || msg.kind == RC_PGO_STREAM_COMMIT)) {
        if (rc_pg_events_pending(s->ev)) s->pending_lsn = msg.u.commit.end_lsn; /* released over the next items */
        else s->handed_lsn = msg.u.commit.end_lsn;
        if (!rc_pg_events_pending(s->ev) && s->inc && rc_pg_incsnap_commit(s->inc, s->handed_lsn, err) != RC_OK) return err->code;
    }
    if (st != RC_OK) item_bad(s, it, &ierr, m->data, m->len, true);
    else if (rc_db_item_none(b, it, m->len)) return RC_OK; /* no event (Relation, Type, Origin...) */
    item_end(s, it);
    it->inside = s->handed_lsn == before; /* no Commit: its position is the last one's */
    count_rows(s, first);
    return RC_OK;
}

/* The next events of a committed streamed transaction (rc_pg_events_pending) as one item;
 * the last one, with the COMMIT, moves the position to its end. */
static rc_status drain(pg_source *s, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->db.batches);
    size_t first = b->events.count;
    rc_source_item *it = item_new(s);
    rc_error ierr;
    rc_error_clear(&ierr);
    /* 16 per item: a batch of 64 items holds about as many events as one of streamed messages */
    if (rc_pg_events_drain(s->ev, 16, &b->arena, &b->events, &ierr) != RC_OK) {
        *err = ierr; /* the transaction cannot be released: stop rather than skip part of it */
        return err->code;
    }
    if (incsnap_events(s, first, err) != RC_OK) return err->code;
    uint64_t before = s->handed_lsn;
    if (!rc_pg_events_pending(s->ev)) {
        s->handed_lsn = s->pending_lsn;
        if (s->inc && rc_pg_incsnap_commit(s->inc, s->handed_lsn, err) != RC_OK) return err->code;
    }
    item_end(s, it);
    it->inside = s->handed_lsn == before;
    count_rows(s, first);
    /* the server hears from us while a large transaction is released (wal_sender_timeout) */
    double t = rc_db_now_s();
    if (t - s->status_at >= 1) {
        s->status_at = t;
        rc_error aerr;
        rc_error_clear(&aerr);
        (void)rc_pg_stream_ack(s->conn, s->acked_lsn, &aerr); /* the same position: moves nothing */
    }
    return RC_OK;
}

static rc_status heartbeat(pg_source *s, rc_error *err)
{
    double t = rc_db_now_s();
    if (!s->cfg.heartbeat_s || t < s->heartbeat_at || rc_pg_incsnap_pending(s->inc)) return RC_OK; /* (a chunk's read ahead) */
    s->heartbeat_at = t + s->cfg.heartbeat_s;
    /* a non-transactional logical message: WAL the slot can move past when nothing else comes */
    PGresult *r = PQexec(rc_pg_sql(s->conn), "SELECT pg_catalog.pg_logical_emit_message(false, 'rowcast.heartbeat', '')");
    bool ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    if (!ok) notice(s, "heartbeat on %s failed: %s", s->shown, PQresultErrorMessage(r));
    PQclear(r);
    (void)err;
    return RC_OK;
}

static rc_status stream_batch(void *p, int timeout_ms, rc_error *err)
{
    pg_source *s = p;
    rc_batch *b = rc_db_batch(&s->db.batches);
    int wait = timeout_ms;
    if (heartbeat(s, err) != RC_OK) return err->code;
    while (b->n < RC_DB_BATCH_ITEMS && b->events.count < RC_BATCH_EVENTS && s->db.ph == PH_STREAM) {
        if (rc_pg_incsnap_pending(s->inc)) { /* a chunk's rows, then the next chunk read ahead: before the next message */
            if ((rc_pg_incsnap_rows(s->inc) ? incsnap_item(s, err) : rc_pg_incsnap_read_end(s->inc, err)) != RC_OK) return err->code;
            continue;
        }
        if (caught_up(s)) {
            s->db.ph = PH_DONE;
            break;
        }
        if (at_target(s)) { /* waiting only for the sink's acknowledgement: read no further */
            if (!b->n) rc_db_phase_nap(wait < 10 ? wait : 10);
            break;
        }
        if (rc_pg_events_pending(s->ev)) {
            if (drain(s, err) != RC_OK) return err->code;
            continue;
        }
        rc_pg_msg m;
        rc_error rerr;
        rc_error_clear(&rerr);
        rc_pg_rc rc = rc_pg_stream_read(s->conn, &m, wait, &rerr);
        wait = 0;
        if (rc == RC_PG_TIMEOUT) { /* caught up: new tables, the next chunk of an incremental snapshot */
            if (s->nt && rc_pg_newtables_poll(s->nt, &rerr) != RC_PG_OK) notice(s, "%s", rerr.message);
            if (s->inc && rc_pg_incsnap_step(s->inc, err) != RC_OK) return err->code;
            break;
        }
        if (rc == RC_PG_RETRY) {
            lost(s, &rerr);
            break;
        }
        if (rc != RC_PG_OK) {
            *err = rerr;
            return pg_fail(err, rc);
        }
        if (m.kind == 'k') {
            keepalive(s, &m);
            continue;
        }
        if (message(s, &m, err) != RC_OK) return err->code;
    }
    return RC_OK;
}

/* ---- the source interface ---- */

/* The phases' work for the driver (sources/db_phases.c). */
static const rc_db_phase_ops phase_ops = {snapshot_batch, snapshot_done, stream_start, stream_batch};

static void pg_ack(rc_source *src, const rc_pos *pos)
{
    pg_source *s = (pg_source *)src;
    if (pos->kind != RC_POS_PG_LSN) return;
    uint64_t lsn = rc_pos_pg_lsn(pos);
    if (!rc_db_source_ack(&s->db, pos, !lsn, rc_pos_pg_snapshot_rows(pos))) return;
    rc_error err;
    rc_error_clear(&err);
    /* the snapshot state as of pos is stored before the slot hears of it (said when it cannot be) */
    if ((s->inc && rc_pg_incsnap_acked(s->inc, lsn, rc_pos_pg_snapshot_rows(pos), &err) != RC_OK) || lsn <= s->acked_lsn) return;
    if (s->db.ph == PH_STREAM_START) { /* reconnecting: told once the stream runs again */
        if (lsn > s->ack_later) s->ack_later = lsn;
        return;
    }
    /* PH_DONE too: --max-events and --until end the phase before the last items are acknowledged */
    if (s->db.ph != PH_STREAM && s->db.ph != PH_DONE) return;
    /* a failure is the connection's: the next read finds it and reconnects */
    if (rc_pg_stream_ack(s->conn, lsn, &err) == RC_PG_OK) s->acked_lsn = lsn;
}

/* Where a file sink is cut back to: rc_pg_state_cut_at (pg_state.h says why). */
static bool pg_resumes_at(const rc_source *src, rc_pos *pos)
{
    const pg_source *s = (const pg_source *)src;
    rc_pg_state_pos at = rc_pg_state_cut_at(s->resume_lsn, s->inc ? rc_pg_incsnap_state_at(s->inc) : (rc_pg_state_pos){0, 0});
    *pos = rc_pos_pg(at.lsn, at.k);
    return s->resume_lsn != 0;
}

static void pg_close(rc_source *src)
{
    pg_source *s = (pg_source *)src;
    if (!s) return;
    PQfreemem(s->ahead);
    rc_pg_tables_free(s->tables, s->ntables);
    rc_pg_incsnap_free(s->inc);
    rc_pg_newtables_free(s->nt);
    rc_pg_events_free(s->ev);
    rc_pgo_free(s->dec);
    rc_pg_close(s->conn); /* a temporary slot goes with the session */
    rc_pg_types_free(s->types);
    rc_db_batches_fini(&s->db.batches);
    free(s);
}

/* rc_pg_key_fn: a snapshot table's key was read before its COPY; a streamed relation's is
 * read when its first change comes (the SQL session is free then). */
static bool primary_key(void *ud, const rc_pg_relation *rel, uint16_t *rank, bool *not_null, char **dflts)
{
    pg_source *s = ud;
    for (size_t i = 0; i < s->ntables; i++)
        if (s->tables[i].rel == rel) {
            const rc_pg_table *t = &s->tables[i];
            for (uint16_t k = 0; t->dflts && k < rel->ncols; k++) dflts[k] = t->dflts[k] ? strdup(t->dflts[k]) : NULL;
            if (t->pk_rank) memcpy(rank, t->pk_rank, rel->ncols * sizeof *rank);
            return t->pk_rank != NULL;
        }
    if (s->copying) return false;
    bool found = false;
    rc_error err;
    rc_error_clear(&err);
    if (rc_pg_catalog_primary_key(s->conn, rel, rank, not_null, dflts, &found, &err) != RC_PG_OK) {
        notice(s, "warning: %s: the events of %s.%s have no key columns", err.message, rel->nspname, rel->relname);
        return false;
    }
    return found;
}

/* a publication made by someone else: rowcast never puts such a table in one it creates */
static void warn_identity(void *ud, const char *schema, const char *table, char relreplident)
{
    char fix[600];
    rc_pg_identity_fix(fix, sizeof fix, schema, table, relreplident);
    notice((pg_source *)ud,
           "warning: table %s.%s has no replica identity (%s: while a publication publishes its UPDATEs and "
           "DELETEs, PostgreSQL refuses them (\"cannot update table ... because it does not have a replica "
           "identity\")",
           schema, table, fix);
}

/* -o postgres.signal.table: the incremental snapshots' side (pg_incsnap.h). */
static rc_status incsnap_options(const rc_options *opts, rc_pg_capture_options *po, rc_error *err)
{
    memset(po, 0, sizeof *po);
    return opts && rc_options_parse(opts, "postgres", rc_pg_options, po, err) != RC_OK ? err->code : RC_OK;
}

static rc_status incsnap_open(pg_source *s, const rc_options *opts, rc_error *err)
{
    rc_pg_capture_options po;
    if (incsnap_options(opts, &po, err) != RC_OK) return err->code;
    if (!po.signal_table && s->cfg.snapshot != RC_SNAPSHOT_INCREMENTAL) return RC_OK;
    rc_pg_incsnap_opts io = {.signal_table = po.signal_table,
                             .chunk_rows = po.chunk_rows ? (size_t)po.chunk_rows : RC_PG_INCSNAP_CHUNK_ROWS,
                             .flush = po.flush, .read_ahead = po.read_ahead,
                             .publication = s->cfg.publication,
                             .companion = s->companion,
                             .notice = s->cfg.notice,
                             .notice_ud = s->cfg.notice_ctx,
                             .slot = s->cfg.slot, .state_path = s->cfg.checkpoint,
                             .home = {s->cfg.server, opts, s->stop}};
    rc_pg_rc rc = rc_pg_incsnap_new(s->conn, &io, s->pub_created, &s->inc, err);
    return rc == RC_PG_OK ? RC_OK : pg_fail(err, rc);
}

/* --snapshot initial reads in one transaction: a large table's snapshot is said to start over
 * after a kill (one line, at its start). */
static void say_not_resumable(pg_source *s)
{
    for (size_t i = 0; i < s->ntables; i++)
        if (s->tables[i].reltuples >= 1e6) {
            const rc_pg_relation *rel = s->tables[i].rel;
            notice(s, "snapshot of %s.%s (~%.0f rows) is one transaction on a temporary slot: a kill starts it again from "
                   "its first row; --snapshot incremental resumes at the next chunk (docs/sources/postgres.md)", rel->nspname,
                   rel->relname, s->tables[i].reltuples);
            return;
        }
}

/* --snapshot incremental without a slot: every captured table queued (refused here, naming it,
 * when it cannot be read in chunks), the queue written to the state file, then the slot made
 * permanent without a snapshot: the stream starts at once, the tables come in chunks. */
static rc_status incremental_start(pg_source *s, rc_error *err)
{
    size_t n = 0;
    uint64_t rows = 0;
    rc_pg_slot slot;
    if (rc_pg_incsnap_queue_all(s->inc, s->cfg.include, s->cfg.ninclude, &n, &rows, err) != RC_OK ||
        rc_pg_incsnap_save(s->inc, err) != RC_OK)
        return err->code;
    rc_pg_rc rc = rc_pg_slot_create(s->conn, s->cfg.slot, false, false, &slot, err);
    if (rc != RC_PG_OK) return pg_fail(err, rc);
    notice(s, "replication slot %s created; streaming from it now, and %zu table%s (~%" PRIu64 " rows) read in chunks "
           "meanwhile (--snapshot incremental; progress in %s)", s->cfg.slot, n, n == 1 ? "" : "s", rows,
           rc_pg_incsnap_state_path(s->inc));
    s->db.ph = PH_STREAM_START;
    return RC_OK;
}

/* Connects and decides the phase: snapshot on a temporary slot, or the stream of the slot. */
static rc_status setup(pg_source *s, const char *url, const rc_options *opts, rc_error *err)
{
    rc_pg_opts po = {.notice = s->cfg.notice ? (void (*)(void *, const char *))s->cfg.notice : NULL,
                     .notice_ud = s->cfg.notice_ctx, .take_slot = s->cfg.take_over};
    rc_pg_rc rc = rc_pg_open(url, &po, &s->conn, err);
    if (rc != RC_PG_OK) return pg_fail(err, rc);
    snprintf(s->shown, sizeof s->shown, "%s", rc_pg_url(s->conn));
    rc_pg_capture_options io;
    if (incsnap_options(opts, &io, err) != RC_OK) return err->code;
    if (io.signal_table && (rc = rc_pg_incsnap_table_exists(s->conn, io.signal_table, err)) != RC_PG_OK) return pg_fail(err, rc);
    rc_pg_newtables_opts no = {s->cfg.publication, s->cfg.include, s->cfg.ninclude,
                               io.signal_table || s->cfg.snapshot == RC_SNAPSHOT_INCREMENTAL, s->cfg.checkpoint, s->cfg.slot,
                               {s->cfg.server, opts, s->stop}, po.notice, po.notice_ud};
    if (s->cfg.snapshot != RC_SNAPSHOT_INITIAL_ONLY && (rc = rc_pg_newtables_new(s->conn, &no, &s->nt, err)) != RC_PG_OK)
        return pg_fail(err, rc);
    rc = rc_pg_publication_ensure(s->conn, s->cfg.publication, s->cfg.include, s->cfg.ninclude,
                                  s->cfg.no_identity_inserts, &s->pub_created, err);
    if (rc != RC_PG_OK) return pg_fail(err, rc);
    if (s->nt && s->pub_created) rc_pg_newtables_created(s->nt);
    if ((rc = rc_pg_publication_companion_find(s->conn, s->cfg.publication, s->companion, err)) != RC_PG_OK)
        return pg_fail(err, rc);
    if (incsnap_open(s, opts, err) != RC_OK) return err->code; /* before any slot is made */
    if ((rc = rc_pg_tables_without_identity(s->conn, s->cfg.publication, warn_identity, s, err)) != RC_PG_OK ||
        (rc = rc_pg_catalog_types(s->conn, s->types, 0, err)) != RC_PG_OK)
        return pg_fail(err, rc);
    rc_pg_slot slot;
    bool found = false;
    if (s->cfg.snapshot != RC_SNAPSHOT_INITIAL_ONLY &&
        (rc = rc_pg_slot_find(s->conn, s->cfg.slot, &slot, &found, err)) != RC_PG_OK)
        return pg_fail(err, rc);
    if (s->inc && rc_pg_incsnap_resume(s->inc, found, err) != RC_OK) return err->code; /* before the stream starts */
    if (s->nt && (rc = rc_pg_newtables_start(s->nt, s->inc, found, err)) != RC_PG_OK) return pg_fail(err, rc);
    if (s->cfg.until_caught_up && (rc = rc_pg_wal_lsn(s->conn, &s->until_lsn, err)) != RC_PG_OK)
        return pg_fail(err, rc);
    if (s->cfg.until_lsn) s->until_lsn = s->cfg.until_lsn;
    if (found) {
        char lsn[RC_PG_LSN_MAX];
        rc_pg_lsn_format(slot.confirmed_lsn, lsn);
        bool inc = s->cfg.snapshot == RC_SNAPSHOT_INCREMENTAL;
        if (s->cfg.snapshot == RC_SNAPSHOT_INITIAL || (inc && !rc_pg_incsnap_active(s->inc)))
            notice(s, "replication slot %s exists: streaming from its position (LSN %s), no snapshot%s%s%s; drop the slot "
                   "to take a new one", s->cfg.slot, lsn, inc ? " (none in progress in the state file " : "",
                   inc ? rc_pg_incsnap_state_path(s->inc) : "", inc ? ")" : "");
        s->resume_lsn = slot.confirmed_lsn;
        s->db.ph = PH_STREAM_START;
        return RC_OK;
    }
    if (s->cfg.snapshot == RC_SNAPSHOT_INCREMENTAL) return incremental_start(s, err);
    if (s->cfg.snapshot == RC_SNAPSHOT_NEVER) {
        if ((rc = rc_pg_slot_create(s->conn, s->cfg.slot, false, false, &slot, err)) != RC_PG_OK) return pg_fail(err, rc);
        notice(s, "replication slot %s created (no snapshot)", s->cfg.slot);
        s->db.ph = PH_STREAM_START;
        return RC_OK;
    }
    snprintf(s->temp_slot, sizeof s->temp_slot, "rowcast_snapshot_%ld", (long)getpid());
    if ((rc = rc_pg_slot_create(s->conn, s->temp_slot, true, true, &slot, err)) != RC_PG_OK ||
        (rc = rc_pg_snapshot_begin(s->conn, slot.snapshot, err)) != RC_PG_OK ||
        (rc = rc_pg_catalog_tables(s->conn, s->cfg.publication, s->companion, s->cfg.include, s->cfg.ninclude, &s->tables,
                                   &s->ntables, err)) != RC_PG_OK)
        return pg_fail(err, rc);
    for (size_t i = 0; i < s->ntables; i++)
        if (s->tables[i].reltuples > 0) s->snap_estimate += (uint64_t)s->tables[i].reltuples;
    say_not_resumable(s);
    s->handed_lsn = slot.consistent_lsn; /* the stream starts here once the slot is copied */
    rc_pg_lsn_format(slot.consistent_lsn, s->snap_lsn);
    s->snap_us = rc_db_wall_us();
    s->db.ph = PH_SNAPSHOT;
    rc_status st = snapshot_fetch(s, err);
    if (st == RC_OK && !s->ahead) { /* no rows at all */
        PQclear(PQexec(rc_pg_sql(s->conn), "COMMIT"));
        s->db.ph = PH_SNAPSHOT_ACK;
    }
    return st;
}

static rc_status pg_open(const rc_source_config *cfg, const rc_pos *resume, rc_source **out, rc_error *err)
{
    (void)resume; /* the slot is the checkpoint */
    if (!cfg->capture)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s is a database: use rowcast capture", cfg->urls[0]);
    pg_source *s = calloc(1, sizeof *s);
    if (!s) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    s->db.base.ops = &rc_source_postgres;
    s->db.phase_ops = &phase_ops;
    s->cfg = *cfg->capture;
    s->stop = cfg->stop;
    bool batches = rc_db_batches_init(&s->db.batches, NULL, NULL);
    rc_pg_events_opts eo = {.server = s->cfg.server,
                            .spill_bytes = (size_t)s->cfg.spill_bytes,
                            .stream_max_bytes = (size_t)s->cfg.stream_max_bytes,
                            .spill_dir = s->cfg.spill_dir,
                            .release_events = 16,
                            .primary_key = primary_key};
    s->types = rc_pg_types_new();
    s->dec = rc_pgo_new(s->cfg.streaming ? 2 : 1);
    snprintf(s->shown, sizeof s->shown, "%s", cfg->urls[0]);
    rc_status st = batches && s->types && s->dec ? RC_OK : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (st == RC_OK) st = setup(s, cfg->urls[0], cfg->opts, err);
    if (st == RC_OK) {
        eo.db = PQdb(rc_pg_sql(s->conn));
        eo.key_ud = s;
        if (!(s->ev = rc_pg_events_new(&eo, s->types))) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        if (s->inc) rc_pg_incsnap_use(s->inc, s->ev);
    }
    if (st == RC_OK && s->db.ph == PH_SNAPSHOT && !s->ahead) s->db.ph = PH_SNAPSHOT_ACK;
    return rc_db_source_opened(&s->db, st, out);
}

static void pg_stats(const rc_source *src, rc_source_stats *out)
{
    const pg_source *s = (const pg_source *)src;
    memset(out, 0, sizeof *out);
    out->has_ack_position = s->acked_lsn != 0;
    out->ack_position = s->acked_lsn;
    rc_pg_lsn_format(s->acked_lsn, out->ack_position_text);
    rc_db_snapshot_stats(out, &s->db, s->ntables, s->tables_done, s->snap_estimate);
    if (s->inc) rc_pg_incsnap_stats(s->inc, out);
}

static bool pg_waiting(const rc_source *src)
{
    const pg_source *s = (const pg_source *)src;
    return s->db.ph == PH_SNAPSHOT_ACK || (s->db.ph == PH_STREAM && at_target(s));
}

const rc_source_ops rc_source_postgres = {.name = "postgres",
                                          RC_PG_SOURCE_DECL,
                                          .open = pg_open,
                                          .next = rc_db_source_next,
                                          .release = rc_db_source_release,
                                          .ack = pg_ack,
                                          .resumes_at = pg_resumes_at,
                                          .progress = rc_db_source_progress,
                                          .close = pg_close,
                                          .stats = pg_stats,
                                          .waiting = pg_waiting,
                                          .two_batches = true};
