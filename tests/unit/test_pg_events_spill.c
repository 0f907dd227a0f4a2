/* pg_events spilling: held changes past a tiny threshold in files of a temporary directory,
 * released in drained batches; a whole abort leaves no file; a spill directory that does not
 * exist and a write that fails (RLIMIT_FSIZE) are errors with their exact text, and nothing is
 * lost; a held value that is bad fails the drain that reaches it. */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include "pg_events_fixture.h"

/* open file descriptors of this process: a spill file is one while it exists */
static int open_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    assert_non_null(d);
    int n = 0;
    for (struct dirent *de; (de = readdir(d));) n += de->d_name[0] != '.';
    closedir(d);
    return n;
}

static bool dir_empty(const char *path)
{
    DIR *d = opendir(path);
    assert_non_null(d);
    bool empty = true;
    for (struct dirent *de; (de = readdir(d));)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) empty = false;
    closedir(d);
    return empty;
}

/* Releases the pending transaction in batches of at most `max` events, each rendered and the
 * arena reset before the next; the lines appended to *acc. Returns the number of batches. */
static int drain_all(run *r, size_t max, rc_buf *acc)
{
    int batches = 0;
    char *first = render(r); /* what the Stream Commit released */
    rc_buf_puts(acc, first);
    free(first);
    rc_arena_reset(&r->a);
    while (rc_pg_events_pending(r->e)) {
        rc_error err;
        rc_error_clear(&err);
        if (rc_pg_events_drain(r->e, max, &r->a, &r->out, &err) != RC_OK)
            fail_msg("drain: %s", err.message);
        assert_true(r->out.count > 0 && r->out.count <= max);
        char *s = render(r);
        rc_buf_puts(acc, s);
        free(s);
        rc_arena_reset(&r->a);
        batches++;
    }
    return batches;
}

static void ins(run *r, uint32_t oid, int id, const char *s, const char *n, uint64_t lsn)
{
    char idt[16];
    snprintf(idt, sizeof idt, "%d", id);
    const char *v[] = {idt, s, n};
    change(r, 'I', oid, 0, NULL, v, n ? 3 : 2, lsn);
}

#define V2_COLS                                                                                    \
    "\"columns\":[{\"name\":\"id\",\"type\":\"integer\",\"pk\":true},{\"name\":\"s\",\"type\":"    \
    "\"text\",\"nullable\":true},{\"name\":\"n\",\"type\":\"bigint\",\"nullable\":true}]"

/* The commit before the expected rows' transaction (their last_commit_lsn), 0: none. */
static uint64_t expect_last_commit;

static void expect_ins(rc_buf *b, uint32_t xid, uint32_t index, uint64_t lsn, int id, bool v2)
{
    char line[600], last[64] = "";
    if (expect_last_commit)
        snprintf(last, sizeof last, ",\"last_commit_lsn\":\"0/%llX\"", (unsigned long long)expect_last_commit);
    if (v2)
        snprintf(line, sizeof line,
                 "{\"op\":\"insert\"," SRC ",\"pos\":{\"lsn\":\"0/%llX\",\"txid\":\"%u\","
                 "\"index\":%u%s}," TS "," V2_COLS ",\"after\":[%d,\"r%d\",%d]}\n",
                 (unsigned long long)lsn, xid, index, last, id, id, id * 1000);
    else
        snprintf(line, sizeof line,
                 "{\"op\":\"insert\"," SRC ",\"pos\":{\"lsn\":\"0/%llX\",\"txid\":\"%u\","
                 "\"index\":%u%s}," TS "," S_COLS ",\"after\":[%d,\"r%d\"]}\n",
                 (unsigned long long)lsn, xid, index, last, id, id);
    rc_buf_puts(b, line);
}

static void expect_tx(rc_buf *b, const char *op, uint32_t xid, uint64_t lsn, uint64_t end,
                      int count)
{
    char line[512];
    if (!strcmp(op, "begin"))
        snprintf(line, sizeof line,
                 "{\"op\":\"begin\"," TXSRC ",\"pos\":{\"lsn\":\"0/%llX\",\"txid\":\"%u\"}," TS
                 "}\n",
                 (unsigned long long)lsn, xid);
    else
        snprintf(line, sizeof line,
                 "{\"op\":\"commit\"," TXSRC ",\"pos\":{\"lsn\":\"0/%llX\",\"txid\":\"%u\","
                 "\"checkpoint\":\"0/%llX\",\"count\":%d}," TS "}\n",
                 (unsigned long long)lsn, xid, (unsigned long long)end, count);
    rc_buf_puts(b, line);
}

