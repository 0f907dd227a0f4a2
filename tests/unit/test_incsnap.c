/* The incremental snapshot core (src/sources/incsnap.h) on a simulated table: key images, the
 * window state machine, dedupe by key (composite keys too), the keyless multiset and its
 * documented bound with identical rows, the memory cap, stop / pause / queue, TRUNCATE and
 * re-read. The randomized DBLog model test is test_incsnap_model.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "incsnap_sim.h"

/* The last log entry (a change the writer just made) moved before the last HW in the log:
 * it committed after the chunk was read and before HW was written, inside the window. */
static void in_window(sim *s)
{
    size_t at = s->nlog - 1;
    while (at > 0 && !(s->log[at - 1].op == 'w' && s->log[at - 1].mark == RC_INCSNAP_HIGH)) at--;
    assert_true(at > s->rd); /* a HW the stream has not read */
    at--;
    sim_ev e = s->log[s->nlog - 1];
    memmove(&s->log[at + 1], &s->log[at], (s->nlog - 1 - at) * sizeof e);
    s->log[at] = e;
}

static bool any_active(const sim *s)
{
    for (size_t i = 0; i < rc_incsnap_ntables(s->is); i++) {
        rc_incsnap_tstate st = rc_incsnap_table_at(s->is, i)->state;
        if (st == RC_INCSNAP_QUEUED || st == RC_INCSNAP_RUNNING) return true;
    }
    return false;
}

static void finish(sim *s)
{
    for (int i = 0; i < 10000 && any_active(s); i++) {
        sim_drain(s);
        rc_incsnap_step(s->is, true, &s->err);
    }
    sim_drain(s);
}

static void expect_exact(const sim *s)
{
    char why[200] = "";
    bool ok = sim_rebuilt(s, why, sizeof why) && (s->keyless || sim_dblog(s, why, sizeof why));
    if (!ok) fail_msg("%s", why);
}

static size_t count_op(const sim *s, char op)
{
    size_t n = 0;
    for (size_t i = 0; i < s->nout; i++) n += s->out[i].op == op;
    return n;
}

static void test_key_image(void **state)
{
    (void)state;
    rc_value in[] = {
        {.kind = RC_V_INT, .i = -5},
        {.kind = RC_V_TEXT, .s = RC_STR("héllo")},
        {.kind = RC_V_DECIMAL, .dec = {"12345", 5, 2, true}},
        {.kind = RC_V_DATETIME, .dt = {2024, 5, 1, 12, 30, 59, 123456789, RC_STR("+08:00")}},
        {.kind = RC_V_TIMESTAMP, .ts = {-1, 999}},
        {.kind = RC_V_DATE, .date = {1999, 12, 31}},
        {.kind = RC_V_TIME, .time = {838, 59, 59, true, 5}},
        {.kind = RC_V_UINT, .u = UINT64_MAX},
        {.kind = RC_V_BYTES, .s = {"\0\1", 2}},
        {.kind = RC_V_NULL},
        {.kind = RC_V_BOOL, .b = true},
        {.kind = RC_V_FLOAT64, .f64 = 0.5},
    };
    size_t nin = sizeof in / sizeof in[0];
    rc_buf a, b;
    rc_buf_init(&a, 0), rc_buf_init(&b, 0);
    assert_int_equal(rc_incsnap_key_image(&a, in, nin, NULL), RC_OK);
    rc_value out[16];
    size_t n = 0;
    assert_int_equal(rc_incsnap_key_decode(a.data, a.len, out, 16, &n, NULL), RC_OK);
    assert_int_equal(n, nin);
    for (size_t i = 0; i < n; i++) assert_true(rc_value_equal(&in[i], &out[i]));
    /* the decoded values give the same image (what a chunk read and the stream both give) */
    assert_int_equal(rc_incsnap_key_image(&b, out, n, NULL), RC_OK);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    /* "1" as INT and as TEXT are different keys; prefixes do not collide */
    rc_buf_reset(&a), rc_buf_reset(&b);
    rc_value ab[] = {{.kind = RC_V_TEXT, .s = RC_STR("ab")}, {.kind = RC_V_TEXT, .s = RC_STR("c")}};
    rc_value a_bc[] = {{.kind = RC_V_TEXT, .s = RC_STR("a")},
                       {.kind = RC_V_TEXT, .s = RC_STR("bc")}};
    rc_incsnap_key_image(&a, ab, 2, NULL), rc_incsnap_key_image(&b, a_bc, 2, NULL);
    assert_true(a.len != b.len || memcmp(a.data, b.data, a.len));
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_incsnap_key_decode(a.data, a.len, out, 1, &n, &err), RC_ERR_SYNTAX);
    assert_int_equal(rc_incsnap_key_decode(a.data, a.len - 1, out, 16, &n, NULL), RC_ERR_SYNTAX);
    rc_value unavailable = {.kind = RC_V_UNAVAILABLE};
    assert_int_equal(rc_incsnap_key_image(&a, &unavailable, 1, NULL), RC_ERR_VALUE);
    rc_buf_fini(&a), rc_buf_fini(&b);
}

