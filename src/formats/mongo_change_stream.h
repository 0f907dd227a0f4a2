/* MongoDB change stream events: the writer's side (mongo_change_stream_write.c), for the
 * format's descriptor (mongo_change_stream.c). */
#ifndef RC_FORMATS_MONGO_CHANGE_STREAM_H
#define RC_FORMATS_MONGO_CHANGE_STREAM_H

#include "rowcast/format.h"

extern const rc_option_desc rc_mongo_cs_options[];
rc_status rc_mongo_cs_enc_new(const rc_options *o, void **out, rc_error *err);
void rc_mongo_cs_enc_free(void *enc);
rc_status rc_mongo_cs_encode(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);

#endif
