/* JSON string escaping, invalid UTF-8 replacement and Latin-1 rendering. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "rowcast/jsonw.h"

static void check_str(const char *in, size_t n, const char *want)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_jw_str(&b, in, n);
    rc_buf_putc(&b, '\0');
    assert_string_equal(b.data, want);
    rc_buf_fini(&b);
}
#define CHECK(lit, want) check_str(lit, sizeof(lit) - 1, want)

static void test_escapes(void **state)
{
    CHECK("", "\"\"");
    CHECK("plain", "\"plain\"");
    CHECK("q\"b\\s/", "\"q\\\"b\\\\s/\"");
    CHECK("\b\f\n\r\t", "\"\\b\\f\\n\\r\\t\"");
    CHECK("\x01\x1f\x7f", "\"\\u0001\\u001F\x7f\"");
    CHECK("a\0b", "\"a\\u0000b\"");
}

static void test_utf8_passes_through(void **state)
{
    CHECK("Müller 日本 🛒", "\"Müller 日本 🛒\"");
    CHECK("\xE2\x80\xA8", "\"\xE2\x80\xA8\""); /* U+2028 is left as is, like Jackson */
}

static void test_invalid_utf8_replaced(void **state)
{
    CHECK("a\xFF" "b", "\"a\xEF\xBF\xBD" "b\"");              /* invalid byte */
    CHECK("\xC3", "\"\xEF\xBF\xBD\"");                         /* truncated at end */
    CHECK("\xE2\x82" "x", "\"\xEF\xBF\xBDx\"");                /* truncated 3-byte: one U+FFFD */
    CHECK("\xC0\xAF", "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");          /* overlong: two */
    CHECK("\xED\xA0\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""); /* surrogate */
    CHECK("\xF4\x90\x80\x80", "\"\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\""); /* > U+10FFFF */
    assert_int_equal(rc_utf8_valid_prefix("ab\xC3\xA9\xFF", 5), 4);
    assert_int_equal(rc_utf8_valid_prefix("\xF0\x9F\x9B\x92", 4), 4);
}

/* The escaper works in chunks of 4096 input bytes: a multi-byte character or an invalid
 * sequence on the boundary must come out the same as anywhere else. */
static void test_chunk_boundaries(void **state)
{
    for (size_t pad = 4090; pad < 4100; pad++) {
        char in[8300], want[8400];
        memset(in, 'a', pad);
        memcpy(in + pad, "\xF0\x9F\x9B\x92\xC3\n", 6); /* emoji, truncated sequence, newline */
        memset(in + pad + 6, 'b', 4096);
        size_t n = pad + 6 + 4096;
        size_t w = 0;
        want[w++] = '"';
        memset(want + w, 'a', pad), w += pad;
        memcpy(want + w, "\xF0\x9F\x9B\x92\xEF\xBF\xBD\\n", 9), w += 9;
        memset(want + w, 'b', 4096), w += 4096;
        want[w++] = '"';
        rc_buf b;
        rc_buf_init(&b, 0);
        rc_jw_str(&b, in, n);
        assert_int_equal(b.len, w);
        assert_memory_equal(b.data, want, w);
        rc_buf_fini(&b);
    }
    /* a truncated sequence as the very last bytes of an exactly chunk-sized string */
    char in[4096];
    memset(in, 'x', sizeof in);
    in[4095] = (char)0xE2;
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_jw_str_body(&b, in, sizeof in);
    assert_int_equal(b.len, 4095 + 3);
    assert_memory_equal(b.data + 4095, "\xEF\xBF\xBD", 3);
    rc_buf_fini(&b);
}

static void test_latin1(void **state)
{
    unsigned char bytes[] = {0x00, 'A', 0x7F, 0x80, 0xE9, 0xFF, '"'};
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_jw_latin1(&b, bytes, sizeof bytes);
    rc_buf_putc(&b, '\0');
    assert_string_equal(b.data, "\"\\u0000A\x7F\xC2\x80\xC3\xA9\xC3\xBF\\\"\"");
    rc_buf_fini(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_utf8_passes_through),
        cmocka_unit_test(test_invalid_utf8_replaced),
        cmocka_unit_test(test_chunk_boundaries),
        cmocka_unit_test(test_latin1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
