/* -o options: unknown keys with a suggestion, which keys are secret, and secret values read
 * from @FILE and env:NAME (exact messages, which never hold the value). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rowcast/format.h"

static void test_check_suggests(void **state)
{
    static const rc_option_desc known[] = {{"canal.values", "typed|string", ""}, {"canal.flavor", "oms|canal", ""}, {NULL, NULL, NULL}};
    rc_option items[] = {{"canal.valuse", "string"}};
    rc_options o = {items, 1};
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_options_check(&o, "canal", known, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "unknown option 'canal.valuse': did you mean 'canal.values'? (rowcast formats --options)");
    items[0].key = "canal.nothing.like.it";
    rc_error_clear(&err);
    assert_int_equal(rc_options_check(&o, "canal", known, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "unknown option 'canal.nothing.like.it' (see rowcast formats --options)");
}

static void test_secret_names(void **state)
{
    const char *secret[] = {"kafka.sasl.password", "kafka.ssl.key.password", "kafka.ssl.keystore.password",
                            "kafka.sasl.oauthbearer.client.secret", "kafka.ssl.key.pem", "kafka.sasl.jaas.config",
                            "kafka.sasl.oauthbearer.config", "sasl.password", "x.access_token", "x.db_passwd"};
    const char *plain[] = {"kafka.sasl.username", "kafka.ssl.key.location", "kafka.ssl.certificate.pem",
                           "kafka.sasl.oauthbearer.token.endpoint.url", "kafka.linger.ms", "canal.values", "kafka.xkey.pem",
                           "debezium.password.mode.x"};
    for (size_t i = 0; i < sizeof secret / sizeof *secret; i++) assert_true(rc_option_is_secret(secret[i]));
    for (size_t i = 0; i < sizeof plain / sizeof *plain; i++) assert_false(rc_option_is_secret(plain[i]));
}

/* rc_option_secret_read's status, value (NULL: taken as given) and message */
static void expect_secret(const char *spec, rc_status want, const char *want_value, const char *want_msg)
{
    char *v = (char *)"unset";
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_option_secret_read("kafka.sasl.password", spec, &v, &err), want);
    if (want_value) assert_string_equal(v, want_value);
    else assert_null(v);
    if (want_msg) assert_string_equal(err.message, want_msg);
    rc_option_secret_free(v);
}

static void test_secret_read(void **state)
{
    char dir[] = "/tmp/rowcast-test-options-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char path[64], spec[72], msg[240];
    struct {
        const char *name, *text;
        size_t n;
    } files[] = {{"nl", "pass word\n", 10}, {"crlf", "pw\r\n", 4}, {"twonl", "pw\n\n", 4}, {"none", "pw", 2},
                 {"empty", "", 0},      {"onlynl", "\n", 1},      {"nul", "a\0b", 3}};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        FILE *f = fopen(path, "wb");
        assert_non_null(f);
        assert_int_equal(fwrite(files[i].text, 1, files[i].n, f), files[i].n);
        fclose(f);
    }
    const char *want[] = {"pass word", "pw", "pw\n", "pw"}; /* one trailing newline goes, no more */
    for (size_t i = 0; i < 4; i++) {
        snprintf(spec, sizeof spec, "@%s/%s", dir, files[i].name);
        expect_secret(spec, RC_OK, want[i], NULL);
    }
    for (size_t i = 4; i < 7; i++) {
        snprintf(spec, sizeof spec, "@%s/%s", dir, files[i].name);
        snprintf(msg, sizeof msg, "-o kafka.sasl.password=%s: %s %s", spec, spec + 1, i == 6 ? "holds a NUL byte" : "is empty");
        expect_secret(spec, RC_ERR_USAGE, NULL, msg);
    }
    snprintf(spec, sizeof spec, "@%s/missing", dir);
    snprintf(msg, sizeof msg, "-o kafka.sasl.password=%s: cannot read %s: No such file or directory", spec, spec + 1);
    expect_secret(spec, RC_ERR_USAGE, NULL, msg);
    expect_secret("@", RC_ERR_USAGE, NULL, "-o kafka.sasl.password=@: a file name must follow '@'");

    setenv("RC_TEST_SECRET", "from the environment", 1);
    setenv("RC_TEST_EMPTY", "", 1);
    unsetenv("RC_TEST_UNSET");
    expect_secret("env:RC_TEST_SECRET", RC_OK, "from the environment", NULL);
    expect_secret("env:RC_TEST_EMPTY", RC_ERR_USAGE, NULL, "-o kafka.sasl.password=env:RC_TEST_EMPTY: the environment variable RC_TEST_EMPTY is empty");
    expect_secret("env:RC_TEST_UNSET", RC_ERR_USAGE, NULL,
                  "-o kafka.sasl.password=env:RC_TEST_UNSET: the environment variable RC_TEST_UNSET is not set");
    expect_secret("env:", RC_ERR_USAGE, NULL, "-o kafka.sasl.password=env:: a variable name must follow 'env:'");
    expect_secret("plain text", RC_OK, NULL, NULL); /* taken as given */
    expect_secret("", RC_OK, NULL, NULL);
    rc_option_secret_free(NULL);

    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, files[i].name);
        unlink(path);
    }
    rmdir(dir);
}

/* the typed readers name a bad value, unless the option is a secret */
static void test_bad_value_shown(void **state)
{
    rc_option items[] = {{"x.count", "many"}, {"x.token", "tok-123"}};
    rc_options o = {items, 2};
    long n = 0;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_options_int(&o, "x.count", 0, 9, &n, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "option x.count must be an integer from 0 to 9, not 'many'");
    rc_error_clear(&err);
    assert_int_equal(rc_options_int(&o, "x.token", 0, 9, &n, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "option x.token must be an integer from 0 to 9, not '(secret)'");
    bool b = false;
    rc_error_clear(&err);
    assert_int_equal(rc_options_bool(&o, "x.token", &b, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "option x.token must be true or false, not '(secret)'");
    int k = 0;
    rc_error_clear(&err);
    assert_int_equal(rc_options_choice(&o, "x.token", "a|b", &k, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "option x.token must be one of a|b, not '(secret)'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_suggests),
        cmocka_unit_test(test_secret_names),
        cmocka_unit_test(test_secret_read),
        cmocka_unit_test(test_bad_value_shown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
