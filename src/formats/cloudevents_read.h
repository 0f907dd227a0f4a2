/* The CloudEvents reader (cloudevents_read.c), for the cloudevents descriptor. */
#ifndef RC_FORMATS_CLOUDEVENTS_READ_H
#define RC_FORMATS_CLOUDEVENTS_READ_H

#include "rowcast/format.h"

/* The reader of options read by the caller (cloudevents.c holds their table): data in Avro
 * (with the .avsc at `avsc`) or JSON, and the Debezium reader's options. */
struct rc_dbz_opts;
rc_status rc_ce_dec_open(bool avro_data, const char *avsc, const struct rc_dbz_opts *dbz, void **out, rc_error *err);
void rc_ce_dec_free(void *dec);
rc_status rc_ce_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);
rc_status rc_ce_decode_record(void *dec, const rc_record_in *r, rc_arena *a, rc_event_list *out, rc_error *err);

#endif
