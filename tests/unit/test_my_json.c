/* MySQL's binary JSON (src/sources/mysql/my_json.c) and its partial-update diffs
 * (my_json_diff.c): hand-written documents of every value type with the exact text MySQL's
 * SELECT prints, exact errors, and every binary JSON vector of the peer files against its
 * expected value (compared as JSON values; how each file's spelling is read is said where it
 * is read), skipped by name when ../shared is not beside the repository. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "my_vectors.h"
#include "sources/mysql/my_value.h"

static rc_arena arena;
static unsigned passed;

/* hex -> JSON text, or the error (status in *st). */
static const char *text_of(const uint8_t *b, size_t n, rc_status *st, rc_error *err)
{
    static rc_buf out;
    rc_buf_fini(&out);
    rc_buf_init(&out, 0);
    rc_error_clear(err);
    *st = rc_my_json_text(b, n, &out, err);
    rc_buf_putc(&out, '\0');
    return out.data;
}

static void check_json(const char *hex, const char *want)
{
    uint8_t b[4096];
    size_t n = unhex(hex, strlen(hex), b, sizeof b);
    rc_status st;
    rc_error err;
    const char *got = text_of(b, n, &st, &err);
    if (st != RC_OK) fail_msg("%s: %s", hex, err.message);
    if (strcmp(got, want)) fail_msg("%s:\n  got  %s\n  want %s", hex, got, want);
}

static void check_json_err(const char *hex, const char *msg)
{
    uint8_t b[4096];
    size_t n = unhex(hex, strlen(hex), b, sizeof b);
    rc_status st;
    rc_error err;
    const char *got = text_of(b, n, &st, &err);
    if (st == RC_OK) fail_msg("%s: accepted as %s, expected: %s", hex, got, msg);
    assert_string_equal(err.message, msg);
}

static void test_scalars(void **state)
{
    (void)state;
    check_json("0400", "null");
    check_json("0401", "true");
    check_json("0402", "false");
    check_json("050080", "-32768");
    check_json("06ffff", "65535");
    check_json("0700000080", "-2147483648");
    check_json("08ffffffff", "4294967295");
    check_json("090000000000000080", "-9223372036854775808");
    check_json("0affffffffffffffff", "18446744073709551615");
    check_json("0b000000000000f03f", "1.0");
    check_json("0b0000000000000000", "0.0");
    check_json("0b9a9999999999b93f", "0.1");
    check_json("0b0080e03779c34143", "1e16");
    check_json("0b7b14ae47e17a843f", "0.01");
}

static void test_strings_opaque(void **state)
{
    (void)state;
    check_json("0c0922615c0a01f09f9b92", "\"\\\"a\\\\\\n\\u0001\xf0\x9f\x9b\x92\"");
    check_json("0c00", "\"\"");
    /* opaque: DECIMAL as its number, temporal as MySQL prints them, the rest as base64:typeN: */
    check_json("0ff6080d04875bcd1504d2", "123456789.1234");
    check_json("0f0a0800000000001e9519", "\"2015-01-15\"");
    check_json("0f0c0800000019761f9519", "\"2015-01-15 23:24:25.000000\"");
    check_json("0f0b08c0d4011976010000", "\"23:24:25.120000\"");
    check_json("0f0b0840a2ffe689feffff", "\"-23:24:25.024000\"");
    /* the most negative packed value: its magnitude is negated unsigned (fuzz_my_value: a signed
     * negation that overflows); the bits say -00:00:00 */
    check_json("0f0b080000000000000080", "\"-00:00:00.000000\"");
    check_json("0f0f02cafe", "\"base64:type15:yv4=\"");
    check_json("0f1002cafe", "\"base64:type16:yv4=\"");
    check_json("", "null"); /* a NOT NULL JSON column left unset */
    /* a JSON column whose bytes are not binary JSON (MySQL < 5.7.22's virtual columns): kept
     * as an invalid value with its bytes, not an error */
    rc_my_col c = {.type = RC_MY_JSON, .meta = 4, .name = RC_STR("c")};
    static const uint8_t bad[] = {3, 0, 0, 0, 0x04, 0x07, 0x00};
    rc_value v;
    size_t used;
    rc_error err;
    rc_error_clear(&err);
    assert_int_equal(rc_my_value_decode(&c, bad, sizeof bad, &used, &v, &arena, &err), RC_OK);
    assert_int_equal(used, 7);
    assert_int_equal(v.kind, RC_V_INVALID);
    assert_int_equal(v.s.n, 19);
    assert_memory_equal(v.s.p, "base64:type245:BAcA", 19);
}

