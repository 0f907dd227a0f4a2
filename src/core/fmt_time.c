/* Calendar arithmetic and the date/time layouts of docs/formats/oms-values.md and debezium.md. */
#include <string.h>
#include "core/fmt.h"

/* Howard Hinnant's days_from_civil / civil_from_days (proleptic Gregorian). */
int64_t rc_days_from_civil(int32_t y, unsigned m, unsigned d)
{
    int64_t yy = (int64_t)y - (m <= 2);
    int64_t era = (yy >= 0 ? yy : yy - 399) / 400;
    unsigned yoe = (unsigned)(yy - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - 719468;
}

void rc_civil_from_days(int64_t z, int32_t *y, unsigned *m, unsigned *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    unsigned doe = (unsigned)(z - era * 146097);
    unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t yy = (int64_t)yoe + era * 400;
    unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    unsigned mp = (5 * doy + 2) / 153;
    *d = doy - (153 * mp + 2) / 5 + 1;
    *m = mp < 10 ? mp + 3 : mp - 9;
    *y = (int32_t)(yy + (*m <= 2));
}

unsigned rc_days_in_month(int32_t y, unsigned m)
{
    static const uint8_t mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    return mdays[m - 1] + (m == 2 && leap);
}

bool rc_date_valid(int32_t y, unsigned m, unsigned d)
{
    if (y < 0 || y > 9999 || m < 1 || m > 12 || d < 1) return false;
    return d <= rc_days_in_month(y, m);
}

static void put_num(rc_buf *b, uint64_t v, int width)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n < width) tmp[n++] = '0';
    char *w = rc_buf_reserve(b, (size_t)n);
    if (!w) return;
    for (int i = 0; i < n; i++) w[i] = tmp[n - 1 - i];
    rc_buf_commit(b, (size_t)n);
}

/* Two decimal digits of v < 100 at w. */
static void put2(char *w, unsigned v) { memcpy(w, rc_fmt_digits2 + 2 * v, 2); }

/* The fraction of rc_fmt_frac at f (room for 10 bytes); its length. */
static size_t frac_at(char *f, uint32_t nanos)
{
    if (!nanos) return 0;
    f[0] = '.';
    for (int i = 8; i >= 2; i -= 2) { /* nine digits, two at a time */
        put2(f + i, nanos % 100);
        nanos /= 100;
    }
    f[1] = (char)('0' + nanos);
    size_t len = 10;
    while (f[len - 1] == '0') len--;
    return len;
}

void rc_fmt_frac(rc_buf *b, uint32_t nanos)
{
    char f[10];
    size_t len = frac_at(f, nanos);
    if (len) rc_buf_put(b, f, len);
}

void rc_fmt_frac_digits(rc_buf *b, uint32_t v, int digits)
{
    if (digits < 1 || digits > 9) return; /* no fraction has more digits than nanoseconds */
    char f[10];
    f[0] = '.';
    for (int i = digits; i >= 1; i--, v /= 10) f[i] = (char)('0' + v % 10);
    rc_buf_put(b, f, (size_t)digits + 1);
}

static void put_ymd(rc_buf *b, int32_t y, unsigned m, unsigned d)
{
    if (y >= 0 && y <= 9999 && m < 100 && d < 100) { /* the usual case in one reservation */
        char *w = rc_buf_reserve(b, 10);
        if (!w) return;
        put2(w, (unsigned)y / 100), put2(w + 2, (unsigned)y % 100);
        w[4] = '-', put2(w + 5, m), w[7] = '-', put2(w + 8, d);
        rc_buf_commit(b, 10);
        return;
    }
    if (y < 0) {
        rc_buf_putc(b, '-');
        put_num(b, (uint64_t)(-(int64_t)y), 4);
    } else {
        put_num(b, (uint64_t)y, 4);
    }
    rc_buf_putc(b, '-');
    put_num(b, m, 2);
    rc_buf_putc(b, '-');
    put_num(b, d, 2);
}

/* HH:MM:SS and the fraction at w (room for 18 bytes), each of h, mi, s below 100; the end. */
static char *hms_at(char *w, unsigned h, unsigned mi, unsigned s, uint32_t nanos)
{
    put2(w, h), w[2] = ':', put2(w + 3, mi), w[5] = ':', put2(w + 6, s);
    return w + 8 + frac_at(w + 8, nanos);
}

