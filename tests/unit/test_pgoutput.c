/* pgoutput decoder: every message kind of protocol versions 1 and 2 built byte by byte and read
 * back field by field; the relation cache across ALTER TABLE (versions, references); the
 * commit times. Malformed and truncated messages: test_pgoutput_malformed.c; messages of a real
 * PostgreSQL: test_pgoutput_real.c. */
#include "pgoutput_fixture.h"

/* ---- every kind, built ---- */

static void test_begin_commit_origin(void **state)
{
    (void)state;
    rc_pgo_decoder *d = rc_pgo_new(1);
    rc_pgo_msg msg;
    mb m = {0};
    u8(&m, 'B');
    u64(&m, 0x1539600);
    u64(&m, 0x0003048e150c8ff2);
    u32(&m, 730);
    ok(d, &m, 0x1539478, &msg);
    assert_int_equal(msg.kind, RC_PGO_BEGIN);
    assert_int_equal(msg.wal_start, 0x1539478);
    assert_false(msg.streamed);
    assert_int_equal(msg.u.begin.final_lsn, 0x1539600);
    assert_int_equal(msg.u.begin.commit_time, 0x0003048e150c8ff2);
    assert_int_equal(msg.u.begin.xid, 730);
    /* 2026-12-01 09:40:15.143922 UTC */
    assert_int_equal(rc_pg_time_to_unix_us(msg.u.begin.commit_time), INT64_C(1796118015143922));

    m.n = 0;
    u8(&m, 'C');
    u8(&m, 0);
    u64(&m, 0x15395d0);
    u64(&m, 0x1539600);
    u64(&m, (uint64_t)-5); /* a time before 2000 */
    ok(d, &m, 0x1539600, &msg);
    assert_int_equal(msg.kind, RC_PGO_COMMIT);
    assert_int_equal(msg.u.commit.flags, 0);
    assert_int_equal(msg.u.commit.commit_lsn, 0x15395d0);
    assert_int_equal(msg.u.commit.end_lsn, 0x1539600);
    assert_int_equal(msg.u.commit.commit_time, -5);
    assert_int_equal(msg.u.commit.xid, 0);

    m.n = 0;
    u8(&m, 'O');
    u64(&m, 0xabcdef);
    str(&m, "o1");
    ok(d, &m, 0x153f010, &msg);
    assert_int_equal(msg.kind, RC_PGO_ORIGIN);
    assert_int_equal(msg.u.origin.commit_lsn, 0xabcdef);
    assert_string_equal(msg.u.origin.name, "o1");
    assert_ptr_equal(msg.u.origin.name, (const char *)m.b + 9); /* in place, not copied */
    rc_pgo_free(d);
}

