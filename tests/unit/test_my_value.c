/* MySQL/MariaDB row-image values (src/sources/mysql/my_value*.c, my_charset.c): hand-written
 * images of every type with its edge values (issue 14, "What it must show"), exact errors, and
 * every byte vector of the peer files (../shared/testdata/peers, SOURCES.md "Extracted byte
 * vectors") against its expected value; those cases are skipped by name when ../shared is not
 * beside the repository. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "my_vectors.h"
#include "sources/mysql/my_value.h"
#include "sources/mysql/my_value_int.h"

static rc_arena arena;

static rc_my_col col(uint8_t type, uint16_t meta) { return (rc_my_col){.type = type, .meta = meta, .name = RC_STR("c")}; }

/* Decodes hex as column c: must use every byte and give `want` (show()'s "kind:text"); the same
 * once more with the column prepared as the event decoder prepares it (rc_my_col_prepare). */
static void check_hex_once(const rc_my_col *c, const char *hex, const char *want)
{
    uint8_t b[4096];
    size_t n = unhex(hex, strlen(hex), b, sizeof b), used = 0;
    rc_value v;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_value_decode(c, b, n, &used, &v, &arena, &err) != RC_OK) fail_msg("%s as %s: %s", hex, rc_my_type_name(c->type), err.message);
    if (used != n) fail_msg("%s as %s: used %zu of %zu bytes", hex, rc_my_type_name(c->type), used, n);
    if (strcmp(show(&v), want))
        fail_msg("%s as %s%s:\n  got  %s\n  want %s", hex, rc_my_type_name(c->type), c->prepared ? " (prepared)" : "", show(&v), want);
}

static void check_hex(const rc_my_col *c, const char *hex, const char *want)
{
    check_hex_once(c, hex, want);
    rc_my_col p = *c;
    rc_my_col_prepare(&p);
    check_hex_once(&p, hex, want);
}
#define CHECK(type, meta, hex, want)                                                                                            \
    do {                                                                                                                        \
        rc_my_col c_ = col(RC_MY_##type, meta);                                                                                 \
        check_hex(&c_, hex, want);                                                                                              \
    } while (0)

/* Decoding hex as c fails with exactly `msg`, prepared or not. */
static void check_err_once(const rc_my_col *c, const char *hex, rc_status code, const char *msg)
{
    uint8_t b[4096];
    size_t n = unhex(hex, strlen(hex), b, sizeof b), used = 0;
    rc_value v;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_my_value_decode(c, b, n, &used, &v, &arena, &err);
    if (st == RC_OK) fail_msg("%s as %s: accepted as %s, expected: %s", hex, rc_my_type_name(c->type), show(&v), msg);
    assert_int_equal(st, code);
    assert_string_equal(err.message, msg);
}

static void check_err(const rc_my_col *c, const char *hex, rc_status code, const char *msg)
{
    check_err_once(c, hex, code, msg);
    rc_my_col p = *c;
    rc_my_col_prepare(&p);
    check_err_once(&p, hex, code, msg);
}

static void test_integers(void **state)
{
    (void)state;
    CHECK(TINY, 0, "80", "int:-128");
    CHECK(TINY, 0, "7f", "int:127");
    CHECK(SHORT, 0, "0080", "int:-32768");
    CHECK(INT24, 0, "000080", "int:-8388608");
    CHECK(INT24, 0, "ffff7f", "int:8388607");
    CHECK(LONG, 0, "00000080", "int:-2147483648");
    CHECK(LONGLONG, 0, "0000000000000080", "int:-9223372036854775808");
    CHECK(LONGLONG, 0, "ffffffffffffff7f", "int:9223372036854775807");
    rc_my_col c = col(RC_MY_TINY, 0);
    c.is_unsigned = true;
    check_hex(&c, "ff", "int:255");
    c.type = RC_MY_INT24;
    check_hex(&c, "ffffff", "int:16777215");
    c.type = RC_MY_LONG;
    check_hex(&c, "ffffffff", "int:4294967295");
    c.type = RC_MY_LONGLONG; /* BIGINT UNSIGNED max: all 64 bits, as uint */
    check_hex(&c, "ffffffffffffffff", "uint:18446744073709551615");
    /* the history's declaration says unsigned when the TABLE_MAP has no SIGNEDNESS */
    rc_coltype t;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_coltype_parse(RC_FAM_MYSQL, "bigint(20) unsigned", 19, &t, &err), RC_OK);
    c = col(RC_MY_LONGLONG, 0);
    c.decl = &t;
    check_hex(&c, "feffffffffffffff", "uint:18446744073709551614");
    /* a BOOL declaration: 0 and 1 are bools, 2 is not cut to true */
    assert_int_equal(rc_coltype_parse(RC_FAM_MYSQL, "bool", 4, &t, &err), RC_OK);
    c = col(RC_MY_TINY, 0);
    c.decl = &t;
    check_hex(&c, "01", "bool:true");
    check_hex(&c, "00", "bool:false");
    check_err(&c, "02", RC_ERR_RANGE, "column c (TINY): 2 is not a boolean (0 or 1) as its declared type bool says");
    c = col(RC_MY_LONGLONG, 0);
    check_err(&c, "ffffffff", RC_ERR_VALUE, "column c (LONGLONG): value truncated: it needs 8 bytes, the row image has 4 left");
}

static void test_floats_bits_year(void **state)
{
    (void)state;
    CHECK(FLOAT, 4, "c3f54840", "float32:3.14");
    CHECK(DOUBLE, 8, "a0c8eb85f3cce17f", "float64:1.0E308");
    CHECK(DOUBLE, 8, "0000000000000080", "float64:-0.0");
    CHECK(BIT, 1, "01", "bits:1");                                  /* BIT(1) */
    CHECK(BIT, 8 << 8, "ffffffffffffffff", "bits:18446744073709551615"); /* BIT(64) */
    CHECK(BIT, 3 << 8 | 4, "07b55787", "bits:129324935");           /* BIT(28) */
    CHECK(BIT, 1 << 8 | 2, "0203", "bits:515");                     /* BIT(10) */
    rc_my_col c = col(RC_MY_BIT, 1 << 8 | 2);
    check_err(&c, "0403", RC_ERR_VALUE, "column c (BIT): value 0x403 does not fit BIT(10)");
    c.meta = 9 << 8;
    check_err(&c, "00", RC_ERR_VALUE, "column c (BIT): BIT metadata 0x0900 gives 72 bits, not 1 to 64");
    CHECK(YEAR, 0, "01", "int:1901");
    CHECK(YEAR, 0, "ff", "int:2155");
    CHECK(YEAR, 0, "00", "int:0");
}

