/* The Debezium reader (debezium_read.c), for the debezium formats' descriptors. */
#ifndef RC_FORMATS_DEBEZIUM_READ_H
#define RC_FORMATS_DEBEZIUM_READ_H

#include "rowcast/format.h"
#include "core/json.h"

rc_status rc_dbz_dec_new(const rc_options *o, void **out, rc_error *err);
/* The reader of debeziumflatten, which only OMS writes: OMS's flavour whatever debezium.flavor
 * (the option of a `debezium` on the other side) says. */
rc_status rc_dbz_flatten_dec_new(const rc_options *o, void **out, rc_error *err);
/* The reader of options already read (rc_dbz_opts_parse; CloudEvents gives its own): it takes
 * debezium.heartbeats, debezium.flavor and debezium.binary.handling.mode. */
struct rc_dbz_opts;
rc_status rc_dbz_dec_open(const struct rc_dbz_opts *opt, void **out, rc_error *err);
void rc_dbz_dec_free(void *dec);
rc_status rc_dbz_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);
/* A record's value with its key: the key struct's columns are the event's primary key. */
rc_status rc_dbz_decode_record(void *dec, const rc_record_in *r, rc_arena *a, rc_event_list *out, rc_error *err);
/* The key of record r applied to the events out[first..) that its value made (for formats
 * whose key is Debezium's: CloudEvents). */
rc_status rc_dbz_record_key(void *dec, const rc_record_in *r, size_t first, rc_arena *a, rc_event_list *out, rc_error *err);

/* Debezium's transaction-metadata and schema-change messages (debezium_topics_read.c): appends
 * the BEGIN/COMMIT marker or the DDL events of `payload`, or returns RC_SKIP when it is neither.
 * `source` fills an event's origin and position from a "source" object (the reader's own). */
typedef rc_status (*rc_dbz_source_fn)(void *ctx, uint32_t source, rc_event *ev);
rc_status rc_dbz_read_topics(const rc_json *j, uint32_t payload, rc_arena *a, rc_type_cache *types, rc_dbz_source_fn source,
                             void *sctx, rc_event_list *out, rc_error *err);

#endif
