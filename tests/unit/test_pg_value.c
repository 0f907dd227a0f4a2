/* PostgreSQL types and value texts (src/sources/pg/pg_value_types.c, pg_value.c): every built-in type of §3 of
 * issue 13 with the text PostgreSQL 15 prints for its edge values (taken from a server in the
 * session settings the walsender is pinned to: TimeZone UTC, DateStyle ISO, IntervalStyle
 * postgres, extra_float_digits 3), checked as the declared type, the value's kind and payload,
 * and its exact native rendering; malformed texts give exact errors naming the byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"
#include "core/fmt.h"
#include "sources/pg/pg_value.h"
#include "sources/pg/pg_default.h"

static rc_arena arena;
static rc_buf out;

/* Resolves (oid, typmod), reads `text` as a value of a column "c" of that type and renders
 * the event as native writes it; returns the value. */
static rc_value parse_as(const rc_pg_types *reg, uint32_t oid, int32_t typmod, const char *text, size_t tn, const char *decl,
                         rc_pg_type *t, rc_column *col)
{
    rc_error err;
    rc_error_clear(&err);
    if (rc_pg_type_resolve(reg, oid, typmod, &arena, t, &err) != RC_OK) fail_msg("resolve %u/%d: %s", oid, typmod, err.message);
    assert_int_equal(t->type.decl.n, strlen(decl));
    if (memcmp(t->type.decl.p, decl, t->type.decl.n)) fail_msg("decl '%.*s' != '%s'", (int)t->type.decl.n, t->type.decl.p, decl);
    *col = (rc_column){.name = RC_STR("c"), .type = t->type};
    rc_value v;
    if (rc_pg_value_parse(t, col, text, tn, &arena, &v, &err) != RC_OK) fail_msg("parse '%s' as %s: %s", text, decl, err.message);
    return v;
}

static void native_of(const rc_column *col, const rc_value *v)
{
    rc_event ev = {.op = RC_OP_INSERT, .src = {.kind = RC_DB_POSTGRES}, .ncols = 1, .cols = col, .after = v};
    rc_error err;
    rc_error_clear(&err);
    rc_buf_reset(&out);
    if (rc_native_encode(NULL, &ev, &out, &err) != RC_OK) fail_msg("native: %s", err.message);
}

/* `native` is the JSON of the value as native writes it. */
static rc_value check_n(uint32_t oid, int32_t typmod, const char *text, size_t tn, const char *decl, rc_vkind kind, const char *native)
{
    rc_pg_type t;
    rc_column col;
    rc_value v = parse_as(NULL, oid, typmod, text, tn, decl, &t, &col);
    if (v.kind != kind) fail_msg("'%s' as %s: kind %s, expected %s", text, decl, rc_vkind_name(v.kind), rc_vkind_name(kind));
    native_of(&col, &v);
    char want[4096];
    snprintf(want, sizeof want, "{\"op\":\"insert\",\"source\":{\"kind\":\"postgresql\"},\"columns\":[{\"name\":\"c\",\"type\":\"%s\"}],\"after\":[%s]}",
             decl, native);
    if (out.len != strlen(want) || memcmp(out.data, want, out.len))
        fail_msg("'%s' as %s:\n  got  %.*s\n  want %s", text, decl, (int)out.len, out.data, want);
    return v;
}
#define CHECK(oid, typmod, text, decl, kind, native) check_n(oid, typmod, text, strlen(text), decl, RC_V_##kind, native)

static void test_integers(void **state)
{
    (void)state;
    assert_true(CHECK(20, -1, "-9223372036854775808", "bigint", INT, "-9223372036854775808").i == INT64_MIN);
    assert_true(CHECK(20, -1, "9223372036854775807", "bigint", INT, "9223372036854775807").i == INT64_MAX);
    assert_true(CHECK(21, -1, "-32768", "smallint", INT, "-32768").i == -32768);
    assert_true(CHECK(23, -1, "-2147483648", "integer", INT, "-2147483648").i == INT32_MIN);
    assert_true(CHECK(26, -1, "4294967295", "oid", INT, "4294967295").i == 4294967295);
    CHECK(23, -1, "0", "integer", INT, "0");
}

static void test_numeric(void **state)
{
    (void)state;
    /* NaN and ±Infinity: no decimal holds them; kept as their text */
    rc_value v = CHECK(1700, -1, "NaN", "numeric", INVALID, "{\"invalid\":\"NaN\"}");
    assert_int_equal(v.s.n, 3);
    CHECK(1700, -1, "Infinity", "numeric", INVALID, "{\"invalid\":\"Infinity\"}");
    CHECK(1700, -1, "-Infinity", "numeric", INVALID, "{\"invalid\":\"-Infinity\"}");
    v = CHECK(1700, 655366, "1.50", "numeric(10,2)", DECIMAL, "\"1.50\"");
    assert_int_equal(v.dec.ndigits, 3), assert_int_equal(v.dec.scale, 2), assert_false(v.dec.neg);
    assert_memory_equal(v.dec.digits, "150", 3);
    CHECK(1700, 327684, "-12345", "numeric(5,0)", DECIMAL, "\"-12345\"");
    CHECK(1700, -1, "0", "numeric", DECIMAL, "\"0\"");
    CHECK(1700, -1, "0.0", "numeric", DECIMAL, "\"0.0\"");
    CHECK(1700, -1, "0.00000000000000000001", "numeric", DECIMAL, "\"0.00000000000000000001\"");
    CHECK(1700, -1, "100000000000000000000", "numeric", DECIMAL, "\"100000000000000000000\"");
    /* 1,000 digits, 500 of them after the point, never through a double */
    char big[1100], want[1110];
    size_t k = 0;
    big[k++] = '-';
    for (int i = 0; i < 1000; i++) {
        if (i == 500) big[k++] = '.';
        big[k++] = (char)('1' + i % 9);
    }
    big[k] = '\0';
    snprintf(want, sizeof want, "\"%s\"", big);
    v = CHECK(1700, -1, big, "numeric", DECIMAL, want);
    assert_int_equal(v.dec.ndigits, 1000), assert_int_equal(v.dec.scale, 500), assert_true(v.dec.neg);
}

