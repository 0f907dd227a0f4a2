/* See kafka_tail.h. The consumer is librdkafka's simple (legacy) one: partitions are read at
 * given offsets, with no group (nothing is committed, nobody else is assigned anything). */
#include "kafka_tail.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { SLICE_MS = 200 };

static int64_t tail_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

rc_status rc_kafka_tail_open(kafka_tail *t, const char *brokers, const char *server, rc_error *err)
{
    memset(t, 0, sizeof *t);
    t->server_len = server ? strlen(server) : 0;
    if (!t->server_len || t->server_len >= sizeof t->server)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--exactly-once needs --server NAME (1 to %zu bytes)", sizeof t->server - 1);
    memcpy(t->server, server, t->server_len + 1);
    if (!(t->brokers = strdup(brokers))) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    return RC_OK;
}

void rc_kafka_tail_close(kafka_tail *t)
{
    if (t->rk) rd_kafka_destroy(t->rk);
    free(t->brokers);
    t->rk = NULL, t->brokers = NULL;
}

/* librdkafka's log of the consumer is not the run's: a broker it cannot reach shows as a read
 * without an answer, said then */
static void quiet(const rd_kafka_t *rk, int level, const char *fac, const char *buf) { (void)rk, (void)level, (void)fac, (void)buf; }

static rc_status consumer(kafka_tail *t, rc_error *err)
{
    if (t->rk) return RC_OK;
    static const char *const kv[][2] = {{"isolation.level", "read_uncommitted"}, /* aborted records count (§2.3) */
                                        {"enable.partition.eof", "true"},
                                        {"enable.auto.offset.store", "false"},
                                        {"fetch.wait.max.ms", "10"}};
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    bool ok = rd_kafka_conf_set(conf, "bootstrap.servers", t->brokers, errstr, sizeof errstr) == RD_KAFKA_CONF_OK;
    for (size_t i = 0; ok && i < sizeof kv / sizeof *kv; i++)
        ok = rd_kafka_conf_set(conf, kv[i][0], kv[i][1], errstr, sizeof errstr) == RD_KAFKA_CONF_OK;
    rd_kafka_conf_set_log_cb(conf, quiet);
    /* a window below the partition's start (retention cut it) reads from its start */
    ok = ok && rd_kafka_conf_set(conf, "auto.offset.reset", "smallest", errstr, sizeof errstr) == RD_KAFKA_CONF_OK;
    if (ok && (t->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr))) return RC_OK; /* it took conf */
    rd_kafka_conf_destroy(conf);
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: the consumer that reads back for --exactly-once: %s", errstr);
}

/* A record read back: its rowcast.eos value when it is the server's and above out's. */
static void consider(const kafka_tail *t, const rd_kafka_message_t *m, kafka_tail_part *out, bool *found)
{
    rd_kafka_headers_t *h = NULL;
    const void *v = NULL;
    size_t n = 0;
    if (rd_kafka_message_headers(m, &h) || rd_kafka_header_get_last(h, "rowcast.eos", &v, &n)) return;
    if (n <= t->server_len || n >= RC_TAIL_KEY_MAX || memcmp(v, t->server, t->server_len) || ((const char *)v)[t->server_len] != ' ')
        return;
    *found = true;
    if (!rc_kafka_tail_seen(out, v, n)) rc_kafka_tail_wrote(out, v, n);
}

/* Reads topic[part] from `start` on until an offset at or past `end` (or the partition's end). */
static rc_status window(const kafka_tail *t, rd_kafka_topic_t *rkt, int32_t part, int64_t start, int64_t end, int64_t deadline,
                        volatile sig_atomic_t *stop, kafka_tail_part *out, bool *found, rc_error *err)
{
    const char *topic = rd_kafka_topic_name(rkt);
    if (rd_kafka_consume_start(rkt, part, start) == -1)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: reading back %s[%d] for --exactly-once: %s", topic, (int)part,
                            rd_kafka_err2str(rd_kafka_last_error()));
    rc_status st = RC_OK;
    for (int64_t at = start; at < end && st == RC_OK;) {
        rd_kafka_message_t *m = rd_kafka_consume(rkt, part, SLICE_MS);
        if (!m) {
            if ((stop && *stop) || tail_now_us() > deadline)
                st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: reading back %s[%d] for --exactly-once: %s at offset %lld",
                                  topic, (int)part, stop && *stop ? "stopped by a signal" : "no answer within --flush-timeout",
                                  (long long)at);
            continue;
        }
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) at = end;
        else if (m->err)
            st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: reading back %s[%d] for --exactly-once: %s", topic, (int)part,
                              rd_kafka_message_errstr(m));
        else {
            if (m->offset < end) consider(t, m, out, found);
            at = m->offset + 1;
        }
        rd_kafka_message_destroy(m);
    }
    rd_kafka_consume_stop(rkt, part);
    return st;
}

