/* Random canonical events for property tests: every operation, every catalog type of every
 * family, edge values included. Deterministic for a given seed. */
#ifndef RC_TEST_RANDEV_H
#define RC_TEST_RANDEV_H

#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/event.h"

typedef struct randev_rng {
    uint64_t s;
} randev_rng;

uint64_t randev_next(randev_rng *r);
/* Fills *ev with a random event whose memory lives in `a`. */
void randev_make(randev_rng *r, rc_arena *a, rc_event *ev);

/* A random value for `col` (NULL when nullable, zero-date-like invalid text, edge values; the
 * fraction of a second has any number of digits, whatever the declared precision). */
void randev_value(randev_rng *r, rc_arena *a, const rc_column *col, rc_value *v);
/* A declaration of catalog row `t`, with random parameters where the type takes them. */
void randev_decl(randev_rng *r, const rc_type_info *t, char *out, size_t cap);

#endif
