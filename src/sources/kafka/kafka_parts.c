/* The Kafka source's partitions (kafka_source_int.h): their entries, the ring of messages handed
 * out and not acknowledged, and the commits of what is acknowledged. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/log.h"
#include "sources/kafka/kafka_source_int.h"

double rc_ksrc_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

kafka_part *rc_ksrc_part_of(kafka_source *k, const char *topic, int32_t partition)
{
    /* messages come in runs of one partition: the last one found is asked first */
    if (k->last_part < k->nparts && k->parts[k->last_part].partition == partition && !strcmp(k->parts[k->last_part].topic, topic))
        return &k->parts[k->last_part];
    for (size_t i = 0; i < k->nparts; i++)
        if (k->parts[i].partition == partition && !strcmp(k->parts[i].topic, topic)) return &k->parts[k->last_part = i];
    if (k->nparts == k->capparts) {
        size_t cap = k->capparts ? 2 * k->capparts : 16;
        kafka_part *np = realloc(k->parts, cap * sizeof *np);
        if (!np) return NULL;
        k->parts = np, k->capparts = cap;
    }
    kafka_part *p = &k->parts[k->nparts];
    *p = (kafka_part){.topic = strdup(topic), .partition = partition, .acked = -1, .committed = -1, .handed = -1, .last_ts = -1,
                        .first = -1, .confirmed = -1, .resume = -1, .offered = -1};
    if (!p->topic) return NULL;
    snprintf(p->name, sizeof p->name, "%s[%d]", topic, (int)partition);
    k->nparts++;
    return p;
}

rd_kafka_resp_err_t rc_ksrc_commit(kafka_source *k, bool sync)
{
    rd_kafka_resp_err_t e = RD_KAFKA_RESP_ERR_NO_ERROR;
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(4);
    for (size_t i = 0; i < k->nparts; i++) {
        kafka_part *p = &k->parts[i];
        /* a synchronous commit says them all: an asynchronous one may have been refused */
        if (!p->owned || p->acked < 0 || (p->acked == p->committed && !sync)) continue;
        rd_kafka_topic_partition_list_add(l, p->topic, p->partition)->offset = p->acked;
        p->committed = p->acked;
    }
    if (l->cnt) {
        e = rd_kafka_commit(k->rk, l, !sync);
        k->commits++;
        if (e == RD_KAFKA_RESP_ERR__NO_OFFSET) e = RD_KAFKA_RESP_ERR_NO_ERROR;
        if (e) {
            k->commit_errors++;
            for (int i = 0; i < l->cnt; i++) /* moved again by the next commit */
                rc_ksrc_part_of(k, l->elems[i].topic, l->elems[i].partition)->committed = -1;
            if (!sync) /* a synchronous one's caller says what it means */
                rc_logf("rowcast: %s: committing offsets: %s (the next commit covers them)\n", k->shown, rd_kafka_err2str(e));
        }
    }
    rd_kafka_topic_partition_list_destroy(l);
    return e;
}

void rc_ksrc_on_commit(rd_kafka_t *rk, rd_kafka_resp_err_t e, rd_kafka_topic_partition_list_t *offsets, void *opaque)
{
    (void)rk;
    kafka_source *k = opaque;
    for (int i = 0; offsets && i < offsets->cnt; i++) {
        const rd_kafka_topic_partition_t *t = &offsets->elems[i];
        kafka_part *p = rc_ksrc_part_of(k, t->topic, t->partition);
        if (p && (e || t->err)) p->committed = -1; /* the next commit says it again */
        else if (p && t->offset > p->confirmed) p->confirmed = t->offset;
    }
}

bool rc_ksrc_ring_ack(kafka_source *k, uint64_t upto)
{
    bool moved = false;
    while (k->qn && k->q[k->qhead].seq <= upto) {
        const kafka_handed *h = &k->q[k->qhead];
        kafka_part *p = &k->parts[h->part];
        if (h->offset + 1 > p->acked) p->acked = h->offset + 1, moved = true;
        k->qhead = (k->qhead + 1) % k->qcap, k->qn--;
    }
    return moved;
}

void rc_ksrc_eos_lost(kafka_source *k, size_t left, const char *how)
{
    if (!k->eos || !left || k->eos_lost[0] || k->closing) return;
    snprintf(k->eos_lost, sizeof k->eos_lost, "%s: partitions %s with %zu message%s handed out whose records are not in a committed "
             "transaction", k->shown, how, left, left == 1 ? "" : "s");
}

/* Where a partition's lag is counted from: the last commit the cluster confirmed, else the first
 * message handed out since the assignment, else the consumer's fetch position (-1: unknown). */
static int64_t lag_base(const kafka_source *k, const kafka_part *p)
{
    if (p->confirmed >= 0) return p->confirmed;
    if (p->first >= 0) return p->first;
    rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(1);
    rd_kafka_topic_partition_list_add(l, p->topic, p->partition);
    int64_t at = rd_kafka_position(k->rk, l) == RD_KAFKA_RESP_ERR_NO_ERROR ? l->elems[0].offset : -1;
    rd_kafka_topic_partition_list_destroy(l);
    return at;
}

void rc_ksrc_stats(const rc_source *src, rc_source_stats *out)
{
    const kafka_source *k = (const kafka_source *)src;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t now_ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    out->has_parts = true;
    for (size_t i = 0; i < k->nparts; i++) {
        const kafka_part *p = &k->parts[i];
        int64_t low = -1, high = -1;
        if (!p->owned) continue;
        if (rd_kafka_get_watermark_offsets(k->rk, p->topic, p->partition, &low, &high) || high < 0) high = -1;
        int64_t base = lag_base(k, p);
        uint64_t lag = high >= 0 && base >= 0 && high > base ? (uint64_t)(high - base) : 0;
        out->lag_total += lag;
        if (out->nparts == RC_SOURCE_PARTS) continue;
        rc_source_part *o = &out->parts[out->nparts++];
        snprintf(o->topic, sizeof o->topic, "%s", p->topic);
        o->partition = p->partition, o->committed = p->confirmed, o->high = high, o->lag = lag;
        o->lag_ms = p->last_ts >= 0 && high > p->handed && now_ms > p->last_ts ? now_ms - p->last_ts : 0;
    }
    for (int r = 0; r < KAFKA_REB_KINDS; r++) out->rebalances[r] = k->rebalances[r];
    out->drain_us = (int64_t)(k->drain_seconds * 1e6);
}
