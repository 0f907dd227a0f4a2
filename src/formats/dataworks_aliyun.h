/* The DataWorks "aliyun" layout (dataworks_aliyun.c, dataworks_aliyun_read.c): what its writer
 * and reader share (dataworks_aliyun_common.c), and the reader for the format's descriptor. */
#ifndef RC_FORMATS_DATAWORKS_ALIYUN_H
#define RC_FORMATS_DATAWORKS_ALIYUN_H

#include "rowcast/format.h"

/* The DataWorks type a column is written as: LONG, DOUBLE, STRING, DATE, BYTES or BOOLEAN. */
const char *rc_dwa_type(const rc_coltype *t);
/* schema.source.dbType of a source kind ("MySQL"), and back (without case); false: unknown. */
const char *rc_dwa_dbtype(rc_dbkind k);
bool rc_dwa_dbkind(rc_str s, rc_dbkind *out);

rc_status rc_dwa_dec_new(const rc_options *o, void **out, rc_error *err);
void rc_dwa_dec_free(void *dec);
rc_status rc_dwa_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

#endif
