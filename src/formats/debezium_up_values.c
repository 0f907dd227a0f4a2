/* Upstream Debezium: column values as Kafka Connect holds them (rc_dbz_connect_value: every
 * rule of the connectors and the handling modes, once), and their JSON; row images in JSON.
 * The Avro writer (debezium_up_avro.c) encodes the same values. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "core/pg_value_text.h"
#include "formats/debezium_up_enc.h"
#include "core/vparse.h"
#include "core/jsonw.h"

/* The unscaled value of a decimal rescaled to `scale` (padding zeros); false when the value
 * has more fraction digits than the column declares. */
bool rc_dbz_rescale(const rc_decimal *d, int32_t scale, rc_buf *digits, rc_decimal *out)
{
    *out = *d;
    if (d->scale == scale) return true;
    if (d->scale > scale || (int64_t)scale - d->scale + d->ndigits > RC_DEC_MAX_BINARY_DIGITS) return false;
    rc_buf_reset(digits);
    rc_buf_put(digits, d->digits, d->ndigits);
    for (int32_t i = d->scale; i < scale; i++) rc_buf_putc(digits, '0');
    if (digits->err != RC_OK) return false;
    out->digits = digits->data;
    out->ndigits = (uint32_t)digits->len;
    out->scale = scale;
    if (d->ndigits == 1 && d->digits[0] == '0') out->ndigits = 1; /* zero stays "0" */
    return true;
}

rc_status rc_dbz_fits_unit(const rc_column *c, uint32_t nanos, rc_str zone, bool ms, const char *hint, rc_cut_log *cuts, rc_error *err)
{
    const char *unit = ms ? "milliseconds" : "microseconds";
    if (nanos % (ms ? 1000000u : 1000u)) {
        if (cuts && !zone.n) { /* --on-loss=cut: the connector's own value, the finer digits cut off */
            rc_cut_note(cuts, c, unit);
            return RC_OK;
        }
        rc_error_set(err, RC_ERR_RANGE, RC_NO_OFFSET, "column \"%.*s\" (%.*s): the value's fraction of a second .%09u is finer than the %s Debezium writes for it%s%s",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (unsigned)nanos, unit, hint ? "; " : "", hint ? hint : "");
        return RC_SKIP;
    }
    if (zone.n) {
        rc_error_set(err, RC_ERR_RANGE, RC_NO_OFFSET, "column \"%.*s\" (%.*s): the value's zone %.*s has no place in the epoch %s Debezium writes",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (int)zone.n, zone.p, unit);
        return RC_SKIP;
    }
    return RC_OK;
}

/* ---- the mapping ---- */

/* An unchanged TOAST value: Debezium's PostgreSQL connector writes its placeholder
 * (unavailable.value.placeholder, "__debezium_unavailable_value") in string columns, its bytes
 * in bytea ones and a one-element array of it in arrays of strings; any other schema cannot
 * hold it, and the event is not expressible. */
static rc_status unavailable(up_enc *e, const rc_column *c, dbz_cv *cv, rc_error *err)
{
    static const char ph[] = "__debezium_unavailable_value";
    rc_buf params;
    rc_buf_init(&params, 0);
    col_schema s, es = {"", NULL, 0, NULL, NULL};
    rc_dbz_col_schema(e, c, &s, &params);
    rc_column ec;
    if (!strcmp(s.type, "array") && rc_dbz_array_elem(e, c, &ec)) rc_dbz_col_schema(e, &ec, &es, &params);
    rc_buf_fini(&params);
    if (c->type.info->vkind == RC_V_BYTES) {
        cv->kind = CV_BYTES, cv->s = (rc_str){ph, sizeof ph - 1};
        return RC_OK;
    }
    if (!strcmp(s.type, "string")) {
        cv->kind = CV_ASCII, cv->s = (rc_str){ph, sizeof ph - 1};
        return RC_OK;
    }
    if (!strcmp(es.type, "string")) {
        cv->kind = CV_JSON, cv->s = RC_STR("[\"__debezium_unavailable_value\"]");
        return RC_OK;
    }
    return rc_dbz_unavailable_error(c, false, err);
}

rc_status rc_dbz_unavailable_error(const rc_column *c, bool avro, rc_error *err)
{
    rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                 "column \"%.*s\" (%.*s): its value was not sent (an unchanged TOAST value) and upstream Debezium%s has no "
                 "placeholder for this type; REPLICA IDENTITY FULL sends it in the old row",
                 (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, avro ? " Avro" : "");
    return RC_SKIP;
}

/* A decimal in the decimal handling mode: its text (BigDecimal.toString() when java, else
 * toPlainString()), a double, or a Decimal of `scale`. */
static rc_status decimal_cv(up_enc *e, const rc_column *c, const rc_decimal *dec, int32_t scale, bool java, dbz_cv *cv, rc_error *err)
{
    if (e->dec_mode == DEC_STRING) {
        cv->kind = CV_ASCII, cv->fmt = java ? CV_FMT_DEC_JAVA : CV_FMT_DEC_PLAIN, cv->dec = *dec;
    } else if (e->dec_mode == DEC_DOUBLE) {
        rc_buf *t = &e->cvtext;
        rc_buf_reset(t);
        rc_fmt_dec_java(t, dec);
        rc_buf_putc(t, '\0');
        if (t->err != RC_OK) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        cv->kind = CV_DOUBLE, cv->f64 = strtod(t->data, NULL);
    } else {
        if (!rc_dbz_rescale(dec, scale, &e->digits, &cv->dec))
            return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET,
                                "column \"%.*s\": the value has more fraction digits than its scale %d, or more than %d digits",
                                (int)c->name.n, c->name.p, scale, RC_DEC_MAX_BINARY_DIGITS);
        cv->kind = CV_DECIMAL;
    }
    return RC_OK;
}

