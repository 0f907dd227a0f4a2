/* JSON string escaping, invalid UTF-8 replacement and Latin-1 rendering. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "core/jsonw.h"

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

/* A byte-at-a-time escaper written from jsonw.h's rule alone, for the random texts below: the
 * length of the well-formed sequence at p (Unicode's table 3-7), 0 with *bad the length of the
 * maximal ill-formed subpart. */
static size_t ref_seq(const unsigned char *p, size_t n, size_t *bad)
{
    static const struct { unsigned char lo, hi, lo2, hi2, need; } t[] = {
        {0xC2, 0xDF, 0x80, 0xBF, 2}, {0xE0, 0xE0, 0xA0, 0xBF, 3}, {0xE1, 0xEC, 0x80, 0xBF, 3}, {0xED, 0xED, 0x80, 0x9F, 3},
        {0xEE, 0xEF, 0x80, 0xBF, 3}, {0xF0, 0xF0, 0x90, 0xBF, 4}, {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4},
    };
    for (size_t r = 0; r < sizeof t / sizeof *t; r++) {
        if (p[0] < t[r].lo || p[0] > t[r].hi) continue;
        size_t i = 1;
        while (i < t[r].need && i < n && p[i] >= (i == 1 ? t[r].lo2 : 0x80) && p[i] <= (i == 1 ? t[r].hi2 : 0xBF)) i++;
        if (i == t[r].need) return i;
        *bad = i;
        return 0;
    }
    *bad = 1;
    return 0;
}

static void ref_str(rc_buf *b, const unsigned char *p, size_t n)
{
    rc_buf_putc(b, '"');
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t bad = 0, k = c < 0x80 ? 1 : ref_seq(p + i, n - i, &bad);
        if (c == '"' || c == '\\') rc_buf_putc(b, '\\'), rc_buf_putc(b, (char)c);
        else if (c == '\b') RC_BUF_LIT(b, "\\b");
        else if (c == '\f') RC_BUF_LIT(b, "\\f");
        else if (c == '\n') RC_BUF_LIT(b, "\\n");
        else if (c == '\r') RC_BUF_LIT(b, "\\r");
        else if (c == '\t') RC_BUF_LIT(b, "\\t");
        else if (c < 0x20) {
            char u[7] = {'\\', 'u', '0', '0', "0123456789ABCDEF"[c >> 4], "0123456789ABCDEF"[c & 15], 0};
            rc_buf_put(b, u, 6);
        } else if (k) rc_buf_put(b, p + i, k);
        else RC_BUF_LIT(b, "\xEF\xBF\xBD");
        i += k ? k : bad;
    }
    rc_buf_putc(b, '"');
}

/* Random texts of pieces that stop the scans (quotes, controls, characters of 2-4 bytes,
 * invalid and cut sequences) among plain runs, at every length from 0 to 80 and around the
 * 4096-byte chunk, against ref_str: the 16- and 8-byte scans, their tails and the short paths. */
static void test_random_against_reference(void **state)
{
    static const char *const pieces[] = {"a", "bcdefgh", "plain text of some length", "\"", "\\", "\n", "\x01", "\x1f", "\x7f",
                                         "\xC3\xBC", "\xE2\x82\xAC", "\xF0\x9F\x98\x80", "\x80", "\xC3", "\xE2\x82",
                                         "\xED\xA0\x80", "\xF4\x90\x80\x80", "\xC0\xAF", "\xFF", "/"};
    unsigned seed = 12345;
    unsigned char in[4200];
    rc_buf got, want;
    rc_buf_init(&got, 0), rc_buf_init(&want, 0);
    for (int round = 0; round < 6000; round++) {
        size_t target = round < 4000 ? (size_t)(round % 81) : 4070 + (size_t)(round % 60), n = 0;
        while (n < target) {
            seed = seed * 1103515245u + 12345u;
            const char *pc = pieces[(seed >> 16) % (sizeof pieces / sizeof *pieces)];
            size_t k = strlen(pc);
            if (k > target - n) k = target - n; /* a piece cut at the end: a cut sequence */
            memcpy(in + n, pc, k), n += k;
        }
        rc_buf_reset(&got), rc_buf_reset(&want);
        rc_jw_str(&got, (const char *)in, n);
        ref_str(&want, in, n);
        if (got.len != want.len || memcmp(got.data, want.data, got.len))
            fail_msg("round %d, %zu bytes: got %.*s, want %.*s", round, n, (int)got.len, got.data, (int)want.len, want.data);
    }
    rc_buf_fini(&got), rc_buf_fini(&want);
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
        cmocka_unit_test(test_random_against_reference),
        cmocka_unit_test(test_latin1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
