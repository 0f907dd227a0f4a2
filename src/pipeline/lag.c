/* The source time of the last delivered event (rc_lag, pipeline/pipeline.h), for the lag the
 * metrics endpoint reports. Kept only when the run has an endpoint. */
#include "pipeline_impl.h"

void rc_pipeline_lag_events(rc_pipeline *c, const rc_event *evs, size_t n)
{
    if (!c->metrics) return;
    for (size_t i = n; i-- > 0;)
        if (evs[i].has_ts) {
            c->lag.pending = true, c->lag.pending_us = evs[i].ts_us;
            return;
        }
}

void rc_pipeline_lag_mark(rc_pipeline *c)
{
    rc_lag *l = &c->lag;
    if (!c->metrics || !l->pending) return;
    rc_sink_stats ss;
    rc_sink_get_stats(c->sink, &ss);
    l->pending = false;
    if (l->tail - l->head == RC_LAG_MARKS) l->tail--; /* full: this one replaces the last */
    l->marks[l->tail % RC_LAG_MARKS].sent = ss.sent;
    l->marks[l->tail % RC_LAG_MARKS].ts_us = l->pending_us;
    l->tail++;
}

void rc_pipeline_lag_settle(rc_pipeline *c)
{
    rc_lag *l = &c->lag;
    uint64_t acked = rc_sink_acknowledged(c->sink);
    for (; l->head != l->tail && l->marks[l->head % RC_LAG_MARKS].sent <= acked; l->head++)
        l->known = true, l->ts_us = l->marks[l->head % RC_LAG_MARKS].ts_us;
}
