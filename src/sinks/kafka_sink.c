/* The Kafka sink (librdkafka): an idempotent producer with acks=all, partitions chosen by the
 * Java client's murmur2 rule (keyless records by their table), headers, back-pressure on a
 * full queue, and delivery reports feeding the checkpoint tracker; with
 * -o kafka.transactions=true a transactional one whose commits feed it (kafka_txn.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <librdkafka/rdkafka.h>
#include "kafka_arena.h"
#include "kafka_dead_letter.h"
#include "kafka_log.h"
#include "kafka_prop_client.h"
#include "kafka_tail.h"
#include "kafka_txn.h"
#include "pipeline/order_key.h"
#include "sink_impl.h"

enum { METADATA_SLICE_MS = 500, MAX_TOPICS = 4096 };

typedef struct topic_entry {
    char *name;
    size_t len;
    rd_kafka_topic_t *rkt;
    int32_t partitions;
    kafka_tail_part *tails; /* --exactly-once: per partition, made at the topic's first record */
} topic_entry;

typedef struct kafka_sink {
    rd_kafka_t *rk;
    rc_sink *s; /* back-pointer for the delivery callback */
    topic_entry *topics;
    size_t ntopics, last;
    char failed[1024]; /* the first refusal for good (no dead-letter file), reported by poll */
    char fatal[512];
    rc_status dead_status; /* a dead-letter write failed */
    rc_error dead_err;
    kafka_log log;
    kafka_txn txn;
    kafka_tail tail; /* --exactly-once: last[p] per topic's partition (topic_entry.tails) */
    char fresh[200];  /* --exactly-once: why this capture starts from no position of its own, or "" */
} kafka_sink;

/* "input FILE, file offset N" of a record's rowcast.position header (FILE:OFFSET), or "" when
 * it has none. */
static void where_of(const char *pos, size_t len, char *out, size_t n)
{
    size_t c = pos ? len : 0;
    while (c > 0 && pos[c - 1] != ':') c--;
    if (!c) *out = '\0';
    else snprintf(out, n, "input %.*s, file offset %.*s", (int)(c - 1), pos, (int)(len - c), pos + c);
}

/* A record refused for good, by a broker or by librdkafka before sending: written to the
 * dead-letter file, said with its reason and acknowledged (the checkpoint passes it); without
 * a dead-letter file (or when writing there failed) the first refusal stops the run. */
static void refuse(kafka_sink *ks, uint64_t seq, const char *topic, const void *value, size_t len, const char *pos,
                   size_t pos_len, const char *reason)
{
    rc_sink *s = ks->s;
    char where[512], text[1536];
    where_of(pos, pos_len, where, sizeof where);
    if (s->cfg.dead_letter && ks->dead_status == RC_OK) {
        ks->dead_status = rc_sink_dead_letter(s, value, len, &ks->dead_err);
        if (ks->dead_status == RC_OK) {
            rc_tracker_ack(&s->tr, seq);
            snprintf(text, sizeof text, "kafka: dead-lettered a message for topic %s%s%s%s: %s", topic, *where ? " (" : "",
                     where, *where ? ")" : "", reason);
            if (s->cfg.notice) s->cfg.notice(s->cfg.notice_ctx, RC_SINK_NOTICE_DEAD_LETTER, text);
            return;
        }
    }
    s->stats.failed++; /* refused and not dead-lettered (the summary's "refused") */
    if (!ks->failed[0])
        snprintf(ks->failed, sizeof ks->failed, "kafka: delivery to topic %s failed: %s%s%s", topic, reason, *where ? "; " : "", where);
}

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
    kafka_sink *ks = opaque;
    rc_sink *s = ks->s;
    uint64_t seq = (uint64_t)(uintptr_t)m->_private;
    if (!m->err) {
        s->stats.delivered++;
        if (!ks->txn.on) rc_tracker_ack(&s->tr, seq); /* in a transaction: acknowledged by its commit */
        return;
    }
    if (m->err == RD_KAFKA_RESP_ERR__PURGE_QUEUE || m->err == RD_KAFKA_RESP_ERR__PURGE_INFLIGHT)
        return; /* given up at close (after a stop): undelivered, not refused */
    rd_kafka_headers_t *hdrs = NULL;
    const void *pos = NULL;
    size_t pos_len = 0;
    if (rd_kafka_message_headers(m, &hdrs) || rd_kafka_header_get_last(hdrs, "rowcast.position", &pos, &pos_len)) pos = NULL;
    char reason[512];
    snprintf(reason, sizeof reason, "%s (%s)", rd_kafka_err2str(m->err), rd_kafka_err2name(m->err));
    if (ks->txn.on) { /* its transaction fails with it: nothing of it is acknowledged or dead-lettered */
        char where[512], text[1536];
        where_of(pos, pos ? pos_len : 0, where, sizeof where);
        snprintf(text, sizeof text, "delivery to topic %s failed: %s%s%s", rd_kafka_topic_name(m->rkt), reason, *where ? "; " : "", where);
        s->stats.failed++;
        rc_kafka_txn_doom(&ks->txn, text);
        return;
    }
    refuse(ks, seq, rd_kafka_topic_name(m->rkt), m->payload, m->len, pos, pos ? pos_len : 0, reason);
}