/* A PostgreSQL numeric without a declared scale in precise mode: VariableScaleDecimal of the
 * value without trailing zeros, scale at least 0 (the connector's stripTrailingZeros): 1.50 is
 * {scale 1, 15}, 100 {scale 0, 100}. */
static rc_status variable_scale(up_enc *e, const rc_column *c, const rc_decimal *dec, dbz_cv *cv, rc_error *err)
{
    if (dec->ndigits > RC_DEC_MAX_BINARY_DIGITS)
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\": more than %d digits", (int)c->name.n, c->name.p,
                            RC_DEC_MAX_BINARY_DIGITS);
    rc_decimal d = *dec;
    while (d.scale > 0 && d.ndigits > 1 && d.digits[d.ndigits - 1] == '0') d.ndigits--, d.scale--;
    if (d.ndigits == 1 && d.digits[0] == '0') d.scale = 0;
    if (d.scale < 0 && !rc_dbz_rescale(dec, 0, &e->digits, &d))
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\": more than %d digits", (int)c->name.n, c->name.p,
                            RC_DEC_MAX_BINARY_DIGITS);
    cv->kind = CV_VSDECIMAL, cv->dec = d;
    return RC_OK;
}

/* A geometry's WKT as Point {x, y, wkb, srid} (POINT columns) or Geometry {wkb, srid}. */
static rc_status geometry_cv(up_enc *e, const rc_column *c, rc_str wkt, dbz_cv *cv, rc_error *err)
{
    rc_buf_reset(&e->scratch);
    rc_error gerr;
    rc_error_clear(&gerr);
    if (rc_wkt_to_wkb(wkt.p, wkt.n, &e->scratch, &cv->geo, &gerr) != RC_OK)
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\": %s", (int)c->name.n, c->name.p, gerr.message);
    cv->kind = CV_GEOMETRY;
    /* MySQL's SRID 0 is "unset": Debezium's MySqlGeometry makes it null */
    if (cv->geo.has_srid && cv->geo.srid == 0 && c->type.info->family == RC_FAM_MYSQL) cv->geo.has_srid = false;
    if (!strcmp(c->type.info->name, "point")) {
        if (!cv->geo.is_point)
            return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\" is a POINT but the value is not", (int)c->name.n, c->name.p);
        cv->kind = CV_POINT;
    }
    return RC_OK;
}

/* PostgreSQL's ±infinity and NaN, which the canonical value keeps as their text (RC_V_INVALID),
 * as the connector writes them (PostgresValueConverter, SpecialValueDecimal); null otherwise. */
static rc_status pg_special(up_enc *e, const rc_column *c, rc_str text, dbz_cv *cv, rc_error *err)
{
    int inf = rc_dbz_pg_infinity(text);
    cv->kind = CV_NULL;
    switch (c->type.info->vkind) {
    case RC_V_DECIMAL: {
        bool nan = text.n == 3 && !memcmp(text.p, "NaN", 3);
        bool pos = text.n == 8 && !memcmp(text.p, "Infinity", 8), neg = text.n == 9 && !memcmp(text.p, "-Infinity", 9);
        if (!nan && !pos && !neg) return RC_OK;
        if (e->dec_mode == DEC_STRING) { /* SpecialValueDecimal.toString(): the enum constant's name */
            cv->kind = CV_ASCII, cv->s = nan ? RC_STR("NAN") : pos ? RC_STR("POSITIVE_INFINITY") : RC_STR("NEGATIVE_INFINITY");
        } else if (e->dec_mode == DEC_DOUBLE) {
            cv->kind = CV_DOUBLE, cv->f64 = nan ? (double)NAN : pos ? (double)INFINITY : -(double)INFINITY;
        } else {
            rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                         "column \"%.*s\" (%.*s): %.*s has no Decimal value, and upstream Debezium stops on it in "
                         "decimal.handling.mode precise; -o debezium.decimal.handling.mode=string or double writes it",
                         (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (int)text.n, text.p);
            return RC_SKIP;
        }
        return RC_OK;
    }
    case RC_V_DATE:
        if (inf && e->time_mode != TIME_CONNECT) cv->kind = CV_INT, cv->i = rc_dbz_pg_infinity_days(inf);
        return RC_OK;
    case RC_V_DATETIME: {
        if (!inf || e->time_mode == TIME_CONNECT) return RC_OK;
        int64_t us = rc_dbz_pg_infinity_micros(inf);
        cv->kind = CV_INT, cv->i = datetime_as(e, c) == DT_MICROS ? us : us / 1000;
        return RC_OK;
    }
    case RC_V_TIMESTAMP: /* ZonedTimestamp: the connector passes PostgreSQL's text on */
        if (inf) cv->kind = CV_TEXT, cv->s = text;
        return RC_OK;
    default: return RC_OK;
    }
}

/* Bytes s in binary.handling.mode. */
static void bytes_cv(const up_enc *e, rc_str s, dbz_cv *cv)
{
    if (e->bin_mode == BIN_BYTES) cv->kind = CV_BYTES;
    else cv->kind = CV_ASCII, cv->fmt = e->bin_mode == BIN_HEX ? CV_FMT_HEX : e->bin_mode == BIN_BASE64URL ? CV_FMT_BASE64URL : CV_FMT_BASE64;
    cv->s = s;
}

/* A column of a type the connector has no converter for (rc_dbz_unknown: u): the bytes of its
 * text, or the reason it is not written. */
