/* Maxwell's daemon JSON (docs/formats/maxwell.md): the reader (maxwell_read.c) and the writer
 * (maxwell_write.c) of one format descriptor (maxwell.c). */
#ifndef RC_FORMATS_MAXWELL_H
#define RC_FORMATS_MAXWELL_H

#include "rowcast/format.h"

/* The maxwell.* options, read by both sides so that one command line serves
 * `--from maxwell` and `--to maxwell` (the writer's output_* switches, Maxwell's names). */
typedef struct rc_mx_opts {
    bool commit_info, xoffset, position, gtid, server_id, thread_id, pks, pk_cols, nulls, ddl, row_query;
} rc_mx_opts;
extern const rc_option_desc rc_mx_options[];

rc_status rc_mx_dec_new(const rc_options *o, void **out, rc_error *err);
void rc_mx_dec_free(void *dec);
rc_status rc_mx_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

rc_status rc_mx_enc_new(const rc_options *o, void **out, rc_error *err);
void rc_mx_enc_free(void *enc);
rc_status rc_mx_encode(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
rc_status rc_mx_flush(void *enc, rc_buf *out, rc_error *err);
bool rc_mx_holding(void *enc);
size_t rc_mx_split(void *enc, const rc_event *ev, rc_event_part *parts, rc_arena *a);

#endif
