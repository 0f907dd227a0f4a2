/* The incremental snapshots' numbers for the pipeline (src/sources/incsnap_stats.h): the
 * core's tables into rc_source_stats (states, the pause, the counts, which tables get an
 * entry when there are more than RC_SOURCE_INCSNAP_TABLES, a long name cut at a character)
 * and the signals by type and result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "sources/incsnap_stats.h"

static rc_status watermark(void *ctx, const rc_incsnap_table *t, uint64_t chunk, rc_incsnap_mark mark, rc_error *err)
{
    (void)ctx, (void)t, (void)chunk, (void)mark, (void)err;
    return RC_OK;
}

/* `limit` rows, keys 1..limit: never the table's last chunk */
static rc_status read_chunk(void *ctx, rc_incsnap *s, const rc_incsnap_table *t, size_t limit, rc_error *err)
{
    (void)ctx, (void)t;
    for (size_t k = 1; k <= limit; k++) {
        rc_value key = {.kind = RC_V_INT, .i = (int64_t)k};
        rc_status st = rc_incsnap_add_row(s, &key, 1, "r", 1, err);
        if (st != RC_OK) return st;
    }
    return RC_OK;
}

static rc_status emit_row(void *ctx, const rc_incsnap_table *t, const void *raw, size_t rawn, rc_error *err)
{
    (void)ctx, (void)t, (void)raw, (void)rawn, (void)err;
    return RC_OK;
}

static rc_status emit_edge(void *ctx, const rc_incsnap_table *t, rc_incsnap_edge edge, rc_error *err)
{
    (void)ctx, (void)t, (void)edge, (void)err;
    return RC_OK;
}

static rc_incsnap *core_new(void)
{
    rc_incsnap_ops ops = {.write_watermark = watermark, .read_chunk = read_chunk, .emit_row = emit_row, .emit_edge = emit_edge};
    rc_incsnap_limits lim = {.chunk_rows = 2};
    rc_incsnap *c = rc_incsnap_new(&ops, NULL, &lim);
    assert_non_null(c);
    return c;
}

/* The stats of core c (and signals sg), from zero. */
static rc_source_stats st;
static void fill(const rc_incsnap *c, const rc_incsnap_signals *sg)
{
    memset(&st, 0, sizeof st);
    rc_incsnap_stats(c, sg, &st);
}

static void test_tables(void **state)
{
    (void)state;
    rc_incsnap *c = core_new();
    rc_error err;
    rc_error_clear(&err);
    for (const char *const *n = (const char *const[]){"public.a", "public.b", "public.c", NULL}; *n; n++)
        assert_int_equal(rc_incsnap_queue(c, *n, RC_INCSNAP_BY_PK, "s-1", NULL, &err), RC_OK);
    rc_incsnap_estimate(c, "public.a", 10, 0);
    /* a's first chunk: 2 rows read, key 1 changed in the window (dropped), 1 emitted */
    assert_int_equal(rc_incsnap_step(c, true, &err), RC_OK);
    rc_incsnap_on_mark(c, RC_INCSNAP_LOW, 1, &err);
    rc_value k1 = {.kind = RC_V_INT, .i = 1};
    assert_int_equal(rc_incsnap_on_change(c, "public.a", NULL, &k1, 1, &err), RC_OK);
    rc_incsnap_on_mark(c, RC_INCSNAP_HIGH, 1, &err);
    assert_int_equal(rc_incsnap_emit(c, &err), RC_OK);
    assert_int_equal(rc_incsnap_stop(c, "public.c", &err), RC_OK);
    fill(c, NULL);
    assert_true(st.has_incsnap);
    assert_false(st.incsnap_paused);
    assert_int_equal(st.nincsnap, 3);
    const rc_source_incsnap *a = &st.incsnap[0];
    assert_string_equal(a->name, "public.a");
    assert_int_equal(a->state, RC_INCSNAP_STATE_RUNNING);
    assert_int_equal(a->rows_read, 2);
    assert_int_equal(a->rows_dropped, 1);
    assert_int_equal(a->rows_emitted, 1);
    assert_int_equal(a->estimate, 10);
    assert_int_equal(a->chunks, 1);
    assert_string_equal(st.incsnap[1].name, "public.b");
    assert_int_equal(st.incsnap[1].state, RC_INCSNAP_STATE_QUEUED);
    assert_int_equal(st.incsnap[2].state, RC_INCSNAP_STATE_STOPPED);
    static const uint64_t want[RC_INCSNAP_STATES] = {1, 1, 0, 0, 1};
    assert_memory_equal(st.incsnap_tables, want, sizeof want);
    /* paused: the running table says so */
    rc_incsnap_pause(c, true);
    fill(c, NULL);
    assert_true(st.incsnap_paused);
    assert_int_equal(st.incsnap[0].state, RC_INCSNAP_STATE_PAUSED);
    assert_int_equal(st.incsnap_tables[RC_INCSNAP_STATE_PAUSED], 1);
    assert_int_equal(st.incsnap_tables[RC_INCSNAP_STATE_RUNNING], 0);
    rc_incsnap_free(c);
}