/* topic[partition] from `from` (>= 0) to the high watermark, or (from < 0) backwards from
 * offset `end` (INT64_MAX: the high watermark) in windows until one holds a record of the server */
static rc_status read_part(kafka_tail *t, rd_kafka_topic_t *rkt, int32_t partition, int64_t from, int64_t end, int wait_ms,
                           volatile sig_atomic_t *stop, kafka_tail_part *out, rc_error *err)
{
    int64_t deadline = tail_now_us() + (int64_t)wait_ms * 1000, lo = 0, hi = 0;
    rd_kafka_resp_err_t e = rd_kafka_query_watermark_offsets(t->rk, rd_kafka_topic_name(rkt), partition, &lo, &hi, wait_ms);
    if (e)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: reading back %s[%d] for --exactly-once: its offsets: %s",
                            rd_kafka_topic_name(rkt), (int)partition, rd_kafka_err2str(e));
    bool found = false;
    if (from >= 0) return window(t, rkt, partition, from > lo ? from : lo, hi, deadline, stop, out, &found, err);
    rc_status st = RC_OK;
    for (end = end < hi ? end : hi; st == RC_OK && !found && end > lo;) { /* to the server's last record */
        int64_t start = end - lo > RC_TAIL_WINDOW ? end - RC_TAIL_WINDOW : lo;
        st = window(t, rkt, partition, start, end, deadline, stop, out, &found, err);
        end = start;
    }
    return st;
}

/* The consumer and the topic's handle (NULL after an error). */
static rd_kafka_topic_t *topic_of(kafka_tail *t, const char *topic, rc_error *err)
{
    if (consumer(t, err) != RC_OK) return NULL;
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(t->rk, topic, NULL);
    if (!rkt)
        rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: reading back %s for --exactly-once: %s", topic,
                     rd_kafka_err2str(rd_kafka_last_error()));
    return rkt;
}

rc_status rc_kafka_tail_last(kafka_tail *t, const char *topic, int32_t partition, int64_t from, int wait_ms,
                             volatile sig_atomic_t *stop, kafka_tail_part *out, rc_error *err)
{
    int64_t t0 = tail_now_us();
    memset(out, 0, sizeof *out);
    rd_kafka_topic_t *rkt = topic_of(t, topic, err);
    if (!rkt) return err->code;
    rc_status st = read_part(t, rkt, partition, from, INT64_MAX, wait_ms, stop, out, err);
    rd_kafka_topic_destroy(rkt);
    out->read = st == RC_OK;
    t->parts_read += st == RC_OK;
    t->read_us += tail_now_us() - t0;
    return st;
}

/* The last window of every partition at once, through one queue: their first offsets read
 * (first[p]; -1: none, the partition is empty) and whether they held a record of the server. */
