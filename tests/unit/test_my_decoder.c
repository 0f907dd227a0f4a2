/* The MySQL binlog decoder over whole binlog files of other projects' tests (../shared/testdata/
 * peers; skipped by name without it), fed as the file reader and the live stream do, with
 * flipped bytes; crafted events (QUERY status variables, refusals); the CRC32 of the framing.
 * The single events, table maps and GTID sets: test_my_event.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "core/json.h"
#include "core/fmt.h"
#include "sources/mysql/my_decoder.h"
#include "sources/mysql/my_event.h"
#include "sources/mysql/my_gtid.h"
#include "sources/mysql/my_rows.h"
#include "sources/mysql/my_tablemap.h"
#include "my_event_common.h"

/* --- the decoder over whole binlog files --- */

static void put_value(rc_buf *b, const rc_value *v)
{
    switch (v->kind) {
    case RC_V_NULL: rc_buf_puts(b, "NULL"); break;
    case RC_V_UNAVAILABLE: rc_buf_puts(b, "?"); break;
    case RC_V_INT: rc_fmt_i64(b, v->i); break;
    case RC_V_UINT: rc_fmt_u64(b, v->u); break;
    case RC_V_TEXT: case RC_V_BYTES: put_jstr(b, v->s.p, v->s.n); break;
    default: rc_buf_puts(b, rc_vkind_name(v->kind)); break;
    }
}

static void put_image(rc_buf *b, const rc_event *ev, const rc_value *vals)
{
    rc_buf_putc(b, '(');
    for (uint32_t c = 0; c < ev->ncols; c++) {
        if (c) rc_buf_putc(b, ',');
        rc_buf_put(b, ev->cols[c].name.p, ev->cols[c].name.n);
        rc_buf_putc(b, '=');
        put_value(b, &vals[c]);
    }
    rc_buf_putc(b, ')');
}

/* How decode_file hands the events over: as the file reader does (the decoder sums them), as
 * the live stream does (rc_my_decoder_feed_summed with the CRC32 its reader thread computes),
 * or the latter with a sum one off (what a corrupted event looks like to the decoder). */
enum feed_mode { FEED_PLAIN, FEED_SUMMED, FEED_SUM_OFF };

/* Feeds every event of a binlog file to a fresh decoder and writes one line per event made
 * ("insert db.t (a=1,b="x") @OFFSET gtid") and per error; the position at the end. flip: the
 * file's byte at that offset inverted first (0: none). */
/* The peers' binlog file `name` into buf (cap bytes, more than the file); the test is skipped
 * without ../shared. */
static size_t load_peer(const char *name, uint8_t *buf, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s%s", PEERS, name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        print_message("skipped: %s is not here (../shared)\n", path);
        skip();
    }
    size_t n = fread(buf, 1, cap, f);
    fclose(f);
    assert_true(n > 4 && n < cap && !memcmp(buf, "\xfe" "bin", 4));
    return n;
}

/* The size of the event at buf[at..n), 0 when it does not fit. */
static size_t event_size(const uint8_t *buf, size_t n, size_t at)
{
    rc_my_header h;
    size_t size = n - at >= RC_MY_HEADER_LEN && rc_my_header_parse(buf + at, n - at, &h, NULL) == RC_OK ? h.size : 0;
    return size < RC_MY_HEADER_LEN || size > n - at ? 0 : size;
}

/* One line per event of l (see decode_file_as), and the error of the event that made them. */
static void put_events(rc_buf *out, rc_status st, const rc_error *err, const rc_event_list *l)
{
    if (st != RC_OK) {
        rc_buf_puts(out, "error: ");
        rc_buf_puts(out, err->message);
        rc_buf_putc(out, '\n');
    }
    for (size_t i = 0; i < l->count; i++) {
        const rc_event *ev = &l->items[i];
        rc_buf_puts(out, rc_op_name(ev->op));
        if (ev->src.table.n) {
            rc_buf_putc(out, ' ');
            rc_buf_put(out, ev->src.db.p, ev->src.db.n);
            rc_buf_putc(out, '.');
            rc_buf_put(out, ev->src.table.p, ev->src.table.n);
        }
        if (ev->before) put_image(out, ev, ev->before);
        if (ev->after) put_image(out, ev, ev->after);
        rc_buf_puts(out, " @");
        rc_fmt_u64(out, ev->pos.offset);
        if (ev->pos.gtid.n) {
            rc_buf_putc(out, ' ');
            rc_buf_put(out, ev->pos.gtid.p, ev->pos.gtid.n);
        }
        rc_buf_putc(out, '\n');
    }
}