/* librdkafka's log (served by rd_kafka_poll on rowcast's thread: log.queue) in rowcast's words */
static void on_log(const rd_kafka_t *rk, int level, const char *fac, const char *buf)
{
    kafka_sink *ks = rd_kafka_opaque(rk);
    if (ks) rc_kafka_log_line(&ks->log, level, fac, buf);
}

static void on_error(rd_kafka_t *rk, int code, const char *reason, void *opaque)
{
    kafka_sink *ks = opaque;
    char why[512];
    if (code == RD_KAFKA_RESP_ERR__FATAL && !ks->fatal[0]) {
        rd_kafka_resp_err_t fc = rd_kafka_fatal_error(rk, why, sizeof why);
        snprintf(ks->fatal, sizeof ks->fatal, "%s", why);
        if (ks->txn.on) rc_kafka_txn_fatal(&ks->txn, fc, why);
    }
    /* transport errors (a broker down, a refused connection) are retried by librdkafka; the
     * run fails only through delivery reports or a fatal error */
}

static rc_status conf_set(rd_kafka_conf_t *conf, const char *k, const char *v, rc_error *err)
{
    char errstr[512];
    if (rd_kafka_conf_set(conf, k, v, errstr, sizeof errstr) != RD_KAFKA_CONF_OK)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.%s=%s: %s", k, rc_option_is_secret(k) ? "(secret)" : v,
                            errstr);
    return RC_OK;
}

/* The run's -o kafka.* options on `conf`: rowcast's own taken by `txn` (kafka_txn.h), the ones
 * rowcast keeps refused, the others librdkafka's properties. */
rc_status rc_kafka_user_options(rd_kafka_conf_t *conf, kafka_txn *txn, const rc_options *opts, rc_error *err)
{
    rc_status st = RC_OK;
    bool own; /* rowcast's own options (kafka_txn.c), not librdkafka's */
    for (size_t i = 0; st == RC_OK && i < opts->count; i++) {
        const char *k = opts->items[i].key;
        /* kafka.order.header is the pipeline's (run_open.c), kafka.source.* the Kafka source's */
        if (strncmp(k, "kafka.", 6) != 0 || !strcmp(k + 6, "order.header") || !strncmp(k + 6, "source.", 7) ||
            (st = rc_kafka_txn_option(txn, k, opts->items[i].value, &own, err)) != RC_OK || own)
            continue;
        if (!strcmp(k + 6, "enable.idempotence") || !strcmp(k + 6, "acks") || !strcmp(k + 6, "partitioner"))
            st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                              "-o %s: rowcast keeps enable.idempotence=true, acks=all and its own murmur2 partitioning "
                              "(order per row and the Java client's partitions depend on them)", k);
        else if (rc_kafka_prop_for(k + 6, RD_KAFKA_PRODUCER)) /* a consumer's: the Kafka source's */
            st = conf_set(conf, k + 6, opts->items[i].value, err);
    }
    return st;
}

/* The length of the URL's HOST:PORT list (kafka://HOSTS/TOPIC), 0 after the error. */
static size_t hosts_len(const char *rest, rc_error *err)
{
    const char *slash = strchr(rest, '/');
    size_t hl = slash ? (size_t)(slash - rest) : strlen(rest);
    if (!hl) rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--sink kafka://: no HOST:PORT before the topic");
    return hl;
}

/* What kafka_open refuses of the URL and the options, on a scratch configuration: no client made,
 * no broker asked. */
