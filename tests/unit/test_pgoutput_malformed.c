/* pgoutput decoder: every malformed layout rejected with its exact text and byte offset, every
 * truncation of every message rejected. */
#include "pgoutput_fixture.h"

/* ---- malformed input: exact text and offset ---- */

static void test_malformed_layout(void **state)
{
    (void)state;
    rc_pgo_decoder *d = with_r(1);
    mb m = {0};
    size_t at;
    bad(d, &m, RC_ERR_SYNTAX, 0, "pgoutput: empty message (no type byte) at byte 0");
    u8(&m, 'z');
    bad(d, &m, RC_ERR_SYNTAX, 0, "pgoutput: unknown message type 'z' (0x7a) at byte 0");
    m.n = 0;
    u8(&m, 0);
    bad(d, &m, RC_ERR_SYNTAX, 0, "pgoutput: unknown message type 0x00 at byte 0");
    m.n = 0;
    u8(&m, 'b'); /* Begin Prepare: two-phase, protocol version 3, never requested */
    bad(d, &m, RC_ERR_SYNTAX, 0, "pgoutput: unknown message type 'b' (0x62) at byte 0");

    m.n = 0;
    u8(&m, 'B');
    u64(&m, 1);
    raw(&m, "abc", 3);
    bad(d, &m, RC_ERR_SYNTAX, 9,
        "pgoutput Begin: commit time: needs 8 bytes, only 3 left (message truncated) at byte 9");
    m.n = 0;
    u8(&m, 'B');
    u64(&m, 1);
    u64(&m, 2);
    u32(&m, 3);
    u8(&m, 0);
    bad(d, &m, RC_ERR_SYNTAX, 21, "pgoutput Begin: 1 byte after the end of the message at byte 21");
    m.n = 0;
    u8(&m, 'C');
    bad(d, &m, RC_ERR_SYNTAX, 1, "pgoutput Commit: flags: needs 1 byte, only 0 left (message truncated) at byte 1");
    m.n = 0;
    u8(&m, 'O');
    u64(&m, 1);
    raw(&m, "origin", 6);
    bad(d, &m, RC_ERR_SYNTAX, 9,
        "pgoutput Origin: origin name: no NUL before the end of the message (string not terminated) at "
        "byte 9");

    /* tuples */
    m.n = 0;
    u8(&m, 'I');
    u32(&m, 100);
    u8(&m, 'N');
    u16(&m, 5);
    text(&m, "1");
    col(&m, 'n', NULL, 0);
    at = m.n + 1;
    u8(&m, 't');
    u32(&m, 1000);
    raw(&m, "ab", 2);
    bad(d, &m, RC_ERR_SYNTAX, at,
        "pgoutput Insert: new row column 3 of 5 \"b\": text length 1000 past the end of the message (2 bytes "
        "left) at byte 16");
    m.b[at] = m.b[at + 1] = m.b[at + 2] = m.b[at + 3] = 0xff;
    bad(d, &m, RC_ERR_SYNTAX, at, "pgoutput Insert: new row column 3 of 5 \"b\": text length -1 is negative at byte 16");
    m.b[at - 1] = 'b';
    bad(d, &m, RC_ERR_SYNTAX, at, "pgoutput Insert: new row column 3 of 5 \"b\": binary length -1 is negative at byte 16");
    m.b[at - 1] = 'x';
    bad(d, &m, RC_ERR_SYNTAX, at - 1,
        "pgoutput Insert: new row column 3 of 5 \"b\": value kind 'x' (0x78) is none of n, u, t, b at byte 15");
    m.n = at - 1;
    bad(d, &m, RC_ERR_SYNTAX, at - 1,
        "pgoutput Insert: new row column 3 of 5 \"b\": value kind: needs 1 byte, only 0 left (message "
        "truncated) at byte 15");
    m.b[at - 1] = 't';
    m.n = at + 2;
    bad(d, &m, RC_ERR_SYNTAX, at,
        "pgoutput Insert: new row column 3 of 5 \"b\": text length: needs 4 bytes, only 2 left (message "
        "truncated) at byte 16");
    /* as many columns as the relation, but fewer bytes than columns */
    m.n = 0;
    u8(&m, 'I');
    u32(&m, 100);
    u8(&m, 'N');
    u16(&m, 5);
    raw(&m, "nnn", 3);
    bad(d, &m, RC_ERR_SYNTAX, 6, "pgoutput Insert: new row: 5 columns need at least 5 bytes, only 3 left at byte 6");
    m.n = 7;
    bad(d, &m, RC_ERR_SYNTAX, 6,
        "pgoutput Insert: new row column count: needs 2 bytes, only 1 left (message truncated) at byte 6");
    m.n = 0;
    u8(&m, 'I');
    u32(&m, 999);
    u8(&m, 'N');
    bad(d, &m, RC_ERR_SCHEMA, 1,
        "pgoutput Insert: relation OID 999 unknown: no Relation message for it came before at byte 1");
    m.n = 0;
    u8(&m, 'I');
    u32(&m, 100);
    u8(&m, 'K');
    bad(d, &m, RC_ERR_SYNTAX, 5, "pgoutput Insert: tuple marker 'K' (0x4b) is not 'N' at byte 5");
    m.b[0] = 'U';
    m.b[5] = 'X';
    bad(d, &m, RC_ERR_SYNTAX, 5, "pgoutput Update: tuple marker 'X' (0x58) is not 'K', 'O' or 'N' at byte 5");
    m.b[0] = 'D';
    m.b[5] = 'N';
    bad(d, &m, RC_ERR_SYNTAX, 5, "pgoutput Delete: tuple marker 'N' (0x4e) is not 'K' or 'O' at byte 5");
    m.n = 5;
    bad(d, &m, RC_ERR_SYNTAX, 5, "pgoutput Delete: tuple marker: needs 1 byte, only 0 left (message truncated) at byte 5");
    m.n = 0;
    u8(&m, 'U');
    u32(&m, 100);
    u8(&m, 'K');
    u16(&m, 5);
    for (int i = 0; i < 5; i++) col(&m, 'n', NULL, 0);
    at = m.n;
    u8(&m, 'O');
    bad(d, &m, RC_ERR_SYNTAX, at, "pgoutput Update: new row marker 'O' (0x4f) is not 'N' at byte 13");
    m.n = at;
    bad(d, &m, RC_ERR_SYNTAX, at,
        "pgoutput Update: new row marker: needs 1 byte, only 0 left (message truncated) at byte 13");
    m.n = 0;
    u8(&m, 'D');
    u32(&m, 100);
    u8(&m, 'O');
    u16(&m, 5);
    for (int i = 0; i < 5; i++) col(&m, 'n', NULL, 0);
    u8(&m, 'N');
    bad(d, &m, RC_ERR_SYNTAX, 13, "pgoutput Delete: 1 byte after the end of the message at byte 13");
    m.n = 0;
    u8(&m, 'U');
    u32(&m, 100);
    u8(&m, 'O');
    u16(&m, 5);
    for (int i = 0; i < 4; i++) col(&m, 'n', NULL, 0);
    u8(&m, 'q');
    bad(d, &m, RC_ERR_SYNTAX, 12,
        "pgoutput Update: old row column 5 of 5 \"d\": value kind 'q' (0x71) is none of n, u, t, b at byte 12");
    rc_pgo_free(d);
}

