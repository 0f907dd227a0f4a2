/* The MySQL/MariaDB source's checkpoints: the transaction boundaries handed out and kept until
 * acknowledged, and the checkpoint file written from the last one acknowledged. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_source_int.h"
#include "sources/prefetch.h"

/* ---- checkpoints ---- */

void rc_my_source_boundary_free(boundary *e)
{
    free(e->file), free(e->gtids), free(e->history), free(e->snapshot);
}

/* The history's text now (malloc'd). */
static char *history_text(my_source *s, size_t *len)
{
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    rc_my_history_write(s->hist, &b);
    char *t = b.err ? NULL : malloc(b.len + 1);
    if (t) memcpy(t, b.data ? b.data : "", b.len), t[b.len] = '\0', *len = b.len;
    rc_buf_fini(&b);
    return t;
}

/* Keeps the boundary handed out last, until it is acknowledged. */
rc_status rc_my_source_keep_boundary(my_source *s, rc_error *err)
{
    rc_pos at = s->handed;
    return rc_my_source_keep_boundary_at(s, &at, err);
}

rc_status rc_my_source_keep_boundary_at(my_source *s, const rc_pos *pos, rc_error *err)
{
    if (s->qn && rc_pos_compare(&s->q[s->qn - 1].pos, pos) >= 0) return RC_OK;
    if (!s->qn && s->acked_pos.kind && rc_pos_compare(&s->acked_pos, pos) >= 0) return RC_OK;
    if (s->qn == s->qcap) {
        size_t cap = s->qcap ? s->qcap * 2 : 64;
        boundary *q = realloc(s->q, cap * sizeof *q);
        if (!q) return rc_my_source_nomem(err);
        s->q = q, s->qcap = cap;
    }
    boundary e = {.pos = *pos, .file = strdup(s->file ? s->file : ""), .gtids = strdup(s->gtids ? s->gtids : "")};
    if (s->hist_dirty) e.history = history_text(s, &e.history_len);
    if (!e.file || !e.gtids || (s->hist_dirty && !e.history)) {
        rc_my_source_boundary_free(&e);
        return rc_my_source_nomem(err);
    }
    /* the snapshot's state as of this boundary, when it changed */
    if (s->inc && rc_my_incsnap_state_at(s, pos, &e.snapshot, &e.snapshot_len, err) != RC_OK) {
        rc_my_source_boundary_free(&e);
        return err->code;
    }
    s->hist_dirty = false;
    s->q[s->qn++] = e;
    return RC_OK;
}

/* ---- the checkpoint's I/O ---- */

/* The newest text not written yet; `io` is held for a write (one at a time). A write takes the
 * newest text there is, so an older one never lands after a newer one. In a store that keeps
 * the history in chunks, the text names them (ref) and `hist` holds that history; `hist_writing`
 * the one of `put`, copied when a write needs other chunks than the last (a DDL changed it). */
struct rc_my_ckw {
    pthread_mutex_t mu, io;
    rc_buf text, writing, hist, hist_writing;
    rc_state_ref ref, put;
    bool has;
};

static void checkpoint_failed(my_source *s, const rc_error *err)
{
    rc_my_source_notice(s, "warning: %s (the previous checkpoint stays)", err->message);
}

/* The newest text into the store (the pipeline's thread after an acknowledgement, or the
 * source's own). */
static void checkpoint_flush(void *ctx)
{
    my_source *s = ctx;
    struct rc_my_ckw *w = s->ckw;
    pthread_mutex_lock(&w->io);
    pthread_mutex_lock(&w->mu);
    bool has = w->has;
    rc_my_checkpoint named = {.history_at = w->ref};
    if (has) {
        rc_buf t = w->writing;
        w->writing = w->text, w->text = t, w->has = false;
        if (w->ref.hash[0] && strcmp(w->ref.hash, w->put.hash)) {
            rc_buf_reset(&w->hist_writing);
            rc_buf_put(&w->hist_writing, w->hist.data ? w->hist.data : "", w->hist.len);
            w->put = w->ref;
        }
    }
    pthread_mutex_unlock(&w->mu);
    rc_error err;
    rc_error_clear(&err);
    named.history = w->hist_writing.data, named.history_len = w->hist_writing.len;
    if (has && w->hist_writing.err) rc_error_set(&err, RC_ERR_NOMEM, RC_NO_OFFSET, "checkpoint %s: out of memory", rc_state_store_where(s->store));
    if (has && (err.code || rc_my_checkpoint_store(s->store, w->writing.data, w->writing.len, &named, &err) != RC_OK)) checkpoint_failed(s, &err);
    pthread_mutex_unlock(&w->io);
}

