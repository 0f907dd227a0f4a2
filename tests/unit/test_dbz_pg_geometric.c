/* Upstream Debezium's text of PostgreSQL's geometric types with include.unknown.datatypes=true
 * (rc_dbz_pg_geometric_text): each number as Java's Double.toString writes it, as the JDBC
 * driver's PGbox, PGcircle, ... give it to the connector; the rest as the server wrote it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "formats/debezium_upstream.h"

static void check(const char *in, const char *want)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_dbz_pg_geometric_text(&b, (rc_str){in, strlen(in)});
    if (b.len != strlen(want) || memcmp(b.data, want, b.len))
        fail_msg("%s: %.*s, want %s", in, (int)b.len, b.data, want);
    rc_buf_fini(&b);
}

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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometric_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
