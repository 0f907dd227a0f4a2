/* Resuming incremental snapshots (incsnap.h, "Resuming after a restart"): the state as of each
 * position the source handed, the export as of the sink's acknowledged position, the import at
 * open. A state is kept as its text (incsnap_state.h), so an export is what a restart reads. */
#include <stdlib.h>
#include <string.h>
#include "sources/incsnap.h"
#include "sources/incsnap_state.h"

typedef struct record {
    char *pos, *text; /* one block: pos bytes, then the text */
    size_t posn, textn;
} record;

typedef struct resume_recs {
    record *r; /* oldest first */
    size_t nr, capr;
    rc_buf base;     /* the state as of the newest acknowledged record (or the import) */
    rc_buf exported; /* the previous export's text */
    rc_buf text;     /* scratch */
} resume_recs;

static void recs_free(void *p)
{
    resume_recs *rs = p;
    if (!rs) return;
    for (size_t i = 0; i < rs->nr; i++) free(rs->r[i].pos);
    free(rs->r);
    rc_buf_fini(&rs->base);
    rc_buf_fini(&rs->exported);
    rc_buf_fini(&rs->text);
    free(rs);
}

static rc_status oom(rc_error *err)
{
    return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "snapshot state: out of memory");
}

/* A table that has not started (or was queued anew): no progress to resume. */
static bool fresh(const rc_incsnap_table *t)
{
    return t->state == RC_INCSNAP_QUEUED && !t->chunks && !t->start_edge;
}

/* The image of the text values (the handed last key, an imported cursor). */
static rc_status keys_image(rc_buf *out, const rc_isstate_key *k, size_t n, rc_error *err)
{
    rc_value v[64];
    if (n > sizeof v / sizeof *v)
        return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET, "snapshot state: more than 64 key columns");
    for (size_t i = 0; i < n; i++) v[i] = (rc_value){.kind = k[i].bytes ? RC_V_BYTES : RC_V_TEXT, .s = {k[i].p, k[i].n}};
    rc_buf_reset(out);
    rc_status rc = rc_incsnap_key_image(out, v, n, err);
    return rc == RC_OK && out->err != RC_OK ? oom(err) : rc;
}

/* One table's line of the state as of now (strings point into the core, keys into the arena). */
static rc_status table_state(rc_isstate *st, const rc_incsnap_table *t, rc_isstate_table *o, rc_error *err)
{
    *o = (rc_isstate_table){.name = t->name, .by = t->by, .signal = t->signal, .filter = t->filter,
                            .estimate = t->estimate, .queued = fresh(t)};
    if (o->queued) return RC_OK;
    o->rows = t->handed_rows;
    o->chunks = t->handed_chunks;
    if (!t->handed.len) return RC_OK;
    rc_value v[64];
    size_t n = 0;
    rc_status rc = rc_incsnap_key_decode(t->handed.data, t->handed.len, v, 64, &n, err);
    if (rc != RC_OK) return rc;
    o->has_last = true;
    if (n == 1 && v[0].kind == RC_V_UINT) {
        o->last_is_page = true, o->last_page = v[0].u;
        return RC_OK;
    }
    o->last = rc_arena_alloc(&st->arena, (n ? n : 1) * sizeof *o->last);
    if (!o->last) return oom(err);
    for (size_t i = 0; i < n; i++) o->last[i] = (rc_isstate_key){v[i].s.p, v[i].s.n, v[i].kind == RC_V_BYTES};
    o->nlast = n;
    return RC_OK;
}

/* The state text as of now into out: active tables (done and stopped ones are over), paused. */
static rc_status state_now(rc_incsnap *s, rc_buf *out, rc_error *err)
{
    rc_isstate st;
    rc_isstate_init(&st);
    size_t nt = rc_incsnap_ntables(s);
    st.paused = rc_incsnap_paused(s);
    st.t = rc_arena_alloc(&st.arena, (nt ? nt : 1) * sizeof *st.t);
    rc_status rc = st.t ? RC_OK : oom(err);
    for (size_t i = 0; i < nt && rc == RC_OK; i++) {
        const rc_incsnap_table *t = rc_incsnap_table_at(s, i);
        if (t->state == RC_INCSNAP_DONE || t->state == RC_INCSNAP_STOPPED) continue;
        rc = table_state(&st, t, &st.t[st.nt++], err);
    }
    rc_buf_reset(out);
    if (rc == RC_OK) rc = rc_isstate_write(&st, out, err);
    rc_isstate_fini(&st);
    return rc;
}

static bool same(const rc_buf *a, const char *p, size_t n)
{
    return a->len == n && !memcmp(a->data, p, n);
}

static void set(rc_buf *b, const char *p, size_t n)
{
    rc_buf_reset(b);
    rc_buf_put(b, p, n);
}

/* The records, made at first use; until the first acknowledged one, the state is empty (a
 * table queued before then is only in the records that follow). */
static resume_recs *resume(rc_incsnap *s, rc_error *err)
{
    rc_incsnap_ext *ext = rc_incsnap_ext_of(s);
    if (ext->p) return ext->p;
    resume_recs *rs = calloc(1, sizeof *rs);
    if (!rs) return oom(err), NULL;
    rc_buf_init(&rs->base, 0), rc_buf_init(&rs->exported, 0), rc_buf_init(&rs->text, 0);
    rc_isstate none; /* nothing acknowledged yet: no table, not paused */
    rc_isstate_init(&none);
    rc_status rc = rc_isstate_write(&none, &rs->base, err);
    rc_isstate_fini(&none);
    set(&rs->exported, rs->base.data, rs->base.len);
    if (rc == RC_OK && rs->exported.err != RC_OK) rc = oom(err);
    if (rc != RC_OK) {
        recs_free(rs);
        return NULL;
    }
    ext->fini = recs_free;
    return ext->p = rs;
}

