/* The PostgreSQL incremental snapshot's own parts (pg_incsnap.c: signals, the stream, state;
 * pg_incsnap_chunk.c: the chunk reads). Not installed; only those two files include it. */
#ifndef ROWCAST_SOURCES_PG_INCSNAP_INT_H
#define ROWCAST_SOURCES_PG_INCSNAP_INT_H

#include <time.h>
#include "sources/incsnap.h"
#include "sources/incsnap_stats.h"
#include "sources/incsnap_state.h"
#include "sources/pg/pg_incsnap.h"
#include "sources/pg/pg_state.h"
#include "sources/pg/pg_xidsnap.h"

enum { QK_ROW, QK_START, QK_END, QK_STOPPED };
enum { KEY_MAX = 32 };

typedef struct queued {
    size_t table; /* into is->tables */
    int kind;     /* QK_* */
    size_t off, len;
} queued;

typedef struct started {
    char *name;
    size_t table; /* into is->tables */
    struct timespec t0;
    /* pg_incsnap_gate.c: its next chunk waits until every xid below `gate` ended (0: none),
     * since gate_since (monotonic s); whether the wait was said */
    uint64_t gate;
    double gate_since;
    bool gate_said;
} started;

/* A chunk's query sent, its answer not read yet (pg_incsnap_chunk.c). */
typedef struct rc_pgis_ahead rc_pgis_ahead;
/* The last chunk's column set, for its rows' keys (pg_incsnap_chunk.c). */
typedef struct rc_pgis_keyer rc_pgis_keyer;

struct rc_pg_incsnap {
    rc_pg_conn *conn;
    rc_pg_events *ev;
    rc_incsnap *core;
    rc_pg_incsnap_opts o;
    char signal_ns[64], signal_rel[64];
    uint64_t run;
    started *tables; /* every table asked for, with its catalog entry */
    rc_pg_table *cat;
    size_t ntables;
    /* the key texts of the last row read and of the last chunk emitted (the next chunk's
     * start), each followed by a tab, tabs and backslashes in them escaped */
    rc_buf cursor_next, cursor;
    /* the queue of rows and edges to hand out */
    queued *q;
    size_t nq, capq, qi;
    rc_buf qtext;
    rc_arena scratch;
    /* the visibility check (pg_xidsnap.h): the chunk's snapshot, the xids whose Commit the
     * stream handed since an xmin (nbefore of them before the chunk's LW) */
    rc_pg_xidsnap snap;
    uint32_t *emitted, cur_xid;
    size_t nemit, capemit, nbefore;
    rc_incsnap_signals signals; /* read so far, by type and result (metrics) */
    /* resuming (pg_state.h): the state file, why it cannot be written ("": it can), the state
     * read at open, the table of the chunk in flight and of `cursor` */
    char state_path[RC_PG_STATE_PATH_MAX], state_why[RC_PG_STATE_PATH_MAX + 200];
    bool state_checked, state_failed, signal_seen;
    rc_isstate loaded;
    rc_state_store *store; /* where the state is written, opened at its first write */
    rc_pg_state_pos loaded_at; /* the position the state read at open is as of ({0}: none) */
    size_t chunk_table, cursor_table;
    /* the tables this run captures: the state's `captured` line (written with the next state
     * when it changed) */
    char **captured;
    size_t ncaptured;
    bool captured_dirty;
    double gate_polled; /* when pg_incsnap_gate.c last read pg_current_snapshot() */
    double missed_until; /* a chunk that missed a streamed transaction is read again after this */
    /* reading ahead: the next chunk's read may be left in flight (ahead_ok, asked around the
     * core's step), and the one in flight (NULL: none) */
    bool ahead_ok;
    rc_pgis_ahead *ahead;
    rc_pgis_keyer *keyer; /* NULL until the first chunk read */
};

/* A line on the notice callback. */
void rc_pgis_say(rc_pg_incsnap *is, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* RC_SNAPSHOT_VERBOSE=1: "incremental snapshot public.t chunk 17: window open". */
void rc_pgis_chunk_said(rc_pg_incsnap *is, const char *what);
/* The table asked for of that name, or NULL. */
started *rc_pgis_table_of(rc_pg_incsnap *is, const char *name);
/* The key columns of an event in key order (every column for a keyless table): their count. */
uint32_t rc_pgis_key_of(const rc_event *ev, bool keyless, uint32_t *idx);
/* A row of NULLs for rel's columns (the edges' zero-row reads). */
rc_status rc_pgis_null_row(rc_arena *a, const rc_pg_relation *rel, rc_pgo_tuple *row, rc_error *err);
/* The key texts of a cursor, unescaped into v (cursor->len + 1 bytes): their count. */
size_t rc_pgis_cursor_keys(const rc_buf *cursor, char *v, rc_isstate_key *k);
/* pg_current_snapshot() into is->snap; emitted xids it sees are forgotten. */
rc_status rc_pgis_take_snapshot(rc_pg_incsnap *is, rc_error *err);
/* At HW: a transaction the stream handed before LW was in progress for the chunk. */
bool rc_pgis_chunk_missed_one(const rc_pg_incsnap *is);
/* A transaction whose Commit the stream handed. */
void rc_pgis_emitted_add(rc_pg_incsnap *is, uint32_t xid);
/* Whether two versions of a relation have the same columns. */
bool rc_pgis_same_columns(const rc_pg_relation *a, const rc_pg_relation *b);
/* The table was queued (or resumed): its next chunk waits until the transactions open now ended
 * (pg_incsnap_gate.c: those that changed it before it was published are not in the stream). */
rc_status rc_pgis_gate_set(rc_pg_incsnap *is, started *tb, rc_error *err);
/* Whether the next chunk must wait for such transactions still (polled at most every 20 ms;
 * said once: at once with RC_SNAPSHOT_VERBOSE, else after 5 s; a failed poll waits, said once). */
bool rc_pgis_gate_waits(rc_pg_incsnap *is);
/* A chunk missed a transaction the stream handed out (still in progress in its snapshot: with
 * a synchronous standby, committed but not visible until the standby answers): the next read
 * waits GATE_POLL_MS, so that a transaction invisible for long makes 50 reads a second, not
 * hundreds (each two watermark commits in the WAL). */
void rc_pgis_gate_missed(rc_pg_incsnap *is);
/* Reading ahead (docs/design/incremental-snapshots.md §1.2): with is->ahead_ok, the read of a
 * table with a primary key sends its query and leaves the answer to rc_pgis_read_end (the
 * core's rc_incsnap_read_later), which the source calls before it reads the stream again or
 * uses the SQL session; rc_pgis_read_poll meanwhile takes what the server sent off the socket,
 * so that the server goes on with the COPY. */
void rc_pgis_read_poll(rc_pg_incsnap *is);
rc_status rc_pgis_read_end(rc_pg_incsnap *is, rc_error *err);
void rc_pgis_ahead_free(rc_pg_incsnap *is);
/* The core's row_key op: a buffered COPY line's key image, with the last chunk's column set. */
rc_status rc_pgis_row_key(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn, rc_buf *img, rc_error *err);
void rc_pgis_keyer_free(rc_pg_incsnap *is);
/* The core's read_chunk op. */
rc_status rc_pgis_read_chunk(void *ctx, rc_incsnap *core, const rc_incsnap_table *t, size_t limit, rc_error *err);

#endif
