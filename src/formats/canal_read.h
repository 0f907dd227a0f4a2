/* The Canal reader (canal_read.c), for the canal format's descriptor. */
#ifndef RC_FORMATS_CANAL_READ_H
#define RC_FORMATS_CANAL_READ_H

#include "rowcast/format.h"

/* The options of the canal format (the table in canal_common.c), which both sides read. */
typedef struct rc_canal_opts {
    int flavor, values; /* values: -1 when not given (the flavour decides) */
    rc_tz tz;
    bool group, init;
} rc_canal_opts;
extern const rc_option_desc rc_canal_options[];
/* The options of drs-json and drs-json-c (the tables in canal_common.c), which both sides read. */
typedef struct rc_drs_opts {
    const char *dbtype;
    rc_tz tz; /* drs-json-c only */
} rc_drs_opts;
extern const rc_option_desc rc_drs_json_options[], rc_drs_jsonc_options[];

rc_status rc_canal_dec_new(const rc_options *o, void **out, rc_error *err);
void rc_canal_dec_free(void *dec);
/* Huawei DRS json and json-c, read as the Canal-shaped messages they are (same free/decode). */
rc_status rc_drs_json_dec_new(const rc_options *o, void **out, rc_error *err);
rc_status rc_drs_jsonc_dec_new(const rc_options *o, void **out, rc_error *err);
rc_status rc_canal_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

#endif
