/* Upstream Debezium: what each column type is in Kafka Connect (its schema, as JsonConverter
 * writes it), by the connector's rules and the handling modes. */
#include <stdio.h>
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "core/jsonw.h"
#include "core/log.h"

/* The element column of a PostgreSQL array column ("numeric(10,2)[]": numeric(10,2)); false
 * when its declaration does not parse. */
bool rc_dbz_array_elem(up_enc *e, const rc_column *c, rc_column *out)
{
    rc_str d = c->type.decl;
    const rc_coltype *t;
    rc_error err;
    rc_error_clear(&err);
    if (d.n < 3 || memcmp(d.p + d.n - 2, "[]", 2) ||
        rc_type_cache_get(e->types, &e->types_arena, RC_FAM_PG, d.p, d.n - 2, 0, &t, &err) != RC_OK)
        return false;
    *out = (rc_column){.name = c->name, .type = *t, .nullable = true};
    return true;
}

dbz_unknown rc_dbz_unknown(up_enc *e, const rc_column *c)
{
    dbz_pg_kind k = pg_kind(e, c);
    rc_column ec;
    if (k == DBZ_PG_ARRAY && rc_dbz_array_elem(e, c, &ec)) k = pg_kind(e, &ec) == DBZ_PG_OTHER ? DBZ_PG_OTHER : DBZ_PG_NONE;
    if (k != DBZ_PG_OTHER && k != DBZ_PG_UNKNOWN) return UNK_NO;
    if (e->geometric37 && rc_dbz_pg_geometric(c->type.info)) return UNK_NO; /* 3.7's Geometry, Circle, Line (dbz#2135) */
    return e->include_unknown ? UNK_BYTES : UNK_OUT; /* a built-in it has none for (tsquery, box before 3.7) too */
}

bool rc_dbz_left_out(up_enc *e, const rc_event *ev, uint32_t i)
{
    const rc_column *c = &ev->cols[i];
    if (c->type.info->family != RC_FAM_PG || rc_dbz_unknown(e, c) != UNK_OUT) return false;
    rc_buf *w = &e->warned; /* "\n" then a line "schema.table.column\n" per column said */
    if (!w->len) rc_buf_putc(w, '\n');
    size_t mark = w->len;
    rc_buf_put(w, ev->src.schema.p, ev->src.schema.n), rc_buf_putc(w, '.');
    rc_buf_put(w, ev->src.table.p, ev->src.table.n), rc_buf_putc(w, '.');
    rc_buf_put(w, c->name.p, c->name.n), rc_buf_putc(w, '\n');
    if (w->err != RC_OK || !w->data) return true;
    size_t n = w->len - mark + 1; /* the new line with the newline before it, found whole */
    for (size_t at = 0; at + n <= mark; at++)
        if (!memcmp(w->data + at, w->data + mark - 1, n)) {
            w->len = mark;
            return true;
        }
    rc_logf(
            "rowcast: warning: debezium: table %.*s.%.*s, column \"%.*s\" of type %.*s: upstream Debezium's PostgreSQL connector "
            "has no converter for it and leaves the column out of its events (-o debezium.include.unknown.datatypes=true writes "
            "the bytes of its text)\n",
            (int)ev->src.schema.n, ev->src.schema.p, (int)ev->src.table.n, ev->src.table.p, (int)c->name.n, c->name.p,
            (int)c->type.decl.n, c->type.decl.p);
    return true;
}

/* Decimal {scale[, connect.decimal.precision]} parameters. */
static void decimal_params(rc_buf *params, int32_t scale, int32_t prec)
{
    RC_BUF_LIT(params, "{\"scale\":\"");
    rc_fmt_i64(params, scale);
    rc_buf_putc(params, '"');
    if (prec > 0) {
        RC_BUF_LIT(params, ",\"connect.decimal.precision\":\"");
        rc_fmt_i64(params, prec);
        rc_buf_putc(params, '"');
    }
    rc_buf_putc(params, '}');
}

/* The schema of a PostgreSQL column whose type the connector writes in a way of its own; false
 * for the others (their value kind decides). */
