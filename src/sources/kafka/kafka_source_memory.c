/* The Kafka source's memory (kafka_source_int.h; docs/sources/kafka.md, "Memory"): the consumer's
 * prefetch bounds, the sink's producer queue bounds, and how soon the allocator gives freed
 * pages back.
 *
 * Each bound is in bytes and in messages, so that it holds whatever the message size: a
 * prefetched message costs librdkafka an op of a few hundred bytes beside its payload, a
 * produced one its copy, its headers and their list. queued.min.messages (librdkafka's 100000)
 * is the count bound of the prefetch. The producer's queue is librdkafka's 100000 messages and
 * 1 GiB by default: when the cluster acknowledges more slowly than the source reads, it fills
 * to that (a run of 1,000,000 Debezium records of ~1.3 KB peaked at 103 MB in a loaded round);
 * with a Kafka source it is bounded to 8 MiB and 10000 messages unless -o sets either
 * (docs/BENCHMARKS.md, "Kafka as a source", session 20). The pipeline's own queue is one batch.
 *
 * librdkafka's consumer prefetches up to queued.max.messages.kbytes (65536 by default) of
 * messages, each keeping its whole fetched (decompressed) batch alive, plus up to
 * fetch.message.max.bytes (1 MiB) a partition per fetch beyond it: with 24 partitions that was
 * 130-180 MB of a 1,000,000-message run (docs/BENCHMARKS.md). A smaller bound alone made the run
 * 2-3 times slower with librdkafka 2.0.2 (Debian 12's): a partition over the bound is not
 * fetchable, and nothing wakes its broker's thread when the queue empties but that thread's own
 * wait of up to 1 s (rd_kafka_max_block_ms); librdkafka 2.1.0 added fetch.queue.backoff.ms for
 * this. So where that property exists it is set low, and where it does not, a metadata refresh
 * every 100 ms wakes one broker thread at a time (a request to a broker wakes its thread, which
 * then fetches again for its partitions under the bound).
 *
 * jemalloc (the rowcast command's allocator) keeps the pages freed in each of its arenas for 10 s
 * (dirty_decay_ms) before giving them back: librdkafka's threads allocate the fetched batches
 * and rowcast's thread frees them, so a run's peak RSS grew with its length. 1 s, and no muzzy
 * stage, keeps it flat. Set through mallctl when the command has jemalloc (a weak reference:
 * without it, under a sanitizer's allocator, nothing is done). */
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>
#include "sources/kafka/kafka_source_int.h"

extern int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen) __attribute__((weak));

static const char *const prefetch[] = {"queued.max.messages.kbytes", "8192", "queued.min.messages", "10000", "fetch.message.max.bytes", "131072",
                                        NULL};

const char *const rc_ksrc_sink_defaults[] = {"kafka.queue.buffering.max.kbytes", "8192", "kafka.queue.buffering.max.messages", "10000", NULL};

void rc_ksrc_memory_defaults(rd_kafka_conf_t *conf)
{
    char errstr[256];
    for (size_t i = 0; prefetch[i]; i += 2) rd_kafka_conf_set(conf, prefetch[i], prefetch[i + 1], errstr, sizeof errstr);
    if (rd_kafka_conf_set(conf, "fetch.queue.backoff.ms", "10", errstr, sizeof errstr) == RD_KAFKA_CONF_UNKNOWN)
        rd_kafka_conf_set(conf, "topic.metadata.refresh.interval.ms", "100", errstr, sizeof errstr); /* librdkafka < 2.1 */
}

void rc_ksrc_allocator_decay(void)
{
    if (!mallctl) return;
    ssize_t dirty = 1000, muzzy = 0;
    unsigned n = 0;
    size_t len = sizeof n;
    /* the arenas made from now on, then each one there is */
    mallctl("arenas.dirty_decay_ms", NULL, NULL, &dirty, sizeof dirty);
    mallctl("arenas.muzzy_decay_ms", NULL, NULL, &muzzy, sizeof muzzy);
    if (mallctl("arenas.narenas", &n, &len, NULL, 0) != 0) return;
    for (unsigned i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "arena.%u.dirty_decay_ms", i);
        mallctl(name, NULL, NULL, &dirty, sizeof dirty); /* an arena not made yet: refused, and made with the new default */
        snprintf(name, sizeof name, "arena.%u.muzzy_decay_ms", i);
        mallctl(name, NULL, NULL, &muzzy, sizeof muzzy);
    }
}
