/* Sink pieces that need no server: Kafka's murmur2 partitioner against the values Kafka's own
 * tests publish, the acknowledgement tracker behind checkpoints, topic templates, the
 * checkpoint file's text (versions 1 and 2), a file sink's state and its cut on resume, its
 * writing thread, librdkafka's log in rowcast's words. */
#define _XOPEN_SOURCE 700 /* mkdtemp */
#define _DEFAULT_SOURCE   /* syscall */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "check.h"
#include "pipeline/pipeline.h"
#include "rowcast/sink.h"
#include "sinks/file_writer.h"
#include "sinks/kafka_log.h"
#include "sinks/tracker.h"

/* fsync for this whole program (the executable's definition comes before libc's, also for the
 * library's calls): fails with EIO while fail_fsync is set, so that a durable file sink meets a
 * sync that fails; the real one otherwise. */
static _Atomic bool fail_fsync;
int fsync(int fd)
{
    if (fail_fsync) return errno = EIO, -1;
    return (int)syscall(SYS_fsync, fd);
}

/* A lines-source position, as a pointer (what marks take). */
#define AT(off, line) ((const rc_pos[]){rc_pos_lines(off, line)})

static void test_murmur2_java(void **state)
{
    /* Kafka clients' UtilsTest.testMurmur2 and the values other Kafka clients test against */
    static const struct {
        const char *key;
        int32_t hash;
    } cases[] = {{"21", -973932308},
                 {"foobar", -790332482},
                 {"a-little-bit-long-string", -985981536},
                 {"a-little-bit-longer-string", -1486304829},
                 {"lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58897971},
                 {"abc", 479470107},
                 {"1", -1993445489},
                 {"12", 126087238},
                 {"123", -267702483},
                 {"1234", -1614185708},
                 {"12345", -1188365604}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_int_equal(rc_murmur2(cases[i].key, strlen(cases[i].key)), cases[i].hash);
    /* toPositive(hash) % partitions, as the Java DefaultPartitioner / BuiltInPartitioner */
    assert_int_equal(rc_murmur2_partition("foobar", 6, 100), (int32_t)((uint32_t)-790332482 & 0x7fffffff) % 100);
    assert_int_equal(rc_murmur2_partition("abc", 3, 1), 0);
    assert_int_equal(rc_murmur2(NULL, 0), 275646681); /* empty key: seed ^ 0, mixed */
}

static void test_tracker(void **state)
{
    tracker t;
    assert_int_equal(rc_tracker_init(&t, 8), RC_OK);
    uint64_t a = tracker_take(&t), b = tracker_take(&t);
    rc_tracker_mark_at(&t, AT(100, 1), (tracker_sizes){0, 0}); /* line 1 -> records a, b */
    uint64_t c = tracker_take(&t);
    rc_tracker_mark_at(&t, AT(200, 2), (tracker_sizes){0, 0}); /* line 2 -> record c */
    rc_tracker_mark_at(&t, AT(250, 3), (tracker_sizes){0, 0}); /* line 3: no records */
    assert_false(t.has_safe);
    rc_tracker_ack(&t, c); /* out of order: nothing is safe before a and b */
    rc_tracker_ack(&t, b);
    assert_false(t.has_safe);
    rc_tracker_ack(&t, a);
    assert_true(t.has_safe);
    assert_int_equal(rc_pos_lines_offset(&t.safe_pos), 250);
    assert_int_equal(rc_pos_lines_line(&t.safe_pos), 3);
    rc_tracker_ack(&t, a); /* a duplicate report changes nothing */
    assert_int_equal(rc_pos_lines_offset(&t.safe_pos), 250);
    /* the ring bounds the records in flight */
    for (int i = 0; i < 8; i++) {
        assert_true(tracker_room(&t));
        tracker_take(&t);
    }
    assert_false(tracker_room(&t));
    rc_tracker_mark_at(&t, AT(300, 4), (tracker_sizes){0, 0});
    rc_tracker_ack_all(&t);
    assert_true(tracker_room(&t));
    assert_int_equal(rc_pos_lines_offset(&t.safe_pos), 300);
    rc_tracker_fini(&t);
}

/* The sizes a mark carries become safe with the mark's position, not with later marks'. */
static void test_tracker_sizes(void **state)
{
    tracker t;
    assert_int_equal(rc_tracker_init(&t, 8), RC_OK);
    uint64_t a = tracker_take(&t);
    rc_tracker_mark_at(&t, AT(100, 1), (tracker_sizes){40, 0});
    uint64_t b = tracker_take(&t);
    rc_tracker_mark_at(&t, AT(200, 2), (tracker_sizes){80, 0});
    rc_tracker_mark_at(&t, AT(250, 3), (tracker_sizes){80, 7}); /* a dead-lettered line: no record */
    rc_tracker_ack(&t, a);
    assert_int_equal(rc_pos_lines_offset(&t.safe_pos), 100);
    assert_int_equal(t.safe_sizes.output, 40);
    assert_int_equal(t.safe_sizes.dead_letter, 0);
    rc_tracker_ack(&t, b);
    assert_int_equal(rc_pos_lines_offset(&t.safe_pos), 250); /* the mark without records replaced the one before */
    assert_int_equal(t.safe_sizes.output, 80);
    assert_int_equal(t.safe_sizes.dead_letter, 7);
    rc_tracker_fini(&t);
}

static rc_status parse(const char *text, rc_checkpoint *ck, rc_error *err)
{
    rc_error_clear(err);
    return rc_checkpoint_parse(text, strlen(text), ck, err);
}

static void test_checkpoint_text(void **state)
{
    static rc_checkpoint ck;
    rc_error err;
    /* version 1 (older rowcast) is read: no sink state */
    assert_int_equal(parse("rowcast-checkpoint 1\ninput in.ndjson\noffset 12\nline 3\n", &ck, &err), RC_OK);
    assert_int_equal(ck.version, 1);
    assert_string_equal(ck.input, "in.ndjson");
    assert_int_equal(rc_pos_lines_offset(&ck.pos), 12);
    assert_int_equal(rc_pos_lines_line(&ck.pos), 3);
    assert_false(ck.sink.output.set);
    assert_false(ck.sink.dead_letter.set);
    /* version 2 with both files, a path with spaces; written back as read */
    const char *v2 = "rowcast-checkpoint 2\ninput /d/in.ndjson\noffset 102896898\nline 91196\n"
                     "output 104857600 /d/out put.jsonl\ndead-letter 0 /d/dead\n";
    assert_int_equal(parse(v2, &ck, &err), RC_OK);
    assert_int_equal(ck.version, 2);
    assert_true(ck.sink.output.set);
    assert_int_equal(ck.sink.output.size, 104857600);
    assert_string_equal(ck.sink.output.path, "/d/out put.jsonl");
    assert_true(ck.sink.dead_letter.set);
    assert_int_equal(ck.sink.dead_letter.size, 0);
    EXPECT_TEXT(v2, rc_checkpoint_format(&ck, &b));
    /* without files (stdout, Kafka) */
    assert_int_equal(parse("rowcast-checkpoint 2\ninput /d/in\noffset 0\nline 0\n", &ck, &err), RC_OK);
    EXPECT_TEXT("rowcast-checkpoint 2\ninput /d/in\noffset 0\nline 0\n", rc_checkpoint_format(&ck, &b));
    /* errors name the line and the byte */
    static const struct {
        const char *text, *message;
        size_t offset;
    } bad[] = {
        {"rowcast-checkpoint 2\ninput /d/in\noffset 0\nline 0\noutput 12\n",
         "checkpoint line 5: expected \"rowcast-checkpoint 2\" (or 1), \"input PATH\", \"offset N\", \"line N\", "
         "\"output SIZE PATH\" or \"dead-letter SIZE PATH\", each once", 49},
        {"rowcast-checkpoint 2\ninput /d/in\noffset 0\nline 0\noutput x /o\n", NULL, 49},
        {"rowcast-checkpoint 2\ninput /d/in\noffset 0\nline 0\noutput 12 \n", NULL, 49},
        {"rowcast-checkpoint 2\ninput /d/in\noffset 0\nline 0\ndead-letter 1 /a\ndead-letter 1 /a\n", NULL, 66},
        {"rowcast-checkpoint 3\n", NULL, 0},
        {"rowcast-checkpoint 1\ninput /d/in\noffset 0\nline 0\noutput 12 /o\n",
         "checkpoint: output and dead-letter sizes need version 2", 62},
        {"rowcast-checkpoint 2\ninput /d/in\noffset 0\n", "checkpoint: version, input, offset and line are all required", 42},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(parse(bad[i].text, &ck, &err), RC_ERR_SCHEMA);
        if (bad[i].message) assert_string_equal(err.message, bad[i].message);
        assert_int_equal(err.offset, bad[i].offset);
    }
}

/* A file sink tracks its file (real path, size) and a resume cuts it back, or refuses. */
static void test_file_state(void **state)
{
    char dir[] = "/tmp/rc_sink_XXXXXX", path[64], other[64];
    assert_non_null(mkdtemp(dir));
    char *real = realpath(dir, NULL);
    assert_non_null(real);
    snprintf(path, sizeof path, "%s/out", dir);
    snprintf(other, sizeof other, "%s/other", dir);
    FILE *f = fopen(path, "w");
    fputs("old\n", f);
    fclose(f);
    char url[80];
    snprintf(url, sizeof url, "file:%s", path);
    rc_options opts = {NULL, 0};
    rc_sink_config cfg = {.layout = RC_LAYOUT_VALUES};
    rc_sink *s;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_sink_open(url, &opts, &cfg, &s, &err), RC_OK);
    static rc_sink_state now, was, ck;
    rc_sink_state_now(s, &now);
    assert_true(now.output.set);
    assert_int_equal(now.output.size, 4);
    char want_path[128];
    snprintf(want_path, sizeof want_path, "%s/out", real);
    assert_string_equal(now.output.path, want_path);
    assert_false(now.dead_letter.set);
    /* a record, a mark, a second record not yet marked: the checkpoint has the mark's size */
    rc_record r = {.value = "{\"a\":1}", .value_len = 7};
    assert_int_equal(rc_sink_send(s, &r, &err), RC_OK);
    rc_sink_mark(s, AT(10, 1));
    assert_int_equal(rc_sink_send(s, &r, &err), RC_OK);
    rc_pos at;
    assert_true(rc_sink_checkpoint(s, &at, &ck));
    assert_int_equal(rc_pos_lines_offset(&at), 10);
    assert_int_equal(ck.output.size, 12);
    assert_string_equal(ck.output.path, want_path);
    rc_sink_close(s);
    /* resumed: cut back from 20 to 12 bytes */
    assert_int_equal(rc_sink_open(url, &opts, &cfg, &s, &err), RC_OK);
    assert_int_equal(rc_sink_restore(s, &ck, &was, &err), RC_OK);
    assert_int_equal(was.output.size, 20);
    rc_sink_state_now(s, &now);
    assert_int_equal(now.output.size, 12);
    rc_sink_close(s);
    f = fopen(path, "r");
    char got[32] = {0};
    assert_int_equal(fread(got, 1, sizeof got, f), 12);
    fclose(f);
    assert_string_equal(got, "old\n{\"a\":1}\n");
    /* shorter than recorded: refused, untouched */
    ck.output.size = 13;
    assert_int_equal(rc_sink_open(url, &opts, &cfg, &s, &err), RC_OK);
    rc_error_clear(&err);
    assert_int_equal(rc_sink_restore(s, &ck, &was, &err), RC_ERR_USAGE);
    char msg[512];
    snprintf(msg, sizeof msg, "%s is shorter than the checkpoint recorded", want_path);
    assert_string_equal(err.message, msg);
    rc_sink_close(s);
    /* another file, and no file */
    snprintf(url, sizeof url, "file:%s", other);
    assert_int_equal(rc_sink_open(url, &opts, &cfg, &s, &err), RC_OK);
    rc_error_clear(&err);
    assert_int_equal(rc_sink_restore(s, &ck, &was, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "the checkpoint tracks another output file than this run");
    rc_sink_close(s);
    assert_int_equal(rc_sink_open("stdout", &opts, &cfg, &s, &err), RC_OK);
    rc_error_clear(&err);
    assert_int_equal(rc_sink_restore(s, &ck, &was, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "the checkpoint tracks another output file than this run");
    rc_sink_close(s);
    unlink(path);
    unlink(other);
    rmdir(dir);
    free(real);
}

/* The sink of url with cfg and no options, which must open. */
static rc_sink *sink_ok(const char *url, const rc_sink_config *cfg)
{
    rc_options opts = {NULL, 0};
    rc_sink *s;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_sink_open(url, &opts, cfg, &s, &err), RC_OK);
    return s;
}

/* A new directory from the template dir (its XXXXXX replaced), path its file "out" (64
 * bytes) and url the sink's "file:" URL of it (80 bytes). */
static void out_file(char *dir, char *path, char *url)
{
    assert_non_null(mkdtemp(dir));
    snprintf(path, 64, "%s/out", dir);
    snprintf(url, 80, "file:%s", path);
}

/* A file sink's writing thread (sinks/file_writer.c): records larger than its buffers
 * and records of no bytes, past the end of its ring; every byte in order; a checkpoint
 * taken without waiting (rc_sink_checkpoint_soon) comes, and never names more bytes than the
 * file holds; /dev/full stops the send that filled the first buffer; a failed fsync is
 * reported as the sync's. */
static void test_file_writer(void **state)
{
    char dir[] = "/tmp/rc_sink_XXXXXX", path[64], url[80];
    out_file(dir, path, url);
    rc_options opts = {NULL, 0};
    rc_sink_config cfg = {.layout = RC_LAYOUT_VALUES, .binary = true};
    rc_sink *s;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_sink_open(url, &opts, &cfg, &s, &err), RC_OK);
    enum { N = 40, BIG = 300001 };
    char *want = malloc((size_t)N * BIG), *got = malloc((size_t)N * BIG + 1);
    assert_non_null(want);
    assert_non_null(got);
    size_t total = 0;
    for (int i = 0; i < N; i++) {
        size_t n = i % 3 == 2 ? 0 : i % 3 ? BIG : 17; /* 0 bytes: binary, no newline */
        for (size_t k = 0; k < n; k++) want[total + k] = (char)('a' + (i + k) % 26);
        rc_record r = {.value = want + total, .value_len = n};
        assert_int_equal(rc_sink_send(s, &r, &err), RC_OK);
        total += n;
        rc_sink_mark(s, AT(total, i + 1));
    }
    static rc_sink_state ck;
    rc_pos at = {0};
    FILE *f;
    for (int tries = 0; rc_pos_lines_line(&at) != N; tries++) { /* observed, no sleep: the thread's pace */
        assert_true(tries < 10000000);
        if (!rc_sink_checkpoint_soon(s, &at, &ck)) continue;
        assert_int_equal(ck.output.size, rc_pos_lines_offset(&at));
        assert_non_null(f = fopen(path, "rb"));
        fseek(f, 0, SEEK_END);
        assert_true((uint64_t)ftell(f) >= ck.output.size);
        fclose(f);
    }
    assert_int_equal(ck.output.size, total);
    rc_sink_stats ss;
    rc_sink_get_stats(s, &ss);
    assert_int_equal(ss.delivered, N);
    rc_sink_close(s);
    assert_non_null(f = fopen(path, "rb"));
    assert_int_equal(fread(got, 1, (size_t)N * BIG + 1, f), total);
    fclose(f);
    assert_memory_equal(got, want, total);
    unlink(path);
    rmdir(dir);
    /* a file that cannot be written: the send that fills the first buffer fails */
    assert_int_equal(rc_sink_open("file:/dev/full", &opts, &cfg, &s, &err), RC_OK);
    rc_record r = {.value = want, .value_len = BIG};
    int sent = 0;
    rc_status st;
    while ((st = rc_sink_send(s, &r, &err)) == RC_OK) sent++;
    assert_int_equal(st, RC_ERR_IO);
    assert_int_equal(sent, RC_FW_BUF / BIG);
    assert_string_equal(err.message, "writing /dev/full: No space left on device");
    rc_sink_close(s);
    /* a file whose fsync fails: the message says it was the sync, not the write */
    assert_non_null(mkdtemp(strcpy(dir, "/tmp/rc_sink_XXXXXX")));
    snprintf(path, sizeof path, "%s/out", dir);
    snprintf(url, sizeof url, "file:%s", path);
    assert_int_equal(rc_sink_open(url, &opts, &cfg, &s, &err), RC_OK);
    r.value_len = 17;
    assert_int_equal(rc_sink_send(s, &r, &err), RC_OK);
    fail_fsync = true;
    rc_error_clear(&err);
    assert_int_equal(rc_sink_flush(s, 1000, &err), RC_ERR_IO);
    fail_fsync = false;
    char want_msg[128];
    snprintf(want_msg, sizeof want_msg, "syncing %s: Input/output error", path);
    assert_string_equal(err.message, want_msg);
    rc_sink_close(s);
    unlink(path);
    rmdir(dir);
    free(want);
    free(got);
}

/* Records in blocks (rc_sink_send_block): small blocks copied, large ones handed to the
 * writing thread as they are (rc_fw_give) past its ring of eight, between single records;
 * every byte in order, the marks' sizes right, the block emptied and its (exchanged) memory
 * usable; only a text values layout takes blocks. */
static void test_file_blocks(void **state)
{
    char dir[] = "/tmp/rc_sink_XXXXXX", path[64], url[80];
    out_file(dir, path, url);
    rc_sink *s = sink_ok(url, &(rc_sink_config){.layout = RC_LAYOUT_VALUES});
    rc_error err;
    rc_error_clear(&err);
    assert_true(rc_sink_block_max(s) > 0);
    enum { N = 24 };
    static const size_t sizes[] = {10, RC_FW_BUF / 4 + 1, 3 * RC_FW_BUF, 0, RC_FW_BUF / 2, 100};
    rc_buf want, block;
    rc_buf_init(&want, 0), rc_buf_init(&block, 0);
    uint64_t records = 0;
    for (int i = 0; i < N; i++) {
        size_t n = sizes[i % 6];
        if (i % 4 == 3) { /* a record on its own between blocks */
            rc_record r = {.value = "{\"one\":1}", .value_len = 9};
            assert_int_equal(rc_sink_send(s, &r, &err), RC_OK);
            rc_buf_puts(&want, "{\"one\":1}\n");
            records++;
        }
        /* a block of n bytes: lines of at most 99 bytes and "\n" */
        size_t lines = 0;
        for (size_t k = 0; k < n; k++) {
            char ch = (k + 1) % 100 == 0 || k + 1 == n ? '\n' : (char)('a' + (i + k) % 26);
            rc_buf_putc(&block, ch);
            lines += ch == '\n';
        }
        rc_buf_put(&want, block.data, block.len);
        assert_int_equal(rc_sink_send_block(s, &block, lines, block.len - lines, &err), RC_OK);
        assert_int_equal(block.len, 0);
        records += lines;
        rc_sink_mark(s, AT(want.len, i + 1));
    }
    assert_int_equal(want.err, RC_OK);
    assert_int_equal(block.err, RC_OK);
    static rc_sink_state ck;
    rc_pos at = {0};
    for (int tries = 0; rc_pos_lines_line(&at) != N; tries++) { /* observed, no sleep */
        assert_true(tries < 10000000);
        if (rc_sink_checkpoint_soon(s, &at, &ck)) assert_int_equal(ck.output.size, rc_pos_lines_offset(&at));
    }
    assert_int_equal(ck.output.size, want.len);
    rc_sink_stats ss;
    rc_sink_get_stats(s, &ss);
    assert_int_equal(ss.sent, records);
    assert_int_equal(ss.delivered, records);
    rc_sink_close(s);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *got = malloc(want.len + 1);
    assert_non_null(got);
    assert_int_equal(fread(got, 1, want.len + 1, f), want.len);
    fclose(f);
    assert_memory_equal(got, want.data, want.len);
    free(got);
    rc_buf_fini(&want), rc_buf_fini(&block);
    unlink(path);
    rmdir(dir);
    /* records as the sink writes them, one at a time only: a binary format's, keys, records */
    rc_sink_config other[] = {{.layout = RC_LAYOUT_VALUES, .binary = true}, {.layout = RC_LAYOUT_KEYS}, {.layout = RC_LAYOUT_RECORDS}};
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        s = sink_ok("stdout", &other[i]);
        assert_int_equal(rc_sink_block_max(s), 0);
        rc_sink_close(s);
    }
}