static rc_status unknown_value(up_enc *e, const rc_column *c, const rc_value *v, dbz_unknown u, dbz_cv *cv, rc_error *err)
{
    if (u == UNK_BYTES) {
        if (v->kind == RC_V_NULL) {
            cv->kind = CV_NULL;
        } else if (rc_dbz_pg_geometric(c->type.info)) { /* the JDBC driver's text */
            rc_buf_reset(&e->cvtext);
            rc_dbz_pg_geometric_text(&e->cvtext, v->s);
            if (e->cvtext.err != RC_OK) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
            bytes_cv(e, (rc_str){e->cvtext.data, e->cvtext.len}, cv);
        } else {
            bytes_cv(e, v->s, cv);
        }
        return RC_OK;
    }
    rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                 "column \"%.*s\" (%.*s): upstream Debezium's PostgreSQL connector has no converter for this type and leaves "
                 "the column out of its events, which this part of the message cannot (-o debezium.include.unknown.datatypes=true "
                 "writes the bytes of its text)",
                 (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p);
    return RC_SKIP;
}

/* The value of a PostgreSQL column whose kind (pg_kind) the connector writes in a way of its
 * own; *done false for the others. */
static rc_status pg_value(up_enc *e, const rc_column *c, const rc_value *v, dbz_pg_kind k, dbz_cv *cv, bool *done, rc_error *err)
{
    *done = true;
    if (v->kind == RC_V_INVALID) return pg_special(e, c, v->s, cv, err);
    if (k == DBZ_PG_FLOAT4 && v->kind == RC_V_FLOAT32) {
        cv->kind = CV_FLOAT, cv->f32 = v->f32;
        return RC_OK;
    }
    if (v->kind != RC_V_TEXT && !(k == DBZ_PG_INTERVAL && v->kind == RC_V_INTERVAL)) {
        *done = false;
        return RC_OK;
    }
    rc_status st;
    if (e->geometric37 && rc_dbz_pg_geometric(c->type.info)) { /* 3.7's struct, as its JSON (Avro: not built) */
        rc_buf_reset(&e->cvtext);
        if ((st = rc_dbz_pg_geometric_json(&e->cvtext, &e->pgbuf, c, v->s, err)) != RC_OK) return st;
        cv->kind = CV_JSON, cv->s = (rc_str){e->cvtext.data, e->cvtext.len};
        return RC_OK;
    }
    switch (k) {
    case DBZ_PG_TIMETZ: { /* written as a JSON string of ASCII: kept without its quotes */
        rc_buf_reset(&e->cvtext);
        if ((st = rc_dbz_pg_timetz(&e->cvtext, c, v->s, err)) != RC_OK) return st;
        if (e->cvtext.err != RC_OK) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        cv->kind = CV_ASCII, cv->s = (rc_str){e->cvtext.data + 1, e->cvtext.len - 2};
        return RC_OK;
    }
    case DBZ_PG_BITS: /* bit(1) a boolean, else the bytes (pgbuf) */
        rc_buf_reset(&e->cvtext);
        if ((st = rc_dbz_pg_bits(&e->cvtext, &e->pgbuf, c, v->s, err)) != RC_OK) return st;
        if (c->type.p1 == 1) cv->kind = CV_BOOL, cv->b = e->cvtext.len == 4; /* "true" */
        else cv->kind = CV_BYTES, cv->s = (rc_str){e->pgbuf.data, e->pgbuf.len};
        return RC_OK;
    case DBZ_PG_INTERVAL:
        if (e->interval_string) { /* ASCII: written as a JSON string as it is */
            rc_buf_reset(&e->cvtext);
            if ((st = rc_dbz_pg_interval_iso(&e->cvtext, c, v->s, err)) != RC_OK) return st;
            cv->kind = CV_ASCII, cv->s = (rc_str){e->cvtext.data, e->cvtext.len};
            return RC_OK;
        }
        cv->kind = CV_INT;
        return rc_dbz_pg_interval(c, v->s, &cv->i, err);
    case DBZ_PG_MONEY: {
        rc_decimal d;
        if ((st = rc_dbz_pg_money(c, v->s, &e->pgbuf, &d, err)) != RC_OK) return st;
        return decimal_cv(e, c, &d, 2, false, cv, err);
    }
    case DBZ_PG_POINT:
        if ((st = rc_dbz_pg_point_wkt(c, v->s, &e->pgbuf, err)) != RC_OK) return st;
        return geometry_cv(e, c, (rc_str){e->pgbuf.data, e->pgbuf.len}, cv, err);
    case DBZ_PG_ARRAY: cv->kind = CV_ARRAY, cv->s = v->s; return RC_OK;
    case DBZ_PG_POSTGIS: /* the EWKB's bytes as they are (SRID included), and its SRID */
        cv->kind = CV_GEOMETRY;
        return rc_dbz_pg_ewkb(c, v->s, &e->scratch, &cv->geo, err);
    case DBZ_PG_HSTORE: /* its JSON: a string of it (json), or the map itself (map) */
        rc_buf_reset(&e->cvtext);
        rc_arena_reset(&e->hstore_pairs); /* not elems: an array of hstore's elements are there */
        if ((st = rc_dbz_pg_hstore_json(&e->cvtext, &e->hstore_pairs, c, v->s, err)) != RC_OK) return st;
        cv->kind = e->hstore_map ? CV_JSON : CV_TEXT, cv->s = (rc_str){e->cvtext.data, e->cvtext.len};
        return RC_OK;
    default: *done = false; return RC_OK;
    }
}

/* Debezium's enable.time.adjuster (BinlogValueConverters.adjustTemporal): a year 0-69 is
 * 2000-2069, 70-99 is 1970-1999, as MySQL reads two-digit years. */
static int32_t adjusted_year(int32_t y) { return y < 70 ? y + 2000 : y + 1900; }

