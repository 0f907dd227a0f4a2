/* libFuzzer target: pg_current_snapshot()'s text (src/sources/pg/pg_xidsnap.c). No input may
 * crash; an error names a byte within the input; an accepted snapshot has xmin <= every xip <
 * xmax, and each xip is in progress by its low 32 bits. */
#include <stdint.h>
#include <stdlib.h>
#include "sources/pg/pg_xidsnap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rc_pg_xidsnap s = {0};
    rc_error err;
    rc_error_clear(&err);
    if (rc_pg_xidsnap_parse(&s, (const char *)data, size, &err) == RC_OK) {
        for (size_t i = 0; i < s.nxip; i++)
            if (s.xip[i] < s.xmin || s.xip[i] >= s.xmax || !rc_pg_xidsnap_in_progress(&s, (uint32_t)s.xip[i])) abort();
    } else if (!err.message[0] || (err.offset != RC_NO_OFFSET && err.offset > size)) {
        abort();
    }
    rc_pg_xidsnap_fini(&s);
    return 0;
}
