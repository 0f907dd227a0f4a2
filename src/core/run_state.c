/* The run's state and role (core/run_state.h): two atomics, set on the pipeline's and the
 * sources' threads, read on the metrics server's. */
#include <stdatomic.h>
#include "core/run_state.h"

static _Atomic int state = RC_RUN_STARTING;
static _Atomic int role = RC_ROLE_ACTIVE;

static const char *const state_names[RC_RUN_STATES] = {
    [RC_RUN_STARTING] = "starting",   [RC_RUN_SNAPSHOT] = "snapshot",
    [RC_RUN_STREAMING] = "streaming", [RC_RUN_RECONNECTING] = "reconnecting",
    [RC_RUN_READING] = "reading",     [RC_RUN_STOPPING] = "stopping",
    [RC_RUN_FAILING] = "failing",     [RC_RUN_DONE] = "done",
};

static const char *const role_names[RC_RUN_ROLES] = {
    [RC_ROLE_ACTIVE] = "active", [RC_ROLE_STANDBY] = "standby"};

void rc_run_state_set(rc_run_state s)
{
    atomic_store(&state, (int)s);
}

rc_run_state rc_run_state_get(void)
{
    return (rc_run_state)atomic_load(&state);
}

const char *rc_run_state_name(rc_run_state s)
{
    return (unsigned)s < RC_RUN_STATES ? state_names[s] : "unknown";
}

void rc_run_role_set(rc_run_role r)
{
    atomic_store(&role, (int)r);
}

rc_run_role rc_run_role_get(void)
{
    return (rc_run_role)atomic_load(&role);
}

const char *rc_run_role_name(rc_run_role r)
{
    return (unsigned)r < RC_RUN_ROLES ? role_names[r] : "unknown";
}
