/* Kafka as a source (kafka_source.h; docs/design/kafka-source.md). One thread: `next` polls the
 * consumer (which serves the rebalance callback), decodes each message as a record, and keeps
 * every message handed out until the pipeline acknowledges it; `ack` turns acknowledgements
 * into commits per partition. */
#include "sources/kafka/kafka_source.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <librdkafka/rdkafka.h>
#include "core/log.h"
#include "sources/records_in.h"

enum { BATCH_BYTES = 1 << 20 };

typedef struct part {
    char *topic;
    int32_t partition;
    int64_t acked;     /* the offset after the last message acknowledged (-1: none) */
    int64_t committed; /* what was committed last (-1: nothing by this run) */
    bool owned;        /* assigned to this member now */
    bool eof;          /* at the end of the partition (nothing handed since) */
    char name[160];    /* "topic[partition]": the items' file name */
} part;

typedef struct handed {
    uint64_t seq; /* the item's position: messages handed out up to and with it */
    size_t part;
    int64_t offset;
} handed;

typedef struct kafka_source {
    rc_source base;
    rc_source_config cfg;
    rd_kafka_t *rk;
    char *shown; /* the URL as messages show it */
    rc_batch batch;
    uint64_t seq;
    part *parts;
    size_t nparts, capparts, last_part;
    /* each item's key (in the batch text after its value) and whether its key and value are
     * null (a tombstone) */
    struct {
        size_t key_n;
        bool key, value;
    } rec[RC_BATCH_ITEMS];
    handed *q; /* a ring of the messages handed out and not acknowledged */
    size_t qhead, qn, qcap;
    bool stop_at_end; /* -o kafka.source.stop=end: the run ends when every assigned partition is at its end */
    size_t owned;
    uint64_t commits, commit_errors;
} kafka_source;

static rc_status nomem(rc_error *err) { return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"); }

static part *part_of(kafka_source *k, const char *topic, int32_t partition)
{
    /* messages come in runs of one partition: the last one found is asked first */
    if (k->last_part < k->nparts && k->parts[k->last_part].partition == partition && !strcmp(k->parts[k->last_part].topic, topic))
        return &k->parts[k->last_part];
    for (size_t i = 0; i < k->nparts; i++)
        if (k->parts[i].partition == partition && !strcmp(k->parts[i].topic, topic)) return &k->parts[k->last_part = i];
    if (k->nparts == k->capparts) {
        size_t cap = k->capparts ? 2 * k->capparts : 16;
        part *np = realloc(k->parts, cap * sizeof *np);
        if (!np) return NULL;
        k->parts = np, k->capparts = cap;
    }
    part *p = &k->parts[k->nparts];
    *p = (part){.topic = strdup(topic), .partition = partition, .acked = -1, .committed = -1};
    if (!p->topic) return NULL;
    snprintf(p->name, sizeof p->name, "%s[%d]", topic, (int)partition);
    k->nparts++;
    return p;
}

/* Commits each owned partition's acknowledged offset that moved (async: a later commit covers
 * a failed one; sync at a revoke, before the partitions are given up). */
static void commit(kafka_source *k, bool sync)
{
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(4);
    for (size_t i = 0; i < k->nparts; i++) {
        part *p = &k->parts[i];
        if (!p->owned || p->acked < 0 || p->acked == p->committed) continue;
        rd_kafka_topic_partition_list_add(l, p->topic, p->partition)->offset = p->acked;
        p->committed = p->acked;
    }
    if (l->cnt) {
        rd_kafka_resp_err_t e = rd_kafka_commit(k->rk, l, !sync);
        k->commits++;
        if (e && e != RD_KAFKA_RESP_ERR__NO_OFFSET) {
            k->commit_errors++;
            rc_logf("rowcast: %s: committing offsets: %s (the next commit covers them)\n", k->shown, rd_kafka_err2str(e));
        }
    }
    rd_kafka_topic_partition_list_destroy(l);
}

static void on_rebalance(rd_kafka_t *rk, rd_kafka_resp_err_t e, rd_kafka_topic_partition_list_t *parts, void *opaque)
{
    kafka_source *k = opaque;
    if (e == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
        for (int i = 0; i < parts->cnt; i++) {
            part *p = part_of(k, parts->elems[i].topic, parts->elems[i].partition);
            if (p) p->owned = true, p->eof = false;
        }
        rd_kafka_assign(rk, parts);
        k->owned = (size_t)parts->cnt;
        rc_logf("rowcast: %s: %d partition%s assigned\n", k->shown, parts->cnt, parts->cnt == 1 ? "" : "s");
        return;
    }
    /* revoked (or an error): what is acknowledged is committed before the partitions go; what
     * was handed out and not acknowledged yet is the next owner's to read again */
    if (!rd_kafka_assignment_lost(rk)) commit(k, true);
    for (size_t i = 0; i < k->nparts; i++) k->parts[i].owned = false;
    rd_kafka_assign(rk, NULL);
    k->owned = 0;
    rc_logf("rowcast: %s: partitions revoked (%d)\n", k->shown, parts ? parts->cnt : 0);
}

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
    for (size_t i = 0; st == RC_OK && k->cfg.opts && i < k->cfg.opts->count; i++) {
        const char *key = k->cfg.opts->items[i].key, *v = k->cfg.opts->items[i].value;
        if (!strcmp(key, "kafka.source.stop")) {
            if (strcmp(v, "end") && strcmp(v, "never"))
                st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o kafka.source.stop is end or never, not '%s'", v);
            k->stop_at_end = !strcmp(v, "end");
            continue;
        }
        if (strncmp(key, "kafka.", 6)) continue;
        for (size_t j = 0; kept[j]; j += 2)
            if (!strcmp(key + 6, kept[j]))
                st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s: rowcast commits offsets itself, after the sink acknowledged", key);
        if (st == RC_OK) st = conf_set(conf, key + 6, v, err);
    }
    for (size_t i = 0; st == RC_OK && kept[i]; i += 2) st = conf_set(conf, kept[i], kept[i + 1], err);
    if (st != RC_OK) {
        rd_kafka_conf_destroy(conf);
        return st;
    }
    rd_kafka_conf_set_opaque(conf, k);
    rd_kafka_conf_set_rebalance_cb(conf, on_rebalance);
    char errstr[512];
    if (!(k->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr))) {
        rd_kafka_conf_destroy(conf);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s: %s", k->shown, errstr);
    }
    rd_kafka_poll_set_consumer(k->rk);
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
    free(hosts), free(topics), free(group);
    if (st != RC_OK) {
        kafka_close(&k->base);
        return st;
    }
    *out = &k->base;
    return RC_OK;
}

