/* Calendar arithmetic and the date/time layouts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "check.h"
#include "core/fmt.h"

static void test_civil(void **state)
{
    assert_int_equal(rc_days_from_civil(1970, 1, 1), 0);
    assert_int_equal(rc_days_from_civil(2022, 11, 15), 19311); /* seed 000 debezium example c22 */
    assert_int_equal(rc_days_from_civil(1969, 12, 31), -1);
    assert_int_equal(rc_days_from_civil(9999, 12, 31), 2932896);
    assert_int_equal(rc_days_from_civil(0, 1, 1), -719528);
    for (int64_t d = -800000; d < 3000000; d += 997) {
        int32_t y;
        unsigned m, dd;
        rc_civil_from_days(d, &y, &m, &dd);
        assert_int_equal(rc_days_from_civil(y, m, dd), d);
    }
}

static void test_validity(void **state)
{
    assert_true(rc_date_valid(2024, 2, 29));  /* leap day */
    assert_false(rc_date_valid(2023, 2, 29));
    assert_false(rc_date_valid(1900, 2, 29)); /* century, not leap */
    assert_true(rc_date_valid(2000, 2, 29));  /* 400-year leap */
    assert_true(rc_date_valid(9999, 12, 31));
    assert_false(rc_date_valid(0, 0, 0));     /* zero date */
    assert_false(rc_date_valid(2024, 4, 31));
    assert_false(rc_date_valid(10000, 1, 1));
}

static void test_date_time_layouts(void **state)
{
    rc_date d = {2024, 2, 29};
    EXPECT_TEXT("2024-02-29", rc_fmt_date(&b, &d));
    rc_date y0 = {1, 1, 1};
    EXPECT_TEXT("0001-01-01", rc_fmt_date(&b, &y0));
    rc_time t = {838, 59, 59, true, 0};
    EXPECT_TEXT("-838:59:59", rc_fmt_time(&b, &t));
    assert_true(rc_time_micros(&t) == -3020399000000LL);
    rc_time t2 = {0, 1, 2, false, 120000000};
    EXPECT_TEXT("00:01:02.12", rc_fmt_time(&b, &t2));
    assert_true(rc_time_micros(&t2) == 62120000);
    rc_time t3 = {10, 0, 0, false, 1};
    EXPECT_TEXT("10:00:00.000000001", rc_fmt_time(&b, &t3));
    rc_time t4 = {10, 1, 0, false, 0};
    assert_true(rc_time_micros(&t4) == 36060000000LL); /* seed 000 debezium example c23 */
    /* a fixed number of fraction digits, zeros kept on both sides */
    EXPECT_TEXT(".000500", rc_fmt_frac_digits(&b, 500, 6));
    EXPECT_TEXT(".5", rc_fmt_frac_digits(&b, 5, 1));
    EXPECT_TEXT(".999999999", rc_fmt_frac_digits(&b, 999999999, 9));
    EXPECT_TEXT(".000", rc_fmt_frac_digits(&b, 0, 3));
}

static void test_datetime_layouts(void **state)
{
    rc_datetime dt = {2020, 11, 25, 0, 1, 2, 12345000, {"Asia/Shanghai", 13}};
    EXPECT_TEXT("2020-11-25 00:01:02.012345 Asia/Shanghai", rc_fmt_datetime(&b, &dt, ' ', true));
    EXPECT_TEXT("2020-11-25T00:01:02.012345", rc_fmt_datetime(&b, &dt, 'T', false));
    rc_datetime d2 = {2022, 11, 15, 5, 12, 11, 0, {0}};
    assert_true(rc_datetime_epoch_ms(&d2) == 1668489131000LL); /* seed 000 debezium c24 */
    rc_datetime max = {9999, 12, 31, 23, 59, 59, 999999999, {0}};
    EXPECT_TEXT("9999-12-31 23:59:59.999999999", rc_fmt_datetime(&b, &max, ' ', true));
    int64_t us = 0;
    assert_true(rc_datetime_epoch_us(&max, &us) && us == 253402300799999999LL);
    rc_datetime far = {2022024, 11, 30, 10, 0, 0, 0, {0}}; /* the fuzzer's year: µs past INT64_MAX */
    assert_false(rc_datetime_epoch_us(&far, &us));
    rc_datetime past = {-2022024, 11, 30, 10, 0, 0, 0, {0}};
    assert_false(rc_datetime_epoch_us(&past, &us));
    assert_true(rc_datetime_epoch_ms(&far) == 63746776000800LL * 1000);
}

