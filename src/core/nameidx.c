/* Names hashed for lookup (core/nameidx.h): open addressing with linear probing, at most half
 * full, so that a probe ends at an empty slot after a few steps. */
#include <string.h>
#include "core/hash.h"
#include "core/nameidx.h"
#include "rowcast/value.h"

bool rc_nameidx_init(rc_nameidx *x, uint32_t n, rc_arena *a)
{
    uint64_t cap = 8; /* 64 bits: for n past 2^31 a 32-bit cap wrapped to 0 and the loop never ended */
    while (cap < 2 * (uint64_t)n) cap *= 2;
    x->slot = cap <= (uint64_t)UINT32_MAX + 1 ? rc_arena_alloc(a, sizeof *x->slot * cap) : NULL;
    x->mask = (uint32_t)(cap - 1);
    if (!x->slot) return false;
    for (uint64_t i = 0; i < cap; i++) x->slot[i].idx = UINT32_MAX;
    return true;
}

/* Column names are short: up to 16 bytes hash as their first and last 8 (or 4) bytes, with
 * one multiplication instead of rc_hash64's three. */
static uint32_t name_hash(const char *p, size_t n)
{
    uint64_t a = n, b = 0;
    if (n > 16) return (uint32_t)rc_hash64(p, n, 0);
    if (n >= 8) {
        memcpy(&a, p, 8), memcpy(&b, p + n - 8, 8);
    } else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, p, 4), memcpy(&y, p + n - 4, 4);
        a = x, b = y;
    } else if (n) {
        a = (unsigned char)p[0] | (unsigned)(unsigned char)p[n / 2] << 8 | (unsigned)(unsigned char)p[n - 1] << 16;
    }
    /* the bytes that tell names apart are often the last ones (column_12, column_13): the
     * shift brings them down before the multiplication carries them up again */
    uint64_t h = a ^ (b << 32 | b >> 32) ^ (uint64_t)n << 56;
    h ^= h >> 29;
    h *= 0x9E3779B97F4A7C15ull;
    return (uint32_t)(h ^ h >> 32);
}

/* The slot of name p[0..len), or the empty slot where it goes. */
static rc_nameidx_slot *probe(const rc_nameidx *x, const char *p, size_t len)
{
    for (uint32_t i = name_hash(p, len) & x->mask;; i = (i + 1) & x->mask) {
        rc_nameidx_slot *s = &x->slot[i];
        if (s->idx == UINT32_MAX || (s->n == len && rc_short_eq(s->p, p, len))) return s;
    }
}

uint32_t rc_nameidx_add(rc_nameidx *x, const char *p, size_t len, uint32_t idx)
{
    rc_nameidx_slot *s = probe(x, p, len);
    if (s->idx != UINT32_MAX) return s->idx;
    *s = (rc_nameidx_slot){p, len, idx};
    return UINT32_MAX;
}

uint32_t rc_nameidx_find(const rc_nameidx *x, const char *p, size_t len) { return probe(x, p, len)->idx; }

bool rc_nameidx_object(rc_nameidx *x, const rc_json *j, uint32_t obj, rc_arena *a)
{
    const rc_jnode *nodes = j->nodes;
    bool is_obj = nodes[obj].type == RC_J_OBJECT;
    if (!rc_nameidx_init(x, is_obj ? nodes[obj].count : 0, a)) return false;
    for (uint32_t k = is_obj ? nodes[obj].first : 0; k; k = nodes[nodes[k].next].next) rc_nameidx_add(x, nodes[k].s, nodes[k].n, nodes[k].next);
    return true;
}

uint32_t rc_nameidx_column(rc_nameidx *x, const rc_column *cols, uint32_t n, uint32_t hint, const char *p, size_t len, rc_arena *a)
{
    if (hint < n && cols[hint].name.n == len && rc_short_eq(cols[hint].name.p, p, len)) return hint;
    if (!x->slot && x->mask != UINT32_MAX) { /* the first miss: the index, once */
        if (rc_nameidx_init(x, n, a)) {
            for (uint32_t i = 0; i < n; i++) rc_nameidx_add(x, cols[i].name.p, cols[i].name.n, i);
        } else {
            x->mask = UINT32_MAX; /* out of memory: not tried again for every later name of the row */
        }
    }
    if (x->slot) return rc_nameidx_find(x, p, len);
    for (uint32_t i = 0; i < n; i++)
        if (cols[i].name.n == len && rc_short_eq(cols[i].name.p, p, len)) return i;
    return UINT32_MAX;
}
