/* The MySQL/MariaDB source's incremental snapshots across restarts (docs/sources/mysql.md,
 * "Incremental snapshots"; docs/design/incremental-snapshots.md §4): the core's state
 * (sources/incsnap_resume.c) goes into the checkpoint file's `snapshot` section.
 *
 * Each chunk's end is handed to the core at the position of its last item (the chunk's rows are
 * items (P, 1..n) after the boundary P they are emitted at, and the last one is a boundary of
 * its own: my_incsnap.c); each boundary kept (my_source_checkpoint.c) carries the state as of
 * it when it changed, and the checkpoint written when the sink acknowledged a boundary has the
 * state of that boundary: never a chunk whose rows the sink does not hold. At open the state is
 * imported before the stream starts: each table goes on at the chunk after its last key (the
 * reader starts after it), counts and the paused flag kept; a table that cannot be read any
 * more (not captured, dropped, no key) is said and left. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/incsnap_state.h"
#include "sources/snapshot_stop.h"
#include "sources/mysql/my_incsnap_int.h"

/* ---- keys ---- */

void rc_my_incsnap_key_put(rc_buf *b, const char *p, uint32_t n, bool bytes)
{
    rc_buf_put(b, &n, 4);
    rc_buf_putc(b, bytes ? 1 : 0);
    rc_buf_put(b, p, n);
}

/* The packed key p[0..len) as state keys (pointing into p): how many. */
static size_t keys_of(const char *p, size_t len, rc_isstate_key *out, size_t max)
{
    size_t n = 0;
    for (size_t at = 0; at + 5 <= len && n < max; n++) {
        uint32_t l;
        memcpy(&l, p + at, 4);
        out[n] = (rc_isstate_key){p + at + 5, l, p[at + 4] != 0};
        at += 5 + (size_t)l;
    }
    return n;
}

rc_status rc_my_incsnap_resume_reader(inc_table *it, rc_error *err)
{
    rc_isstate_key k[MAX_KEY];
    const char *v[MAX_KEY];
    unsigned long l[MAX_KEY];
    size_t n = keys_of(it->resume, it->resume_len, k, MAX_KEY);
    for (size_t i = 0; i < n; i++) v[i] = k[i].p, l[i] = (unsigned long)k[i].n;
    rc_status st = n == it->st.npk ? rc_my_snap_reader_resume(it->rd, v, l, err)
                                   : rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                                                  "incremental snapshot of %s: the checkpoint's last key has %zu values, the "
                                                  "table's key %u columns", it->name, n, it->st.npk);
    free(it->resume);
    it->resume = NULL, it->resume_len = 0;
    return st;
}

/* The key as the state writes it (["17","a"], {"hex":...} for bytes) into out. */
static void key_text(const rc_isstate_key *k, size_t n, char *out, size_t cap)
{
    rc_isstate one;
    rc_isstate_init(&one);
    rc_isstate_table t = {.name = "t", .has_last = true, .last = (rc_isstate_key *)k, .nlast = n};
    one.t = &t, one.nt = 1;
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    rc_error e;
    rc_error_clear(&e);
    rc_status rc = rc_isstate_write(&one, &b, &e);
    rc_buf_putc(&b, '\0');
    const char *at = rc == RC_OK && !b.err ? strstr(b.data, "\nlast t ") : NULL;
    snprintf(out, cap, "%.*s", at ? (int)strcspn(at + 8, "\n") : 1, at ? at + 8 : "?");
    rc_buf_fini(&b);
    rc_isstate_fini(&one);
}

/* ---- the state as of a boundary ---- */

static int pos_cmp(const void *a, size_t an, const void *b, size_t bn)
{
    rc_pos x = {0}, y = {0};
    memcpy(&x, a, an < sizeof x ? an : sizeof x);
    memcpy(&y, b, bn < sizeof y ? bn : sizeof y);
    return rc_pos_compare(&x, &y);
}

rc_status rc_my_incsnap_state_at(my_source *s, const rc_pos *pos, char **text, size_t *n, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    *text = NULL, *n = 0;
    if (!rc_incsnap_ntables(x->core) && !rc_incsnap_paused(x->core)) return RC_OK; /* none ever: no section */
    /* a signal of the transaction this boundary ends is part of the state from here */
    if (rc_incsnap_at(x->core, pos, sizeof *pos, err) != RC_OK) return err->code;
    rc_isstate st;
    rc_isstate_init(&st);
    bool changed = false;
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    /* the cheap call first: parsed and written only when the state moved */
    rc_status rc = rc_incsnap_export(x->core, pos, sizeof *pos, pos_cmp, NULL, &changed, err);
    if (rc == RC_OK && changed) rc = rc_incsnap_export(x->core, pos, sizeof *pos, pos_cmp, &st, NULL, err);
    if (rc == RC_OK && changed) rc = rc_isstate_write(&st, &b, err);
    if (rc == RC_OK && changed) {
        if (b.err || !(*text = malloc(b.len + 1))) rc = rc_my_source_nomem(err);
        else memcpy(*text, b.data, b.len), (*text)[b.len] = '\0', *n = b.len;
    }
    rc_buf_fini(&b);
    rc_isstate_fini(&st);
    return rc;
}

/* ---- chunks: emitted, acknowledged ---- */

/* The table's chunks so far: the number of the one read last. */
static uint64_t chunk_no(rc_my_incsnap *x, size_t tab)
{
    const rc_incsnap_table *t = rc_incsnap_table_named(x->core, x->tabs[tab]->name);
    return t ? t->chunks : 0;
}

