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
 * wait of up to 1 s (rd_kafka_max_block_ms); librdkafka 2.2.0 added fetch.queue.backoff.ms for
 * this, which is set low where it exists. Where it does not, the source wakes the fetchers
 * itself (rc_ksrc_wake): a request to a broker wakes that broker's thread, which then fetches
 * again for its partitions under the bound. The request is an application metadata request for
 * one subscribed topic, sent without waiting for its answer, to a broker librdkafka picks at
 * random among those up: three of them reach each of three brokers with a chance of 70 % (one:
 * 33 %, which left the consumer waiting for messages more often). They are sent only when a
 * quarter of a bound was handed out since the last ones and the queue is under the bound again,
 * so an idle consumer sends none. An application's metadata request for a topic does not make
 * the group join again (librdkafka checks the subscription only on the answers of its own
 * refreshes and of requests for all topics). Sessions 19-22 set
 * topic.metadata.refresh.interval.ms=100 instead: a periodic refresh's answer that reaches the
 * group leader between its JoinGroup answer and its own metadata answer makes librdkafka 2.0.2
 * join again, which the mock cluster answers after session.timeout.ms - 1 s (a quarter of the
 * bench's joins took 47 s instead of 3 s; docs/BENCHMARKS.md, session 23), and a real cluster
 * with one more rebalance of the group.
 *
 * jemalloc (the rowcast command's allocator) keeps the pages freed in each of its arenas for 10 s
 * (dirty_decay_ms) before giving them back: librdkafka's threads allocate the fetched batches
 * and rowcast's thread frees them, so a run's peak RSS grew with its length. 1 s, and no muzzy
 * stage, keeps it flat. Set through mallctl when the command has jemalloc (a weak reference:
 * without it, under a sanitizer's allocator, nothing is done). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>
#include "sources/kafka/kafka_source_int.h"

enum { WAKE_REQUESTS = 3 };

extern int mallctl(const char *name, void *oldp, size_t *oldlenp, void *newp, size_t newlen) __attribute__((weak));

static const char *const prefetch[] = {"queued.max.messages.kbytes", "8192", "queued.min.messages", "10000", "fetch.message.max.bytes", "131072",
                                        NULL};

const char *const rc_ksrc_sink_defaults[] = {"kafka.queue.buffering.max.kbytes", "8192", "kafka.queue.buffering.max.messages", "10000", NULL};

void rc_ksrc_memory_defaults(rd_kafka_conf_t *conf)
{
    char errstr[256];
    for (size_t i = 0; prefetch[i]; i += 2) rd_kafka_conf_set(conf, prefetch[i], prefetch[i + 1], errstr, sizeof errstr);
    rd_kafka_conf_set(conf, "fetch.queue.backoff.ms", "10", errstr, sizeof errstr); /* librdkafka >= 2.2 */
}

static uint64_t conf_u64(rd_kafka_t *rk, const char *name)
{
    char v[32];
    size_t n = sizeof v;
    return rd_kafka_conf_get(rd_kafka_conf(rk), name, v, &n) == RD_KAFKA_CONF_OK ? strtoull(v, NULL, 10) : 0;
}

void rc_ksrc_wake_init(kafka_source *k)
{
    char v[32];
    size_t n = sizeof v;
    if (rd_kafka_conf_get(rd_kafka_conf(k->rk), "fetch.queue.backoff.ms", v, &n) != RD_KAFKA_CONF_UNKNOWN) return;
    k->wake.max_msgs = conf_u64(k->rk, "queued.min.messages");
    k->wake.max_bytes = conf_u64(k->rk, "queued.max.messages.kbytes") * 1024;
    if (k->wake.max_msgs && k->wake.max_bytes) k->wake.q = rd_kafka_queue_get_consumer(k->rk);
}

void rc_ksrc_wake(kafka_source *k, uint64_t msgs, uint64_t bytes)
{
    if (!k->wake.q || !k->nparts) return;
    k->wake.msgs += msgs, k->wake.bytes += bytes;
    if (4 * k->wake.msgs < k->wake.max_msgs && 4 * k->wake.bytes < k->wake.max_bytes) return;
    uint64_t queued = rd_kafka_queue_length(k->wake.q), avg = k->wake.bytes / (k->wake.msgs ? k->wake.msgs : 1);
    if (queued >= k->wake.max_msgs || queued * avg >= k->wake.max_bytes) return; /* still full: its fetchers would not fetch */
    if (!k->wake.rkt && !(k->wake.rkt = rd_kafka_topic_new(k->rk, k->parts[0].topic, NULL))) return;
    /* timeout 0: the request is sent, its answer not waited for (dropped when it comes) */
    for (int i = 0; i < WAKE_REQUESTS; i++) {
        const struct rd_kafka_metadata *md = NULL;
        if (rd_kafka_metadata(k->rk, 0, k->wake.rkt, &md, 0) == RD_KAFKA_RESP_ERR_NO_ERROR && md) rd_kafka_metadata_destroy(md);
    }
    k->wake.msgs = k->wake.bytes = 0;
    k->wake.sent++;
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
