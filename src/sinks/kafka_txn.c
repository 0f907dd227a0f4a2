/* See kafka_txn.h. */
#include "kafka_txn.h"
#include "core/run_state.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum {
    TXN_TIMEOUT_MS = 60000,     /* transaction.timeout.ms: the coordinator aborts a longer one */
    MESSAGE_TIMEOUT_MS = 55000, /* message.timeout.ms, below it (librdkafka requires so) */
    DEFAULT_TXN_MS = 1000,
    DEFAULT_TXN_RECORDS = 500000,
    MAX_TXN_RECORDS = 1000000,  /* below the sink's records in flight (sink.c, IN_FLIGHT) */
    INIT_SLICE_MS = 500
};

int64_t rc_kafka_txn_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* A whole decimal number in [lo, hi], or false. */
static bool whole(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    if (*v < '0' || *v > '9') return false;
    errno = 0;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || errno || n < lo || n > hi) return false;
    *out = n;
    return true;
}

rc_status rc_kafka_txn_option(kafka_txn *t, const char *key, const char *value, bool *taken, rc_error *err)
{
    if (!t->ms) t->ms = DEFAULT_TXN_MS, t->records = DEFAULT_TXN_RECORDS;
    uint64_t n;
    *taken = true;
    if (!strcmp(key, "kafka.transactions")) {
        if (strcmp(value, "true") && strcmp(value, "false"))
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.transactions=%s: true or false", value);
        t->on = value[0] == 't';
    } else if (!strcmp(key, "kafka.exactly_once")) { /* what --exactly-once sets (run_flags.c) */
        if (strcmp(value, "true") && strcmp(value, "false"))
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.exactly_once=%s: true or false", value);
        t->eos = value[0] == 't';
    } else if (!strcmp(key, "kafka.exactly_once.source")) { /* what convert sets with a Kafka source */
        if (strcmp(value, "true") && strcmp(value, "false"))
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.exactly_once.source=%s: true or false", value);
        t->from_kafka = value[0] == 't';
    } else if (!strcmp(key, "kafka.transaction.ms")) {
        if (!whole(value, 1, TXN_TIMEOUT_MS - 10000, &n))
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                                "-o kafka.transaction.ms=%s: milliseconds from 1 to %d (below transaction.timeout.ms=%d)",
                                value, TXN_TIMEOUT_MS - 10000, TXN_TIMEOUT_MS);
        t->ms = (long)n;
    } else if (!strcmp(key, "kafka.transaction.records")) {
        if (!whole(value, 1, MAX_TXN_RECORDS, &n))
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.transaction.records=%s: a number from 1 to %d",
                                value, MAX_TXN_RECORDS);
        t->records = n;
    } else if (!strcmp(key, "kafka.transactional.id")) {
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "-o kafka.transactional.id: rowcast names its transactional producer itself, rowcast.NAME "
                            "from --server NAME, with -o kafka.transactions=true");
    } else {
        *taken = false;
    }
    return RC_OK;
}

static rc_status set(rd_kafka_conf_t *conf, const char *k, const char *v, rc_error *err)
{
    char errstr[512];
    if (rd_kafka_conf_set(conf, k, v, errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.transactions=true: %s=%s: %s", k, v, errstr);
    return RC_OK;
}

/* rowcast's value of a librdkafka property, unless the user gave one (-o kafka.KEY) */
static rc_status set_default(rd_kafka_conf_t *conf, const rc_options *user, const char *k, int v, rc_error *err)
{
    char key[64], n[24];
    snprintf(key, sizeof key, "kafka.%s", k);
    if (user && rc_options_get(user, key)) return RC_OK;
    snprintf(n, sizeof n, "%d", v);
    return set(conf, k, n, err);
}

rc_status rc_kafka_txn_conf(kafka_txn *t, rd_kafka_conf_t *conf, const char *server, const rc_options *user, rc_error *err)
{
    t->on = t->on || t->eos || t->from_kafka;
    if (t->from_kafka) t->eos = false; /* the input's offsets in the transactions: no tail reads, no skip rule */
    if (!t->on) return RC_OK;
    if (!server || !*server)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "-o kafka.transactions=true needs --server NAME: the name is the capture's identity in Kafka "
                            "(its transactional.id is rowcast.NAME)");
    if (strlen(server) >= sizeof t->server)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--server: a name of %zu bytes at most with -o kafka.transactions=true",
                            sizeof t->server - 1);
    snprintf(t->server, sizeof t->server, "%s", server);
    const char *member = user ? rc_options_get(user, "kafka.group.instance.id") : NULL;
    char host[64] = "";
    if (t->from_kafka && !member && gethostname(host, sizeof host - 1) != 0) snprintf(host, sizeof host, "localhost");
    if (!t->from_kafka) snprintf(t->id, sizeof t->id, "rowcast.%s", server);
    else if (member) snprintf(t->id, sizeof t->id, "rowcast.%s.%.60s", server, member);
    else snprintf(t->id, sizeof t->id, "rowcast.%s.%s.%ld", server, host, (long)getpid());
    rc_status st = set(conf, "transactional.id", t->id, err);
    if (st == RC_OK) st = set_default(conf, user, "transaction.timeout.ms", TXN_TIMEOUT_MS, err);
    if (st == RC_OK) st = set_default(conf, user, "message.timeout.ms", MESSAGE_TIMEOUT_MS, err);
    return st;
}

