/* The output buffer shared by every encoder and sink.
 *
 * It grows geometrically up to a cap, keeps the first error (after which appends are
 * no-ops, so an encoder checks once per event), supports "reserve a worst case, then write
 * through a pointer", and `rc_buf_reset` keeps the capacity so the steady state allocates
 * nothing. The contents are bytes, not a C string. */
#ifndef ROWCAST_BUF_H
#define ROWCAST_BUF_H

#include <stddef.h>
#include <string.h>
#include "rowcast/api.h"
#include "rowcast/error.h"

typedef struct rc_buf {
    char *data;
    size_t len;
    size_t cap;
    size_t max;    /* size cap in bytes */
    rc_status err; /* first error, RC_OK while healthy */
} rc_buf;

#define RC_BUF_DEFAULT_MAX ((size_t)256 << 20)

RC_API void rc_buf_init(rc_buf *b, size_t max);
RC_API void rc_buf_fini(rc_buf *b);
static inline void rc_buf_reset(rc_buf *b)
{
    b->len = 0;
    b->err = RC_OK;
}

/* Slow path of rc_buf_reserve. */
RC_API char *rc_buf_grow(rc_buf *b, size_t n);

/* Returns a pointer where at least `n` bytes may be written, or NULL when the buffer is
 * in error (the error is sticky). Commit what was written with rc_buf_commit. */
static inline char *rc_buf_reserve(rc_buf *b, size_t n)
{
    if (b->cap - b->len >= n && b->err == RC_OK && b->data) return b->data + b->len; /* never NULL + 0 */
    return rc_buf_grow(b, n);
}
static inline void rc_buf_commit(rc_buf *b, size_t n) { b->len += n; }

static inline void rc_buf_put(rc_buf *b, const void *p, size_t n)
{
    char *w = rc_buf_reserve(b, n);
    if (!w) return;
    if (n) memcpy(w, p, n);
    b->len += n;
}
static inline void rc_buf_putc(rc_buf *b, char c)
{
    char *w = rc_buf_reserve(b, 1);
    if (!w) return;
    *w = c;
    b->len++;
}
static inline void rc_buf_puts(rc_buf *b, const char *s) { rc_buf_put(b, s, strlen(s)); }
#define RC_BUF_LIT(b, lit) rc_buf_put((b), (lit), sizeof(lit) - 1)

#endif
