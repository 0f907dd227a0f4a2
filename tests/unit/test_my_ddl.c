/* The MySQL/MariaDB DDL parser of the schema history (src/sources/mysql/my_ddl.c):
 * - the dialect cases of tests/unit/data/my_ddl_cases.txt (MySQL 8 and MariaDB 10.11 syntax),
 *   each checked by the whole history text rc_my_history_write gives afterwards and the kind;
 * - the names a result carries (rename, drop);
 * - statements it must refuse, with their exact messages (byte offsets included);
 * - every QUERY statement of the real binlog files in ../shared/testdata/peers (SOURCES.md,
 *   "Third set", and canal's tsdb files) applied in order without an error, and the structures
 *   they leave checked where SOURCES.md states the statements (skipped without ../shared). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_schema.h"

static rc_str S(const char *s) { return (rc_str){s, strlen(s)}; }

static char *read_all(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)len + 1);
    if (fread(b, 1, (size_t)len, f) != (size_t)len) len = 0;
    b[len] = '\0';
    fclose(f);
    *n = (size_t)len;
    return b;
}

/* The history's text without its first and last lines. */
static char *body(const rc_my_history *h)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_my_history_write(h, &b);
    rc_buf_putc(&b, '\0');
    char *first = strchr(b.data, '\n') + 1;
    char *last = b.data + b.len - 2;
    while (last > first && last[-1] != '\n') last--;
    char *out = strndup(first, (size_t)(last - first));
    rc_buf_fini(&b);
    return out;
}

static void apply_ok(rc_my_history *h, const char *sql, rc_my_ddl_result *r)
{
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_history_ddl(h, S("db"), S(sql), r, &err) != RC_OK) fail_msg("%s\n-> %s", sql, err.message);
}

static void test_dialect_cases(void **state)
{
    size_t n;
    char *text = read_all(RC_SOURCE_DIR "/tests/unit/data/my_ddl_cases.txt", &n);
    assert_non_null(text);
    int cases = 0;
    char *p = text;
    for (;;) {
        if (!(p == text && !strncmp(p, "== ", 3))) { /* a case starts the file or a line */
            p = strstr(p, "\n== ");
            if (!p) break;
            p++;
        }
        char *name_end = strchr(p, '\n');
        char *next = strstr(name_end, "\n== ");
        char *end = next ? next + 1 : text + n;
        char *kind = strstr(name_end, "\nkind ");
        assert_true(kind && kind < end);
        /* the statements: "> " lines and their continuation lines, up to the kind line */
        rc_my_history *h = rc_my_history_new();
        rc_my_ddl_result r = {0};
        char *s = name_end + 1;
        while (s < kind + 1) {
            assert_true(s[0] == '>' && (s[1] == ' ' || s[1] == '\n'));
            char *e = s;
            do e = strchr(e, '\n') + 1;
            while (e < kind + 1 && e[0] != '>');
            char *sql = strndup(s + 2 > e - 1 ? e - 1 : s + 2, (size_t)((e - 1) - (s + 2 > e - 1 ? e - 1 : s + 2)));
            apply_ok(h, sql, &r);
            free(sql);
            s = e;
        }
        char *kind_end = strchr(kind + 1, '\n');
        char got_kind[80];
        snprintf(got_kind, sizeof got_kind, "kind %s%s", r.kind, r.changed ? " changed" : "");
        char *want_kind = strndup(kind + 1, (size_t)(kind_end - kind - 1));
        char *want = strndup(kind_end + 1, (size_t)(end - kind_end - 1));
        char *got = body(h);
        if (strcmp(got_kind, want_kind) || strcmp(got, want))
            fail_msg("case %.*s\ngot:\n%s\n%s\nwant:\n%s\n%s", (int)(name_end - p), p, got_kind, got, want_kind, want);
        free(want_kind);
        free(want);
        free(got);
        rc_my_history_free(h);
        cases++;
        p = end - 1;
    }
    int named = 0; /* every "== " line was a case */
    for (char *q = text; q; q = strchr(q, '\n'), q = q ? q + 1 : NULL)
        if (!strncmp(q, "== ", 3)) named++;
    assert_int_equal(cases, named);
    assert_true(cases >= 60);
    free(text);
}

