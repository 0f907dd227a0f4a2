/* Extended JSON (core/ejson.h): every BSON type read from canonical, relaxed and shell text
 * into its own kind, and written back; canonical and shell text come back byte for byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>
#include "core/ejson.h"

static rc_arena arena;

static rc_bson read_ok(const char *text)
{
    rc_bson v;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_ejson_read(text, strlen(text), &arena, &v, &err);
    if (st != RC_OK) fail_msg("%s: %s", text, err.message);
    return v;
}

static void written(const rc_bson *v, rc_ejson_mode m, const char *want)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_ejson_write(&b, v, m);
    rc_buf_putc(&b, '\0');
    assert_string_equal(b.data, want);
    rc_buf_fini(&b);
}

/* text read in any mode, written in mode m: the same bytes */
static void same(const char *text, rc_ejson_mode m)
{
    rc_bson v = read_ok(text);
    written(&v, m, text);
}

static void test_canonical_round_trip(void **state)
{
    (void)state;
    same("{\"_id\":{\"$oid\":\"64650cf67dc36a464e76e583\"},\"i\":{\"$numberInt\":\"-2147483648\"},"
         "\"l\":{\"$numberLong\":\"9223372036854775807\"},\"d\":{\"$numberDouble\":\"1.0\"},"
         "\"inf\":{\"$numberDouble\":\"-Infinity\"},\"nan\":{\"$numberDouble\":\"NaN\"},"
         "\"dec\":{\"$numberDecimal\":\"1234567890123456789012345678901234\"},\"dec2\":{\"$numberDecimal\":\"-1.10E-6174\"},"
         "\"t\":{\"$date\":{\"$numberLong\":\"-62135596800000\"}},\"ts\":{\"$timestamp\":{\"t\":4294967295,\"i\":1}},"
         "\"bin\":{\"$binary\":{\"base64\":\"AQID/w==\",\"subType\":\"80\"}},\"uuid\":{\"$binary\":{\"base64\":\"\",\"subType\":\"04\"}},"
         "\"re\":{\"$regularExpression\":{\"pattern\":\"^a/b\\\\d\",\"options\":\"im\"}},\"min\":{\"$minKey\":1},"
         "\"max\":{\"$maxKey\":1},\"u\":{\"$undefined\":true},\"code\":{\"$code\":\"f()\"},\"cws\":{\"$code\":\"x\",\"$scope\":{\"y\":{\"$numberInt\":\"1\"}}},\"sym\":{\"$symbol\":\"s\"},"
         "\"n\":null,\"b\":false,\"s\":\"é\\n\",\"a\":[{\"x\":[]},{}],\"$set\":{\"a.b\":{\"$numberInt\":\"1\"}}}",
         RC_EJSON_CANONICAL);
}

/* Debezium's MongoDB connector's text (the Java driver's legacy strict mode, indented with empty
 * strings), and canonical text as the Java driver's toJson() spaces it (the MongoDB Kafka
 * connector's test event): read and written again, the same bytes. */
static void test_strict_and_java_round_trip(void **state)
{
    (void)state;
    same("{\"_id\": {\"$oid\": \"5eb626b3452cd570b405bf7d\"},\"a\": 1.0,\"n\": 20,\"l\": {\"$numberLong\": \"1001\"},"
         "\"d\": {\"$date\": 1533868558652},\"neg\": {\"$date\": -1},\"t\": {\"$timestamp\": {\"t\": 1736997330,\"i\": 2}},"
         "\"b\": {\"$binary\": \"uE2/4v5MSVOiJZkOo3APKQ==\",\"$type\": \"04\"},\"r\": {\"$regex\": \"^pass$\",\"$options\": \"i\"},"
         "\"dec\": {\"$numberDecimal\": \"3.14\"},\"x\": NaN,\"y\": -Infinity,\"tags\": [\"a\",1,{\"$minKey\": 1}],"
         "\"u\": {\"$undefined\": true},\"s\": {\"$symbol\": \"s\"},\"c\": {\"$code\": \"f()\",\"$scope\": {\"y\": 1}}}",
         RC_EJSON_STRICT);
    same("{\"arraySimple\": [{\"$numberInt\": \"1\"}, {\"$numberInt\": \"2\"}], \"binary\": {\"$binary\": {\"base64\": "
         "\"S2Fma2Egcm9ja3Mh\", \"subType\": \"00\"}}, \"codeWithScope\": {\"$code\": \"int x = y\", \"$scope\": {\"y\": "
         "{\"$numberInt\": \"1\"}}}, \"dateTime\": {\"$date\": {\"$numberLong\": \"1577836801000\"}}, \"double\": "
         "{\"$numberDouble\": \"62.0\"}, \"maxKey\": {\"$maxKey\": 1}, \"regex\": {\"$regularExpression\": {\"pattern\": "
         "\"^test.*regex.*xyz$\", \"options\": \"i\"}}, \"timestamp\": {\"$timestamp\": {\"t\": 305419896, \"i\": 5}}, "
         "\"undefined\": {\"$undefined\": true}}",
         RC_EJSON_JAVA_CANONICAL);
    same("{\"_id\": {\"$oid\": \"67d2d13807fe0c4336070cfd\"}, \"name\": \"John Doe\", \"age\": 30, \"d\": {\"$date\": "
         "\"2020-01-01T00:00:01.123Z\"}}",
         RC_EJSON_JAVA_RELAXED);
}

