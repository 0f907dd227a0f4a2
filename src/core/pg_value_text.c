/* PostgreSQL value texts -> canonical values (see pg_value_text.h); the types are resolved in
 * sources/pg/pg_value_types.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/fmt.h"
#include "core/jsonw.h"
#include "core/vparse.h"
#include "core/pg_value_text.h"

/* ---- values ---- */

/* What each reader expects, for error messages. */
static const char *const expected[RC_PG_R_COUNT] = {
    [RC_PG_R_INT] = "an integer",
    [RC_PG_R_NUMERIC] = "[-]digits[.digits], NaN, Infinity or -Infinity",
    [RC_PG_R_FLOAT4] = "a number such as -1.5e-07, NaN, Infinity or -Infinity",
    [RC_PG_R_FLOAT8] = "a number such as -1.5e-07, NaN, Infinity or -Infinity",
    [RC_PG_R_BOOL] = "t or f",
    [RC_PG_R_TEXT] = "UTF-8 text",
    [RC_PG_R_BYTEA] = "\\x and pairs of hex digits",
    [RC_PG_R_DATE] = "YYYY-MM-DD[ BC], infinity or -infinity",
    [RC_PG_R_TIME] = "HH:MM:SS[.ffffff] from 00:00:00 to 24:00:00",
    [RC_PG_R_TIMETZ] = "HH:MM:SS[.ffffff]+HH[:MM[:SS]]",
    [RC_PG_R_TIMESTAMP] = "YYYY-MM-DD HH:MM:SS[.ffffff][ BC], infinity or -infinity",
    [RC_PG_R_TIMESTAMPTZ] = "YYYY-MM-DD HH:MM:SS[.ffffff]+HH[:MM[:SS]][ BC], infinity or -infinity",
    [RC_PG_R_INTERVAL] = "an interval such as 1 year 2 mons -3 days +04:05:06.789 (IntervalStyle postgres)",
    [RC_PG_R_JSON] = "UTF-8 JSON text",
    [RC_PG_R_UUID] = "8-4-4-4-12 lower-case hex digits",
    [RC_PG_R_BITS] = "binary digits 0 and 1",
    [RC_PG_R_ENUM] = "a UTF-8 label",
    [RC_PG_R_ARRAY] = "an array literal such as {1,NULL,\"a,b\",{2,3}}",
};

typedef struct vctx {
    const rc_pg_type *t;
    const rc_column *col;
    const char *s;
    size_t n;
    rc_arena *a;
    rc_value *v;
    rc_error *err;
    size_t base; /* an array element: its offset in the literal (errors say it) */
    int elem;    /* 0: a whole value; 1: an unquoted element (offsets shift by base); 2: a quoted one */
} vctx;

/* The error for a text that is wrong at byte `at` (n: it ends too early): what was found
 * where, and what the type's text looks like. */
static rc_status fail_at(const vctx *c, rc_status code, size_t at, const char *why)
{
    char head[64 + 80];
    int shown = (int)(c->n > 48 ? 48 : c->n);
    if (rc_utf8_valid_prefix(c->s, (size_t)shown) < (size_t)shown) shown = 0; /* the message stays UTF-8 */
    int hn = snprintf(head, sizeof head, "column \"%.*s\" (%.*s)", (int)(c->col->name.n > 64 ? 64 : c->col->name.n), c->col->name.p,
                      (int)(c->col->type.decl.n > 64 ? 64 : c->col->type.decl.n), c->col->type.decl.p);
    if (c->elem && hn > 0 && (size_t)hn < sizeof head) snprintf(head + hn, sizeof head - (size_t)hn, ": element at byte %zu", c->base);
    size_t msg_at = at;
    at = c->elem == 1 ? c->base + at : c->elem == 2 ? c->base : at; /* the offset in the whole text */
    const char *more = c->n > (size_t)shown ? "..." : "";
    if (code == RC_ERR_RANGE)
        return rc_error_set(c->err, code, at, "%s: \"%.*s%s\" is out of range at byte %zu", head, shown, c->s, more, msg_at);
    why = why ? why : expected[c->t->reader];
    if (msg_at >= c->n)
        return rc_error_set(c->err, code, at, "%s: \"%.*s%s\" ends early at byte %zu: expected %s", head, shown, c->s, more, msg_at, why);
    unsigned char ch = (unsigned char)c->s[msg_at];
    if (ch >= 0x20 && ch < 0x7F)
        return rc_error_set(c->err, code, at, "%s: unexpected '%c' at byte %zu of \"%.*s%s\": expected %s", head, ch, msg_at, shown,
                            c->s, more, why);
    return rc_error_set(c->err, code, at, "%s: unexpected byte 0x%02X at byte %zu: expected %s", head, ch, msg_at, why);
}
#define FAIL(c, at) fail_at(c, RC_ERR_VALUE, at, NULL)
#define FAIL_RANGE(c, at) fail_at(c, RC_ERR_RANGE, at, NULL)

