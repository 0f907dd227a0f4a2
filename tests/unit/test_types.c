/* The type catalog and the declared-type parser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "rowcast/types.h"

static rc_coltype parse_ok(rc_family fam, const char *s)
{
    rc_coltype t;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_coltype_parse(fam, s, strlen(s), &t, &err);
    if (st != RC_OK) fail_msg("'%s': %s", s, err.message);
    return t;
}

static void test_catalog_integrity(void **state)
{
    size_t n = 0;
    for (const rc_type_info *t = rc_type_catalog; t->name; t++, n++) {
        assert_non_null(t->canal_type);
        assert_non_null(t->dataworks);
        assert_non_null(t->light_type);
        assert_non_null(t->connect);
        assert_true(t->vclass < RC_VC_COUNT);
        assert_true(t->vkind > RC_V_NULL && t->vkind < RC_V_KIND_COUNT);
        for (const rc_type_info *u = rc_type_catalog; u != t; u++)
            if (u->family == t->family && strcmp(u->name, t->name) == 0) fail_msg("duplicate row %s", t->name);
        /* lookups find the row itself */
        assert_ptr_equal(rc_type_lookup((rc_family)t->family, t->name, strlen(t->name)), t);
    }
    assert_true(n > 100);
}

static void test_mysql_declarations(void **state)
{
    rc_coltype t = parse_ok(RC_FAM_MYSQL, "decimal(10,2) unsigned");
    assert_string_equal(t.info->name, "decimal unsigned");
    assert_int_equal(t.p1, 10);
    assert_int_equal(t.p2, 2);
    assert_true(t.is_unsigned);
    assert_int_equal(t.info->vclass, RC_VC_BIGDECIMAL);
    assert_int_equal(t.info->mysql_code, 246);

    t = parse_ok(RC_FAM_MYSQL, "DATETIME(6)");
    assert_string_equal(t.info->name, "datetime");
    assert_int_equal(t.p1, 6);
    assert_int_equal(t.info->jdbc, 93);

    t = parse_ok(RC_FAM_MYSQL, "bigint(20) unsigned zerofill");
    assert_string_equal(t.info->name, "bigint unsigned");
    assert_int_equal(t.info->vkind, RC_V_UINT);
    assert_true(t.zerofill);

    t = parse_ok(RC_FAM_MYSQL, "bigint");
    assert_int_equal(t.info->vkind, RC_V_INT);
    assert_int_equal(t.info->jdbc, -5);

    t = parse_ok(RC_FAM_MYSQL, "varchar(20) character set utf8mb4 collate utf8mb4_bin");
    assert_string_equal(t.info->name, "varchar");
    assert_int_equal(t.p1, 20);
    assert_int_equal(t.charset.n, 7);
    assert_memory_equal(t.charset.p, "utf8mb4", 7);

    t = parse_ok(RC_FAM_MYSQL, "char(2) charset latin1");
    assert_memory_equal(t.charset.p, "latin1", 6);

    t = parse_ok(RC_FAM_MYSQL, "enum('a','b,c','it''s')");
    assert_string_equal(t.info->name, "enum");
    rc_str l;
    assert_true(rc_coltype_label(&t, 0, &l));
    assert_int_equal(l.n, 1);
    assert_true(rc_coltype_label(&t, 1, &l));
    assert_memory_equal(l.p, "b,c", 3);
    assert_true(rc_coltype_label(&t, 2, &l));
    assert_memory_equal(l.p, "it''s", 5);
    assert_false(rc_coltype_label(&t, 3, &l));

    t = parse_ok(RC_FAM_MYSQL, "set('x)','y')");
    assert_int_equal(t.info->vkind, RC_V_SET);
    assert_true(rc_coltype_label(&t, 0, &l));
    assert_memory_equal(l.p, "x)", 2);

    t = parse_ok(RC_FAM_MYSQL, "bit(12)");
    assert_int_equal(t.info->vkind, RC_V_BITS);
    assert_int_equal(t.p1, 12);
    t = parse_ok(RC_FAM_MYSQL, "tinyint unsigned");
    assert_int_equal(t.info->jdbc, -6);
    t = parse_ok(RC_FAM_MYSQL, "double precision");
    assert_int_equal(t.info->vkind, RC_V_FLOAT64);
    t = parse_ok(RC_FAM_MYSQL, "  year(4) ");
    assert_int_equal(t.info->mysql_code, 13);
}

/* Every spelling MySQL's grammar accepts in a column definition (sql_yacc.yy field_type and the
 * lexer's synonyms) is its real type; the declaration stays as given (Canal's mysqlType). */
