/* The incremental snapshot core: the table queue, the chunk buffer, the window state machine,
 * the keyless multiset and the memory bound (incsnap.h; docs/design/incremental-snapshots.md
 * §1.1). Database-agnostic: the source's ops write and recognise watermarks and read chunks. */
#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "sources/incsnap.h"

/* Images with a payload (the raw row, for the buffer) and a number (buffer: 1 alive, 0
 * removed; multiset: the count), in insertion order (the buffer's key order), with an
 * open-addressing index from image to entry. Equal images may repeat (a keyless chunk). An
 * entry added without its image (rc_incsnap_add_raw) is not in the index until it gets one
 * (imgtab_set_img). */
typedef struct imgent {
    size_t off, raw_off; /* the image's bytes, the payload's */
    uint32_t imgn, rawn;
    uint64_t hash;
    int64_t val;
    bool imaged;
} imgent;

typedef struct imgtab {
    imgent *e;
    size_t n, cap, nplaced;
    uint32_t *slot; /* entry index + 1, 0 empty */
    size_t nslot;
    rc_buf bytes;
} imgtab;

static void imgtab_reset(imgtab *t)
{
    t->n = t->nplaced = 0;
    if (t->slot) memset(t->slot, 0, t->nslot * sizeof *t->slot);
    rc_buf_reset(&t->bytes);
}

static void imgtab_fini(imgtab *t)
{
    free(t->e);
    free(t->slot);
    rc_buf_fini(&t->bytes);
}

static void imgtab_place(imgtab *t, size_t i)
{
    size_t mask = t->nslot - 1, h = (size_t)t->e[i].hash & mask;
    while (t->slot[h]) h = (h + 1) & mask;
    t->slot[h] = (uint32_t)(i + 1);
    t->nplaced++;
}

/* Room in the index for one more placed entry. */
static rc_status imgtab_room(imgtab *t)
{
    if ((t->nplaced + 1) * 2 <= t->nslot) return RC_OK;
    size_t nslot = t->nslot ? t->nslot * 2 : 128;
    uint32_t *slot = calloc(nslot, sizeof *slot);
    if (!slot) return RC_ERR_NOMEM;
    free(t->slot);
    t->slot = slot, t->nslot = nslot, t->nplaced = 0;
    for (size_t i = 0; i < t->n; i++)
        if (t->e[i].imaged) imgtab_place(t, i);
    return RC_OK;
}

static const char *imgtab_img(const imgtab *t, size_t i)
{
    return t->bytes.data + t->e[i].off;
}

/* The first entry with this image (and a positive number when `positive`), or -1. */
static long imgtab_find(const imgtab *t, const char *img, size_t n, uint64_t hash, bool positive)
{
    if (!t->nslot) return -1;
    size_t mask = t->nslot - 1;
    for (size_t h = (size_t)hash & mask; t->slot[h]; h = (h + 1) & mask) {
        size_t i = t->slot[h] - 1;
        const imgent *e = &t->e[i];
        if (e->hash == hash && e->imgn == n && (!positive || e->val > 0) &&
            !memcmp(imgtab_img(t, i), img, n))
            return (long)i;
    }
    return -1;
}

/* Adds an entry; img NULL: without its image, not in the index (imgtab_set_img gives it). */
static rc_status imgtab_add(imgtab *t, const char *img, size_t n, uint64_t hash, const void *raw,
                            size_t rawn, int64_t val)
{
    if (n > UINT32_MAX || rawn > UINT32_MAX || t->n >= UINT32_MAX - 1) return RC_ERR_LIMIT;
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 64;
        imgent *e = realloc(t->e, cap * sizeof *e);
        if (!e) return RC_ERR_NOMEM;
        t->e = e, t->cap = cap;
    }
    if (img && imgtab_room(t) != RC_OK) return RC_ERR_NOMEM;
    size_t off = t->bytes.len;
    if (img) rc_buf_put(&t->bytes, img, n);
    rc_buf_put(&t->bytes, raw, rawn);
    if (t->bytes.err != RC_OK) return t->bytes.err;
    t->e[t->n] = (imgent){off, off + (img ? n : 0), img ? (uint32_t)n : 0, (uint32_t)rawn, hash, val, img != NULL};
    if (img) imgtab_place(t, t->n);
    t->n++;
    return RC_OK;
}

