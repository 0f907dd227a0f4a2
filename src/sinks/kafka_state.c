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

/* A record of the server's other keys the load found (rowcast/SERVER/SUFFIX): its last value. */
typedef struct found_rec {
    char *suffix, *value;
    size_t len;
} found_rec;

struct rc_kafka_state {
    char *hosts, *topic, *key, *prefix, *label, *where; /* prefix: rowcast/SERVER/ */
    const rc_options *opts;
    volatile sig_atomic_t *stop;
    rd_kafka_t *producer;
    found_rec *found;
    size_t nfound;
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
        !(k->key = malloc(kn)) || !(k->prefix = malloc(kn)) || !(k->where = malloc(strlen(rest) + 9))) {
        rc_kafka_state_close(k);
        return nomem(err);
    }
    snprintf(k->key, kn, "rowcast/%s/%s", server, kind);
    snprintf(k->prefix, kn, "rowcast/%s/", server);
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

/* Records keys[i] = values[i] (lens[i] bytes; NULL: a tombstone) produced together and awaited:
 * RC_OK once the broker acknowledged every one. */
static rc_status produce_all(rc_kafka_state *k, size_t count, char *const *keys, const char *const *values, const size_t *lens,
                             rc_error *err)
{
    delivery *d = calloc(count ? count : 1, sizeof *d);
    if (!d) return nomem(err);
    rc_status st = RC_OK;
    size_t sent = 0;
    for (; sent < count; sent++) {
        rd_kafka_resp_err_t e = rd_kafka_producev(
            k->producer, RD_KAFKA_V_TOPIC(k->topic), RD_KAFKA_V_PARTITION(0), RD_KAFKA_V_KEY(keys[sent], strlen(keys[sent])),
            RD_KAFKA_V_VALUE((void *)values[sent], values[sent] ? lens[sent] : 0), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
            RD_KAFKA_V_OPAQUE(&d[sent]), RD_KAFKA_V_END);
        if (e == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE)
            st = rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET,
                              "%s %s: the record %s (%zu bytes) is larger than a record may be (-o kafka.message.max.bytes, and "
                              "the topic's max.message.bytes): raise both, or keep the state in a file", k->label, k->where, keys[sent],
                              lens[sent]);
        else if (e)
            st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s", k->label, k->where, rd_kafka_err2str(e));
        if (st != RC_OK) break;
    }
    size_t done = 0;
    double deadline = now_ms() + WAIT_MS;
    while (done < sent && now_ms() < deadline) { /* a stop too: its last checkpoint is stored */
        rd_kafka_poll(k->producer, 50);
        while (done < sent && d[done].done) done++;
    }
    if (done < sent) { /* not known to be stored: it must not be waited for by a later call */
        rd_kafka_purge(k->producer, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
        rd_kafka_poll(k->producer, 0);
    }
    for (size_t i = 0; st == RC_OK && i < sent; i++)
        if (!d[i].done || d[i].err)
            st = rc_error_set(err, RC_ERR_RETRY, RC_NO_OFFSET, "%s %s: the record %s was not stored: %s", k->label, k->where, keys[i],
                              rd_kafka_err2str(d[i].done ? d[i].err : RD_KAFKA_RESP_ERR__TIMED_OUT));
    free(d);
    return st;
}

rc_status rc_kafka_state_save(rc_kafka_state *k, const char *text, size_t n, rc_error *err)
{
    return produce_all(k, 1, &k->key, &text, &n, err);
}

rc_status rc_kafka_state_put(rc_kafka_state *k, size_t count, const char *const *suffixes, const char *const *values, const size_t *lens,
                             rc_error *err)
{
    char **keys = calloc(count ? count : 1, sizeof *keys);
    rc_status st = keys ? RC_OK : nomem(err);
    size_t pn = strlen(k->prefix);
    for (size_t i = 0; st == RC_OK && i < count; i++) {
        if (!(keys[i] = malloc(pn + strlen(suffixes[i]) + 1))) st = nomem(err);
        else strcat(strcpy(keys[i], k->prefix), suffixes[i]);
    }
    if (st == RC_OK) st = produce_all(k, count, keys, values, lens, err);
    for (size_t i = 0; keys && i < count; i++) free(keys[i]);
    free(keys);
    return st;
}

/* The load met rowcast/SERVER/SUFFIX = value (NULL: deleted): the last one is kept. */
static bool found_set(rc_kafka_state *k, const char *suffix, size_t sn, const void *value, size_t len)
{
    size_t i = 0;
    while (i < k->nfound && (strlen(k->found[i].suffix) != sn || memcmp(k->found[i].suffix, suffix, sn))) i++;
    if (i == k->nfound) {
        if (!value) return true;
        found_rec *f = realloc(k->found, (k->nfound + 1) * sizeof *f);
        if (!f) return false;
        k->found = f;
        if (!(f[i].suffix = strndup(suffix, sn))) return false;
        f[i].value = NULL, k->nfound++;
    }
    free(k->found[i].value);
    k->found[i].value = NULL;
    if (value && !(k->found[i].value = malloc(len ? len : 1))) return false;
    if (value) memcpy(k->found[i].value, value, len);
    k->found[i].len = len;
    return true;
}

bool rc_kafka_state_found(const rc_kafka_state *k, const char *suffix, const char **value, size_t *len)
{
    for (size_t i = 0; i < k->nfound; i++)
        if (!strcmp(k->found[i].suffix, suffix) && k->found[i].value) {
            *value = k->found[i].value, *len = k->found[i].len;
            return true;
        }
    return false;
}

void rc_kafka_state_forget(rc_kafka_state *k)
{
    for (size_t i = 0; i < k->nfound; i++) free(k->found[i].suffix), free(k->found[i].value);
    free(k->found);
    k->found = NULL, k->nfound = 0;
}

size_t rc_kafka_state_found_count(const rc_kafka_state *k) { return k->nfound; }

const char *rc_kafka_state_found_key(const rc_kafka_state *k, size_t i) { return k->found[i].value ? k->found[i].suffix : NULL; }

/* The last value of the key in partition 0 from offset lo to hi (exclusive). */
static rc_status read_range(rc_kafka_state *k, rd_kafka_t *rk, int64_t lo, int64_t hi, rc_buf *text, bool *found, rc_error *err)
{
    rd_kafka_topic_partition_list_t *parts = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(parts, k->topic, 0)->offset = lo;
    rd_kafka_resp_err_t e = rd_kafka_assign(rk, parts);
    rd_kafka_topic_partition_list_destroy(parts);
    if (e) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s", k->label, k->where, rd_kafka_err2str(e));
    size_t keyn = strlen(k->key), pn = strlen(k->prefix);
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
            } else if (m->key_len > pn && !memcmp(m->key, k->prefix, pn) && /* the server's other keys (history chunks) */
                       !found_set(k, (const char *)m->key + pn, m->key_len - pn, m->payload, m->len)) {
                st = nomem(err);
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
    rc_kafka_state_forget(k);
    free(k->hosts), free(k->topic), free(k->key), free(k->prefix), free(k->label), free(k->where), free(k);
}
