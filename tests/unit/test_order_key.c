/* Order keys (src/pipeline/order_key.h, the rowcast.eos header): fixed width per source, byte
 * order (memcmp) = source order — PostgreSQL commit LSNs across transactions, MySQL rows across
 * the several events of one transaction and across binlog files, line offsets, 'a' before 'e'
 * at an equal position, the records of one event — and the numbering the sources hand over:
 * rc_db_item_order (rows of several items of one transaction, a BEGIN starting again) and
 * pg_events' commit LSN of plain and streamed transactions. */
#include "pg_events_fixture.h"
#include "pipeline/order_key.h"
#include "sources/db_phases.h"

typedef struct kv {
    rc_item_order o;
    uint64_t ev;
    unsigned rec;
} kv;

static size_t key_of(const kv *k, char out[RC_ORDER_KEY_MAX])
{
    return rc_order_key(&k->o, k->ev, k->rec, out);
}

/* every key of ks[0..n) has width `width` and sorts after the one before it */
static void rising(const kv *ks, size_t n, size_t width)
{
    char prev[RC_ORDER_KEY_MAX], cur[RC_ORDER_KEY_MAX];
    for (size_t i = 0; i < n; i++) {
        size_t len = key_of(&ks[i], cur);
        assert_int_equal(len, width);
        if (i && memcmp(prev, cur, width) >= 0)
            fail_msg("key %zu (%.*s) not above key %zu (%.*s)", i, (int)width, cur, i - 1,
                     (int)width, prev);
        memcpy(prev, cur, width);
    }
}

static void key_is(const kv *k, const char *want)
{
    char out[RC_ORDER_KEY_MAX];
    size_t n = key_of(k, out);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(out, want, n);
}

#define PG(L, K, N, E, R)                                                                          \
    {                                                                                              \
        {.a = (L), .num = (N), .src = 'p', .kind = (K)}, (E), (R)                                  \
    }
#define MY(F, O, K, N, E, R)                                                                       \
    {                                                                                              \
        {.a = (F), .b = (O), .num = (N), .src = 'm', .kind = (K)}, (E), (R)                        \
    }
#define LN(O, R)                                                                                   \
    {                                                                                              \
        {.a = (O), .src = 'l'}, 0, (R)                                                             \
    }

/* the design's examples (docs/design/exactly-once.md §2.1), and the widths at the limits */
static void test_format(void **state)
{
    (void)state;
    kv p = PG(0x16b3748, 'e', 1, 2, 0), m = MY(42, 1234, 'e', 200000, 0, 1), l = LN(0xa3c1f0, 0);
    key_is(&p, "p00000000016b3748e0000000000300");
    key_is(&m, "m0000002a00000000000004d2e00000030d4001");
    key_is(&l, "l0000000000a3c1f000");
    kv top = PG(UINT64_MAX, 'e', RC_ORDER_NUMBER_MAX, 0, 255);
    key_is(&top, "pffffffffffffffffefffffffffffff");
    kv over[] = {PG(1, 'e', RC_ORDER_NUMBER_MAX, 1, 0), PG(1, 'e', 0, 0, 256),
                 MY(UINT64_C(1) << 32, 4, 'e', 0, 0, 0), LN(0, 300)};
    char out[RC_ORDER_KEY_MAX];
    for (size_t i = 0; i < sizeof over / sizeof *over; i++)
        assert_int_equal(key_of(&over[i], out), 0); /* never a wider key */
    kv none = {{0}, 0, 0};
    assert_int_equal(key_of(&none, out), 0);
}

static void test_pg_order(void **state)
{
    (void)state;
    const kv ks[] = {
        PG(0, 's', 0, 0, 0),
        PG(0, 's', 0, 1, 0),
        PG(0, 's', 70000, 0, 0), /* initial snapshot rows */
        PG(0xff, 'e', 0, 0, 0),  /* BEGIN of a transaction committed at 0/FF */
        PG(0xff, 'e', 1, 0, 0),  /* its row: a delete */
        PG(0xff, 'e', 1, 0, 1),  /* and the delete's tombstone */
        PG(0xff, 'e', 2, 0, 0),  /* COMMIT */
        PG(0x130, 'a', 0, 0, 0), /* incremental reads at the end of 0/FF's (0/130) */
        PG(0x130, 'a', 0, 1, 0),
        PG(0x130, 'a', 0, 15, 0),
        PG(0x130, 'e', 0, 0, 0), /* a transaction whose commit LSN is that position */
        PG(0x200, 'e', 0, 0, 0),
        PG(0x200, 'e', 0, 0x1000, 0),
        PG(UINT64_C(0x100000000), 'e', 0, 0, 0), /* 1/0 after 0/FFFFFFFF: not by text */
        PG(UINT64_C(0x100000000), 'e', RC_ORDER_NUMBER_MAX, 0, 0),
    };
    rising(ks, sizeof ks / sizeof *ks, 31);
}