/* A decoder of the peers' dumps: server s1, the statements kept, its first file `file`. */
static rc_my_decoder *peer_decoder(const char *file)
{
    rc_my_decoder_config cfg = {.file = file, .server = RC_STR("s1"), .with_query = true};
    rc_my_decoder *d;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_decoder_new(&cfg, &d, &err), RC_OK);
    return d;
}

/* "at FILE:OFFSET GTIDS" and the NUL that ends the text. */
static void put_position(rc_buf *out, rc_my_decoder *d)
{
    rc_my_decoder_pos p;
    rc_my_decoder_position(d, &p);
    rc_buf_puts(out, "at ");
    rc_buf_puts(out, p.file);
    rc_buf_putc(out, ':');
    rc_fmt_u64(out, p.offset);
    rc_buf_putc(out, ' ');
    rc_my_gtid_set_format(p.gtids, out);
    rc_buf_putc(out, '\n');
    rc_buf_putc(out, 0);
}

static void decode_file_as(const char *name, enum feed_mode mode, size_t flip, rc_buf *out)
{
    static uint8_t buf[1 << 16];
    size_t n = load_peer(name, buf, sizeof buf);
    if (flip) {
        assert_true(flip < n);
        buf[flip] = (uint8_t)~buf[flip];
    }
    rc_my_decoder *d = peer_decoder(strrchr(name, '/') + 1);
    rc_error err;
    rc_error_clear(&err);
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list l = {0};
    for (size_t at = 4; at < n;) {
        size_t size = event_size(buf, n, at);
        if (!size) {
            rc_buf_puts(out, "cut\n");
            break;
        }
        l.count = 0;
        rc_error_clear(&err);
        uint32_t sum = rc_my_crc32(0, buf + at, size - 4) + (mode == FEED_SUM_OFF);
        rc_status st = mode == FEED_PLAIN ? rc_my_decoder_feed(d, buf + at, size, at, &l, &a, &err)
                                          : rc_my_decoder_feed_summed(d, buf + at, size, at, sum, &l, &a, &err);
        put_events(out, st, &err, &l);
        at += size;
    }
    put_position(out, d);
    rc_event_list_fini(&l);
    rc_arena_fini(&a);
    rc_my_decoder_free(d);
    if (flip) buf[flip] = (uint8_t)~buf[flip];
}

static void decode_file(const char *name, rc_buf *out) { decode_file_as(name, FEED_PLAIN, 0, out); }

static void expect_file(const char *name, const char *want)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    decode_file(name, &b);
    if (strcmp(b.data, want)) fail_msg("%s decoded to\n%s\nexpected\n%s", name, b.data, want);
    rc_buf_fini(&b);
}

/* The file decoded as `mode` with byte `flip` inverted is `want`. */
static void expect_file_as(const char *name, enum feed_mode mode, size_t flip, const char *want)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    decode_file_as(name, mode, flip, &b);
    if (strcmp(b.data, want)) fail_msg("%s (mode %d, byte %zu flipped) decoded to\n%s\nexpected\n%s", name, mode, flip, b.data, want);
    rc_buf_fini(&b);
}

/* The live stream's reader thread computes each event's CRC32 (rc_my_decoder_feed_summed): the
 * same events, and for a corrupted event the same message, naming the same offset, as the
 * decoder's own check. */

/* data_80045_gtid's binlog.000002 from the first commit on: what every reading of it ends with */
#define DATA_80045_REST                                                                                               \
    "commit @498 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"                                                           \
    "begin @608 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                                            \
    "delete test.t1(@1=4) @731 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                             \
    "delete test.t1(@1=5) @731 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                             \
    "delete test.t1(@1=6) @731 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                             \
    "commit @793 396e294c-1ca4-11f1-9ae7-00155da79c6b:6\n"                                                           \
    "at binlog.000002:847 396e294c-1ca4-11f1-9ae7-00155da79c6b:1-6\n"

