/* Internals of the Debezium reader (debezium_read.c): the decoder, one message's context and
 * the helpers shared with debezium_read_columns.c (column types from the Connect schema, the
 * columns and their values). Not for the other formats: they use debezium_read.h. */
#ifndef RC_FORMATS_DEBEZIUM_READ_INT_H
#define RC_FORMATS_DEBEZIUM_READ_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "formats/debezium_read.h"
#include "rowcast/buf.h"
#include "core/json.h"
#include "core/jsondec.h"
#include "core/vparse.h" /* rc_bytes_text */

typedef struct dz_dec {
    rc_jsondec jd; /* the parsed message, its arena, the type cache */
    rc_jsondec kjd; /* the parsed record key (decode_record) */
    rc_buf text;
    bool heartbeats; /* pass heartbeats on instead of skipping them */
    rc_bytes_text bytes; /* how binary columns are written */
    /* schemaless text that looks like a Decimal's base64 (b64_decimal): the columns said so
     * already ("db.table.column\n" each), and those of the message being decoded */
    rc_buf b64_said, b64_now;
    char b64_table[256]; /* the table of b64_now's columns ("db.table") */
    rc_jkeys mg_env, mg_src; /* the MongoDB connector's envelope and source members */
    bool keyed; /* the value being decoded is a record's, whose key is read next (decode_record) */
} dz_dec;

typedef struct ctx {
    rc_jread r; /* the message, the events' arena, the error */
    dz_dec *d;
} ctx;

/* Inline (they were static in debezium_read.c): called for every field a message has. */
/* ---- debezium_read_common.c ---- */
rc_str rc_dbz_read_copy_str(const ctx *c, uint32_t i);
bool rc_dbz_read_num(const ctx *c, uint32_t i, int64_t *out);

/* ---- debezium_read_columns.c ---- */
rc_status rc_dbz_read_columns(const ctx *c, uint32_t value_fields, uint32_t row, rc_family fam, rc_event *ev, uint32_t **field_of);
rc_status rc_dbz_read_row_values(const ctx *c, uint32_t row, const rc_event *ev, const uint32_t *field_of, const rc_value **out);
rc_status rc_dbz_read_image(const ctx *c, uint32_t row, const rc_event *ev, const uint32_t *field_of, const rc_value **out);

/* ---- debezium_mongo_read.c: the MongoDB connector's messages (document changes) ---- */
void rc_dbz_mongo_keys_init(dz_dec *d);
/* The payload of a message whose source says connector "mongodb"; ev has its op. */
rc_status rc_dbz_mongo_read(const ctx *c, uint32_t payload, rc_event *ev, rc_event_list *out);
/* The record key ({"id": "<Extended JSON>"}, the payload krow) of a document event. */
rc_status rc_dbz_mongo_key(const ctx *kc, uint32_t krow, rc_event *ev);

#endif