static void test_floats(void **state)
{
    (void)state;
    rc_value v = CHECK(701, -1, "NaN", "double precision", FLOAT64, "\"NaN\"");
    assert_true(isnan(v.f64));
    assert_true(CHECK(701, -1, "Infinity", "double precision", FLOAT64, "\"Infinity\"").f64 == INFINITY);
    assert_true(CHECK(701, -1, "-Infinity", "double precision", FLOAT64, "\"-Infinity\"").f64 == -INFINITY);
    v = CHECK(701, -1, "-0", "double precision", FLOAT64, "-0.0");
    assert_true(v.f64 == 0 && signbit(v.f64));
    assert_true(CHECK(701, -1, "0.1", "double precision", FLOAT64, "0.1").f64 == 0.1);
    assert_true(CHECK(701, -1, "1e+300", "double precision", FLOAT64, "1.0E300").f64 == 1e300);
    assert_true(CHECK(701, -1, "1e-05", "double precision", FLOAT64, "1.0E-5").f64 == 1e-5);
    assert_true(CHECK(701, -1, "5e-324", "double precision", FLOAT64, "4.9E-324").f64 == 4.9406564584124654e-324);
    assert_true(CHECK(701, -1, "1.7976931348623157e+308", "double precision", FLOAT64, "1.7976931348623157E308").f64 == 1.7976931348623157e308);
    assert_true(CHECK(701, -1, "1.2345678901234568e+20", "double precision", FLOAT64, "1.2345678901234568E20").f64 == 1.2345678901234568e20);
    CHECK(701, -1, "1e+16", "double precision", FLOAT64, "1.0E16");
    CHECK(701, -1, "10000000", "double precision", FLOAT64, "1.0E7");
    CHECK(701, -1, "1234567", "double precision", FLOAT64, "1234567.0");
    CHECK(701, -1, "0.001", "double precision", FLOAT64, "0.001");
    CHECK(701, -1, "0.0001", "double precision", FLOAT64, "1.0E-4");
    assert_true(isnan(CHECK(700, -1, "NaN", "real", FLOAT32, "\"NaN\"").f32));
    v = CHECK(700, -1, "-0", "real", FLOAT32, "-0.0");
    assert_true(v.f32 == 0 && signbit(v.f32));
    assert_true(CHECK(700, -1, "3.14", "real", FLOAT32, "3.14").f32 == 3.14f);
    assert_true(CHECK(700, -1, "1e-05", "real", FLOAT32, "1.0E-5").f32 == 1e-5f);
    assert_true(CHECK(700, -1, "3.4028235e+38", "real", FLOAT32, "3.4028235E38").f32 == 3.4028235e38f);
    assert_true(CHECK(700, -1, "1e-45", "real", FLOAT32, "1.4E-45").f32 == 1e-45f);
    assert_true(CHECK(700, -1, "1.6777216e+07", "real", FLOAT32, "1.6777216E7").f32 == 16777216.0f);
    /* read as a float directly: through a double, 1.00000005960464477539062 (halfway between two
     * floats, then above it) would round twice */
    assert_true(CHECK(700, -1, "1.000000059604644775390625000001", "real", FLOAT32, "1.0000001").f32 == 1.00000012f);
}

static void test_bool_bytes(void **state)
{
    (void)state;
    assert_true(CHECK(16, -1, "t", "boolean", BOOL, "true").b);
    assert_false(CHECK(16, -1, "f", "boolean", BOOL, "false").b);
    rc_value v = CHECK(17, -1, "\\x00ff", "bytea", BYTES, "\"AP8=\"");
    assert_int_equal(v.s.n, 2), assert_memory_equal(v.s.p, "\x00\xff", 2);
    assert_int_equal(CHECK(17, -1, "\\x", "bytea", BYTES, "\"\"").s.n, 0);
    CHECK(17, -1, "\\xDEADbeef", "bytea", BYTES, "\"3q2+7w==\"");
}

static void test_dates(void **state)
{
    (void)state;
    rc_value v = CHECK(1082, -1, "0044-03-15 BC", "date", DATE, "\"-0043-03-15\""); /* astronomical year */
    assert_int_equal(v.date.year, -43), assert_int_equal(v.date.month, 3), assert_int_equal(v.date.day, 15);
    assert_true(rc_date_epoch_days(&v.date) == -735160); /* '0044-03-15 BC'::date - '1970-01-01' on PostgreSQL 15 */
    assert_int_equal(CHECK(1082, -1, "0001-01-01 BC", "date", DATE, "\"0000-01-01\"").date.year, 0);
    CHECK(1082, -1, "0001-02-29 BC", "date", DATE, "\"0000-02-29\""); /* 1 BC was a leap year */
    CHECK(1082, -1, "0005-02-29 BC", "date", DATE, "\"-0004-02-29\"");
    CHECK(1082, -1, "4713-01-01 BC", "date", DATE, "\"-4712-01-01\"");
    CHECK(1082, -1, "5874897-12-31", "date", DATE, "\"5874897-12-31\"");
    CHECK(1082, -1, "2024-02-29", "date", DATE, "\"2024-02-29\"");
    CHECK(1082, -1, "infinity", "date", INVALID, "{\"invalid\":\"infinity\"}");
    CHECK(1082, -1, "-infinity", "date", INVALID, "{\"invalid\":\"-infinity\"}");

    v = CHECK(1114, -1, "2024-01-01 12:00:00.123456", "timestamp without time zone", DATETIME, "\"2024-01-01 12:00:00.123456\"");
    assert_int_equal(v.dt.year, 2024), assert_int_equal(v.dt.hour, 12), assert_int_equal(v.dt.nanos, 123456000), assert_int_equal(v.dt.zone.n, 0);
    CHECK(1114, 0, "0044-03-15 10:00:00 BC", "timestamp(0) without time zone", DATETIME, "\"-0043-03-15 10:00:00\"");
    CHECK(1114, 3, "294276-12-31 23:59:59.999", "timestamp(3) without time zone", DATETIME, "\"294276-12-31 23:59:59.999\"");
    CHECK(1114, -1, "4713-01-01 00:00:00 BC", "timestamp without time zone", DATETIME, "\"-4712-01-01 00:00:00\"");
    CHECK(1114, -1, "infinity", "timestamp without time zone", INVALID, "{\"invalid\":\"infinity\"}");
    CHECK(1114, -1, "-infinity", "timestamp without time zone", INVALID, "{\"invalid\":\"-infinity\"}");

    v = CHECK(1184, -1, "2024-01-01 12:00:00.123456+00", "timestamp with time zone", TIMESTAMP, "\"2024-01-01T12:00:00.123456Z\"");
    assert_true(v.ts.sec == 1704110400), assert_int_equal(v.ts.nanos, 123456000);
    v = CHECK(1184, 6, "0044-03-15 10:00:00+00 BC", "timestamp(6) with time zone", TIMESTAMP, "\"-0043-03-15T10:00:00Z\"");
    assert_true(v.ts.sec == -63517788000LL); /* extract(epoch from ...) on PostgreSQL 15 */
    CHECK(1184, 1, "2024-01-01 06:30:00.5+00", "timestamp(1) with time zone", TIMESTAMP, "\"2024-01-01T06:30:00.5Z\"");
    /* another session time zone would print offsets: read them all the same */
    CHECK(1184, -1, "2024-01-01 12:00:00.5+05:30", "timestamp with time zone", TIMESTAMP, "\"2024-01-01T06:30:00.5Z\"");
    CHECK(1184, -1, "1900-01-01 00:00:00-00:17:30", "timestamp with time zone", TIMESTAMP, "\"1900-01-01T00:17:30Z\"");
    CHECK(1184, -1, "infinity", "timestamp with time zone", INVALID, "{\"invalid\":\"infinity\"}");
    CHECK(1184, -1, "-infinity", "timestamp with time zone", INVALID, "{\"invalid\":\"-infinity\"}");
}

