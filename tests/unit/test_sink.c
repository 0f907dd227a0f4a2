/* Sink pieces that need no server: Kafka's murmur2 partitioner against the values Kafka's own
 * tests publish, the acknowledgement tracker behind checkpoints, topic templates, librdkafka's
 * log in rowcast's words. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "check.h"
#include "rowcast/sink.h"
#include "sinks/kafka_log.h"
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
    tracker_mark_at(&t, 100, 1); /* line 1 -> records a, b */
    uint64_t c = tracker_take(&t);
    tracker_mark_at(&t, 200, 2); /* line 2 -> record c */
    tracker_mark_at(&t, 250, 3); /* line 3: no records */
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
    tracker_mark_at(&t, 300, 4);
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

static void collect(void *ctx, rc_sink_notice kind, const char *text)
{
    rc_buf *b = ctx;
    rc_buf_puts(b, kind == RC_SINK_NOTICE_BROKER ? "B " : "D ");
    rc_buf_puts(b, text);
    rc_buf_putc(b, '\n');
}

/* librdkafka's FAIL lines as it writes them (retries repeat them with other "(after ...)"
 * parts): each broker and cause said once, with what to check; other lines once each */
static void test_kafka_log(void **state)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_sink_config cfg = {.notice = collect, .notice_ctx = &b};
    kafka_log l = {.cfg = &cfg};
    kafka_log_line(&l, 3, "FAIL", "[thrd:127.0.0.1:1/bootstrap]: 127.0.0.1:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: Connection refused (after 0ms in state CONNECT)");
    kafka_log_line(&l, 3, "FAIL", "[thrd:127.0.0.1:1/bootstrap]: 127.0.0.1:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: Connection refused (after 0ms in state CONNECT, 140 identical error(s) suppressed)");
    kafka_log_line(&l, 3, "FAIL", "[thrd:nosuch:9092/bootstrap]: nosuch:9092/bootstrap: Failed to resolve 'nosuch:9092': Name or service not known (after 2ms in state CONNECT)");
    kafka_log_line(&l, 3, "FAIL", "[thrd:10.1.2.3:9092/bootstrap]: 10.1.2.3:9092/bootstrap: Connection setup timed out in state CONNECT (after 30029ms in state CONNECT)");
    kafka_log_line(&l, 3, "FAIL", "[thrd:k1:9093/bootstrap]: k1:9093/bootstrap: Disconnected while requesting ApiVersion: might be caused by incorrect security.protocol configuration (connecting to a SSL listener?) or broker version is < 0.10 (see api.version.request) (after 3ms in state APIVERSION_QUERY)");
    kafka_log_line(&l, 6, "FAIL", "[thrd:127.0.0.1:1/bootstrap]: 127.0.0.1:1/1: Disconnected: verify that security.protocol is correctly configured, broker might require SASL authentication (after 545ms in state UP)");
    kafka_log_line(&l, 4, "CONFWARN", "[thrd:app]: Configuration property batch.size is a producer property");
    kafka_log_line(&l, 4, "CONFWARN", "[thrd:app]: Configuration property batch.size is a producer property");
    rc_buf_putc(&b, '\0');
    assert_string_equal(b.data,
        "B kafka: broker 127.0.0.1:1: connection refused; nothing listens there: check the host and port in --sink and that Kafka runs there (librdkafka keeps trying)\n"
        "B kafka: broker nosuch:9092: host name not found; check the host name in --sink (librdkafka keeps trying)\n"
        "B kafka: broker 10.1.2.3:9092: no answer; check the address in --sink and any firewall on the way (librdkafka keeps trying)\n"
        "B kafka: broker k1:9093: closed the connection while connecting; check -o kafka.security.protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL) against the broker's listener on that port\n"
        "B kafka: broker 127.0.0.1:1: lost the connection; librdkafka reconnects and resends (check the broker if this goes on)\n"
        "B kafka: librdkafka CONFWARN: Configuration property batch.size is a producer property\n");
    char out[512] = "";
    assert_true(kafka_log_unreachable(&l, out, sizeof out));
    assert_string_equal(out, "127.0.0.1:1 (lost the connection), nosuch:9092 (host name not found), 10.1.2.3:9092 (no answer), "
                             "k1:9093 (closed the connection while connecting)");
    rc_buf_fini(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_murmur2_java),
        cmocka_unit_test(test_tracker),
        cmocka_unit_test(test_topics),
        cmocka_unit_test(test_kafka_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
