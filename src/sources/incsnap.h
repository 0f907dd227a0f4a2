/* Incremental snapshots, the database-agnostic core (docs/design/incremental-snapshots.md §1.1).
 *
 * A table is read in chunks in key order while the stream runs. Each chunk sits between a low
 * and a high watermark (LW, HW) that the source writes into its own change stream. While the
 * stream is between them (the *window*), every streamed change of the table removes the rows
 * of its key before and after from the chunk's buffer: the streamed change is newer. When the
 * stream has passed HW, the rows left are handed out as op `read` (the *emit point*). So no
 * `read` ever carries a value older than a change already emitted for its key (DBLog).
 *
 *   IDLE --rc_incsnap_step--> READ (LW written, chunk read, HW written; stream before LW)
 *        --stream reaches LW--> OPEN (changes remove keys; TRUNCATE empties the buffer)
 *        --stream reaches HW--> EMIT --rc_incsnap_emit at the end of that transaction--> IDLE
 *
 * One table at a time, one chunk in flight. The source plugs in through rc_incsnap_ops
 * (write a watermark, read a chunk, recognise a watermark in the stream, hand out a row or a
 * table edge); nothing here talks to a database. The source calls the core on its own thread:
 * step when its stream is caught up, on_message / on_change / on_truncate for what it
 * decodes, emit at each transaction end (a no-op unless a chunk is ready).
 *
 * Keys. A row's *key image* is its key columns' rc_values serialised (kind, length, bytes:
 * rc_incsnap_key_image), so a row read by SELECT and the same row decoded from the stream
 * give equal images. A table without a key (PostgreSQL ctid chunks) is keyed by its full row
 * image instead, and a per-table multiset of the images the stream delivered since its first
 * window (`delivered`) drops the buffered rows the stream already handed out (§1.1 "Keyless
 * PostgreSQL tables": exact when the table's rows are distinct). */
#ifndef RC_SOURCES_INCSNAP_H
#define RC_SOURCES_INCSNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/value.h"

typedef struct rc_incsnap rc_incsnap;

typedef enum rc_incsnap_phase {
    RC_INCSNAP_IDLE,
    RC_INCSNAP_READ,
    RC_INCSNAP_OPEN,
    RC_INCSNAP_EMIT
} rc_incsnap_phase;

/* How a table is chunked: its primary key, a unique index on NOT NULL columns, or (no key)
 * physical ranges (PostgreSQL ctid), which makes it keyless. */
typedef enum rc_incsnap_by {
    RC_INCSNAP_BY_PK,
    RC_INCSNAP_BY_INDEX,
    RC_INCSNAP_BY_CTID
} rc_incsnap_by;

typedef enum rc_incsnap_tstate {
    RC_INCSNAP_QUEUED,
    RC_INCSNAP_RUNNING,
    RC_INCSNAP_DONE,
    RC_INCSNAP_STOPPED,
} rc_incsnap_tstate;

typedef enum rc_incsnap_mark {
    RC_INCSNAP_NOT_MARK = 0,
    RC_INCSNAP_LOW,
    RC_INCSNAP_HIGH
} rc_incsnap_mark;

/* Zero-row `read` items around a table's rows (snapshot "incremental:start", ":end",
 * ":stopped"): the start edge is handed where the stream reaches the first chunk's LW (a
 * consumer of a keyless table rebuilds it from there: the `delivered` multiset counts from that
 * point), an end edge after the last chunk's rows, a stopped edge when the snapshot stops
 * (after a start edge, handed then if not yet). */
typedef enum rc_incsnap_edge {
    RC_INCSNAP_EDGE_START,
    RC_INCSNAP_EDGE_END,
    RC_INCSNAP_EDGE_STOPPED
} rc_incsnap_edge;

/* One table of the queue, owned by the core; the source reads it (ops, stats, state). */
typedef struct rc_incsnap_table {
    char *name;   /* "schema.table" */
    char *signal; /* the signal id that asked for it, or NULL */
    char *filter; /* additional-conditions filter, or NULL */
    rc_incsnap_by by;
    rc_incsnap_tstate state;
    bool start_edge; /* the start edge was handed */
    rc_buf cursor;   /* where the next chunk starts: the last chunk's last key image
                      * (empty: the table's first row), or what the source set */
    uint64_t rows_read, rows_emitted, rows_dropped, chunks, rereads, estimate;
    size_t avg_width; /* estimated bytes per row before the first chunk (0: unknown) */
    size_t limit;     /* the row limit of the chunk in flight / the last one */
    /* resuming (incsnap_resume.c): the last handed chunk's last key as the image of its text
     * values (empty: none yet), the rows and chunks handed up to it */
    rc_buf handed;
    uint64_t handed_rows, handed_chunks;
} rc_incsnap_table;

