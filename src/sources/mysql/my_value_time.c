/* DATE, TIME, DATETIME and TIMESTAMP in row images, in both encodings: the old ones (TIME as
 * HHMMSS and DATETIME as YYYYMMDDhhmmss in little-endian integers, TIMESTAMP as seconds) and
 * MySQL 5.6's fractional ones (TIME2, DATETIME2, TIMESTAMP2: big-endian, fsp 0..6 from the
 * metadata, (fsp + 1) / 2 bytes of fraction). Fractions become nanoseconds.
 *
 * A date the calendar does not have — MySQL's zero date 0000-00-00, and the dates with a zero
 * month or day or a day past the month's end that sql_mode allows — is RC_V_INVALID with the
 * text SELECT prints for it ("0000-00-00 00:00:00.000" for a DATETIME(3)), as every source and
 * format keeps zero dates (docs/native-format.md). A TIMESTAMP is an instant (UTC); a DATETIME a
 * wall clock; a TIME may be negative and past 24 hours (-838:59:59 .. 838:59:59). */
#include <stdio.h>
#include "core/fmt.h"
#include "my_value_int.h"

/* A date and time as the layouts hold them, before they are checked. */
typedef struct rc_my_datetime_parts {
    int32_t year;
    uint32_t month, day, hour, minute, second, us;
} rc_my_datetime_parts;

static rc_status malformed(const rc_my_col *c, const char *what, rc_error *err)
{
    return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": malformed value: %s", RC_MY_COLARG(c), what);
}

/* Fraction bytes of fsp digits (DATETIME2, TIMESTAMP2) as microseconds (inline, as check_fsp:
 * the calls were a tenth of a DATETIME2's instructions). */
static unsigned frac_bytes(unsigned fsp) { return (fsp + 1) / 2; }
static inline __attribute__((always_inline)) uint32_t frac_us(const uint8_t *p, unsigned fsp)
{
    static const uint32_t scale[4] = {0, 10000, 100, 1};
    unsigned nb = frac_bytes(fsp);
    return nb ? (uint32_t)rc_my_be(p, nb) * scale[nb] : 0;
}

static rc_status bad_fsp(const rc_my_col *c, rc_error *err)
{
    return rc_error_set(err, RC_ERR_VALUE, 0, RC_MY_COLFMT ": fractional-second precision %u in the metadata, not 0 to 6",
                        RC_MY_COLARG(c), c->meta);
}

static inline __attribute__((always_inline)) rc_status check_fsp(const rc_my_col *c, rc_error *err)
{
    return c->meta <= 6 ? RC_OK : bad_fsp(c, err);
}

/* The text SELECT prints for a date the calendar has not: "YYYY-MM-DD", with the time of day
 * and fsp fraction digits for DATETIME/TIMESTAMP. */
static rc_status invalid_text(const rc_my_datetime_parts *t, bool with_time, unsigned fsp, rc_value *out, rc_arena *a, rc_error *err)
{
    char s[48];
    int k = snprintf(s, sizeof s, "%04d-%02u-%02u", (int)t->year, t->month, t->day);
    if (with_time) k += snprintf(s + k, sizeof s - (size_t)k, " %02u:%02u:%02u", t->hour, t->minute, t->second);
    if (with_time && fsp) {
        char f[8];
        snprintf(f, sizeof f, "%06u", (unsigned)t->us);
        k += snprintf(s + k, sizeof s - (size_t)k, ".%.*s", (int)fsp, f);
    }
    char *p = rc_arena_memdup(a, s, (size_t)k);
    if (!p) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory decoding a date");
    *out = (rc_value){.kind = RC_V_INVALID, .s = {p, (size_t)k}};
    return RC_OK;
}

/* A date and time of day read from either DATETIME layout: the value, or the invalid text. */
static rc_status datetime_value(const rc_my_col *c, const rc_my_datetime_parts *t, unsigned fsp, rc_value *out, rc_arena *a,
                                rc_error *err)
{
    if (t->year > 9999 || t->month > 12 || t->day > 31 || t->hour > 23 || t->minute > 59 || t->second > 59 || t->us > 999999)
        return malformed(c, "a date and time out of range", err);
    if (!rc_date_valid(t->year, t->month, t->day)) return invalid_text(t, true, fsp, out, a, err);
    *out = (rc_value){.kind = RC_V_DATETIME,
                      .dt = {.year = t->year, .month = (uint8_t)t->month, .day = (uint8_t)t->day, .hour = (uint8_t)t->hour,
                             .minute = (uint8_t)t->minute, .second = (uint8_t)t->second, .nanos = t->us * 1000}};
    return RC_OK;
}

