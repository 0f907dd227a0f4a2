/* See tracker.h. */
#include <stdlib.h>
#include "tracker.h"

enum { MARKS = 4096 };

rc_status rc_tracker_init(tracker *t, uint64_t cap)
{
    *t = (tracker){0};
    t->done = calloc(cap, 1);
    t->marks = calloc(MARKS, sizeof *t->marks);
    if (!t->done || !t->marks) {
        rc_tracker_fini(t);
        return RC_ERR_NOMEM;
    }
    t->mask = cap - 1;
    t->mmask = MARKS - 1;
    return RC_OK;
}

void rc_tracker_fini(tracker *t)
{
    free(t->done);
    free(t->marks);
    t->done = NULL;
    t->marks = NULL;
}

/* Marks whose records are all acknowledged become the safe position. */
static void settle(tracker *t)
{
    while (t->mhead != t->mtail && t->marks[t->mhead & t->mmask].seq_end <= t->base) {
        const tracker_mark *m = &t->marks[t->mhead & t->mmask];
        t->has_safe = true;
        t->safe_pos = m->pos;
        t->safe_sizes = m->sizes;
        t->mhead++;
    }
}

void rc_tracker_ack(tracker *t, uint64_t seq)
{
    if (seq < t->base || seq >= t->next) return; /* not in flight: ignore */
    t->done[seq & t->mask] = 1;
    while (t->base < t->next && t->done[t->base & t->mask]) t->done[t->base++ & t->mask] = 0;
    settle(t);
}

void rc_tracker_ack_all(tracker *t)
{
    while (t->base < t->next) t->done[t->base++ & t->mask] = 0;
    settle(t);
}

void rc_tracker_ack_below(tracker *t, uint64_t end)
{
    if (end > t->next) end = t->next;
    while (t->base < end || (t->base < t->next && t->done[t->base & t->mask])) t->done[t->base++ & t->mask] = 0;
    settle(t);
}

void rc_tracker_mark_at(tracker *t, const rc_pos *pos, tracker_sizes sizes)
{
    if (t->mtail != t->mhead) {
        tracker_mark *last = &t->marks[(t->mtail - 1) & t->mmask];
        if (last->seq_end == t->next || t->mtail - t->mhead > t->mmask) {
            /* no record since the last mark, or the ring is full: the newer mark covers more
             * input and waits for at least as many records, so it replaces the last one */
            *last = (tracker_mark){t->next, *pos, sizes};
            settle(t);
            return;
        }
    }
    t->marks[t->mtail++ & t->mmask] = (tracker_mark){t->next, *pos, sizes};
    settle(t);
}