static void test_result_names(void **state)
{
    rc_my_history *h = rc_my_history_new();
    rc_my_ddl_result r;
    apply_ok(h, "CREATE TABLE `a``x` (id INT)", &r);
    assert_string_equal(r.kind, "CREATE_TABLE");
    assert_int_equal(r.db.n, 2);
    assert_memory_equal(r.db.p, "db", 2);
    assert_int_equal(r.table.n, 3);
    assert_memory_equal(r.table.p, "a`x", 3);
    apply_ok(h, "RENAME TABLE `a``x` TO arch.b, c TO d", &r);
    assert_string_equal(r.kind, "RENAME_TABLE");
    assert_memory_equal(r.old_db.p, "db", 2);
    assert_memory_equal(r.old_table.p, "a`x", 3);
    assert_int_equal(r.db.n, 4);
    assert_memory_equal(r.db.p, "arch", 4);
    assert_int_equal(r.table.n, 1);
    assert_true(r.changed);
    apply_ok(h, "ALTER TABLE arch.b RENAME TO arch.c", &r);
    assert_string_equal(r.kind, "ALTER_TABLE");
    assert_memory_equal(r.old_table.p, "b", 1);
    assert_memory_equal(r.table.p, "c", 1);
    apply_ok(h, "DROP TABLE IF EXISTS arch.c, nothing", &r);
    assert_string_equal(r.kind, "DROP_TABLE");
    assert_memory_equal(r.table.p, "c", 1);
    assert_true(r.changed);
    assert_int_equal(rc_my_history_count(h), 0);
    rc_my_history_free(h);
}