static void test_decoder_summed(void **state)
{
    const char *name = "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000002";
    rc_buf plain;
    rc_buf_init(&plain, 0);
    decode_file_as(name, FEED_PLAIN, 0, &plain);
    expect_file_as(name, FEED_SUMMED, 0, plain.data);
    rc_buf_reset(&plain);
    decode_file_as(name, FEED_PLAIN, 480, &plain); /* a byte of the UPDATE_ROWS at 408 */
    expect_file_as(name, FEED_SUMMED, 480, plain.data);
    rc_buf_fini(&plain);
    expect_file_as(name, FEED_SUMMED, 480,
                   "begin @276 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                   "error: binlog.000002 at offset 408: checksum mismatch in UPDATE_ROWS_EVENT (stored 3cbd79b1, computed 033591e0): "
                   "the event is corrupted\n"
                   DATA_80045_REST);
    /* the decoder compares with the sum it is given, it does not compute its own (the first
     * events; the message of a whole file is longer than cmocka prints) */
    const char *off = "error: binlog.000002 at offset 126: checksum mismatch in PREVIOUS_GTIDS_LOG_EVENT (stored 699caa6f, computed "
                      "699caa70): the event is corrupted\n"
                      "error: binlog.000002 at offset 197: checksum mismatch in GTID_LOG_EVENT (stored 3d2933f2, computed 3d2933f3): "
                      "the event is corrupted\n";
    rc_buf b;
    rc_buf_init(&b, 0);
    decode_file_as(name, FEED_SUM_OFF, 0, &b);
    if (strncmp(b.data, off, strlen(off))) fail_msg("a sum one off decoded to\n%.400s\nexpected it to start with\n%s", b.data, off);
    rc_buf_fini(&b);
}

/* The files of a stream, fed one after the other to one decoder as a server sends them: each
 * event summed by the live stream's own rc_my_event_sum (reader: true) and handed over as
 * my_source.c does (summed or not), or handed over for the decoder to sum (reader: false).
 * Byte `flip` of file `flip_file` is inverted first (flip 0: none). Per file, the events and
 * those summed, each of whose sums is checked against the one the event stores. */
#define STREAM_FILES 3
static void feed_stream(const char *const *names, bool reader, unsigned flip_file, size_t flip, rc_buf *out, size_t *events,
                        size_t *summed)
{
    static uint8_t buf[1 << 16];
    rc_my_decoder *d = peer_decoder("binlog.000001");
    rc_error err;
    rc_error_clear(&err);
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list l = {0};
    bool sums = true; /* the stream's state, as my_stream.c's reader thread starts it */
    for (unsigned fi = 0; fi < STREAM_FILES; fi++) {
        size_t n = load_peer(names[fi], buf, sizeof buf);
        if (flip && fi == flip_file) buf[flip] = (uint8_t)~buf[flip];
        events[fi] = summed[fi] = 0;
        for (size_t at = 4, size; at < n && (size = event_size(buf, n, at)); at += size) {
            l.count = 0;
            rc_error_clear(&err);
            uint32_t sum = 0;
            bool is_summed = reader && rc_my_event_sum(buf + at, size, &sums, &sum);
            events[fi]++;
            if (is_summed) {
                summed[fi]++;
                if (!flip && sum != (uint32_t)rc_my_le(buf + at + size - 4, 4))
                    fail_msg("%s: the event at %zu summed to %08x, it stores %08x", names[fi], at, sum,
                             (uint32_t)rc_my_le(buf + at + size - 4, 4));
            }
            rc_status st = is_summed ? rc_my_decoder_feed_summed(d, buf + at, size, at, sum, &l, &a, &err)
                                     : rc_my_decoder_feed(d, buf + at, size, at, &l, &a, &err);
            put_events(out, st, &err, &l);
        }
    }
    put_position(out, d);
    rc_event_list_fini(&l);
    rc_arena_fini(&a);
    rc_my_decoder_free(d);
}

/* rc_my_event_sum over real dumps as a stream: a file with checksums that ends in a ROTATE,
 * a file whose FORMAT_DESCRIPTION says binlog_checksum=NONE, and a file with checksums again.
 * Every event of the two with checksums is summed (and its sum is the stored one), no event of
 * the other; the events decode as when the decoder sums them; a corrupted byte is reported
 * with the file and the event's offset. */
