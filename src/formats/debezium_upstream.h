/* The upstream-compatible Debezium flavour (debezium.flavor=upstream): what Debezium itself
 * writes, selected from the `debezium` format. Internal to the debezium files. */
#ifndef RC_FORMATS_DEBEZIUM_UPSTREAM_H
#define RC_FORMATS_DEBEZIUM_UPSTREAM_H

#include "rowcast/format.h"

extern const rc_option_desc dbz_up_options[];

rc_status dbz_up_new(const rc_options *o, void **out, rc_error *err);
void dbz_up_free(void *enc);
rc_status dbz_up_encode(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
rc_status dbz_up_key(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);

#endif