static void test_containers(void **state)
{
    (void)state;
    check_json("0000000400", "{}");
    check_json("0200000400", "[]");
    check_json("0001000e000b0001000c0c00610162", "{\"a\": \"b\"}");
    check_json("0202000a00050100050200", "[1, 2]");
    check_json("02030025000c0d000212000c2100046865726502000f000c0a000c0c00014902616d03212121", "[\"here\", [\"I\", \"am\"], \"!!!\"]");
    /* large object: 4-byte counts and offsets, int32 inline */
    check_json("01010000001400000013000000010007ffffff7f61", "{\"a\": 2147483647}");
    check_json_err("0001000e000b0001000c0c00", "binary JSON: a container size past the value at byte 1");
    check_json_err("0001000e000b0001000c0c00610562", "binary JSON: a string longer than the bytes left at byte 14");
    check_json_err("0001000e000b000100110c00610162", "binary JSON: unknown value type 0x11 at byte 9");
    check_json_err("0403", "binary JSON: a literal that is not null, true or false at byte 1");
    check_json_err("0c03ff4142", "binary JSON: a string that is not UTF-8 at byte 2");
    /* 200 nested one-element arrays: refused past 150 levels, not a stack overflow. Each is
     * count 1, size, one value entry (type 02, offset 7) and the next array at offset 7. */
    char deep[4096];
    size_t k = (size_t)snprintf(deep, sizeof deep, "02");
    for (int i = 0; i < 200; i++) {
        unsigned size = 7u * (unsigned)(200 - i) + 4;
        k += (size_t)snprintf(deep + k, sizeof deep - k, "0100%02x%02x020700", size & 0xff, size >> 8);
    }
    snprintf(deep + k, sizeof deep - k, "00000400");
    check_json_err(deep, "binary JSON: documents nested deeper than 150 levels at byte 1051");
}

/* ---- partial-update diffs ---- */

/* Applies the diff (hex, with its 4-byte length computed here) to the before document. */
static void check_diff(const char *before_hex, const char *diff_hex, const char *want)
{
    uint8_t b[4096], d[4096];
    size_t bn = unhex(before_hex, strlen(before_hex), b, sizeof b);
    size_t dn = unhex(diff_hex, strlen(diff_hex), d + 4, sizeof d - 4);
    d[0] = (uint8_t)dn, d[1] = (uint8_t)(dn >> 8), d[2] = d[3] = 0;
    d[dn + 4] = 0xaa; /* the next column: not read */
    rc_buf out;
    rc_buf_init(&out, 0);
    rc_error err;
    rc_error_clear(&err);
    size_t used = 0;
    rc_status st = rc_my_json_diff_apply(b, bn, d, dn + 5, &used, &out, &err);
    rc_buf_putc(&out, '\0');
    if (want[0] == '!') {
        if (st == RC_OK) fail_msg("diff %s: accepted as %s, expected: %s", diff_hex, out.data, want + 1);
        assert_string_equal(err.message, want + 1);
    } else {
        if (st != RC_OK) fail_msg("diff %s: %s", diff_hex, err.message);
        assert_string_equal(out.data, want);
        assert_int_equal(used, dn + 4);
    }
    rc_buf_fini(&out);
}

/* {"a": "b"} and [1, 2] */
#define OBJ_AB "0001000e000b0001000c0c00610162"
#define ARR_12 "0202000a00050100050200"

