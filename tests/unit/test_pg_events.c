/* pg_events: pgoutput message sequences built byte by byte, decoded by pgoutput.c, turned
 * into events and written with the native encoder, compared with the expected lines byte for
 * byte: a transaction of every row message, key-only and full before images, unchanged TOAST
 * with default and FULL identity, ALTER TABLE mid-stream (events of both versions held
 * together), protocol 2 streaming with subtransaction abort, whole abort, interleaving and
 * the memory cap, value errors; RC_V_UNAVAILABLE through the native reader and the encoders.
 * Spilling: held changes past a tiny threshold in files of a temporary directory, released in
 * drained batches; a whole abort leaves no file; a spill directory that does not exist and a
 * write that fails (RLIMIT_FSIZE) are errors with their exact text, and nothing is lost. */
#include <dirent.h>
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"
#include "rowcast/buf.h"
#include "sources/pg/pg_events.h"

/* ---- building messages (the layouts of "Logical Replication Message Formats") ---- */

typedef struct mb {
    uint8_t b[1024];
    size_t n;
} mb;

static void put(mb *m, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--) m->b[m->n++] = (uint8_t)(v >> (8 * i));
}
static void u8(mb *m, unsigned v)
{
    put(m, v, 1);
}
static void u16(mb *m, unsigned v)
{
    put(m, v, 2);
}
static void u32(mb *m, uint32_t v)
{
    put(m, v, 4);
}
static void u64(mb *m, uint64_t v)
{
    put(m, v, 8);
}
static void str(mb *m, const char *s)
{
    memcpy(m->b + m->n, s, strlen(s) + 1);
    m->n += strlen(s) + 1;
}
/* a tuple: "n" null, "u" unchanged, anything else a text value */
static void tuple(mb *m, int n, const char *const *vals)
{
    u16(m, (unsigned)n);
    for (int i = 0; i < n; i++) {
        if (!strcmp(vals[i], "n") || !strcmp(vals[i], "u")) {
            u8(m, (uint8_t)vals[i][0]);
            continue;
        }
        u8(m, 't');
        u32(m, (uint32_t)strlen(vals[i]));
        memcpy(m->b + m->n, vals[i], strlen(vals[i]));
        m->n += strlen(vals[i]);
    }
}

typedef struct run {
    rc_pgo_decoder *d;
    rc_pg_events *e;
    rc_arena a;
    rc_event_list out;
    uint32_t stream; /* xid sent before each message of a stream chunk (0: none) */
} run;

/* o: the options but server and db (pg1, shop) */
static run *r_new_opts(int proto, rc_pg_events_opts o)
{
    run *r = calloc(1, sizeof *r);
    r->d = rc_pgo_new(proto);
    o.server = "pg1", o.db = "shop";
    r->e = rc_pg_events_new(&o, NULL);
    assert_non_null(r->d);
    assert_non_null(r->e);
    rc_arena_init(&r->a);
    return r;
}

static run *r_new(int proto, size_t max_bytes)
{
    return r_new_opts(proto, (rc_pg_events_opts){.stream_max_bytes = max_bytes});
}

static void r_free(run *r)
{
    rc_event_list_fini(&r->out);
    rc_pg_events_free(r->e);
    rc_pgo_free(r->d);
    rc_arena_fini(&r->a);
    free(r);
}

/* Decodes m (its XLogData start `lsn`) and adds its events; returns the status, err filled. */
static rc_status feed(run *r, mb *m, uint64_t lsn, rc_error *err)
{
    rc_pgo_msg msg;
    rc_error_clear(err);
    rc_status st = rc_pgo_decode(r->d, m->b, m->n, lsn, &r->a, &msg, err);
    if (st != RC_OK) fail_msg("pgoutput: %s", err->message);
    return rc_pg_events_add(r->e, &msg, m->b, m->n, &r->a, &r->out, err);
}

static void ok(run *r, mb *m, uint64_t lsn)
{
    rc_error err;
    if (feed(r, m, lsn, &err) != RC_OK) fail_msg("events: %s", err.message);
}

