/* Per-event scratch memory: a bump allocator over a list of blocks. Decoders put unescaped
 * strings, columns and values here; the arena is reset once the sink has taken the event.
 * Reset keeps the largest block, so the steady state allocates nothing. */
#ifndef ROWCAST_ARENA_H
#define ROWCAST_ARENA_H

#include <stddef.h>
#include "rowcast/api.h"

typedef struct rc_arena_block rc_arena_block;
typedef struct rc_arena {
    rc_arena_block *head;
    char *ptr;
    char *end;
} rc_arena;

RC_API void rc_arena_init(rc_arena *a);
RC_API void rc_arena_reset(rc_arena *a);
RC_API void rc_arena_fini(rc_arena *a);
/* rc_arena_alloc when the current block has no room for n (a multiple of 8): a new block. */
RC_API void *rc_arena_alloc_block(rc_arena *a, size_t n);
/* Returns 8-byte aligned memory owned by the arena, or NULL when out of memory. Inline: the
 * row decoders allocate for most values, and the call was a third of the bump. */
static inline void *rc_arena_alloc(rc_arena *a, size_t n)
{
    n = (n + 7) & ~(size_t)7;
    if (n == 0) n = 8;
    if (a->ptr && (size_t)(a->end - a->ptr) >= n) {
        void *p = a->ptr;
        a->ptr += n;
        return p;
    }
    return rc_arena_alloc_block(a, n);
}
/* Copies n bytes and adds a NUL; NULL when out of memory. */
RC_API char *rc_arena_memdup(rc_arena *a, const void *p, size_t n);

#endif
