/* Text layouts of numbers, bytes and dates shared by every encoder. Every function appends
 * to an rc_buf (no quotes) and never passes an exact number through a double.
 *
 * Decimal layouts follow Java BigDecimal: toString() uses an exponent when the scale is
 * negative or the adjusted exponent is below -6; toPlainString() never does.
 * Float layouts follow Java Float/Double.toString: the shortest digits that read back to
 * the same value; plain notation for 1e-3 <= |x| < 1e7 (always with a fraction digit,
 * `10357.0`), otherwise `d.dddE±n` (`1.2510357E7`). NaN and infinities are written as
 * `NaN`, `Infinity`, `-Infinity`; JSON encoders quote them (Jackson's default). */
#ifndef ROWCAST_FMT_H
#define ROWCAST_FMT_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/value.h"

/* ---- integers ---- */
void rc_fmt_i64(rc_buf *b, int64_t v);
void rc_fmt_u64(rc_buf *b, uint64_t v);
/* The same at w, which has room for RC_FMT_INT_MAX bytes; each returns the end. */
char *rc_fmt_i64_at(char *w, int64_t v);
char *rc_fmt_u64_at(char *w, uint64_t v);
#define RC_FMT_INT_MAX 20 /* UINT64_MAX's digits, INT64_MIN's sign and digits */
/* "00" "01" ... "99": the two digits of i at rc_fmt_digits2[2 * i] (decimal digits written two
 * at a time). */
extern const char rc_fmt_digits2[201];
/* Parses a JSON-grammar integer ("-12"); RC_ERR_RANGE beyond the type, RC_ERR_VALUE when not
 * an integer. */
rc_status rc_parse_i64(const char *s, size_t n, int64_t *out);
rc_status rc_parse_u64(const char *s, size_t n, uint64_t *out);

/* ---- decimals ---- */
/* Parses `[+-]digits[.digits][(e|E)[+-]digits]` (also `.5`, `5.`) into digits and scale.
 * Digits are copied into the arena. The scale must lie within ±RC_DEC_MAX_SCALE (PostgreSQL's
 * numeric range), so that a plain rendering stays bounded: "1E99999999" is RC_ERR_RANGE. */
#define RC_DEC_MAX_SCALE 131072
rc_status rc_dec_parse(const char *s, size_t n, rc_arena *a, rc_decimal *out);
void rc_fmt_dec_java(rc_buf *b, const rc_decimal *d);  /* BigDecimal.toString() */
void rc_fmt_dec_plain(rc_buf *b, const rc_decimal *d); /* BigDecimal.toPlainString() */
/* Canonical text rowcast uses where it owns the layout: plain when scale >= 0, Java
 * toString otherwise (so the scale survives a round trip). */
void rc_fmt_dec_canonical(rc_buf *b, const rc_decimal *d);
/* The unscaled value as Java's BigInteger.toByteArray(): big-endian two's complement in the
 * fewest bytes that keep the sign (0 is 00, 128 is 00 80, -129 is FF 7F). This is Kafka
 * Connect's Decimal and Debezium's decimal.handling.mode=precise. */
void rc_dec_unscaled_bytes(rc_buf *b, const rc_decimal *d);
/* The same bytes at out for a value of at most 18 digits (not -0): their count, 0 for any
 * other value (rc_dec_unscaled_bytes writes those). */
size_t rc_dec_unscaled_small(const rc_decimal *d, unsigned char out[8]);
/* Longest digit string rc_dec_unscaled_bytes is given (its cost grows with the square). */
#define RC_DEC_MAX_BINARY_DIGITS 8192

/* ---- floats ---- */
void rc_fmt_f64_java(rc_buf *b, double v); /* Double.toString */
void rc_fmt_f32_java(rc_buf *b, float v);  /* Float.toString */
/* The general algorithms behind rc_fmt_f64_java and rc_fmt_f32_java without their fast paths
 * (for tests). */
void rc_fmt_f64_java_slow(rc_buf *b, double v);
void rc_fmt_f32_java_slow(rc_buf *b, float v);
/* The shortest digits rounded half-up to at most `sig` significant digits (7 for FLOAT, 16
 * for DOUBLE in the OMS formats), trailing zeros dropped, laid out like Double.toString:
 * 9.999999 stays 9.999999, 0.1+0.2 becomes 0.3, the float 3.14f is 3.14. */
void rc_fmt_f64_sig(rc_buf *b, double v, int sig);
void rc_fmt_f32_sig(rc_buf *b, float v, int sig);
/* True when v is NaN or infinite (callers that write JSON quote those). */
bool rc_f64_special(double v);
/* A float32/float64 value as a JSON number in Java toString layout; NaN and infinities as
 * the strings "NaN", "Infinity", "-Infinity" (Jackson's default). */
void rc_fmt_json_float(rc_buf *b, const rc_value *v);

/* ---- bytes ---- */
void rc_fmt_base64(rc_buf *b, const unsigned char *p, size_t n);
/* The same in double quotes (a JSON string: base64 needs no escape), one reservation. */
void rc_fmt_base64_quoted(rc_buf *b, const unsigned char *p, size_t n);
/* The base64 of p[0..n) at o, which has room for RC_BASE64_LEN(n) bytes; returns the end. */
char *rc_fmt_base64_at(char *o, const unsigned char *p, size_t n);
#define RC_BASE64_LEN(n) (((n) + 2) / 3 * 4)
/* Decodes standard base64 with padding into the arena; RC_ERR_VALUE names the bad byte in
 * *bad (offset into s). */