static void test_diffs(void **state)
{
    (void)state;
    /* REPLACE $.a with 7 (int16: type 05, value 0700) */
    check_diff(OBJ_AB, "00" "03" "242e61" "03" "050700", "{\"a\": 7}");
    /* INSERT $.bb "x" (after a: longer key), then $.c true (before bb: shorter) */
    check_diff(OBJ_AB, "01" "04" "242e6262" "03" "0c0178" "01" "03" "242e63" "02" "0401", "{\"a\": \"b\", \"c\": true, \"bb\": \"x\"}");
    /* a quoted key */
    check_diff(OBJ_AB, "01" "07" "242e2261206222" "02" "0400", "{\"a\": \"b\", \"a b\": null}");
    /* REMOVE $.a */
    check_diff(OBJ_AB, "02" "03" "242e61", "{}");
    /* arrays: INSERT $[1] 9, REPLACE $[0], REMOVE $[2], INSERT past the end appends */
    check_diff(ARR_12, "01" "04" "245b315d" "03" "050900", "[1, 9, 2]");
    check_diff(ARR_12, "00" "04" "245b305d" "02" "0400" "02" "04" "245b315d", "[null]");
    check_diff(ARR_12, "01" "04" "245b395d" "03" "050300", "[1, 2, 3]");
    /* nested: $.a is replaced by an array, then $.a[0] changed */
    check_diff(OBJ_AB, "00" "03" "242e61" "0b" ARR_12 "00" "06" "242e615b305d" "02" "0401", "{\"a\": [true, 2]}");
    /* the whole document */
    check_diff(OBJ_AB, "00" "01" "24" "02" "0402", "false");
    /* errors */
    check_diff(OBJ_AB, "00" "03" "242e7a" "02" "0400",
               "!JSON diff: REPLACE of $.z at byte 4 of the diff list: the before image has no such value");
    check_diff(OBJ_AB, "01" "05" "242e7a2e79" "02" "0400",
               "!JSON diff: INSERT of $.z.y at byte 4 of the diff list: the before image has no such parent");
    check_diff(OBJ_AB, "07" "01" "24", "!JSON diff: an operation that is not REPLACE, INSERT or REMOVE at byte 4 of the diff list");
    check_diff(OBJ_AB, "00" "09" "242e61", "!JSON diff: a path length past the diff list at byte 6 of the diff list");
    check_diff(OBJ_AB, "00" "01" "61" "02" "0400", "!JSON diff: a path that does not start with $ at byte 6 of the diff list");
}

/* ---- the peer vectors ---- */

/* Numbers as exact decimals (trailing zeros of the fraction aside): "3.14159E+00" == 3.14159. */
static bool same_number(const char *a, size_t an, const char *b, size_t bn)
{
    rc_decimal x, y;
    if (rc_dec_parse(a, an, &arena, &x) != RC_OK || rc_dec_parse(b, bn, &arena, &y) != RC_OK) return false;
    while (x.scale > 0 && x.ndigits > 1 && x.digits[x.ndigits - 1] == '0') x.ndigits--, x.scale--;
    while (y.scale > 0 && y.ndigits > 1 && y.digits[y.ndigits - 1] == '0') y.ndigits--, y.scale--;
    return x.neg == y.neg && x.scale == y.scale && x.ndigits == y.ndigits && !memcmp(x.digits, y.digits, x.ndigits);
}

/* Temporal strings as values: "2015-01-15 23:24:25" == "2015-01-15 23:24:25.000000"; with
 * `lib` (rusuly/MySqlCdc's own 3-digit rendering), ours is cut to the expected digits first. */
static bool same_temporal(const char *a, size_t an, const char *b, size_t bn, bool lib)
{
    rc_datetime x, y;
    rc_time s, t;
    const char *dot = memchr(b, '.', bn);
    uint32_t keep = 1000000000;
    if (lib && dot) for (size_t i = (size_t)(dot - b) + 1; i < bn && keep > 1; i++) keep /= 10;
    if (rc_parse_datetime(a, an, &x) && rc_parse_datetime(b, bn, &y)) {
        if (lib) x.nanos -= x.nanos % keep;
        return x.year == y.year && x.month == y.month && x.day == y.day && x.hour == y.hour && x.minute == y.minute && x.second == y.second &&
               x.nanos == y.nanos;
    }
    if (rc_parse_time(a, an, &s) && rc_parse_time(b, bn, &t)) {
        if (lib) s.nanos -= s.nanos % keep;
        return s.neg == t.neg && s.hour == t.hour && s.minute == t.minute && s.second == t.second && s.nanos == t.nanos;
    }
    return false;
}