static void same_text(const rc_buf *got, const rc_buf *want)
{
    if (got->len != want->len || memcmp(got->data, want->data, got->len)) {
        print_error("got:\n%.*s\nexpected:\n%.*s\n", (int)got->len, got->data, (int)want->len,
                    want->data);
        fail();
    }
}

/* A threshold of 64 bytes: transaction 830 (rows 1..50; rows 11..20 in subtransaction 831,
 * aborted; ALTER TABLE before row 41; a TRUNCATE last) spills, interleaved with the chunks of
 * 840 (rows 101..110), which spills too; each Stream Commit releases 7 events, the rest comes
 * in drains of at most 10, every row decoded against its own relation version, in order. */
static void test_spill(void **state)
{
    (void)state;
    char dir[] = "/tmp/rc-test-spill-XXXXXX";
    assert_non_null(mkdtemp(dir));
    int fds = open_fds();
    run *r = r_new_opts(
        2, (rc_pg_events_opts){.spill_bytes = 64, .spill_dir = dir, .release_events = 7});
    static const pcol v1[] = {{"id", 23, -1, 1}, {"s", 25, -1, 0}};
    static const pcol v2[] = {{"id", 23, -1, 1}, {"s", 25, -1, 0}, {"n", 20, -1, 0}};
    char s[16], n[16];
    stream_start(r, 830, 1);
    relation(r, 506, "t", 'd', 2, v1);
    for (int i = 1; i <= 50; i++) {
        if (i == 26) { /* 840's chunk in between */
            stream_stop(r);
            stream_start(r, 840, 1);
            relation(r, 507, "t", 'd', 2, v1);
            for (int k = 101; k <= 110; k++) {
                snprintf(s, sizeof s, "r%d", k);
                ins(r, 507, k, s, NULL, 0x9000 + (uint64_t)k);
            }
            stream_stop(r);
            stream_start(r, 830, 0);
        }
        if (i == 41) relation(r, 506, "t", 'd', 3, v2);
        r->stream = i >= 11 && i <= 20 ? 831 : 830;
        snprintf(s, sizeof s, "r%d", i);
        snprintf(n, sizeof n, "%d", i * 1000);
        ins(r, 506, i, s, i > 40 ? n : NULL, 0x8000 + (uint64_t)i * 16);
        r->stream = 830;
    }
    mb t = head(r, 'T');
    u32(&t, 1);
    u8(&t, 0);
    u32(&t, 506);
    ok(r, &t, 0x8400);
    stream_stop(r);
    stream_abort(r, 830, 831);
    assert_int_equal(r->out.count, 0);
    assert_true(rc_pg_events_spilled_bytes(r->e) > 0);
    /* at most the threshold in memory, or the one record over it */
    assert_true(rc_pg_events_held_bytes(r->e) <= 64 + 64);
    assert_int_equal(open_fds(), fds + 2); /* one spill file per transaction */

    stream_commit(r, 830, 0x8800, 0x8830, T1);
    assert_int_equal(r->out.count, 7);
    assert_true(rc_pg_events_pending(r->e));
    assert_false(rc_pg_events_idle(r->e));
    /* no other message while it is pending */
    rc_error err;
    mb c = {0};
    u8(&c, 'c');
    u32(&c, 840);
    u8(&c, 0);
    u64(&c, 0x8900);
    u64(&c, 0x8930);
    u64(&c, T1);
    assert_int_equal(feed(r, &c, 0, &err), RC_ERR_USAGE);
    assert_string_equal(err.message, "streamed transaction 830 is not released yet: "
                                     "rc_pg_events_drain until rc_pg_events_pending is false, "
                                     "then the next message");
    rc_buf got, want;
    rc_buf_init(&got, 1 << 20);
    rc_buf_init(&want, 1 << 20);
    /* 1 + 40 rows + 1 truncate + 1 = 43 events: 7, then 10, 10, 10, 6 */
    assert_int_equal(drain_all(r, 10, &got), 4);
    expect_tx(&want, "begin", 830, 0x8800, 0, 0);
    uint32_t index = 0;
    for (int i = 1; i <= 50; i++)
        if (i < 11 || i > 20) expect_ins(&want, 830, index++, 0x8000 + (uint64_t)i * 16, i, i > 40);
    char line[512];
    snprintf(line, sizeof line,
             "{\"op\":\"truncate\"," SRC ",\"pos\":{\"lsn\":\"0/8400\",\"txid\":\"830\","
             "\"index\":%u}," TS "," V2_COLS "}\n",
             index++);
    rc_buf_puts(&want, line);
    expect_tx(&want, "commit", 830, 0x8800, 0x8830, (int)index);
    same_text(&got, &want);
    assert_int_equal(open_fds(), fds + 1); /* 830's file is gone */

    rc_buf_reset(&got);
    rc_buf_reset(&want);
    assert_int_equal(feed(r, &c, 0, &err), RC_OK);
    assert_int_equal(drain_all(r, 3, &got), 2); /* 12 events: 7, then 3, 2 */
    expect_tx(&want, "begin", 840, 0x8900, 0, 0);
    expect_last_commit = 0x8800; /* 830's */
    for (int k = 101; k <= 110; k++)
        expect_ins(&want, 840, (uint32_t)k - 101, 0x9000 + (uint64_t)k, k, false);
    expect_last_commit = 0;
    expect_tx(&want, "commit", 840, 0x8900, 0x8930, 10);
    /* (840's rows are on relation 507, also "t") */
    same_text(&got, &want);
    assert_true(rc_pg_events_idle(r->e));
    assert_int_equal(rc_pg_events_held_bytes(r->e), 0);
    assert_int_equal(rc_pg_events_spilled_bytes(r->e), 0);
    assert_int_equal(open_fds(), fds);
    assert_true(dir_empty(dir));
    rc_buf_fini(&got);
    rc_buf_fini(&want);
    r_free(r);
    rmdir(dir);
}

