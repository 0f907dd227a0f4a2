/* A randomized model test of the incremental snapshot core's DBLog property
 * (src/sources/incsnap.h, docs/design/incremental-snapshots.md §1.1): a simulated table and
 * its commit log (incsnap_sim.c), random interleavings of writer changes (insert, update,
 * delete, now and then a TRUNCATE; half of them aimed at the chunk being read, some committed
 * between a chunk's watermarks and its read), stream reads, chunk steps and re-reads. After
 * each round: replaying the stream and the emitted reads rebuilds the table exactly, and no
 * `read` of a key follows a newer change of that key. Seeded: a failure names its round. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include "incsnap_sim.h"

enum { ROUNDS = 8000 };

static bool active(const sim *s)
{
    rc_incsnap_tstate st = rc_incsnap_table_at(s->is, 0)->state;
    return st == RC_INCSNAP_QUEUED || st == RC_INCSNAP_RUNNING;
}

/* One round; the table's kind comes from the caller, the rest from the seed. */
static void round_of(bool keyless, bool composite, bool lazy, bool ordered, uint64_t seed,
                     uint64_t *reads, uint64_t *dropped, uint64_t *row_keys)
{
    randev_rng r = {seed * 0x9E3779B97F4A7C15ull + 1};
    rc_incsnap_limits lim = {.chunk_rows = 1 + randev_next(&r) % 8};
    if (!keyless && randev_next(&r) % 4 == 0)
        lim.chunk_bytes = 100 + randev_next(&r) % 300; /* cut chunks too */
    size_t nslot = 4 + randev_next(&r) % 60;
    sim s;
    sim_init(&s, keyless, composite, nslot, (unsigned)(randev_next(&r) % 100), seed, &lim);
    if (lazy) sim_lazy(&s, &lim);
    s.ordered = ordered;
    s.inject = (unsigned)(randev_next(&r) % 60);
    s.near = (unsigned)(randev_next(&r) % 100);
    unsigned budget = (unsigned)(randev_next(&r) % 200), truncates = randev_next(&r) % 8 == 0;
    rc_incsnap_queue(s.is, SIM_TABLE, keyless ? RC_INCSNAP_BY_CTID : RC_INCSNAP_BY_PK, NULL, NULL,
                     NULL);
    unsigned steps = 0;
    while (budget || active(&s) || s.rd < s.nlog) {
        assert_true(++steps < 200000);
        unsigned x = (unsigned)(randev_next(&r) % 100);
        if (budget && x < 35) {
            budget--;
            if (truncates && randev_next(&r) % 50 == 0)
                sim_truncate(&s);
            else
                sim_random_change(&s);
        } else if (x < 75) {
            sim_pump(&s);
        } else if (x < 77) {
            rc_incsnap_reread(s.is);
        } else {
            rc_status rc = rc_incsnap_step(s.is, s.rd == s.nlog || x % 2, &s.err);
            assert_true(rc == RC_OK || rc == RC_SKIP);
        }
    }
    char why[200] = "";
    if (!sim_rebuilt(&s, why, sizeof why) || (!keyless && !sim_dblog(&s, why, sizeof why)))
        fail_msg("%s%s%s table, seed %llu: %s", keyless ? "keyless" : "keyed",
                 composite ? " composite" : "", lazy ? " lazy" : "", (unsigned long long)seed, why);
    const rc_incsnap_table *t = rc_incsnap_table_at(s.is, 0);
    assert_int_equal(t->state, RC_INCSNAP_DONE);
    *reads += t->rows_emitted, *dropped += t->rows_dropped, *row_keys += s.row_keys;
    sim_fini(&s);
}

/* The rounds' ops->row_key calls. */
static uint64_t run(bool keyless, bool composite, bool lazy, bool ordered)
{
    uint64_t reads = 0, dropped = 0, row_keys = 0;
    for (uint64_t seed = 1; seed <= ROUNDS; seed++)
        round_of(keyless, composite, lazy, ordered, seed, &reads, &dropped, &row_keys);
    /* the rounds did exercise the window: rows were both emitted and dropped */
    assert_true(reads > ROUNDS);
    assert_true(dropped > ROUNDS / 10);
    return row_keys;
}

static void test_model_pk(void **state)
{
    (void)state, run(false, false, false, false);
}
static void test_model_composite(void **state)
{
    (void)state, run(false, true, false, false);
}
static void test_model_keyless(void **state)
{
    (void)state, run(true, false, false, false);
}
/* Rows added without their keys (rc_incsnap_add_raw): the images made when a change needs them. */
static void test_model_pk_lazy(void **state)
{
    (void)state, run(false, false, true, false);
}
static void test_model_composite_lazy(void **state)
{
    (void)state, run(false, true, true, false);
}

/* The chunks say their images order as their rows: a change outside a chunk's key range makes
 * no image; the same seeds with fewer images than without. (k1 is an integer; the composite
 * key's second value is text, ordered only when the first differs.) */
static void test_model_pk_ordered(void **state)
{
    (void)state;
    uint64_t ordered = run(false, false, true, true);
    assert_true(ordered < run(false, false, true, false));
}
static void test_model_composite_ordered(void **state)
{
    (void)state;
    uint64_t ordered = run(false, true, true, true);
    assert_true(ordered < run(false, true, true, false));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model_pk),
        cmocka_unit_test(test_model_composite),
        cmocka_unit_test(test_model_keyless),
        cmocka_unit_test(test_model_pk_lazy),
        cmocka_unit_test(test_model_composite_lazy),
        cmocka_unit_test(test_model_pk_ordered),
        cmocka_unit_test(test_model_composite_ordered),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
