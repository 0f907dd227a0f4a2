/* Issue 25 §2: the MySQL schema history in chunk records of a Kafka state topic
 * (src/pipeline/state_store.c, src/sinks/kafka_state.c, my_checkpoint.c's version 4): a ref's
 * hash and chunk count, the version 4 text byte for byte and its refusals, and against
 * librdkafka's in-process mock cluster a 1.2 MB history written in 3 chunks and read back, the
 * old chunks deleted only after a state naming the new ones, a state never saved naming chunks
 * not written, a missing chunk refused by name, and the whole chunks a killed run left unnamed
 * reused by the next run instead of written again. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include "sinks/kafka_state.h"
#include "sources/mysql/my_checkpoint.h"

#define KIB 1024u

static void test_ref(void **state)
{
    (void)state;
    rc_state_ref r;
    rc_state_ref_of("", 0, &r);
    assert_string_equal(r.hash, "cbf29ce484222325"); /* FNV-1a 64 of nothing */
    assert_int_equal(r.chunks, 0);
    char *big = calloc(1, 512 * KIB + 1);
    assert_non_null(big);
    size_t sizes[] = {1, 512 * KIB, 512 * KIB + 1}, chunks[] = {1, 1, 2};
    for (size_t i = 0; i < 3; i++) {
        rc_state_ref_of(big, sizes[i], &r);
        assert_int_equal(r.chunks, chunks[i]);
        assert_int_equal(r.bytes, sizes[i]);
        assert_int_equal(strspn(r.hash, "0123456789abcdef"), 16);
    }
    free(big);
}

static const char v4[] = "rowcast-mysql-checkpoint 4\nserver mysql://u@h:1\nfile bin.000042\noffset 1234\ngtids 0-1-14\n"
                         "history 3f9a00c1d2e3f405 3 1048211\n";

static void test_text(void **state)
{
    (void)state;
    rc_my_checkpoint ck = {.file = "bin.000042", .offset = 1234, .gtids = "0-1-14", .history = "ignored", .history_len = 7,
                           .history_at = {"3f9a00c1d2e3f405", 3, 1048211}};
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    assert_true(rc_my_checkpoint_format("mysql://u@h:1", &ck, &b));
    assert_int_equal(b.len, strlen(v4));
    assert_memory_equal(b.data, v4, b.len);
    ck.snapshot = "s\n", ck.snapshot_len = 2; /* the snapshot section follows, as in version 3 */
    rc_buf_reset(&b);
    assert_true(rc_my_checkpoint_format("mysql://u@h:1", &ck, &b));
    rc_my_checkpoint got;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_checkpoint_parse("t", b.data, b.len, &got, &err), RC_OK);
    assert_string_equal(got.history_at.hash, "3f9a00c1d2e3f405");
    assert_int_equal(got.history_at.chunks, 3);
    assert_int_equal(got.history_at.bytes, 1048211);
    assert_null(got.history);
    assert_int_equal(got.snapshot_len, 2);
    assert_int_equal(got.offset, 1234);
    rc_my_checkpoint_fini(&got);
    rc_buf_fini(&b);
    static const char *const bad[] = {"history 3f9a 3 1048211\n", "history 3f9a00c1d2e3f405 0 0\n", "history 3f9a00c1d2e3f405 3\n",
                                      "history 3F9A00C1D2E3F405 3 1048211\n", "history 3f9a00c1d2e3f405 3 2 x\n", "history 7\n"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char text[400];
        int n = snprintf(text, sizeof text, "rowcast-mysql-checkpoint 4\nserver s\nfile f\noffset 4\ngtids \n%s", bad[i]);
        rc_error_clear(&err);
        assert_int_equal(rc_my_checkpoint_parse("t", text, (size_t)n, &got, &err), RC_ERR_USAGE);
        assert_string_equal(err.message, "checkpoint t, line 6 (byte 59): expected 'history HASH CHUNKS BYTES' (the schema history's "
                                         "chunks) (remove the file to start afresh)");
        rc_my_checkpoint_fini(&got);
    }
}

