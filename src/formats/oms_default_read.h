/* The OMS default / defaultextendcolumntype reader (oms_default_read.c). */
#ifndef RC_FORMATS_OMS_DEFAULT_READ_H
#define RC_FORMATS_OMS_DEFAULT_READ_H

#include "rowcast/format.h"
#include "core/json.h"

/* An OMS row image object (default's prevStruct/postStruct, dataworks' data) into values of
 * ev's columns: every column present, binary and BIT as base64; `which` names it in errors. */
rc_status rc_oms_read_image(const rc_json *j, uint32_t row, const char *which, rc_event *ev, const rc_value *base, uint8_t *changed, rc_arena *a,
                         rc_error *err, const rc_value **out);
/* The type a JSON value implies when a format names none (see docs/formats/oms-default.md, "Reading"). */
const char *rc_oms_infer_type(const rc_jnode *v);
rc_status rc_dflt_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

#endif
