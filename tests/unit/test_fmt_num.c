/* Integers, decimals, floats and bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/fmt.h"

static void test_integers(void **state)
{
    EXPECT_TEXT("0", rc_fmt_i64(&b, 0));
    EXPECT_TEXT("-9223372036854775808", rc_fmt_i64(&b, INT64_MIN));
    EXPECT_TEXT("9223372036854775807", rc_fmt_i64(&b, INT64_MAX));
    EXPECT_TEXT("18446744073709551615", rc_fmt_u64(&b, UINT64_MAX));
    EXPECT_TEXT("1000", rc_fmt_u64(&b, 1000));
    EXPECT_TEXT("7", rc_fmt_u64(&b, 7));
    /* every digit count, at both edges (the length comes from the bit length) */
    char want[32];
    for (uint64_t p = 1, k = 0; k < 20; k++, p *= 10) {
        uint64_t vals[3] = {p - 1, p, p + 1};
        for (int q = 0; q < 3; q++) {
            snprintf(want, sizeof want, "%llu", (unsigned long long)vals[q]);
            EXPECT_TEXT(want, rc_fmt_u64(&b, vals[q]));
            uint64_t back;
            assert_int_equal(rc_parse_u64(want, strlen(want), &back), RC_OK);
            assert_true(back == vals[q]);
        }
        if (k == 19) break; /* 10^20 does not fit */
    }
    for (int bits = 0; bits < 64; bits++) { /* and every bit length */
        uint64_t v = (uint64_t)1 << bits;
        snprintf(want, sizeof want, "%llu", (unsigned long long)(v | (v - 1)));
        EXPECT_TEXT(want, rc_fmt_u64(&b, v | (v - 1)));
    }
}

/* The four integer writers against snprintf: every digit count at its edges, every bit
 * length, and pseudo-random values of every length, signed and not; the writers at a pointer
 * write nothing past RC_FMT_INT_MAX bytes. */
static void check_int(uint64_t u)
{
    char want[32], at[RC_FMT_INT_MAX + 8];
    snprintf(want, sizeof want, "%llu", (unsigned long long)u);
    EXPECT_TEXT(want, rc_fmt_u64(&b, u));
    memset(at, '#', sizeof at);
    size_t n = (size_t)(rc_fmt_u64_at(at, u) - at);
    assert_int_equal(n, strlen(want));
    assert_memory_equal(at, want, n);
    for (size_t k = RC_FMT_INT_MAX; k < sizeof at; k++) assert_int_equal(at[k], '#');
    int64_t vals[2] = {(int64_t)u, -(int64_t)(u & INT64_MAX)};
    for (int q = 0; q < 2; q++) {
        snprintf(want, sizeof want, "%lld", (long long)vals[q]);
        EXPECT_TEXT(want, rc_fmt_i64(&b, vals[q]));
        memset(at, '#', sizeof at);
        n = (size_t)(rc_fmt_i64_at(at, vals[q]) - at);
        assert_int_equal(n, strlen(want));
        assert_memory_equal(at, want, n);
        for (size_t k = RC_FMT_INT_MAX; k < sizeof at; k++) assert_int_equal(at[k], '#');
    }
}

static void test_integers_against_printf(void **state)
{
    for (uint64_t p = 1, k = 0; k < 20; k++, p *= 10) {
        for (uint64_t d = 0; d < 3; d++) check_int(p - 1 + d), check_int(p * 9 + d), check_int(p * 5 - d);
        if (k == 19) break;
    }
    for (int bits = 0; bits < 64; bits++) {
        uint64_t v = (uint64_t)1 << bits;
        check_int(v), check_int(v - 1), check_int(v | (v - 1));
    }
    check_int(UINT64_MAX), check_int((uint64_t)INT64_MAX + 1);
    uint64_t x = 88172645463325252u;
    for (int i = 0; i < 30000; i++) { /* xorshift64, cut to a random number of bits */
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        check_int(x >> (x % 64));
    }
}

