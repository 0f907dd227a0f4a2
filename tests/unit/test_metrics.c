/* The metrics endpoint's parts (pipeline/metrics.h): the text of a scrape with a source's
 * numbers (the lines source has none: tests/integration/metrics_test.sh scrapes that one), the
 * lag's seconds, the HTTP request head parser (every prefix of a request is pending, never
 * wrong), the --metrics address, and a server started and stopped (a port in use). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "pipeline/metrics.h"

static const char with_source[] =
    "# HELP rowcast_input_items_total Input items read: lines for convert (blank ones aside), "
    "change "
    "messages for a database source.\n"
    "# TYPE rowcast_input_items_total counter\n"
    "rowcast_input_items_total 7\n"
    "# HELP rowcast_input_bytes_total Input bytes of the items handled.\n"
    "# TYPE rowcast_input_bytes_total counter\n"
    "rowcast_input_bytes_total 18446744073709551615\n"
    "# HELP rowcast_errors_total Input items that could not be converted (handled per "
    "--on-error).\n"
    "# TYPE rowcast_errors_total counter\n"
    "rowcast_errors_total 1\n"
    "# HELP rowcast_events_total Events handed to the encoder, by operation.\n"
    "# TYPE rowcast_events_total counter\n"
    "rowcast_events_total{op=\"insert\"} 1\n"
    "rowcast_events_total{op=\"update\"} 2\n"
    "rowcast_events_total{op=\"delete\"} 3\n"
    "rowcast_events_total{op=\"read\"} 4\n"
    "rowcast_events_total{op=\"ddl\"} 5\n"
    "rowcast_events_total{op=\"truncate\"} 6\n"
    "rowcast_events_total{op=\"heartbeat\"} 7\n"
    "rowcast_events_total{op=\"begin\"} 8\n"
    "rowcast_events_total{op=\"commit\"} 9\n"
    "# HELP rowcast_events_filtered_total Events excluded by --include or dropped by --drop.\n"
    "# TYPE rowcast_events_filtered_total counter\n"
    "rowcast_events_filtered_total 2\n"
    "# HELP rowcast_events_not_expressible_total Events the target format has no message for.\n"
    "# TYPE rowcast_events_not_expressible_total counter\n"
    "rowcast_events_not_expressible_total 3\n"
    "# HELP rowcast_rows_refused_total Rows with a value the target format cannot hold, left out or "
    "dead-lettered (--on-loss).\n"
    "# TYPE rowcast_rows_refused_total counter\n"
    "rowcast_rows_refused_total 11\n"
    "# HELP rowcast_rows_cut_total Rows written with a value cut to what the target format holds "
    "(--on-loss=cut).\n"
    "# TYPE rowcast_rows_cut_total counter\n"
    "rowcast_rows_cut_total 12\n"
    "# HELP rowcast_sink_messages_sent_total Messages handed to the sink.\n"
    "# TYPE rowcast_sink_messages_sent_total counter\n"
    "rowcast_sink_messages_sent_total 100\n"
    "# HELP rowcast_sink_messages_acknowledged_total Messages the sink acknowledged (Kafka: "
    "delivery "
    "reports; stdout and file: flushed, a file fsync'ed).\n"
    "# TYPE rowcast_sink_messages_acknowledged_total counter\n"
    "rowcast_sink_messages_acknowledged_total 90\n"
    "# HELP rowcast_sink_messages_dead_lettered_total Messages refused for good and written to the "
    "dead-letter file.\n"
    "# TYPE rowcast_sink_messages_dead_lettered_total counter\n"
    "rowcast_sink_messages_dead_lettered_total 4\n"
    "# HELP rowcast_sink_messages_failed_total Messages refused for good, not dead-lettered.\n"
    "# TYPE rowcast_sink_messages_failed_total counter\n"
    "rowcast_sink_messages_failed_total 1\n"
    "# HELP rowcast_sink_bytes_total Key and value bytes handed to the sink.\n"
    "# TYPE rowcast_sink_bytes_total counter\n"
    "rowcast_sink_bytes_total 12345\n"
    "# HELP rowcast_sink_queue_depth Messages sent and not answered yet (sent - acknowledged - "
    "dead-lettered - failed).\n"
    "# TYPE rowcast_sink_queue_depth gauge\n"
    "rowcast_sink_queue_depth 5\n"
    "# HELP rowcast_lag_seconds Now minus the source time (commit time) of the last event the sink "
    "acknowledged; absent before the first.\n"
    "# TYPE rowcast_lag_seconds gauge\n"
    "rowcast_lag_seconds 2.500001\n"
    "# HELP rowcast_source_ack_position Last position acknowledged to the source as a number "
    "(PostgreSQL: the LSN); absent when there is none.\n"
    "# TYPE rowcast_source_ack_position gauge\n"
    "rowcast_source_ack_position 23803720\n"
    "# HELP rowcast_snapshot_running 1 while the source reads its snapshot, else 0.\n"
    "# TYPE rowcast_snapshot_running gauge\n"
    "rowcast_snapshot_running 1\n"
    "# HELP rowcast_snapshot_tables Tables in the snapshot.\n"
    "# TYPE rowcast_snapshot_tables gauge\n"
    "rowcast_snapshot_tables 3\n"
    "# HELP rowcast_snapshot_tables_done Tables of the snapshot read completely.\n"
    "# TYPE rowcast_snapshot_tables_done gauge\n"
    "rowcast_snapshot_tables_done 1\n"
    "# HELP rowcast_snapshot_rows_total Rows the snapshot read.\n"
    "# TYPE rowcast_snapshot_rows_total counter\n"
    "rowcast_snapshot_rows_total 1500\n"
    "# HELP rowcast_snapshot_rows_estimate Rows the snapshot expects to read, estimated by the "
    "database.\n"
    "# TYPE rowcast_snapshot_rows_estimate gauge\n"
    "rowcast_snapshot_rows_estimate 4000\n";

static rc_metrics_values some_values(void)
{
    rc_metrics_values v = {
        .n = {.lines = 7, .bad = 1, .bytes = UINT64_MAX, .filtered = 2, .not_expressible = 3, .refused = 11, .cut = 12},
        .sink = {.sent = 100, .delivered = 90, .dead_lettered = 4, .failed = 1, .bytes = 12345},
        .has_source = true,
        .source = {.ack_position = 0x16B3748,
                   .has_ack_position = true,
                   .snapshot_tables_total = 3,
                   .snapshot_tables_done = 1,
                   .snapshot_rows_read = 1500,
                   .snapshot_rows_estimate = 4000,
                   .in_snapshot = true},
        .has_delivered_ts = true,
        .delivered_ts_us = 1732960800000000};
    for (int op = 0; op < RC_OP_COUNT; op++) v.n.by_op[op] = (uint64_t)op + 1;
    return v;
}

static void test_format_with_source(void **state)
{
    rc_metrics_values v = some_values();
    EXPECT_TEXT(with_source, rc_metrics_format(&v, 1732960802500001, &b));
}

/* The incremental snapshots' families, after the snapshot's: per table in the stats' order
 * (a name with a quote, a backslash and a line feed escaped), by state, the pause, every
 * signal type and result. */