static bool pg_col_schema(up_enc *e, const rc_column *c, col_schema *s, rc_buf *params)
{
    if (e->geometric37 && rc_dbz_pg_geometric(c->type.info)) {
        s->type = "struct", s->name = rc_dbz_pg_geometric_schema(c->type.info, &s->version);
        return true;
    }
    if (rc_dbz_unknown(e, c) == UNK_BYTES) { /* include.unknown.datatypes: the text's bytes */
        s->type = e->bin_mode == BIN_BYTES ? "bytes" : "string";
        return true;
    }
    switch (pg_kind(e, c)) {
    case DBZ_PG_LTREE: s->type = "string", s->name = "io.debezium.data.Ltree", s->version = 1; return true;
    case DBZ_PG_POSTGIS:
        s->type = "struct", s->version = 1;
        s->name = !strcmp(c->type.info->name, "geography") ? "io.debezium.data.geometry.Geography" : "io.debezium.data.geometry.Geometry";
        return true;
    case DBZ_PG_HSTORE:
        if (e->hstore_map) s->type = "map";
        else s->type = "string", s->name = "io.debezium.data.Json", s->version = 1;
        return true;
    case DBZ_PG_UUID: s->type = "string", s->name = "io.debezium.data.Uuid", s->version = 1; return true;
    case DBZ_PG_XML: s->type = "string", s->name = "io.debezium.data.Xml", s->version = 1; return true;
    case DBZ_PG_TSVECTOR: s->type = "string", s->name = "io.debezium.data.TsVector", s->version = 1; return true;
    case DBZ_PG_TIMETZ: s->type = "string", s->name = "io.debezium.time.ZonedTime", s->version = 1; return true;
    case DBZ_PG_INTERVAL:
        if (e->interval_string) s->type = "string", s->name = "io.debezium.time.Interval";
        else s->type = "int64", s->name = "io.debezium.time.MicroDuration";
        s->version = 1;
        return true;
    case DBZ_PG_FLOAT4: s->type = "float"; return true;
    case DBZ_PG_POINT: s->type = "struct", s->name = "io.debezium.data.geometry.Point", s->version = 1; return true;
    case DBZ_PG_MONEY:
        if (e->dec_mode == DEC_STRING) s->type = "string";
        else if (e->dec_mode == DEC_DOUBLE) s->type = "double";
        else {
            s->type = "bytes", s->name = "org.apache.kafka.connect.data.Decimal", s->version = 1;
            decimal_params(params, 2, -1); /* Decimal.builder(money.fraction.digits): no precision */
            s->params = params;
        }
        return true;
    case DBZ_PG_BITS:
        if (c->type.p1 == 1) {
            s->type = "boolean";
            return true;
        }
        s->type = "bytes", s->name = "io.debezium.data.Bits", s->version = 1;
        RC_BUF_LIT(params, "{\"length\":\"");
        rc_fmt_i64(params, c->type.p1 < 1 ? INT32_MAX : c->type.p1); /* bit varying: Integer.MAX_VALUE */
        RC_BUF_LIT(params, "\"}");
        s->params = params;
        return true;
    case DBZ_PG_ARRAY: s->type = "array"; return true;
    default: return false;
    }
}


/* An ENUM/SET label as Debezium's "allowed" lists it (BinlogEnumColumnIT): the value ('' in
 * the declaration is one quote), a comma in it escaped as "\,", as JSON string text. */
static void put_label(rc_buf *b, rc_str l)
{
    size_t from = 0;
    for (size_t i = 0; i < l.n; i++) {
        if (l.p[i] != ',' && !(l.p[i] == '\'' && i + 1 < l.n && l.p[i + 1] == '\'')) continue;
        rc_jw_str_body(b, l.p + from, i - from + (l.p[i] == '\''));
        if (l.p[i] == ',') RC_BUF_LIT(b, "\\\\,");
        from = i + 1 + (l.p[i] == '\'');
        i = from - 1;
    }
    rc_jw_str_body(b, l.p + from, l.n - from);
}