/* A whole abort of a spilled transaction: no file, no held bytes; a reconnect likewise. */
static void test_spill_abort(void **state)
{
    (void)state;
    char dir[] = "/tmp/rc-test-spill-XXXXXX";
    assert_non_null(mkdtemp(dir));
    int fds = open_fds();
    run *r = r_new_opts(2, (rc_pg_events_opts){.spill_bytes = 64, .spill_dir = dir});
    static const pcol v1[] = {{"id", 23, -1, 1}, {"s", 25, -1, 0}};
    for (int round = 0; round < 2; round++) {
        stream_start(r, 860, 1);
        relation(r, 508, "t", 'd', 2, v1);
        for (int i = 1; i <= 20; i++) ins(r, 508, i, "abc", NULL, 0xa000 + (uint64_t)i);
        stream_stop(r);
        assert_true(rc_pg_events_spilled_bytes(r->e) > 0);
        assert_int_equal(open_fds(), fds + 1);
        if (round == 0)
            stream_abort(r, 860, 860);
        else
            rc_pg_events_session_reset(r->e);
        assert_int_equal(r->out.count, 0);
        assert_true(rc_pg_events_idle(r->e));
        assert_int_equal(rc_pg_events_held_bytes(r->e), 0);
        assert_int_equal(rc_pg_events_spilled_bytes(r->e), 0);
        assert_int_equal(open_fds(), fds);
        rc_pgo_session_reset(r->d);
        r->stream = 0;
    }
    assert_true(dir_empty(dir));
    r_free(r);
    rmdir(dir);
}

/* A spill directory that does not exist, and a write that fails half-way (the file size limit:
 * "File too large", as a full disk gives "No space left on device"): errors naming the
 * transaction and the directory; the change that failed is not held, the ones before stay,
 * and once the file can grow again the transaction comes out whole. */
