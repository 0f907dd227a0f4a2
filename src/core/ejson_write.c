/* Extended JSON writer (core/ejson.h): canonical, relaxed, the Java driver's shell mode
 * (its JsonMode.SHELL converters: NumberLong(n) within int32's range and NumberLong("n")
 * beyond, ISODate("yyyy-MM-ddTHH:mm:ss.SSSZ") within years 100 to 9999 and new Date(ms)
 * outside, new BinData(sub, "…"), Timestamp(t, i), doubles as Double.toString), and its
 * legacy strict mode as Debezium's MongoDB connector writes it; canonical and relaxed also with
 * the Java driver's spacing (": " after a name, ", " between members and elements). */
#include <string.h>
#include "core/ejson.h"
#include "core/fmt.h"
#include "core/jsonw.h"

static void hex(rc_buf *b, const uint8_t *p, size_t n) { rc_fmt_hex(b, p, n, false); }

/* {"$key":  or {"$key": with the mode's spacing */
static void wrap_open(rc_buf *b, const char *key, bool shell)
{
    rc_buf_puts(b, "{\"");
    rc_buf_puts(b, key);
    rc_buf_puts(b, shell ? "\": " : "\":");
}

static void wrap_str(rc_buf *b, const char *key, const char *p, size_t n, bool shell)
{
    wrap_open(b, key, shell);
    rc_jw_str(b, p, n);
    rc_buf_putc(b, '}');
}

static void wrap_i64(rc_buf *b, const char *key, int64_t v, bool shell)
{
    wrap_open(b, key, shell);
    rc_buf_putc(b, '"');
    rc_fmt_i64(b, v);
    rc_buf_puts(b, "\"}");
}

static void double_text(rc_buf *b, double d)
{
    if (d != d) rc_buf_puts(b, "NaN");
    else if (d == __builtin_inf()) rc_buf_puts(b, "Infinity");
    else if (d == -__builtin_inf()) rc_buf_puts(b, "-Infinity");
    else rc_fmt_f64_java(b, d);
}

/* ms since the epoch as yyyy-MM-ddTHH:mm:ss[.SSS]Z; the fraction always when `ms3` */
static void iso(rc_buf *b, int64_t ms, bool ms3)
{
    int64_t sec = rc_floor_div(ms, 1000);
    rc_timestamp ts = {sec, 0};
    rc_fmt_ts_iso(b, &ts); /* ...:ssZ, no fraction for whole seconds: the Z taken back */
    if (b->len) b->len--;
    uint32_t f = (uint32_t)(ms - sec * 1000);
    if (f || ms3) rc_fmt_frac_digits(b, f, 3);
    rc_buf_putc(b, 'Z');
}

static void write_value(rc_buf *b, const rc_bson *v, rc_ejson_mode m);

static bool java_spaced(rc_ejson_mode m) { return m == RC_EJSON_SHELL || m == RC_EJSON_JAVA_CANONICAL || m == RC_EJSON_JAVA_RELAXED; }

static void container(rc_buf *b, const rc_bson *v, rc_ejson_mode m)
{
    bool obj = v->kind == RC_B_DOCUMENT, spaced = java_spaced(m);
    rc_buf_putc(b, obj ? '{' : '[');
    for (uint32_t i = 0; i < v->doc.n; i++) {
        if (i) rc_buf_puts(b, spaced ? ", " : ",");
        if (obj) {
            rc_jw_str(b, v->doc.items[i].key.p, v->doc.items[i].key.n);
            rc_buf_puts(b, spaced || m == RC_EJSON_STRICT ? ": " : ":");
        }
        write_value(b, &v->doc.items[i].val, m);
    }
    rc_buf_putc(b, obj ? '}' : ']');
}