/* Inlined into the JSON writer, whose switch on the kind then folds away for the common types. */
static inline __attribute__((always_inline)) rc_status connect_value(up_enc *e, const rc_column *c, const rc_value *v, dbz_cv *cv,
                                                                      rc_error *err)
{
    const rc_type_info *t = c->type.info;
    dbz_pg_kind pk = pg_kind(e, c);
    cv->fmt = CV_FMT_NONE;
    v = zero_date_value(c, v);
    dbz_unknown u = pk == DBZ_PG_UNKNOWN || pk == DBZ_PG_OTHER || pk == DBZ_PG_ARRAY ? rc_dbz_unknown(e, c) : UNK_NO;
    if (u != UNK_NO && v->kind != RC_V_UNAVAILABLE) return unknown_value(e, c, v, u, cv, err); /* NULL or not */
    if ((pk != DBZ_PG_NONE || (v->kind == RC_V_INVALID && t->family == RC_FAM_PG)) && v->kind != RC_V_NULL && v->kind != RC_V_UNAVAILABLE &&
        v->kind != RC_V_GEOMETRY) {
        bool done;
        rc_status st = pg_value(e, c, v, pk, cv, &done, err);
        if (done) return st;
    }
    switch (v->kind) {
    case RC_V_NULL:
    case RC_V_INVALID: cv->kind = CV_NULL; return RC_OK; /* zero dates of nullable columns: Debezium writes null */
    case RC_V_UNAVAILABLE: return unavailable(e, c, cv, err);
    case RC_V_BOOL: cv->kind = CV_BOOL, cv->b = v->b; return RC_OK;
    case RC_V_INT: cv->kind = CV_INT, cv->i = v->i; return RC_OK;
    case RC_V_UINT:
        if (e->unsigned_precise) { /* a Decimal of scale 0 */
            rc_buf tmp = {cv->own, 0, sizeof cv->own, sizeof cv->own, RC_OK};
            rc_fmt_u64(&tmp, v->u);
            cv->kind = CV_DECIMAL, cv->dec = (rc_decimal){cv->own, (uint32_t)tmp.len, 0, false};
            return RC_OK;
        }
        if (v->u > INT64_MAX) { /* Debezium wraps it to a negative number: rowcast with --on-loss=cut, else it refuses */
            if (e->cuts) {
                rc_cut_note(e->cuts, c, "an int64 wrapped as Debezium does");
                cv->kind = CV_INT, cv->i = (int64_t)(v->u - (uint64_t)INT64_MAX - 1) + INT64_MIN; /* 2^64-1 is -1 */
                return RC_OK;
            }
            rc_error_set(err, RC_ERR_RANGE, RC_NO_OFFSET,
                         "column \"%.*s\": %llu does not fit an int64 (bigint.unsigned.handling.mode=long; "
                         "-o debezium.bigint.unsigned.handling.mode=precise keeps it, --on-loss=cut wraps it as Debezium does)",
                         (int)c->name.n, c->name.p, (unsigned long long)v->u);
            return RC_SKIP;
        }
        cv->kind = CV_UINT, cv->u = v->u;
        return RC_OK;
    case RC_V_DECIMAL:
        if (e->dec_mode == DEC_PRECISE && c->type.p2 < 0 && t->family == RC_FAM_PG) return variable_scale(e, c, &v->dec, cv, err);
        /* the PostgreSQL connector writes BigDecimal.toString() (SpecialValueDecimal: 1E-7 for
         * 0.0000001), the others toPlainString() */
        return decimal_cv(e, c, &v->dec, dec_scale(c, &v->dec), t->family == RC_FAM_PG, cv, err);
    case RC_V_FLOAT32:
        if (float32_kept(e, c)) cv->kind = CV_FLOAT, cv->f32 = v->f32;
        else cv->kind = CV_DOUBLE, cv->f64 = (double)v->f32; /* widened, as Debezium 1.x does (3.14f is 3.140000104904175) */
        return RC_OK;
    case RC_V_FLOAT64: cv->kind = CV_DOUBLE, cv->f64 = v->f64; return RC_OK;
    case RC_V_BITS:
        if (c->type.p1 <= 1) {
            cv->kind = CV_BOOL, cv->b = v->u != 0;
        } else { /* io.debezium.data.Bits: little-endian bytes */
            unsigned char be[8];
            size_t nb = rc_bits_bytes(c->type.p1, v->u, be);
            for (size_t i = 0; i < nb; i++) cv->own[i] = (char)be[nb - 1 - i];
            cv->kind = CV_BYTES, cv->s = (rc_str){cv->own, nb};
        }
        return RC_OK;
    case RC_V_BYTES: bytes_cv(e, v->s, cv); return RC_OK;
    case RC_V_DATE:
        cv->kind = CV_INT, cv->i = rc_date_epoch_days(&v->date);
        if (v->date.year < 100 && e->time_adjust && t->family == RC_FAM_MYSQL) {
            rc_date d = v->date;
            d.year = adjusted_year(d.year);
            cv->i = rc_date_epoch_days(&d);
        }
        return RC_OK;
    case RC_V_TIME: {
        bool ms = time_millis(e, c);
        rc_status st = rc_dbz_fits_unit(c, v->time.nanos, (rc_str){0}, ms, ms ? "time.precision.mode=adaptive_time_microseconds writes microseconds" : NULL,
                                        e->cuts, err);
        cv->kind = CV_INT, cv->i = ms ? rc_time_micros(&v->time) / 1000 : rc_time_micros(&v->time);
        return st;
    }
    case RC_V_DATETIME: {
        dt_as as = datetime_as(e, c);
        if (as == DT_ZONED) {
            cv->kind = CV_ASCII, cv->fmt = CV_FMT_DATETIME, cv->v = v;
            return RC_OK;
        }
        const char *hint = as == DT_MILLIS ? "a column declared with the precision its values have (datetime(6)) is written in microseconds" : NULL;
        rc_status st = rc_dbz_fits_unit(c, v->dt.nanos, v->dt.zone, as != DT_MICROS, hint, e->cuts, err);
        if (st != RC_OK) return st;
        const rc_datetime *dt = &v->dt;
        rc_datetime adj;
        if (dt->year < 100 && e->time_adjust && t->family == RC_FAM_MYSQL) {
            adj = *dt;
            adj.year = adjusted_year(adj.year);
            dt = &adj;
        }
        cv->kind = CV_INT;
        if (as != DT_MICROS) cv->i = rc_datetime_epoch_ms(dt);
        else if (!rc_datetime_epoch_us(dt, &cv->i)) {
            rc_error_set(err, RC_ERR_RANGE, RC_NO_OFFSET, "column \"%.*s\" (%.*s): year %d is beyond the microseconds since 1970 that Debezium's 64 bits hold",
                         (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (int)v->dt.year);
            return RC_SKIP;
        }
        return RC_OK;
    }
    case RC_V_TIMESTAMP: cv->kind = CV_ASCII, cv->fmt = CV_FMT_TIMESTAMP, cv->v = v, cv->width = zoned_width(e, c); return RC_OK;
    case RC_V_GEOMETRY: return geometry_cv(e, c, v->s, cv, err);
    default: cv->kind = CV_TEXT, cv->s = v->s; return RC_OK;
    }
}

rc_status rc_dbz_connect_value(up_enc *e, const rc_column *c, const rc_value *v, dbz_cv *cv, rc_error *err)
{
    return connect_value(e, c, v, cv, err);
}

void rc_dbz_put_ascii(up_enc *e, rc_buf *b, const dbz_cv *cv)
{
    (void)e;
    switch (cv->fmt) {
    case CV_FMT_NONE: rc_buf_put(b, cv->s.p, cv->s.n); return;
    case CV_FMT_DEC_PLAIN: rc_fmt_dec_plain(b, &cv->dec); return;
    case CV_FMT_DEC_JAVA: rc_fmt_dec_java(b, &cv->dec); return;
    case CV_FMT_TIMESTAMP: rc_fmt_ts_java(b, &cv->v->ts, cv->width); return;
    case CV_FMT_DATETIME: rc_fmt_datetime(b, &cv->v->dt, 'T', false); return;
    case CV_FMT_HEX: rc_fmt_hex(b, (const unsigned char *)cv->s.p, cv->s.n, false); return;
    case CV_FMT_BASE64: rc_fmt_base64(b, (const unsigned char *)cv->s.p, cv->s.n); return;
    case CV_FMT_BASE64URL: rc_fmt_base64url(b, (const unsigned char *)cv->s.p, cv->s.n); return;
    }
}

/* ---- JSON ---- */

static rc_status elem_value(up_enc *e, const rc_column *ec, rc_str text, rc_value *v, rc_error *err)
{
    static const uint8_t readers[RC_V_KIND_COUNT] = {
        [RC_V_BOOL] = RC_PG_R_BOOL,       [RC_V_INT] = RC_PG_R_INT,           [RC_V_DECIMAL] = RC_PG_R_NUMERIC,
        [RC_V_FLOAT32] = RC_PG_R_FLOAT4,  [RC_V_FLOAT64] = RC_PG_R_FLOAT8,    [RC_V_TEXT] = RC_PG_R_TEXT,
        [RC_V_BYTES] = RC_PG_R_BYTEA,     [RC_V_DATE] = RC_PG_R_DATE,         [RC_V_TIME] = RC_PG_R_TIME,
        [RC_V_DATETIME] = RC_PG_R_TIMESTAMP, [RC_V_TIMESTAMP] = RC_PG_R_TIMESTAMPTZ, [RC_V_INTERVAL] = RC_PG_R_INTERVAL,
        [RC_V_JSON] = RC_PG_R_JSON,       [RC_V_ENUM] = RC_PG_R_ENUM,
    };
    rc_vkind k = (rc_vkind)ec->type.info->vkind;
    rc_pg_type t = {ec->type, (rc_pg_reader)readers[k], -1, ',', RC_PG_R_TEXT, -1};
    if (k != RC_V_INT && !readers[k]) t.reader = RC_PG_R_TEXT; /* RC_PG_R_INT is 0 */
    return rc_pg_value_parse(&t, ec, text.p, text.n, &e->elems, v, err);
}

/* A decimal's unscaled value as Kafka Connect's Decimal bytes in base64 (JsonConverter's
 * rendering of bytes), a JSON string. */
static void put_dec_b64(up_enc *e, rc_buf *b, const rc_decimal *d)
{
    unsigned char small[8];
    size_t n = rc_dec_unscaled_small(d, small);
    if (n) { /* most values: no scratch buffer */
        rc_fmt_base64_quoted(b, small, n);
        return;
    }
    rc_buf_reset(&e->scratch);
    rc_dec_unscaled_bytes(&e->scratch, d);
    rc_fmt_base64_quoted(b, (const unsigned char *)e->scratch.data, e->scratch.len);
}

/* A PostgreSQL array as a JSON array of its elements, each as the element type is written. */
static rc_status pg_array(up_enc *e, rc_buf *b, const rc_column *c, rc_str text, rc_error *err)
{
    rc_column ec;
    if (!rc_dbz_array_elem(e, c, &ec))
        return rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET, "column \"%.*s\": array type %.*s has no element type", (int)c->name.n,
                            c->name.p, (int)c->type.decl.n, c->type.decl.p);
    dbz_pg_kind ek = pg_kind(e, &ec);
    if (ek == DBZ_PG_MONEY || ek == DBZ_PG_INTERVAL || ek == DBZ_PG_BITS || ek == DBZ_PG_XML || ek == DBZ_PG_POINT ||
        ek == DBZ_PG_UNKNOWN || ek == DBZ_PG_ARRAY || !strcmp(ec.type.info->name, "name")) {
        rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                     "column \"%.*s\" (%.*s): upstream Debezium's PostgreSQL connector has no schema for arrays of %s and leaves "
                     "the column out of its events; rowcast drops no column",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, ec.type.info->name);
        return RC_SKIP;
    }
    dbz_pg_elem *el;
    size_t n;
    rc_arena_reset(&e->elems);
    rc_status st = rc_dbz_pg_array_split(c, text, ek == DBZ_PG_POSTGIS ? ':' : ',', &e->elems, &el, &n, err); /* PostGIS's typdelim */
    if (st != RC_OK) return st;
    rc_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) rc_buf_putc(b, ',');
        rc_value v = {.kind = RC_V_NULL};
        if (!el[i].null && (st = elem_value(e, &ec, el[i].text, &v, err)) != RC_OK) return st == RC_SKIP ? st : (rc_status)RC_SKIP;
        if ((st = rc_dbz_put_value(e, b, &ec, &v, err)) != RC_OK) return st;
    }
    rc_buf_putc(b, ']');
    return RC_OK;
}