/* the message head: the type byte, and the stream's xid inside a chunk */
static mb head(run *r, char kind)
{
    mb m = {0};
    u8(&m, (uint8_t)kind);
    if (r->stream) u32(&m, r->stream);
    return m;
}

typedef struct pcol {
    const char *name;
    uint32_t oid;
    int32_t typmod;
    int key;
} pcol;

static void relation(run *r, uint32_t oid, const char *table, char ident, int n, const pcol *cols)
{
    mb m = head(r, 'R');
    u32(&m, oid);
    str(&m, "public");
    str(&m, table);
    u8(&m, (uint8_t)ident);
    u16(&m, (unsigned)n);
    for (int i = 0; i < n; i++) {
        u8(&m, (unsigned)cols[i].key);
        str(&m, cols[i].name);
        u32(&m, cols[i].oid);
        u32(&m, (uint32_t)cols[i].typmod);
    }
    ok(r, &m, 0);
}

static void begin(run *r, uint64_t final_lsn, int64_t t, uint32_t xid)
{
    mb m = {0};
    u8(&m, 'B');
    u64(&m, final_lsn);
    u64(&m, (uint64_t)t);
    u32(&m, xid);
    ok(r, &m, 0);
}

static void commit(run *r, uint64_t lsn, uint64_t end, int64_t t)
{
    mb m = {0};
    u8(&m, 'C');
    u8(&m, 0);
    u64(&m, lsn);
    u64(&m, end);
    u64(&m, (uint64_t)t);
    ok(r, &m, lsn);
}

/* Insert ('I'), Update ('U', old kind 'K', 'O' or 0) or Delete ('D') */
static void change(run *r, char kind, uint32_t oid, char old_kind, const char *const *old,
                   const char *const *new_, int n, uint64_t lsn)
{
    mb m = head(r, kind);
    u32(&m, oid);
    if (old_kind) {
        u8(&m, (uint8_t)old_kind);
        tuple(&m, n, old);
    }
    if (kind != 'D') {
        u8(&m, 'N');
        tuple(&m, n, new_);
    }
    ok(r, &m, lsn);
}

static void stream_start(run *r, uint32_t xid, int first)
{
    mb m = {0};
    u8(&m, 'S');
    u32(&m, xid);
    u8(&m, (unsigned)first);
    r->stream = 0;
    ok(r, &m, 0);
    r->stream = xid;
}

static void stream_stop(run *r)
{
    mb m = {0};
    u8(&m, 'E');
    ok(r, &m, 0);
    r->stream = 0;
}

/* All events so far as native lines, each followed by '\n'; the list is emptied. */
static char *render(run *r)
{
    rc_buf b;
    rc_buf_init(&b, 1 << 20);
    for (size_t i = 0; i < r->out.count; i++) {
        rc_error err;
        rc_error_clear(&err);
        if (rc_native_encode(NULL, &r->out.items[i], &b, &err) != RC_OK)
            fail_msg("native: %s", err.message);
        rc_buf_putc(&b, '\n');
    }
    rc_buf_putc(&b, 0);
    r->out.count = 0;
    char *s = strdup(b.data);
    rc_buf_fini(&b);
    return s;
}

static void lines_are(run *r, const char *expect)
{
    char *got = render(r);
    if (strcmp(got, expect)) {
        print_error("got:\n%s\nexpected:\n%s\n", got, expect);
        free(got);
        fail();
    }
    free(got);
}

/* public.t: id int4 key, name text, price numeric(10,2), doc text (the TOASTed one) */
static const pcol t_cols[] = {{"id", 23, -1, 1},
                              {"name", 25, -1, 0},
                              {"price", 1700, (10 << 16 | 2) + 4, 0},
                              {"doc", 25, -1, 0}};
#define T_COLS                                                                                     \
    "\"columns\":[{\"name\":\"id\",\"type\":\"integer\",\"pk\":true},{\"name\":\"name\",\"type\":" \
    "\"text\",\"nullable\":true},"                                                                 \
    "{\"name\":\"price\",\"type\":\"numeric(10,2)\",\"nullable\":true},{\"name\":\"doc\","         \
    "\"type\":\"text\",\"nullable\":true}]"