/* A history of n bytes whose content depends on seed. */
static char *history(size_t n, unsigned seed)
{
    char *h = malloc(n + 1);
    for (size_t i = 0; h && i < n; i++) h[i] = (char)('a' + (i * 7 + seed + i / 1000) % 26);
    if (h) h[n] = '\0';
    return h;
}

static rc_state_store *store_open(const char *where)
{
    rc_state_store *s = NULL;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_state_store_open(where, "checkpoint", "shop", "state", NULL, NULL, &s, &err), RC_OK);
    return s;
}

/* How many chunk keys of hash the topic holds with a value, as a new store's load finds them. */
static size_t chunks_live(const char *where, const char *hash)
{
    rc_state_store *s = store_open(where);
    rc_my_checkpoint ck;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_checkpoint_load(s, &ck, &err), RC_OK);
    rc_my_checkpoint_fini(&ck);
    rc_state_ref r = {.chunks = 0};
    snprintf(r.hash, sizeof r.hash, "%s", hash);
    size_t live = 0;
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    for (r.chunks = 1; r.chunks <= 8; r.chunks++) { /* chunks 0..live-1 there: the first missing is chunk `live` */
        rc_error_clear(&err);
        rc_buf_reset(&b);
        if (rc_state_store_get_part(s, &r, &b, &err) != RC_OK && strstr(err.message, "is missing")) break;
        live = r.chunks;
    }
    rc_buf_fini(&b);
    rc_state_store_close(s);
    return live;
}

