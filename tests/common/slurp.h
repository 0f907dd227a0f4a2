/* For the test tools: a whole file in memory. */
#ifndef RC_TESTS_SLURP_H
#define RC_TESTS_SLURP_H

#include <stdio.h>
#include <stdlib.h>

/* The bytes of PATH (NUL-terminated, *n without the NUL), or NULL; the caller frees them. */
static inline char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    char *p = len >= 0 && fseek(f, 0, SEEK_SET) == 0 ? malloc((size_t)len + 1) : NULL;
    if (p && fread(p, 1, (size_t)len, f) != (size_t)len) free(p), p = NULL;
    fclose(f);
    if (p) p[len] = '\0', *n = (size_t)len;
    return p;
}

#endif