#define SRC                                                                                        \
    "\"source\":{\"kind\":\"postgresql\",\"server\":\"pg1\",\"db\":\"shop\",\"schema\":"           \
    "\"public\",\"table\":\"t\"}"
#define TXSRC "\"source\":{\"kind\":\"postgresql\",\"server\":\"pg1\",\"db\":\"shop\"}"
/* commit time 1 s after 2000-01-01 */
#define T1 1000000
#define TS "\"ts_us\":946684801000000"

static const char *const row1[] = {"1", "pen", "1.50", "long text"};

static void test_transaction(void **state)
{
    (void)state;
    run *r = r_new(1, 0);
    relation(r, 500, "t", 'd', 4, t_cols);
    begin(r, 0x1000, T1, 700);
    change(r, 'I', 500, 0, NULL, row1, 4, 0x100);
    static const char *const up[] = {"1", "ink", "2.00", "u"}; /* doc unchanged, not sent */
    change(r, 'U', 500, 0, NULL, up, 4, 0x200);
    static const char *const key1[] = {"1", "n", "n", "n"}, *const moved[] = {"2", "ink", "2.00",
                                                                              "u"};
    change(r, 'U', 500, 'K', key1, moved, 4, 0x300);
    static const char *const key2[] = {"2", "n", "n", "n"};
    change(r, 'D', 500, 'K', key2, NULL, 4, 0x400);
    mb m = {0};
    u8(&m, 'T');
    u32(&m, 1);
    u8(&m, 0);
    u32(&m, 500);
    ok(r, &m, 0x500);
    commit(r, 0x1000, 0x1030, T1);
    assert_true(rc_pg_events_idle(r->e));
    lines_are(
        r,
        "{\"op\":\"begin\"," TXSRC ",\"pos\":{\"lsn\":\"0/1000\",\"txid\":\"700\"}," TS "}\n"
        "{\"op\":\"insert\"," SRC ",\"pos\":{\"lsn\":\"0/100\",\"txid\":\"700\",\"index\":0}," TS
        "," T_COLS ",\"after\":[1,\"pen\",\"1.50\",\"long text\"]}\n"
        "{\"op\":\"update\"," SRC ",\"pos\":{\"lsn\":\"0/200\",\"txid\":\"700\",\"index\":1}," TS
        "," T_COLS ",\"after\":[1,\"ink\",\"2.00\",{\"unavailable\":true}]}\n"
        "{\"op\":\"update\"," SRC ",\"pos\":{\"lsn\":\"0/300\",\"txid\":\"700\",\"index\":2}," TS
        "," T_COLS ",\"before\":[1,null,null,null],\"before_key_only\":true,\"after\":[2,\"ink\","
                   "\"2.00\",{\"unavailable\":true}]}\n"
        "{\"op\":\"delete\"," SRC ",\"pos\":{\"lsn\":\"0/400\",\"txid\":\"700\",\"index\":3}," TS
        "," T_COLS ",\"before\":[2,null,null,null],\"before_key_only\":true}\n"
        "{\"op\":\"truncate\"," SRC ",\"pos\":{\"lsn\":\"0/500\",\"txid\":\"700\",\"index\":4}," TS
        "," T_COLS "}\n"
        "{\"op\":\"commit\"," TXSRC
        ",\"pos\":{\"lsn\":\"0/1000\",\"txid\":\"700\",\"checkpoint\":\"0/1030\",\"count\":5}," TS
        "}\n");
    r_free(r);
}

/* REPLICA IDENTITY FULL: every column flagged, so no key; the unchanged doc comes from the old row
 */
