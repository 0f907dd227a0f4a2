/* A source read on a thread of its own (rc_source_config.threaded, for a source that says
 * two_batches: the database sources). The thread asks the source for its next batch while the
 * pipeline encodes and sends the last one, so that decoding (a MySQL row image, a pgoutput
 * tuple) runs beside encoding instead of before it.
 *
 * What runs where. The thread calls the source's `next` (and, for batches the pipeline gave
 * back, `release`) and `stats` after each `next` (the pipeline gets that copy); the pipeline's
 * thread calls `ack`, `waiting` and `progress` under the lock the thread holds for `next`, so
 * the source is never entered twice at once. At
 * most two batches are out (the source's promise): the one the pipeline holds and the one
 * waiting for it. What the source says as it happens (rc_capture_config.notice) is queued and
 * said on the pipeline's thread, in order, when it next asks for a batch: stderr is written by
 * one thread. A failure of `next` reaches the pipeline after the batches read before it.
 * Signals go to the pipeline's thread (this one blocks them), which stops the run. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "rowcast/buf.h"
#include "core/thread.h"
#include "sources/prefetch.h"

enum { POLL_MS = 10 }; /* the longest `next` the thread makes: how long an ack may wait for the lock */

typedef struct prefetch {
    rc_source base;
    rc_source_ops ops; /* prefetch_ops, and the optional ones the source has */
    rc_source *in;
    rc_capture_config cap; /* the source's, with notices queued here */
    void (*notice)(void *ctx, const char *msg);
    void *notice_ctx;
    pthread_t thread;
    bool started;
    pthread_mutex_t src_mu; /* held while the source is entered */
    pthread_mutex_t mu;     /* the fields below */
    pthread_cond_t cv;
    rc_batch *ready;        /* read, not yet taken */
    rc_batch *back[2];      /* released by the pipeline, not yet released to the source */
    unsigned nback;
    unsigned out;           /* batches the source handed out and did not get back */
    bool ended;             /* the last batch was read, or next failed: */
    rc_status st;           /*   its status and error, said after `ready` */
    rc_error err;
    bool quit;
    bool done;              /* the thread returned: pf_release gives batches back itself */
    unsigned waiters;       /* the pipeline's thread waits for src_mu: the thread lets it in first */
    rc_source_stats stats;  /* the source's, as of its last next (asked after every batch with
                             * --metrics: not worth a wait for the lock) */
    uint64_t acks;          /* acknowledgements so far (src_mu) */
    uint64_t stats_acks;    /* ... when `stats` was copied (mu) */
    rc_buf notices;         /* '\0'-ended messages */
} prefetch;

/* The pipeline's thread enters the source: after the call the thread is in, before its next
 * (a mutex is not fair: the thread, which takes it again at once, would keep it for long). */