static void test_relation_type_insert(void **state)
{
    (void)state;
    rc_pgo_decoder *d = rc_pgo_new(1);
    rc_pgo_msg msg;
    mb m = {0};
    /* a type in pg_catalog arrives with an empty namespace */
    u8(&m, 'Y');
    u32(&m, 16385);
    str(&m, "");
    str(&m, "mood");
    ok(d, &m, 0, &msg);
    assert_int_equal(msg.kind, RC_PGO_TYPE);
    assert_int_equal(msg.u.type.type->oid, 16385);
    assert_string_equal(msg.u.type.type->nspname, "pg_catalog");
    assert_string_equal(msg.u.type.type->typname, "mood");
    assert_ptr_equal(rc_pgo_type(d, 16385), msg.u.type.type);
    assert_null(rc_pgo_type(d, 16386));

    m.n = 0;
    relation_r(&m, 100);
    ok(d, &m, 0, &msg);
    assert_int_equal(msg.kind, RC_PGO_RELATION);
    assert_true(msg.u.relation.changed);
    const rc_pg_relation *rel = msg.u.relation.rel;
    assert_ptr_equal(rc_pgo_relation(d, 100), rel);
    assert_int_equal(rel->oid, 100);
    assert_string_equal(rel->nspname, "public");
    assert_string_equal(rel->relname, "r");
    assert_int_equal(rel->replident, RC_PG_REPLIDENT_DEFAULT);
    assert_int_equal(rel->version, 1);
    assert_int_equal(rel->ncols, 5);
    assert_string_equal(rel->cols[0].name, "id");
    assert_int_equal(rel->cols[0].flags, RC_PG_COLUMN_KEY);
    assert_int_equal(rel->cols[0].type_oid, 23);
    assert_int_equal(rel->cols[0].typmod, -1);
    assert_string_equal(rel->cols[3].name, "c");
    assert_int_equal(rel->cols[3].flags, 0);
    assert_int_equal(rel->cols[3].type_oid, 1700);
    assert_int_equal(rel->cols[3].typmod, (10 << 16 | 2) + 4);
    assert_string_equal(rel->cols[4].name, "d");
    assert_int_equal(rel->cols[4].typmod, 24);
    /* the cache copied it: the message buffer may go */
    memset(m.b, 0xee, sizeof m.b);
    assert_string_equal(rel->cols[1].name, "a");

    m.n = 0;
    u8(&m, 'I');
    u32(&m, 100);
    u8(&m, 'N');
    u16(&m, 5);
    text(&m, "1");
    col(&m, 'n', NULL, 0);
    col(&m, 'u', NULL, 0);
    col(&m, 't', "", 0);
    col(&m, 'b', "\0\xff\n", 3);
    ok(d, &m, 0x153ccf0, &msg);
    assert_int_equal(msg.kind, RC_PGO_INSERT);
    assert_int_equal(msg.wal_start, 0x153ccf0);
    assert_ptr_equal(msg.u.change.rel, rel);
    assert_int_equal(msg.u.change.old_kind, 0);
    assert_int_equal(msg.u.change.old_tuple.ncols, 0);
    const rc_pgo_tuple *t = &msg.u.change.new_tuple;
    assert_int_equal(t->ncols, 5);
    datum_is(&t->cols[0], 't', "1", 1);
    assert_ptr_equal(t->cols[0].data, m.b + 13); /* points into the input */
    datum_is(&t->cols[1], 'n', NULL, 0);
    datum_is(&t->cols[2], 'u', NULL, 0);
    datum_is(&t->cols[3], 't', "", 0);
    datum_is(&t->cols[4], 'b', "\0\xff\n", 3);
    rc_pgo_free(d);
}

