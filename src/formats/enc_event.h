/* What every encoder reads from an event, whatever its format (the OMS family's own rules are
 * in oms_common.h): the row image, times in milliseconds, the changed columns, the primary key,
 * JSON keys, the DDL text, and the errors for an event a format cannot write. */
#ifndef RC_FORMATS_ENC_EVENT_H
#define RC_FORMATS_ENC_EVENT_H

#include <stdbool.h>
#include <string.h>
#include "rowcast/buf.h"
#include "rowcast/event.h"
#include "rowcast/format.h"
#include "core/jsonw.h"

enum { RC_ENC_PK_MAX = 64 };

/* Key columns in key order (at most RC_ENC_PK_MAX; wider keys are cut, which no database
 * allows): their indexes in idx, their count returned. */
uint32_t rc_enc_pk_order(const rc_event *ev, uint32_t idx[RC_ENC_PK_MAX]);
/* The same kept for a cached column list (rc_event.cols_id) while the events repeat it: the
 * order is found once per list, not per event. A zeroed one is ready. */
typedef struct rc_enc_pk_memo {
    const void *of; /* the cols_id idx was found for; NULL: none */
    uint32_t n, idx[RC_ENC_PK_MAX];
} rc_enc_pk_memo;
/* ev's key columns in key order (m->idx, valid until the next call), their count in *n. */
const uint32_t *rc_enc_pk_memo_order(rc_enc_pk_memo *m, const rc_event *ev, uint32_t *n);

/* Whether the table has a primary key. */
bool rc_enc_has_pk(const rc_event *ev);

/* Which columns an UPDATE changed: the event's own set, or the columns whose before and after
 * values differ. The flags live in `scratch` until its next use. */
const uint8_t *rc_enc_changed(const rc_event *ev, rc_buf *scratch);

/* pk names as a JSON array, or null. */
void rc_enc_put_pk_array(rc_buf *b, const rc_event *ev);
/* pk names in key order as JSON strings separated by commas (the array's items). */
void rc_enc_put_pk_items(rc_buf *b, const rc_event *ev);
/* The columns as [{"name":N...},...], `put` writing each object's members after the name (from
 * their comma) and its closing brace, with `ctx`. Inline, so that a caller's put is inlined into
 * its loop. */
static inline void rc_enc_put_name_objects(rc_buf *b, const rc_event *ev,
                                           void (*put)(rc_buf *b, const rc_column *c, const void *ctx), const void *ctx)
{
    rc_buf_putc(b, '[');
    for (const rc_column *c = ev->cols, *end = c + ev->ncols; c < end; c++) {
        if (c > ev->cols) rc_buf_putc(b, ',');
        RC_BUF_LIT(b, "{\"name\":");
        rc_jw_str(b, c->name.p, c->name.n);
        put(b, c, ctx);
    }
    rc_buf_putc(b, ']');
}
/* The columns as [{"name":N,"type":"T"},...], T the column's type by `type` (DataWorks). */
void rc_enc_put_name_types(rc_buf *b, const rc_event *ev, const char *(*type)(const rc_coltype *t));

/* Times in ms: change time, and processing time (the change time when the event has none). */
int64_t rc_enc_es_ms(const rc_event *ev);
int64_t rc_enc_ts_ms(const rc_event *ev);

/* The image a DML event describes: after, or before for a delete. */
const rc_value *rc_enc_row(const rc_event *ev);

/* Formats that write whole before images: an UPDATE or DELETE whose event has none (e.g.
 * PostgreSQL without REPLICA IDENTITY FULL) is an error naming `what` the format needs.
 * RC_OK when the event is fine. `update_only` skips the DELETE check. */
rc_status rc_enc_need_before(const rc_event *ev, const char *format, const char *what, bool update_only, rc_error *err);

/* The end of an encode: RC_OK, or the buffer's first error (an append failed: out of memory or
 * the size cap) as "output buffer: <its name>". Inline: every encoder ends each event with it. */
static inline rc_status rc_enc_finish(const rc_buf *b, rc_error *err)
{
    if (b->err != RC_OK) return rc_error_set(err, b->err, RC_NO_OFFSET, "output buffer: %s", rc_status_name(b->err));
    return RC_OK;
}

/* Common error for an event a format cannot write. */
rc_status rc_enc_unsupported(rc_error *err, const char *format, const rc_event *ev, const char *why);

/* `"key":` with a leading comma unless first. */
static inline void rc_enc_key(rc_buf *b, const char *k, size_t kn, bool *first)
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
/* A literal key and its length, for rc_enc_key and the functions that pass keys on to it. */
#define RC_ENC_K(lit) (lit), sizeof(lit) - 1

/* The JSON keys "name": of a table's columns, made once per cached column list
 * (rc_event.cols_id) and kept while the events repeat it, for encoders that write every
 * column's name in each message (Maxwell, OGG JSON, DataWorks aliyun). A zeroed one is ready
 * (encoders' state is zero-initialised); rc_enc_colkeys_fini frees it. */
typedef struct rc_enc_colkeys {
    const void *of; /* the cols_id the keys were made for; NULL: none */
    rc_buf text;
    uint32_t *off; /* column i's key: text[off[i], off[i + 1]) */
    uint32_t cap;
} rc_enc_colkeys;
void rc_enc_colkeys_fini(rc_enc_colkeys *k);
/* Whether k holds the keys of ev's columns, made now when ev's cached list is new to it;
 * false for a list that is not cached (or out of memory): rc_enc_put_colkey escapes then. */
bool rc_enc_colkeys_for(rc_enc_colkeys *k, const rc_event *ev);
/* The same with each column's name mapped by name(ctx, column name) when name is not NULL
 * (the result is copied at once), and pad zero bytes after the last key (so that a writer may
 * copy a short key as a fixed size). */
bool rc_enc_colkeys_make(rc_enc_colkeys *k, const rc_event *ev, rc_str (*name)(void *ctx, rc_str col), void *ctx, size_t pad);
/* Column i's key "name":, from k when `cached` (what rc_enc_colkeys_for said); inline, so that
 * the uncached path costs what escaping the name in place did. */
static inline void rc_enc_put_colkey(rc_buf *b, const rc_enc_colkeys *k, const rc_event *ev, uint32_t i, bool cached)
{
    if (cached) {
        rc_buf_put(b, k->text.data + k->off[i], k->off[i + 1] - k->off[i]);
        return;
    }
    rc_jw_str(b, ev->cols[i].name.p, ev->cols[i].name.n);
    rc_buf_putc(b, ':');
}

/* The DDL statement as a JSON string; a truncate without text gets the statement it stands
 * for, "TRUNCATE TABLE db.table". */
void rc_enc_put_ddl_text(rc_buf *b, const rc_event *ev);

/* A JSON string from an rc_str, or null when empty. */
void rc_enc_put_str_or_null(rc_buf *b, rc_str s);

#endif
