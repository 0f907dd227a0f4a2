/* Avro-valid schema names and collision detection. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "check.h"
#include "rowcast/names.h"

static void name(const char *server, const char *db, const char *table, const char *want, bool want_clean)
{
    rc_str parts[3] = {{server, strlen(server)}, {db, strlen(db)}, {table, strlen(table)}};
    rc_buf b;
    rc_buf_init(&b, 0);
    bool clean = rc_avro_fullname(&b, parts, 3);
    rc_buf_putc(&b, '\0');
    assert_string_equal(b.data, want);
    assert_int_equal(clean, want_clean);
    rc_buf_fini(&b);
}

static void test_adjust(void **state)
{
    name("server1", "dbo", "customers", "server1.dbo.customers", true);
    name("1server", "db", "t", "_server.db.t", false);        /* invalid first character */
    name("_s", "my-db", "order items", "_s.my_db.order_items", false);
    name("s", "db", "9lives", "s.db.9lives", true);           /* digits are fine after the first */
    name("s", "db", "Müller", "s.db.M__ller", false);          /* each byte of a non-ASCII letter */
}

static void test_collision(void **state)
{
    rc_name_registry *r = rc_name_registry_new();
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_name_registry_add(r, "server1.db.a-b", 14, "server1.db.a_b", 14, &err), RC_OK);
    assert_int_equal(rc_name_registry_add(r, "server1.db.a-b", 14, "server1.db.a_b", 14, &err), RC_OK); /* same table again */
    assert_int_equal(rc_name_registry_add(r, "server1.db.a_b", 14, "server1.db.a_b", 14, &err), RC_ERR_VALUE);
    assert_non_null(strstr(err.message, "\"server1.db.a-b\" and \"server1.db.a_b\""));
    rc_error_clear(&err);
    assert_int_equal(rc_name_registry_add(r, "server1.db.c", 12, "server1.db.c", 12, &err), RC_OK);
    rc_name_registry_free(r);
    rc_name_registry_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adjust),
        cmocka_unit_test(test_collision),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