static void put_hms(rc_buf *b, uint64_t h, unsigned mi, unsigned s, uint32_t nanos)
{
    if (h < 100 && mi < 100 && s < 100) { /* the usual case in one reservation, the fraction's room included */
        char *w = rc_buf_reserve(b, 18);
        if (!w) return;
        rc_buf_commit(b, (size_t)(hms_at(w, (unsigned)h, mi, s, nanos) - w));
        return;
    }
    put_num(b, h, 2);
    rc_buf_putc(b, ':');
    put_num(b, mi, 2);
    rc_buf_putc(b, ':');
    put_num(b, s, 2);
    rc_fmt_frac(b, nanos);
}

void rc_fmt_date(rc_buf *b, const rc_date *d) { put_ymd(b, d->year, d->month, d->day); }

void rc_fmt_time(rc_buf *b, const rc_time *t)
{
    if (t->neg) rc_buf_putc(b, '-');
    put_hms(b, t->hour, t->minute, t->second, t->nanos);
}

void rc_fmt_datetime(rc_buf *b, const rc_datetime *dt, char sep, bool with_zone)
{
    put_ymd(b, dt->year, dt->month, dt->day);
    rc_buf_putc(b, sep);
    put_hms(b, dt->hour, dt->minute, dt->second, dt->nanos);
    if (with_zone && dt->zone.n) {
        rc_buf_putc(b, ' ');
        rc_buf_put(b, dt->zone.p, dt->zone.n);
    }
}

int64_t rc_floor_div(int64_t a, int64_t b) { return a / b - (a % b != 0 && (a < 0) != (b < 0)); }

static void put_instant(rc_buf *b, int64_t sec, uint32_t nanos, char sep)
{
    int64_t days = rc_floor_div(sec, 86400);
    int64_t rem = sec - days * 86400;
    int32_t y;
    unsigned m, d;
    rc_civil_from_days(days, &y, &m, &d);
    put_ymd(b, y, m, d);
    rc_buf_putc(b, sep);
    put_hms(b, (uint64_t)(rem / 3600), (unsigned)(rem / 60 % 60), (unsigned)(rem % 60), nanos);
}

void rc_fmt_ts_iso(rc_buf *b, const rc_timestamp *ts)
{
    put_instant(b, ts->sec, ts->nanos, 'T');
    rc_buf_putc(b, 'Z');
}

/* The fraction of a java.time formatter at w: exactly `width` digits (1-9, as
 * appendFraction(NANO_OF_SECOND, width, width)), else as many as needed (none for 0). A value
 * with more digits than `width` (never one read from its column) keeps them all: Java would
 * cut it, rowcast never cuts a value silently. */
static char *java_frac_at(char *w, uint32_t nanos, int width)
{
    static const uint32_t below[10] = {1000000000, 100000000, 10000000, 1000000, 100000, 10000, 1000, 100, 10, 1};
    if (width < 1 || width > 9 || nanos % below[width]) return w + frac_at(w, nanos);
    *w++ = '.';
    nanos /= below[width];
    for (int i = width - 1; i >= 0; i--, nanos /= 10) w[i] = (char)('0' + nanos % 10);
    return w + width;
}

/* The date of day `days` as java.time's ISO_LOCAL_DATE writes it: a '+' before a year past
 * 9999 (SignStyle.EXCEEDS_PAD), a '-' before one below 0. */
static void put_java_ymd(rc_buf *b, int64_t days)
{
    int32_t y;
    unsigned mo, d;
    rc_civil_from_days(days, &y, &mo, &d);
    if (y > 9999) rc_buf_putc(b, '+');
    put_ymd(b, y, mo, d);
}

void rc_fmt_ts_java(rc_buf *b, const rc_timestamp *ts, int width)
{
    int64_t days = rc_floor_div(ts->sec, 86400);
    put_java_ymd(b, days);
    char *w = rc_buf_reserve(b, 20); /* T, clock, fraction, Z */
    if (!w) return;
    unsigned rem = (unsigned)(ts->sec - days * 86400);
    w[0] = 'T';
    put2(w + 1, rem / 3600), w[3] = ':', put2(w + 4, rem / 60 % 60), w[6] = ':', put2(w + 7, rem % 60);
    char *o = java_frac_at(w + 9, ts->nanos, width);
    *o++ = 'Z';
    rc_buf_commit(b, (size_t)(o - w));
}

