/* COPY text rows -> pgoutput tuples (pg_copy.h). */
#include "sources/pg/pg_copy.h"
#include <string.h>

static int hex(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

/* Undoes the escapes of field f[0..n) into the arena: the runs between backslashes copied
 * whole (byte at a time, this was 3.1k instructions of a snapshot row's 14k: bytea's \\x and
 * text with tabs have escapes in every row). */
static char *unescape(rc_arena *a, const char *f, size_t n, uint32_t *out_len)
{
    char *o = rc_arena_alloc(a, n + 1), *w = o;
    if (!o) return NULL;
    const char *p = f, *end = f + n;
    for (;;) {
        const char *bs = memchr(p, '\\', (size_t)(end - p));
        size_t run = (size_t)((bs ? bs : end) - p);
        memcpy(w, p, run);
        w += run, p += run;
        if (!bs) break;
        if (++p == end) { /* a backslash that ends the field stays */
            *w++ = '\\';
            break;
        }
        char c = *p++;
        switch (c) {
        case 'b': *w++ = '\b'; break;
        case 'f': *w++ = '\f'; break;
        case 'n': *w++ = '\n'; break;
        case 'r': *w++ = '\r'; break;
        case 't': *w++ = '\t'; break;
        case 'v': *w++ = '\v'; break;
        case 'x':
            if (p < end && hex(*p) >= 0) {
                int v = hex(*p++);
                if (p < end && hex(*p) >= 0) v = v * 16 + hex(*p++);
                *w++ = (char)v;
            } else {
                *w++ = c;
            }
            break;
        case '0': case '1': case '2': case '3': case '4': case '5': case '6': case '7': {
            int v = c - '0';
            for (int d = 0; d < 2 && p < end && *p >= '0' && *p <= '7'; d++) v = v * 8 + (*p++ - '0');
            *w++ = (char)v;
            break;
        }
        default: *w++ = c;
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
        } else if (!memchr(line + at, '\\', end - at)) { /* no escape: the text as it is, in the line */
            d[i] = (rc_pgo_datum){(const uint8_t *)line + at, (uint32_t)(end - at), RC_PGO_TEXT};
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