static void test_integer_parsing(void **state)
{
    int64_t i;
    uint64_t u;
    assert_int_equal(rc_parse_i64("-9223372036854775808", 20, &i), RC_OK);
    assert_true(i == INT64_MIN);
    assert_int_equal(rc_parse_i64("9223372036854775808", 19, &i), RC_ERR_RANGE);
    assert_int_equal(rc_parse_u64("18446744073709551615", 20, &u), RC_OK);
    assert_true(u == UINT64_MAX);
    assert_int_equal(rc_parse_u64("18446744073709551616", 20, &u), RC_ERR_RANGE); /* 2^64 */
    assert_int_equal(rc_parse_u64("10223372036854775806", 20, &u), RC_OK);
    assert_true(u == 10223372036854775806ull);
    assert_int_equal(rc_parse_u64("-1", 2, &u), RC_ERR_RANGE);
    assert_int_equal(rc_parse_i64("1.0", 3, &i), RC_ERR_VALUE);
    assert_int_equal(rc_parse_i64("1e3", 3, &i), RC_ERR_VALUE);
    assert_int_equal(rc_parse_i64("012", 3, &i), RC_ERR_VALUE);
    assert_int_equal(rc_parse_i64("", 0, &i), RC_ERR_VALUE);
    assert_int_equal(rc_parse_i64("-", 1, &i), RC_ERR_VALUE);
    assert_int_equal(rc_parse_u64("-0", 2, &u), RC_OK);
    assert_true(u == 0);
    assert_int_equal(rc_parse_u64("-00", 3, &u), RC_ERR_VALUE);
    assert_int_equal(rc_parse_u64("184467440737095516150x", 22, &u), RC_ERR_VALUE); /* syntax before range */
    assert_int_equal(rc_parse_i64("99999999999999999999", 20, &i), RC_ERR_RANGE);
    assert_int_equal(rc_parse_i64("12a", 3, &i), RC_ERR_VALUE);
}

static void dec_both(const char *in, const char *want_java, const char *want_plain)
{
    rc_arena a;
    rc_arena_init(&a);
    rc_decimal d;
    assert_int_equal(rc_dec_parse(in, strlen(in), &a, &d), RC_OK);
    EXPECT_TEXT(want_java, rc_fmt_dec_java(&b, &d));
    if (want_plain) EXPECT_TEXT(want_plain, rc_fmt_dec_plain(&b, &d));
    rc_arena_fini(&a);
}

static void test_decimals(void **state)
{
    dec_both("1241.41000", "1241.41000", "1241.41000"); /* trailing zeros kept */
    dec_both("-0.000", "0.000", "0.000");                 /* BigDecimal has no negative zero */
    dec_both("1E+3", "1E+3", "1000");
    dec_both("1e3", "1E+3", "1000");
    dec_both("12.5E+3", "1.25E+4", "12500");
    dec_both("0.000001", "0.000001", "0.000001");
    dec_both("0.0000001", "1E-7", "0.0000001");
    dec_both("-0.00000012", "-1.2E-7", "-0.00000012");
    dec_both("0E-10", "0E-10", "0.0000000000");
    dec_both("0E+3", "0E+3", "0");
    dec_both("-123456789012345678901234567890.123456789", "-123456789012345678901234567890.123456789",
             "-123456789012345678901234567890.123456789");
    dec_both("10223372036854775806", "10223372036854775806", "10223372036854775806");
    dec_both("007.50", "7.50", "7.50");
    dec_both(".5", "0.5", "0.5");
    dec_both("+5.", "5", "5");
    dec_both("1E+131072", "1E+131072", NULL); /* the largest exponent allowed */
    /* the seed's DECIMAL: toString (canal, default) vs toPlainString (dataworks): 307 zeros */
    char plain[400] = "0.";
    memset(plain + 2, '0', 307);
    strcpy(plain + 309, "999999999999999909");
    dec_both("9.99999999999999909E-308", "9.99999999999999909E-308", plain);
}

