/* Resuming incremental snapshots (src/sources/incsnap_resume.c): the state as of the sink's
 * acknowledged position, never ahead of it; a partly acknowledged chunk is read again from the
 * previous last key after a restart (repeat at most one chunk, never skip); paused and queued
 * tables survive; a done table leaves the state once its last chunk is acknowledged. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/incsnap.h"
#include "sources/incsnap_state.h"

enum { NKEYS = 100, CHUNK = 10, MAXOUT = 1000 };

/* A source of tables with keys 1..NKEYS; positions are a sequence number per handed item. */
typedef struct mock {
    rc_incsnap *is;
    uint64_t seq;       /* the position of the last item handed */
    int64_t out[MAXOUT]; /* the keys of the read items, in order */
    uint64_t outpos[MAXOUT];
    size_t nout;
    int64_t last; /* the last key added by the chunk read */
    int64_t first_after; /* the start key of the last chunk read */
} mock;

static int cmp_seq(const void *a, size_t an, const void *b, size_t bn)
{
    uint64_t x, y;
    assert_int_equal(an, sizeof x);
    assert_int_equal(bn, sizeof y);
    memcpy(&x, a, sizeof x), memcpy(&y, b, sizeof y);
    return x < y ? -1 : x > y;
}

static rc_status write_watermark(void *ctx, const rc_incsnap_table *t, uint64_t chunk, rc_incsnap_mark mark,
                                 rc_error *err)
{
    (void)ctx, (void)t, (void)chunk, (void)mark, (void)err;
    return RC_OK;
}

/* The start of the chunk: the core's own cursor (an INT key image) or an imported one (text). */
static int64_t cursor_key(const rc_incsnap_table *t)
{
    if (!t->cursor.len) return 0;
    rc_value v[4];
    size_t n = 0;
    assert_int_equal(rc_incsnap_key_decode(t->cursor.data, t->cursor.len, v, 4, &n, NULL), RC_OK);
    assert_int_equal(n, 1);
    if (v[0].kind == RC_V_INT) return v[0].i;
    assert_int_equal(v[0].kind, RC_V_TEXT);
    char text[24];
    snprintf(text, sizeof text, "%.*s", (int)v[0].s.n, v[0].s.p);
    return strtoll(text, NULL, 10);
}

static rc_status read_chunk(void *ctx, rc_incsnap *s, const rc_incsnap_table *t, size_t limit, rc_error *err)
{
    mock *m = ctx;
    int64_t k = cursor_key(t);
    m->first_after = k;
    for (size_t i = 0; i < limit && k < NKEYS; i++) {
        rc_value key = {.kind = RC_V_INT, .i = ++k};
        rc_status rc = rc_incsnap_add_row(s, &key, 1, &k, sizeof k, err);
        if (rc != RC_OK) return rc;
        m->last = k;
    }
    return RC_OK;
}

static rc_status emit_row(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn, rc_error *err)
{
    mock *m = ctx;
    (void)t, (void)err;
    assert_int_equal(rawn, sizeof(int64_t));
    assert_true(m->nout < MAXOUT);
    memcpy(&m->out[m->nout], raw, sizeof(int64_t));
    m->outpos[m->nout++] = ++m->seq;
    return RC_OK;
}

static rc_status emit_edge(void *ctx, const rc_incsnap_table *t, rc_incsnap_edge edge, rc_error *err)
{
    mock *m = ctx;
    (void)t, (void)edge, (void)err;
    m->seq++;
    return RC_OK;
}

static void mock_init(mock *m)
{
    memset(m, 0, sizeof *m);
    rc_incsnap_ops ops = {write_watermark, read_chunk, NULL, emit_row, emit_edge, NULL};
    rc_incsnap_limits lim = {.chunk_rows = CHUNK};
    m->is = rc_incsnap_new(&ops, m, &lim);
    assert_non_null(m->is);
}

/* One chunk of `name`: LW, HW, emit, then its end handed with its last key. False when idle. */
static bool one_chunk(mock *m, const char *name)
{
    if (rc_incsnap_step(m->is, true, NULL) != RC_OK) return false;
    /* the watermarks of the chunk in flight: the core ignores others, so ask for it */
    for (uint64_t c = 1; c < 10000 && rc_incsnap_phase_of(m->is) == RC_INCSNAP_READ; c++)
        assert_int_equal(rc_incsnap_on_mark(m->is, RC_INCSNAP_LOW, c, NULL), RC_OK);
    assert_int_equal(rc_incsnap_phase_of(m->is), RC_INCSNAP_OPEN);
    for (uint64_t c = 1; c < 10000 && rc_incsnap_phase_of(m->is) == RC_INCSNAP_OPEN; c++)
        assert_int_equal(rc_incsnap_on_mark(m->is, RC_INCSNAP_HIGH, c, NULL), RC_OK);
    assert_int_equal(rc_incsnap_emit(m->is, NULL), RC_OK);
    char text[24];
    int n = snprintf(text, sizeof text, "%lld", (long long)m->last);
    rc_isstate_key k = {text, (size_t)n, false};
    bool rows = m->last > m->first_after;
    assert_int_equal(rc_incsnap_chunk_end(m->is, name, &m->seq, sizeof m->seq, &k, rows, NULL), RC_OK);
    return true;
}

