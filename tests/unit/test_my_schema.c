/* The MySQL schema history's store (src/sources/mysql/my_schema.c): put / get / drop / rename
 * with copies in its own memory, names compared as the server compares them; the text form
 * (my_history_text.c) written exactly, read back to the same text, and every kind of corrupt
 * text an error naming its line; tables from information_schema rows; collation names; the
 * TABLE_MAP type cross-check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_schema.h"
#include "sources/mysql/my_types.h"

static rc_str S(const char *s) { return (rc_str){s, strlen(s)}; }

static char *text_of(const rc_my_history *h)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_my_history_write(h, &b);
    rc_buf_putc(&b, '\0');
    return b.data;
}

static void col(rc_my_table_col *c, const char *name, const char *decl, bool nullable, uint16_t pk, uint16_t coll)
{
    memset(c, 0, sizeof *c);
    c->name = S(name);
    c->type.decl = S(decl);
    c->nullable = nullable;
    c->pk = pk;
    c->collation = coll;
}

static const char two_tables[] =
    "rowcast-mysql-history 1\n"
    "database\tshop\t8\n"
    "table\tshop\tItems\t45\t3\n"
    "column\tid\tbigint unsigned\tnot null\t1\t0\t-\t-\n"
    "column\tnote\tvarchar(20)\tnull\t0\t45\t-\tinvisible\n"
    "column\tkind\tenum('a','it''s')\tnot null\t0\t8\tgenerated\t-\n"
    "table\tshop\titems\t0\t1\n"
    "column\tweird\\x09name\\\\x\\x0a\tdecimal(10,2)\tnull\t0\t0\t-\t-\n"
    "end\t1\t2\n";

static void test_put_get_write(void **state)
{
    rc_my_history *h = rc_my_history_new();
    rc_error err;
    rc_error_clear(&err);
    /* the caller's memory goes away after put: the history holds copies */
    char *names = strdup("shop Items id note kind");
    names[4] = names[10] = names[13] = names[18] = '\0';
    char *decl = strdup("enum('a','it''s')");
    rc_my_table_col cols[3];
    col(&cols[0], names + 11, "bigint unsigned", false, 1, 0);
    col(&cols[1], names + 14, "varchar(20)", true, 0, 45);
    cols[1].invisible = true;
    col(&cols[2], names + 19, decl, false, 0, 8);
    cols[2].generated = true;
    rc_my_table t = {S(names), S(names + 5), 3, cols, 45};
    assert_int_equal(rc_my_history_put(h, &t, &err), RC_OK);
    memset(names, 'x', 23);
    memset(decl, 'x', strlen(decl));
    free(names);
    free(decl);
    rc_my_table_col c2;
    col(&c2, "weird\tname\\x\n", "decimal(10,2)", true, 0, 0);
    rc_my_table t2 = {S("shop"), S("items"), 1, &c2, 0};
    assert_int_equal(rc_my_history_put(h, &t2, &err), RC_OK);
    assert_int_equal(rc_my_history_set_database(h, S("shop"), 8, &err), RC_OK);

    /* table names are case-sensitive (lower_case_table_names=0): Items and items are two */
    const rc_my_table *g = rc_my_history_get(h, S("shop"), S("Items"));
    assert_non_null(g);
    assert_int_equal(g->ncols, 3);
    assert_string_equal(g->cols[2].type.info->name, "enum");
    rc_str label;
    assert_true(rc_coltype_label(&g->cols[2].type, 1, &label));
    assert_int_equal(label.n, 5);
    assert_memory_equal(label.p, "it''s", 5);
    assert_null(rc_my_history_get(h, S("Shop"), S("Items")));
    assert_null(rc_my_history_get(h, S("shop"), S("ITEMS")));

    char *txt = text_of(h);
    assert_string_equal(txt, two_tables);

    /* read back: the same text */
    rc_my_history *h2 = rc_my_history_new();
    assert_int_equal(rc_my_history_read(h2, txt, strlen(txt), &err), RC_OK);
    char *txt2 = text_of(h2);
    assert_string_equal(txt2, two_tables);
    g = rc_my_history_get(h2, S("shop"), S("items"));
    assert_non_null(g);
    assert_int_equal(g->cols[0].name.n, 13);
    assert_memory_equal(g->cols[0].name.p, "weird\tname\\x\n", 13);
    free(txt2);

    /* rename, drop, drop database */
    bool found;
    assert_int_equal(rc_my_history_rename(h2, S("shop"), S("items"), S("arch"), S("old_items"), &found, &err), RC_OK);
    assert_true(found);
    assert_int_equal(rc_my_history_rename(h2, S("shop"), S("none"), S("arch"), S("x"), &found, &err), RC_OK);
    assert_false(found);
    txt2 = text_of(h2);
    assert_string_equal(txt2, "rowcast-mysql-history 1\n"
                              "database\tshop\t8\n"
                              "table\tarch\told_items\t0\t1\n"
                              "column\tweird\\x09name\\\\x\\x0a\tdecimal(10,2)\tnull\t0\t0\t-\t-\n"
                              "table\tshop\tItems\t45\t3\n"
                              "column\tid\tbigint unsigned\tnot null\t1\t0\t-\t-\n"
                              "column\tnote\tvarchar(20)\tnull\t0\t45\t-\tinvisible\n"
                              "column\tkind\tenum('a','it''s')\tnot null\t0\t8\tgenerated\t-\n"
                              "end\t1\t2\n");
    free(txt2);
    rc_my_history_drop_database(h2, S("shop"));
    assert_false(rc_my_history_drop(h2, S("shop"), S("Items")));
    assert_true(rc_my_history_drop(h2, S("arch"), S("old_items")));
    txt2 = text_of(h2);
    assert_string_equal(txt2, "rowcast-mysql-history 1\nend\t0\t0\n");
    free(txt2);
    free(txt);
    rc_my_history_free(h2);
    rc_my_history_free(h);
}