typedef struct rc_incsnap_ops {
    /* Writes watermark `mark` of chunk `chunk` into the source's stream. */
    rc_status (*write_watermark)(void *ctx, const rc_incsnap_table *t, uint64_t chunk,
                                 rc_incsnap_mark mark, rc_error *err);
    /* Reads up to `limit` rows of `t` after t->cursor (empty: from the start) in key order,
     * giving each to rc_incsnap_add_row; stops early (without error) when add_row says
     * RC_ERR_LIMIT. Fewer rows than `limit` (not stopped early) ends the table, unless the
     * source says otherwise with rc_incsnap_set_cursor (ctid ranges). */
    rc_status (*read_chunk)(void *ctx, rc_incsnap *s, const rc_incsnap_table *t, size_t limit,
                            rc_error *err);
    /* Recognises a stream message as a watermark of this run: LOW or HIGH with its chunk
     * number, or NOT_MARK. NULL: the source calls rc_incsnap_on_mark itself. */
    rc_incsnap_mark (*recognise)(void *ctx, const void *msg, size_t n, uint64_t *chunk);
    /* Hands out one buffered row as a `read` (raw: the bytes given to add_row). */
    rc_status (*emit_row)(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn,
                          rc_error *err);
    /* Hands out a table edge. */
    rc_status (*emit_edge)(void *ctx, const rc_incsnap_table *t, rc_incsnap_edge edge,
                           rc_error *err);
    /* For rows added with rc_incsnap_add_raw: appends the key image (rc_incsnap_key_image) of
     * the row whose raw bytes are given to img. Called only when the image is needed: for the
     * chunk's last row (the next cursor), and for every row once a streamed change of the
     * table comes inside the chunk's window (and, when the chunk is ordered, inside its key
     * range: rc_incsnap_set_ordered). NULL: rows come with their keys (add_row). */
    rc_status (*row_key)(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn,
                         rc_buf *img, rc_error *err);
} rc_incsnap_ops;

typedef struct rc_incsnap_limits {
    size_t chunk_rows;    /* -o snapshot.chunk.rows (default 4096) */
    size_t chunk_bytes;   /* -o snapshot.chunk.bytes (default 8 MiB); a read stops past twice it */
    size_t keyless_bytes; /* -o snapshot.keyless.bytes (default 16 MiB): the delivered multiset */
} rc_incsnap_limits;

#define RC_INCSNAP_CHUNK_ROWS 4096
#define RC_INCSNAP_CHUNK_BYTES ((size_t)8 << 20)
#define RC_INCSNAP_KEYLESS_BYTES ((size_t)16 << 20)

/* Key images. Appends the image of v[0..n) to out: per value one kind byte, a 4-byte
 * little-endian length and the value's bytes (integers and floats as 8 or 4 little-endian
 * bytes, strings as their bytes, decimals as sign, scale and digits, times as their fields).
 * An RC_V_UNAVAILABLE value has no image: RC_ERR_VALUE (the source fills it first). */
rc_status rc_incsnap_key_image(rc_buf *out, const rc_value *v, size_t n, rc_error *err);

/* How two key images order, compared value by value while both values are integers of the same
 * kind (RC_V_INT signed, RC_V_UINT unsigned): -1, 0 or 1 as a is before, equal to or after b,
 * the first differing value deciding; RC_INCSNAP_UNORDERED when a tie reaches a value of
 * another kind, when one image ends before the other, or for an empty or malformed image: the
 * core then assumes nothing. */
#define RC_INCSNAP_UNORDERED 2
int rc_incsnap_key_order(const void *a, size_t an, const void *b, size_t bn);

/* Reads back an image: v[0..max) gets its values (strings point into img), *n their count.
 * RC_ERR_SYNTAX when img is not an image or holds more than max values. */
rc_status rc_incsnap_key_decode(const void *img, size_t imgn, rc_value *v, size_t max, size_t *n,
                                rc_error *err);

/* A core with the source's ops (copied) and ctx; limits NULL or zero fields: the defaults.
 * NULL when out of memory. */
rc_incsnap *rc_incsnap_new(const rc_incsnap_ops *ops, void *ctx, const rc_incsnap_limits *limits);
void rc_incsnap_free(rc_incsnap *s);

/* Queues a table (name, signal id and filter copied; NULL: none). A table queued or running
 * already is not queued again: RC_SKIP with the reason in err ("already being snapshotted");
 * a done or stopped one is queued anew from its first row. */
rc_status rc_incsnap_queue(rc_incsnap *s, const char *name, rc_incsnap_by by, const char *signal,
                           const char *filter, rc_error *err);

