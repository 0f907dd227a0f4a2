/* The Debezium reader's columns: types from the Kafka Connect schema (logical types back to
 * dates, times, decimals, bits), types inferred from schemaless values, and the row images. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_read_int.h"
#include "core/fmt.h"
#include "core/nameidx.h"
#include "core/vparse.h"
#include "core/wkb.h"

/* ---- types from the Connect schema ---- */

/* The parameter `key` of a field schema, or NULL. */
static const rc_jnode *param(const ctx *c, uint32_t field, const char *key)
{
    uint32_t ps = rc_json_get(c->r.j, field, "parameters");
    uint32_t v = ps ? rc_json_get(c->r.j, ps, key) : 0;
    return v && rc_jread_node(&c->r, v)->type == RC_J_STRING ? rc_jread_node(&c->r, v) : NULL;
}

/* A declaration for a Connect field, in the source's type family. */
static void declaration(const ctx *c, uint32_t field, bool pg, rc_buf *out)
{
    uint32_t tn = rc_json_get(c->r.j, field, "type"), nn = rc_json_get(c->r.j, field, "name");
    const char *type = tn && rc_jread_node(&c->r, tn)->type == RC_J_STRING ? rc_jread_node(&c->r, tn)->s : "string";
    size_t tl = tn && rc_jread_node(&c->r, tn)->type == RC_J_STRING ? rc_jread_node(&c->r, tn)->n : 6;
    char name[96] = "";
    if (nn && rc_jread_node(&c->r, nn)->type == RC_J_STRING) snprintf(name, sizeof name, "%.*s", (int)rc_jread_node(&c->r, nn)->n, rc_jread_node(&c->r, nn)->s);
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
        rc_buf_puts(out, pg ? "timestamptz" : "timestamp");
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
    } else {
        /* Connect's primitive types as PostgreSQL and MySQL declare them; strings and the rest text */
        static const struct {
            const char *type, *pg, *my;
        } prim[] = {{"int8", "int2", "smallint"},  {"int16", "int2", "smallint"},  {"int32", "int4", "int"},        {"int64", "int8", "bigint"},
                    {"float", "float4", "float"},  {"float32", "float4", "float"}, {"double", "float8", "double"}, {"float64", "float8", "double"},
                    {"boolean", "bool", "boolean"}, {"bytes", "bytea", "varbinary(65535)"}, {NULL, "text", "varchar(65535)"}};
        size_t k = 0;
        while (prim[k].type && !T(prim[k].type)) k++;
        rc_buf_puts(out, pg ? prim[k].pg : prim[k].my);
    }
#undef T
}

/* Debezium's Decimal: base64 of the two's-complement unscaled value, and the scale. */
static rc_status decimal_from_bytes(const ctx *c, const rc_jnode *v, int32_t scale, rc_value *out)
{
    rc_str raw;
    size_t bad;
    if (rc_base64_decode(v->s, v->n, c->r.a, &raw, &bad) != RC_OK || raw.n == 0 || raw.n > RC_DEC_MAX_BINARY_DIGITS / 2)
        return rc_error_set(c->r.err, RC_ERR_VALUE, v->off, "a Decimal value must be base64 of its unscaled bytes");
    unsigned char *m = rc_arena_alloc(c->r.a, raw.n);
    if (!m) return rc_error_set(c->r.err, RC_ERR_NOMEM, v->off, "out of memory");
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
    char *dg = rc_arena_alloc(c->r.a, raw.n * 3 + 2);
    if (!dg) return rc_error_set(c->r.err, RC_ERR_NOMEM, v->off, "out of memory");
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
    return rc_error_set(c->r.err, RC_ERR_RANGE, v->off, "column \"%.*s\": %.*s is outside the years 0 to 9999", (int)col->name.n, col->name.p,
                        (int)(v->n > 30 ? 30 : v->n), v->s);
}

