/* Extended JSON's typed values: the type wrappers of canonical and relaxed mode ({"$oid":…},
 * {"$numberLong":…}, ...) and the shell's words and constructors (ObjectId("…"),
 * NumberLong(…), ISODate("…"), MinKey, ...), each read into its BSON type from its text. */
#include <string.h>
#include "core/ejson_int.h"
#include "core/fmt.h"

static bool str_is(rc_str s, const char *lit) { return s.n == strlen(lit) && !memcmp(s.p, lit, s.n); }

static rc_status bad(ej_ctx *c, size_t at, const char *what) { return rc_ej_fail(c, RC_ERR_VALUE, at, what); }

static rc_status oid(ej_ctx *c, rc_str s, size_t at, rc_bson *v)
{
    if (s.n != 24) return bad(c, at, "an ObjectId is 24 hex digits");
    for (int k = 0; k < 12; k++) {
        int h = rc_ej_hexv(s.p[2 * k]), l = rc_ej_hexv(s.p[2 * k + 1]);
        if (h < 0 || l < 0) return bad(c, at, "an ObjectId is 24 hex digits");
        v->oid[k] = (uint8_t)(h << 4 | l);
    }
    v->kind = RC_B_OBJECTID;
    return RC_OK;
}

static rc_status int_text(ej_ctx *c, rc_str s, size_t at, bool i64, rc_bson *v)
{
    int64_t x;
    rc_status st = rc_parse_i64(s.p, s.n, &x);
    if (st == RC_OK && !i64 && (x < INT32_MIN || x > INT32_MAX)) st = RC_ERR_RANGE;
    if (st != RC_OK) return rc_ej_fail(c, st == RC_ERR_RANGE ? RC_ERR_RANGE : RC_ERR_VALUE, at, i64 ? "bad int64" : "bad int32");
    if (i64) v->kind = RC_B_INT64, v->i64 = x;
    else v->kind = RC_B_INT32, v->i32 = (int32_t)x;
    return RC_OK;
}

bool rc_decimal128_text_ok(const char *s, size_t n)
{
    size_t k = 0;
    if (k < n && (s[k] == '-' || s[k] == '+')) k++;
    rc_str rest = {s + k, n - k};
    if (str_is(rest, "NaN") || str_is(rest, "Infinity") || str_is(rest, "Inf")) return true;
    int sig = 0, frac = 0;
    bool digits = false, lead = true, dot = false;
    for (; k < n && ((s[k] >= '0' && s[k] <= '9') || (s[k] == '.' && !dot)); k++) {
        if (s[k] == '.') {
            dot = true;
            continue;
        }
        digits = true, frac += dot;
        if (s[k] != '0' || !lead) lead = false, sig++;
    }
    if (!digits || sig > 34) return false;
    long e = 0;
    if (k < n && (s[k] == 'e' || s[k] == 'E')) {
        k++;
        bool neg = k < n && s[k] == '-';
        if (k < n && (s[k] == '-' || s[k] == '+')) k++;
        if (k == n) return false;
        for (; k < n && s[k] >= '0' && s[k] <= '9'; k++)
            if ((e = e * 10 + (s[k] - '0')) > 100000) return false;
        if (neg) e = -e;
    }
    e -= frac; /* the exponent of the last digit */
    return k == n && e >= -6176 && e <= 6111;
}

/* yyyy-mm-ddThh:mm:ss[.fff](Z|±hh:mm|±hhmm) as milliseconds since the epoch; a fraction past
 * the millisecond must be zeros (a date holds milliseconds). The date and clock are
 * rc_parse_datetime's; the zone is taken off first. */