/* The source's estimates for a queued or running table: its row count (progress) and its bytes
 * per row (PG pg_stats, MySQL AVG_ROW_LENGTH), which bound the first chunk's limit to
 * chunk_bytes / avg_width; later chunks use the measured width. RC_SKIP: no such table. */
rc_status rc_incsnap_estimate(rc_incsnap *s, const char *name, uint64_t rows, size_t avg_width);

/* Stops the snapshot of `name` (NULL: of every table): the chunk in flight is discarded, a
 * running table gets its stopped edge, a queued one leaves the queue. RC_SKIP when nothing
 * matched. */
rc_status rc_incsnap_stop(rc_incsnap *s, const char *name, rc_error *err);

/* Pause: the chunk in flight finishes, no new one starts until resume. */
void rc_incsnap_pause(rc_incsnap *s, bool paused);
bool rc_incsnap_paused(const rc_incsnap *s);
/* A table is queued or running and the snapshot is not paused: a --until caught-up run waits
 * for it (the source adds the rows it still has to hand out). */
bool rc_incsnap_working(const rc_incsnap *s);

/* When idle, not paused and a table is waiting and the stream is caught up: starts the next
 * chunk (LW, read, HW through ops). RC_SKIP when it did not start one. A table whose chunk
 * read fails is stopped (its edge handed) and the error returned; the others go on. */
rc_status rc_incsnap_step(rc_incsnap *s, bool caught_up, rc_error *err);

/* Reading a chunk while the stream waits, in two halves (a source that reads the next chunk
 * while it hands out the rows of the last one, docs/design/incremental-snapshots.md §1.2
 * "Reading ahead"). Called from ops->read_chunk (which then returns RC_OK): the read goes on
 * after it returns; rc_incsnap_step returns RC_OK with the phase READ, HW not written. The
 * source then adds the chunk's rows (rc_incsnap_add_row) and calls rc_incsnap_read_end with
 * the read's status, which writes HW and does what step does after a read (a failed read as
 * there). Until then the stream must hand the core nothing: the window opens at LW. */
void rc_incsnap_read_later(rc_incsnap *s);
bool rc_incsnap_reading(const rc_incsnap *s);
/* RC_SKIP when no read was left for later. */
rc_status rc_incsnap_read_end(rc_incsnap *s, rc_status rc, rc_error *err);

/* For ops->read_chunk: one row of the chunk in key order, with its key values (for a keyless
 * table: every column) and the source's raw bytes, both copied. RC_ERR_LIMIT when the buffer
 * holds more than twice chunk_bytes (this row kept): the read stops there, the chunk is the
 * prefix read so far and the next chunk's limit is halved. */
rc_status rc_incsnap_add_row(rc_incsnap *s, const rc_value *key, size_t nkey, const void *raw,
                             size_t rawn, rc_error *err);

/* As rc_incsnap_add_row for a keyed table, without the key: ops->row_key makes its image when
 * one is needed. A source whose windows rarely see a change (MariaDB's point watermark: none),
 * or whose chunks say they are ordered (rc_incsnap_set_ordered, PostgreSQL's: a change outside
 * the chunk's key range needs no image) saves the key's parse, image and hash a row. */
rc_status rc_incsnap_add_raw(rc_incsnap *s, const void *raw, size_t rawn, rc_error *err);

/* For ops->read_chunk of a keyed table: whether this chunk's key images order as its rows do
 * (the images' values are the chunk's ORDER BY columns in their order, integers:
 * rc_incsnap_key_order). Then a streamed change whose key is outside (the table's cursor, the
 * chunk's last key] removes nothing and needs no buffered row's image: with rows added by
 * rc_incsnap_add_raw, only a change that falls inside the chunk's key range makes them. Reset
 * to false at each chunk. */
void rc_incsnap_set_ordered(rc_incsnap *s, bool ordered);

/* For ops->read_chunk of chunks that are not key ranges (ctid pages): where the next chunk
 * starts, and whether this chunk was the table's last. */
rc_status rc_incsnap_set_cursor(rc_incsnap *s, const void *cursor, size_t n, bool last_chunk);

/* A stream message: when ops->recognise says it is a watermark, as rc_incsnap_on_mark. */
rc_status rc_incsnap_on_message(rc_incsnap *s, const void *msg, size_t n, rc_error *err);

/* The stream reached watermark `mark` of chunk `chunk`; watermarks of another chunk (a
 * discarded one, another run's) are ignored. The table's first LW hands its start edge (the
 * status is the edge's). */
rc_status rc_incsnap_on_mark(rc_incsnap *s, rc_incsnap_mark mark, uint64_t chunk, rc_error *err);