void rc_dbz_col_schema(up_enc *e, const rc_column *c, col_schema *s, rc_buf *params)
{
    const rc_type_info *t = c->type.info;
    memset(s, 0, sizeof *s);
    rc_buf_reset(params);
    if (pg_col_schema(e, c, s, params)) return;
    switch (t->vkind) {
    case RC_V_BOOL: s->type = "boolean"; return;
    case RC_V_INT:
        s->type = t->connect; /* int16 / int32 / int64 by the column's width */
        if (e->tinyint8 && t->family == RC_FAM_MYSQL && !strcmp(t->name, "tinyint")) s->type = "int8";
        if (t->avro == RC_AVRO_DATETIME) s->name = "io.debezium.time.Year", s->version = 1;
        return;
    case RC_V_UINT:
        if (!e->unsigned_precise) {
            s->type = "int64";
            return;
        }
        /* precise unsigned is a Decimal of scale 0 */
        __attribute__((fallthrough));
    case RC_V_DECIMAL:
        if (e->dec_mode == DEC_STRING) s->type = "string";
        else if (e->dec_mode == DEC_DOUBLE) s->type = "double";
        else if (t->vkind == RC_V_DECIMAL && c->type.p2 < 0 && c->type.info->family == RC_FAM_PG) {
            s->type = "struct", s->name = "io.debezium.data.VariableScaleDecimal", s->version = 1;
        } else {
            s->type = "bytes", s->name = "org.apache.kafka.connect.data.Decimal", s->version = 1;
            /* unsigned: Debezium 3 writes precision 20 (BinlogUnsignedIntegerIT's BIGINT_PRECISE_SCHEMA), earlier none */
            decimal_params(params, t->vkind == RC_V_UINT ? 0 : dec_scale(c, NULL),
                           t->vkind == RC_V_UINT ? (e->compat >= 30 ? 20 : -1) : c->type.p1);
            s->params = params;
        }
        return;
    case RC_V_FLOAT32: s->type = float32_kept(e, c) ? "float" : "double"; return;
    case RC_V_FLOAT64: s->type = "double"; return;
    case RC_V_BITS:
        if (c->type.p1 <= 1) {
            s->type = "boolean";
            return;
        }
        s->type = "bytes", s->name = "io.debezium.data.Bits", s->version = 1;
        RC_BUF_LIT(params, "{\"length\":\"");
        rc_fmt_i64(params, c->type.p1);
        RC_BUF_LIT(params, "\"}");
        s->params = params;
        return;
    case RC_V_BYTES: s->type = e->bin_mode == BIN_BYTES ? "bytes" : "string"; return;
    case RC_V_DATE:
        s->type = "int32";
        if (e->time_mode == TIME_CONNECT) s->name = "org.apache.kafka.connect.data.Date", s->version = 1;
        else s->name = "io.debezium.time.Date", s->version = 1;
        return;
    case RC_V_TIME:
        if (e->time_mode == TIME_CONNECT) s->type = "int32", s->name = "org.apache.kafka.connect.data.Time", s->version = 1;
        else if (time_millis(e, c)) s->type = "int32", s->name = "io.debezium.time.Time", s->version = 1;
        else s->type = "int64", s->name = "io.debezium.time.MicroTime", s->version = 1;
        return;
    case RC_V_DATETIME:
        s->type = "int64", s->version = 1;
        switch (datetime_as(e, c)) {
        case DT_ZONED: s->type = "string", s->name = "io.debezium.time.ZonedTimestamp"; return;
        case DT_CONNECT: s->name = "org.apache.kafka.connect.data.Timestamp"; return;
        case DT_MILLIS: s->name = "io.debezium.time.Timestamp"; return;
        case DT_MICROS: s->name = "io.debezium.time.MicroTimestamp"; return;
        }
        return;
    case RC_V_TIMESTAMP: s->type = "string", s->name = "io.debezium.time.ZonedTimestamp", s->version = 1; return;
    case RC_V_ENUM:
    case RC_V_SET: {
        s->type = "string", s->version = 1;
        s->name = t->vkind == RC_V_ENUM ? "io.debezium.data.Enum" : "io.debezium.data.EnumSet";
        RC_BUF_LIT(params, "{\"allowed\":\"");
        rc_str l;
        for (unsigned i = 0; rc_coltype_label(&c->type, i, &l); i++) {
            if (i) rc_buf_putc(params, ',');
            put_label(params, l);
        }
        RC_BUF_LIT(params, "\"}");
        s->params = params;
        return;
    }
    case RC_V_JSON: s->type = "string", s->name = "io.debezium.data.Json", s->version = 1; return;
    case RC_V_GEOMETRY:
        s->type = "struct", s->version = 1;
        s->name = !strcmp(t->name, "point") ? "io.debezium.data.geometry.Point" : "io.debezium.data.geometry.Geometry";
        return;
    default: s->type = "string"; return;
    }
}