static void test_times(void **state)
{
    (void)state;
    rc_value v = CHECK(1083, -1, "24:00:00", "time without time zone", TIME, "\"24:00:00\"");
    assert_int_equal(v.time.hour, 24);
    v = CHECK(1083, 3, "23:59:59.999", "time(3) without time zone", TIME, "\"23:59:59.999\"");
    assert_int_equal(v.time.nanos, 999000000);
    CHECK(1083, -1, "23:59:59.999999", "time without time zone", TIME, "\"23:59:59.999999\"");
    CHECK(1083, -1, "00:00:00", "time without time zone", TIME, "\"00:00:00\"");
    CHECK(1266, -1, "12:00:00+05:30", "time with time zone", TEXT, "\"12:00:00+05:30\"");
    CHECK(1266, 2, "24:00:00-15:59", "time(2) with time zone", TEXT, "\"24:00:00-15:59\"");
    CHECK(1266, -1, "00:00:00.5+00", "time with time zone", TEXT, "\"00:00:00.5+00\"");
    CHECK(1266, -1, "12:00:00+05:30:15", "time with time zone", TEXT, "\"12:00:00+05:30:15\"");
    CHECK(1186, -1, "1 year 2 mons 3 days 04:05:06.789", "interval", INTERVAL, "\"1 year 2 mons 3 days 04:05:06.789\"");
    CHECK(1186, -1, "-1 days +02:00:00", "interval", INTERVAL, "\"-1 days +02:00:00\"");
    CHECK(1186, -1, "00:00:00", "interval", INTERVAL, "\"00:00:00\"");
    CHECK(1186, -1, "-178000000 years", "interval", INTERVAL, "\"-178000000 years\"");
    CHECK(1186, -1, "1 mon -1 days -00:00:01", "interval", INTERVAL, "\"1 mon -1 days -00:00:01\"");
    CHECK(1186, -1, "-00:00:00.000001", "interval", INTERVAL, "\"-00:00:00.000001\"");
    CHECK(1186, -1, "3 days", "interval", INTERVAL, "\"3 days\"");
    CHECK(1186, -1, "-1 years +1 day", "interval", INTERVAL, "\"-1 years +1 day\"");
    CHECK(1186, -1, "10 mons 3 days -04:00:00", "interval", INTERVAL, "\"10 mons 3 days -04:00:00\"");
    CHECK(1186, -1, "-00:00:00.5", "interval", INTERVAL, "\"-00:00:00.5\"");
    CHECK(1186, -1, "2562047788:00:54.775807", "interval", INTERVAL, "\"2562047788:00:54.775807\"");
    /* the typmod's fields and precision, as format_type() prints them */
    CHECK(1186, 458751, "1 year 2 mons", "interval year to month", INTERVAL, "\"1 year 2 mons\"");
    CHECK(1186, 470286339, "1 day 00:00:00.123", "interval day to second(3)", INTERVAL, "\"1 day 00:00:00.123\"");
    CHECK(1186, 2147418114, "00:00:00.12", "interval(2)", INTERVAL, "\"00:00:00.12\"");
    CHECK(1186, 67174399, "05:00:00", "interval hour", INTERVAL, "\"05:00:00\"");
    CHECK(1186, 402718719, "00:01:02", "interval minute to second", INTERVAL, "\"00:01:02\"");
}

