/* The tables an incremental-snapshot capture of MySQL/MariaDB captures (docs/sources/mysql.md,
 * "Tables that start to match --include"; docs/design/incremental-snapshots.md §2): the
 * state's `captured` line holds the tables --include matched at the checkpoint's position (the
 * schema history there knows them), written with each checkpoint whose state or history
 * changed, so that a restart with a wider --include queues the tables it did not capture (their
 * rows from before the checkpoint are not in the binlog after it). While streaming, a table
 * CREATEd into --include needs nothing (its rows are in the binlog from its CREATE); one RENAMEd
 * into it is queued (its rows never were in the stream). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/incsnap_state.h"
#include "sources/mysql/my_incsnap_int.h"

/* ---- captured ---- */

/* The history's tables --include matches, NUL-terminated "db.table" names in its order, into out. */
static void captured_of(const my_source *s, const rc_my_history *h, rc_buf *out)
{
    rc_buf_reset(out);
    for (uint32_t i = 0, n = rc_my_history_count(h); i < n; i++) {
        const rc_my_table *t = rc_my_history_at(h, i);
        if (s->accept && !s->accept(s->accept_ctx, t->db, t->name)) continue;
        rc_buf_put(out, t->db.p, t->db.n);
        rc_buf_putc(out, '.');
        rc_buf_put(out, t->name.p, t->name.n);
        rc_buf_putc(out, '\0');
    }
}

/* The names of a NUL-terminated list in st's arena: st->captured. */
static rc_status set_captured(rc_isstate *st, const rc_buf *names, rc_error *err)
{
    size_t n = 0;
    for (size_t i = 0; i < names->len; i++) n += names->data[i] == '\0';
    const char **c = rc_arena_alloc(&st->arena, (n ? n : 1) * sizeof *c);
    if (!c) return rc_my_source_nomem(err);
    for (size_t at = 0, k = 0; k < n; k++) c[k] = names->data + at, at += strlen(c[k]) + 1;
    st->captured = c, st->ncaptured = n;
    return RC_OK;
}

/* The state text `base` (NULL: none yet) with its captured line from x->captured (malloc'd). */
static rc_status with_captured(rc_my_incsnap *x, const char *base, size_t n, char **text, size_t *len, rc_error *err)
{
    rc_isstate st;
    rc_isstate_init(&st);
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    rc_status rc = base ? rc_isstate_parse(&st, base, n, err) : RC_OK;
    if (rc == RC_OK) rc = set_captured(&st, &x->captured, err);
    if (rc == RC_OK) rc = rc_isstate_write(&st, &b, err);
    if (rc == RC_OK && (b.err || !(*text = malloc(b.len + 1)))) rc = rc_my_source_nomem(err);
    if (rc == RC_OK) memcpy(*text, b.data, b.len), (*text)[b.len] = '\0', *len = b.len;
    rc_buf_fini(&b);
    rc_isstate_fini(&st);
    return rc;
}

/* The boundaries q[0..k) are about to be acknowledged: the last one's state gets the captured
 * line as of it when a state text or the history changed among them (or the list is stale). */
static rc_status captured_fix(my_source *s, size_t k, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    const char *hist = NULL, *latest = NULL;
    size_t hn = 0, ln = 0;
    for (size_t i = 0; i < k; i++) {
        if (s->q[i].history) hist = s->q[i].history, hn = s->q[i].history_len;
        if (s->q[i].snapshot) latest = s->q[i].snapshot, ln = s->q[i].snapshot_len;
    }
    bool changed = false;
    if (hist || x->captured_stale) {
        if (!hist) hist = s->acked.history ? s->acked.history : "", hn = s->acked.history_len;
        rc_my_history *h = rc_my_history_new();
        if (!h) return rc_my_source_nomem(err);
        rc_status rc = rc_my_history_read(h, hist, hn, err);
        if (rc == RC_OK) captured_of(s, h, &x->names);
        rc_my_history_free(h);
        if (rc != RC_OK) return rc;
        if (x->names.err) return rc_my_source_nomem(err);
        changed = x->captured_stale || x->names.len != x->captured.len || memcmp(x->names.data, x->captured.data, x->names.len);
        rc_buf t = x->captured;
        x->captured = x->names, x->names = t;
        x->captured_stale = false;
    }
    if (!latest && !changed) return RC_OK;
    if (!latest) latest = s->acked.snapshot, ln = s->acked.snapshot_len;
    char *text = NULL;
    size_t len = 0;
    if (with_captured(x, latest, ln, &text, &len, err) != RC_OK) return err->code;
    free(s->q[k - 1].snapshot);
    s->q[k - 1].snapshot = text, s->q[k - 1].snapshot_len = len;
    return RC_OK;
}