/* A field's schema in JsonConverter key order: type, (fields), optional, name, version,
 * parameters, field. */
void rc_dbz_put_field_schema(rc_buf *b, const col_schema *s, bool optional, const char *field, size_t fn)
{
    RC_BUF_LIT(b, "{\"type\":\"");
    rc_buf_puts(b, s->type);
    rc_buf_putc(b, '"');
    bool point = s->name && !strcmp(s->name, "io.debezium.data.geometry.Point");
    bool geography = s->name && !strcmp(s->name, "io.debezium.data.geometry.Geography");
    bool geometry = geography || (s->name && !strcmp(s->name, "io.debezium.data.geometry.Geometry"));
    bool circle = s->name && !strcmp(s->name, "io.debezium.data.geometry.Circle");
    bool line = s->name && !strcmp(s->name, "io.debezium.data.geometry.Line");
    /* Debezium 3.7's Geometry (version 2), Circle and Line builders are optional() themselves */
    optional = optional || circle || line || (geometry && s->version == 2);
#define POINT_FIELDS                                                                                                              \
    "[{\"type\":\"double\",\"optional\":false,\"field\":\"x\"},{\"type\":\"double\",\"optional\":false,\"field\":\"y\"},"                 \
    "{\"type\":\"bytes\",\"optional\":true,\"field\":\"wkb\"},{\"type\":\"int32\",\"optional\":true,\"field\":\"srid\"}]"
    if (point)
        RC_BUF_LIT(b, ",\"fields\":" POINT_FIELDS);
    else if (geometry && s->version == 2) /* with the extensions map (dbz#2135) */
        RC_BUF_LIT(b, ",\"fields\":[{\"type\":\"bytes\",\"optional\":false,\"field\":\"wkb\"},{\"type\":\"int32\",\"optional\":true,\"field\":\"srid\"},"
                      "{\"type\":\"map\",\"keys\":{\"type\":\"string\",\"optional\":false},\"values\":{\"type\":\"string\",\"optional\":false},"
                      "\"optional\":true,\"field\":\"extensions\"}]");
    else if (geometry)
        RC_BUF_LIT(b, ",\"fields\":[{\"type\":\"bytes\",\"optional\":false,\"field\":\"wkb\"},{\"type\":\"int32\",\"optional\":true,\"field\":\"srid\"}]");
    else if (circle)
        RC_BUF_LIT(b, ",\"fields\":[{\"type\":\"struct\",\"fields\":" POINT_FIELDS ",\"optional\":false,\"name\":\"io.debezium.data.geometry.Point\","
                      "\"version\":1,\"doc\":\"Geometry (POINT)\",\"field\":\"center\"},{\"type\":\"double\",\"optional\":false,\"field\":\"radius\"}]");
    else if (line)
        RC_BUF_LIT(b, ",\"fields\":[{\"type\":\"double\",\"optional\":false,\"field\":\"a\"},{\"type\":\"double\",\"optional\":false,\"field\":\"b\"},"
                      "{\"type\":\"double\",\"optional\":false,\"field\":\"c\"}]");
#undef POINT_FIELDS
    else if (!strcmp(s->type, "map")) /* hstore.handling.mode=map */
        RC_BUF_LIT(b, ",\"keys\":{\"type\":\"string\",\"optional\":false},\"values\":{\"type\":\"string\",\"optional\":true}");
    else if (!strcmp(s->type, "struct")) /* VariableScaleDecimal */
        RC_BUF_LIT(b, ",\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"scale\"},{\"type\":\"bytes\",\"optional\":false,\"field\":\"value\"}]");
    RC_BUF_LIT(b, ",\"optional\":");
    rc_buf_puts(b, optional ? "true" : "false");
    if (s->name) {
        RC_BUF_LIT(b, ",\"name\":\"");
        rc_buf_puts(b, s->name);
        rc_buf_putc(b, '"');
    }
    if (s->version) {
        RC_BUF_LIT(b, ",\"version\":");
        rc_fmt_i64(b, s->version);
    }
    if (s->name && !strcmp(s->name, "io.debezium.data.VariableScaleDecimal")) RC_BUF_LIT(b, ",\"doc\":\"Variable scaled decimal\"");
    if (point) RC_BUF_LIT(b, ",\"doc\":\"Geometry (POINT)\"");
    if (geometry) rc_buf_puts(b, geography ? ",\"doc\":\"Geography\"" : ",\"doc\":\"Geometry\"");
    if (circle) RC_BUF_LIT(b, ",\"doc\":\"Geometry (CIRCLE)\"");
    if (line) RC_BUF_LIT(b, ",\"doc\":\"Geometry (LINE)\"");
    if (s->params) {
        RC_BUF_LIT(b, ",\"parameters\":");
        rc_buf_put(b, s->params->data, s->params->len);
    }
    if (s->dflt) {
        RC_BUF_LIT(b, ",\"default\":");
        rc_buf_put(b, s->dflt->data, s->dflt->len);
    }
    if (field) {
        RC_BUF_LIT(b, ",\"field\":");
        rc_jw_str(b, field, fn);
    }
    rc_buf_putc(b, '}');
}