static void test_update_delete(void **state)
{
    (void)state;
    rc_pgo_decoder *d = with_r(1);
    rc_pgo_msg msg;
    mb m = {0};
    /* Update with neither key nor row: the key did not change under REPLICA IDENTITY DEFAULT */
    u8(&m, 'U');
    u32(&m, 100);
    u8(&m, 'N');
    u16(&m, 5);
    text(&m, "1");
    text(&m, "x");
    col(&m, 'u', NULL, 0);
    col(&m, 'n', NULL, 0);
    text(&m, "vc");
    ok(d, &m, 1, &msg);
    assert_int_equal(msg.kind, RC_PGO_UPDATE);
    assert_int_equal(msg.u.change.old_kind, 0);
    assert_int_equal(msg.u.change.old_tuple.ncols, 0);
    assert_null(msg.u.change.old_tuple.cols);
    datum_is(&msg.u.change.new_tuple.cols[1], 't', "x", 1);
    datum_is(&msg.u.change.new_tuple.cols[2], 'u', NULL, 0);
    datum_is(&msg.u.change.new_tuple.cols[4], 't', "vc", 2);

    /* 'K' old key (the key changed), 'O' old row (REPLICA IDENTITY FULL) */
    for (int k = 0; k < 2; k++) {
        char marker = k ? 'O' : 'K';
        m.n = 0;
        u8(&m, 'U');
        u32(&m, 100);
        u8(&m, (uint8_t)marker);
        u16(&m, 5);
        text(&m, "2");
        for (int i = 0; i < 4; i++) k ? text(&m, "old") : col(&m, 'n', NULL, 0);
        u8(&m, 'N');
        u16(&m, 5);
        text(&m, "10");
        for (int i = 0; i < 4; i++) text(&m, "new");
        ok(d, &m, 2, &msg);
        assert_int_equal(msg.u.change.old_kind, marker);
        assert_int_equal(msg.u.change.old_tuple.ncols, 5);
        datum_is(&msg.u.change.old_tuple.cols[0], 't', "2", 1);
        if (k)
            datum_is(&msg.u.change.old_tuple.cols[4], 't', "old", 3);
        else
            datum_is(&msg.u.change.old_tuple.cols[4], 'n', NULL, 0);
        datum_is(&msg.u.change.new_tuple.cols[0], 't', "10", 2);
        datum_is(&msg.u.change.new_tuple.cols[4], 't', "new", 3);

        m.n = 0;
        u8(&m, 'D');
        u32(&m, 100);
        u8(&m, (uint8_t)marker);
        u16(&m, 5);
        text(&m, "10");
        for (int i = 0; i < 4; i++) k ? text(&m, "gone") : col(&m, 'n', NULL, 0);
        ok(d, &m, 3, &msg);
        assert_int_equal(msg.kind, RC_PGO_DELETE);
        assert_int_equal(msg.u.change.old_kind, marker);
        datum_is(&msg.u.change.old_tuple.cols[0], 't', "10", 2);
        if (k) datum_is(&msg.u.change.old_tuple.cols[3], 't', "gone", 4);
        assert_int_equal(msg.u.change.new_tuple.ncols, 0);
    }
    rc_pgo_free(d);
}

static void test_truncate_message(void **state)
{
    (void)state;
    rc_pgo_decoder *d = with_r(1);
    rc_pgo_msg msg;
    mb m = {0};
    relation_r(&m, 200);
    ok(d, &m, 0, &msg);
    assert_int_equal(msg.u.relation.rel->version, 2);

    m.n = 0;
    u8(&m, 'T');
    u32(&m, 2);
    u8(&m, RC_PGO_TRUNCATE_CASCADE | RC_PGO_TRUNCATE_RESTART_IDENTITY);
    u32(&m, 200);
    u32(&m, 100);
    ok(d, &m, 9, &msg);
    assert_int_equal(msg.kind, RC_PGO_TRUNCATE);
    assert_int_equal(msg.u.truncate.nrels, 2);
    assert_int_equal(msg.u.truncate.options, 3);
    assert_int_equal(msg.u.truncate.oids[0], 200);
    assert_int_equal(msg.u.truncate.oids[1], 100);
    assert_ptr_equal(msg.u.truncate.rels[0], rc_pgo_relation(d, 200));
    assert_ptr_equal(msg.u.truncate.rels[1], rc_pgo_relation(d, 100));

    m.n = 0;
    u8(&m, 'M');
    u8(&m, RC_PGO_MESSAGE_TRANSACTIONAL);
    u64(&m, 0x153d2d8);
    str(&m, "pfx");
    u32(&m, 5);
    raw(&m, "he\0lo", 5);
    ok(d, &m, 0x153d2d8, &msg);
    assert_int_equal(msg.kind, RC_PGO_MESSAGE);
    assert_int_equal(msg.u.message.flags, 1);
    assert_int_equal(msg.u.message.lsn, 0x153d2d8);
    assert_string_equal(msg.u.message.prefix, "pfx");
    assert_int_equal(msg.u.message.len, 5);
    assert_memory_equal(msg.u.message.content, "he\0lo", 5);

    m.n = 0;
    u8(&m, 'M');
    u8(&m, 0);
    u64(&m, 1);
    str(&m, "");
    u32(&m, 0);
    ok(d, &m, 1, &msg);
    assert_int_equal(msg.u.message.flags, 0);
    assert_string_equal(msg.u.message.prefix, "");
    assert_int_equal(msg.u.message.len, 0);
    rc_pgo_free(d);
}

