/* The MySQL/MariaDB source's own texts: mysql:// URLs (src/sources/mysql/my_url.c: parts,
 * parameters, what a message shows, errors by exact text) and the checkpoint file
 * (my_checkpoint.c: written and read back, every malformed line an error naming it). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sources/mysql/my_checkpoint.h"
#include "sources/mysql/my_conn.h"
#include "sources/mysql/my_source.h"

static void url_parts(void **state)
{
    (void)state;
    unsetenv("MYSQL_PWD");
    rc_my_url u;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_url_parse("mysql://r%40t:p%3Aw@db.example:3307/sh%20op?ssl-mode=verify_ca&ssl-ca=/ca.pem", &u, &err), RC_OK);
    assert_string_equal(u.user, "r@t");
    assert_string_equal(u.password, "p:w");
    assert_string_equal(u.host, "db.example");
    assert_int_equal(u.port, 3307);
    assert_string_equal(u.db, "sh op");
    assert_int_equal(u.ssl_mode, RC_MY_SSL_VERIFY_CA);
    assert_string_equal(u.ssl_ca, "/ca.pem");
    assert_string_equal(u.shown, "mysql://r%40t@db.example:3307/sh%20op?ssl-mode=verify_ca&ssl-ca=/ca.pem");
    rc_my_url_fini(&u);
    assert_int_equal(rc_my_url_parse("mariadb://u@[::1]", &u, &err), RC_OK);
    assert_string_equal(u.host, "::1");
    assert_int_equal(u.port, 3306);
    assert_null(u.db);
    assert_null(u.password);
    rc_my_url_fini(&u);
    setenv("MYSQL_PWD", "from-env", 1);
    assert_int_equal(rc_my_url_parse("mysql://u@h", &u, &err), RC_OK);
    assert_string_equal(u.password, "from-env");
    rc_my_url_fini(&u);
    unsetenv("MYSQL_PWD");
}

static void url_password_file(void **state)
{
    (void)state;
    char path[] = "/tmp/rc_my_pwXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "s3cret\r\nignored\n", 16), 16);
    close(fd);
    char url[200];
    snprintf(url, sizeof url, "mysql://u@h:1/db?password-file=%s&ssl-mode=REQUIRED", path);
    rc_my_url u;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_url_parse(url, &u, &err), RC_OK);
    assert_string_equal(u.password, "s3cret");
    assert_string_equal(u.shown, "mysql://u@h:1/db?ssl-mode=REQUIRED"); /* the file's path is not shown either */
    rc_my_url_fini(&u);
    unlink(path);
    rc_error_clear(&err);
    assert_int_equal(rc_my_url_parse("mysql://u:pw@h?password-file=/nonexistent/pw", &u, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "mysql://u@h: password-file /nonexistent/pw: No such file or directory");
}