/* Entry i, added without its image, gets img (copied) and goes into the index. */
static rc_status imgtab_set_img(imgtab *t, size_t i, const char *img, size_t n, uint64_t hash)
{
    if (n > UINT32_MAX || imgtab_room(t) != RC_OK) return RC_ERR_NOMEM;
    size_t off = t->bytes.len;
    rc_buf_put(&t->bytes, img, n);
    if (t->bytes.err != RC_OK) return t->bytes.err;
    imgent *e = &t->e[i];
    e->off = off, e->imgn = (uint32_t)n, e->hash = hash, e->imaged = true;
    imgtab_place(t, i);
    return RC_OK;
}

struct rc_incsnap {
    rc_incsnap_ops ops;
    void *ctx;
    rc_incsnap_limits lim;
    rc_incsnap_table **t;
    size_t nt, capt;
    bool paused;
    rc_incsnap_phase phase;
    uint64_t chunk_no, cur_chunk; /* cur_chunk: the chunk in flight, 0 none */
    imgtab buf;                   /* the chunk's rows */
    size_t unimaged;              /* of them, added without their key image (rc_incsnap_add_raw) */
    bool ordered;                 /* rc_incsnap_set_ordered */
    bool truncated, cursor_set, last_chunk;
    bool reading;       /* READ: the source reads the chunk on, rc_incsnap_read_end ends it */
    rc_buf next_cursor; /* applied at emit */
    imgtab delivered;   /* keyless: images the stream delivered (counts) */
    bool counting;      /* delivered counts since the table's first window */
    rc_buf img;         /* scratch image */
    rc_buf row_img;     /* scratch image of a buffered row (give_image) */
    rc_incsnap_ext ext; /* incsnap_resume.c's records */
};

rc_incsnap *rc_incsnap_new(const rc_incsnap_ops *ops, void *ctx, const rc_incsnap_limits *limits)
{
    rc_incsnap *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->ops = *ops;
    s->ctx = ctx;
    if (limits) s->lim = *limits;
    if (!s->lim.chunk_rows) s->lim.chunk_rows = RC_INCSNAP_CHUNK_ROWS;
    if (!s->lim.chunk_bytes) s->lim.chunk_bytes = RC_INCSNAP_CHUNK_BYTES;
    if (!s->lim.keyless_bytes) s->lim.keyless_bytes = RC_INCSNAP_KEYLESS_BYTES;
    rc_buf_init(&s->buf.bytes, 0);
    rc_buf_init(&s->delivered.bytes, 0);
    rc_buf_init(&s->next_cursor, 0);
    rc_buf_init(&s->img, 0);
    rc_buf_init(&s->row_img, 0);
    return s;
}

static void table_free(rc_incsnap_table *t)
{
    if (!t) return;
    free(t->name);
    free(t->signal);
    free(t->filter);
    rc_buf_fini(&t->cursor);
    rc_buf_fini(&t->handed);
    free(t);
}

void rc_incsnap_free(rc_incsnap *s)
{
    if (!s) return;
    for (size_t i = 0; i < s->nt; i++) table_free(s->t[i]);
    free(s->t);
    imgtab_fini(&s->buf);
    imgtab_fini(&s->delivered);
    rc_buf_fini(&s->next_cursor);
    rc_buf_fini(&s->img);
    rc_buf_fini(&s->row_img);
    if (s->ext.fini) s->ext.fini(s->ext.p);
    free(s);
}