/* ALTER TABLE mid-stream: a new version from the next Relation message on; the same content
 * again keeps the version; a retained old version outlives its replacement and the decoder. */
static void test_relation_versions(void **state)
{
    (void)state;
    rc_pgo_decoder *d = with_r(1);
    rc_pgo_msg msg;
    mb m = {0};
    const rc_pg_relation *v1 = rc_pgo_relation(d, 100);
    relation_r(&m, 100);
    ok(d, &m, 0, &msg);
    assert_false(msg.u.relation.changed);
    assert_ptr_equal(msg.u.relation.rel, v1);

    /* an event of the old version is held (a streamed transaction, a slow sink) */
    m.n = 0;
    u8(&m, 'I');
    u32(&m, 100);
    u8(&m, 'N');
    u16(&m, 5);
    for (int i = 0; i < 5; i++) text(&m, "v");
    ok(d, &m, 0, &msg);
    const rc_pg_relation *held = msg.u.change.rel;
    assert_ptr_equal(held, v1);
    rc_pg_relation_retain(held);

    /* ALTER TABLE r DROP COLUMN d, REPLICA IDENTITY FULL */
    m.n = 0;
    u8(&m, 'R');
    u32(&m, 100);
    str(&m, "public");
    str(&m, "r");
    u8(&m, 'f');
    u16(&m, 1);
    u8(&m, 1);
    str(&m, "id");
    u32(&m, 20);
    u32(&m, 0xffffffff);
    ok(d, &m, 0, &msg);
    assert_true(msg.u.relation.changed);
    const rc_pg_relation *v2 = msg.u.relation.rel;
    assert_ptr_not_equal(v2, v1);
    assert_int_equal(v2->version, 2);
    assert_int_equal(v2->replident, 'f');
    assert_int_equal(v2->ncols, 1);
    assert_int_equal(v2->cols[0].type_oid, 20);
    assert_ptr_equal(rc_pgo_relation(d, 100), v2);

    /* rows from now on have one column; a five-column row is an error naming both counts */
    m.n = 0;
    u8(&m, 'I');
    u32(&m, 100);
    u8(&m, 'N');
    u16(&m, 1);
    text(&m, "7");
    ok(d, &m, 0, &msg);
    assert_ptr_equal(msg.u.change.rel, v2);
    m.n = 0;
    u8(&m, 'I');
    u32(&m, 100);
    u8(&m, 'N');
    u16(&m, 5);
    for (int i = 0; i < 5; i++) text(&m, "v");
    bad(d, &m, RC_ERR_SCHEMA, 6,
        "pgoutput Insert: new row has 5 columns but relation public.r (OID 100) has 1 (is a Relation "
        "message missing?) at byte 6");

    /* the held version is intact (ASan would catch a use after free) */
    rc_pgo_free(d);
    assert_int_equal(held->ncols, 5);
    assert_string_equal(held->cols[4].name, "d");
    assert_int_equal(held->version, 1);
    rc_pg_relation_release(held);
    rc_pg_relation_release(NULL);
}

static void test_type_cache(void **state)
{
    (void)state;
    rc_pgo_decoder *d = rc_pgo_new(1);
    rc_pgo_msg msg;
    mb m = {0};
    u8(&m, 'Y');
    u32(&m, 16385);
    str(&m, "public");
    str(&m, "mood");
    ok(d, &m, 0, &msg);
    const rc_pgo_typeinfo *t1 = msg.u.type.type;
    ok(d, &m, 0, &msg); /* sent again after an invalidation: same entry */
    assert_ptr_equal(msg.u.type.type, t1);
    /* ALTER TYPE mood RENAME TO feeling: a new entry; the old one stays readable */
    m.n = 0;
    u8(&m, 'Y');
    u32(&m, 16385);
    str(&m, "public");
    str(&m, "feeling");
    ok(d, &m, 0, &msg);
    assert_ptr_not_equal(msg.u.type.type, t1);
    assert_string_equal(rc_pgo_type(d, 16385)->typname, "feeling");
    assert_string_equal(t1->typname, "mood");
    /* many types: the map grows */
    for (uint32_t oid = 20000; oid < 20100; oid++) {
        char name[16];
        snprintf(name, sizeof name, "t%u", oid);
        m.n = 0;
        u8(&m, 'Y');
        u32(&m, oid);
        str(&m, "s");
        str(&m, name);
        ok(d, &m, 0, &msg);
    }
    assert_string_equal(rc_pgo_type(d, 20042)->typname, "t20042");
    assert_string_equal(rc_pgo_type(d, 16385)->typname, "feeling");
    rc_pgo_free(d);
}

