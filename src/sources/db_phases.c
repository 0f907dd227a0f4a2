/* The phase driver of the database sources (db_phases.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sources/db_phases.h"
#include "core/run_state.h"

bool rc_db_batches_init(rc_db_batches *bs, bool (*accept)(void *ctx, rc_str db, rc_str table), void *accept_ctx)
{
    bool ok = true;
    for (int i = 0; i < 2; i++) {
        rc_batch *b = &bs->b[i];
        rc_arena_init(&b->arena);
        b->events.accept = accept, b->events.accept_ctx = accept_ctx;
        ok &= (b->lines = calloc(RC_DB_BATCH_ITEMS, sizeof *b->lines)) != NULL;
    }
    bs->cur = 0, bs->handed = false;
    return ok;
}

/* Frees what waits in `later` given before `before` batches were handed out (all: UINT64_MAX). */
static void later_run(rc_db_batches *bs, uint64_t before)
{
    size_t k = 0;
    for (size_t i = 0; i < bs->nlater; i++) {
        if (bs->later[i].at < before) bs->later[i].free(bs->later[i].p);
        else bs->later[k++] = bs->later[i];
    }
    bs->nlater = k;
}

void rc_db_batches_later(rc_db_batches *bs, void (*free_fn)(void *p), void *p)
{
    if (!p) return;
    if (bs->nlater == bs->caplater) {
        size_t cap = bs->caplater ? bs->caplater * 2 : 4;
        rc_db_later *t = realloc(bs->later, cap * sizeof *t);
        if (!t) return;
        bs->later = t, bs->caplater = cap;
    }
    bs->later[bs->nlater++] = (rc_db_later){free_fn, p, bs->nhanded};
}

rc_batch *rc_db_batches_take(rc_db_batches *bs)
{
    if (bs->handed) bs->cur ^= 1; /* the pipeline may still hold the last one: the other was given back */
    bs->handed = false;
    /* given when h were handed out: batches up to h + 1 may point at it; every one but the
     * last handed out (nhanded) came back, so h + 2 <= nhanded is free to go */
    if (bs->nlater && bs->nhanded >= 2) later_run(bs, bs->nhanded - 1);
    rc_batch *b = rc_db_batch(bs);
    b->n = 0, b->len = 0, b->last = false, b->rc = 0;
    b->events.count = 0;
    rc_arena_reset(&b->arena);
    return b;
}

rc_batch *rc_db_batches_hand(rc_db_batches *bs)
{
    bs->handed = true, bs->nhanded++;
    return rc_db_batch(bs);
}

void rc_db_batches_fini(rc_db_batches *bs)
{
    later_run(bs, UINT64_MAX);
    free(bs->later);
    for (int i = 0; i < 2; i++) {
        rc_batch *b = &bs->b[i];
        free(b->text);
        free(b->lines);
        rc_arena_fini(&b->arena);
        rc_event_list_fini(&b->events);
    }
}

void rc_db_phase_nap(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL); /* a signal ends it early: the caller looks at its stop flag */
}

rc_status rc_db_source_opened(rc_db_source *d, rc_status st, rc_source **out)
{
    if (st != RC_OK) {
        d->base.ops->close(&d->base);
        return st;
    }
    d->acked_all = true;
    *out = &d->base;
    return RC_OK;
}

rc_status rc_db_source_next(rc_source *src, int timeout_ms, rc_batch **out, rc_error *err)
{
    rc_db_source *d = (rc_db_source *)src;
    const rc_db_phase_ops *ops = d->phase_ops;
    *out = NULL;
    rc_batch *b = rc_db_batches_take(&d->batches);
    rc_status st = RC_OK;
    switch (d->ph) {
    case PH_SNAPSHOT:
        st = ops->snapshot_batch(d, err);
        break;
    case PH_SNAPSHOT_ACK:
        if (d->snap_acked >= d->snap_rows) st = ops->snapshot_done(d, err);
        break;
    case PH_STREAM_START:
        st = ops->stream_start(d, err);
        if (st == RC_OK && d->ph == PH_STREAM) st = ops->stream_batch(d, timeout_ms, err);
        break;
    case PH_STREAM:
        st = ops->stream_batch(d, timeout_ms, err);
        break;
    case PH_DONE:
        break;
    }
    /* the run's state for /ready and rowcast_state (core/run_state.h); a lost connection is
     * each source's `lost`, and starting the stream again leaves it reconnecting */
    static const rc_run_state by_phase[] = {[PH_SNAPSHOT] = RC_RUN_SNAPSHOT,
                                            [PH_SNAPSHOT_ACK] = RC_RUN_SNAPSHOT,
                                            [PH_STREAM] = RC_RUN_STREAMING,
                                            [PH_DONE] = RC_RUN_DONE};
    if (d->ph != PH_STREAM_START) rc_run_state_set(by_phase[d->ph]);
    if (st != RC_OK) return st;
    if (d->ph == PH_DONE) b->last = true;
    if (b->n || b->last) *out = rc_db_batches_hand(&d->batches);
    else if (d->ph != PH_STREAM && d->ph != PH_SNAPSHOT) {
        rc_db_phase_nap(timeout_ms < 20 ? timeout_ms : 20); /* waiting (for acknowledgements, or to reconnect) */
    }
    return RC_OK;
}