static bool active(const rc_incsnap_table *t)
{
    return t->state == RC_INCSNAP_QUEUED || t->state == RC_INCSNAP_RUNNING;
}

/* The table being snapshotted: the running one, else the first queued; NULL when none. */
static rc_incsnap_table *current(const rc_incsnap *s)
{
    for (size_t i = 0; i < s->nt; i++)
        if (s->t[i]->state == RC_INCSNAP_RUNNING) return s->t[i];
    for (size_t i = 0; i < s->nt; i++)
        if (s->t[i]->state == RC_INCSNAP_QUEUED) return s->t[i];
    return NULL;
}

static rc_incsnap_table *running(const rc_incsnap *s, const char *name)
{
    rc_incsnap_table *t = current(s);
    return t && t->state == RC_INCSNAP_RUNNING && !strcmp(t->name, name) ? t : NULL;
}

static char *dup_or_null(const char *p, bool *oom)
{
    if (!p) return NULL;
    size_t n = strlen(p) + 1;
    char *d = malloc(n);
    if (!d) *oom = true;
    return d ? memcpy(d, p, n) : NULL;
}

rc_status rc_incsnap_queue(rc_incsnap *s, const char *name, rc_incsnap_by by, const char *signal,
                           const char *filter, rc_error *err)
{
    size_t at = s->nt;
    for (size_t i = 0; i < s->nt; i++) {
        if (strcmp(s->t[i]->name, name)) continue;
        if (active(s->t[i]))
            return rc_error_set(err, RC_SKIP, RC_NO_OFFSET,
                                "%s: already being snapshotted (chunk %llu)%s%s%s", name,
                                (unsigned long long)s->t[i]->chunks, signal ? "; signal " : "",
                                signal ? signal : "", signal ? " ignored for it" : "");
        at = i;
    }
    bool oom = false;
    rc_incsnap_table *t = calloc(1, sizeof *t);
    if (!t) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    t->name = dup_or_null(name, &oom);
    t->signal = dup_or_null(signal, &oom);
    t->filter = dup_or_null(filter, &oom);
    t->by = by;
    t->state = RC_INCSNAP_QUEUED;
    rc_buf_init(&t->cursor, 0);
    rc_buf_init(&t->handed, 0);
    if (!oom && at == s->nt && s->nt == s->capt) {
        size_t cap = s->capt ? s->capt * 2 : 8;
        rc_incsnap_table **a = realloc(s->t, cap * sizeof *a);
        if (a) s->t = a, s->capt = cap;
        oom = !a;
    }
    if (oom) {
        table_free(t);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    if (at < s->nt) { /* done or stopped before: queued again at the end, from its first row */
        table_free(s->t[at]);
        memmove(&s->t[at], &s->t[at + 1], (s->nt - at - 1) * sizeof *s->t);
        s->nt--;
    }
    s->t[s->nt++] = t;
    return RC_OK;
}

rc_status rc_incsnap_estimate(rc_incsnap *s, const char *name, uint64_t rows, size_t avg_width)
{
    for (size_t i = 0; i < s->nt; i++) {
        rc_incsnap_table *t = s->t[i];
        if (!active(t) || strcmp(t->name, name)) continue;
        t->estimate = rows;
        if (avg_width) t->avg_width = avg_width;
        return RC_OK;
    }
    return RC_SKIP;
}

/* Drops the chunk in flight: back to IDLE, its watermarks no longer recognised. */
static void discard_chunk(rc_incsnap *s)
{
    imgtab_reset(&s->buf);
    s->unimaged = 0;
    s->phase = RC_INCSNAP_IDLE;
    s->cur_chunk = 0;
    s->reading = false;
}

/* A table leaves the running state (done or stopped): the keyless multiset ends with it. */
static void finish_table(rc_incsnap *s, rc_incsnap_table *t, rc_incsnap_tstate state)
{
    t->state = state;
    imgtab_reset(&s->delivered);
    s->counting = false;
}

static rc_status edge(rc_incsnap *s, rc_incsnap_table *t, rc_incsnap_edge e, rc_error *err)
{
    if (e == RC_INCSNAP_EDGE_START) t->start_edge = true;
    return s->ops.emit_edge ? s->ops.emit_edge(s->ctx, t, e, err) : RC_OK;
}

/* Stops a running table: chunk discarded, start edge if not yet, stopped edge. */
static rc_status stop_running(rc_incsnap *s, rc_incsnap_table *t, rc_error *err)
{
    discard_chunk(s);
    finish_table(s, t, RC_INCSNAP_STOPPED);
    rc_status rc = t->start_edge ? RC_OK : edge(s, t, RC_INCSNAP_EDGE_START, err);
    return rc == RC_OK ? edge(s, t, RC_INCSNAP_EDGE_STOPPED, err) : rc;
}

rc_status rc_incsnap_stop(rc_incsnap *s, const char *name, rc_error *err)
{
    bool any = false;
    rc_status rc = RC_OK;
    for (size_t i = 0; i < s->nt; i++) {
        rc_incsnap_table *t = s->t[i];
        if (!active(t) || (name && strcmp(t->name, name))) continue;
        any = true;
        if (t->state == RC_INCSNAP_QUEUED)
            t->state = RC_INCSNAP_STOPPED;
        else if (stop_running(s, t, err) != RC_OK && rc == RC_OK)
            rc = err ? err->code : RC_ERR_IO;
    }
    if (!any && rc == RC_OK)
        return rc_error_set(err, RC_SKIP, RC_NO_OFFSET, "%s%sno snapshot to stop", name ? name : "",
                            name ? ": " : "");
    return rc;
}

void rc_incsnap_pause(rc_incsnap *s, bool paused)
{
    s->paused = paused;
}
bool rc_incsnap_paused(const rc_incsnap *s)
{
    return s->paused;
}

bool rc_incsnap_working(const rc_incsnap *s)
{
    if (s->paused) return false;
    for (size_t i = 0; i < rc_incsnap_ntables(s); i++) {
        rc_incsnap_tstate st = rc_incsnap_table_at(s, i)->state;
        if (st == RC_INCSNAP_QUEUED || st == RC_INCSNAP_RUNNING) return true;
    }
    return false;
}

/* The next chunk's row limit: the configured rows, fewer when the bytes per row (estimated,
 * then measured) say the chunk would pass chunk_bytes; half the last one after a chunk that
 * stopped at twice the cap. */
static size_t next_limit(const rc_incsnap *s, const rc_incsnap_table *t)
{
    size_t limit = s->lim.chunk_rows;
    if (t->avg_width) {
        size_t by_bytes = s->lim.chunk_bytes / t->avg_width;
        if (by_bytes < limit) limit = by_bytes;
    }
    if (s->truncated && t->limit / 2 < limit) limit = t->limit / 2;
    return limit ? limit : 1;
}

static rc_status failed_read(rc_incsnap *s, rc_incsnap_table *t, rc_status rc, rc_error *err)
{
    if (rc == RC_ERR_RETRY ||
        rc == RC_ERR_NOMEM) { /* the table is not at fault: read again later */
        discard_chunk(s);
        return rc;
    }
    stop_running(s, t, NULL); /* err keeps the read's message */
    return rc;
}

static rc_status read_done(rc_incsnap *s, rc_incsnap_table *t, rc_status rc, rc_error *err);

/* Buffered row i's key image, when it was added without one (ops->row_key makes it). */
static rc_status give_image(rc_incsnap *s, const rc_incsnap_table *t, size_t i, rc_error *err)
{
    imgent *e = &s->buf.e[i];
    if (e->imaged) return RC_OK;
    rc_buf *img = &s->row_img;
    rc_buf_reset(img);
    rc_status rc = s->ops.row_key(s->ctx, t, s->buf.bytes.data + e->raw_off, e->rawn, img, err);
    if (rc != RC_OK) return rc;
    if (img->err == RC_OK)
        rc = imgtab_set_img(&s->buf, i, img->data, img->len, rc_hash64(img->data, img->len, 0));
    if (img->err != RC_OK || rc != RC_OK)
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "key image: out of memory");
    s->unimaged--;
    return RC_OK;
}