/* UTF-8 text is copied eight bytes at a time as it is checked, the tail as an overlapping
 * eight: a sequence at every place of every length up to 24, valid ones kept byte for byte,
 * invalid ones (a stray byte, an overlong, a surrogate, a sequence cut at the end) INVALID. */
static void test_utf8_windows(void **state)
{
    (void)state;
    static const struct {
        const char *seq;
        bool valid;
    } seqs[] = {{"\xc3\xa9", true}, {"\xe2\x82\xac", true}, {"\xf0\x9f\x98\x80", true},
                {"\xff", false},     {"\xc0\x80", false},     {"\xed\xa0\x80", false}, {"\xe2\x82", false}};
    for (size_t k = 0; k < sizeof seqs / sizeof *seqs; k++) {
        size_t sl = strlen(seqs[k].seq);
        for (size_t len = sl; len <= 24; len++) {
            for (size_t at = 0; at + sl <= len; at++) {
                if (!seqs[k].valid && seqs[k].seq[0] == '\xe2' && at + sl != len) continue; /* cut: at the end only */
                char b[32];
                memset(b, 'a', len);
                memcpy(b + at, seqs[k].seq, sl);
                rc_value v;
                assert_int_equal(rc_my_text(RC_MY_CS_UTF8, (const uint8_t *)b, len, &v, &arena), RC_OK);
                if (v.kind != (seqs[k].valid ? RC_V_TEXT : RC_V_INVALID))
                    fail_msg("sequence %zu at %zu of %zu bytes: kind %s", k, at, len, rc_vkind_name(v.kind));
                if (seqs[k].valid && (v.s.n != len || memcmp(v.s.p, b, len) || v.s.p[len]))
                    fail_msg("sequence %zu at %zu of %zu bytes: the text is not the bytes", k, at, len);
            }
        }
    }
    /* and ASCII of every length, nothing else in it */
    for (size_t len = 0; len <= 24; len++) {
        char b[32];
        for (size_t i = 0; i < len; i++) b[i] = (char)('A' + i);
        rc_value v;
        assert_int_equal(rc_my_text(RC_MY_CS_UTF8, (const uint8_t *)b, len, &v, &arena), RC_OK);
        assert_int_equal(v.kind, RC_V_TEXT);
        assert_true(v.s.n == len && !memcmp(v.s.p, b, len) && !v.s.p[len]);
    }
}

static void test_decimal(void **state)
{
    (void)state;
    /* DECIMAL(65,30) negative, every digit kept */
    CHECK(NEWDECIMAL, 65 << 8 | 30, "7f439eb1ca484078caf1cb3fd0f8a086f8a432eaff439eb1ca484078fc85",
          "decimal:-12345678901234567890123456789012345.123456789012345678901234567890");
    CHECK(NEWDECIMAL, 65 << 8 | 30, "85f5e0ff3b9ac9ff3b9ac9ff3b9ac9ff3b9ac9ff3b9ac9ff3b9ac9ff03e7",
          "decimal:99999999999999999999999999999999999.999999999999999999999999999999");
    CHECK(NEWDECIMAL, 10 << 8 | 2, "8000000000", "decimal:0.00");
    CHECK(NEWDECIMAL, 10 << 8 | 2, "7ffffffffe", "decimal:-0.01");
    /* up to 18 digits the groups are summed in 64 bits: its edges, and the first size past it */
    CHECK(NEWDECIMAL, 18 << 8 | 0, "bb9ac9ff3b9ac9ff", "decimal:999999999999999999");
    CHECK(NEWDECIMAL, 18 << 8 | 0, "85f5e10000000000", "decimal:100000000000000000");
    CHECK(NEWDECIMAL, 18 << 8 | 9, "78a432eaf8a432ea", "decimal:-123456789.123456789");
    CHECK(NEWDECIMAL, 18 << 8 | 9, "8000000000000001", "decimal:0.000000001");
    CHECK(NEWDECIMAL, 12 << 8 | 2, "7ffffffffffa", "decimal:-0.05");
    CHECK(NEWDECIMAL, 1 << 8 | 0, "78", "decimal:-7");
    CHECK(NEWDECIMAL, 19 << 8 | 0, "810dfb38d2075bcd15", "decimal:1234567890123456789");
    rc_my_col c = col(RC_MY_NEWDECIMAL, 10 << 8 | 2);
    check_err(&c, "80000000ff", RC_ERR_VALUE,
              "column c (NEWDECIMAL): malformed packed DECIMAL(10,2): the digit group at byte 4 is 255, more than 2 digits");
    check_err(&c, "8000", RC_ERR_VALUE, "column c (NEWDECIMAL): packed DECIMAL(10,2) truncated: it needs 5 bytes, 2 are left");
    c.meta = 82 << 8;
    check_err(&c, "80", RC_ERR_VALUE,
              "column c (NEWDECIMAL): DECIMAL(82,0) is not a possible type (precision 1 to 81, scale at most the precision)");
}