void rc_kafka_txn_fatal(kafka_txn *t, rd_kafka_resp_err_t code, const char *why)
{
    if (t->failed[0]) return;
    t->fenced = code == RD_KAFKA_RESP_ERR__FENCED || code == RD_KAFKA_RESP_ERR_PRODUCER_FENCED ||
                code == RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH;
    if (t->fenced && t->from_kafka)
        snprintf(t->failed, sizeof t->failed, "fenced: another producer with transactional.id %s took over; this one stops "
                 "without writing (its input is read again from the group's committed offsets)", t->id);
    else if (t->fenced)
        snprintf(t->failed, sizeof t->failed,
                 "fenced: another rowcast with --server %s took over; this one stops without writing", t->server);
    else
        snprintf(t->failed, sizeof t->failed, "kafka: fatal producer error: %s (%s)", why, rd_kafka_err2name(code));
}

void rc_kafka_txn_doom(kafka_txn *t, const char *why)
{
    if (!t->doomed[0]) snprintf(t->doomed, sizeof t->doomed, "%s", why);
}

/* Aborts the doomed transaction; the session ends with the cause (exit 3: the in-process restart
 * of the design's §2.5 is not built, a new run starts a new session). */
bool rc_kafka_txn_abort(kafka_txn *t, rd_kafka_t *rk, char *why, size_t n)
{
    rd_kafka_error_t *a = rd_kafka_abort_transaction(rk, TXN_TIMEOUT_MS);
    if (!a) t->st.aborted++;
    snprintf(why, n, "%s%s%s", a ? " (aborting failed too: " : "", a ? rd_kafka_error_string(a) : "", a ? ")" : "");
    if (a) rd_kafka_error_destroy(a);
    t->open = false;
    return !a;
}

static void abort_doomed(kafka_txn *t, rd_kafka_t *rk)
{
    char why[256];
    rc_kafka_txn_abort(t, rk, why, sizeof why);
    snprintf(t->failed, sizeof t->failed, "kafka: %.639s; the transaction was aborted%.90s", t->doomed, why);
}

rc_status rc_kafka_txn_check(kafka_txn *t, rd_kafka_t *rk, rc_error *err)
{
    if (!t->failed[0]) {
        char why[512];
        rd_kafka_resp_err_t fc = rd_kafka_fatal_error(rk, why, sizeof why);
        if (fc) rc_kafka_txn_fatal(t, fc, why);
        else if (t->doomed[0]) abort_doomed(t, rk);
    }
    return rc_kafka_txn_failure(t, err);
}

/* A transactional call failed for good: the session ends with the cause, an abortable
 * transaction aborted first. Takes `e`. */
rc_status rc_kafka_txn_end_session(kafka_txn *t, rd_kafka_t *rk, const char *what, rd_kafka_error_t *e, rc_error *err)
{
    rd_kafka_resp_err_t code = rd_kafka_error_code(e);
    char why[512];
    snprintf(why, sizeof why, "%s", rd_kafka_error_string(e));
    if (rd_kafka_error_is_fatal(e)) {
        char fwhy[512];
        rd_kafka_resp_err_t fc = rd_kafka_fatal_error(rk, fwhy, sizeof fwhy);
        rc_kafka_txn_fatal(t, fc ? fc : code, fc ? fwhy : why);
    } else if (rd_kafka_error_txn_requires_abort(e)) {
        if (!t->doomed[0]) snprintf(t->doomed, sizeof t->doomed, "%s failed: %s (%s)", what, why, rd_kafka_err2name(code));
        abort_doomed(t, rk);
    } else {
        snprintf(t->failed, sizeof t->failed, "kafka: %s failed: %s (%s)", what, why, rd_kafka_err2name(code));
    }
    rd_kafka_error_destroy(e);
    return rc_kafka_txn_failure(t, err);
}

rc_status rc_kafka_txn_failure(const kafka_txn *t, rc_error *err)
{
    return t->failed[0] ? rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s", t->failed) : RC_OK;
}