/* The types the shell writes in its own words; false for the others. */
static bool shell_value(rc_buf *b, const rc_bson *v)
{
    switch (v->kind) {
    case RC_B_DOUBLE: double_text(b, v->f64); return true;
    case RC_B_INT64:
        rc_buf_puts(b, v->i64 >= INT32_MIN && v->i64 <= INT32_MAX ? "NumberLong(" : "NumberLong(\"");
        rc_fmt_i64(b, v->i64);
        rc_buf_puts(b, v->i64 >= INT32_MIN && v->i64 <= INT32_MAX ? ")" : "\")");
        return true;
    case RC_B_DECIMAL128:
        rc_buf_puts(b, "NumberDecimal(");
        rc_jw_str(b, v->s.p, v->s.n);
        rc_buf_putc(b, ')');
        return true;
    case RC_B_OBJECTID:
        rc_buf_puts(b, "ObjectId(\"");
        hex(b, v->oid, 12);
        rc_buf_puts(b, "\")");
        return true;
    case RC_B_DATE:
        if (v->i64 >= -59014396800000LL && v->i64 <= 253399536000000LL) {
            rc_buf_puts(b, "ISODate(\"");
            iso(b, v->i64, true);
            rc_buf_puts(b, "\")");
        } else {
            rc_buf_puts(b, "new Date(");
            rc_fmt_i64(b, v->i64);
            rc_buf_putc(b, ')');
        }
        return true;
    case RC_B_BINARY:
        rc_buf_puts(b, "new BinData(");
        rc_fmt_u64(b, v->bin.subtype);
        rc_buf_puts(b, ", ");
        rc_fmt_base64_quoted(b, (const unsigned char *)v->bin.data.p, v->bin.data.n);
        rc_buf_putc(b, ')');
        return true;
    case RC_B_TIMESTAMP:
        rc_buf_puts(b, "Timestamp(");
        rc_fmt_u64(b, v->ts.t);
        rc_buf_puts(b, ", ");
        rc_fmt_u64(b, v->ts.i);
        rc_buf_putc(b, ')');
        return true;
    case RC_B_REGEX:
        rc_buf_putc(b, '/');
        for (size_t k = 0; k < v->re.pattern.n; k++) {
            if (v->re.pattern.p[k] == '/') rc_buf_putc(b, '\\');
            rc_buf_putc(b, v->re.pattern.p[k]);
        }
        rc_buf_putc(b, '/');
        rc_buf_put(b, v->re.options.p, v->re.options.n);
        return true;
    case RC_B_MINKEY: rc_buf_puts(b, "MinKey"); return true;
    case RC_B_MAXKEY: rc_buf_puts(b, "MaxKey"); return true;
    case RC_B_UNDEFINED: rc_buf_puts(b, "undefined"); return true;
    default: return false;
    }
}

/* A legacy wrapper {"$a": <x>, "$b": <y>} of two members, in strict mode's spacing. */
static void strict_pair(rc_buf *b, const char *k1, const rc_bson *x, const char *k2, const rc_bson *y)
{
    rc_bson_member m[2] = {{{k1, strlen(k1)}, *x}, {{k2, strlen(k2)}, *y}};
    rc_bson d = {.kind = RC_B_DOCUMENT, .doc = {m, 2}};
    container(b, &d, RC_EJSON_STRICT);
}

/* The types strict mode writes otherwise than relaxed mode; false for the others. */
static bool strict_value(rc_buf *b, const rc_bson *v)
{
    switch (v->kind) {
    case RC_B_DOUBLE: double_text(b, v->f64); return true;
    case RC_B_INT64: wrap_i64(b, "$numberLong", v->i64, true); return true;
    case RC_B_DATE:
        wrap_open(b, "$date", true);
        rc_fmt_i64(b, v->i64);
        rc_buf_putc(b, '}');
        return true;
    case RC_B_BINARY: {
        rc_buf_puts(b, "{\"$binary\": ");
        rc_fmt_base64_quoted(b, (const unsigned char *)v->bin.data.p, v->bin.data.n);
        rc_buf_puts(b, ",\"$type\": \"");
        rc_fmt_hex(b, &v->bin.subtype, 1, true);
        rc_buf_puts(b, "\"}");
        return true;
    }
    case RC_B_TIMESTAMP:
        rc_buf_puts(b, "{\"$timestamp\": {\"t\": ");
        rc_fmt_u64(b, v->ts.t);
        rc_buf_puts(b, ",\"i\": ");
        rc_fmt_u64(b, v->ts.i);
        rc_buf_puts(b, "}}");
        return true;
    case RC_B_REGEX: {
        rc_bson p = {.kind = RC_B_STRING, .s = v->re.pattern}, o = {.kind = RC_B_STRING, .s = v->re.options};
        strict_pair(b, "$regex", &p, "$options", &o);
        return true;
    }
    case RC_B_MINKEY: rc_buf_puts(b, "{\"$minKey\": 1}"); return true;
    case RC_B_MAXKEY: rc_buf_puts(b, "{\"$maxKey\": 1}"); return true;
    case RC_B_UNDEFINED: rc_buf_puts(b, "{\"$undefined\": true}"); return true;
    default: return false; /* int32 a bare number, the others as relaxed mode */
    }
}