static void url_errors(void **state)
{
    (void)state;
    static const struct {
        const char *url, *msg;
    } cases[] = {
        {"mysql://h:3306", "mysql://h:3306: no user (USER@ before the host) (mysql://USER@HOST:PORT[/DB][?PARAMS])"},
        {"mysql://u:secret@h:99999", "mysql://u@h:99999: the port is not a number 1-65535 (mysql://USER@HOST:PORT[/DB][?PARAMS])"},
        {"mysql://u@h?ssl-mode=ALWAYS",
         "mysql://u@h?ssl-mode=ALWAYS: ssl-mode is DISABLED, PREFERRED, REQUIRED, VERIFY_CA or VERIFY_IDENTITY, not 'ALWAYS'"},
        {"mysql://u@h?slot=x", "mysql://u@h?slot=x: unknown parameter 'slot' (ssl-mode, ssl-ca, ssl-cert, ssl-key, "
                               "ssl-verify-server-cert, defaults-file, password-file)"},
        {"mysql://u@h?ssl-ca", "mysql://u@h?ssl-ca: a parameter without =VALUE (mysql://USER@HOST:PORT[/DB][?PARAMS])"},
        {"mysql://u%zz@h", "mysql://u%zz@h: a malformed %-escape in the user or password (mysql://USER@HOST:PORT[/DB][?PARAMS])"},
        /* an unescaped @ in the password: refused, and the password hidden whole (fuzz_my_checkpoint) */
        {"mysql://u:p@ss@h", "mysql://u@h: two @ before the host (write an @ of the user or password as %40) (mysql://USER@HOST:PORT[/DB][?PARAMS])"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rc_my_url u;
        rc_error err;
        rc_error_clear(&err);
        assert_int_equal(rc_my_url_parse(cases[i].url, &u, &err), RC_ERR_USAGE);
        assert_string_equal(err.message, cases[i].msg);
    }
    char out[64];
    rc_my_url_redact("mysql://u:pw@h/db?password=x&ssl-mode=DISABLED", out, sizeof out);
    assert_string_equal(out, "mysql://u@h/db?ssl-mode=DISABLED");
}

/* Writes ck to path (as for server mysql://u@h:1) and reads the file's text back into text. */
static void write_and_read(const char *path, const rc_my_checkpoint *ck, char *text, size_t cap)
{
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_checkpoint_write(path, "mysql://u@h:1", ck, &err), RC_OK);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, cap - 1, f);
    fclose(f);
    text[n] = '\0';
}

/* A new directory dir (its template) and path its file "ck". */
static void temp_ck(char *dir, char *path, size_t cap)
{
    assert_non_null(mkdtemp(dir));
    snprintf(path, cap, "%s/ck", dir);
}

static void checkpoint_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/rc_my_ckXXXXXX", path[100];
    temp_ck(dir, path, sizeof path);
    rc_my_checkpoint ck = {.file = "bin.000042", .offset = 1234, .gtids = "0-1-14,1-2-7",
                           .history = "rowcast-mysql-history 1\nend\t0\t0\n", .history_len = 32};
    rc_error err;
    rc_error_clear(&err);
    char text[400];
    write_and_read(path, &ck, text, sizeof text);
    assert_string_equal(text, "rowcast-mysql-checkpoint 1\nserver mysql://u@h:1\nfile bin.000042\noffset 1234\n"
                              "gtids 0-1-14,1-2-7\nhistory 32\nrowcast-mysql-history 1\nend\t0\t0\n");
    rc_my_checkpoint back;
    assert_int_equal(rc_my_checkpoint_read(path, &back, &err), RC_OK);
    assert_string_equal(back.file, "bin.000042");
    assert_int_equal(back.offset, 1234);
    assert_string_equal(back.gtids, "0-1-14,1-2-7");
    assert_int_equal(back.history_len, 32);
    assert_memory_equal(back.history, ck.history, 32);
    rc_my_checkpoint_fini(&back);
    unlink(path);
    assert_int_equal(rc_my_checkpoint_read(path, &back, &err), RC_SKIP);
    rmdir(dir);
}

/* version 2: the sink state beside the position (read back whole), and a checkpoint without
 * position (a snapshot's, holding the size before it) */