/* rc_incsnap_key_order of two images made of `a` and `b`. */
static int order_of(const rc_value *a, size_t an, const rc_value *b, size_t bn)
{
    rc_buf x, y;
    rc_buf_init(&x, 0), rc_buf_init(&y, 0);
    assert_int_equal(rc_incsnap_key_image(&x, a, an, NULL), RC_OK);
    assert_int_equal(rc_incsnap_key_image(&y, b, bn, NULL), RC_OK);
    int c = rc_incsnap_key_order(x.data, x.len, y.data, y.len);
    rc_buf_fini(&x), rc_buf_fini(&y);
    return c;
}

/* Integers order as numbers (signed and unsigned), value by value; anything else is unordered. */
static void test_key_order(void **state)
{
    (void)state;
    rc_value m1 = {.kind = RC_V_INT, .i = -1}, p2 = {.kind = RC_V_INT, .i = 2},
             p300 = {.kind = RC_V_INT, .i = 300}, umax = {.kind = RC_V_UINT, .u = UINT64_MAX},
             u1 = {.kind = RC_V_UINT, .u = 1}, tb = {.kind = RC_V_TEXT, .s = RC_STR("b")},
             tc = {.kind = RC_V_TEXT, .s = RC_STR("c")};
    assert_int_equal(order_of(&m1, 1, &p2, 1), -1); /* not by the bytes: -1 is 0xff.. */
    assert_int_equal(order_of(&p300, 1, &p2, 1), 1);  /* not by the first byte */
    assert_int_equal(order_of(&p2, 1, &p2, 1), 0);
    assert_int_equal(order_of(&umax, 1, &u1, 1), 1);
    assert_int_equal(order_of(&u1, 1, &p2, 1), RC_INCSNAP_UNORDERED); /* kinds differ */
    assert_int_equal(order_of(&tb, 1, &tc, 1), RC_INCSNAP_UNORDERED);
    rc_value k2b[] = {p2, tb}, k2c[] = {p2, tc}, k300b[] = {p300, tb}, km1c[] = {m1, tc};
    assert_int_equal(order_of(k2b, 2, k300b, 2), -1); /* the first value decides */
    assert_int_equal(order_of(k300b, 2, km1c, 2), 1);
    assert_int_equal(order_of(k2b, 2, k2c, 2), RC_INCSNAP_UNORDERED); /* a tie, then text */
    rc_value k22[] = {p2, p2};
    assert_int_equal(order_of(k22, 2, &p2, 1), RC_INCSNAP_UNORDERED); /* lengths differ */
    rc_buf x;
    rc_buf_init(&x, 0);
    rc_incsnap_key_image(&x, &p2, 1, NULL);
    assert_int_equal(rc_incsnap_key_order(x.data, x.len, "", 0), RC_INCSNAP_UNORDERED);
    assert_int_equal(rc_incsnap_key_order(x.data, x.len - 1, x.data, x.len), RC_INCSNAP_UNORDERED);
    rc_buf_fini(&x);
}

