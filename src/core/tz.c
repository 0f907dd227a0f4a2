/* Time zones (see tz.h): fixed offsets, and named zones from TZif files (RFC 8536) with the
 * POSIX TZ rule of their footer for instants after the last transition. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/fmt.h"
#include "rowcast/tz.h"

enum { MAX_TRANSITIONS = 1 << 20, MAX_FILE = 1 << 20, MAX_ZONES = 64, DAY = 86400 };

/* A date rule of a POSIX TZ string: Jn (1-365, no Feb 29), n (0-365), or Mm.w.d. */
typedef struct tz_date {
    char kind; /* 'J', 'N' or 'M' */
    int m, w, d;
    int32_t time; /* seconds after local midnight, -167 h to 167 h */
} tz_date;

struct rc_tzdata {
    char name[128];
    size_t n;          /* transitions */
    int64_t *at;       /* their instants, ascending */
    int32_t *off;      /* the offset from each on */
    int32_t first_off; /* before the first */
    bool has_rule, has_dst;
    int32_t std_off, dst_off; /* seconds east of UTC */
    tz_date start, end;       /* of daylight time */
};

/* ---- the POSIX TZ rule ---- */

typedef struct rp {
    const char *s;
    size_t i, n;
} rp;

static bool rp_name(rp *r)
{
    if (r->i < r->n && r->s[r->i] == '<') {
        size_t j = r->i + 1;
        while (j < r->n && r->s[j] != '>') j++;
        if (j >= r->n || j == r->i + 1) return false;
        r->i = j + 1;
        return true;
    }
    size_t j = r->i;
    while (j < r->n && ((r->s[j] >= 'A' && r->s[j] <= 'Z') || (r->s[j] >= 'a' && r->s[j] <= 'z')))
        j++;
    if (j - r->i < 3) return false;
    r->i = j;
    return true;
}

static bool rp_num(rp *r, int max, int *out)
{
    int v = 0, digits = 0;
    while (r->i < r->n && r->s[r->i] >= '0' && r->s[r->i] <= '9' && digits < 4)
        v = v * 10 + (r->s[r->i++] - '0'), digits++;
    if (!digits || v > max) return false;
    *out = v;
    return true;
}

/* [+-]h[h[h]][:mm[:ss]] into seconds, hours up to max_h. */
static bool rp_hms(rp *r, int max_h, int32_t *out)
{
    int sign = 1, h, m = 0, s = 0;
    if (r->i < r->n && (r->s[r->i] == '+' || r->s[r->i] == '-'))
        sign = r->s[r->i++] == '-' ? -1 : 1;
    if (!rp_num(r, max_h, &h)) return false;
    if (r->i < r->n && r->s[r->i] == ':') {
        r->i++;
        if (!rp_num(r, 59, &m)) return false;
        if (r->i < r->n && r->s[r->i] == ':') {
            r->i++;
            if (!rp_num(r, 59, &s)) return false;
        }
    }
    *out = sign * (h * 3600 + m * 60 + s);
    return true;
}

static bool rp_date(rp *r, tz_date *d)
{
    d->time = 7200;
    if (r->i < r->n && r->s[r->i] == 'M') {
        r->i++;
        d->kind = 'M';
        if (!rp_num(r, 12, &d->m) || d->m < 1 || r->i >= r->n || r->s[r->i++] != '.' ||
            !rp_num(r, 5, &d->w) || d->w < 1 || r->i >= r->n || r->s[r->i++] != '.' ||
            !rp_num(r, 6, &d->d))
            return false;
    } else if (r->i < r->n && r->s[r->i] == 'J') {
        r->i++;
        d->kind = 'J';
        if (!rp_num(r, 365, &d->d) || d->d < 1) return false;
    } else {
        d->kind = 'N';
        if (!rp_num(r, 365, &d->d)) return false;
    }
    if (r->i < r->n && r->s[r->i] == '/') {
        r->i++;
        if (!rp_hms(r, 167, &d->time)) return false;
    }
    return true;
}

