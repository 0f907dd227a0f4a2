/* Fixtures of the pg_events tests (test_pg_events*.c): a run (pgoutput decoder, pg_events, the
 * events it made), the messages of a transaction and of a stream fed to it, the events
 * rendered as native lines, and table public.t with its expected JSON parts. */
#ifndef RC_TEST_PG_EVENTS_FIXTURE_H
#define RC_TEST_PG_EVENTS_FIXTURE_H

#include <setjmp.h>
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
#include "pg_msg_build.h"

/* a tuple: "n" null, "u" unchanged, anything else a text value */
static inline void tuple(mb *m, int n, const char *const *vals)
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
static inline run *r_new_opts(int proto, rc_pg_events_opts o)
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

static inline run *r_new(int proto, size_t max_bytes)
{
    return r_new_opts(proto, (rc_pg_events_opts){.stream_max_bytes = max_bytes});
}

static inline void r_free(run *r)
{
    rc_event_list_fini(&r->out);
    rc_pg_events_free(r->e);
    rc_pgo_free(r->d);
    rc_arena_fini(&r->a);
    free(r);
}

/* Decodes m (its XLogData start `lsn`) and adds its events; returns the status, err filled. */
static inline rc_status feed(run *r, mb *m, uint64_t lsn, rc_error *err)
{
    rc_pgo_msg msg;
    rc_error_clear(err);
    rc_status st = rc_pgo_decode(r->d, m->b, m->n, lsn, &r->a, &msg, err);
    if (st != RC_OK) fail_msg("pgoutput: %s", err->message);
    return rc_pg_events_add(r->e, &msg, m->b, m->n, &r->a, &r->out, err);
}

static inline void ok(run *r, mb *m, uint64_t lsn)
{
    rc_error err;
    if (feed(r, m, lsn, &err) != RC_OK) fail_msg("events: %s", err.message);
}

/* the message head: the type byte, and the stream's xid inside a chunk */
static inline mb head(run *r, char kind)
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

static inline void relation(run *r, uint32_t oid, const char *table, char ident, int n, const pcol *cols)
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

static inline void begin(run *r, uint64_t final_lsn, int64_t t, uint32_t xid)
{
    mb m = {0};
    u8(&m, 'B');
    u64(&m, final_lsn);
    u64(&m, (uint64_t)t);
    u32(&m, xid);
    ok(r, &m, 0);
}

static inline void commit(run *r, uint64_t lsn, uint64_t end, int64_t t)
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
static inline void change(run *r, char kind, uint32_t oid, char old_kind, const char *const *old,
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

static inline void stream_start(run *r, uint32_t xid, int first)
{
    mb m = {0};
    u8(&m, 'S');
    u32(&m, xid);
    u8(&m, (unsigned)first);
    r->stream = 0;
    ok(r, &m, 0);
    r->stream = xid;
}

static inline void stream_stop(run *r)
{
    mb m = {0};
    u8(&m, 'E');
    ok(r, &m, 0);
    r->stream = 0;
}

/* All events so far as native lines, each followed by '\n'; the list is emptied. */
static inline char *render(run *r)
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

static inline void lines_are(run *r, const char *expect)
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

static inline void stream_commit(run *r, uint32_t xid, uint64_t lsn, uint64_t end, int64_t t)
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

static inline void stream_abort(run *r, uint32_t xid, uint32_t subxid)
{
    mb m = {0};
    u8(&m, 'A');
    u32(&m, xid);
    u32(&m, subxid);
    ok(r, &m, 0);
}

#define S_COLS                                                                                     \
    "\"columns\":[{\"name\":\"id\",\"type\":\"integer\",\"pk\":true},{\"name\":\"s\",\"type\":"    \
    "\"text\",\"nullable\":true}]"

#endif