static rc_status value_with_schema(const ctx *c, const rc_column *col, uint32_t field, uint32_t vn, rc_value *out)
{
    const rc_jnode *v = rc_jread_node(&c->r, vn);
    memset(out, 0, sizeof *out);
    if (v->type == RC_J_NULL) return RC_OK;
    uint32_t nn = rc_json_get(c->r.j, field, "name");
    char name[96] = "";
    if (nn && rc_jread_node(&c->r, nn)->type == RC_J_STRING) snprintf(name, sizeof name, "%.*s", (int)rc_jread_node(&c->r, nn)->n, rc_jread_node(&c->r, nn)->s);
    const rc_type_info *t = col->type.info;
    int64_t x;
    if (!strcmp(name, "org.apache.kafka.connect.data.Decimal")) {
        const rc_jnode *sc = param(c, field, "scale");
        int64_t scale = 0;
        if (!sc || rc_parse_i64(sc->s, sc->n, &scale) != RC_OK || scale < -RC_DEC_MAX_SCALE || scale > RC_DEC_MAX_SCALE)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, field)->off, "a Decimal schema needs a numeric \"scale\" parameter");
        if (v->type == RC_J_STRING && t->vkind == RC_V_DECIMAL) return decimal_from_bytes(c, v, (int32_t)scale, out);
    }
    if (!strcmp(name, "io.debezium.data.VariableScaleDecimal") && v->type == RC_J_OBJECT) {
        uint32_t s = rc_json_get(c->r.j, vn, "scale"), b = rc_json_get(c->r.j, vn, "value");
        if (!rc_dbz_read_num(c, s, &x) || !b || rc_jread_node(&c->r, b)->type != RC_J_STRING)
            return rc_error_set(c->r.err, RC_ERR_VALUE, v->off, "a VariableScaleDecimal needs \"scale\" and \"value\"");
        return decimal_from_bytes(c, rc_jread_node(&c->r, b), (int32_t)x, out);
    }
    if (v->type == RC_J_NUMBER && rc_dbz_read_num(c, vn, &x)) {
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
        if (rc_base64_decode(v->s, v->n, c->r.a, &raw, &bad) != RC_OK || raw.n > 8)
            return rc_error_set(c->r.err, RC_ERR_VALUE, v->off, "a Bits value must be base64 of at most 8 bytes");
        uint64_t u = 0;
        for (size_t i = raw.n; i-- > 0;) u = u << 8 | (unsigned char)raw.p[i];
        if (!rc_bits_fit(col, u))
            return rc_error_set(c->r.err, RC_ERR_RANGE, v->off, "column \"%.*s\": a Bits value wider than bit(%d)", (int)col->name.n, col->name.p, col->type.p1);
        out->kind = RC_V_BITS, out->u = u;
        return RC_OK;
    }
    if (t->vkind == RC_V_GEOMETRY) { /* {"wkb": base64, "srid": n} (Point adds x, y) */
        uint32_t w = v->type == RC_J_OBJECT ? rc_json_get(c->r.j, vn, "wkb") : 0, s = v->type == RC_J_OBJECT ? rc_json_get(c->r.j, vn, "srid") : 0;
        rc_str raw;
        size_t bad;
        if (!w || rc_jread_node(&c->r, w)->type != RC_J_STRING || rc_base64_decode(rc_jread_node(&c->r, w)->s, rc_jread_node(&c->r, w)->n, c->r.a, &raw, &bad) != RC_OK)
            return rc_error_set(c->r.err, RC_ERR_VALUE, v->off, "column \"%.*s\": a geometry needs \"wkb\" as base64", (int)col->name.n, col->name.p);
        bool has_srid = rc_dbz_read_num(c, s, &x);
        rc_buf_reset(&c->d->text);
        rc_error gerr;
        rc_error_clear(&gerr);
        if (rc_wkb_to_wkt((const unsigned char *)raw.p, raw.n, has_srid, (int32_t)x, &c->d->text, &gerr) != RC_OK)
            return rc_error_set(c->r.err, RC_ERR_VALUE, v->off, "column \"%.*s\": %s", (int)col->name.n, col->name.p, gerr.message);
        out->kind = RC_V_GEOMETRY;
        out->s = (rc_str){rc_arena_memdup(c->r.a, c->d->text.data, c->d->text.len), c->d->text.len};
        return RC_OK;
    }
    /* everything else is read from its text by the column's type */
    const rc_vparse_opts vo = {.bytes = c->d->bytes};
    return rc_jread_value(&c->r, col, vn, &vo, &c->d->text, out);
}

/* ---- columns ---- */

/* Without a schema: Debezium's JSON numbers with a fraction are doubles (exact decimals are
 * strings in its precise and string modes), integers BIGINT; for MySQL an object with a base64
 * "wkb" and "srid" is Debezium's geometry struct (a Point when it has "x" and "y"; PostgreSQL's
 * point is another type, kept as JSON). */
static const char *inferred(const ctx *c, uint32_t vn, bool pg)
{
    const rc_jnode *v = rc_jread_node(&c->r, vn);
    int64_t i;
    switch (v->type) {
    case RC_J_NUMBER: return rc_parse_i64(v->s, v->n, &i) == RC_OK ? "bigint" : "double";
    case RC_J_TRUE:
    case RC_J_FALSE: return "boolean";
    case RC_J_OBJECT: {
        uint32_t w = rc_json_get(c->r.j, vn, "wkb");
        if (pg || !w || rc_jread_node(&c->r, w)->type != RC_J_STRING || !rc_json_get(c->r.j, vn, "srid")) return "json";
        return rc_json_get(c->r.j, vn, "x") && rc_json_get(c->r.j, vn, "y") ? "point" : "geometry";
    }
    case RC_J_ARRAY: return "json";
    default: return "text";
    }
}

/* Columns from the Value struct of the schema (`fields` of before/after), or, without schema,
 * from the row object's keys and values. */
