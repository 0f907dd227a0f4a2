/* --exactly-once's tail reads and skip rule (src/sinks/kafka_tail.c): the skip decision (at or
 * below last[p] is in Kafka; above is not; an empty partition skips nothing), the order key's
 * kind, the replay line, its metric, and the backward scan against librdkafka's in-process mock
 * cluster: the server's last record found behind windows of another server's records, in an
 * empty partition nothing, from a start offset (E4's partition map) the greatest key after it;
 * and all partitions of a topic at once (rc_kafka_tail_topic) with the same results. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include "pipeline/metrics.h"
#include "pipeline/order_key.h"
#include "sinks/kafka_tail.h"

static kafka_tail_part part_of(const char *last)
{
    kafka_tail_part p = {.read = true};
    p.len = (uint16_t)strlen(last);
    memcpy(p.last, last, p.len);
    return p;
}

static bool seen(const kafka_tail_part *p, const char *v) { return rc_kafka_tail_seen(p, v, strlen(v)); }

static void test_skip_rule(void **state)
{
    (void)state;
    kafka_tail_part p = part_of("shop m0000002a00000000000004d2e0000000030d01");
    assert_true(seen(&p, "shop m0000002a00000000000004d2e0000000030d01"));  /* the last itself */
    assert_true(seen(&p, "shop m0000002a00000000000004d2e0000000030d00"));  /* its event's earlier record */
    assert_true(seen(&p, "shop m0000002900000000ffffffffe0000000000000"));  /* an earlier binlog file */
    assert_false(seen(&p, "shop m0000002a00000000000004d2e0000000030e00")); /* the next event */
    assert_false(seen(&p, "shop m0000002a00000000000004d3e0000000000000")); /* a later transaction */
    kafka_tail_part none = {.read = true};
    assert_false(seen(&none, "shop m0000000000000000000000e0000000000000")); /* nothing of the server there */
}

static void test_kind(void **state)
{
    (void)state;
    char k[RC_ORDER_KEY_MAX];
    rc_item_order e = {.a = 0x16b3748, .num = 3, .src = 'p', .kind = 'e'}, s = {.src = 'm', .kind = 's'}, l = {.a = 7, .src = 'l'};
    assert_int_equal(rc_order_key_kind(k, rc_order_key(&e, 0, 0, k)), 'e');
    assert_int_equal(rc_order_key_kind(k, rc_order_key(&s, 4, 1, k)), 's');
    assert_int_equal(rc_order_key_kind(k, rc_order_key(&l, 0, 0, k)), 0);
    assert_int_equal(rc_order_key_kind("p12", 3), 0);
}

static void test_summary(void **state)
{
    (void)state;
    kafka_tail t = {.skipped = 18204, .parts_read = 12, .read_us = 214999};
    char line[256];
    rc_kafka_tail_summary(&t, line, sizeof line);
    assert_string_equal(line, "exactly once: 18204 records of the replay were in Kafka already (12 partitions read back, 0.21 s)");
}

/* rowcast_eos_skipped_total: with --exactly-once only */
static void test_metric(void **state)
{
    (void)state;
    rc_metrics_values v = {.has_txn = true, .txn = {.committed = 2, .eos = true, .eos_skipped = 18204}};
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_metrics_format(&v, 0, &b);
    rc_buf_putc(&b, '\0');
    assert_non_null(strstr(b.data, "# TYPE rowcast_eos_skipped_total counter\nrowcast_eos_skipped_total 18204\n"));
    v.txn.eos = false;
    b.len = 0;
    rc_metrics_format(&v, 0, &b);
    rc_buf_putc(&b, '\0');
    assert_null(strstr(b.data, "rowcast_eos_skipped_total"));
    rc_buf_fini(&b);
}