static void test_temporal(void **state)
{
    (void)state;
    CHECK(TIME2, 6, "4b9105000000", "time:-838:59:59");
    CHECK(TIME2, 0, "b46efb", "time:838:59:59");
    CHECK(TIME2, 6, "7fffffffffff", "time:-00:00:00.000001");
    CHECK(TIME2, 2, "7fffffff", "time:-00:00:00.01");
    CHECK(TIME, 0, "63d8fd", "time:-14:12:13");
    CHECK(DATETIME2, 6, "fef3ff7efb0f423f", "datetime:9999-12-31 23:59:59.999999");
    CHECK(DATETIME2, 0, "8000000000", "invalid:0000-00-00 00:00:00");
    CHECK(DATETIME2, 3, "80000000000000", "invalid:0000-00-00 00:00:00.000");
    CHECK(DATETIME2, 0, "999838f7aa", "invalid:2016-00-28 15:30:42");
    CHECK(DATETIME, 0, "9da5e7e814120000", "datetime:1988-10-16 14:12:13");
    CHECK(DATETIME, 0, "0000000000000000", "invalid:0000-00-00 00:00:00");
    CHECK(DATE, 0, "57830f", "date:1985-10-23");
    CHECK(DATE, 0, "000000", "invalid:0000-00-00");
    CHECK(DATE, 0, "7f830f", "invalid:1985-11-31"); /* 31 November (sql_mode ALLOW_INVALID_DATES) */
    /* TIMESTAMP: an instant, UTC; the zero timestamp keeps its text with the fsp digits */
    CHECK(TIMESTAMP2, 6, "7fffffff0f423f", "timestamp:2038-01-19T03:14:07.999999Z");
    CHECK(TIMESTAMP2, 6, "00000000000000", "invalid:0000-00-00 00:00:00.000000");
    CHECK(TIMESTAMP2, 0, "00000001", "timestamp:1970-01-01T00:00:01Z");
    CHECK(TIMESTAMP, 0, "df97af1d", "timestamp:1985-10-13T10:22:23Z");
    /* across the EU DST change of 2024-03-31 (01:00 UTC): the binlog has UTC seconds, the
     * session's zone plays no part; the two instants are a microsecond apart */
    CHECK(TIMESTAMP2, 6, "6608b58f0f423f", "timestamp:2024-03-31T00:59:59.999999Z");
    CHECK(TIMESTAMP2, 6, "6608b590000000", "timestamp:2024-03-31T01:00:00Z");
    rc_my_col c = col(RC_MY_DATETIME2, 7);
    check_err(&c, "8000000000", RC_ERR_VALUE, "column c (DATETIME2): fractional-second precision 7 in the metadata, not 0 to 6");
    c.meta = 0;
    check_err(&c, "fef3ff7efc", RC_ERR_VALUE, "column c (DATETIME2): malformed value: a date and time out of range");
    c = col(RC_MY_TIME2, 0);
    check_err(&c, "80003c", RC_ERR_VALUE, "column c (TIME2): malformed value: a time of day out of range");
    rc_coltype t;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_coltype_parse(RC_FAM_MYSQL, "datetime(3)", 11, &t, &err), RC_OK);
    c = col(RC_MY_DATETIME, 0);
    c.decl = &t;
    check_err(&c, "9da5e7e814120000", RC_ERR_UNSUPPORTED,
              "column c (DATETIME): a datetime with fractional seconds in the pre-MySQL-5.6 layout (MariaDB's "
              "mysql56_temporal_format=OFF) is not read; set mysql56_temporal_format=ON and rebuild the table");
}

/* String images with collation coll: VARCHAR(meta) bytes as hex (without the length). */
static void check_str(uint16_t coll, const char *hex, const char *want)
{
    char h[4096];
    snprintf(h, sizeof h, "%02zx%s", strlen(hex) / 2, hex);
    rc_my_col c = col(RC_MY_VARCHAR, 200);
    c.collation = coll;
    check_hex(&c, h, want);
}

static void test_strings(void **state)
{
    (void)state;
    check_str(45, "f09f9b92", "text:\xf0\x9f\x9b\x92");  /* utf8mb4 emoji */
    check_str(255, "41c3a9", "text:A\xc3\xa9");          /* utf8mb4_0900_ai_ci */
    check_str(33, "e282ac", "text:\xe2\x82\xac");        /* utf8mb3 */
    check_str(8, "e9", "text:\xc3\xa9");                 /* latin1 é */
    check_str(8, "80819f", "text:\xe2\x82\xac\xc2\x81\xc5\xb8"); /* Windows-1252: €, U+0081, Ÿ */
    check_str(11, "41", "text:A");                       /* ascii */
    check_str(8, "415c7e", "text:A\\~");                /* latin1, ASCII only: copied */
    check_str(13, "415c7e", "text:A\\~");               /* sjis, ASCII only (0x5C 0x7E stay ASCII): copied */
    check_str(10, "4140", "text:A\xc3\x89");             /* swe7, ASCII only: converted (0x40 is É) */
    check_str(35, "0041", "text:A");                     /* ucs2: ASCII bytes are never copied */
    check_str(54, "d83cdf4d", "text:\xf0\x9f\x8d\x8d"); /* utf16 surrogate pair */
    check_str(56, "4100e900", "text:A\xc3\xa9");        /* utf16le */
    check_str(35, "00e9", "text:\xc3\xa9");             /* ucs2 */
    check_str(60, "0001f6d2", "text:\xf0\x9f\x9b\x92"); /* utf32 */
    check_str(2304, "41", "text:A");                     /* MariaDB utf8mb4_uca1400_ai_ci */
    check_str(1069, "41", "text:A");                     /* MariaDB utf8mb4_general_nopad_ci */
    /* invalid bytes: nothing dropped; \xHH for each byte of an invalid sequence, \\ for \ */
    check_str(45, "61ff5c62", "invalid:a\\xFF\\\\b");
    check_str(45, "e282", "invalid:\\xE2\\x82");
    check_str(11, "80", "invalid:\\x80");
    check_str(35, "d800", "invalid:\\xD8\\x00");
    check_str(63, "00ff", "bytes:00ff"); /* VARBINARY */
    check_str(0, "41c3a9", "text:A\xc3\xa9"); /* no collation known: utf8mb4 */
    check_str(0, "", "text:");
    /* CHAR(10) utf8mb4: up to 40 bytes, 1-byte length; CHAR(255) utf8mb4: 1020 bytes, the
     * length's high bits folded into the type byte (0xFE ^ 0x30), 2-byte length */
    CHECK(STRING, 0xfe << 8 | 40, "026162", "text:ab");
    CHECK(STRING, 0xce << 8 | 0xfc, "02006162", "text:ab");
    rc_my_col c = col(RC_MY_STRING, 0xfe << 8 | 4); /* BINARY(4) 'ab\0\0': the binlog has 'ab' */
    c.collation = 63;
    check_hex(&c, "026162", "bytes:61620000");
    check_hex(&c, "0461620000", "bytes:61620000");
    check_hex(&c, "00", "bytes:00000000");
    c = col(RC_MY_BLOB, 2); /* BLOB with 00 and FF */
    c.collation = 63;
    check_hex(&c, "020000ff", "bytes:00ff");
    c.collation = 0;
    check_hex(&c, "0100ff", "bytes:ff");
    c.collation = 8; /* TEXT latin1 */
    check_hex(&c, "0100e9", "text:\xc3\xa9");
    c = col(RC_MY_BLOB, 4);
    c.collation = 46;
    check_hex(&c, "0300000061ff62", "invalid:a\\xFFb");
    /* errors name the collation, and what to do: keybcs2, which glibc's iconv cannot convert */
    c = col(RC_MY_VARCHAR, 10);
    c.collation = 37;
    check_err(&c, "0141", RC_ERR_UNSUPPORTED,
              "column c (VARCHAR): character set keybcs2 (collation 37, keybcs2_general_ci) is not converted to UTF-8 by rowcast "
              "(glibc's iconv has no converter for it; every other character set of MySQL and MariaDB is); ALTER the column to "
              "utf8mb4 to capture it");
    c.collation = 4000;
    check_err(&c, "0141", RC_ERR_UNSUPPORTED,
              "column c (VARCHAR): collation id 4000 is not one of MySQL's or MariaDB's that this reader knows; its bytes cannot "
              "be read as text");
    c.collation = 45;
    check_err(&c, "0b4141414141414141414141", RC_ERR_VALUE, "column c (VARCHAR): value of 11 bytes in a column of at most 10");
    check_err(&c, "0541", RC_ERR_VALUE, "column c (VARCHAR): value truncated: it needs 6 bytes, the row image has 2 left");
    /* the declaration's charset when the binlog has no collation; a declared binary type */
    rc_coltype t;
    rc_error err;
    rc_error_clear(&err);
    const char *d = "varchar(10) character set latin1";
    assert_int_equal(rc_coltype_parse(RC_FAM_MYSQL, d, strlen(d), &t, &err), RC_OK);
    c = col(RC_MY_VARCHAR, 10);
    c.decl = &t;
    check_hex(&c, "01e9", "text:\xc3\xa9");
    assert_int_equal(rc_coltype_parse(RC_FAM_MYSQL, "varbinary(10)", 13, &t, &err), RC_OK);
    c.collation = 45;
    check_hex(&c, "01e9", "bytes:e9");
}