/* JSON values equal: objects as sets of members, arrays in order, numbers as decimals, strings
 * exactly or as temporal values; with lib, rusuly's renderings: opaque binary as plain base64
 * (ours "base64:type15:..."), opaque DECIMAL as a string (ours a number). */
static bool same(const rc_json *a, uint32_t x, const rc_json *b, uint32_t y, bool lib)
{
    const rc_jnode *p = rc_json_node(a, x), *q = rc_json_node(b, y);
    if (lib && p->type == RC_J_NUMBER && q->type == RC_J_STRING) return same_number(p->s, p->n, q->s, q->n);
    if (lib && p->type == RC_J_STRING && q->type == RC_J_STRING && p->n > 14 && !memcmp(p->s, "base64:type", 11)) {
        const char *colon = memchr(p->s + 11, ':', p->n - 11);
        return colon && (size_t)(p->s + p->n - colon - 1) == q->n && !memcmp(colon + 1, q->s, q->n);
    }
    if (p->type != q->type) return false;
    switch (p->type) {
    case RC_J_NUMBER: return same_number(p->s, p->n, q->s, q->n);
    case RC_J_STRING: return (p->n == q->n && !memcmp(p->s, q->s, p->n)) || same_temporal(p->s, p->n, q->s, q->n, lib);
    case RC_J_ARRAY:
        if (p->count != q->count) return false;
        for (uint32_t i = p->first, j = q->first; i; i = rc_json_node(a, i)->next, j = rc_json_node(b, j)->next)
            if (!same(a, i, b, j, lib)) return false;
        return true;
    case RC_J_OBJECT:
        if (p->count != q->count) return false;
        for (uint32_t k = p->first; k; k = rc_json_node(a, rc_json_node(a, k)->next)->next) {
            const rc_jnode *key = rc_json_node(a, k);
            bool found = false;
            for (uint32_t m = q->first; m && !found; m = rc_json_node(b, rc_json_node(b, m)->next)->next) {
                const rc_jnode *kk = rc_json_node(b, m);
                if (kk->n == key->n && !memcmp(kk->s, key->s, key->n)) {
                    if (!same(a, key->next, b, kk->next, lib)) return false;
                    found = true;
                }
            }
            if (!found) return false;
        }
        return true;
    default: return true;
    }
}

static void expect_same(const vec *v, const char *got, const char *want, size_t wn, bool lib)
{
    rc_json a, b;
    rc_json_init(&a, &arena), rc_json_init(&b, &arena);
    rc_error e;
    rc_error_clear(&e);
    if (rc_json_parse(&a, got, strlen(got), &e) != RC_OK) fail_msg("%s %s: our text is not JSON (%s): %s", v->file, v->tag, e.message, got);
    if (rc_json_parse(&b, want, wn, &e) != RC_OK) fail_msg("%s %s: expected text is not JSON (%s): %.*s", v->file, v->tag, e.message, (int)wn, want);
    if (!same(&a, 0, &b, 0, lib)) fail_msg("%s %s:\n  got  %s\n  want %.*s", v->file, v->tag, got, (int)wn, want);
    rc_json_fini(&a), rc_json_fini(&b);
    passed++;
}

static const char *decode_ok(const vec *v)
{
    rc_status st;
    rc_error err;
    const char *got = text_of(v->bytes, v->n, &st, &err);
    if (st != RC_OK) fail_msg("%s %s: %s", v->file, v->tag, err.message);
    return got;
}

/* dolthub/vitess prints SQL that rebuilds the value: JSON_OBJECT(k, v, ...), JSON_ARRAY(...),
 * 'text' (at the top: JSON text; inside: an SQL string, i.e. a JSON string), bare numbers,
 * CAST(CAST('v' AS T) AS JSON) (a DECIMAL: the number; a temporal type: its text). Rewritten
 * into JSON here, then compared as values. */