static void test_reader_sums(void **state)
{
    const char *const names[STREAM_FILES] = {
        "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000001",
        "osheroff__mysql-binlog-connector-java/src/test/resources/mysql-bin.checksum-none",
        "Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000002",
    };
    size_t events[STREAM_FILES], summed[STREAM_FILES], pevents[STREAM_FILES], psummed[STREAM_FILES];
    rc_buf plain, got;
    rc_buf_init(&plain, 0);
    rc_buf_init(&got, 0);
    feed_stream(names, false, 0, 0, &plain, pevents, psummed);
    feed_stream(names, true, 0, 0, &got, events, summed);
    if (strcmp(got.data, plain.data)) fail_msg("summed by the reader decoded to\n%.600s\nexpected\n%.600s", got.data, plain.data);
    for (unsigned fi = 0; fi < STREAM_FILES; fi++) print_message("%s: %zu events, %zu summed\n", strrchr(names[fi], '/') + 1, events[fi], summed[fi]);
    assert_true(events[0] > 10 && events[1] > 10 && events[2] > 10);
    assert_int_equal(summed[0], events[0]);
    assert_int_equal(summed[1], 0);
    assert_int_equal(summed[2], events[2]);
    /* a byte of binlog.000002's UPDATE_ROWS at 408 */
    const char *want = "error: binlog.000002 at offset 408: checksum mismatch in UPDATE_ROWS_EVENT (stored 3cbd79b1, computed "
                       "033591e0): the event is corrupted\n";
    rc_buf_reset(&plain);
    rc_buf_reset(&got);
    feed_stream(names, false, 2, 480, &plain, pevents, psummed);
    feed_stream(names, true, 2, 480, &got, events, summed);
    if (strcmp(got.data, plain.data)) fail_msg("corrupted, summed by the reader decoded to\n%.600s\nexpected\n%.600s", got.data, plain.data);
    if (!strstr(got.data, want)) fail_msg("corrupted, summed by the reader decoded to\n%s\nwithout\n%s", got.data, want);
    rc_buf_fini(&plain);
    rc_buf_fini(&got);
}

static void test_decoder_files(void **state)
{
    /* the statements that made it: INSERT INTO t1 VALUES (1), (1) */
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/bug32407.001",
                "ddl @120\n"
                "begin @233\n"
                "insert test.t1(@1=1) @350\n"
                "insert test.t1(@1=1) @350\n"
                "commit @395\n"
                "at master-bin.000002:4 \n");
    /* ids 1..6 inserted, 1..3 updated to 101..103, 4..6 deleted (in the second file) */
    expect_file("Percona-Lab__percona-binlog-server/mtr/binlog_streaming/std_data/data_80045_gtid.zip-members/data_80045_gtid/binlog.000002",
                "begin @276 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                "update test.t1(@1=1)(@1=101) @408 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                "update test.t1(@1=2)(@1=102) @408 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                "update test.t1(@1=3)(@1=103) @408 396e294c-1ca4-11f1-9ae7-00155da79c6b:5\n"
                DATA_80045_REST);
    /* a relay log (two FDEs, two ROTATEs); the image leaves out the hidden generated column of
     * the functional index (the second) */
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/rpl_unfiltered_hidden_gcol.000001",
                "ddl @448\n"
                "ddl @651\n"
                "begin @849\n"
                "insert test.t(@1=1,@2=?,@3=\"1\") @979\n"
                "commit @1022\n"
                "at master-bin.000001:1076 \n");
    /* the GTID sets of PREVIOUS_GTIDS, untagged [1, 3) and tagged (mytag [1, 3) beside [1, 14)),
     * with the tagged transaction mytag:3 added at its commit */
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/binlog_transaction_previous_GTID_no_tag.000001",
                "at binlog.000008:4 b9b88c66-0755-11f1-9899-4a9da94c4d71:1-2\n");
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/binlog_transaction_with_GTID_TAG.000001",
                "begin @328 55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:3\n"
                "insert test.orders(@1=3,@2=100,@3=decimal) @461 55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:3\n"
                "commit @510 55778904-0299-11f1-b1b8-4ef0c4956feb:mytag:3\n"
                "at binlog.000005:4 55778904-0299-11f1-b1b8-4ef0c4956feb:1-13:mytag:1-3\n");
    /* a compressed transaction: QUERY, TABLE_MAP, WRITE_ROWS, XID inside one event */
    expect_file("blackbeam__rust_mysql_common/test-data/binlogs/transaction_compression.000001",
                "begin @274\n"
                "insert test.tb1(@1=1) @274\n"
                "commit @274\n"
                "at binlog.000043:4 357df524-4139-11ee-9979-b033ee13919e:1\n");
}