static void test_text_types(void **state)
{
    (void)state;
    CHECK(3802, -1, "{\"a\": \"\xc3\xa9\\n\xf0\x9f\x98\x80\", \"b\": [1, 2.50]}", "jsonb", JSON,
          "\"{\\\"a\\\": \\\"\xc3\xa9\\\\n\xf0\x9f\x98\x80\\\", \\\"b\\\": [1, 2.50]}\"");
    CHECK(114, -1, "{\"a\" : 1,\"a\":2}", "json", JSON, "\"{\\\"a\\\" : 1,\\\"a\\\":2}\"");
    CHECK(2950, -1, "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11", "uuid", TEXT, "\"a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11\"");
    CHECK(869, -1, "::ffff:1.2.3.4", "inet", TEXT, "\"::ffff:1.2.3.4\"");
    CHECK(869, -1, "192.168.1.5/24", "inet", TEXT, "\"192.168.1.5/24\"");
    CHECK(650, -1, "10.0.0.0/8", "cidr", TEXT, "\"10.0.0.0/8\"");
    CHECK(829, -1, "08:00:2b:01:02:03", "macaddr", TEXT, "\"08:00:2b:01:02:03\"");
    CHECK(774, -1, "08:00:2b:01:02:03:04:05", "macaddr8", TEXT, "\"08:00:2b:01:02:03:04:05\"");
    CHECK(790, -1, "$12,345.68", "money", TEXT, "\"$12,345.68\"");
    CHECK(790, -1, "-$92,233,720,368,547,758.08", "money", TEXT, "\"-$92,233,720,368,547,758.08\"");
    CHECK(1560, 5, "10101", "bit(5)", TEXT, "\"10101\"");
    CHECK(1560, 1, "1", "bit(1)", TEXT, "\"1\"");
    CHECK(1562, -1, "", "bit varying", TEXT, "\"\"");
    CHECK(1562, 10, "101", "bit varying(10)", TEXT, "\"101\"");
    CHECK(3904, -1, "[1,5)", "int4range", TEXT, "\"[1,5)\"");
    CHECK(3904, -1, "empty", "int4range", TEXT, "\"empty\"");
    CHECK(3906, -1, "(,)", "numrange", TEXT, "\"(,)\"");
    CHECK(3908, -1, "[\"2024-01-01 00:00:00\",infinity)", "tsrange", TEXT, "\"[\\\"2024-01-01 00:00:00\\\",infinity)\"");
    CHECK(3910, -1, "[\"2024-01-01 00:00:00+00\",)", "tstzrange", TEXT, "\"[\\\"2024-01-01 00:00:00+00\\\",)\"");
    CHECK(3912, -1, "[2024-01-01,2024-02-01)", "daterange", TEXT, "\"[2024-01-01,2024-02-01)\"");
    CHECK(3926, -1, "[-9223372036854775808,0)", "int8range", TEXT, "\"[-9223372036854775808,0)\"");
    CHECK(4451, -1, "{[1,3),[5,7)}", "int4multirange", TEXT, "\"{[1,3),[5,7)}\"");
    CHECK(4535, -1, "{}", "datemultirange", TEXT, "\"{}\"");
    CHECK(600, -1, "(1,2)", "point", TEXT, "\"(1,2)\"");
    CHECK(600, -1, "(1e+300,NaN)", "point", TEXT, "\"(1e+300,NaN)\"");
    CHECK(628, -1, "{1,-1,0}", "line", TEXT, "\"{1,-1,0}\"");
    CHECK(601, -1, "[(0,0),(1,1)]", "lseg", TEXT, "\"[(0,0),(1,1)]\"");
    CHECK(603, -1, "(1,1),(0,0)", "box", TEXT, "\"(1,1),(0,0)\"");
    CHECK(602, -1, "[(0,0),(1,1)]", "path", TEXT, "\"[(0,0),(1,1)]\"");
    CHECK(604, -1, "((0,0),(1,1),(1,0))", "polygon", TEXT, "\"((0,0),(1,1),(1,0))\"");
    CHECK(718, -1, "<(0,0),1.5>", "circle", TEXT, "\"<(0,0),1.5>\"");
    CHECK(3614, -1, "'a' 'cat' 'fat'", "tsvector", TEXT, "\"'a' 'cat' 'fat'\"");
    CHECK(3615, -1, "'fat' & !'rat'", "tsquery", TEXT, "\"'fat' & !'rat'\"");
    CHECK(142, -1, "<a>x</a>", "xml", TEXT, "\"<a>x</a>\"");
    CHECK(19, -1, "abc", "name", TEXT, "\"abc\"");
    CHECK(1042, 8, "ab  ", "character(4)", TEXT, "\"ab  \"");
    CHECK(1042, -1, "x", "bpchar", TEXT, "\"x\"");
    CHECK(1043, 24, "", "character varying(20)", TEXT, "\"\"");
    CHECK(1043, -1, "tab\there", "character varying", TEXT, "\"tab\\there\"");
    CHECK(25, -1, "\xf0\x9f\x98\x80", "text", TEXT, "\"\xf0\x9f\x98\x80\"");
}

static void test_arrays(void **state)
{
    (void)state;
    CHECK(1007, -1, "{1,NULL,3}", "integer[]", TEXT, "\"{1,NULL,3}\"");
    CHECK(1009, -1, "{\"a,b\",NULL,\"NULL\",\"x\\\"y\",\"b\\\\c\",\"\",\" s \"}", "text[]", TEXT,
          "\"{\\\"a,b\\\",NULL,\\\"NULL\\\",\\\"x\\\\\\\"y\\\",\\\"b\\\\\\\\c\\\",\\\"\\\",\\\" s \\\"}\"");
    CHECK(1007, -1, "{{1,2},{3,4}}", "integer[]", TEXT, "\"{{1,2},{3,4}}\"");
    CHECK(1009, -1, "{{NULL,1},{2,NULL}}", "text[]", TEXT, "\"{{NULL,1},{2,NULL}}\"");
    CHECK(1007, -1, "[0:1]={1,2}", "integer[]", TEXT, "\"[0:1]={1,2}\"");
    CHECK(1007, -1, "[-2:-1][1:1]={{1},{2}}", "integer[]", TEXT, "\"[-2:-1][1:1]={{1},{2}}\"");
    CHECK(1007, -1, "{}", "integer[]", TEXT, "\"{}\"");
    CHECK(1185, 3, "{\"2024-01-01 00:00:00+00\"}", "timestamp(3) with time zone[]", TEXT, "\"{\\\"2024-01-01 00:00:00+00\\\"}\"");
    CHECK(1231, 655366, "{1.50,NaN}", "numeric(10,2)[]", TEXT, "\"{1.50,NaN}\"");
    CHECK(1015, 7, "{abc}", "character varying(3)[]", TEXT, "\"{abc}\"");
    CHECK(1009, -1, "{\xf0\x9f\x98\x80,\"{}\"}", "text[]", TEXT, "\"{\xf0\x9f\x98\x80,\\\"{}\\\"}\"");
    CHECK(1020, -1, "{(1,1),(0,0);(2,2),(1,1)}", "box[]", TEXT, "\"{(1,1),(0,0);(2,2),(1,1)}\"");
    CHECK(1001, -1, "{\"\\\\x00\"}", "bytea[]", TEXT, "\"{\\\"\\\\\\\\x00\\\"}\"");
    CHECK(1187, -1, "{\"1 day\"}", "interval[]", TEXT, "\"{\\\"1 day\\\"}\"");
    CHECK(1563, -1, "{101}", "bit varying[]", TEXT, "\"{101}\"");
    CHECK(1270, -1, "{12:00:00+05:30}", "time with time zone[]", TEXT, "\"{12:00:00+05:30}\"");
    /* elements are checked with their type's reader (texts from PostgreSQL 15) */
    CHECK(1182, -1, "{\"0044-03-15 BC\",infinity,NULL}", "date[]", TEXT, "\"{\\\"0044-03-15 BC\\\",infinity,NULL}\"");
    CHECK(1561, 5, "{10101}", "bit(5)[]", TEXT, "\"{10101}\"");
    CHECK(1022, -1, "{NaN,-0,1e-05}", "double precision[]", TEXT, "\"{NaN,-0,1e-05}\"");
    CHECK(1000, -1, "{t,f}", "boolean[]", TEXT, "\"{t,f}\"");
    CHECK(2951, -1, "{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}", "uuid[]", TEXT, "\"{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}\"");
    CHECK(1183, -1, "{24:00:00}", "time without time zone[]", TEXT, "\"{24:00:00}\"");
}

