/* The incremental snapshot state text (src/sources/incsnap_state.c) and signal rows and
 * messages (src/sources/signal.c): round trips, the design's example, errors that name the
 * line or the signal id. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "sources/incsnap_state.h"
#include "sources/signal.h"

static const char example[] =
    "snapshot-state 1\n"
    "captured public.items public.orders \"odd name\"\n"
    "paused 0\n"
    "table public.orders incremental by=pk signal=s-42 rows=120000 estimate=200000 chunks=30\n"
    "last public.orders [\"2024-05-01\",\"17\",{\"hex\":\"00ff\"}]\n"
    "filter public.orders \"status = 'open'\"\n"
    "table public.items initial by=ctid rows=0 estimate=5000000 chunks=0\n"
    "last public.items (81234,0)\n"
    "queued public.audit signal=\"s 43\"\n"
    "queued \"we\\\"ird\"\n";

/* Parses text, writes it, and expects the writing to be `want` (NULL: the text itself). */
static void round_trip(const char *text, const char *want)
{
    rc_isstate st;
    rc_isstate_init(&st);
    rc_error err;
    rc_error_clear(&err);
    if (rc_isstate_parse(&st, text, strlen(text), &err) != RC_OK) fail_msg("%s", err.message);
    rc_buf b;
    rc_buf_init(&b, 0);
    assert_int_equal(rc_isstate_write(&st, &b, &err), RC_OK);
    rc_buf_putc(&b, '\0');
    assert_string_equal(b.data, want ? want : text);
    rc_buf_fini(&b);
    rc_isstate_fini(&st);
}

static void test_state_example(void **state)
{
    (void)state;
    round_trip(example, NULL);
    rc_isstate st;
    rc_isstate_init(&st);
    assert_int_equal(rc_isstate_parse(&st, example, strlen(example), NULL), RC_OK);
    assert_int_equal(st.ncaptured, 3);
    assert_string_equal(st.captured[2], "odd name");
    assert_int_equal(st.nt, 4);
    const rc_isstate_table *o = &st.t[0], *i = &st.t[1], *q = &st.t[3];
    assert_string_equal(o->signal, "s-42");
    assert_int_equal(o->rows, 120000);
    assert_int_equal(o->nlast, 3);
    assert_memory_equal(o->last[1].p, "17", 2);
    assert_true(o->last[2].bytes && o->last[2].n == 2 && (unsigned char)o->last[2].p[1] == 0xff);
    assert_string_equal(o->filter, "status = 'open'");
    assert_true(i->initial && i->by == RC_INCSNAP_BY_CTID && i->last_is_page &&
                i->last_page == 81234);
    assert_true(q->queued);
    assert_string_equal(q->name, "we\"ird");
    /* parsing again empties the state first */
    assert_int_equal(rc_isstate_parse(&st, "snapshot-state 1\npaused 1\n", 26, NULL), RC_OK);
    assert_int_equal(st.nt, 0);
    assert_true(st.paused);
    rc_isstate_fini(&st);
    /* escapes are read, the text written as UTF-8; lines left out are written with their defaults
     */
    round_trip("snapshot-state 1\ntable a.b incremental by=index rows=1 estimate=2 chunks=3\nlast "
               "a.b [\"\\u00e9\",\"\"]\n",
               "snapshot-state 1\ncaptured\npaused 0\ntable a.b incremental by=index rows=1 "
               "estimate=2 chunks=3\n"
               "last a.b [\"\xc3\xa9\",\"\"]\n");
}

static void state_error(const char *text, const char *want)
{
    rc_isstate st;
    rc_isstate_init(&st);
    rc_error err;
    rc_error_clear(&err);
    assert_int_not_equal(rc_isstate_parse(&st, text, strlen(text), &err), RC_OK);
    if (!strstr(err.message, want)) fail_msg("%s: got \"%s\"", text, err.message);
    rc_isstate_fini(&st);
}

static void test_state_errors(void **state)
{
    (void)state;
    state_error("", "snapshot state: empty");
    state_error("snapshot-state 2\n", "line 1: expected snapshot-state 1");
    state_error("snapshot-state 1\nbogus\n", "line 2: unknown line");
    state_error("snapshot-state 1\ntable a.b incremental by=pk rows=1 chunks=3\n",
                "line 2: by=, rows=, estimate= and chunks= are required");
    state_error("snapshot-state 1\ntable a.b incremental by=pk rows=99999999999999999999 "
                "estimate=1 chunks=1\n",
                "line 2: expected a number");
    state_error("snapshot-state 1\ntable a.b incremental by=hash rows=1 estimate=1 chunks=1\n",
                "by= is pk, index or ctid");
    state_error("snapshot-state 1\ntable a.b incremental by=pk by=pk\n", "attribute given twice");
    state_error("snapshot-state 1\nlast a.b [\"1\"]\n", "line 2: not the table of the line before");
    state_error(
        "snapshot-state 1\ntable a.b incremental by=pk rows=1 estimate=1 chunks=1\nlast a.b [1]\n",
        "line 3: a key value is a string");
    state_error("snapshot-state 1\ntable a.b incremental by=pk rows=1 estimate=1 chunks=1\nlast "
                "a.b [\"1\"\n",
                "line 3: the last key is a JSON array");
    state_error(
        "snapshot-state 1\ntable a.b initial by=ctid rows=1 estimate=1 chunks=1\nlast a.b (12,3)\n",
        "expected (PAGE,0)");
    state_error("snapshot-state 1\nqueued a.b rows=1\n", "unknown attribute");
    state_error("snapshot-state 1\npaused 2\n", "paused is 0 or 1");
    state_error("snapshot-state 1\nqueued \"a.b\n", "unterminated string");
    state_error("snapshot-state 1\ncaptured a\ncaptured b\n", "line 3: a second line of this kind");
}