static bool iso_ms(rc_str s, int64_t *out)
{
    const char *p = s.p;
    size_t n = s.n, k = n;
    int64_t off = 0;
    if (n && p[n - 1] == 'Z') {
        k = n - 1;
    } else {
        size_t m = n > 6 && p[n - 3] == ':' ? 6 : 5; /* ±hh:mm or ±hhmm */
        if (n < m + 19 || (p[n - m] != '+' && p[n - m] != '-')) return false;
        const char *z = p + n - m + 1, *mm = z + (m == 6 ? 3 : 2);
        for (int d = 0; d < 2; d++)
            if (z[d] < '0' || z[d] > '9' || mm[d] < '0' || mm[d] > '9') return false;
        off = ((z[0] - '0') * 10 + (z[1] - '0')) * 3600 + ((mm[0] - '0') * 10 + (mm[1] - '0')) * 60;
        if (p[n - m] == '-') off = -off;
        k = n - m;
    }
    rc_datetime dt;
    if (k < 19 || p[10] != 'T' || !rc_parse_datetime(p, k, &dt) || dt.zone.n || dt.nanos % 1000000) return false;
    *out = rc_datetime_epoch_ms(&dt) - off * 1000;
    return true;
}

static rc_status date_iso(ej_ctx *c, rc_str s, size_t at, rc_bson *v)
{
    if (!iso_ms(s, &v->i64)) return bad(c, at, "a date is yyyy-mm-ddThh:mm:ss[.fff] and Z or an offset");
    v->kind = RC_B_DATE;
    return RC_OK;
}

static rc_status binary(ej_ctx *c, rc_str b64, rc_str sub, size_t at, bool hex, rc_bson *v)
{
    unsigned st = 0;
    if (!sub.n || sub.n > 3) return bad(c, at, "bad binary subtype");
    for (size_t k = 0; k < sub.n; k++) {
        int h = hex ? rc_ej_hexv(sub.p[k]) : (sub.p[k] >= '0' && sub.p[k] <= '9' ? sub.p[k] - '0' : -1);
        if (h < 0) return bad(c, at, "bad binary subtype");
        st = st * (hex ? 16 : 10) + (unsigned)h;
    }
    if (st > 255 || (hex && sub.n > 2)) return bad(c, at, "bad binary subtype");
    size_t where;
    if (rc_base64_decode(b64.p, b64.n, c->a, &v->bin.data, &where) != RC_OK) return bad(c, at, "bad base64 in binary data");
    v->kind = RC_B_BINARY, v->bin.subtype = (uint8_t)st;
    return RC_OK;
}

static const rc_bson *member(const rc_bson *d, uint32_t i, const char *key, rc_bson_kind kind)
{
    if (d->kind != RC_B_DOCUMENT || i >= d->doc.n || !str_is(d->doc.items[i].key, key)) return NULL;
    const rc_bson *x = &d->doc.items[i].val;
    return x->kind == kind ? x : NULL;
}