/* enum, domain and array types registered as the connection reads them from pg_type */
static void test_registered_types(void **state)
{
    (void)state;
    rc_pg_types *reg = rc_pg_types_new();
    rc_error err;
    rc_error_clear(&err);
    const char *labels[] = {"sad", "ok", "it's"};
    const size_t lens[] = {3, 2, 4};
    assert_int_equal(rc_pg_types_add_enum(reg, 16400, 3, labels, lens, &err), RC_OK);
    assert_int_equal(rc_pg_types_add_array(reg, 16399, 16400, &err), RC_OK);
    assert_int_equal(rc_pg_types_add_domain(reg, 16500, 1700, 655366, &err), RC_OK); /* CREATE DOMAIN price AS numeric(10,2) */
    assert_int_equal(rc_pg_types_add_domain(reg, 16501, 16500, -1, &err), RC_OK);    /* a domain over that domain */
    assert_int_equal(rc_pg_types_add_domain(reg, 16502, 1007, -1, &err), RC_OK);     /* over integer[] */
    assert_int_equal(rc_pg_types_add_array(reg, 16503, 16500, &err), RC_OK);         /* price[] */

    rc_pg_type t;
    rc_column col;
    rc_value v = parse_as(reg, 16400, -1, "it's", 4, "enum('sad','ok','it''s')", &t, &col);
    assert_int_equal(v.kind, RC_V_ENUM);
    rc_str l;
    assert_true(rc_coltype_label(&col.type, 2, &l));
    assert_int_equal(l.n, 5), assert_memory_equal(l.p, "it''s", 5); /* labels keep SQL's doubled quotes */
    native_of(&col, &v);
    const char *want = "{\"op\":\"insert\",\"source\":{\"kind\":\"postgresql\"},\"columns\":[{\"name\":\"c\",\"type\":\"enum('sad','ok','it''s')\"}],\"after\":[\"it's\"]}";
    assert_int_equal(out.len, strlen(want)), assert_memory_equal(out.data, want, out.len);

    v = parse_as(reg, 16399, -1, "{sad,NULL,\"it's\"}", 17, "enum('sad','ok','it''s')[]", &t, &col);
    assert_int_equal(v.kind, RC_V_TEXT);
    v = parse_as(reg, 16500, -1, "-0.01", 5, "numeric(10,2)", &t, &col);
    assert_int_equal(v.kind, RC_V_DECIMAL), assert_int_equal(v.dec.scale, 2);
    v = parse_as(reg, 16501, -1, "NaN", 3, "numeric(10,2)", &t, &col);
    assert_int_equal(v.kind, RC_V_INVALID);
    parse_as(reg, 16502, -1, "{1}", 3, "integer[]", &t, &col);
    parse_as(reg, 16503, -1, "{1.00}", 6, "numeric(10,2)[]", &t, &col);

    /* a Type message: the type is looked up again, read as text and declared unknown until then
     * (issue 28: no column type stops a capture) */
    rc_pg_types_forget(reg, 16400);
    parse_as(reg, 16400, -1, "sad", 3, "unknown", &t, &col);
    /* types known by name: extensions' (their name), others (theirs when the catalog reads it as
     * its unknown row, else unknown), arrays and domains over them */
    assert_int_equal(rc_pg_types_add_named(reg, 16600, "citext", 0, &err), RC_OK);
    assert_int_equal(rc_pg_types_add_named(reg, 16601, "hstore", 0, &err), RC_OK);
    assert_int_equal(rc_pg_types_add_named(reg, 16602, "isbn", 0, &err), RC_OK);
    assert_int_equal(rc_pg_types_add_named(reg, 16603, "mytype", 0, &err), RC_OK);
    assert_int_equal(rc_pg_types_add_named(reg, 18, "char", 0, &err), RC_OK);
    assert_int_equal(rc_pg_types_add_named(reg, 16604, "my type", 0, &err), RC_OK);
    assert_int_equal(rc_pg_types_add_array(reg, 16610, 16600, &err), RC_OK);
    assert_int_equal(rc_pg_types_add_domain(reg, 16611, 16600, -1, &err), RC_OK);
    v = parse_as(reg, 16600, -1, "AbC", 3, "citext", &t, &col);
    assert_int_equal(v.kind, RC_V_TEXT);
    assert_string_equal(t.type.info->name, "citext");
    v = parse_as(reg, 16601, -1, "\"a\"=>\"1\"", 8, "hstore", &t, &col);
    assert_int_equal(v.kind, RC_V_TEXT);
    parse_as(reg, 16602, -1, "0-393-04002-X", 13, "isbn", &t, &col);
    v = parse_as(reg, 16603, -1, "(1,2)", 5, "mytype", &t, &col);
    assert_int_equal(v.kind, RC_V_TEXT);
    assert_string_equal(t.type.info->name, "unknown");
    parse_as(reg, 18, -1, "a", 1, "unknown", &t, &col);       /* "char" is the catalog's character: not that */
    parse_as(reg, 16604, -1, "x", 1, "unknown", &t, &col);    /* not one word */
    parse_as(reg, 16610, -1, "{a,B}", 5, "citext[]", &t, &col);
    parse_as(reg, 16611, -1, "a", 1, "citext", &t, &col);
    /* a named type's arrays use its delimiter (PostGIS's geometry: ':') */
    assert_int_equal(rc_pg_types_add_named(reg, 16620, "geometry", ':', &err), RC_OK);
    assert_int_equal(rc_pg_types_add_array(reg, 16621, 16620, &err), RC_OK);
    parse_as(reg, 16621, -1, "{010700000000000000:0101000000}", 31, "geometry[]", &t, &col);
    assert_int_equal(t.delim, ':');
    /* re-registering an OID replaces its entry */
    const char *l2[] = {"a"};
    const size_t n2[] = {1};
    assert_int_equal(rc_pg_types_add_enum(reg, 16500, 1, l2, n2, &err), RC_OK);
    parse_as(reg, 16501, -1, "a", 1, "enum('a')", &t, &col);
    rc_pg_types_free(reg);

    rc_error_clear(&err);
    parse_as(NULL, 18, -1, "a", 1, "unknown", &t, &col); /* "char" without a registry: unknown */
    rc_error_clear(&err);
    assert_int_equal(rc_pg_type_resolve(NULL, 1700, 2, &arena, &t, &err), RC_ERR_TYPE);
    assert_string_equal(err.message, "PostgreSQL type 1700 (numeric): typmod 2 is not supported");
}