/* Statements that are refused: the exact message (with the byte) and nothing changed. */
static void test_errors(void **state)
{
    static const struct {
        const char *sql, *msg;
        size_t off;
    } cases[] = {
        {"CREATE TABLE t (a INT) WITH SYSTEM VERSIONING",
         "DDL statement not understood at byte 23: system-versioned tables (WITH SYSTEM VERSIONING) are not supported; the "
         "statement: \"CREATE TABLE t (a INT) WITH SYSTEM VERSIONING\"",
         23},
        {"CREATE TABLE t (a INT) SELECT 1 AS b",
         "DDL statement not understood at byte 23: CREATE TABLE ... SELECT: the columns the SELECT makes are not in the "
         "statement; the statement: \"CREATE TABLE t (a INT) SELECT 1 AS b\"",
         23},
        {"CREATE TABLE t AS SELECT * FROM u",
         "DDL statement not understood at byte 15: CREATE TABLE ... SELECT: the columns the SELECT makes are not in the "
         "statement; the statement: \"CREATE TABLE t AS SELECT * FROM u\"",
         15},
        {"CREATE TABLE t (a NUMBER(5))",
         "DDL statement not understood at byte 18: expected a column type, found 'NUMBER'; the statement: \"CREATE TABLE t (a "
         "NUMBER(5))\"",
         18},
        {"CREATE TABLE t (a INT FROBNICATE)",
         "DDL statement not understood at byte 22: 'FROBNICATE' in the definition of column a is not a column attribute; the "
         "statement: \"CREATE TABLE t (a INT FROBNICATE)\"",
         22},
        {"CREATE TABLE t (a VARCHAR(10), b INT, PRIMARY KEY (c))",
         "DDL statement not understood at byte 51: primary key column c is not a column of the table; the statement: \"CREATE "
         "TABLE t (a VARCHAR(10), b INT, PRIMARY KEY (c))\"",
         51},
        {"CREATE TABLE t (a INT, a INT)",
         "DDL statement not understood at byte 23: column a is defined twice; the statement: \"CREATE TABLE t (a INT, a INT)\"", 23},
        {"CREATE TABLE t (a INT",
         "DDL statement not understood at byte 21: expected ',' or ')', found the end of the statement; the statement: \"CREATE TABLE t "
         "(a INT\"",
         21},
        {"CREATE TABLE t (a ENUM('x",
         "DDL statement not understood at byte 23: a string that is not closed; the statement: \"CREATE TABLE t (a ENUM('x\"", 23},
        {"CREATE TABLE t (a INT /* no end",
         "DDL statement not understood at byte 22: a comment that is not closed; the statement: \"CREATE TABLE t (a INT /* no "
         "end\"",
         22},
        {"CREATE TABLE t (a INT AS a)",
         "DDL statement not understood at byte 25: expected '(' (the generation expression), found 'a'; the statement: "
         "\"CREATE TABLE t (a INT AS a)\"",
         25},
        {"CREATE TABLE t (a INT, PERIOD FOR SYSTEM_TIME(a, a), b INT) WITH SYSTEM VERSIONING",
         "DDL statement not understood at byte 60: system-versioned tables (WITH SYSTEM VERSIONING) are not supported; the "
         "statement: \"CREATE TABLE t (a INT, PERIOD FOR SYSTEM_TIME(a, a), b INT) WITH SYSTEM VERSIONI...\"",
         60},
        {"ALTER TABLE k DROP COLUMN nope",
         "DDL statement not understood at byte 26: column nope is not in the table; the statement: \"ALTER TABLE k DROP COLUMN "
         "nope\"",
         26},
        {"ALTER TABLE k MODIFY nope INT",
         "DDL statement not understood at byte 21: column nope is not in the table; the statement: \"ALTER TABLE k MODIFY nope "
         "INT\"",
         21},
        {"ALTER TABLE k ADD c INT AFTER nope",
         "DDL statement not understood at byte 30: AFTER nope: no such column in the table; the statement: \"ALTER TABLE k ADD c "
         "INT AFTER nope\"",
         30},
        {"ALTER TABLE k RENAME COLUMN a TO b",
         "DDL statement not understood at byte 28: column b is already in the table; the statement: \"ALTER TABLE k RENAME "
         "COLUMN a TO b\"",
         28},
        {"ALTER TABLE k ADD SYSTEM VERSIONING",
         "DDL statement not understood at byte 18: system versioning and application-time periods are not supported; the "
         "statement: \"ALTER TABLE k ADD SYSTEM VERSIONING\"",
         18},
        {"ALTER TABLE k DROP COLUMN a (5)",
         "DDL statement not understood at byte 28: expected ',' or the end of the statement, found '('; the statement: \"ALTER "
         "TABLE k DROP COLUMN a (5)\"",
         28},
        {"ALTER TABLE k ADD COLUMN c INT, ADD COLUMN d INT, ADD COLUMN e INT, ADD COLUMN f INT, ADD COLUMN g INT, ADD COLUMN h "
         "BAD",
         "DDL statement not understood at byte 117: expected a column type, found 'BAD'; the statement: \"ALTER TABLE k ADD "
         "COLUMN c INT, ADD COLUMN d INT, ADD COLUMN e INT, ADD COLUMN f...\"",
         117},
        {"TRUNCATE TABLE",
         "DDL statement not understood at byte 14: expected a table name, found the end of the statement; the statement: "
         "\"TRUNCATE TABLE\"",
         14},
        {"DROP TABLE a b",
         "DDL statement not understood at byte 13: expected ',' or the end of the statement, found 'b'; the statement: \"DROP "
         "TABLE a b\"",
         13},
        {"RENAME TABLE k TO k2, x",
         "DDL statement not understood at byte 23: expected TO, found the end of the statement; the statement: \"RENAME TABLE "
         "k TO k2, x\"",
         23},
        {"DROP TABLE k, x y",
         "DDL statement not understood at byte 16: expected ',' or the end of the statement, found 'y'; the statement: \"DROP "
         "TABLE k, x y\"",
         16},
        {"CREATE OR REPLACE DATABASE db CHARSET",
         "DDL statement not understood at byte 37: expected a character set name, found the end of the statement; the "
         "statement: \"CREATE OR REPLACE DATABASE db CHARSET\"",
         37},
        {"RENAME TABLE a b",
         "DDL statement not understood at byte 15: expected TO, found 'b'; the statement: \"RENAME TABLE a b\"", 15},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rc_my_history *h = rc_my_history_new();
        rc_my_ddl_result r;
        apply_ok(h, "CREATE TABLE k (a INT, b INT)", &r);
        rc_error err;
        rc_error_clear(&err);
        if (rc_my_history_ddl(h, S("db"), S(cases[i].sql), &r, &err) == RC_OK) fail_msg("accepted: %s", cases[i].sql);
        if (strcmp(err.message, cases[i].msg)) fail_msg("case %zu: got\n%s\nwant\n%s", i, err.message, cases[i].msg);
        if (err.offset != cases[i].off) fail_msg("case %zu: offset %zu, want %zu", i, err.offset, cases[i].off);
        assert_false(r.changed);
        char *got = body(h);
        assert_string_equal(got, "table\tdb\tk\t0\t2\ncolumn\ta\tint\tnull\t0\t0\t-\t-\ncolumn\tb\tint\tnull\t0\t0\t-\t-\n");
        free(got);
        rc_my_history_free(h);
    }
    /* with no default database an unqualified name is an error */
    rc_my_history *h = rc_my_history_new();
    rc_my_ddl_result r;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_history_ddl(h, S(""), S("CREATE TABLE t (a INT)"), &r, &err), RC_ERR_SYNTAX);
    assert_string_equal(err.message, "DDL statement not understood at byte 13: table t names no database and the statement has "
                                     "no default database; the statement: \"CREATE TABLE t (a INT)\"");
    rc_my_history_free(h);
}

