/* Debezium messages, reader side (docs/formats/debezium.md, "Reading"): envelopes with or
 * without the Kafka Connect schema, Debezium 1.x-3.x layouts of the MySQL, PostgreSQL and SQL
 * Server connectors, and the OMS flavour. With a schema, column types come from it (logical
 * types back to dates, times, decimals, bits); without one, from the values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_read.h"
#include "formats/debezium_upstream.h"
#include "rowcast/fmt.h"
#include "rowcast/json.h"
#include "rowcast/jsondec.h"
#include "rowcast/nameidx.h"
#include "rowcast/vparse.h"
#include "rowcast/wkb.h"

typedef struct dz_dec {
    rc_jsondec jd; /* the parsed message, its arena, the type cache */
    rc_jsondec kjd; /* the parsed record key (decode_record) */
    rc_buf text;
    bool heartbeats; /* pass heartbeats on instead of skipping them */
    rc_bytes_text bytes; /* how binary columns are written */
    /* schemaless text that looks like a Decimal's base64 (b64_decimal): the columns said so
     * already ("db.table.column\n" each), and those of the message being decoded */
    rc_buf b64_said, b64_now;
    char b64_table[256]; /* the table of b64_now's columns ("db.table") */
} dz_dec;

rc_status rc_dbz_dec_new(const rc_options *o, void **out, rc_error *err)
{
    rc_dbz_opts opt;
    rc_status st = rc_dbz_opts_parse(o, &opt, err);
    return st != RC_OK ? st : rc_dbz_dec_open(&opt, out, err);
}

rc_status rc_dbz_flatten_dec_new(const rc_options *o, void **out, rc_error *err)
{
    rc_dbz_opts opt;
    rc_status st = rc_dbz_opts_parse(o, &opt, err);
    opt.flavor = 0; /* oms */
    return st != RC_OK ? st : rc_dbz_dec_open(&opt, out, err);
}