void rc_fmt_ts_java_memo(rc_buf *b, const rc_timestamp *ts, rc_day_memo *m, int width, bool quoted)
{
    int64_t days = rc_floor_div(ts->sec, 86400);
    if (!m->n || days != m->day) {
        rc_buf t = {m->ymd, 0, sizeof m->ymd, sizeof m->ymd, RC_OK};
        put_java_ymd(&t, days);
        m->n = t.err == RC_OK ? t.len : 0, m->day = days;
    }
    char *w = m->n ? rc_buf_reserve(b, sizeof m->ymd + 22) : NULL; /* quotes, T, clock, fraction, Z */
    if (!w) { /* no memo (a year too long for it, never in practice) or the buffer's error */
        if (quoted) rc_buf_putc(b, '"');
        rc_fmt_ts_java(b, ts, width);
        if (quoted) rc_buf_putc(b, '"');
        return;
    }
    char *o = w;
    if (quoted) *o++ = '"';
    memcpy(o, m->ymd, sizeof m->ymd); /* a fixed size: no call */
    o += m->n;
    *o++ = 'T';
    unsigned rem = (unsigned)(ts->sec - days * 86400);
    put2(o, rem / 3600), o[2] = ':', put2(o + 3, rem / 60 % 60), o[5] = ':', put2(o + 6, rem % 60);
    o = java_frac_at(o + 8, ts->nanos, width);
    *o++ = 'Z';
    if (quoted) *o++ = '"';
    rc_buf_commit(b, (size_t)(o - w));
}

void rc_fmt_ts_local(rc_buf *b, const rc_timestamp *ts, int32_t offset_sec, char sep)
{
    put_instant(b, ts->sec + offset_sec, ts->nanos, sep);
}

void rc_fmt_ts_epoch(rc_buf *b, const rc_timestamp *ts)
{
    if (ts->sec < 0 && ts->nanos) {
        /* -1 s + 0.5 s is -0.5 s: write the magnitude with a minus sign */
        rc_buf_putc(b, '-');
        rc_fmt_u64(b, (uint64_t)(-(ts->sec + 1)));
        rc_fmt_frac(b, 1000000000u - ts->nanos);
        return;
    }
    rc_fmt_i64(b, ts->sec);
    rc_fmt_frac(b, ts->nanos);
}

int64_t rc_date_epoch_days(const rc_date *d) { return rc_days_from_civil(d->year, d->month, d->day); }

int64_t rc_time_micros(const rc_time *t)
{
    int64_t us = ((int64_t)t->hour * 3600 + t->minute * 60 + t->second) * 1000000 + t->nanos / 1000;
    return t->neg ? -us : us;
}

int64_t rc_datetime_epoch_sec(const rc_datetime *dt)
{
    return rc_days_from_civil(dt->year, dt->month, dt->day) * 86400 + dt->hour * 3600 + dt->minute * 60 + dt->second;
}

bool rc_datetime_epoch_us(const rc_datetime *dt, int64_t *us)
{
    /* past about year 294,000 the count of µs no longer fits 64 bits (the parser reads 7-digit years) */
    int64_t x;
    if (__builtin_mul_overflow(rc_datetime_epoch_sec(dt), (int64_t)1000000, &x)) return false;
    return !__builtin_add_overflow(x, (int64_t)(dt->nanos / 1000), us);
}

int64_t rc_datetime_epoch_ms(const rc_datetime *dt) { return rc_datetime_epoch_sec(dt) * 1000 + dt->nanos / 1000000; }

/* ---- parsing ---- */

static bool digits_at(const char *s, size_t n, size_t i, size_t k, uint32_t *v)
{
    if (i + k > n) return false;
    uint32_t x = 0;
    for (size_t j = i; j < i + k; j++) {
        if (s[j] < '0' || s[j] > '9') return false;
        x = x * 10 + (uint32_t)(s[j] - '0');
    }
    *v = x;
    return true;
}

/* ".f{1,9}" at s[i]; advances *i; nanos 0 when no fraction. */
static bool parse_frac(const char *s, size_t n, size_t *i, uint32_t *nanos)
{
    *nanos = 0;
    if (*i >= n || s[*i] != '.') return true;
    size_t j = *i + 1, k = 0;
    uint32_t v = 0;
    while (j < n && s[j] >= '0' && s[j] <= '9') {
        if (++k > 9) return false;
        v = v * 10 + (uint32_t)(s[j++] - '0');
    }
    if (!k) return false;
    for (; k < 9; k++) v *= 10;
    *nanos = v;
    *i = j;
    return true;
}

/* YYYY-MM-DD at s[0], also with the years rc_fmt_date writes beyond 0000-9999 (ISO 8601's
 * expanded years, astronomical: "-0043-03-15" is 44 BC, "5874897-12-31"; no leading zero past
 * four digits, no "-0000"); the number of bytes read, 0 when there is no such date. */
