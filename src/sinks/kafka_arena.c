/* librdkafka's threads allocate in the arena of the thread that made the client (kafka_arena.h).
 *
 * jemalloc gives each thread an arena, up to four per CPU, and an arena keeps the pages freed in
 * it (up to its decay time) for its own later allocations. A Kafka client's threads (its main
 * thread and one per broker) allocate what crosses threads: the consumer's fetched and
 * decompressed batches, which rowcast's thread frees; the producer's requests. Spread over
 * eight arenas (two CPUs), each kept its own freed pages, and a Kafka-to-Kafka run's peak RSS
 * was 10-20 MB higher than with one arena for them all (docs/BENCHMARKS.md, "Kafka as a source",
 * session 20: MALLOC_CONF=narenas:1 gave 45-59 MB against 54-70 MB). Binding the client's
 * threads to the arena of the thread that makes it (rowcast's pipeline thread) does that for
 * the Kafka clients only, without changing the other threads' arenas (the database sources'
 * reader, the file writers). A user's MALLOC_CONF still applies. Set through mallctl
 * when the command has jemalloc (a weak reference, as in kafka_source_memory.c). */
#include "sinks/kafka_arena.h"
#include <stddef.h>
#include <stdint.h>

extern int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen) __attribute__((weak));

static rd_kafka_resp_err_t on_thread_start(rd_kafka_t *rk, rd_kafka_thread_type_t type, const char *name, void *ic_opaque)
{
    (void)rk, (void)type, (void)name;
    unsigned arena = (unsigned)(uintptr_t)ic_opaque;
    mallctl("thread.arena", NULL, NULL, &arena, sizeof arena); /* refused: the thread keeps its own */
    return RD_KAFKA_RESP_ERR_NO_ERROR;
}

static rd_kafka_resp_err_t on_new(rd_kafka_t *rk, const rd_kafka_conf_t *conf, void *ic_opaque, char *errstr, size_t errstr_size)
{
    (void)conf, (void)errstr, (void)errstr_size;
    return rd_kafka_interceptor_add_on_thread_start(rk, "rowcast.arena", on_thread_start, ic_opaque);
}

void rc_kafka_share_arena(rd_kafka_conf_t *conf)
{
    unsigned arena;
    size_t len = sizeof arena;
    if (!mallctl || mallctl("thread.arena", &arena, &len, NULL, 0) != 0) return;
    rd_kafka_conf_interceptor_add_on_new(conf, "rowcast.arena", on_new, (void *)(uintptr_t)arena);
}
