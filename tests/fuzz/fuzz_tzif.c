/* libFuzzer target: the TZif reader (time zone files for the *.timezone options) must accept
 * or reject any bytes without crashing; an accepted zone answers every lookup with an offset
 * under 26 hours, and a wall-clock time resolves to an offset the zone has at that instant or
 * at the instant just before a gap. */
#include <stdint.h>
#include <stdlib.h>
#include "rowcast/tz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    rc_tzdata *z = NULL;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_tzdata_parse(data, size, &z, &err);
    if (st != RC_OK) {
        if (z || err.code != st || (err.offset > size && err.offset != RC_NO_OFFSET)) abort();
        return 0;
    }
    rc_tz tz = {0, z};
    static const int64_t probes[] = {INT64_MIN / 4, -2208988800, -1, 0, 1, 1700000000, 2147483647, 4102444800, 253402300799, INT64_MAX / 4};
    for (size_t i = 0; i < sizeof probes / sizeof *probes; i++) {
        int32_t o = rc_tz_offset_at(&tz, probes[i]);
        if (o <= -26 * 3600 || o >= 26 * 3600) abort();
        int32_t l = rc_tz_offset_of_local(&tz, probes[i]);
        if (l <= -26 * 3600 || l >= 26 * 3600) abort();
    }
    rc_tzdata_free(z);
    return 0;
}
