/* The incremental snapshots' numbers for the pipeline (rc_source_stats; docs/metrics.md,
 * docs/design/incremental-snapshots.md §7): the core's tables (sources/incsnap.h) and the
 * signals a source read, by type and result. Both sources count their signals here and copy
 * everything into their stats with rc_incsnap_stats. */
#ifndef RC_SOURCES_INCSNAP_STATS_H
#define RC_SOURCES_INCSNAP_STATS_H

#include <stdint.h>
#include "rowcast/source.h"
#include "rowcast/value.h"
#include "sources/incsnap.h"

typedef struct rc_incsnap_signals {
    uint64_t n[RC_SIGNAL_TYPES][RC_SIGNAL_RESULTS];
} rc_incsnap_signals;

/* Counts one signal row by its type as written (an unknown one counts as "unknown") and its
 * result (RC_SIGNAL_OK, _ERROR, _IGNORED). */
void rc_incsnap_signal_count(rc_incsnap_signals *sg, rc_str type, int result);

/* A core call's status as a signal's result: RC_OK ok, RC_SKIP ignored, else error. */
int rc_incsnap_signal_result(rc_status st);

/* A signal's result from two of its parts' (an execute-snapshot's tables): error over ok over
 * ignored. */
int rc_incsnap_signal_worse(int a, int b);

/* A pause-snapshot (pause) or resume-snapshot signal on the core: RC_SIGNAL_OK, or
 * RC_SIGNAL_IGNORED when it was so already. */
int rc_incsnap_signal_pause(rc_incsnap *core, bool pause);

/* Fills the incremental snapshot fields of `out` (has_incsnap set) from the core and the
 * counts (NULL: none). */
void rc_incsnap_stats(const rc_incsnap *core, const rc_incsnap_signals *sg, rc_source_stats *out);

#endif
