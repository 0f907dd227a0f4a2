/* Sinks: where encoded messages go (stdout, a file, Kafka), behind one interface.
 *
 * A sink takes records (topic, key, value, headers) in order, numbers them, and learns from
 * the destination when each one is durably accepted (Kafka: the broker's delivery report with
 * acks=all; stdout/file: written and flushed). The caller marks source positions (opaque:
 * rowcast/position.h) between
 * records (rc_sink_mark); rc_sink_checkpoint returns the last marked position whose every
 * earlier record is acknowledged, which is the only position that may be stored as a
 * checkpoint. */
#ifndef ROWCAST_SINK_H
#define ROWCAST_SINK_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "rowcast/api.h"
#include "rowcast/error.h"
#include "rowcast/format.h"
#include "rowcast/position.h"

typedef struct rc_header {
    const char *name;
    const char *value;
    size_t len;
} rc_header;

enum { RC_MAX_HEADERS = 8 };

typedef struct rc_record {
    const char *topic;
    size_t topic_len;
    const void *key; /* NULL: the message has no key */
    size_t key_len;
    const void *value; /* NULL: a tombstone (null value) */
    size_t value_len;
    rc_header headers[RC_MAX_HEADERS];
    size_t nheaders;
    /* Partitions keyless records: "db.table" of the event, so that one keyless table stays
     * in one partition and in order (empty for events without a table). */
    const char *route;
    size_t route_len;
    int32_t partition; /* >= 0: the format names the partition (Debezium heartbeats: 0) */
} rc_record;

/* What stdout and file sinks write for each record. */
typedef enum rc_sink_layout {
    RC_LAYOUT_VALUES,  /* the value, then '\n' for text formats; "null" for a tombstone */
    RC_LAYOUT_KEYS,    /* the key, "null" when there is none, then '\n' */
    RC_LAYOUT_RECORDS, /* topic \t key-length \t key \t value-length \t value \t headers \n,
                        * as `kcat -C -f '%t\t%K\t%k\t%S\t%s\t%h\n'` prints a message */
} rc_sink_layout;

typedef enum rc_sink_notice {
    RC_SINK_NOTICE_BROKER,       /* about the destination: a broker down, librdkafka's log */
    RC_SINK_NOTICE_DEAD_LETTER,  /* a record refused for good went to the dead-letter file */
} rc_sink_notice;

typedef struct rc_sink_config {
    rc_sink_layout layout;
    bool binary;           /* the format's values are bytes: no '\n' after values */
    FILE *dead_letter;     /* records the destination refused for good go here (NULL: stop) */
    const char *dead_path; /* its name, for messages */
    /* Set (by a signal handler) when the run should stop: a send waiting for room in a full
     * queue gives up instead of waiting for brokers that may never come back. */
    volatile sig_atomic_t *stop;
    /* Kafka: how long to wait for a cluster that does not answer a topic's metadata, in ms (at
     * least one 0.5 s attempt is made); the convert CLI passes --flush-timeout. */
    int wait_ms;
    /* What the user should know as it happens, one line of text (no "rowcast: " prefix and no
     * newline): a broker that cannot be reached (once per broker and cause), librdkafka's own
     * log lines (once each), a record dead-lettered and why. NULL: nothing is said. */
    void (*notice)(void *ctx, rc_sink_notice kind, const char *text);
    void *notice_ctx;
} rc_sink_config;

typedef struct rc_sink_stats {
    uint64_t sent;          /* records handed to the sink */
    uint64_t delivered;     /* acknowledged by the destination */
    uint64_t failed;        /* refused for good, by the destination or before sending (record
                             * too large), and not dead-lettered */
    uint64_t dead_lettered; /* refused and written to the dead-letter file */
    uint64_t bytes;         /* key + value bytes handed to the sink */
} rc_sink_stats;

/* The sink state a checkpoint records beside the input position: the files the run appends to
 * (a file sink's output, the dead-letter file) and their sizes at that position, so that a
 * resumed run cuts each back to what it held there and nothing is written twice. A file is
 * tracked only where its order follows the input's: the dead-letter file not with Kafka, whose
 * refusals arrive in any order (there it is appended to, at least once, like Kafka itself). */
enum { RC_PATH_MAX = 4096 };

typedef struct rc_sink_file {
    bool set;               /* the run appends to this file */
    uint64_t size;          /* its size at the position */
    char path[RC_PATH_MAX]; /* its real path */
} rc_sink_file;

typedef struct rc_sink_state {
    rc_sink_file output, dead_letter;
} rc_sink_state;

typedef struct rc_sink rc_sink;

/* `url` is "stdout", "file:PATH" or "kafka://HOST:PORT[,HOST:PORT...]/TOPIC-TEMPLATE". Options
 * `kafka.<property>=<value>` go to librdkafka unchanged. */
RC_API rc_status rc_sink_open(const char *url, const rc_options *opts, const rc_sink_config *cfg, rc_sink **out,
                              rc_error *err);
/* True for sinks that route by topic (Kafka): the caller then expands the topic template. */
RC_API const char *rc_sink_topic_template(const rc_sink *s);
RC_API bool rc_sink_is_kafka(const rc_sink *s);

