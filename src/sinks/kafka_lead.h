/* The lead of a --server among rowcast processes run with --standby (docs/operations.md, "A
 * standby that takes over"; docs/design/exactly-once.md §5): Kafka's group membership decides.
 * Every instance joins the consumer group rowcast.standby.SERVER subscribed to the state topic
 * (cooperative-sticky: a member joining does not move the lead); the one assigned its partition 0
 * leads. The coordinator expires a member silent for session.timeout.ms (0.3 s per second of
 * --takeover-after) and gives the partition to another, which waits half a session (the old
 * lease) before it writes.
 *
 * While it leads, a thread of its own keeps the membership (polls, serves the rebalances) and
 * renews the run's lease (core/run_state.h) each time the coordinator accepted an offset commit
 * of this member: until half a session after the request was sent, before the coordinator can
 * have expired it. A revoke of the partition, a member the coordinator no longer knows, or a lease
 * not renewed within two sessions loses the lead for good (a leader never leads again in the same
 * run: a new lead starts from the state and the tail reads): the sink writes nothing more (kafka_txn.c) and the run
 * exits 4. Safety on a real cluster is the transactional producer's epoch fence (the new leader's
 * init_transactions); the lease makes a paused old leader stop before it writes. */
#ifndef ROWCAST_SINKS_KAFKA_LEAD_H
#define ROWCAST_SINKS_KAFKA_LEAD_H

#include <signal.h>
#include "rowcast/error.h"
#include "rowcast/format.h"

typedef struct rc_kafka_lead rc_kafka_lead;

enum { RC_TAKEOVER_DEFAULT_S = 30, RC_TAKEOVER_MAX_S = 600 };

/* `rest`: HOST:PORT[,...]/TOPIC (the state topic, after kafka://); takeover_s: --takeover-after;
 * opts: the run's -o options (kafka.* apply: TLS, SASL). */
rc_status rc_kafka_lead_open(const char *rest, const char *server, int takeover_s, const rc_options *opts, rc_kafka_lead **out,
                             rc_error *err);
/* Waits as a standby until this instance leads (RC_OK: the lease is held and kept from now on),
 * or *stop is set (RC_SKIP). */
rc_status rc_kafka_lead_acquire(rc_kafka_lead *l, volatile sig_atomic_t *stop, rc_error *err);
/* Seconds waited as a standby. */
double rc_kafka_lead_waited(const rc_kafka_lead *l);
/* Leaves the group (a standby takes over at once) and frees. */
void rc_kafka_lead_close(rc_kafka_lead *l);

#endif
