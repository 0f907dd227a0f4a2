/* Names hashed for lookup, for decoders that take a row's column names from each message
 * (Maxwell, OGG, OMS default, DataWorks): a column by its name, or a repeated name, is found
 * in constant time instead of by a pass over the columns for every name, which is quadratic
 * in wide rows. The table lives in the arena given to init; the names are not copied and
 * must outlive it. */
#ifndef ROWCAST_NAMEIDX_H
#define ROWCAST_NAMEIDX_H

#include "rowcast/arena.h"
#include "rowcast/event.h"
#include "core/json.h"

typedef struct rc_nameidx_slot {
    const char *p;
    size_t n;
    uint32_t idx; /* UINT32_MAX: empty */
} rc_nameidx_slot;
typedef struct rc_nameidx {
    rc_nameidx_slot *slot;
    uint32_t mask;
} rc_nameidx;

/* Room for up to n names; false when out of memory (or n past 2^31: the table would not have
 * 32-bit slot numbers). */
bool rc_nameidx_init(rc_nameidx *x, uint32_t n, rc_arena *a);
/* Adds p[0..len) with index idx unless the name is there already: returns the index the name
 * has, or UINT32_MAX when it was added. */
uint32_t rc_nameidx_add(rc_nameidx *x, const char *p, size_t len, uint32_t idx);
/* The index of name p[0..len), UINT32_MAX when absent. */
uint32_t rc_nameidx_find(const rc_nameidx *x, const char *p, size_t len);
/* The members of object node obj (none when it is not an object) by name, each to its value
 * node, the first of repeated names as rc_json_get; false when out of memory. */
bool rc_nameidx_object(rc_nameidx *x, const rc_json *j, uint32_t obj, rc_arena *a);
/* The value node of member p[0..len) of an index made by rc_nameidx_object, 0 when absent. */
static inline uint32_t rc_nameidx_member(const rc_nameidx *x, const char *p, size_t len)
{
    uint32_t v = rc_nameidx_find(x, p, len);
    return v == UINT32_MAX ? 0 : v;
}

/* The column of cols[0..n) named p[0..len), UINT32_MAX when none: cols[hint] when it is that
 * one (a row's values usually come in the order of its columns), else the index x, which a
 * first miss builds over cols (x is {0} until then). When that runs out of memory, x says so
 * (slot NULL, mask UINT32_MAX) and every lookup is a pass over cols, with no allocation tried
 * again. */
uint32_t rc_nameidx_column(rc_nameidx *x, const rc_column *cols, uint32_t n, uint32_t hint, const char *p, size_t len, rc_arena *a);

#endif
