/* The native format: identity on the examples, a 10,000-event property test, and errors
 * that name the byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"
#include "randev.h"

typedef struct fixture {
    void *dec;
    rc_arena a;
    rc_event_list list;
    rc_buf out;
    rc_error err;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    rc_error_clear(&f->err);
    assert_int_equal(rc_format_native.dec_new(NULL, &f->dec, &f->err), RC_OK);
    rc_arena_init(&f->a);
    rc_buf_init(&f->out, 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rc_format_native.dec_free(f->dec);
    rc_arena_fini(&f->a);
    rc_buf_fini(&f->out);
    rc_event_list_fini(&f->list);
    free(f);
    return 0;
}

static rc_status decode(fixture *f, const char *s, size_t n)
{
    f->list.count = 0;
    rc_error_clear(&f->err);
    return rc_native_decode(f->dec, s, n, &f->a, &f->list, &f->err);
}

static void test_examples_identity(void **state)
{
    fixture *f = *state;
    FILE *in = fopen(RC_SOURCE_DIR "/examples/shop.ndjson", "rb");
    assert_non_null(in);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int lines = 0;
    bool seen[RC_OP_COUNT] = {0};
    /* every MySQL-family type of FORMATS.md §1.1 must appear in the examples */
    static const char *const required[] = {
        "tinyint", "smallint", "mediumint", "int", "integer", "year", "bool", "boolean", "bigint", "bigint unsigned",
        "decimal", "numeric", "float", "double", "char", "varchar", "tinytext", "text", "mediumtext", "longtext",
        "enum", "set", "tinyblob", "blob", "mediumblob", "longblob", "binary", "varbinary", "bit", "date", "time",
        "datetime", "timestamp", "json", "geometry"};
    enum { NREQ = sizeof required / sizeof *required };
    bool have[NREQ] = {0};
    while ((n = getline(&line, &cap, in)) > 0) {
        n--; /* newline */
        rc_arena_reset(&f->a);
        if (decode(f, line, (size_t)n) != RC_OK) fail_msg("line %d: %s", lines + 1, f->err.message);
        assert_int_equal(f->list.count, 1);
        seen[f->list.items[0].op] = true;
        for (uint32_t c = 0; c < f->list.items[0].ncols; c++) {
            const char *tn = f->list.items[0].cols[c].type.info->name;
            for (int k = 0; k < NREQ; k++) {
                size_t rl = strlen(required[k]);
                if (!strncmp(tn, required[k], rl) && (tn[rl] == '\0' || !strcmp(tn + rl, " unsigned"))) have[k] = true;
            }
        }
        rc_buf_reset(&f->out);
        assert_int_equal(rc_native_encode(NULL, &f->list.items[0], &f->out, &f->err), RC_OK);
        if (f->out.len != (size_t)n || memcmp(f->out.data, line, (size_t)n) != 0)
            fail_msg("line %d does not re-encode byte for byte", lines + 1);
        lines++;
    }
    free(line);
    fclose(in);
    assert_true(lines >= 15);
    for (int op = 0; op < RC_OP_COUNT; op++)
        if (!seen[op]) fail_msg("examples have no %s event", rc_op_name((rc_op)op));
    for (int k = 0; k < NREQ; k++)
        if (!have[k]) fail_msg("examples have no column of type %s", required[k]);
}

static void test_property_round_trip(void **state)
{
    fixture *f = *state;
    randev_rng rng = {20261130};
    rc_arena gen;
    rc_arena_init(&gen);
    rc_buf second;
    rc_buf_init(&second, 0);
    for (int i = 0; i < 10000; i++) {
        rc_event ev;
        rc_arena_reset(&gen);
        rc_arena_reset(&f->a);
        randev_make(&rng, &gen, &ev);
        rc_buf_reset(&f->out);
        assert_int_equal(rc_native_encode(NULL, &ev, &f->out, &f->err), RC_OK);
        if (decode(f, f->out.data, f->out.len) != RC_OK)
            fail_msg("event %d: %s at byte %zu\n%.*s", i, f->err.message, f->err.offset, (int)f->out.len, f->out.data);
        assert_int_equal(f->list.count, 1);
        char why[200];
        if (!rc_event_equal(&ev, &f->list.items[0], why, sizeof why))
            fail_msg("event %d: %s\n%.*s", i, why, (int)f->out.len, f->out.data);
        rc_buf_reset(&second);
        assert_int_equal(rc_native_encode(NULL, &f->list.items[0], &second, &f->err), RC_OK);
        assert_int_equal(second.len, f->out.len);
        assert_memory_equal(second.data, f->out.data, second.len);
    }
    rc_buf_fini(&second);
    rc_arena_fini(&gen);
}

