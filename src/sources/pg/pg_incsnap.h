/* PostgreSQL's side of incremental snapshots (docs/design/incremental-snapshots.md §1.2, §2;
 * docs/sources/postgres.md, "Incremental snapshots"), on the core of sources/incsnap.h.
 *
 * With -o postgres.signal.table=SCHEMA.TABLE, signals are INSERTs into that table read from the
 * stream (rc_pg_incsnap_on_events); with --snapshot incremental (no signal table needed: then
 * no signal is read) the source queues the captured tables itself (rc_pg_incsnap_queue), as it
 * does for tables that start to match --include. Watermarks are transactional logical messages
 * `rowcast.watermark` written on the SQL session, carrying this run's random id and the chunk
 * number; a chunk is read with COPY in its own REPEATABLE READ READ ONLY transaction, keyed by
 * the table's primary key (`WHERE (k1, k2) > (last) ORDER BY k1, k2 LIMIT n`). The rows left
 * when the stream passes the high watermark wait in a queue (rc_pg_incsnap_next) that the
 * source hands out as op read items, snapshot "incremental", before its next stream message.
 *
 * Resumable (pg_state.h): the state as of the sink's acknowledged position goes to the state
 * file before the slot is told that position (rc_pg_incsnap_acked); at open the file is read
 * and, when the slot still exists, the snapshot goes on at the chunk after the last one the
 * sink acknowledged (rc_pg_incsnap_resume).
 *
 * Left out in this slice: keyless tables (refused by name), DDL during a chunk. */
#ifndef ROWCAST_SOURCES_PG_INCSNAP_H
#define ROWCAST_SOURCES_PG_INCSNAP_H

#include "rowcast/format.h"
#include "rowcast/source.h"
#include "sources/pg/pg_catalog.h"
#include "sources/pg/pg_events.h"
#include "sources/pg/pg_state.h"

typedef struct rc_pg_incsnap rc_pg_incsnap;

/* PostgreSQL's default chunk (-o postgres.snapshot.chunk.rows): measured in bench/run_backfill.sh
 * with the read-ahead (docs/BENCHMARKS.md, session 24: medians 0.52-0.54x the initial
 * snapshot's rows/s at 65536, 0.47x at 16384); the core's byte bound (8 MiB a chunk) still cuts
 * a chunk of wide rows */
#define RC_PG_INCSNAP_CHUNK_ROWS 65536

typedef struct rc_pg_incsnap_opts {
    const char *signal_table; /* SCHEMA.TABLE, or NULL: no signals are read */
    size_t chunk_rows;        /* 0: RC_INCSNAP_CHUNK_ROWS */
    bool flush; /* SET synchronous_commit = local on the SQL session: a watermark's commit is
                 * flushed at once, the walsender sends only flushed WAL (on a server with
                 * synchronous_commit = off a chunk would wait for wal_writer_delay, 200 ms);
                 * `local`: no wait for a synchronous standby, which the stream does not need */
    bool read_ahead; /* the next chunk's read sent at the last one's emit (§1.2 "Reading ahead") */
    const char *publication, *companion;
    void (*notice)(void *ud, const char *msg); /* stderr lines */
    void *notice_ud;
    const char *slot;       /* the slot the state belongs to */
    const char *state_path; /* --checkpoint (NULL: the default path, pg_state.h) */
    rc_pg_state_home home;  /* what a kafka:// state_path needs (pg_state.h) */
    bool verbose; /* a notice per chunk state (window open, emitted, acknowledged); also with
                   * RC_SNAPSHOT_VERBOSE=1 in the environment (rowcast has no -v) */
} rc_pg_incsnap_opts;

/* Checks the signal table (missing: the CREATE TABLE to run) and that the publication
 * publishes it: `owned` (rowcast created it in this run) gets it added; one that existed is
 * left alone and the error says the ALTER PUBLICATION to run. NULL *out on error. */
/* The signal table exists; else RC_PG_FATAL with the CREATE TABLE to run. Asked before the
 * publication is made, so that a run refused for want of it leaves nothing behind. */
rc_pg_rc rc_pg_incsnap_table_exists(rc_pg_conn *c, const char *signal_table, rc_error *err);
rc_pg_rc rc_pg_incsnap_new(rc_pg_conn *c, const rc_pg_incsnap_opts *o, bool owned, rc_pg_incsnap **out,
                           rc_error *err);
/* The source's event decoder, made after the checks (before the stream starts). */
void rc_pg_incsnap_use(rc_pg_incsnap *is, rc_pg_events *ev);
void rc_pg_incsnap_free(rc_pg_incsnap *is);

