/* A state text in a Kafka topic (kafka_state.h; docs/sinks.md, "State in Kafka"). */
#include "sinks/kafka_state.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <librdkafka/rdkafka.h>
#include "kafka_prop_client.h"

#define WAIT_MS 30000 /* for the cluster's answers: metadata, offsets, a delivery */

struct rc_kafka_state {
    char *hosts, *topic, *key, *label, *where;
    const rc_options *opts;
    volatile sig_atomic_t *stop;
    rd_kafka_t *producer;
};

typedef struct delivery {
    bool done;
    rd_kafka_resp_err_t err;
} delivery;

static rc_status nomem(rc_error *err) { return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"); }

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static bool stopped(const rc_kafka_state *k) { return k->stop && *k->stop; }

rc_status rc_kafka_conf_new(const char *hosts, const rc_options *opts, rd_kafka_type_t type, const char *const *fixed, const char *label,
                            const char *where, rd_kafka_conf_t **out, rc_error *err)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char errstr[512];
    if (rd_kafka_conf_set(conf, "bootstrap.servers", hosts, errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s %s: %s", label, where, errstr);
    }
    for (size_t i = 0; opts && i < opts->count; i++) {
        const char *key = opts->items[i].key;
        if (strncmp(key, "kafka.", 6) || !rc_kafka_prop_for(key + 6, type)) continue;
        rd_kafka_conf_res_t r = rd_kafka_conf_set(conf, key + 6, opts->items[i].value, errstr, sizeof errstr);
        if (r == RD_KAFKA_CONF_INVALID) {
            rd_kafka_conf_destroy(conf);
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=%s: %s", key, rc_option_is_secret(key) ? "(secret)" : opts->items[i].value,
                                errstr);
        }
    }
    for (size_t i = 0; fixed[i]; i += 2)
        if (rd_kafka_conf_set(conf, fixed[i], fixed[i + 1], errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
            rd_kafka_conf_destroy(conf);
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s %s: %s=%s: %s", label, where, fixed[i], fixed[i + 1], errstr);
        }
    *out = conf;
    return RC_OK;
}

static rc_status conf_new(const rc_kafka_state *k, rd_kafka_type_t type, const char *const *fixed, rd_kafka_conf_t **out, rc_error *err)
{
    return rc_kafka_conf_new(k->hosts, k->opts, type, fixed, k->label, k->where, out, err);
}

static rc_status handle_new(const rc_kafka_state *k, rd_kafka_type_t type, rd_kafka_conf_t *conf, rd_kafka_t **out, rc_error *err)
{
    char errstr[512];
    if (!(*out = rd_kafka_new(type, conf, errstr, sizeof errstr))) {
        rd_kafka_conf_destroy(conf);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s %s: %s", k->label, k->where, errstr);
    }
    return RC_OK;
}

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    (void)rk, (void)opaque;
    delivery *d = m->_private;
    if (d) d->err = m->err, d->done = true;
}

rc_status rc_kafka_state_open(const char *rest, const char *label, const char *server, const char *kind, const rc_options *opts,
                              volatile sig_atomic_t *stop, rc_kafka_state **out, rc_error *err)
{
    const char *slash = strchr(rest, '/');
    if (!slash || slash == rest || !slash[1] || strchr(slash + 1, '{') || strchr(slash + 1, '/'))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "%s kafka://%s: expected kafka://HOST:PORT[,HOST:PORT...]/TOPIC, one topic (a compacted one, "
                            "one partition, e.g. rowcast-state)", label, rest);
    if (!server || !*server)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s kafka://%s: needs --server NAME (the state's key is rowcast/NAME/%s)",
                            label, rest, kind);
    rc_kafka_state *k = calloc(1, sizeof *k);
    size_t kn = strlen(server) + strlen(kind) + 10;
    if (!k || !(k->hosts = strndup(rest, (size_t)(slash - rest))) || !(k->topic = strdup(slash + 1)) || !(k->label = strdup(label)) ||
        !(k->key = malloc(kn)) || !(k->where = malloc(strlen(rest) + 9))) {
        rc_kafka_state_close(k);
        return nomem(err);
    }
    snprintf(k->key, kn, "rowcast/%s/%s", server, kind);
    sprintf(k->where, "kafka://%s", rest);
    k->opts = opts, k->stop = stop;
    static const char *const fixed[] = {"enable.idempotence", "true", "acks", "all", "linger.ms", "0", NULL};
    rd_kafka_conf_t *conf;
    rc_status st = conf_new(k, RD_KAFKA_PRODUCER, fixed, &conf, err);
    if (st == RC_OK) {
        rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
        st = handle_new(k, RD_KAFKA_PRODUCER, conf, &k->producer, err);
    }
    if (st != RC_OK) {
        rc_kafka_state_close(k);
        return st;
    }
    *out = k;
    return RC_OK;
}