static void test_put_bad_type(void **state)
{
    rc_my_history *h = rc_my_history_new();
    rc_error err;
    rc_error_clear(&err);
    rc_my_table_col c;
    col(&c, "a", "number(5)", true, 0, 0);
    rc_my_table t = {S("d"), S("t"), 1, &c, 0};
    assert_int_equal(rc_my_history_put(h, &t, &err), RC_ERR_TYPE);
    assert_string_equal(err.message, "table d.t, column a: unknown mysql column type 'number(5)'");
    assert_null(rc_my_history_get(h, S("d"), S("t")));
    rc_my_history_free(h);
}

/* Each corrupt text: the exact message (naming its line) and the history left as it was. */
static void test_read_errors(void **state)
{
    static const struct {
        const char *text, *msg;
        size_t off;
    } cases[] = {
        {"", "schema history, line 1: not a schema history (the first line is not 'rowcast-mysql-history 1')", 0},
        {"rowcast-mysql-history 2\nend\t0\t0\n",
         "schema history, line 1: not a schema history (the first line is not 'rowcast-mysql-history 1')", 0},
        {"rowcast-mysql-history 1\n", "schema history, line 2: the text ends without its end line (it is cut off)", 24},
        {"rowcast-mysql-history 1\nend\t0\t0", "schema history, line 2: the line does not end with a line feed (the text is cut off)", 24},
        {"rowcast-mysql-history 1\nend\t0\t1\n", "schema history, line 2: the counts of the end line are not those of the lines before it", 24},
        {"rowcast-mysql-history 1\nend\t0\t0\nx\n", "schema history, line 3: text after the end line", 32},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t2\ncolumn\ta\tint\tnull\t0\t0\t-\t-\nend\t0\t1\n",
         "schema history, line 4: expected a column line (column, name, type, null|not null, pk, collation, generated|-, invisible|-)", 64},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\tint\tnullable\t0\t0\t-\t-\nend\t0\t1\n",
         "schema history, line 3: the nullability is neither 'null' nor 'not null'", 38},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\tint\tnull\t01\t0\t-\t-\nend\t0\t1\n",
         "schema history, line 3: the primary key ordinal is not a number from 0 to 65535", 38},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\tint\tnull\t0\t70000\t-\t-\nend\t0\t1\n",
         "schema history, line 3: the collation is not a number from 0 to 65535", 38},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\tint\tnull\t0\t0\tgen\t-\nend\t0\t1\n",
         "schema history, line 3: the generated field is neither 'generated' nor '-'", 38},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\tint\tnull\t0\t0\t-\thidden\nend\t0\t1\n",
         "schema history, line 3: the invisible field is neither 'invisible' nor '-'", 38},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\tintt\tnull\t0\t0\t-\t-\nend\t0\t1\n",
         "schema history, line 2: table d.t, column a: unknown mysql column type 'intt'", 24},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\\q\tint\tnull\t0\t0\t-\t-\nend\t0\t1\n",
         "schema history, line 3: a '\\' that is not \\\\ or \\xHH", 38},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\\x41\tint\tnull\t0\t0\t-\t-\nend\t0\t1\n",
         "schema history, line 3: a \\x escape of a byte that is written as itself", 38},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\\x0G\tint\tnull\t0\t0\t-\t-\nend\t0\t1\n",
         "schema history, line 3: a \\x escape without two lower-case hex digits", 38},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\ncolumn\ta\rb\tint\tnull\t0\t0\t-\t-\nend\t0\t1\n",
         "schema history, line 3: a control byte that should have been escaped", 38},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t1\n", "schema history, line 2: the text ends before the table's columns do", 24},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\n", "schema history, line 2: a table line has 5 fields: table, database, name, collation, columns", 24},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t0\ntable\td\tt\t0\t0\nend\t0\t2\n", "schema history, line 3: the table appears twice", 38},
        {"rowcast-mysql-history 1\ndatabase\td\t8\ndatabase\td\t8\nend\t2\t0\n", "schema history, line 3: the database appears twice", 37},
        {"rowcast-mysql-history 1\ntable\td\tt\t0\t0\ndatabase\td\t8\nend\t1\t1\n", "schema history, line 3: a database line after the tables", 38},
        {"rowcast-mysql-history 1\nview\tx\nend\t0\t0\n", "schema history, line 2: expected a database, table or end line", 24},
        {"rowcast-mysql-history 1\ndatabase\t\t8\nend\t1\t0\n", "schema history, line 2: an empty database name", 24},
    };
    rc_my_history *h = rc_my_history_new();
    rc_error err;
    rc_error_clear(&err);
    rc_my_table_col c;
    col(&c, "keep", "int", true, 0, 0);
    rc_my_table t = {S("d"), S("kept"), 1, &c, 0};
    assert_int_equal(rc_my_history_put(h, &t, &err), RC_OK);
    char *before = text_of(h);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rc_error_clear(&err);
        if (rc_my_history_read(h, cases[i].text, strlen(cases[i].text), &err) == RC_OK) fail_msg("case %zu read", i);
        if (strcmp(err.message, cases[i].msg)) fail_msg("case %zu: got\n%s\nwant\n%s", i, err.message, cases[i].msg);
        if (err.offset != cases[i].off) fail_msg("case %zu: offset %zu, want %zu", i, err.offset, cases[i].off);
        char *after = text_of(h);
        assert_string_equal(after, before);
        free(after);
    }
    free(before);
    rc_my_history_free(h);
}