static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static bool is_lit(const vctx *c, const char *lit)
{
    size_t k = strlen(lit);
    return c->n == k && !memcmp(c->s, lit, k);
}

/* Digits from s[*i]; returns how many were read (their value in *v, saturated). */
static size_t digits(const vctx *c, size_t *i, uint64_t *v)
{
    size_t st = *i;
    uint64_t x = 0;
    while (*i < c->n && is_digit(c->s[*i])) {
        x = x < 100000000000000000ull ? x * 10 + (uint64_t)(c->s[*i] - '0') : UINT64_MAX;
        (*i)++;
    }
    if (v) *v = x;
    return *i - st;
}

/* Exactly `k` digits at s[*i], or the offset of the first that is not one in *bad. */
static bool fixed_digits(const vctx *c, size_t *i, size_t k, uint32_t *v, size_t *bad)
{
    uint32_t x = 0;
    for (size_t j = 0; j < k; j++, (*i)++) {
        if (*i >= c->n || !is_digit(c->s[*i])) return *bad = *i, false;
        x = x * 10 + (uint32_t)(c->s[*i] - '0');
    }
    *v = x;
    return true;
}

static bool lit_at(const vctx *c, size_t *i, const char *lit, size_t *bad)
{
    for (; *lit; lit++, (*i)++)
        if (*i >= c->n || c->s[*i] != *lit) return *bad = *i, false;
    return true;
}

static rc_status copy_text(const vctx *c, rc_vkind kind)
{
    size_t ok = rc_utf8_valid_prefix(c->s, c->n);
    if (ok != c->n) return fail_at(c, RC_ERR_VALUE, ok, "valid UTF-8 (is the database encoding UTF8?)");
    char *p = rc_arena_memdup(c->a, c->s, c->n);
    if (!p && c->n) return RC_ERR_NOMEM;
    c->v->kind = kind;
    c->v->s = (rc_str){p ? p : "", c->n};
    return RC_OK;
}

/* ±infinity of dates and timestamps, NaN and ±Infinity of numeric: no canonical value
 * holds them, so they are kept as their text (RC_V_INVALID), as zero dates are. */
static bool special(const vctx *c, const char *const *lits)
{
    for (; *lits; lits++)
        if (is_lit(c, *lits)) {
            c->v->kind = RC_V_INVALID;
            c->v->s = (rc_str){*lits, c->n}; /* static text: no copy needed */
            return true;
        }
    return false;
}
static const char *const date_specials[] = {"infinity", "-infinity", NULL};

static rc_status read_int(const vctx *c)
{
    size_t i = c->n && c->s[0] == '-';
    uint64_t v;
    size_t k = digits(c, &i, &v);
    if (!k) return FAIL(c, i);
    if (i != c->n) return FAIL(c, i);
    if (k > 1 && c->s[c->n - k] == '0') return FAIL(c, c->n - k); /* the server writes no leading zeros */
    c->v->kind = RC_V_INT;
    rc_status st = rc_parse_i64(c->s, c->n, &c->v->i);
    return st == RC_OK ? RC_OK : FAIL_RANGE(c, 0);
}