rc_status rc_kafka_state_save(rc_kafka_state *k, const char *text, size_t n, rc_error *err)
{
    delivery d = {0};
    rd_kafka_resp_err_t e = rd_kafka_producev(k->producer, RD_KAFKA_V_TOPIC(k->topic), RD_KAFKA_V_PARTITION(0),
                                              RD_KAFKA_V_KEY(k->key, strlen(k->key)), RD_KAFKA_V_VALUE((void *)text, n),
                                              RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_OPAQUE(&d), RD_KAFKA_V_END);
    if (e == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE)
        return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET,
                            "%s %s: the state (%zu bytes) is larger than a record may be (-o kafka.message.max.bytes, and the "
                            "topic's max.message.bytes): raise both, or keep the state in a file", k->label, k->where, n);
    if (e) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s", k->label, k->where, rd_kafka_err2str(e));
    double deadline = now_ms() + WAIT_MS;
    while (!d.done && now_ms() < deadline) rd_kafka_poll(k->producer, 50); /* a stop too: its last checkpoint is stored */
    if (!d.done) { /* not known to be stored: it must not be waited for by a later call */
        rd_kafka_purge(k->producer, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
        rd_kafka_poll(k->producer, 0);
        if (!d.done) d.done = true, d.err = RD_KAFKA_RESP_ERR__TIMED_OUT;
    }
    if (d.err)
        return rc_error_set(err, RC_ERR_RETRY, RC_NO_OFFSET, "%s %s: the state record was not stored: %s", k->label, k->where,
                            rd_kafka_err2str(d.err));
    return RC_OK;
}

/* The last value of the key in partition 0 from offset lo to hi (exclusive). */
static rc_status read_range(rc_kafka_state *k, rd_kafka_t *rk, int64_t lo, int64_t hi, rc_buf *text, bool *found, rc_error *err)
{
    rd_kafka_topic_partition_list_t *parts = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(parts, k->topic, 0)->offset = lo;
    rd_kafka_resp_err_t e = rd_kafka_assign(rk, parts);
    rd_kafka_topic_partition_list_destroy(parts);
    if (e) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s", k->label, k->where, rd_kafka_err2str(e));
    size_t keyn = strlen(k->key);
    int64_t next = lo;
    double deadline = now_ms() + WAIT_MS;
    rc_status st = RC_OK;
    while (st == RC_OK && next < hi) {
        if (stopped(k) || now_ms() > deadline) {
            st = rc_error_set(err, RC_ERR_RETRY, RC_NO_OFFSET, "%s %s: read up to offset %lld of %lld, then %s", k->label, k->where,
                              (long long)next, (long long)hi, stopped(k) ? "stopped" : "no answer within 30 s");
            break;
        }
        rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
        if (!m) continue;
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            next = hi; /* the end (records past it came after the start) */
        } else if (m->err) {
            if (m->err != RD_KAFKA_RESP_ERR__TRANSPORT && m->err != RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN)
                st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s", k->label, k->where, rd_kafka_message_errstr(m));
        } else {
            next = m->offset + 1;
            deadline = now_ms() + WAIT_MS;
            if (m->key_len == keyn && !memcmp(m->key, k->key, keyn)) {
                rc_buf_reset(text);
                *found = m->payload != NULL; /* a null value: deleted */
                if (m->payload) rc_buf_put(text, m->payload, m->len);
            }
        }
        rd_kafka_message_destroy(m);
    }
    rd_kafka_assign(rk, NULL);
    return st;
}

rc_status rc_kafka_state_load(rc_kafka_state *k, rc_buf *text, rc_error *err)
{
    char group[600];
    snprintf(group, sizeof group, "rowcast.state.%s", k->key); /* never joined: the partition is assigned */
    const char *const fixed[] = {"group.id", group, "enable.auto.commit", "false", "enable.partition.eof", "true",
                                 "isolation.level", "read_uncommitted", "auto.offset.reset", "error", NULL};
    rd_kafka_conf_t *conf;
    rd_kafka_t *rk;
    rc_status st = conf_new(k, RD_KAFKA_CONSUMER, fixed, &conf, err);
    if (st != RC_OK || (st = handle_new(k, RD_KAFKA_CONSUMER, conf, &rk, err)) != RC_OK) return st;
    int64_t lo = 0, hi = 0;
    rd_kafka_resp_err_t e = RD_KAFKA_RESP_ERR__TIMED_OUT;
    for (double deadline = now_ms() + WAIT_MS; now_ms() < deadline && !stopped(k);) {
        e = rd_kafka_query_watermark_offsets(rk, k->topic, 0, &lo, &hi, 1000);
        if (e != RD_KAFKA_RESP_ERR__TIMED_OUT && e != RD_KAFKA_RESP_ERR__TRANSPORT && e != RD_KAFKA_RESP_ERR_LEADER_NOT_AVAILABLE) break;
    }
    if (e == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
        st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                          "%s %s: the topic does not exist; create it (one partition, cleanup.policy=compact): rowcast does "
                          "not create it, so that a mistyped name is not a new, empty state", k->label, k->where);
    else if (e)
        st = rc_error_set(err, RC_ERR_RETRY, RC_NO_OFFSET, "%s %s: %s", k->label, k->where, rd_kafka_err2str(e));
    else if (lo > 0)
        st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                          "%s %s: partition 0 begins at offset %lld, not 0: records were deleted (retention on a topic that is "
                          "not compacted?), so the state of %s may be lost; rowcast does not guess a position: restore it, "
                          "or start a new capture under another --server", k->label, k->where, (long long)lo, k->key);
    bool found = false;
    if (st == RC_OK && hi > lo) st = read_range(k, rk, lo, hi, text, &found, err);
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    if (st == RC_OK && text->err) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "%s %s: too large", k->label, k->where);
    return st != RC_OK ? st : found ? RC_OK : RC_SKIP;
}

void rc_kafka_state_close(rc_kafka_state *k)
{
    if (!k) return;
    if (k->producer) {
        rd_kafka_flush(k->producer, 1000);
        rd_kafka_destroy(k->producer);
    }
    free(k->hosts), free(k->topic), free(k->key), free(k->label), free(k->where), free(k);
}
