/* RC_SNAPSHOT_STOP=WHAT:N[,WHAT:N...]: the process stops itself at the Nth chunk notice WHAT
 * (snapshot_stop.h). */
#include "sources/snapshot_stop.h"
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "core/log.h"

#define MAX_POINTS 8

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct {
    char what[48];
    long at, seen;
} points[MAX_POINTS];
static size_t npoints;

static void read_env(void)
{
    const char *v = getenv("RC_SNAPSHOT_STOP");
    while (v && *v && npoints < MAX_POINTS) {
        size_t len = strcspn(v, ",");
        const char *colon = memchr(v, ':', len);
        char *end;
        long n = colon ? strtol(colon + 1, &end, 10) : 0;
        if (colon && end == v + len && n >= 1 && (size_t)(colon - v) < sizeof points[0].what) {
            memcpy(points[npoints].what, v, (size_t)(colon - v));
            points[npoints++].at = n;
        }
        v += len + (v[len] == ',');
    }
}

void rc_snapshot_stop_point(const char *what)
{
    pthread_once(&once, read_env);
    if (!npoints) return;
    bool stop = false;
    long at = 0;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < npoints; i++)
        if (!strcmp(points[i].what, what) && ++points[i].seen == points[i].at) stop = true, at = points[i].at;
    pthread_mutex_unlock(&lock);
    if (!stop) return;
    rc_logf("rowcast: stopped at RC_SNAPSHOT_STOP point %s:%ld\n", what, at);
    raise(SIGSTOP);
}
