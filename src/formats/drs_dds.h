/* Huawei DRS DDS (MongoDB) JSON: the reader's side, for the format's descriptor (drs_dds.c). */
#ifndef RC_FORMATS_DRS_DDS_H
#define RC_FORMATS_DRS_DDS_H

#include "rowcast/format.h"

rc_status rc_drs_dds_dec_new(const rc_options *opts, void **out, rc_error *err);
void rc_drs_dds_dec_free(void *dec);
rc_status rc_drs_dds_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

#endif