static void test_kinds_kept_apart(void **state)
{
    (void)state;
    rc_bson v = read_ok("[1, 2147483648, 1.0, 1e3, NumberLong(1), NumberInt(\"7\"), NumberDecimal(\"0.1\"), "
                        "{\"$numberLong\": \"5\"}, 123456789012345678901234567890]");
    assert_int_equal(v.kind, RC_B_ARRAY);
    assert_int_equal(v.doc.n, 9);
    const rc_bson_kind want[] = {RC_B_INT32, RC_B_INT64, RC_B_DOUBLE, RC_B_DOUBLE, RC_B_INT64, RC_B_INT32, RC_B_DECIMAL128, RC_B_INT64, RC_B_DOUBLE};
    for (int k = 0; k < 9; k++) assert_int_equal(v.doc.items[k].val.kind, want[k]);
    assert_int_equal(v.doc.items[1].val.i64, 2147483648LL);
    assert_int_equal(v.doc.items[5].val.i32, 7);
    assert_int_equal(v.doc.items[6].val.s.n, 3); /* the decimal's text, never a double */
    written(&v, RC_EJSON_RELAXED, "[1,2147483648,1.0,1000.0,1,7,{\"$numberDecimal\":\"0.1\"},5,1.2345678901234568E29]");
}

static void test_shell_round_trip(void **state)
{
    (void)state;
    /* the DRS DDS examples' texts and every type the Java driver's shell mode writes */
    same("{\"_id\": ObjectId(\"64650cf67dc36a464e76e583\"), \"c1\": \"baz\", \"tags\": [\"mongodb\", \"database\", \"NoSQL\"]}", RC_EJSON_SHELL);
    same("{\"$unset\": {\"c1\": true}, \"$set\": {\"column1\": \"aaa\"}}", RC_EJSON_SHELL);
    same("{\"l\": NumberLong(5), \"L\": NumberLong(\"-9223372036854775808\"), \"i\": 5, \"d\": 5.0, \"e\": 1.0E-7, "
         "\"nan\": NaN, \"inf\": -Infinity, \"dec\": NumberDecimal(\"1.10\"), \"t\": ISODate(\"2023-05-17T09:18:31.439Z\"), "
         "\"old\": new Date(-62135596800001), \"ts\": Timestamp(1684344064, 1), \"bin\": new BinData(3, \"AAECAw==\"), "
         "\"re\": /a\\/b/i, \"min\": MinKey, \"max\": MaxKey, \"u\": undefined, \"n\": null, \"x\": {}, \"y\": []}",
         RC_EJSON_SHELL);
}

static void test_relaxed(void **state)
{
    (void)state;
    rc_bson v = read_ok("{\"d\":{\"$date\":\"2023-05-17T09:18:31.439Z\"},\"z\":{\"$date\":\"1970-01-01T08:00:00+08:00\"},"
                        "\"b\":{\"$binary\":\"AQ==\",\"$type\":\"00\"}}");
    assert_int_equal(v.doc.items[0].val.kind, RC_B_DATE);
    assert_int_equal(v.doc.items[0].val.i64, 1684315111439LL);
    assert_int_equal(v.doc.items[1].val.i64, 0);
    assert_int_equal(v.doc.items[2].val.kind, RC_B_BINARY);
    rc_bson w = read_ok("{\"m\":{\"$date\":\"1969-12-31T23:59:59.500-0100\"}}"); /* ±hhmm, before 1970 */
    assert_int_equal(w.doc.items[0].val.i64, 3599500);
    written(&v, RC_EJSON_RELAXED, "{\"d\":{\"$date\":\"2023-05-17T09:18:31.439Z\"},\"z\":{\"$date\":\"1970-01-01T00:00:00Z\"},"
                                  "\"b\":{\"$binary\":{\"base64\":\"AQ==\",\"subType\":\"00\"}}}");
    written(&v, RC_EJSON_CANONICAL, "{\"d\":{\"$date\":{\"$numberLong\":\"1684315111439\"}},\"z\":{\"$date\":{\"$numberLong\":\"0\"}},"
                                    "\"b\":{\"$binary\":{\"base64\":\"AQ==\",\"subType\":\"00\"}}}");
}

