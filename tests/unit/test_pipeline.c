/* The pipeline's parts below the CLI: opaque positions (rowcast/position.h), the retriable
 * status, the source registry, the lines source's items and positions, and the sink state as
 * text (what a MySQL checkpoint stores). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "pipeline/pipeline.h"
#include "rowcast/position.h"
#include "rowcast/source.h"

static void test_lines_position(void **state)
{
    rc_pos a = rc_pos_lines(12, 3), later = rc_pos_lines(40, 5), none = {0};
    assert_int_equal(a.kind, RC_POS_LINES);
    assert_int_equal(rc_pos_lines_offset(&a), 12);
    assert_int_equal(rc_pos_lines_line(&a), 3);
    assert_int_equal(rc_pos_lines_offset(&none), 0); /* another kind: no offset */
    assert_true(rc_pos_compare(&a, &later) < 0);
    assert_true(rc_pos_compare(&later, &a) > 0);
    assert_int_equal(rc_pos_compare(&a, &a), 0);
    assert_true(rc_pos_equal(&a, &a) && !rc_pos_equal(&a, &later));
    EXPECT_TEXT("offset 12\nline 3\n", rc_pos_format(&a, &b));
    rc_pos p = {0};
    assert_int_equal(rc_pos_parse_field(&p, RC_POS_LINES, "line", 4, "3", 1), 1);
    assert_int_equal(rc_pos_parse_field(&p, RC_POS_LINES, "offset", 6, "12", 2), 0);
    assert_true(rc_pos_equal(&p, &a));
    assert_int_equal(rc_pos_parse_field(&p, RC_POS_LINES, "lsn", 3, "1", 1), -1);  /* not a lines field */
    assert_int_equal(rc_pos_parse_field(&p, RC_POS_LINES, "line", 4, "x", 1), -2); /* malformed */
    assert_int_equal(rc_pos_fields(RC_POS_LINES), 2);
}

static void test_mysql_position(void **state)
{
    /* binlog file number, then offset: mysql-bin.000002 at 4 is after mysql-bin.000001 at 900 */
    rc_pos a = rc_pos_mysql(1, 900, 0), b2 = rc_pos_mysql(2, 4, 0), snap = rc_pos_mysql(0, 0, 7);
    assert_int_equal(a.kind, RC_POS_MYSQL);
    assert_int_equal(rc_pos_mysql_file(&a), 1);
    assert_int_equal(rc_pos_mysql_offset(&a), 900);
    assert_int_equal(rc_pos_mysql_snapshot_rows(&snap), 7);
    assert_true(rc_pos_compare(&a, &b2) < 0 && rc_pos_compare(&snap, &a) < 0);
    EXPECT_TEXT("binlog-file-number 1\nbinlog-offset 900\nsnapshot-rows 0\n", rc_pos_format(&a, &b));
    rc_pos p = {0};
    assert_int_equal(rc_pos_parse_field(&p, RC_POS_MYSQL, "binlog-offset", 13, "900", 3), 1);
    assert_int_equal(rc_pos_parse_field(&p, RC_POS_MYSQL, "binlog-file-number", 18, "1", 1), 0);
    assert_int_equal(rc_pos_parse_field(&p, RC_POS_MYSQL, "snapshot-rows", 13, "0", 1), 2);
    assert_true(rc_pos_equal(&p, &a));
    assert_int_equal(rc_pos_fields(RC_POS_MYSQL), 3);
}

static void test_retry_status(void **state)
{
    assert_string_equal(rc_status_name(RC_ERR_RETRY), "retry");
    assert_true(RC_ERR_RETRY != RC_ERR_IO && RC_ERR_RETRY < RC_STATUS_COUNT);
}

static void test_source_registry(void **state)
{
    assert_ptr_equal(rc_source_find("in.ndjson"), &rc_source_lines);
    assert_ptr_equal(rc_source_find("-"), &rc_source_lines);
    assert_ptr_equal(rc_source_find("/tmp/a:b"), &rc_source_lines);
}

