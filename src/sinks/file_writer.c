/* See file_writer.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/thread.h"
#include "file_writer.h"

/* 0, or the errno of the write that failed */
static int write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return k < 0 ? errno : ENOSPC;
        p += k, n -= (size_t)k;
    }
    return 0;
}

/* A worker thread's loop, under w->mu: step(w) while it finds work (it may let go of the lock
 * while it works), else ends once asked to quit, else waits on cv. */
static void *serve(rc_file_writer *w, pthread_cond_t *cv, bool (*step)(rc_file_writer *w))
{
    pthread_mutex_lock(&w->mu);
    for (;;) {
        if (step(w)) continue;
        if (w->quit) break;
        pthread_cond_wait(cv, &w->mu);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* The writing thread: the next buffer, else waits. After an error buffers are let go
 * unwritten, so that the sink never waits for a free one forever. */
static bool write_next(rc_file_writer *w)
{
    if (w->written == w->filled) return false;
    rc_fw_buf *b = &w->bufs[w->written % RC_FW_NBUF];
    int failed = w->err;
    pthread_mutex_unlock(&w->mu);
    int e = failed ? 0 : write_all(w->fd, b->data, b->len);
    pthread_mutex_lock(&w->mu);
    if (e) w->err = w->err ? w->err : e; /* the first failure, which err_in_sync describes */
    else if (!failed && !w->durable) w->rec_written = w->synced = b->records;
    else if (!failed) w->rec_written = b->records;
    w->written++;
    pthread_cond_broadcast(&w->done);
    if (w->durable) pthread_cond_signal(&w->sync_work);
    return true;
}

static void *run(void *arg)
{
    rc_file_writer *w = arg;
    return serve(w, &w->work, write_next);
}

/* The syncing thread of a durable file: an fsync as soon as a record asked for is written,
 * beside the writing thread, which goes on writing meanwhile (an fsync of a second's Debezium
 * output takes most of a second here: done by the writer, the sink and then the source stood
 * still for it). The fsync covers every record written before it started, so that count is
 * durable when it returns; records written during it wait for the next. */
static bool sync_next(rc_file_writer *w)
{
    /* what is written so far, not waiting for all that was asked: a writer that never
     * catches up with the requests (write-back throttling) would otherwise never sync */
    if (w->err || w->sync_want <= w->synced || w->rec_written <= w->synced) return false;
    uint64_t upto = w->rec_written;
    pthread_mutex_unlock(&w->mu);
    /* EINVAL: a special file that cannot be synchronized (/dev/null, a pipe): flushed is all there is */
    int e = fsync(w->fd) != 0 && errno != EINVAL ? errno : 0;
    pthread_mutex_lock(&w->mu);
    if (e && !w->err) w->err = e, w->err_in_sync = true;
    else if (!e) w->synced = upto;
    pthread_cond_broadcast(&w->done);
    return true;
}

static void *sync_run(void *arg)
{
    rc_file_writer *w = arg;
    return serve(w, &w->sync_work, sync_next);
}

rc_status rc_fw_start(rc_file_writer *w, int fd, bool durable, const char *what, rc_error *err)
{
    memset(w, 0, sizeof *w);
    w->fd = fd, w->durable = durable;
    for (int i = 0; i < RC_FW_NBUF; i++) {
        if (!(w->bufs[i].data = malloc(RC_FW_BUF))) goto fail;
        w->bufs[i].cap = RC_FW_BUF;
    }
    w->cur = w->bufs[0].data, w->cap = RC_FW_BUF;
    pthread_mutex_init(&w->mu, NULL);
    pthread_cond_init(&w->work, NULL);
    pthread_cond_init(&w->done, NULL);
    pthread_cond_init(&w->sync_work, NULL);
    /* signals (SIGINT, SIGTERM) go to the thread that waits for the source, which stops; a
     * closed pipe ends the process as it did without the thread */
    const char *why = "cannot start the thread that writes it";
    rc_status st = rc_thread_start(&w->thread, run, w, RC_THREAD_SIGPIPE, err, "%s: %s", what, why);
    if (st == RC_OK && durable && (st = rc_thread_start(&w->syncer, sync_run, w, RC_THREAD_SIGPIPE, err, "%s: %s", what, why)) != RC_OK) {
        pthread_mutex_lock(&w->mu);
        w->quit = true;
        pthread_cond_signal(&w->work);
        pthread_mutex_unlock(&w->mu);
        pthread_join(w->thread, NULL);
    }
    if (st == RC_OK) return RC_OK;
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->work);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->sync_work);
    for (int i = 0; i < RC_FW_NBUF; i++) free(w->bufs[i].data);
    return st;
fail:
    for (int i = 0; i < RC_FW_NBUF; i++) free(w->bufs[i].data);
    return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

/* Under mu: wakes the thread for what was handed over. */
static void wake(rc_file_writer *w)
{
    if (w->written != w->filled) pthread_cond_signal(&w->work);
}

/* Under mu: the sink's buffer to the thread (also when it holds only records of no bytes, so
 * that a sync waits for nothing it cannot see), then a free one. The thread is woken for the
 * first buffer and then once half the ring waits (or by a push, a sync, the stop): woken for every one,
 * a thread that writes faster than buffers come (stdout into /dev/null, a fast disk) slept and
 * woke for each, two context switches a buffer; the writes stay in order either way. */
static void hand_over(rc_file_writer *w)
{
    rc_fw_buf *b = &w->bufs[w->filled % RC_FW_NBUF];
    b->len = w->len, b->records = w->handed = w->records;
    w->filled++;
    if (w->filled == 1 || w->filled - w->written >= RC_FW_NBUF / 2) pthread_cond_signal(&w->work);
    /* the first buffer is waited for: a file that cannot be written at all (/dev/full, a full
     * disk) stops the run at the message that filled it; a later failure at the first message
     * after the thread reports it */
    while (w->filled == 1 && !w->written) pthread_cond_wait(&w->done, &w->mu);
    while (w->filled - w->written >= RC_FW_NBUF) pthread_cond_wait(&w->done, &w->mu);
    w->cur = w->bufs[w->filled % RC_FW_NBUF].data;
    w->cap = w->bufs[w->filled % RC_FW_NBUF].cap;
    w->len = 0;
    w->seen_err = w->err;
}

/* Under mu: whether the sink's buffer holds anything the thread has not been given. */
static bool pending(const rc_file_writer *w)
{
    return w->len || w->handed != w->records;
}

void rc_fw_next(rc_file_writer *w)
{
    pthread_mutex_lock(&w->mu);
    hand_over(w);
    pthread_mutex_unlock(&w->mu);
}

void rc_fw_give(rc_file_writer *w, char **data, size_t *cap, size_t len, uint64_t records)
{
    pthread_mutex_lock(&w->mu);
    if (w->len) hand_over(w); /* what was put before goes first: cur is then a free, empty buffer */
    rc_fw_buf *b = &w->bufs[w->filled % RC_FW_NBUF];
    char *mine = b->data;
    size_t mycap = b->cap;
    b->data = *data, b->cap = *cap;
    w->cur = b->data, w->cap = b->cap, w->len = len;
    w->records = records;
    hand_over(w);
    *data = mine, *cap = mycap;
    pthread_mutex_unlock(&w->mu);
}

/* Under mu: asks for an fsync of every record put. */
static void want_sync(rc_file_writer *w)
{
    if (pending(w)) hand_over(w);
    wake(w);
    if (w->records > w->sync_want) {
        w->sync_want = w->records;
        if (w->durable) pthread_cond_signal(&w->sync_work); /* else each write makes its records count */
    }
}

uint64_t rc_fw_push(rc_file_writer *w, bool sync, int *err)
{
    pthread_mutex_lock(&w->mu);
    if (sync) want_sync(w);
    else if (w->written == w->filled && pending(w)) hand_over(w);
    wake(w); /* what waits goes out now: the input is idle */
    uint64_t synced = w->synced;
    *err = w->seen_err = w->err;
    pthread_mutex_unlock(&w->mu);
    return synced;
}

int rc_fw_wait(rc_file_writer *w)
{
    pthread_mutex_lock(&w->mu);
    want_sync(w);
    while (!w->err && w->synced < w->sync_want) pthread_cond_wait(&w->done, &w->mu);
    int e = w->seen_err = w->err;
    pthread_mutex_unlock(&w->mu);
    return e;
}

int rc_fw_stop(rc_file_writer *w)
{
    pthread_mutex_lock(&w->mu);
    if (pending(w)) hand_over(w);
    w->quit = true;
    pthread_cond_signal(&w->work);
    pthread_cond_signal(&w->sync_work);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    if (w->durable) pthread_join(w->syncer, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->work);
    pthread_cond_destroy(&w->done);
    pthread_cond_destroy(&w->sync_work);
    for (int i = 0; i < RC_FW_NBUF; i++) free(w->bufs[i].data);
    return w->err;
}
