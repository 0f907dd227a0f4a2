/* Upstream Debezium's int64 of a PostgreSQL LSN (rc_dbz_lsn_value, the source block's "lsn",
 * the sequence and the transaction id): "X/Y" with each half 32 bits of hex, or a decimal
 * number; anything else (a half past 32 bits included) is refused, never cut. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "formats/debezium_up_enc.h"

static bool lsn(const char *s, uint64_t *v) { return rc_dbz_lsn_value((rc_str){s, strlen(s)}, v); }

static void test_lsn_values(void **state)
{
    (void)state;
    uint64_t v = 0;
    assert_true(lsn("16/B374D848", &v));
    assert_int_equal(v, 0x16B374D848u);
    assert_true(lsn("0/0", &v));
    assert_int_equal(v, 0);
    assert_true(lsn("FFFFFFFF/ffffffff", &v));
    assert_int_equal(v, UINT64_MAX);
    assert_true(lsn("00000000A/000000001", &v)); /* leading zeros: the value fits */
    assert_int_equal(v, 0xA00000001u);
    assert_true(lsn("24023928", &v)); /* a decimal number as it is */
    assert_int_equal(v, 24023928u);
}

static void test_lsn_refused(void **state)
{
    (void)state;
    const char *bad[] = {"1/100000000", /* the low half past 32 bits: was read as 1/0 */
                         "100000000/0", /* the high half past 32 bits: was 0 */
                         "/5", "5/", "", "/", "1/2/3", "G/1", "1/-1", "18446744073709551616", "12AB"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        uint64_t v = 7;
        if (lsn(bad[i], &v)) fail_msg("\"%s\" read as %llu", bad[i], (unsigned long long)v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lsn_values),
        cmocka_unit_test(test_lsn_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
