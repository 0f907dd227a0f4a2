/* See kafka_dead_letter.h. */
#include "kafka_dead_letter.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "core/log.h"

enum { WAIT_SLICE_MS = 100, LOGGED = 64 };

struct rc_dead_kafka {
    rd_kafka_t *rk;
    char *url, *topic;
    volatile sig_atomic_t *stop;
    bool answered;            /* the delivery report of the write in flight came */
    rd_kafka_resp_err_t dr;   /* and its verdict */
    uint64_t written;
    uint64_t logged[LOGGED]; /* hashes of the librdkafka log lines said */
    size_t nlogged;
};

bool rc_dead_kafka_is(const char *target) { return !strncmp(target, "kafka://", 8); }

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    (void)rk;
    rc_dead_kafka *d = opaque;
    d->answered = true, d->dr = m->err;
}

/* librdkafka's log (served by the waits: log.queue), each distinct line once. */
static void on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
    rc_dead_kafka *d = rd_kafka_opaque(rk);
    const char *thread_end = !strncmp(buf, "[thrd:", 6) ? strstr(buf, "]: ") : NULL;
    if (thread_end) buf = thread_end + 3; /* librdkafka's thread: not for users */
    uint64_t h = rc_hash64(buf, strlen(buf), rc_hash64(fac, strlen(fac), 0));
    size_t i = 0;
    while (d && i < d->nlogged && d->logged[i] != h) i++;
    if (!d || (level < 7 && i < d->nlogged)) return;
    if (i == d->nlogged && d->nlogged < LOGGED) d->logged[d->nlogged++] = h;
    rc_logf("rowcast: dead-letter %s: librdkafka %s: %s\n", d->url, fac, buf);
}

static rc_status conf_set(rd_kafka_conf_t *conf, const char *k, const char *v, rc_error *err)
{
    char errstr[512];
    return rd_kafka_conf_set(conf, k, v, errstr, sizeof errstr) == RD_KAFKA_CONF_OK
               ? RC_OK
               : rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "dead-letter: %s=%s: %s", k, v, errstr);
}

rc_status rc_dead_kafka_open(const char *url, const rc_options *opts, volatile sig_atomic_t *stop, rc_dead_kafka **out,
                             rc_error *err)
{
    const char *rest = url + 8, *slash = strchr(rest, '/');
    if (!rc_dead_kafka_is(url) || !slash || slash == rest || !slash[1] || strpbrk(slash + 1, "/{},"))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--on-error=dead-letter:%s: expected kafka://HOST:PORT[,HOST:PORT...]/TOPIC (one topic)",
                            url);
    rc_dead_kafka *d = calloc(1, sizeof *d);
    char *hosts = strndup(rest, (size_t)(slash - rest));
    if (!d || !hosts || !(d->url = strdup(url)) || !(d->topic = strdup(slash + 1))) {
        free(hosts);
        rc_dead_kafka_close(d);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    d->stop = stop;
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    /* each write is awaited: nothing to linger for */
    static const char *const fixed[] = {"enable.idempotence", "true", "acks", "all", "linger.ms", "0", "log.queue", "true", NULL};
    kafka_txn txn = {0}; /* rowcast's own sink options: taken, not the dead letter's */
    rc_status st = conf_set(conf, "bootstrap.servers", hosts, err);
    for (size_t i = 0; st == RC_OK && fixed[i]; i += 2) st = conf_set(conf, fixed[i], fixed[i + 1], err);
    if (st == RC_OK) st = rc_kafka_user_options(conf, &txn, opts, err);
    free(hosts);
    char errstr[512];
    if (st == RC_OK) {
        rd_kafka_conf_set_opaque(conf, d);
        rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
        rd_kafka_conf_set_log_cb(conf, on_log);
        if (!(d->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr)))
            st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "dead-letter %s: %s", url, errstr);
        else conf = NULL, rd_kafka_set_log_queue(d->rk, NULL);
    }
    if (conf) rd_kafka_conf_destroy(conf);
    if (st != RC_OK) {
        rc_dead_kafka_close(d);
        return st;
    }
    *out = d;
    return RC_OK;
}

/* The item's own headers (rc_source_message.headers' layout), then rowcast's. NULL: out of memory. */
static rd_kafka_headers_t *headers_of(const rc_dead_letter *m)
{
    rd_kafka_headers_t *h = rd_kafka_headers_new(4 + m->nextra);
    uint32_t nl, vl;
    size_t left = m->headers_len;
    for (const char *at = m->headers; h && left >= sizeof nl;) {
        memcpy(&nl, at, sizeof nl);
        if (left - sizeof nl < (size_t)nl + sizeof vl) break; /* the source's own layout: never cut short */
        const char *name = at + sizeof nl;
        memcpy(&vl, name + nl, sizeof vl);
        const char *value = vl == UINT32_MAX ? NULL : name + nl + sizeof vl;
        size_t n = 2 * sizeof nl + nl + (value ? vl : 0);
        if (n > left) break;
        rd_kafka_header_add(h, name, (ssize_t)nl, value, value ? (ssize_t)vl : 0);
        at += n, left -= n;
    }
    for (size_t i = 0; h && i < m->nextra; i++) rd_kafka_header_add(h, m->extra[i].name, -1, m->extra[i].value, (ssize_t)m->extra[i].len);
    return h;
}

static rc_status refused(const rc_dead_kafka *d, const rc_dead_letter *m, const char *why, rc_error *err)
{
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                        "dead-letter %s: the bad message at %s was not written: %s; the run stops there (its position "
                        "does not move past it)",
                        d->url, m->where, why);
}

rc_status rc_dead_kafka_write(rc_dead_kafka *d, const rc_dead_letter *m, rc_error *err)
{
    rd_kafka_headers_t *h = headers_of(m);
    if (!h) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    d->answered = false;
    rd_kafka_resp_err_t e = rd_kafka_producev(d->rk, RD_KAFKA_V_TOPIC(d->topic), RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
                                              RD_KAFKA_V_KEY((void *)(uintptr_t)m->key, m->key ? m->key_len : 0),
                                              RD_KAFKA_V_VALUE((void *)(uintptr_t)m->value, m->value ? m->value_len : 0), RD_KAFKA_V_HEADERS(h),
                                              RD_KAFKA_V_END);
    if (e) {
        rd_kafka_headers_destroy(h); /* kept by librdkafka only when produced */
        return refused(d, m, rd_kafka_err2str(e), err);
    }
    while (!d->answered) {
        rd_kafka_poll(d->rk, WAIT_SLICE_MS);
        if (!d->answered && d->stop && *d->stop) return refused(d, m, "stopped by a signal while waiting for its acknowledgement", err);
    }
    if (d->dr) return refused(d, m, rd_kafka_err2str(d->dr), err);
    d->written++;
    return RC_OK;
}

uint64_t rc_dead_kafka_written(const rc_dead_kafka *d) { return d ? d->written : 0; }

void rc_dead_kafka_close(rc_dead_kafka *d)
{
    if (!d) return;
    if (d->rk) {
        rd_kafka_flush(d->rk, 1000); /* nothing is in flight after a write returned; a stopped one's may still go */
        rd_kafka_destroy(d->rk);
    }
    free(d->url), free(d->topic);
    free(d);
}