/* Every buffered row's key image, before a streamed change looks its key up. */
static rc_status give_images(rc_incsnap *s, const rc_incsnap_table *t, rc_error *err)
{
    for (size_t i = 0; i < s->buf.n && s->unimaged; i++) {
        rc_status rc = give_image(s, t, i, err);
        if (rc != RC_OK) return rc;
    }
    return RC_OK;
}

rc_status rc_incsnap_step(rc_incsnap *s, bool caught_up, rc_error *err)
{
    rc_incsnap_table *t = current(s);
    if (s->phase != RC_INCSNAP_IDLE || s->paused || !caught_up || !t) return RC_SKIP;
    t->state = RC_INCSNAP_RUNNING;
    t->limit = next_limit(s, t);
    imgtab_reset(&s->buf);
    s->unimaged = 0;
    s->ordered = false;
    rc_buf_reset(&s->next_cursor);
    s->truncated = s->cursor_set = s->last_chunk = false;
    s->cur_chunk = ++s->chunk_no;
    s->phase = RC_INCSNAP_READ;
    s->reading = false;
    rc_status rc = s->ops.write_watermark(s->ctx, t, s->cur_chunk, RC_INCSNAP_LOW, err);
    if (rc == RC_OK) rc = s->ops.read_chunk(s->ctx, s, t, t->limit, err);
    if (rc == RC_OK && s->reading) return RC_OK; /* the source ends it: rc_incsnap_read_end */
    return read_done(s, t, rc, err);
}

