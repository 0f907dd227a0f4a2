/* Upstream Debezium's texts of PostgreSQL values:
 * - the geometric types with include.unknown.datatypes=true (rc_dbz_pg_geometric_text): each
 *   number as Java's Double.toString writes it, as the JDBC driver's PGbox, PGcircle, ... give it
 *   to the connector; the rest as the server wrote it;
 * - interval.handling.mode=string (rc_dbz_pg_interval_iso): Interval.toIsoString of pgjdbc's
 *   PGInterval parts, each with its own sign, every part written, the seconds without trailing
 *   zeros. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "formats/debezium_upstream.h"

/* in rendered by rc_dbz_pg_interval_iso (iso) or rc_dbz_pg_geometric_text is want */
static void render(bool iso, const char *in, const char *want)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_error err;
    rc_error_clear(&err);
    rc_column c = {.name = RC_STR("c")};
    if (iso && rc_dbz_pg_interval_iso(&b, &c, (rc_str){in, strlen(in)}, &err) != RC_OK) fail_msg("%s: %s", in, err.message);
    if (!iso) rc_dbz_pg_geometric_text(&b, (rc_str){in, strlen(in)});
    if (b.len != strlen(want) || (b.len && memcmp(b.data, want, b.len))) fail_msg("%s: %.*s, want %s", in, (int)b.len, b.data, want);
    rc_buf_fini(&b);
}
static void check(const char *in, const char *want) { render(false, in, want); }
static void check_iso(const char *in, const char *want) { render(true, in, want); }

static void test_geometric_text(void **state)
{
    (void)state;
    /* AbstractRecordsProducerTest.schemasAndValuesForDomainAliasTypes, as PostgreSQL 15 writes them */
    check("(1,1),(0,0)", "(1.0,1.0),(0.0,0.0)");
    check("<(10,4),10>", "<(10.0,4.0),10.0>");
    check("{-1,0,0}", "{-1.0,0.0,0.0}");
    check("[(0,0),(0,1)]", "[(0.0,0.0),(0.0,1.0)]");
    check("((0,0),(0,1),(1,0),(0,0))", "((0.0,0.0),(0.0,1.0),(1.0,0.0),(0.0,0.0))");
    /* Double.toString: plain from 10^-3 up to below 10^7, else d.dddE<exp> */
    check("(3.14,-0.5)", "(3.14,-0.5)");
    check("(1234567,10000000)", "(1234567.0,1.0E7)");
    check("(0.001,0.0001)", "(0.001,1.0E-4)");
    check("(1e+20,1.5e-05)", "(1.0E20,1.5E-5)");
    check("(123456789.25,-0)", "(1.2345678925E8,-0.0)");
    check("(1.7976931348623157e+308,2.5e-05)", "(1.7976931348623157E308,2.5E-5)");
    check("(Infinity,-Infinity),(NaN,0)", "(Infinity,-Infinity),(NaN,0.0)");
    check("", "");
}

static void test_interval_iso(void **state)
{
    (void)state;
    /* AbstractRecordsProducerTest.schemaAndValuesForIntervalAsString: 'P1Y2M3DT4H5M6.78S'::INTERVAL */
    check_iso("1 year 2 mons 3 days 04:05:06.78", "P1Y2M3DT4H5M6.78S");
    check_iso("00:00:00", "P0Y0M0DT0H0M0S");
    check_iso("-1 days -00:00:01.5", "P0Y0M-1DT0H0M-1.5S");
    check_iso("-00:00:00.000001", "P0Y0M0DT0H0M-0.000001S");
    check_iso("-2 years +3 mons -01:02:03", "P-2Y3M0DT-1H-2M-3S");
    check_iso("1 day 00:00:06.100000", "P0Y0M1DT0H0M6.1S");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometric_text),
        cmocka_unit_test(test_interval_iso),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