static rc_status kafka_check(const char *rest, const rc_options *opts, rc_error *err)
{
    if (!hosts_len(rest, err)) return err->code;
    const char *slash = strchr(rest, '/'), *tmpl;
    if (slash && slash[1] && rc_topic_template(slash + 1, &tmpl, err) != RC_OK) return err->code; /* as rc_run_open's */
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    kafka_txn txn = {0};
    rc_status st = rc_kafka_user_options(conf, &txn, opts, err);
    rd_kafka_conf_destroy(conf);
    return st;
}

static rc_status kafka_open(rc_sink *s, const char *rest, const rc_options *opts, rc_error *err)
{
    const char *slash = strchr(rest, '/');
    size_t hl = hosts_len(rest, err);
    if (!hl) return err->code;
    char *hosts = strndup(rest, hl);
    kafka_sink *ks = calloc(1, sizeof *ks);
    if (!hosts || !ks) {
        free(hosts), free(ks);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    ks->s = s;
    ks->log.cfg = &s->cfg;
    s->impl = ks;
    if (slash && slash[1]) s->topic_template = slash + 1;
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rc_status st = conf_set(conf, "bootstrap.servers", hosts, err);
    /* order per key and no duplicates from retries; the user may add but not weaken these */
    if (st == RC_OK) st = conf_set(conf, "enable.idempotence", "true", err);
    if (st == RC_OK) st = conf_set(conf, "acks", "all", err);
    if (st == RC_OK) st = conf_set(conf, "linger.ms", "5", err);
    if (st == RC_OK) st = conf_set(conf, "log.queue", "true", err); /* logs on our thread, see on_log */
    if (st == RC_OK) st = rc_kafka_user_options(conf, &ks->txn, opts, err);
    if (st == RC_OK) st = rc_kafka_txn_conf(&ks->txn, conf, s->name, opts, err);
    if (st == RC_OK && ks->txn.eos) st = rc_kafka_tail_open(&ks->tail, hosts, s->name, err);
    free(hosts);
    if (st != RC_OK) {
        rd_kafka_conf_destroy(conf);
        rc_kafka_tail_close(&ks->tail);
        free(ks);
        s->impl = NULL;
        return st;
    }
    rd_kafka_conf_set_opaque(conf, ks);
    rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
    rd_kafka_conf_set_error_cb(conf, on_error);
    rd_kafka_conf_set_log_cb(conf, on_log);
    rc_kafka_share_arena(conf);
    char errstr[512];
    ks->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
    if (!ks->rk) {
        rd_kafka_conf_destroy(conf); /* rd_kafka_new takes it only when it succeeds */
        rc_kafka_tail_close(&ks->tail);
        free(ks);
        s->impl = NULL;
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "kafka: %s", errstr);
    }
    rd_kafka_set_log_queue(ks->rk, NULL); /* the main queue, which rd_kafka_poll serves */
    if (ks->txn.on && (st = rc_kafka_txn_init(&ks->txn, ks->rk, s->cfg.wait_ms, s->cfg.stop, err)) != RC_OK) {
        rd_kafka_destroy(ks->rk);
        rc_kafka_tail_close(&ks->tail);
        free(ks);
        s->impl = NULL;
        return st;
    }
    return RC_OK;
}

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* The topic's handle and partition count (asked once per topic and run). */
static rc_status topic_get(kafka_sink *ks, const rc_record *r, topic_entry **out, rc_error *err)
{
    if (ks->ntopics) {
        topic_entry *t = &ks->topics[ks->last];
        if (t->len == r->topic_len && !memcmp(t->name, r->topic, r->topic_len)) return *out = t, RC_OK;
    }
    for (size_t i = 0; i < ks->ntopics; i++) {
        topic_entry *t = &ks->topics[i];
        if (t->len == r->topic_len && !memcmp(t->name, r->topic, r->topic_len)) {
            ks->last = i;
            return *out = t, RC_OK;
        }
    }
    if (ks->ntopics == MAX_TOPICS) return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET, "kafka: more than %d topics", MAX_TOPICS);
    if (!r->topic_len) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "kafka: the topic template gave an empty topic name");
    topic_entry *nt = realloc(ks->topics, (ks->ntopics + 1) * sizeof *nt);
    if (!nt) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    ks->topics = nt;
    topic_entry *t = &nt[ks->ntopics];
    t->name = strndup(r->topic, r->topic_len);
    t->len = r->topic_len;
    t->tails = NULL;
    t->rkt = t->name ? rd_kafka_topic_new(ks->rk, t->name, NULL) : NULL;
    if (!t->rkt) {
        free(t->name);
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: topic %.*s: %s", (int)r->topic_len, r->topic,
                            rd_kafka_err2str(rd_kafka_last_error()));
    }
    const struct rd_kafka_metadata *md = NULL;
    rd_kafka_resp_err_t e;
    /* in slices, so that a signal stops the wait for a cluster that does not answer, and what
     * librdkafka logs meanwhile (a broker that cannot be reached) is said at once */
    double deadline = now_sec() + ks->s->cfg.wait_ms / 1000.0;
    bool no_answer;
    for (;;) {
        double left_ms = (deadline - now_sec()) * 1000;
        e = rd_kafka_metadata(ks->rk, 0, t->rkt, &md, left_ms < 100 ? 100 : left_ms < METADATA_SLICE_MS ? (int)left_ms : METADATA_SLICE_MS);
        no_answer = e == RD_KAFKA_RESP_ERR__TIMED_OUT || e == RD_KAFKA_RESP_ERR__TRANSPORT;
        rd_kafka_poll(ks->rk, 0);
        if (!no_answer || now_sec() >= deadline || (ks->s->cfg.stop && *ks->s->cfg.stop)) break;
    }
    if (!e && (md->topic_cnt != 1 || md->topics[0].err)) e = md->topic_cnt == 1 ? md->topics[0].err : RD_KAFKA_RESP_ERR__UNKNOWN_TOPIC;
    if (!e && md->topics[0].partition_cnt <= 0) e = RD_KAFKA_RESP_ERR__UNKNOWN_PARTITION;
    if (e) {
        if (md) rd_kafka_metadata_destroy(md);
        rd_kafka_topic_destroy(t->rkt);
        char brokers[1024] = "";
        if (!no_answer)
            rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: topic %s: %s", t->name, rd_kafka_err2str(e));
        else if (rc_kafka_log_unreachable(&ks->log, brokers, sizeof brokers))
            rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                         "kafka: topic %s: no broker answered within %g s (--flush-timeout); could not reach %s", t->name,
                         ks->s->cfg.wait_ms / 1000.0, brokers);
        else
            rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: topic %s: no broker answered within %g s (--flush-timeout): %s",
                         t->name, ks->s->cfg.wait_ms / 1000.0, rd_kafka_err2str(e));
        free(t->name);
        return RC_ERR_IO;
    }
    t->partitions = md->topics[0].partition_cnt;
    rd_kafka_metadata_destroy(md);
    ks->last = ks->ntopics++;
    *out = t;
    return RC_OK;
}