/* The character sets iconv(3) converts: each value is what MariaDB 10.11's
 * SELECT CONVERT(CAST(X'..' AS CHAR CHARACTER SET cs) USING utf8mb4) gives (gb18030, which
 * MariaDB does not have: glibc's GB18030, as MySQL's table is the standard's). */
static void test_charsets_iconv(void **state)
{
    (void)state;
    check_str(28, "d6d0cec4", "text:\xe4\xb8\xad\xe6\x96\x87");                  /* gbk 中文 */
    check_str(1052, "d6d0cec4", "text:\xe4\xb8\xad\xe6\x96\x87");                /* gbk_chinese_nopad_ci */
    check_str(1, "a4a4a4e5", "text:\xe4\xb8\xad\xe6\x96\x87");                   /* big5 中文 */
    check_str(51, "cff0e8e2e5f2", "text:\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82"); /* cp1251 Привет */
    check_str(7, "f0d2c9d7c5d4", "text:\xd0\x9f\xd1\x80\xd0\xb8\xd0\xb2\xd0\xb5\xd1\x82"); /* koi8r Привет */
    check_str(13, "93fa967b5c7e", "text:\xe6\x97\xa5\xe6\x9c\xac\\~");          /* sjis 日本\~ (ASCII, not yen) */
    check_str(19, "c7d1b1db8141", "text:\xed\x95\x9c\xea\xb8\x80\xea\xb0\x82"); /* euckr 한글 and UHC's 갂 */
    check_str(12, "c6fccbdc", "text:\xe6\x97\xa5\xe6\x9c\xac");                  /* ujis 日本 */
    check_str(9, "b1e6ea", "text:\xc4\x85\xc4\x87\xc4\x99");                      /* latin2 ąćę */
    check_str(26, "9a9ee8", "text:\xc5\xa1\xc5\xbe\xc4\x8d");                     /* cp1250 šžč */
    check_str(25, "e1e2e3", "text:\xce\xb1\xce\xb2\xce\xb3");                     /* greek αβγ */
    check_str(16, "e0e1", "text:\xd7\x90\xd7\x91");                                 /* hebrew אב */
    check_str(95, "8782", "text:\xe2\x84\x96");                                      /* cp932 № */
    check_str(97, "ada1", "text:\xe2\x91\xa0");                                      /* eucjpms ① */
    check_str(24, "b9fabcd2", "text:\xe5\x9b\xbd\xe5\xae\xb6");                   /* gb2312 国家 */
    check_str(57, "c7e1da", "text:\xd8\xa7\xd9\x84\xd8\xb9");                     /* cp1256 الع */
    check_str(18, "a1a2", "text:\xe0\xb8\x81\xe0\xb8\x82");                       /* tis620 กข */
    check_str(39, "8a", "text:\xc3\xa4");                                             /* macroman ä */
    check_str(4, "81", "text:\xc3\xbc");                                              /* cp850 ü */
    check_str(32, "b2", "text:\xd4\xb1");                                             /* armscii8 Ա */
    check_str(22, "a4", "text:\xd1\x94");                                             /* koi8u є */
    /* where glibc's tables and the server's differ, the server's */
    check_str(13, "815f8160", "text:\\\xe3\x80\x9c");                               /* sjis: MariaDB's \ for U+005C, 〜 */
    check_str(12, "a1c0", "text:\\");                                                 /* ujis */
    check_str(18, "85", "text:\xc2\x85");                                             /* tis620: a C1 control */
    check_str(10, "40", "text:\xc3\x89");                                             /* swe7 É */
    check_str(36, "fc", "text:\xe2\x81\xbf");                                        /* cp866 ⁿ */
    check_str(248, "d6d08139ef30", "text:\xe4\xb8\xad\xe3\x90\x81");              /* gb18030, a 4-byte sequence */
    /* invalid bytes: each escaped, the rest converted, backslashes doubled; a multi-byte
     * character the value ends inside */
    check_str(28, "41ff42", "invalid:A\\xFFB");
    check_str(28, "5cd6d0d6", "invalid:\\\\\xe4\xb8\xad\\xD6");
    check_str(1, "ffa4a4", "invalid:\\xFF\xe4\xb8\xad");
    /* the declaration's character set when the binlog has no collation */
    rc_coltype t;
    rc_error err;
    rc_error_clear(&err);
    const char *d = "varchar(10) character set gbk";
    assert_int_equal(rc_coltype_parse(RC_FAM_MYSQL, d, strlen(d), &t, &err), RC_OK);
    rc_my_col c = col(RC_MY_VARCHAR, 10);
    c.decl = &t;
    check_hex(&c, "02d6d0", "text:\xe4\xb8\xad");
    d = "varchar(10) character set geostd8";
    assert_int_equal(rc_coltype_parse(RC_FAM_MYSQL, d, strlen(d), &t, &err), RC_OK);
    check_err(&c, "0141", RC_ERR_UNSUPPORTED,
              "column c (VARCHAR): character set geostd8 is not converted to UTF-8 by rowcast (glibc's iconv has no converter "
              "for it; every other character set of MySQL and MariaDB is); ALTER the column to utf8mb4 to capture it");
}