static const char *sql_json(const char *s, rc_buf *out, bool top)
{
    while (*s == ' ' || *s == ',') s++;
    if (!strncmp(s, "JSON_OBJECT(", 12) || !strncmp(s, "JSON_ARRAY(", 11)) {
        bool obj = s[5] == 'O';
        s += obj ? 12 : 11;
        rc_buf_putc(out, obj ? '{' : '[');
        for (int i = 0; *s && *s != ')'; i++) {
            if (i) rc_buf_putc(out, obj && i % 2 ? ':' : ',');
            s = sql_json(s, out, false);
            while (*s == ' ' || *s == ',') s++;
        }
        rc_buf_putc(out, obj ? '}' : ']');
        return *s ? s + 1 : s;
    }
    if (!strncmp(s, "CAST(CAST('", 11)) {
        const char *v = s + 11, *q = strchr(v, '\'');
        bool dec = !strncmp(q, "' AS DECIMAL", 12);
        if (!dec) rc_buf_putc(out, '"');
        rc_buf_put(out, v, (size_t)(q - v));
        if (!dec) rc_buf_putc(out, '"');
        return strstr(q, "AS JSON)") + 8;
    }
    if (*s == '\'') {
        const char *q = strchr(s + 1, '\'');
        if (!top) rc_buf_putc(out, '"');
        rc_buf_put(out, s + 1, (size_t)(q - s - 1));
        if (!top) rc_buf_putc(out, '"');
        return q + 1;
    }
    const char *e = s;
    while (*e && *e != ',' && *e != ')') e++;
    rc_buf_put(out, s, (size_t)(e - s));
    return e;
}

static void dolthub_vec(vec *v, void *ctx)
{
    (void)ctx;
    char want[4096];
    member(v, "expected", want, sizeof want);
    if (rc_json_get(&v->j, 0, "expected_is_error_prefix")) {
        /* opaque BIT: that library has no rendering; MySQL prints base64:type16:, and vitessio's
         * test of the same bytes expects the bit bytes CAFE (TestBinaryJSON_extra, below) */
        assert_string_equal(decode_ok(v), "\"base64:type16:yv4=\"");
        passed++;
        return;
    }
    rc_buf w;
    rc_buf_init(&w, 0);
    sql_json(want, &w, true);
    expect_same(v, decode_ok(v), w.data, w.len, false);
    rc_buf_fini(&w);
}

/* vitessio/vitess: {"json"}, {"bit_bytes"/"blob_bytes": hex} (ours base64:typeN:, decoded and
 * compared as bytes), {"error_contains"} (that library's message: ours must fail, its own words) */
static void vitess_vec(vec *v, void *ctx)
{
    (void)ctx;
    char want[4096];
    if (member(v, "json", want, sizeof want)) {
        expect_same(v, decode_ok(v), want, strlen(want), false);
        return;
    }
    if (member(v, "bit_bytes", want, sizeof want) || member(v, "blob_bytes", want, sizeof want)) {
        const char *got = decode_ok(v), *colon = strchr(got + 12, ':');
        rc_str raw;
        size_t bad;
        assert_non_null(colon);
        assert_int_equal(rc_base64_decode(colon + 1, strlen(colon + 1) - 1, &arena, &raw, &bad), RC_OK);
        rc_buf h;
        rc_buf_init(&h, 0);
        rc_fmt_hex(&h, (const unsigned char *)raw.p, raw.n, false);
        rc_buf_putc(&h, '\0');
        if (strcmp(h.data, want)) fail_msg("%s %s: bytes %s, want %s", v->file, v->tag, h.data, want);
        rc_buf_fini(&h);
        passed++;
        return;
    }
    assert_non_null(member(v, "error_contains", want, sizeof want));
    rc_status st;
    rc_error err;
    const char *got = text_of(v->bytes, v->n, &st, &err);
    if (st == RC_OK) fail_msg("%s %s: accepted as %s, expected an error like %s", v->file, v->tag, got, want);
    passed++;
}

/* rusuly/MySqlCdc: {"json"} in that library's renderings (see same()); the negative TIME it
 * rejects is checked against the value its SQL made, -23:24:25.024 (TIME(3)); the first line
 * against the file value.json. */