static void put_double(rc_buf *b, double d)
{
    rc_value v = {.kind = RC_V_FLOAT64, .f64 = d};
    rc_fmt_json_float(b, &v);
}

/* Inlined into the row image's loop: one call per image, not per value. */
static inline __attribute__((always_inline)) rc_status json_value(up_enc *e, rc_buf *b, const rc_column *c, const rc_value *v,
                                                                   rc_error *err)
{
    dbz_cv cv;
    rc_status st = connect_value(e, c, v, &cv, err);
    if (st != RC_OK) return st;
    switch (cv.kind) {
    case CV_NULL: RC_BUF_LIT(b, "null"); return RC_OK;
    case CV_BOOL: rc_buf_puts(b, cv.b ? "true" : "false"); return RC_OK;
    case CV_INT: rc_fmt_i64(b, cv.i); return RC_OK;
    case CV_UINT: rc_fmt_u64(b, cv.u); return RC_OK;
    case CV_FLOAT: {
        rc_value f = {.kind = RC_V_FLOAT32, .f32 = cv.f32};
        rc_fmt_json_float(b, &f);
        return RC_OK;
    }
    case CV_DOUBLE: put_double(b, cv.f64); return RC_OK;
    case CV_TEXT: rc_jw_str(b, cv.s.p, cv.s.n); return RC_OK;
    case CV_ASCII:
        rc_buf_putc(b, '"');
        rc_dbz_put_ascii(e, b, &cv);
        rc_buf_putc(b, '"');
        return RC_OK;
    case CV_BYTES: rc_fmt_base64_quoted(b, (const unsigned char *)cv.s.p, cv.s.n); return RC_OK;
    case CV_DECIMAL:
        if (e->dec_numeric) { /* JsonConverter's numberNode(BigDecimal), written by toString() */
            rc_fmt_dec_java(b, &cv.dec);
            return RC_OK;
        }
        put_dec_b64(e, b, &cv.dec);
        return RC_OK;
    case CV_VSDECIMAL:
        RC_BUF_LIT(b, "{\"scale\":");
        rc_fmt_i64(b, cv.dec.scale);
        RC_BUF_LIT(b, ",\"value\":");
        put_dec_b64(e, b, &cv.dec);
        rc_buf_putc(b, '}');
        return RC_OK;
    case CV_POINT:
    case CV_GEOMETRY:
        rc_buf_putc(b, '{');
        if (cv.kind == CV_POINT) {
            RC_BUF_LIT(b, "\"x\":");
            put_double(b, cv.geo.x);
            RC_BUF_LIT(b, ",\"y\":");
            put_double(b, cv.geo.y);
            rc_buf_putc(b, ',');
        }
        RC_BUF_LIT(b, "\"wkb\":\"");
        rc_fmt_base64(b, (const unsigned char *)e->scratch.data, e->scratch.len);
        RC_BUF_LIT(b, "\",\"srid\":");
        if (cv.geo.has_srid) rc_fmt_i64(b, cv.geo.srid);
        else RC_BUF_LIT(b, "null");
        rc_buf_putc(b, '}');
        return RC_OK;
    case CV_ARRAY: return pg_array(e, b, c, cv.s, err);
    case CV_JSON: rc_buf_put(b, cv.s.p, cv.s.n); return RC_OK;
    }
    return RC_OK;
}