/* Every built-in type and its array resolve to a declaration the catalog reads. */
static void test_every_builtin_resolves(void **state)
{
    (void)state;
    static const uint32_t oids[] = {16, 17, 19, 20, 21, 23, 25, 26, 114, 142, 600, 601, 602, 603, 604, 628, 650, 700, 701, 718, 774, 790,
                                    829, 869, 1042, 1043, 1082, 1083, 1114, 1184, 1186, 1266, 1560, 1562, 1700, 2950, 3614, 3615,
                                    3802, 3904, 3906, 3908, 3910, 3912, 3926, 4451, 4532, 4533, 4534, 4535, 4536};
    static const uint32_t arrays[] = {1000, 1001, 1003, 1016, 1005, 1007, 1009, 1028, 199, 143, 1017, 1018, 1019, 1020, 1027, 629, 651,
                                      1021, 1022, 719, 775, 791, 1040, 1041, 1014, 1015, 1182, 1183, 1115, 1185, 1187, 1270, 1561,
                                      1563, 1231, 2951, 3643, 3645, 3807, 3905, 3907, 3909, 3911, 3913, 3927, 6150, 6151, 6152,
                                      6153, 6155, 6157};
    rc_error err;
    rc_pg_type t;
    for (size_t i = 0; i < sizeof oids / sizeof oids[0]; i++) {
        rc_error_clear(&err);
        if (rc_pg_type_resolve(NULL, oids[i], -1, &arena, &t, &err) != RC_OK) fail_msg("%u: %s", oids[i], err.message);
        if (rc_pg_type_resolve(NULL, arrays[i], -1, &arena, &t, &err) != RC_OK) fail_msg("%u: %s", arrays[i], err.message);
        assert_int_equal(t.reader, RC_PG_R_ARRAY);
    }
}

static void expect_err(uint32_t oid, int32_t typmod, const char *text, rc_status code, size_t off, const char *msg)
{
    rc_pg_type t;
    rc_error err;
    rc_error_clear(&err);
    if (rc_pg_type_resolve(NULL, oid, typmod, &arena, &t, &err) != RC_OK) fail_msg("%s", err.message);
    rc_column col = {.name = RC_STR("c"), .type = t.type};
    rc_value v;
    rc_status st = rc_pg_value_parse(&t, &col, text, strlen(text), &arena, &v, &err);
    if (st != code || err.offset != off || strcmp(err.message, msg))
        fail_msg("'%s': status %s offset %zu\n  got  %s\n  want %s", text, rc_status_name(st), err.offset, err.message, msg);
}

