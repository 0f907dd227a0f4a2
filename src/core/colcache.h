/* Column lists a decoder has built, kept by the text they were built from (for Canal: the
 * message's mysqlType and pkNames), so that a table's columns are built once and not for every
 * message. Entries live as long as the cache: events point at them, and a caller may hold a
 * batch of events. The cache never evicts; once it holds RC_COLCACHE_MAX lists, put stores
 * nothing more and the decoder keeps building columns into its arena. */
#ifndef ROWCAST_COLCACHE_H
#define ROWCAST_COLCACHE_H

#include <stddef.h>
#include <stdint.h>
#include "rowcast/buf.h"
#include "rowcast/event.h"
#include "core/json.h"

enum { RC_COLCACHE_MAX = 4096 };

typedef struct rc_colset {
    const char *key; /* the cache's copy of the key */
    size_t keyn;
    const rc_column *cols; /* names and type strings copied into the entry */
    uint32_t n;
    const rc_str *dflts; /* n defaults (rc_event.dflts) copied into the entry, NULL when none */
} rc_colset;

typedef struct rc_colcache rc_colcache;

rc_colcache *rc_colcache_new(void);
void rc_colcache_free(rc_colcache *c);
/* The list stored under key[0..n), or NULL. */
const rc_colset *rc_colcache_find(const rc_colcache *c, const char *key, size_t n);
/* Stores a copy of cols[0..ncols) (and of every string they point to) under a copy of the key
 * and returns it; NULL when the cache is full or out of memory (the caller keeps its own). */
const rc_colset *rc_colcache_put(rc_colcache *c, const char *key, size_t n, const rc_column *cols, uint32_t ncols);
/* rc_colcache_put with the columns' defaults (rc_event.dflts, NULL: none) copied too. */
const rc_colset *rc_colcache_put_dflts(rc_colcache *c, const char *key, size_t n, const rc_column *cols, uint32_t ncols,
                                      const rc_str *dflts);

/* A decoder's tables by the text of one member of its messages (Canal's mysqlType, native's
 * columns): the column list is built once per distinct text and `extra` bytes (what else
 * decides the list: flags, the pkNames text), and the member of the last table is recognised
 * by the JSON reader (t->memo, one of the reader's memo entries) instead of parsed. */
typedef struct rc_coltext {
    rc_colcache *cache;
    const rc_colset *cur; /* the last table */
    size_t cur_extra;     /* its extra bytes: cur->key is a 4-byte length, the extra bytes, the text */
    rc_json_memo *memo;
    rc_buf key;
    rc_json aux; /* a recognised member parsed again, when its list must be built */
} rc_coltext;

/* Builds the column list of member node m of j into the decoder's arena; its errors are the
 * decoder's own (offsets of j, which for a recognised member are this message's). */
typedef rc_status (*rc_coltext_build_fn)(void *ctx, const rc_json *j, uint32_t m, const rc_column **cols, uint32_t *n);

bool rc_coltext_init(rc_coltext *t, rc_json_memo *memo); /* false when out of memory */
void rc_coltext_fini(rc_coltext *t);
/* The column list of member node m of j (an array, an object, or a memo node for t->memo):
 * from the cache, else built with build(ctx, ...) and stored. Any other node type goes to
 * build as it is (for its error). The list lives as long as t (*cols_id: its entry, for
 * rc_event.cols_id), or the arena when the cache is full (*cols_id NULL). */
rc_status rc_coltext_columns(rc_coltext *t, const rc_json *j, uint32_t m, const char *extra, size_t extra_n, rc_coltext_build_fn build,
                             void *ctx, rc_arena *a, const rc_column **cols, uint32_t *n, const void **cols_id, rc_error *err);

#endif