static void rusuly_vec(vec *v, void *ctx)
{
    (void)ctx;
    static char want[65536];
    if (member(v, "throws", want, sizeof want)) {
        assert_string_equal(decode_ok(v), "\"-23:24:25.024000\"");
        passed++;
        return;
    }
    if (member(v, "expected_json_file", want, sizeof want)) {
        char path[1024];
        snprintf(path, sizeof path, "%srusuly__MySqlCdc/%.200s", PEERS, want);
        FILE *f = fopen(path, "r");
        if (!f) fail_msg("missing %s", path);
        size_t n = fread(want, 1, sizeof want - 1, f);
        fclose(f);
        expect_same(v, decode_ok(v), want, n, true);
        return;
    }
    assert_non_null(member(v, "json", want, sizeof want));
    expect_same(v, decode_ok(v), want, strlen(want), true);
}

/* go-mysql's DOUBLE vectors: the 8 bytes after the type byte, and MySQL's exact spelling. */
static void double_vec(vec *v, void *ctx)
{
    (void)ctx;
    uint8_t b[9] = {0x0b};
    memcpy(b + 1, v->bytes, 8);
    rc_status st;
    rc_error err;
    const char *got = text_of(b, 9, &st, &err);
    const rc_jnode *want = rc_json_node(&v->j, 0);
    if (st != RC_OK || strlen(got) != want->n || memcmp(got, want->s, want->n))
        fail_msg("%s %s: got %s, want %.*s", v->file, v->tag, got, (int)want->n, want->s);
    passed++;
}

/* osheroff: documents after partial updates (unreferenced bytes inside) */
static void osheroff_vec(vec *v, void *ctx)
{
    (void)ctx;
    uint32_t e = rc_json_get(&v->j, 0, "expected");
    const rc_jnode *no = rc_json_node(&v->j, rc_json_get(&v->j, e, "text_does_not_contain"));
    const rc_jnode *yes = rc_json_node(&v->j, rc_json_get(&v->j, e, "text_contains"));
    const char *got = decode_ok(v);
    char s[200];
    snprintf(s, sizeof s, "%.*s", (int)no->n, no->s);
    if (strstr(got, s)) fail_msg("%s %s: %s has %s", v->file, v->tag, got, s);
    snprintf(s, sizeof s, "%.*s", (int)yes->n, yes->s);
    if (!strstr(got, s)) fail_msg("%s %s: %s lacks %s", v->file, v->tag, got, s);
    passed++;
}

/* rusuly's ColumnParser JSON column (BLOB type in its test; a JSON column here) */
static void column_json_vec(vec *v, void *ctx)
{
    (void)ctx;
    char tb[100];
    static char want[8192];
    if (strncmp(member(v, "type", tb, sizeof tb), "BLOB", 4)) return;
    rc_my_col c = {.type = RC_MY_JSON, .meta = 4, .name = RC_STR("c")};
    rc_value val;
    size_t used;
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_value_decode(&c, v->bytes, v->n, &used, &val, &arena, &err) != RC_OK) fail_msg("%s %s: %s", v->file, v->tag, err.message);
    assert_int_equal(used, v->n);
    assert_int_equal(val.kind, RC_V_JSON);
    char *got = rc_arena_memdup(&arena, val.s.p, val.s.n);
    member(v, "value", want, sizeof want);
    expect_same(v, got, want, strlen(want), false);
}

static void test_peer_json(void **state)
{
    (void)state;
    if (!peers_present()) skip();
    unsigned n = each_vector("dolthub__vitess/extracted/go/mysql/binlog_event_json_test.go__TestJSON.txt", dolthub_vec, NULL);
    assert_int_equal(n, 34);
    n = each_vector("vitessio__vitess/extracted/go/mysql/binlog/binlog_json_test.go__TestBinaryJSON_extra.txt", vitess_vec, NULL);
    assert_int_equal(n, 12);
    n = each_vector("rusuly__MySqlCdc/extracted/tests/MySqlCdc.Tests/Providers/MySql/Json/JsonParserTests.cs__JsonParser.txt", rusuly_vec, NULL);
    assert_int_equal(n, 40);
    n = each_vector("go-mysql-org__go-mysql/extracted/replication/json_mysql_text_test.go__mysqlDoubleParityVectors.txt", double_vec, NULL);
    assert_int_equal(n, 90);
    n = each_vector("osheroff__mysql-binlog-connector-java/extracted/src/test/java/com/github/shyiko/mysql/binlog/event/deserialization/json/"
                    "JsonPartialUpdateParseTest.java__57_80.txt",
                    osheroff_vec, NULL);
    assert_int_equal(n, 2);
    each_vector("rusuly__MySqlCdc/extracted/tests/MySqlCdc.Tests/Parsers/ColumnParserTests.cs__ColumnParser.txt", column_json_vec, NULL);
    assert_int_equal(passed, 34 + 12 + 40 + 90 + 2 + 1);
    print_message("peer JSON vectors passed: %u\n", passed);
}

