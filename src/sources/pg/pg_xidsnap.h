/* pg_current_snapshot()'s text, and the visibility check of an incremental snapshot's chunk
 * (docs/design/incremental-snapshots.md §1.2): WAL commit order is not visibility order, so a
 * transaction whose Commit the stream handed before the chunk's low watermark may still be in
 * progress for the chunk's snapshot (its xip). Such a chunk misses a change the stream already
 * emitted: it is read again. pgoutput gives 32-bit xids; the snapshot's are xid8 (epoch << 32
 * | xid): a 32-bit xid is placed in the epoch that puts it nearest to xmin. */
#ifndef ROWCAST_SOURCES_PG_XIDSNAP_H
#define ROWCAST_SOURCES_PG_XIDSNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/error.h"

enum { RC_PG_XIDSNAP_MAX_XIP = 65536 };

typedef struct rc_pg_xidsnap {
    uint64_t xmin, xmax;
    uint64_t *xip; /* malloc'd, nxip entries (at most RC_PG_XIDSNAP_MAX_XIP) */
    size_t nxip;
} rc_pg_xidsnap;

/* "xmin:xmax:xip1,xip2,..." (decimal, xmin <= every xip < xmax, xmax - xmin < 2^31) into s (its
 * previous xip freed). RC_ERR_SYNTAX naming the byte; RC_ERR_NOMEM. */
rc_status rc_pg_xidsnap_parse(rc_pg_xidsnap *s, const char *text, size_t n, rc_error *err);
void rc_pg_xidsnap_fini(rc_pg_xidsnap *s);

/* The xid8 of pgoutput's 32-bit `xid` nearest to s->xmin. */
uint64_t rc_pg_xidsnap_full(const rc_pg_xidsnap *s, uint32_t xid);
/* `xid` is in the snapshot's xip: in progress for it (its changes unseen). */
bool rc_pg_xidsnap_in_progress(const rc_pg_xidsnap *s, uint32_t xid);
/* `xid` precedes xmin: every snapshot taken later sees it (it can be forgotten). */
bool rc_pg_xidsnap_before_xmin(const rc_pg_xidsnap *s, uint32_t xid);

#endif