void rc_incsnap_read_later(rc_incsnap *s)
{
    if (s->phase == RC_INCSNAP_READ) s->reading = true;
}

bool rc_incsnap_reading(const rc_incsnap *s)
{
    return s->reading;
}

rc_status rc_incsnap_read_end(rc_incsnap *s, rc_status rc, rc_error *err)
{
    rc_incsnap_table *t = current(s);
    if (!s->reading || s->phase != RC_INCSNAP_READ || !t) return RC_SKIP;
    s->reading = false;
    return read_done(s, t, rc, err);
}

/* The chunk's rows are in the buffer (rc: the read's status): HW written, the counts and the
 * next cursor. */
static rc_status read_done(rc_incsnap *s, rc_incsnap_table *t, rc_status rc, rc_error *err)
{
    if (rc == RC_OK) rc = s->ops.write_watermark(s->ctx, t, s->cur_chunk, RC_INCSNAP_HIGH, err);
    if (rc != RC_OK) return failed_read(s, t, rc, err);
    size_t rows = s->buf.n;
    t->rows_read += rows;
    t->chunks++;
    if (rows) t->avg_width = s->buf.bytes.len / rows + 1;
    if (!s->cursor_set) {
        s->last_chunk = !s->truncated && rows < t->limit;
        if (rows && (rc = give_image(s, t, rows - 1, err)) != RC_OK) return failed_read(s, t, rc, err);
        if (rows)
            rc_buf_put(&s->next_cursor, imgtab_img(&s->buf, rows - 1), s->buf.e[rows - 1].imgn);
        else
            rc_buf_put(&s->next_cursor, t->cursor.data, t->cursor.len);
    }
    if (s->next_cursor.err != RC_OK) return failed_read(s, t, RC_ERR_NOMEM, err);
    return RC_OK;
}

