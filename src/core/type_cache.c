/* Cache of parsed column declarations (see types.h). */
#include <stdlib.h>
#include <string.h>
#include "rowcast/arena.h"
#include "core/hash.h"
#include "rowcast/types.h"

enum { TYPE_CACHE_SLOTS = 1024 };

typedef struct type_slot {
    char *text;
    size_t n;
    rc_family fam;
    rc_coltype type;
} type_slot;

struct rc_type_cache {
    type_slot slots[TYPE_CACHE_SLOTS];
    size_t used;
};

rc_type_cache *rc_type_cache_new(void) { return calloc(1, sizeof(rc_type_cache)); }

static void clear(rc_type_cache *c)
{
    for (size_t i = 0; i < TYPE_CACHE_SLOTS; i++) {
        free(c->slots[i].text);
        c->slots[i].text = NULL;
    }
    c->used = 0;
}

void rc_type_cache_free(rc_type_cache *c)
{
    if (!c) return;
    clear(c);
    free(c);
}

static rc_status parse_into(rc_family fam, const char *copy, size_t n, size_t off, rc_coltype *t, rc_error *err)
{
    rc_error terr;
    rc_error_clear(&terr);
    if (rc_coltype_parse(fam, copy, n, t, &terr) == RC_OK) return RC_OK;
    return rc_error_set(err, terr.code, terr.offset == RC_NO_OFFSET ? off : off + terr.offset, "%s", terr.message);
}

rc_status rc_type_cache_get(rc_type_cache *c, rc_arena *a, rc_family fam, const char *s, size_t n, size_t off,
                            const rc_coltype **out, rc_error *err)
{
    if (c->used >= TYPE_CACHE_SLOTS * 3 / 4) {
        /* full: events still point into the cache (a caller may hold a batch of them), so
         * parse this one into the arena instead of evicting */
        rc_coltype *t = rc_arena_alloc(a, sizeof *t);
        char *copy = rc_arena_memdup(a, s, n);
        if (!t || !copy) return rc_error_set(err, RC_ERR_NOMEM, off, "out of memory");
        rc_status st = parse_into(fam, copy, n, off, t, err);
        if (st == RC_OK) *out = t;
        return st;
    }
    size_t i = (size_t)(rc_hash64(s, n, (uint64_t)fam) % TYPE_CACHE_SLOTS);
    for (;; i = (i + 1) % TYPE_CACHE_SLOTS) {
        type_slot *sl = &c->slots[i];
        if (!sl->text) break;
        if (sl->fam == fam && sl->n == n && memcmp(sl->text, s, n) == 0) {
            *out = &sl->type;
            return RC_OK;
        }
    }
    type_slot *sl = &c->slots[i];
    char *copy = malloc(n + 1);
    if (!copy) return rc_error_set(err, RC_ERR_NOMEM, off, "out of memory");
    memcpy(copy, s, n);
    copy[n] = '\0';
    rc_status st = parse_into(fam, copy, n, off, &sl->type, err);
    if (st != RC_OK) {
        free(copy);
        return st;
    }
    sl->text = copy;
    sl->n = n;
    sl->fam = fam;
    c->used++;
    *out = &sl->type;
    return RC_OK;
}
