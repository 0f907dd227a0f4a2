/* The phases of a database source (PostgreSQL, MySQL/MariaDB) and the `next` that drives them:
 * a snapshot read in batches, a wait until the sink acknowledged every snapshot row, the
 * stream (re)started and read, done. Each source says what each phase does; the batch
 * handling and the idle wait are here once. */
#ifndef ROWCAST_SOURCES_DB_PHASES_H
#define ROWCAST_SOURCES_DB_PHASES_H

#include <stdbool.h>
#include "rowcast/source.h"

typedef enum rc_db_phase {
    PH_SNAPSHOT,     /* reading the tables */
    PH_SNAPSHOT_ACK, /* every row handed out: waiting for the sink */
    PH_STREAM_START, /* (re)starting the stream, at the source's retry time */
    PH_STREAM,
    PH_DONE,
} rc_db_phase;

/* What a source does in each phase, called with the source (an rc_db_source first). */
typedef struct rc_db_phase_ops {
    rc_status (*snapshot_batch)(void *s, rc_error *err);
    rc_status (*snapshot_done)(void *s, rc_error *err); /* the sink acknowledged every snapshot row */
    rc_status (*stream_start)(void *s, rc_error *err);
    rc_status (*stream_batch)(void *s, int timeout_ms, rc_error *err);
} rc_db_phase_ops;

/* A database source's two batches: the pipeline may still hold the one handed out last
 * (encoding it on a thread of its own, rc_source_ops.two_batches) while the source fills the
 * other. Events point into their batch's arena and into the decoder's memory that outlives
 * every batch (replaced table maps and relations are kept), never into the connection's
 * buffers. */
/* A database source's batch holds up to this many items (a snapshot row, a PostgreSQL change
 * each): passed between two threads, a batch of 64 rows was a hand-over every 64 rows. */
enum { RC_DB_BATCH_ITEMS = RC_BATCH_EVENTS };

typedef struct rc_db_later {
    void (*free)(void *p);
    void *p;
    uint64_t at; /* batches handed out when it was given */
} rc_db_later;

typedef struct rc_db_batches {
    rc_batch b[2];
    unsigned cur;  /* the one being filled */
    bool handed;   /* b[cur] was handed out by the last next: the next fills the other */
    uint64_t nhanded;        /* batches handed out so far */
    rc_db_later *later;      /* memory events may still point at (rc_db_batches_later) */
    size_t nlater, caplater;
} rc_db_batches;

/* false: out of memory. accept: the events lists' table filter (NULL: none). */
bool rc_db_batches_init(rc_db_batches *bs, bool (*accept)(void *ctx, rc_str db, rc_str table), void *accept_ctx);
void rc_db_batches_fini(rc_db_batches *bs); /* frees what waits in `later` too */
/* free(p) once no batch that can point at it is held: the batches handed out until then and
 * the one being filled; freed when a next starts after two more were handed out (the one
 * being filled then came back, and only the last is held). For memory the events point at and
 * the source lets go (a decoder replaced when the stream restarts). Out of memory: p is never
 * freed (a leak, not a use after free). */
void rc_db_batches_later(rc_db_batches *bs, void (*free)(void *p), void *p);
static inline rc_batch *rc_db_batch(rc_db_batches *bs) { return &bs->b[bs->cur]; }
/* The batch to fill now, emptied (the other one when the last was handed out); then, when it
 * is handed out, rc_db_batches_hand (which returns it). */
rc_batch *rc_db_batches_take(rc_db_batches *bs);
rc_batch *rc_db_batches_hand(rc_db_batches *bs);

/* What the driver, the items and the acknowledgements of a database source share: the first
 * member of the source's struct. */
typedef struct rc_db_source {
    rc_source base;
    const rc_db_phase_ops *phase_ops; /* what the source does in each phase */
    rc_db_phase ph;
    rc_db_batches batches;            /* the one being filled: rc_db_batch */
    rc_pos last_pos;                  /* the last item's position */
    bool acked_all;                   /* the sink acknowledged the last item */
    uint64_t snap_rows, snap_acked;   /* snapshot rows handed out, acknowledged */
    rc_item_order ord;                /* where the next item's order key goes on (rc_db_item_order) */
} rc_db_source;

