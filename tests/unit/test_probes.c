/* /health and /ready's answers (rc_metrics_probe, pipeline/metrics.h) for each run state and
 * role, the lag bound and the idle rule, exactly; the state families of a scrape; and the
 * json log (core/log.h): a message written in pieces is one object, its fields, the level read
 * from the line, the "rowcast CMD: " prefix as the command. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "core/log.h"
#include "core/run_state.h"
#include "pipeline/metrics.h"

enum { NOW = 1000000000, BOUND = 60000000 };

static rc_metrics_values values(rc_run_state state)
{
    rc_metrics_values v;
    memset(&v, 0, sizeof v);
    v.has_state = true, v.state = (int)state, v.role = RC_ROLE_ACTIVE, v.ready_lag_us = BOUND;
    return v;
}

/* The status and body of a probe. */
static int probe(const rc_metrics_values *v, bool ready, char *body, size_t cap)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    int status = rc_metrics_probe(v, ready, NOW, &b);
    snprintf(body, cap, "%.*s", (int)b.len, b.data);
    rc_buf_fini(&b);
    return status;
}

static void test_states(void **state)
{
    (void)state;
    char body[512];
    static const struct {
        rc_run_state s;
        int ready;
        const char *body;
    } cases[] = {
        {RC_RUN_STARTING, 503, "{\"status\":\"not ready\",\"state\":\"starting\",\"role\":\"active\",\"ready_lag_seconds\":60,\"reason\":\"starting\"}\n"},
        {RC_RUN_SNAPSHOT, 503, "{\"status\":\"not ready\",\"state\":\"snapshot\",\"role\":\"active\",\"ready_lag_seconds\":60,\"reason\":\"snapshot\"}\n"},
        {RC_RUN_STREAMING, 200, "{\"status\":\"ready\",\"state\":\"streaming\",\"role\":\"active\",\"ready_lag_seconds\":60}\n"},
        {RC_RUN_RECONNECTING, 503, "{\"status\":\"not ready\",\"state\":\"reconnecting\",\"role\":\"active\",\"ready_lag_seconds\":60,\"reason\":\"reconnecting\"}\n"},
        {RC_RUN_READING, 200, "{\"status\":\"ready\",\"state\":\"reading\",\"role\":\"active\",\"ready_lag_seconds\":60}\n"},
        {RC_RUN_STOPPING, 503, "{\"status\":\"not ready\",\"state\":\"stopping\",\"role\":\"active\",\"ready_lag_seconds\":60,\"reason\":\"stopping\"}\n"},
        {RC_RUN_FAILING, 503, "{\"status\":\"not ready\",\"state\":\"failing\",\"role\":\"active\",\"ready_lag_seconds\":60,\"reason\":\"failing\"}\n"},
        {RC_RUN_DONE, 503, "{\"status\":\"not ready\",\"state\":\"done\",\"role\":\"active\",\"ready_lag_seconds\":60,\"reason\":\"done\"}\n"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rc_metrics_values v = values(cases[i].s);
        assert_int_equal(probe(&v, true, body, sizeof body), cases[i].ready);
        assert_string_equal(body, cases[i].body);
        assert_int_equal(probe(&v, false, body, sizeof body), 200); /* alive in every state */
    }
    rc_metrics_values v = values(RC_RUN_RECONNECTING);
    assert_int_equal(probe(&v, false, body, sizeof body), 200);
    assert_string_equal(body, "{\"status\":\"alive\",\"state\":\"reconnecting\",\"role\":\"active\"}\n");
}

static void test_lag(void **state)
{
    (void)state;
    char body[512];
    rc_metrics_values v = values(RC_RUN_STREAMING);
    v.has_delivered_ts = true, v.delivered_ts_us = NOW - BOUND; /* exactly the bound: ready */
    assert_int_equal(probe(&v, true, body, sizeof body), 200);
    assert_string_equal(body, "{\"status\":\"ready\",\"state\":\"streaming\",\"role\":\"active\",\"lag_seconds\":60.000000,\"ready_lag_seconds\":60}\n");
    v.delivered_ts_us = NOW - BOUND - 1; /* past it, busy: lagging */
    assert_int_equal(probe(&v, true, body, sizeof body), 503);
    assert_string_equal(body, "{\"status\":\"not ready\",\"state\":\"streaming\",\"role\":\"active\",\"lag_seconds\":60.000001,\"ready_lag_seconds\":60,\"reason\":\"lagging: more than --ready-lag 60 s behind\"}\n");
    v.idle = true, v.sink.sent = 5, v.sink.delivered = 4; /* idle, one message unanswered: lagging */
    assert_int_equal(probe(&v, true, body, sizeof body), 503);
    v.sink.dead_lettered = 1; /* idle, everything answered: caught up, however old the last change */
    assert_int_equal(probe(&v, true, body, sizeof body), 200);
}

static void test_standby(void **state)
{
    (void)state;
    char body[512];
    rc_metrics_values v = values(RC_RUN_STARTING);
    v.role = RC_ROLE_STANDBY;
    assert_int_equal(probe(&v, true, body, sizeof body), 200);
    assert_string_equal(body, "{\"status\":\"ready\",\"state\":\"starting\",\"role\":\"standby\",\"ready_lag_seconds\":60}\n");
    v.state = RC_RUN_FAILING;
    assert_int_equal(probe(&v, true, body, sizeof body), 503);
    assert_string_equal(body, "{\"status\":\"not ready\",\"state\":\"failing\",\"role\":\"standby\",\"ready_lag_seconds\":60,\"reason\":\"standby failing\"}\n");
}

static void test_scrape_families(void **state)
{
    (void)state;
    rc_metrics_values v = values(RC_RUN_SNAPSHOT);
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_metrics_format(&v, NOW, &b);
    rc_buf_putc(&b, '\0');
    const char *tail = strstr(b.data, "# HELP rowcast_state ");
    assert_non_null(tail);
    assert_string_equal(tail,
                        "# HELP rowcast_state 1 for the run's current state, 0 for the others.\n"
                        "# TYPE rowcast_state gauge\n"
                        "rowcast_state{state=\"starting\"} 0\n"
                        "rowcast_state{state=\"snapshot\"} 1\n"
                        "rowcast_state{state=\"streaming\"} 0\n"
                        "rowcast_state{state=\"reconnecting\"} 0\n"
                        "rowcast_state{state=\"reading\"} 0\n"
                        "rowcast_state{state=\"stopping\"} 0\n"
                        "rowcast_state{state=\"failing\"} 0\n"
                        "rowcast_state{state=\"done\"} 0\n"
                        "# HELP rowcast_role 1 for the run's role (active; standby: a --standby waiting for the lead), 0 for the others.\n"
                        "# TYPE rowcast_role gauge\n"
                        "rowcast_role{role=\"active\"} 1\n"
                        "rowcast_role{role=\"standby\"} 0\n"
                        "# HELP rowcast_ready 1 while /ready answers 200, else 0.\n"
                        "# TYPE rowcast_ready gauge\n"
                        "rowcast_ready 0\n");
    v.has_state = false; /* a scrape formatted alone: no state families */
    rc_buf_reset(&b);
    rc_metrics_format(&v, NOW, &b);
    rc_buf_putc(&b, '\0');
    assert_null(strstr(b.data, "rowcast_state"));
    rc_buf_fini(&b);
    rc_run_state_set(RC_RUN_RECONNECTING);
    assert_int_equal(rc_run_state_get(), RC_RUN_RECONNECTING);
    assert_string_equal(rc_run_state_name(RC_RUN_STATES), "unknown");
}

/* What the log writes on stderr for `fn`, the times replaced by T. */
static void logged(void (*fn)(void), char *out, size_t cap)
{
    fflush(stderr);
    char path[] = "/tmp/rc_test_log_XXXXXX";
    int fd = mkstemp(path), saved = dup(2);
    assert_true(fd >= 0 && saved >= 0);
    dup2(fd, 2);
    fn();
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    FILE *f = fopen(path, "r");
    size_t n = fread(out, 1, cap - 1, f);
    out[n] = '\0';
    fclose(f);
    close(fd);
    unlink(path);
    for (char *t = strstr(out, "\"time\":\""); t; t = strstr(t + 1, "\"time\":\"")) {
        char *end = strchr(t + 8, '"');
        assert_int_equal(end - (t + 8), 27); /* 2026-12-06T20:16:37.123456Z */
        assert_true(t[8 + 10] == 'T' && t[8 + 19] == '.' && t[8 + 26] == 'Z');
        memmove(t + 9, end, strlen(end) + 1);
        t[8] = 'T';
    }
}

static void write_lines(void)
{
    rc_log_set_format(RC_LOG_JSON);
    rc_logf("rowcast: 3 lines read");
    rc_logf(": %d converted\nrowcast convert: cannot open %s\n", 2, "x\"y");
    rc_log_fields f = {.file = "in.ndjson", .line = 7, .code = "syntax", .table = "shop.t", .position = "LSN 0/1"};
    rc_logf_with(&f, "rowcast: in.ndjson:7: syntax error: bad\n");
    rc_logf("rowcast: in.ndjson:8: warning: odd\n");
    rc_log_set_format(RC_LOG_TEXT);
}

static void test_json_log(void **state)
{
    (void)state;
    char out[2048];
    logged(write_lines, out, sizeof out);
    assert_string_equal(out,
                        "{\"time\":\"T\",\"level\":\"info\",\"message\":\"3 lines read: 2 converted\"}\n"
                        "{\"time\":\"T\",\"level\":\"error\",\"message\":\"cannot open x\\\"y\",\"command\":\"convert\"}\n"
                        "{\"time\":\"T\",\"level\":\"error\",\"message\":\"in.ndjson:7: syntax error: bad\",\"file\":\"in.ndjson\",\"line\":7,"
                        "\"table\":\"shop.t\",\"position\":\"LSN 0/1\",\"code\":\"syntax\"}\n"
                        "{\"time\":\"T\",\"level\":\"warning\",\"message\":\"in.ndjson:8: warning: odd\"}\n");
    rc_log_format f;
    assert_true(rc_log_format_parse("json", &f) && f == RC_LOG_JSON);
    assert_false(rc_log_format_parse("JSON", &f));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_states),          cmocka_unit_test(test_lag),
        cmocka_unit_test(test_standby),         cmocka_unit_test(test_scrape_families),
        cmocka_unit_test(test_json_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