static void export_at(mock *m, uint64_t acked, rc_isstate *st, bool *changed)
{
    rc_error err;
    rc_error_clear(&err);
    if (rc_incsnap_export(m->is, &acked, sizeof acked, cmp_seq, st, changed, &err) != RC_OK)
        fail_msg("%s", err.message);
}

/* The position of the n-th read item (1-based). */
static uint64_t pos_of_read(const mock *m, size_t n)
{
    assert_true(n >= 1 && n <= m->nout);
    return m->outpos[n - 1];
}

/* The signal that queues public.t, the item at position 1. */
static void signal_t(mock *m)
{
    assert_int_equal(rc_incsnap_queue(m->is, "public.t", RC_INCSNAP_BY_PK, "s-1", NULL, NULL), RC_OK);
    uint64_t sig = ++m->seq;
    assert_int_equal(rc_incsnap_at(m->is, &sig, sizeof sig, NULL), RC_OK);
}

/* Kill after `acked` items of run one (1: the signal, 2: the start edge, k + 2: key k), restart
 * from the exported state (a signal not acknowledged comes again from the stream): every key
 * is read, and the keys read twice are at most one chunk's. Returns how many were read twice. */
static size_t kill_and_resume(size_t chunks_run, uint64_t acked)
{
    mock a, b;
    mock_init(&a);
    signal_t(&a);
    for (size_t i = 0; i < chunks_run; i++) assert_true(one_chunk(&a, "public.t"));
    rc_isstate st;
    rc_isstate_init(&st);
    export_at(&a, acked, &st, NULL);
    /* what the sink holds: the items up to acked */
    size_t kept = 0;
    while (kept < a.nout && a.outpos[kept] <= acked) kept++;
    mock_init(&b);
    assert_int_equal(rc_incsnap_import(b.is, &st, NULL), RC_OK);
    if (!st.nt) signal_t(&b);
    rc_isstate_fini(&st);
    while (one_chunk(&b, "public.t")) {}
    int seen[NKEYS + 1] = {0};
    for (size_t i = 0; i < kept; i++) seen[a.out[i]]++;
    for (size_t i = 0; i < b.nout; i++) seen[b.out[i]]++;
    size_t twice = 0;
    for (int k = 1; k <= NKEYS; k++) {
        assert_true(seen[k] >= 1); /* never skipped */
        assert_true(seen[k] <= 2);
        twice += seen[k] == 2;
    }
    assert_true(twice <= CHUNK);
    const rc_incsnap_table *t = rc_incsnap_table_at(b.is, 0);
    assert_int_equal(t->state, RC_INCSNAP_DONE);
    assert_string_equal(t->signal, "s-1");
    assert_int_equal(t->rows_emitted, NKEYS); /* the counts go on from the state's */
    rc_incsnap_free(a.is);
    rc_incsnap_free(b.is);
    return twice;
}

static void test_partly_acknowledged_chunk(void **state)
{
    (void)state;
    mock a;
    mock_init(&a);
    signal_t(&a);
    for (int i = 0; i < 3; i++) assert_true(one_chunk(&a, "public.t"));
    rc_isstate st;
    rc_isstate_init(&st);
    export_at(&a, pos_of_read(&a, 25), &st, NULL); /* half of chunk 3 acknowledged */
    assert_int_equal(st.nt, 1);
    assert_true(st.t[0].has_last && !st.t[0].queued);
    assert_int_equal(st.t[0].nlast, 1);
    assert_memory_equal(st.t[0].last[0].p, "20", 2);
    assert_int_equal(st.t[0].rows, 20);
    assert_int_equal(st.t[0].chunks, 2);
    rc_isstate_fini(&st);
    rc_incsnap_free(a.is);
    /* restarted there: chunk 3 is read again (5 keys twice), nothing skipped */
    assert_int_equal(kill_and_resume(3, 25 + 2), 5);
}

