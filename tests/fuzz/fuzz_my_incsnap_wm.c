/* libFuzzer target: the MySQL/MariaDB table watermarks' ids read back from the signal table
 * (rc_my_incsnap_wm_seen, src/sources/mysql/my_incsnap_wm.c), a column any user with INSERT on
 * the table writes. No input may crash; an id taken for a mark is exactly the one this run
 * writes for that chunk ("rowcast-wm-RUN-CHUNK-open" / "-close"), one mark at a time; and that
 * id, written again, is taken for the same mark. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_incsnap_int.h"

static void seen(rc_my_incsnap *x, const char *p, size_t n)
{
    memset(x, 0, sizeof *x);
    x->table_wm = true;
    snprintf(x->run, sizeof x->run, "4242-661fa4291cc2c");
    rc_my_incsnap_wm_seen(x, (rc_str){p, n});
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rc_my_incsnap x;
    seen(&x, (const char *)data, size);
    if (x.seen_low && x.seen_high) abort();
    uint64_t chunk = x.seen_low ? x.seen_low : x.seen_high;
    if (!chunk) return 0;
    char want[96];
    snprintf(want, sizeof want, "rowcast-wm-4242-661fa4291cc2c-%" PRIu64 "-%s", chunk, x.seen_low ? "open" : "close");
    if (strlen(want) != size || memcmp(want, data, size)) abort();
    bool low = x.seen_low != 0;
    seen(&x, want, strlen(want));
    if ((low ? x.seen_low : x.seen_high) != chunk) abort();
    return 0;
}