rc_status rc_dbz_put_value(up_enc *e, rc_buf *b, const rc_column *c, const rc_value *v, rc_error *err)
{
    return json_value(e, b, c, v, err);
}

/* The column's default as its schema's "default" (Debezium's DefaultValueConverter): the text
 * read as a value of the column and written as a row's value would be. A temporal column's text
 * that is no date (a zero date) is the epoch when NOT NULL, none when nullable, as a row's zero
 * date; none either when it writes null. Made once per cached schema. */
bool rc_dbz_default_json(up_enc *e, const rc_column *c, rc_str text, rc_buf *out)
{
    rc_buf_reset(out);
    rc_arena a;
    rc_arena_init(&a);
    rc_vparse_opts o = {.bytes = RC_BYTES_LATIN1}; /* a TIMESTAMP's wall clock in UTC */
    rc_value v;
    rc_error err;
    rc_error_clear(&err);
    rc_vkind k = (rc_vkind)c->type.info->vkind;
    bool temporal = k == RC_V_DATE || k == RC_V_DATETIME || k == RC_V_TIMESTAMP;
    bool ok = rc_value_from_text(c, text.p, text.n, &o, &a, &v, &err) == RC_OK;
    if (!ok && temporal) /* not a date (Debezium's parse fails): the epoch when NOT NULL, else none */
        ok = true, v = (rc_value){.kind = RC_V_INVALID, .s = text};
    /* a nullable TIMESTAMP's epoch default (CURRENT_TIMESTAMP's, DDL parser's) is none: convertToTimestamp */
    if (ok && k == RC_V_TIMESTAMP && v.kind == RC_V_TIMESTAMP && c->nullable && !v.ts.sec && !v.ts.nanos) ok = false;
    ok = ok && v.kind != RC_V_NULL && rc_dbz_put_value(e, out, c, &v, &err) == RC_OK && out->err == RC_OK &&
         !(out->len == 4 && !memcmp(out->data, "null", 4));
    rc_arena_fini(&a);
    return ok;
}

