/* Per-event scratch memory: a bump allocator over a list of blocks. Decoders put unescaped
 * strings, columns and values here; the arena is reset once the sink has taken the event.
 * Reset keeps the largest block, so the steady state allocates nothing. */
#ifndef ROWCAST_ARENA_H
#define ROWCAST_ARENA_H

#include <stddef.h>

typedef struct rc_arena_block rc_arena_block;
typedef struct rc_arena {
    rc_arena_block *head;
    char *ptr;
    char *end;
} rc_arena;

void rc_arena_init(rc_arena *a);
void rc_arena_reset(rc_arena *a);
void rc_arena_fini(rc_arena *a);
/* Returns 8-byte aligned memory owned by the arena, or NULL when out of memory. */
void *rc_arena_alloc(rc_arena *a, size_t n);
/* Copies n bytes and adds a NUL; NULL when out of memory. */
char *rc_arena_memdup(rc_arena *a, const void *p, size_t n);

#endif