static rc_status read_numeric(const vctx *c)
{
    static const char *const specials[] = {"NaN", "Infinity", "-Infinity", NULL};
    if (special(c, specials)) return RC_OK;
    size_t i = c->n && c->s[0] == '-';
    if (!digits(c, &i, NULL)) return FAIL(c, i);
    if (i < c->n && c->s[i] == '.') {
        i++;
        if (!digits(c, &i, NULL)) return FAIL(c, i);
    }
    if (i != c->n) return FAIL(c, i);
    c->v->kind = RC_V_DECIMAL;
    rc_status st = rc_dec_parse(c->s, c->n, c->a, &c->v->dec);
    if (st == RC_ERR_NOMEM) return st;
    return st == RC_OK ? RC_OK : FAIL_RANGE(c, 0);
}

/* float4/float8 as float4out/float8out write them with extra_float_digits 3: the shortest
 * text that reads back exactly, read with strtof/strtod (correctly rounded, never through a
 * double for float4). */
static rc_status read_float(const vctx *c, bool f32)
{
    static const char *const specials[] = {"NaN", "Infinity", "-Infinity", NULL};
    double d;
    float f;
    if (is_lit(c, specials[0])) d = NAN, f = NAN;
    else if (is_lit(c, specials[1])) d = INFINITY, f = INFINITY;
    else if (is_lit(c, specials[2])) d = -INFINITY, f = -INFINITY;
    else {
        size_t i = c->n && c->s[0] == '-';
        if (!digits(c, &i, NULL)) return FAIL(c, i);
        if (i < c->n && c->s[i] == '.') {
            i++;
            if (!digits(c, &i, NULL)) return FAIL(c, i);
        }
        if (i < c->n && c->s[i] == 'e') {
            i++;
            if (i < c->n && (c->s[i] == '+' || c->s[i] == '-')) i++;
            if (!digits(c, &i, NULL)) return FAIL(c, i);
        }
        if (i != c->n) return FAIL(c, i);
        char small[64], *z = c->n < sizeof small ? small : rc_arena_alloc(c->a, c->n + 1);
        if (!z) return RC_ERR_NOMEM;
        memcpy(z, c->s, c->n);
        z[c->n] = '\0';
        if (f32) f = strtof(z, NULL), d = 0;
        else d = strtod(z, NULL), f = 0;
        if (f32 ? isinf(f) : isinf(d)) return FAIL_RANGE(c, 0);
    }
    if (f32) c->v->kind = RC_V_FLOAT32, c->v->f32 = f;
    else c->v->kind = RC_V_FLOAT64, c->v->f64 = d;
    return RC_OK;
}

static rc_status read_bytea(const vctx *c)
{
    size_t i = 0, bad;
    if (!lit_at(c, &i, "\\x", &bad)) return FAIL(c, bad);
    /* checked and decoded in one pass: the digit pairs after \x, high nibble first */
    size_t nb = (c->n - 2) / 2;
    unsigned char *d = rc_arena_alloc(c->a, nb + 1);
    if (!d) return RC_ERR_NOMEM;
    for (; i < c->n; i++) {
        unsigned char ch = (unsigned char)c->s[i];
        unsigned h = ch >= '0' && ch <= '9' ? ch - '0' : (ch | 0x20) >= 'a' && (ch | 0x20) <= 'f' ? (ch | 0x20) - 'a' + 10 : 16;
        if (h == 16) return FAIL(c, i);
        if (i % 2 == 0) d[(i - 2) / 2] = (unsigned char)(h << 4);
        else d[(i - 2) / 2] |= (unsigned char)h;
    }
    if ((c->n - 2) % 2) return FAIL(c, c->n);
    c->v->kind = RC_V_BYTES;
    c->v->s = (rc_str){(const char *)d, nb};
    return RC_OK;
}

/* A date as the server writes it: YYYY-MM-DD (four or more year digits), " BC" later. */
typedef struct ymd {
    int32_t y;
    uint32_t m, d;
    size_t at; /* offset of the year, for errors */
} ymd;