rc_status rc_dbz_dec_open(const rc_dbz_opts *opt, void **out, rc_error *err)
{
    dz_dec *d = calloc(1, sizeof *d);
    if (!d || !rc_jsondec_init(&d->jd) || !rc_jsondec_init(&d->kjd)) {
        if (d) rc_jsondec_fini(&d->jd);
        free(d);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    /* binary text: OMS writes upper-case hex; Debezium base64 unless its binary mode says hex */
    d->heartbeats = opt->heartbeats;
    d->bytes = !opt->flavor || opt->bin_mode == 2 ? RC_BYTES_HEX : RC_BYTES_BASE64;
    rc_buf_init(&d->text, 0);
    rc_buf_init(&d->b64_said, 0);
    rc_buf_init(&d->b64_now, 0);
    *out = d;
    return RC_OK;
}

void rc_dbz_dec_free(void *p)
{
    dz_dec *d = p;
    if (!d) return;
    rc_jsondec_fini(&d->jd);
    rc_jsondec_fini(&d->kjd);
    rc_buf_fini(&d->text);
    rc_buf_fini(&d->b64_said);
    rc_buf_fini(&d->b64_now);
    free(d);
}

typedef struct ctx {
    dz_dec *d;
    const rc_json *j;
    rc_arena *a;
    rc_error *err;
} ctx;

static const rc_jnode *node(const ctx *c, uint32_t i) { return &c->j->nodes[i]; }

static bool is(const ctx *c, uint32_t i, const char *s) { return i && node(c, i)->type == RC_J_STRING && node(c, i)->n == strlen(s) && !memcmp(node(c, i)->s, s, node(c, i)->n); }

static rc_str copy_str(const ctx *c, uint32_t i)
{
    if (!i || node(c, i)->type != RC_J_STRING) return (rc_str){0};
    return (rc_str){rc_arena_memdup(c->a, node(c, i)->s, node(c, i)->n), node(c, i)->n};
}

static bool num(const ctx *c, uint32_t i, int64_t *out)
{
    return i && node(c, i)->type == RC_J_NUMBER && rc_parse_i64(node(c, i)->s, node(c, i)->n, out) == RC_OK;
}


/* ---- types from the Connect schema ---- */

/* The parameter `key` of a field schema, or NULL. */
static const rc_jnode *param(const ctx *c, uint32_t field, const char *key)
{
    uint32_t ps = rc_json_get(c->j, field, "parameters");
    uint32_t v = ps ? rc_json_get(c->j, ps, key) : 0;
    return v && node(c, v)->type == RC_J_STRING ? node(c, v) : NULL;
}

/* A declaration for a Connect field, in the source's type family. */
static void declaration(const ctx *c, uint32_t field, bool pg, rc_buf *out)
{
    uint32_t tn = rc_json_get(c->j, field, "type"), nn = rc_json_get(c->j, field, "name");
    const char *type = tn && node(c, tn)->type == RC_J_STRING ? node(c, tn)->s : "string";
    size_t tl = tn && node(c, tn)->type == RC_J_STRING ? node(c, tn)->n : 6;
    char name[96] = "";
    if (nn && node(c, nn)->type == RC_J_STRING) snprintf(name, sizeof name, "%.*s", (int)node(c, nn)->n, node(c, nn)->s);
    rc_buf_reset(out);
#define T(s) (tl == strlen(s) && !memcmp(type, s, tl))
    if (!strcmp(name, "org.apache.kafka.connect.data.Decimal") || !strcmp(name, "io.debezium.data.VariableScaleDecimal")) {
        const rc_jnode *sc = param(c, field, "scale"), *pr = param(c, field, "connect.decimal.precision");
        rc_buf_puts(out, pg ? "numeric" : "decimal");
        if (sc && !pr && sc->n == 1 && sc->s[0] == '0') {
            /* scale 0 without precision (BIGINT UNSIGNED in precise mode): a bare decimal */
        } else if (sc) {
            rc_buf_putc(out, '(');
            if (pr) rc_buf_put(out, pr->s, pr->n);
            else rc_buf_puts(out, "65");
            rc_buf_putc(out, ',');
            rc_buf_put(out, sc->s, sc->n);
            rc_buf_putc(out, ')');
        }
    } else if (!strcmp(name, "io.debezium.time.Date") || !strcmp(name, "org.apache.kafka.connect.data.Date")) {
        rc_buf_puts(out, "date");
    } else if (!strcmp(name, "io.debezium.time.Year")) {
        rc_buf_puts(out, pg ? "int4" : "year");
    } else if (!strcmp(name, "io.debezium.time.MicroTime") || !strcmp(name, "io.debezium.time.NanoTime")) {
        rc_buf_puts(out, "time(6)");
    } else if (!strcmp(name, "io.debezium.time.Time") || !strcmp(name, "org.apache.kafka.connect.data.Time")) {
        rc_buf_puts(out, "time(3)");
    } else if (!strcmp(name, "io.debezium.time.Timestamp") || !strcmp(name, "org.apache.kafka.connect.data.Timestamp")) {
        rc_buf_puts(out, pg ? "timestamp(3)" : "datetime(3)");
    } else if (!strcmp(name, "io.debezium.time.MicroTimestamp") || !strcmp(name, "io.debezium.time.NanoTimestamp")) {
        rc_buf_puts(out, pg ? "timestamp(6)" : "datetime(6)");
    } else if (!strcmp(name, "io.debezium.time.ZonedTimestamp")) {
        rc_buf_puts(out, pg ? "timestamptz" : "timestamp(6)");
    } else if (!strcmp(name, "io.debezium.data.Json")) {
        rc_buf_puts(out, pg ? "jsonb" : "json");
    } else if (!strcmp(name, "io.debezium.data.Enum") || !strcmp(name, "io.debezium.data.EnumSet")) {
        const rc_jnode *al = param(c, field, "allowed");
        rc_buf_puts(out, !strcmp(name, "io.debezium.data.Enum") ? "enum(" : "set(");
        for (size_t i = 0, st = 0; al && i <= al->n; i++) {
            if (i < al->n && al->s[i] != ',') continue;
            if (st) rc_buf_putc(out, ',');
            rc_buf_putc(out, '\'');
            for (size_t k = st; k < i; k++) {
                if (al->s[k] == '\'') rc_buf_putc(out, '\'');
                rc_buf_putc(out, al->s[k]);
            }
            rc_buf_putc(out, '\'');
            st = i + 1;
        }
        rc_buf_putc(out, ')');
    } else if (!strcmp(name, "io.debezium.data.Bits")) {
        const rc_jnode *len = param(c, field, "length");
        rc_buf_puts(out, "bit(");
        if (len) rc_buf_put(out, len->s, len->n);
        else rc_buf_putc(out, '8');
        rc_buf_putc(out, ')');
    } else if (!strcmp(name, "io.debezium.data.geometry.Point")) {
        rc_buf_puts(out, "point");
    } else if (!strcmp(name, "io.debezium.data.geometry.Geometry")) {
        rc_buf_puts(out, "geometry");
    } else if (T("int8") || T("int16")) {
        rc_buf_puts(out, pg ? "int2" : "smallint");
    } else if (T("int32")) {
        rc_buf_puts(out, pg ? "int4" : "int");
    } else if (T("int64")) {
        rc_buf_puts(out, pg ? "int8" : "bigint");
    } else if (T("float") || T("float32")) {
        rc_buf_puts(out, pg ? "float4" : "float");
    } else if (T("double") || T("float64")) {
        rc_buf_puts(out, pg ? "float8" : "double");
    } else if (T("boolean")) {
        rc_buf_puts(out, pg ? "bool" : "boolean");
    } else if (T("bytes")) {
        rc_buf_puts(out, pg ? "bytea" : "varbinary(65535)");
    } else {
        rc_buf_puts(out, pg ? "text" : "varchar(65535)");
    }
#undef T
}

/* Debezium's Decimal: base64 of the two's-complement unscaled value, and the scale. */
static rc_status decimal_from_bytes(const ctx *c, const rc_jnode *v, int32_t scale, rc_value *out)
{
    rc_str raw;
    size_t bad;
    if (rc_base64_decode(v->s, v->n, c->a, &raw, &bad) != RC_OK || raw.n == 0 || raw.n > RC_DEC_MAX_BINARY_DIGITS / 2)
        return rc_error_set(c->err, RC_ERR_VALUE, v->off, "a Decimal value must be base64 of its unscaled bytes");
    unsigned char *m = rc_arena_alloc(c->a, raw.n);
    if (!m) return rc_error_set(c->err, RC_ERR_NOMEM, v->off, "out of memory");
    memcpy(m, raw.p, raw.n);
    bool neg = m[0] & 0x80;
    if (neg) { /* negate the two's complement */
        unsigned carry = 1;
        for (size_t k = raw.n; k-- > 0;) {
            unsigned x = (unsigned char)~m[k] + carry;
            m[k] = (unsigned char)x;
            carry = x >> 8;
        }
    }
    char *dg = rc_arena_alloc(c->a, raw.n * 3 + 2);
    if (!dg) return rc_error_set(c->err, RC_ERR_NOMEM, v->off, "out of memory");
    size_t nd = 0;
    for (;;) { /* long division by 10 */
        bool zero = true;
        unsigned rem = 0;
        for (size_t k = 0; k < raw.n; k++) {
            unsigned cur = rem * 256 + m[k];
            m[k] = (unsigned char)(cur / 10);
            rem = cur % 10;
            if (m[k]) zero = false;
        }
        dg[nd++] = (char)('0' + rem);
        if (zero) break;
    }
    for (size_t i = 0; i < nd / 2; i++) {
        char t = dg[i];
        dg[i] = dg[nd - 1 - i];
        dg[nd - 1 - i] = t;
    }
    out->kind = RC_V_DECIMAL;
    out->dec = (rc_decimal){dg, (uint32_t)nd, scale, neg && !(nd == 1 && dg[0] == '0')};
    return RC_OK;
}

/* A Connect time value in µs by its logical name (Micro…, Nano…, else milliseconds); false
 * when it does not fit. */
static bool epoch_us(const char *name, int64_t x, int64_t *us)
{
    if (strstr(name, "Micro")) return *us = x, true;
    if (strstr(name, "Nano")) return *us = x / 1000, true;
    if (x > INT64_MAX / 1000 || x < INT64_MIN / 1000) return false;
    return *us = x * 1000, true;
}

static rc_status out_of_years(const ctx *c, const rc_column *col, const rc_jnode *v)
{
    return rc_error_set(c->err, RC_ERR_RANGE, v->off, "column \"%.*s\": %.*s is outside the years 0 to 9999", (int)col->name.n, col->name.p,
                        (int)(v->n > 30 ? 30 : v->n), v->s);
}

static rc_status value_with_schema(const ctx *c, const rc_column *col, uint32_t field, uint32_t vn, rc_value *out)
{
    const rc_jnode *v = node(c, vn);
    memset(out, 0, sizeof *out);
    if (v->type == RC_J_NULL) return RC_OK;
    uint32_t nn = rc_json_get(c->j, field, "name");
    char name[96] = "";
    if (nn && node(c, nn)->type == RC_J_STRING) snprintf(name, sizeof name, "%.*s", (int)node(c, nn)->n, node(c, nn)->s);
    const rc_type_info *t = col->type.info;
    int64_t x;
    if (!strcmp(name, "org.apache.kafka.connect.data.Decimal")) {
        const rc_jnode *sc = param(c, field, "scale");
        int64_t scale = 0;
        if (!sc || rc_parse_i64(sc->s, sc->n, &scale) != RC_OK || scale < -RC_DEC_MAX_SCALE || scale > RC_DEC_MAX_SCALE)
            return rc_error_set(c->err, RC_ERR_SCHEMA, node(c, field)->off, "a Decimal schema needs a numeric \"scale\" parameter");
        if (v->type == RC_J_STRING && t->vkind == RC_V_DECIMAL) return decimal_from_bytes(c, v, (int32_t)scale, out);
    }
    if (!strcmp(name, "io.debezium.data.VariableScaleDecimal") && v->type == RC_J_OBJECT) {
        uint32_t s = rc_json_get(c->j, vn, "scale"), b = rc_json_get(c->j, vn, "value");
        if (!num(c, s, &x) || !b || node(c, b)->type != RC_J_STRING)
            return rc_error_set(c->err, RC_ERR_VALUE, v->off, "a VariableScaleDecimal needs \"scale\" and \"value\"");
        return decimal_from_bytes(c, node(c, b), (int32_t)x, out);
    }
    if (v->type == RC_J_NUMBER && num(c, vn, &x)) {
        switch (t->vkind) {
        case RC_V_DATE: {
            int32_t y;
            unsigned m, d;
            if (x < -800000 || x > 3000000) return out_of_years(c, col, v);
            rc_civil_from_days(x, &y, &m, &d);
            if (y < 0 || y > 9999) return out_of_years(c, col, v);
            out->kind = RC_V_DATE, out->date = (rc_date){y, (uint8_t)m, (uint8_t)d};
            return RC_OK;
        }
        case RC_V_TIME: {
            int64_t us;
            if (!epoch_us(name, x, &us)) return out_of_years(c, col, v);
            bool neg = us < 0;
            uint64_t a = neg ? (uint64_t)-us : (uint64_t)us;
            out->kind = RC_V_TIME;
            out->time = (rc_time){(uint32_t)(a / 3600000000u), (uint8_t)(a / 60000000 % 60), (uint8_t)(a / 1000000 % 60), neg,
                                  (uint32_t)(a % 1000000) * 1000};
            return RC_OK;
        }
        case RC_V_DATETIME: {
            int64_t us;
            if (!epoch_us(name, x, &us)) return out_of_years(c, col, v);
            int64_t days = us / 86400000000LL - (us % 86400000000LL < 0), rem = us - days * 86400000000LL;
            int32_t y;
            unsigned m, d;
            rc_civil_from_days(days, &y, &m, &d);
            if (y < 0 || y > 9999) return out_of_years(c, col, v);
            out->kind = RC_V_DATETIME;
            out->dt = (rc_datetime){y, (uint8_t)m, (uint8_t)d, (uint8_t)(rem / 3600000000LL), (uint8_t)(rem / 60000000 % 60),
                                    (uint8_t)(rem / 1000000 % 60), (uint32_t)(rem % 1000000) * 1000, {0}};
            return RC_OK;
        }
        default: break;
        }
    }
    if (t->vkind == RC_V_BITS && v->type == RC_J_STRING) { /* little-endian bytes */
        rc_str raw;
        size_t bad;
        if (rc_base64_decode(v->s, v->n, c->a, &raw, &bad) != RC_OK || raw.n > 8)
            return rc_error_set(c->err, RC_ERR_VALUE, v->off, "a Bits value must be base64 of at most 8 bytes");
        uint64_t u = 0;
        for (size_t i = raw.n; i-- > 0;) u = u << 8 | (unsigned char)raw.p[i];
        if (!rc_bits_fit(col, u))
            return rc_error_set(c->err, RC_ERR_RANGE, v->off, "column \"%.*s\": a Bits value wider than bit(%d)", (int)col->name.n, col->name.p, col->type.p1);
        out->kind = RC_V_BITS, out->u = u;
        return RC_OK;
    }
    if (t->vkind == RC_V_GEOMETRY) { /* {"wkb": base64, "srid": n} (Point adds x, y) */
        uint32_t w = v->type == RC_J_OBJECT ? rc_json_get(c->j, vn, "wkb") : 0, s = v->type == RC_J_OBJECT ? rc_json_get(c->j, vn, "srid") : 0;
        rc_str raw;
        size_t bad;
        if (!w || node(c, w)->type != RC_J_STRING || rc_base64_decode(node(c, w)->s, node(c, w)->n, c->a, &raw, &bad) != RC_OK)
            return rc_error_set(c->err, RC_ERR_VALUE, v->off, "column \"%.*s\": a geometry needs \"wkb\" as base64", (int)col->name.n, col->name.p);
        bool has_srid = num(c, s, &x);
        rc_buf_reset(&c->d->text);
        rc_error gerr;
        rc_error_clear(&gerr);
        if (rc_wkb_to_wkt((const unsigned char *)raw.p, raw.n, has_srid, (int32_t)x, &c->d->text, &gerr) != RC_OK)
            return rc_error_set(c->err, RC_ERR_VALUE, v->off, "column \"%.*s\": %s", (int)col->name.n, col->name.p, gerr.message);
        out->kind = RC_V_GEOMETRY;
        out->s = (rc_str){rc_arena_memdup(c->a, c->d->text.data, c->d->text.len), c->d->text.len};
        return RC_OK;
    }
    /* everything else is read from its text by the column's type */
    const rc_vparse_opts vo = {.bytes = c->d->bytes};
    rc_error verr;
    rc_error_clear(&verr);
    rc_status st;
    if (v->type == RC_J_TRUE || v->type == RC_J_FALSE) st = rc_value_from_text(col, v->type == RC_J_TRUE ? "1" : "0", 1, &vo, c->a, out, &verr);
    else if (v->type == RC_J_STRING || v->type == RC_J_NUMBER) st = rc_value_from_text(col, v->s, v->n, &vo, c->a, out, &verr);
    else {
        rc_buf_reset(&c->d->text);
        rc_json_write(c->j, vn, &c->d->text);
        st = rc_value_from_text(col, c->d->text.data, c->d->text.len, &vo, c->a, out, &verr);
    }
    if (st != RC_OK) return rc_error_set(c->err, st, v->off, "%s", verr.message[0] ? verr.message : "out of memory");
    return RC_OK;
}

/* ---- columns ---- */

/* Without a schema: Debezium's JSON numbers with a fraction are doubles (exact decimals are
 * strings in its precise and string modes), integers BIGINT; for MySQL an object with a base64
 * "wkb" and "srid" is Debezium's geometry struct (a Point when it has "x" and "y"; PostgreSQL's
 * point is another type, kept as JSON). */
static const char *inferred(const ctx *c, uint32_t vn, bool pg)
{
    const rc_jnode *v = node(c, vn);
    int64_t i;
    switch (v->type) {
    case RC_J_NUMBER: return rc_parse_i64(v->s, v->n, &i) == RC_OK ? "bigint" : "double";
    case RC_J_TRUE:
    case RC_J_FALSE: return "boolean";
    case RC_J_OBJECT: {
        uint32_t w = rc_json_get(c->j, vn, "wkb");
        if (pg || !w || node(c, w)->type != RC_J_STRING || !rc_json_get(c->j, vn, "srid")) return "json";
        return rc_json_get(c->j, vn, "x") && rc_json_get(c->j, vn, "y") ? "point" : "geometry";
    }
    case RC_J_ARRAY: return "json";
    default: return "text";
    }
}

/* Columns from the Value struct of the schema (`fields` of before/after), or, without schema,
 * from the row object's keys and values. */
static rc_status columns(const ctx *c, uint32_t value_fields, uint32_t row, rc_family fam, rc_event *ev, uint32_t **field_of)
{
    bool pg = fam == RC_FAM_PG;
    uint32_t n = value_fields ? node(c, value_fields)->count : node(c, row)->count;
    if (!n) return rc_error_set(c->err, RC_ERR_SCHEMA, node(c, value_fields ? value_fields : row)->off, "a row with no columns");
    rc_column *cols = rc_arena_alloc(c->a, sizeof *cols * (n ? n : 1));
    uint32_t *fields = rc_arena_alloc(c->a, sizeof *fields * (n ? n : 1));
    rc_nameidx names; /* the columns by name, for a repeated one */
    if (!cols || !fields || !rc_nameidx_init(&names, n, c->a)) return rc_error_set(c->err, RC_ERR_NOMEM, 0, "out of memory");
    uint32_t i = 0;
    rc_buf decl;
    rc_buf_init(&decl, 0);
    rc_status st = RC_OK;
    if (value_fields) {
        for (uint32_t f = node(c, value_fields)->first; f && st == RC_OK; f = node(c, f)->next, i++) {
            uint32_t fn = rc_json_get(c->j, f, "field"), opt = rc_json_get(c->j, f, "optional");
            if (!fn || node(c, fn)->type != RC_J_STRING) {
                st = rc_error_set(c->err, RC_ERR_SCHEMA, node(c, f)->off, "a schema field without \"field\"");
                break;
            }
            memset(&cols[i], 0, sizeof cols[i]);
            cols[i].name = copy_str(c, fn);
            if (rc_nameidx_add(&names, cols[i].name.p, cols[i].name.n, i) != UINT32_MAX) {
                st = rc_error_set(c->err, RC_ERR_SCHEMA, node(c, fn)->off, "the schema names field \"%.*s\" twice", (int)cols[i].name.n, cols[i].name.p);
                break;
            }
            cols[i].nullable = opt && node(c, opt)->type == RC_J_TRUE;
            fields[i] = f;
            declaration(c, f, pg, &decl);
            const rc_coltype *t;
            if ((st = rc_type_cache_get(c->d->jd.types, c->a, fam, decl.data, decl.len, node(c, f)->off, &t, c->err)) == RC_OK)
                cols[i].type = *t;
        }
    } else {
        for (uint32_t k = node(c, row)->first; k && st == RC_OK; k = node(c, node(c, k)->next)->next, i++) {
            memset(&cols[i], 0, sizeof cols[i]);
            cols[i].name = copy_str(c, k);
            if (rc_nameidx_add(&names, cols[i].name.p, cols[i].name.n, i) != UINT32_MAX) {
                st = rc_error_set(c->err, RC_ERR_SCHEMA, node(c, k)->off, "the row names column \"%.*s\" twice", (int)cols[i].name.n, cols[i].name.p);
                break;
            }
            cols[i].nullable = true;
            fields[i] = 0;
            const char *t = rc_type_in_family(fam, inferred(c, node(c, k)->next, pg));
            const rc_coltype *ct;
            if ((st = rc_type_cache_get(c->d->jd.types, c->a, fam, t, strlen(t), node(c, k)->off, &ct, c->err)) == RC_OK) cols[i].type = *ct;
        }
    }
    rc_buf_fini(&decl);
    if (st != RC_OK) return st;
    ev->cols = cols;
    ev->ncols = n;
    *field_of = fields;
    return RC_OK;
}

static rc_status row_values(const ctx *c, uint32_t row, const rc_event *ev, const uint32_t *field_of, const rc_value **out);

/* Whether schemaless text s is, by the reader's evidence, most likely a precise-mode Decimal
 * (Kafka Connect's Decimal: the unscaled value's two's-complement bytes, as few as
 * BigInteger.toByteArray() gives, in base64), which without its schema cannot be told from a
 * string. The rule (docs/formats/debezium.md, "Reading"): 4 to 24 characters (up to 16
 * bytes: 38 digits), padded with '=' (a plain word has no padding; a Decimal of 3, 6, ... bytes
 * has none either and is not recognised by that value, but by the column's next padded one),
 * canonical base64 (the bits after the last byte zero), and the bytes a minimal
 * two's-complement number. A binary column's base64 (binary.handling.mode=bytes or base64)
 * often passes too: its type is lost without the schema as well, and the notice says so. */
static bool b64_decimal(const ctx *c, const char *s, size_t n)
{
    if (n < 4 || n > 24 || n % 4 || s[n - 1] != '=') return false;
    rc_str raw;
    size_t bad;
    char again[24];
    if (rc_base64_decode(s, n, c->a, &raw, &bad) != RC_OK || !raw.n) return false;
    /* canonical (the bits after the last byte zero): what an encoder writes */
    if ((size_t)(rc_fmt_base64_at(again, (const unsigned char *)raw.p, raw.n) - again) != n || memcmp(again, s, n)) return false;
    const unsigned char *b = (const unsigned char *)raw.p;
    return raw.n < 2 || !((b[0] == 0x00 && !(b[1] & 0x80)) || (b[0] == 0xFF && (b[1] & 0x80)));
}

/* Column col of ev holds such text: noted for the message's notice, once per column a run. */
static void b64_note(const ctx *c, const rc_event *ev, const rc_column *col)
{
    rc_buf *said = &c->d->b64_said, *now = &c->d->b64_now;
    rc_str db = ev->src.db.n ? ev->src.db : ev->src.schema;
    char k[512]; /* "db.table.column\n" */
    int kn = snprintf(k, sizeof k, "%.*s.%.*s.%.*s\n", (int)db.n, db.p, (int)ev->src.table.n, ev->src.table.p, (int)col->name.n,
                      col->name.p);
    if (kn < 0 || (size_t)kn >= sizeof k) return;
    for (size_t at = 0; at < said->len;) { /* the keys said, one a line */
        size_t n = (size_t)((const char *)memchr(said->data + at, '\n', said->len - at) - (said->data + at)) + 1;
        if (n == (size_t)kn && !memcmp(said->data + at, k, n)) return;
        at += n;
    }
    rc_buf_put(said, k, (size_t)kn);
    snprintf(c->d->b64_table, sizeof c->d->b64_table, "%.*s", (int)((size_t)kn - col->name.n - 2), k);
    if (now->len) rc_buf_puts(now, ", ");
    rc_buf_put(now, col->name.p, col->name.n);
}

static rc_status image(const ctx *c, uint32_t row, const rc_event *ev, const uint32_t *field_of, const rc_value **out)
{
    *out = NULL;
    if (!row || node(c, row)->type == RC_J_NULL) return RC_OK;
    return row_values(c, row, ev, field_of, out);
}

/* The values of the object `row` (the message itself may be one: a record key), by column. */
static rc_status row_values(const ctx *c, uint32_t row, const rc_event *ev, const uint32_t *field_of, const rc_value **out)
{
    if (node(c, row)->type != RC_J_OBJECT)
        return rc_error_set(c->err, RC_ERR_SCHEMA, node(c, row)->off, "before/after must be an object or null (found %s)",
                            rc_jtype_name((rc_jtype)node(c, row)->type));
    rc_value *img = rc_arena_alloc(c->a, sizeof *img * (ev->ncols ? ev->ncols : 1));
    if (!img) return rc_error_set(c->err, RC_ERR_NOMEM, 0, "out of memory");
    for (uint32_t i = 0; i < ev->ncols; i++) {
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)ev->cols[i].name.n, ev->cols[i].name.p);
        uint32_t v = rc_json_get(c->j, row, key);
        if (!v) return rc_error_set(c->err, RC_ERR_SCHEMA, node(c, row)->off, "the row has no value for \"%s\", which the schema lists", key);
        rc_status st = field_of[i] ? value_with_schema(c, &ev->cols[i], field_of[i], v, &img[i])
                                   : value_with_schema(c, &ev->cols[i], 0, v, &img[i]);
        if (st != RC_OK) return st;
        if (!field_of[i] && node(c, v)->type == RC_J_STRING && b64_decimal(c, node(c, v)->s, node(c, v)->n)) b64_note(c, ev, &ev->cols[i]);
    }
    if (node(c, row)->count != ev->ncols)
        return rc_error_set(c->err, RC_ERR_SCHEMA, node(c, row)->off, "the row has %u values but the schema has %u columns",
                            node(c, row)->count, ev->ncols);
    *out = img;
    return RC_OK;
}

