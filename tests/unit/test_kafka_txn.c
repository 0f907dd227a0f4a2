/* The Kafka sink's transactions without a broker (src/sinks/kafka_txn.c): rowcast's own
 * options (defaults, ranges, kafka.transactional.id refused), the producer's configuration
 * (--server needed; transactional.id rowcast.NAME, message.timeout.ms below
 * transaction.timeout.ms), a commit with no transaction open, and the metrics' text. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "pipeline/metrics.h"
#include "sinks/kafka_txn.h"

static bool opt(kafka_txn *t, const char *k, const char *v, rc_status want)
{
    rc_error err;
    rc_error_clear(&err);
    bool taken = false;
    assert_int_equal(rc_kafka_txn_option(t, k, v, &taken, &err), want);
    return taken;
}

static void test_options(void **state)
{
    (void)state;
    kafka_txn t = {0};
    assert_false(opt(&t, "kafka.linger.ms", "5", RC_OK)); /* librdkafka's */
    assert_false(t.on);
    assert_int_equal(t.ms, 1000);
    assert_int_equal(t.records, 500000);
    assert_true(opt(&t, "kafka.transactions", "true", RC_OK));
    assert_true(t.on);
    assert_true(opt(&t, "kafka.transactions", "yes", RC_ERR_USAGE));
    assert_true(opt(&t, "kafka.transaction.ms", "50000", RC_OK));
    assert_int_equal(t.ms, 50000);
    assert_true(opt(&t, "kafka.transaction.ms", "50001", RC_ERR_USAGE));
    assert_true(opt(&t, "kafka.transaction.ms", "0", RC_ERR_USAGE));
    assert_true(opt(&t, "kafka.transaction.ms", "-1", RC_ERR_USAGE));
    assert_true(opt(&t, "kafka.transaction.records", "1000000", RC_OK));
    assert_int_equal(t.records, 1000000);
    assert_true(opt(&t, "kafka.transaction.records", "1000001", RC_ERR_USAGE));
    assert_true(opt(&t, "kafka.transaction.records", "1e3", RC_ERR_USAGE));
    assert_true(opt(&t, "kafka.transactional.id", "x", RC_ERR_USAGE));
    assert_int_equal(t.ms, 50000); /* a refused value changes nothing */
}

static void test_conf(void **state)
{
    (void)state;
    kafka_txn t = {0};
    rc_error err;
    rc_error_clear(&err);
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    assert_int_equal(rc_kafka_txn_conf(&t, conf, NULL, NULL, &err), RC_OK); /* off: nothing */
    t.on = true;
    assert_int_equal(rc_kafka_txn_conf(&t, conf, NULL, NULL, &err), RC_ERR_USAGE);
    assert_non_null(strstr(err.message, "needs --server NAME"));
    assert_int_equal(rc_kafka_txn_conf(&t, conf, "shop", NULL, &err), RC_OK);
    char v[64];
    size_t n = sizeof v;
    assert_int_equal(rd_kafka_conf_get(conf, "transactional.id", v, &n), RD_KAFKA_CONF_OK);
    assert_string_equal(v, "rowcast.shop");
    n = sizeof v;
    assert_int_equal(rd_kafka_conf_get(conf, "message.timeout.ms", v, &n), RD_KAFKA_CONF_OK);
    assert_string_equal(v, "55000");
    rd_kafka_conf_destroy(conf);
    /* nothing open: a commit acknowledges nothing and needs no producer */
    tracker tr;
    assert_int_equal(rc_tracker_init(&tr, 8), RC_OK);
    tracker_take(&tr);
    assert_int_equal(rc_kafka_txn_commit(&t, NULL, &tr, tr.next, 1000, &err), RC_OK);
    assert_int_equal(tracker_outstanding(&tr), 1);
    rc_kafka_txn_fatal(&t, RD_KAFKA_RESP_ERR__FENCED, "fenced by a newer instance");
    assert_true(t.fenced);
    rc_error_clear(&err);
    assert_int_equal(rc_kafka_txn_commit(&t, NULL, &tr, tr.next, 1000, &err), RC_ERR_IO);
    assert_string_equal(err.message, "fenced: another rowcast with --server shop took over; this one stops without writing");
    rc_tracker_fini(&tr);
}

static void test_metrics_text(void **state)
{
    (void)state;
    rc_metrics_values v = {.has_txn = true, .txn = {.committed = 7, .aborted = 1, .commit_us = 1234567}};
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_metrics_format(&v, 0, &b);
    rc_buf_putc(&b, '\0');
    assert_non_null(strstr(b.data, "# TYPE rowcast_kafka_transactions_total counter\n"
                                   "rowcast_kafka_transactions_total{result=\"committed\"} 7\n"
                                   "rowcast_kafka_transactions_total{result=\"aborted\"} 1\n"));
    assert_non_null(strstr(b.data, "# TYPE rowcast_kafka_transaction_seconds summary\n"
                                   "rowcast_kafka_transaction_seconds_sum 1.234567\n"
                                   "rowcast_kafka_transaction_seconds_count 7\n"));
    v.has_txn = false;
    b.len = 0;
    rc_metrics_format(&v, 0, &b);
    rc_buf_putc(&b, '\0');
    assert_null(strstr(b.data, "rowcast_kafka_transaction"));
    rc_buf_fini(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options),
        cmocka_unit_test(test_conf),
        cmocka_unit_test(test_metrics_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
