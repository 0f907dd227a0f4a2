/* The phase driver of the database sources (db_phases.h). */
#include <time.h>
#include "sources/db_phases.h"

void rc_db_phase_nap(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL); /* a signal ends it early: the caller looks at its stop flag */
}

rc_status rc_db_phase_next(const rc_db_phase_ops *ops, void *s, const rc_db_phase *ph, rc_batch *b, int timeout_ms, rc_batch **out,
                           rc_error *err)
{
    *out = NULL;
    b->n = 0, b->len = 0, b->last = false, b->rc = 0;
    b->events.count = 0;
    rc_arena_reset(&b->arena);
    rc_status st = RC_OK;
    switch (*ph) {
    case PH_SNAPSHOT:
        st = ops->snapshot_batch(s, err);
        break;
    case PH_SNAPSHOT_ACK:
        if (ops->snapshot_acked(s)) st = ops->snapshot_done(s, err);
        break;
    case PH_STREAM_START:
        st = ops->stream_start(s, err);
        if (st == RC_OK && *ph == PH_STREAM) st = ops->stream_batch(s, timeout_ms, err);
        break;
    case PH_STREAM:
        st = ops->stream_batch(s, timeout_ms, err);
        break;
    case PH_DONE:
        break;
    }
    if (st != RC_OK) return st;
    if (*ph == PH_DONE) b->last = true;
    if (b->n || b->last) *out = b;
    else if (*ph != PH_STREAM && *ph != PH_SNAPSHOT) {
        rc_db_phase_nap(timeout_ms < 20 ? timeout_ms : 20); /* waiting (for acknowledgements, or to reconnect) */
    }
    return RC_OK;
}