static void test_full_identity(void **state)
{
    (void)state;
    run *r = r_new(1, 0);
    static const pcol full[] = {{"id", 23, -1, 1},
                                {"name", 25, -1, 1},
                                {"price", 1700, (10 << 16 | 2) + 4, 1},
                                {"doc", 25, -1, 1}};
    relation(r, 501, "t", 'f', 4, full);
    begin(r, 0x2000, T1, 701);
    static const char *const up[] = {"1", "ink", "1.50", "u"};
    change(r, 'U', 501, 'O', row1, up, 4, 0x1100);
    change(r, 'D', 501, 'O', row1, NULL, 4, 0x1200);
    commit(r, 0x2000, 0x2030, T1);
#define F_COLS                                                                                     \
    "\"columns\":[{\"name\":\"id\",\"type\":\"integer\",\"nullable\":true},{\"name\":\"name\","    \
    "\"type\":\"text\",\"nullable\":true},"                                                        \
    "{\"name\":\"price\",\"type\":\"numeric(10,2)\",\"nullable\":true},{\"name\":\"doc\","         \
    "\"type\":\"text\",\"nullable\":true}]"
    lines_are(
        r,
        "{\"op\":\"begin\"," TXSRC ",\"pos\":{\"lsn\":\"0/2000\",\"txid\":\"701\"}," TS "}\n"
        "{\"op\":\"update\"," SRC ",\"pos\":{\"lsn\":\"0/1100\",\"txid\":\"701\",\"index\":0}," TS
        "," F_COLS ",\"before\":[1,\"pen\",\"1.50\",\"long "
                   "text\"],\"after\":[1,\"ink\",\"1.50\",\"long text\"]}\n"
        "{\"op\":\"delete\"," SRC ",\"pos\":{\"lsn\":\"0/1200\",\"txid\":\"701\",\"index\":1}," TS
        "," F_COLS ",\"before\":[1,\"pen\",\"1.50\",\"long text\"]}\n"
        "{\"op\":\"commit\"," TXSRC
        ",\"pos\":{\"lsn\":\"0/2000\",\"txid\":\"701\",\"checkpoint\":\"0/2030\",\"count\":2}," TS
        "}\n");
    r_free(r);
}

/* ALTER TABLE between two inserts: the first event keeps the old column list (rendered after
 * the new version is installed), the second has the new one. */
static void test_alter_table(void **state)
{
    (void)state;
    run *r = r_new(1, 0);
    static const pcol v1[] = {{"id", 23, -1, 1}, {"qty", 23, -1, 0}};
    static const pcol v2[] = {{"id", 23, -1, 1}, {"qty", 20, -1, 0}, {"note", 1043, 14, 0}};
    relation(r, 502, "t", 'd', 2, v1);
    begin(r, 0x3000, T1, 702);
    static const char *const a1[] = {"1", "5"}, *const a2[] = {"2", "9000000000", "hi"};
    change(r, 'I', 502, 0, NULL, a1, 2, 0x2100);
    relation(r, 502, "t", 'd', 3, v2);
    change(r, 'I', 502, 0, NULL, a2, 3, 0x2200);
    commit(r, 0x3000, 0x3030, T1);
    lines_are(
        r,
        "{\"op\":\"begin\"," TXSRC ",\"pos\":{\"lsn\":\"0/3000\",\"txid\":\"702\"}," TS "}\n"
        "{\"op\":\"insert\"," SRC ",\"pos\":{\"lsn\":\"0/2100\",\"txid\":\"702\",\"index\":0}," TS
        ",\"columns\":[{\"name\":\"id\",\"type\":\"integer\",\"pk\":true},{\"name\":\"qty\","
        "\"type\":\"integer\",\"nullable\":true}]"
        ",\"after\":[1,5]}\n"
        "{\"op\":\"insert\"," SRC ",\"pos\":{\"lsn\":\"0/2200\",\"txid\":\"702\",\"index\":1}," TS
        ",\"columns\":[{\"name\":\"id\",\"type\":\"integer\",\"pk\":true},{\"name\":\"qty\","
        "\"type\":\"bigint\",\"nullable\":true},"
        "{\"name\":\"note\",\"type\":\"character "
        "varying(10)\",\"nullable\":true}],\"after\":[2,9000000000,\"hi\"]}\n"
        "{\"op\":\"commit\"," TXSRC
        ",\"pos\":{\"lsn\":\"0/3000\",\"txid\":\"702\",\"checkpoint\":\"0/3030\",\"count\":2}," TS
        "}\n");
    r_free(r);
}

