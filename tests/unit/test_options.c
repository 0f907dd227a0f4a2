/* -o options: unknown keys with a suggestion, the typed tables (rc_options_parse: each type,
 * defaults, last occurrence wins, every format's table), which keys are secret, and secret
 * values read from @FILE and env:NAME (exact messages, which never hold the value). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "formats/ogg_json.h"
#include "rowcast/event.h"
#include "rowcast/format.h"

static void test_check_suggests(void **state)
{
    static const rc_option_desc known[] = {{"canal.values", RC_OPT_CHOICE, "typed|string", NULL, "", .off = 0}, {"canal.flavor", RC_OPT_CHOICE, "oms|canal", NULL, "", .off = 0}, {0}};
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

/* ---- rc_options_parse ---- */

typedef struct x_opts {
    bool flag, on;
    int mode, derived;
    long count;
    rc_tz tz;
    const char *name, *none;
    int func;
    bool alias;
} x_opts;

/* FUNC: "N" letters, stored as their count */
static rc_status parse_letters(const char *key, const char *v, void *field, rc_error *err)
{
    if (strspn(v, "abc") != strlen(v)) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=%s: letters a, b, c only", key, v);
    *(int *)field = (int)strlen(v);
    return RC_OK;
}

#define OFF(f) offsetof(x_opts, f)
static const rc_option_desc x_table[] = {
    {"x.flag", RC_OPT_BOOL, NULL, "false", "a flag", .off = OFF(flag)},
    {"x.on", RC_OPT_BOOL, NULL, "true", "on unless told", .off = OFF(on)},
    {"x.mode", RC_OPT_CHOICE, "one|two|three", "two", "a mode", .off = OFF(mode)},
    {"x.derived", RC_OPT_CHOICE, "typed|string", "(by x.mode)", "decided later", .off = OFF(derived)},
    {"x.count", RC_OPT_INT, "N", "5", "a count", .off = OFF(count), .min = 1, .max = 9},
    {"x.zone", RC_OPT_TZ, NULL, "+08:00", "a zone", .off = OFF(tz)},
    {"x.name", RC_OPT_STRING, "NAME", "anon", "a name", .off = OFF(name)},
    {"x.none", RC_OPT_STRING, "TEXT", NULL, "no default", .off = OFF(none)},
    {"x.letters", RC_OPT_FUNC, "a,b,c", "ab", "letters", .off = OFF(func), .parse = parse_letters},
    {"x.alias.long", RC_OPT_BOOL, NULL, "false", "one field, two keys", .off = OFF(alias)},
    {"x.alias", RC_OPT_BOOL, NULL, "false", "the same as x.alias.long", .off = OFF(alias)},
    {0},
};
#undef OFF

/* rc_options_parse of the items into x (its not-given states set first); the status, and the
 * message when want_msg */
static rc_status parse_x(const rc_option *items, size_t n, x_opts *x, const char *want_msg)
{
    *x = (x_opts){.derived = -1};
    rc_options o = {items, n};
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_options_parse(&o, "x", x_table, x, &err);
    if (want_msg) assert_string_equal(err.message, want_msg);
    return st;
}

static void test_parse_defaults(void **state)
{
    x_opts x;
    rc_option other[] = {{"y.mode", "zzz"}}; /* another prefix's: not this table's business */
    assert_int_equal(parse_x(other, 1, &x, NULL), RC_OK);
    assert_false(x.flag);
    assert_true(x.on);
    assert_int_equal(x.mode, 1);
    assert_int_equal(x.derived, -1); /* "(by x.mode)": left not given */
    assert_int_equal(x.count, 5);
    assert_int_equal(x.tz.fixed, 8 * 3600);
    assert_null(x.tz.zone);
    assert_string_equal(x.name, "anon");
    assert_null(x.none);
    assert_int_equal(x.func, 2);
    assert_false(x.alias);
}

static void test_parse_values(void **state)
{
    x_opts x;
    rc_option items[] = {{"x.flag", "yes"},    {"x.on", "0"},           {"x.mode", "three"}, {"x.derived", "string"},
                         {"x.count", "9"},     {"x.zone", "-05:30"},    {"x.name", "n1"},    {"x.none", "given"},
                         {"x.letters", "cab"}, {"x.alias", "true"}};
    assert_int_equal(parse_x(items, sizeof items / sizeof *items, &x, NULL), RC_OK);
    assert_true(x.flag);
    assert_false(x.on);
    assert_int_equal(x.mode, 2);
    assert_int_equal(x.derived, 1);
    assert_int_equal(x.count, 9);
    assert_int_equal(x.tz.fixed, -(5 * 3600 + 30 * 60));
    assert_string_equal(x.name, "n1");
    assert_string_equal(x.none, "given");
    assert_int_equal(x.func, 3);
    assert_true(x.alias);
}

/* the last occurrence of a key wins, and only its value is read */
static void test_parse_last_wins(void **state)
{
    x_opts x;
    rc_option items[] = {{"x.mode", "bad"}, {"x.count", "1"}, {"x.mode", "one"}, {"x.count", "7"}, {"x.alias.long", "true"}};
    assert_int_equal(parse_x(items, sizeof items / sizeof *items, &x, NULL), RC_OK);
    assert_int_equal(x.mode, 0);
    assert_int_equal(x.count, 7);
    assert_true(x.alias); /* a default of the other key of the field does not undo it */
}

