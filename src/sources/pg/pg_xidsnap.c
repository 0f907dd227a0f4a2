/* pg_current_snapshot()'s text and the chunk's visibility check (pg_xidsnap.h). */
#include "sources/pg/pg_xidsnap.h"
#include <stdlib.h>

/* A decimal number below 2^63 at text[*i]; false when there is none or it overflows. */
static bool number(const char *text, size_t n, size_t *i, uint64_t *out)
{
    size_t start = *i;
    uint64_t v = 0;
    while (*i < n && text[*i] >= '0' && text[*i] <= '9') {
        if (v > (UINT64_C(1) << 59)) return false;
        v = v * 10 + (uint64_t)(text[(*i)++] - '0');
    }
    *out = v;
    return *i > start;
}

static rc_status bad(rc_error *err, size_t at, const char *what)
{
    return rc_error_set(err, RC_ERR_SYNTAX, at, "pg_current_snapshot: %s at byte %zu", what, at);
}

rc_status rc_pg_xidsnap_parse(rc_pg_xidsnap *s, const char *text, size_t n, rc_error *err)
{
    size_t i = 0;
    s->nxip = 0;
    if (!number(text, n, &i, &s->xmin)) return bad(err, i, "expected xmin");
    if (i >= n || text[i++] != ':') return bad(err, i ? i - 1 : 0, "expected ':'");
    if (!number(text, n, &i, &s->xmax)) return bad(err, i, "expected xmax");
    if (s->xmax < s->xmin) return bad(err, i, "xmax before xmin");
    /* PostgreSQL keeps every live xid within 2^31 of the others (wraparound): so can we */
    if (s->xmax - s->xmin >= (UINT64_C(1) << 31)) return bad(err, i, "xmax more than 2^31 past xmin");
    if (i >= n || text[i++] != ':') return bad(err, i ? i - 1 : 0, "expected ':'");
    size_t cap = 0;
    while (i < n) {
        uint64_t x;
        if (s->nxip && text[i++] != ',') return bad(err, i - 1, "expected ','");
        if (!number(text, n, &i, &x)) return bad(err, i, "expected an xid");
        if (x < s->xmin || x >= s->xmax) return bad(err, i, "xid outside xmin..xmax");
        if (s->nxip == RC_PG_XIDSNAP_MAX_XIP) return bad(err, i, "too many xids in progress");
        if (s->nxip == cap) {
            cap = cap ? 2 * cap : 16;
            uint64_t *p = realloc(s->xip, cap * sizeof *p);
            if (!p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
            s->xip = p;
        }
        s->xip[s->nxip++] = x;
    }
    return RC_OK;
}

void rc_pg_xidsnap_fini(rc_pg_xidsnap *s)
{
    free(s->xip);
    s->xip = NULL, s->nxip = 0;
}

uint64_t rc_pg_xidsnap_full(const rc_pg_xidsnap *s, uint32_t xid)
{
    int32_t d = (int32_t)(xid - (uint32_t)s->xmin); /* modulo 2^32: the nearest epoch */
    if (d < 0 && s->xmin < (uint64_t)-(int64_t)d) return (uint64_t)xid; /* before epoch 0's start */
    return (uint64_t)((int64_t)s->xmin + d);
}

bool rc_pg_xidsnap_in_progress(const rc_pg_xidsnap *s, uint32_t xid)
{
    uint64_t full = rc_pg_xidsnap_full(s, xid);
    for (size_t i = 0; i < s->nxip; i++)
        if (s->xip[i] == full) return true;
    return false;
}

bool rc_pg_xidsnap_before_xmin(const rc_pg_xidsnap *s, uint32_t xid) { return rc_pg_xidsnap_full(s, xid) < s->xmin; }