/* Items of "x\n\n{}\r\n" from `resume`, with one thread or two: the end position of each. */
static void read_items(bool threaded, const rc_pos *resume, uint64_t *ends, uint64_t *lines, bool *blank, size_t *n)
{
    char path[] = "/tmp/rowcast-test-lines-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "x\n\n{}\r\n", 7), 7);
    close(fd);
    const rc_format *f = rc_format_find("native");
    rc_options opts = {NULL, 0};
    void *dec = NULL;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(f->dec_new(&opts, &dec, &err), RC_OK);
    static volatile sig_atomic_t stop;
    const char *urls[] = {path};
    rc_source_config cfg = {.urls = urls, .nurls = 1, .from = f, .dec = dec, .opts = &opts, .threaded = threaded, .stop = &stop};
    rc_source *s = NULL;
    assert_int_equal(rc_source_open(&cfg, resume, &s, &err), RC_OK);
    *n = 0;
    for (bool last = false; !last;) {
        rc_batch *b = NULL;
        assert_int_equal(s->ops->next(s, 1000, &b, &err), RC_OK);
        if (!b) continue; /* idle */
        for (size_t i = 0; i < b->n; i++) {
            ends[*n] = rc_pos_lines_offset(&b->lines[i].end);
            lines[*n] = rc_pos_lines_line(&b->lines[i].end);
            blank[(*n)++] = b->lines[i].blank;
        }
        last = b->last;
        assert_int_equal(b->rc, RC_EXIT_OK);
        s->ops->release(s, b);
    }
    uint64_t size, start;
    s->ops->progress(s, &size, &start);
    assert_int_equal(size, 7);
    assert_int_equal(start, resume ? rc_pos_lines_offset(resume) : 0);
    s->ops->close(s);
    f->dec_free(dec);
    unlink(path);
}

static void test_lines_source(void **state)
{
    for (int threads = 1; threads <= 2; threads++) {
        uint64_t ends[8], lines[8];
        bool blank[8];
        size_t n;
        read_items(threads == 2, NULL, ends, lines, blank, &n);
        assert_int_equal(n, 3);
        assert_int_equal(ends[0], 2), assert_int_equal(lines[0], 1), assert_false(blank[0]);
        assert_int_equal(ends[1], 3), assert_int_equal(lines[1], 2), assert_true(blank[1]);
        assert_int_equal(ends[2], 7), assert_int_equal(lines[2], 3), assert_false(blank[2]);
        /* resumed after line 2: the third line only, numbered on */
        rc_pos at = rc_pos_lines(3, 2);
        read_items(threads == 2, &at, ends, lines, blank, &n);
        assert_int_equal(n, 1);
        assert_int_equal(ends[0], 7), assert_int_equal(lines[0], 3);
    }
}

/* A sink state as text (what MySQL's checkpoint stores) and back; a bad line names its byte. */
static void test_sink_state_text(void **state)
{
    rc_sink_state st = {.output = {.set = true, .size = 120}, .dead_letter = {.set = true, .size = 7}}, back;
    strcpy(st.output.path, "/o ut"), strcpy(st.dead_letter.path, "/d");
    EXPECT_TEXT("output 120 /o ut\ndead-letter 7 /d\n", rc_sink_state_format(&st, &b));
    rc_error err;
    rc_error_clear(&err);
    const char *t = "output 120 /o ut\ndead-letter 7 /d\n";
    assert_int_equal(rc_sink_state_parse(t, strlen(t), &back, &err), RC_OK);
    assert_true(back.output.set && back.dead_letter.set);
    assert_int_equal(back.output.size, 120), assert_string_equal(back.output.path, "/o ut");
    assert_int_equal(back.dead_letter.size, 7), assert_string_equal(back.dead_letter.path, "/d");
    assert_int_equal(rc_sink_state_parse("", 0, &back, &err), RC_OK); /* no file tracked (Kafka) */
    assert_false(back.output.set || back.dead_letter.set);
    t = "output 1 /o\noutput 2 /o\n";
    assert_int_equal(rc_sink_state_parse(t, strlen(t), &back, &err), RC_ERR_SCHEMA);
    assert_int_equal(err.offset, 12);
    t = "output\n";
    assert_int_equal(rc_sink_state_parse(t, strlen(t), &back, &err), RC_ERR_SCHEMA);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines_position),
        cmocka_unit_test(test_mysql_position),
        cmocka_unit_test(test_retry_status),
        cmocka_unit_test(test_source_registry),
        cmocka_unit_test(test_lines_source),
        cmocka_unit_test(test_sink_state_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