/* "EST5EDT,M3.2.0,M11.1.0", "<+08>-8", "IST-1GMT0,M10.5.0,M3.5.0/1"; empty: no rule. */
static bool parse_rule(rc_tzdata *z, const char *s, size_t n)
{
    if (!n) return true;
    rp r = {s, 0, n};
    int32_t o;
    if (!rp_name(&r) || !rp_hms(&r, 24, &o)) return false;
    z->std_off = -o; /* POSIX counts west of UTC as positive */
    z->has_rule = true;
    if (r.i == r.n) return true;
    if (!rp_name(&r)) return false;
    z->has_dst = true;
    z->dst_off = z->std_off + 3600;
    if (r.i < r.n && r.s[r.i] != ',') {
        if (!rp_hms(&r, 24, &o)) return false;
        z->dst_off = -o;
    }
    if (r.i == r.n) { /* no dates: the US rules, as glibc assumes */
        z->start = (tz_date){'M', 3, 2, 0, 7200};
        z->end = (tz_date){'M', 11, 1, 0, 7200};
        return true;
    }
    if (r.s[r.i++] != ',' || !rp_date(&r, &z->start) || r.i >= r.n || r.s[r.i++] != ',' ||
        !rp_date(&r, &z->end))
        return false;
    return r.i == r.n;
}

/* The day (since 1970-01-01) a rule date falls on in year y. */
static int64_t rule_day(const tz_date *d, int32_t y)
{
    int64_t jan1 = rc_days_from_civil(y, 1, 1);
    if (d->kind == 'J') return jan1 + d->d - 1 + (rc_days_in_month(y, 2) == 29 && d->d >= 60);
    if (d->kind == 'N') return jan1 + d->d;
    int64_t first = rc_days_from_civil(y, (unsigned)d->m, 1);
    int64_t wd = ((first + 4) % 7 + 7) % 7; /* 1970-01-01 was a Thursday */
    int64_t day = first + ((d->d - wd) % 7 + 7) % 7 + (int64_t)(d->w - 1) * 7;
    int64_t len = rc_days_in_month(y, (unsigned)d->m);
    while (day >= first + len) day -= 7; /* w = 5: the last such weekday */
    return day;
}

static int32_t rule_offset(const rc_tzdata *z, int64_t utc)
{
    if (!z->has_dst) return z->std_off;
    /* the Gregorian calendar repeats every 400 years: far instants move into range first */
    const int64_t cycle = 146097LL * DAY;
    if (utc > cycle * 1000 || utc < -cycle * 1000) utc %= cycle;
    int32_t y;
    unsigned m, d;
    rc_civil_from_days(rc_floor_div(utc + z->std_off, DAY), &y, &m, &d);
    int64_t start =
        rule_day(&z->start, y) * DAY + z->start.time - z->std_off; /* clocks on standard time */
    int64_t end =
        rule_day(&z->end, y) * DAY + z->end.time - z->dst_off; /* clocks on daylight time */
    bool dst = start < end ? (utc >= start && utc < end) : !(utc >= end && utc < start);
    return dst ? z->dst_off : z->std_off;
}

/* ---- lookups ---- */

int32_t rc_tzdata_offset_at(const rc_tzdata *z, int64_t t)
{
    if (!z->n) return z->has_rule ? rule_offset(z, t) : z->first_off;
    if (t < z->at[0]) return z->first_off;
    if (t >= z->at[z->n - 1]) return z->has_rule ? rule_offset(z, t) : z->off[z->n - 1];
    size_t lo = 0, hi = z->n - 1; /* at[lo] <= t < at[hi] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (z->at[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return z->off[lo];
}

int32_t rc_tz_offset_of_local(const rc_tz *tz, int64_t local)
{
    if (!tz->zone) return tz->fixed;
    const rc_tzdata *z = tz->zone;
    const int64_t far = INT64_C(1) << 60; /* beyond any calendar; keeps the arithmetic below in range */
    if (local > far) local = far;
    if (local < -far) local = -far;
    /* the offsets two days either side: the instant of local lies between them (|offset| < 26 h) */
    int32_t x = rc_tzdata_offset_at(z, local - 2 * DAY),
            y = rc_tzdata_offset_at(z, local + 2 * DAY);
    if (x == y) {
        int32_t o = rc_tzdata_offset_at(z, local - x);
        return rc_tzdata_offset_at(z, local - o) == o ? o : x;
    }
    if (rc_tzdata_offset_at(z, local - x) == x)
        return x; /* valid; in an overlap, the earlier offset */
    if (rc_tzdata_offset_at(z, local - y) == y) return y;
    return x; /* in a gap: the offset before it */
}