/* Debezium's precise decimals: base64 of BigInteger.toByteArray() of the unscaled value. */
static void precise(const char *dec, const char *want_b64)
{
    rc_arena a;
    rc_arena_init(&a);
    rc_decimal d;
    assert_int_equal(rc_dec_parse(dec, strlen(dec), &a, &d), RC_OK);
    rc_buf raw;
    rc_buf_init(&raw, 0);
    rc_dec_unscaled_bytes(&raw, &d);
    EXPECT_TEXT(want_b64, rc_fmt_base64(&b, (const unsigned char *)raw.data, raw.len));
    rc_buf_fini(&raw);
    rc_arena_fini(&a);
}

static void test_decimal_precise(void **state)
{
    precise("0", "AA==");        /* 00 */
    precise("0.00", "AA==");
    precise("1", "AQ==");        /* 01 */
    precise("-1", "/w==");       /* FF */
    precise("127", "fw==");      /* 7F */
    precise("128", "AIA=");      /* 00 80 */
    precise("-128", "gA==");     /* 80 */
    precise("-129", "/38=");     /* FF 7F */
    precise("111.11", "K2c=");   /* 11111 = 2B 67, the value FORMATS.md §12 gives */
    precise("255", "AP8=");      /* 00 FF */
    precise("-256", "/wA=");     /* FF 00 */
    precise("65535", "AP//");
    precise("-32768", "gAA=");
    /* 10^38 = 0x4B3B4CA85A86C47A098A224000000000 */
    precise("100000000000000000000000000000000000000", "SztMqFqGxHoJiiJAAAAAAA==");
    precise("-100000000000000000000000000000000000000", "tMSzV6V5O4X2dd3AAAAAAA==");
    /* the widths where values below 10^18 (written from an int64) change byte count, and the
     * 18/19-digit edge where the byte loop takes over */
    precise("8388607", "f///");                  /* 7F FF FF */
    precise("8388608", "AIAAAA==");              /* 00 80 00 00 */
    precise("-8388608", "gAAA");                 /* 80 00 00 */
    precise("-8388609", "/3///w==");             /* FF 7F FF FF */
    precise("36028797018963967", "f////////w=="); /* 2^55 - 1: 7F FF FF FF FF FF FF */
    precise("36028797018963968", "AIAAAAAAAAA="); /* 2^55: 00 80 00 ... */
    precise("-36028797018963968", "gAAAAAAAAA=="); /* -2^55: 80 00 ... (7 bytes) */
    precise("999999999999999999", "DeC2s6dj//8="); /* 10^18 - 1 = 0D E0 B6 B3 A7 63 FF FF */
    precise("-999999999999999999", "8h9JTFicAAE="); /* F2 1F 49 4C 58 9C 00 01 */
    precise("1000000000000000000", "DeC2s6dkAAA="); /* 10^18 = 0D E0 B6 B3 A7 64 00 00 */
    precise("9223372036854775808", "AIAAAAAAAAAA"); /* 2^63: 00 80 00 ... (9 bytes) */
    precise("-0", "AA==");                       /* read as zero */
}