static void test_mysql_synonyms(void **state)
{
    static const struct {
        const char *decl, *type;
    } cases[] = {
        {"SERIAL", "bigint unsigned"},
        {"FIXED(40,3)", "decimal"},
        {"FIXED(40,3) unsigned zerofill", "decimal unsigned"},
        {"DEC(10,2)", "decimal"},
        {"NUMERIC(8,3)", "numeric"},
        {"INTEGER", "integer"},
        {"INT1", "tinyint"},
        {"INT2 unsigned", "smallint unsigned"},
        {"INT3", "mediumint"},
        {"MIDDLEINT", "mediumint"},
        {"INT4", "int"},
        {"INT8", "bigint"},
        {"BOOL", "bool"},
        {"BOOLEAN", "boolean"},
        {"REAL(10,7) unsigned zerofill", "real"},
        {"DOUBLE PRECISION(10,7)", "double precision"},
        {"FLOAT4", "float"},
        {"FLOAT8", "double"},
        {"FLOAT(24)", "float"},
        {"FLOAT(25)", "double"},
        {"FLOAT(53) unsigned", "double unsigned"},
        {"FLOAT(10,2)", "float"},
        {"CHARACTER(10)", "char"},
        {"CHARACTER VARYING(20)", "varchar"},
        {"CHAR VARYING(20)", "varchar"},
        {"NATIONAL CHAR(5)", "char"},
        {"NATIONAL CHARACTER VARYING(5)", "varchar"},
        {"NATIONAL VARCHAR(5)", "varchar"},
        {"NCHAR(5)", "char"},
        {"NCHAR VARCHAR(5)", "varchar"},
        {"NVARCHAR(5)", "varchar"},
        {"CHAR(10) BINARY", "char"},
        {"VARCHAR(10) ASCII", "varchar"},
        {"TEXT UNICODE", "text"},
        {"LONG", "mediumtext"},
        {"LONG VARCHAR", "mediumtext"},
        {"LONG VARBINARY", "mediumblob"},
        {"varchar(20) character set utf8mb4 collate utf8mb4_bin", "varchar"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rc_coltype t = parse_ok(RC_FAM_MYSQL, cases[i].decl);
        if (strcmp(t.info->name, cases[i].type)) fail_msg("'%s' is %s, not %s", cases[i].decl, t.info->name, cases[i].type);
        assert_int_equal(t.decl.n, strlen(cases[i].decl));
    }
    rc_coltype t = parse_ok(RC_FAM_MYSQL, "SERIAL");
    assert_true(t.is_unsigned);
    t = parse_ok(RC_FAM_MYSQL, "FIXED(40,3)");
    assert_int_equal(t.p1, 40);
    assert_int_equal(t.p2, 3);
    /* the synonyms are MySQL's: PostgreSQL's int8 and character varying keep their own rows */
    t = parse_ok(RC_FAM_PG, "int8");
    assert_string_equal(t.info->name, "int8");
    t = parse_ok(RC_FAM_PG, "character varying(5)");
    assert_string_equal(t.info->name, "character varying");
}

static void test_other_families(void **state)
{
    rc_coltype t = parse_ok(RC_FAM_PG, "timestamp(6) with time zone");
    assert_string_equal(t.info->name, "timestamp with time zone");
    assert_int_equal(t.p1, 6);
    assert_int_equal(t.info->vkind, RC_V_TIMESTAMP);
    t = parse_ok(RC_FAM_PG, "character varying(20)");
    assert_string_equal(t.info->name, "character varying");
    t = parse_ok(RC_FAM_PG, "int4[]");
    assert_string_equal(t.info->name, "array");
    t = parse_ok(RC_FAM_PG, "numeric(1000,20)");
    assert_int_equal(t.p1, 1000);
    t = parse_ok(RC_FAM_ORACLE, "TIMESTAMP(6) WITH TIME ZONE");
    assert_string_equal(t.info->name, "timestamp with time zone");
    assert_int_equal(t.info->vkind, RC_V_DATETIME);
    t = parse_ok(RC_FAM_ORACLE, "interval day(2) to second(6)");
    assert_string_equal(t.info->name, "interval day to second");
    assert_int_equal(t.p1, 2);
    assert_int_equal(t.p2, 6);
    t = parse_ok(RC_FAM_ORACLE, "number(38,0)");
    assert_int_equal(t.info->vclass, RC_VC_BIGDECIMAL);
    t = parse_ok(RC_FAM_ORACLE, "date");
    assert_int_equal(t.info->vclass, RC_VC_DATETIME); /* Oracle DATE has a time part */
}

static void test_errors(void **state)
{
    /* a base name of the longest length (64) that is then looked up with " unsigned" after it:
     * the lookup's buffer was a byte short (fuzz_native, ASan: stack-buffer-overflow) */
    const char *bad[] = {"", "foo", "varchar(", "varchar(x)", "decimal(1,2,3)", "enum('a'", "varchar(20) character set",
                         "int4[]", "timestamp(6) with time", "varchar(99999999999)", "int$",
                         "decimal(8,3) unsxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxigned unsigned zerofill"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rc_coltype t;
        rc_error err;
        rc_error_clear(&err);
        if (rc_coltype_parse(RC_FAM_MYSQL, bad[i], strlen(bad[i]), &t, &err) == RC_OK) fail_msg("'%s' accepted", bad[i]);
        assert_int_equal(err.code, RC_ERR_TYPE);
        assert_true(err.message[0]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_catalog_integrity),
        cmocka_unit_test(test_mysql_declarations),
        cmocka_unit_test(test_mysql_synonyms),
        cmocka_unit_test(test_other_families),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