static void test_malformed_relation_type(void **state)
{
    (void)state;
    rc_pgo_decoder *d = with_r(1);
    const rc_pg_relation *before = rc_pgo_relation(d, 100);
    mb m = {0};
    u8(&m, 'R');
    u32(&m, 100);
    raw(&m, "public", 6);
    bad(d, &m, RC_ERR_SYNTAX, 5,
        "pgoutput Relation: namespace: no NUL before the end of the message (string not terminated) at "
        "byte 5");
    m.n = 0;
    u8(&m, 'R');
    u32(&m, 0);
    bad(d, &m, RC_ERR_SYNTAX, 1, "pgoutput Relation: relation OID 0 is not a valid OID at byte 1");
    m.n = 0;
    u8(&m, 'R');
    u32(&m, 100);
    str(&m, "public");
    str(&m, "r");
    u8(&m, 'x');
    bad(d, &m, RC_ERR_SYNTAX, 14, "pgoutput Relation: replica identity 'x' (0x78) is none of d, n, f, i at byte 14");
    m.n--;
    u8(&m, 'd');
    u16(&m, 65535);
    bad(d, &m, RC_ERR_SYNTAX, 15,
        "pgoutput Relation: column count 65535 needs at least 655350 bytes, only 0 left at byte 15");
    m.n -= 2;
    u16(&m, 2);
    u8(&m, 1);
    str(&m, "a");
    u32(&m, 23);
    u32(&m, 0xffffffff);
    u8(&m, 0);
    str(&m, "b");
    u32(&m, 25);
    u16(&m, 0);
    bad(d, &m, RC_ERR_SYNTAX, 35,
        "pgoutput Relation: column 2 of 2 \"b\": type modifier: needs 4 bytes, only 2 left (message "
        "truncated) at byte 35");
    m.n -= 2 + 6; /* back to column 2's name */
    raw(&m, "bbbbbbbbbbbb", 12); /* no NUL, and enough bytes for the count check */
    bad(d, &m, RC_ERR_SYNTAX, 29,
        "pgoutput Relation: column 2 of 2: name: no NUL before the end of the message (string not "
        "terminated) at byte 29");
    m.n -= 12;
    str(&m, "b");
    u32(&m, 25);
    u32(&m, 0xffffffff);
    u8(&m, 0);
    bad(d, &m, RC_ERR_SYNTAX, 39, "pgoutput Relation: 1 byte after the end of the message at byte 39");
    /* a failed Relation message leaves the cached version as it was */
    assert_ptr_equal(rc_pgo_relation(d, 100), before);
    assert_int_equal(before->ncols, 5);

    m.n = 0;
    u8(&m, 'Y');
    u32(&m, 0);
    bad(d, &m, RC_ERR_SYNTAX, 1, "pgoutput Type: type OID 0 is not a valid OID at byte 1");
    m.n = 0;
    u8(&m, 'Y');
    u32(&m, 5000);
    str(&m, "public");
    raw(&m, "mood", 4);
    bad(d, &m, RC_ERR_SYNTAX, 12,
        "pgoutput Type: type name: no NUL before the end of the message (string not terminated) at byte 12");
    m.n = 0;
    u8(&m, 'Y');
    u32(&m, 5000);
    str(&m, "public");
    str(&m, "mood");
    u8(&m, 0);
    bad(d, &m, RC_ERR_SYNTAX, 17, "pgoutput Type: 1 byte after the end of the message at byte 17");
    assert_null(rc_pgo_type(d, 5000));
    rc_pgo_free(d);
}