/* Protocol version 2: inside Stream Start .. Stream Stop every change, relation, type,
 * truncate and transactional message carries the (sub)transaction id first. */
static void test_stream_v2(void **state)
{
    (void)state;
    rc_pgo_decoder *d = with_r(2);
    rc_pgo_msg msg;
    mb m = {0};
    u8(&m, 'S');
    u32(&m, 746);
    u8(&m, 1);
    ok(d, &m, 0x153f0d8, &msg);
    assert_int_equal(msg.kind, RC_PGO_STREAM_START);
    assert_int_equal(msg.u.stream_start.xid, 746);
    assert_true(msg.u.stream_start.first_segment);
    assert_true(rc_pgo_in_stream(d));

    m.n = 0;
    u8(&m, 'Y');
    u32(&m, 747);
    u32(&m, 16385);
    str(&m, "public");
    str(&m, "mood");
    ok(d, &m, 0, &msg);
    assert_true(msg.streamed);
    assert_int_equal(msg.xid, 747);
    assert_string_equal(msg.u.type.type->typname, "mood");

    m.n = 0;
    u8(&m, 'R');
    u32(&m, 747);
    size_t rel_at = m.n;
    relation_r(&m, 300);
    memmove(m.b + rel_at, m.b + rel_at + 1, m.n - rel_at - 1); /* relation_r wrote its own 'R' */
    m.n--;
    ok(d, &m, 0, &msg);
    assert_int_equal(msg.xid, 747);
    assert_int_equal(msg.u.relation.rel->oid, 300);

    m.n = 0;
    u8(&m, 'I');
    u32(&m, 747);
    u32(&m, 300);
    u8(&m, 'N');
    u16(&m, 5);
    for (int i = 0; i < 5; i++) text(&m, "s");
    ok(d, &m, 0x153f0d8, &msg);
    assert_int_equal(msg.kind, RC_PGO_INSERT);
    assert_true(msg.streamed);
    assert_int_equal(msg.xid, 747);
    assert_int_equal(msg.u.change.rel->oid, 300);
    datum_is(&msg.u.change.new_tuple.cols[4], 't', "s", 1);

    m.n = 0;
    u8(&m, 'U');
    u32(&m, 746);
    u32(&m, 300);
    u8(&m, 'N');
    u16(&m, 5);
    for (int i = 0; i < 5; i++) col(&m, 'n', NULL, 0);
    ok(d, &m, 0, &msg);
    assert_int_equal(msg.xid, 746);

    m.n = 0;
    u8(&m, 'D');
    u32(&m, 746);
    u32(&m, 300);
    u8(&m, 'K');
    u16(&m, 5);
    for (int i = 0; i < 5; i++) col(&m, 'n', NULL, 0);
    ok(d, &m, 0, &msg);
    assert_int_equal(msg.xid, 746);
    assert_int_equal(msg.u.change.old_kind, 'K');

    m.n = 0;
    u8(&m, 'T');
    u32(&m, 746);
    u32(&m, 1);
    u8(&m, 0);
    u32(&m, 300);
    ok(d, &m, 0, &msg);
    assert_int_equal(msg.xid, 746);
    assert_int_equal(msg.u.truncate.oids[0], 300);

    m.n = 0;
    u8(&m, 'M');
    u32(&m, 746);
    u8(&m, 1);
    u64(&m, 5);
    str(&m, "p");
    u32(&m, 1);
    raw(&m, "x", 1);
    ok(d, &m, 0, &msg);
    assert_int_equal(msg.xid, 746);
    assert_string_equal(msg.u.message.prefix, "p");

    /* Origin has no xid, even in a stream */
    m.n = 0;
    u8(&m, 'O');
    u64(&m, 1);
    str(&m, "o");
    ok(d, &m, 0, &msg);
    assert_false(msg.streamed);
    assert_string_equal(msg.u.origin.name, "o");

    m.n = 0;
    u8(&m, 'E');
    ok(d, &m, 0x15475b0, &msg);
    assert_int_equal(msg.kind, RC_PGO_STREAM_STOP);
    assert_false(rc_pgo_in_stream(d));

    /* outside the stream: no xid again */
    m.n = 0;
    u8(&m, 'I');
    u32(&m, 300);
    u8(&m, 'N');
    u16(&m, 5);
    for (int i = 0; i < 5; i++) text(&m, "o");
    ok(d, &m, 0, &msg);
    assert_false(msg.streamed);
    assert_int_equal(msg.xid, 0);

    m.n = 0;
    u8(&m, 'A');
    u32(&m, 746);
    u32(&m, 747);
    ok(d, &m, 0x15858c0, &msg);
    assert_int_equal(msg.kind, RC_PGO_STREAM_ABORT);
    assert_int_equal(msg.u.stream_abort.xid, 746);
    assert_int_equal(msg.u.stream_abort.subxid, 747);

    m.n = 0;
    u8(&m, 'c');
    u32(&m, 746);
    u8(&m, 0);
    u64(&m, 0x1585908);
    u64(&m, 0x1585940);
    u64(&m, 0x3048e157b90eb);
    ok(d, &m, 0x1585940, &msg);
    assert_int_equal(msg.kind, RC_PGO_STREAM_COMMIT);
    assert_int_equal(msg.u.commit.xid, 746);
    assert_int_equal(msg.u.commit.flags, 0);
    assert_int_equal(msg.u.commit.commit_lsn, 0x1585908);
    assert_int_equal(msg.u.commit.end_lsn, 0x1585940);
    assert_int_equal(msg.u.commit.commit_time, 0x3048e157b90eb);

    /* a later segment; a reconnect leaves the stream */
    m.n = 0;
    u8(&m, 'S');
    u32(&m, 749);
    u8(&m, 0);
    ok(d, &m, 0, &msg);
    assert_false(msg.u.stream_start.first_segment);
    assert_true(rc_pgo_in_stream(d));
    rc_pgo_session_reset(d);
    assert_false(rc_pgo_in_stream(d));
    rc_pgo_free(d);
    assert_null(rc_pgo_new(3));
    assert_null(rc_pgo_new(0));
}

static void test_time(void **state)
{
    (void)state;
    assert_int_equal(rc_pg_time_to_unix_us(0), INT64_C(946684800000000));
    assert_int_equal(rc_pg_time_to_unix_us(-INT64_C(946684800000000)), 0);
    assert_int_equal(rc_pg_time_to_unix_us(INT64_MAX), INT64_MAX);
    assert_int_equal(rc_pg_time_to_unix_us(INT64_MAX - 1), INT64_MAX);
    assert_int_equal(rc_pg_time_to_unix_us(INT64_MIN), INT64_MIN);
    assert_int_equal(rc_pg_time_to_unix_us(INT64_MIN + 1), INT64_MIN + 1 + INT64_C(946684800000000));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_begin_commit_origin),
        cmocka_unit_test(test_relation_type_insert),
        cmocka_unit_test(test_update_delete),
        cmocka_unit_test(test_truncate_message),
        cmocka_unit_test(test_relation_versions),
        cmocka_unit_test(test_type_cache),
        cmocka_unit_test(test_stream_v2),
        cmocka_unit_test(test_time),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
