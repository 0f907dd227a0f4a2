/* A state text as the newest record of its key in partition 0 of a Kafka topic (the Kafka half
 * of pipeline/state_store.h): key rowcast/SERVER/KIND, written by an idempotent producer with
 * acks=all and awaited, read back by a consumer assigned the partition from its first offset to
 * its end (read_uncommitted; a null value deletes). */
#ifndef ROWCAST_SINKS_KAFKA_STATE_H
#define ROWCAST_SINKS_KAFKA_STATE_H

#include <signal.h>
#include <stdbool.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/format.h"
#include <librdkafka/rdkafka.h>

typedef struct rc_kafka_state rc_kafka_state;

/* `rest`: HOST:PORT[,...]/TOPIC (after kafka://); label names it in messages. */
rc_status rc_kafka_state_open(const char *rest, const char *label, const char *server, const char *kind, const rc_options *opts,
                              volatile sig_atomic_t *stop, rc_kafka_state **out, rc_error *err);
rc_status rc_kafka_state_load(rc_kafka_state *k, rc_buf *text, rc_error *err);
/* text NULL: a tombstone (the key deleted). */
rc_status rc_kafka_state_save(rc_kafka_state *k, const char *text, size_t n, rc_error *err);
/* Records of the server's other keys, rowcast/SERVER/SUFFIX (the history's chunks), values[i]
 * lens[i] bytes (NULL: a tombstone), produced together: RC_OK once all were acknowledged. */
rc_status rc_kafka_state_put(rc_kafka_state *k, size_t count, const char *const *suffixes, const char *const *values, const size_t *lens,
                             rc_error *err);
/* What the load found under rowcast/SERVER/SUFFIX (the last value; false: none, or deleted). */
bool rc_kafka_state_found(const rc_kafka_state *k, const char *suffix, const char **value, size_t *len);
/* The suffixes the load met: found_key(k, i) for i < found_count(k), NULL for a deleted one. */
size_t rc_kafka_state_found_count(const rc_kafka_state *k);
/* Frees what the load found (nothing is found any more). */
void rc_kafka_state_forget(rc_kafka_state *k);
const char *rc_kafka_state_found_key(const rc_kafka_state *k, size_t i);
void rc_kafka_state_close(rc_kafka_state *k);

/* A librdkafka configuration for a client of rowcast's own (the state's, the standby's) of
 * `type`: the brokers, the run's -o kafka.* properties librdkafka knows and a client of `type`
 * reads (the sink checked them all; rowcast's own are not librdkafka's; kafka_prop_client.h),
 * then the `fixed` pairs (NULL-terminated), which win. Errors name "LABEL WHERE"; a secret's
 * value is never said. */
rc_status rc_kafka_conf_new(const char *hosts, const rc_options *opts, rd_kafka_type_t type, const char *const *fixed, const char *label,
                            const char *where, rd_kafka_conf_t **out, rc_error *err);

#endif