static rc_status last_windows(kafka_tail *t, rd_kafka_topic_t *rkt, int32_t n, int wait_ms, volatile sig_atomic_t *stop,
                              kafka_tail_part *out, int64_t *first, bool *found, rc_error *err)
{
    const char *topic = rd_kafka_topic_name(rkt);
    int64_t deadline = tail_now_us() + (int64_t)wait_ms * 1000;
    rd_kafka_queue_t *q = rd_kafka_queue_new(t->rk);
    int32_t started = 0, left = n;
    rc_status st = RC_OK;
    for (; started < n && st == RC_OK; started++) {
        first[started] = -1;
        if (rd_kafka_consume_start_queue(rkt, started, RD_KAFKA_OFFSET_TAIL(RC_TAIL_WINDOW), q) == -1)
            st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: reading back %s[%d] for --exactly-once: %s", topic, (int)started,
                              rd_kafka_err2str(rd_kafka_last_error()));
    }
    bool *eof = calloc((size_t)n, sizeof *eof);
    if (!eof && st == RC_OK) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    while (left > 0 && st == RC_OK) {
        rd_kafka_message_t *m = rd_kafka_consume_queue(q, SLICE_MS);
        if (!m) {
            if ((stop && *stop) || tail_now_us() > deadline)
                st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: reading back %s for --exactly-once: %s (%d of %d partitions read)",
                                  topic, stop && *stop ? "stopped by a signal" : "no answer within --flush-timeout", (int)(n - left), (int)n);
            continue;
        }
        int32_t p = m->partition;
        if (p < 0 || p >= n || eof[p]) {
        } else if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            eof[p] = true, left--;
        } else if (m->err) {
            st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: reading back %s[%d] for --exactly-once: %s", topic, (int)p,
                              rd_kafka_message_errstr(m));
        } else {
            if (first[p] < 0 || m->offset < first[p]) first[p] = m->offset;
            consider(t, m, &out[p], &found[p]);
        }
        rd_kafka_message_destroy(m);
    }
    free(eof);
    for (int32_t p = 0; p < started; p++) rd_kafka_consume_stop(rkt, p);
    rd_kafka_queue_destroy(q);
    return st;
}

rc_status rc_kafka_tail_topic(kafka_tail *t, const char *topic, int32_t n, int wait_ms, volatile sig_atomic_t *stop,
                              kafka_tail_part *out, rc_error *err)
{
    int64_t t0 = tail_now_us();
    memset(out, 0, (size_t)n * sizeof *out);
    rd_kafka_topic_t *rkt = topic_of(t, topic, err);
    if (!rkt) return err->code;
    /* the partitions' leaders known first: a read started before them waits for librdkafka's
     * offset-query retry (500 ms), which was most of a start's tail reads */
    const struct rd_kafka_metadata *md = NULL;
    if (rd_kafka_metadata(t->rk, 0, rkt, &md, wait_ms) == RD_KAFKA_RESP_ERR_NO_ERROR) rd_kafka_metadata_destroy(md);
    int64_t *first = calloc((size_t)n, sizeof *first);
    bool *found = calloc((size_t)n, sizeof *found);
    rc_status st = first && found ? last_windows(t, rkt, n, wait_ms, stop, out, first, found, err)
                                  : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    /* a last window without the server's records, above the partition's start: on backwards */
    for (int32_t p = 0; p < n && st == RC_OK; p++)
        if (!found[p] && first[p] > 0) st = read_part(t, rkt, p, -1, first[p], wait_ms, stop, &out[p], err);
    for (int32_t p = 0; p < n; p++) out[p].read = st == RC_OK;
    t->parts_read += st == RC_OK ? (uint64_t)n : 0;
    free(first), free(found);
    rd_kafka_topic_destroy(rkt);
    t->read_us += tail_now_us() - t0;
    return st;
}

bool rc_kafka_tail_seen(const kafka_tail_part *p, const char *value, size_t len)
{
    if (!p->len) return false;
    size_t n = len < p->len ? len : p->len;
    int c = memcmp(value, p->last, n);
    return c < 0 || (c == 0 && len <= p->len);
}

void rc_kafka_tail_wrote(kafka_tail_part *p, const char *value, size_t len)
{
    if (len >= RC_TAIL_KEY_MAX) return;
    memcpy(p->last, value, len);
    p->len = (uint16_t)len;
}

void rc_kafka_tail_summary(const kafka_tail *t, char *out, size_t n)
{
    int64_t cs = t->read_us / 10000; /* hundredths of a second */
    snprintf(out, n, "exactly once: %llu records of the replay were in Kafka already (%llu partitions read back, %lld.%02lld s)",
             (unsigned long long)t->skipped, (unsigned long long)t->parts_read, (long long)(cs / 100), (long long)(cs % 100));
}