static size_t parse_ymd(const char *s, size_t n, rc_date *d)
{
    size_t i = n && s[0] == '-', ys = i;
    uint32_t y = 0, m, dd;
    while (i < n && i - ys < 8 && s[i] >= '0' && s[i] <= '9') y = y * 10 + (uint32_t)(s[i++] - '0');
    size_t yn = i - ys;
    if (yn < 4 || yn > 7 || (yn > 4 && s[ys] == '0') || (ys && !y)) return 0;
    if (i + 6 > n || s[i] != '-' || !digits_at(s, n, i + 1, 2, &m) || s[i + 3] != '-' || !digits_at(s, n, i + 4, 2, &dd)) return 0;
    int32_t year = ys ? -(int32_t)y : (int32_t)y;
    if (m < 1 || m > 12 || dd < 1 || dd > rc_days_in_month(year, m)) return 0;
    d->year = year;
    d->month = (uint8_t)m;
    d->day = (uint8_t)dd;
    return i + 6;
}

/* HH:MM:SS[.f] with 2-digit hours < 24, at s[i]; advances *i. */
static bool parse_clock(const char *s, size_t n, size_t *i, rc_datetime *dt)
{
    uint32_t h, mi, se;
    size_t p = *i;
    if (!digits_at(s, n, p, 2, &h) || p + 8 > n || s[p + 2] != ':' || !digits_at(s, n, p + 3, 2, &mi) ||
        s[p + 5] != ':' || !digits_at(s, n, p + 6, 2, &se))
        return false;
    if (h > 23 || mi > 59 || se > 59) return false;
    p += 8;
    if (!parse_frac(s, n, &p, &dt->nanos)) return false;
    dt->hour = (uint8_t)h;
    dt->minute = (uint8_t)mi;
    dt->second = (uint8_t)se;
    *i = p;
    return true;
}

bool rc_parse_date(const char *s, size_t n, rc_date *out)
{
    rc_date d;
    if (parse_ymd(s, n, &d) != n) return false;
    *out = d;
    return true;
}

bool rc_parse_time(const char *s, size_t n, rc_time *out)
{
    size_t i = 0;
    rc_time t = {0};
    if (i < n && s[i] == '-') t.neg = true, i++;
    size_t hs = i;
    uint64_t h = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        h = h * 10 + (uint64_t)(s[i++] - '0');
        if (h > 0xFFFFFFu) return false;
    }
    if (i - hs < 2) return false;
    if (i > hs + 2 && s[hs] == '0') return false; /* no padding beyond two digits */
    uint32_t mi, se;
    if (i + 6 > n || s[i] != ':' || !digits_at(s, n, i + 1, 2, &mi) || s[i + 3] != ':' ||
        !digits_at(s, n, i + 4, 2, &se) || mi > 59 || se > 59)
        return false;
    i += 6;
    if (!parse_frac(s, n, &i, &t.nanos) || i != n) return false;
    t.hour = (uint32_t)h;
    t.minute = (uint8_t)mi;
    t.second = (uint8_t)se;
    if (t.neg && !t.hour && !t.minute && !t.second && !t.nanos) return false; /* "-00:00:00" */
    *out = t;
    return true;
}

bool rc_parse_datetime(const char *s, size_t n, rc_datetime *out)
{
    rc_date d;
    rc_datetime dt = {0};
    size_t i = parse_ymd(s, n, &d);
    if (!i || i + 9 > n || (s[i] != ' ' && s[i] != 'T')) return false;
    i++;
    if (!parse_clock(s, n, &i, &dt)) return false;
    if (i < n) {
        if (s[i] != ' ' || i + 1 >= n) return false;
        /* zone ids and offsets: Area/City, +08:00, UTC, Etc/GMT-8 */
        for (size_t k = i + 1; k < n; k++) {
            char c = s[k];
            bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '/' || c == '_' ||
                      c == '+' || c == '-' || c == ':' || c == '.';
            if (!ok) return false;
        }
        dt.zone.p = s + i + 1;
        dt.zone.n = n - i - 1;
    }
    dt.year = d.year;
    dt.month = d.month;
    dt.day = d.day;
    *out = dt;
    return true;
}

bool rc_parse_ts_iso(const char *s, size_t n, rc_timestamp *out)
{
    rc_date d;
    rc_datetime dt = {0};
    size_t i = parse_ymd(s, n, &d);
    if (!i || i + 10 > n || s[i] != 'T') return false;
    i++;
    if (!parse_clock(s, n, &i, &dt) || i + 1 != n || s[i] != 'Z') return false;
    out->sec = rc_days_from_civil(d.year, d.month, d.day) * 86400 + dt.hour * 3600 + dt.minute * 60 + dt.second;
    out->nanos = dt.nanos;
    return true;
}
