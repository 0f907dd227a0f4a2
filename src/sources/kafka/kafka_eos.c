/* The Kafka source's side of --exactly-once (kafka_eos.h): the group's metadata, and the
 * offsets of the messages handed out up to a position, for the sink's transactions. */
#include "sources/kafka/kafka_eos.h"
#include <stdio.h>
#include "sources/kafka/kafka_source.h"
#include "sources/kafka/kafka_source_int.h"

static rd_kafka_consumer_group_metadata_t *metadata(void *ctx) { return rd_kafka_consumer_group_metadata(((kafka_source *)ctx)->rk); }

/* a revoke waits for the open transaction */
static bool urgent(void *ctx) { return ((kafka_source *)ctx)->draining; }

static bool offsets(void *ctx, const rc_pos *upto, rd_kafka_topic_partition_list_t **out, char *why, size_t n)
{
    kafka_source *k = ctx;
    *out = NULL;
    if (k->eos_lost[0]) {
        snprintf(why, n, "%s", k->eos_lost);
        return false;
    }
    uint64_t seq = rc_pos_u64(upto, RC_POS_SEQ, 0);
    for (size_t i = 0; i < k->nparts; i++) k->parts[i].txn_next = k->parts[i].acked;
    for (size_t i = 0; i < k->qn; i++) {
        const kafka_handed *h = &k->q[(k->qhead + i) % k->qcap];
        if (h->seq > seq) break;
        kafka_part *p = &k->parts[h->part];
        if (h->offset + 1 > p->txn_next) p->txn_next = h->offset + 1;
    }
    rd_kafka_topic_partition_list_t *l = NULL;
    for (size_t i = 0; i < k->nparts; i++) {
        kafka_part *p = &k->parts[i];
        if (!p->owned || p->txn_next < 0 || p->txn_next <= p->offered) continue;
        if (!l) l = rd_kafka_topic_partition_list_new(4);
        rd_kafka_topic_partition_list_add(l, p->topic, p->partition)->offset = p->txn_next;
        p->offered = p->txn_next;
    }
    *out = l;
    return true;
}

/* the offsets given are committed: the lag counts from there */
static void committed(void *ctx)
{
    kafka_source *k = ctx;
    for (size_t i = 0; i < k->nparts; i++)
        if (k->parts[i].owned && k->parts[i].offered > k->parts[i].confirmed) k->parts[i].confirmed = k->parts[i].offered;
}

bool rc_kafka_source_txn(rc_source *src, rc_txn_source *out)
{
    if (!src || src->ops != &rc_source_kafka) return false;
    kafka_source *k = (kafka_source *)src;
    k->eos = true;
    *out = (rc_txn_source){.ctx = k, .metadata = metadata, .offsets = offsets, .urgent = urgent, .committed = committed};
    return true;
}