static void test_enum_set(void **state)
{
    (void)state;
    static const rc_str labels[] = {RC_STR("Low"), RC_STR("Medium"), RC_STR("High")};
    rc_my_col c = col(RC_MY_ENUM, RC_MY_ENUM << 8 | 1);
    c.labels = labels, c.nlabels = 3;
    check_hex(&c, "03", "enum:High");
    check_hex(&c, "00", "enum:"); /* MySQL's '' for a value that was not a label */
    check_err(&c, "04", RC_ERR_VALUE, "column c (ENUM): ENUM index 4 is past its labels");
    c.type = RC_MY_STRING; /* the decoder may leave the TABLE_MAP's STRING: the metadata says ENUM */
    check_hex(&c, "01", "enum:Low");
    c = col(RC_MY_SET, RC_MY_SET << 8 | 1);
    c.labels = labels, c.nlabels = 3;
    check_hex(&c, "06", "set:Medium,High");
    check_hex(&c, "00", "set:");
    check_err(&c, "08", RC_ERR_VALUE, "column c (SET): SET bit 3 is set and the column has no label 4");
    /* labels from the history's declaration */
    rc_coltype t;
    rc_error err;
    rc_error_clear(&err);
    const char *d = "enum('a','b''c')";
    assert_int_equal(rc_coltype_parse(RC_FAM_MYSQL, d, strlen(d), &t, &err), RC_OK);
    c = col(RC_MY_ENUM, RC_MY_ENUM << 8 | 2);
    c.decl = &t;
    check_hex(&c, "0100", "enum:a");
    /* no labels anywhere (an offline file without metadata): the index / the bitmask */
    c = col(RC_MY_ENUM, RC_MY_ENUM << 8 | 1);
    check_hex(&c, "02", "int:2");
    c = col(RC_MY_SET, RC_MY_SET << 8 | 8);
    check_hex(&c, "ffffffffffffffff", "uint:18446744073709551615");
}

static const rc_type_info inet6_info = {.name = "inet6", .family = RC_FAM_MYSQL, .vkind = RC_V_TEXT};
static const rc_type_info uuid_info = {.name = "uuid", .family = RC_FAM_MYSQL, .vkind = RC_V_TEXT};

static void test_ext_types(void **state)
{
    (void)state;
    /* GEOMETRY: SRID, then WKB; the SRID always written */
    CHECK(GEOMETRY, 4, "19000000" "00000000" "0101000000" "000000000000f03f" "0000000000000040", "geometry:SRID=0;POINT(1 2)");
    CHECK(GEOMETRY, 4,
          "51000000e61000000103000000010000000400000000000000000000000000000000000000000000000000f03f000000000000f03f0000"
          "00000000f03f000000000000000000000000000000000000000000000000",
          "geometry:SRID=4326;POLYGON((0 0,1 1,1 0,0 0))");
    rc_my_col c = col(RC_MY_GEOMETRY, 4);
    check_err(&c, "0500000000000000ff", RC_ERR_VALUE, "column c (GEOMETRY): the WKB after the 4-byte SRID: bad WKB geometry: byte order expected at byte 0");
    /* INET6 and UUID: binlog type STRING, binary(16), the trailing zero bytes left out (bytes
     * as MariaDB 10.11.19 wrote them for these values); the declared type tells */
    rc_coltype t = {.info = &inet6_info};
    c = col(RC_MY_STRING, 0xfe << 8 | 16);
    c.collation = 63, c.decl = &t;
    check_hex(&c, "1020010db8000000000000000000000001", "text:2001:db8::1");
    check_hex(&c, "1000000000000000000000ffff01020304", "text:::ffff:1.2.3.4");
    check_hex(&c, "0420010db8", "text:2001:db8::");
    check_hex(&c, "00", "text:::");
    t.info = &uuid_info;
    check_hex(&c, "106ba7b810000111e18f2c0800200c9a66", "text:6ba7b810-0001-11e1-8f2c-0800200c9a66");
    check_hex(&c, "0e123e4567e89b42d3a45655664244", "text:123e4567-e89b-42d3-a456-556642440000");
    check_hex(&c, "00", "text:00000000-0000-0000-0000-000000000000");
    check_err(&c, "110000000000000000000000000000000000", RC_ERR_VALUE, "column c (STRING): value of 17 bytes in a column of at most 16");
    /* VECTOR: float32 little-endian */
    CHECK(VECTOR, 4, "080000000000c03f000000c0", "text:[1.5,-2.0]");
    /* MySQL 9.0.1's vector.binlog (blackbeam/rust_mysql_common): VECTOR(3) 1.1, 2.2, 3.3 */
    CHECK(VECTOR, 4, "0c000000cdcc8c3fcdcc0c4033335340", "text:[1.1,2.2,3.3]");
    c = col(RC_MY_VECTOR, 4);
    c.vector_dim = 3;
    check_err(&c, "080000000000c03f000000c0", RC_ERR_VALUE, "column c (VECTOR): a VECTOR value of 8 bytes does not hold the column's dimensions");
    c = col(RC_MY_TYPED_ARRAY, 0);
    check_err(&c, "00", RC_ERR_UNSUPPORTED,
              "column c (TYPED_ARRAY): binlog column type 20 is not one this reader knows (no MySQL or MariaDB server writes it in "
              "row images)");
}