rc_status rc_base64_decode(const char *s, size_t n, rc_arena *a, rc_str *out, size_t *bad);
/* The same in the URL-safe alphabet ('-', '_'; padded), and its writer */
rc_status rc_base64url_decode(const char *s, size_t n, rc_arena *a, rc_str *out, size_t *bad);
void rc_fmt_base64url(rc_buf *b, const unsigned char *p, size_t n);
void rc_fmt_hex(rc_buf *b, const unsigned char *p, size_t n, bool upper);
/* Java's Arrays.toString(byte[]): "[106, 103, -1]" with signed bytes; "[]" when empty. */
void rc_fmt_java_bytes(rc_buf *b, const unsigned char *p, size_t n);
/* A BIT(width) value as its declared width in bytes, ⌈width/8⌉ (1..8), big-endian; returns
 * the byte count. width <= 0 counts as BIT(1). */
size_t rc_bits_bytes(int width, uint64_t u, unsigned char out[8]);

/* ---- dates and times ---- */
int64_t rc_days_from_civil(int32_t y, unsigned m, unsigned d); /* days since 1970-01-01 */
void rc_civil_from_days(int64_t days, int32_t *y, unsigned *m, unsigned *d);
unsigned rc_days_in_month(int32_t y, unsigned m); /* m 1-12, Gregorian leap years */
int64_t rc_floor_div(int64_t a, int64_t b);        /* rounded toward minus infinity */
bool rc_date_valid(int32_t y, unsigned m, unsigned d);

/* Fraction of a second: "" for 0, else "." + up to 9 digits, trailing zeros removed. */
void rc_fmt_frac(rc_buf *b, uint32_t nanos);
/* "." + v in exactly `digits` digits (1-9), zeros in front: a fraction as a layout with a fixed
 * number of digits writes it (v < 10^digits). */
void rc_fmt_frac_digits(rc_buf *b, uint32_t v, int digits);
void rc_fmt_date(rc_buf *b, const rc_date *d);         /* 2024-02-29 */
void rc_fmt_time(rc_buf *b, const rc_time *t);         /* -838:59:59, 12:00:00.5 */
/* 2020-11-25 00:01:02.012345 [zone]; `sep` is ' ' or 'T'; the zone follows after a space
 * when `with_zone` and the value has one. */
void rc_fmt_datetime(rc_buf *b, const rc_datetime *dt, char sep, bool with_zone);
void rc_fmt_ts_iso(rc_buf *b, const rc_timestamp *ts);   /* 2022-11-15T05:12:11.5Z (UTC) */
/* The date's text of the last day rc_fmt_ts_iso_memo wrote (n 0: none yet). */
typedef struct rc_day_memo {
    int64_t day;
    size_t n;
    char ymd[24];
} rc_day_memo;
/* The instant in UTC as java.time's ISO_OFFSET_DATE_TIME writes it (Debezium's ZonedTimestamp):
 * a '+' before a year past 9999; the fraction with exactly `width` digits when 1-9 (Debezium's
 * fractionalWidth, the column's precision), else as many as needed: 2022-11-15T05:12:11.5Z. */
void rc_fmt_ts_java(rc_buf *b, const rc_timestamp *ts, int width);
/* rc_fmt_ts_java's text (in double quotes when quoted: a JSON string), the date's text made
 * once for a run of timestamps of one day, one reservation. */
void rc_fmt_ts_java_memo(rc_buf *b, const rc_timestamp *ts, rc_day_memo *m, int width, bool quoted);
void rc_fmt_ts_epoch(rc_buf *b, const rc_timestamp *ts); /* 1606233662.012345 */
/* Wall clock of the instant at a fixed UTC offset: 2020-11-25 00:01:02[.f] */
void rc_fmt_ts_local(rc_buf *b, const rc_timestamp *ts, int32_t offset_sec, char sep);

int64_t rc_date_epoch_days(const rc_date *d);
int64_t rc_time_micros(const rc_time *t);          /* signed µs since 00:00:00 */
int64_t rc_datetime_epoch_ms(const rc_datetime *dt); /* ms since 1970-01-01, zone ignored */
bool rc_datetime_epoch_us(const rc_datetime *dt, int64_t *us); /* false when beyond 64-bit µs */
int64_t rc_datetime_epoch_sec(const rc_datetime *dt); /* whole seconds: the fraction dropped, exact before 1970 */

/* Parsers of the layouts above. They return false when the text is not that layout or
 * not a valid value (callers keep such text as RC_V_INVALID where the type allows). */
bool rc_parse_date(const char *s, size_t n, rc_date *out);
bool rc_parse_time(const char *s, size_t n, rc_time *out);
/* `YYYY-MM-DD[ T]HH:MM:SS[.f][ zone]`; the zone is a borrowed slice of s. */
bool rc_parse_datetime(const char *s, size_t n, rc_datetime *out);
/* `YYYY-MM-DDTHH:MM:SS[.f]Z` */
bool rc_parse_ts_iso(const char *s, size_t n, rc_timestamp *out);

#endif
