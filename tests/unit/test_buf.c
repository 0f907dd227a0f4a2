/* The output buffer and the arena. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "rowcast/arena.h"
#include "rowcast/buf.h"

static void test_grow_and_reset_keeps_capacity(void **state)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    for (int i = 0; i < 1000; i++) rc_buf_puts(&b, "0123456789");
    assert_int_equal(b.len, 10000);
    assert_int_equal(b.err, RC_OK);
    assert_memory_equal(b.data + 9990, "0123456789", 10);
    size_t cap = b.cap;
    char *data = b.data;
    rc_buf_reset(&b);
    assert_int_equal(b.len, 0);
    for (int i = 0; i < 1000; i++) rc_buf_puts(&b, "0123456789");
    assert_int_equal(b.cap, cap); /* no growth in the steady state */
    assert_ptr_equal(b.data, data);
    rc_buf_fini(&b);
}

static void test_cap_is_sticky(void **state)
{
    rc_buf b;
    rc_buf_init(&b, 1000);
    for (int i = 0; i < 99; i++) rc_buf_puts(&b, "0123456789");
    assert_int_equal(b.err, RC_OK);
    rc_buf_puts(&b, "01234567890"); /* 1001 bytes: over the cap */
    assert_int_equal(b.err, RC_ERR_LIMIT);
    size_t len = b.len;
    rc_buf_putc(&b, 'x'); /* no-op after the error */
    rc_buf_puts(&b, "y");
    assert_int_equal(b.len, len);
    assert_null(rc_buf_reserve(&b, 1));
    rc_buf_reset(&b); /* reset clears the error */
    rc_buf_putc(&b, 'x');
    assert_int_equal(b.err, RC_OK);
    assert_int_equal(b.len, 1);
    rc_buf_fini(&b);
}

static void test_reserve_commit(void **state)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    char *w = rc_buf_reserve(&b, 64);
    assert_non_null(w);
    memcpy(w, "abc", 3);
    rc_buf_commit(&b, 3);
    RC_BUF_LIT(&b, "def");
    assert_int_equal(b.len, 6);
    assert_memory_equal(b.data, "abcdef", 6);
    rc_buf_fini(&b);
}

static void test_arena(void **state)
{
    rc_arena a;
    rc_arena_init(&a);
    char *p = rc_arena_memdup(&a, "hello", 5);
    assert_string_equal(p, "hello");
    void *big = rc_arena_alloc(&a, 1 << 20);
    assert_non_null(big);
    memset(big, 0xAB, 1 << 20);
    void *q = rc_arena_alloc(&a, 3);
    assert_int_equal(((uintptr_t)q) & 7, 0);
    rc_arena_reset(&a);
    void *again = rc_arena_alloc(&a, 1 << 20); /* the kept block serves it */
    assert_non_null(again);
    rc_arena_fini(&a);
    rc_arena_fini(&a); /* idempotent */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_grow_and_reset_keeps_capacity),
        cmocka_unit_test(test_cap_is_sticky),
        cmocka_unit_test(test_reserve_commit),
        cmocka_unit_test(test_arena),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
