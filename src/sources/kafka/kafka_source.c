/* Kafka as a source (kafka_source.h; docs/design/kafka-source.md). One thread: `next` polls the
 * consumer (which serves the rebalance callback), decodes each message as a record, and keeps
 * every message handed out until the pipeline acknowledges it; `ack` turns acknowledgements
 * into commits per partition. */
#include "sources/kafka/kafka_source.h"
#include "sources/kafka/kafka_source_int.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "sinks/kafka_arena.h"
#include "sinks/kafka_prop_client.h"
#include "sources/records_in.h"

enum { BATCH_BYTES = 1 << 20, DRAIN_POLL_MS = 10 };

static rc_status nomem(rc_error *err) { return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"); }

/* kafka://HOSTS/TOPICS?group=NAME: the parts, malloc'd. */
static rc_status parse_url(const char *url, char **hosts, char **topics, char **group, rc_error *err)
{
    const char *rest = url + strlen("kafka://");
    const char *slash = strchr(rest, '/'), *q = slash ? strchr(slash, '?') : NULL;
    const char *g = q ? strstr(q, "group=") : NULL;
    if (!slash || slash == rest || !slash[1] || slash + 1 == q)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s: expected kafka://HOST:PORT[,HOST:PORT...]/TOPIC[,TOPIC...]?group=NAME", url);
    if (!g || (g[-1] != '?' && g[-1] != '&') || !g[6] || g[6] == '&')
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "%s: needs ?group=NAME (the consumer group: its members share the partitions, and its committed "
                            "offsets are where a restart goes on)", url);
    const char *gend = strchr(g, '&');
    *hosts = strndup(rest, (size_t)(slash - rest));
    *topics = strndup(slash + 1, (size_t)(q - slash - 1));
    *group = strndup(g + 6, gend ? (size_t)(gend - g - 6) : strlen(g + 6));
    return *hosts && *topics && *group ? RC_OK : nomem(err);
}

static rc_status conf_set(rd_kafka_conf_t *conf, const char *key, const char *v, rc_error *err)
{
    char errstr[512];
    if (rd_kafka_conf_set(conf, key, v, errstr, sizeof errstr) == RD_KAFKA_CONF_INVALID)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.%s=%s: %s", key, rc_option_is_secret(key) ? "(secret)" : v, errstr);
    return RC_OK;
}

