/* The JSON reader: numbers as text, unescaping, and errors with byte offsets. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/colcache.h"
#include "core/json.h"
#include "core/nameidx.h"

typedef struct fixture {
    rc_arena a;
    rc_json j;
    rc_error err;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    rc_arena_init(&f->a);
    rc_json_init(&f->j, &f->a);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    rc_json_fini(&f->j);
    rc_arena_fini(&f->a);
    free(f);
    return 0;
}

static rc_status parse(fixture *f, const char *s)
{
    rc_error_clear(&f->err);
    return rc_json_parse(&f->j, s, strlen(s), &f->err);
}

static void test_numbers_keep_text(void **state)
{
    fixture *f = *state;
    assert_int_equal(parse(f, "{\"a\": 10223372036854775806, \"b\": -1.50E+300, \"c\": 0}"), RC_OK);
    const rc_jnode *a = rc_json_node(&f->j, rc_json_get(&f->j, 0, "a"));
    assert_int_equal(a->type, RC_J_NUMBER);
    assert_int_equal(a->n, 20);
    assert_memory_equal(a->s, "10223372036854775806", 20);
    const rc_jnode *b = rc_json_node(&f->j, rc_json_get(&f->j, 0, "b"));
    assert_memory_equal(b->s, "-1.50E+300", b->n);
    assert_int_equal(rc_json_get(&f->j, 0, "zz"), 0);

    char big[400] = "[";
    memset(big + 1, '7', 300);
    strcpy(big + 301, ".25]");
    assert_int_equal(parse(f, big), RC_OK);
    const rc_jnode *arr = rc_json_node(&f->j, 0);
    assert_int_equal(arr->count, 1);
    assert_int_equal(rc_json_node(&f->j, arr->first)->n, 303);
}

/* The nesting limit counts containers: 65 nested arrays (the root and 64 levels below it) are
 * read, whatever scalar is innermost; a 66th is a limit error at its byte. */
static void test_depth_limit(void **state)
{
    fixture *f = *state;
    char deep[200];
    for (int levels = 65; levels <= 66; levels++) {
        memset(deep, '[', (size_t)levels);
        deep[levels] = '1';
        memset(deep + levels + 1, ']', (size_t)levels);
        deep[2 * levels + 1] = '\0';
        assert_int_equal(parse(f, deep), levels == 65 ? RC_OK : RC_ERR_LIMIT);
    }
    assert_int_equal(f->err.offset, 65);
}

static void test_strings(void **state)
{
    fixture *f = *state;
    assert_int_equal(parse(f, "[\"plain\", \"a\\\"b\\\\c\\/d\\n\", \"\\u00e9\\u65E5\\ud83d\\uded2\", \"Müller\"]"), RC_OK);
    uint32_t e = rc_json_node(&f->j, 0)->first;
    assert_memory_equal(rc_json_node(&f->j, e)->s, "plain", 5);
    e = rc_json_node(&f->j, e)->next;
    const rc_jnode *s2 = rc_json_node(&f->j, e);
    assert_int_equal(s2->n, 8);
    assert_memory_equal(s2->s, "a\"b\\c/d\n", 8);
    e = rc_json_node(&f->j, e)->next;
    const rc_jnode *s3 = rc_json_node(&f->j, e);
    assert_int_equal(s3->n, 2 + 3 + 4);
    assert_memory_equal(s3->s, "\xC3\xA9\xE6\x97\xA5\xF0\x9F\x9B\x92", 9);
    assert_int_equal(parse(f, "\"a\\u0000b\""), RC_OK);
    assert_int_equal(rc_json_node(&f->j, 0)->n, 3);
}

static void test_structure(void **state)
{
    fixture *f = *state;
    assert_int_equal(parse(f, " {\"o\":{\"x\":[1,[2,3],{}],\"y\":null},\"t\":true,\"f\":false} \n"), RC_OK);
    uint32_t o = rc_json_get(&f->j, 0, "o");
    assert_int_equal(rc_json_node(&f->j, o)->count, 2);
    uint32_t x = rc_json_get(&f->j, o, "x");
    assert_int_equal(rc_json_node(&f->j, x)->count, 3);
    assert_int_equal(rc_json_node(&f->j, rc_json_get(&f->j, o, "y"))->type, RC_J_NULL);
    assert_int_equal(rc_json_node(&f->j, rc_json_get(&f->j, 0, "f"))->type, RC_J_FALSE);
    assert_int_equal(rc_json_node(&f->j, rc_json_get(&f->j, 0, "t"))->off, 38);
}

static void expect_error(fixture *f, const char *s, rc_status code, size_t off)
{
    assert_int_equal(parse(f, s), code);
    assert_int_equal(f->err.code, code);
    if (f->err.offset != off) fail_msg("%s: offset %zu, expected %zu (%s)", s, f->err.offset, off, f->err.message);
    assert_true(f->err.message[0] != '\0');
}

