/* Which records are acknowledged, and which input position that makes safe to store.
 * Records are numbered in sending order; acknowledgements may arrive in any order (several
 * partitions); the safe position is the last mark whose records are all acknowledged.
 * Positions are opaque (rowcast/position.h): whatever the source marked. */
#ifndef ROWCAST_SINKS_TRACKER_H
#define ROWCAST_SINKS_TRACKER_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/error.h"
#include "rowcast/position.h"

/* What the sink had appended to its files at a mark (rc_sink_state's sizes). */
typedef struct tracker_sizes {
    uint64_t output, dead_letter;
} tracker_sizes;

typedef struct tracker_mark {
    uint64_t seq_end; /* records below this number belong to input before `pos` */
    rc_pos pos;
    tracker_sizes sizes;
} tracker_mark;

typedef struct tracker {
    uint8_t *done;  /* ring of per-record acknowledgement flags, indexed by seq & mask */
    uint64_t mask;
    uint64_t base;  /* lowest unacknowledged record */
    uint64_t next;  /* number of the next record */
    tracker_mark *marks; /* ring of marks not yet covered */
    uint64_t mmask, mhead, mtail;
    bool has_safe;
    rc_pos safe_pos;
    tracker_sizes safe_sizes;
} tracker;

/* `cap` (a power of two) bounds the records in flight. */
rc_status rc_tracker_init(tracker *t, uint64_t cap);
void rc_tracker_fini(tracker *t);
/* True when another record may be numbered without waiting for acknowledgements. */
static inline bool tracker_room(const tracker *t) { return t->next - t->base <= t->mask; }
static inline uint64_t tracker_take(tracker *t) { return t->next++; }
/* Gives back the number just taken (the record was never handed over). */
static inline void tracker_untake(tracker *t) { t->next--; }
void rc_tracker_ack(tracker *t, uint64_t seq);
void rc_tracker_ack_all(tracker *t);
/* Acknowledges every record below `end` (those sent, if fewer). */
void rc_tracker_ack_below(tracker *t, uint64_t end);
void rc_tracker_mark_at(tracker *t, const rc_pos *pos, tracker_sizes sizes);
static inline uint64_t tracker_outstanding(const tracker *t) { return t->next - t->base; }

#endif
