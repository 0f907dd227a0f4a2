/* Upstream Debezium, PostgreSQL columns: the types whose canonical value is PostgreSQL's own
 * text (timetz, money, interval, bit strings, point, arrays) turned into what Debezium's
 * PostgreSQL connector writes for them in its default configuration (PostgresValueConverter;
 * docs/sources/postgres.md, "What upstream Debezium gets"). A text these readers do not
 * accept is reported (RC_SKIP with the reason): the event is not expressible, never cut. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_upstream.h"
#include "core/fmt.h"
#include "core/jsonw.h"

dbz_pg_kind rc_dbz_pg_kind_of(const rc_type_info *t)
{
    static const struct {
        const char *name;
        dbz_pg_kind kind;
    } names[] = {
        {"uuid", DBZ_PG_UUID},
        {"xml", DBZ_PG_XML},
        {"tsvector", DBZ_PG_TSVECTOR},
        {"timetz", DBZ_PG_TIMETZ},
        {"time with time zone", DBZ_PG_TIMETZ},
        {"money", DBZ_PG_MONEY},
        {"bit", DBZ_PG_BITS},
        {"bit varying", DBZ_PG_BITS},
        {"varbit", DBZ_PG_BITS},
        {"point", DBZ_PG_POINT},
        {"array", DBZ_PG_ARRAY},
        {"real", DBZ_PG_FLOAT4},
        {"float4", DBZ_PG_FLOAT4},
        {"character", DBZ_PG_NONE},
        {"tsquery", DBZ_PG_UNKNOWN},
        {"int4multirange", DBZ_PG_UNKNOWN},
        {"int8multirange", DBZ_PG_UNKNOWN},
        {"nummultirange", DBZ_PG_UNKNOWN},
        {"tsmultirange", DBZ_PG_UNKNOWN},
        {"tstzmultirange", DBZ_PG_UNKNOWN},
        {"datemultirange", DBZ_PG_UNKNOWN},
        /* no converter up to Debezium 3.6: left out (3.7 maps them, debezium/dbz#2135: a
         * Geometry with an extensions map, Line and Circle structs; not written here) */
        {"line", DBZ_PG_UNKNOWN},
        {"lseg", DBZ_PG_UNKNOWN},
        {"box", DBZ_PG_UNKNOWN},
        {"path", DBZ_PG_UNKNOWN},
        {"polygon", DBZ_PG_UNKNOWN},
        {"circle", DBZ_PG_UNKNOWN},
        /* extensions' types (TypeRegistry: citext and isbn are strings; the other isn types, which
         * the connector does not know, are strings here too) and the types rowcast does not know */
        {"ltree", DBZ_PG_LTREE},
        {"hstore", DBZ_PG_HSTORE},
        {"unknown", DBZ_PG_OTHER},
        {"geometry", DBZ_PG_POSTGIS},
        {"geography", DBZ_PG_POSTGIS},
    };
    if (t->family != RC_FAM_PG) return DBZ_PG_NONE;
    if (t->vkind == RC_V_INTERVAL) return DBZ_PG_INTERVAL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(t->name, names[i].name)) return names[i].kind;
    return DBZ_PG_NONE;
}

static rc_status refuse(const rc_column *c, rc_error *err, const char *why)
{
    rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "column \"%.*s\" (%.*s): %s",
                 (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, why);
    return RC_SKIP;
}

static rc_status bad_text(const rc_column *c, rc_str s, const char *expect, rc_error *err)
{
    rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\" (%.*s): \"%.*s\" is not %s",
                 (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p,
                 (int)(s.n > 60 ? 60 : s.n), s.p, expect);
    return RC_SKIP;
}

/* Reads 1 to `max` digits at s[*i]; false when there is none. */
static bool digits(rc_str s, size_t *i, int max, int64_t *out)
{
    int64_t v = 0;
    int k = 0;
    for (; *i < s.n && s.p[*i] >= '0' && s.p[*i] <= '9' && k < max; (*i)++, k++)
        v = v * 10 + (s.p[*i] - '0');
    *out = v;
    return k > 0;
}

/* Fraction digits after a '.', as microseconds (at most 6 digits, as PostgreSQL writes them). */
static bool micros_of(rc_str s, size_t *i, int64_t *us)
{
    *us = 0;
    if (*i >= s.n || s.p[*i] != '.') return true;
    (*i)++;
    int k = 0;
    for (; *i < s.n && s.p[*i] >= '0' && s.p[*i] <= '9'; (*i)++, k++) {
        if (k >= 6) return false;
        *us = *us * 10 + (s.p[*i] - '0');
    }
    for (int j = k; j < 6; j++) *us *= 10;
    return k > 0;
}