static void topic(const char *spec, const char *db, const char *schema, const char *table, const char *want)
{
    const char *tmpl;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_topic_template(spec, &tmpl, &err), RC_OK);
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.src.db = (rc_str){db, strlen(db)};
    ev.src.schema = (rc_str){schema, strlen(schema)};
    ev.src.table = (rc_str){table, strlen(table)};
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_topic_expand(tmpl, &ev.src, "srv", &b);
    rc_buf_putc(&b, '\0');
    assert_string_equal(b.data, want);
    rc_buf_fini(&b);
}

static void test_topics(void **state)
{
    topic("debezium", "shop", "", "orders", "srv.shop.orders");
    topic("{db}.{schema}.{table}", "pg", "public", "t", "pg.public.t");
    topic("{db}.{schema}.{table}", "shop", "", "t", "shop.t");     /* an empty part's dot is dropped */
    topic("cdc.{table}", "shop", "", "Bestellung Ü", "cdc.Bestellung___"); /* not Kafka's characters: '_' */
    topic("{db}.{table}", "", "", "", "");
    const char *tmpl;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_topic_template("{server}.{tabel}", &tmpl, &err), RC_ERR_USAGE);
    assert_non_null(strstr(err.message, "byte 10"));
    rc_error_clear(&err);
    assert_int_equal(rc_topic_template("{db", &tmpl, &err), RC_ERR_USAGE);
    rc_error_clear(&err);
    assert_int_equal(rc_topic_template("cdc/{table}", &tmpl, &err), RC_ERR_USAGE); /* '/' is no topic character */
    assert_non_null(strstr(err.message, "byte 4"));
}

