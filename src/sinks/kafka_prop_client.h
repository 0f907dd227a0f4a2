/* Which librdkafka client a configuration property is for: the consumer, the producer or both
 * (the C/P column of librdkafka's CONFIGURATION.md). rd_kafka_conf_set takes any property on any
 * configuration and rd_kafka_new then warns (CONFWARN) about those of the other client, so a
 * run's -o kafka.* options are routed: a consumer-only property (group.id, auto.offset.reset,
 * queued.*, fetch.*) goes to the Kafka source's consumer only, a producer-only one (acks,
 * linger.ms, compression.type, queue.buffering.*) to the sink's producers only. */
#ifndef ROWCAST_SINKS_KAFKA_PROP_CLIENT_H
#define ROWCAST_SINKS_KAFKA_PROP_CLIENT_H

#include <stdbool.h>
#include <librdkafka/rdkafka.h>

/* Whether the librdkafka property `name` (without "kafka.") is one a client of `type` reads,
 * as the installed librdkafka's own table says (rd_kafka_conf_properties_show). A name the table
 * does not have: true (rd_kafka_conf_set then says what is wrong with it). */
bool rc_kafka_prop_for(const char *name, rd_kafka_type_t type);

#endif