rc_status rc_dbz_pg_timetz(rc_buf *b, const rc_column *c, rc_str s, rc_error *err)
{
    static const char expect[] = "a time with time zone such as 12:00:00.5+05:30";
    size_t i = 0;
    int64_t h, m, sec, us, oh, om = 0, os = 0;
    if (!digits(s, &i, 2, &h) || i >= s.n || s.p[i++] != ':' || !digits(s, &i, 2, &m) || i >= s.n ||
        s.p[i++] != ':' || !digits(s, &i, 2, &sec) || !micros_of(s, &i, &us) || i >= s.n ||
        (s.p[i] != '+' && s.p[i] != '-'))
        return bad_text(c, s, expect, err);
    int sign = s.p[i++] == '-' ? -1 : 1;
    if (!digits(s, &i, 2, &oh)) return bad_text(c, s, expect, err);
    if (i < s.n && s.p[i] == ':' && (++i, !digits(s, &i, 2, &om)))
        return bad_text(c, s, expect, err);
    if (i < s.n && s.p[i] == ':' && (++i, !digits(s, &i, 2, &os)))
        return bad_text(c, s, expect, err);
    if (i != s.n || m > 59 || sec > 59) return bad_text(c, s, expect, err);
    if (h > 23) /* 24:00:00: java.time's OffsetTime has no hour 24, the connector fails on it */
        return refuse(c, err,
                      "upstream Debezium cannot read the time 24:00:00 with a zone (its OffsetTime "
                      "stops at 23:59:59.999999)");
    int64_t day = 86400;
    int64_t t = ((h * 60 + m) * 60 + sec - sign * ((oh * 60 + om) * 60 + os)) % day;
    if (t < 0) t += day;
    /* java.time's ISO_OFFSET_TIME: HH:mm:ss, the fraction without trailing zeros, Z */
    char tmp[32];
    int n = snprintf(tmp, sizeof tmp, "\"%02d:%02d:%02d", (int)(t / 3600), (int)(t / 60 % 60),
                     (int)(t % 60));
    rc_buf_put(b, tmp, (size_t)n);
    if (us) {
        n = snprintf(tmp, sizeof tmp, ".%06d", (int)us);
        while (tmp[n - 1] == '0') n--;
        rc_buf_put(b, tmp, (size_t)n);
    }
    RC_BUF_LIT(b, "Z\"");
    return RC_OK;
}