static void refused(const char *text, rc_status code)
{
    rc_bson v;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_ejson_read(text, strlen(text), &arena, &v, &err);
    if (st != code) fail_msg("%s: status %d (%s), wanted %d", text, st, err.message, code);
}

static void test_refused(void **state)
{
    (void)state;
    refused("{\"$oid\":\"123\"}", RC_ERR_VALUE);
    refused("{\"$numberInt\":\"2147483648\"}", RC_ERR_RANGE);
    refused("{\"$numberLong\":\"9223372036854775808\"}", RC_ERR_RANGE);
    refused("NumberLong(1.5)", RC_ERR_VALUE);
    refused("{\"$numberDecimal\":\"12345678901234567890123456789012345\"}", RC_ERR_VALUE); /* 35 digits */
    refused("{\"$numberDecimal\":\"1E6112\"}", RC_ERR_VALUE);
    refused("{\"$date\":\"2023-05-17T09:18:31.4391Z\"}", RC_ERR_VALUE); /* below the millisecond */
    refused("{\"$date\":\"2023-05-17T09:18:31\"}", RC_ERR_VALUE);        /* no zone */
    refused("{\"$date\":\"2023-05-17 09:18:31Z\"}", RC_ERR_VALUE);       /* not ISO's T */
    refused("{\"$timestamp\":{\"t\":-1,\"i\":0}}", RC_ERR_VALUE);
    refused("{\"$binary\":{\"base64\":\"A\",\"subType\":\"00\"}}", RC_ERR_VALUE);
    refused("{\"$code\":\"f\",\"$scope\":1}", RC_ERR_VALUE);
    refused("{\"a\":1,}", RC_ERR_SYNTAX);
    refused("ObjectId(\"64650cf67dc36a464e76e583\"", RC_ERR_SYNTAX);
    refused("Foo(1)", RC_ERR_SYNTAX);
    refused("\"\\ud800\"", RC_ERR_UTF8);
    refused("[1] 2", RC_ERR_SYNTAX);
    char deep[2 * RC_EJSON_MAX_DEPTH + 8];
    memset(deep, '[', RC_EJSON_MAX_DEPTH + 1);
    memset(deep + RC_EJSON_MAX_DEPTH + 1, ']', RC_EJSON_MAX_DEPTH + 1);
    deep[2 * RC_EJSON_MAX_DEPTH + 2] = 0;
    refused(deep, RC_ERR_LIMIT);
}

static void test_decimal128_text(void **state)
{
    (void)state;
    const char *ok[] = {"0", "-0", "0.000", "1E+6111", "1E-6176", "NaN", "-Infinity", "Inf", "0001234567890123456789012345678901234E-2"};
    for (size_t k = 0; k < sizeof ok / sizeof *ok; k++) assert_true(rc_decimal128_text_ok(ok[k], strlen(ok[k])));
    const char *no[] = {"", "-", ".", "1e", "1E+6112", "1E-6177", "1.2.3", "0x1", "nan"};
    for (size_t k = 0; k < sizeof no / sizeof *no; k++) assert_false(rc_decimal128_text_ok(no[k], strlen(no[k])));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_canonical_round_trip), cmocka_unit_test(test_strict_and_java_round_trip), cmocka_unit_test(test_kinds_kept_apart), cmocka_unit_test(test_shell_round_trip),
        cmocka_unit_test(test_relaxed),              cmocka_unit_test(test_refused),          cmocka_unit_test(test_decimal128_text),
    };
    rc_arena_init(&arena);
    int failed = cmocka_run_group_tests(tests, NULL, NULL);
    rc_arena_fini(&arena);
    return failed;
}