static void stream_commit(run *r, uint32_t xid, uint64_t lsn, uint64_t end, int64_t t)
{
    mb m = {0};
    u8(&m, 'c');
    u32(&m, xid);
    u8(&m, 0);
    u64(&m, lsn);
    u64(&m, end);
    u64(&m, (uint64_t)t);
    ok(r, &m, 0);
}

static void stream_abort(run *r, uint32_t xid, uint32_t subxid)
{
    mb m = {0};
    u8(&m, 'A');
    u32(&m, xid);
    u32(&m, subxid);
    ok(r, &m, 0);
}

/* Protocol 2: two chunks of 800 (one of its subtransactions aborted), a plain transaction and
 * a whole streamed transaction aborted in between; only 800's surviving changes come out, at
 * its Stream Commit, in order. */
static void test_streaming(void **state)
{
    (void)state;
    run *r = r_new(2, 0);
    static const pcol c[] = {{"id", 23, -1, 1}, {"s", 25, -1, 0}};
    static const char *const i1[] = {"1", "a"}, *const i2[] = {"2", "sub"},
                             *const i3[] = {"3", "c"}, *const i9[] = {"9", "gone"};
    stream_start(r, 800, 1);
    relation(r, 503, "t", 'd', 2, c);
    change(r, 'I', 503, 0, NULL, i1, 2, 0x4100);
    r->stream = 801; /* a subtransaction's change */
    change(r, 'I', 503, 0, NULL, i2, 2, 0x4200);
    r->stream = 800;
    stream_stop(r);
    assert_int_equal(r->out.count, 0);
    assert_false(rc_pg_events_idle(r->e));
    stream_start(r, 900, 1);
    change(r, 'I', 503, 0, NULL, i9, 2, 0x4300);
    stream_stop(r);
    begin(r, 0x4400, T1, 850);
    change(r, 'I', 503, 0, NULL, i9, 2, 0x4350);
    commit(r, 0x4400, 0x4430, T1);
    stream_start(r, 800, 0);
    change(r, 'I', 503, 0, NULL, i3, 2, 0x4500);
    stream_stop(r);
    stream_abort(r, 900, 900);
    stream_abort(r, 800, 801);
    assert_true(rc_pg_events_held_bytes(r->e) > 0);
    stream_commit(r, 800, 0x4600, 0x4630, T1);
    assert_true(rc_pg_events_idle(r->e));
    assert_int_equal(rc_pg_events_held_bytes(r->e), 0);
#define S_COLS                                                                                     \
    "\"columns\":[{\"name\":\"id\",\"type\":\"integer\",\"pk\":true},{\"name\":\"s\",\"type\":"    \
    "\"text\",\"nullable\":true}]"
    lines_are(
        r,
        "{\"op\":\"begin\"," TXSRC ",\"pos\":{\"lsn\":\"0/4400\",\"txid\":\"850\"}," TS "}\n"
        "{\"op\":\"insert\"," SRC ",\"pos\":{\"lsn\":\"0/4350\",\"txid\":\"850\",\"index\":0}," TS
        "," S_COLS ",\"after\":[9,\"gone\"]}\n"
        "{\"op\":\"commit\"," TXSRC
        ",\"pos\":{\"lsn\":\"0/4400\",\"txid\":\"850\",\"checkpoint\":\"0/4430\",\"count\":1}," TS
        "}\n"
        "{\"op\":\"begin\"," TXSRC ",\"pos\":{\"lsn\":\"0/4600\",\"txid\":\"800\"}," TS "}\n"
        "{\"op\":\"insert\"," SRC ",\"pos\":{\"lsn\":\"0/4100\",\"txid\":\"800\",\"index\":0,\"last_commit_lsn\":\"0/4400\"}," TS
        "," S_COLS ",\"after\":[1,\"a\"]}\n"
        "{\"op\":\"insert\"," SRC ",\"pos\":{\"lsn\":\"0/4500\",\"txid\":\"800\",\"index\":1,\"last_commit_lsn\":\"0/4400\"}," TS
        "," S_COLS ",\"after\":[3,\"c\"]}\n"
        "{\"op\":\"commit\"," TXSRC
        ",\"pos\":{\"lsn\":\"0/4600\",\"txid\":\"800\",\"checkpoint\":\"0/4630\",\"count\":2}," TS
        "}\n");
    /* a reconnect drops what is held: the server sends it again */
    stream_start(r, 810, 1);
    change(r, 'I', 503, 0, NULL, i1, 2, 0x4700);
    stream_stop(r);
    rc_pg_events_session_reset(r->e);
    assert_true(rc_pg_events_idle(r->e));
    assert_int_equal(rc_pg_events_held_bytes(r->e), 0);
    r_free(r);
}