static const char incsnap_families[] =
    "# HELP rowcast_incremental_snapshot_rows_read_total Rows the incremental snapshot of a table read, by table.\n"
    "# TYPE rowcast_incremental_snapshot_rows_read_total counter\n"
    "rowcast_incremental_snapshot_rows_read_total{table=\"public.orders\"} 120000\n"
    "rowcast_incremental_snapshot_rows_read_total{table=\"public.\\\"a\\\\b\\nc\\\"\"} 18446744073709551615\n"
    "# HELP rowcast_incremental_snapshot_rows_emitted_total Rows of a table's incremental snapshot handed out as reads, by table.\n"
    "# TYPE rowcast_incremental_snapshot_rows_emitted_total counter\n"
    "rowcast_incremental_snapshot_rows_emitted_total{table=\"public.orders\"} 119000\n"
    "rowcast_incremental_snapshot_rows_emitted_total{table=\"public.\\\"a\\\\b\\nc\\\"\"} 0\n"
    "# HELP rowcast_incremental_snapshot_rows_dropped_total Rows read that the window dropped (the stream changed their key meanwhile), by table.\n"
    "# TYPE rowcast_incremental_snapshot_rows_dropped_total counter\n"
    "rowcast_incremental_snapshot_rows_dropped_total{table=\"public.orders\"} 1000\n"
    "rowcast_incremental_snapshot_rows_dropped_total{table=\"public.\\\"a\\\\b\\nc\\\"\"} 0\n"
    "# HELP rowcast_incremental_snapshot_rows_estimate Rows a table's incremental snapshot expects to read, estimated by the database.\n"
    "# TYPE rowcast_incremental_snapshot_rows_estimate gauge\n"
    "rowcast_incremental_snapshot_rows_estimate{table=\"public.orders\"} 200000\n"
    "rowcast_incremental_snapshot_rows_estimate{table=\"public.\\\"a\\\\b\\nc\\\"\"} 7\n"
    "# HELP rowcast_incremental_snapshot_chunks_total Chunks of a table the incremental snapshot read, by table.\n"
    "# TYPE rowcast_incremental_snapshot_chunks_total counter\n"
    "rowcast_incremental_snapshot_chunks_total{table=\"public.orders\"} 30\n"
    "rowcast_incremental_snapshot_chunks_total{table=\"public.\\\"a\\\\b\\nc\\\"\"} 0\n"
    "# HELP rowcast_incremental_snapshot_tables Tables of the incremental snapshots, by state.\n"
    "# TYPE rowcast_incremental_snapshot_tables gauge\n"
    "rowcast_incremental_snapshot_tables{state=\"queued\"} 1\n"
    "rowcast_incremental_snapshot_tables{state=\"running\"} 0\n"
    "rowcast_incremental_snapshot_tables{state=\"paused\"} 1\n"
    "rowcast_incremental_snapshot_tables{state=\"done\"} 3\n"
    "rowcast_incremental_snapshot_tables{state=\"stopped\"} 4\n"
    "# HELP rowcast_incremental_snapshot_paused 1 while a pause-snapshot signal holds the incremental snapshots, else 0.\n"
    "# TYPE rowcast_incremental_snapshot_paused gauge\n"
    "rowcast_incremental_snapshot_paused 1\n"
    "# HELP rowcast_signals_total Signal rows read, by type and result.\n"
    "# TYPE rowcast_signals_total counter\n"
    "rowcast_signals_total{type=\"execute-snapshot\",result=\"ok\"} 1\n"
    "rowcast_signals_total{type=\"execute-snapshot\",result=\"error\"} 2\n"
    "rowcast_signals_total{type=\"execute-snapshot\",result=\"ignored\"} 3\n"
    "rowcast_signals_total{type=\"stop-snapshot\",result=\"ok\"} 4\n"
    "rowcast_signals_total{type=\"stop-snapshot\",result=\"error\"} 5\n"
    "rowcast_signals_total{type=\"stop-snapshot\",result=\"ignored\"} 6\n"
    "rowcast_signals_total{type=\"pause-snapshot\",result=\"ok\"} 7\n"
    "rowcast_signals_total{type=\"pause-snapshot\",result=\"error\"} 8\n"
    "rowcast_signals_total{type=\"pause-snapshot\",result=\"ignored\"} 9\n"
    "rowcast_signals_total{type=\"resume-snapshot\",result=\"ok\"} 10\n"
    "rowcast_signals_total{type=\"resume-snapshot\",result=\"error\"} 11\n"
    "rowcast_signals_total{type=\"resume-snapshot\",result=\"ignored\"} 12\n"
    "rowcast_signals_total{type=\"unknown\",result=\"ok\"} 13\n"
    "rowcast_signals_total{type=\"unknown\",result=\"error\"} 14\n"
    "rowcast_signals_total{type=\"unknown\",result=\"ignored\"} 15\n";