static rc_status time_value(const rc_my_col *c, bool neg, uint32_t hour, uint32_t minute, uint32_t second, uint32_t us,
                            rc_value *out, rc_error *err)
{
    if (minute > 59 || second > 59 || us > 999999) return malformed(c, "a time of day out of range", err);
    *out = (rc_value){.kind = RC_V_TIME,
                      .time = {.hour = hour, .minute = (uint8_t)minute, .second = (uint8_t)second, .neg = neg && (hour | minute | second | us),
                               .nanos = us * 1000}};
    return RC_OK;
}

/* TIME2: a signed 64-bit "packed time" (hours, minutes, seconds above 24 bits of
 * microseconds) as MySQL's my_time_packed_from_binary builds it from 3 + (fsp + 1) / 2 bytes:
 * the integer part is offset by 0x800000 and a negative time with a fraction borrows one
 * second from it. */
static rc_status time2(const rc_my_col *c, const uint8_t *p, rc_value *out, rc_error *err)
{
    int64_t packed, intpart = (int64_t)rc_my_be(p, 3) - 0x800000;
    switch (c->meta) {
    case 0: packed = intpart * (1 << 24); break;
    case 1:
    case 2: {
        int64_t frac = p[3];
        if (intpart < 0 && frac) intpart++, frac -= 0x100;
        packed = intpart * (1 << 24) + frac * 10000;
        break;
    }
    case 3:
    case 4: {
        int64_t frac = (int64_t)rc_my_be(p + 3, 2);
        if (intpart < 0 && frac) intpart++, frac -= 0x10000;
        packed = intpart * (1 << 24) + frac * 100;
        break;
    }
    default: packed = (int64_t)rc_my_be(p, 6) - 0x800000000000LL; break;
    }
    bool neg = packed < 0;
    uint64_t m = neg ? (uint64_t)-packed : (uint64_t)packed;
    uint64_t hms = m >> 24;
    return time_value(c, neg, (uint32_t)(hms >> 12) % 1024, (uint32_t)(hms >> 6) % 64, (uint32_t)hms % 64, (uint32_t)(m % (1 << 24)), out,
                      err);
}

