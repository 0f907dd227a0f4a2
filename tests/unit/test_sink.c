/* Sink pieces that need no server: Kafka's murmur2 partitioner against the values Kafka's own
 * tests publish, the acknowledgement tracker behind checkpoints, topic templates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "check.h"
#include "rowcast/sink.h"
#include "sinks/tracker.h"

static void test_murmur2_java(void **state)
{
    /* Kafka clients' UtilsTest.testMurmur2 and the values other Kafka clients test against */
    static const struct {
        const char *key;
        int32_t hash;
    } cases[] = {{"21", -973932308},
                 {"foobar", -790332482},
                 {"a-little-bit-long-string", -985981536},
                 {"a-little-bit-longer-string", -1486304829},
                 {"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971},
                 {"abc", 479470107},
                 {"1", -1993445489},
                 {"12", 126087238},
                 {"123", -267702483},
                 {"1234", -1614185708},
                 {"12345", -1188365604}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(rc_murmur2(cases[i].key, strlen(cases[i].key)), cases[i].hash);
    /* toPositive(hash) % partitions, as the Java DefaultPartitioner / BuiltInPartitioner */
    assert_int_equal(rc_murmur2_partition("foobar", 6, 100), (int32_t)((uint32_t)-790332482 & 0x7fffffff) % 100);
    assert_int_equal(rc_murmur2_partition("abc", 3, 1), 0);
    assert_int_equal(rc_murmur2(NULL, 0), 275646681); /* empty key: seed ^ 0, mixed */
}

static void test_tracker(void **state)
{
    tracker t;
    assert_int_equal(tracker_init(&t, 8), RC_OK);
    uint64_t a = tracker_take(&t), b = tracker_take(&t);
    tracker_mark_at(&t, 100, 1, (tracker_sizes){0, 0}); /* line 1 -> records a, b */
    uint64_t c = tracker_take(&t);
    tracker_mark_at(&t, 200, 2, (tracker_sizes){0, 0}); /* line 2 -> record c */
    tracker_mark_at(&t, 250, 3, (tracker_sizes){0, 0}); /* line 3: no records */
    assert_false(t.has_safe);
    tracker_ack(&t, c); /* out of order: nothing is safe before a and b */
    tracker_ack(&t, b);
    assert_false(t.has_safe);
    tracker_ack(&t, a);
    assert_true(t.has_safe);
    assert_int_equal(t.safe_offset, 250);
    assert_int_equal(t.safe_line, 3);
    tracker_ack(&t, a); /* a duplicate report changes nothing */
    assert_int_equal(t.safe_offset, 250);
    /* the ring bounds the records in flight */
    for (int i = 0; i < 8; i++) {
        assert_true(tracker_room(&t));
        tracker_take(&t);
    }
    assert_false(tracker_room(&t));
    tracker_mark_at(&t, 300, 4, (tracker_sizes){0, 0});
    tracker_ack_all(&t);
    assert_true(tracker_room(&t));
    assert_int_equal(t.safe_offset, 300);
    tracker_fini(&t);
}

static void topic(const char *spec, const char *db, const char *schema, const char *table, const char *want)
{
    const char *tmpl;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_topic_template(spec, &tmpl, &err), RC_OK);
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.src.db = (rc_str){db, strlen(db)};
    ev.src.schema = (rc_str){schema, strlen(schema)};
    ev.src.table = (rc_str){table, strlen(table)};
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_topic_expand(tmpl, &ev.src, "srv", &b);
    rc_buf_putc(&b, '\0');
    assert_string_equal(b.data, want);
    rc_buf_fini(&b);
}

static void test_topics(void **state)
{
    topic("debezium", "shop", "", "orders", "srv.shop.orders");
    topic("{db}.{schema}.{table}", "pg", "public", "t", "pg.public.t");
    topic("{db}.{schema}.{table}", "shop", "", "t", "shop.t");     /* an empty part's dot is dropped */
    topic("cdc.{table}", "shop", "", "Bestellung Ü", "cdc.Bestellung___"); /* not Kafka's characters: '_' */
    topic("{db}.{table}", "", "", "", "");
    const char *tmpl;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_topic_template("{server}.{tabel}", &tmpl, &err), RC_ERR_USAGE);
    assert_non_null(strstr(err.message, "byte 10"));
    rc_error_clear(&err);
    assert_int_equal(rc_topic_template("{db", &tmpl, &err), RC_ERR_USAGE);
    rc_error_clear(&err);
    assert_int_equal(rc_topic_template("cdc/{table}", &tmpl, &err), RC_ERR_USAGE); /* '/' is no topic character */
    assert_non_null(strstr(err.message, "byte 4"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_murmur2_java),
        cmocka_unit_test(test_tracker),
        cmocka_unit_test(test_topics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
