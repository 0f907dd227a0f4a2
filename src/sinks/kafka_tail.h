/* Tail reads and the skip rule of --exactly-once (docs/design/exactly-once.md §2.3, "E3 without
 * a partition map"). The first time a run routes a record to partition p, the greatest
 * `rowcast.eos` order key of its --server in p is read back (last[p]) with a read_uncommitted
 * consumer (aborted records count: a plain consumer sees them); a record whose key is not above
 * last[p] is in Kafka already and is not produced again.
 *
 * The skip rule lives in the sink, not in the pipeline (src/pipeline): only the sink knows the
 * partition a record goes to (murmur2 over the partition count its metadata gave), and last[] is
 * per partition; the pipeline hands over the key as the record's rowcast.eos header. */
#ifndef ROWCAST_SINKS_KAFKA_TAIL_H
#define ROWCAST_SINKS_KAFKA_TAIL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <librdkafka/rdkafka.h>
#include "rowcast/error.h"

enum {
    RC_TAIL_KEY_MAX = 320,    /* "SERVER ORDER": a --server of 255 bytes, a space, a key of 40 */
    RC_TAIL_WINDOW = 1000,    /* offsets read per backward step */
    RC_TAIL_BACKWARDS = -1    /* rc_kafka_tail_last's `from`: no known start, scan back from the end */
};

/* last[p] of one partition: read or not yet, and the value of its greatest rowcast.eos header of
 * the server ("SERVER ORDER"; len 0: the partition holds none). */
typedef struct kafka_tail_part {
    bool read;
    uint16_t len;
    char last[RC_TAIL_KEY_MAX];
} kafka_tail_part;

typedef struct kafka_tail {
    rd_kafka_t *rk;           /* the consumer (made at the first read) */
    char *brokers;            /* bootstrap.servers */
    char server[256];         /* --server NAME */
    size_t server_len;
    uint64_t skipped;         /* records of the replay found in Kafka already */
    uint64_t parts_read;      /* partitions read back */
    int64_t read_us;          /* time spent reading them */
    bool said;                /* the run's line about the replay is out */
} kafka_tail;

/* Keeps what a read needs; the consumer is made at the first read. */
rc_status rc_kafka_tail_open(kafka_tail *t, const char *brokers, const char *server, rc_error *err);
void rc_kafka_tail_close(kafka_tail *t);

/* The greatest rowcast.eos value of t->server in topic[partition], read with a read_uncommitted
 * consumer: from offset `from` to the high watermark (E4's partition map gives it), or with
 * RC_TAIL_BACKWARDS in windows of RC_TAIL_WINDOW offsets from the high watermark back until a
 * window holds a record of the server or the low watermark is reached (within a partition the
 * server's keys only grow: its last record carries the greatest). Sets out->read. */
rc_status rc_kafka_tail_last(kafka_tail *t, const char *topic, int32_t partition, int64_t from, int wait_ms,
                             volatile sig_atomic_t *stop, kafka_tail_part *out, rc_error *err);

/* rc_kafka_tail_last for every partition of a topic of n (out[n]), at once: the last window of
 * each through one queue (one round of requests for all), then backwards, one partition at a
 * time, for those whose last window holds no record of the server. */
rc_status rc_kafka_tail_topic(kafka_tail *t, const char *topic, int32_t n, int wait_ms, volatile sig_atomic_t *stop,
                              kafka_tail_part *out, rc_error *err);

/* The skip rule: true when `value` ("SERVER ORDER", a record's rowcast.eos header) is at or below
 * the partition's last (in Kafka already). Keys of one server and source have one width, so
 * byte order is their order; a partition without the server's records skips nothing. */
bool rc_kafka_tail_seen(const kafka_tail_part *p, const char *value, size_t len);

/* A record of key `value` was written to the partition (its key is above last[p]): last[p]. */
void rc_kafka_tail_wrote(kafka_tail_part *p, const char *value, size_t len);

/* The run's line about the replay: "exactly once: N records of the replay were in Kafka already
 * (P partitions read back, 0.21 s)". */
void rc_kafka_tail_summary(const kafka_tail *t, char *out, size_t n);

#endif