static void test_information_schema(void **state)
{
    rc_my_history *h = rc_my_history_new();
    rc_error err;
    rc_error_clear(&err);
    rc_my_is_column rows[] = {
        {S("id"), S("bigint(20) unsigned"), S("NO"), S("PRI"), S("auto_increment"), S(""), 1, S(""), false},
        {S("price"), S("decimal(10,2) unsigned"), S("YES"), S(""), S(""), S(""), 0, S(""), false},
        {S("kind"), S("enum('a','b')"), S("NO"), S(""), S(""), S("utf8mb4_0900_ai_ci"), 0, S(""), false},
        {S("full"), S("varchar(40)"), S("YES"), S(""), S("VIRTUAL GENERATED"), S("latin1_swedish_ci"), 0, S(""), false},
        {S("ts"), S("timestamp(6)"), S("NO"), S(""), S("DEFAULT_GENERATED on update CURRENT_TIMESTAMP(6)"), S(""), 0, S(""), false},
        {S("secret"), S("int"), S("YES"), S(""), S("INVISIBLE"), S(""), 0, S(""), false},
        {S("raw"), S("varbinary(16)"), S("YES"), S(""), S(""), S(""), 0, S(""), false},
        {S("addr"), S("inet6"), S("YES"), S(""), S(""), S(""), 0, S(""), false},
        {S("region"), S("int"), S("NO"), S("PRI"), S("STORED GENERATED"), S(""), 2, S(""), false},
        {S("odd"), S("char(2)"), S("YES"), S(""), S(""), S("utf8mb4_uca1400_ai_ci"), 0, S(""), false},
    };
    assert_int_equal(rc_my_history_put_is(h, S("shop"), S("orders"), S("utf8mb4_unicode_ci"), rows, 10, &err), RC_OK);
    char *txt = text_of(h);
    assert_string_equal(txt, "rowcast-mysql-history 1\n"
                             "table\tshop\torders\t224\t10\n"
                             "column\tid\tbigint(20) unsigned\tnot null\t1\t0\t-\t-\n"
                             "column\tprice\tdecimal(10,2) unsigned\tnull\t0\t0\t-\t-\n"
                             "column\tkind\tenum('a','b')\tnot null\t0\t255\t-\t-\n"
                             "column\tfull\tvarchar(40)\tnull\t0\t8\tgenerated\t-\n"
                             "column\tts\ttimestamp(6)\tnot null\t0\t0\t-\t-\n"
                             "column\tsecret\tint\tnull\t0\t0\t-\tinvisible\n"
                             "column\traw\tvarbinary(16)\tnull\t0\t63\t-\t-\n"
                             "column\taddr\tinet6\tnull\t0\t0\t-\t-\n"
                             "column\tregion\tint\tnot null\t2\t0\tgenerated\t-\n"
                             "column\todd\tchar(2)\tnull\t0\t0\t-\t-\n"
                             "end\t0\t1\n");
    free(txt);
    rc_my_is_column bad = {S("x"), S("number(3)"), S("YES"), S(""), S(""), S(""), 0, S(""), false};
    assert_int_equal(rc_my_history_put_is(h, S("shop"), S("bad"), S(""), &bad, 1, &err), RC_ERR_TYPE);
    assert_string_equal(err.message, "information_schema.COLUMNS of shop.bad, column x: COLUMN_TYPE 'number(3)' is not a MySQL "
                                     "type rowcast knows (unknown mysql column type 'number(3)')");
    rc_my_history_free(h);
}

