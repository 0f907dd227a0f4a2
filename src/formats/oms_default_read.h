/* The OMS default / defaultextendcolumntype reader (oms_default_read.c). */
#ifndef RC_FORMATS_OMS_DEFAULT_READ_H
#define RC_FORMATS_OMS_DEFAULT_READ_H

#include "rowcast/format.h"

rc_status dflt_dec_new(const rc_options *o, void **out, rc_error *err);
void dflt_dec_free(void *dec);
rc_status dflt_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

#endif