static void test_state_machine(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 4};
    sim_init(&s, false, false, 10, 100, 1, &lim);
    assert_int_equal(rc_incsnap_step(s.is, true, NULL), RC_SKIP); /* nothing queued */
    assert_int_equal(rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, "s-1", NULL, NULL), RC_OK);
    assert_int_equal(rc_incsnap_step(s.is, false, NULL), RC_SKIP); /* stream not caught up */
    assert_int_equal(rc_incsnap_step(s.is, true, NULL), RC_OK);
    assert_int_equal(rc_incsnap_phase_of(s.is), RC_INCSNAP_READ);
    assert_int_equal(s.nlog, 2); /* LW, HW */
    assert_int_equal(rc_incsnap_buffered(s.is, NULL), 4);
    assert_int_equal(rc_incsnap_step(s.is, true, NULL), RC_SKIP); /* one chunk in flight */
    sim_pump(&s);
    assert_int_equal(rc_incsnap_phase_of(s.is), RC_INCSNAP_OPEN);
    rc_incsnap_on_mark(s.is, RC_INCSNAP_HIGH, 99, NULL); /* another chunk's: ignored */
    assert_int_equal(rc_incsnap_phase_of(s.is), RC_INCSNAP_OPEN);
    sim_pump(&s); /* HW, then the emit at its transaction's end */
    assert_int_equal(rc_incsnap_phase_of(s.is), RC_INCSNAP_IDLE);
    assert_int_equal(count_op(&s, 'S'), 1);
    assert_int_equal(count_op(&s, 'r'), 4);
    assert_int_equal(s.out[1].after.k1, 0);
    assert_int_equal(s.out[4].after.k1, 3);
    finish(&s);
    const rc_incsnap_table *t = rc_incsnap_table_at(s.is, 0);
    assert_int_equal(t->state, RC_INCSNAP_DONE);
    assert_int_equal(t->rows_emitted, 10);
    assert_int_equal(t->chunks, 3);
    assert_string_equal(t->signal, "s-1");
    assert_int_equal(s.out[s.nout - 1].op, 'E');
    expect_exact(&s);
    sim_fini(&s);
}

/* Changes of keys in the chunk between LW and HW drop those rows; an insert inside the
 * chunk's range after the read is streamed, not read. */
static void test_dedupe(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 100};
    sim_init(&s, false, false, 10, 100, 2, &lim);
    sim_delete(&s, 7);
    rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, NULL, NULL, NULL);
    rc_incsnap_step(s.is, true, NULL);
    sim_update(&s, 3, 3), in_window(&s);
    sim_delete(&s, 5), in_window(&s);
    rc_value other = {.kind = RC_V_INT, .i = 1};
    assert_int_equal(rc_incsnap_on_change(s.is, "public.other", &other, NULL, 1, NULL), RC_OK);
    sim_insert(&s, 7), in_window(&s);
    sim_drain(&s);
    const rc_incsnap_table *t = rc_incsnap_table_at(s.is, 0);
    assert_int_equal(t->rows_read, 9);
    assert_int_equal(t->rows_dropped, 2);
    assert_int_equal(count_op(&s, 'r'), 7);
    for (size_t i = 0; i < s.nout; i++)
        if (s.out[i].op == 'r') assert_true(s.out[i].after.k1 != 3 && s.out[i].after.k1 != 5);
    assert_int_equal(t->state, RC_INCSNAP_DONE);
    expect_exact(&s);
    sim_fini(&s);
}

/* (k1, k2): a change of (1,'b') drops that row only; the cursor is the composite key. */
static void test_composite(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 5};
    sim_init(&s, false, true, 12, 100, 3, &lim);
    rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, NULL, NULL, NULL);
    rc_incsnap_step(s.is, true, NULL);
    sim_update(&s, 4, 4), in_window(&s); /* (1,'b') */
    sim_drain(&s);
    assert_int_equal(count_op(&s, 'r'), 4);
    rc_value v[2];
    size_t n;
    const rc_incsnap_table *t = rc_incsnap_table_at(s.is, 0);
    assert_int_equal(rc_incsnap_key_decode(t->cursor.data, t->cursor.len, v, 2, &n, NULL), RC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(v[0].i, 1); /* (1,'b'): the chunk's last key, dropped row or not */
    assert_memory_equal(v[1].s.p, "b", 1);
    finish(&s);
    expect_exact(&s);
    sim_fini(&s);
}

