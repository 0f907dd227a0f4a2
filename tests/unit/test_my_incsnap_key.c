/* MySQL/MariaDB incremental snapshots with the table watermark (my_incsnap_wm.c): a chunk's keys
 * come from the text protocol (rc_my_text_value, as my_incsnap.c's add_row reads them), the
 * stream's from binlog row images (rc_my_value_decode); the core drops a chunk's row when the
 * images (rc_incsnap_key_image) are equal, so the same value must give the same image both ways,
 * for every key type: int, int unsigned, bigint, bigint unsigned, varchar (utf8mb4), char,
 * varbinary, decimal, date, datetime (with and without a fraction), timestamp. And
 * rc_my_incsnap_event_key: an event's key values picked by column name. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "my_vectors.h"
#include "sources/incsnap.h"
#include "sources/mysql/my_incsnap_int.h"
#include "sources/mysql/my_schema.h"
#include "sources/mysql/my_snapshot.h"
#include "sources/mysql/my_value.h"

#define S(x) ((rc_str){(x), sizeof(x) - 1})

/* One key value: the column's declaration, its binlog type and metadata, its collation in the
 * TABLE_MAP (45 utf8mb4_general_ci, 63 binary, 0 none), the text the server sends for it (n
 * bytes: a varbinary may hold NUL) and its row image in hex. */
typedef struct kcase {
    const char *decl;
    uint8_t type;
    uint16_t meta, coll;
    const char *text;
    size_t textn;
    const char *hex;
} kcase;

#define T(s) s, sizeof(s) - 1
static const kcase cases[] = {
    {"INT NOT NULL", RC_MY_LONG, 0, 0, T("-5"), "fbffffff"},
    {"INT UNSIGNED NOT NULL", RC_MY_LONG, 0, 0, T("4294967295"), "ffffffff"},
    {"BIGINT NOT NULL", RC_MY_LONGLONG, 0, 0, T("-9000000000"), "00e68ee7fdffffff"},
    {"BIGINT UNSIGNED NOT NULL", RC_MY_LONGLONG, 0, 0, T("18446744073709551615"), "ffffffffffffffff"},
    {"VARCHAR(20) CHARACTER SET utf8mb4 NOT NULL", RC_MY_VARCHAR, 80, 45, T("\xc3\x84rger"), "06c38472676572"},
    {"CHAR(8) CHARACTER SET utf8mb4 NOT NULL", RC_MY_STRING, 0xfe << 8 | 32, 45, T("ab"), "026162"},
    {"VARBINARY(16) NOT NULL", RC_MY_VARCHAR, 16, 63, T("\x00\x01" "ab"), "0400016162"},
    {"DECIMAL(10,2) NOT NULL", RC_MY_NEWDECIMAL, 10 << 8 | 2, 0, T("-0.01"), "7ffffffffe"},
    {"DECIMAL(18,9) NOT NULL", RC_MY_NEWDECIMAL, 18 << 8 | 9, 0, T("-123456789.123456789"), "78a432eaf8a432ea"},
    {"DATE NOT NULL", RC_MY_DATE, 0, 0, T("1985-10-23"), "57830f"},
    {"DATETIME NOT NULL", RC_MY_DATETIME2, 0, 0, T("2016-02-28 15:30:42"), "9998b8f7aa"},
    {"DATETIME(3) NOT NULL", RC_MY_DATETIME2, 3, 0, T("2016-02-28 15:30:42.123"), "9998b8f7aa04ce"},
    {"DATETIME(6) NOT NULL", RC_MY_DATETIME2, 6, 0, T("9999-12-31 23:59:59.999999"), "fef3ff7efb0f423f"},
    {"TIMESTAMP NOT NULL", RC_MY_TIMESTAMP2, 0, 0, T("1970-01-01 00:00:01"), "00000001"},
};
#define NCASES (sizeof cases / sizeof *cases)

static rc_arena arena;
static rc_my_history *hist;
static rc_my_snap_table st;

/* One table with a column c<i> of each case's declaration, as the schema history has it. */
static int setup(void **state)
{
    (void)state;
    rc_arena_init(&arena);
    hist = rc_my_history_new();
    char sql[4096];
    size_t n = (size_t)snprintf(sql, sizeof sql, "CREATE TABLE t (");
    for (size_t i = 0; i < NCASES; i++) n += (size_t)snprintf(sql + n, sizeof sql - n, "%sc%zu %s", i ? ", " : "", i, cases[i].decl);
    snprintf(sql + n, sizeof sql - n, ") DEFAULT CHARSET=utf8mb4");
    rc_my_ddl_result r;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_history_ddl(hist, S("db"), (rc_str){sql, strlen(sql)}, &r, &err) != RC_OK) fail_msg("%s: %s", sql, err.message);
    const rc_my_table *t = rc_my_history_get(hist, S("db"), S("t"));
    assert_non_null(t);
    if (rc_my_snap_table_of(t, &st, &err) != RC_OK) fail_msg("%s", err.message);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    free(st.cols), free(st.pk);
    rc_my_history_free(hist);
    rc_arena_fini(&arena);
    return 0;
}

/* The image of one value into out (emptied first). */
static void image(rc_buf *out, const rc_value *v)
{
    rc_error err;
    rc_error_clear(&err);
    rc_buf_reset(out);
    if (rc_incsnap_key_image(out, v, 1, &err) != RC_OK) fail_msg("key image of %s: %s", show(v), err.message);
}