/* A decoded stream message: `rowcast.watermark` messages move the window. */
rc_status rc_pg_incsnap_on_message(rc_pg_incsnap *is, const rc_pgo_msg *m, rc_error *err);
/* The events a stream message made (l's from `first` on): signal rows are acted on, changes of
 * the table being read drop their keys from the chunk. Errors of a signal are said (notice) and
 * the capture goes on. `own_signals`: without --include (a publication of all tables) the signal
 * table is rowcast's, and its rows are taken out of l (with --include, they stay only when it
 * names the table: the publication has it then). */
rc_status rc_pg_incsnap_on_events(rc_pg_incsnap *is, rc_event_list *l, size_t first, bool own_signals, rc_error *err);
/* At the end of a stream transaction (its Commit's end LSN): the chunk's rows go to the queue
 * once past its HW; their items will be (lsn, 1..n) (pg_source.c). A signal in it is part of
 * the state as of (lsn, 0). */
rc_status rc_pg_incsnap_commit(rc_pg_incsnap *is, uint64_t lsn, rc_error *err);

/* At open, once the slot was looked for: the state file read by rc_pg_incsnap_new goes on
 * (its tables queued, the last one read after its last acknowledged key), or is ignored with
 * a notice when the slot is gone. */
rc_status rc_pg_incsnap_resume(rc_pg_incsnap *is, bool slot_exists, rc_error *err);
/* The sink acknowledged (lsn, k): the state as of there is written when it moved, before the
 * caller tells the slot lsn. An error (said once) means the slot must not be told. */
rc_status rc_pg_incsnap_acked(rc_pg_incsnap *is, uint64_t lsn, uint64_t k, rc_error *err);
/* The position (LSN, k) of the state read at open ({0, 0}: none): a kill between its write and
 * the slot's status update leaves the slot behind it (pg_state.h). */
rc_pg_state_pos rc_pg_incsnap_state_at(const rc_pg_incsnap *is);
/* When the stream is caught up and the queue empty: the next chunk (LW, read, HW). */
rc_status rc_pg_incsnap_step(rc_pg_incsnap *is, rc_error *err);
/* The next chunk's read left in flight while the rows of the last one are handed out (read
 * ahead): when rc_pg_incsnap_rows says none is left, the source ends it with this before it
 * reads the stream again (a failed read stopped its table, said; the capture goes on). */
rc_status rc_pg_incsnap_read_end(rc_pg_incsnap *is, rc_error *err);

/* The queue: rows true while rows or edges wait; rc_pg_incsnap_next appends the next one's
 * event (op read, snapshot "incremental" or an edge) to out, in a. pending (NULL: false): rows
 * wait or a chunk read ahead is in flight: the source hands them out (and ends the read)
 * before it reads the next stream message or uses the SQL session. */
bool rc_pg_incsnap_rows(const rc_pg_incsnap *is);
bool rc_pg_incsnap_pending(const rc_pg_incsnap *is);
/* A table queued or running, or rows left to hand out: --until caught-up waits (NULL: false). */
bool rc_pg_incsnap_working(const rc_pg_incsnap *is);
rc_status rc_pg_incsnap_next(rc_pg_incsnap *is, rc_arena *a, rc_event_list *out, rc_error *err);

/* Why table t cannot be snapshotted incrementally (no key without replica identity FULL, ...),
 * or NULL. */
const char *rc_pg_incsnap_refusal(const rc_pg_table *t);
/* Queues the captured table `name` for an incremental snapshot that no signal asked for
 * (`asked`: who did, for its started line: "--snapshot incremental", "a new table"): NULL,
 * or why not (into why). Its state is kept as of the next Commit. */
const char *rc_pg_incsnap_queue(rc_pg_incsnap *is, const char *name, const char *asked, char *why, size_t whyn);
/* --snapshot incremental: every table of the publication `include` matches queued (ntables,
 * their estimated rows); a table that cannot be read in chunks is an error naming it and the
 * fix, before anything is queued. */
rc_status rc_pg_incsnap_queue_all(rc_pg_incsnap *is, const char *const *include, size_t ninclude, size_t *ntables,
                                  uint64_t *rows, rc_error *err);
/* Before the stream starts: the state as of now (tables queued) written to the state file at
 * position (0/0, 0), so that a kill right after the slot is made does not lose the queue. */
rc_status rc_pg_incsnap_save(rc_pg_incsnap *is, rc_error *err);
/* `name` is captured by this run: the state's `captured` line (written with the next state). */
rc_status rc_pg_incsnap_captured(rc_pg_incsnap *is, const char *name, rc_error *err);
/* Whether a table is queued or being read (after rc_pg_incsnap_resume: something resumed). */
bool rc_pg_incsnap_active(const rc_pg_incsnap *is);
const char *rc_pg_incsnap_state_path(const rc_pg_incsnap *is);

/* The incremental snapshot fields of the source's stats (sources/incsnap_stats.h). */
void rc_pg_incsnap_stats(const rc_pg_incsnap *is, rc_source_stats *out);

#endif