/* ---- source and envelope ---- */

static rc_dbkind kind_of(const ctx *c, uint32_t conn)
{
    static const struct {
        const char *name;
        rc_dbkind kind;
    } map[] = {{"mysql", RC_DB_MYSQL},         {"postgresql", RC_DB_POSTGRES}, {"sqlserver", RC_DB_SQLSERVER}, {"OB_MYSQL", RC_DB_OB_MYSQL},
               {"OB_ORACLE", RC_DB_OB_ORACLE}, {"MYSQL", RC_DB_MYSQL},         {"oracle", RC_DB_ORACLE},       {"ORACLE", RC_DB_ORACLE}};
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (is(c, conn, map[k].name)) return map[k].kind;
    return RC_DB_UNKNOWN;
}

/* A non-negative integer member into *dst (with *has set), or an error. */
#define UINT_MEMBER(key, dst, has_flag, T)                                                                                     \
    do {                                                                                                                       \
        bool h_;                                                                                                               \
        if ((st = rc_jsondec_i64(c->j, s, key, &x, &h_, c->err)) != RC_OK) return st;                                           \
        if (h_ && x >= 0) (dst) = (T)x, (has_flag) = true;                                                                    \
    } while (0)

static rc_status source(const ctx *c, uint32_t s, rc_event *ev)
{
    int64_t x;
    bool h;
    rc_status st;
    ev->src.kind = kind_of(c, rc_json_get(c->j, s, "connector"));
    ev->src.server = copy_str(c, rc_json_get(c->j, s, "name"));
    ev->src.db = copy_str(c, rc_json_get(c->j, s, "db"));
    ev->src.schema = copy_str(c, rc_json_get(c->j, s, "schema"));
    ev->src.table = copy_str(c, rc_json_get(c->j, s, "table"));
    if ((st = rc_jsondec_i64(c->j, s, "ts_us", &x, &h, c->err)) != RC_OK) return st;
    if (h) ev->ts_us = x, ev->has_ts = true;
    else {
        if ((st = rc_jsondec_us_at(c->j, rc_json_get(c->j, s, "ts_ms"), "ts_ms", 1000, &ev->ts_us, &ev->has_ts, c->err)) != RC_OK) return st;
    }
    uint32_t snap = rc_json_get(c->j, s, "snapshot");
    rc_str sn = copy_str(c, snap);
    if (snap && node(c, snap)->type == RC_J_TRUE) sn = RC_STR("true");
    /* keep the marker unless it says what the operation already implies */
    bool implied = (ev->op == RC_OP_READ && sn.n == 4 && !memcmp(sn.p, "true", 4)) ||
                   (ev->op != RC_OP_READ && sn.n == 5 && !memcmp(sn.p, "false", 5));
    if (!implied) ev->snapshot = sn;
    rc_position *p = &ev->pos;
    p->file = copy_str(c, rc_json_get(c->j, s, "file"));
    p->gtid = copy_str(c, rc_json_get(c->j, s, "gtid"));
    p->query = copy_str(c, rc_json_get(c->j, s, "query"));
    uint32_t pos = rc_json_get(c->j, s, "pos");
    if (num(c, pos, &x) && x >= 0) p->offset = (uint64_t)x, p->has_offset = true;
    if (pos && node(c, pos)->type == RC_J_STRING) { /* OMS: "<offset>@<file or checkpoint>" */
        const char *at = memchr(node(c, pos)->s, '@', node(c, pos)->n);
        if (at) {
            rc_str whole = copy_str(c, pos);
            size_t k = (size_t)(at - node(c, pos)->s);
            uint64_t off;
            if (k && rc_parse_u64(whole.p, k, &off) == RC_OK) p->offset = off, p->has_offset = true;
            p->checkpoint = (rc_str){whole.p + k + 1, whole.n - k - 1};
        }
    }
    UINT_MEMBER("server_id", p->server_id, p->has_server_id, uint64_t);
    UINT_MEMBER("row", p->row, p->has_row, uint32_t);
    UINT_MEMBER("thread", p->thread, p->has_thread, uint64_t);
    UINT_MEMBER("xmin", p->xmin, p->has_xmin, uint64_t);
    /* PostgreSQL's sequence: the JSON text ["<last commit LSN>","<LSN>"] (decimal, null when
     * unknown); the first is what the event cannot tell otherwise */
    uint32_t seq = rc_json_get(c->j, s, "sequence");
    if (seq && node(c, seq)->type == RC_J_STRING && node(c, seq)->n > 3 && node(c, seq)->s[0] == '[' && node(c, seq)->s[1] == '"') {
        const char *q = node(c, seq)->s + 2, *end = node(c, seq)->s + node(c, seq)->n;
        const char *close = memchr(q, '"', (size_t)(end - q));
        if (close && close > q) p->last_commit_lsn = (rc_str){rc_arena_memdup(c->a, q, (size_t)(close - q)), (size_t)(close - q)};
        if (p->last_commit_lsn.n && (st = rc_lsn_text_check(p->last_commit_lsn, "the first LSN of source \"sequence\"", node(c, seq)->off, c->err)) != RC_OK)
            return st;
    }
    uint32_t tx = rc_json_get(c->j, s, "txId"), lsn = rc_json_get(c->j, s, "lsn");
    if (tx && node(c, tx)->type == RC_J_NUMBER) p->txid = (rc_str){rc_arena_memdup(c->a, node(c, tx)->s, node(c, tx)->n), node(c, tx)->n};
    if (lsn && (node(c, lsn)->type == RC_J_NUMBER || node(c, lsn)->type == RC_J_STRING))
        p->lsn = (rc_str){rc_arena_memdup(c->a, node(c, lsn)->s, node(c, lsn)->n), node(c, lsn)->n};
    if (p->lsn.p && (st = rc_lsn_text_check(p->lsn, "source \"lsn\"", node(c, lsn)->off, c->err)) != RC_OK) return st;
    return RC_OK;
}
#undef UINT_MEMBER