static void collect(void *ctx, rc_sink_notice kind, const char *text)
{
    rc_buf *b = ctx;
    rc_buf_puts(b, kind == RC_SINK_NOTICE_BROKER ? "B " : "D ");
    rc_buf_puts(b, text);
    rc_buf_putc(b, '\n');
}

/* librdkafka's FAIL lines as it writes them (retries repeat them with other "(after ...)"
 * parts): each broker and cause said once, with what to check; other lines once each */
static void test_kafka_log(void **state)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_sink_config cfg = {.notice = collect, .notice_ctx = &b};
    kafka_log l = {.cfg = &cfg};
    rc_kafka_log_line(&l, 3, "FAIL", "[thrd:127.0.0.1:1/bootstrap]: 127.0.0.1:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: Connection refused (after 0ms in state CONNECT)");
    rc_kafka_log_line(&l, 3, "FAIL", "[thrd:127.0.0.1:1/bootstrap]: 127.0.0.1:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: Connection refused (after 0ms in state CONNECT, 140 identical error(s) suppressed)");
    rc_kafka_log_line(&l, 3, "FAIL", "[thrd:nosuch:9092/bootstrap]: nosuch:9092/bootstrap: Failed to resolve 'nosuch:9092': Name or service not known (after 2ms in state CONNECT)");
    rc_kafka_log_line(&l, 3, "FAIL", "[thrd:10.1.2.3:9092/bootstrap]: 10.1.2.3:9092/bootstrap: Connection setup timed out in state CONNECT (after 30029ms in state CONNECT)");
    rc_kafka_log_line(&l, 3, "FAIL", "[thrd:k1:9093/bootstrap]: k1:9093/bootstrap: Disconnected while requesting ApiVersion: might be caused by incorrect security.protocol configuration (connecting to a SSL listener?) or broker version is < 0.10 (see api.version.request) (after 3ms in state APIVERSION_QUERY)");
    rc_kafka_log_line(&l, 6, "FAIL", "[thrd:127.0.0.1:1/bootstrap]: 127.0.0.1:1/1: Disconnected: verify that security.protocol is correctly configured, broker might require SASL authentication (after 545ms in state UP)");
    /* with a SASL or SSL listener librdkafka names the broker with its protocol */
    rc_kafka_log_line(&l, 3, "FAIL", "[thrd:sasl_plaintext://k2:9094/bootstrap]: sasl_plaintext://k2:9094/bootstrap: SASL authentication error: Authentication failed: Invalid username or password (after 5ms in state AUTH_REQ)");
    rc_kafka_log_line(&l, 4, "CONFWARN", "[thrd:app]: Configuration property batch.size is a producer property");
    rc_kafka_log_line(&l, 4, "CONFWARN", "[thrd:app]: Configuration property batch.size is a producer property");
    rc_buf_putc(&b, '\0');
    assert_string_equal(b.data,
        "B kafka: broker 127.0.0.1:1: connection refused; nothing listens there: check the host and port in --sink and that Kafka runs there (librdkafka keeps trying)\n"
        "B kafka: broker nosuch:9092: host name not found; check the host name in --sink (librdkafka keeps trying)\n"
        "B kafka: broker 10.1.2.3:9092: no answer; check the address in --sink and any firewall on the way (librdkafka keeps trying)\n"
        "B kafka: broker k1:9093: closed the connection while connecting; check -o kafka.security.protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL) against the broker's listener on that port\n"
        "B kafka: broker 127.0.0.1:1: lost the connection; librdkafka reconnects and resends (check the broker if this goes on)\n"
        "B kafka: broker k2:9094: authentication failed; check -o kafka.sasl.mechanism, kafka.sasl.username and kafka.sasl.password\n"
        "B kafka: librdkafka CONFWARN: Configuration property batch.size is a producer property\n");
    char out[512] = "";
    assert_true(rc_kafka_log_unreachable(&l, out, sizeof out));
    assert_string_equal(out, "127.0.0.1:1 (lost the connection), nosuch:9092 (host name not found), 10.1.2.3:9092 (no answer), "
                             "k1:9093 (closed the connection while connecting), k2:9094 (authentication failed)");
    rc_buf_fini(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_murmur2_java),
        cmocka_unit_test(test_tracker),
        cmocka_unit_test(test_tracker_sizes),
        cmocka_unit_test(test_checkpoint_text),
        cmocka_unit_test(test_file_state),
        cmocka_unit_test(test_file_writer),
        cmocka_unit_test(test_file_blocks),
        cmocka_unit_test(test_topics),
        cmocka_unit_test(test_kafka_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