static void test_kafka(void **state)
{
    (void)state;
    char errstr[256], where[300];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    assert_int_equal(rd_kafka_conf_set(conf, "test.mock.num.brokers", "1", errstr, sizeof errstr), RD_KAFKA_CONF_OK);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
    assert_non_null(rk);
    rd_kafka_mock_cluster_t *mc = rd_kafka_handle_mock_cluster(rk);
    assert_int_equal(rd_kafka_mock_topic_create(mc, "st", 1, 1), RD_KAFKA_RESP_ERR_NO_ERROR);
    snprintf(where, sizeof where, "kafka://%s/st", rd_kafka_mock_cluster_bootstraps(mc));
    rc_error err;
    rc_error_clear(&err);

    rc_state_store *s = store_open(where);
    rc_my_checkpoint ck;
    assert_int_equal(rc_my_checkpoint_load(s, &ck, &err), RC_SKIP);
    assert_true(rc_state_store_chunked(s));
    size_t n1 = 1200 * KIB;
    char *h1 = history(n1, 1), *h2 = history(n1 + 5, 2);
    rc_my_checkpoint w = {.file = "bin.000001", .offset = 4, .gtids = "", .history = h1, .history_len = n1};
    assert_int_equal(rc_my_checkpoint_save(s, "mysql://u@h:1", &w, &err), RC_OK);
    rc_state_ref r1, r2;
    rc_state_ref_of(h1, n1, &r1);
    rc_state_ref_of(h2, n1 + 5, &r2);
    assert_int_equal(r1.chunks, 3);
    w.offset = 100; /* the position moves, the history does not: no chunk written again */
    assert_int_equal(rc_my_checkpoint_save(s, "mysql://u@h:1", &w, &err), RC_OK);
    /* a state naming chunks never written is refused (the order of §3.2) */
    assert_int_equal(rc_state_store_save_naming(s, "x", 1, &r2, &err), RC_ERR_USAGE);
    assert_non_null(strstr(err.message, "whose chunks were not written"));
    rc_state_store_close(s);

    s = store_open(where); /* read back: the newest state, its history from 3 chunks */
    rc_error_clear(&err);
    assert_int_equal(rc_my_checkpoint_load(s, &ck, &err), RC_OK);
    assert_int_equal(ck.offset, 100);
    assert_int_equal(ck.history_len, n1);
    assert_memory_equal(ck.history, h1, n1);
    assert_string_equal(ck.history_at.hash, r1.hash);
    rc_my_checkpoint_fini(&ck);
    w.history = h2, w.history_len = n1 + 5, w.offset = 200; /* a DDL: new chunks, then the old ones deleted */
    assert_int_equal(rc_my_checkpoint_save(s, "mysql://u@h:1", &w, &err), RC_OK);
    rc_state_store_close(s);
    assert_int_equal(chunks_live(where, r2.hash), 3);
    assert_int_equal(chunks_live(where, r1.hash), 0);

    /* one chunk of the named history gone: refused by name, never a start without it */
    char key[80];
    snprintf(key, sizeof key, "rowcast/shop/history/%s/1", r2.hash);
    assert_int_equal(rd_kafka_producev(rk, RD_KAFKA_V_TOPIC("st"), RD_KAFKA_V_PARTITION(0), RD_KAFKA_V_KEY(key, strlen(key)),
                                       RD_KAFKA_V_VALUE(NULL, 0), RD_KAFKA_V_END),
                     RD_KAFKA_RESP_ERR_NO_ERROR);
    assert_int_equal(rd_kafka_flush(rk, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
    s = store_open(where);
    rc_error_clear(&err);
    assert_int_equal(rc_my_checkpoint_load(s, &ck, &err), RC_ERR_USAGE);
    char want[1200]; /* where holds up to 300 bytes, key 80 (-Wformat-truncation counts them all) */
    snprintf(want, sizeof want,
             "checkpoint %s: chunk 1 of the schema history %s (3 chunks, %zu bytes; key %s) that the state names is missing: the "
             "topic is not compacted, was cut, or its records were deleted; rowcast does not guess a history: restore the topic, "
             "or start a new capture under another --server",
             where, r2.hash, n1 + 5, key);
    assert_string_equal(err.message, want);
    rc_my_checkpoint_fini(&ck);
    rc_state_store_close(s);
    free(h1), free(h2);
    rd_kafka_destroy(rk);
}

static int64_t high(rd_kafka_t *rk, const char *topic)
{
    int64_t lo, hi;
    assert_int_equal(rd_kafka_query_watermark_offsets(rk, topic, 0, &lo, &hi, 10000), RD_KAFKA_RESP_ERR_NO_ERROR);
    return hi;
}

/* A run killed between its chunks and the state naming them: the next one, arriving at the same
 * history, names the chunks it read back whole instead of writing them again. */
static void test_orphans(void **state)
{
    (void)state;
    char errstr[256], where[300];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    assert_int_equal(rd_kafka_conf_set(conf, "test.mock.num.brokers", "1", errstr, sizeof errstr), RD_KAFKA_CONF_OK);
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
    assert_non_null(rk);
    rd_kafka_mock_cluster_t *mc = rd_kafka_handle_mock_cluster(rk);
    assert_int_equal(rd_kafka_mock_topic_create(mc, "st2", 1, 1), RD_KAFKA_RESP_ERR_NO_ERROR);
    snprintf(where, sizeof where, "kafka://%s/st2", rd_kafka_mock_cluster_bootstraps(mc));
    rc_error err;
    rc_error_clear(&err);
    size_t n = 700 * KIB;
    char *h = history(n, 3);
    rc_state_ref r;
    rc_state_ref_of(h, n, &r);
    rc_state_store *s = store_open(where);
    rc_buf b;
    rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
    assert_int_equal(rc_state_store_load(s, &b, &err), RC_SKIP);
    assert_int_equal(rc_state_store_put_part(s, &r, h, &err), RC_OK); /* then killed */
    rc_state_store_close(s);
    assert_int_equal(high(rk, "st2"), 2);
    s = store_open(where);
    assert_int_equal(rc_state_store_load(s, &b, &err), RC_SKIP);
    assert_int_equal(rc_state_store_put_part(s, &r, h, &err), RC_OK);
    assert_int_equal(high(rk, "st2"), 2); /* not written again */
    assert_int_equal(rc_state_store_save_naming(s, "state", 5, &r, &err), RC_OK);
    assert_int_equal(high(rk, "st2"), 3); /* the state only: no tombstone for the chunks it names */
    rc_state_store_close(s);
    rc_buf_fini(&b);
    free(h);
    rd_kafka_destroy(rk);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_kafka),
        cmocka_unit_test(test_orphans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
