/* Time zones: fixed offsets; named zones against glibc's own reading of the same tzdata files
 * (localtime_r with TZ set: an independent implementation of TZif and the POSIX rule), from
 * 1900 to 2200; wall-clock times resolved as java.time does in gaps and overlaps; bad TZif
 * files rejected with a byte position. */
#define _DEFAULT_SOURCE /* tm_gmtoff, setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/fmt.h"
#include "rowcast/tz.h"

/* where the library reads zones: $TZDIR, else /usr/share/zoneinfo (as tz.c) */
static const char *zoneinfo_dir(void)
{
    const char *d = getenv("TZDIR");
    return d && *d ? d : "/usr/share/zoneinfo";
}

static int64_t at(int y, unsigned mo, unsigned d, int h, int mi)
{
    return rc_days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60;
}

static void test_fixed(void **state)
{
    (void)state;
    rc_tz tz;
    rc_error err;
    const char *ok[] = {"UTC", "Z", "+00:00", "+08:00", "-0530", "+8", "-12", "+14:00"};
    const int32_t want[] = {0, 0, 0, 8 * 3600, -(5 * 3600 + 1800), 8 * 3600, -12 * 3600, 14 * 3600};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        rc_error_clear(&err);
        assert_int_equal(rc_tz_parse(ok[i], "x.timezone", &tz, &err), RC_OK);
        assert_null(tz.zone);
        assert_int_equal(tz.fixed, want[i]);
        assert_int_equal(rc_tz_offset_at(&tz, 1700000000), want[i]);
        assert_int_equal(rc_tz_offset_of_local(&tz, 1700000000), want[i]);
    }
    const char *bad[] = {"",
                         "+8x",
                         "+ 8",
                         "+19:00",
                         "+08:60",
                         "../etc/passwd",
                         "/etc/localtime",
                         "Asia/../Asia/Tokyo",
                         "Not/AZone"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rc_error_clear(&err);
        assert_int_equal(rc_tz_parse(bad[i], "x.timezone", &tz, &err), RC_ERR_USAGE);
        assert_non_null(strstr(err.message, "x.timezone"));
    }
    /* a directory of zones is not a zone: said as such, not as a bad file */
    rc_error_clear(&err);
    assert_int_equal(rc_tz_parse("America", "x.timezone", &tz, &err), RC_ERR_USAGE);
    char msg[600];
    snprintf(msg, sizeof msg,
             "option x.timezone: no time zone 'America' (%s/America: Is a directory; zone names "
             "come from the tzdata package)",
             zoneinfo_dir());
    assert_string_equal(err.message, msg);
}

/* Every 6 hours and 17 seconds from 1900 to 2200 (so every transition day is hit at several
 * hours), the offset equals glibc's tm_gmtoff for the same zone. */
static void test_against_glibc(void **state)
{
    (void)state;
    const char *zones[] = {"America/New_York",    "Europe/London",     "Europe/Dublin",
                           "Australia/Lord_Howe", "Asia/Shanghai",     "America/Sao_Paulo",
                           "Pacific/Apia",        "Africa/Casablanca", "America/Santiago",
                           "Asia/Kolkata",        "Pacific/Chatham",   "America/St_Johns"};
    for (size_t k = 0; k < sizeof zones / sizeof *zones; k++) {
        rc_tz tz;
        rc_error err;
        rc_error_clear(&err);
        assert_int_equal(rc_tz_parse(zones[k], "test", &tz, &err), RC_OK);
        assert_non_null(tz.zone);
        setenv("TZ", zones[k], 1);
        tzset();
        size_t diffs = 0;
        for (int64_t t = at(1900, 1, 1, 0, 0); t < at(2200, 1, 1, 0, 0); t += 6 * 3600 + 17) {
            time_t tt = (time_t)t;
            struct tm tm;
            assert_non_null(localtime_r(&tt, &tm));
            int32_t ours = rc_tz_offset_at(&tz, t);
            if (ours != tm.tm_gmtoff && diffs++ < 5)
                print_error("%s at %lld: rowcast %d, glibc %ld\n", zones[k], (long long)t, ours,
                            tm.tm_gmtoff);
            /* a wall-clock time read back gives an offset valid at its instant (or, in a gap,
             * the one before it); the instant itself comes back unless the clock was set back */
            int64_t local = t + ours;
            int32_t back = rc_tz_offset_of_local(&tz, local);
            if (rc_tz_offset_at(&tz, local - back) == back && back != ours && back < ours &&
                diffs++ < 5)
                print_error("%s local %lld: resolved to the later of two offsets\n", zones[k],
                            (long long)local);
            if (back != ours && rc_tz_offset_at(&tz, local - back) != back && diffs++ < 5)
                print_error("%s local %lld: offset %d is not valid there\n", zones[k],
                            (long long)local, back);
        }
        assert_int_equal(diffs, 0);
    }
    unsetenv("TZ");
    tzset();
}