static void sample_of(const rc_metrics_values *v, int64_t now, const char *name, char *out,
                      size_t cap);

static void test_format_incsnap(void **state)
{
    rc_metrics_values v = some_values();
    rc_source_stats *s = &v.source;
    s->has_incsnap = true, s->incsnap_paused = true;
    s->incsnap_tables[RC_INCSNAP_STATE_QUEUED] = 1, s->incsnap_tables[RC_INCSNAP_STATE_PAUSED] = 1;
    s->incsnap_tables[RC_INCSNAP_STATE_DONE] = 3, s->incsnap_tables[RC_INCSNAP_STATE_STOPPED] = 4;
    for (int t = 0; t < RC_SIGNAL_TYPES; t++)
        for (int r = 0; r < RC_SIGNAL_RESULTS; r++) s->signals[t][r] = (uint64_t)(t * RC_SIGNAL_RESULTS + r + 1);
    s->nincsnap = 2;
    s->incsnap[0] = (rc_source_incsnap){"public.orders", RC_INCSNAP_STATE_PAUSED, 120000, 119000, 1000, 200000, 30, 2};
    s->incsnap[1] = (rc_source_incsnap){"public.\"a\\b\nc\"", RC_INCSNAP_STATE_QUEUED, UINT64_MAX, 0, 0, 7, 0, 0};
    char want[sizeof with_source + sizeof incsnap_families];
    snprintf(want, sizeof want, "%s%s", with_source, incsnap_families);
    EXPECT_TEXT(want, rc_metrics_format(&v, 1732960802500001, &b));
    /* a source without incremental snapshots (no signal table), or no source: none of them */
    s->has_incsnap = false;
    EXPECT_TEXT(with_source, rc_metrics_format(&v, 1732960802500001, &b));
    s->has_incsnap = true, v.has_source = false;
    char got[128];
    sample_of(&v, 0, "rowcast_incremental_snapshot_paused", got, sizeof got);
    assert_string_equal(got, "");
}

