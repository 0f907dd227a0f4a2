/* pg_copy: COPY text rows -> tuples: NULL, empty, every escape, tabs and newlines inside
 * values, column count errors with their byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "sources/pg/pg_copy.h"

static const rc_pg_column cols3[] = {{"a", 25, -1, 0}, {"b", 25, -1, 0}, {"c", 25, -1, 0}};
static const rc_pg_relation rel3 = {.oid = 1, .nspname = "public", .relname = "t", .ncols = 3, .cols = cols3};

static void check_text(const rc_pgo_datum *d, const char *want, size_t n)
{
    assert_int_equal(d->kind, RC_PGO_TEXT);
    assert_int_equal(d->len, n);
    assert_memory_equal(d->data, want, n);
}

static void test_values(void **state)
{
    (void)state;
    rc_arena a;
    rc_arena_init(&a);
    rc_error err;
    rc_error_clear(&err);
    rc_pgo_tuple t;
    const char line[] = "\\N\t\tx\\ty\\nz\\\\\\b\\f\\r\\v\\101\\x41\\x4g\\q\\";
    assert_int_equal(rc_pg_copy_row(&a, &rel3, line, sizeof line - 1, &t, &err), RC_OK);
    assert_int_equal(t.ncols, 3);
    assert_int_equal(t.cols[0].kind, RC_PGO_NULL);
    check_text(&t.cols[1], "", 0);
    /* \x4g: one hex digit, then g; \q is q; a backslash at the very end stays */
    check_text(&t.cols[2], "x\ty\nz\\\b\f\r\vAA\x04gq\\", 16);
    rc_arena_fini(&a);
}

static void test_counts(void **state)
{
    (void)state;
    rc_arena a;
    rc_arena_init(&a);
    rc_error err;
    rc_error_clear(&err);
    rc_pgo_tuple t;
    assert_int_equal(rc_pg_copy_row(&a, &rel3, "a\tb", 3, &t, &err), RC_ERR_SCHEMA);
    assert_string_equal(err.message, "COPY row of public.t has 2 columns, the table 3");
    assert_int_equal(err.offset, 3);
    rc_error_clear(&err);
    assert_int_equal(rc_pg_copy_row(&a, &rel3, "a\tb\tc\td", 7, &t, &err), RC_ERR_SCHEMA);
    assert_string_equal(err.message, "COPY row of public.t has more columns than the table's 3");
    assert_int_equal(err.offset, 5);
    /* a \N written \\N is the text \N, not NULL */
    rc_error_clear(&err);
    assert_int_equal(rc_pg_copy_row(&a, &rel3, "\\\\N\tb\tc", 8, &t, &err), RC_OK);
    check_text(&t.cols[0], "\\N", 2);
    /* no columns: COPY writes an empty line */
    static const rc_pg_relation rel0 = {.oid = 2, .nspname = "public", .relname = "e", .ncols = 0, .cols = cols3};
    assert_int_equal(rc_pg_copy_row(&a, &rel0, "", 0, &t, &err), RC_OK);
    assert_int_equal(t.ncols, 0);
    rc_arena_fini(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_values), cmocka_unit_test(test_counts)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