static rc_status read_ymd(const vctx *c, size_t *i, ymd *o)
{
    size_t bad;
    uint64_t yy;
    o->at = *i;
    size_t k = digits(c, i, &yy);
    if (k < 4) return FAIL(c, *i);
    if (k > 7 || yy > 5874897) return FAIL_RANGE(c, o->at); /* PostgreSQL's last date is 5874897-12-31 */
    if (!lit_at(c, i, "-", &bad) || !fixed_digits(c, i, 2, &o->m, &bad) || !lit_at(c, i, "-", &bad) || !fixed_digits(c, i, 2, &o->d, &bad))
        return FAIL(c, bad);
    o->y = (int32_t)yy;
    return RC_OK;
}

/* The end of a date or timestamp at s[*i]: nothing or " BC" (year Y BC is astronomical year
 * 1 - Y, as in ISO 8601), then the check of the day against the month of that year. */
static rc_status end_ymd(const vctx *c, size_t *i, ymd *o)
{
    size_t bad;
    bool bc = *i < c->n;
    if (bc && !lit_at(c, i, " BC", &bad)) return FAIL(c, bad);
    if (*i != c->n) return FAIL(c, *i);
    if (o->y == 0) return FAIL_RANGE(c, o->at); /* there is no year 0, AD or BC */
    if (bc) o->y = 1 - o->y;
    if (o->m < 1 || o->m > 12 || o->d < 1 || o->d > rc_days_in_month(o->y, o->m)) return FAIL_RANGE(c, o->at);
    return RC_OK;
}

static rc_status read_date(const vctx *c)
{
    if (special(c, date_specials)) return RC_OK;
    size_t i = 0;
    ymd d;
    rc_status st;
    if ((st = read_ymd(c, &i, &d)) != RC_OK || (st = end_ymd(c, &i, &d)) != RC_OK) return st;
    c->v->kind = RC_V_DATE;
    c->v->date = (rc_date){d.y, (uint8_t)d.m, (uint8_t)d.d};
    return RC_OK;
}

/* HH:MM:SS[.f{1,6}] at s[*i]; hours up to `max_hour` (24 only as 24:00:00). Read by
 * rc_parse_time once its layout is checked here (for the offset of a bad byte). */
static rc_status read_clock(const vctx *c, size_t *i, uint32_t max_hour, rc_time *t)
{
    size_t st = *i, bad;
    uint32_t h, mi, se;
    if (!fixed_digits(c, i, 2, &h, &bad) || !lit_at(c, i, ":", &bad) || !fixed_digits(c, i, 2, &mi, &bad) || !lit_at(c, i, ":", &bad) ||
        !fixed_digits(c, i, 2, &se, &bad))
        return FAIL(c, bad);
    uint32_t nanos = 0;
    if (*i < c->n && c->s[*i] == '.') {
        (*i)++;
        size_t k = digits(c, i, NULL);
        if (!k) return FAIL(c, *i);
        if (k > 6) return FAIL(c, *i - k + 6); /* microseconds at most */
        for (size_t j = *i - k; j < *i; j++) nanos = nanos * 10 + (uint32_t)(c->s[j] - '0');
        for (size_t j = k; j < 9; j++) nanos *= 10;
    }
    /* the layout is checked above: the fields are the value (no second parse of the text) */
    if (h > max_hour || mi > 59 || se > 59 || (h == 24 && (mi || se || nanos))) return FAIL_RANGE(c, st);
    *t = (rc_time){.hour = h, .minute = (uint8_t)mi, .second = (uint8_t)se, .nanos = nanos};
    return RC_OK;
}