/* The end of a database source's open, whose status is st: *out = the source (nothing handed
 * out yet: nothing to acknowledge), or st after closing it. */
rc_status rc_db_source_opened(rc_db_source *d, rc_status st, rc_source **out);
/* rc_source_ops.next of a database source (an rc_db_source): the batch to fill chosen and
 * emptied, the phase's work done, *out = the batch when it holds items or is the last, else a
 * short sleep when the source is waiting rather than reading (not a busy loop). */
rc_status rc_db_source_next(rc_source *src, int timeout_ms, rc_batch **out, rc_error *err);
/* The part of rc_source_ops.ack every database source has, for a position of its own kind:
 * whether it covers the last item handed out (acked_all); a snapshot row's (`snapshot`: pos is
 * one, the row numbered `rows`) counts the rows acknowledged. true: a stream position, for the
 * source to act on. */
/* The connection was lost while streaming: the stream starts again (PH_STREAM_START), and the
 * run is reconnecting until it streams (core/run_state.h). */
void rc_db_source_lost(rc_db_source *d);
bool rc_db_source_ack(rc_db_source *d, const rc_pos *pos, bool snapshot, uint64_t rows);

/* Sleeps ms milliseconds: a source that waits rather than reads (not a busy loop). */
void rc_db_phase_nap(int ms);

/* ---- what both database sources do alike ---- */

/* Seconds on the monotonic clock (retry and heartbeat times). */
double rc_db_now_s(void);
/* Microseconds since 1970 on the wall clock: when a snapshot was taken (its rows' time). */
int64_t rc_db_wall_us(void);
/* notice(ctx, the text of fmt) when notice is set, cut to cap - 1 bytes (cap at most 1000): each
 * caller keeps the length its messages had. */
void rc_db_notice(void (*notice)(void *ctx, const char *msg), void *ctx, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The next item of the batch being filled: named `file` (the URL shown), starting at the
 * batch's text and events as they are. */
rc_source_item *rc_db_item_new(rc_db_source *d, const char *file);
/* The item ends at `end` with the events added since rc_db_item_new: the last item handed out,
 * not acknowledged yet. */
void rc_db_item_end(rc_db_source *d, rc_source_item *it, rc_pos end);
/* The order key of an item ended (rc_db_item_end) at (src, kind, a, b): its events numbered after
 * those of the items before it at the same place (a transaction's), from 0 at a new place. */
void rc_db_item_order(rc_db_source *d, rc_source_item *it, char src, char kind, uint64_t a, uint64_t b);
/* After the decoder read an item of n bytes (the last rc_db_item_new of b): true when it made
 * no event (a message that only tells the decoder something), then taken back out of the batch;
 * false when it did, its raw length set to n. */
bool rc_db_item_none(rc_batch *b, rc_source_item *it, size_t n);
/* A bad item: its events dropped, the error kept (RC_ERR_SYNTAX when it has no code), and room
 * made for a dead-letter line of up to `need` bytes at the end of the batch's text. false: out
 * of memory, the item has no line. */
bool rc_db_item_bad(rc_batch *b, rc_source_item *it, const rc_error *err, size_t need);
/* Appends msg[0..len) as lower-case hex to the line rc_db_item_bad made room for. */
void rc_db_item_hex(rc_batch *b, const uint8_t *msg, size_t len);
/* Ends that line: the item's raw bytes are the line with its newline, n without. */
void rc_db_item_line_end(rc_batch *b, rc_source_item *it);

/* rc_source_ops.release and .progress of a database source: the batches are the source's own
 * (rc_db_batches), and a database has no size to read through. */
void rc_db_source_release(rc_source *src, rc_batch *b);
void rc_db_source_progress(const rc_source *src, uint64_t *size, uint64_t *start);
/* The snapshot part of rc_source_ops.stats. */
void rc_db_snapshot_stats(rc_source_stats *out, const rc_db_source *d, size_t tables, size_t tables_done, uint64_t estimate);

#endif