static void test_malformed_other(void **state)
{
    (void)state;
    rc_pgo_decoder *d = with_r(1);
    mb m = {0};
    u8(&m, 'T');
    u32(&m, 0x40000000);
    u8(&m, 0);
    u32(&m, 100);
    bad(d, &m, RC_ERR_SYNTAX, 1,
        "pgoutput Truncate: relation count 1073741824 needs 4294967296 bytes, only 4 left at byte 1");
    m.n = 0;
    u8(&m, 'T');
    u32(&m, 2);
    u8(&m, 0);
    u32(&m, 100);
    u32(&m, 555);
    bad(d, &m, RC_ERR_SCHEMA, 10,
        "pgoutput Truncate: relation 2 of 2: OID 555 unknown: no Relation message for it came before at byte "
        "10");
    m.n = 0;
    u8(&m, 'T');
    u32(&m, 1);
    bad(d, &m, RC_ERR_SYNTAX, 5, "pgoutput Truncate: options: needs 1 byte, only 0 left (message truncated) at byte 5");

    m.n = 0;
    u8(&m, 'M');
    u8(&m, 1);
    u64(&m, 1);
    str(&m, "p");
    u32(&m, 0x80000000);
    bad(d, &m, RC_ERR_SYNTAX, 12, "pgoutput Message: content length -2147483648 is negative at byte 12");
    m.n -= 4;
    u32(&m, 6);
    raw(&m, "hello", 5);
    bad(d, &m, RC_ERR_SYNTAX, 12,
        "pgoutput Message: content length 6 past the end of the message (5 bytes left) at byte 12");
    m.n = 0;
    u8(&m, 'M');
    u8(&m, 1);
    u64(&m, 1);
    raw(&m, "p", 1);
    bad(d, &m, RC_ERR_SYNTAX, 10,
        "pgoutput Message: prefix: no NUL before the end of the message (string not terminated) at byte 10");

    /* streaming kinds on a version 1 session */
    m.n = 0;
    u8(&m, 'S');
    u32(&m, 1);
    u8(&m, 1);
    bad(d, &m, RC_ERR_SYNTAX, 0,
        "pgoutput Stream Start: needs protocol version 2 (streaming), this session uses version 1 at byte 0");
    m.b[0] = 'E';
    bad(d, &m, RC_ERR_SYNTAX, 0,
        "pgoutput Stream Stop: needs protocol version 2 (streaming), this session uses version 1 at byte 0");
    rc_pgo_free(d);

    d = with_r(2);
    m.n = 0;
    u8(&m, 'E');
    bad(d, &m, RC_ERR_SYNTAX, 0, "pgoutput Stream Stop: outside a stream (no Stream Start before it) at byte 0");
    m.n = 0;
    u8(&m, 'S');
    u32(&m, 1);
    u8(&m, 2);
    bad(d, &m, RC_ERR_SYNTAX, 5, "pgoutput Stream Start: first-segment flag 2 is neither 0 nor 1 at byte 5");
    m.b[5] = 1;
    u8(&m, 0);
    bad(d, &m, RC_ERR_SYNTAX, 6, "pgoutput Stream Start: 1 byte after the end of the message at byte 6");
    assert_false(rc_pgo_in_stream(d)); /* a failed Stream Start did not open the stream */
    m.n--;
    rc_pgo_msg msg;
    ok(d, &m, 0, &msg);
    static const char kinds[] = {'B', 'C', 'S', 'c', 'A'};
    for (size_t i = 0; i < sizeof kinds; i++) {
        char want[160];
        m.n = 0;
        u8(&m, (uint8_t)kinds[i]);
        snprintf(want, sizeof want,
                 "pgoutput %s: inside the stream of transaction 1 (no Stream Stop before it) at byte 0",
                 rc_pgo_kind_name(kinds[i]));
        bad(d, &m, RC_ERR_SYNTAX, 0, want);
    }
    /* in the stream the xid comes first */
    m.n = 0;
    u8(&m, 'I');
    u16(&m, 1);
    bad(d, &m, RC_ERR_SYNTAX, 1,
        "pgoutput Insert: transaction id: needs 4 bytes, only 2 left (message truncated) at byte 1");
    m.n = 0;
    u8(&m, 'E');
    ok(d, &m, 0, &msg);
    m.n = 0;
    u8(&m, 'A');
    u32(&m, 1);
    bad(d, &m, RC_ERR_SYNTAX, 5,
        "pgoutput Stream Abort: subtransaction id: needs 4 bytes, only 0 left (message truncated) at byte 5");
    m.n = 0;
    u8(&m, 'c');
    u32(&m, 1);
    u8(&m, 0);
    u64(&m, 1);
    u64(&m, 2);
    u32(&m, 3);
    bad(d, &m, RC_ERR_SYNTAX, 22,
        "pgoutput Stream Commit: commit time: needs 8 bytes, only 4 left (message truncated) at byte 22");
    rc_pgo_free(d);
}