static void test_errors_name_offsets(void **state)
{
    fixture *f = *state;
    expect_error(f, "{\"a\":1", RC_ERR_SYNTAX, 6);        /* truncated */
    expect_error(f, "{\"a\":1} x", RC_ERR_SYNTAX, 8);     /* trailing data */
    expect_error(f, "not json", RC_ERR_SYNTAX, 0);
    expect_error(f, "{\"a\":01}", RC_ERR_SYNTAX, 6);      /* leading zero */
    expect_error(f, "{\"a\":1.}", RC_ERR_SYNTAX, 7);
    expect_error(f, "{\"a\":-}", RC_ERR_SYNTAX, 6);
    expect_error(f, "{\"a\" 1}", RC_ERR_SYNTAX, 5);
    expect_error(f, "{a:1}", RC_ERR_SYNTAX, 1);
    expect_error(f, "[1,]", RC_ERR_SYNTAX, 3);
    expect_error(f, "[1 2]", RC_ERR_SYNTAX, 3);
    expect_error(f, "\"abc", RC_ERR_SYNTAX, 4);           /* unterminated */
    expect_error(f, "\"a\tb\"", RC_ERR_SYNTAX, 2);        /* raw control character */
    expect_error(f, "\"a\\qb\"", RC_ERR_SYNTAX, 3);
    expect_error(f, "\"\\u12G4\"", RC_ERR_SYNTAX, 1);
    expect_error(f, "\"ab\xFF\"", RC_ERR_UTF8, 3);        /* invalid UTF-8 */
    expect_error(f, "\"\xC3(\"", RC_ERR_UTF8, 1);
    expect_error(f, "\"x\\ud800\"", RC_ERR_UTF8, 2);      /* lone surrogate */
    expect_error(f, "\"\\udc00\\ud800\"", RC_ERR_UTF8, 1);
    expect_error(f, "tru", RC_ERR_SYNTAX, 0);
    expect_error(f, "", RC_ERR_SYNTAX, 0);
    char deep[200];
    memset(deep, '[', 100);
    deep[100] = '\0';
    assert_int_equal(parse(f, deep), RC_ERR_LIMIT);
}

static void test_container_text(void **state)
{
    fixture *f = *state;
    assert_int_equal(parse(f, " {\"a\": [1, {\"b\":2} ], \"e\":{}} "), RC_OK);
    const rc_jnode *root = rc_json_node(&f->j, 0), *a = rc_json_node(&f->j, rc_json_get(&f->j, 0, "a"));
    const rc_jnode *e = rc_json_node(&f->j, rc_json_get(&f->j, 0, "e"));
    assert_int_equal(root->n, strlen("{\"a\": [1, {\"b\":2} ], \"e\":{}}"));
    assert_memory_equal(a->s, "[1, {\"b\":2} ]", a->n);
    assert_int_equal(a->n, 13);
    assert_memory_equal(e->s, "{}", 2);
    assert_int_equal(e->n, 2);
}

/* A root member whose value is a memo's text becomes one memo node; anything else (another
 * key, a nested member, text that differs anywhere, a scalar) is parsed as usual. */
static void test_memo(void **state)
{
    fixture *f = *state;
    static const char seen[] = "{\"id\":\"int\",\"v\":[1,2]}";
    rc_json_memo memo[2] = {{"t", 1, seen, sizeof seen - 1}, {"u", 1, NULL, 0}};
    f->j.memo = memo, f->j.nmemo = 2;
    assert_int_equal(parse(f, "{\"x\":{\"t\":{\"id\":\"int\",\"v\":[1,2]}},\"t\":{\"id\":\"int\",\"v\":[1,2]},\"u\":{}}"), RC_OK);
    const rc_jnode *t = rc_json_node(&f->j, rc_json_get(&f->j, 0, "t"));
    assert_int_equal(t->type, RC_J_MEMO);
    assert_int_equal(t->count, 0);
    assert_int_equal(t->n, sizeof seen - 1);
    assert_int_equal(t->off, 38);
    assert_memory_equal(t->s, seen, t->n);
    uint32_t x = rc_json_get(&f->j, 0, "x");
    assert_int_equal(rc_json_node(&f->j, rc_json_get(&f->j, x, "t"))->type, RC_J_OBJECT); /* not a root member */
    assert_int_equal(rc_json_node(&f->j, rc_json_get(&f->j, 0, "u"))->type, RC_J_OBJECT); /* memo not in use */
    /* one byte different, or only a prefix: parsed */
    assert_int_equal(parse(f, "{\"t\":{\"id\":\"int\",\"v\":[1,3]}}"), RC_OK);
    assert_int_equal(rc_json_node(&f->j, rc_json_get(&f->j, 0, "t"))->type, RC_J_OBJECT);
    assert_int_equal(parse(f, "{\"t\":{\"id\":\"int\"}}"), RC_OK);
    assert_int_equal(rc_json_node(&f->j, rc_json_get(&f->j, 0, "t"))->type, RC_J_OBJECT);
    /* the text is recognised, what follows it is still checked */
    assert_int_equal(parse(f, "{\"t\":{\"id\":\"int\",\"v\":[1,2]}x}"), RC_ERR_SYNTAX);
    assert_int_equal(f->err.offset, 27);
    f->j.memo = NULL, f->j.nmemo = 0;
}