rc_status rc_kafka_txn_init(kafka_txn *t, rd_kafka_t *rk, int wait_ms, volatile sig_atomic_t *stop, rc_error *err)
{
    int64_t deadline = rc_kafka_txn_now_us() + (int64_t)wait_ms * 1000;
    for (;;) { /* in slices, so that a signal ends the wait for a cluster that does not answer */
        rd_kafka_error_t *e = rd_kafka_init_transactions(rk, INIT_SLICE_MS);
        if (!e) {
            t->ended_us = rc_kafka_txn_now_us();
            return RC_OK;
        }
        if (!rd_kafka_error_is_retriable(e)) {
            char what[sizeof t->server + 80];
            snprintf(what, sizeof what, "starting the transactional producer rowcast.%s (init_transactions)", t->server);
            return rc_kafka_txn_end_session(t, rk, what, e, err);
        }
        if (rc_kafka_txn_now_us() >= deadline || (stop && *stop)) {
            char when[64];
            if (stop && *stop) snprintf(when, sizeof when, "stopped by a signal while waiting for an answer");
            else snprintf(when, sizeof when, "no answer within %g s (--flush-timeout)", wait_ms / 1000.0);
            snprintf(t->failed, sizeof t->failed, "kafka: starting the transactional producer rowcast.%s (init_transactions): %s: %s",
                     t->server, when, rd_kafka_error_string(e));
            rd_kafka_error_destroy(e);
            return rc_kafka_txn_failure(t, err);
        }
        rd_kafka_error_destroy(e);
    }
}

/* --standby: the lead is still this instance's (core/run_state.h), else the session ends as
 * fenced (exit 4) before anything more is written. */
static rc_status lead_held(kafka_txn *t, rc_error *err)
{
    char why[256];
    if (t->failed[0] || rc_run_lead_held(why, sizeof why)) return rc_kafka_txn_failure(t, err);
    t->fenced = true;
    snprintf(t->failed, sizeof t->failed, "lost the lead of --server %s (%s); this one stops without writing", t->server, why);
    return rc_kafka_txn_failure(t, err);
}

rc_status rc_kafka_txn_begin(kafka_txn *t, rd_kafka_t *rk, rc_error *err)
{
    rc_status st = lead_held(t, err);
    if (st != RC_OK || t->open) return st;
    rd_kafka_error_t *e = rd_kafka_begin_transaction(rk);
    if (e) return rc_kafka_txn_end_session(t, rk, "beginning a transaction", e, err);
    t->open = true;
    t->began_us = rc_kafka_txn_now_us();
    t->in_txn = 0;
    return RC_OK;
}

bool rc_kafka_txn_produced(kafka_txn *t)
{
    ++t->in_txn;
    return !t->from_kafka && (t->in_txn >= t->records || rc_kafka_txn_due(t));
}

bool rc_kafka_txn_due(const kafka_txn *t)
{
    int64_t now = rc_kafka_txn_now_us(), ms = (int64_t)t->ms * 1000;
    if (t->from_kafka && t->src.offsets &&
        (t->src.urgent(t->src.ctx) || (t->open && t->in_txn >= t->records) || (!t->open && now - t->ended_us >= ms)))
        return true;
    return t->open && now - t->began_us >= ms;
}

rc_status rc_kafka_txn_end(kafka_txn *t, rd_kafka_t *rk, tracker *tr, uint64_t end, int timeout_ms, rc_error *err)
{
    rc_status st = t->open ? lead_held(t, err) : rc_kafka_txn_failure(t, err);
    if (st != RC_OK || !t->open) return st;
    int64_t t0 = rc_kafka_txn_now_us(), deadline = t0 + (int64_t)TXN_TIMEOUT_MS * 1000;
    for (;;) {
        int64_t left_ms = (deadline - rc_kafka_txn_now_us()) / 1000;
        int ms = left_ms < timeout_ms ? (int)left_ms : timeout_ms;
        rd_kafka_error_t *e = rd_kafka_commit_transaction(rk, ms < 100 ? 100 : ms);
        if (!e) break;
        if (!rd_kafka_error_is_retriable(e) || rc_kafka_txn_now_us() >= deadline)
            return rc_kafka_txn_end_session(t, rk, "committing a transaction", e, err);
        rd_kafka_error_destroy(e); /* the coordinator moved, a broker was down, a time-out: again */
    }
    t->open = false;
    t->st.committed++;
    t->ended_us = rc_kafka_txn_now_us();
    t->st.commit_us += t->ended_us - t0;
    rc_tracker_ack_below(tr, end);
    return RC_OK;
}
