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

typedef struct rc_db_phase_ops {
    rc_status (*snapshot_batch)(void *s, rc_error *err);
    bool (*snapshot_acked)(const void *s); /* the sink acknowledged every snapshot row */
    rc_status (*snapshot_done)(void *s, rc_error *err);
    rc_status (*stream_start)(void *s, rc_error *err);
    rc_status (*stream_batch)(void *s, int timeout_ms, rc_error *err);
} rc_db_phase_ops;

/* One `next` of the source `s` whose phase is *ph and batch b: b emptied, the phase's work
 * done, *out = b when it holds items or is the last, else a short sleep when the source is
 * waiting rather than reading (not a busy loop). */
rc_status rc_db_phase_next(const rc_db_phase_ops *ops, void *s, const rc_db_phase *ph, rc_batch *b, int timeout_ms, rc_batch **out,
                           rc_error *err);

/* Sleeps ms milliseconds: a source that waits rather than reads (not a busy loop). */
void rc_db_phase_nap(int ms);

#endif
