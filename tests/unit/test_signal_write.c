/* The signal `rowcast snapshot` writes (sources/signal_write.h): patterns expanded against the
 * server's tables (the signal table left out), the data JSON (read back by the capture's own
 * parser, signal.h), the words of the message, and a pattern that matches nothing (its status,
 * what is near it, nothing inserted). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "sources/signal.h"
#include "sources/signal_write.h"

typedef struct inserted {
    int calls;
    char data[600];
    bool null;
} inserted;

static rc_status insert(void *ctx, const rc_signal_ask *ask, const char *data, rc_error *err)
{
    (void)ask, (void)err;
    inserted *in = ctx;
    in->calls++;
    in->null = !data;
    snprintf(in->data, sizeof in->data, "%s", data ? data : "");
    return RC_OK;
}

static rc_signal_name catalog[6];
static void fill(void)
{
    rc_signal_name c[] = {{"public", "o1"}, {"public", "o2"}, {"public", "orders"}, {"public", "rowcast_signal"},
                          {"sales", "x"}, {"we\"ird", "t\\1"}};
    memcpy(catalog, c, sizeof c);
}

/* rc_signal_write of TYPE for the patterns: its status, what was inserted, what is said. */
static rc_status run(const char *type, const char *const *patterns, size_t np, inserted *in, char *said, rc_error *err)
{
    fill();
    memset(in, 0, sizeof *in);
    rc_error_clear(err);
    rc_signal_ask ask = {"public.rowcast_signal", type, "rowcast-1-2", patterns, np, said, 600};
    return rc_signal_write(&ask, catalog, 6, "postgres://u@h/db", "schemas", insert, in, err);
}

static void test_execute(void **state)
{
    (void)state;
    inserted in;
    char said[600];
    rc_error err;
    const char *p[] = {"public.o*", "public.o1", "we*"};
    assert_int_equal(run("execute-snapshot", p, 3, &in, said, &err), RC_OK);
    assert_int_equal(in.calls, 1);
    assert_string_equal(in.data, "{\"data-collections\": [\"public.o1\", \"public.o2\", \"public.orders\", \"we\\\"ird.t\\\\1\"], "
                                 "\"type\": \"incremental\"}");
    assert_string_equal(said, "public.rowcast_signal on postgres://u@h/db: execute-snapshot public.o1, public.o2, public.orders, "
                              "we\"ird.t\\1 (4 tables)");
    /* what the capture reads of it: the same four names */
    rc_arena a;
    rc_arena_init(&a);
    rc_signal sg;
    rc_str data = {in.data, strlen(in.data)};
    assert_int_equal(rc_signal_parse(&sg, &a, "public.rowcast_signal", (rc_str){"i", 1}, (rc_str){"execute-snapshot", 16}, &data, &err),
                     RC_OK);
    assert_int_equal(sg.ntables, 4);
    assert_string_equal(sg.tables[3].name, "we\"ird.t\\1");
    rc_arena_fini(&a);
}

static void test_without_tables(void **state)
{
    (void)state;
    inserted in;
    char said[600];
    rc_error err;
    assert_int_equal(run("pause-snapshot", NULL, 0, &in, said, &err), RC_OK);
    assert_true(in.null);
    assert_string_equal(said, "public.rowcast_signal on postgres://u@h/db: pause-snapshot");
    const char *p[] = {"sales"}; /* a schema */
    assert_int_equal(run("stop-snapshot", p, 1, &in, said, &err), RC_OK);
    assert_string_equal(in.data, "{\"data-collections\": [\"sales.x\"], \"type\": \"incremental\"}");
    assert_string_equal(said, "public.rowcast_signal on postgres://u@h/db: stop-snapshot sales.x (1 table)");
}

static void unmatched(const char *pattern, const char *want)
{
    inserted in;
    char said[600];
    rc_error err;
    const char *p[] = {"public.o1", pattern};
    assert_int_equal(run("execute-snapshot", p, 2, &in, said, &err), RC_ERR_SCHEMA);
    assert_int_equal(in.calls, 0);
    assert_string_equal(err.message, want);
}

static void test_unmatched(void **state)
{
    (void)state;
    unmatched("public.ordrs", "--include 'public.ordrs' matched no table on postgres://u@h/db; did you mean 'public.orders'?");
    /* the signal table is never a snapshot's */
    unmatched("public.rowcast_signal", "--include 'public.rowcast_signal' matched no table on postgres://u@h/db; tables there: "
                                       "public.o1, public.o2, public.orders");
    unmatched("sales.nothing_like_it", "--include 'sales.nothing_like_it' matched no table on postgres://u@h/db; tables there: sales.x");
    unmatched("nosuch", "--include 'nosuch' matched no table on postgres://u@h/db (as nosuch.*: a pattern without a dot names "
                        "schemas); schemas there: public, sales, we\"ird");
}

static void test_nomem(void **state)
{
    (void)state;
    inserted in = {0};
    char said[600];
    rc_error err;
    rc_error_clear(&err);
    rc_signal_ask ask = {"public.s", "pause-snapshot", "i", NULL, 0, said, sizeof said};
    assert_int_equal(rc_signal_write(&ask, NULL, 0, "w", "schemas", insert, &in, &err), RC_ERR_NOMEM);
    assert_int_equal(in.calls, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_execute),
        cmocka_unit_test(test_without_tables),
        cmocka_unit_test(test_unmatched),
        cmocka_unit_test(test_nomem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
