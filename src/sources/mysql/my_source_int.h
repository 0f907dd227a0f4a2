/* Internals of the MySQL/MariaDB source (my_source.c): its state and the helpers its parts
 * share (my_source_common.c): the snapshot (my_source_snapshot.c), the boundaries kept and
 * the checkpoint written (my_source_checkpoint.c), the binlog stream (my_source_stream.c).
 * Not for the rest of the source: it uses my_source.h. */
#ifndef ROWCAST_MY_SOURCE_INT_H
#define ROWCAST_MY_SOURCE_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/colcache.h"
#include "sources/db_phases.h"
#include "sources/mysql/my_checkpoint.h"
#include "sources/mysql/my_conn.h"
#include "sources/mysql/my_decoder.h"
#include "sources/mysql/my_event.h"
#include "sources/mysql/my_gtid.h"
#include "sources/mysql/my_schema.h"
#include "sources/mysql/my_snapshot.h"
#include "sources/mysql/my_source.h"
#include "sources/mysql/my_stream.h"
#include "sources/table_patterns.h"

enum { SNAPSHOT_CHUNK = 10000, STOP_EVENT = 3, ROTATE_EVENT = 4, FORMAT_DESCRIPTION_EVENT = 15 };

/* A transaction boundary handed out and not yet acknowledged. */
typedef struct boundary {
    rc_pos pos;
    char *file, *gtids;
    char *history; /* the history's text when a DDL came since the boundary before; NULL: unchanged */
    size_t history_len;
    char *snapshot; /* the incremental snapshot's state text when it changed since the boundary
                     * before (my_incsnap_state.c); NULL: unchanged */
    size_t snapshot_len;
} boundary;

typedef struct my_source {
    rc_db_source db; /* the phase, the batches, the acknowledgements (sources/db_phases.h) */
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
    uint64_t snap_estimate;
    int64_t snap_us;
    rc_my_snap_pos snap;
    bool view_open;
    /* stream */
    char *file, *gtids;    /* the last boundary handed out: file, GTID set text */
    uint64_t offset;
    rc_pos handed;         /* ... as a position */
    boundary *q;
    size_t qn, qcap;
    rc_state_store *store;  /* where --checkpoint keeps it: a file or a Kafka record (NULL: none) */
    rc_my_checkpoint acked; /* what the checkpoint file holds (its sink state: the last ack_state's) */
    char *stored_sink;      /* the sink state the checkpoint held at open (NULL: none) */
    rc_pos acked_pos;
    struct rc_my_ckw *ckw;  /* the checkpoint's text on its way to the store (my_source_checkpoint.c) */
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
    /* incremental snapshots (my_incsnap.c): NULL without -o mysql.signal.table */
    struct rc_my_incsnap *inc;
    bool (*accept)(void *ctx, rc_str db, rc_str table); /* --include's, when inc wraps it */
    void *accept_ctx;
    bool from_checkpoint; /* the run resumes from the checkpoint (its snapshot state is imported) */
    bool with_query;      /* rows carry their statement (pos.query): an output option asks for it */
} my_source;

/* ---- my_source_common.c ---- */
/* A notice through the capture configuration's (rc_db_notice, up to 800 bytes). */
#define rc_my_source_notice(s, ...) rc_db_notice((s)->cfg.notice, (s)->cfg.notice_ctx, 800, __VA_ARGS__)
rc_status rc_my_source_nomem(rc_error *err);
rc_status rc_my_source_set_text(char **dst, const char *src, rc_error *err); /* a copy of src ("" for NULL) */
rc_status rc_my_source_hand(my_source *s, const char *file, uint64_t offset, const char *gtids, rc_error *err);
/* Binlog positions in order: the files by their number (mysql-bin.999999 before
 * mysql-bin.1000000, which strcmp has the other way round), then the offsets; <0, 0, >0. */
int rc_my_binlog_compare(const char *fa, uint64_t oa, const char *fb, uint64_t ob);
rc_source_item *rc_my_source_item_new(my_source *s);
void rc_my_source_item_end(my_source *s, rc_source_item *it);
void rc_my_source_item_bad(my_source *s, rc_source_item *it, const rc_error *err, const uint8_t *msg, size_t len);

/* ---- my_source_snapshot.c ---- */
rc_status rc_my_source_snapshot_fetch(my_source *s, rc_error *err);
rc_status rc_my_source_snapshot_batch(void *s, rc_error *err); /* rc_db_phase_ops' (s: a my_source) */

/* ---- my_source_checkpoint.c ---- */
void rc_my_source_boundary_free(boundary *e);
rc_status rc_my_source_keep_boundary(my_source *s, rc_error *err);
/* The same at `pos` (not before the handed boundary: a chunk's last item, my_incsnap.c), with
 * the handed boundary's file, offset and GTIDs. */
rc_status rc_my_source_keep_boundary_at(my_source *s, const rc_pos *pos, rc_error *err);
/* The checkpoint (s->acked; `ck`) stored: its text made now, written now or, inside a prefetch
 * acknowledgement, once the source's lock is released (sources/prefetch.h), so that the next
 * chunk or batch is read meanwhile; writes never overtake each other (the newest text wins).
 * A failure is said (the previous checkpoint stays). */