static struct rc_my_ckw *checkpoint_writer(my_source *s)
{
    struct rc_my_ckw *w = s->ckw;
    if (w || !(w = calloc(1, sizeof *w))) return w;
    pthread_mutex_init(&w->mu, NULL), pthread_mutex_init(&w->io, NULL);
    rc_buf_init(&w->text, RC_BUF_DEFAULT_MAX), rc_buf_init(&w->writing, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&w->hist, RC_BUF_DEFAULT_MAX), rc_buf_init(&w->hist_writing, RC_BUF_DEFAULT_MAX);
    return s->ckw = w;
}

void rc_my_source_save_checkpoint(my_source *s, const rc_my_checkpoint *ck)
{
    rc_error err;
    rc_error_clear(&err);
    struct rc_my_ckw *w = checkpoint_writer(s);
    if (!w) {
        if (rc_my_checkpoint_save(s->store, s->url.shown, ck, &err) != RC_OK) checkpoint_failed(s, &err);
        return;
    }
    rc_my_checkpoint c = *ck;
    if (ck != &s->acked || !c.history_at.hash[0]) { /* the history's hash: outside the lock, once per history */
        rc_my_checkpoint_chunk(s->store, &c);
        if (ck == &s->acked) s->acked.history_at = c.history_at;
    }
    pthread_mutex_lock(&w->mu);
    rc_buf_reset(&w->text);
    bool fits = rc_my_checkpoint_format(s->url.shown, &c, &w->text);
    if (fits && c.history_at.hash[0] && strcmp(c.history_at.hash, w->ref.hash)) { /* another history: its text kept for the write */
        rc_buf_reset(&w->hist);
        rc_buf_put(&w->hist, c.history, c.history_len);
        fits = !w->hist.err;
    }
    w->ref = c.history_at;
    if (!fits) w->ref.hash[0] = '\0'; /* none: the next text copies its history again */
    w->has = fits;
    pthread_mutex_unlock(&w->mu);
    if (!fits) {
        rc_error_set(&err, RC_ERR_NOMEM, RC_NO_OFFSET, "checkpoint %s: too large", rc_state_store_where(s->store));
        checkpoint_failed(s, &err);
    } else if (!rc_source_after_ack(checkpoint_flush, s)) {
        checkpoint_flush(s);
    }
}

void rc_my_source_write_checkpoint(my_source *s)
{
    if (s->store) rc_my_source_save_checkpoint(s, &s->acked);
}

void rc_my_source_checkpoint_fini(my_source *s)
{
    struct rc_my_ckw *w = s->ckw;
    if (!w) return;
    checkpoint_flush(s);
    pthread_mutex_destroy(&w->mu), pthread_mutex_destroy(&w->io);
    rc_buf_fini(&w->text), rc_buf_fini(&w->writing), rc_buf_fini(&w->hist), rc_buf_fini(&w->hist_writing);
    free(w);
    s->ckw = NULL;
}

/* Everything up to `pos` is acknowledged: the checkpoint moves to the last boundary kept at or
 * before it. */
void rc_my_source_acknowledge(my_source *s, const rc_pos *pos)
{
    size_t k = 0;
    while (k < s->qn && rc_pos_compare(&s->q[k].pos, pos) <= 0) k++;
    if (!k) return;
    for (size_t i = 0; i < k; i++) {
        boundary *e = &s->q[i];
        free(s->acked.file), free(s->acked.gtids);
        s->acked.file = e->file, s->acked.gtids = e->gtids;
        s->acked.offset = rc_pos_mysql_offset(&e->pos);
        if (e->history) {
            free(s->acked.history);
            s->acked.history = e->history, s->acked.history_len = e->history_len;
            memset(&s->acked.history_at, 0, sizeof s->acked.history_at); /* hashed again at the next save */
        }
        if (e->snapshot) {
            free(s->acked.snapshot);
            s->acked.snapshot = e->snapshot, s->acked.snapshot_len = e->snapshot_len;
        }
        s->acked_pos = e->pos;
    }
    memmove(s->q, s->q + k, (s->qn - k) * sizeof *s->q);
    s->qn -= k;
    rc_my_source_write_checkpoint(s);
    if (s->inc) rc_my_incsnap_acked(s, &s->acked_pos);
}

/* The stream starts at the handed boundary with nothing in flight (after the snapshot, or
 * without one): that is the checkpoint already, history and all. */
rc_status rc_my_source_checkpoint_here(my_source *s, rc_error *err)
{
    s->hist_dirty = true;
    if (rc_my_source_keep_boundary(s, err) != RC_OK) return err->code;
    rc_pos p = s->handed;
    rc_my_source_acknowledge(s, &p);
    return RC_OK;
}

