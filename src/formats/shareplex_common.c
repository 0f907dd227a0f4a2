/* OMS "shareplex": the options the writer (shareplex.c) and the reader (shareplex_read.c) both
 * parse, so that each side depends on this file and not on the other. */
#include "formats/shareplex_read.h"

const rc_option_desc rc_sp_options[] = {
    {"shareplex.timezone", RC_OPT_TZ, NULL, "UTC", "zone of meta.time and meta.posttime", .off = offsetof(rc_sp_opts, tz)},
    {0},
};