/* blackbeam/rust_mysql_common's json.binlog.000001 (MySQL 8.0.22, binlog_row_value_options=
 * PARTIAL_JSON, binlog_row_image=MINIMAL): table mysql.t (id, json_col, name AS
 * (json_col->>'$.name'), age AS (json_col->'$.age')). Its PARTIAL_UPDATE_ROWS at offset 3750
 * logs, for row 1, the diff REPLACE $.age 26 (the generated column age of the same after image
 * is 26). The diff is read from that event and applied to row 1's document of the WRITE_ROWS
 * at offset 1059 ({"age": 24, ...}); the SOURCES.md entry states no values, the generated
 * column does. */
static void test_peer_partial_update(void **state)
{
    (void)state;
    if (!peers_present()) skip();
    FILE *f = fopen(PEERS "blackbeam__rust_mysql_common/test-data/binlogs/json.binlog.000001", "rb");
    assert_non_null(f);
    static uint8_t b[8192];
    size_t n = fread(b, 1, sizeof b, f);
    fclose(f);
    assert_int_equal(n, 4011);
    /* WRITE_ROWS v2 at 1059: 19-byte header, table id 6, flags 2, extra 2, 1 column count,
     * 1 bitmap, then row 1: NULL bitmap 1, id 4, the JSON's 4-byte length and document */
    assert_int_equal(b[1059 + 4], 30);
    const uint8_t *row = b + 1059 + 19 + 6 + 2 + 2 + 1 + 1 + 1 + 4;
    size_t docn = (size_t)(row[0] | row[1] << 8 | row[2] << 16 | (size_t)row[3] << 24);
    const uint8_t *doc = row + 4;
    /* PARTIAL_UPDATE_ROWS at 3750: the same head and two bitmaps, then row 1's before image
     * (NULL bitmap, id), the value options (1: partial JSON), the partial bits, the after
     * image's NULL bitmap, then the JSON column's diff list */
    assert_int_equal(b[3750 + 4], 39);
    const uint8_t *p = b + 3750 + 19 + 6 + 2 + 2 + 1 + 2 + 1 + 4;
    assert_int_equal(p[0], 1); /* PARTIAL_JSON */
    assert_int_equal(p[1], 1); /* json_col is a diff */
    const uint8_t *diff = p + 3;
    rc_buf out;
    rc_buf_init(&out, 0);
    rc_error err;
    rc_error_clear(&err);
    size_t used = 0;
    rc_status st = rc_my_json_diff_apply(doc, docn, diff, (size_t)(b + n - diff), &used, &out, &err);
    if (st != RC_OK) fail_msg("%s", err.message);
    rc_buf_putc(&out, '\0');
    assert_string_equal(out.data, "{\"age\": 26, \"data\": \"xxxxxxxxxx\", \"name\": \"Joe\"}");
    assert_int_equal(used, 4 + 11);
    /* the generated columns that follow: name VARCHAR(100) utf8mb4 (2-byte length) "Joe", age 26 */
    assert_memory_equal(diff + used, "\x03\x00" "Joe" "\x1a\x00\x00\x00", 9);
    rc_buf_fini(&out);
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
        cmocka_unit_test(test_scalars), cmocka_unit_test(test_strings_opaque), cmocka_unit_test(test_containers),
        cmocka_unit_test(test_diffs),   cmocka_unit_test(test_peer_json), cmocka_unit_test(test_peer_partial_update),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