/* A column's field schema; a PostgreSQL array is {"type":"array","items":<the element's
 * optional schema>,...} as JsonConverter writes it. */
void rc_dbz_put_column_schema(up_enc *e, rc_buf *b, const rc_event *ev, uint32_t i, bool optional, rc_buf *params, rc_buf *dflt)
{
    const rc_column *c = &ev->cols[i];
    col_schema s;
    rc_dbz_col_schema(e, c, &s, params);
    rc_dbz_srctype_params(e, ev, i, &s, params);
    s.dflt = dflt;
    rc_column elem;
    if (!strcmp(s.type, "array") && rc_dbz_array_elem(e, c, &elem)) {
        RC_BUF_LIT(b, "{\"type\":\"array\",\"items\":");
        col_schema es;
        rc_dbz_col_schema(e, &elem, &es, params);
        rc_dbz_put_field_schema(b, &es, true, NULL, 0);
        RC_BUF_LIT(b, ",\"optional\":");
        rc_buf_puts(b, optional ? "true" : "false");
        RC_BUF_LIT(b, ",\"field\":");
        rc_str name = rc_dbz_field_name(e, c->name);
        rc_jw_str(b, name.p, name.n);
        rc_buf_putc(b, '}');
        return;
    }
    rc_str name = rc_dbz_field_name(e, c->name);
    rc_dbz_put_field_schema(b, &s, optional, name.p, name.n);
}

void rc_dbz_put_simple_field(rc_buf *b, const char *type, bool optional, const char *field)
{
    col_schema s = {type, NULL, 0, NULL, NULL};
    rc_dbz_put_field_schema(b, &s, optional, field, strlen(field));
}

void rc_dbz_put_simple_fields(rc_buf *b, const rc_dbz_field *f, bool comma_first)
{
    for (const rc_dbz_field *g = f; g->name; g++) {
        if (g != f || comma_first) rc_buf_putc(b, ',');
        rc_dbz_put_simple_field(b, g->type, g->optional, g->name);
    }
}

const rc_dbz_field rc_dbz_ts_us_ns[] = {{"ts_us", "int64", true}, {"ts_ns", "int64", true}, {0}};