/* --- crafted events: QUERY status variables, refusals --- */

/* One event of type `type` with body b[0..n) at `at` into d, with a CRC32 when `crc`: the
 * decoder's error message ("" when none) and the events made into l. */
static rc_status feed_body(rc_my_decoder *d, uint8_t type, uint16_t flags, const uint8_t *b, size_t n, uint64_t at, bool crc,
                           rc_event_list *l, rc_arena *a, char *msg, size_t msgn)
{
    uint8_t ev[1024];
    size_t size = RC_MY_HEADER_LEN + n + (crc ? 4 : 0);
    assert_true(size <= sizeof ev);
    memset(ev, 0, RC_MY_HEADER_LEN);
    ev[4] = type;
    ev[5] = 9;
    for (int k = 0; k < 4; k++) ev[9 + k] = (uint8_t)(size >> (8 * k)), ev[13 + k] = (uint8_t)((at + size) >> (8 * k));
    ev[17] = (uint8_t)flags, ev[18] = (uint8_t)(flags >> 8);
    memcpy(ev + RC_MY_HEADER_LEN, b, n);
    if (crc) {
        uint32_t c = rc_my_crc32(0, ev, size - 4);
        for (int k = 0; k < 4; k++) ev[size - 4 + k] = (uint8_t)(c >> (8 * k));
    }
    rc_error err;
    rc_error_clear(&err);
    l->count = 0;
    rc_status st = rc_my_decoder_feed(d, ev, size, at, l, a, &err);
    snprintf(msg, msgn, "%s", st == RC_OK ? "" : err.message);
    return st;
}

static void test_query_status_vars(void **state)
{
    /* thread 7, exec 0, db "shop" (4), error 0, status variables: FLAGS2, SQL_MODE, CATALOG_NZ,
     * CHARSET, TIME_ZONE "+02:00", INVOKER, UPDATED_DB_NAMES (1: "shop"), MariaDB's XID; then the
     * db with its NUL and the statement */
    static const uint8_t sv[] = {0x00, 0, 0, 0, 0,                         /* FLAGS2 */
                                 0x01, 0x22, 0, 0, 0x40, 0, 0, 0, 0,          /* SQL_MODE */
                                 0x06, 3, 's', 't', 'd',                      /* CATALOG_NZ */
                                 0x04, 0x21, 0, 0xe0, 0, 0x2d, 0,             /* CHARSET 33, 224, 45 */
                                 0x05, 6, '+', '0', '2', ':', '0', '0',       /* TIME_ZONE */
                                 0x0b, 4, 'r', 'o', 'o', 't', 9, 'l', 'o', 'c', 'a', 'l', 'h', 'o', 's', 't', /* INVOKER */
                                 0x0c, 1, 's', 'h', 'o', 'p', 0,              /* UPDATED_DB_NAMES */
                                 0x81, 1, 2, 3, 4, 5, 6, 7, 8};               /* MariaDB XID */
    uint8_t b[256];
    size_t n = 0;
    b[n++] = 7, b[n++] = 0, b[n++] = 0, b[n++] = 0;
    memset(b + n, 0, 4), n += 4;
    b[n++] = 4;
    b[n++] = 0, b[n++] = 0;
    b[n++] = sizeof sv, b[n++] = 0;
    memcpy(b + n, sv, sizeof sv), n += sizeof sv;
    memcpy(b + n, "shop", 5), n += 5;
    const char *sql = "ALTER TABLE t ADD c INT";
    memcpy(b + n, sql, strlen(sql)), n += strlen(sql);
    rc_my_fde f;
    rc_my_fde_default(&f);
    rc_my_query q;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_query_parse(&f, b, n, &q, &err), RC_OK);
    assert_int_equal(q.thread_id, 7);
    assert_true(q.has_sql_mode && q.sql_mode == 0x40000022ull);
    assert_true(q.has_charset && q.charset_client == 33 && q.collation_connection == 224 && q.collation_server == 45);
    assert_int_equal(q.time_zone.n, 6);
    assert_memory_equal(q.time_zone.p, "+02:00", 6);
    assert_int_equal(q.db.n, 4);
    assert_memory_equal(q.db.p, "shop", 4);
    assert_int_equal(q.sql.n, strlen(sql));
    assert_memory_equal(q.sql.p, sql, strlen(sql));
    /* status variables that run past their block */
    b[11] = 3;
    assert_int_equal(rc_my_query_parse(&f, b, n, &q, &err), RC_ERR_VALUE);
    assert_string_equal(err.message, "QUERY_EVENT status variables truncated at byte 16 of its body");
}