/* ---- TZif ---- */

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}
static int64_t be64(const unsigned char *p)
{
    return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4));
}

typedef struct tzhead {
    uint32_t isut, isstd, leap, time, type, chars;
} tzhead;

static rc_status bad(rc_error *err, size_t at, const char *why)
{
    return rc_error_set(err, RC_ERR_SYNTAX, at, "TZif: %s", why);
}

static rc_status read_head(const unsigned char *p, size_t n, size_t at, tzhead *h, rc_error *err)
{
    if (n - at < 44 || memcmp(p + at, "TZif", 4) != 0)
        return bad(err, at, "not a TZif file (no \"TZif\" header)");
    const unsigned char *c = p + at + 20;
    *h = (tzhead){be32(c), be32(c + 4), be32(c + 8), be32(c + 12), be32(c + 16), be32(c + 20)};
    if (h->time > MAX_TRANSITIONS || !h->type || h->type > 256 || !h->chars || h->chars > 65536 ||
        h->leap > 65536 || (h->isut && h->isut != h->type) || (h->isstd && h->isstd != h->type))
        return bad(err, at + 20, "counts out of range");
    return RC_OK;
}

static size_t block_len(const tzhead *h, size_t tsize)
{
    return (size_t)h->time * (tsize + 1) + (size_t)h->type * 6 + h->chars +
           (size_t)h->leap * (tsize + 4) + h->isstd + h->isut;
}

rc_status rc_tzdata_parse(const unsigned char *p, size_t n, rc_tzdata **out, rc_error *err)
{
    tzhead h;
    rc_status st = read_head(p, n, 0, &h, err);
    if (st != RC_OK) return st;
    char version = (char)p[4];
    size_t at = 44, tsize = 4;
    if (version) {
        if (version < '2' || version > '4') return bad(err, 4, "unknown version");
        if (n - at < block_len(&h, 4)) return bad(err, n, "truncated");
        at += block_len(&h, 4);
        if ((st = read_head(p, n, at, &h, err)) != RC_OK) return st;
        at += 44, tsize = 8;
    }
    if (n - at < block_len(&h, tsize)) return bad(err, n, "truncated");
    if (h.leap) return bad(err, at, "leap-second zones (the right/ files) are not supported");
    rc_tzdata *z = calloc(1, sizeof *z);
    if (!z) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    z->n = h.time;
    z->at = malloc(sizeof *z->at * (h.time ? h.time : 1));
    z->off = malloc(sizeof *z->off * (h.time ? h.time : 1));
    if (!z->at || !z->off) {
        rc_tzdata_free(z);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    const unsigned char *times = p + at, *idx = times + (size_t)h.time * tsize,
                        *types = idx + h.time;
    int32_t offs[256];
    for (uint32_t k = 0; k < h.type; k++) {
        offs[k] = (int32_t)be32(types + 6 * k);
        if (offs[k] <= -26 * 3600 || offs[k] >= 26 * 3600 || types[6 * k + 4] > 1) {
            rc_tzdata_free(z);
            return bad(err, (size_t)(types + 6 * k - p), "local time type out of range");
        }
    }
    z->first_off = offs[0];
    for (uint32_t k = 0; k < h.time; k++) {
        z->at[k] = tsize == 8 ? be64(times + 8 * k) : (int32_t)be32(times + 4 * k);
        if (idx[k] >= h.type || (k && z->at[k] <= z->at[k - 1])) {
            rc_tzdata_free(z);
            return bad(err, (size_t)(times + tsize * k - p),
                       idx[k] >= h.type ? "transition to an unknown type"
                                        : "transitions out of order");
        }
        z->off[k] = offs[idx[k]];
    }
    at += block_len(&h, tsize);
    if (version) { /* the footer: "\n" POSIX-TZ "\n" */
        const unsigned char *nl =
            at < n && p[at] == '\n' ? memchr(p + at + 1, '\n', n - at - 1) : NULL;
        if (!nl || !parse_rule(z, (const char *)p + at + 1, (size_t)(nl - (p + at + 1)))) {
            rc_tzdata_free(z);
            return bad(err, at, "bad or missing POSIX TZ footer");
        }
    }
    *out = z;
    return RC_OK;
}

void rc_tzdata_free(rc_tzdata *z)
{
    if (!z) return;
    free(z->at);
    free(z->off);
    free(z);
}

/* ---- names ---- */

static pthread_mutex_t zones_mu = PTHREAD_MUTEX_INITIALIZER;
static rc_tzdata *zones[MAX_ZONES]; /* loaded once, kept until exit */
static size_t nzones;

static bool zone_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (!n || n >= sizeof((rc_tzdata *)0)->name || s[0] == '/' || s[0] == '.') return false;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                  c == '_' || c == '-' || c == '+' || c == '/' || c == '.';
        if (!ok || (c == '.' && (s[i - 1] == '/' || s[i - 1] == '.'))) return false;
    }
    return true;
}