/* of two keys of one field the one given last wins, whichever comes first in the table */
static void test_parse_alias_order(void **state)
{
    x_opts x;
    rc_option a[] = {{"x.alias", "true"}, {"x.alias.long", "false"}};
    assert_int_equal(parse_x(a, 2, &x, NULL), RC_OK);
    assert_false(x.alias);
    rc_option b[] = {{"x.alias.long", "false"}, {"x.alias", "true"}};
    assert_int_equal(parse_x(b, 2, &x, NULL), RC_OK);
    assert_true(x.alias);
}

static void test_parse_errors(void **state)
{
    x_opts x;
    rc_option it[1];
    const struct {
        const char *key, *value, *msg;
    } bad[] = {
        {"x.mdoe", "one", "unknown option 'x.mdoe': did you mean 'x.mode'? (rowcast formats --options)"},
        {"x.zzzzzzzzzzzz", "1", "unknown option 'x.zzzzzzzzzzzz' (see rowcast formats --options)"},
        {"x.flag", "maybe", "option x.flag must be true or false, not 'maybe'"},
        {"x.mode", "four", "option x.mode must be one of one|two|three, not 'four'"},
        {"x.mode", "", "option x.mode must be one of one|two|three, not ''"},
        {"x.count", "0", "option x.count must be an integer from 1 to 9, not '0'"},
        {"x.count", "10", "option x.count must be an integer from 1 to 9, not '10'"},
        {"x.count", "3x", "option x.count must be an integer from 1 to 9, not '3x'"},
        {"x.count", "", "option x.count must be an integer from 1 to 9, not ''"},
        {"x.count", "99999999999999999999", "option x.count must be an integer from 1 to 9, not '99999999999999999999'"},
        {"x.letters", "abd", "-o x.letters=abd: letters a, b, c only"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        it[0] = (rc_option){bad[i].key, bad[i].value};
        assert_int_equal(parse_x(it, 1, &x, bad[i].msg), RC_ERR_USAGE);
    }
    it[0] = (rc_option){"x.zone", "Mars/Olympus"};
    assert_int_equal(parse_x(it, 1, &x, NULL), RC_ERR_USAGE);
}

/* What --options shows of each type */
static void test_type_names(void **state)
{
    static const char *const want_values[] = {"true|false", "true|false", "one|two|three", "typed|string", "N", "UTC|+HH:MM|Area/City",
                                              "NAME", "TEXT", "a,b,c"};
    static const char *const want_types[] = {"boolean", "boolean", "choice", "choice", "integer from 1 to 9", "time zone",
                                             "text", "text", "text"};
    char buf[64];
    for (size_t i = 0; i < sizeof want_types / sizeof *want_types; i++) {
        assert_string_equal(rc_option_values(&x_table[i]), want_values[i]);
        assert_string_equal(rc_option_type_name(&x_table[i], buf, sizeof buf), want_types[i]);
    }
}

/* Every format's table: a key of its own prefix, help, a default that is a value of its type
 * (or says what decides it), CHOICE values; the encoder and the decoder take no options */
static void test_format_tables(void **state)
{
    for (const rc_format *const *f = rc_formats; *f; f++) {
        for (const rc_option_desc *d = (*f)->options; d && d->key; d++) {
            size_t nl = strlen((*f)->name);
            assert_true(!strncmp(d->key, (*f)->name, nl) && d->key[nl] == '.');
            assert_true(d->help && d->help[0]);
            assert_true(d->type != RC_OPT_CHOICE || (d->values && strchr(d->values, '|')));
            assert_true(d->type != RC_OPT_FUNC || d->parse);
            if (d->def && d->def[0] == '(') assert_int_equal(d->def[strlen(d->def) - 1], ')');
        }
        rc_options none = {0};
        rc_error err;
        rc_error_clear(&err);
        void *p = NULL;
        if ((*f)->enc_new) {
            assert_int_equal((*f)->enc_new(&none, &p, &err), RC_OK);
            (*f)->enc_free(p);
        }
        if ((*f)->dec_new) {
            assert_int_equal((*f)->dec_new(&none, &p, &err), RC_OK);
            (*f)->dec_free(p);
        }
    }
}

/* ogg-json.source's choices are rc_dbkind's names in their order (the index is the kind) */
static void test_ogg_source_choices(void **state)
{
    const rc_option_desc *d = rc_ogg_options;
    while (strcmp(d->key, "ogg-json.source")) d++;
    char want[256] = "";
    for (int k = 0; k < RC_DB_COUNT; k++) {
        if (k) strcat(want, "|");
        strcat(want, rc_dbkind_name((rc_dbkind)k));
    }
    assert_string_equal(d->values, want);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_check_suggests),
        cmocka_unit_test(test_parse_defaults),
        cmocka_unit_test(test_parse_values),
        cmocka_unit_test(test_parse_last_wins),
        cmocka_unit_test(test_parse_alias_order),
        cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_type_names),
        cmocka_unit_test(test_format_tables),
        cmocka_unit_test(test_ogg_source_choices),
        cmocka_unit_test(test_secret_names),
        cmocka_unit_test(test_secret_read),
        cmocka_unit_test(test_bad_value_shown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