/* rowcast's own kafka.source.* options. */
static rc_status source_option(kafka_source *k, const char *key, const char *v, rc_error *err)
{
    if (!strcmp(key, "kafka.source.stop")) {
        k->stop_at_end = !strcmp(v, "end");
        return k->stop_at_end || !strcmp(v, "never")
                   ? RC_OK
                   : rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.source.stop is end or never, not '%s'", v);
    }
    if (!strcmp(key, "kafka.source.drain.ms")) {
        char *end;
        long long ms = strtoll(v, &end, 10);
        k->drain_ms = ms;
        return *v && !*end && ms >= 0 && ms <= 3600000
                   ? RC_OK
                   : rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.source.drain.ms is milliseconds (0 to 3600000), not '%s'", v);
    }
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s: unknown (the Kafka source's are kafka.source.stop and kafka.source.drain.ms)", key);
}

/* rowcast's own options of the Kafka sink (kafka_txn.h, --exactly-once), not the consumer's */
static bool sink_own(const char *key)
{
    static const char *const own[] = {"kafka.transactions", "kafka.transaction.ms", "kafka.transaction.records", "kafka.exactly_once",
                                      "kafka.exactly_once.source", "kafka.order.header", NULL};
    for (size_t i = 0; own[i]; i++)
        if (!strcmp(key, own[i])) return true;
    return false;
}

/* The consumer: fixed settings, then the run's kafka.* properties (librdkafka's; rowcast's own
 * are not set), then the settings rowcast keeps. */
static rc_status consumer_new(kafka_source *k, const char *hosts, const char *group, rc_error *err)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    static const char *const defaults[] = {"auto.offset.reset", "earliest", NULL};
    static const char *const kept[] = {"enable.auto.commit", "false", "enable.auto.offset.store", "false", "enable.partition.eof", "true", NULL};
    rc_status st = conf_set(conf, "bootstrap.servers", hosts, err);
    if (st == RC_OK) st = conf_set(conf, "group.id", group, err);
    for (size_t i = 0; st == RC_OK && defaults[i]; i += 2) st = conf_set(conf, defaults[i], defaults[i + 1], err);
    rc_ksrc_memory_defaults(conf);
    bool wait_set = false; /* -o kafka.fetch.wait.max.ms */
    for (size_t i = 0; st == RC_OK && k->cfg.opts && i < k->cfg.opts->count; i++) {
        const char *key = k->cfg.opts->items[i].key, *v = k->cfg.opts->items[i].value;
        wait_set |= !strcmp(key, "kafka.fetch.wait.max.ms");
        if (!strncmp(key, "kafka.source.", 13)) {
            st = source_option(k, key, v, err);
            continue;
        }
        /* the sink's own, and the producer's properties (kafka_prop_client.h) */
        if (strncmp(key, "kafka.", 6) || sink_own(key) || !rc_kafka_prop_for(key + 6, RD_KAFKA_CONSUMER)) continue;
        for (size_t j = 0; kept[j]; j += 2)
            if (!strcmp(key + 6, kept[j]))
                st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s: rowcast commits offsets itself, after the sink acknowledged", key);
        if (st == RC_OK) st = conf_set(conf, key + 6, v, err);
    }
    /* kafka.source.stop=end: a partition's end is known from a fetch that found nothing, which the
     * broker holds fetch.wait.max.ms (500) first; the run's last one cost half a second */
    if (st == RC_OK && k->stop_at_end && !wait_set) st = conf_set(conf, "fetch.wait.max.ms", "100", err);
    for (size_t i = 0; st == RC_OK && kept[i]; i += 2) st = conf_set(conf, kept[i], kept[i + 1], err);
    if (st == RC_OK) st = conf_set(conf, "log.queue", "true", err); /* logs served on the pipeline's thread */
    if (st != RC_OK) {
        rd_kafka_conf_destroy(conf);
        return st;
    }
    rd_kafka_conf_set_opaque(conf, k);
    rd_kafka_conf_set_rebalance_cb(conf, rc_ksrc_on_rebalance);
    rd_kafka_conf_set_offset_commit_cb(conf, rc_ksrc_on_commit);
    rd_kafka_conf_set_log_cb(conf, rc_ksrc_on_log);
    rc_kafka_share_arena(conf);
    char errstr[512];
    if (!(k->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr))) {
        rd_kafka_conf_destroy(conf);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s: %s", k->shown, errstr);
    }
    rd_kafka_set_log_queue(k->rk, NULL); /* the main queue, which the consumer's poll serves */
    rd_kafka_poll_set_consumer(k->rk);
    rc_ksrc_wake_init(k);
    return RC_OK;
}

static rc_status subscribe(kafka_source *k, char *topics, rc_error *err)
{
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(4);
    for (char *t = strtok(topics, ","); t; t = strtok(NULL, ",")) rd_kafka_topic_partition_list_add(l, t, RD_KAFKA_PARTITION_UA);
    rd_kafka_resp_err_t e = rd_kafka_subscribe(k->rk, l);
    rd_kafka_topic_partition_list_destroy(l);
    return e ? rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s: subscribe: %s", k->shown, rd_kafka_err2str(e)) : RC_OK;
}

static void kafka_close(rc_source *src);

static rc_status kafka_open(const rc_source_config *cfg, const rc_pos *resume, rc_source **out, rc_error *err)
{
    (void)resume; /* the group's committed offsets are where it goes on */
    kafka_source *k = calloc(1, sizeof *k);
    if (!k) return nomem(err);
    k->base.ops = &rc_source_kafka;
    k->cfg = *cfg;
    k->drain_ms = 10000;
    rc_arena_init(&k->batch.arena);
    char *hosts = NULL, *topics = NULL, *group = NULL;
    rc_status st = cfg->nurls == 1 ? RC_OK
                                   : rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "a Kafka source reads one kafka:// URL (several topics: TOPIC,TOPIC)");
    if (st == RC_OK && !(k->shown = strdup(cfg->urls[0]))) st = nomem(err);
    if (st == RC_OK) st = parse_url(cfg->urls[0], &hosts, &topics, &group, err);
    if (st == RC_OK && !(k->batch.lines = calloc(RC_BATCH_ITEMS, sizeof *k->batch.lines))) st = nomem(err);
    if (st == RC_OK && cfg->accept) k->batch.events.accept = cfg->accept, k->batch.events.accept_ctx = cfg->accept_ctx;
    if (st == RC_OK) st = consumer_new(k, hosts, group, err);
    if (st == RC_OK) st = subscribe(k, topics, err);
    if (st == RC_OK) rc_ksrc_allocator_decay();
    free(hosts), free(topics), free(group);
    if (st != RC_OK) {
        kafka_close(&k->base);
        return st;
    }
    *out = &k->base;
    return RC_OK;
}

