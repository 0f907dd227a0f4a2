/* What the pipeline asks of a sink beyond the public interface (rowcast/sink.h): opening it
 * with the capture's name (--server, which a transactional Kafka sink needs for its
 * transactional.id), the transactions' counts for the metrics, and whether it was fenced. */
#ifndef ROWCAST_SINKS_SINK_TXN_H
#define ROWCAST_SINKS_SINK_TXN_H

#include <stdbool.h>
#include <stdint.h>
#include <librdkafka/rdkafka.h>
#include "rowcast/sink.h"

/* Transactions of a Kafka sink with -o kafka.transactions=true. */
typedef struct rc_sink_txn_stats {
    uint64_t committed, aborted;
    int64_t commit_us; /* time spent committing (the flush and EndTxn), summed */
    bool eos;             /* --exactly-once */
    uint64_t eos_skipped; /* records of the replay found in Kafka already (kafka_tail.h) */
} rc_sink_txn_stats;

/* rc_sink_open with `name`: the --server the user gave, NULL when none. */
rc_status rc_sink_open_named(const char *url, const rc_options *opts, const rc_sink_config *cfg, const char *name,
                             rc_sink **out, rc_error *err);
/* What rc_sink_open_named would refuse of `url` and `opts` (the URL's form, a file sink's path, a
 * Kafka sink's -o kafka.* options on a scratch librdkafka configuration), with nothing opened and
 * no broker asked: `--check`. */
rc_status rc_sink_check(const char *url, const rc_options *opts, rc_error *err);
/* False when the sink has no transactions. */
bool rc_sink_txn_stats_get(const rc_sink *s, rc_sink_txn_stats *out);
/* A newer producer of the same transactional.id took over: the run exits 4. */
bool rc_sink_fenced(const rc_sink *s);
/* --exactly-once: this capture starts from no position of its own, at the server's current one
 * (`why`: which, for the message); a topic that already holds records of its --server is then
 * refused (RC_ERR_USAGE): the state that named how far they went is lost, and starting here would
 * skip the changes between. The sink's one topic is read back now, before anything is written or
 * stored; topics named by the events at their first record. RC_OK for other sinks. */
rc_status rc_sink_eos_fresh(rc_sink *s, const char *why, rc_error *err);

/* --exactly-once from a Kafka source (docs/sources/kafka.md, Exactly once): what the sink's
 * transactions ask of the source, which fills it in (sources/kafka/kafka_eos.h); the pipeline
 * passes it from one to the other. */
typedef struct rc_txn_source {
    void *ctx;
    /* The consumer's group metadata now (the caller destroys it); NULL: none. */
    rd_kafka_consumer_group_metadata_t *(*metadata)(void *ctx);
    /* The offsets the transaction commits with the records of the input up to `upto`: per
     * partition the offset after the last message handed out there, each given once (*out NULL:
     * none new). False when the transaction must not commit (`why`): partitions whose messages'
     * records it holds were lost (the session timed out) or given up unacknowledged. */
    bool (*offsets)(void *ctx, const rc_pos *upto, rd_kafka_topic_partition_list_t **out, char *why, size_t n);
    /* True while a revoke waits for the open transaction: commit it now. */
    bool (*urgent)(void *ctx);
    /* The transaction that carried the offsets last given committed. */
    void (*committed)(void *ctx);
} rc_txn_source;

/* True when the sink's transactions want a Kafka source's offsets (-o kafka.exactly_once.source,
 * which convert sets for --exactly-once with a Kafka source). */
bool rc_sink_txn_wants_source(const rc_sink *s);
/* Hands the sink the source's side (copied); before anything is sent. */
void rc_sink_txn_source(rc_sink *s, const rc_txn_source *src);

enum { RC_EXIT_FENCED = 4 };

#endif