/* +HH[:MM[:SS]] at s[*i] -> seconds east of UTC. */
static rc_status read_offset(const vctx *c, size_t *i, int32_t *off)
{
    size_t st = *i, bad;
    if (*i >= c->n || (c->s[*i] != '+' && c->s[*i] != '-')) return FAIL(c, *i);
    bool neg = c->s[(*i)++] == '-';
    uint32_t h, m = 0, s = 0;
    if (!fixed_digits(c, i, 2, &h, &bad)) return FAIL(c, bad);
    if (*i < c->n && c->s[*i] == ':') {
        (*i)++;
        if (!fixed_digits(c, i, 2, &m, &bad)) return FAIL(c, bad);
        if (*i < c->n && c->s[*i] == ':') {
            (*i)++;
            if (!fixed_digits(c, i, 2, &s, &bad)) return FAIL(c, bad);
        }
    }
    if (h > 15 || m > 59 || s > 59) return FAIL_RANGE(c, st); /* PostgreSQL's offsets stay within ±15:59:59 */
    *off = (int32_t)(h * 3600 + m * 60 + s) * (neg ? -1 : 1);
    return RC_OK;
}

static rc_status read_time(const vctx *c)
{
    size_t i = 0;
    rc_status st = read_clock(c, &i, 24, &c->v->time);
    if (st != RC_OK) return st;
    if (i != c->n) return FAIL(c, i);
    c->v->kind = RC_V_TIME;
    return RC_OK;
}

/* timetz has no canonical kind (a time of day with an offset): its text is kept, checked. */
static rc_status read_timetz(const vctx *c)
{
    size_t i = 0;
    rc_time t;
    int32_t off;
    rc_status st;
    if ((st = read_clock(c, &i, 24, &t)) != RC_OK || (st = read_offset(c, &i, &off)) != RC_OK) return st;
    if (i != c->n) return FAIL(c, i);
    return copy_text(c, RC_V_TEXT);
}

static rc_status read_timestamp(const vctx *c, bool tz)
{
    if (special(c, date_specials)) return RC_OK;
    size_t i = 0, bad;
    int32_t off = 0;
    ymd d;
    rc_time t;
    rc_status st;
    if ((st = read_ymd(c, &i, &d)) != RC_OK) return st;
    if (!lit_at(c, &i, " ", &bad)) return FAIL(c, bad);
    if ((st = read_clock(c, &i, 23, &t)) != RC_OK) return st;
    if (tz && (st = read_offset(c, &i, &off)) != RC_OK) return st;
    if ((st = end_ymd(c, &i, &d)) != RC_OK) return st;
    if (tz) {
        c->v->kind = RC_V_TIMESTAMP;
        c->v->ts.sec = rc_days_from_civil(d.y, d.m, d.d) * 86400 + (int64_t)t.hour * 3600 + t.minute * 60 + t.second - off;
        c->v->ts.nanos = t.nanos;
    } else {
        c->v->kind = RC_V_DATETIME;
        c->v->dt = (rc_datetime){.year = d.y, .month = (uint8_t)d.m, .day = (uint8_t)d.d, .hour = (uint8_t)t.hour,
                                 .minute = t.minute, .second = t.second, .nanos = t.nanos};
    }
    return RC_OK;
}

/* IntervalStyle postgres: "N year[s] N mon[s] N day[s] H:MM:SS[.f]", any part absent,
 * "00:00:00" for zero; each part signed ('+' on a positive part after a negative one:
 * "-1 years +1 day"). Kept as the text (RC_V_INTERVAL). */
static rc_status read_interval(const vctx *c)
{
    static const char *const units[] = {"years", "year", "mons", "mon", "days", "day"};
    size_t i = 0, bad;
    int next_unit = 0; /* units come in this order, each once */
    for (;;) {
        size_t st = i;
        if (i < c->n && (c->s[i] == '-' || c->s[i] == '+')) i++;
        size_t k = digits(c, &i, NULL);
        if (!k) return FAIL(c, i);
        if (i < c->n && c->s[i] == ':') { /* the time part, hours unbounded, last */
            uint32_t mi, se;
            i++;
            if (!fixed_digits(c, &i, 2, &mi, &bad) || !lit_at(c, &i, ":", &bad) || !fixed_digits(c, &i, 2, &se, &bad)) return FAIL(c, bad);
            if (mi > 59 || se > 59) return FAIL_RANGE(c, st);
            if (i < c->n && c->s[i] == '.') {
                i++;
                size_t f = digits(c, &i, NULL);
                if (!f || f > 6) return FAIL(c, f ? i - f + 6 : i);
            }
            if (i != c->n) return FAIL(c, i);
            break;
        }
        if (!lit_at(c, &i, " ", &bad)) return FAIL(c, bad);
        size_t u = (size_t)next_unit * 2, ul = 0;
        for (; u < 6; u++) {
            ul = strlen(units[u]);
            if (c->n - i >= ul && !memcmp(c->s + i, units[u], ul) && (i + ul == c->n || c->s[i + ul] == ' ')) break;
        }
        if (u == 6) return FAIL(c, i);
        i += ul;
        next_unit = (int)(u / 2) + 1;
        if (i == c->n) break;
        i++; /* the space */
    }
    return copy_text(c, RC_V_INTERVAL);
}