static rc_status load_zone(const char *name, const char *what, const rc_tzdata **out, rc_error *err)
{
    const char *dir = getenv("TZDIR");
    if (!dir || !*dir) dir = "/usr/share/zoneinfo";
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    struct stat sb;
    FILE *f = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) ? (errno = EISDIR, NULL) : fopen(path, "rb");
    if (!f)
        return rc_error_set(
            err, RC_ERR_USAGE, RC_NO_OFFSET,
            "option %s: no time zone '%s' (%s: %s; zone names come from the tzdata package)", what,
            name, path, strerror(errno));
    unsigned char *buf = malloc(MAX_FILE);
    size_t n = buf ? fread(buf, 1, MAX_FILE, f) : 0;
    bool too_big = buf && n == MAX_FILE && fgetc(f) != EOF;
    fclose(f);
    if (!buf) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_tzdata *z = NULL;
    rc_error perr;
    rc_error_clear(&perr);
    rc_status st =
        too_big ? bad(&perr, MAX_FILE, "larger than 1 MiB") : rc_tzdata_parse(buf, n, &z, &perr);
    free(buf);
    if (st != RC_OK)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "option %s: time zone file %s, byte %zu: %s", what, path,
                            perr.offset == RC_NO_OFFSET ? (size_t)0 : perr.offset, perr.message);
    snprintf(z->name, sizeof z->name, "%s", name);
    *out = z;
    return RC_OK;
}

static bool digits_colon(const char *s)
{
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || *s == ':')) return false;
    return true;
}

rc_status rc_tz_parse(const char *v, const char *what, rc_tz *out, rc_error *err)
{
    *out = (rc_tz){0, NULL};
    if (!strcmp(v, "UTC") || !strcmp(v, "Z") || !strcmp(v, "+00:00")) return RC_OK;
    int h = 0, m = 0;
    char sign = v[0], c;
    if (sign == '+' || sign == '-') {
        if ((sscanf(v + 1, "%2d:%2d%c", &h, &m, &c) == 2 ||
             (strlen(v) == 5 && sscanf(v + 1, "%2d%2d%c", &h, &m, &c) == 2) ||
             (strlen(v) <= 3 && sscanf(v + 1, "%2d%c", &h, &c) == 1)) &&
            digits_colon(v + 1) && h <= 18 && m < 60) {
            out->fixed = (sign == '-' ? -1 : 1) * (h * 3600 + m * 60);
            return RC_OK;
        }
    } else if (zone_name_ok(v)) {
        pthread_mutex_lock(&zones_mu);
        rc_status st = RC_OK;
        for (size_t i = 0; i < nzones && !out->zone; i++)
            if (!strcmp(zones[i]->name, v)) out->zone = zones[i];
        if (!out->zone) {
            const rc_tzdata *z = NULL;
            if (nzones == MAX_ZONES)
                st = rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET,
                                  "option %s: more than %d time zones", what, MAX_ZONES);
            else if ((st = load_zone(v, what, &z, err)) == RC_OK)
                zones[nzones++] = (rc_tzdata *)z, out->zone = z;
        }
        pthread_mutex_unlock(&zones_mu);
        return st;
    }
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                        "option %s must be UTC, a fixed offset like +08:00 or a zone name like "
                        "Asia/Shanghai, not '%s'",
                        what, v);
}
