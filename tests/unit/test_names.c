/* Avro-valid schema names and collision detection; "did you mean" (edit distance, suggestion,
 * format lookup without case). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "check.h"
#include "rowcast/format.h"
#include "core/names.h"

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

static void test_distance(void **state)
{
    assert_int_equal(rc_name_distance("canal", "canal"), 0);
    assert_int_equal(rc_name_distance("Canal", "cANAL"), 0);        /* ASCII case ignored */
    assert_int_equal(rc_name_distance("canl", "canal"), 1);         /* a deletion */
    assert_int_equal(rc_name_distance("debezium", "debezum"), 1);
    assert_int_equal(rc_name_distance("canal.valuse", "canal.values"), 1); /* two neighbours swapped: one edit */
    assert_int_equal(rc_name_distance("--form", "--from"), 1);
    assert_int_equal(rc_name_distance("", "abc"), 3);
    assert_int_equal(rc_name_distance("kitten", "sitting"), 3);
    assert_int_equal(rc_name_distance("ca", "abc"), 3);             /* optimal string alignment, not full Damerau */
    char longer[200];
    memset(longer, 'a', sizeof longer - 1), longer[sizeof longer - 1] = '\0';
    assert_int_equal(rc_name_distance(longer, "a"), (size_t)-1); /* too long to be a typo */
}

static const char *suggest(const char *given, const char *const *cands)
{
    rc_suggest s;
    rc_suggest_init(&s, given);
    for (; *cands; cands++) rc_suggest_offer(&s, *cands);
    return s.best;
}

static void test_suggest(void **state)
{
    const char *const formats[] = {"canal", "debezium", "debeziumflatten", "drs-json", "drs-json-c", NULL};
    assert_string_equal(suggest("debezum", formats), "debezium");
    assert_string_equal(suggest("debeziumflaten", formats), "debeziumflatten");
    assert_string_equal(suggest("drs-json_c", formats), "drs-json-c"); /* the closest (1), not the first close one (2) */
    assert_string_equal(suggest("drsjson", formats), "drs-json");
    assert_null(suggest("json", formats));  /* 4 edits from drs-json: more than a third of 4 letters */
    assert_null(suggest("yaml", formats));
    assert_null(suggest("cnl", formats));   /* 2 edits on 3 letters */
    const char *const ties[] = {"ab", "ba", NULL};
    assert_string_equal(suggest("aa", ties), "ab"); /* equally close: the first offered */
}

static void test_format_lookup(void **state)
{
    assert_ptr_equal(rc_format_find("Canal"), rc_format_find("canal"));
    assert_ptr_equal(rc_format_find("DRS-JSON"), rc_format_find("drs-json"));
    assert_non_null(rc_format_find("canal"));
    assert_null(rc_format_find("canal "));
    assert_string_equal(rc_format_suggest("debezum"), "debezium");
    assert_string_equal(rc_format_suggest("maxwel"), "maxwell");
    assert_null(rc_format_suggest("yaml"));
    assert_string_equal(rc_format_suggest("defualt"), "oms-default"); /* an old spelling's current name */
}

/* The names of docs/formats/README.md: each output named after its tool, the old spellings
 * standing for the current names, the flavours fixing their format's option. */
static void test_format_names(void **state)
{
    const rc_format_name *old, *n = rc_format_lookup("Default", &old);
    assert_string_equal(n->name, "oms-default");
    assert_string_equal(old->name, "default");
    assert_ptr_equal(n->format, rc_format_find("default"));
    assert_ptr_equal(rc_format_find("oms-default"), rc_format_find("default"));
    n = rc_format_lookup("oms-debezium", &old);
    assert_null(old);
    assert_ptr_equal(n->format, rc_format_find("debezium"));
    assert_string_equal(n->fixed_key, "debezium.flavor");
    assert_string_equal(n->fixed_value, "oms");
    assert_null(rc_format_find("oms-debezium")); /* the format alone would not be OMS's */
    assert_string_equal(rc_format_name_of(rc_format_find("canal"), "canal.flavor", "oms")->name, "oms-canal");
    assert_string_equal(rc_format_name_of(rc_format_find("canal"), "canal.flavor", "ticdc")->name, "canal");
    assert_string_equal(rc_format_name_of(rc_format_find("avro"), NULL, NULL)->name, "oms-avro");
    assert_null(rc_format_lookup("mysql-binlog", NULL)->format); /* an input of convert, not a format */
    /* every format has one name that fixes nothing, every old spelling stands for a current name,
     * and the current names come first */
    for (const rc_format *const *f = rc_formats; *f; f++) {
        int plain = 0;
        for (n = rc_format_names; n->name; n++) plain += n->format == *f && !n->fixed_key && !n->now;
        assert_int_equal(plain, 1);
    }
    bool olds = false;
    for (n = rc_format_names; n->name; n++) {
        if (n->now) assert_true(rc_format_lookup(n->now, NULL) && !rc_format_lookup(n->now, NULL)->now && n->summary);
        else assert_false(olds);
        olds = olds || n->now;
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_adjust),
        cmocka_unit_test(test_collision),
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_suggest),
        cmocka_unit_test(test_format_lookup),
        cmocka_unit_test(test_format_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