rc_status rc_incsnap_add_row(rc_incsnap *s, const rc_value *key, size_t nkey, const void *raw,
                             size_t rawn, rc_error *err)
{
    if (s->phase != RC_INCSNAP_READ)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "incremental snapshot: a row outside a chunk read");
    rc_buf_reset(&s->img);
    rc_status rc = rc_incsnap_key_image(&s->img, key, nkey, err);
    if (rc != RC_OK) return rc;
    if (s->img.err != RC_OK)
        return rc_error_set(err, s->img.err, RC_NO_OFFSET, "key image: out of memory");
    uint64_t h = rc_hash64(s->img.data, s->img.len, 0);
    rc = imgtab_add(&s->buf, s->img.data, s->img.len, h, raw, rawn, 1);
    if (rc != RC_OK)
        return rc_error_set(err, rc, RC_NO_OFFSET, "incremental snapshot buffer: out of memory");
    if (s->buf.bytes.len > 2 * s->lim.chunk_bytes) {
        s->truncated = true;
        return RC_ERR_LIMIT;
    }
    return RC_OK;
}

rc_status rc_incsnap_add_raw(rc_incsnap *s, const void *raw, size_t rawn, rc_error *err)
{
    if (s->phase != RC_INCSNAP_READ || !s->ops.row_key)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "incremental snapshot: a row outside a chunk read, or no row_key op");
    rc_status rc = imgtab_add(&s->buf, NULL, 0, 0, raw, rawn, 1);
    if (rc != RC_OK)
        return rc_error_set(err, rc, RC_NO_OFFSET, "incremental snapshot buffer: out of memory");
    s->unimaged++;
    if (s->buf.bytes.len > 2 * s->lim.chunk_bytes) {
        s->truncated = true;
        return RC_ERR_LIMIT;
    }
    return RC_OK;
}

void rc_incsnap_set_ordered(rc_incsnap *s, bool ordered)
{
    s->ordered = ordered;
}

rc_status rc_incsnap_set_cursor(rc_incsnap *s, const void *cursor, size_t n, bool last_chunk)
{
    rc_buf_reset(&s->next_cursor);
    rc_buf_put(&s->next_cursor, cursor, n);
    s->cursor_set = true;
    s->last_chunk = last_chunk;
    return s->next_cursor.err;
}

rc_status rc_incsnap_on_message(rc_incsnap *s, const void *msg, size_t n, rc_error *err)
{
    uint64_t chunk = 0;
    rc_incsnap_mark m =
        s->ops.recognise ? s->ops.recognise(s->ctx, msg, n, &chunk) : RC_INCSNAP_NOT_MARK;
    return m != RC_INCSNAP_NOT_MARK ? rc_incsnap_on_mark(s, m, chunk, err) : RC_OK;
}

rc_status rc_incsnap_on_mark(rc_incsnap *s, rc_incsnap_mark mark, uint64_t chunk, rc_error *err)
{
    rc_incsnap_table *t = current(s);
    if (!chunk || chunk != s->cur_chunk || !t) return RC_OK;
    if (mark == RC_INCSNAP_LOW && s->phase == RC_INCSNAP_READ) {
        s->phase = RC_INCSNAP_OPEN;
        s->counting = true; /* a keyless table's multiset counts from its first window */
        return t->start_edge ? RC_OK : edge(s, t, RC_INCSNAP_EDGE_START, err);
    }
    if (mark == RC_INCSNAP_HIGH && s->phase == RC_INCSNAP_OPEN)
        s->phase = RC_INCSNAP_EMIT;
    else if (mark == RC_INCSNAP_HIGH && s->phase == RC_INCSNAP_READ)
        rc_incsnap_reread(s); /* HW without its LW: the window is unknown, read it again */
    return RC_OK;
}

/* Removes buffered rows with this image: every one (a key), or one (a keyless row image). */
static uint64_t buffer_remove(rc_incsnap *s, const char *img, size_t n, uint64_t h, bool one)
{
    uint64_t removed = 0;
    for (long i; (i = imgtab_find(&s->buf, img, n, h, true)) >= 0;) {
        s->buf.e[i].val = 0;
        removed++;
        if (one) break;
    }
    return removed;
}

