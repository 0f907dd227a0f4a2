/* Starting a worker thread. Every worker rowcast starts (the prefetching reader, the lines
 * reader, the binlog reader, the file sink's writer and syncer, the metrics server) leaves
 * signals (SIGINT, SIGTERM) to the thread that runs the pipeline: that thread notices them and
 * stops, while a worker that took one would only be interrupted. Internal header. */
#ifndef RC_CORE_THREAD_H
#define RC_CORE_THREAD_H

#include <pthread.h>
#include <stdbool.h>
#include "rowcast/error.h"

/* Leave SIGPIPE unblocked in the new thread: a write to a closed pipe then ends the process
 * as it does when the main thread writes. */
#define RC_THREAD_SIGPIPE 1u

/* Starts run(arg) in *thread with every signal blocked (but SIGPIPE with RC_THREAD_SIGPIPE),
 * then restores the caller's mask. On failure returns RC_ERR_IO and sets err (may be NULL) to
 * "<what>: <cause> (check ulimit ...)", what being the printf-formatted rest. */
rc_status rc_thread_start(pthread_t *thread, void *(*run)(void *), void *arg, unsigned flags,
                          rc_error *err, const char *what, ...) __attribute__((format(printf, 6, 7)));

/* Tells a worker to stop: *flag set under mu and every thread waiting on cv woken (the worker
 * sees the flag when it next looks; the caller then wakes it from a blocking read if it must,
 * and joins it). */
void rc_thread_tell_stop(pthread_mutex_t *mu, pthread_cond_t *cv, bool *flag);

#endif