static void enter(prefetch *p)
{
    pthread_mutex_lock(&p->mu);
    p->waiters++;
    pthread_mutex_unlock(&p->mu);
    pthread_mutex_lock(&p->src_mu);
    pthread_mutex_lock(&p->mu);
    p->waiters--;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

static void leave(prefetch *p) { pthread_mutex_unlock(&p->src_mu); }

static void queue_notice(void *ctx, const char *msg)
{
    prefetch *p = ctx;
    pthread_mutex_lock(&p->mu);
    rc_buf_puts(&p->notices, msg);
    rc_buf_putc(&p->notices, '\0');
    pthread_mutex_unlock(&p->mu);
}

/* Says the queued notices (the pipeline's thread). */
static void say_notices(prefetch *p)
{
    if (!p->notice) return;
    pthread_mutex_lock(&p->mu);
    if (!p->notices.len) {
        pthread_mutex_unlock(&p->mu);
        return;
    }
    rc_buf q = p->notices;
    rc_buf_init(&p->notices, 0);
    pthread_mutex_unlock(&p->mu);
    for (size_t at = 0; at < q.len; at += strlen(q.data + at) + 1) p->notice(p->notice_ctx, q.data + at);
    rc_buf_fini(&q);
}

static void *run(void *arg)
{
    prefetch *p = arg;
    pthread_mutex_lock(&p->mu);
    while (!p->quit && !p->ended) {
        /* the pipeline's thread first; else a batch given back, else the next when fewer than
         * two are out */
        if (p->waiters || (!p->nback && (p->ready || p->out >= 2))) {
            pthread_cond_wait(&p->cv, &p->mu);
            continue;
        }
        rc_batch *back = NULL;
        if (p->nback) back = p->back[0], p->back[0] = p->back[1], p->nback--; /* in the order given back */
        pthread_mutex_unlock(&p->mu);
        pthread_mutex_lock(&p->src_mu);
        if (back) p->in->ops->release(p->in, back);
        rc_batch *b = NULL;
        rc_error err;
        rc_error_clear(&err);
        rc_status st = back ? RC_OK : p->in->ops->next(p->in, POLL_MS, &b, &err);
        rc_source_stats stats;
        if (!back && p->in->ops->stats) p->in->ops->stats(p->in, &stats);
        uint64_t acks = p->acks;
        pthread_mutex_unlock(&p->src_mu);
        pthread_mutex_lock(&p->mu);
        /* not over a newer copy an acknowledgement made meanwhile (pf_ack) */
        if (!back && p->in->ops->stats && acks == p->stats_acks) p->stats = stats;
        if (back) p->out--;
        if (st != RC_OK) p->ended = true, p->st = st, p->err = err;
        if (b) p->ready = b, p->out++, p->ended |= b->last;
        pthread_cond_broadcast(&p->cv);
    }
    /* batches given back while the last next ran go to the source now (later ones pf_release
     * gives back itself) */
    while (p->nback) {
        rc_batch *back = p->back[0];
        p->back[0] = p->back[1], p->nback--;
        pthread_mutex_unlock(&p->mu);
        pthread_mutex_lock(&p->src_mu);
        p->in->ops->release(p->in, back);
        pthread_mutex_unlock(&p->src_mu);
        pthread_mutex_lock(&p->mu);
        p->out--;
    }
    p->done = true;
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

static rc_status pf_next(rc_source *src, int timeout_ms, rc_batch **out, rc_error *err)
{
    prefetch *p = (prefetch *)src;
    say_notices(p);
    *out = NULL;
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    pthread_mutex_lock(&p->mu);
    while (!p->ready && !p->ended)
        if (pthread_cond_timedwait(&p->cv, &p->mu, &until) == ETIMEDOUT) break;
    rc_status st = RC_OK;
    if (p->ready) {
        *out = p->ready;
        p->ready = NULL;
        pthread_cond_broadcast(&p->cv);
    } else if (p->ended && p->st != RC_OK) {
        st = p->st;
        *err = p->err;
    }
    pthread_mutex_unlock(&p->mu);
    say_notices(p); /* those of the batch, before it is handled */
    return st;
}

static void pf_release(rc_source *src, rc_batch *b)
{
    prefetch *p = (prefetch *)src;
    pthread_mutex_lock(&p->mu);
    if (p->done || !p->started) { /* no thread to hand it to */
        pthread_mutex_unlock(&p->mu);
        enter(p);
        p->in->ops->release(p->in, b);
        leave(p);
        pthread_mutex_lock(&p->mu);
        p->out--;
    } else {
        p->back[p->nback++] = b; /* at most the two out */
        pthread_cond_broadcast(&p->cv);
    }
    pthread_mutex_unlock(&p->mu);
}

/* The work an acknowledgement on this thread asked for (rc_source_after_ack): `open` while the
 * source's ack runs. */
static _Thread_local struct {
    bool open;
    void (*fn)(void *ctx);
    void *ctx;
} after_ack;

bool rc_source_after_ack(void (*fn)(void *ctx), void *ctx)
{
    if (!after_ack.open || (after_ack.fn && (after_ack.fn != fn || after_ack.ctx != ctx))) return false;
    after_ack.fn = fn, after_ack.ctx = ctx;
    return true;
}

/* ack, or ack_state when `state` is set (with `pos` NULL: no acknowledgement, no stats) */
static void acknowledge(prefetch *p, const rc_pos *pos, const char *state)
{
    rc_source_stats stats;
    enter(p);
    after_ack.open = true, after_ack.fn = NULL;
    if (state) p->in->ops->ack_state(p->in, pos, state);
    else p->in->ops->ack(p->in, pos);
    after_ack.open = false;
    if (pos && p->in->ops->stats) p->in->ops->stats(p->in, &stats); /* the position acknowledged, also once the thread ended */
    uint64_t acks = pos ? ++p->acks : p->acks;
    leave(p);
    if (after_ack.fn) after_ack.fn(after_ack.ctx), after_ack.fn = NULL; /* the next batch is read meanwhile */
    if (!pos || !p->in->ops->stats) return;
    pthread_mutex_lock(&p->mu);
    if (acks > p->stats_acks) p->stats = stats, p->stats_acks = acks; /* two acks' copies in their order */
    pthread_mutex_unlock(&p->mu);
}

static void pf_ack(rc_source *src, const rc_pos *pos) { acknowledge((prefetch *)src, pos, NULL); }

static void pf_ack_state(rc_source *src, const rc_pos *pos, const char *state) { acknowledge((prefetch *)src, pos, state); }

/* what these answer is set at open and never changes: no lock */
static const char *pf_stored_state(const rc_source *src)
{
    const prefetch *p = (const prefetch *)src;
    return p->in->ops->stored_state(p->in);
}

static bool pf_resumes_at(const rc_source *src, rc_pos *pos)
{
    const prefetch *p = (const prefetch *)src;
    return p->in->ops->resumes_at(p->in, pos);
}

static bool pf_resumed(const rc_source *src)
{
    const prefetch *p = (const prefetch *)src;
    return p->in->ops->resumed(p->in);
}

static void pf_progress(const rc_source *src, uint64_t *size, uint64_t *start)
{
    prefetch *p = (prefetch *)src;
    enter(p);
    p->in->ops->progress(p->in, size, start);
    leave(p);
}

static void pf_stats(const rc_source *src, rc_source_stats *out)
{
    prefetch *p = (prefetch *)src;
    pthread_mutex_lock(&p->mu);
    *out = p->stats;
    pthread_mutex_unlock(&p->mu);
}

static bool pf_waiting(const rc_source *src)
{
    prefetch *p = (prefetch *)src;
    enter(p);
    bool w = p->in->ops->waiting && p->in->ops->waiting(p->in);
    leave(p);
    return w;
}

static void pf_close(rc_source *src)
{
    prefetch *p = (prefetch *)src;
    if (!p) return;
    if (p->started) {
        rc_thread_tell_stop(&p->mu, &p->cv, &p->quit);
        pthread_join(p->thread, NULL);
    }
    say_notices(p);
    if (p->in) p->in->ops->close(p->in); /* batches still out go with it */
    pthread_mutex_destroy(&p->src_mu);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    rc_buf_fini(&p->notices);
    free(p);
}

static const rc_source_ops prefetch_ops = {.name = "prefetch",
                                           .next = pf_next,
                                           .release = pf_release,
                                           .ack = pf_ack,
                                           .progress = pf_progress,
                                           .close = pf_close,
                                           .stats = pf_stats,
                                           .waiting = pf_waiting,
                                           .two_batches = true,
                                           .ack_state = pf_ack_state,
                                           .stored_state = pf_stored_state,
                                           .resumes_at = pf_resumes_at,
                                           .resumed = pf_resumed};

rc_status rc_source_prefetch_open(const rc_source_ops *ops, const rc_source_config *cfg, const rc_pos *resume, rc_source **out,
                                  rc_error *err)
{
    prefetch *p = calloc(1, sizeof *p);
    if (!p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    p->ops = prefetch_ops;
    p->base.ops = &p->ops;
    pthread_mutex_init(&p->src_mu, NULL);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    rc_buf_init(&p->notices, 0);
    rc_source_config in = *cfg;
    if (cfg->capture && cfg->capture->notice) {
        p->cap = *cfg->capture;
        p->notice = p->cap.notice, p->notice_ctx = p->cap.notice_ctx;
        p->cap.notice = queue_notice, p->cap.notice_ctx = p;
        in.capture = &p->cap;
    }
    rc_status st = ops->open(&in, resume, &p->in, err);
    say_notices(p); /* what the source said while opening (the derived replica id, resuming) */
    if (st != RC_OK) {
        pf_close(&p->base);
        return st;
    }
    if (p->in->ops->stats) p->in->ops->stats(p->in, &p->stats);
    if (!p->in->ops->ack_state) p->ops.ack_state = NULL;
    if (!p->in->ops->stored_state) p->ops.stored_state = NULL;
    if (!p->in->ops->resumes_at) p->ops.resumes_at = NULL;
    if (!p->in->ops->resumed) p->ops.resumed = NULL;
    /* signals go to the pipeline's thread */
    if ((st = rc_thread_start(&p->thread, run, p, 0, err, "cannot start the thread that reads the source")) != RC_OK) {
        pf_close(&p->base);
        return st;
    }
    p->started = true;
    *out = &p->base;
    return RC_OK;
}