static rc_status failure(kafka_sink *ks, rc_error *err)
{
    if (ks->txn.on) {
        rc_status st = rc_kafka_txn_check(&ks->txn, ks->rk, err);
        if (st != RC_OK) return st;
    }
    if (ks->dead_status != RC_OK) return rc_error_set(err, ks->dead_status, RC_NO_OFFSET, "%s", ks->dead_err.message);
    if (ks->fatal[0]) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: fatal producer error: %s", ks->fatal);
    if (ks->failed[0]) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s", ks->failed);
    return RC_OK;
}

/* The record's last header `name`, or NULL. */
static const rc_header *header_of(const rc_record *r, const char *name)
{
    const rc_header *h = NULL;
    for (size_t i = 0; i < r->nheaders; i++)
        if (!strcmp(r->headers[i].name, name)) h = &r->headers[i];
    return h;
}

/* --exactly-once: the topic's partitions read back at once, the first time the run routes to it
 * (cheaper than one by one); a capture from no position of its own refused if they hold its
 * --server's records (rc_sink_eos_fresh). */
static rc_status eos_tails(kafka_sink *ks, topic_entry *t, rc_error *err)
{
    if (!(t->tails = calloc((size_t)t->partitions, sizeof *t->tails))) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_status st = rc_kafka_tail_topic(&ks->tail, t->name, t->partitions, ks->s->cfg.wait_ms, ks->s->cfg.stop, t->tails, err);
    for (int32_t i = 0; st == RC_OK && ks->fresh[0] && i < t->partitions; i++)
        if (t->tails[i].len)
            st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                              "--exactly-once: topic %s holds records of --server %s up to %.*s, but this capture starts at the "
                              "server's current position (%s): the state that said how far they went is lost, and starting here "
                              "would skip the changes between. Restore the state, give --start at or before that position, or "
                              "capture under another --server",
                              t->name, ks->tail.server, (int)t->tails[i].len, t->tails[i].last, ks->fresh);
    return st;
}

