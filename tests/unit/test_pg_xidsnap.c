/* pg_current_snapshot()'s text and the chunk's visibility check (src/sources/pg/pg_xidsnap.c):
 * parsing, errors naming the byte, 32-bit xids placed in xmin's epoch (and across a wrap). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "sources/pg/pg_xidsnap.h"

static rc_status parse(rc_pg_xidsnap *s, const char *text, rc_error *err)
{
    rc_error_clear(err);
    return rc_pg_xidsnap_parse(s, text, strlen(text), err);
}

static void test_parse(void **state)
{
    (void)state;
    rc_pg_xidsnap s = {0};
    rc_error err;
    assert_int_equal(parse(&s, "745:749:745,747", &err), RC_OK);
    assert_int_equal(s.xmin, 745);
    assert_int_equal(s.xmax, 749);
    assert_int_equal(s.nxip, 2);
    assert_true(rc_pg_xidsnap_in_progress(&s, 747));
    assert_false(rc_pg_xidsnap_in_progress(&s, 746));
    assert_true(rc_pg_xidsnap_before_xmin(&s, 744));
    assert_false(rc_pg_xidsnap_before_xmin(&s, 745));
    assert_int_equal(parse(&s, "10:10:", &err), RC_OK);
    assert_int_equal(s.nxip, 0);
    rc_pg_xidsnap_fini(&s);
}

static void test_errors(void **state)
{
    (void)state;
    rc_pg_xidsnap s = {0};
    rc_error err;
    static const char *const bad[] = {"", "1", "1:", "1:2", "2:1:", "1:5:7", "1:5:2,", "1:5:2;3", "x:1:", "1:2147483649:"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(parse(&s, bad[i], &err), RC_ERR_SYNTAX);
        assert_non_null(strstr(err.message, "pg_current_snapshot: "));
        assert_true(err.offset <= strlen(bad[i]));
    }
    rc_pg_xidsnap_fini(&s);
}

/* xid8 4294967290 (epoch 0) .. 4294967300 (epoch 1, xid 4): pgoutput's 32-bit xids. */
static void test_epochs(void **state)
{
    (void)state;
    rc_pg_xidsnap s = {0};
    rc_error err;
    assert_int_equal(parse(&s, "4294967290:4294967310:4294967292,4294967300", &err), RC_OK);
    assert_int_equal(rc_pg_xidsnap_full(&s, 4), UINT64_C(4294967300));
    assert_true(rc_pg_xidsnap_in_progress(&s, 4));
    assert_true(rc_pg_xidsnap_in_progress(&s, 4294967292u));
    assert_false(rc_pg_xidsnap_in_progress(&s, 5));
    assert_true(rc_pg_xidsnap_before_xmin(&s, 4294967280u));
    assert_false(rc_pg_xidsnap_before_xmin(&s, 3));
    rc_pg_xidsnap_fini(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_parse), cmocka_unit_test(test_errors),
                                       cmocka_unit_test(test_epochs)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
