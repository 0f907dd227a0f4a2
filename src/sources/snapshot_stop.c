/* RC_SNAPSHOT_STOP=WHAT:N: the process stops itself at the Nth chunk notice WHAT (snapshot_stop.h). */
#include "sources/snapshot_stop.h"
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;
static char want[64];
static atomic_long left; /* notices WHAT still to pass; 0: none wanted */

static void read_env(void)
{
    const char *v = getenv("RC_SNAPSHOT_STOP"), *colon = v ? strrchr(v, ':') : NULL;
    if (!colon || (size_t)(colon - v) >= sizeof want) return;
    char *end;
    long n = strtol(colon + 1, &end, 10);
    if (*end || n < 1) return;
    memcpy(want, v, (size_t)(colon - v));
    atomic_store(&left, n);
}

void rc_snapshot_stop_point(const char *what)
{
    pthread_once(&once, read_env);
    if (!want[0] || strcmp(what, want) || atomic_fetch_sub(&left, 1) != 1) return;
    rc_logf("rowcast: stopped at RC_SNAPSHOT_STOP=%s\n", getenv("RC_SNAPSHOT_STOP"));
    raise(SIGSTOP);
}