rc_status rc_dbz_read_columns(const ctx *c, uint32_t value_fields, uint32_t row, rc_family fam, rc_event *ev, uint32_t **field_of)
{
    bool pg = fam == RC_FAM_PG;
    uint32_t n = value_fields ? rc_jread_node(&c->r, value_fields)->count : rc_jread_node(&c->r, row)->count;
    if (!n) return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, value_fields ? value_fields : row)->off, "a row with no columns");
    rc_column *cols = rc_arena_alloc(c->r.a, sizeof *cols * (n ? n : 1));
    uint32_t *fields = rc_arena_alloc(c->r.a, sizeof *fields * (n ? n : 1));
    rc_nameidx names; /* the columns by name, for a repeated one */
    if (!cols || !fields || !rc_nameidx_init(&names, n, c->r.a)) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    uint32_t i = 0;
    rc_buf decl;
    rc_buf_init(&decl, 0);
    rc_status st = RC_OK;
    if (value_fields) {
        for (uint32_t f = rc_jread_node(&c->r, value_fields)->first; f && st == RC_OK; f = rc_jread_node(&c->r, f)->next, i++) {
            uint32_t fn = rc_json_get(c->r.j, f, "field"), opt = rc_json_get(c->r.j, f, "optional");
            if (!fn || rc_jread_node(&c->r, fn)->type != RC_J_STRING) {
                st = rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, f)->off, "a schema field without \"field\"");
                break;
            }
            memset(&cols[i], 0, sizeof cols[i]);
            cols[i].name = rc_dbz_read_copy_str(c, fn);
            if (rc_nameidx_add(&names, cols[i].name.p, cols[i].name.n, i) != UINT32_MAX) {
                st = rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, fn)->off, "the schema names field \"%.*s\" twice", (int)cols[i].name.n, cols[i].name.p);
                break;
            }
            cols[i].nullable = opt && rc_jread_node(&c->r, opt)->type == RC_J_TRUE;
            fields[i] = f;
            declaration(c, f, pg, &decl);
            const rc_coltype *t;
            if ((st = rc_type_cache_get(c->d->jd.types, c->r.a, fam, decl.data, decl.len, rc_jread_node(&c->r, f)->off, &t, c->r.err)) == RC_OK)
                cols[i].type = *t;
        }
    } else {
        for (uint32_t k = rc_jread_node(&c->r, row)->first; k && st == RC_OK; k = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->next, i++) {
            memset(&cols[i], 0, sizeof cols[i]);
            cols[i].name = rc_dbz_read_copy_str(c, k);
            if (rc_nameidx_add(&names, cols[i].name.p, cols[i].name.n, i) != UINT32_MAX) {
                st = rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, k)->off, "the row names column \"%.*s\" twice", (int)cols[i].name.n, cols[i].name.p);
                break;
            }
            cols[i].nullable = true;
            fields[i] = 0;
            const char *t = rc_type_in_family(fam, inferred(c, rc_jread_node(&c->r, k)->next, pg));
            const rc_coltype *ct;
            if ((st = rc_type_cache_get(c->d->jd.types, c->r.a, fam, t, strlen(t), rc_jread_node(&c->r, k)->off, &ct, c->r.err)) == RC_OK) cols[i].type = *ct;
        }
    }
    rc_buf_fini(&decl);
    if (st != RC_OK) return st;
    ev->cols = cols;
    ev->ncols = n;
    *field_of = fields;
    return RC_OK;
}


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
    if (rc_base64_decode(s, n, c->r.a, &raw, &bad) != RC_OK || !raw.n) return false;
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

rc_status rc_dbz_read_image(const ctx *c, uint32_t row, const rc_event *ev, const uint32_t *field_of, const rc_value **out)
{
    *out = NULL;
    if (!row || rc_jread_node(&c->r, row)->type == RC_J_NULL) return RC_OK;
    return rc_dbz_read_row_values(c, row, ev, field_of, out);
}

/* The values of the object `row` (the message itself may be one: a record key), by column. */
rc_status rc_dbz_read_row_values(const ctx *c, uint32_t row, const rc_event *ev, const uint32_t *field_of, const rc_value **out)
{
    if (rc_jread_node(&c->r, row)->type != RC_J_OBJECT)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, row)->off, "before/after must be an object or null (found %s)",
                            rc_jtype_name((rc_jtype)rc_jread_node(&c->r, row)->type));
    rc_value *img = rc_arena_alloc(c->r.a, sizeof *img * (ev->ncols ? ev->ncols : 1));
    if (!img) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    for (uint32_t i = 0; i < ev->ncols; i++) {
        char key[256];
        snprintf(key, sizeof key, "%.*s", (int)ev->cols[i].name.n, ev->cols[i].name.p);
        uint32_t v = rc_json_get(c->r.j, row, key);
        if (!v) return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, row)->off, "the row has no value for \"%s\", which the schema lists", key);
        rc_status st = field_of[i] ? value_with_schema(c, &ev->cols[i], field_of[i], v, &img[i])
                                   : value_with_schema(c, &ev->cols[i], 0, v, &img[i]);
        if (st != RC_OK) return st;
        if (!field_of[i] && rc_jread_node(&c->r, v)->type == RC_J_STRING && b64_decimal(c, rc_jread_node(&c->r, v)->s, rc_jread_node(&c->r, v)->n)) b64_note(c, ev, &ev->cols[i]);
    }
    if (rc_jread_node(&c->r, row)->count != ev->ncols)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, row)->off, "the row has %u values but the schema has %u columns",
                            rc_jread_node(&c->r, row)->count, ev->ncols);
    *out = img;
    return RC_OK;
}

