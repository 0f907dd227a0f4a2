/* libFuzzer target: COPY text rows (src/sources/pg/pg_copy.c). The first byte picks the
 * column count (0-7), the rest is the line. No input may crash; an error names a byte within
 * the line; an accepted row has exactly the relation's columns, each NULL or a text no
 * longer than the line. */
#include <stdint.h>
#include <stdlib.h>
#include "sources/pg/pg_copy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rc_arena a;
    static bool init;
    static const rc_pg_column cols[8] = {{"a", 25, -1, 0}, {"b", 25, -1, 0}, {"c", 25, -1, 0}, {"d", 25, -1, 0},
                                         {"e", 25, -1, 0}, {"f", 25, -1, 0}, {"g", 25, -1, 0}, {"h", 25, -1, 0}};
    if (!init) rc_arena_init(&a), init = true;
    if (!size) return 0;
    rc_pg_relation rel = {.oid = 1, .nspname = "s", .relname = "t", .ncols = (uint16_t)(data[0] & 7), .cols = cols};
    const char *line = (const char *)data + 1;
    size_t n = size - 1;
    rc_error err;
    rc_error_clear(&err);
    rc_pgo_tuple t;
    rc_status st = rc_pg_copy_row(&a, &rel, line, n, &t, &err);
    if (st == RC_OK) {
        if (t.ncols != rel.ncols) abort();
        for (uint16_t i = 0; i < t.ncols; i++)
            if ((t.cols[i].kind != RC_PGO_NULL && t.cols[i].kind != RC_PGO_TEXT) || t.cols[i].len > n) abort();
    } else if (!err.message[0] || (err.offset != RC_NO_OFFSET && err.offset > n)) {
        abort();
    }
    rc_arena_reset(&a);
    return 0;
}