/* 300-digit values against an independent computation: the bytes read back as the number. */
static void test_decimal_precise_long(void **state)
{
    for (int neg = 0; neg < 2; neg++) {
        char digits[302];
        int o = 0;
        if (neg) digits[o++] = '-';
        for (int i = 0; i < 300; i++) digits[o++] = (char)('1' + (i * 7) % 9);
        digits[o] = '\0';
        rc_arena a;
        rc_arena_init(&a);
        rc_decimal d;
        assert_int_equal(rc_dec_parse(digits, strlen(digits), &a, &d), RC_OK);
        rc_buf raw;
        rc_buf_init(&raw, 0);
        rc_dec_unscaled_bytes(&raw, &d);
        /* convert back: two's complement bytes -> decimal digits by long division */
        size_t n = raw.len;
        unsigned char *m = malloc(n);
        memcpy(m, raw.data, n);
        bool negative = m[0] & 0x80;
        assert_int_equal(negative, neg);
        if (negative) { /* negate */
            unsigned carry = 1;
            for (size_t k = n; k-- > 0;) {
                unsigned v = (unsigned char)~m[k] + carry;
                m[k] = (unsigned char)v;
                carry = v >> 8;
            }
        }
        char back[400];
        int bl = 0;
        for (;;) {
            bool zero = true;
            unsigned rem = 0;
            for (size_t k = 0; k < n; k++) {
                unsigned cur = rem * 256 + m[k];
                m[k] = (unsigned char)(cur / 10);
                rem = cur % 10;
                if (m[k]) zero = false;
            }
            back[bl++] = (char)('0' + rem);
            if (zero) break;
        }
        for (int i = 0; i < bl / 2; i++) {
            char t = back[i];
            back[i] = back[bl - 1 - i];
            back[bl - 1 - i] = t;
        }
        back[bl] = '\0';
        assert_string_equal(back, digits + neg);
        /* minimal: the top byte is not a redundant sign byte */
        assert_true(raw.len == 1 || !((unsigned char)raw.data[0] == (negative ? 0xFF : 0x00) &&
                                      (((unsigned char)raw.data[1] & 0x80) != 0) == negative));
        free(m);
        rc_buf_fini(&raw);
        rc_arena_fini(&a);
    }
}

