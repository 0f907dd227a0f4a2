/* Internals of the MySQL/MariaDB source's incremental snapshots, shared by my_incsnap.c (the
 * core's ops, signals, chunks), my_incsnap_table.c (the tables read) and my_incsnap_state.c (the
 * state in the checkpoint, resuming after a restart, the per-chunk notices) and
 * my_incsnap_captured.c (the tables captured, tables that start to match --include) and
 * my_incsnap_wm.c (the table watermarks: rows of the signal table around each chunk); my_incsnap.c
 * uses the tables and the state, my_incsnap_state.c the tables, my_incsnap_captured.c all but the
 * state. Not for the rest of the source: my_source_int.h. */
#ifndef ROWCAST_SOURCES_MY_INCSNAP_INT_H
#define ROWCAST_SOURCES_MY_INCSNAP_INT_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/buf.h"
#include "sources/incsnap.h"
#include "sources/incsnap_stats.h"
#include "sources/mysql/my_source_decl.h"
#include "sources/mysql/my_source_int.h"

enum { NULL_LEN = 0xffffffffu, MAX_KEY = 16 };

/* A table asked for: its columns and chunk key (the primary key, else a unique index on NOT
 * NULL columns), its reader (which keeps the last key read). */
typedef struct inc_table {
    char *name; /* "db.table" */
    rc_my_table *own; /* the structure at its first chunk (a copy: a DDL replaces the history's) */
    rc_my_snap_table st;
    rc_my_snap_reader *rd;
    /* where the reader was when the chunk in flight began, and the core's cursor then: while the
     * core's cursor stays there (a chunk discarded: read again), the reader goes back there */
    rc_buf from, at;
    int64_t started_us;
    uint32_t index; /* in tabs */
    char *resume; /* a snapshot resumed from its state: the key its reader starts after, as
                   * rc_my_incsnap_key_put packs it; NULL: from the first row */
    size_t resume_len;
    uint32_t ddl_rereads; /* the chunk in flight read again after a DDL, since one was handed out */
    uint32_t behind_rereads; /* ... read again because its point was before the stream (my_incsnap.c) */
} inc_table;

/* A chunk read again after as many DDLs in a row stops the table's snapshot (a table altered at
 * every chunk never ends it). */
enum { INC_DDL_REREADS = 8 };
/* ... and as many reads of one chunk in a row whose point stays before a transaction the stream
 * handed out (the server does not move binlog_snapshot_position past it). */
enum { INC_BEHIND_REREADS = 64 };

/* A chunk handed out whose items the sink has not acknowledged yet (for RC_SNAPSHOT_VERBOSE's
 * "acknowledged" and -o mysql.snapshot.unacked.chunks). */
typedef struct inc_emitted {
    rc_pos end; /* its last item */
    uint64_t chunk; /* its number in its table */
    size_t tab;
} inc_emitted;

typedef struct rc_my_incsnap {
    rc_my_capture_options o;
    bool verbose;   /* RC_SNAPSHOT_VERBOSE=1: a notice per chunk (window open, emitted, acknowledged) */
    size_t unacked; /* -o mysql.snapshot.unacked.chunks=N (default 1): at most N chunks handed
                     * out and not acknowledged */
    char sig_db[65], sig_table[65];
    rc_incsnap *core;
    MYSQL *sql; /* the chunks' session (the source's own closes when the stream starts) */
    inc_table **tabs; /* each on its own: a reader keeps a pointer to its table's st */
    size_t ntabs;
    size_t cur;           /* the table of the chunk in flight (tabs) */
    rc_my_snap_pos point; /* the chunk in flight's P (point watermarks) */
    /* the end of the last transaction the stream handed out with events in it (rc_my_incsnap_streamed);
     * changed: an event of the transaction in progress was handed */
    char change_file[256];
    uint64_t change_offset;
    bool changed;
    bool table_wm;        /* table watermarks (-o mysql.snapshot.watermark=table; auto on MySQL) */
    char run[40];         /* this run's part of its watermark rows' ids (my_incsnap_wm.c) */
    /* a watermark row of this run that the stream read (its chunk; 0 none), given to the core
     * at the end of its transaction (reach) */
    uint64_t seen_low, seen_high;
    uint64_t chunk;
    int64_t read_us;
    rc_buf row;      /* the row being added: per column a 4-byte length (NULL_LEN: NULL), bytes, NUL */
    rc_buf last_key; /* the last row added's key, as rc_my_incsnap_key_put packs it */
    rc_buf pending;  /* emitted items: table index, kind (0 row, 1 + edge), the row's bytes */
    size_t pend_at;  /* the next pending item's offset */
    size_t npending; /* ... and how many items are left there */
    uint64_t k;      /* items handed at this emit point */
    rc_pos k_at;     /* ... which is this boundary (k 0) */
    bool hold;       /* the next chunk waits for the sink and the batch is empty: it ends there */
    bool step_failed; /* the last chunk's read failed: the next waits for the stream's poll */
    uint64_t mark_k; /* the item that ends the chunk emitted here (a boundary: not inside); 0 none */
    inc_emitted *emitted;
    size_t nemitted, capemitted;
    rc_arena scratch;
    rc_incsnap_signals signals; /* read so far, by type and result (metrics) */
    bool stale;      /* the chunk in flight's SELECT met a structure the history does not have
                      * yet (a DDL after the stream's position): read again at P */
    void **retired;  /* the structures of tables replaced by a DDL or a new signal: events handed
                      * out point at their columns (rc_event.cols_id), so they live until free */
    size_t nretired;
    /* the tables --include matched at the checkpoint's position (its state's captured line),
     * NUL-terminated names in the history's order; stale: computed again at the next ack */
    rc_buf captured, names;
    bool captured_stale;
    rc_buf live; /* the same as of the stream (the history now), for RENAMEs into --include */
} rc_my_incsnap;