/* Keyless (ctid pages): rows moved by updates to pages not read yet, deleted, inserted, all
 * while chunks run; distinct rows rebuild exactly. */
static void test_keyless(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 4};
    sim_init(&s, true, false, 16, 50, 4, &lim);
    rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_CTID, NULL, NULL, NULL);
    for (int round = 0; rc_incsnap_step(s.is, true, NULL) == RC_OK; round++) {
        for (size_t i = 0; i < s.nslot; i++)
            if (s.slot[i].present && i % 3 == (size_t)round % 3) {
                sim_update(&s, i, (i + 5) % s.nslot), in_window(&s);
                break;
            }
        if (!s.slot[round * 2 % 16].present) sim_insert(&s, (size_t)round * 2 % 16);
        sim_drain(&s);
    }
    finish(&s);
    expect_exact(&s);
    sim_fini(&s);
}

/* The documented bound: two identical rows, the stream changes the copy on a page not read yet
 * after the other copy was read: the replay ends one copy short (never a silent extra). */
static void test_keyless_duplicates(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 4};
    sim_init(&s, true, false, 8, 0, 5, &lim);
    s.slot[0] = s.slot[5] = (sim_row){1, 0, ++s.clock, true}; /* page 0 and page 1 */
    int64_t x = s.clock;
    rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_CTID, NULL, NULL, NULL);
    rc_incsnap_step(s.is, true, NULL);
    sim_drain(&s); /* page 0: X read */
    assert_int_equal(sim_copies(&s, x), 1);
    sim_update(&s, 5, 5); /* the copy on page 1 becomes Y */
    int64_t y = s.clock;
    finish(&s);
    assert_int_equal(sim_copies(&s, y), 1);
    assert_int_equal(sim_copies(&s, x), 0); /* the table still holds one X */
    assert_true(s.slot[0].present && s.slot[0].v == x);
    sim_fini(&s);
}

/* Past twice chunk.bytes the read stops: the chunk is the prefix, the next limit halves, and
 * every row still arrives once. */
static void test_memory_cap(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 100, .chunk_bytes = 200};
    sim_init(&s, false, false, 40, 100, 6, &lim);
    rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, NULL, NULL, NULL);
    rc_incsnap_step(s.is, true, NULL);
    size_t bytes, rows = rc_incsnap_buffered(s.is, &bytes);
    assert_true(rows < 40);
    assert_true(bytes > 400 && bytes < 400 + 64);
    sim_drain(&s);
    const rc_incsnap_table *t = rc_incsnap_table_at(s.is, 0);
    assert_int_equal(t->state, RC_INCSNAP_RUNNING); /* a cut chunk is not the last */
    rc_incsnap_step(s.is, true, NULL);
    assert_true(t->limit <= 50);
    assert_true(rc_incsnap_buffered(s.is, &bytes) <= t->limit);
    assert_true(bytes <= 400);
    finish(&s);
    assert_int_equal(t->rows_emitted, 40);
    expect_exact(&s);
    sim_fini(&s);
}

/* The source's estimate bounds the first chunk (chunk_bytes / avg_width); then the measured
 * width does. */
static void test_estimate(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 100, .chunk_bytes = 1000};
    sim_init(&s, false, false, 60, 100, 10, &lim);
    rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, NULL, NULL, NULL);
    assert_int_equal(rc_incsnap_estimate(s.is, "public.none", 1, 1), RC_SKIP);
    assert_int_equal(rc_incsnap_estimate(s.is, SIM_TABLE, 60, 100), RC_OK);
    rc_incsnap_step(s.is, true, NULL);
    const rc_incsnap_table *t = rc_incsnap_table_at(s.is, 0);
    assert_int_equal(t->limit, 10);
    assert_int_equal(t->estimate, 60);
    sim_drain(&s);
    rc_incsnap_step(s.is, true, NULL);
    assert_int_equal(t->limit, 1000 / (t->avg_width)); /* 46 bytes a row measured: 21 */
    assert_int_equal(t->limit, 21);
    finish(&s);
    expect_exact(&s);
    sim_fini(&s);
}