static void write_value(rc_buf *b, const rc_bson *v, rc_ejson_mode m)
{
    bool shell = java_spaced(m), plain = m != RC_EJSON_CANONICAL && m != RC_EJSON_JAVA_CANONICAL;
    if (m == RC_EJSON_SHELL && shell_value(b, v)) return;
    if (m == RC_EJSON_STRICT) {
        if (strict_value(b, v)) return;
        shell = true; /* the wrappers left ({"$oid": "…"}) with ": " */
    }
    const char *cl = shell ? ": " : ":", *sep = shell ? ", " : ","; /* the spacing of the wrappers below */
    switch (v->kind) {
    case RC_B_DOCUMENT:
    case RC_B_ARRAY: container(b, v, m); return;
    case RC_B_STRING: rc_jw_str(b, v->s.p, v->s.n); return;
    case RC_B_BOOL: rc_buf_puts(b, v->b ? "true" : "false"); return;
    case RC_B_NULL: rc_buf_puts(b, "null"); return;
    case RC_B_INT32:
        if (plain) rc_fmt_i64(b, v->i32);
        else wrap_i64(b, "$numberInt", v->i32, shell);
        return;
    case RC_B_INT64:
        if (plain) rc_fmt_i64(b, v->i64);
        else wrap_i64(b, "$numberLong", v->i64, shell);
        return;
    case RC_B_DOUBLE:
        if (plain && v->f64 == v->f64 && v->f64 != __builtin_inf() && v->f64 != -__builtin_inf()) {
            rc_fmt_f64_java(b, v->f64);
            return;
        }
        wrap_open(b, "$numberDouble", shell);
        rc_buf_putc(b, '"');
        double_text(b, v->f64);
        rc_buf_puts(b, "\"}");
        return;
    case RC_B_DECIMAL128: wrap_str(b, "$numberDecimal", v->s.p, v->s.n, shell); return;
    case RC_B_CODE: wrap_str(b, "$code", v->s.p, v->s.n, shell); return;
    case RC_B_SYMBOL: wrap_str(b, "$symbol", v->s.p, v->s.n, shell); return;
    case RC_B_OBJECTID:
        wrap_open(b, "$oid", shell);
        rc_buf_putc(b, '"');
        hex(b, v->oid, 12);
        rc_buf_puts(b, "\"}");
        return;
    case RC_B_DATE:
        wrap_open(b, "$date", shell);
        if (plain && v->i64 >= 0 && v->i64 <= 253402300799999LL) { /* relaxed: years 1970 to 9999 as ISO-8601 */
            rc_buf_putc(b, '"');
            iso(b, v->i64, false);
            rc_buf_puts(b, "\"}");
        } else {
            wrap_i64(b, "$numberLong", v->i64, shell);
            rc_buf_putc(b, '}');
        }
        return;
    case RC_B_BINARY:
        rc_buf_puts(b, "{\"$binary\""), rc_buf_puts(b, cl), rc_buf_puts(b, "{\"base64\""), rc_buf_puts(b, cl);
        rc_fmt_base64_quoted(b, (const unsigned char *)v->bin.data.p, v->bin.data.n);
        rc_buf_puts(b, sep), rc_buf_puts(b, "\"subType\""), rc_buf_puts(b, cl), rc_buf_putc(b, '"');
        hex(b, &v->bin.subtype, 1);
        rc_buf_puts(b, "\"}}");
        return;
    case RC_B_TIMESTAMP:
        rc_buf_puts(b, "{\"$timestamp\""), rc_buf_puts(b, cl), rc_buf_puts(b, "{\"t\""), rc_buf_puts(b, cl);
        rc_fmt_u64(b, v->ts.t);
        rc_buf_puts(b, sep), rc_buf_puts(b, "\"i\""), rc_buf_puts(b, cl);
        rc_fmt_u64(b, v->ts.i);
        rc_buf_puts(b, "}}");
        return;
    case RC_B_REGEX:
        rc_buf_puts(b, "{\"$regularExpression\""), rc_buf_puts(b, cl), rc_buf_puts(b, "{\"pattern\""), rc_buf_puts(b, cl);
        rc_jw_str(b, v->re.pattern.p, v->re.pattern.n);
        rc_buf_puts(b, sep), rc_buf_puts(b, "\"options\""), rc_buf_puts(b, cl);
        rc_jw_str(b, v->re.options.p, v->re.options.n);
        rc_buf_puts(b, "}}");
        return;
    case RC_B_CODE_SCOPE: {
        rc_bson_member cm[2] = {{RC_STR("$code"), {.kind = RC_B_STRING, .s = v->cws.code}}, {RC_STR("$scope"), *v->cws.scope}};
        rc_bson d = {.kind = RC_B_DOCUMENT, .doc = {cm, 2}};
        container(b, &d, m);
        return;
    }
    case RC_B_MINKEY: rc_buf_puts(b, shell ? "{\"$minKey\": 1}" : "{\"$minKey\":1}"); return;
    case RC_B_MAXKEY: rc_buf_puts(b, shell ? "{\"$maxKey\": 1}" : "{\"$maxKey\":1}"); return;
    case RC_B_UNDEFINED: rc_buf_puts(b, shell ? "{\"$undefined\": true}" : "{\"$undefined\":true}"); return;
    default: return;
    }
}

void rc_ejson_write(rc_buf *b, const rc_bson *v, rc_ejson_mode mode) { write_value(b, v, mode); }