static void test_decimal_errors(void **state)
{
    rc_arena a;
    rc_arena_init(&a);
    rc_decimal d;
    const char *bad[] = {"", "-", ".", "1e", "1e+", "abc", "1.2.3", "1 ", "--1", "0x10", "1e99999999999", "9.999E99999999", "1E-131073"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_not_equal(rc_dec_parse(bad[i], strlen(bad[i]), &a, &d), RC_OK);
    rc_arena_fini(&a);
}

static void test_floats_java(void **state)
{
    EXPECT_TEXT("3.14", rc_fmt_f32_java(&b, 3.14f));
    EXPECT_TEXT("10357.0", rc_fmt_f32_java(&b, 10357.0f));
    EXPECT_TEXT("1.2510357E7", rc_fmt_f64_java(&b, 12510357.0));
    EXPECT_TEXT("1.0E7", rc_fmt_f64_java(&b, 1e7));
    EXPECT_TEXT("9999999.0", rc_fmt_f64_java(&b, 9999999.0));
    EXPECT_TEXT("0.001", rc_fmt_f64_java(&b, 0.001));
    EXPECT_TEXT("9.99E-4", rc_fmt_f64_java(&b, 0.000999));
    EXPECT_TEXT("0.1", rc_fmt_f64_java(&b, 0.1));
    EXPECT_TEXT("0.30000000000000004", rc_fmt_f64_java(&b, 0.1 + 0.2));
    EXPECT_TEXT("1.0E300", rc_fmt_f64_java(&b, 1e300));
    EXPECT_TEXT("-1.5E-7", rc_fmt_f64_java(&b, -1.5e-7));
    EXPECT_TEXT("4.9E-324", rc_fmt_f64_java(&b, 4.9e-324));
    EXPECT_TEXT("1.7976931348623157E308", rc_fmt_f64_java(&b, 1.7976931348623157e308));
    EXPECT_TEXT("3.4028235E38", rc_fmt_f32_java(&b, 3.4028235e38f));
    EXPECT_TEXT("1.4E-45", rc_fmt_f32_java(&b, 1.4e-45f));
    EXPECT_TEXT("0.0", rc_fmt_f64_java(&b, 0.0));
    EXPECT_TEXT("-0.0", rc_fmt_f64_java(&b, -0.0));
    EXPECT_TEXT("100.0", rc_fmt_f64_java(&b, 100));
    /* NaN policy: the Java texts; JSON writers quote them */
    EXPECT_TEXT("NaN", rc_fmt_f64_java(&b, NAN));
    EXPECT_TEXT("Infinity", rc_fmt_f64_java(&b, INFINITY));
    EXPECT_TEXT("-Infinity", rc_fmt_f32_java(&b, -INFINITY));
    assert_true(rc_f64_special(NAN));
    assert_false(rc_f64_special(1.0));
}

/* The fast path must agree with the general algorithm everywhere. */
static void test_float_fast_path_agrees(void **state)
{
    uint64_t x = 88172645463325252ull;
    rc_buf f, g;
    rc_buf_init(&f, 0);
    rc_buf_init(&g, 0);
    for (int i = 0; i < 300000; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        double v;
        switch (i % 4) {
        case 0: v = (double)(x % 100000000) / 1000.0; break;         /* short decimals */
        case 1: v = (double)(int64_t)(x % 2000000) / 64.0 - 15000; break; /* dyadic */
        case 2: v = (double)(x >> 11) / 9007199254740992.0 * 1e7; break;  /* full precision */
        default: v = ((double)(x % 10000000) + 0.5) * 1e-4; break;
        }
        rc_buf_reset(&f);
        rc_buf_reset(&g);
        rc_fmt_f64_java(&f, v);
        rc_fmt_f64_java_slow(&g, v);
        if (f.len != g.len || memcmp(f.data, g.data, f.len) != 0)
            fail_msg("%.17g: fast %.*s slow %.*s", v, (int)f.len, f.data, (int)g.len, g.data);
    }
    rc_buf_fini(&f);
    rc_buf_fini(&g);
}

/* The float fast path too: every 4099th float from 1e-3 to 1e7 (the fast path's range and
 * past it), and ties of a * 10^k that %e rounds to even (2097152.25f: 2097152.2). */
static void test_float32_fast_path_agrees(void **state)
{
    rc_buf f, g;
    rc_buf_init(&f, 0);
    rc_buf_init(&g, 0);
    static const float ties[] = {2097152.25f, 2097152.75f, 4194304.5f, 1048576.125f, 0.5f, 0.125f, 8388607.0f, 9999999.0f, 1e-3f, 3.14f};
    float lo = 5e-4f, hi = 2e7f;
    uint32_t u, uhi;
    memcpy(&u, &lo, sizeof u);
    memcpy(&uhi, &hi, sizeof uhi);
    for (size_t i = 0; u < uhi || i < sizeof ties / sizeof *ties; u += 4099, i++) {
        float v;
        if (i < sizeof ties / sizeof *ties) v = ties[i];
        else memcpy(&v, &u, sizeof v);
        for (int neg = 0; neg < 2; neg++, v = -v) {
            rc_buf_reset(&f);
            rc_buf_reset(&g);
            rc_fmt_f32_java(&f, v);
            rc_fmt_f32_java_slow(&g, v);
            if (f.len != g.len || memcmp(f.data, g.data, f.len) != 0)
                fail_msg("%.9g: fast %.*s slow %.*s", v, (int)f.len, f.data, (int)g.len, g.data);
        }
    }
    EXPECT_TEXT("2097152.2", rc_fmt_f32_java(&b, 2097152.25f));
    rc_buf_fini(&f);
    rc_buf_fini(&g);
}

static void test_floats_significant(void **state)
{
    /* FLOAT keeps 7 significant digits, DOUBLE 16 (seed 000 mapping table) */
    EXPECT_TEXT("3.14", rc_fmt_f32_sig(&b, 3.14f, 7));
    EXPECT_TEXT("1.2222", rc_fmt_f32_sig(&b, 1.2222f, 7));
    EXPECT_TEXT("9.999999", rc_fmt_f64_sig(&b, 9.999999, 16)); /* not 9.999999000000001 */
    EXPECT_TEXT("9.99999999", rc_fmt_f64_sig(&b, 9.99999999, 16));
    EXPECT_TEXT("1.0E-307", rc_fmt_f64_sig(&b, 9.99999999999999909e-308, 16)); /* shortest digits of that double */
    EXPECT_TEXT("0.3333333333333333", rc_fmt_f64_sig(&b, 1.0 / 3, 16));
    EXPECT_TEXT("1.0", rc_fmt_f64_sig(&b, 0.99999999999999999, 16));
    EXPECT_TEXT("1.0E7", rc_fmt_f32_sig(&b, 9999999.9f, 7));
    EXPECT_TEXT("1.234568", rc_fmt_f32_sig(&b, 1.2345678f, 7));
    EXPECT_TEXT("0.3", rc_fmt_f64_sig(&b, 0.1 + 0.2, 16));
    EXPECT_TEXT("2.4212412", rc_fmt_f64_sig(&b, 2.4212412, 16));
    EXPECT_TEXT("1.234568E10", rc_fmt_f64_sig(&b, 12345678901.0, 7));
    EXPECT_TEXT("0.3", rc_fmt_f64_sig(&b, 0.30000000000000004, 16));
    EXPECT_TEXT("NaN", rc_fmt_f64_sig(&b, NAN, 7));
}

static void test_base64(void **state)
{
    EXPECT_TEXT("", rc_fmt_base64(&b, (const unsigned char *)"", 0));
    EXPECT_TEXT("YQ==", rc_fmt_base64(&b, (const unsigned char *)"a", 1));
    EXPECT_TEXT("YWI=", rc_fmt_base64(&b, (const unsigned char *)"ab", 2));
    EXPECT_TEXT("YWJj", rc_fmt_base64(&b, (const unsigned char *)"abc", 3));
    EXPECT_TEXT("aGVsbG8gd29ybGQ=", rc_fmt_base64(&b, (const unsigned char *)"hello world", 11));
    unsigned char edge[] = {0x00, 0xFF, 0xFE};
    EXPECT_TEXT("AP/+", rc_fmt_base64(&b, edge, 3));

    rc_arena a;
    rc_arena_init(&a);
    unsigned char all[256];
    for (int i = 0; i < 256; i++) all[i] = (unsigned char)i;
    rc_buf enc;
    rc_buf_init(&enc, 0);
    rc_fmt_base64(&enc, all, 256);
    rc_str out;
    size_t bad;
    assert_int_equal(rc_base64_decode(enc.data, enc.len, &a, &out, &bad), RC_OK);
    assert_int_equal(out.n, 256);
    assert_memory_equal(out.p, all, 256);
    rc_buf_fini(&enc);
    assert_int_equal(rc_base64_decode("YQ=", 3, &a, &out, &bad), RC_ERR_VALUE);
    assert_int_equal(rc_base64_decode("Y!==", 4, &a, &out, &bad), RC_ERR_VALUE);
    assert_int_equal(bad, 1);
    assert_int_equal(rc_base64_decode("YR==", 4, &a, &out, &bad), RC_ERR_VALUE); /* stray bits */
    assert_int_equal(rc_base64_decode("YQ==YQ==", 8, &a, &out, &bad), RC_ERR_VALUE);
    assert_int_equal(rc_base64_decode("", 0, &a, &out, &bad), RC_OK);
    assert_int_equal(out.n, 0);
    rc_arena_fini(&a);
}

static void test_hex(void **state)
{
    unsigned char jb[] = {106, 103, 0x00, 0x7F, 0x80, 0xFF};
    EXPECT_TEXT("[106, 103, 0, 127, -128, -1]", rc_fmt_java_bytes(&b, jb, 6));
    EXPECT_TEXT("[]", rc_fmt_java_bytes(&b, jb, 0));
    unsigned char v[] = {0x00, 0x6A, 0xFF};
    EXPECT_TEXT("006AFF", rc_fmt_hex(&b, v, 3, true));
    EXPECT_TEXT("006aff", rc_fmt_hex(&b, v, 3, false));
    EXPECT_TEXT("", rc_fmt_hex(&b, v, 0, true));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),      cmocka_unit_test(test_integers_against_printf), cmocka_unit_test(test_integer_parsing),
        cmocka_unit_test(test_decimals),      cmocka_unit_test(test_decimal_errors),
        cmocka_unit_test(test_decimal_precise), cmocka_unit_test(test_decimal_precise_long),
        cmocka_unit_test(test_floats_java),   cmocka_unit_test(test_floats_significant), cmocka_unit_test(test_float_fast_path_agrees),
        cmocka_unit_test(test_float32_fast_path_agrees),
        cmocka_unit_test(test_base64),        cmocka_unit_test(test_hex),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
