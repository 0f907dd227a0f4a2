/* Column lists a decoder has built, kept by the text they were built from (for Canal: the
 * message's mysqlType and pkNames), so that a table's columns are built once and not for every
 * message. Entries live as long as the cache: events point at them, and a caller may hold a
 * batch of events. The cache never evicts; once it holds RC_COLCACHE_MAX lists, put stores
 * nothing more and the decoder keeps building columns into its arena. */
#ifndef ROWCAST_COLCACHE_H
#define ROWCAST_COLCACHE_H

#include <stddef.h>
#include <stdint.h>
#include "rowcast/event.h"

enum { RC_COLCACHE_MAX = 4096 };

typedef struct rc_colset {
    const char *key; /* the cache's copy of the key */
    size_t keyn;
    const rc_column *cols; /* names and type strings copied into the entry */
    uint32_t n;
} rc_colset;

typedef struct rc_colcache rc_colcache;

rc_colcache *rc_colcache_new(void);
void rc_colcache_free(rc_colcache *c);
/* The list stored under key[0..n), or NULL. */
const rc_colset *rc_colcache_find(const rc_colcache *c, const char *key, size_t n);
/* Stores a copy of cols[0..ncols) (and of every string they point to) under a copy of the key
 * and returns it; NULL when the cache is full or out of memory (the caller keeps its own). */
const rc_colset *rc_colcache_put(rc_colcache *c, const char *key, size_t n, const rc_column *cols, uint32_t ncols);

#endif
