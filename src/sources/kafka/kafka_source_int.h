/* The Kafka source's state, shared by its files (docs/design/kafka-source.md): kafka_source.c
 * (the consumer, batches, acknowledgements), kafka_parts.c (the partitions, the ring of
 * messages handed out, commits), kafka_rebalance.c (assignments and the drain of a revoke). */
#ifndef ROWCAST_SOURCES_KAFKA_SOURCE_INT_H
#define ROWCAST_SOURCES_KAFKA_SOURCE_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <librdkafka/rdkafka.h>
#include "rowcast/source.h"

typedef struct kafka_part {
    char *topic;
    int32_t partition;
    int64_t acked;     /* the offset after the last message acknowledged (-1: none) */
    int64_t committed; /* what was committed last (-1: nothing by this run) */
    int64_t handed;    /* the offset after the last message handed out (-1: none) */
    int64_t first;     /* the offset of the first message handed out since the assignment (-1: none) */
    int64_t confirmed; /* the last commit the cluster confirmed (-1: none since the assignment) */
    int64_t resume;    /* where this member stopped when its drain's commit was refused (-1: none) */
    int64_t last_ts;   /* the timestamp (ms) of the last message handed out (-1: none) */
    int64_t offered;   /* --exactly-once: the offset last given to the sink's transaction (-1: none) */
    int64_t txn_next;  /* --exactly-once: scratch of rc_ksrc_txn_offsets */
    bool owned;        /* assigned to this member now */
    bool eof;          /* at the end of the partition (nothing handed since) */
    char name[160];    /* "topic[partition]": the items' file name */
} kafka_part;

typedef struct kafka_handed {
    uint64_t seq; /* the item's position: messages handed out up to and with it */
    size_t part;
    int64_t offset;
} kafka_handed;

/* Rebalances by kind (rowcast_kafka_source_rebalances_total{kind}) */
enum { KAFKA_LOGGED = 128 }; /* distinct librdkafka log lines said */
enum { KAFKA_REB_ASSIGN, KAFKA_REB_REVOKE, KAFKA_REB_LOST, KAFKA_REB_KINDS };

typedef struct kafka_source {
    rc_source base;
    rc_source_config cfg;
    rd_kafka_t *rk;
    char *shown; /* the URL as messages show it */
    rc_batch batch;
    uint64_t seq;
    kafka_part *parts;
    size_t nparts, capparts, last_part;
    /* each item's key (in the batch text after its value), its headers' bytes (after its key:
     * kafka_message.c), its partition (an index of parts) and whether its key and value are
     * null (a tombstone) */
    struct {
        size_t key_n, hdr_n, part;
        bool key, value;
    } rec[RC_BATCH_ITEMS];
    kafka_handed *q; /* a ring of the messages handed out and not acknowledged */
    size_t qhead, qn, qcap;
    bool stop_at_end; /* -o kafka.source.stop=end: the run ends when every assigned partition is at its end */
    bool closing;     /* in close: a revoke gives the partitions up at once */
    size_t owned;
    uint64_t commits, commit_errors;
    /* a revoke being drained: the partitions are paused and nothing more is handed out until
     * the ring is acknowledged (or drain_ms passed) */
    bool draining;
    int64_t drain_ms;   /* -o kafka.source.drain.ms (default 10 s) */
    double drain_until; /* the monotonic time a drain gives up at */
    double drain_start;
    uint64_t rebalances[KAFKA_REB_KINDS];
    uint64_t drain_left; /* messages handed out and not acknowledged when a drain gave up or a partition was lost */
    double drain_seconds; /* the time spent draining, in all */
    uint64_t logged[KAFKA_LOGGED]; /* hashes of the librdkafka log lines said */
    size_t nlogged;
    int64_t refused; /* the messages after the last confirmed commit when the last give-up's commit was refused */
    /* --exactly-once (kafka_eos.h): the offsets go in the sink's transactions, the consumer
     * commits none; why the open transaction must not commit (partitions given up with messages
     * handed out and not acknowledged), or "" */
    bool eos;
    char eos_lost[256];
    /* librdkafka < 2.2 (no fetch.queue.backoff.ms): the fetchers' wake-up (kafka_source_memory.c) */
    struct {
        rd_kafka_queue_t *q;          /* the consumer's queue, for its length; NULL: no wake-ups */
        rd_kafka_topic_t *rkt;        /* the topic whose metadata is asked (a subscribed one) */
        uint64_t max_msgs, max_bytes; /* the prefetch bounds in force */
        uint64_t msgs, bytes;         /* handed out since the last wake-up */
        uint64_t sent;                /* wake-ups sent (a request each) */
    } wake;
} kafka_source;

double rc_ksrc_now(void); /* monotonic seconds */
/* The partition's entry (made on first sight); NULL: out of memory. */
kafka_part *rc_ksrc_part_of(kafka_source *k, const char *topic, int32_t partition);
/* Commits each owned partition's acknowledged offset that moved (async: a later commit covers a
 * failed one; sync at a revoke and at the end). The error of a synchronous one. */
rd_kafka_resp_err_t rc_ksrc_commit(kafka_source *k, bool sync);
/* The consumer's offset commit callback: what the cluster confirmed. */
void rc_ksrc_on_commit(rd_kafka_t *rk, rd_kafka_resp_err_t e, rd_kafka_topic_partition_list_t *offsets, void *opaque);
/* Takes the ring's messages handed up to and with `upto` as acknowledged; true when an offset moved. */
bool rc_ksrc_ring_ack(kafka_source *k, uint64_t upto);

/* The message's headers in rc_source_message.headers' layout at `out` (NULL: only counted);
 * the bytes they take. rc_source_ops.message (kafka_message.c). */
size_t rc_ksrc_headers_put(const rd_kafka_message_t *m, char *out);
void rc_ksrc_message(const rc_source *src, const rc_batch *b, size_t i, rc_source_message *out);

/* The consumer's prefetch bounds (before the run's -o kafka.*, which win), and the allocator's
 * decay of freed pages (kafka_source_memory.c). */
void rc_ksrc_memory_defaults(rd_kafka_conf_t *conf);
/* After the consumer is made: whether its fetchers need waking (librdkafka < 2.2), the bounds. */
void rc_ksrc_wake_init(kafka_source *k);
/* After `msgs` messages of `bytes` were handed out: a fetcher woken when the prefetch is under
 * half its bounds again, at most once a quarter of the bound handed out. */
void rc_ksrc_wake(kafka_source *k, uint64_t msgs, uint64_t bytes);
void rc_ksrc_allocator_decay(void);
/* The sink's producer queue bounds (rc_source_ops.sink_defaults). */
extern const char *const rc_ksrc_sink_defaults[];

/* The consumer's log callback (kafka_source_log.c). */
void rc_ksrc_on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf);
/* The source's stats op: its partitions' lag, rebalances, drains. */
void rc_ksrc_stats(const rc_source *src, rc_source_stats *out);

/* --exactly-once: partitions given up with `left` messages handed out and not acknowledged
 * (`how`): their records may be in the sink's open transaction, which must not commit now. */
void rc_ksrc_eos_lost(kafka_source *k, size_t left, const char *how);

/* The rebalance callback (the consumer's opaque is the source). */
void rc_ksrc_on_rebalance(rd_kafka_t *rk, rd_kafka_resp_err_t e, rd_kafka_topic_partition_list_t *parts, void *opaque);
/* While a revoke drains: gives the partitions up once everything handed out is acknowledged or
 * the drain's time is over. True while it still drains. */
bool rc_ksrc_drain_step(kafka_source *k);

#endif