static void test_stream_cap(void **state)
{
    (void)state;
    run *r = r_new(2, 600);
    static const pcol c[] = {{"id", 23, -1, 1}, {"s", 25, -1, 0}};
    static const char *const i1[] = {"1", "a"};
    stream_start(r, 820, 1);
    relation(r, 504, "t", 'd', 2, c);
    rc_error err;
    rc_status st = RC_OK;
    int n = 0;
    while (st == RC_OK && n < 100) {
        mb m = head(r, 'I');
        u32(&m, 504);
        u8(&m, 'N');
        tuple(&m, 2, i1);
        st = feed(r, &m, 0x5000, &err);
        n++;
    }
    assert_int_equal(st, RC_ERR_LIMIT);
    assert_true(n > 1);
    assert_string_equal(err.message, "streamed transaction 820: its held changes pass 600 bytes "
                                     "(postgres.stream.max_bytes); raise "
                                     "it, or capture with protocol version 1 (the server then "
                                     "keeps large transactions on its own "
                                     "disk until they commit)");
    r_free(r);
}

static void test_value_error(void **state)
{
    (void)state;
    run *r = r_new(1, 0);
    relation(r, 500, "t", 'd', 4, t_cols);
    begin(r, 0x6000, T1, 703);
    static const char *const bad[] = {"1", "pen", "1.5x", "d"};
    mb m = head(r, 'I');
    u32(&m, 500);
    u8(&m, 'N');
    tuple(&m, 4, bad);
    rc_error err;
    assert_int_equal(feed(r, &m, 0x6100, &err), RC_ERR_VALUE);
    assert_string_equal(
        err.message,
        "pgoutput Insert of public.t at LSN 0/6100: column \"price\" (numeric(10,2)): unexpected "
        "'x' "
        "at byte 3 of \"1.5x\": expected [-]digits[.digits], NaN, Infinity or -Infinity");
    /* 'I', oid, 'N', ncols (8), id (1+4+1), name (1+4+3), price's kind and length: its text
     * at byte 27, the 'x' at 30 */
    assert_int_equal(err.offset, 30);
    assert_int_equal(r->out.count, 1); /* the BEGIN only */
    r_free(r);

    /* a column type neither built in nor registered: named at the Relation message */
    r = r_new(1, 0);
    static const pcol odd[] = {{"id", 23, -1, 1}, {"m", 99999, -1, 0}};
    mb rel = head(r, 'R');
    u32(&rel, 505);
    str(&rel, "public");
    str(&rel, "t");
    u8(&rel, 'd');
    u16(&rel, 2);
    for (int i = 0; i < 2; i++) {
        u8(&rel, (unsigned)odd[i].key);
        str(&rel, odd[i].name);
        u32(&rel, odd[i].oid);
        u32(&rel, (uint32_t)odd[i].typmod);
    }
    assert_int_equal(feed(r, &rel, 0, &err), RC_ERR_TYPE);
    assert_string_equal(err.message, "relation public.t column \"m\": PostgreSQL type 99999 is "
                                     "neither built in nor a registered "
                                     "enum, domain or array type (extension types such as hstore "
                                     "or citext are not supported yet)");
    /* row messages outside a transaction, a Commit without a Begin */
    relation(r, 500, "t", 'd', 4, t_cols);
    mb ins = head(r, 'I');
    u32(&ins, 500);
    u8(&ins, 'N');
    tuple(&ins, 4, row1);
    assert_int_equal(feed(r, &ins, 0x10, &err), RC_ERR_SCHEMA);
    assert_string_equal(err.message, "pgoutput Insert outside a transaction (no Begin before it)");
    mb c = {0};
    u8(&c, 'C');
    u8(&c, 0);
    u64(&c, 0x20);
    u64(&c, 0x30);
    u64(&c, 0);
    assert_int_equal(feed(r, &c, 0x20, &err), RC_ERR_SCHEMA);
    assert_string_equal(err.message, "pgoutput Commit without a Begin before it");
    assert_int_equal(r->out.count, 0);
    r_free(r);
}