/* --exactly-once: whether record r, routed to t[part], is in Kafka already (the skip rule,
 * kafka_tail.h), the topic's partitions read back the first time the run routes to it; *key is r's
 * rowcast.eos header, *tp the partition's last[p]. Refused: a record without an order key, and
 * an initial snapshot's row (a killed snapshot reads every row again, at position 0: design
 * §2.3). An incremental snapshot's read ('a') is written like a change: a chunk read again after
 * a kill is read at a new high watermark, so its keys are above every key written before and
 * the skip rule's order holds; what was in flight is read again (design §2.7, the bound). */
static rc_status eos_seen(kafka_sink *ks, topic_entry *t, int32_t part, const rc_record *r, const rc_header **key,
                          kafka_tail_part **tp, bool *seen, rc_error *err)
{
    const rc_header *h = *key = header_of(r, "rowcast.eos");
    size_t sl = ks->tail.server_len;
    if (!h || h->len <= sl + 1)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--exactly-once: a record for topic %s has no order key (rowcast.eos)", t->name);
    if (rc_order_key_kind(h->value + sl + 1, h->len - sl - 1) == 's')
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--exactly-once: an initial snapshot's rows are not exactly once yet (a killed one reads every row "
                            "again): take it with --snapshot incremental (chunks; a kill repeats only the reads of the chunks in "
                            "flight), or capture with --snapshot never, from a checkpoint or --start");
    if (part >= t->partitions) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "kafka: topic %s has no partition %d", t->name, (int)part);
    rc_status st = RC_OK;
    if (!t->tails && (st = eos_tails(ks, t, err)) != RC_OK) return st;
    kafka_tail_part *p = *tp = &t->tails[part];
    if (st == RC_OK && !p->read) /* a read that failed before (and was not the run's end) */
        st = rc_kafka_tail_last(&ks->tail, t->name, part, RC_TAIL_BACKWARDS, ks->s->cfg.wait_ms, ks->s->cfg.stop, p, err);
    *seen = st == RC_OK && rc_kafka_tail_seen(p, h->value, h->len);
    return st;
}

/* --exactly-once: the run's line about its replay, once (at its first record written, or at
 * the end when it wrote none) */
static void eos_say(kafka_sink *ks)
{
    if (!ks->txn.eos || ks->tail.said) return;
    ks->tail.said = true;
    char text[256];
    rc_kafka_tail_summary(&ks->tail, text, sizeof text);
    if (ks->s->cfg.notice) ks->s->cfg.notice(ks->s->cfg.notice_ctx, RC_SINK_NOTICE_BROKER, text);
}

/* A record librdkafka refuses before sending (larger than message.max.bytes): refused for good
 * like a broker's refusal. Without a dead-letter file the run stops at this record: counted as
 * sent and refused here, since rc_sink_send gives its number back. */
static rc_status refuse_local(kafka_sink *ks, const rc_record *r, uint64_t seq, const topic_entry *t, rc_error *err)
{
    char limit[32] = "?", reason[512];
    size_t n = sizeof limit;
    rd_kafka_conf_get(rd_kafka_conf(ks->rk), "message.max.bytes", limit, &n);
    snprintf(reason, sizeof reason, "%zu bytes of key and value, over message.max.bytes=%s (%s; raise -o kafka.message.max.bytes)",
             r->key_len + (r->value ? r->value_len : 0), limit, rd_kafka_err2name(RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE));
    const rc_header *pos = header_of(r, "rowcast.position");
    refuse(ks, seq, t->name, r->value, r->value_len, pos ? pos->value : NULL, pos ? pos->len : 0, reason);
    rc_status st = failure(ks, err);
    if (st != RC_OK) ks->s->stats.sent++, ks->s->stats.bytes += r->key_len + r->value_len;
    return st;
}

static rc_status kafka_poll(rc_sink *s, int timeout_ms, rc_error *err)
{
    kafka_sink *ks = s->impl;
    rd_kafka_poll(ks->rk, timeout_ms);
    rc_status st = failure(ks, err);
    if (st == RC_OK && rc_kafka_txn_due(&ks->txn)) st = rc_kafka_txn_commit(&ks->txn, ks->rk, &s->tr, s->tr.next, s->cfg.wait_ms, err);
    return st;
}