/* ---- the peer vectors ---- */

static unsigned passed;

/* Decodes the vector as c; returns the value and checks the byte count when `used` >= 0. */
static rc_value decode_vec(const vec *v, const rc_my_col *c, long want_used)
{
    size_t used = 0;
    rc_value val;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_value_decode(c, v->bytes, v->n, &used, &val, &arena, &err) != RC_OK) fail_msg("%s %s: %s", v->file, v->tag, err.message);
    if (want_used >= 0 && used != (size_t)want_used) fail_msg("%s %s: used %zu bytes, expected %ld", v->file, v->tag, used, want_used);
    if (want_used < 0 && used != v->n) fail_msg("%s %s: used %zu of %zu bytes", v->file, v->tag, used, v->n);
    return val;
}

static void expect_text(const vec *v, const rc_value *val, const char *want)
{
    if (strcmp(show(val), want)) fail_msg("%s %s:\n  got  %s\n  want %s", v->file, v->tag, show(val), want);
    passed++;
}

/* DECIMAL: {"precision", "scale", "value", "bytes_used"?}; the value has every scale digit, as
 * SELECT prints it, which is the plain rendering. */
static void decimal_vec(vec *v, void *ctx)
{
    (void)ctx;
    char want[220], b[200];
    rc_my_col c = col(RC_MY_NEWDECIMAL, (uint16_t)(member_int(v, "precision", 0) << 8 | member_int(v, "scale", 0)));
    rc_value val = decode_vec(v, &c, member_int(v, "bytes_used", -1));
    snprintf(want, sizeof want, "decimal:%s", member(v, "value", b, sizeof b));
    expect_text(v, &val, want);
}

/* TIME2 / DATETIME2: {"fsp", "value"}: the expected text read with the project's parsers and
 * compared as values (the texts keep the fsp's trailing zeros; ours drops them); a date the
 * calendar has not is the invalid value with that very text. */
static void temporal_vec(vec *v, void *ctx)
{
    char b[200];
    rc_my_col c = col((uint8_t)(uintptr_t)ctx, (uint16_t)member_int(v, "fsp", 0));
    rc_value val = decode_vec(v, &c, -1);
    const char *s = member(v, "value", b, sizeof b);
    if (val.kind == RC_V_INVALID) {
        char want[220];
        snprintf(want, sizeof want, "invalid:%s", s);
        expect_text(v, &val, want);
        return;
    }
    rc_value e = {.kind = val.kind};
    bool ok = val.kind == RC_V_TIME ? rc_parse_time(s, strlen(s), &e.time) : rc_parse_datetime(s, strlen(s), &e.dt);
    if (!ok || !rc_value_equal(&val, &e)) fail_msg("%s %s: got %s, want %s", v->file, v->tag, show(&val), s);
    passed++;
}

static void test_peer_decimal(void **state)
{
    (void)state;
    if (!peers_present()) skip();
    unsigned n = each_vector("go-mysql-org__go-mysql/extracted/replication/row_event_test.go__TestDecodeDecimal.txt", decimal_vec, NULL);
    n += each_vector("go-mysql-org__go-mysql/extracted/replication/row_event_test.go__TestDecimal.txt", decimal_vec, NULL);
    n += each_vector("rusuly__MySqlCdc/extracted/tests/MySqlCdc.Tests/Parsers/DecimalParserTests.cs__ParseNewDecimal.txt", decimal_vec, NULL);
    assert_int_equal(n, 187 + 12 + 6);
}

static void test_peer_temporal(void **state)
{
    (void)state;
    if (!peers_present()) skip();
    unsigned n = each_vector("go-mysql-org__go-mysql/extracted/replication/row_event_test.go__TestDecodeDatetime2.txt", temporal_vec,
                             (void *)(uintptr_t)RC_MY_DATETIME2);
    n += each_vector("go-mysql-org__go-mysql/extracted/replication/row_event_test.go__TestDecodeTime2.txt", temporal_vec,
                     (void *)(uintptr_t)RC_MY_TIME2);
    assert_int_equal(n, 11 + 15);
}

/* rusuly/MySqlCdc's ColumnParser: {"type", "metadata"?, "value"} with the value written as the
 * test asserts it (see the file's header): integers and strings as text, BIT as the bit string,
 * ENUM as its index and SET as its bitmask (no labels given: so are ours), TIMESTAMP in UTC,
 * null for the zero dates (ours: the invalid value), FLOAT as the decimal text that the float
 * nearest to it must equal. The JSON column's vector is checked by test_my_json. */