/* {"unavailable":true} and "before_key_only" read back; encoders without a placeholder refuse. */
static void test_unavailable_roundtrip(void **state)
{
    (void)state;
    run *r = r_new(1, 0);
    relation(r, 500, "t", 'd', 4, t_cols);
    begin(r, 0x7000, T1, 704);
    static const char *const key1[] = {"1", "n", "n", "n"}, *const moved[] = {"2", "ink", "2.00",
                                                                              "u"};
    change(r, 'U', 500, 'K', key1, moved, 4, 0x7100);
    const rc_event *ev = &r->out.items[1];
    rc_buf b;
    rc_buf_init(&b, 1 << 16);
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_native_encode(NULL, ev, &b, &err), RC_OK);
    void *dec;
    assert_int_equal(rc_native_dec_new(&(rc_options){0}, &dec, &err), RC_OK);
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list l = {0};
    if (rc_native_decode(dec, b.data, b.len, &a, &l, &err) != RC_OK) fail_msg("%s", err.message);
    assert_int_equal(l.count, 1);
    char why[200];
    if (!rc_event_equal(ev, &l.items[0], why, sizeof why)) fail_msg("%s", why);
    static const char *const bad[][2] = {
        {"{\"op\":\"insert\",\"source\":{\"kind\":\"postgresql\"},\"columns\":[{\"name\":\"a\","
         "\"type\":\"text\"}],\"after\":[{\"unavailable\":false}]}",
         "\"unavailable\" must be a JSON true (found false)"},
        {"{\"op\":\"insert\",\"source\":{\"kind\":\"postgresql\"},\"columns\":[{\"name\":\"a\","
         "\"type\":\"text\"}],\"after\":[{\"unavailable\":true,\"invalid\":\"x\"}]}",
         "invalid-value object needs \"invalid\" (or only \"unavailable\":true)"},
        {"{\"op\":\"insert\",\"source\":{\"kind\":\"postgresql\"},\"columns\":[{\"name\":\"a\","
         "\"type\":\"text\"}],\"after\":[\"x\"],\"before_key_only\":true}",
         "\"before_key_only\" without \"before\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        rc_error_clear(&err);
        assert_int_not_equal(rc_native_decode(dec, bad[i][0], strlen(bad[i][0]), &a, &l, &err), RC_OK);
        assert_string_equal(err.message, bad[i][1]);
    }
    rc_native_dec_free(dec);
    rc_event_list_fini(&l);
    rc_arena_fini(&a);

    /* every encoder but native, upstream Debezium and ogg-json refuses it, saying why: each
     * name's, with the option the name fixes (oms-debezium's flavour) */
    for (const rc_format_name *n = rc_format_names; n->name && !n->now; n++) {
        const rc_format *const *f = &n->format;
        if (!n->format || !(*f)->encode_value || !strcmp(n->name, "native") || !strcmp(n->name, "ogg-json") || !strcmp(n->name, "debezium"))
            continue;
        rc_option fixed = {n->fixed_key, n->fixed_value};
        void *enc;
        rc_error_clear(&err);
        assert_int_equal((*f)->enc_new(&(rc_options){&fixed, n->fixed_key ? 1 : 0}, &enc, &err), RC_OK);
        rc_buf_reset(&b);
        rc_error_clear(&err);
        rc_status st = (*f)->encode_value(enc, ev, &b, &err);
        char expect[300];
        snprintf(expect, sizeof expect,
                 "column \"doc\" (text): its value was not sent (an unchanged TOAST value) and %s "
                 "has no way to write that; REPLICA "
                 "IDENTITY FULL sends it in the old row, or use native or upstream Debezium",
                 (*f)->name);
        if (st != RC_SKIP || strcmp(err.message, expect))
            fail_msg("%s: status %d, \"%s\"", (*f)->name, st, err.message);
        (*f)->enc_free(enc);
    }
    /* ogg-json leaves out what was not sent, as OGG leaves out the columns its trail record
     * lacks: the before image's non-key columns and the unchanged TOAST value */
    const rc_format *ogg = rc_format_find("ogg-json");
    void *oenc;
    assert_int_equal(ogg->enc_new(&(rc_options){0}, &oenc, &err), RC_OK);
    rc_buf_reset(&b);
    assert_int_equal(ogg->encode_value(oenc, ev, &b, &err), RC_OK);
    rc_buf_putc(&b, 0);
    assert_string_equal(b.data, "{\"table\":\"shop.public.t\",\"op_type\":\"U\",\"op_ts\":\"2000-01-01 00:00:01.000000\","
                                "\"current_ts\":\"2000-01-01T00:00:01.000000\",\"pos\":\"00000000000000028928\",\"primary_keys\":[\"id\"],"
                                "\"before\":{\"id\":1},\"after\":{\"id\":2,\"name\":\"ink\",\"price\":2.00}}");
    ogg->enc_free(oenc);
    /* upstream Debezium writes its placeholder for a string column */
    static const rc_option up_o[] = {{"debezium.flavor", "upstream"}};
    const rc_format *dbz = rc_format_find("debezium");
    void *enc;
    assert_int_equal(dbz->enc_new(&(rc_options){up_o, 1}, &enc, &err), RC_OK);
    rc_buf_reset(&b);
    assert_int_equal(dbz->encode_value(enc, ev, &b, &err), RC_OK);
    rc_buf_putc(&b, 0);
    assert_string_equal(
        b.data,
        "{\"before\":{\"id\":1,\"name\":null,\"price\":null,\"doc\":null},\"after\":{\"id\":2,"
        "\"name\":"
        "\"ink\",\"price\":\"AMg=\",\"doc\":\"__debezium_unavailable_value\"},\"source\":{"
        "\"version\":"
        "\"rowcast\",\"connector\":\"postgresql\",\"name\":\"pg1\",\"ts_ms\":946684801000,"
        "\"snapshot\":"
        "\"false\",\"db\":\"shop\",\"sequence\":\"[null,\\\"28928\\\"]\",\"ts_us\":946684801000000,\"ts_ns\":"
        "946684801000000000,\"schema\":\"public\",\"table\":\"t\",\"txId\":704,\"lsn\":28928,"
        "\"xmin\":"
        "null},\"transaction\":null,\"op\":\"u\",\"ts_ms\":946684801000,\"ts_us\":946684801000000,"
        "\"ts_ns\":946684801000000000}");
    dbz->enc_free(enc);
    rc_buf_fini(&b);
    r_free(r);
}

/* ---- spilling ---- */

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
        cmocka_unit_test(test_transaction),
        cmocka_unit_test(test_full_identity),
        cmocka_unit_test(test_alter_table),
        cmocka_unit_test(test_streaming),
        cmocka_unit_test(test_stream_cap),
        cmocka_unit_test(test_value_error),
        cmocka_unit_test(test_unavailable_roundtrip),
        cmocka_unit_test(test_spill),
        cmocka_unit_test(test_spill_abort),
        cmocka_unit_test(test_spill_errors),
        cmocka_unit_test(test_stream_value_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