/* The sample line of `name` in a scrape of v, or "" when there is none. */
static void sample_of(const rc_metrics_values *v, int64_t now, const char *name, char *out,
                      size_t cap)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_metrics_format(v, now, &b);
    rc_buf_putc(&b, '\0');
    out[0] = '\0';
    for (const char *l = b.data; *l; l = strchr(l, '\n') + 1)
        if (!strncmp(l, name, strlen(name)) && l[strlen(name)] == ' ')
            snprintf(out, cap, "%.*s", (int)(strchr(l, '\n') - l), l);
    rc_buf_fini(&b);
}

static void test_lag_and_absent_samples(void **state)
{
    rc_metrics_values v = some_values();
    char got[128];
    static const struct {
        int64_t lag_us;
        const char *want;
    } lags[] = {{0, "rowcast_lag_seconds 0.000000"},
                {1, "rowcast_lag_seconds 0.000001"},
                {999999, "rowcast_lag_seconds 0.999999"},
                {-1500000, "rowcast_lag_seconds -1.500000"},
                {86400LL * 365 * 1000000, "rowcast_lag_seconds 31536000.000000"}};
    for (size_t i = 0; i < sizeof lags / sizeof *lags; i++) {
        sample_of(&v, v.delivered_ts_us + lags[i].lag_us, "rowcast_lag_seconds", got, sizeof got);
        assert_string_equal(got, lags[i].want);
    }
    v.has_delivered_ts = false; /* nothing delivered yet: no lag sample */
    sample_of(&v, 0, "rowcast_lag_seconds", got, sizeof got);
    assert_string_equal(got, "");
    v.source.has_ack_position = false;
    sample_of(&v, 0, "rowcast_source_ack_position", got, sizeof got);
    assert_string_equal(got, "");
    v.source.ack_position = UINT64_MAX, v.source.has_ack_position = true;
    sample_of(&v, 0, "rowcast_source_ack_position", got, sizeof got);
    assert_string_equal(got, "rowcast_source_ack_position 18446744073709551615");
    v.has_source = false; /* a source without stats: its position is not said, the snapshot is 0 */
    sample_of(&v, 0, "rowcast_source_ack_position", got, sizeof got);
    assert_string_equal(got, "");
    sample_of(&v, 0, "rowcast_snapshot_rows_total", got, sizeof got);
    assert_string_equal(got, "rowcast_snapshot_rows_total 0");
    v.sink = (rc_sink_stats){.sent = 3, .delivered = 4}; /* never negative */
    sample_of(&v, 0, "rowcast_sink_queue_depth", got, sizeof got);
    assert_string_equal(got, "rowcast_sink_queue_depth 0");
}

