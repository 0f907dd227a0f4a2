/* The run's state, role and lead lease (core/run_state.h): atomics, set on the pipeline's and the
 * sources' threads, read on the metrics server's. */
#include <limits.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
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

/* The lease: LLONG_MAX without a standby; the reason is written before `lost` is set. */
static _Atomic long long lease_until = LLONG_MAX;
static _Atomic int lost;
static _Atomic long long grace;
static char lost_why[256];
static atomic_flag losing = ATOMIC_FLAG_INIT;
static volatile sig_atomic_t *stop_flag;

long long rc_run_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void rc_run_lead_begin(long long grace_us, volatile sig_atomic_t *stop)
{
    stop_flag = stop;
    atomic_store(&grace, grace_us);
    atomic_store(&lease_until, 0);
}

void rc_run_lead_renew(long long until_us)
{
    long long was = atomic_load(&lease_until);
    while (was < until_us && !atomic_compare_exchange_weak(&lease_until, &was, until_us)) {
    }
}

void rc_run_lead_lose(const char *why)
{
    if (atomic_flag_test_and_set(&losing)) return;
    snprintf(lost_why, sizeof lost_why, "%s", why);
    atomic_store(&lost, 1);
    if (stop_flag && !*stop_flag) *stop_flag = SIGTERM; /* the run ends as on SIGTERM, writing nothing more */
}

bool rc_run_lead_lost(char *why, size_t cap)
{
    if (!atomic_load(&lost)) return false;
    if (why) snprintf(why, cap, "%s", lost_why);
    return true;
}

bool rc_run_lead_held(char *why, size_t cap)
{
    if (atomic_load(&lease_until) == LLONG_MAX) return true; /* no standby */
    long long first = 0;
    for (;;) {
        if (atomic_load(&lost)) {
            snprintf(why, cap, "%s", lost_why);
            return false;
        }
        long long now = rc_run_now_us();
        if (now < atomic_load(&lease_until)) return true;
        if (!first) first = now;
        else if (now - first > atomic_load(&grace)) {
            rc_run_lead_lose("the lease was not renewed in time: no answer from the group coordinator");
            continue;
        }
        nanosleep(&(struct timespec){0, 2000000}, NULL); /* the membership thread renews or loses it */
    }
}
