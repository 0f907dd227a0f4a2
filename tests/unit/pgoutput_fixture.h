/* Fixtures of the pgoutput decoder tests (test_pgoutput*.c): the decoding arena, a message
 * decoded or refused with its exact error, and relation 100 public.r. */
#ifndef RC_TEST_PGOUTPUT_FIXTURE_H
#define RC_TEST_PGOUTPUT_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/pg/pgoutput.h"
#include "pg_msg_build.h"

static inline size_t from_hex(const char *h, uint8_t *out)
{
    size_t n = 0;
    for (; h[0] && h[1]; h += 2) {
        unsigned v;
        if (sscanf(h, "%2x", &v) != 1) fail_msg("bad hex in test vector");
        out[n++] = (uint8_t)v;
    }
    return n;
}

static rc_arena arena;

static inline int setup(void **state)
{
    (void)state;
    rc_arena_init(&arena);
    return 0;
}

static inline int teardown(void **state)
{
    (void)state;
    rc_arena_fini(&arena);
    return 0;
}

static inline void ok(rc_pgo_decoder *d, const mb *m, uint64_t lsn, rc_pgo_msg *out)
{
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_pgo_decode(d, m->b, m->n, lsn, &arena, out, &err);
    if (st != RC_OK) fail_msg("decode failed: %s", err.message);
}

static inline void bad(rc_pgo_decoder *d, const mb *m, rc_status code, size_t offset, const char *message)
{
    rc_error err;
    rc_pgo_msg out;
    rc_error_clear(&err);
    rc_status st = rc_pgo_decode(d, m->b, m->n, 7, &arena, &out, &err);
    assert_int_equal(st, code);
    assert_int_equal(err.code, code);
    assert_string_equal(err.message, message);
    assert_int_equal(err.offset, offset);
}

static inline void datum_is(const rc_pgo_datum *c, char kind, const char *v, size_t n)
{
    assert_int_equal(c->kind, kind);
    assert_int_equal(c->len, n);
    if (v)
        assert_memory_equal(c->data, v, n);
    else
        assert_null(c->data);
}

/* Relation 100 public.r (d): id int4 key, a text, b text, c numeric(10,2), d varchar(20) */
static inline void relation_r(mb *m, uint32_t oid)
{
    u8(m, 'R');
    u32(m, oid);
    str(m, "public");
    str(m, "r");
    u8(m, 'd');
    u16(m, 5);
    static const char *names[] = {"id", "a", "b", "c", "d"};
    static const uint32_t types[] = {23, 25, 25, 1700, 1043};
    static const uint32_t mods[] = {0xffffffff, 0xffffffff, 0xffffffff, (10 << 16 | 2) + 4, 24};
    for (int i = 0; i < 5; i++) {
        u8(m, i == 0);
        str(m, names[i]);
        u32(m, types[i]);
        u32(m, mods[i]);
    }
}

static inline rc_pgo_decoder *with_r(int proto)
{
    rc_pgo_decoder *d = rc_pgo_new(proto);
    assert_non_null(d);
    mb m = {0};
    rc_pgo_msg msg;
    relation_r(&m, 100);
    ok(d, &m, 0, &msg);
    return d;
}
#endif