/* Every proper prefix of every valid message is rejected with an offset inside it, and the
 * decoder's stream state does not move. */
static void test_every_truncation(void **state)
{
    (void)state;
    rc_pgo_decoder *d = with_r(2);
    mb all[16];
    int n = 0;
    mb *m;
    m = &all[n++];
    m->n = 0;
    u8(m, 'B'), u64(m, 1), u64(m, 2), u32(m, 3);
    m = &all[n++];
    m->n = 0;
    u8(m, 'C'), u8(m, 0), u64(m, 1), u64(m, 2), u64(m, 3);
    m = &all[n++];
    m->n = 0;
    u8(m, 'O'), u64(m, 1), str(m, "origin");
    m = &all[n++];
    m->n = 0;
    relation_r(m, 100);
    m = &all[n++];
    m->n = 0;
    u8(m, 'Y'), u32(m, 9), str(m, "s"), str(m, "t");
    m = &all[n++];
    m->n = 0;
    u8(m, 'I'), u32(m, 100), u8(m, 'N'), u16(m, 5), text(m, "1"), text(m, "22"), col(m, 'n', 0, 0),
        col(m, 'u', 0, 0), col(m, 'b', "\0", 1);
    m = &all[n++];
    m->n = 0;
    u8(m, 'U'), u32(m, 100), u8(m, 'O'), u16(m, 5), text(m, "1"), text(m, "2"), text(m, "3"),
        text(m, "4"), text(m, "5"), u8(m, 'N'), u16(m, 5), text(m, "1"), text(m, "2"), text(m, "3"),
        text(m, "4"), text(m, "5");
    m = &all[n++];
    m->n = 0;
    u8(m, 'D'), u32(m, 100), u8(m, 'K'), u16(m, 5), text(m, "1"), col(m, 'n', 0, 0), col(m, 'n', 0, 0),
        col(m, 'n', 0, 0), col(m, 'n', 0, 0);
    m = &all[n++];
    m->n = 0;
    u8(m, 'T'), u32(m, 1), u8(m, 1), u32(m, 100);
    m = &all[n++];
    m->n = 0;
    u8(m, 'M'), u8(m, 1), u64(m, 1), str(m, "pfx"), u32(m, 3), raw(m, "abc", 3);
    m = &all[n++];
    m->n = 0;
    u8(m, 'S'), u32(m, 1), u8(m, 1);
    m = &all[n++];
    m->n = 0;
    u8(m, 'c'), u32(m, 1), u8(m, 0), u64(m, 1), u64(m, 2), u64(m, 3);
    m = &all[n++];
    m->n = 0;
    u8(m, 'A'), u32(m, 1), u32(m, 2);
    for (int i = 0; i < n; i++) {
        rc_pgo_msg msg;
        rc_error err;
        for (size_t len = 0; len < all[i].n; len++) {
            rc_error_clear(&err);
            rc_status st = rc_pgo_decode(d, all[i].b, len, 0, &arena, &msg, &err);
            if (st != RC_ERR_SYNTAX) fail_msg("message %d cut to %zu bytes: status %d", i, len, st);
            if (err.offset > len) fail_msg("message %d cut to %zu bytes: offset %zu", i, len, err.offset);
            if (strncmp(err.message, "pgoutput", 8)) fail_msg("message %d: %s", i, err.message);
            assert_false(rc_pgo_in_stream(d));
        }
        rc_error_clear(&err);
        if (all[i].b[0] == 'S') continue; /* whole, it would open a stream */
        assert_int_equal(rc_pgo_decode(d, all[i].b, all[i].n, 0, &arena, &msg, &err), RC_OK);
    }
    rc_pgo_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_malformed_layout),
        cmocka_unit_test(test_malformed_relation_type),
        cmocka_unit_test(test_malformed_other),
        cmocka_unit_test(test_every_truncation),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