/* A keyless table's streamed image: +1 (new) or -1 (old, floor 0). */
static rc_status delivered_add(rc_incsnap *s, const char *img, size_t n, uint64_t h, int64_t d)
{
    long i = imgtab_find(&s->delivered, img, n, h, false);
    if (i >= 0) {
        s->delivered.e[i].val += d;
        if (s->delivered.e[i].val < 0) s->delivered.e[i].val = 0;
        return RC_OK;
    }
    if (d < 0) return RC_OK;
    rc_status rc = imgtab_add(&s->delivered, img, n, h, NULL, 0, d);
    if (rc != RC_OK) return rc;
    return s->delivered.bytes.len + s->delivered.n * sizeof(imgent) > s->lim.keyless_bytes
               ? RC_ERR_LIMIT
               : RC_OK;
}

/* A streamed key image that no row of the open chunk can have: the chunk's images order as its
 * rows (rc_incsnap_set_ordered) and the key is at or before the table's cursor (the previous
 * chunk's last key) or after this chunk's last key. */
static bool outside_chunk(const rc_incsnap *s, const rc_incsnap_table *t, const char *img, size_t n)
{
    if (!s->ordered || s->cursor_set) return false;
    int c = rc_incsnap_key_order(img, n, t->cursor.data, t->cursor.len);
    if (c == -1 || c == 0) return true;
    return rc_incsnap_key_order(img, n, s->next_cursor.data, s->next_cursor.len) == 1;
}

/* One side (before: old, after: new) of a streamed change of the running table. */
static rc_status change_side(rc_incsnap *s, rc_incsnap_table *t, const rc_value *v, size_t n,
                             bool old, rc_error *err)
{
    rc_buf_reset(&s->img);
    bool keyless = t->by == RC_INCSNAP_BY_CTID;
    rc_status rc = rc_incsnap_key_image(&s->img, v, n, err);
    if (rc == RC_ERR_VALUE && !keyless) { /* a key value not sent (unchanged TOAST): which row changed is unknown */
        if (s->phase == RC_INCSNAP_OPEN) rc_incsnap_reread(s);
        if (err) rc_error_clear(err);
        return RC_OK;
    }
    if (rc != RC_OK) return rc;
    if (s->img.err != RC_OK)
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "key image: out of memory");
    uint64_t h = rc_hash64(s->img.data, s->img.len, 0);
    bool open = s->phase == RC_INCSNAP_OPEN && (keyless || !outside_chunk(s, t, s->img.data, s->img.len));
    if (open && (rc = give_images(s, t, err)) != RC_OK) return rc;
    if (open && (!keyless || old))
        t->rows_dropped += buffer_remove(s, s->img.data, s->img.len, h, keyless);
    if (!keyless || !s->counting) return RC_OK;
    rc = delivered_add(s, s->img.data, s->img.len, h, old ? -1 : 1);
    if (rc == RC_ERR_LIMIT) {
        size_t cap = s->lim.keyless_bytes;
        bool mib = !(cap & ((1u << 20) - 1));
        rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET,
                     "%s: more than %zu %s of changes to a table without a key during its "
                     "snapshot; add a key or "
                     "raise -o snapshot.keyless.bytes",
                     t->name, mib ? cap >> 20 : cap, mib ? "MiB" : "bytes");
        stop_running(s, t, NULL); /* err keeps the message above */
    } else if (rc != RC_OK) {
        rc = rc_error_set(err, rc, RC_NO_OFFSET, "incremental snapshot multiset: out of memory");
    }
    return rc;
}