rc_status rc_dbz_pg_money(const rc_column *c, rc_str s, rc_buf *dg, rc_decimal *out, rc_error *err)
{
    /* lc_monetary C (pinned by the source): -$1,234.56 */
    size_t i = 0;
    bool neg = i < s.n && s.p[i] == '-';
    if (neg) i++;
    if (i >= s.n || s.p[i++] != '$')
        return bad_text(c, s, "a money value such as -$1,234.56 (lc_monetary C)", err);
    rc_buf_reset(dg);
    int32_t scale = 0;
    bool dot = false, any = false;
    for (; i < s.n; i++) {
        char ch = s.p[i];
        if (ch >= '0' && ch <= '9') {
            if (ch != '0' || dg->len || dot) rc_buf_putc(dg, ch);
            if (dot) scale++;
            any = true;
        } else if (ch == ',' && !dot) {
            continue;
        } else if (ch == '.' && !dot) {
            dot = true;
        } else {
            return bad_text(c, s, "a money value such as -$1,234.56 (lc_monetary C)", err);
        }
    }
    if (!any) return bad_text(c, s, "a money value such as -$1,234.56 (lc_monetary C)", err);
    /* leading zeros of the fraction were kept: strip them from the front of the digit string */
    size_t lead = 0;
    while (lead + 1 < dg->len && dg->data[lead] == '0') lead++;
    if (!dg->len) rc_buf_putc(dg, '0');
    *out = (rc_decimal){dg->data + lead, (uint32_t)(dg->len - lead), scale, false};
    out->neg = neg && !(out->ndigits == 1 && out->digits[0] == '0');
    return dg->err == RC_OK ? RC_OK
                            : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

/* An interval's parts as pgjdbc's PGInterval holds them (each with its own sign). */
typedef struct pg_interval {
    int64_t years, months, days, hours, minutes, whole, us;
} pg_interval;

static rc_status interval_parts(const rc_column *c, rc_str s, pg_interval *out, rc_error *err)
{
    static const char expect[] = "an interval as PostgreSQL writes it (IntervalStyle postgres: 1 "
                                 "year 2 mons 3 days 04:05:06.789)";
    int64_t years = 0, months = 0, days = 0, hours = 0, minutes = 0, whole = 0, us = 0;
    size_t i = 0;
    if (!s.n) return bad_text(c, s, expect, err);
    while (i < s.n) {
        if (s.p[i] == ' ') {
            i++;
            continue;
        }
        int sign = 1;
        if (s.p[i] == '-' || s.p[i] == '+') sign = s.p[i++] == '-' ? -1 : 1;
        int64_t v;
        if (!digits(s, &i, 18, &v)) return bad_text(c, s, expect, err);
        if (i < s.n && s.p[i] == ':') { /* [-]HH:MM:SS[.ffffff]: the sign applies to every part */
            int64_t m, sec;
            i++;
            if (!digits(s, &i, 2, &m) || i >= s.n || s.p[i++] != ':' || !digits(s, &i, 2, &sec) ||
                !micros_of(s, &i, &us))
                return bad_text(c, s, expect, err);
            hours = sign * v, minutes = sign * m, whole = sign * sec, us *= sign;
            continue;
        }
        if (i >= s.n || s.p[i++] != ' ') return bad_text(c, s, expect, err);
        size_t w = i;
        while (i < s.n && s.p[i] >= 'a' && s.p[i] <= 'z') i++;
        rc_str unit = {s.p + w, i - w};
#define UNIT(a, b)                                                                                 \
    ((unit.n == sizeof(a) - 1 && !memcmp(unit.p, a, unit.n)) ||                                    \
     (unit.n == sizeof(b) - 1 && !memcmp(unit.p, b, unit.n)))
        if (UNIT("year", "years"))
            years = sign * v;
        else if (UNIT("mon", "mons"))
            months = sign * v;
        else if (UNIT("day", "days"))
            days = sign * v;
        else
            return bad_text(c, s, expect, err);
#undef UNIT
    }
    if (years > INT32_MAX || years < INT32_MIN || months > INT32_MAX || months < INT32_MIN ||
        days > INT32_MAX || days < INT32_MIN || hours > INT32_MAX || hours < INT32_MIN)
        return refuse(c, err,
                      "the interval does not fit the int fields upstream Debezium reads it into");
    *out = (pg_interval){years, months, days, hours, minutes, whole, us};
    return RC_OK;
}

rc_status rc_dbz_pg_interval(const rc_column *c, rc_str s, int64_t *out, rc_error *err)
{
    pg_interval p;
    rc_status st = interval_parts(c, s, &p, err);
    if (st != RC_OK) return st;
    int64_t years = p.years, months = p.months, days = p.days, hours = p.hours, minutes = p.minutes, whole = p.whole, us = p.us;
    /* MicroDuration.durationMicros in Java's double arithmetic, with pgjdbc's PGInterval seconds
     * (whole seconds + microseconds / 1e6) and 30.4375 days a month; truncated as Java's (long) */
    double seconds = (double)whole + (double)us / 1e6;
    /* (years * 12 + months) in Java's int arithmetic, which wraps */
    int32_t ym = (int32_t)(uint32_t)((uint64_t)years * 12u + (uint64_t)months);
    double ndays = (double)ym * 30.4375 + (double)days;
    double nsec = ((ndays * 24.0 + (double)hours) * 60.0 + (double)minutes) * 60.0 + seconds;
    double total = nsec * 1000000.0;
    if (!(total < 9.2233720368547758e18 && total > -9.2233720368547758e18))
        return refuse(
            c, err,
            "the interval is beyond the int64 microseconds of io.debezium.time.MicroDuration");
    *out = (int64_t)total;
    return RC_OK;
}

/* interval.handling.mode=string: Interval.toIsoString of PGInterval's parts, "P1Y2M3DT4H5M6.78S",
 * every part written; the seconds as BigDecimal.valueOf(double).stripTrailingZeros()
 * .toPlainString() writes them, which for whole seconds and microseconds is their decimal text
 * without trailing zeros ("0" for none), made here from the digits. */
rc_status rc_dbz_pg_interval_iso(rc_buf *b, const rc_column *c, rc_str s, rc_error *err)
{
    pg_interval p;
    rc_status st = interval_parts(c, s, &p, err);
    if (st != RC_OK) return st;
    char text[160];
    int64_t whole = p.whole < 0 ? -p.whole : p.whole, us = p.us < 0 ? -p.us : p.us;
    int n = snprintf(text, sizeof text, "P%" PRId64 "Y%" PRId64 "M%" PRId64 "DT%" PRId64 "H%" PRId64 "M%s%" PRId64, p.years,
                     p.months, p.days, p.hours, p.minutes, (p.whole < 0 || p.us < 0) && (whole || us) ? "-" : "", whole);
    if (us) {
        char frac[8];
        snprintf(frac, sizeof frac, "%06" PRId64, us % 1000000);
        for (int k = 5; k > 0 && frac[k] == '0'; k--) frac[k] = 0;
        n += snprintf(text + n, sizeof text - (size_t)n, ".%s", frac);
    }
    rc_buf_put(b, text, (size_t)n);
    rc_buf_putc(b, 'S');
    return b->err == RC_OK ? RC_OK : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

rc_status rc_dbz_pg_bits(rc_buf *b, rc_buf *scratch, const rc_column *c, rc_str s, rc_error *err)
{
    for (size_t i = 0; i < s.n; i++)
        if (s.p[i] != '0' && s.p[i] != '1') return bad_text(c, s, "a bit string of 0 and 1", err);
    if (c->type.p1 == 1) { /* bit(1), varbit(1): boolean */
        rc_buf_puts(b, s.n && s.p[s.n - 1] == '1' ? "true" : "false");
        return RC_OK;
    }
    /* io.debezium.data.Bits: little-endian bytes, as many as the highest 1 bit needs (the
     * connector sizes them by the value, not by the declared length) */
    size_t high = 0; /* bits up to and including the highest 1, counted from the right */
    for (size_t i = 0; i < s.n; i++)
        if (s.p[i] == '1') {
            high = s.n - i;
            break;
        }
    size_t nb = (high + 7) / 8;
    rc_buf_reset(scratch);
    for (size_t k = 0; k < nb; k++) {
        unsigned char byte = 0;
        for (size_t bit = 0; bit < 8; bit++) {
            size_t from_right = k * 8 + bit;
            if (from_right < s.n && s.p[s.n - 1 - from_right] == '1')
                byte |= (unsigned char)(1u << bit);
        }
        rc_buf_putc(scratch, (char)byte);
    }
    rc_buf_putc(b, '"');
    rc_fmt_base64(b, (const unsigned char *)scratch->data, scratch->len);
    rc_buf_putc(b, '"');
    return scratch->err == RC_OK ? RC_OK
                                 : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

rc_status rc_dbz_pg_point_wkt(const rc_column *c, rc_str s, rc_buf *wkt, rc_error *err)
{
    /* (x,y) -> POINT(x y) for the WKB writer */
    const char *comma = s.n > 4 ? memchr(s.p, ',', s.n) : NULL;
    if (!comma || s.p[0] != '(' || s.p[s.n - 1] != ')')
        return bad_text(c, s, "a point such as (1.5,-2)", err);
    rc_buf_reset(wkt);
    RC_BUF_LIT(wkt, "POINT(");
    rc_buf_put(wkt, s.p + 1, (size_t)(comma - s.p - 1));
    rc_buf_putc(wkt, ' ');
    rc_buf_put(wkt, comma + 1, (size_t)(s.p + s.n - 1 - comma - 1));
    rc_buf_putc(wkt, ')');
    return wkt->err == RC_OK ? RC_OK
                             : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

/* Array p of `size`-byte items holding *cap with room for item n: p itself, or a copy twice
 * its size in the arena when full; NULL when out of memory. */
static void *arena_room(rc_arena *a, void *p, size_t n, size_t *cap, size_t size)
{
    if (n < *cap) return p;
    void *np = rc_arena_alloc(a, *cap * 2 * size);
    if (np) memcpy(np, p, n * size), *cap *= 2;
    return np;
}

rc_status rc_dbz_pg_array_split(const rc_column *c, rc_str s, char delim, rc_arena *a, dbz_pg_elem **out,
                             size_t *count, rc_error *err)
{
    static const char expect[] = "an array literal";
    *count = 0;
    if (s.n && s.p[0] == '[')
        return refuse(c, err,
                      "upstream Debezium writes arrays from 1, this one has explicit bounds");
    if (s.n < 2 || s.p[0] != '{' || s.p[s.n - 1] != '}') return bad_text(c, s, expect, err);
    size_t cap = 8, n = 0;
    dbz_pg_elem *el = rc_arena_alloc(a, cap * sizeof *el);
    char *buf = rc_arena_alloc(a, s.n);
    if (!el || !buf) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    size_t i = 1, used = 0;
    if (s.n == 2) {
        *out = el;
        return RC_OK;
    }
    while (i < s.n - 1) {
        if (s.p[i] == '{')
            return refuse(c, err,
                          "upstream Debezium writes one-dimensional arrays only (its Kafka Connect "
                          "array schema has one level)");
        dbz_pg_elem e = {{buf + used, 0}, false};
        if (s.p[i] == '"') {
            for (i++; i < s.n - 1 && s.p[i] != '"'; i++) {
                if (s.p[i] == '\\' && i + 1 < s.n - 1) i++;
                buf[used++] = s.p[i];
            }
            if (i >= s.n - 1) return bad_text(c, s, expect, err);
            i++;
        } else {
            for (; i < s.n - 1 && s.p[i] != delim; i++) buf[used++] = s.p[i];
            e.null = used - (size_t)(e.text.p - buf) == 4 && !memcmp(e.text.p, "NULL", 4);
        }
        e.text.n = used - (size_t)(e.text.p - buf);
        if (!(el = arena_room(a, el, n, &cap, sizeof *el))) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        el[n++] = e;
        if (i < s.n - 1) {
            if (s.p[i] != delim) return bad_text(c, s, expect, err);
            i++;
        }
    }
    *out = el;
    *count = n;
    return RC_OK;
}

int rc_dbz_pg_infinity(rc_str s)
{
    if (s.n == 8 && !memcmp(s.p, "infinity", 8)) return 1;
    if (s.n == 9 && !memcmp(s.p, "-infinity", 9)) return -1;
    return 0;
}

int64_t rc_dbz_pg_infinity_days(int sign)
{
    /* PostgresValueConverter's POSITIVE_INFINITY_LOCAL_DATE (-5877611-06-21) and
     * NEGATIVE_INFINITY_LOCAL_DATE (-5877611-06-22), as the connector defines them */
    return rc_days_from_civil(-5877611, 6, sign > 0 ? 21 : 22);
}

int64_t rc_dbz_pg_infinity_micros(int sign)
{
    /* pgjdbc's PGStatement.DATE_POSITIVE_INFINITY / DATE_NEGATIVE_INFINITY, which the connector's
     * POSITIVE_/NEGATIVE_INFINITY_INSTANT read as microseconds */
    return sign > 0 ? INT64_C(9223372036825200000) : INT64_C(-9223372036832400000);
}

/* ---- hstore ---- */

typedef struct hs_pair {
    rc_str key, val;
    bool null;
    uint32_t bucket; /* the key's bucket in the Java HashMap */
} hs_pair;

/* A quoted string of hstore's output at s.p[*i] ("..." with \ escapes) unescaped into the arena. */
static bool hs_quoted(rc_str s, size_t *i, rc_arena *a, rc_str *out)
{
    if (*i >= s.n || s.p[*i] != '"') return false;
    char *w = rc_arena_alloc(a, s.n - *i + 1);
    if (!w) return false;
    size_t n = 0;
    for ((*i)++; *i < s.n && s.p[*i] != '"'; (*i)++) {
        if (s.p[*i] == '\\' && *i + 1 < s.n) (*i)++;
        w[n++] = s.p[*i];
    }
    if (*i >= s.n) return false;
    (*i)++;
    *out = (rc_str){w, n};
    return true;
}

/* java.lang.String.hashCode of UTF-8 text s (over its UTF-16 code units), spread as HashMap's
 * hash() does (h ^ h >>> 16). */
static uint32_t java_hash(rc_str s)
{
    uint32_t h = 0;
    for (size_t i = 0; i < s.n;) {
        unsigned char c = (unsigned char)s.p[i];
        uint32_t cp = c, more = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
        if (more) cp = c & (0x3F >> more);
        for (i++; more && i < s.n; more--, i++) cp = (cp << 6) | ((unsigned char)s.p[i] & 0x3F);
        if (cp >= 0x10000) {
            cp -= 0x10000;
            h = 31 * h + (0xD800 + (cp >> 10));
            cp = 0xDC00 + (cp & 0x3FF);
        }
        h = 31 * h + cp;
    }
    return h ^ (h >> 16);
}

rc_status rc_dbz_pg_hstore_json(rc_buf *b, rc_arena *a, const rc_column *c, rc_str s, rc_error *err)
{
    static const char expect[] = "an hstore text such as \"a\"=>\"1\", \"b\"=>NULL";
    size_t cap = 8, n = 0, i = 0;
    hs_pair *p = rc_arena_alloc(a, cap * sizeof *p);
    if (!p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    while (i < s.n) {
        hs_pair x = {0};
        if (!hs_quoted(s, &i, a, &x.key) || i + 2 > s.n || memcmp(s.p + i, "=>", 2)) return bad_text(c, s, expect, err);
        i += 2;
        if (i + 4 <= s.n && !memcmp(s.p + i, "NULL", 4)) x.null = true, i += 4;
        else if (!hs_quoted(s, &i, a, &x.val)) return bad_text(c, s, expect, err);
        if (!(p = arena_room(a, p, n, &cap, sizeof *p))) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        p[n++] = x;
        if (i < s.n && (i + 2 > s.n || memcmp(s.p + i, ", ", 2))) return bad_text(c, s, expect, err);
        if (i < s.n) i += 2;
    }
    /* HashMap's table: 16 buckets, doubled while the pairs pass three quarters of them; its
     * iteration goes by bucket, each bucket's pairs in the order they were put */
    size_t buckets = 16;
    while (n > buckets / 4 * 3) buckets *= 2;
    for (size_t k = 0; k < n; k++) p[k].bucket = java_hash(p[k].key) & (uint32_t)(buckets - 1);
    for (size_t k = 1; k < n; k++) /* insertion sort: stable */
        for (size_t j = k; j > 0 && p[j - 1].bucket > p[j].bucket; j--) {
            hs_pair t = p[j];
            p[j] = p[j - 1], p[j - 1] = t;
        }
    rc_buf_putc(b, '{');
    for (size_t k = 0; k < n; k++) {
        if (k) rc_buf_putc(b, ',');
        rc_jw_str(b, p[k].key.p, p[k].key.n);
        rc_buf_putc(b, ':');
        if (p[k].null) RC_BUF_LIT(b, "null");
        else rc_jw_str(b, p[k].val.p, p[k].val.n);
    }
    rc_buf_putc(b, '}');
    return b->err == RC_OK ? RC_OK : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

/* ---- PostGIS ---- */

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

rc_status rc_dbz_pg_ewkb(const rc_column *c, rc_str s, rc_buf *wkb, rc_wkb_info *info, rc_error *err)
{
    static const char expect[] = "PostGIS's hex EWKB (0101000020E6100000...)";
    rc_buf_reset(wkb);
    *info = (rc_wkb_info){0};
    if (s.n % 2 || s.n < 10) return bad_text(c, s, expect, err);
    for (size_t i = 0; i < s.n; i += 2) {
        int hi = hex_digit(s.p[i]), lo = hex_digit(s.p[i + 1]);
        if (hi < 0 || lo < 0) return bad_text(c, s, expect, err);
        rc_buf_putc(wkb, (char)(hi << 4 | lo));
    }
    if (wkb->err != RC_OK) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    /* byte order, type (EWKB's 0x20000000: an SRID follows), SRID: in that order */
    const unsigned char *p = (const unsigned char *)wkb->data;
    bool le = p[0] == 1;
    if (p[0] > 1) return bad_text(c, s, expect, err);
    uint32_t u[2] = {0, 0};
    for (int k = 0; k < 2 && 5 + 4 * (size_t)k <= wkb->len; k++) {
        const unsigned char *q = p + 1 + 4 * k;
        u[k] = le ? (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 | (uint32_t)q[3] << 24
                  : (uint32_t)q[3] | (uint32_t)q[2] << 8 | (uint32_t)q[1] << 16 | (uint32_t)q[0] << 24;
    }
    if (u[0] & 0x20000000u) {
        if (wkb->len < 9) return bad_text(c, s, expect, err);
        info->has_srid = true, info->srid = (int32_t)u[1];
    }
    return RC_OK;
}