static void test_spill_errors(void **state)
{
    (void)state;
    static const pcol v1[] = {{"id", 23, -1, 1}, {"s", 25, -1, 0}};
    run *r = r_new_opts(
        2, (rc_pg_events_opts){.spill_bytes = 64, .spill_dir = "/nonexistent/rowcast-spill"});
    stream_start(r, 870, 1);
    relation(r, 509, "t", 'd', 2, v1);
    rc_error err;
    rc_status st = RC_OK;
    int held = 0;
    for (; held < 20; held++) {
        mb m = head(r, 'I');
        u32(&m, 509);
        u8(&m, 'N');
        static const char *const v[] = {"1", "abcdefgh"};
        tuple(&m, 2, v);
        if ((st = feed(r, &m, 0xb000, &err)) != RC_OK) break;
    }
    assert_int_equal(st, RC_ERR_IO);
    assert_true(held > 0); /* the first ones fit in memory */
    assert_string_equal(err.message, "streamed transaction 870: cannot create its spill file in "
                                     "/nonexistent/rowcast-spill: No such file or directory; set "
                                     "postgres.stream.spill_dir to a writable directory");
    r_free(r);

    char dir[] = "/tmp/rc-test-spill-XXXXXX";
    assert_non_null(mkdtemp(dir));
    r = r_new_opts(2, (rc_pg_events_opts){.spill_bytes = 256, .spill_dir = dir});
    stream_start(r, 871, 1);
    relation(r, 509, "t", 'd', 2, v1);
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 100;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int i = 1;
    char s[16];
    for (; i <= 40; i++) {
        snprintf(s, sizeof s, "r%d", i);
        char idt[16];
        snprintf(idt, sizeof idt, "%d", i);
        const char *v[] = {idt, s};
        mb m = head(r, 'I');
        u32(&m, 509);
        u8(&m, 'N');
        tuple(&m, 2, v);
        if ((st = feed(r, &m, 0xc000 + (uint64_t)i, &err)) != RC_OK) break;
    }
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_int_equal(st, RC_ERR_IO);
    char expect[300];
    snprintf(expect, sizeof expect,
             "streamed transaction 871: writing its spill file in %s failed at byte 100: File "
             "too large; free space there or set postgres.stream.spill_dir to a larger disk",
             dir);
    assert_string_equal(err.message, expect);
    /* row i failed: sent again (as a caller retrying would), it and the rest are held */
    for (; i <= 40; i++) {
        snprintf(s, sizeof s, "r%d", i);
        ins(r, 509, i, s, NULL, 0xc000 + (uint64_t)i);
    }
    stream_stop(r);
    stream_commit(r, 871, 0xd000, 0xd030, T1);
    rc_buf got, want;
    rc_buf_init(&got, 1 << 20);
    rc_buf_init(&want, 1 << 20);
    drain_all(r, 1000, &got);
    expect_tx(&want, "begin", 871, 0xd000, 0, 0);
    for (int k = 1; k <= 40; k++) {
        char line[512];
        snprintf(line, sizeof line,
                 "{\"op\":\"insert\"," SRC ",\"pos\":{\"lsn\":\"0/%X\",\"txid\":\"871\","
                 "\"index\":%d}," TS "," S_COLS ",\"after\":[%d,\"r%d\"]}\n",
                 0xc000 + k, k - 1, k, k);
        rc_buf_puts(&want, line);
    }
    expect_tx(&want, "commit", 871, 0xd000, 0xd030, 40);
    same_text(&got, &want);
    rc_buf_fini(&got);
    rc_buf_fini(&want);
    r_free(r);
    rmdir(dir);
}

/* A held change's value is read at Stream Commit: a bad one fails the drain that reaches it
 * (no offset: the message is named by its LSN), appends nothing, and leaves the transaction
 * pending at the same place; in the first batch, the transaction stays held. */
static void test_stream_value_error(void **state)
{
    (void)state;
    for (int first = 0; first < 2; first++) {
        run *r = r_new_opts(2, (rc_pg_events_opts){.release_events = 3});
        relation(r, 500, "t", 'd', 4, t_cols);
        stream_start(r, 880, 1);
        static const char *const bad[] = {"9", "pen", "1.5x", "d"};
        if (first) change(r, 'I', 500, 0, NULL, bad, 4, 0xe000);
        for (int i = 0; i < 3; i++) change(r, 'I', 500, 0, NULL, row1, 4, 0xe100 + (uint64_t)i);
        change(r, 'I', 500, 0, NULL, bad, 4, 0xe200);
        stream_stop(r);
        mb c = {0};
        u8(&c, 'c');
        u32(&c, 880);
        u8(&c, 0);
        u64(&c, 0xe300);
        u64(&c, 0xe330);
        u64(&c, T1);
        rc_error err;
        const char *why = "column \"price\" (numeric(10,2)): unexpected 'x' at byte 3 of "
                          "\"1.5x\": expected [-]digits[.digits], NaN, Infinity or -Infinity";
        char expect[300];
        snprintf(expect, sizeof expect, "pgoutput Insert of public.t at LSN 0/%s: %s",
                 first ? "E000" : "E200", why);
        if (first) {
            assert_int_equal(feed(r, &c, 0, &err), RC_ERR_VALUE);
            assert_string_equal(err.message, expect);
            assert_int_equal(err.offset, RC_NO_OFFSET);
            assert_int_equal(r->out.count, 0);
            assert_false(rc_pg_events_pending(r->e)); /* held as it was */
            assert_false(rc_pg_events_idle(r->e));
            r_free(r);
            continue;
        }
        assert_int_equal(feed(r, &c, 0, &err), RC_OK);
        assert_int_equal(r->out.count, 3); /* BEGIN and two rows */
        r->out.count = 0;
        for (int again = 0; again < 2; again++) {
            rc_error_clear(&err);
            assert_int_equal(rc_pg_events_drain(r->e, 10, &r->a, &r->out, &err), RC_ERR_VALUE);
            assert_string_equal(err.message, expect);
            assert_int_equal(err.offset, RC_NO_OFFSET);
            assert_int_equal(r->out.count, 0);
            assert_true(rc_pg_events_pending(r->e));
        }
        rc_pg_events_session_reset(r->e);
        assert_true(rc_pg_events_idle(r->e));
        r_free(r);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spill),
        cmocka_unit_test(test_spill_abort),
        cmocka_unit_test(test_spill_errors),
        cmocka_unit_test(test_stream_value_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