/* Hands one record over. Blocks (serving delivery reports) while the destination's queue is
 * full: back-pressure, never a drop. Fails only on an error that stops the run. */
RC_API rc_status rc_sink_send(rc_sink *s, const rc_record *r, rc_error *err);
/* Records in blocks: the most a block may hold (0: this sink takes records one at a time), and
 * one block of n records, whose bytes are what the sink writes for them (a stdout or file sink
 * with the values layout of a text format: each value, "null" for a tombstone, then "\n"). The
 * sink may keep block's memory and give it memory of its own in exchange (block's len is 0
 * after). As rc_sink_send otherwise (back-pressure); `bytes`: the records' key and value bytes,
 * for the counts. */
RC_API size_t rc_sink_block_max(const rc_sink *s);
RC_API rc_status rc_sink_send_block(rc_sink *s, rc_buf *block, size_t n, uint64_t bytes, rc_error *err);
/* Every record sent so far belongs to the source's stream before `pos`; the sizes of the files
 * the sink appends to are recorded with the mark. */
RC_API void rc_sink_mark(rc_sink *s, const rc_pos *pos);
/* Serves delivery reports for up to timeout_ms; an error when a record was refused for good
 * (and there is no dead-letter file) or the destination failed fatally. */
RC_API rc_status rc_sink_poll(rc_sink *s, int timeout_ms, rc_error *err);
/* Waits up to timeout_ms until every record is acknowledged or refused; RC_ERR_IO when some are
 * still outstanding or were refused. */
RC_API rc_status rc_sink_flush(rc_sink *s, int timeout_ms, rc_error *err);
/* The last marked position whose every earlier record is acknowledged, and the sink state
 * (rc_sink_state) when it was marked; false when none, or when making it durable failed. File
 * sinks flush and fsync their files before they answer, so the position and the sizes are
 * durable before a checkpoint names them. */
RC_API bool rc_sink_checkpoint(rc_sink *s, rc_pos *pos, rc_sink_state *state);
/* The same without waiting for a file sink's fsync: it is asked for, and the answer is what
 * the earlier ones made durable (a checkpoint interval behind); the run goes on meanwhile. */
RC_API bool rc_sink_checkpoint_soon(rc_sink *s, rc_pos *pos, rc_sink_state *state);
RC_API void rc_sink_get_stats(const rc_sink *s, rc_sink_stats *out);
/* Records are numbered from 0 in sending order: every record below the number returned is
 * acknowledged (delivered, or refused and dead-lettered). The pipeline's lag reads it. */
RC_API uint64_t rc_sink_acknowledged(const rc_sink *s);
RC_API void rc_sink_close(rc_sink *s);

/* Topic templates: {server}, {db}, {schema}, {table} between Kafka topic characters (ASCII
 * letters, digits, '.', '_', '-'); the preset "debezium" is "{server}.{db}.{table}". Sets *out
 * to the template to expand, or fails with a message naming the byte of an unknown placeholder
 * or of a character no topic name may hold. */
RC_API rc_status rc_topic_template(const char *spec, const char **out, rc_error *err);
/* Appends the topic of an event from `src`: placeholders replaced (characters Kafka does not
 * allow in topic names become '_'), empty parts' separators dropped. {server} is the event's
 * server, else `server`. */
RC_API void rc_topic_expand(const char *tmpl, const rc_origin *src, const char *server, rc_buf *out);
/* The same with the placeholders' values as they are (a format's topic naming then makes the
 * name valid its own way: upstream Debezium's unicode strategy). */
RC_API void rc_topic_expand_raw(const char *tmpl, const rc_origin *src, const char *server, rc_buf *out);

/* The files this sink appends to and their sizes now (after rc_sink_restore: the sizes cut to). */
RC_API void rc_sink_state_now(const rc_sink *s, rc_sink_state *out);
/* Cuts the files back to the sizes a checkpoint recorded (`want`) before anything is written;
 * `was` gets their sizes before. RC_ERR_USAGE when the checkpoint tracks other files than this
 * run (another --sink or dead-letter file) or a file is shorter than recorded (it was changed
 * since): the caller compares the states first to say so with both paths and sizes, which
 * the message of an rc_error cannot hold; RC_ERR_IO when a file cannot be cut. */
RC_API rc_status rc_sink_restore(rc_sink *s, const rc_sink_state *want, rc_sink_state *was, rc_error *err);
/* Appends an input line that could not be converted to the dead-letter file, unchanged (a
 * newline added when it has none), flushed; counted in the sink state. */
RC_API rc_status rc_sink_reject(rc_sink *s, const void *line, size_t len, rc_error *err);

/* Kafka's default partitioner (the Java client's, and librdkafka's murmur2): the 32-bit
 * murmur2 hash of `key` with Kafka's seed, as a signed Java int. */
RC_API int32_t rc_murmur2(const void *key, size_t len);
/* The partition the Java client picks for `key` among `count` partitions. */
RC_API int32_t rc_murmur2_partition(const void *key, size_t len, int32_t count);

#endif