/* ---- the request head ---- */

typedef struct req_case {
    const char *text;
    rc_status st;
    const char *method, *path; /* RC_OK: what was read */
    int minor;
    size_t head_len;
    const char *msg; /* else: the message */
} req_case;

static const req_case requests[] = {
    {"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", RC_OK, "GET", "/metrics", 1, 34, NULL},
    {"GET /metrics HTTP/1.0\n\n", RC_OK, "GET", "/metrics", 0, 23, NULL},
    {"\r\n\nHEAD /metrics?name[]=x HTTP/1.1\r\nA: \t b \r\nB:\r\n\r\nextra", RC_OK, "HEAD",
     "/metrics", 1, 51, NULL},
    {"GET http://h:9/metrics?q HTTP/1.1\r\n\r\n", RC_OK, "GET", "/metrics", 1, 37, NULL},
    {"GET HTTPS://h HTTP/1.1\r\n\r\n", RC_OK, "GET", "/", 1, 26, NULL},
    {"OPTIONS * HTTP/1.1\r\n\r\n", RC_OK, "OPTIONS", "*", 1, 22, NULL},
    {"GET /metrics HTTP/1.1 extra\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "the end of the request line expected after the version at byte 21"},
    {"GET  /metrics HTTP/1.1\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "a request target (such as /metrics) expected at byte 4"},
    {"GET\t/ HTTP/1.1\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "one space expected after the method at byte 3"},
    {" GET / HTTP/1.1\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "a method (a token such as GET) expected at byte 0"},
    {"GET /m\x01 HTTP/1.1\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "one space expected after the request target at byte 6"},
    {"GET / http/1.1\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "HTTP/1.1 expected after the request target at byte 6"},
    {"GET / HTTP/1.x\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "a version such as 1.1 expected at byte 13"},
    {"GET / HTTP/11\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "a version such as 1.1 expected at byte 12"},
    {"GET / HTTP/2.0\r\n\r\n", RC_ERR_UNSUPPORTED, NULL, NULL, 0, 0,
     "HTTP/2.0 is not supported: this server speaks HTTP/1.1"},
    {"GET / HTTP/1.1\rX", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "the end of the request line expected after the version at byte 15"},
    {"GET / HTTP/1.1\r\nHost localhost\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "':' expected after the header name at byte 20"},
    {"GET / HTTP/1.1\r\n folded\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "a header line folded onto the next (obsolete) at byte 16"},
    {"GET / HTTP/1.1\r\n: v\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "a header name expected at byte 16"},
    {"GET / HTTP/1.1\r\nA: b\x7f\r\n\r\n", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "a control character in a header value at byte 20"},
    {"GET / HTTP/1.1\r\nA: b\r\n\rX", RC_ERR_SYNTAX, NULL, NULL, 0, 0,
     "a line end expected after '\\r' at byte 23"},
};

static void test_http_request(void **state)
{
    for (size_t i = 0; i < sizeof requests / sizeof *requests; i++) {
        const req_case *t = &requests[i];
        rc_http_request req;
        rc_error err;
        rc_error_clear(&err);
        size_t n = strlen(t->text);
        rc_status st = rc_http_request_parse(t->text, n, &req, &err);
        if (st != t->st)
            fail_msg("case %zu (%s): status %s, expected %s: %s", i, t->text, rc_status_name(st),
                     rc_status_name(t->st), err.message);
        if (st == RC_OK) {
            assert_int_equal(req.method_len, strlen(t->method));
            assert_memory_equal(req.method, t->method, req.method_len);
            assert_int_equal(req.path_len, strlen(t->path));
            assert_memory_equal(req.path, t->path, req.path_len);
            assert_int_equal(req.minor, t->minor);
            assert_int_equal(req.head_len, t->head_len);
        } else {
            assert_string_equal(err.message, t->msg);
        }
        /* every prefix cut before the byte that decides is pending: a request that arrives in
         * pieces is read as one */
        size_t decided = st == RC_OK ? req.head_len : err.offset;
        for (size_t k = 0; k < decided; k++) {
            rc_error_clear(&err);
            rc_status p = rc_http_request_parse(t->text, k, &req, &err);
            if (p != RC_PENDING)
                fail_msg("case %zu cut at %zu: %s (%s)", i, k, rc_status_name(p), err.message);
        }
    }
}

/* ---- the address ---- */

static void test_address(void **state)
{
    static const struct {
        const char *spec, *host, *port;
        bool ipv6;
    } good[] = {{"9470", "127.0.0.1", "9470", false},
                {":0", "127.0.0.1", "0", false},
                {"0.0.0.0:65535", "0.0.0.0", "65535", false},
                {"localhost:80", "localhost", "80", false},
                {"[::1]:9470", "::1", "9470", true},
                {"[fe80::1%eth0]:1", "fe80::1%eth0", "1", true},
                {"metrics-host.example_1:09470", "metrics-host.example_1", "09470", false}};
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        rc_metrics_addr a;
        rc_error err;
        rc_error_clear(&err);
        if (rc_metrics_addr_parse(good[i].spec, &a, &err) != RC_OK)
            fail_msg("%s: %s", good[i].spec, err.message);
        assert_string_equal(a.host, good[i].host);
        assert_string_equal(a.port, good[i].port);
        assert_int_equal(a.ipv6, good[i].ipv6);
    }
    /* the messages are compared in tests/integration/metrics_test.sh; these are refused too */
    static const char *const bad[] = {"",       "x",       ":",           ":123456",
                                      ":-1",    ":+1",     "1.2.3.4:1:2", "[::1]",
                                      "[::1]:", "[a b]:1", "h/x:1",       "]:1"};
    char longer[300];
    memset(longer, 'h', 256);
    strcpy(longer + 256, ":1");
    for (size_t i = 0; i <= sizeof bad / sizeof *bad; i++) {
        const char *spec = i < sizeof bad / sizeof *bad ? bad[i] : longer;
        rc_metrics_addr a;
        rc_error err;
        rc_error_clear(&err);
        if (rc_metrics_addr_parse(spec, &a, &err) != RC_ERR_USAGE)
            fail_msg("'%s' was accepted", spec);
        assert_true(!strncmp(err.message, "--metrics '", 11));
    }
}

/* ---- the server ---- */

static void test_start_in_use(void **state)
{
    rc_metrics *m = NULL, *again = NULL;
    rc_error err;
    rc_error_clear(&err);
    unsetenv("RC_METRICS_NOW_US");
    if (rc_metrics_start("127.0.0.1:0", &m, &err) != RC_OK) fail_msg("%s", err.message);
    unsigned port = rc_metrics_port(m);
    assert_true(port > 0);
    char spec[32], want[400];
    snprintf(spec, sizeof spec, ":%u", port);
    snprintf(want, sizeof want, "http://127.0.0.1:%u/metrics", port);
    assert_string_equal(rc_metrics_url(m), want);
    rc_metrics_values v = some_values();
    rc_metrics_publish(m, &v);
    assert_int_equal(rc_metrics_start(spec, &again, &err), RC_ERR_IO);
    assert_null(again);
    snprintf(want, sizeof want,
             "--metrics ':%u': cannot listen on 127.0.0.1:%u: Address already in use; another "
             "program (or "
             "another rowcast) listens there: stop it, or pick another port (0: any free port)",
             port, port);
    assert_string_equal(err.message, want);
    rc_metrics_free(m);
    rc_metrics_free(NULL);
    setenv("RC_METRICS_NOW_US", "12x", 1);
    rc_error_clear(&err);
    assert_int_equal(rc_metrics_start("0", &m, &err), RC_ERR_USAGE);
    assert_string_equal(err.message,
                        "RC_METRICS_NOW_US='12x' is not microseconds since the epoch (a "
                        "setting for tests: unset it)");
    unsetenv("RC_METRICS_NOW_US");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format_with_source), cmocka_unit_test(test_format_incsnap),
        cmocka_unit_test(test_lag_and_absent_samples),
        cmocka_unit_test(test_http_request),       cmocka_unit_test(test_address),
        cmocka_unit_test(test_start_in_use),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
