/* librdkafka's threads allocating in the jemalloc arena of the thread that makes the client
 * (kafka_arena.c; docs/sources/kafka.md, "Memory"). */
#ifndef ROWCAST_SINKS_KAFKA_ARENA_H
#define ROWCAST_SINKS_KAFKA_ARENA_H

#include <librdkafka/rdkafka.h>

/* Makes every thread of the client made from `conf` allocate in the calling thread's jemalloc
 * arena (an interceptor on the client's thread start). Nothing when the command has no
 * jemalloc (a sanitizer's allocator). Call before rd_kafka_new. */
void rc_kafka_share_arena(rd_kafka_conf_t *conf);

#endif
