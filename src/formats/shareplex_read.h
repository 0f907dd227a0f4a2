/* The SharePlex reader (shareplex_read.c), for the shareplex format's descriptor. */
#ifndef RC_FORMATS_SHAREPLEX_READ_H
#define RC_FORMATS_SHAREPLEX_READ_H

#include "rowcast/format.h"

/* The options of the shareplex format (the table in shareplex_common.c), which both sides read. */
typedef struct rc_sp_opts {
    rc_tz tz;
} rc_sp_opts;
extern const rc_option_desc rc_sp_options[];

rc_status rc_sp_dec_new(const rc_options *o, void **out, rc_error *err);
void rc_sp_dec_free(void *dec);
rc_status rc_sp_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

#endif