/* 40 tables, the first 10 stopped: the 30 queued ones and the 2 latest stopped get entries,
 * in queue order; the counts by state hold all 40. */
static void test_more_tables_than_entries(void **state)
{
    (void)state;
    rc_incsnap *c = core_new();
    rc_error err;
    rc_error_clear(&err);
    char name[32];
    for (int i = 0; i < 40; i++) {
        snprintf(name, sizeof name, "s.t%d", i);
        assert_int_equal(rc_incsnap_queue(c, name, RC_INCSNAP_BY_PK, NULL, NULL, &err), RC_OK);
        if (i < 10) assert_int_equal(rc_incsnap_stop(c, name, &err), RC_OK);
    }
    fill(c, NULL);
    assert_int_equal(st.nincsnap, RC_SOURCE_INCSNAP_TABLES);
    for (size_t i = 0; i < st.nincsnap; i++) {
        snprintf(name, sizeof name, "s.t%zu", i + 8);
        assert_string_equal(st.incsnap[i].name, name);
    }
    assert_int_equal(st.incsnap_tables[RC_INCSNAP_STATE_QUEUED], 30);
    assert_int_equal(st.incsnap_tables[RC_INCSNAP_STATE_STOPPED], 10);
    rc_incsnap_free(c);
}

/* A name longer than an entry holds is cut before a character, never inside one. */
static void test_long_name(void **state)
{
    (void)state;
    rc_incsnap *c = core_new();
    rc_error err;
    rc_error_clear(&err);
    char name[RC_SOURCE_INCSNAP_NAME + 8];
    memset(name, 'x', RC_SOURCE_INCSNAP_NAME - 2);
    strcpy(name + RC_SOURCE_INCSNAP_NAME - 2, "\xc3\xa9yz"); /* é across the cut */
    assert_int_equal(rc_incsnap_queue(c, name, RC_INCSNAP_BY_PK, NULL, NULL, &err), RC_OK);
    fill(c, NULL);
    assert_int_equal(strlen(st.incsnap[0].name), RC_SOURCE_INCSNAP_NAME - 2);
    rc_incsnap_free(c);
}

static void test_signals(void **state)
{
    (void)state;
    rc_incsnap_signals sg = {0};
    rc_incsnap_signal_count(&sg, (rc_str){"execute-snapshot", 16}, RC_SIGNAL_OK);
    rc_incsnap_signal_count(&sg, (rc_str){"execute-snapshot", 16}, RC_SIGNAL_OK);
    rc_incsnap_signal_count(&sg, (rc_str){"resume-snapshot", 15}, RC_SIGNAL_IGNORED);
    rc_incsnap_signal_count(&sg, (rc_str){"execute-snapshotX", 17}, RC_SIGNAL_ERROR); /* unknown */
    rc_incsnap_signal_count(&sg, (rc_str){"", 0}, RC_SIGNAL_ERROR);
    assert_int_equal(sg.n[0][RC_SIGNAL_OK], 2);
    assert_int_equal(sg.n[3][RC_SIGNAL_IGNORED], 1);
    assert_int_equal(sg.n[RC_SIGNAL_TYPES - 1][RC_SIGNAL_ERROR], 2);
    assert_int_equal(rc_incsnap_signal_worse(RC_SIGNAL_IGNORED, RC_SIGNAL_OK), RC_SIGNAL_OK);
    assert_int_equal(rc_incsnap_signal_worse(RC_SIGNAL_ERROR, RC_SIGNAL_OK), RC_SIGNAL_ERROR);
    assert_int_equal(rc_incsnap_signal_worse(RC_SIGNAL_IGNORED, RC_SIGNAL_IGNORED), RC_SIGNAL_IGNORED);
    assert_int_equal(rc_incsnap_signal_result(RC_SKIP), RC_SIGNAL_IGNORED);
    assert_int_equal(rc_incsnap_signal_result(RC_ERR_NOMEM), RC_SIGNAL_ERROR);
    rc_incsnap *c = core_new();
    assert_int_equal(rc_incsnap_signal_pause(c, false), RC_SIGNAL_IGNORED); /* not paused */
    assert_int_equal(rc_incsnap_signal_pause(c, true), RC_SIGNAL_OK);
    assert_int_equal(rc_incsnap_signal_pause(c, true), RC_SIGNAL_IGNORED);
    assert_true(rc_incsnap_paused(c));
    assert_int_equal(rc_incsnap_signal_pause(c, false), RC_SIGNAL_OK);
    fill(c, &sg);
    assert_memory_equal(st.signals, sg.n, sizeof sg.n);
    assert_int_equal(st.nincsnap, 0);
    rc_incsnap_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_more_tables_than_entries),
        cmocka_unit_test(test_long_name),
        cmocka_unit_test(test_signals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