static void test_errors(void **state)
{
    (void)state;
    expect_err(20, -1, "12a", RC_ERR_VALUE, 2, "column \"c\" (bigint): unexpected 'a' at byte 2 of \"12a\": expected an integer");
    expect_err(20, -1, "", RC_ERR_VALUE, 0, "column \"c\" (bigint): \"\" ends early at byte 0: expected an integer");
    expect_err(20, -1, "007", RC_ERR_VALUE, 0, "column \"c\" (bigint): unexpected '0' at byte 0 of \"007\": expected an integer");
    expect_err(20, -1, "9223372036854775808", RC_ERR_RANGE, 0, "column \"c\" (bigint): \"9223372036854775808\" is out of range at byte 0");
    expect_err(1700, -1, "1.2.3", RC_ERR_VALUE, 3,
               "column \"c\" (numeric): unexpected '.' at byte 3 of \"1.2.3\": expected [-]digits[.digits], NaN, Infinity or -Infinity");
    expect_err(1700, -1, "1e5", RC_ERR_VALUE, 1,
               "column \"c\" (numeric): unexpected 'e' at byte 1 of \"1e5\": expected [-]digits[.digits], NaN, Infinity or -Infinity");
    expect_err(1700, -1, "nan", RC_ERR_VALUE, 0,
               "column \"c\" (numeric): unexpected 'n' at byte 0 of \"nan\": expected [-]digits[.digits], NaN, Infinity or -Infinity");
    expect_err(701, -1, "1e", RC_ERR_VALUE, 2,
               "column \"c\" (double precision): \"1e\" ends early at byte 2: expected a number such as -1.5e-07, NaN, Infinity or -Infinity");
    expect_err(701, -1, "0x1p3", RC_ERR_VALUE, 1,
               "column \"c\" (double precision): unexpected 'x' at byte 1 of \"0x1p3\": expected a number such as -1.5e-07, NaN, Infinity or -Infinity");
    expect_err(701, -1, "1e999", RC_ERR_RANGE, 0, "column \"c\" (double precision): \"1e999\" is out of range at byte 0");
    expect_err(700, -1, "1e39", RC_ERR_RANGE, 0, "column \"c\" (real): \"1e39\" is out of range at byte 0");
    expect_err(16, -1, "true", RC_ERR_VALUE, 1, "column \"c\" (boolean): unexpected 'r' at byte 1 of \"true\": expected t or f");
    expect_err(17, -1, "\\x0g", RC_ERR_VALUE, 3,
               "column \"c\" (bytea): unexpected 'g' at byte 3 of \"\\x0g\": expected \\x and pairs of hex digits");
    expect_err(17, -1, "\\x0", RC_ERR_VALUE, 3, "column \"c\" (bytea): \"\\x0\" ends early at byte 3: expected \\x and pairs of hex digits");
    expect_err(17, -1, "00", RC_ERR_VALUE, 0, "column \"c\" (bytea): unexpected '0' at byte 0 of \"00\": expected \\x and pairs of hex digits");
    expect_err(1082, -1, "2024-02-30", RC_ERR_RANGE, 0, "column \"c\" (date): \"2024-02-30\" is out of range at byte 0");
    expect_err(1082, -1, "0004-02-29 BC", RC_ERR_RANGE, 0, "column \"c\" (date): \"0004-02-29 BC\" is out of range at byte 0");
    expect_err(1082, -1, "0000-01-01", RC_ERR_RANGE, 0, "column \"c\" (date): \"0000-01-01\" is out of range at byte 0");
    expect_err(1082, -1, "2024-1-01", RC_ERR_VALUE, 6,
               "column \"c\" (date): unexpected '-' at byte 6 of \"2024-1-01\": expected YYYY-MM-DD[ BC], infinity or -infinity");
    expect_err(1082, -1, "2024-01-01 AD", RC_ERR_VALUE, 11,
               "column \"c\" (date): unexpected 'A' at byte 11 of \"2024-01-01 AD\": expected YYYY-MM-DD[ BC], infinity or -infinity");
    expect_err(1082, -1, "Infinity", RC_ERR_VALUE, 0,
               "column \"c\" (date): unexpected 'I' at byte 0 of \"Infinity\": expected YYYY-MM-DD[ BC], infinity or -infinity");
    expect_err(1082, -1, "5874898-01-01", RC_ERR_RANGE, 0, "column \"c\" (date): \"5874898-01-01\" is out of range at byte 0");
    expect_err(1083, -1, "24:00:01", RC_ERR_RANGE, 0, "column \"c\" (time without time zone): \"24:00:01\" is out of range at byte 0");
    expect_err(1083, -1, "12:00", RC_ERR_VALUE, 5,
               "column \"c\" (time without time zone): \"12:00\" ends early at byte 5: expected HH:MM:SS[.ffffff] from 00:00:00 to 24:00:00");
    expect_err(1083, -1, "12:00:00.1234567", RC_ERR_VALUE, 15,
               "column \"c\" (time without time zone): unexpected '7' at byte 15 of \"12:00:00.1234567\": expected HH:MM:SS[.ffffff] from 00:00:00 to 24:00:00");
    expect_err(1266, -1, "12:00:00", RC_ERR_VALUE, 8,
               "column \"c\" (time with time zone): \"12:00:00\" ends early at byte 8: expected HH:MM:SS[.ffffff]+HH[:MM[:SS]]");
    expect_err(1266, -1, "12:00:00+16", RC_ERR_RANGE, 8, "column \"c\" (time with time zone): \"12:00:00+16\" is out of range at byte 8");
    expect_err(1114, -1, "2024-01-01T00:00:00", RC_ERR_VALUE, 10,
               "column \"c\" (timestamp without time zone): unexpected 'T' at byte 10 of \"2024-01-01T00:00:00\": expected YYYY-MM-DD HH:MM:SS[.ffffff][ BC], infinity or -infinity");
    expect_err(1114, -1, "2024-01-01 24:00:00", RC_ERR_RANGE, 11,
               "column \"c\" (timestamp without time zone): \"2024-01-01 24:00:00\" is out of range at byte 11");
    expect_err(1184, -1, "2024-01-01 00:00:00", RC_ERR_VALUE, 19,
               "column \"c\" (timestamp with time zone): \"2024-01-01 00:00:00\" ends early at byte 19: expected YYYY-MM-DD HH:MM:SS[.ffffff]+HH[:MM[:SS]][ BC], infinity or -infinity");
    expect_err(1186, -1, "1 week", RC_ERR_VALUE, 2,
               "column \"c\" (interval): unexpected 'w' at byte 2 of \"1 week\": expected an interval such as 1 year 2 mons -3 days +04:05:06.789 (IntervalStyle postgres)");
    expect_err(1186, -1, "1 days 2 years", RC_ERR_VALUE, 9,
               "column \"c\" (interval): unexpected 'y' at byte 9 of \"1 days 2 years\": expected an interval such as 1 year 2 mons -3 days +04:05:06.789 (IntervalStyle postgres)");
    expect_err(1186, -1, "P1D", RC_ERR_VALUE, 0,
               "column \"c\" (interval): unexpected 'P' at byte 0 of \"P1D\": expected an interval such as 1 year 2 mons -3 days +04:05:06.789 (IntervalStyle postgres)");
    expect_err(1186, -1, "1 day 01:60:00", RC_ERR_RANGE, 6, "column \"c\" (interval): \"1 day 01:60:00\" is out of range at byte 6");
    expect_err(2950, -1, "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", RC_ERR_VALUE, 0,
               "column \"c\" (uuid): unexpected 'A' at byte 0 of \"A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11\": expected 8-4-4-4-12 lower-case hex digits");
    expect_err(1560, 5, "1010", RC_ERR_VALUE, 4,
               "column \"c\" (bit(5)): \"1010\" ends early at byte 4: expected as many binary digits as bit(n) declares");
    expect_err(1560, 5, "10201", RC_ERR_VALUE, 2, "column \"c\" (bit(5)): unexpected '2' at byte 2 of \"10201\": expected binary digits 0 and 1");
    expect_err(1007, -1, "{1,2", RC_ERR_VALUE, 4,
               "column \"c\" (integer[]): \"{1,2\" ends early at byte 4: expected an array literal such as {1,NULL,\"a,b\",{2,3}}");
    expect_err(1007, -1, "{1,,2}", RC_ERR_VALUE, 3,
               "column \"c\" (integer[]): unexpected ',' at byte 3 of \"{1,,2}\": expected an array literal such as {1,NULL,\"a,b\",{2,3}}");
    expect_err(1007, -1, "{1}x", RC_ERR_VALUE, 3,
               "column \"c\" (integer[]): unexpected 'x' at byte 3 of \"{1}x\": expected an array literal such as {1,NULL,\"a,b\",{2,3}}");
    expect_err(1009, -1, "{\"a}", RC_ERR_VALUE, 4,
               "column \"c\" (text[]): \"{\"a}\" ends early at byte 4: expected an array literal such as {1,NULL,\"a,b\",{2,3}}");
    expect_err(1009, -1, "{a b}", RC_ERR_VALUE, 2,
               "column \"c\" (text[]): unexpected ' ' at byte 2 of \"{a b}\": expected an array literal such as {1,NULL,\"a,b\",{2,3}}");
    expect_err(1007, -1, "{{1}{2}}", RC_ERR_VALUE, 4,
               "column \"c\" (integer[]): unexpected '{' at byte 4 of \"{{1}{2}}\": expected an array literal such as {1,NULL,\"a,b\",{2,3}}");
    expect_err(1007, -1, "1,2", RC_ERR_VALUE, 0,
               "column \"c\" (integer[]): unexpected '1' at byte 0 of \"1,2\": expected an array literal such as {1,NULL,\"a,b\",{2,3}}");
    expect_err(1007, -1, "{1,x}", RC_ERR_VALUE, 3, "column \"c\" (integer[]): element at byte 3: unexpected 'x' at byte 0 of \"x\": expected an integer");
    expect_err(1231, -1, "{1.5,NaN,1e5}", RC_ERR_VALUE, 10,
               "column \"c\" (numeric[]): element at byte 9: unexpected 'e' at byte 1 of \"1e5\": expected [-]digits[.digits], NaN, Infinity or -Infinity");
    expect_err(1182, -1, "{2024-02-30}", RC_ERR_RANGE, 1, "column \"c\" (date[]): element at byte 1: \"2024-02-30\" is out of range at byte 0");
    expect_err(1185, -1, "{\"2024-01-01 00:00:00\"}", RC_ERR_VALUE, 1,
               "column \"c\" (timestamp with time zone[]): element at byte 1: \"2024-01-01 00:00:00\" ends early at byte 19: expected "
               "YYYY-MM-DD HH:MM:SS[.ffffff]+HH[:MM[:SS]][ BC], infinity or -infinity");
    expect_err(1561, 5, "{10101,1}", RC_ERR_VALUE, 8,
               "column \"c\" (bit(5)[]): element at byte 7: \"1\" ends early at byte 1: expected as many binary digits as bit(n) declares");
    expect_err(25, -1, "a\xff", RC_ERR_VALUE, 1, "column \"c\" (text): unexpected byte 0xFF at byte 1: expected valid UTF-8 (is the database encoding UTF8?)");
    expect_err(3802, -1, "\"\xc3\"", RC_ERR_VALUE, 1, "column \"c\" (jsonb): unexpected byte 0xC3 at byte 1: expected valid UTF-8 (is the database encoding UTF8?)");
}