/* The message's key and value into the batch text, an item for it. False: out of memory. */
static bool add_message(kafka_source *k, rc_batch *b, const rd_kafka_message_t *m, kafka_part *p)
{
    size_t hdr_n = rc_ksrc_headers_put(m, NULL), need = b->len + m->len + m->key_len + hdr_n;
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < need) cap *= 2;
        char *t = realloc(b->text, cap);
        if (!t) return false;
        b->text = t, b->cap = cap;
    }
    if (k->qn == k->qcap) {
        size_t cap = k->qcap ? 2 * k->qcap : 1024;
        kafka_handed *nq = malloc(cap * sizeof *nq);
        if (!nq) return false;
        for (size_t i = 0; i < k->qn; i++) nq[i] = k->q[(k->qhead + i) % k->qcap];
        free(k->q);
        k->q = nq, k->qcap = cap, k->qhead = 0;
    }
    rc_source_item *it = &b->lines[b->n++];
    memset(it, 0, sizeof *it);
    it->file = p->name;
    it->off = b->len;
    if (m->payload) memcpy(b->text + b->len, m->payload, m->len);
    it->n = it->raw = m->len;
    b->len += m->len;
    if (m->key) memcpy(b->text + b->len, m->key, m->key_len);
    b->len += m->key_len;
    if (hdr_n) b->len += rc_ksrc_headers_put(m, b->text + b->len); /* headers are parsed each time asked: not again for none */
    it->lineno = (uint64_t)m->offset, it->file_off = (uint64_t)m->offset, it->end_off = (uint64_t)m->offset + 1;
    it->blank = !m->payload && !m->key; /* a tombstone without a key tells nothing */
    it->lines = 1;
    it->end = rc_pos_u64x2(RC_POS_SEQ, ++k->seq, 0);
    k->q[(k->qhead + k->qn++) % k->qcap] = (kafka_handed){k->seq, (size_t)(p - k->parts), m->offset};
    p->eof = false;
    if (p->first < 0) p->first = m->offset;
    p->handed = m->offset + 1;
    p->last_ts = rd_kafka_message_timestamp(m, NULL);
    k->rec[b->n - 1].key_n = m->key_len, k->rec[b->n - 1].key = m->key != NULL, k->rec[b->n - 1].value = m->payload != NULL;
    k->rec[b->n - 1].hdr_n = hdr_n, k->rec[b->n - 1].part = (size_t)(p - k->parts);
    return true;
}

static bool all_at_end(const kafka_source *k)
{
    if (!k->owned || k->draining) return false;
    for (size_t i = 0; i < k->nparts; i++)
        if (k->parts[i].owned && !k->parts[i].eof) return false;
    return true;
}

static void decode(kafka_source *k, rc_batch *b)
{
    rc_arena_reset(&b->arena);
    b->events.count = 0;
    for (size_t i = 0; i < b->n; i++) {
        rc_source_item *it = &b->lines[i];
        it->ev_first = b->events.count;
        rc_error_clear(&it->err);
        rc_record_in r = {.rec = b->text + it->off,
                          .value = k->rec[i].value ? b->text + it->off : NULL,
                          .value_n = it->n,
                          .key = k->rec[i].key ? b->text + it->off + it->n : NULL,
                          .key_n = k->rec[i].key_n};
        size_t rejected = b->events.rejected;
        it->st = it->blank ? RC_OK : rc_record_decode(k->cfg.from, k->cfg.dec, &r, &b->arena, &b->events, &it->err);
        it->filtered = b->events.rejected != rejected;
        if (it->st != RC_OK) b->events.count = it->ev_first;
        it->ev_count = b->events.count - it->ev_first;
    }
}