/* ---- real binlog files ---- */

#define PEERS RC_SOURCE_DIR "/../shared/testdata/peers/"

static uint32_t le(const uint8_t *p, int n)
{
    uint32_t v = 0;
    for (int i = n - 1; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

/* Applies every QUERY event's statement of a binlog file to h, in order; returns how many. */
static int apply_binlog(rc_my_history *h, const char *path)
{
    size_t n;
    uint8_t *b = (uint8_t *)read_all(path, &n);
    if (!b) fail_msg("cannot read %s", path);
    assert_true(n >= 4 && memcmp(b, "\xfe" "bin", 4) == 0);
    size_t pos = 4;
    int checksum = 0, queries = 0;
    while (pos + 19 <= n) {
        uint8_t type = b[pos + 4];
        uint32_t size = le(b + pos + 9, 4);
        if (size < 19 || pos + size > n) break; /* a file cut off on purpose (truncated event) */
        const uint8_t *body = b + pos + 19;
        size_t blen = size - 19;
        if (type == 15) { /* FORMAT_DESCRIPTION: 5.6.1+ writes the checksum algorithm before its checksum */
            int major = 0, minor = 0, patch = 0;
            sscanf((const char *)body + 2, "%d.%d.%d", &major, &minor, &patch);
            bool has_alg = major * 10000 + minor * 100 + patch >= 50601;
            checksum = has_alg && blen >= 5 && body[blen - 5] == 1 ? 4 : 0;
        } else if (type == 2) { /* QUERY */
            blen -= (size_t)checksum;
            size_t dblen = body[8], svlen = le(body + 11, 2);
            size_t at = 13 + svlen;
            rc_str db = {(const char *)body + at, dblen};
            rc_str sql = {(const char *)body + at + dblen + 1, blen - (at + dblen + 1)};
            rc_my_ddl_result r;
            rc_error err;
            rc_error_clear(&err);
            if (rc_my_history_ddl(h, db, sql, &r, &err) != RC_OK)
                fail_msg("%s at %zu: %.*s\n-> %s", path, pos, (int)sql.n, sql.p, err.message);
            queries++;
        }
        pos += size;
    }
    free(b);
    return queries;
}

static void test_real_binlogs(void **state)
{
    static const char *const files[] = {
        "Fanduzi__BinlogVisualizer/internal/binlog/testdata/minimal.binlog",
        "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000001",
        "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000002",
        "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_position.zip-members/data_80045_position/"
        "binlog.000001",
        "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_position.zip-members/data_80045_position/"
        "binlog.000002",
        "apecloud__mysql-binlog-connector-rust/tests/parse_file_tests/mysql-bin.000057",
        "apecloud__mysql-binlog-connector-rust/tests/parse_file_tests/mysql-bin.000080",
        "blackbeam__rust_mysql_common/test-data/binlogs/binlog-invisible-columns.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/binlog_transaction_previous_GTID_no_tag.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/binlog_transaction_with_GTID_TAG.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/binlog_transaction_with_anonymous_GTID.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/binlog_truncated_prev_gtid_event.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/bug27213339-bin.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/bug32407.001",
        "blackbeam__rust_mysql_common/test-data/binlogs/json-opaque.binlog",
        "blackbeam__rust_mysql_common/test-data/binlogs/json.binlog.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/master-bin.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/minimal_row_metadata.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/mysql-enum-string-set.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/mysql_type_bit.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/rpl_atomic_ddl_rollback_full.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/rpl_atomic_ddl_rollback_table.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/rpl_atomic_ddl_rollback_view.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/rpl_cross_version_default_utf8mb4_collation.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/rpl_unfiltered_hidden_gcol.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/slave-relay-bin.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/time_issue.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/transaction_compression.000001",
        "blackbeam__rust_mysql_common/test-data/binlogs/vector.binlog",
        "go-mysql-org__go-mysql/replication/t/tcb-eval002c-bin.003320",
        "osheroff__mysql-binlog-connector-java/src/test/resources/mysql-bin.aurora-padding",
        "osheroff__mysql-binlog-connector-java/src/test/resources/mysql-bin.checksum-crc32",
        "osheroff__mysql-binlog-connector-java/src/test/resources/mysql-bin.checksum-none",
        "osheroff__mysql-binlog-connector-java/src/test/resources/mysql-bin.compressed",
        "rusuly__MySqlCdc/samples/MySqlCdc.Sample/mysql-bin.000001",
        "alibaba__canal/parse/src/test/resources/binlog/tsdb/mysql-bin.000002",
        "alibaba__canal/parse/src/test/resources/binlog/tsdb/mysql-bin.000003",
    };
    FILE *probe = fopen(PEERS "SOURCES.md", "r");
    if (!probe) {
        print_message("peer data not found at " PEERS ": the real binlog files are not read\n");
        skip();
    }
    fclose(probe);
    int total = 0;
    char path[1024];
    /* one history per file except canal's two, which are one server's consecutive files */
    rc_my_history *canal = rc_my_history_new();
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s%s", PEERS, files[i]);
        bool is_canal = strstr(files[i], "alibaba__canal") != NULL;
        rc_my_history *h = is_canal ? canal : rc_my_history_new();
        total += apply_binlog(h, path);
        if (strstr(files[i], "binlog-invisible-columns")) {
            char *got = body(h);
            assert_string_equal(got, "table\tmysql\tt1\t0\t6\n"
                                     "column\tf1\tint unsigned\tnull\t0\t0\t-\tinvisible\n"
                                     "column\tf2\tint unsigned\tnull\t0\t0\t-\tinvisible\n"
                                     "column\tf3\tint\tnull\t0\t0\t-\t-\n"
                                     "column\tf4\ttext\tnull\t0\t0\t-\t-\n"
                                     "column\tf5\tblob\tnull\t0\t63\t-\t-\n"
                                     "column\tf6\tbigint unsigned\tnull\t0\t0\t-\tinvisible\n");
            free(got);
        }
        if (strstr(files[i], "json.binlog")) {
            char *got = body(h);
            assert_string_equal(got, "table\tmysql\tt\t0\t4\n"
                                     "column\tid\tint\tnot null\t1\t0\t-\t-\n"
                                     "column\tjson_col\tjson\tnull\t0\t0\t-\t-\n"
                                     "column\tname\tvarchar(100)\tnull\t0\t0\tgenerated\t-\n"
                                     "column\tage\tint\tnull\t0\t0\tgenerated\t-\n");
            free(got);
        }
        if (strstr(files[i], "vector.binlog")) {
            const rc_my_table *t = rc_my_history_get(h, S("dtb"), S("bar"));
            assert_non_null(t);
            char *got = body(h);
            assert_non_null(strstr(got, "table\tdtb\tbar\t45\t4\n"
                                        "column\tid\tbigint unsigned\tnot null\t0\t0\t-\t-\n"
                                        "column\tvector_column\tvector(2)\tnot null\t0\t0\t-\t-\n"
                                        "column\tfoo\ttext\tnull\t0\t45\t-\t-\n"
                                        "column\tvector_column2\tvector(4)\tnot null\t0\t0\t-\t-\n"));
            free(got);
        }
        if (!is_canal) rc_my_history_free(h);
    }
    /* canal's wanshao_test after the add/drop sequence of mysql-bin.000003 */
    char *got = body(canal);
    /* add col1, add col2, drop col1, add col1, add col3, drop col3 */
    assert_non_null(strstr(got, "table\twanshao\twanshao_test\t33\t5\n"
                                "column\tid\tint(11)\tnot null\t1\t0\t-\t-\n"
                                "column\tname\tvarchar(20)\tnull\t0\t33\t-\t-\n"
                                "column\tage\tint(11)\tnull\t0\t0\t-\t-\n"
                                "column\tcol2\tbigint(20)\tnull\t0\t0\t-\t-\n"
                                "column\tcol1\tbigint(20)\tnull\t0\t0\t-\t-\n"));
    free(got);
    assert_int_equal(total, 293);
    rc_my_history_free(canal);
}

/* The CREATE TABLE of a .sql file beside a binlog (its first "CREATE TABLE" up to ";\n"). */
static void apply_sql_file(rc_my_history *h, const char *path, const char *db)
{
    size_t n;
    char *text = read_all(path, &n);
    if (!text) fail_msg("cannot read %s", path);
    char *st = strstr(text, "CREATE TABLE");
    assert_non_null(st);
    char *end = strstr(st, ";\n");
    assert_non_null(end);
    rc_my_ddl_result r;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_history_ddl(h, S(db), (rc_str){st, (size_t)(end - st)}, &r, &err) != RC_OK) fail_msg("%s: %s", path, err.message);
    free(text);
}

