/* Rebalances of the Kafka source (docs/design/kafka-source.md §3, eager protocol): an
 * assignment starts each partition at the group's committed offset (auto.offset.reset without
 * one); a revoke drains the partitions: nothing more is handed out (what the consumer fetched
 * meanwhile is dropped and read again from the committed offset; the partitions are not
 * paused, so that no pause has to be undone on a later assignment), the pipeline goes on
 * delivering, and once everything handed out is acknowledged (or
 * -o kafka.source.drain.ms passed) the acknowledged offsets are committed synchronously and the
 * partitions given up, so that the next owner starts after what this member wrote. Lost
 * partitions (the session timed out) commit nothing: another member may own them already. */
#include "core/log.h"
#include "sources/kafka/kafka_source_int.h"

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

/* The messages handed out after the last commit the cluster confirmed, on the owned partitions. */
static int64_t uncommitted(const kafka_source *k)
{
    int64_t n = 0;
    for (size_t i = 0; i < k->nparts; i++) {
        const kafka_part *p = &k->parts[i];
        int64_t from = p->confirmed >= 0 ? p->confirmed : p->first;
        if (p->owned && p->handed > from && from >= 0) n += p->handed - from;
    }
    return n;
}

/* The partitions go: commit what is acknowledged (unless lost), forget what is handed out (a
 * late acknowledgement must not move an offset this member no longer owns), unassign. */
static rd_kafka_resp_err_t give_up(kafka_source *k, bool commit)
{
    rd_kafka_resp_err_t e = commit && !k->eos ? rc_ksrc_commit(k, true) : RD_KAFKA_RESP_ERR_NO_ERROR; /* eos: the sink's */
    k->refused = e ? uncommitted(k) : 0;
    for (size_t i = 0; i < k->nparts; i++)
        if (e && k->parts[i].owned && k->parts[i].acked >= 0) k->parts[i].resume = k->parts[i].acked;
    for (size_t i = 0; i < k->nparts; i++) k->parts[i].owned = false;
    k->qn = 0, k->qhead = 0;
    k->draining = false;
    k->owned = 0;
    rd_kafka_assign(k->rk, NULL);
    return e;
}

/* Each partition at the group's committed offset, but one whose last owner was this member and
 * whose drain's commit was refused at where this member stopped: everything before it was
 * delivered by this member (only for the assignment right after). */
static void assign(kafka_source *k, rd_kafka_topic_partition_list_t *parts)
{
    for (int i = 0; i < parts->cnt; i++) {
        kafka_part *p = rc_ksrc_part_of(k, parts->elems[i].topic, parts->elems[i].partition);
        if (!p) continue;
        if (p->resume >= 0) parts->elems[i].offset = p->resume;
        p->owned = true, p->eof = false, p->acked = p->committed = p->handed = p->first = p->confirmed = p->last_ts = p->offered = -1;
    }
    for (size_t i = 0; i < k->nparts; i++) k->parts[i].resume = -1;
    rd_kafka_assign(k->rk, parts);
    k->owned = (size_t)parts->cnt;
    k->rebalances[KAFKA_REB_ASSIGN]++;
    rc_logf("rowcast: %s: %d partition%s assigned\n", k->shown, parts->cnt, plural((size_t)parts->cnt));
}

void rc_ksrc_on_rebalance(rd_kafka_t *rk, rd_kafka_resp_err_t e, rd_kafka_topic_partition_list_t *parts, void *opaque)
{
    kafka_source *k = opaque;
    int n = parts ? parts->cnt : 0;
    if (e == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
        assign(k, parts);
        return;
    }
    if (rd_kafka_assignment_lost(rk)) {
        k->rebalances[KAFKA_REB_LOST]++;
        rc_logf("rowcast: %s: %d partition%s lost (the session timed out): nothing committed; %zu message%s handed out "
                "and not acknowledged are the next owner's to read again\n", k->shown, n, plural((size_t)n), k->qn, plural(k->qn));
        k->drain_left += k->qn;
        rc_ksrc_eos_lost(k, k->qn, "lost (the session timed out)");
        give_up(k, false);
        return;
    }
    k->rebalances[KAFKA_REB_REVOKE]++;
    if (k->closing || !k->qn) {
        rd_kafka_resp_err_t ce = give_up(k, true);
        if (ce)
            rc_logf("rowcast: %s: %d partition%s revoked, the commit refused (%s): the next owner reads again %lld "
                    "message%s\n", k->shown, n, plural((size_t)n), rd_kafka_err2str(ce), (long long)k->refused, plural((size_t)k->refused));
        else
            rc_logf("rowcast: %s: %d partition%s revoked, offsets committed\n", k->shown, n, plural((size_t)n));
        return;
    }
    /* drained by rc_ksrc_drain_step, called by next and ack */
    k->draining = true;
    k->drain_start = rc_ksrc_now();
    k->drain_until = k->drain_start + (double)k->drain_ms / 1000;
    rc_logf("rowcast: %s: %d partition%s revoked: draining %zu message%s handed out before giving them up\n", k->shown, n,
            plural((size_t)n), k->qn, plural(k->qn));
}

bool rc_ksrc_drain_step(kafka_source *k)
{
    if (!k->draining) return false;
    double t = rc_ksrc_now();
    if (k->qn && t < k->drain_until && !k->closing) return true;
    size_t left = k->qn;
    k->drain_seconds += t - k->drain_start;
    k->drain_left += left;
    rc_ksrc_eos_lost(k, left, "given up when the drain stopped (-o kafka.source.drain.ms)");
    rd_kafka_resp_err_t ce = give_up(k, true);
    double ms = (t - k->drain_start) * 1000;
    if (ce)
        rc_logf("rowcast: %s: drained in %.0f ms, but the commit was refused (%s): the next owner reads again %lld "
                "message%s\n", k->shown, ms, rd_kafka_err2str(ce), (long long)k->refused, plural((size_t)k->refused));
    else if (left)
        rc_logf("rowcast: %s: drain stopped after %.0f ms (-o kafka.source.drain.ms): %zu message%s handed out and not "
                "acknowledged are the next owner's to read again\n", k->shown, ms, left, plural(left));
    else
        rc_logf("rowcast: %s: drained in %.0f ms: offsets committed, partitions given up\n", k->shown, ms);
    return false;
}