/* A streamed change of table `name`: before / after are its key values before and after
 * (NULL when the change has none: an INSERT has no before, a DELETE no after); for a keyless
 * table every column. Changes of other tables are ignored. RC_ERR_LIMIT when the keyless
 * multiset passed keyless_bytes: that table's snapshot is stopped (edge handed), err says so. */
rc_status rc_incsnap_on_change(rc_incsnap *s, const char *name, const rc_value *before,
                               const rc_value *after, size_t n, rc_error *err);

/* A streamed TRUNCATE of `name`: inside a window the buffer empties; the snapshot goes on. */
void rc_incsnap_on_truncate(rc_incsnap *s, const char *name);

/* The chunk in flight is read again (a DDL in the window, a visibility conflict): discarded,
 * the next step reads it again from the same cursor. */
void rc_incsnap_reread(rc_incsnap *s);

/* At the end of every stream transaction: when the stream has passed the chunk's HW, hands
 * out the rows left in key order (edges around them), moves the table's cursor and returns
 * to IDLE. RC_SKIP when there was nothing to emit. */
rc_status rc_incsnap_emit(rc_incsnap *s, rc_error *err);

rc_incsnap_phase rc_incsnap_phase_of(const rc_incsnap *s);
/* The tables in the order queued (done and stopped ones too); valid until the next queue call. */
size_t rc_incsnap_ntables(const rc_incsnap *s);
const rc_incsnap_table *rc_incsnap_table_at(const rc_incsnap *s, size_t i);
/* Rows in the buffer now, and their bytes (images + raw). */
size_t rc_incsnap_buffered(const rc_incsnap *s, size_t *bytes);

/* ---- Resuming after a restart (incsnap_resume.c; docs/design/incremental-snapshots.md §4) ----
 *
 * The core keeps the state as of each position the source handed it (a chunk's end, a signal
 * that queued, stopped or paused): the state text of incsnap_state.h, with the chunk's last
 * key as the source writes it (text values). Positions are opaque bytes the source orders
 * with its own compare; rc_incsnap_export gives the state as of the newest one the sink
 * acknowledged, never ahead of it: a chunk whose items are not all acknowledged is read again
 * after a restart from the previous chunk's last key (repeat at most one chunk, never skip). */
struct rc_isstate;
struct rc_isstate_key;

/* Orders two positions: < 0, 0, > 0 as a is before, at, after b. */
typedef int (*rc_incsnap_pos_cmp)(const void *a, size_t an, const void *b, size_t bn);

/* Right after rc_incsnap_emit returned RC_OK: the items of `table`'s chunk (its rows and
 * edges) end at pos (copied) and its last key is last[0..nlast) (text values, copied; nlast 0
 * when the chunk had no row: the previous last stays). */
rc_status rc_incsnap_chunk_end(rc_incsnap *s, const char *table, const void *pos, size_t posn,
                               const struct rc_isstate_key *last, size_t nlast, rc_error *err);
/* After the queue, stop or pause calls a stream item at pos made (a signal): the state as of
 * pos. Nothing is kept when the state did not change. */
rc_status rc_incsnap_at(rc_incsnap *s, const void *pos, size_t posn, rc_error *err);

/* The state as of the newest handed position at or before `acked` (the sink's acknowledged
 * position), into out (emptied first; NULL: not asked, the cheap call for each
 * acknowledgement); the states handed before it are forgotten. *changed (NULL: not asked) says
 * whether it differs from the previous export's (or the import's). */
rc_status rc_incsnap_export(rc_incsnap *s, const void *acked, size_t ackedn, rc_incsnap_pos_cmp cmp,
                            struct rc_isstate *out, bool *changed, rc_error *err);

/* At open, before the stream starts: queues the state's tables (initial ones are left to the
 * source), a table with progress resuming at the chunk after its `last` with its counts (its
 * start edge counted as handed) and the paused flag. The table's cursor becomes the key image
 * of its last values as text (RC_V_TEXT, RC_V_BYTES for a bytes value; a ctid page as
 * RC_V_UINT), which the source's read_chunk may decode. Watermarks of the old run mean nothing:
 * the chunk in flight then is read again. */
rc_status rc_incsnap_import(rc_incsnap *s, const struct rc_isstate *st, rc_error *err);

/* For incsnap_resume.c: the table of that name in the queue (any state), or NULL. */
rc_incsnap_table *rc_incsnap_table_named(rc_incsnap *s, const char *name);
/* For incsnap_resume.c: where its records live (p NULL until the first use), freed with the
 * core by fini(p) (a pointer, so that incsnap.c needs nothing of incsnap_resume.c). */
typedef struct rc_incsnap_ext {
    void *p;
    void (*fini)(void *p);
} rc_incsnap_ext;
rc_incsnap_ext *rc_incsnap_ext_of(rc_incsnap *s);

#endif
