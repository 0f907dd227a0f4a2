/* --on-error=dead-letter:kafka://HOST:PORT[,HOST:PORT...]/TOPIC: each bad item of the input as a
 * Kafka message (docs/sources/kafka.md "Bad messages"), by an idempotent producer of its own
 * with the sink's -o kafka.* properties (TLS, SASL). A write waits for its delivery report, so
 * that the input's position (a Kafka source's committed offset) moves past a dead-lettered item
 * only after it was acknowledged; one that fails stops the run. Outside the data's
 * transaction with --exactly-once. */
#ifndef ROWCAST_SINKS_KAFKA_DEAD_LETTER_H
#define ROWCAST_SINKS_KAFKA_DEAD_LETTER_H

#include <signal.h>
#include <librdkafka/rdkafka.h>
#include "kafka_txn.h"
#include "rowcast/sink.h"

typedef struct rc_dead_kafka rc_dead_kafka;

/* One dead letter: the key and value (NULL: null), the item's own headers in
 * rc_source_message.headers' layout (rowcast/source.h) and rowcast's, `where` the item's
 * position for messages ("topic t partition p offset o", "input FILE line N"). */
typedef struct rc_dead_letter {
    const char *key, *value;
    size_t key_len, value_len;
    const char *headers;
    size_t headers_len;
    const rc_header *extra;
    size_t nextra;
    const char *where;
} rc_dead_letter;

/* True when the dead-letter target is a Kafka topic (kafka://...), not a file. */
bool rc_dead_kafka_is(const char *target);
/* Opens the producer of `url` (kafka://HOSTS/TOPIC, one topic); `stop` (a signal) ends a wait. */
rc_status rc_dead_kafka_open(const char *url, const rc_options *opts, volatile sig_atomic_t *stop, rc_dead_kafka **out,
                             rc_error *err);
/* Produces the dead letter and waits for its delivery report. */
rc_status rc_dead_kafka_write(rc_dead_kafka *d, const rc_dead_letter *m, rc_error *err);
uint64_t rc_dead_kafka_written(const rc_dead_kafka *d);
void rc_dead_kafka_close(rc_dead_kafka *d);

/* The run's -o kafka.* options on a producer's `conf` as the sink takes them: rowcast's own by
 * `txn`, those rowcast keeps refused (kafka_sink.c). */
rc_status rc_kafka_user_options(rd_kafka_conf_t *conf, kafka_txn *txn, const rc_options *opts, rc_error *err);

#endif