static void test_collations(void **state)
{
    assert_int_equal(rc_my_collation_id(S("utf8mb4_general_ci")), 45);
    assert_int_equal(rc_my_collation_id(S("UTF8MB4_BIN")), 46);
    assert_int_equal(rc_my_collation_id(S("utf8mb4_unicode_ci")), 224);
    assert_int_equal(rc_my_collation_id(S("utf8mb4_0900_ai_ci")), 255);
    assert_int_equal(rc_my_collation_id(S("latin1_swedish_ci")), 8);
    assert_int_equal(rc_my_collation_id(S("latin1_bin")), 47);
    assert_int_equal(rc_my_collation_id(S("binary")), 63);
    assert_int_equal(rc_my_collation_id(S("utf8mb3_general_ci")), 33);
    assert_int_equal(rc_my_collation_id(S("utf8_general_ci")), 33);
    assert_int_equal(rc_my_collation_id(S("utf8mb3_bin")), 83);
    assert_int_equal(rc_my_collation_id(S("ascii_general_ci")), 11);
    assert_int_equal(rc_my_collation_id(S("no_such_ci")), 0);
    assert_int_equal(rc_my_charset_default_collation(S("latin1")), 8);
    assert_int_equal(rc_my_charset_default_collation(S("utf8mb4")), 45);
    assert_int_equal(rc_my_charset_default_collation(S("utf8")), 33);
    assert_int_equal(rc_my_charset_default_collation(S("klingon")), 0);
    assert_int_equal(rc_my_collation_bin(255), 46);
    assert_int_equal(rc_my_collation_bin(8), 47);
    assert_int_equal(rc_my_collation_bin(33), 83);
    assert_int_equal(rc_my_collation_bin(63), 63);
    assert_int_equal(rc_my_collation_bin(0), 0);
}

