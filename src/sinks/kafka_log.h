/* librdkafka's log in rowcast's words: a broker that cannot be reached is said once per broker
 * and cause, with what to check; any other log line once; all through the sink's notice. */
#ifndef ROWCAST_SINKS_KAFKA_LOG_H
#define ROWCAST_SINKS_KAFKA_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/sink.h"

enum { KAFKA_LOG_SEEN = 256, KAFKA_LOG_BROKERS = 16 };

typedef struct kafka_log {
    const rc_sink_config *cfg;
    uint64_t seen[KAFKA_LOG_SEEN]; /* hashes of what was said */
    size_t nseen;
    struct {
        char name[128];    /* HOST:PORT */
        const char *cause; /* the last failure, in rowcast's words */
    } brokers[KAFKA_LOG_BROKERS];
    size_t nbrokers;
} kafka_log;

/* One line of librdkafka's log (its syslog level, facility and text). */
void rc_kafka_log_line(kafka_log *l, int level, const char *fac, const char *text);
/* Appends "HOST:PORT (cause), ..." of the brokers that failed to `out`; false when none did. */
bool rc_kafka_log_unreachable(const kafka_log *l, char *out, size_t n);

#endif
