/* The standard benchmark workload: one `orders` table of 12 columns of mixed types,
 * 50% inserts, 40% updates, 10% deletes, generated from a fixed seed so that every run and
 * every benchmark sees the same events. The events share one column list with a cols_id, as
 * the readers' and the captures' events do, so the encoders' per-table caches are used. */
#ifndef RC_BENCH_WORKLOAD_H
#define RC_BENCH_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/event.h"

enum { WORKLOAD_COLS = 12 };
#define WORKLOAD_SEED 42u

/* Fills events[0..n) (memory in `a`). Deterministic for a seed. */
void workload_make(uint64_t seed, size_t n, rc_arena *a, rc_event *events);

#endif
