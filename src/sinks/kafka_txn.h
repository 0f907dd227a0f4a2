/* The Kafka sink's transactional session (-o kafka.transactions=true; docs/design/exactly-once.md
 * §2.2, §2.5): transactional.id rowcast.SERVER, init_transactions at open (which fences older
 * sessions of the name), records produced in transactions committed after
 * kafka.transaction.ms or kafka.transaction.records, at a flush (the end of the input, a stop)
 * and when the run waits for acknowledgements. A commit acknowledges every record of the
 * transaction to the tracker: delivery reports alone acknowledge nothing, so the source's
 * position moves only after a commit. librdkafka's error classes: retriable -> the call again;
 * abortable -> abort_transaction and the run stops with the cause; fatal _FENCED -> stop at
 * once, nothing more is written. With a Kafka source (-o kafka.exactly_once.source=true, which
 * convert sets; docs/sources/kafka.md, Exactly once) each commit sends the consumer's offsets of
 * the input whose records it holds first (send_offsets_to_transaction), commits only at the end
 * of an input message's records, and the transactional.id is one per group member. */
#ifndef ROWCAST_SINKS_KAFKA_TXN_H
#define ROWCAST_SINKS_KAFKA_TXN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <librdkafka/rdkafka.h>
#include "rowcast/error.h"
#include "rowcast/format.h"
#include "sink_txn.h"
#include "tracker.h"

typedef struct kafka_txn {
    bool on;               /* -o kafka.transactions=true, or --exactly-once */
    bool eos;              /* --exactly-once (-o kafka.exactly_once=true): transactions, tail reads, skip rule */
    bool from_kafka;       /* -o kafka.exactly_once.source=true: the input's offsets go in the transactions, no skip rule */
    rc_txn_source src;     /* the Kafka source's side, once the pipeline handed it over (src.offsets set) */
    int64_t ended_us;      /* when the last transaction ended (or the session began) */
    char id[320];          /* the transactional.id */
    long ms;               /* commit a transaction this old (kafka.transaction.ms) */
    uint64_t records;      /* or holding this many records (kafka.transaction.records) */
    bool open;             /* a transaction is begun and not committed */
    int64_t began_us;      /* when it was begun (monotonic microseconds) */
    uint64_t in_txn;       /* records produced in it */
    bool fenced;           /* a newer session of the name exists: nothing more is written */
    char server[256];      /* --server NAME */
    char failed[768];      /* why the session ended (abortable or fatal), said by every call after */
    char doomed[640];      /* why the open transaction must be aborted (a record failed), or "" */
    rc_sink_txn_stats st;
} kafka_txn;

/* Takes the sink options that are rowcast's own (kafka.transactions, kafka.transaction.ms,
 * kafka.transaction.records, kafka.exactly_once, kafka.exactly_once.source): *taken is set for them, and for a value out of
 * range the error. */
rc_status rc_kafka_txn_option(kafka_txn *t, const char *key, const char *value, bool *taken, rc_error *err);
/* With transactions (or exactly once, which turns them on): the producer's transactional.id
 * (rowcast.SERVER; from a Kafka source rowcast.SERVER.MEMBER, MEMBER the consumer's
 * group.instance.id when `user` gives one, else HOST.PID; refused without a name), transaction.timeout.ms and message.timeout.ms below
 * it, each unless the user's -o kafka.* options in `user` (NULL: none) give it. Nothing without. */
rc_status rc_kafka_txn_conf(kafka_txn *t, rd_kafka_conf_t *conf, const char *server, const rc_options *user, rc_error *err);
/* init_transactions, retried while retriable for up to wait_ms, or until *stop is set. */
rc_status rc_kafka_txn_init(kafka_txn *t, rd_kafka_t *rk, int wait_ms, volatile sig_atomic_t *stop, rc_error *err);
/* Before a record is produced: begins a transaction when none is open. */
rc_status rc_kafka_txn_begin(kafka_txn *t, rd_kafka_t *rk, rc_error *err);
/* True when the open transaction is older than kafka.transaction.ms; from a Kafka source also
 * when it holds kafka.transaction.records, when a revoke waits for it, and, none open, every
 * kafka.transaction.ms (the offsets of messages that gave no record). */
bool rc_kafka_txn_due(const kafka_txn *t);
/* True when a record's commit is due at once (from a Kafka source never: before the first
 * record of a later message, or at the next poll). */
bool rc_kafka_txn_produced(kafka_txn *t);
/* Commits the open transaction (none open: nothing to do) and acknowledges the records below
 * `end` to the tracker (every record sent, tr->next, but for one that was not produced).
 * Retriable errors retry, for up to transaction.timeout.ms; an abortable
 * one aborts the transaction and fails with its cause; a fatal one fails (fenced: t->fenced).
 * From a Kafka source (kafka_txn_offsets.c, which holds these two) the input's offsets go in first; a commit that would
 * end inside a message's records waits (`final`, at the end of the run: the transaction is
 * aborted); a member whose partitions moved on (fenced, ILLEGAL_GENERATION, lost) aborts and
 * ends as fenced (exit 4). */
rc_status rc_kafka_txn_commit(kafka_txn *t, rd_kafka_t *rk, tracker *tr, uint64_t end, int timeout_ms, rc_error *err);
/* The commit at the end of the run (every record sent; `final` above). */
rc_status rc_kafka_txn_commit_last(kafka_txn *t, rd_kafka_t *rk, tracker *tr, int timeout_ms, rc_error *err);
/* Inside kafka_txn.c and kafka_txn_offsets.c: EndTxn and the acknowledgements, and a
 * transactional call's failure. */
rc_status rc_kafka_txn_end(kafka_txn *t, rd_kafka_t *rk, tracker *tr, uint64_t end, int timeout_ms, rc_error *err);
/* Aborts the open transaction; false when that failed too (`why`: " (aborting failed too: ...)"). */
bool rc_kafka_txn_abort(kafka_txn *t, rd_kafka_t *rk, char *why, size_t n);
rc_status rc_kafka_txn_end_session(kafka_txn *t, rd_kafka_t *rk, const char *what, rd_kafka_error_t *e, rc_error *err);
int64_t rc_kafka_txn_now_us(void);
/* The session's end as an error (RC_OK while it goes on). */
rc_status rc_kafka_txn_failure(const kafka_txn *t, rc_error *err);
/* A fatal producer error (librdkafka's error callback): the session ends; fenced when so. */
void rc_kafka_txn_fatal(kafka_txn *t, rd_kafka_resp_err_t code, const char *why);
/* A record of the open transaction failed for good (`why`; the first one is kept): the next
 * rc_kafka_txn_check aborts the transaction. */
void rc_kafka_txn_doom(kafka_txn *t, const char *why);
/* The session's end as an error, after aborting a doomed transaction and noting a fatal error
 * whose callback was not served yet; RC_OK while the session goes on. */
rc_status rc_kafka_txn_check(kafka_txn *t, rd_kafka_t *rk, rc_error *err);

#endif