#define HEAD "{\"op\":\"insert\",\"source\":{\"kind\":\"mysql\",\"table\":\"t\"},\"columns\":[{\"name\":\"c\",\"type\":"

static void expect(fixture *f, const char *line, rc_status code, size_t off, const char *msg_part)
{
    rc_arena_reset(&f->a);
    rc_status st = decode(f, line, strlen(line));
    if (st != code) fail_msg("%s\n  status %s, expected %s (%s)", line, rc_status_name(st), rc_status_name(code), f->err.message);
    if (f->err.offset != off) fail_msg("%s\n  offset %zu, expected %zu (%s)", line, f->err.offset, off, f->err.message);
    if (!strstr(f->err.message, msg_part)) fail_msg("message '%s' lacks '%s'", f->err.message, msg_part);
    assert_int_equal(f->list.count, 0);
}

static void test_bad_input(void **state)
{
    fixture *f = *state;
    expect(f, HEAD "\"int\"}],\"after\":[1", RC_ERR_SYNTAX, 101, "unexpected end");     /* truncated */
    expect(f, "hello", RC_ERR_SYNTAX, 0, "value expected");                             /* not JSON */
    expect(f, HEAD "\"text\"}],\"after\":[\"a\xFF\"]}", RC_ERR_UTF8, 103, "UTF-8");       /* invalid UTF-8 */
    expect(f, HEAD "\"integr\"}],\"after\":[1]}", RC_ERR_TYPE, 84, "unknown mysql column type 'integr'");
    expect(f, HEAD "\"bigint unsigned\"}],\"after\":[18446744073709551616]}", RC_ERR_RANGE, 112, "out of range");
    expect(f, HEAD "\"bigint\"}],\"after\":[9223372036854775808]}", RC_ERR_RANGE, 103, "out of range");
    expect(f, HEAD "\"int\"}],\"after\":[\"12\"]}", RC_ERR_VALUE, 100, "expected an integer, found string");
    expect(f, HEAD "\"int\"}],\"after\":[1.5]}", RC_ERR_VALUE, 100, "is not an integer");
    expect(f, HEAD "\"date\"}],\"after\":[\"2023-02-29\"]}", RC_ERR_VALUE, 101, "is not a valid date");
    expect(f, HEAD "\"decimal(5,2)\"}],\"after\":[\"1.2.3\"]}", RC_ERR_VALUE, 109, "is not a decimal");
    expect(f, HEAD "\"blob\"}],\"after\":[\"YQ=!\"]}", RC_ERR_VALUE, 105, "bad base64");
    expect(f, HEAD "\"bit(4)\"}],\"after\":[16]}", RC_ERR_RANGE, 103, "does not fit in bit(4)");
    expect(f, HEAD "\"int\"}],\"after\":[1,2]}", RC_ERR_SCHEMA, 99, "2 values but the event has 1 columns");
    expect(f, HEAD "\"int\"}],\"before\":[1],\"after\":[1]}", RC_ERR_SCHEMA, 100, "op \"insert\" has no \"before\"");
    expect(f, HEAD "\"int\"}]}", RC_ERR_SCHEMA, 6, "needs \"after\"");
    expect(f, "{\"op\":\"upsert\"}", RC_ERR_SCHEMA, 6, "unknown op");
    expect(f, "{\"source\":{}}", RC_ERR_SCHEMA, 0, "no \"op\"");
    expect(f, "{\"op\":\"heartbeat\",\"extra\":1}", RC_ERR_SCHEMA, 18, "unknown field \"extra\"");
    expect(f, "{\"op\":\"heartbeat\",\"op\":\"ddl\"}", RC_ERR_SCHEMA, 18, "duplicate field");
    expect(f, "{\"op\":\"ddl\"}", RC_ERR_SCHEMA, 6, "needs \"ddl\"");
    expect(f, "{\"op\":\"heartbeat\",\"ts_us\":\"x\"}", RC_ERR_SCHEMA, 26, "must be a JSON number");
    expect(f, "[1]", RC_ERR_SCHEMA, 0, "must be a JSON object");
}