static void test_timestamps(void **state)
{
    rc_timestamp ts = {1606233662, 12345000};
    EXPECT_TEXT("1606233662.012345", rc_fmt_ts_epoch(&b, &ts));
    EXPECT_TEXT("2020-11-24T16:01:02.012345Z", rc_fmt_ts_iso(&b, &ts));
    EXPECT_TEXT("2020-11-25 00:01:02.012345", rc_fmt_ts_local(&b, &ts, 8 * 3600, ' '));
    rc_timestamp ns = {1668489131, 123456789};
    EXPECT_TEXT("2022-11-15T05:12:11.123456789Z", rc_fmt_ts_iso(&b, &ns));
    rc_timestamp whole = {1668489131, 0};
    EXPECT_TEXT("2022-11-15T05:12:11Z", rc_fmt_ts_iso(&b, &whole));
    EXPECT_TEXT("1668489131", rc_fmt_ts_epoch(&b, &whole));
    rc_timestamp neg = {-1, 500000000};
    EXPECT_TEXT("-0.5", rc_fmt_ts_epoch(&b, &neg));
    EXPECT_TEXT("1969-12-31T23:59:59.5Z", rc_fmt_ts_iso(&b, &neg));
    rc_timestamp leap = {951782400, 0}; /* 2000-02-29 */
    EXPECT_TEXT("2000-02-29T00:00:00Z", rc_fmt_ts_iso(&b, &leap));
}

/* rc_fmt_ts_java_memo writes rc_fmt_ts_java's text through its day memo: a day again, the next
 * day, a day before the epoch, a year of more than four digits and back, each width. */
static void test_timestamps_memo(void **state)
{
    rc_day_memo m = {0};
    rc_timestamp ts[] = {{1606233662, 12345000}, {1606233663, 0},         {1606262399, 999999999}, {1606262400, 1},
                         {-1, 500000000},        {-86401, 0},              {253402300800, 0},       {-62167219201, 0},
                         {1606233662, 12345000}, {INT64_MAX / 2, 999000000}};
    for (int width = 0; width <= 9; width += 3) {
        for (size_t i = 0; i < sizeof ts / sizeof *ts; i++) {
            rc_buf want, got;
            rc_buf_init(&want, 0), rc_buf_init(&got, 0);
            rc_buf_putc(&want, '"');
            rc_fmt_ts_java(&want, &ts[i], width);
            rc_buf_putc(&want, '"');
            rc_fmt_ts_java_memo(&got, &ts[i], &m, width, true);
            assert_int_equal(got.len, want.len);
            assert_memory_equal(got.data, want.data, want.len);
            rc_buf_reset(&got);
            rc_fmt_ts_java_memo(&got, &ts[i], &m, width, false);
            assert_int_equal(got.len, want.len - 2);
            assert_memory_equal(got.data, want.data + 1, got.len);
            rc_buf_fini(&want), rc_buf_fini(&got);
        }
    }
    EXPECT_TEXT("\"1969-12-31T23:59:59.5Z\"", rc_fmt_ts_java_memo(&b, &(rc_timestamp){-1, 500000000}, &m, 0, true));
    /* Debezium's PostgreSQL tests: tz_large, tz_zero (timestamptz: width 6), a timestamptz(3) */
    EXPECT_TEXT("+21016-11-04T06:51:30.123456Z", rc_fmt_ts_java_memo(&b, &(rc_timestamp){601060287090, 123456000}, &m, 6, false));
    EXPECT_TEXT("+21016-11-04T06:51:30.000000Z", rc_fmt_ts_java(&b, &(rc_timestamp){601060287090, 0}, 6));
    EXPECT_TEXT("2016-11-04T13:51:30.100Z", rc_fmt_ts_java(&b, &(rc_timestamp){1478267490, 100000000}, 3));
    EXPECT_TEXT("2016-11-04T13:51:30.12Z", rc_fmt_ts_java(&b, &(rc_timestamp){1478267490, 120000000}, 0));
    EXPECT_TEXT("2016-11-04T13:51:30.1200Z", rc_fmt_ts_java(&b, &(rc_timestamp){1478267490, 120000000}, 4));
    EXPECT_TEXT("2016-11-04T13:51:30.123456789Z", rc_fmt_ts_java(&b, &(rc_timestamp){1478267490, 123456789}, 4)); /* not cut */
    EXPECT_TEXT("-4713-11-24T00:00:00Z", rc_fmt_ts_java(&b, &(rc_timestamp){-210866803200, 0}, 0));
    EXPECT_TEXT("10000-01-01T00:00:00Z", rc_fmt_ts_iso(&b, &(rc_timestamp){253402300800, 0})); /* the other formats' ISO: no sign */
}