static void test_mysql_order(void **state)
{
    (void)state;
    const kv ks[] = {
        MY(0, 0, 's', 0, 0, 0),
        MY(0, 0, 's', 0, 9, 0), /* snapshot rows */
        MY(1, 4, 'e', 0, 0, 0), /* a transaction from 000001:4 */
        MY(1, 4, 'e', 1, 0, 0),
        MY(1, 4, 'e', 1, 2, 0), /* its first ROWS event: 3 rows */
        MY(1, 4, 'e', 4, 0, 0),
        MY(1, 4, 'e', 4, 1, 1), /* the next one's rows */
        MY(1, 0x10000, 'a', 0, 0, 0),
        MY(1, 0x10000, 'a', 0, 1, 0), /* reads at a boundary */
        MY(1, 0x10000, 'e', 0, 0, 0), /* the transaction there */
        MY(1, UINT64_C(0xffffffff), 'e', 0, 0, 0),
        MY(2, 4, 'e', 0, 0, 0), /* the next binlog file */
        MY(10, 4, 'e', 0, 0, 0),
        MY(0xffffffff, 4, 'e', 0, 0, 0),
    };
    rising(ks, sizeof ks / sizeof *ks, 39);
}

static void test_lines_order(void **state)
{
    (void)state;
    const kv ks[] = {LN(0, 0),   LN(0, 1),      LN(0, 255),
                     LN(395, 0), LN(0x1000, 0), LN(UINT64_C(1) << 40, 0)};
    rising(ks, sizeof ks / sizeof *ks, 19);
}

/* An item of n events of op `op` at (kind, a, b) in the source's batch, ended and ordered */
static rc_item_order item(rc_db_source *d, rc_op op, size_t n, char kind, uint64_t a, uint64_t b)
{
    rc_source_item *it = rc_db_item_new(d, "test");
    rc_batch *bt = rc_db_batch(&d->batches);
    for (size_t i = 0; i < n; i++) {
        rc_event *ev = rc_event_list_push(&bt->events);
        assert_non_null(ev);
        memset(ev, 0, sizeof *ev);
        ev->op = op;
    }
    rc_db_item_end(d, it, rc_pos_mysql(a, b, 0));
    rc_db_item_order(d, it, 'm', kind, a, b);
    return it->order;
}

static void test_db_numbering(void **state)
{
    (void)state;
    rc_db_source d;
    memset(&d, 0, sizeof d);
    assert_true(rc_db_batches_init(&d.batches, NULL, NULL));
    rc_db_batches_take(&d.batches);
    assert_int_equal(item(&d, RC_OP_BEGIN, 1, 'e', 1, 4).num, 0);
    assert_int_equal(item(&d, RC_OP_INSERT, 3, 'e', 1, 4).num, 1); /* rows 1..3 */
    assert_int_equal(item(&d, RC_OP_UPDATE, 2, 'e', 1, 4).num, 4); /* the next event's: 4, 5 */
    assert_int_equal(item(&d, RC_OP_COMMIT, 1, 'e', 1, 4).num, 6);
    assert_int_equal(item(&d, RC_OP_READ, 1, 'a', 1, 900).num, 0); /* reads at the boundary */
    assert_int_equal(item(&d, RC_OP_READ, 1, 'a', 1, 900).num, 1);
    assert_int_equal(item(&d, RC_OP_BEGIN, 1, 'e', 1, 900).num, 0);
    assert_int_equal(item(&d, RC_OP_INSERT, 2, 'e', 1, 900).num, 1);
    /* the stream restarted at 1:900: the transaction comes again from its BEGIN, numbered alike */
    assert_int_equal(item(&d, RC_OP_BEGIN, 1, 'e', 1, 900).num, 0);
    rc_item_order o = item(&d, RC_OP_INSERT, 2, 'e', 1, 900);
    assert_int_equal(o.num, 1);
    assert_int_equal(o.a, 1);
    assert_int_equal(o.b, 900);
    assert_int_equal(o.src, 'm');
    assert_int_equal(item(&d, RC_OP_DDL, 1, 'e', 2, 4).num, 0); /* a DDL: a place of its own */
    rc_db_batches_fini(&d.batches);
}

/* pg_events: the commit LSN of the transaction whose events came last, a streamed one's at its
 * Stream Commit (the order key's LSN), kept after the Commit */
static void test_pg_commit_lsn(void **state)
{
    (void)state;
    run *r = r_new(2, 0);
    static const pcol c[] = {{"id", 23, -1, 1}, {"s", 25, -1, 0}};
    static const char *const i1[] = {"1", "a"};
    assert_int_equal(rc_pg_events_order_lsn(r->e), 0);
    relation(r, 503, "t", 'd', 2, c);
    stream_start(r, 800, 1);
    change(r, 'I', 503, 0, NULL, i1, 2, 0x4100);
    stream_stop(r);
    begin(r, 0x4400, T1, 850);
    assert_int_equal(rc_pg_events_order_lsn(r->e), 0x4400);
    change(r, 'I', 503, 0, NULL, i1, 2, 0x4350);
    commit(r, 0x4400, 0x4430, T1);
    assert_int_equal(rc_pg_events_order_lsn(r->e), 0x4400);
    stream_commit(r, 800, 0x4600, 0x4630, T1);
    assert_int_equal(rc_pg_events_order_lsn(r->e), 0x4600);
    r_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_format),       cmocka_unit_test(test_pg_order),
        cmocka_unit_test(test_mysql_order),  cmocka_unit_test(test_lines_order),
        cmocka_unit_test(test_db_numbering), cmocka_unit_test(test_pg_commit_lsn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