/* ---- row images ---- */

/* How a row image writes a column's value when the value has the kind its type gives
 * (rc_type_info.vkind) and the column's PostgreSQL kind is DBZ_PG_NONE: the outcome of
 * connect_value for such a value, chosen once per cached column list. Any other value (NULL
 * included, and one of another kind) goes through json_value. */
enum {
    FAST_NONE,     /* json_value for every value */
    FAST_INT,      /* RC_V_INT: int16, int32, int64 */
    FAST_UINT,     /* RC_V_UINT up to INT64_MAX in bigint.unsigned.handling.mode long: int64 */
    FAST_DOUBLE,   /* RC_V_FLOAT64: float64 */
    FAST_BOOL,     /* RC_V_BOOL */
    FAST_TEXT,     /* RC_V_TEXT, RC_V_JSON, RC_V_ENUM, RC_V_SET: a string */
    FAST_DECIMAL,  /* RC_V_DECIMAL of a declared scale in precise mode: Decimal bytes in base64 */
    FAST_BYTES,    /* RC_V_BYTES in binary.handling.mode bytes: base64 */
    FAST_DATE,     /* RC_V_DATE: days */
    FAST_MICROS,   /* RC_V_DATETIME as MicroTimestamp, when it fits microseconds */
    FAST_MILLIS,   /* RC_V_DATETIME as Timestamp in milliseconds, when it fits them */
    FAST_ZONED_TS, /* RC_V_TIMESTAMP: ZonedTimestamp, ISO 8601 in UTC */
    FAST_OUT,      /* a column of a type the connector leaves out (rc_dbz_left_out) */
};

static uint8_t fast_kind(up_enc *e, const rc_column *c)
{
    const rc_type_info *t = c->type.info;
    if (pg_kind(e, c) != DBZ_PG_NONE) return c->type.info->family == RC_FAM_PG && rc_dbz_unknown(e, c) == UNK_OUT ? FAST_OUT : FAST_NONE;
    switch (t->vkind) {
    case RC_V_INT: return FAST_INT;
    case RC_V_UINT: return e->unsigned_precise ? FAST_NONE : FAST_UINT;
    case RC_V_FLOAT64: return FAST_DOUBLE;
    case RC_V_BOOL: return FAST_BOOL;
    case RC_V_TEXT:
    case RC_V_JSON:
    case RC_V_ENUM:
    case RC_V_SET: return FAST_TEXT;
    case RC_V_DECIMAL: return e->dec_mode == DEC_PRECISE && !e->dec_numeric && c->type.p2 >= 0 ? FAST_DECIMAL : FAST_NONE;
    case RC_V_BYTES: return e->bin_mode == BIN_BYTES ? FAST_BYTES : FAST_NONE;
    case RC_V_DATE: return FAST_DATE;
    case RC_V_DATETIME: {
        dt_as as = datetime_as(e, c);
        return as == DT_MICROS ? FAST_MICROS : as == DT_ZONED ? FAST_NONE : FAST_MILLIS;
    }
    case RC_V_TIMESTAMP: return FAST_ZONED_TS;
    default: return FAST_NONE;
    }
}

enum { KEY_PAD = 16 }; /* zero bytes after the keys: a short key is copied as 16 bytes */


static rc_str field_name(void *e, rc_str name) { return rc_dbz_field_name(e, name); }

bool rc_dbz_column_keys(up_enc *e, const rc_event *ev)
{
    if (ev->cols_id && ev->cols_id == e->keys.of) return true;
    if (!rc_enc_colkeys_make(&e->keys, ev, field_name, e, KEY_PAD)) return false;
    if (ev->ncols + 1 > e->fast_cap) {
        uint8_t *nf = realloc(e->col_fast, ev->ncols + 1);
        if (!nf) return e->keys.of = NULL, false;
        e->col_fast = nf, e->fast_cap = ev->ncols + 1;
    }
    for (uint32_t i = 0; i < ev->ncols; i++) e->col_fast[i] = fast_kind(e, &ev->cols[i]);
    return true;
}

void rc_dbz_put_col_key(up_enc *e, rc_buf *b, const rc_event *ev, uint32_t i, bool cached)
{
    if (cached) {
        rc_enc_put_colkey(b, &e->keys, ev, i, true);
        return;
    }
    rc_str name = rc_dbz_field_name(e, ev->cols[i].name);
    rc_jw_str(b, name.p, name.n);
    rc_buf_putc(b, ':');
}

/* Room after a key for a value of fixed width (FAST_INT to FAST_MILLIS, null: at most an int64's text). */
enum { VAL_ROOM = RC_FMT_INT_MAX };

/* Separator sep and cached column i's key in a reservation with VAL_ROOM bytes more, a key of
 * up to 16 bytes copied as a fixed 16 (the keys end in KEY_PAD bytes) rather than by a call:
 * where the value goes, nothing committed (NULL: the buffer's error). */