static void test_colcache(void **state)
{
    (void)state;
    rc_colcache *c = rc_colcache_new();
    assert_non_null(c);
    assert_null(rc_colcache_find(c, "k", 1));
    char name[32], decl[32];
    const rc_colset *sets[300];
    for (int i = 0; i < 300; i++) { /* past several growths of the slot array */
        snprintf(name, sizeof name, "col%d", i);
        snprintf(decl, sizeof decl, "varchar(%d)", i);
        rc_column col = {.name = {name, strlen(name)}, .pk = 1, .type = {.decl = {decl, strlen(decl)}, .p1 = i}};
        sets[i] = rc_colcache_put(c, name, strlen(name), &col, 1);
        assert_non_null(sets[i]);
        memset(name, 'x', sizeof name); /* the cache holds copies */
        memset(decl, 'x', sizeof decl);
    }
    for (int i = 0; i < 300; i++) {
        snprintf(name, sizeof name, "col%d", i);
        snprintf(decl, sizeof decl, "varchar(%d)", i);
        const rc_colset *s = rc_colcache_find(c, name, strlen(name));
        assert_ptr_equal(s, sets[i]); /* entries never move */
        assert_int_equal(s->n, 1);
        assert_int_equal(s->cols[0].type.p1, i);
        assert_int_equal(s->cols[0].name.n, strlen(name));
        assert_memory_equal(s->cols[0].name.p, name, strlen(name));
        assert_memory_equal(s->cols[0].type.decl.p, decl, strlen(decl));
        assert_null(s->cols[0].type.charset.p);
    }
    assert_null(rc_colcache_find(c, "col300", 6));
    rc_colcache_free(c);
}

/* rc_short_eq against memcmp at every length up to 40, equal and differing at every byte
 * (the word-at-a-time loads must not miss a difference nor read past n). */
static void test_short_eq(void **state)
{
    (void)state;
    char a[48], b[48];
    for (size_t n = 0; n <= 40; n++) {
        for (size_t i = 0; i < n; i++) a[i] = b[i] = (char)('a' + i % 26);
        a[n] = 'x', b[n] = 'y'; /* beyond n: must not matter */
        assert_true(rc_short_eq(a, b, n));
        for (size_t d = 0; d < n; d++) {
            b[d] ^= 0x20;
            assert_false(rc_short_eq(a, b, n));
            assert_int_equal(rc_short_eq(a, b, n), memcmp(a, b, n) == 0);
            b[d] ^= 0x20;
        }
    }
}

/* rc_json_members_strict: every known member found; the first unknown or repeated one (in
 * document order) answered with its key node. */
static void test_members_strict(void **state)
{
    fixture *f = *state;
    static const char *const names[] = {"op", "source", "columns", "after", "a_longer_member_name"};
    rc_jkeys k;
    rc_jkeys_init(&k, names, 5);
    uint32_t out[5];
    bool rep;
    const char *ok = "{\"after\":1,\"op\":\"i\",\"a_longer_member_name\":2}";
    assert_int_equal(rc_json_parse(&f->j, ok, strlen(ok), &f->err), RC_OK);
    assert_int_equal(rc_json_members_strict(&f->j, 0, &k, out, &rep), 0);
    assert_int_equal(out[1], 0);
    assert_int_equal(out[2], 0);
    assert_memory_equal(rc_json_node(&f->j, out[0])->s, "i", 1);
    assert_memory_equal(rc_json_node(&f->j, out[3])->s, "1", 1);
    assert_memory_equal(rc_json_node(&f->j, out[4])->s, "2", 1);
    const char *unknown = "{\"op\":1,\"opx\":2,\"op\":3}";
    assert_int_equal(rc_json_parse(&f->j, unknown, strlen(unknown), &f->err), RC_OK);
    uint32_t bad = rc_json_members_strict(&f->j, 0, &k, out, &rep);
    assert_int_not_equal(bad, 0);
    assert_false(rep);
    assert_int_equal(rc_json_node(&f->j, bad)->off, 8); /* its opening quote */
    const char *twice = "{\"op\":1,\"after\":2,\"op\":3}";
    assert_int_equal(rc_json_parse(&f->j, twice, strlen(twice), &f->err), RC_OK);
    bad = rc_json_members_strict(&f->j, 0, &k, out, &rep);
    assert_true(rep);
    assert_int_equal(rc_json_node(&f->j, bad)->off, 18);
    /* the lenient form keeps the first of repeated names and ignores unknown ones */
    rc_json_members(&f->j, 0, &k, out);
    assert_memory_equal(rc_json_node(&f->j, out[0])->s, "1", 1);
}