static void test_queue_stop_pause(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 3};
    sim_init(&s, false, false, 10, 100, 7, &lim);
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, "s-1", NULL, NULL), RC_OK);
    assert_int_equal(rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, "s-2", NULL, &err),
                     RC_SKIP);
    assert_string_equal(err.message,
                        "public.t: already being snapshotted (chunk 0); signal s-2 ignored for it");
    assert_int_equal(rc_incsnap_queue(s.is, "public.u", RC_INCSNAP_BY_PK, NULL, "x > 1", NULL),
                     RC_OK);
    rc_incsnap_pause(s.is, true);
    assert_int_equal(rc_incsnap_step(s.is, true, NULL), RC_SKIP);
    rc_incsnap_pause(s.is, false);
    rc_incsnap_step(s.is, true, NULL);
    sim_drain(&s);
    rc_incsnap_step(s.is, true, NULL); /* chunk 2 in flight */
    rc_incsnap_pause(s.is, true);      /* it finishes, no new one starts */
    sim_drain(&s);
    assert_int_equal(rc_incsnap_step(s.is, true, NULL), RC_SKIP);
    assert_int_equal(count_op(&s, 'r'), 6);
    rc_incsnap_pause(s.is, false);
    rc_incsnap_step(s.is, true, NULL);
    assert_int_equal(rc_incsnap_stop(s.is, SIM_TABLE, NULL), RC_OK); /* chunk 3 discarded */
    sim_drain(&s);
    assert_int_equal(count_op(&s, 'r'), 6);
    assert_int_equal(s.out[s.nout - 1].op, 'X');
    assert_int_equal(rc_incsnap_table_at(s.is, 0)->state, RC_INCSNAP_STOPPED);
    /* public.u is next; stopping it while queued hands no edge */
    assert_int_equal(rc_incsnap_stop(s.is, NULL, NULL), RC_OK);
    assert_int_equal(rc_incsnap_table_at(s.is, 1)->state, RC_INCSNAP_STOPPED);
    rc_error_clear(&err);
    assert_int_equal(rc_incsnap_stop(s.is, NULL, &err), RC_SKIP);
    assert_string_equal(err.message, "no snapshot to stop");
    /* a stopped table queued again starts from its first row */
    assert_int_equal(rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, "s-3", NULL, NULL), RC_OK);
    assert_int_equal(rc_incsnap_ntables(s.is), 2);
    s.nout = 0;
    finish(&s);
    assert_int_equal(count_op(&s, 'r'), 10);
    expect_exact(&s);
    sim_fini(&s);
}

/* A TRUNCATE in the window empties the buffer; a re-read discards the chunk and reads the
 * same range again; a HW whose LW was not seen re-reads. */
static void test_truncate_reread(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 4};
    sim_init(&s, false, false, 10, 100, 8, &lim);
    rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, NULL, NULL, NULL);
    rc_incsnap_step(s.is, true, NULL);
    sim_pump(&s);
    rc_incsnap_reread(s.is);
    assert_int_equal(rc_incsnap_phase_of(s.is), RC_INCSNAP_IDLE);
    sim_drain(&s); /* the discarded chunk's HW: ignored */
    assert_int_equal(count_op(&s, 'r'), 0);
    rc_incsnap_step(s.is, true, NULL);
    rc_incsnap_on_mark(s.is, RC_INCSNAP_HIGH, 2, NULL); /* HW before its LW */
    assert_int_equal(rc_incsnap_phase_of(s.is), RC_INCSNAP_IDLE);
    assert_int_equal(rc_incsnap_table_at(s.is, 0)->rereads, 2);
    s.nlog = s.rd;
    rc_incsnap_step(s.is, true, NULL);
    sim_truncate(&s), in_window(&s);
    for (size_t i = 0; i < 6; i++) sim_insert(&s, i);
    finish(&s);
    assert_int_equal(count_op(&s, 'r'),
                     2); /* the chunk's rows were truncated; keys 4 and 5, inserted
                          * after the truncate, are read by the next chunk too */
    expect_exact(&s);
    sim_fini(&s);
}