/* The cases java.time documents: a gap moves the time later by its length, an overlap takes
 * the earlier offset. */
static void test_java_resolution(void **state)
{
    (void)state;
    rc_tz ny, lh;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_tz_parse("America/New_York", "test", &ny, &err), RC_OK);
    /* 2024-03-10 02:30 does not exist: 03:30 EDT = 07:30Z */
    int64_t l = at(2024, 3, 10, 2, 30);
    assert_int_equal(l - rc_tz_offset_of_local(&ny, l), at(2024, 3, 10, 7, 30));
    /* 2024-11-03 01:30 happens twice: the first (EDT) = 05:30Z */
    l = at(2024, 11, 3, 1, 30);
    assert_int_equal(l - rc_tz_offset_of_local(&ny, l), at(2024, 11, 3, 5, 30));
    /* just outside both */
    l = at(2024, 3, 10, 1, 59);
    assert_int_equal(l - rc_tz_offset_of_local(&ny, l), at(2024, 3, 10, 6, 59));
    l = at(2024, 11, 3, 2, 0);
    assert_int_equal(l - rc_tz_offset_of_local(&ny, l), at(2024, 11, 3, 7, 0));
    /* after the table (2037): the POSIX rule, the same answers */
    l = at(2100, 3, 14, 2, 30);
    assert_int_equal(l - rc_tz_offset_of_local(&ny, l), at(2100, 3, 14, 7, 30));
    assert_int_equal(rc_tz_offset_at(&ny, at(2100, 7, 1, 12, 0)), -4 * 3600);
    assert_int_equal(rc_tz_offset_at(&ny, at(2100, 12, 1, 12, 0)), -5 * 3600);
    /* Lord Howe moves by 30 minutes: 2024-10-06 02:15 is in the gap -> 02:45 +11:00 */
    rc_error_clear(&err);
    assert_int_equal(rc_tz_parse("Australia/Lord_Howe", "test", &lh, &err), RC_OK);
    l = at(2024, 10, 6, 2, 15);
    assert_int_equal(l - rc_tz_offset_of_local(&lh, l), at(2024, 10, 5, 15, 45));
    /* the same name twice is the same zone, loaded once */
    rc_tz again;
    rc_error_clear(&err);
    assert_int_equal(rc_tz_parse("America/New_York", "test", &again, &err), RC_OK);
    assert_ptr_equal(again.zone, ny.zone);
}

static void test_bad_files(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/America/New_York", zoneinfo_dir());
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static unsigned char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    rc_tzdata *z = NULL;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_tzdata_parse(buf, n, &z, &err), RC_OK);
    rc_tzdata_free(z);
    /* every truncation is an error, never a crash or a zone */
    for (size_t cut = 0; cut < n - 1; cut += cut < 100 ? 1 : 37) {
        z = NULL;
        rc_error_clear(&err);
        assert_int_not_equal(rc_tzdata_parse(buf, cut, &z, &err), RC_OK);
        assert_null(z);
        assert_non_null(strstr(err.message, "TZif"));
    }
    unsigned char copy[1 << 16];
    memcpy(copy, buf, n);
    copy[0] = 'X';
    rc_error_clear(&err);
    assert_int_equal(rc_tzdata_parse(copy, n, &z, &err), RC_ERR_SYNTAX);
    assert_int_equal(err.offset, 0);
    memcpy(copy, buf, n);
    copy[n - 3] = '?'; /* the footer rule */
    rc_error_clear(&err);
    assert_int_equal(rc_tzdata_parse(copy, n, &z, &err), RC_ERR_SYNTAX);
    assert_non_null(strstr(err.message, "footer"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixed),
        cmocka_unit_test(test_against_glibc),
        cmocka_unit_test(test_java_resolution),
        cmocka_unit_test(test_bad_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