/* A new decoder of the binlog file `file`. */
static rc_my_decoder *decoder_on(const char *file)
{
    rc_my_decoder_config cfg = {.file = file};
    rc_my_decoder *d = NULL;
    assert_int_equal(rc_my_decoder_new(&cfg, &d, NULL), RC_OK);
    return d;
}

/* A FORMAT_DESCRIPTION body (a v4 binlog of 8.0.32), its checksum algorithm `alg` (1 CRC32);
 * fde has 128 bytes. */
static size_t fde_body(uint8_t *fde, uint8_t alg)
{
    memset(fde, 0, 128);
    size_t fn = 0;
    fde[fn++] = 4, fde[fn++] = 0;
    memcpy(fde + fn, "8.0.32", 6), fn += 50 + 4;
    fde[fn++] = RC_MY_HEADER_LEN;
    fde[fn++] = 0x38, fde[fn++] = 0x0d; /* START_V3, QUERY: 13 */
    memset(fde + fn, 0, 38), fn += 38;
    fde[fn++] = alg;
    return fn;
}

/* A dump started inside a file: the server's artificial ROTATE names the start, then the file's
 * FORMAT_DESCRIPTION comes with log_pos 0 (the stream feeds it at offset 0): the position stays
 * at the start (it went back to the FORMAT_DESCRIPTION's size, and an incremental snapshot's
 * chunk then waited for the next event or heartbeat to pass its point: about a second). */
static void test_dump_start(void **state)
{
    (void)state;
    rc_my_decoder *d = decoder_on("bin.000001");
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list l = {0};
    char msg[600];
    uint8_t rot[32] = {0xe5, 0x4e, 0x5f, 0x01}; /* 23023333 */
    memcpy(rot + 8, "bin.000001", 10);
    assert_int_equal(feed_body(d, RC_MYEV_ROTATE, 0x20 /* LOG_EVENT_ARTIFICIAL_F */, rot, 18, 0, false, &l, &a, msg, sizeof msg), RC_OK);
    uint8_t fde[128];
    size_t fn = fde_body(fde, 0);
    assert_int_equal(feed_body(d, RC_MYEV_FORMAT_DESCRIPTION, 0, fde, fn, 0, false, &l, &a, msg, sizeof msg), RC_OK);
    rc_my_decoder_pos p;
    rc_my_decoder_position(d, &p);
    assert_string_equal(p.file, "bin.000001");
    assert_int_equal(p.offset, 23023333);
    static const uint8_t x[] = {1, 2, 3}; /* the next event, at the start: it moves the position */
    assert_int_equal(feed_body(d, 200, RC_MY_LOG_EVENT_IGNORABLE_F, x, 3, 23023333, false, &l, &a, msg, sizeof msg), RC_OK);
    rc_my_decoder_position(d, &p);
    assert_int_equal(p.offset, 23023333 + RC_MY_HEADER_LEN + 3);
    rc_event_list_fini(&l);
    rc_arena_fini(&a);
    rc_my_decoder_free(d);
}

