/* The PostgreSQL incremental snapshot state file (docs/sources/postgres.md, "Incremental
 * snapshots"; docs/design/incremental-snapshots.md §4):
 *
 *   rowcast-pg-state 1
 *   slot rowcast
 *   at 0/16B3748 3                (the acknowledged position (LSN, k) it is the state as of)
 *   snapshot-state 1              (the state text of sources/incsnap_state.h)
 *   ...
 *
 * --checkpoint PATH, or by default $XDG_STATE_HOME/rowcast/pg-HOST-PORT-DB-SLOT.state
 * ($XDG_STATE_HOME: ~/.local/state). Written (PATH.tmp, fsync, rename, the directory fsync'ed)
 * before the slot is told the position the state belongs to. A kill can come between the two:
 * the slot is then behind the state's position, and a file sink is cut back to the state's
 * (pg_source.c, resumes_at), not the slot's, so that the chunks the state counts as delivered
 * stay in the file.
 *
 * --checkpoint kafka://HOST:PORT/TOPIC keeps the same text in a Kafka topic instead, keyed
 * rowcast/SERVER/state (pipeline/state_store.h; --server NAME needed), as MySQL's checkpoint:
 * the state then outlives the machine, and a standby (--standby) goes on with it. */
#ifndef ROWCAST_SOURCES_PG_STATE_H
#define ROWCAST_SOURCES_PG_STATE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include "pipeline/state_store.h"
#include "rowcast/error.h"
#include "sources/incsnap_state.h"

enum { RC_PG_STATE_PATH_MAX = 4096 };

/* The default path for a server and slot (host: a socket directory's slashes become '_'); the
 * directory is made when missing. RC_ERR_USAGE when neither $XDG_STATE_HOME nor $HOME is set. */
rc_status rc_pg_state_default_path(char *out, size_t n, const char *host, const char *port, const char *db,
                                   const char *slot, rc_error *err);
/* The state file's path: `given` (--checkpoint), else the default one; when that cannot be
 * had, why[0..whyn) says why, with the fix (else why is ""). */
void rc_pg_state_locate(char *path, size_t n, char *why, size_t whyn, const char *given, const char *host, const char *port,
                        const char *db, const char *slot);
/* A table's `last` as a JSON array of its key texts ("[\"17\",\"b\"]"; a bytes value as
 * {"hex":"…"}), NUL-terminated, for the resuming line. */
void rc_pg_state_last_json(rc_buf *b, const rc_isstate_table *t);
/* Whether PATH can be written: its directory takes a new file (PATH.tmp, removed again); a
 * kafka:// place is checked when it is opened. */
rc_status rc_pg_state_writable(const char *path, rc_error *err);

/* The position a state is as of: (LSN, k), k the item's number after that Commit. */
typedef struct rc_pg_state_pos {
    uint64_t lsn, k;
} rc_pg_state_pos;

/* Where a file sink is cut back to after a restart, given the slot's confirmed LSN and the
 * state's position: the state's when it is strictly ahead of the slot (killed between the
 * state's write and the slot's status update), else (slot LSN, UINT64_MAX) — everything the
 * sink acknowledged at that LSN, a chunk's rows emitted there included: the slot is told L as
 * soon as some of them are acknowledged, the state only once all are. (L, 0) would cut back to
 * before them, to an older record, while the stream resumes after L: what came between was lost
 * (session 19). */
rc_pg_state_pos rc_pg_state_cut_at(uint64_t slot_lsn, rc_pg_state_pos at);

/* Parses a state file's text: the header, the slot (into slot[0..slotn)), the position, the
 * state. */
rc_status rc_pg_state_parse(const char *text, size_t n, char *slot, size_t slotn, rc_pg_state_pos *at, rc_isstate *st,
                            rc_error *err);
/* What a kafka:// place needs (unused for a file): the capture's --server (the record's key),
 * the run's -o options (kafka.* properties) and its stop flag. */
typedef struct rc_pg_state_home {
    const char *server;
    const rc_options *opts;
    volatile sig_atomic_t *stop;
} rc_pg_state_home;

/* Reads the state at `where` (a PATH or kafka://…) into st: RC_SKIP when there is none;
 * RC_ERR_USAGE when it is another slot's. */
rc_status rc_pg_state_read(const char *where, const rc_pg_state_home *home, const char *slot, rc_pg_state_pos *at,
                           rc_isstate *st, rc_error *err);
/* Writes the state at `where` durably; *store: the place opened at the first write, kept for
 * the next ones (closed with rc_state_store_close). */
rc_status rc_pg_state_write(rc_state_store **store, const char *where, const rc_pg_state_home *home, const char *slot,
                            rc_pg_state_pos at, const rc_isstate *st, rc_error *err);

#endif