/* The tables of the SQL scripts behind two binlog files, and the TABLE_MAP column types that
 * SOURCES.md lists for those files: every column matches its binlog type (ENUM and SET as the
 * decoder resolves them from STRING). */
static void test_real_scripts(void **state)
{
    FILE *probe = fopen(PEERS "SOURCES.md", "r");
    if (!probe) skip();
    fclose(probe);
    rc_my_history *h = rc_my_history_new();
    apply_sql_file(h, PEERS "rusuly__MySqlCdc/Scripts.sql", "test");
    apply_sql_file(h, PEERS "go-mysql-org__go-mysql/replication/t/ddsql.sql", "test");
    static const uint8_t cdc[] = {3, 1, 2, 9, 3, 8, 4, 5, 246, 254, 15, 15, 245, 252, 16, 247, 248, 13, 10, 18, 19, 17};
    const rc_my_table *t = rc_my_history_get(h, S("test"), S("MySqlCdc"));
    assert_non_null(t);
    assert_int_equal(t->ncols, sizeof cdc);
    for (uint32_t i = 0; i < t->ncols; i++)
        if (!rc_my_type_matches(&t->cols[i].type, cdc[i])) fail_msg("column %u (%s) is not binlog type %d", i, t->cols[i].type.decl.p, cdc[i]);
    assert_false(rc_my_type_matches(&t->cols[1].type, 2)); /* a TINYINT column is not a SHORT */
    t = rc_my_history_get(h, S("test"), S("decodedecimal"));
    assert_non_null(t);
    assert_int_equal(t->ncols, 14);
    for (uint32_t i = 0; i < t->ncols; i++)
        assert_true(rc_my_type_matches(&t->cols[i].type, i == 0 || i >= 12 ? 3 : 246)); /* LONG, 11 NEWDECIMAL, LONG, LONG */
    char *got = body(h);
    assert_string_equal(got, "table\ttest\tMySqlCdc\t45\t22\n"
                             "column\tId\tint\tnot null\t1\t0\t-\t-\n"
                             "column\tTinyColumn\ttinyint\tnull\t0\t0\t-\t-\n"
                             "column\tShortColumn\tsmallint\tnull\t0\t0\t-\t-\n"
                             "column\tInt24Column\tmediumint\tnull\t0\t0\t-\t-\n"
                             "column\tInt32Column\tint\tnull\t0\t0\t-\t-\n"
                             "column\tLongColumn\tbigint\tnull\t0\t0\t-\t-\n"
                             "column\tFloatColumn\tfloat\tnull\t0\t0\t-\t-\n"
                             "column\tDoubleColumn\tdouble\tnull\t0\t0\t-\t-\n"
                             "column\tDecimalColumn\tdecimal(65,10)\tnull\t0\t0\t-\t-\n"
                             "column\tCharColumn\tchar(200)\tnull\t0\t45\t-\t-\n"
                             "column\tVarcharColumn\tvarchar(700)\tnull\t0\t45\t-\t-\n"
                             "column\tVarstringColumn\tvarbinary(800)\tnull\t0\t63\t-\t-\n"
                             "column\tJsonColumn\tjson\tnull\t0\t0\t-\t-\n"
                             "column\tBlobColumn\tblob\tnull\t0\t63\t-\t-\n"
                             "column\tBitColumn\tbit(28)\tnull\t0\t0\t-\t-\n"
                             "column\tEnumColumn\tenum('Low','Medium','High')\tnull\t0\t45\t-\t-\n"
                             "column\tSetColumn\tset('Green','Yellow','Red')\tnull\t0\t45\t-\t-\n"
                             "column\tYearColumn\tyear\tnull\t0\t0\t-\t-\n"
                             "column\tDateColumn\tdate\tnull\t0\t0\t-\t-\n"
                             "column\tDateTimeColumn\tdatetime(3)\tnull\t0\t0\t-\t-\n"
                             "column\tTimeColumn\ttime(2)\tnull\t0\t0\t-\t-\n"
                             "column\tTimestampColumn\ttimestamp(3)\tnull\t0\t0\t-\t-\n"
                             "table\ttest\tdecodedecimal\t0\t14\n"
                             "column\tid\tint(11)\tnot null\t1\t0\t-\t-\n"
                             "column\tv4_2\tdecimal(4,2)\tnull\t0\t0\t-\t-\n"
                             "column\tv5_0\tdecimal(5,0)\tnull\t0\t0\t-\t-\n"
                             "column\tv7_3\tdecimal(7,3)\tnull\t0\t0\t-\t-\n"
                             "column\tv10_2\tdecimal(10,2)\tnull\t0\t0\t-\t-\n"
                             "column\tv10_3\tdecimal(10,3)\tnull\t0\t0\t-\t-\n"
                             "column\tv13_2\tdecimal(13,2)\tnull\t0\t0\t-\t-\n"
                             "column\tv15_14\tdecimal(15,14)\tnull\t0\t0\t-\t-\n"
                             "column\tv20_10\tdecimal(20,10)\tnull\t0\t0\t-\t-\n"
                             "column\tv30_5\tdecimal(30,5)\tnull\t0\t0\t-\t-\n"
                             "column\tv30_20\tdecimal(30,20)\tnull\t0\t0\t-\t-\n"
                             "column\tv30_25\tdecimal(30,25)\tnull\t0\t0\t-\t-\n"
                             "column\tprec\tint(11)\tnull\t0\t0\t-\t-\n"
                             "column\tscale\tint(11)\tnull\t0\t0\t-\t-\n");
    free(got);
    rc_my_history_free(h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dialect_cases),
        cmocka_unit_test(test_result_names),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_real_binlogs),
        cmocka_unit_test(test_real_scripts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