static void column_vec(vec *v, void *ctx)
{
    (void)ctx;
    char tb[100], vb[2000];
    const char *type = member(v, "type", tb, sizeof tb), *want = member(v, "value", vb, sizeof vb);
    long meta = member_int(v, "metadata", 0);
    static const struct {
        const char *prefix;
        uint8_t type;
    } types[] = {{"TINY", RC_MY_TINY},           {"SHORT", RC_MY_SHORT},         {"INT24", RC_MY_INT24},       {"LONGLONG", RC_MY_LONGLONG},
                 {"LONG", RC_MY_LONG},           {"FLOAT", RC_MY_FLOAT},         {"DOUBLE", RC_MY_DOUBLE},     {"VARCHAR", RC_MY_VARCHAR},
                 {"BLOB", RC_MY_JSON},           {"BIT", RC_MY_BIT},             {"ENUM", RC_MY_ENUM},         {"SET", RC_MY_SET},
                 {"YEAR", RC_MY_YEAR},           {"DATETIME2", RC_MY_DATETIME2}, {"DATETIME", RC_MY_DATETIME}, {"DATE", RC_MY_DATE},
                 {"TIME2", RC_MY_TIME2},         {"TIMESTAMP2", RC_MY_TIMESTAMP2}, {"TIMESTAMP", RC_MY_TIMESTAMP}, {"TIME", RC_MY_TIME}};
    uint8_t t = 0;
    for (size_t i = 0; i < sizeof types / sizeof types[0] && !t; i++)
        if (!strncmp(type, types[i].prefix, strlen(types[i].prefix))) t = types[i].type;
    if (!t) fail_msg("%s %s: type %s not mapped", v->file, v->tag, type);
    if (t == RC_MY_JSON) return; /* test_my_json */
    rc_my_col c = col(t, (uint16_t)meta);
    if (t == RC_MY_ENUM || t == RC_MY_SET) c.meta = (uint16_t)(t << 8 | meta);
    if (t == RC_MY_FLOAT) c.meta = 4;
    if (t == RC_MY_DOUBLE) c.meta = 8;
    if (t == RC_MY_DATETIME || t == RC_MY_TIMESTAMP) c.meta = 0; /* the old layouts have none; the test passes one */
    if (t == RC_MY_VARCHAR) c.collation = 45;
    rc_value val = decode_vec(v, &c, -1);
    char w[2100];
    if (!want) {
        if (val.kind != RC_V_INVALID) fail_msg("%s %s: got %s, want a zero date", v->file, v->tag, show(&val));
        passed++;
        return;
    }
    switch (val.kind) {
    case RC_V_FLOAT32:
        if (val.f32 != strtof(want, NULL)) fail_msg("%s %s: got %s, want %s", v->file, v->tag, show(&val), want);
        passed++;
        return;
    case RC_V_FLOAT64:
        if (val.f64 != strtod(want, NULL)) fail_msg("%s %s: got %s, want %s", v->file, v->tag, show(&val), want);
        passed++;
        return;
    case RC_V_BITS:
        snprintf(w, sizeof w, "bits:%llu", strtoull(want, NULL, 2));
        break;
    case RC_V_TIMESTAMP: { /* "1985-10-13 10:22:23.567 UTC" */
        snprintf(w, sizeof w, "timestamp:%s", want);
        char *sp = strchr(w, ' ');
        *sp = 'T';
        strcpy(strstr(w, " UTC"), "Z");
        break;
    }
    case RC_V_TIME:
    case RC_V_DATETIME: {
        rc_value e = {.kind = val.kind};
        bool ok = val.kind == RC_V_TIME ? rc_parse_time(want, strlen(want), &e.time) : rc_parse_datetime(want, strlen(want), &e.dt);
        if (!ok || !rc_value_equal(&val, &e)) fail_msg("%s %s: got %s, want %s", v->file, v->tag, show(&val), want);
        passed++;
        return;
    }
    default:
        snprintf(w, sizeof w, "%s:%s", rc_vkind_name(val.kind), want);
        break;
    }
    expect_text(v, &val, w);
}

static void test_peer_columns(void **state)
{
    (void)state;
    if (!peers_present()) skip();
    unsigned before = passed;
    unsigned n = each_vector("rusuly__MySqlCdc/extracted/tests/MySqlCdc.Tests/Parsers/ColumnParserTests.cs__ColumnParser.txt", column_vec, NULL);
    assert_int_equal(n, 43);
    assert_int_equal(passed - before, 42); /* the JSON one is test_my_json's */
}

/* go-mysql's rows-event bodies (TestLastNull, TestEnum, TestMultiBytesEnum, TestSet,
 * TestParseJson, TestJsonNull, TestJsonCompatibility, TestRowsDataExtraData), each with the
 * TABLE_MAP body to decode it with. The event framing is the event decoder's (my_decoder.c);
 * here it is read just far enough to reach the values, by the layout of MySQL's
 * Rows_log_event v2 (table id, flags, extra data, column count, column bitmaps, then per row
 * a NULL bitmap of the present columns and their values), so every value of every row goes
 * through rc_my_value_decode. Expected: "row_count", "rows[i][j]" (ENUM as its index and SET
 * as its bitmask: no labels are given; a number or a string, compared as text), and
 * "rows[i][j]_length": 0 (an empty JSON value: ours is JSON null). The partition and NDB
 * fields of TestRowsDataExtraData are the event decoder's: here its rows decode. */
typedef struct tmap {
    unsigned ncols;
    rc_my_col cols[64];
} tmap;

static uint64_t lenenc_at(const uint8_t *p, size_t *at)
{
    uint8_t c = p[(*at)++];
    unsigned k = c < 251 ? 0 : c == 0xfc ? 2 : c == 0xfd ? 3 : 8;
    uint64_t v = k ? 0 : c;
    for (unsigned i = 0; i < k; i++) v |= (uint64_t)p[*at + i] << (8 * i);
    *at += k;
    return v;
}

static void parse_tmap(const char *hex, tmap *t)
{
    static uint8_t b[4096];
    size_t n = unhex(hex, strlen(hex), b, sizeof b), at = 8;
    at += 1 + b[at] + 1; /* db */
    at += 1 + b[at] + 1; /* table */
    t->ncols = (unsigned)lenenc_at(b, &at);
    const uint8_t *types = b + at;
    at += t->ncols;
    size_t mlen = (size_t)lenenc_at(b, &at), m = at;
    for (unsigned i = 0; i < t->ncols; i++) {
        rc_my_col *c = &t->cols[i];
        *c = (rc_my_col){.type = types[i], .name = RC_STR("c"), .collation = 45};
        switch (c->type) {
        case RC_MY_FLOAT: case RC_MY_DOUBLE: case RC_MY_BLOB: case RC_MY_GEOMETRY: case RC_MY_JSON:
        case RC_MY_TIME2: case RC_MY_DATETIME2: case RC_MY_TIMESTAMP2: case RC_MY_VECTOR:
            c->meta = b[m++];
            break;
        case RC_MY_VARCHAR: case RC_MY_VAR_STRING: case RC_MY_BIT:
            c->meta = (uint16_t)(b[m] | b[m + 1] << 8), m += 2;
            break;
        case RC_MY_NEWDECIMAL: case RC_MY_STRING:
            c->meta = (uint16_t)(b[m] << 8 | b[m + 1]), m += 2;
            if (c->type == RC_MY_STRING && (b[m - 2] == RC_MY_ENUM || b[m - 2] == RC_MY_SET)) c->type = b[m - 2];
            break;
        default: break;
        }
    }
    assert_int_equal(m, at + mlen);
    assert_true(m + (t->ncols + 7) / 8 <= n); /* the NULL-ability bitmap follows */
}