rc_status rc_incsnap_on_change(rc_incsnap *s, const char *name, const rc_value *before,
                               const rc_value *after, size_t n, rc_error *err)
{
    rc_incsnap_table *t = running(s, name);
    if (!t) return RC_OK;
    rc_status rc = before ? change_side(s, t, before, n, true, err) : RC_OK;
    if (rc == RC_OK && after && t->state == RC_INCSNAP_RUNNING)
        rc = change_side(s, t, after, n, false, err);
    return rc;
}

void rc_incsnap_on_truncate(rc_incsnap *s, const char *name)
{
    rc_incsnap_table *t = running(s, name);
    if (!t) return;
    if (s->phase == RC_INCSNAP_OPEN)
        for (size_t i = 0; i < s->buf.n; i++)
            if (s->buf.e[i].val > 0) s->buf.e[i].val = 0, t->rows_dropped++;
    imgtab_reset(&s->delivered); /* the rows it counted are gone */
}

void rc_incsnap_reread(rc_incsnap *s)
{
    rc_incsnap_table *t = current(s);
    if (s->phase == RC_INCSNAP_IDLE || !t) return;
    t->rereads++;
    discard_chunk(s);
}

/* A keyless buffered row the stream delivered already (count > 0): dropped, count - 1. */
static bool delivered_take(rc_incsnap *s, size_t i)
{
    const imgent *e = &s->buf.e[i];
    long d = imgtab_find(&s->delivered, imgtab_img(&s->buf, i), e->imgn, e->hash, true);
    if (d < 0) return false;
    s->delivered.e[d].val--;
    return true;
}

rc_status rc_incsnap_emit(rc_incsnap *s, rc_error *err)
{
    rc_incsnap_table *t = current(s);
    if (s->phase != RC_INCSNAP_EMIT || !t) return RC_SKIP;
    rc_status rc = t->start_edge ? RC_OK : edge(s, t, RC_INCSNAP_EDGE_START, err);
    bool keyless = t->by == RC_INCSNAP_BY_CTID;
    for (size_t i = 0; i < s->buf.n && rc == RC_OK; i++) {
        const imgent *e = &s->buf.e[i];
        if (e->val <= 0) continue;
        if (keyless && delivered_take(s, i)) {
            t->rows_dropped++;
            continue;
        }
        rc = s->ops.emit_row(s->ctx, t, s->buf.bytes.data + e->raw_off, e->rawn, err);
        t->rows_emitted += rc == RC_OK;
    }
    if (rc == RC_OK) { /* else the chunk is read again: its rows after the failure are not out */
        rc_buf_reset(&t->cursor);
        rc_buf_put(&t->cursor, s->next_cursor.data, s->next_cursor.len);
    }
    bool last = s->last_chunk;
    discard_chunk(s);
    if (rc == RC_OK && t->cursor.err != RC_OK)
        rc = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (rc != RC_OK || !last) return rc;
    finish_table(s, t, RC_INCSNAP_DONE);
    return edge(s, t, RC_INCSNAP_EDGE_END, err);
}

rc_incsnap_table *rc_incsnap_table_named(rc_incsnap *s, const char *name)
{
    for (size_t i = 0; i < s->nt; i++)
        if (!strcmp(s->t[i]->name, name)) return s->t[i];
    return NULL;
}

rc_incsnap_ext *rc_incsnap_ext_of(rc_incsnap *s)
{
    return &s->ext;
}

rc_incsnap_phase rc_incsnap_phase_of(const rc_incsnap *s)
{
    return s->phase;
}
size_t rc_incsnap_ntables(const rc_incsnap *s)
{
    return s->nt;
}
const rc_incsnap_table *rc_incsnap_table_at(const rc_incsnap *s, size_t i)
{
    return i < s->nt ? s->t[i] : NULL;
}

size_t rc_incsnap_buffered(const rc_incsnap *s, size_t *bytes)
{
    size_t n = 0;
    for (size_t i = 0; i < s->buf.n; i++) n += s->buf.e[i].val > 0;
    if (bytes) *bytes = s->buf.bytes.len;
    return n;
}