rc_status rc_my_time_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a,
                            rc_error *err)
{
    rc_my_datetime_parts t = {0};
    size_t size;
    /* MariaDB with mysql56_temporal_format=OFF writes TIME(n), DATETIME(n), TIMESTAMP(n) with
     * n > 0 in its own older layout under the old type codes, without metadata: refused
     * rather than read as whole seconds */
    if ((c->type == RC_MY_TIME || c->type == RC_MY_DATETIME || c->type == RC_MY_TIMESTAMP) && c->decl && c->decl->p1 > 0)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, 0,
                            RC_MY_COLFMT ": a %s with fractional seconds in the pre-MySQL-5.6 layout (MariaDB's "
                                         "mysql56_temporal_format=OFF) is not read; set mysql56_temporal_format=ON and rebuild the table",
                            RC_MY_COLARG(c), rc_my_decl_name(c));
    switch (c->type) {
    case RC_MY_DATE:
    case RC_MY_NEWDATE: {
        /* 3 bytes little-endian: day in bits 0-4, month 5-8, year from bit 9 */
        if (rc_my_need(c, size = 3, n, err) != RC_OK) return RC_ERR_VALUE;
        uint32_t v = (uint32_t)rc_my_le(p, 3);
        t.day = v & 31, t.month = (v >> 5) & 15, t.year = (int32_t)(v >> 9);
        if (t.month > 12 || t.year > 9999) return malformed(c, "a date out of range", err);
        *used = size;
        if (!rc_date_valid(t.year, t.month, t.day)) return invalid_text(&t, false, 0, out, a, err);
        *out = (rc_value){.kind = RC_V_DATE, .date = {.year = t.year, .month = (uint8_t)t.month, .day = (uint8_t)t.day}};
        return RC_OK;
    }
    case RC_MY_TIME: {
        /* old TIME: 3 bytes little-endian two's complement, ±HHMMSS */
        if (rc_my_need(c, size = 3, n, err) != RC_OK) return RC_ERR_VALUE;
        int32_t v = (int32_t)(rc_my_le(p, 3) << 8) >> 8;
        uint32_t m = v < 0 ? (uint32_t)-v : (uint32_t)v;
        *used = size;
        return time_value(c, v < 0, m / 10000, m / 100 % 100, m % 100, 0, out, err);
    }
    case RC_MY_TIME2:
        if (check_fsp(c, err) != RC_OK) return RC_ERR_VALUE;
        if (rc_my_need(c, size = 3 + frac_bytes(c->meta), n, err) != RC_OK) return RC_ERR_VALUE;
        *used = size;
        return time2(c, p, out, err);
    case RC_MY_DATETIME: {
        /* old DATETIME: 8 bytes little-endian, the decimal number YYYYMMDDhhmmss */
        if (rc_my_need(c, size = 8, n, err) != RC_OK) return RC_ERR_VALUE;
        uint64_t v = rc_my_le(p, 8), d = v / 1000000, s = v % 1000000;
        t.year = (int32_t)(d / 10000 % 100000), t.month = d / 100 % 100, t.day = d % 100;
        t.hour = (uint32_t)(s / 10000), t.minute = s / 100 % 100, t.second = s % 100;
        *used = size;
        if (d / 10000 > 9999) return malformed(c, "a date and time out of range", err);
        return datetime_value(c, &t, 0, out, a, err);
    }
    case RC_MY_DATETIME2: {
        /* 5 bytes big-endian offset by 2^39: year*13+month (17 bits from bit 22), day (5 bits),
         * hour (5), minute (6), second (6); then the fraction */
        if (check_fsp(c, err) != RC_OK) return RC_ERR_VALUE;
        if (rc_my_need(c, size = 5 + frac_bytes(c->meta), n, err) != RC_OK) return RC_ERR_VALUE;
        uint64_t v = rc_my_be(p, 5);
        /* all five bytes zero: rusuly/MySqlCdc's vector of a DATETIME(3) zero date (the servers
         * write 0x8000000000 for it); read as that zero date */
        if (v && !(v & 0x8000000000ULL)) return malformed(c, "a negative DATETIME", err);
        v = v ? v - 0x8000000000ULL : 0;
        uint64_t ymd = v >> 17, ym = ymd >> 5, hms = v % (1 << 17);
        t.year = (int32_t)(ym / 13), t.month = (uint32_t)(ym % 13), t.day = (uint32_t)(ymd % 32);
        t.hour = (uint32_t)(hms >> 12), t.minute = (uint32_t)(hms >> 6) % 64, t.second = (uint32_t)(hms % 64);
        t.us = frac_us(p + 5, c->meta);
        *used = size;
        return datetime_value(c, &t, c->meta, out, a, err);
    }
    case RC_MY_TIMESTAMP:
    case RC_MY_TIMESTAMP2: {
        /* seconds since the epoch, UTC: old 4 bytes little-endian, new 4 bytes big-endian and
         * the fraction; 0 is the zero timestamp 0000-00-00 00:00:00 (the smallest TIMESTAMP is
         * 1970-01-01 00:00:01 UTC) */
        bool old = c->type == RC_MY_TIMESTAMP;
        unsigned fsp = old ? 0 : c->meta;
        if (!old && check_fsp(c, err) != RC_OK) return RC_ERR_VALUE;
        if (rc_my_need(c, size = 4 + frac_bytes(fsp), n, err) != RC_OK) return RC_ERR_VALUE;
        uint64_t sec = old ? rc_my_le(p, 4) : rc_my_be(p, 4);
        uint32_t us = old ? 0 : frac_us(p + 4, fsp);
        *used = size;
        if (us > 999999) return malformed(c, "a fraction of a second out of range", err);
        if (!sec && !us) return invalid_text(&t, true, fsp, out, a, err);
        *out = (rc_value){.kind = RC_V_TIMESTAMP, .ts = {.sec = (int64_t)sec, .nanos = us * 1000}};
        return RC_OK;
    }
    default:
        return malformed(c, "not a temporal type", err);
    }
}