static rc_status read_uuid(const vctx *c)
{
    static const char layout[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
    for (size_t i = 0; i < sizeof layout - 1; i++) {
        char ch = i < c->n ? c->s[i] : 0;
        bool ok = layout[i] == 'x' ? ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')) : ch == layout[i];
        if (!ok || i >= c->n) return FAIL(c, i);
    }
    if (c->n != sizeof layout - 1) return FAIL(c, sizeof layout - 1);
    return copy_text(c, RC_V_TEXT);
}

static rc_status read_bits(const vctx *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->s[i] != '0' && c->s[i] != '1') return FAIL(c, i);
    if (c->t->width >= 0 && c->n != (size_t)c->t->width)
        return fail_at(c, RC_ERR_VALUE, c->n < (size_t)c->t->width ? c->n : (size_t)c->t->width, "as many binary digits as bit(n) declares");
    return copy_text(c, RC_V_TEXT);
}

static rc_status dispatch(const vctx *c);

/* Checks one element, s[st..end) of the literal (quoted: with its quotes), with the element
 * type's reader; NULL is SQL NULL. The element's value is not kept. */
static rc_status check_elem(const vctx *c, size_t st, size_t end, bool quoted)
{
    if (!quoted && end - st == 4 && !memcmp(c->s + st, "NULL", 4)) return RC_OK;
    rc_pg_type et = *c->t;
    et.reader = c->t->elem_reader, et.width = c->t->elem_width;
    rc_value ev;
    memset(&ev, 0, sizeof ev);
    vctx ec = {&et, c->col, c->s + st, end - st, c->a, &ev, c->err, st, 1};
    if (quoted) { /* without the quotes and the backslashes before escaped characters */
        char *u = rc_arena_alloc(c->a, end - st);
        if (!u) return RC_ERR_NOMEM;
        size_t k = 0;
        for (size_t i = st + 1; i + 1 < end; i++) u[k++] = c->s[i] == '\\' ? c->s[++i] : c->s[i];
        ec.s = u, ec.n = k, ec.elem = 2;
    }
    return dispatch(&ec);
}

/* An array literal as array_out writes it: optional bounds "[1:2][0:1]=", then nested
 * braces; elements are NULL, unquoted text without whitespace and the characters {}",\ and
 * the delimiter, or "quoted" with \ escapes. The structure is checked, the text kept. */