static rc_status kafka_next(rc_source *src, int timeout_ms, rc_batch **out, rc_error *err)
{
    kafka_source *k = (kafka_source *)src;
    rc_batch *b = &k->batch;
    *out = NULL;
    b->len = b->n = 0, b->last = false, b->rc = RC_EXIT_OK;
    if (rc_ksrc_drain_step(k)) {
        /* nothing is handed out while a revoke drains: the consumer is served (its callbacks;
         * what it fetched is dropped) and the pipeline delivers and acknowledges */
        rd_kafka_message_t *m = rd_kafka_consumer_poll(k->rk, timeout_ms < DRAIN_POLL_MS ? timeout_ms : DRAIN_POLL_MS);
        if (m) rd_kafka_message_destroy(m); /* not handed out: read again from the committed offset */
        return RC_OK;
    }
    while (b->n < RC_BATCH_ITEMS && b->len < BATCH_BYTES && !k->draining) {
        if (*k->cfg.stop || (k->stop_at_end && all_at_end(k))) {
            b->last = true;
            break;
        }
        rd_kafka_message_t *m = rd_kafka_consumer_poll(k->rk, b->n ? 0 : timeout_ms);
        if (!m) break;
        if (k->draining) { /* revoked by this poll: the message is the next owner's */
        } else if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            kafka_part *p = rc_ksrc_part_of(k, rd_kafka_topic_name(m->rkt), m->partition);
            if (p) p->eof = true;
        } else if (m->err) {
            bool fatal = m->err == RD_KAFKA_RESP_ERR__FATAL || m->err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART ||
                         m->err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED || m->err == RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED;
            rc_logf("rowcast: %s: %s%s\n", k->shown, rd_kafka_message_errstr(m), fatal ? "" : " (retried)");
            if (fatal) {
                rd_kafka_message_destroy(m);
                rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s: the consumer stopped", k->shown);
                return RC_ERR_IO;
            }
        } else {
            kafka_part *p = rc_ksrc_part_of(k, rd_kafka_topic_name(m->rkt), m->partition);
            if (!p || !add_message(k, b, m, p)) {
                rd_kafka_message_destroy(m);
                return nomem(err);
            }
        }
        rd_kafka_message_destroy(m);
    }
    rc_ksrc_wake(k, b->n, b->len);
    decode(k, b);
    if (b->n || b->last) *out = b;
    return RC_OK;
}

static void kafka_release(rc_source *src, rc_batch *b) { (void)src, (void)b; }

/* Every message handed out up to `pos` is delivered: their partitions' offsets move on. */
static void kafka_ack(rc_source *src, const rc_pos *pos)
{
    kafka_source *k = (kafka_source *)src;
    /* --exactly-once: the offsets are committed in the sink's transactions */
    if (rc_ksrc_ring_ack(k, rc_pos_u64(pos, RC_POS_SEQ, 0)) && !k->draining && !k->eos) rc_ksrc_commit(k, false);
    rc_ksrc_drain_step(k); /* a drain done commits synchronously and gives the partitions up */
}

/* While a revoke drains, the pipeline stores its checkpoint (acknowledges) at once. */
static bool kafka_waiting(const rc_source *src) { return ((const kafka_source *)src)->draining; }

/* A stream: no size to show a percentage of. */
static void kafka_progress(const rc_source *src, uint64_t *size, uint64_t *start)
{
    (void)src;
    *size = 0, *start = 0;
}

static void kafka_close(rc_source *src)
{
    kafka_source *k = (kafka_source *)src;
    if (!k) return;
    if (k->rk) {
        k->closing = true; /* the revoke of consumer_close gives the partitions up at once */
        rc_ksrc_drain_step(k);
        rd_kafka_resp_err_t e = k->eos ? RD_KAFKA_RESP_ERR_NO_ERROR : rc_ksrc_commit(k, true); /* eos: the sink's */
        if (e) rc_logf("rowcast: %s: committing offsets at the end: %s (the next run reads again what came after the last commit)\n",
                       k->shown, rd_kafka_err2str(e));
        rd_kafka_consumer_close(k->rk);
        if (k->wake.rkt) rd_kafka_topic_destroy(k->wake.rkt);
        if (k->wake.q) rd_kafka_queue_destroy(k->wake.q);
        rd_kafka_destroy(k->rk);
    }
    for (size_t i = 0; i < k->nparts; i++) free(k->parts[i].topic);
    free(k->parts), free(k->q), free(k->shown);
    free(k->batch.text), free(k->batch.lines);
    rc_arena_fini(&k->batch.arena);
    rc_event_list_fini(&k->batch.events);
    free(k);
}

static const char *const schemes[] = {"kafka://", NULL};

const rc_source_ops rc_source_kafka = {
    .name = "kafka",
    .schemes = schemes,
    .reads_prefix = "kafka", /* the consumer's properties, and kafka.source.stop */
    .item_word = "message",
    .keeps_position = true,
    .sink_defaults = rc_ksrc_sink_defaults,
    .open = kafka_open,
    .next = kafka_next,
    .release = kafka_release,
    .ack = kafka_ack,
    .progress = kafka_progress,
    .close = kafka_close,
    .waiting = kafka_waiting,
    .stats = rc_ksrc_stats,
    .message = rc_ksrc_message,
};
