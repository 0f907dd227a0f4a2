/* The format registry: the only list of formats. Adding a format is one file and one line. */
#include <strings.h>
#include "formats/formats.h"
#include "rowcast/names.h"

const rc_format *const rc_formats[] = {
    &rc_format_native,
    &rc_format_default,
    &rc_format_defaultextendcolumntype,
    &rc_format_canal,
    &rc_format_dataworks,
    &rc_format_shareplex,
    &rc_format_debezium,
    &rc_format_debeziumflatten,
    &rc_format_debeziumsmt,
    &rc_format_avro,
    &rc_format_avro_json,
    &rc_format_drs_json,
    &rc_format_drs_json_c,
    &rc_format_cloudevents,
    &rc_format_maxwell,
    &rc_format_dataworks_aliyun,
    &rc_format_ogg_json,
    NULL,
};

/* Without case: `--to Canal` is what people type after reading "Canal" in prose. */
const rc_format *rc_format_find(const char *name)
{
    for (const rc_format *const *f = rc_formats; *f; f++)
        if (strcasecmp((*f)->name, name) == 0) return *f;
    return NULL;
}

const char *rc_format_suggest(const char *name)
{
    rc_suggest s;
    rc_suggest_init(&s, name);
    for (const rc_format *const *f = rc_formats; *f; f++) rc_suggest_offer(&s, (*f)->name);
    return s.best;
}
