/* The transactions of --exactly-once from a Kafka source (kafka_txn.h; docs/sources/kafka.md,
 * Exactly once; docs/design/kafka-source.md §4): before each commit the consumer's offsets of
 * the input whose records the transaction holds go into it (send_offsets_to_transaction with the
 * group's metadata, KIP-447), so that the group's committed offsets move exactly when the
 * records are committed. A commit ends at the end of an input message's records (the tracker's
 * last mark): the offsets committed never stand inside a message whose records are split over
 * two transactions. */
#include <stdio.h>
#include "kafka_txn.h"

/* Where the records below `end` end in the input: the tracker's last mark when it is at `end`,
 * the safe position when nothing is outstanding (AT_MARK, *at); NOTHING: no position yet and
 * nothing sent; INSIDE: inside an item's records. */
enum { INSIDE, NOTHING, AT_MARK };
static int at_mark(const tracker *tr, uint64_t end, rc_pos *at)
{
    if (tr->mtail != tr->mhead) {
        const tracker_mark *m = &tr->marks[(tr->mtail - 1) & tr->mmask];
        if (m->seq_end != end) return INSIDE;
        *at = m->pos;
        return AT_MARK;
    }
    if (tr->base != end) return INSIDE;
    if (!tr->has_safe) return NOTHING;
    *at = tr->safe_pos;
    return AT_MARK;
}

/* This member's partitions moved on (`why`): the open transaction is aborted (its offsets are
 * not committed: the partitions' owner reads the input again) and the session ends as fenced
 * (exit 4). */
static rc_status zombie(kafka_txn *t, rd_kafka_t *rk, const char *why, rc_error *err)
{
    char failed[256] = "";
    bool aborted = t->open && rc_kafka_txn_abort(t, rk, failed, sizeof failed);
    t->fenced = true;
    snprintf(t->failed, sizeof t->failed, "fenced: %s; %s%s: the group's committed offsets stay where they were and the "
             "partitions' owner reads that input again; this one stops without writing", why,
             aborted ? "the transaction was aborted" : "nothing committed", failed);
    return rc_kafka_txn_failure(t, err);
}

/* The errors that say a newer generation of the group or a newer producer owns the input. */
static bool moved_on(rd_kafka_resp_err_t code)
{
    return code == RD_KAFKA_RESP_ERR_ILLEGAL_GENERATION || code == RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID ||
           code == RD_KAFKA_RESP_ERR_FENCED_INSTANCE_ID || code == RD_KAFKA_RESP_ERR__FENCED ||
           code == RD_KAFKA_RESP_ERR_PRODUCER_FENCED || code == RD_KAFKA_RESP_ERR_INVALID_PRODUCER_EPOCH;
}

static rc_status send_offsets(kafka_txn *t, rd_kafka_t *rk, const rd_kafka_topic_partition_list_t *l, int timeout_ms, rc_error *err)
{
    int64_t deadline = rc_kafka_txn_now_us() + (int64_t)timeout_ms * 1000;
    for (;;) {
        rd_kafka_consumer_group_metadata_t *md = t->src.metadata(t->src.ctx);
        if (!md) return zombie(t, rk, "the consumer has no group metadata (it left the group)", err);
        rd_kafka_error_t *e = rd_kafka_send_offsets_to_transaction(rk, l, md, timeout_ms < 100 ? 100 : timeout_ms);
        rd_kafka_consumer_group_metadata_destroy(md);
        if (!e) return RC_OK;
        rd_kafka_resp_err_t code = rd_kafka_error_code(e);
        if (moved_on(code)) {
            char why[512];
            snprintf(why, sizeof why, "sending the input's offsets with the transaction of %s: %s (%s)", t->id,
                     rd_kafka_error_string(e), rd_kafka_err2name(code));
            rd_kafka_error_destroy(e);
            return zombie(t, rk, why, err);
        }
        if (!rd_kafka_error_is_retriable(e) || rc_kafka_txn_now_us() >= deadline)
            return rc_kafka_txn_end_session(t, rk, "sending the input's offsets (send_offsets_to_transaction)", e, err);
        rd_kafka_error_destroy(e);
    }
}

static rc_status commit_offsets(kafka_txn *t, rd_kafka_t *rk, tracker *tr, uint64_t end, int timeout_ms, bool final, rc_error *err)
{
    rc_status st = rc_kafka_txn_check(t, rk, err); /* a doomed transaction is aborted before its offsets are sent */
    if (st != RC_OK) return st;
    rc_pos at;
    int where = at_mark(tr, end, &at);
    if (where == NOTHING || (where == INSIDE && !t->open)) return RC_OK;
    if (where == INSIDE) {
        if (!final) return RC_OK; /* at the next poll after the message's last record */
        rc_kafka_txn_doom(t, "the run stopped inside an input message's records (its offset is not committed)");
        return rc_kafka_txn_check(t, rk, err);
    }
    rd_kafka_topic_partition_list_t *l = NULL;
    char why[512];
    if (!t->src.offsets(t->src.ctx, &at, &l, why, sizeof why)) return zombie(t, rk, why, err);
    if (!l && !t->open) {
        t->ended_us = rc_kafka_txn_now_us(); /* nothing read since: asked again a kafka.transaction.ms later */
        return RC_OK;
    }
    if (!t->open) st = rc_kafka_txn_begin(t, rk, err); /* messages that gave no record: their offsets alone */
    if (st == RC_OK && l) st = send_offsets(t, rk, l, timeout_ms, err);
    if (st == RC_OK) st = rc_kafka_txn_end(t, rk, tr, end, timeout_ms, err);
    if (st == RC_OK && l) t->src.committed(t->src.ctx);
    if (l) rd_kafka_topic_partition_list_destroy(l);
    return st;
}

/* rc_kafka_txn_commit and rc_kafka_txn_commit_last (kafka_txn.h): from a Kafka source with the
 * offsets, else EndTxn alone. */
static rc_status commit(kafka_txn *t, rd_kafka_t *rk, tracker *tr, uint64_t end, int timeout_ms, bool final, rc_error *err)
{
    if (t->from_kafka && t->src.offsets && !t->failed[0]) return commit_offsets(t, rk, tr, end, timeout_ms, final, err);
    return rc_kafka_txn_end(t, rk, tr, end, timeout_ms, err);
}

rc_status rc_kafka_txn_commit(kafka_txn *t, rd_kafka_t *rk, tracker *tr, uint64_t end, int timeout_ms, rc_error *err)
{
    return commit(t, rk, tr, end, timeout_ms, false, err);
}

rc_status rc_kafka_txn_commit_last(kafka_txn *t, rd_kafka_t *rk, tracker *tr, int timeout_ms, rc_error *err)
{
    return commit(t, rk, tr, tr->next, timeout_ms, true, err);
}