static inline char *sep_key_at(const up_enc *e, rc_buf *b, char sep, uint32_t i)
{
    const char *k = e->keys.text.data + e->keys.off[i];
    size_t n = e->keys.off[i + 1] - e->keys.off[i];
    char *w = rc_buf_reserve(b, 1 + (n > KEY_PAD ? n : KEY_PAD) + VAL_ROOM);
    if (!w) return NULL;
    w[0] = sep;
    if (n <= KEY_PAD) memcpy(w + 1, k, KEY_PAD);
    else memcpy(w + 1, k, n);
    return w + 1 + n;
}

/* Commits what was written at b's end up to p. */
static inline void commit_to(rc_buf *b, const char *p) { rc_buf_commit(b, (size_t)(p - (b->data + b->len))); }

/* Value v of cached column i as col_fast says: the kinds of fixed width (FAST_INT to
 * FAST_MILLIS, and NULL) at o, in the key's reservation, the others through the buffer once o
 * is committed. False, o committed, when v is not of the column's kind (json_value writes it
 * then). One switch for all: the usual value is one test of its kind away. */
static inline bool put_fast(up_enc *e, rc_buf *b, char *o, uint8_t fast, const rc_column *c, const rc_value *v)
{
    char *end;
    switch (fast) {
    case FAST_INT:
        if (v->kind != RC_V_INT) break;
        end = rc_fmt_i64_at(o, v->i);
        goto fixed;
    case FAST_UINT:
        if (v->kind != RC_V_UINT || v->u > INT64_MAX) break;
        end = rc_fmt_u64_at(o, v->u);
        goto fixed;
    case FAST_BOOL:
        if (v->kind != RC_V_BOOL) break;
        end = v->b ? RAW_LIT(o, "true") : RAW_LIT(o, "false");
        goto fixed;
    /* a year before 100 goes to connect_value (enable.time.adjuster) */
    case FAST_DATE:
        if (v->kind != RC_V_DATE || __builtin_expect(v->date.year < 100, 0)) break;
        end = rc_fmt_i64_at(o, rc_date_epoch_days(&v->date));
        goto fixed;
    case FAST_MICROS: {
        int64_t us;
        if (v->kind != RC_V_DATETIME || __builtin_expect(v->dt.year < 100, 0) || v->dt.nanos % 1000 || v->dt.zone.n ||
            !rc_datetime_epoch_us(&v->dt, &us))
            break;
        end = rc_fmt_i64_at(o, us);
        goto fixed;
    }
    case FAST_MILLIS:
        if (v->kind != RC_V_DATETIME || __builtin_expect(v->dt.year < 100, 0) || v->dt.nanos % 1000000 || v->dt.zone.n) break;
        end = rc_fmt_i64_at(o, rc_datetime_epoch_ms(&v->dt));
        goto fixed;
    case FAST_DOUBLE:
        if (v->kind != RC_V_FLOAT64) break;
        commit_to(b, o);
        put_double(b, v->f64);
        return true;
    case FAST_TEXT:
        if (v->kind != RC_V_TEXT && v->kind != RC_V_JSON && v->kind != RC_V_ENUM && v->kind != RC_V_SET) break;
        commit_to(b, o);
        rc_jw_str(b, v->s.p, v->s.n);
        return true;
    case FAST_DECIMAL: {
        rc_decimal d;
        if (v->kind != RC_V_DECIMAL || !rc_dbz_rescale(&v->dec, c->type.p2, &e->digits, &d)) break;
        commit_to(b, o);
        put_dec_b64(e, b, &d);
        return true;
    }
    case FAST_BYTES:
        if (v->kind != RC_V_BYTES) break;
        commit_to(b, o);
        rc_fmt_base64_quoted(b, (const unsigned char *)v->s.p, v->s.n);
        return true;
    case FAST_ZONED_TS:
        if (v->kind != RC_V_TIMESTAMP) break;
        commit_to(b, o);
        rc_fmt_ts_java_memo(b, &v->ts, &e->ts_day, zoned_width(e, c), true); /* ZonedTimestamp */
        return true;
    default: break;
    }
    if (fast != FAST_NONE && v->kind == RC_V_NULL) {
        end = RAW_LIT(o, "null");
        goto fixed;
    }
    commit_to(b, o);
    return false;
fixed:
    commit_to(b, end);
    return true;
}

rc_status rc_dbz_up_put_image(void *p, rc_buf *b, const rc_event *ev, const rc_value *img, rc_error *err)
{
    up_enc *e = p;
    if (!img) {
        RC_BUF_LIT(b, "null");
        return RC_OK;
    }
    if (!rc_dbz_column_keys(e, ev)) {
        rc_buf_putc(b, '{');
        for (uint32_t i = 0, n = 0; i < ev->ncols; i++) {
            if (rc_dbz_left_out(e, ev, i)) continue;
            if (n++) rc_buf_putc(b, ',');
            rc_dbz_put_col_key(e, b, ev, i, false);
            rc_status st = json_value(e, b, &ev->cols[i], &img[i], err);
            if (st != RC_OK) return st;
        }
        rc_buf_putc(b, '}');
        return RC_OK;
    }
    uint32_t n = 0; /* the columns written */
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (e->col_fast[i] == FAST_OUT && rc_dbz_left_out(e, ev, i)) continue;
        char *o = sep_key_at(e, b, n++ ? ',' : '{', i);
        if (!o) return RC_OK; /* the buffer's error: the encoder's caller reports it */
        if (put_fast(e, b, o, e->col_fast[i], &ev->cols[i], &img[i])) continue;
        rc_status st = json_value(e, b, &ev->cols[i], &img[i], err);
        if (st != RC_OK) return st;
    }
    if (!n) rc_buf_putc(b, '{');
    rc_buf_putc(b, '}');
    return RC_OK;
}
