/* Oracle GoldenGate JSON (`ogg-json`, docs/formats/ogg-json.md): what the writer (ogg_json.c)
 * and the reader (ogg_json_read.c) share (ogg_json_common.c). */
#ifndef RC_FORMATS_OGG_JSON_H
#define RC_FORMATS_OGG_JSON_H

#include "rowcast/format.h"

/* Every ogg-json.* option; the reader takes ogg-json.timezone and ogg-json.source, the others only change
 * what is written. */
extern const rc_option_desc rc_ogg_options[];

/* The options (rc_ogg_options). Both sides read the zone of op_ts / current_ts and the source
 * database kind that the reader gives events (OGG's messages do not name it); the rest change
 * only what is written. */
typedef struct rc_ogg_common {
    rc_tz tz;
    rc_dbkind kind;              /* ogg-json.source */
    int source;                  /* its choice: the rc_dbkind */
    int keys, numbers, current_ts; /* their choices */
} rc_ogg_common;
rc_status rc_ogg_common_parse(const rc_options *o, rc_ogg_common *out, rc_error *err);

rc_status rc_ogg_dec_new(const rc_options *o, void **out, rc_error *err);
void rc_ogg_dec_free(void *dec);
rc_status rc_ogg_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

#endif