rc_status rc_incsnap_at(rc_incsnap *s, const void *pos, size_t posn, rc_error *err)
{
    resume_recs *rs = resume(s, err);
    if (!rs) return err ? err->code : RC_ERR_NOMEM;
    rc_status rc = state_now(s, &rs->text, err);
    if (rc != RC_OK) return rc;
    const rc_buf *prev = &rs->base;
    if (rs->nr && same(&rs->text, rs->r[rs->nr - 1].text, rs->r[rs->nr - 1].textn)) return RC_OK;
    if (!rs->nr && same(prev, rs->text.data, rs->text.len)) return RC_OK;
    if (rs->nr == rs->capr) {
        size_t cap = rs->capr ? 2 * rs->capr : 16;
        record *r = realloc(rs->r, cap * sizeof *r);
        if (!r) return oom(err);
        rs->r = r, rs->capr = cap;
    }
    char *block = malloc(posn + rs->text.len + 1);
    if (!block) return oom(err);
    memcpy(block, pos, posn);
    memcpy(block + posn, rs->text.data, rs->text.len);
    rs->r[rs->nr++] = (record){block, block + posn, posn, rs->text.len};
    return RC_OK;
}

rc_status rc_incsnap_chunk_end(rc_incsnap *s, const char *table, const void *pos, size_t posn,
                               const rc_isstate_key *last, size_t nlast, rc_error *err)
{
    rc_incsnap_table *t = rc_incsnap_table_named(s, table);
    if (!t) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "snapshot state: %s is not snapshotted", table);
    if (!resume(s, err)) return err ? err->code : RC_ERR_NOMEM;
    rc_status rc = nlast ? keys_image(&t->handed, last, nlast, err) : RC_OK;
    if (rc != RC_OK) return rc;
    t->handed_rows = t->rows_emitted;
    t->handed_chunks++;
    return rc_incsnap_at(s, pos, posn, err);
}

rc_status rc_incsnap_export(rc_incsnap *s, const void *acked, size_t ackedn, rc_incsnap_pos_cmp cmp,
                            rc_isstate *out, bool *changed, rc_error *err)
{
    resume_recs *rs = resume(s, err);
    if (!rs) return err ? err->code : RC_ERR_NOMEM;
    size_t n = 0; /* the records at or before acked */
    while (n < rs->nr && cmp(rs->r[n].pos, rs->r[n].posn, acked, ackedn) <= 0) n++;
    if (n) {
        set(&rs->base, rs->r[n - 1].text, rs->r[n - 1].textn);
        for (size_t i = 0; i < n; i++) free(rs->r[i].pos);
        memmove(rs->r, rs->r + n, (rs->nr - n) * sizeof *rs->r);
        rs->nr -= n;
    }
    if (changed) *changed = !same(&rs->exported, rs->base.data, rs->base.len);
    set(&rs->exported, rs->base.data, rs->base.len);
    if (rs->base.err != RC_OK || rs->exported.err != RC_OK) return oom(err);
    return out ? rc_isstate_parse(out, rs->base.data, rs->base.len, err) : RC_OK;
}

/* One table of an imported state: queued, and resuming after its last key when it has one. */
static rc_status import_table(rc_incsnap *s, const rc_isstate_table *it, rc_error *err)
{
    rc_status rc = rc_incsnap_queue(s, it->name, it->by, it->signal, it->filter, err);
    if (rc != RC_OK || it->queued) return rc;
    rc_incsnap_table *t = rc_incsnap_table_named(s, it->name);
    t->estimate = it->estimate;
    t->rows_read = t->rows_emitted = t->handed_rows = it->rows;
    t->chunks = t->handed_chunks = it->chunks;
    t->start_edge = it->chunks > 0 || it->has_last;
    if (!it->has_last) return RC_OK;
    rc_value page = {.kind = RC_V_UINT, .u = it->last_page};
    rc_buf_reset(&t->handed);
    rc = it->last_is_page ? rc_incsnap_key_image(&t->handed, &page, 1, err)
                          : keys_image(&t->handed, it->last, it->nlast, err);
    if (rc == RC_OK) set(&t->cursor, t->handed.data, t->handed.len);
    return rc == RC_OK && (t->cursor.err != RC_OK || t->handed.err != RC_OK) ? oom(err) : rc;
}

rc_status rc_incsnap_import(rc_incsnap *s, const rc_isstate *st, rc_error *err)
{
    rc_status rc = RC_OK;
    for (size_t i = 0; i < st->nt && rc == RC_OK; i++)
        if (!st->t[i].initial) rc = import_table(s, &st->t[i], err);
    if (rc != RC_OK) return rc;
    rc_incsnap_pause(s, st->paused);
    rc_incsnap_ext *ext = rc_incsnap_ext_of(s);
    recs_free(ext->p); /* the records start from the imported state */
    ext->p = NULL;
    resume_recs *rs = resume(s, err);
    if (!rs) return err ? err->code : RC_ERR_NOMEM;
    rc = state_now(s, &rs->base, err);
    set(&rs->exported, rs->base.data, rs->base.len);
    return rc == RC_OK && rs->exported.err != RC_OK ? oom(err) : rc;
}
