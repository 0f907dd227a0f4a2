/* Starting a worker thread with signals blocked, and telling it to stop (see thread.h). */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/thread.h"

rc_status rc_thread_start(pthread_t *thread, void *(*run)(void *), void *arg, unsigned flags,
                          rc_error *err, const char *what, ...)
{
    sigset_t all, old;
    sigfillset(&all);
    if (flags & RC_THREAD_SIGPIPE) sigdelset(&all, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int e = pthread_create(thread, NULL, run, arg);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (!e) return RC_OK;
    char name[256];
    va_list ap;
    va_start(ap, what);
    vsnprintf(name, sizeof name, what, ap);
    va_end(ap);
    /* usually EAGAIN: no room for the thread's stack (ulimit -v, ulimit -s) or the process
     * limit on threads */
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s: %s (check ulimit -v, -s and -u: they bound the memory of a thread's stack and the number of threads)",
                        name, strerror(e));
}

void rc_thread_tell_stop(pthread_mutex_t *mu, pthread_cond_t *cv, bool *flag)
{
    pthread_mutex_lock(mu);
    *flag = true;
    pthread_cond_broadcast(cv);
    pthread_mutex_unlock(mu);
}
