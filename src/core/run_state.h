/* The run's state and role, as the health endpoints (/health, /ready) and the metrics report
 * them (pipeline/metrics.h, docs/metrics.md). One per process: the sources set the state where
 * it changes (db_phases.c for snapshot, streaming and done; each database's `lost` for
 * reconnecting), the pipeline sets the rest (starting, reading, stopping, failing), and the
 * metrics server reads it from its own thread. A run with --standby is a standby until it
 * leads, then active under a lease (below); every other run is active. */
#ifndef ROWCAST_RUN_STATE_H
#define ROWCAST_RUN_STATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

typedef enum rc_run_state {
    RC_RUN_STARTING,     /* opening the source, connecting */
    RC_RUN_SNAPSHOT,     /* a database source reads its snapshot (or waits for its delivery) */
    RC_RUN_STREAMING,    /* a database source streams changes */
    RC_RUN_RECONNECTING, /* the connection was lost: retrying */
    RC_RUN_READING,      /* convert reads its input */
    RC_RUN_STOPPING,     /* SIGINT/SIGTERM: waiting for the deliveries */
    RC_RUN_FAILING,      /* ending on an error */
    RC_RUN_DONE,         /* the input ended (convert, --until, --max-events) */
    RC_RUN_STATES
} rc_run_state;

typedef enum rc_run_role { RC_ROLE_ACTIVE, RC_ROLE_STANDBY, RC_RUN_ROLES } rc_run_role;

void rc_run_state_set(rc_run_state s);
rc_run_state rc_run_state_get(void);
/* "snapshot", "streaming", ... (the label of rowcast_state) */
const char *rc_run_state_name(rc_run_state s);

void rc_run_role_set(rc_run_role r);
rc_run_role rc_run_role_get(void);
const char *rc_run_role_name(rc_run_role r);

/* The lead's lease (--standby; docs/operations.md, "A standby that takes over"). Without a
 * standby the lead is held for good. With one, the thread that keeps the group membership
 * renews the lease each time the group coordinator accepted a request of this member (until:
 * a monotonic time in microseconds, before the coordinator can have expired the member), and
 * loses it for good when the group revoked the lead or no longer knows the member. The sink
 * asks before each record and each commit. */
/* leases on; nothing held until the first renewal; a loss sets *stop (SIGTERM) so that the run
 * ends at once, its sources too (NULL: not) */
void rc_run_lead_begin(long long grace_us, volatile sig_atomic_t *stop);
void rc_run_lead_renew(long long until_us);
void rc_run_lead_lose(const char *why);   /* the first reason is kept */
/* True while the lease holds. An expired lease is waited for (renewed: true; lost, or not renewed
 * within the grace begin gave: false); false comes with the reason in `why`. */
bool rc_run_lead_held(char *why, size_t cap);
/* True once the lead is lost for good, its reason in `why` (NULL: not wanted). */
bool rc_run_lead_lost(char *why, size_t cap);
/* The monotonic clock the lease is in, microseconds. */
long long rc_run_now_us(void);

#endif