static rc_status read_array(const vctx *c)
{
    size_t i = 0, bad;
    if (i < c->n && c->s[i] == '[') { /* lower bounds other than 1 */
        while (i < c->n && c->s[i] == '[') {
            i++;
            if (i < c->n && c->s[i] == '-') i++;
            if (!digits(c, &i, NULL)) return FAIL(c, i);
            if (!lit_at(c, &i, ":", &bad)) return FAIL(c, bad);
            if (i < c->n && c->s[i] == '-') i++;
            if (!digits(c, &i, NULL)) return FAIL(c, i);
            if (!lit_at(c, &i, "]", &bad)) return FAIL(c, bad);
        }
        if (!lit_at(c, &i, "=", &bad)) return FAIL(c, bad);
    }
    int depth = 0;
    bool need_elem = false; /* after a delimiter */
    if (i >= c->n || c->s[i] != '{') return FAIL(c, i);
    while (i < c->n) {
        char ch = c->s[i];
        if (ch == '{') {
            if (depth && !need_elem && c->s[i - 1] != '{') return FAIL(c, i);
            if (++depth > 6) return fail_at(c, RC_ERR_VALUE, i, "at most 6 dimensions (PostgreSQL's MAXDIM)");
            i++;
            need_elem = false;
            continue;
        }
        if (ch == '}') {
            if (need_elem) return FAIL(c, i);
            i++;
            if (--depth == 0) break;
        } else if (c->s[i - 1] != '{' && !need_elem) {
            return FAIL(c, i);
        } else if (ch == '"') {
            size_t st = i;
            for (i++;; i++) {
                if (i >= c->n) return FAIL(c, i);
                if (c->s[i] == '\\') {
                    if (++i >= c->n) return FAIL(c, i);
                } else if (c->s[i] == '"') {
                    break;
                }
            }
            i++;
            rc_status st2 = check_elem(c, st, i, true);
            if (st2 != RC_OK) return st2;
        } else {
            size_t st = i;
            while (i < c->n && c->s[i] != '{' && c->s[i] != '}' && c->s[i] != '"' && c->s[i] != '\\' && c->s[i] != c->t->delim &&
                   c->s[i] != ' ' && c->s[i] != '\t' && c->s[i] != '\n' && c->s[i] != '\r' && c->s[i] != '\v' && c->s[i] != '\f')
                i++;
            if (i == st) return FAIL(c, i);
            rc_status st2 = check_elem(c, st, i, false);
            if (st2 != RC_OK) return st2;
        }
        need_elem = false;
        if (i < c->n && c->s[i] == c->t->delim) {
            i++;
            need_elem = true;
        } else if (i < c->n && c->s[i] != '}') {
            return FAIL(c, i);
        }
    }
    if (depth) return FAIL(c, i);
    if (i != c->n) return FAIL(c, i);
    return copy_text(c, RC_V_TEXT);
}

static rc_status dispatch(const vctx *c)
{
    switch (c->t->reader) {
    case RC_PG_R_INT: return read_int(c);
    case RC_PG_R_NUMERIC: return read_numeric(c);
    case RC_PG_R_FLOAT4: return read_float(c, true);
    case RC_PG_R_FLOAT8: return read_float(c, false);
    case RC_PG_R_BOOL:
        if (c->n == 1 && (c->s[0] == 't' || c->s[0] == 'f')) return c->v->kind = RC_V_BOOL, c->v->b = c->s[0] == 't', RC_OK;
        return FAIL(c, c->n == 1 || !c->n ? 0 : 1);
    case RC_PG_R_TEXT: return copy_text(c, RC_V_TEXT);
    case RC_PG_R_BYTEA: return read_bytea(c);
    case RC_PG_R_DATE: return read_date(c);
    case RC_PG_R_TIME: return read_time(c);
    case RC_PG_R_TIMETZ: return read_timetz(c);
    case RC_PG_R_TIMESTAMP: return read_timestamp(c, false);
    case RC_PG_R_TIMESTAMPTZ: return read_timestamp(c, true);
    case RC_PG_R_INTERVAL: return read_interval(c);
    case RC_PG_R_JSON: return copy_text(c, RC_V_JSON);
    case RC_PG_R_UUID: return read_uuid(c);
    case RC_PG_R_BITS: return read_bits(c);
    case RC_PG_R_ENUM: return copy_text(c, RC_V_ENUM);
    case RC_PG_R_ARRAY: return c->elem ? RC_ERR_TYPE : read_array(c); /* elements are never arrays */
    case RC_PG_R_COUNT: break;
    }
    return rc_error_set(c->err, RC_ERR_TYPE, RC_NO_OFFSET, "column \"%.*s\": no reader for its type", (int)c->col->name.n, c->col->name.p);
}

rc_status rc_pg_value_parse(const rc_pg_type *t, const rc_column *col, const char *s, size_t n, rc_arena *a, rc_value *out,
                            rc_error *err)
{
    memset(out, 0, sizeof *out);
    vctx c = {t, col, s, n, a, out, err, 0, 0};
    return dispatch(&c);
}