static void test_refusals(void **state)
{
    rc_my_decoder *d = decoder_on("bin.000007");
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list l = {0};
    char msg[600];
    /* an event type of a newer server: refused, unless it says a reader may skip it */
    static const uint8_t x[] = {1, 2, 3};
    assert_int_equal(feed_body(d, 200, 0, x, 3, 120, false, &l, &a, msg, sizeof msg), RC_ERR_UNSUPPORTED);
    assert_string_equal(msg, "bin.000007 at offset 120: event type 200 is not known and not marked ignorable "
                             "(LOG_EVENT_IGNORABLE_F): a newer server's event?");
    assert_int_equal(feed_body(d, 200, RC_MY_LOG_EVENT_IGNORABLE_F, x, 3, 142, false, &l, &a, msg, sizeof msg), RC_OK);
    /* INCIDENT: lost events */
    static const uint8_t inc[] = {1, 0, 11, 'L', 'O', 'S', 'T', '_', 'E', 'V', 'E', 'N', 'T', 'S'};
    assert_int_equal(feed_body(d, RC_MYEV_INCIDENT, 0, inc, sizeof inc, 164, false, &l, &a, msg, sizeof msg), RC_ERR_VALUE);
    assert_string_equal(msg, "bin.000007 at offset 164: INCIDENT_EVENT 1 (LOST_EVENTS): the server lost events here; what "
                             "follows cannot be trusted to be complete (resynchronise the target)");
    /* a rows event of a table no TABLE_MAP named */
    static const uint8_t rows[] = {42, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 5, 0, 0, 0};
    assert_int_equal(feed_body(d, RC_MYEV_WRITE_ROWS_V1, 0, rows, sizeof rows, 200, false, &l, &a, msg, sizeof msg), RC_ERR_SCHEMA);
    assert_string_equal(msg, "bin.000007 at offset 200: WRITE_ROWS_EVENT_V1 for table id 42, which no TABLE_MAP_EVENT before it "
                             "maps (a file read from the middle of a transaction?)");
    /* statement-based DML in a QUERY */
    uint8_t q[64] = {7, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 's', 0};
    const char *sql = "/* app */ INSERT INTO t VALUES (1)";
    memcpy(q + 15, sql, strlen(sql));
    assert_int_equal(feed_body(d, RC_MYEV_QUERY, 0, q, 15 + strlen(sql), 240, false, &l, &a, msg, sizeof msg), RC_ERR_UNSUPPORTED);
    assert_string_equal(msg, "bin.000007 at offset 240: statement-based INSERT (INSERT INTO t VALUES (1)) cannot be captured: its "
                             "rows are not in the binlog; set binlog_format=ROW on the server (--on-error=skip goes on past the "
                             "statement: its rows are then missing from the output, the statement counted bad)");
    /* with CRC32 (a FORMAT_DESCRIPTION asking for it), a flipped byte */
    uint8_t fde[128];
    size_t fn = fde_body(fde, 1);
    assert_int_equal(feed_body(d, RC_MYEV_FORMAT_DESCRIPTION, 0, fde, fn, 4, true, &l, &a, msg, sizeof msg), RC_OK);
    assert_int_equal(feed_body(d, 200, RC_MY_LOG_EVENT_IGNORABLE_F, x, 3, 300, true, &l, &a, msg, sizeof msg), RC_OK);
    rc_my_decoder_pos p;
    rc_my_decoder_position(d, &p);
    assert_string_equal(p.file, "bin.000007");
    assert_int_equal(p.offset, 300 + RC_MY_HEADER_LEN + 3 + 4);
    assert_false(p.in_transaction);
    rc_event_list_fini(&l);
    rc_arena_fini(&a);
    rc_my_decoder_free(d);
}

/* --- framing: CRC32 --- */

static void test_crc32(void **state)
{
    (void)state;
    /* the check value of CRC-32/ISO-HDLC (zlib's crc32) */
    assert_int_equal(rc_my_crc32(0, (const uint8_t *)"123456789", 9), 0xCBF43926u);
    assert_int_equal(rc_my_crc32(0, (const uint8_t *)"", 0), 0);
    /* folded 16 bytes at a time (64 bytes and more, where the CPU multiplies without carries),
     * eight at a time, then the rest: = the bitwise definition for every prefix of 1,000 bytes,
     * and the same in two pieces at every cut */
    uint8_t b[1000];
    for (size_t i = 0; i < sizeof b; i++) b[i] = (uint8_t)(i * 131 + 7);
    uint32_t bitwise = ~0u;
    for (size_t i = 0; i < sizeof b; i++) {
        if (rc_my_crc32(0, b, i) != ~bitwise)
            fail_msg("the CRC32 of the first %zu bytes is %08x, not %08x", i, rc_my_crc32(0, b, i), ~bitwise);
        bitwise ^= b[i];
        for (int k = 0; k < 8; k++) bitwise = bitwise & 1 ? 0xEDB88320u ^ (bitwise >> 1) : bitwise >> 1;
    }
    uint32_t whole = rc_my_crc32(0, b, sizeof b);
    assert_int_equal(whole, ~bitwise);
    for (size_t cut = 0; cut <= sizeof b; cut++) assert_int_equal(rc_my_crc32(rc_my_crc32(0, b, cut), b + cut, sizeof b - cut), whole);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32),
        cmocka_unit_test(test_decoder_files),
        cmocka_unit_test(test_decoder_summed),
        cmocka_unit_test(test_reader_sums),
        cmocka_unit_test(test_query_status_vars),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_dump_start),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
