/* Encoders that keep what they derive from a cached column list (rc_event.cols_id: the
 * column keys, a schema text) write the same bytes as without the cache: every encoder, on
 * random events whose column lists come and go (a list, another, the first again, the first
 * without an id), against a second encoder of the format that never sees an id. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/format.h"
#include "randev.h"

/* Encodes ev with both encoders (cols_id `id` for the first, none for the second) and
 * requires the same status, message and bytes. */
static void same(const rc_format *fmt, void *cached, void *plain, const rc_event *ev, const void *id, rc_buf *b1, rc_buf *b2, int round)
{
    rc_event e1 = *ev, e2 = *ev;
    e1.cols_id = id, e2.cols_id = NULL;
    rc_error r1, r2;
    rc_error_clear(&r1), rc_error_clear(&r2);
    rc_buf_reset(b1), rc_buf_reset(b2);
    rc_status s1 = fmt->encode_value(cached, &e1, b1, &r1), s2 = fmt->encode_value(plain, &e2, b2, &r2);
    if (s1 != s2 || strcmp(r1.message, r2.message) || b1->len != b2->len || memcmp(b1->data, b2->data, b1->len))
        fail_msg("%s, round %d: with the cache %s \"%s\"\n%.*s\nwithout %s \"%s\"\n%.*s", fmt->name, round, rc_status_name(s1), r1.message,
                 (int)b1->len, b1->data, rc_status_name(s2), r2.message, (int)b2->len, b2->data);
}

static void test_cached_columns_write_the_same(void **state)
{
    (void)state;
    rc_options none = {0};
    rc_arena a;
    rc_arena_init(&a);
    rc_buf b1, b2;
    rc_buf_init(&b1, 0), rc_buf_init(&b2, 0);
    for (const rc_format *const *f = rc_formats; *f; f++) {
        const rc_format *fmt = *f;
        void *cached = NULL, *plain = NULL;
        rc_error err;
        rc_error_clear(&err);
        if (!fmt->enc_new) continue;
        if (fmt->enc_new(&none, &cached, &err) != RC_OK || fmt->enc_new(&none, &plain, &err) != RC_OK) fail_msg("%s: %s", fmt->name, err.message);
        randev_rng rng = {20261201};
        enum { ROUNDS = 400 };
        static int ids[ROUNDS][2]; /* the cols_id of each list: an address of its own, as a cache entry's */
        for (int round = 0; round < ROUNDS; round++) {
            rc_event ev[2];
            rc_arena_reset(&a);
            randev_make(&rng, &a, &ev[0]);
            randev_make(&rng, &a, &ev[1]);
            static const int order[] = {0, 1, 0, 0, 1, 1};
            for (size_t k = 0; k < sizeof order / sizeof *order; k++)
                same(fmt, cached, plain, &ev[order[k]], k == 3 ? NULL : &ids[round][order[k]], &b1, &b2, round);
        }
        if (fmt->flush) {
            rc_buf_reset(&b1), rc_buf_reset(&b2);
            assert_int_equal(fmt->flush(cached, &b1, &err), fmt->flush(plain, &b2, &err));
            assert_int_equal(b1.len, b2.len);
            if (b1.len) assert_memory_equal(b1.data, b2.data, b1.len);
        }
        fmt->enc_free(cached);
        fmt->enc_free(plain);
    }
    rc_buf_fini(&b1), rc_buf_fini(&b2);
    rc_arena_fini(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cached_columns_write_the_same),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