static rc_status source_cb(void *p, uint32_t s, rc_event *ev) { return source(p, s, ev); }

/* The Value struct's fields in the envelope schema into *out (0 with no schema); a schema
 * that describes no row is an error rather than a reason to guess types. */
static rc_status value_fields(const ctx *c, uint32_t schema, uint32_t *out)
{
    *out = 0;
    if (!schema || node(c, schema)->type == RC_J_NULL) return RC_OK;
    uint32_t fs = node(c, schema)->type == RC_J_OBJECT ? rc_json_get(c->j, schema, "fields") : 0;
    if (fs && node(c, fs)->type == RC_J_ARRAY)
        for (uint32_t f = node(c, fs)->first; f; f = node(c, f)->next)
            if (is(c, rc_json_get(c->j, f, "field"), "after") || is(c, rc_json_get(c->j, f, "field"), "before")) {
                uint32_t inner = rc_json_get(c->j, f, "fields");
                if (inner && node(c, inner)->type == RC_J_ARRAY) return *out = inner, RC_OK;
            }
    return rc_error_set(c->err, RC_ERR_SCHEMA, node(c, schema)->off, "the envelope \"schema\" has no struct field \"after\" or \"before\"");
}

/* Upstream Debezium's heartbeat value (HeartbeatImpl; what debezium_heartbeat.c writes):
 * {"ts_ms": N} alone, with schemas on inside an envelope whose schema is the struct
 * io.debezium.connector.common.Heartbeat. The server name is only in the key and the topic. */