static void checkpoint_sink(void **state)
{
    (void)state;
    char dir[] = "/tmp/rc_my_ckXXXXXX", path[100];
    temp_ck(dir, path, sizeof path);
    rc_my_checkpoint ck = {.file = "bin.000042", .offset = 1234, .gtids = "0-1-14", .history = "h\n", .history_len = 2,
                           .sink = "output 120 /o\ndead-letter 7 /d\n"};
    rc_error err;
    rc_error_clear(&err);
    char text[400];
    write_and_read(path, &ck, text, sizeof text);
    assert_string_equal(text, "rowcast-mysql-checkpoint 2\nserver mysql://u@h:1\nfile bin.000042\noffset 1234\ngtids 0-1-14\n"
                              "sink 31\noutput 120 /o\ndead-letter 7 /d\nhistory 2\nh\n");
    rc_my_checkpoint back;
    assert_int_equal(rc_my_checkpoint_read(path, &back, &err), RC_OK);
    assert_string_equal(back.sink, ck.sink);
    assert_int_equal(back.offset, 1234);
    assert_memory_equal(back.history, "h\n", 2);
    assert_false(rc_my_checkpoint_snapshot_begun(&back));
    rc_my_checkpoint_fini(&back);
    rc_my_checkpoint begun = {.file = "", .gtids = "", .sink = "output 5 /o\n"};
    assert_int_equal(rc_my_checkpoint_write(path, "mysql://u@h:1", &begun, &err), RC_OK);
    assert_int_equal(rc_my_checkpoint_read(path, &back, &err), RC_OK);
    assert_true(rc_my_checkpoint_snapshot_begun(&back));
    assert_string_equal(back.sink, "output 5 /o\n");
    assert_int_equal(back.history_len, 0);
    rc_my_checkpoint_fini(&back);
    /* a sink state cut short is the file's error, at its line */
    FILE *f = fopen(path, "w");
    fputs("rowcast-mysql-checkpoint 2\nserver x\nfile b.1\noffset 4\ngtids \nsink 99\noutput 1 /o\n", f);
    fclose(f);
    assert_int_equal(rc_my_checkpoint_read(path, &back, &err), RC_ERR_USAGE);
    assert_non_null(strstr(err.message, "line 6 (byte 61): the sink state's size is not a number, or past the end"));
    unlink(path);
    rmdir(dir);
}

/* version 3: the incremental snapshot's state after the history (read back whole); written
 * only when there is one, so a run without one writes version 1 or 2 as before */
static void checkpoint_snapshot(void **state)
{
    (void)state;
    char dir[] = "/tmp/rc_my_ckXXXXXX", path[100];
    temp_ck(dir, path, sizeof path);
    static const char st[] = "snapshot-state 1\npaused 0\ntable shop.t incremental by=pk signal=s1 rows=8 estimate=10 chunks=2\n"
                             "last shop.t [\"8\"]\n";
    rc_my_checkpoint ck = {.file = "bin.000042", .offset = 1234, .gtids = "", .history = "h\n", .history_len = 2,
                           .sink = "output 120 /o\n", .snapshot = (char *)st, .snapshot_len = sizeof st - 1};
    rc_error err;
    rc_error_clear(&err);
    char text[600], want[600];
    write_and_read(path, &ck, text, sizeof text);
    snprintf(want, sizeof want, "rowcast-mysql-checkpoint 3\nserver mysql://u@h:1\nfile bin.000042\noffset 1234\ngtids \n"
                                "sink 14\noutput 120 /o\nhistory 2\nh\nsnapshot %zu\n%s", sizeof st - 1, st);
    assert_string_equal(text, want);
    rc_my_checkpoint back;
    assert_int_equal(rc_my_checkpoint_read(path, &back, &err), RC_OK);
    assert_string_equal(back.sink, ck.sink);
    assert_memory_equal(back.history, "h\n", 2);
    assert_int_equal(back.snapshot_len, sizeof st - 1);
    assert_string_equal(back.snapshot, st);
    rc_my_checkpoint_fini(&back);
    /* without a sink state: version 3 all the same */
    ck.sink = NULL;
    write_and_read(path, &ck, text, sizeof text);
    assert_int_equal(strncmp(text, "rowcast-mysql-checkpoint 3\n", 27), 0);
    assert_int_equal(rc_my_checkpoint_read(path, &back, &err), RC_OK);
    assert_null(back.sink);
    assert_string_equal(back.snapshot, st);
    rc_my_checkpoint_fini(&back);
    /* no state: version 2, no snapshot section */
    ck.sink = "output 1 /o\n", ck.snapshot = NULL, ck.snapshot_len = 0;
    write_and_read(path, &ck, text, sizeof text);
    assert_int_equal(strncmp(text, "rowcast-mysql-checkpoint 2\n", 27), 0);
    assert_null(strstr(text, "snapshot"));
    /* version 3 without its section reads as no state */
    static const char nosec[] = "rowcast-mysql-checkpoint 3\nserver x\nfile b.1\noffset 4\ngtids \nhistory 2\nh\n";
    assert_int_equal(rc_my_checkpoint_parse("ck", nosec, sizeof nosec - 1, &back, &err), RC_OK);
    assert_null(back.snapshot);
    assert_memory_equal(back.history, "h\n", 2);
    rc_my_checkpoint_fini(&back);
    unlink(path);
    rmdir(dir);
}