static void test_parsers(void **state)
{
    rc_date d;
    assert_true(rc_parse_date("2024-02-29", 10, &d));
    assert_int_equal(d.day, 29);
    assert_false(rc_parse_date("2023-02-29", 10, &d));
    assert_false(rc_parse_date("0000-00-00", 10, &d));
    assert_false(rc_parse_date("2024-2-29", 9, &d));
    /* expanded years as rc_fmt_date writes them: astronomical (44 BC is -43), beyond 9999 */
    assert_true(rc_parse_date("-0043-03-15", 11, &d));
    assert_true(d.year == -43 && d.month == 3 && d.day == 15);
    assert_true(rc_parse_date("5874897-12-31", 13, &d));
    assert_int_equal(d.year, 5874897);
    assert_true(rc_parse_date("-0004-02-29", 11, &d)); /* 5 BC is a leap year (year -4), 2 BC is not */
    assert_false(rc_parse_date("-0001-02-29", 11, &d));
    assert_false(rc_parse_date("-0000-01-01", 11, &d));
    assert_false(rc_parse_date("02024-01-01", 11, &d)); /* no padding past four digits */
    assert_false(rc_parse_date("-043-03-15", 10, &d));
    assert_false(rc_parse_date("12345678-01-01", 14, &d));
    rc_datetime bc;
    assert_true(rc_parse_datetime("-0000-01-01 00:00:00", 20, &bc) == false);
    assert_true(rc_parse_datetime("0000-01-01 00:00:00", 19, &bc) && bc.year == 0);
    assert_true(rc_parse_datetime("-0043-03-15 12:00:00.5", 22, &bc) && bc.year == -43 && bc.nanos == 500000000);
    rc_timestamp bts;
    assert_true(rc_parse_ts_iso("-0043-03-15T00:00:00Z", 21, &bts));
    rc_buf rb;
    rc_buf_init(&rb, 0);
    rc_fmt_ts_iso(&rb, &bts);
    assert_int_equal(rb.len, 21);
    assert_memory_equal(rb.data, "-0043-03-15T00:00:00Z", 21);
    rc_buf_fini(&rb);
    rc_time t;
    assert_true(rc_parse_time("-838:59:59", 10, &t));
    assert_true(t.neg && t.hour == 838);
    assert_true(rc_parse_time("838:59:59.999999", 16, &t));
    assert_int_equal(t.nanos, 999999000);
    assert_true(rc_parse_time("00:00:00.000000001", 18, &t));
    assert_false(rc_parse_time("-00:00:00", 9, &t)); /* not canonical */
    assert_false(rc_parse_time("1:00:00", 7, &t));
    assert_false(rc_parse_time("010:00:00", 9, &t));
    assert_false(rc_parse_time("10:60:00", 8, &t));
    assert_false(rc_parse_time("10:00:00.", 9, &t));
    assert_false(rc_parse_time("10:00:00.1234567890", 19, &t));
    rc_datetime dt;
    assert_true(rc_parse_datetime("2020-11-25 00:01:02.012345 Asia/Shanghai", 40, &dt));
    assert_int_equal(dt.nanos, 12345000);
    assert_int_equal(dt.zone.n, 13);
    assert_true(rc_parse_datetime("2020-11-25T00:01:02", 19, &dt));
    assert_int_equal(dt.zone.n, 0);
    assert_false(rc_parse_datetime("2020-11-25 24:00:00", 19, &dt));
    assert_false(rc_parse_datetime("2020-11-25 00:01:02 ", 20, &dt));
    assert_false(rc_parse_datetime("2020-11-25 00:01:02 A\\B", 23, &dt)); /* zone ids: no backslash */
    assert_false(rc_parse_datetime("2020-11-25 00:01:02 A\"B", 23, &dt));
    assert_true(rc_parse_datetime("2020-11-25 00:01:02 Etc/GMT-8", 28, &dt));
    rc_timestamp ts;
    assert_true(rc_parse_ts_iso("1970-01-01T00:00:00.000001Z", 27, &ts));
    assert_true(ts.sec == 0 && ts.nanos == 1000);
    assert_false(rc_parse_ts_iso("1970-01-01T00:00:00", 19, &ts));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_civil),           cmocka_unit_test(test_validity),
        cmocka_unit_test(test_date_time_layouts), cmocka_unit_test(test_datetime_layouts),
        cmocka_unit_test(test_timestamps), cmocka_unit_test(test_timestamps_memo),      cmocka_unit_test(test_parsers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
