/* The OMS family's rules (default, defaultextendcolumntype, and the formats that render values
 * as OMS does: canal, dataworks, shareplex): value rendering per docs/formats/oms-values.md,
 * rows, database name and type, primary-key text, the OMS message key. */
#ifndef RC_FORMATS_OMS_COMMON_H
#define RC_FORMATS_OMS_COMMON_H

#include <stdbool.h>
#include "rowcast/buf.h"
#include "rowcast/event.h"
#include "rowcast/format.h"
#include "formats/enc_event.h"

typedef struct oms_style {
    bool decimal_plain; /* BigDecimal.toPlainString (dataworks) instead of toString */
    bool canal;         /* bytes as Latin-1 text, BIT as a number, TIMESTAMP as wall clock */
    bool all_strings;   /* every non-null value as a JSON string (real Canal) */
    rc_tz tz;           /* canal TIMESTAMP wall clock */
} oms_style;

/* Writes one value as JSON (json=true) or as raw text, unquoted and unescaped (json=false,
 * used for pk values joined into one string). */
void rc_oms_value(rc_buf *b, const rc_column *col, const rc_value *v, const oms_style *st, bool json);

/* {col: value, ...} of the columns selected by `only` (NULL = all); the _members variant
 * writes the members without braces, for objects that carry more keys. */
void rc_oms_put_row(rc_buf *b, const rc_event *ev, const rc_value *img, const uint8_t *only, const oms_style *st);
void rc_oms_put_row_members(rc_buf *b, const rc_event *ev, const rc_value *img, const uint8_t *only, const oms_style *st);

/* dbType as OMS writes it: "OB_MYSQL", "MYSQL", ...; lower-case for DataWorks. */
const char *rc_oms_dbtype(rc_dbkind k, bool lower);

/* Database name; with_tenant gives "tenant.db" for OceanBase sources (default format). */
void rc_oms_put_db(rc_buf *b, const rc_event *ev, bool with_tenant);

/* pk column names / values of `img` joined by `sep` as one JSON string, or null when the
 * table has no pk (or img is NULL for values). */
void rc_oms_put_pk_names(rc_buf *b, const rc_event *ev, const char *sep);
/* `scratch` is the caller's reusable buffer for the raw text before escaping. */
void rc_oms_put_pk_values(rc_buf *b, rc_buf *scratch, const rc_event *ev, const rc_value *img, const char *sep,
                       const oms_style *st);
/* The same text escaped but without quotes (for a value inside a larger string); nothing when
 * there is no pk. */
void rc_oms_put_pk_values_body(rc_buf *b, rc_buf *scratch, const rc_event *ev, const rc_value *img, const char *sep,
                            const oms_style *st);




/* The message key of the OMS formats: the pk values joined by \u0001 (raw bytes), or no key
 * (RC_SKIP) when the table has no pk. */
rc_status rc_oms_encode_key(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);





#endif