void rc_db_source_lost(rc_db_source *d)
{
    d->ph = PH_STREAM_START;
    rc_run_state_set(RC_RUN_RECONNECTING);
}

bool rc_db_source_ack(rc_db_source *d, const rc_pos *pos, bool snapshot, uint64_t rows)
{
    d->acked_all = rc_pos_compare(pos, &d->last_pos) >= 0;
    if (snapshot) d->snap_acked = rows;
    return !snapshot;
}

/* ---- what both database sources do alike ---- */

double rc_db_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int64_t rc_db_wall_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000;
}

void rc_db_notice(void (*notice)(void *ctx, const char *msg), void *ctx, size_t cap, const char *fmt, ...)
{
    if (!notice) return;
    char msg[1000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, cap < sizeof msg ? cap : sizeof msg, fmt, ap);
    va_end(ap);
    notice(ctx, msg);
}

rc_source_item *rc_db_item_new(rc_db_source *d, const char *file)
{
    rc_batch *b = rc_db_batch(&d->batches);
    rc_source_item *it = &b->lines[b->n++];
    memset(it, 0, sizeof *it);
    it->file = file;
    it->off = b->len;
    it->ev_first = b->events.count;
    rc_error_clear(&it->err);
    return it;
}

void rc_db_item_end(rc_db_source *d, rc_source_item *it, rc_pos end)
{
    it->ev_count = rc_db_batch(&d->batches)->events.count - it->ev_first;
    it->end = end;
    d->last_pos = end;
    d->acked_all = false;
}

void rc_db_item_order(rc_db_source *d, rc_source_item *it, char src, char kind, uint64_t a, uint64_t b)
{
    rc_item_order *o = &d->ord;
    const rc_event_list *evs = &rc_db_batch(&d->batches)->events;
    /* a BEGIN starts the numbering again: a stream restarted inside a transaction sends it again
     * from its BEGIN, at the same place */
    bool begin = it->ev_count && evs->items[it->ev_first].op == RC_OP_BEGIN;
    if (begin || o->src != src || o->kind != kind || o->a != a || o->b != b)
        *o = (rc_item_order){.a = a, .b = b, .src = src, .kind = kind};
    it->order = *o;
    o->num += it->ev_count;
}

bool rc_db_item_none(rc_batch *b, rc_source_item *it, size_t n)
{
    if (b->events.count == it->ev_first) {
        b->n--;
        return true;
    }
    it->raw = n;
    return false;
}

bool rc_db_item_bad(rc_batch *b, rc_source_item *it, const rc_error *err, size_t need)
{
    b->events.count = it->ev_first;
    it->st = err->code ? err->code : RC_ERR_SYNTAX;
    it->err = *err;
    if (b->len + need > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->len + need) cap *= 2;
        char *t = realloc(b->text, cap);
        if (!t) return false;
        b->text = t, b->cap = cap;
    }
    return true;
}

void rc_db_item_hex(rc_batch *b, const uint8_t *msg, size_t len)
{
    for (size_t i = 0; i < len; i++) b->len += (size_t)snprintf(b->text + b->len, 3, "%02x", msg[i]);
}

void rc_db_item_line_end(rc_batch *b, rc_source_item *it)
{
    b->text[b->len++] = '\n';
    it->raw = b->len - it->off;
    it->n = it->raw - 1;
}

void rc_db_source_release(rc_source *src, rc_batch *b)
{
    (void)src, (void)b;
}

void rc_db_source_progress(const rc_source *src, uint64_t *size, uint64_t *start)
{
    (void)src;
    *size = 0, *start = 0;
}

void rc_db_snapshot_stats(rc_source_stats *out, const rc_db_source *d, size_t tables, size_t tables_done, uint64_t estimate)
{
    out->in_snapshot = d->ph == PH_SNAPSHOT || d->ph == PH_SNAPSHOT_ACK;
    out->snapshot_tables_total = tables;
    out->snapshot_tables_done = tables_done;
    out->snapshot_rows_read = d->snap_rows;
    out->snapshot_rows_estimate = estimate;
}