/* The message's key and value into the batch text, an item for it. False: out of memory. */
static bool add_message(kafka_source *k, rc_batch *b, const rd_kafka_message_t *m, part *p)
{
    size_t need = b->len + m->len + m->key_len;
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 65536;
        while (cap < need) cap *= 2;
        char *t = realloc(b->text, cap);
        if (!t) return false;
        b->text = t, b->cap = cap;
    }
    if (k->qn == k->qcap) {
        size_t cap = k->qcap ? 2 * k->qcap : 1024;
        handed *nq = malloc(cap * sizeof *nq);
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
    it->lineno = (uint64_t)m->offset, it->file_off = (uint64_t)m->offset, it->end_off = (uint64_t)m->offset + 1;
    it->blank = !m->payload && !m->key; /* a tombstone without a key tells nothing */
    it->lines = 1;
    it->end = rc_pos_u64x2(RC_POS_SEQ, ++k->seq, 0);
    k->q[(k->qhead + k->qn++) % k->qcap] = (handed){k->seq, (size_t)(p - k->parts), m->offset};
    p->eof = false;
    k->rec[b->n - 1].key_n = m->key_len, k->rec[b->n - 1].key = m->key != NULL, k->rec[b->n - 1].value = m->payload != NULL;
    return true;
}

static bool all_at_end(const kafka_source *k)
{
    if (!k->owned) return false;
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
    while (b->n < RC_BATCH_ITEMS && b->len < BATCH_BYTES) {
        if (*k->cfg.stop || (k->stop_at_end && all_at_end(k))) {
            b->last = true;
            break;
        }
        rd_kafka_message_t *m = rd_kafka_consumer_poll(k->rk, b->n ? 0 : timeout_ms);
        if (!m) break;
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            part *p = part_of(k, rd_kafka_topic_name(m->rkt), m->partition);
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
            part *p = part_of(k, rd_kafka_topic_name(m->rkt), m->partition);
            if (!p || !add_message(k, b, m, p)) {
                rd_kafka_message_destroy(m);
                return nomem(err);
            }
        }
        rd_kafka_message_destroy(m);
    }
    decode(k, b);
    if (b->n || b->last) *out = b;
    return RC_OK;
}

static void kafka_release(rc_source *src, rc_batch *b) { (void)src, (void)b; }

/* Every message handed out up to `pos` is delivered: their partitions' offsets move on. */
static void kafka_ack(rc_source *src, const rc_pos *pos)
{
    kafka_source *k = (kafka_source *)src;
    uint64_t upto = rc_pos_u64(pos, RC_POS_SEQ, 0);
    bool moved = false;
    while (k->qn && k->q[k->qhead].seq <= upto) {
        const handed *h = &k->q[k->qhead];
        part *p = &k->parts[h->part];
        if (h->offset + 1 > p->acked) p->acked = h->offset + 1, moved = true;
        k->qhead = (k->qhead + 1) % k->qcap, k->qn--;
    }
    if (moved) commit(k, false);
}

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
        commit(k, true);
        rd_kafka_consumer_close(k->rk);
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
    .open = kafka_open,
    .next = kafka_next,
    .release = kafka_release,
    .ack = kafka_ack,
    .progress = kafka_progress,
    .close = kafka_close,
};