rc_status rc_ej_unwrap(ej_ctx *c, rc_bson *v, size_t at)
{
    if (!v->doc.n || v->doc.items[0].key.n < 2 || v->doc.items[0].key.p[0] != '$') return RC_OK;
    rc_str k = v->doc.items[0].key;
    const rc_bson *x = &v->doc.items[0].val;
    uint32_t n = v->doc.n;
    bool str1 = n == 1 && x->kind == RC_B_STRING;
    if (str_is(k, "$oid")) return str1 ? oid(c, x->s, at, v) : bad(c, at, "bad $oid");
    if (str_is(k, "$numberInt") || str_is(k, "$numberLong"))
        return str1 ? int_text(c, x->s, at, k.n == 11, v) : bad(c, at, "bad $numberInt or $numberLong");
    if (str_is(k, "$numberDouble")) return str1 ? rc_ej_double(c, x->s.p, x->s.n, at, v) : bad(c, at, "bad $numberDouble");
    if (str_is(k, "$numberDecimal")) {
        if (!str1 || !rc_decimal128_text_ok(x->s.p, x->s.n)) return bad(c, at, "bad $numberDecimal");
        rc_str s = x->s;
        return v->kind = RC_B_DECIMAL128, v->s = s, RC_OK;
    }
    if (str_is(k, "$date")) {
        if (str1) return date_iso(c, x->s, at, v);
        if (n != 1 || (x->kind != RC_B_INT64 && x->kind != RC_B_INT32)) return bad(c, at, "bad $date");
        int64_t ms = x->kind == RC_B_INT64 ? x->i64 : x->i32;
        return v->kind = RC_B_DATE, v->i64 = ms, RC_OK;
    }
    if (str_is(k, "$binary")) {
        const rc_bson *b64 = member(x, 0, "base64", RC_B_STRING), *sub = member(x, 1, "subType", RC_B_STRING);
        if (n == 1 && b64 && sub && x->doc.n == 2) return binary(c, b64->s, sub->s, at, true, v);
        const rc_bson *t = member(v, 1, "$type", RC_B_STRING); /* the legacy {"$binary": "…", "$type": "hh"} */
        if (n == 2 && x->kind == RC_B_STRING && t) return binary(c, x->s, t->s, at, true, v);
        return bad(c, at, "bad $binary");
    }
    if (str_is(k, "$timestamp")) {
        bool two = x->kind == RC_B_DOCUMENT && x->doc.n == 2;
        uint32_t tv, iv;
        if (n != 1 || !two || !str_is(x->doc.items[0].key, "t") || !str_is(x->doc.items[1].key, "i") || !rc_bson_u32(&x->doc.items[0].val, &tv) ||
            !rc_bson_u32(&x->doc.items[1].val, &iv))
            return bad(c, at, "bad $timestamp");
        return v->kind = RC_B_TIMESTAMP, v->ts.t = tv, v->ts.i = iv, RC_OK;
    }
    if (str_is(k, "$regularExpression")) {
        const rc_bson *p = member(x, 0, "pattern", RC_B_STRING), *o = member(x, 1, "options", RC_B_STRING);
        if (n != 1 || !p || !o || x->doc.n != 2) return bad(c, at, "bad $regularExpression");
        rc_str ps = p->s, os = o->s;
        return v->kind = RC_B_REGEX, v->re.pattern = ps, v->re.options = os, RC_OK;
    }
    if (str_is(k, "$regex") && n == 2 && x->kind == RC_B_STRING && member(v, 1, "$options", RC_B_STRING)) { /* legacy (strict mode) */
        rc_str ps = x->s, os = v->doc.items[1].val.s;
        return v->kind = RC_B_REGEX, v->re.pattern = ps, v->re.options = os, RC_OK;
    }
    if (str_is(k, "$minKey") || str_is(k, "$maxKey")) {
        if (n != 1 || x->kind != RC_B_INT32 || x->i32 != 1) return bad(c, at, "bad $minKey or $maxKey");
        return v->kind = k.p[2] == 'i' ? RC_B_MINKEY : RC_B_MAXKEY, RC_OK;
    }
    if (str_is(k, "$undefined")) return n == 1 && x->kind == RC_B_BOOL && x->b ? (v->kind = RC_B_UNDEFINED, RC_OK) : bad(c, at, "bad $undefined");
    if (str_is(k, "$code") && n == 2 && x->kind == RC_B_STRING && member(v, 1, "$scope", RC_B_DOCUMENT)) {
        rc_str code = x->s;
        const rc_bson *scope = &v->doc.items[1].val; /* in the arena with the members */
        return v->kind = RC_B_CODE_SCOPE, v->cws.code = code, v->cws.scope = scope, RC_OK;
    }
    if (str_is(k, "$symbol") || str_is(k, "$code")) {
        if (!str1) return bad(c, at, "bad $symbol or $code");
        rc_str s = x->s;
        return v->kind = k.n == 5 ? RC_B_CODE : RC_B_SYMBOL, v->s = s, RC_OK;
    }
    if (str_is(k, "$dbPointer")) return bad(c, at, "$dbPointer is not supported");
    return RC_OK; /* an operator ("$set") or any other key: a document */
}