/* Column defaults as Debezium's PostgresDefaultValueConverter reports them (the sample values of
 * its mappers' comments; a call's and CURRENT_TIMESTAMP's placeholder; none for NULL::type and a
 * type it has no mapper for). */
static void test_default_text(void **state)
{
    (void)state;
    static const struct {
        const char *expr, *typname, *want;
    } cases[] = {
        {"nextval('numeric_table_ss_seq'::regclass)", "int2", "0"},
        {"nextval('t_id_seq'::regclass)", "int8", "0"},
        {"'abcde'::character varying", "varchar", "abcde"},
        {"'it''s'::text", "text", "it's"},
        {"''::text", "text", ""},
        {"123", "int4", "123"},
        {"'9223372036854775807'::bigint", "int8", "9223372036854775807"},
        {"'-1'::integer", "int4", "-1"},
        {"true", "bool", "true"},
        {"12345.67891", "numeric", "12345.67891"},
        {"'2020-01-01'::date", "date", "2020-01-01"},
        {"now()", "timestamptz", "1970-01-01"},
        {"CURRENT_TIMESTAMP", "timestamp", "1970-01-01"},
        {"gen_random_uuid()", "uuid", "00000000-0000-0000-0000-000000000000"},
        {"'{}'::jsonb", "jsonb", "{}"},
        {"B'110'::\"bit\"", "bit", "110"},
        {"NULL::character varying", "varchar", NULL},
        {"'\\x01'::bytea", "bytea", NULL},
        {"'(1,1),(0,0)'::box", "box", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = rc_pg_default_text(cases[i].expr, cases[i].typname);
        if (!cases[i].want) assert_null(got);
        else if (!got || strcmp(got, cases[i].want)) fail_msg("%s (%s): \"%s\", expected \"%s\"", cases[i].expr, cases[i].typname, got ? got : "(none)", cases[i].want);
        free(got);
    }
    assert_null(rc_pg_default_text(NULL, "int4"));
}

int main(void)
{
    rc_arena_init(&arena);
    rc_buf_init(&out, 0);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_text),
        cmocka_unit_test(test_integers),        cmocka_unit_test(test_numeric),      cmocka_unit_test(test_floats),
        cmocka_unit_test(test_bool_bytes),      cmocka_unit_test(test_dates),        cmocka_unit_test(test_times),
        cmocka_unit_test(test_text_types),      cmocka_unit_test(test_arrays),       cmocka_unit_test(test_registered_types),
        cmocka_unit_test(test_every_builtin_resolves), cmocka_unit_test(test_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    rc_arena_fini(&arena);
    rc_buf_fini(&out);
    return rc;
}