/* -o mysql.snapshot.chunk.rows's default. docs/BENCHMARKS.md "MariaDB, session 23": 16384 was the
 * fastest of 4096, 16384 and 65536 in every run since session 14 (a chunk's acknowledgement,
 * fsyncs and round trips paid four times less often), at 22 MB RSS; PostgreSQL's is the same. */
#define RC_MY_INCSNAP_CHUNK_ROWS 16384

/* ---- my_incsnap_table.c ---- */
inc_table *rc_my_incsnap_table(rc_my_incsnap *x, const char *name);
/* The chunks' SQL session (x->sql), connected at first use. */
rc_status rc_my_incsnap_session(my_source *s, rc_error *err);
/* A failure on a lost session: RC_ERR_RETRY (the core reads the chunk again) and a new session
 * next time (the readers on this one go; a new reader goes back to `from`); else st. */
rc_status rc_my_incsnap_again(rc_my_incsnap *x, rc_status st);
/* The table `name` ready to be read (structure, chunk key): RC_SKIP with the reason in err
 * when it cannot be (not captured, no key). */
rc_status rc_my_incsnap_prepare(my_source *s, const char *name, rc_incsnap_by *by, rc_error *err);
/* Whether the history's structure of the table now is the one its chunks are read with. */
bool rc_my_incsnap_current(const my_source *s, const inc_table *it);
/* Before a chunk is read: the table's structure as the history has it now. A DDL since the
 * last chunk (columns added, dropped, retyped) replaces it (said once); a table dropped or
 * renamed, a key changed, or more than INC_DDL_REREADS reads of one chunk in a row stop its
 * snapshot (err names the table and what to do). */
rc_status rc_my_incsnap_refresh(my_source *s, inc_table *it, rc_error *err);
/* The server's errors of a chunk's SELECT that a structure change causes (a column or the
 * table gone, the table rebuilt after the read view began). */
bool rc_my_incsnap_ddl_errno(unsigned e);
/* Frees the table's structure (own, st) or keeps it until rc_my_incsnap_free when `keep`
 * (events point at it); the table has none after. */
void rc_my_incsnap_table_drop(rc_my_incsnap *x, inc_table *it, bool keep);

/* A prepared table queued (signal: the id that asked, NULL: none), its estimate given and said
 * ("started (WHY, ~N rows, by ...)"): my_incsnap.c, for my_incsnap_captured.c. */
rc_status rc_my_incsnap_queue_table(my_source *s, const char *name, rc_incsnap_by by, const char *signal, const char *why,
                                    rc_error *e);

/* ---- my_incsnap_state.c ---- */
/* One key column's value (as the text protocol sends it) packed: a 4-byte length, a byte that
 * says it is bytes (a hex literal in SQL, {"hex":...} in the state), the bytes. */
void rc_my_incsnap_key_put(rc_buf *b, const char *p, uint32_t n, bool bytes);
/* Right after the core emitted a chunk at the handed boundary: its end (the position of its
 * last item, its last key) is recorded with the core, said under verbose; *keep: there is such
 * an item, which the caller keeps as a boundary at *end. */
rc_status rc_my_incsnap_chunk_done(my_source *s, rc_pos *end, bool *keep, rc_error *err);
/* A resumed table's reader (just made) starts after it->resume, which goes. */
rc_status rc_my_incsnap_resume_reader(inc_table *it, rc_error *err);
/* RC_SNAPSHOT_VERBOSE=1: "incremental snapshot T chunk N: WHAT" (N 0: the table's last). */
void rc_my_incsnap_say(my_source *s, size_t tab, uint64_t chunk, const char *what);

/* ---- my_incsnap_wm.c ---- */
/* x->run, at open. */
void rc_my_incsnap_wm_init(rc_my_incsnap *x);
/* ops->write_watermark with table watermarks: the row INSERTed (autocommit) into the signal
 * table on the chunks' session, id "rowcast-wm-RUN-CHUNK-open" / "-close"; a failure names the
 * privilege it needs. */
rc_status rc_my_incsnap_wm_write(my_source *s, const rc_incsnap_table *t, uint64_t chunk, rc_incsnap_mark mark, rc_error *err);
/* A watermark row of the signal table read from the stream (its id): one of this run's sets
 * seen_low / seen_high; others are ignored. */
void rc_my_incsnap_wm_seen(rc_my_incsnap *x, rc_str id);
/* A streamed event while the window is open: a change of the chunk's table gives its key
 * values before and after to the core (rc_incsnap_on_change), a TRUNCATE empties the chunk. */
rc_status rc_my_incsnap_wm_change(my_source *s, const rc_event *ev, rc_error *err);
/* The key values (st's chunk key) of an event's row image `row` (ev->cols' order, matched by
 * column name) into key[0..st->npk); false when a key column is not among the event's. */
bool rc_my_incsnap_event_key(const rc_my_snap_table *st, const rc_event *ev, const rc_value *row, rc_value *key);

#endif