static rc_status kafka_send(rc_sink *s, const rc_record *r, uint64_t seq, rc_error *err)
{
    kafka_sink *ks = s->impl;
    rc_status st = failure(ks, err);
    topic_entry *t = NULL;
    if (st != RC_OK || (st = topic_get(ks, r, &t, err)) != RC_OK) return st;
    int32_t part = r->partition >= 0 ? r->partition
                 : r->key ? rc_murmur2_partition(r->key, r->key_len, t->partitions)
                          : rc_murmur2_partition(r->route, r->route_len, t->partitions);
    const rc_header *key = NULL;
    kafka_tail_part *tp = NULL;
    if (ks->txn.eos) {
        bool seen = false;
        if ((st = eos_seen(ks, t, part, r, &key, &tp, &seen, err)) != RC_OK) return st;
        if (seen) { /* in Kafka already: acknowledged as if delivered, so that positions move on */
            ks->tail.skipped++;
            s->stats.delivered++;
            rc_tracker_ack(&s->tr, seq);
            return RC_OK;
        }
        eos_say(ks);
    }
    /* from a Kafka source: a due transaction is committed before the first record of a message */
    if (ks->txn.from_kafka && ks->txn.open && rc_kafka_txn_due(&ks->txn) &&
        (st = rc_kafka_txn_commit(&ks->txn, ks->rk, &s->tr, seq, s->cfg.wait_ms, err)) != RC_OK)
        return st;
    if (ks->txn.on && (st = rc_kafka_txn_begin(&ks->txn, ks->rk, err)) != RC_OK) return st;
    rd_kafka_vu_t vu[5 + RC_MAX_HEADERS];
    size_t n = 0;
    vu[n].vtype = RD_KAFKA_VTYPE_RKT, vu[n++].u.rkt = t->rkt;
    vu[n].vtype = RD_KAFKA_VTYPE_PARTITION, vu[n++].u.i32 = part;
    vu[n].vtype = RD_KAFKA_VTYPE_MSGFLAGS, vu[n++].u.i = RD_KAFKA_MSG_F_COPY;
    vu[n].vtype = RD_KAFKA_VTYPE_OPAQUE, vu[n++].u.ptr = (void *)(uintptr_t)seq;
    vu[n].vtype = RD_KAFKA_VTYPE_VALUE, vu[n].u.mem.ptr = (void *)r->value, vu[n++].u.mem.size = r->value ? r->value_len : 0;
    if (r->key) vu[n].vtype = RD_KAFKA_VTYPE_KEY, vu[n].u.mem.ptr = (void *)r->key, vu[n++].u.mem.size = r->key_len;
    for (size_t i = 0; i < r->nheaders && i < RC_MAX_HEADERS - 1; i++) {
        vu[n].vtype = RD_KAFKA_VTYPE_HEADER;
        vu[n].u.header.name = r->headers[i].name;
        vu[n].u.header.val = r->headers[i].value;
        vu[n++].u.header.size = (ssize_t)r->headers[i].len;
    }
    for (;;) {
        rd_kafka_error_t *e = rd_kafka_produceva(ks->rk, vu, n);
        if (!e) break;
        rd_kafka_resp_err_t code = rd_kafka_error_code(e);
        if (code == RD_KAFKA_RESP_ERR_MSG_SIZE_TOO_LARGE) {
            rd_kafka_error_destroy(e);
            return refuse_local(ks, r, seq, t, err);
        }
        if (code != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
            if (ks->txn.on && code == RD_KAFKA_RESP_ERR__STATE) { /* the transaction must be aborted: the */
                /* commit fails with its cause and aborts it; this record (not produced) is never acknowledged */
                if ((st = rc_kafka_txn_commit(&ks->txn, ks->rk, &s->tr, seq, s->cfg.wait_ms, err)) == RC_OK)
                    st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: producing to %s: %s", t->name, rd_kafka_error_string(e));
                rd_kafka_error_destroy(e);
                return st;
            }
            if ((st = failure(ks, err)) != RC_OK) { /* the session or the transaction ended: that is the cause */
                rd_kafka_error_destroy(e);
                return st;
            }
            st = rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: producing to %s: %s", t->name, rd_kafka_error_string(e));
            rd_kafka_error_destroy(e);
            return st;
        }
        rd_kafka_error_destroy(e);
        rd_kafka_poll(ks->rk, 100); /* back-pressure: wait for deliveries, never drop */
        if ((st = failure(ks, err)) != RC_OK) return st;
        if (s->cfg.stop && *s->cfg.stop)
            return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: stopped by a signal while the producer queue was full");
    }
    /* written: last[p] is its key, so that a source's replay within the run (a reconnect) is skipped too */
    if (tp) rc_kafka_tail_wrote(tp, key->value, key->len);
    if ((seq & 1023) == 0) rd_kafka_poll(ks->rk, 0); /* serve delivery reports now and then */
    if (ks->txn.on && rc_kafka_txn_produced(&ks->txn)) return rc_kafka_txn_commit(&ks->txn, ks->rk, &s->tr, s->tr.next, s->cfg.wait_ms, err);
    return RC_OK;
}