/* The name index of the readers: every name of a wide row found, a repeated one reported
 * with the index it had, names that differ only in their last bytes or their length apart,
 * the empty name, and the column lookup with its order hint. */
static void test_nameidx(void **state)
{
    fixture *f = *state;
    enum { N = 600 };
    static char names[N][32];
    static rc_column cols[N];
    rc_nameidx x;
    assert_true(rc_nameidx_init(&x, N, &f->a));
    for (uint32_t i = 0; i < N; i++) {
        /* short, 8-to-16-byte and long names, the same but for their last digits */
        int n = snprintf(names[i], sizeof names[i], i % 3 == 0 ? "c%u" : i % 3 == 1 ? "column_%u" : "a_longer_column_name_%u", i);
        cols[i].name = (rc_str){names[i], (size_t)n};
        assert_int_equal(rc_nameidx_add(&x, names[i], (size_t)n, i), UINT32_MAX);
    }
    for (uint32_t i = 0; i < N; i++) {
        assert_int_equal(rc_nameidx_find(&x, cols[i].name.p, cols[i].name.n), i);
        assert_int_equal(rc_nameidx_add(&x, cols[i].name.p, cols[i].name.n, 9999), i);
    }
    assert_int_equal(rc_nameidx_find(&x, "column_1", 7), UINT32_MAX); /* a prefix is another name */
    assert_int_equal(rc_nameidx_find(&x, "c0\0", 3), UINT32_MAX);
    assert_int_equal(rc_nameidx_find(&x, "", 0), UINT32_MAX);
    rc_nameidx e;
    assert_true(rc_nameidx_init(&e, 0, &f->a));
    assert_int_equal(rc_nameidx_add(&e, "", 0, 7), UINT32_MAX);
    assert_int_equal(rc_nameidx_add(&e, "", 0, 8), 7);
    /* the column lookup: the hinted column, any other (the index made at the first miss) */
    rc_nameidx lazy = {0};
    assert_int_equal(rc_nameidx_column(&lazy, cols, N, 5, cols[5].name.p, cols[5].name.n, &f->a), 5);
    assert_null(lazy.slot);
    assert_int_equal(rc_nameidx_column(&lazy, cols, N, 5, cols[499].name.p, cols[499].name.n, &f->a), 499);
    assert_non_null(lazy.slot);
    assert_int_equal(rc_nameidx_column(&lazy, cols, N, N, "nope", 4, &f->a), UINT32_MAX);
    /* an index that ran out of memory once: every lookup a pass over the columns, and no
     * allocation tried again (the arena does not move) */
    rc_nameidx failed = {NULL, UINT32_MAX};
    const char *at = f->a.ptr;
    assert_int_equal(rc_nameidx_column(&failed, cols, N, 5, cols[499].name.p, cols[499].name.n, &f->a), 499);
    assert_int_equal(rc_nameidx_column(&failed, cols, N, 5, "nope", 4, &f->a), UINT32_MAX);
    assert_null(failed.slot);
    assert_ptr_equal(f->a.ptr, at);
    /* room for more names than 32-bit slot numbers reach: refused (the size doubled to 0 before) */
    rc_nameidx huge;
    assert_false(rc_nameidx_init(&huge, UINT32_MAX, &f->a));
    /* an object's members: the first of a repeated name, 0 for none */
    const char *obj = "{\"a\":1,\"b\":2,\"a\":3}";
    assert_int_equal(parse(f, obj), RC_OK);
    rc_nameidx o;
    assert_true(rc_nameidx_object(&o, &f->j, 0, &f->a));
    assert_memory_equal(rc_json_node(&f->j, rc_nameidx_member(&o, "a", 1))->s, "1", 1);
    assert_memory_equal(rc_json_node(&f->j, rc_nameidx_member(&o, "b", 1))->s, "2", 1);
    assert_int_equal(rc_nameidx_member(&o, "c", 1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_numbers_keep_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_depth_limit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_structure, setup, teardown),
        cmocka_unit_test_setup_teardown(test_errors_name_offsets, setup, teardown),
        cmocka_unit_test_setup_teardown(test_container_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_memo, setup, teardown),
        cmocka_unit_test(test_colcache),
        cmocka_unit_test(test_short_eq),
        cmocka_unit_test_setup_teardown(test_members_strict, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nameidx, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
