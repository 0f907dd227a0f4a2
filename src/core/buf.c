/* The shared output buffer: growth and teardown (the fast paths are inline in buf.h). */
#include <stdlib.h>
#include "rowcast/buf.h"

void rc_buf_init(rc_buf *b, size_t max)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->max = max ? max : RC_BUF_DEFAULT_MAX;
    b->err = RC_OK;
}

void rc_buf_fini(rc_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

char *rc_buf_grow(rc_buf *b, size_t n)
{
    if (b->err != RC_OK) return NULL;
    if (n > b->max || b->len > b->max - n) {
        b->err = RC_ERR_LIMIT;
        return NULL;
    }
    size_t need = b->len + n;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) cap = cap > b->max / 2 ? b->max : cap * 2;
    char *p = realloc(b->data, cap);
    if (!p) {
        b->err = RC_ERR_NOMEM;
        return NULL;
    }
    b->data = p;
    b->cap = cap;
    return b->data + b->len;
}