void rc_my_source_write_checkpoint(my_source *s);
void rc_my_source_save_checkpoint(my_source *s, const rc_my_checkpoint *ck);
/* At close: what is left written, the writer freed. */
void rc_my_source_checkpoint_fini(my_source *s);
void rc_my_source_acknowledge(my_source *s, const rc_pos *pos);
rc_status rc_my_source_checkpoint_here(my_source *s, rc_error *err);

/* ---- my_source_stream.c ---- */
rc_status rc_my_source_stream_start(void *s, rc_error *err); /* rc_db_phase_ops' (s: a my_source) */
bool rc_my_source_at_target(const my_source *s, bool in_tx);
rc_status rc_my_source_stream_batch(void *s, int timeout_ms, rc_error *err); /* rc_db_phase_ops' */

/* ---- my_incsnap.c, my_incsnap_state.c, my_incsnap_captured.c ---- */
/* Reads the -o mysql.* options: s->inc stays NULL without mysql.signal.table. */
rc_status rc_my_incsnap_new(my_source *s, const rc_source_config *cfg, rc_error *err);
/* On s->sql: the server is MariaDB and the signal table exists (else the CREATE TABLE to run). */
rc_status rc_my_incsnap_check(my_source *s, rc_error *err);
void rc_my_incsnap_free(my_source *s);
/* The events lists' filter with inc: --include's, and the signal table's rows. */
bool rc_my_incsnap_accept(void *s, rc_str db, rc_str table);
/* Whether db.table is the signal table and --include does not name it: rowcast's control
 * channel, neither snapshotted nor streamed to the sink */
bool rc_my_incsnap_signal_only(const my_source *s, rc_str db, rc_str table);
/* The batch's events from `first` on: signal rows read (and dropped unless --include names them). */
rc_status rc_my_incsnap_signals(my_source *s, size_t first, rc_error *err);
/* After a binlog event's events (from `first` in the batch) are handed, in_tx: whether a
 * transaction is still open: the end of the last transaction with events is kept, which a
 * point watermark's chunk must not be older than (my_incsnap.c, reach). */
void rc_my_incsnap_streamed(my_source *s, size_t first, bool in_tx);
/* Between binlog events: the emitted rows into the batch; outside a transaction a chunk whose P
 * the stream reached is emitted, and when caught up the next chunk is read. */
rc_status rc_my_incsnap_tick(my_source *s, bool in_tx, bool caught_up, rc_error *err);
bool rc_my_incsnap_pending(const my_source *s); /* emitted rows not in a batch yet: the stream waits */
/* A snapshot is queued or running (not paused), or rows wait: --until caught-up waits for it. */
bool rc_my_incsnap_working(const my_source *s);
/* The next chunk may be read now (a table to read, nothing pending, the sink has room for it):
 * the stream is polled without waiting, so that an idle stream does not delay each chunk by
 * its poll's timeout. */
bool rc_my_incsnap_ready(const my_source *s);
void rc_my_incsnap_stats(const my_source *s, rc_source_stats *out); /* the incremental snapshot fields (NULL inc: none) */
/* For a boundary kept at `pos`: the state's text as of it (malloc'd, *n bytes) when it changed
 * since the boundary before, else NULL. */
rc_status rc_my_incsnap_state_at(my_source *s, const rc_pos *pos, char **text, size_t *n, rc_error *err);
/* The checkpoint written at `pos` (the sink acknowledged it): RC_SNAPSHOT_VERBOSE says the
 * chunks it covers. */
void rc_my_incsnap_acked(my_source *s, const rc_pos *pos);
/* The next chunk waits for the sink's acknowledgement of those handed out (rc_source_ops.waiting:
 * the pipeline stores the checkpoint at once rather than at its interval). */
bool rc_my_incsnap_waiting(const my_source *s);
/* At open, before the stream: the checkpoint's snapshot state goes on (said per table). */
rc_status rc_my_incsnap_resume(my_source *s, rc_error *err);
/* Before the checkpoint moves to the last boundary kept at or before `pos`: its state carries
 * the captured line as of it (the history's tables --include matches there), written whenever
 * it changed; a failure is a warning (the line stays as it was). No-op without incremental
 * snapshots. */
void rc_my_incsnap_captured_ack(my_source *s, const rc_pos *pos);
/* At open from a checkpoint: the tables --include matches now that its captured line does not
 * hold are queued (their earlier rows are not in the binlog after it); no captured line: said. */
rc_status rc_my_incsnap_newly_included(my_source *s, rc_error *err);
/* At open, once the history is where the stream starts: the tables --include matches there. */
rc_status rc_my_incsnap_live_init(my_source *s, rc_error *err);
/* After a DDL of the stream was applied to the history: a table RENAMEd into --include (no
 * included table went away in it) is queued; one CREATEd is streamed from its CREATE. */
void rc_my_incsnap_after_ddl(my_source *s, const rc_event *ev);
/* --snapshot incremental's first run: every included table of s->tables queued (no signal);
 * one that has no chunk key refuses the run, naming it and the fix. */
rc_status rc_my_incsnap_queue_included(my_source *s, rc_error *err);
/* One row (id, type, data; data NULL: SQL NULL) INSERTed into signal_table ("DB.TABLE", checked)
 * on m: `rowcast snapshot`'s signals, the table watermarks (my_signal_write.c). */
rc_status rc_my_signal_insert(MYSQL *m, const rc_my_url *u, const char *signal_table, const char *id, const char *type,
                              const char *data, rc_error *err);

#endif