void rc_my_incsnap_captured_ack(my_source *s, const rc_pos *pos)
{
    size_t k = 0;
    while (s->inc && k < s->qn && rc_pos_compare(&s->q[k].pos, pos) <= 0) k++;
    if (!k) return;
    rc_error e;
    rc_error_clear(&e);
    if (captured_fix(s, k, &e) != RC_OK)
        rc_my_source_notice(s, "warning: the checkpoint's list of the tables captured not updated: %s", e.message);
}

/* Whether the NUL-terminated list holds name. */
static bool listed(const rc_buf *l, const char *name)
{
    for (size_t at = 0; at < l->len; at += strlen(l->data + at) + 1)
        if (!strcmp(l->data + at, name)) return true;
    return false;
}

rc_status rc_my_incsnap_newly_included(my_source *s, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    if (!x) return RC_OK;
    rc_isstate st;
    rc_isstate_init(&st);
    rc_status rc = s->acked.snapshot ? rc_isstate_parse(&st, s->acked.snapshot, s->acked.snapshot_len, err) : RC_OK;
    rc_buf_reset(&x->captured);
    for (size_t i = 0; rc == RC_OK && i < st.ncaptured; i++) rc_buf_put(&x->captured, st.captured[i], strlen(st.captured[i]) + 1);
    size_t had = st.ncaptured;
    rc_isstate_fini(&st);
    if (rc != RC_OK) return rc;
    if (x->captured.err) return rc_my_source_nomem(err);
    if (!had) {
        rc_my_source_notice(s, "checkpoint %s holds no list of the tables it captured (an older run's, or none was): tables --include "
                               "matches now are not snapshotted automatically (a signal asks for one)", s->cfg.checkpoint);
        return RC_OK; /* the list is written from now on (captured_stale) */
    }
    captured_of(s, s->hist, &x->names); /* the history at the checkpoint's position */
    if (x->names.err) return rc_my_source_nomem(err);
    for (size_t at = 0; at < x->names.len; at += strlen(x->names.data + at) + 1) {
        const char *name = x->names.data + at;
        rc_incsnap_by by = RC_INCSNAP_BY_PK;
        rc_error e;
        rc_error_clear(&e);
        if (listed(&x->captured, name) || rc_incsnap_table_named(x->core, name)) continue;
        if (rc_my_incsnap_prepare(s, name, &by, &e) != RC_OK ||
            rc_my_incsnap_queue_table(s, name, by, NULL, "newly matched by --include", &e) != RC_OK) {
            if (e.code != RC_SKIP && e.code != RC_ERR_USAGE) return *err = e, err->code;
            rc_my_source_notice(s, "warning: %s newly matched by --include, not snapshotted (its rows from before the checkpoint "
                                   "are missing): %s", name, e.message);
        }
    }
    return RC_OK;
}

/* ---- while streaming ---- */

rc_status rc_my_incsnap_live_init(my_source *s, rc_error *err)
{
    if (!s->inc) return RC_OK;
    captured_of(s, s->hist, &s->inc->live);
    return s->inc->live.err ? rc_my_source_nomem(err) : RC_OK;
}

void rc_my_incsnap_after_ddl(my_source *s, const rc_event *ev)
{
    rc_my_incsnap *x = s->inc;
    if (!x) return;
    captured_of(s, s->hist, &x->names);
    bool gone = false, rename = ev->ddl_kind.n == 12 && !memcmp(ev->ddl_kind.p, "RENAME_TABLE", 12);
    for (size_t at = 0; at < x->live.len; at += strlen(x->live.data + at) + 1) gone = gone || !listed(&x->names, x->live.data + at);
    for (size_t at = 0; rename && !gone && at < x->names.len; at += strlen(x->names.data + at) + 1) {
        const char *name = x->names.data + at;
        rc_incsnap_by by = RC_INCSNAP_BY_PK;
        rc_error e;
        rc_error_clear(&e);
        if (listed(&x->live, name)) continue;
        if (rc_my_incsnap_prepare(s, name, &by, &e) != RC_OK ||
            rc_my_incsnap_queue_table(s, name, by, NULL, "renamed into --include", &e) != RC_OK)
            rc_my_source_notice(s, "warning: %s renamed into --include, not snapshotted (its rows from before the rename are "
                                   "missing): %s", name, e.message);
    }
    rc_buf t = x->live;
    x->live = x->names, x->names = t;
}