static void checkpoint_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"{\"offset\": 4}\n", "checkpoint ck, line 1 (byte 0): not a rowcast MySQL checkpoint (remove the file to start afresh)"},
        {"rowcast-mysql-checkpoint 1\nserver x\nfile b.1\noffset -4\n",
         "checkpoint ck, line 4 (byte 45): the offset is not a number (remove the file to start afresh)"},
        {"rowcast-mysql-checkpoint 1\nserver x\nfile b.1\noffset 4\ngtid 0-1-2\n",
         "checkpoint ck, line 5 (byte 54): expected 'gtids VALUE' (remove the file to start afresh)"},
        {"rowcast-mysql-checkpoint 1\nserver x\nfile b.1\noffset 4\ngtids \nhistory 10\nabc",
         "checkpoint ck, line 7 (byte 72): the history is not as long as its line says (a torn file?) (remove the file to "
         "start afresh)"},
        {"rowcast-mysql-checkpoint 1\nserver x\nfile b.1", "checkpoint ck, line 3 (byte 36): cut short (remove the file to start afresh)"},
        {"rowcast-mysql-checkpoint 5\nserver x\n", "checkpoint ck, line 1 (byte 0): not a rowcast MySQL checkpoint (remove the file to start afresh)"},
        {"rowcast-mysql-checkpoint 3\nserver x\nfile b.1\noffset 4\ngtids \nhistory 20\nh\n",
         "checkpoint ck, line 6 (byte 61): the history's size is not a number, or past the end (remove the file to start afresh)"},
        {"rowcast-mysql-checkpoint 3\nserver x\nfile b.1\noffset 4\ngtids \nhistory 2\nh\nsnapshot 30\nsnapshot-state 1\n",
         "checkpoint ck, line 9 (byte 85): the snapshot state is not as long as its line says (a torn file?) (remove the file to "
         "start afresh)"},
        {"rowcast-mysql-checkpoint 3\nserver x\nfile b.1\noffset 4\ngtids \nhistory 2\nh\nstate 3\nabc",
         "checkpoint ck, line 8 (byte 73): expected 'snapshot VALUE' (remove the file to start afresh)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        rc_my_checkpoint ck;
        rc_error err;
        rc_error_clear(&err);
        assert_int_equal(rc_my_checkpoint_parse("ck", cases[i].text, strlen(cases[i].text), &ck, &err), RC_ERR_USAGE);
        assert_string_equal(err.message, cases[i].msg);
        rc_my_checkpoint_fini(&ck);
    }
}

static void server_id(void **state)
{
    (void)state;
    uint32_t a = rc_my_default_server_id("h", 3306, "/var/lib/rowcast/ck");
    assert_int_equal(a, rc_my_default_server_id("h", 3306, "/var/lib/rowcast/ck"));
    assert_int_not_equal(a, rc_my_default_server_id("h", 3307, "/var/lib/rowcast/ck"));
    assert_true(a >= 1000000u && a < 2001000000u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(url_parts),          cmocka_unit_test(url_password_file), cmocka_unit_test(url_errors),
        cmocka_unit_test(checkpoint_round_trip), cmocka_unit_test(checkpoint_sink),
        cmocka_unit_test(checkpoint_snapshot), cmocka_unit_test(checkpoint_errors), cmocka_unit_test(server_id),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