/* RC_SNAPSHOT_VERBOSE=1 in the environment: as PostgreSQL's (pg_incsnap.c). */
void rc_my_incsnap_say(my_source *s, size_t tab, uint64_t chunk, const char *what)
{
    rc_my_incsnap *x = s->inc;
    if (!x->verbose || tab >= x->ntabs) return;
    rc_my_source_notice(s, "incremental snapshot %s chunk %" PRIu64 ": %s", x->tabs[tab]->name, chunk ? chunk : chunk_no(x, tab), what);
    rc_snapshot_stop_point(what);
}

rc_status rc_my_incsnap_chunk_done(my_source *s, rc_pos *end, bool *keep, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    inc_table *it = x->tabs[x->cur];
    uint64_t last = x->k + x->npending; /* the items are (P, k+1 .. last) */
    *end = rc_pos_mysql(rc_pos_mysql_file(&s->handed), s->offset, last);
    *keep = last > x->k; /* nothing handed: the next boundary carries the state */
    rc_isstate_key keys[MAX_KEY];
    size_t nk = keys_of(x->last_key.data, x->last_key.len, keys, MAX_KEY);
    if (rc_incsnap_chunk_end(x->core, it->name, end, sizeof *end, keys, nk, err) != RC_OK) return err->code;
    uint64_t no = chunk_no(x, x->cur);
    rc_my_incsnap_say(s, x->cur, no, "emitted");
    if (!*keep) return RC_OK;
    x->mark_k = last;
    if (x->nemitted == x->capemitted) {
        size_t cap = x->capemitted ? 2 * x->capemitted : 16;
        inc_emitted *e = realloc(x->emitted, cap * sizeof *e);
        if (!e) return rc_my_source_nomem(err);
        x->emitted = e, x->capemitted = cap;
    }
    x->emitted[x->nemitted++] = (inc_emitted){*end, no, x->cur};
    return RC_OK;
}

void rc_my_incsnap_acked(my_source *s, const rc_pos *pos)
{
    rc_my_incsnap *x = s->inc;
    size_t k = 0;
    while (k < x->nemitted && rc_pos_compare(&x->emitted[k].end, pos) <= 0) k++;
    if (!k) return;
    rc_my_incsnap_say(s, x->emitted[k - 1].tab, x->emitted[k - 1].chunk, "acknowledged");
    memmove(x->emitted, x->emitted + k, (x->nemitted - k) * sizeof *x->emitted);
    x->nemitted -= k;
}

bool rc_my_incsnap_waiting(const my_source *s)
{
    const rc_my_incsnap *x = s->inc;
    return x && x->nemitted >= x->unacked;
}

/* ---- resuming ---- */

/* One table of the state, ready to go on: false (said) when it cannot. */
static bool resumable(my_source *s, rc_isstate_table *t)
{
    rc_my_incsnap *x = s->inc;
    rc_incsnap_by by = RC_INCSNAP_BY_PK;
    rc_error e;
    rc_error_clear(&e);
    if (t->initial)
        rc_error_set(&e, RC_SKIP, RC_NO_OFFSET, "an initial snapshot's state (not resumed by this version)");
    else if (rc_my_incsnap_prepare(s, t->name, &by, &e) == RC_OK && t->has_last && t->last_is_page)
        rc_error_set(&e, RC_SKIP, RC_NO_OFFSET, "its last key is a page, not a key of the table");
    if (e.code != RC_OK) {
        rc_my_source_notice(s, "warning: checkpoint %s: incremental snapshot of %s not resumed: %s", s->cfg.checkpoint, t->name,
                            e.message);
        return false;
    }
    t->by = by; /* (a queued table's line does not say) */
    inc_table *it = rc_my_incsnap_table(x, t->name);
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    for (size_t i = 0; i < t->nlast; i++) rc_my_incsnap_key_put(&b, t->last[i].p, (uint32_t)t->last[i].n, t->last[i].bytes);
    free(it->resume);
    it->resume = b.len && !b.err ? b.data : NULL, it->resume_len = it->resume ? b.len : 0;
    if (!it->resume) rc_buf_fini(&b);
    it->started_us = rc_db_wall_us();
    char key[300];
    key_text(t->last, t->nlast, key, sizeof key);
    if (t->queued || !t->has_last)
        rc_my_source_notice(s, "resuming incremental snapshot of %s from its first row (signal %s)%s", t->name,
                            t->signal ? t->signal : "-", t->queued ? ", queued" : "");
    else
        rc_my_source_notice(s, "resuming incremental snapshot of %s after key %s (%" PRIu64 " rows done)", t->name, key, t->rows);
    return true;
}

rc_status rc_my_incsnap_resume(my_source *s, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    if (!s->acked.snapshot) return RC_OK;
    rc_isstate st;
    rc_isstate_init(&st);
    rc_error perr;
    rc_error_clear(&perr);
    rc_status rc = RC_OK;
    if (rc_isstate_parse(&st, s->acked.snapshot, s->acked.snapshot_len, &perr) != RC_OK) {
        rc = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "checkpoint %s: its snapshot state: %s (remove the file to start afresh)",
                          s->cfg.checkpoint, perr.message);
    } else if (!x) { /* kept as it is in the checkpoint */
        for (size_t i = 0; i < st.nt; i++)
            rc_my_source_notice(s, "checkpoint %s holds an incremental snapshot of %s not finished: it goes on when a run has "
                                   "-o mysql.signal.table", s->cfg.checkpoint, st.t[i].name);
    } else {
        size_t w = 0;
        for (size_t i = 0; i < st.nt; i++)
            if (resumable(s, &st.t[i])) st.t[w++] = st.t[i];
        st.nt = w;
        rc = rc_incsnap_import(x->core, &st, err);
        if (rc == RC_OK && st.paused)
            rc_my_source_notice(s, "incremental snapshots paused (a pause-snapshot signal): a resume-snapshot signal goes on");
    }
    rc_isstate_fini(&st);
    return rc;
}
