/* The upstream-compatible Debezium flavour (debezium.flavor=upstream): what Debezium itself
 * writes, selected from the `debezium` format. Internal to the debezium files. */
#ifndef RC_FORMATS_DEBEZIUM_UPSTREAM_H
#define RC_FORMATS_DEBEZIUM_UPSTREAM_H

#include "rowcast/format.h"

enum { DBZ_COMMON_OPTIONS = 3 };
extern const rc_option_desc dbz_all_options[];      /* every option of the `debezium` format */
extern const rc_option_desc *const dbz_up_options; /* the upstream flavour's own */

rc_status dbz_up_new(const rc_options *o, void **out, rc_error *err);
void dbz_up_free(void *enc);
rc_status dbz_up_encode(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
rc_status dbz_up_key(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
bool dbz_up_tombstone(void *enc, const rc_event *ev);
bool dbz_up_schemas(void *enc);
int dbz_up_compat(void *enc); /* 10, 16, 20, 30 */

/* Heartbeats (debezium_heartbeat.c): the value, the key, and the topic and partition. */
rc_status dbz_hb_value(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
rc_status dbz_hb_key(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
rc_status dbz_hb_route(void *enc, const rc_event *ev, rc_buf *topic, int32_t *partition);

/* Pieces the CloudEvents format reuses. The connector name ("mysql", "postgresql",
 * "sqlserver") or NULL when the event's source has no upstream layout. */
const char *dbz_up_connector(const rc_event *ev);
/* Debezium's op letter for the event (c, r, u, d, t), or NULL where Debezium writes no change
 * event (DDL, heartbeats, transaction markers: docs/formats/debezium.md). */
const char *dbz_up_op(const rc_event *ev);
/* The logical server name used for the event. */
rc_str dbz_up_server(void *enc, const rc_event *ev);
/* The source block / one row image as JSON, exactly as in the envelope. */
void dbz_up_put_source(void *enc, rc_buf *b, const rc_event *ev);
rc_status dbz_up_put_image(void *enc, rc_buf *b, const rc_event *ev, const rc_value *img, rc_error *err);
/* The Kafka Connect schema of a struct with one required field, as JsonConverter writes it. */
/* A time value goes into milliseconds (ms) or microseconds, a wall-clock time into epoch
 * numbers without a zone: RC_OK when value `nanos` (and `zone`) of column c fit, else RC_SKIP
 * with the reason in err, followed by `hint` (what to do; NULL for none): the event is not
 * expressible, never cut. */
rc_status dbz_fits_unit(const rc_column *c, uint32_t nanos, rc_str zone, bool ms, const char *hint, rc_error *err);
void dbz_up_put_struct1_schema(rc_buf *b, const char *name, bool versioned, const char *ftype, const char *field);
/* The transaction block or null. */
void dbz_up_put_transaction(void *enc, rc_buf *b, const rc_event *ev);
/* Avro binary of the record {before: [null, Value], after: [null, Value]} whose Value fields
 * have the Avro types behind the Kafka Connect schema. */
rc_status dbz_up_put_data_avro(void *enc, rc_buf *b, const rc_event *ev, const rc_value *before, const rc_value *after,
                               rc_error *err);

#endif
