/* Shared by the OMS family (default, defaultextendcolumntype, canal, dataworks, shareplex):
 * value rendering per docs/formats/oms-values.md and the metadata every one of them writes. */
#ifndef RC_FORMATS_OMS_COMMON_H
#define RC_FORMATS_OMS_COMMON_H

#include <stdbool.h>
#include "rowcast/buf.h"
#include "rowcast/event.h"
#include "rowcast/format.h"

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
bool rc_oms_has_pk(const rc_event *ev);
void rc_oms_put_pk_names(rc_buf *b, const rc_event *ev, const char *sep);
/* `scratch` is the caller's reusable buffer for the raw text before escaping. */
void rc_oms_put_pk_values(rc_buf *b, rc_buf *scratch, const rc_event *ev, const rc_value *img, const char *sep,
                       const oms_style *st);
/* The same text escaped but without quotes (for a value inside a larger string); nothing when
 * there is no pk. */
void rc_oms_put_pk_values_body(rc_buf *b, rc_buf *scratch, const rc_event *ev, const rc_value *img, const char *sep,
                            const oms_style *st);

/* Which columns an UPDATE changed: the event's own set, or the columns whose before and after
 * values differ. The flags live in `scratch` until its next use. */
const uint8_t *rc_oms_changed(const rc_event *ev, rc_buf *scratch);
/* pk names as a JSON array, or null. */
void rc_oms_put_pk_array(rc_buf *b, const rc_event *ev);

/* Times in ms: change time, and processing time (the change time when the event has none). */
int64_t rc_oms_es_ms(const rc_event *ev);
int64_t rc_oms_ts_ms(const rc_event *ev);

/* The image a DML event describes: after, or before for a delete. */
const rc_value *rc_oms_row(const rc_event *ev);

/* The message key of the OMS formats: the pk values joined by \u0001 (raw bytes), or no key
 * (RC_SKIP) when the table has no pk. */
rc_status rc_oms_encode_key(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);

/* Formats that write whole before images: an UPDATE or DELETE whose event has none (e.g.
 * PostgreSQL without REPLICA IDENTITY FULL) is an error naming `what` the format needs.
 * RC_OK when the event is fine. `update_only` skips the DELETE check. */
rc_status rc_oms_need_before(const rc_event *ev, const char *format, const char *what, bool update_only, rc_error *err);

/* Common error for an event a format cannot write. */
rc_status rc_oms_unsupported(rc_error *err, const char *format, const rc_event *ev, const char *why);

/* `"key":` with a leading comma unless first. */
static inline void oms_key(rc_buf *b, const char *k, size_t kn, bool *first)
{
    char *w = rc_buf_reserve(b, kn + 4); /* one reservation for ,"k": */
    if (!w) return;
    size_t o = 0;
    if (!*first) w[o++] = ',';
    *first = false;
    w[o++] = '"';
    memcpy(w + o, k, kn);
    o += kn;
    w[o++] = '"';
    w[o++] = ':';
    rc_buf_commit(b, o);
}
/* A literal key and its length, for oms_key and the functions that pass keys on to it. */
#define OMS_K(lit) (lit), sizeof(lit) - 1
/* The DDL statement as a JSON string; a truncate without text gets the statement it stands
 * for, "TRUNCATE TABLE db.table". */
void rc_oms_put_ddl_text(rc_buf *b, const rc_event *ev);

/* A JSON string from an rc_str, or null when empty. */
void rc_oms_put_str_or_null(rc_buf *b, rc_str s);

#endif
