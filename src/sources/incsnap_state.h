/* The incremental snapshot state text (docs/design/incremental-snapshots.md §4): what a
 * restart needs to go on where the acknowledged output stopped, the same text in PostgreSQL's
 * state file and in MySQL's checkpoint:
 *
 *   snapshot-state 1
 *   captured public.items public.orders
 *   paused 0
 *   table public.orders incremental by=pk signal=s-42 rows=120000 estimate=200000 chunks=30
 *   last public.orders ["2024-05-01","17"]
 *   filter public.orders "status = 'open'"
 *   table public.items initial by=ctid rows=0 estimate=5000000 chunks=0
 *   last public.items (81234,0)
 *   queued public.audit signal=s-43
 *
 * A name (and a signal id) is written bare when it holds no space, quote, backslash or control
 * byte, else as a JSON string. `last` is the last key of the last acknowledged chunk: the key
 * columns' text values as a JSON array, a value that is bytes (or not UTF-8) as {"hex":"…"};
 * for ctid chunks the next page as (PAGE,0). `filter` is a JSON string. A `last` or `filter`
 * line follows its table's line. */
#ifndef RC_SOURCES_INCSNAP_STATE_H
#define RC_SOURCES_INCSNAP_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "sources/incsnap.h"

/* One key column's value as text (bytes: raw bytes, written as hex). */
typedef struct rc_isstate_key {
    const char *p;
    size_t n;
    bool bytes;
} rc_isstate_key;

typedef struct rc_isstate_table {
    const char *name;
    bool queued;  /* a `queued` line: not started (only name and signal) */
    bool initial; /* the initial snapshot resumed, not an incremental one */
    rc_incsnap_by by;
    const char *signal; /* NULL: none */
    uint64_t rows, estimate, chunks;
    bool has_last, last_is_page;
    uint64_t last_page;   /* ctid: the next page */
    rc_isstate_key *last; /* key: nlast values */
    size_t nlast;
    const char *filter; /* NULL: none */
} rc_isstate_table;

/* Every string and array lives in `arena`. */
typedef struct rc_isstate {
    rc_arena arena;
    const char **captured;
    size_t ncaptured;
    bool paused;
    rc_isstate_table *t;
    size_t nt;
} rc_isstate;

void rc_isstate_init(rc_isstate *st);
void rc_isstate_fini(rc_isstate *st);

/* Appends the state's text to out. RC_ERR_UTF8 when a name, signal id or filter is not UTF-8
 * (it could not be read back). */
rc_status rc_isstate_write(const rc_isstate *st, rc_buf *out, rc_error *err);

/* Parses text[0..n) into st (emptied first). Errors name the line and give the byte offset. */
rc_status rc_isstate_parse(rc_isstate *st, const char *text, size_t n, rc_error *err);

#endif