/* ---- signals ---- */

static rc_status row(rc_signal *sg, rc_arena *a, const char *type, const char *data, rc_error *err)
{
    rc_str d = {data, data ? strlen(data) : 0};
    return rc_signal_parse(sg, a, "public.rowcast_signal", (rc_str){"s-42", 4},
                           (rc_str){type, strlen(type)}, data ? &d : NULL, err);
}

static void test_signals(void **state)
{
    (void)state;
    rc_arena a;
    rc_arena_init(&a);
    rc_signal sg;
    assert_int_equal(
        row(&sg, &a, "execute-snapshot",
            "{\"data-collections\": [\"public.orders\", \"public.items\", \"public.orders\"], "
            "\"type\": "
            "\"incremental\", \"additional-conditions\": [{\"data-collection\": \"public.orders\", "
            "\"filter\": \"status = 'open'\"}]}",
            NULL),
        RC_OK);
    assert_int_equal(sg.kind, RC_SIGNAL_EXECUTE);
    assert_string_equal(sg.id, "s-42");
    assert_int_equal(sg.ntables, 2); /* each table once */
    assert_string_equal(sg.tables[0].name, "public.orders");
    assert_string_equal(sg.tables[0].filter, "status = 'open'");
    assert_null(sg.tables[1].filter);
    assert_int_equal(row(&sg, &a, "stop-snapshot", NULL, NULL), RC_OK);
    assert_true(sg.kind == RC_SIGNAL_STOP && sg.ntables == 0);
    assert_int_equal(row(&sg, &a, "stop-snapshot",
                         "{\"data-collections\": [\"public.items\"], \"type\": \"incremental\"}",
                         NULL),
                     RC_OK);
    assert_true(sg.ntables == 1 && !strcmp(sg.tables[0].name, "public.items"));
    assert_int_equal(row(&sg, &a, "pause-snapshot", NULL, NULL), RC_OK);
    assert_int_equal(sg.kind, RC_SIGNAL_PAUSE);
    assert_int_equal(row(&sg, &a, "resume-snapshot", "{}", NULL), RC_OK);
    assert_int_equal(sg.kind, RC_SIGNAL_RESUME);
    assert_int_equal(row(&sg, &a, "snapshot-window-open", "{\"run\":1,\"chunk\":2}", NULL), RC_OK);
    assert_int_equal(sg.kind, RC_SIGNAL_WATERMARK);
    const char msg[] =
        "{\"id\":\"m-1\",\"type\":\"execute-snapshot\",\"data\":{\"data-collections\":[\"s.t\"]}}";
    assert_int_equal(rc_signal_parse_message(&sg, &a, msg, sizeof msg - 1, NULL), RC_OK);
    assert_true(sg.kind == RC_SIGNAL_EXECUTE && !strcmp(sg.id, "m-1") && sg.ntables == 1 &&
                !strcmp(sg.tables[0].name, "s.t"));
    rc_arena_fini(&a);
}

static void signal_error(const char *type, const char *data, const char *want)
{
    rc_arena a;
    rc_arena_init(&a);
    rc_signal sg;
    rc_error err;
    rc_error_clear(&err);
    assert_int_not_equal(row(&sg, &a, type, data, &err), RC_OK);
    if (strcmp(err.message, want)) fail_msg("got \"%s\"\nwant \"%s\"", err.message, want);
    rc_arena_fini(&a);
}

static void test_signal_errors(void **state)
{
    (void)state;
    signal_error("execute-snapshot", "{\"data-collections\" [\"a.b\"]}",
                 "signal id=s-42 in public.rowcast_signal: data is not JSON (byte 20: ':' expected "
                 "after object key (found '['))");
    signal_error("explode", NULL,
                 "signal id=s-42 in public.rowcast_signal: unknown type \"explode\" "
                 "(execute-snapshot, stop-snapshot, "
                 "pause-snapshot, resume-snapshot)");
    signal_error("execute-snapshot", NULL,
                 "signal id=s-42 in public.rowcast_signal: execute-snapshot without data");
    signal_error(
        "execute-snapshot", "{\"type\": \"incremental\"}",
        "signal id=s-42 in public.rowcast_signal: execute-snapshot without data-collections");
    signal_error("execute-snapshot", "{\"data-collections\": []}",
                 "signal id=s-42 in public.rowcast_signal: data-collections is empty");
    signal_error("execute-snapshot", "{\"data-collections\": [\"a.b\"], \"type\": \"blocking\"}",
                 "signal id=s-42 in public.rowcast_signal: only \"type\": \"incremental\" "
                 "snapshots are supported");
    signal_error(
        "execute-snapshot", "{\"data-collections\": [1]}",
        "signal id=s-42 in public.rowcast_signal: data-collections is an array of table names");
    signal_error("execute-snapshot",
                 "{\"data-collections\": [\"a.b\"], \"additional-conditions\": "
                 "[{\"data-collection\": \"c.d\", \"filter\": \"x\"}]}",
                 "signal id=s-42 in public.rowcast_signal: additional-conditions names a table not "
                 "in data-collections");
    signal_error("stop-snapshot", "[1]",
                 "signal id=s-42 in public.rowcast_signal: data is not a JSON object");
    rc_arena a;
    rc_arena_init(&a);
    rc_signal sg;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_signal_parse_message(&sg, &a, "{\"id\":1}", 8, &err), RC_ERR_SCHEMA);
    assert_string_equal(
        err.message, "message rowcast.signal: \"id\" and \"type\" are strings, \"data\" an object");
    rc_arena_fini(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_state_example),
        cmocka_unit_test(test_state_errors),
        cmocka_unit_test(test_signals),
        cmocka_unit_test(test_signal_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