static rc_status kafka_flush(rc_sink *s, int timeout_ms, rc_error *err)
{
    kafka_sink *ks = s->impl;
    eos_say(ks);
    rc_status st = rc_kafka_txn_commit_last(&ks->txn, ks->rk, &s->tr, timeout_ms, err); /* it flushes */
    if (st != RC_OK) return st;
    rd_kafka_resp_err_t e = rd_kafka_flush(ks->rk, timeout_ms);
    st = failure(ks, err);
    if (st != RC_OK) return st;
    if (e)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "kafka: %d messages not acknowledged after %d ms (%s)",
                            rd_kafka_outq_len(ks->rk), timeout_ms, rd_kafka_err2str(e));
    return RC_OK;
}

static void kafka_close(rc_sink *s)
{
    kafka_sink *ks = s->impl;
    if (!ks) return;
    rd_kafka_purge(ks->rk, RD_KAFKA_PURGE_F_QUEUE | RD_KAFKA_PURGE_F_INFLIGHT);
    rd_kafka_poll(ks->rk, 0);
    for (size_t i = 0; i < ks->ntopics; i++) {
        rd_kafka_topic_destroy(ks->topics[i].rkt);
        free(ks->topics[i].name);
        free(ks->topics[i].tails);
    }
    free(ks->topics);
    rd_kafka_destroy(ks->rk);
    rc_kafka_tail_close(&ks->tail);
    free(ks);
}

const sink_ops rc_sink_kafka_ops = {"kafka://", kafka_open, kafka_send, kafka_poll, kafka_flush, NULL, kafka_close, NULL, NULL, NULL, kafka_check};

bool rc_sink_txn_stats_get(const rc_sink *s, rc_sink_txn_stats *out)
{
    const kafka_sink *ks = s->ops == &rc_sink_kafka_ops ? s->impl : NULL;
    if (!ks || !ks->txn.on) return false;
    *out = ks->txn.st;
    out->eos = ks->txn.eos;
    out->eos_skipped = ks->tail.skipped;
    return true;
}

rc_status rc_sink_eos_fresh(rc_sink *s, const char *why, rc_error *err)
{
    kafka_sink *ks = s->ops == &rc_sink_kafka_ops ? s->impl : NULL;
    if (!ks || !ks->txn.eos) return RC_OK;
    snprintf(ks->fresh, sizeof ks->fresh, "%s", why);
    const char *name = s->topic_template;
    if (!name || strchr(name, '{')) return RC_OK; /* topics named by the events: checked at each one's first record */
    rc_record r = {.topic = name, .topic_len = strlen(name)};
    topic_entry *t;
    rc_status st = topic_get(ks, &r, &t, err);
    return st != RC_OK || t->tails ? st : eos_tails(ks, t, err); /* before anything is written or stored */
}

bool rc_sink_txn_wants_source(const rc_sink *s)
{
    const kafka_sink *ks = s->ops == &rc_sink_kafka_ops ? s->impl : NULL;
    return ks && ks->txn.from_kafka;
}

void rc_sink_txn_source(rc_sink *s, const rc_txn_source *src)
{
    kafka_sink *ks = s->ops == &rc_sink_kafka_ops ? s->impl : NULL;
    if (ks) ks->txn.src = *src;
}

bool rc_sink_fenced(const rc_sink *s)
{
    const kafka_sink *ks = s->ops == &rc_sink_kafka_ops ? s->impl : NULL;
    return ks && ks->txn.fenced;
}