static void test_type_matches(void **state)
{
    static const struct {
        const char *decl;
        uint8_t yes[6], no[4];
    } cases[] = {
        {"tinyint(1)", {RC_MY_TINY}, {RC_MY_SHORT, RC_MY_LONG}},
        {"smallint unsigned", {RC_MY_SHORT}, {RC_MY_TINY}},
        {"mediumint", {RC_MY_INT24}, {RC_MY_LONG}},
        {"int", {RC_MY_LONG}, {RC_MY_LONGLONG, RC_MY_INT24}},
        {"bigint unsigned", {RC_MY_LONGLONG}, {RC_MY_LONG}},
        {"decimal(10,2)", {RC_MY_NEWDECIMAL, RC_MY_DECIMAL}, {RC_MY_DOUBLE}},
        {"float", {RC_MY_FLOAT}, {RC_MY_DOUBLE}},
        {"double", {RC_MY_DOUBLE}, {RC_MY_FLOAT}},
        {"bit(8)", {RC_MY_BIT}, {RC_MY_TINY}},
        {"year", {RC_MY_YEAR}, {RC_MY_SHORT}},
        {"date", {RC_MY_DATE, RC_MY_NEWDATE}, {RC_MY_DATETIME2}},
        {"time(3)", {RC_MY_TIME, RC_MY_TIME2}, {RC_MY_DATETIME2}},
        {"datetime(6)", {RC_MY_DATETIME, RC_MY_DATETIME2}, {RC_MY_TIMESTAMP2}},
        {"timestamp", {RC_MY_TIMESTAMP, RC_MY_TIMESTAMP2}, {RC_MY_DATETIME2}},
        {"char(4)", {RC_MY_STRING, RC_MY_VAR_STRING}, {RC_MY_VARCHAR, RC_MY_BLOB}},
        {"varchar(20)", {RC_MY_VARCHAR, RC_MY_VAR_STRING}, {RC_MY_STRING, RC_MY_BLOB}},
        {"binary(4)", {RC_MY_STRING}, {RC_MY_VARCHAR}},
        {"varbinary(4)", {RC_MY_VARCHAR}, {RC_MY_STRING}},
        {"text", {RC_MY_BLOB, RC_MY_TINY_BLOB, RC_MY_LONG_BLOB}, {RC_MY_VARCHAR}},
        {"longblob", {RC_MY_BLOB, RC_MY_LONG_BLOB}, {RC_MY_VARCHAR}},
        {"enum('a')", {RC_MY_ENUM}, {RC_MY_SET, RC_MY_STRING}},
        {"set('a')", {RC_MY_SET}, {RC_MY_ENUM}},
        {"json", {RC_MY_JSON, RC_MY_BLOB}, {RC_MY_VARCHAR}},
        {"point", {RC_MY_GEOMETRY}, {RC_MY_BLOB}},
        {"inet6", {RC_MY_STRING}, {RC_MY_VARCHAR}},
        {"uuid", {RC_MY_STRING}, {RC_MY_VARCHAR}},
        {"vector(3)", {RC_MY_VECTOR, RC_MY_VARCHAR}, {RC_MY_STRING}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rc_coltype t;
        rc_error err;
        rc_error_clear(&err);
        if (rc_coltype_parse(RC_FAM_MYSQL, cases[i].decl, strlen(cases[i].decl), &t, &err)) fail_msg("%s", err.message);
        for (int k = 0; k < 6 && (k == 0 || cases[i].yes[k]); k++)
            if (!rc_my_type_matches(&t, cases[i].yes[k])) fail_msg("%s should match %d", cases[i].decl, cases[i].yes[k]);
        for (int k = 0; k < 4 && (k == 0 || cases[i].no[k]); k++)
            if (rc_my_type_matches(&t, cases[i].no[k])) fail_msg("%s should not match %d", cases[i].decl, cases[i].no[k]);
    }
    assert_false(rc_my_type_matches(NULL, RC_MY_LONG));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_put_get_write), cmocka_unit_test(test_put_bad_type), cmocka_unit_test(test_read_errors),
        cmocka_unit_test(test_information_schema), cmocka_unit_test(test_collations), cmocka_unit_test(test_type_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
