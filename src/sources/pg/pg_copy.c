/* COPY text rows -> pgoutput tuples (pg_copy.h). */
#include "sources/pg/pg_copy.h"
#include <string.h>

static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

/* Undoes the escapes of field f[0..n) into the arena. */
static char *unescape(rc_arena *a, const char *f, size_t n, uint32_t *out_len)
{
    char *o = rc_arena_alloc(a, n + 1), *w = o;
    if (!o) return NULL;
    for (size_t i = 0; i < n; i++) {
        if (f[i] != '\\' || i + 1 == n) {
            *w++ = f[i];
            continue;
        }
        char c = f[++i];
        static const char from[] = "bfnrtv", to[] = "\b\f\n\r\t\v";
        const char *k = strchr(from, c);
        if (c && k) {
            *w++ = to[k - from];
        } else if (c == 'x' && i + 1 < n && hex(f[i + 1]) >= 0) {
            int v = hex(f[++i]);
            if (i + 1 < n && hex(f[i + 1]) >= 0) v = v * 16 + hex(f[++i]);
            *w++ = (char)v;
        } else if (c >= '0' && c <= '7') {
            int v = c - '0';
            for (int d = 0; d < 2 && i + 1 < n && f[i + 1] >= '0' && f[i + 1] <= '7'; d++) v = v * 8 + (f[++i] - '0');
            *w++ = (char)v;
        } else {
            *w++ = c;
        }
    }
    *out_len = (uint32_t)(w - o);
    return o;
}

rc_status rc_pg_copy_row(rc_arena *a, const rc_pg_relation *rel, const char *line, size_t n,
                         rc_pgo_tuple *t, rc_error *err)
{
    rc_pgo_datum *d = rc_arena_alloc(a, (rel->ncols ? rel->ncols : 1) * sizeof *d);
    if (!d) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    size_t at = 0;
    for (uint16_t i = 0; i < rel->ncols; i++) {
        if (at > n)
            return rc_error_set(err, RC_ERR_SCHEMA, n, "COPY row of %s.%s has %u columns, the table %u", rel->nspname,
                                rel->relname, i, rel->ncols);
        const char *tab = memchr(line + at, '\t', n - at);
        size_t end = tab ? (size_t)(tab - line) : n;
        if (end - at == 2 && line[at] == '\\' && line[at + 1] == 'N') {
            d[i] = (rc_pgo_datum){NULL, 0, RC_PGO_NULL};
        } else {
            uint32_t len = 0;
            char *v = unescape(a, line + at, end - at, &len);
            if (!v) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
            d[i] = (rc_pgo_datum){(const uint8_t *)v, len, RC_PGO_TEXT};
        }
        at = end + 1;
    }
    if (at <= n && (rel->ncols || n))
        return rc_error_set(err, RC_ERR_SCHEMA, at ? at - 1 : 0, "COPY row of %s.%s has more columns than the table's %u",
                            rel->nspname, rel->relname, rel->ncols);
    *t = (rc_pgo_tuple){rel->ncols, d};
    return RC_OK;
}