/* The keyless multiset past snapshot.keyless.bytes stops the table, naming it. */
static void test_keyless_cap(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 4, .keyless_bytes = 100};
    sim_init(&s, true, false, 40, 50, 9, &lim);
    rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_CTID, NULL, NULL, NULL);
    rc_incsnap_step(s.is, true, NULL);
    sim_drain(&s);
    for (size_t i = 0; i < 10; i++) sim_random_change(&s);
    sim_drain(&s);
    assert_int_equal(rc_incsnap_table_at(s.is, 0)->state, RC_INCSNAP_STOPPED);
    assert_non_null(
        strstr(s.err.message, "public.t: more than 100 bytes of changes to a table without a key"));
    assert_int_equal(count_op(&s, 'X'), 1);
    sim_fini(&s);
}

static void read_later_run(sim *s);

/* A read left for later (a source reading the next chunk while it hands out the last one's
 * rows): step writes LW only, the rows and HW come with rc_incsnap_read_end; changes between
 * LW and the read are seen by it. Then chunks started as soon as the last one was emitted,
 * the stream behind, changes everywhere: the table rebuilt, DBLog kept. */
static void test_read_later(void **state)
{
    (void)state;
    sim s;
    rc_incsnap_limits lim = {.chunk_rows = 4};
    sim_init(&s, false, false, 10, 100, 3, &lim);
    s.later = true;
    rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, NULL, NULL, NULL);
    assert_int_equal(rc_incsnap_step(s.is, true, NULL), RC_OK);
    assert_int_equal(rc_incsnap_phase_of(s.is), RC_INCSNAP_READ);
    assert_true(rc_incsnap_reading(s.is));
    assert_int_equal(s.nlog, 1); /* LW */
    assert_int_equal(rc_incsnap_buffered(s.is, NULL), 0);
    assert_int_equal(rc_incsnap_step(s.is, true, NULL), RC_SKIP);
    sim_update(&s, 2, 2); /* after LW, before the read: the read has it */
    sim_read_end(&s);
    assert_false(rc_incsnap_reading(s.is));
    assert_int_equal(s.nlog, 3); /* LW, the update, HW */
    assert_int_equal(rc_incsnap_buffered(s.is, NULL), 4);
    assert_int_equal(rc_incsnap_read_end(s.is, RC_OK, NULL), RC_SKIP);
    sim_drain(&s);
    assert_int_equal(count_op(&s, 'r'), 3); /* key 2 changed in the window: dropped */
    s.later = false;
    finish(&s);
    expect_exact(&s);
    sim_fini(&s);
    for (uint64_t seed = 1; seed <= 20; seed++) {
        lim.chunk_rows = 1 + seed % 9;
        sim_init(&s, false, seed % 2, 300, 70, seed, &lim);
        s.later = true;
        s.inject = 30;
        rc_incsnap_queue(s.is, SIM_TABLE, RC_INCSNAP_BY_PK, NULL, NULL, NULL);
        read_later_run(&s);
    }
}

/* test_read_later's random part on s: chunks started when the last one is emitted. */
static void read_later_run(sim *s)
{
    for (int i = 0; i < 20000 && any_active(s); i++) {
        if (rc_incsnap_step(s->is, true, &s->err) == RC_OK && rc_incsnap_reading(s->is)) {
            for (int k = 0; k < 3; k++) sim_random_change(s); /* between LW and the read */
            sim_read_end(s);
        }
        sim_random_change(s);
        for (int k = 0; k < 3; k++) sim_pump(s); /* the stream behind the chunks */
    }
    s->later = false;
    finish(s);
    assert_int_equal(rc_incsnap_table_at(s->is, 0)->state, RC_INCSNAP_DONE);
    assert_true(rc_incsnap_table_at(s->is, 0)->chunks > 10);
    expect_exact(s);
    sim_fini(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_key_image),        cmocka_unit_test(test_key_order),
        cmocka_unit_test(test_state_machine),
        cmocka_unit_test(test_dedupe),           cmocka_unit_test(test_composite),
        cmocka_unit_test(test_keyless),          cmocka_unit_test(test_keyless_duplicates),
        cmocka_unit_test(test_memory_cap),       cmocka_unit_test(test_estimate),
        cmocka_unit_test(test_queue_stop_pause), cmocka_unit_test(test_truncate_reread),
        cmocka_unit_test(test_keyless_cap),      cmocka_unit_test(test_read_later),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