/* JSON text without the blanks MySQL puts after ',' and ':' (outside strings). */
static const char *compact(const char *s)
{
    static char out[70000];
    size_t k = 0;
    bool str = false;
    for (; *s && k < sizeof out - 1; s++) {
        if (str && *s == '\\' && s[1]) out[k++] = *s++;
        else if (*s == '"') str = !str;
        else if (!str && *s == ' ') continue;
        out[k++] = *s;
    }
    out[k] = '\0';
    return out;
}

static void rows_vec(vec *v, void *ctx)
{
    (void)ctx;
    static char tm[4096];
    char et[64];
    tmap t;
    parse_tmap(member(v, "table_map", tm, sizeof tm), &t);
    const char *type = member(v, "event_type", et, sizeof et);
    bool update = type && strstr(type, "UPDATE");
    size_t at = 8;
    size_t extra = (size_t)(v->bytes[at] | v->bytes[at + 1] << 8); /* includes its own 2 bytes */
    at += extra;
    unsigned ncols = (unsigned)lenenc_at(v->bytes, &at);
    assert_int_equal(ncols, t.ncols);
    const uint8_t *present = v->bytes + at;
    at += (ncols + 7) / 8 * (update ? 2 : 1);
    uint32_t exp = rc_json_get(&v->j, 0, "expected");
    unsigned row = 0;
    while (at < v->n) {
        unsigned npresent = 0;
        for (unsigned i = 0; i < ncols; i++) npresent += present[i / 8] >> (i % 8) & 1;
        const uint8_t *nulls = v->bytes + at;
        at += (npresent + 7) / 8;
        for (unsigned i = 0, k = 0; i < ncols; i++) {
            if (!(present[i / 8] >> (i % 8) & 1)) continue;
            bool null = nulls[k / 8] >> (k % 8) & 1;
            k++;
            char key[64];
            snprintf(key, sizeof key, "rows[%u][%u]", row, i);
            uint32_t want = rc_json_get(&v->j, exp, key);
            snprintf(key, sizeof key, "rows[%u][%u]_length", row, i);
            uint32_t wantlen = rc_json_get(&v->j, exp, key);
            if (null) {
                if (want) fail_msg("%s %s: %s is NULL", v->file, v->tag, key);
                continue;
            }
            size_t used;
            rc_value val;
            rc_error err;
            rc_error_clear(&err);
            if (rc_my_value_decode(&t.cols[i], v->bytes + at, v->n - at, &used, &val, &arena, &err) != RC_OK)
                fail_msg("%s %s row %u column %u: %s", v->file, v->tag, row, i, err.message);
            at += used;
            const rc_jnode *wn = want ? rc_json_node(&v->j, want) : NULL;
            if (wn && wn->type == RC_J_STRING && wn->n == 4 && !memcmp(wn->s, "null", 4) && val.kind == RC_V_INVALID) {
                /* MySQL < 5.7.22's bogus virtual JSON value: go-mysql ignores the decoding
                 * error (null); ours keeps the bytes as an invalid value */
                if (strncmp(val.s.p, "base64:type245:", 15)) fail_msg("%s %s: %s is %s", v->file, v->tag, key, show(&val));
                passed++;
            } else if (wantlen) {
                if (strcmp(show(&val), "json:null")) fail_msg("%s %s: %s is %s, want the empty value", v->file, v->tag, key, show(&val));
                passed++;
            } else if (want) {
                const rc_jnode *w = rc_json_node(&v->j, want);
                const char *s = show(&val), *colon = strchr(s, ':') + 1;
                if (val.kind == RC_V_JSON) colon = compact(colon); /* go-mysql's JSON has no spaces */
                if (strlen(colon) != w->n || memcmp(colon, w->s, w->n))
                    fail_msg("%s %s: rows[%u][%u] is %s, want %.*s", v->file, v->tag, row, i, s, (int)w->n, w->s);
                passed++;
            }
        }
        row++;
        if (update && row % 2) continue; /* the after image follows, same layout */
    }
    assert_int_equal(at, v->n);
    uint32_t rc = rc_json_get(&v->j, exp, "row_count");
    if (rc) {
        assert_int_equal(row, strtoul(rc_json_node(&v->j, rc)->s, NULL, 10));
        passed++;
    }
    if (rc_json_get(&v->j, exp, "partition_id")) passed++; /* the values decoded; the fields are the decoder's */
}

static void test_peer_rows(void **state)
{
    (void)state;
    if (!peers_present()) skip();
    static const char *const files[] = {"TestLastNull", "TestEnum", "TestMultiBytesEnum", "TestSet", "TestParseJson", "TestJsonNull",
                                        "TestJsonCompatibility", "TestRowsDataExtraData"};
    unsigned before = passed, n = 0;
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char rel[200];
        snprintf(rel, sizeof rel, "go-mysql-org__go-mysql/extracted/replication/row_event_test.go__%s.txt", files[i]);
        n += each_vector(rel, rows_vec, NULL);
    }
    print_message("rows-event bodies: %u, checks passed: %u\n", n, passed - before);
}

static void test_peer_count(void **state)
{
    (void)state;
    if (!peers_present()) skip();
    print_message("peer vectors passed: %u\n", passed);
}

static int setup(void **state)
{
    (void)state;
    rc_arena_init(&arena);
    return 0;
}
static int teardown(void **state)
{
    (void)state;
    rc_arena_fini(&arena);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers),     cmocka_unit_test(test_floats_bits_year), cmocka_unit_test(test_decimal), cmocka_unit_test(test_utf8_windows),
        cmocka_unit_test(test_temporal),     cmocka_unit_test(test_strings), cmocka_unit_test(test_charsets_iconv),          cmocka_unit_test(test_enum_set),
        cmocka_unit_test(test_ext_types),    cmocka_unit_test(test_peer_decimal),     cmocka_unit_test(test_peer_temporal),
        cmocka_unit_test(test_peer_columns), cmocka_unit_test(test_peer_rows),     cmocka_unit_test(test_peer_count),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