/* Produces n records to topic[part] with rowcast.eos = "SERVER m...NUMBER" from `first` on. */
static void produce(rd_kafka_t *rk, const char *topic, int32_t part, const char *server, int first, int n)
{
    for (int i = first; i < first + n; i++) {
        char v[64];
        snprintf(v, sizeof v, "%s m00000001%016xe0000000000000", server, (unsigned)i);
        rd_kafka_resp_err_t e = rd_kafka_producev(rk, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(part), RD_KAFKA_V_VALUE("x", 1),
                                                  RD_KAFKA_V_HEADER("rowcast.eos", v, (ssize_t)strlen(v)), RD_KAFKA_V_END);
        assert_int_equal(e, RD_KAFKA_RESP_ERR_NO_ERROR);
    }
    assert_int_equal(rd_kafka_flush(rk, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
}

static void test_scan(void **state)
{
    (void)state;
    char errstr[256];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    assert_int_equal(rd_kafka_conf_set(conf, "test.mock.num.brokers", "1", errstr, sizeof errstr), RD_KAFKA_CONF_OK);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
    assert_non_null(rk);
    rd_kafka_mock_cluster_t *mc = rd_kafka_handle_mock_cluster(rk);
    assert_int_equal(rd_kafka_mock_topic_create(mc, "t", 3, 1), RD_KAFKA_RESP_ERR_NO_ERROR);
    produce(rk, "t", 0, "shop", 1, 1500);   /* the server's records */
    produce(rk, "t", 0, "other", 1, 2600);  /* then another capture's: three windows back */
    produce(rk, "t", 1, "shop", 1, 10);
    produce(rk, "t", 1, "shop", 11, 5);
    kafka_tail t;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_kafka_tail_open(&t, rd_kafka_mock_cluster_bootstraps(mc), "shop", &err), RC_OK);
    kafka_tail_part p;
    assert_int_equal(rc_kafka_tail_last(&t, "t", 0, RC_TAIL_BACKWARDS, 10000, NULL, &p, &err), RC_OK);
    assert_true(p.read);
    char want[64];
    snprintf(want, sizeof want, "shop m00000001%016xe0000000000000", 1500u);
    assert_int_equal(p.len, strlen(want));
    assert_memory_equal(p.last, want, p.len);
    assert_int_equal(rc_kafka_tail_last(&t, "t", 1, RC_TAIL_BACKWARDS, 10000, NULL, &p, &err), RC_OK);
    snprintf(want, sizeof want, "shop m00000001%016xe0000000000000", 15u);
    assert_memory_equal(p.last, want, p.len);
    assert_int_equal(rc_kafka_tail_last(&t, "t", 2, RC_TAIL_BACKWARDS, 10000, NULL, &p, &err), RC_OK); /* empty */
    assert_true(p.read);
    assert_int_equal(p.len, 0);
    assert_int_equal(rc_kafka_tail_last(&t, "t", 0, 1400, 10000, NULL, &p, &err), RC_OK); /* from an offset on */
    snprintf(want, sizeof want, "shop m00000001%016xe0000000000000", 1500u);
    assert_memory_equal(p.last, want, p.len);
    assert_int_equal(rc_kafka_tail_last(&t, "t", 0, 1500, 10000, NULL, &p, &err), RC_OK); /* none after it */
    assert_int_equal(p.len, 0);
    assert_int_equal(t.parts_read, 5);
    kafka_tail_part all[3]; /* every partition at once: p0 backwards past the other's windows */
    assert_int_equal(rc_kafka_tail_topic(&t, "t", 3, 10000, NULL, all, &err), RC_OK);
    snprintf(want, sizeof want, "shop m00000001%016xe0000000000000", 1500u);
    assert_true(all[0].read && all[0].len == strlen(want) && !memcmp(all[0].last, want, all[0].len));
    snprintf(want, sizeof want, "shop m00000001%016xe0000000000000", 15u);
    assert_true(all[1].read && all[1].len == strlen(want) && !memcmp(all[1].last, want, all[1].len));
    assert_true(all[2].read && all[2].len == 0);
    assert_int_equal(t.parts_read, 8);
    rc_kafka_tail_close(&t);
    rd_kafka_destroy(rk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skip_rule),
        cmocka_unit_test(test_kind),
        cmocka_unit_test(test_summary),
        cmocka_unit_test(test_metric),
        cmocka_unit_test(test_scan),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