static void test_invalid_and_special_values(void **state)
{
    fixture *f = *state;
    const char *line = HEAD "\"datetime\"},{\"name\":\"d\",\"type\":\"double\"},{\"name\":\"b\",\"type\":\"bit(64)\"}],"
                            "\"after\":[{\"invalid\":\"0000-00-00 00:00:00\"},\"NaN\",18446744073709551615]}";
    assert_int_equal(decode(f, line, strlen(line)), RC_OK);
    const rc_event *ev = &f->list.items[0];
    assert_int_equal(ev->after[0].kind, RC_V_INVALID);
    assert_int_equal(ev->after[0].s.n, 19);
    assert_int_equal(ev->after[1].kind, RC_V_FLOAT64);
    assert_true(ev->after[1].f64 != ev->after[1].f64);
    assert_true(ev->after[2].u == UINT64_MAX);
    rc_buf_reset(&f->out);
    assert_int_equal(rc_native_encode(NULL, ev, &f->out, &f->err), RC_OK);
    assert_int_equal(f->out.len, strlen(line));
    assert_memory_equal(f->out.data, line, f->out.len);
}

/* An incremental snapshot's table edges: a read without a row, columns optional, written back
 * as read; an edge with a row, or a snapshot marker that is no edge, is refused as a read. */
static void test_incremental_edges(void **state)
{
    fixture *f = *state;
    static const char *const edges[] = {
        "{\"op\":\"read\",\"source\":{\"kind\":\"mysql\",\"table\":\"t\"},\"snapshot\":\"incremental:start\",\"columns\":[{\"name\":\"c\",\"type\":\"int\",\"pk\":true}]}",
        "{\"op\":\"read\",\"source\":{\"kind\":\"mysql\",\"table\":\"t\"},\"snapshot\":\"incremental:end\"}",
        "{\"op\":\"read\",\"source\":{\"kind\":\"mysql\",\"table\":\"t\"},\"snapshot\":\"incremental:stopped\"}",
    };
    for (int k = 0; k < 3; k++) {
        assert_int_equal(decode(f, edges[k], strlen(edges[k])), RC_OK);
        const rc_event *ev = &f->list.items[0];
        assert_int_equal(rc_event_incremental(ev), RC_INCR_START + k);
        assert_true(rc_event_snapshot_edge(ev));
        rc_buf_reset(&f->out);
        assert_int_equal(rc_native_encode(NULL, ev, &f->out, &f->err), RC_OK);
        assert_int_equal(f->out.len, strlen(edges[k]));
        assert_memory_equal(f->out.data, edges[k], f->out.len);
    }
    const char *row = "{\"op\":\"read\",\"source\":{\"kind\":\"mysql\",\"table\":\"t\"},\"snapshot\":\"incremental\",\"columns\":[{\"name\":\"c\",\"type\":\"int\"}],\"after\":[1]}";
    assert_int_equal(decode(f, row, strlen(row)), RC_OK);
    assert_int_equal(rc_event_incremental(&f->list.items[0]), RC_INCR_READ);
    assert_false(rc_event_snapshot_edge(&f->list.items[0]));
    expect(f, "{\"op\":\"read\",\"source\":{\"kind\":\"mysql\",\"table\":\"t\"},\"snapshot\":\"incremental:end\",\"columns\":[{\"name\":\"c\",\"type\":\"int\"}],\"after\":[1]}",
           RC_ERR_SCHEMA, 6, "snapshot \"incremental:end\" (a table edge) carries no row images");
    expect(f, "{\"op\":\"read\",\"source\":{\"kind\":\"mysql\",\"table\":\"t\"},\"snapshot\":\"incremental:begin\"}", RC_ERR_SCHEMA, 6,
           "op \"read\" needs \"columns\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_examples_identity, setup, teardown),
        cmocka_unit_test_setup_teardown(test_property_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_input, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_and_special_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_incremental_edges, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