static void test_kill_points(void **state)
{
    (void)state;
    assert_int_equal(kill_and_resume(3, 32), 0);   /* chunk 3 fully acknowledged */
    assert_int_equal(kill_and_resume(3, 0), 0);    /* nothing: the signal comes again */
    assert_int_equal(kill_and_resume(3, 2), 0);    /* the signal and the start edge */
    assert_int_equal(kill_and_resume(1, 12), 0);   /* chunk 1 acknowledged, chunk 2 not read */
    assert_int_equal(kill_and_resume(3, 12 + 5), 5); /* 5 rows of chunk 2 */
    assert_int_equal(kill_and_resume(11, 102), 0); /* every row acknowledged, the end edge not */
    for (uint64_t acked = 0; acked <= 70; acked++) assert_true(kill_and_resume(6, acked) <= CHUNK);
}

static void test_never_ahead_of_sink(void **state)
{
    (void)state;
    mock a;
    mock_init(&a);
    assert_int_equal(rc_incsnap_queue(a.is, "public.t", RC_INCSNAP_BY_PK, "s-1", NULL, NULL), RC_OK);
    rc_isstate st;
    rc_isstate_init(&st);
    bool changed = true;
    export_at(&a, 100, &st, &changed); /* nothing handed: the empty state */
    assert_false(changed);
    assert_int_equal(st.nt, 0);
    uint64_t sig = ++a.seq; /* the signal's item */
    assert_int_equal(rc_incsnap_at(a.is, &sig, sizeof sig, NULL), RC_OK);
    export_at(&a, sig - 1, &st, &changed);
    assert_int_equal(st.nt, 0);
    assert_false(changed);
    /* the cheap call (no state asked) moves it as well */
    assert_int_equal(rc_incsnap_export(a.is, &sig, sizeof sig, cmp_seq, NULL, &changed, NULL), RC_OK);
    assert_true(changed);
    export_at(&a, sig, &st, &changed);
    assert_false(changed);
    assert_int_equal(st.nt, 1);
    assert_true(st.t[0].queued);
    assert_int_equal(rc_incsnap_step(a.is, true, NULL), RC_OK); /* chunk 1 in flight */
    export_at(&a, sig + 50, &st, &changed);
    assert_false(changed);
    assert_true(st.t[0].queued); /* in flight is not handed */
    rc_incsnap_free(a.is);
    rc_isstate_fini(&st);
}

static void test_done_paused_queued(void **state)
{
    (void)state;
    mock a;
    mock_init(&a);
    signal_t(&a);
    assert_int_equal(rc_incsnap_queue(a.is, "public.u", RC_INCSNAP_BY_PK, "s-2", NULL, NULL), RC_OK);
    uint64_t sig = ++a.seq;
    assert_int_equal(rc_incsnap_at(a.is, &sig, sizeof sig, NULL), RC_OK);
    while (rc_incsnap_table_at(a.is, 0)->state != RC_INCSNAP_DONE) assert_true(one_chunk(&a, "public.t"));
    uint64_t t_done = a.seq;
    assert_true(one_chunk(&a, "public.u")); /* u's chunk 1 */
    rc_incsnap_pause(a.is, true);
    uint64_t pause = ++a.seq;
    assert_int_equal(rc_incsnap_at(a.is, &pause, sizeof pause, NULL), RC_OK);
    rc_isstate st;
    rc_isstate_init(&st);
    export_at(&a, t_done - 1, &st, NULL); /* t's end edge not acknowledged: t still there */
    assert_int_equal(st.nt, 2);
    assert_string_equal(st.t[0].name, "public.t");
    assert_memory_equal(st.t[0].last[0].p, "100", 3);
    assert_true(st.t[1].queued);
    assert_false(st.paused);
    export_at(&a, pause, &st, NULL);
    assert_true(st.paused);
    assert_int_equal(st.nt, 1);
    assert_string_equal(st.t[0].name, "public.u");
    assert_memory_equal(st.t[0].last[0].p, "10", 2);
    /* restarted: still paused, nothing read until resumed, then u goes on after key 10 */
    mock b;
    mock_init(&b);
    assert_int_equal(rc_incsnap_import(b.is, &st, NULL), RC_OK);
    assert_true(rc_incsnap_paused(b.is));
    assert_false(one_chunk(&b, "public.u"));
    rc_incsnap_pause(b.is, false);
    assert_true(one_chunk(&b, "public.u"));
    assert_int_equal(b.out[0], 11);
    assert_int_equal(rc_incsnap_table_at(b.is, 0)->rows_emitted, 20);
    bool changed = false;
    export_at(&b, 0, &st, &changed); /* nothing new acknowledged: the imported state */
    assert_false(changed);
    assert_true(st.paused); /* the resume is not acknowledged */
    rc_isstate_fini(&st);
    rc_incsnap_free(a.is);
    rc_incsnap_free(b.is);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_partly_acknowledged_chunk),
        cmocka_unit_test(test_kill_points),
        cmocka_unit_test(test_never_ahead_of_sink),
        cmocka_unit_test(test_done_paused_queued),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