/* Case i's value from the text protocol (the chunk's) and from the row image (the stream's). */
static void values(size_t i, rc_value *text, rc_value *bin)
{
    const kcase *k = &cases[i];
    const rc_my_table_col *hc = &st.t->cols[i];
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_text_value(&st.cols[i], k->text, k->textn, &arena, text, &err) != RC_OK)
        fail_msg("%s: text %s: %s", k->decl, k->text, err.message);
    /* the column as the decoder has it after a TABLE_MAP completed from the history */
    rc_my_col c = {.type = k->type, .meta = k->meta, .is_unsigned = hc->type.is_unsigned, .collation = k->coll,
                   .decl = &hc->type, .name = hc->name};
    uint8_t b[64];
    size_t n = unhex(k->hex, strlen(k->hex), b, sizeof b), used = 0;
    for (int prepared = 0; prepared < 2; prepared++) {
        if (prepared) rc_my_col_prepare(&c);
        if (rc_my_value_decode(&c, b, n, &used, bin, &arena, &err) != RC_OK) fail_msg("%s: row image %s: %s", k->decl, k->hex, err.message);
        assert_int_equal(used, n);
    }
}

static void test_text_and_row_image_give_one_key_image(void **state)
{
    (void)state;
    rc_buf a, b;
    rc_buf_init(&a, 0), rc_buf_init(&b, 0);
    for (size_t i = 0; i < NCASES; i++) {
        rc_value tv, bv;
        values(i, &tv, &bv);
        image(&a, &tv);
        char shown[200];
        const char *sv = show(&tv);
        size_t sn = strlen(sv) < sizeof shown - 1 ? strlen(sv) : sizeof shown - 1;
        memcpy(shown, sv, sn), shown[sn] = '\0';
        image(&b, &bv);
        if (a.len != b.len || memcmp(a.data, b.data, a.len))
            fail_msg("%s: the chunk's %s and the stream's %s give different key images", cases[i].decl, shown, show(&bv));
    }
    rc_buf_fini(&a), rc_buf_fini(&b);
}

/* Another value of the type gives another image (the check above is not vacuous). */
static void test_other_values_other_images(void **state)
{
    (void)state;
    rc_buf a, b;
    rc_buf_init(&a, 0), rc_buf_init(&b, 0);
    rc_value v1, v2;
    rc_error err;
    rc_error_clear(&err);
    static const char *const other[] = {"-4", "4294967294", "-9000000001", "18446744073709551614", "\xc3\x84rgeR", "ab ",
                                        "ab", "-0.02", "-123456789.123456788", "1985-10-24", "2016-02-28 15:30:43",
                                        "2016-02-28 15:30:42.124", "9999-12-31 23:59:59.999998", "1970-01-01 00:00:02"};
    assert_int_equal(sizeof other / sizeof *other, NCASES);
    for (size_t i = 0; i < NCASES; i++) {
        if (i == 5) continue; /* CHAR: trailing spaces are not part of the value (PAD SPACE) */
        assert_int_equal(rc_my_text_value(&st.cols[i], cases[i].text, cases[i].textn, &arena, &v1, &err), RC_OK);
        assert_int_equal(rc_my_text_value(&st.cols[i], other[i], strlen(other[i]), &arena, &v2, &err), RC_OK);
        image(&a, &v1), image(&b, &v2);
        if (a.len == b.len && !memcmp(a.data, b.data, a.len)) fail_msg("%s: %s and %s give one image", cases[i].decl, cases[i].text, other[i]);
    }
    rc_buf_fini(&a), rc_buf_fini(&b);
}

/* An event's key values by name, whatever the order of its columns; a key column it lacks: false. */
static void test_event_key_by_name(void **state)
{
    (void)state;
    uint32_t pk[2] = {3, 1};
    rc_column kc[4] = {{.name = S("a")}, {.name = S("k2")}, {.name = S("b")}, {.name = S("ID")}};
    rc_my_snap_table t = {.cols = kc, .pk = pk, .npk = 2};
    rc_column ec[4] = {{.name = S("id")}, {.name = S("b")}, {.name = S("K2")}, {.name = S("a")}};
    rc_value row[4] = {{.kind = RC_V_INT, .i = 7}, {.kind = RC_V_INT, .i = 1}, {.kind = RC_V_INT, .i = 3}, {.kind = RC_V_INT, .i = 9}};
    rc_event ev = {.op = RC_OP_UPDATE, .ncols = 4, .cols = ec, .after = row};
    rc_value key[2];
    assert_true(rc_my_incsnap_event_key(&t, &ev, row, key));
    assert_int_equal(key[0].i, 7);
    assert_int_equal(key[1].i, 3);
    ev.ncols = 2; /* id and b: k2 is gone */
    assert_false(rc_my_incsnap_event_key(&t, &ev, row, key));
}

/* The point watermark's and --until's order of binlog positions: files by number (strcmp puts
 * mysql-bin.1000000 before mysql-bin.999999), then offsets. */
static void test_binlog_positions_ordered_by_file_number(void **state)
{
    (void)state;
    assert_true(rc_my_binlog_compare("bin.999999", 9000, "bin.1000000", 4) < 0);
    assert_true(rc_my_binlog_compare("bin.1000000", 4, "bin.999999", 9000) > 0);
    assert_true(rc_my_binlog_compare("bin.000002", 4, "bin.000001", 1 << 30) > 0);
    assert_int_equal(rc_my_binlog_compare("bin.000007", 1234, "bin.000007", 1234), 0);
    assert_true(rc_my_binlog_compare("bin.000007", 1233, "bin.000007", 1234) < 0);
    assert_true(rc_my_binlog_compare("bin.000007", 1235, "bin.000007", 1234) > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_and_row_image_give_one_key_image),
        cmocka_unit_test(test_other_values_other_images),
        cmocka_unit_test(test_event_key_by_name),
        cmocka_unit_test(test_binlog_positions_ordered_by_file_number),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
