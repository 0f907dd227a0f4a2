/* Bump allocator over a list of blocks; reset keeps only the largest block. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/arena.h"

struct rc_arena_block {
    rc_arena_block *next;
    size_t size;
    max_align_t data[];
};

enum { ARENA_MIN_BLOCK = 16 * 1024 };

void rc_arena_init(rc_arena *a)
{
    a->head = NULL;
    a->ptr = a->end = NULL;
}

static void set_current(rc_arena *a, rc_arena_block *blk)
{
    a->ptr = (char *)blk->data;
    a->end = a->ptr + blk->size;
}

void rc_arena_reset(rc_arena *a)
{
    if (!a->head) return;
    /* Keep the largest block: after a burst of big events it is the one worth reusing. */
    rc_arena_block *keep = a->head;
    for (rc_arena_block *b = a->head; b; b = b->next)
        if (b->size > keep->size) keep = b;
    rc_arena_block *b = a->head;
    while (b) {
        rc_arena_block *next = b->next;
        if (b != keep) free(b);
        b = next;
    }
    keep->next = NULL;
    a->head = keep;
    set_current(a, keep);
}

void rc_arena_fini(rc_arena *a)
{
    rc_arena_block *b = a->head;
    while (b) {
        rc_arena_block *next = b->next;
        free(b);
        b = next;
    }
    rc_arena_init(a);
}

void *rc_arena_alloc_block(rc_arena *a, size_t n)
{
    if ((size_t)(a->end - a->ptr) < n || !a->ptr) {
        size_t size = ARENA_MIN_BLOCK;
        if (a->head && a->head->size * 2 > size) size = a->head->size * 2;
        while (size < n) size *= 2;
        if (size < n) return NULL; /* overflow */
        rc_arena_block *blk = malloc(sizeof *blk + size);
        if (!blk) return NULL;
        blk->size = size;
        blk->next = a->head;
        a->head = blk;
        set_current(a, blk);
    }
    void *p = a->ptr;
    a->ptr += n;
    return p;
}

char *rc_arena_memdup(rc_arena *a, const void *p, size_t n)
{
    char *d = rc_arena_alloc(a, n + 1);
    if (!d) return NULL;
    if (n) memcpy(d, p, n);
    d[n] = '\0';
    return d;
}