static bool is_heartbeat(const ctx *c, uint32_t payload, uint32_t schema)
{
    const rc_jnode *p = node(c, payload);
    uint32_t ts = rc_json_get(c->j, payload, "ts_ms");
    if (p->type != RC_J_OBJECT || p->count != 1 || !ts || node(c, ts)->type != RC_J_NUMBER) return false;
    if (!schema || node(c, schema)->type == RC_J_NULL) return true;
    return node(c, schema)->type == RC_J_OBJECT && is(c, rc_json_get(c->j, schema, "name"), "io.debezium.connector.common.Heartbeat");
}

static rc_status heartbeat(const ctx *c, uint32_t payload, rc_event_list *out)
{
    if (!c->d->heartbeats) return RC_OK; /* skipped unless asked for, as the OMS flavour's */
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.op = RC_OP_HEARTBEAT;
    rc_status st = rc_jsondec_us_at(c->j, rc_json_get(c->j, payload, "ts_ms"), "ts_ms", 1000, &ev.ts_us, &ev.has_ts, c->err);
    if (st != RC_OK) return st;
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(c->err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    return RC_OK;
}

/* Whether a transaction id is "<digits>:<lsn>" (PostgreSQL 2.x). */
static bool pg_tx_id(rc_str id, rc_str lsn)
{
    const char *colon = id.n ? memchr(id.p, ':', id.n) : NULL;
    if (!colon || colon == id.p) return false;
    for (const char *q = id.p; q < colon; q++)
        if (*q < '0' || *q > '9') return false;
    size_t rest = id.n - (size_t)(colon + 1 - id.p);
    return rest == lsn.n && !memcmp(colon + 1, lsn.p, rest);
}

static rc_status decode_msg(dz_dec *d, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

/* A message; the columns whose schemaless text looked like a Decimal (b64_decimal) for the
 * first time are said in err's notice (rc_format.decode). */
rc_status rc_dbz_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    dz_dec *d = p;
    rc_buf_reset(&d->b64_now);
    rc_status st = decode_msg(d, msg, n, a, out, err);
    if (st == RC_OK && d->b64_now.len)
        rc_error_notice(err, "column%s %.*s (%s): base64 text in a schemaless Debezium message, read as text; a Decimal (or "
                             "binary value) needs the schema: -o debezium.schemas=true on the writer, or "
                             "decimal.handling.mode=string",
                        memchr(d->b64_now.data, ',', d->b64_now.len) ? "s" : "", (int)d->b64_now.len, d->b64_now.data, d->b64_table);
    return st;
}

static rc_status decode_msg(dz_dec *d, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    rc_status st = rc_jsondec_parse(&d->jd, msg, n, a, err);
    if (st != RC_OK) return st;
    ctx c = {d, &d->jd.json, a, err};
    if (node(&c, 0)->type == RC_J_NULL) return RC_OK; /* a tombstone: no event */
    if (node(&c, 0)->type != RC_J_OBJECT)
        return rc_error_set(err, RC_ERR_SCHEMA, 0, "a Debezium message must be a JSON object (found %s)", rc_jtype_name((rc_jtype)node(&c, 0)->type));
    uint32_t payload = rc_json_get(c.j, 0, "payload"), schema = 0;
    if (payload) {
        schema = rc_json_get(c.j, 0, "schema");
        if (node(&c, payload)->type == RC_J_NULL) return RC_OK; /* tombstone with schema */
        if (node(&c, payload)->type != RC_J_OBJECT)
            return rc_error_set(err, RC_ERR_SCHEMA, node(&c, payload)->off, "\"payload\" must be an object or null");
    } else {
        payload = 0; /* the message is the payload itself (schemas off, debeziumflatten) */
    }
    uint32_t opn = rc_json_get(c.j, payload, "op");
    if (!opn && is_heartbeat(&c, payload, schema)) return heartbeat(&c, payload, out);
    if (!opn && (st = rc_dbz_read_topics(c.j, payload, a, d->jd.types, source_cb, &c, out, err)) != RC_SKIP) return st;
    if (!opn) return rc_error_set(err, RC_ERR_SCHEMA, node(&c, payload)->off, "a Debezium payload without \"op\"");
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    if (is(&c, opn, "c")) ev.op = RC_OP_INSERT;
    else if (is(&c, opn, "u")) ev.op = RC_OP_UPDATE;
    else if (is(&c, opn, "d")) ev.op = RC_OP_DELETE;
    else if (is(&c, opn, "r")) ev.op = RC_OP_READ;
    else if (is(&c, opn, "t")) ev.op = RC_OP_TRUNCATE;
    else if (is(&c, opn, "m")) return RC_OK; /* a logical decoding message: not a row change */
    else if (is(&c, opn, "HEARTBEAT")) {
        if (!d->heartbeats) return RC_OK;
        ev.op = RC_OP_HEARTBEAT;
    } else
        return rc_error_set(err, RC_ERR_SCHEMA, node(&c, opn)->off, "unknown Debezium op \"%.*s\" (expected c, u, d, r, t or m)",
                            (int)(node(&c, opn)->n > 20 ? 20 : node(&c, opn)->n), node(&c, opn)->s);
    uint32_t src = rc_json_get(c.j, payload, "source");
    if (!src || node(&c, src)->type != RC_J_OBJECT)
        return rc_error_set(err, RC_ERR_SCHEMA, src ? node(&c, src)->off : node(&c, payload)->off, "a Debezium payload without a \"source\" object");
    if ((st = source(&c, src, &ev)) != RC_OK) return st;
    if (!ev.src.table.n && ev.op != RC_OP_HEARTBEAT)
        return rc_error_set(err, RC_ERR_SCHEMA, node(&c, src)->off, "\"source\" names no \"table\"");
    if (!rc_event_list_accepts(out, ev.src.db.n ? ev.src.db : ev.src.schema, ev.src.table)) return RC_OK;
    int64_t x;
    bool h;
    if ((st = rc_jsondec_i64(c.j, payload, "ts_us", &x, &h, err)) != RC_OK) return st;
    if (h) ev.proc_us = x, ev.has_proc = true;
    else {
        if ((st = rc_jsondec_us_at(c.j, rc_json_get(c.j, payload, "ts_ms"), "ts_ms", 1000, &ev.proc_us, &ev.has_proc, err)) != RC_OK) return st;
    }
    uint32_t tx = rc_json_get(c.j, payload, "transaction");
    if (tx && node(&c, tx)->type == RC_J_OBJECT) {
        /* PostgreSQL 2.x: "<txId>:<the event's LSN>", which the writer builds again from
         * source.txId and lsn: the id is kept only when source has no txId */
        rc_str id = copy_str(&c, rc_json_get(c.j, tx, "id"));
        if (!(ev.src.kind == RC_DB_POSTGRES && ev.pos.txid.n && pg_tx_id(id, ev.pos.lsn))) ev.pos.txid = id;
        if ((st = rc_jsondec_i64(c.j, tx, "total_order", &x, &h, err)) != RC_OK) return st;
        if (h && x >= 1) ev.pos.tx_index = (uint32_t)(x - 1), ev.pos.has_tx_index = true;
    }
    if (ev.op == RC_OP_HEARTBEAT || ev.op == RC_OP_TRUNCATE) {
        rc_event *e = rc_event_list_push(out);
        if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        *e = ev;
        return RC_OK;
    }
    uint32_t before = rc_json_get(c.j, payload, "before"), after = rc_json_get(c.j, payload, "after");
    uint32_t imgs[2] = {before, after};
    for (int k = 0; k < 2; k++)
        if (imgs[k] && node(&c, imgs[k])->type != RC_J_OBJECT && node(&c, imgs[k])->type != RC_J_NULL)
            return rc_error_set(err, RC_ERR_SCHEMA, node(&c, imgs[k])->off, "\"%s\" must be an object or null (found %s)", k ? "after" : "before",
                                rc_jtype_name((rc_jtype)node(&c, imgs[k])->type));
    uint32_t row = after && node(&c, after)->type == RC_J_OBJECT ? after : before;
    if (!row || node(&c, row)->type != RC_J_OBJECT) {
        if (ev.op == RC_OP_DELETE) { /* a delete without before image (PostgreSQL replica identity) */
            rc_event *e = rc_event_list_push(out);
            if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
            *e = ev;
            return RC_OK;
        }
        return rc_error_set(err, RC_ERR_SCHEMA, node(&c, payload)->off, "op %.*s without a row image", (int)node(&c, opn)->n, node(&c, opn)->s);
    }
    uint32_t *field_of = NULL, vf;
    if ((st = value_fields(&c, schema, &vf)) != RC_OK) return st;
    if ((st = columns(&c, vf, row, rc_dbkind_family(ev.src.kind), &ev, &field_of)) != RC_OK) return st;
    if ((st = image(&c, before, &ev, field_of, &ev.before)) != RC_OK) return st;
    if ((st = image(&c, after, &ev, field_of, &ev.after)) != RC_OK) return st;
    if ((ev.op == RC_OP_INSERT || ev.op == RC_OP_READ || ev.op == RC_OP_UPDATE) && !ev.after)
        return rc_error_set(err, RC_ERR_SCHEMA, node(&c, payload)->off, "op %.*s without \"after\"", (int)node(&c, opn)->n, node(&c, opn)->s);
    if (ev.op != RC_OP_UPDATE && ev.op != RC_OP_DELETE) ev.before = NULL;
    if (ev.op == RC_OP_DELETE) ev.after = NULL;
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    return RC_OK;
}

/* ---- the record key (decode_record) ---- */

/* The key struct's columns become the event's primary key, in the key's order; a key column the
 * row lacks is added with the key's value (a delete without before image: the key is all of the
 * row there is). */
static rc_status apply_key(const ctx *kc, uint32_t kfields, uint32_t krow, rc_event *ev)
{
    rc_event k;
    memset(&k, 0, sizeof k);
    uint32_t *field_of;
    const rc_value *kimg;
    rc_status st = columns(kc, kfields, krow, rc_dbkind_family(ev->src.kind), &k, &field_of);
    if (st == RC_OK) st = row_values(kc, krow, &k, field_of, &kimg);
    if (st != RC_OK) return st;
    uint32_t n = ev->ncols, *at = rc_arena_alloc(kc->a, sizeof *at * k.ncols);
    if (!at) return rc_error_set(kc->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < k.ncols; i++) { /* where each key column is in the row */
        at[i] = n;
        for (uint32_t j = 0; j < ev->ncols; j++)
            if (ev->cols[j].name.n == k.cols[i].name.n && !memcmp(ev->cols[j].name.p, k.cols[i].name.p, k.cols[i].name.n)) at[i] = j;
        if (at[i] == n) at[i] = n++;
    }
    rc_column *cols = rc_arena_alloc(kc->a, sizeof *cols * n);
    if (!cols) return rc_error_set(kc->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (ev->ncols) memcpy(cols, ev->cols, sizeof *cols * ev->ncols);
    for (uint32_t j = 0; j < ev->ncols; j++) cols[j].pk = 0; /* the key says which columns are the key */
    for (uint32_t i = 0; i < k.ncols; i++) {
        if (at[i] >= ev->ncols) cols[at[i]] = k.cols[i];
        cols[at[i]].pk = (uint16_t)(i + 1);
        cols[at[i]].nullable = false; /* a key column holds no null (a schemaless value's columns are all nullable) */
    }
    const rc_value **imgs[2] = {&ev->before, &ev->after};
    bool keyed_delete = ev->op == RC_OP_DELETE && !ev->before;
    for (int m = 0; m < 2 && n > ev->ncols; m++) {
        if (!*imgs[m] && !(m == 0 && keyed_delete)) continue;
        rc_value *img = rc_arena_alloc(kc->a, sizeof *img * n);
        if (!img) return rc_error_set(kc->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        memset(img, 0, sizeof *img * n);
        if (*imgs[m] && ev->ncols) memcpy(img, *imgs[m], sizeof *img * ev->ncols);
        for (uint32_t i = 0; i < k.ncols; i++)
            if (at[i] >= ev->ncols) img[at[i]] = kimg[i];
        *imgs[m] = img;
    }
    if (ev->changed && n > ev->ncols) {
        uint8_t *ch = rc_arena_alloc(kc->a, n);
        if (!ch) return rc_error_set(kc->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        memcpy(ch, ev->changed, ev->ncols);
        memset(ch + ev->ncols, 0, n - ev->ncols);
        ev->changed = ch;
    }
    ev->cols = cols, ev->ncols = n;
    ev->cols_id = NULL; /* no longer the cached list */
    return RC_OK;
}

/* A Debezium record: the value decoded as any message, then its key (the key struct, with or
 * without its Connect schema) applied to the row events it made. A null value is a tombstone,
 * which Debezium writes after a delete so that compaction can drop the key: no event. */
rc_status rc_dbz_decode_record(void *p, const rc_record_in *r, rc_arena *a, rc_event_list *out, rc_error *err)
{
    size_t first = out->count;
    rc_status st = rc_record_value(rc_dbz_decode, p, r, a, out, err);
    return st != RC_OK ? st : rc_dbz_record_key(p, r, first, a, out, err);
}

rc_status rc_dbz_record_key(void *p, const rc_record_in *r, size_t first, rc_arena *a, rc_event_list *out, rc_error *err)
{
    dz_dec *d = p;
    rc_status st;
    if (!r->key || out->count == first) return RC_OK;
    size_t koff = (size_t)(r->key - r->rec), k = 0;
    while (k < r->key_n && (r->key[k] == ' ' || r->key[k] == '\t')) k++;
    if (k == r->key_n || r->key[k] != '{') return RC_OK; /* not a key struct (the OMS flavour's pk text): it names no column */
    if ((st = rc_jsondec_parse(&d->kjd, r->key, r->key_n, a, err)) != RC_OK) goto key_error;
    ctx kc = {d, &d->kjd.json, a, err};
    uint32_t krow = 0, kfields = 0;
    if (node(&kc, 0)->type == RC_J_OBJECT) {
        uint32_t pl = rc_json_get(kc.j, 0, "payload"), sc = rc_json_get(kc.j, 0, "schema");
        krow = pl && sc ? pl : 0; /* the envelope of schemas.enable=true (a key column named payload aside) */
        if (krow && node(&kc, pl)->type == RC_J_NULL) return RC_OK;
        if (krow && node(&kc, sc)->type == RC_J_OBJECT) kfields = rc_json_get(kc.j, sc, "fields");
        if (kfields && node(&kc, kfields)->type != RC_J_ARRAY) kfields = 0;
    }
    if (node(&kc, krow)->type != RC_J_OBJECT || !node(&kc, krow)->count) {
        st = rc_error_set(err, RC_ERR_SCHEMA, node(&kc, krow)->off,
                          "the key is not a Debezium key struct (an object of the key columns, or with schemas "
                          "{\"schema\":..., \"payload\": that object}): read the values alone (--input-layout values)");
        goto key_error;
    }
    for (size_t i = first; i < out->count; i++) {
        rc_event *ev = &out->items[i];
        if (ev->op == RC_OP_HEARTBEAT) { /* {"serverName": ...}: the server is in the key and the topic only */
            if (!ev->src.server.n) ev->src.server = copy_str(&kc, rc_json_get(kc.j, krow, "serverName"));
            continue;
        }
        /* a key names a row: the schema-change topic's {"databaseName"} and the transaction
         * topic's {"id"} name none */
        if (ev->op == RC_OP_TRUNCATE || ev->op == RC_OP_DDL || ev->op == RC_OP_BEGIN || ev->op == RC_OP_COMMIT) continue;
        if ((st = apply_key(&kc, kfields, krow, ev)) != RC_OK) goto key_error;
    }
    return RC_OK;
key_error:
    if (err->offset != RC_NO_OFFSET) err->offset += koff;
    snprintf(err->message + strlen(err->message), sizeof err->message - strlen(err->message), " (in the record key)");
    return st;
}