static rc_status want_args(ej_ctx *c, ej_arg *g, int want, int *got, size_t at, const char *what)
{
    rc_status st = rc_ej_args(c, g, 2, got);
    if (st != RC_OK) return st;
    return *got == want ? RC_OK : bad(c, at, what);
}

rc_status rc_ej_word(ej_ctx *c, rc_str w, size_t at, rc_bson *v)
{
    static const struct {
        const char *word;
        rc_bson_kind kind;
        int b;
    } bare[] = {{"true", RC_B_BOOL, 1}, {"false", RC_B_BOOL, 0}, {"null", RC_B_NULL, 0}, {"undefined", RC_B_UNDEFINED, 0},
                {"MinKey", RC_B_MINKEY, 0}, {"MaxKey", RC_B_MAXKEY, 0}};
    for (size_t k = 0; k < sizeof bare / sizeof *bare; k++)
        if (str_is(w, bare[k].word)) return v->kind = bare[k].kind, v->b = bare[k].b, RC_OK;
    if (str_is(w, "NaN") || str_is(w, "Infinity")) return rc_ej_double(c, w.p, w.n, at, v);
    ej_arg g[2];
    int ng;
    rc_status st;
    if (str_is(w, "ObjectId")) {
        if ((st = want_args(c, g, 1, &ng, at, "ObjectId takes one string")) != RC_OK) return st;
        return g[0].quoted ? oid(c, g[0].s, g[0].at, v) : bad(c, at, "ObjectId takes one string");
    }
    if (str_is(w, "NumberLong") || str_is(w, "NumberInt")) {
        if ((st = want_args(c, g, 1, &ng, at, "NumberLong and NumberInt take one number")) != RC_OK) return st;
        return int_text(c, g[0].s, g[0].at, w.n == 10, v);
    }
    if (str_is(w, "NumberDecimal")) {
        if ((st = want_args(c, g, 1, &ng, at, "NumberDecimal takes one string")) != RC_OK) return st;
        if (!rc_decimal128_text_ok(g[0].s.p, g[0].s.n)) return bad(c, g[0].at, "bad NumberDecimal");
        return v->kind = RC_B_DECIMAL128, v->s = g[0].s, RC_OK;
    }
    if (str_is(w, "ISODate") || str_is(w, "Date")) {
        if ((st = want_args(c, g, 1, &ng, at, "a date takes one argument")) != RC_OK) return st;
        if (g[0].quoted) return date_iso(c, g[0].s, g[0].at, v);
        if ((st = int_text(c, g[0].s, g[0].at, true, v)) != RC_OK) return st;
        return v->kind = RC_B_DATE, RC_OK;
    }
    if (str_is(w, "Timestamp")) {
        if ((st = want_args(c, g, 2, &ng, at, "Timestamp takes two numbers")) != RC_OK) return st;
        int64_t t, i;
        if (g[0].quoted || g[1].quoted || rc_parse_i64(g[0].s.p, g[0].s.n, &t) != RC_OK || rc_parse_i64(g[1].s.p, g[1].s.n, &i) != RC_OK ||
            t < INT32_MIN || t > UINT32_MAX || i < INT32_MIN || i > UINT32_MAX)
            return bad(c, at, "Timestamp takes two numbers");
        /* the Java driver prints each as a signed int: -1 is 4294967295 */
        return v->kind = RC_B_TIMESTAMP, v->ts.t = (uint32_t)t, v->ts.i = (uint32_t)i, RC_OK;
    }
    if (str_is(w, "BinData")) {
        if ((st = want_args(c, g, 2, &ng, at, "BinData takes a subtype and a base64 string")) != RC_OK) return st;
        if (g[0].quoted || !g[1].quoted) return bad(c, at, "BinData takes a subtype and a base64 string");
        return binary(c, g[1].s, g[0].s, at, false, v);
    }
    return rc_ej_fail(c, RC_ERR_SYNTAX, at, "unknown word");
}
