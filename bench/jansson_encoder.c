/* The benchmark peer: a straightforward jansson-based encoder that produces the same bytes
 * as rowcast's native encoder for the standard workload (it builds a json_t tree per event
 * and dumps it, as a typical C program using a JSON library would). */
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "jansson_encoder.h"

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static json_t *base64(const rc_str *s)
{
    char out[512];
    size_t o = 0;
    const unsigned char *p = (const unsigned char *)s->p;
    for (size_t i = 0; i < s->n; i += 3) {
        unsigned v = p[i] << 16 | (i + 1 < s->n ? p[i + 1] << 8 : 0) | (i + 2 < s->n ? p[i + 2] : 0);
        out[o++] = b64[v >> 18];
        out[o++] = b64[(v >> 12) & 63];
        out[o++] = i + 1 < s->n ? b64[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < s->n ? b64[v & 63] : '=';
    }
    return json_stringn(out, o);
}

static int frac(char *buf, unsigned nanos)
{
    if (!nanos) return 0;
    int n = sprintf(buf, ".%09u", nanos);
    while (buf[n - 1] == '0') n--;
    buf[n] = '\0';
    return n;
}

static json_t *value(const rc_value *v)
{
    char buf[128];
    int n;
    switch (v->kind) {
    case RC_V_NULL: return json_null();
    case RC_V_INT: return json_integer(v->i);
    case RC_V_FLOAT64: return json_real(v->f64);
    case RC_V_DECIMAL: {
        /* the workload's decimals have scale 2 and are non-negative */
        size_t ip = v->dec.ndigits > 2 ? v->dec.ndigits - 2 : 0;
        n = snprintf(buf, sizeof buf, "%s%.*s.%s%.*s", ip ? "" : "0", (int)ip, v->dec.digits,
                     v->dec.ndigits < 2 ? "0" : "", (int)(v->dec.ndigits - ip), v->dec.digits + ip);
        return json_stringn(buf, (size_t)n);
    }
    case RC_V_BYTES: return base64(&v->s);
    case RC_V_DATE:
        n = snprintf(buf, sizeof buf, "%04d-%02u-%02u", v->date.year, v->date.month, v->date.day);
        return json_stringn(buf, (size_t)n);
    case RC_V_DATETIME:
        n = snprintf(buf, sizeof buf, "%04d-%02u-%02u %02u:%02u:%02u", v->dt.year, v->dt.month, v->dt.day, v->dt.hour,
                     v->dt.minute, v->dt.second);
        n += frac(buf + n, v->dt.nanos);
        return json_stringn(buf, (size_t)n);
    case RC_V_TIMESTAMP: {
        time_t t = (time_t)v->ts.sec;
        struct tm tm;
        gmtime_r(&t, &tm);
        n = (int)strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
        n += frac(buf + n, v->ts.nanos);
        buf[n++] = 'Z';
        return json_stringn(buf, (size_t)n);
    }
    default: return json_stringn(v->s.p, v->s.n);
    }
}

static json_t *image(const rc_event *ev, const rc_value *img)
{
    json_t *a = json_array();
    for (uint32_t i = 0; i < ev->ncols; i++) json_array_append_new(a, value(&img[i]));
    return a;
}

static json_t *strn(rc_str s) { return json_stringn(s.p, s.n); }

char *jansson_encode(const rc_event *ev, size_t *len)
{
    json_t *o = json_object();
    json_object_set_new(o, "op", json_string(rc_op_name(ev->op)));
    json_t *src = json_object();
    json_object_set_new(src, "kind", json_string(rc_dbkind_name(ev->src.kind)));
    if (ev->src.server.n) json_object_set_new(src, "server", strn(ev->src.server));
    if (ev->src.version.n) json_object_set_new(src, "version", strn(ev->src.version));
    if (ev->src.db.n) json_object_set_new(src, "db", strn(ev->src.db));
    if (ev->src.table.n) json_object_set_new(src, "table", strn(ev->src.table));
    json_object_set_new(o, "source", src);
    json_t *pos = json_object();
    json_object_set_new(pos, "file", strn(ev->pos.file));
    json_object_set_new(pos, "offset", json_integer((json_int_t)ev->pos.offset));
    json_object_set_new(pos, "seq", json_integer((json_int_t)ev->pos.seq));
    json_object_set_new(o, "pos", pos);
    json_object_set_new(o, "ts_us", json_integer(ev->ts_us));
    json_t *cols = json_array();
    for (uint32_t i = 0; i < ev->ncols; i++) {
        json_t *c = json_object();
        json_object_set_new(c, "name", strn(ev->cols[i].name));
        json_object_set_new(c, "type", strn(ev->cols[i].type.decl));
        if (ev->cols[i].pk) json_object_set_new(c, "pk", json_true());
        if (ev->cols[i].nullable) json_object_set_new(c, "nullable", json_true());
        json_array_append_new(cols, c);
    }
    json_object_set_new(o, "columns", cols);
    if (ev->before) json_object_set_new(o, "before", image(ev, ev->before));
    if (ev->after) json_object_set_new(o, "after", image(ev, ev->after));
    if (ev->changed) {
        json_t *ch = json_array();
        for (uint32_t i = 0; i < ev->ncols; i++)
            if (ev->changed[i]) json_array_append_new(ch, strn(ev->cols[i].name));
        json_object_set_new(o, "changed", ch);
    }
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(o);
    *len = s ? strlen(s) : 0;
    return s;
}

/* ---- peers for canal (Canal flavour: all strings) and debezium (OMS, payload only) ---- */

static json_t *str_of(const char *s, int n) { return json_stringn(s, (size_t)n); }

static int fmt_double_java(char *buf, size_t cap, double d)
{
    /* the workload's doubles are short binary fractions: %.17g prints their exact digits */
    int n = snprintf(buf, cap, "%.17g", d);
    if (!strchr(buf, '.') && !strchr(buf, 'e')) n += snprintf(buf + n, cap - (size_t)n, ".0");
    return n;
}

static int fmt_datetime(char *buf, size_t cap, const rc_datetime *dt, char sep)
{
    int n = snprintf(buf, cap, "%04d-%02u-%02u%c%02u:%02u:%02u", dt->year, dt->month, dt->day, sep, dt->hour, dt->minute, dt->second);
    return n + frac(buf + n, dt->nanos);
}

static int fmt_ts(char *buf, size_t cap, const rc_timestamp *ts, char sep, bool z)
{
    time_t t = (time_t)ts->sec;
    struct tm tm;
    gmtime_r(&t, &tm);
    char f[8] = "%F %T";
    f[2] = sep;
    int n = (int)strftime(buf, cap, f, &tm);
    n += frac(buf + n, ts->nanos);
    if (z) buf[n++] = 'Z', buf[n] = '\0';
    return n;
}

static int fmt_decimal(char *buf, size_t cap, const rc_decimal *d)
{
    size_t ip = d->ndigits > 2 ? d->ndigits - 2 : 0;
    return snprintf(buf, cap, "%s%.*s.%s%.*s", ip ? "" : "0", (int)ip, d->digits, d->ndigits < 2 ? "0" : "",
                    (int)(d->ndigits - ip), d->digits + ip);
}

/* Real Canal writes an ENUM as its 1-based index among the declared labels (the binlog holds
 * the index): its place among the column type's labels, 0 when not there. */
static int enum_index(const rc_column *col, rc_str label)
{
    size_t pos = 0;
    rc_str l;
    for (int idx = 1; rc_coltype_label_next(&col->type, &pos, &l); idx++)
        if (l.n == label.n && !memcmp(l.p, label.p, label.n)) return idx;
    return 0;
}

static json_t *canal_value(const rc_column *col, const rc_value *v)
{
    char buf[512];
    int n;
    switch (v->kind) {
    case RC_V_NULL: return json_null();
    case RC_V_ENUM: n = snprintf(buf, sizeof buf, "%d", enum_index(col, v->s)); break;
    case RC_V_INT: n = snprintf(buf, sizeof buf, "%lld", (long long)v->i); break;
    case RC_V_DECIMAL: n = fmt_decimal(buf, sizeof buf, &v->dec); break;
    case RC_V_FLOAT64: n = fmt_double_java(buf, sizeof buf, v->f64); break;
    case RC_V_DATE: n = snprintf(buf, sizeof buf, "%04d-%02u-%02u", v->date.year, v->date.month, v->date.day); break;
    case RC_V_DATETIME: n = fmt_datetime(buf, sizeof buf, &v->dt, ' '); break;
    case RC_V_TIMESTAMP: n = fmt_ts(buf, sizeof buf, &v->ts, ' ', false); break;
    case RC_V_BYTES: /* Latin-1: each byte one code point */
        n = 0;
        for (size_t i = 0; i < v->s.n; i++) {
            unsigned char c = (unsigned char)v->s.p[i];
            if (c < 0x80) buf[n++] = (char)c;
            else buf[n++] = (char)(0xC0 | c >> 6), buf[n++] = (char)(0x80 | (c & 0x3F));
        }
        break;
    default: return json_stringn(v->s.p, v->s.n);
    }
    return str_of(buf, n);
}

static json_t *canal_row(const rc_event *ev, const rc_value *img, const uint8_t *only)
{
    json_t *o = json_object();
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (only && !only[i]) continue;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)ev->cols[i].name.n, ev->cols[i].name.p);
        json_object_set_new(o, name, canal_value(&ev->cols[i], &img[i]));
    }
    return o;
}

char *jansson_encode_canal(const rc_event *ev, size_t *len)
{
    static const char *const types[] = {"INSERT", "UPDATE", "DELETE", "INSERT"};
    json_t *o = json_object();
    json_t *data = json_array();
    json_array_append_new(data, canal_row(ev, ev->op == RC_OP_DELETE ? ev->before : ev->after, NULL));
    json_object_set_new(o, "data", data);
    json_object_set_new(o, "database", strn(ev->src.db));
    json_object_set_new(o, "es", json_integer(ev->ts_us / 1000));
    json_object_set_new(o, "id", json_integer((json_int_t)ev->pos.seq));
    json_object_set_new(o, "isDdl", json_false());
    json_t *mt = json_object(), *st = json_object();
    for (uint32_t i = 0; i < ev->ncols; i++) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)ev->cols[i].name.n, ev->cols[i].name.p);
        json_object_set_new(mt, name, strn(ev->cols[i].type.decl));
        json_object_set_new(st, name, json_integer(ev->cols[i].type.info->canal_jdbc));
    }
    json_object_set_new(o, "mysqlType", mt);
    if (ev->op == RC_OP_UPDATE) {
        json_t *old = json_array();
        json_array_append_new(old, canal_row(ev, ev->before, ev->changed));
        json_object_set_new(o, "old", old);
    } else {
        json_object_set_new(o, "old", json_null());
    }
    json_t *pk = json_array();
    json_array_append_new(pk, json_string("id"));
    json_object_set_new(o, "pkNames", pk);
    json_object_set_new(o, "sql", json_string(""));
    json_object_set_new(o, "sqlType", st);
    json_object_set_new(o, "table", strn(ev->src.table));
    json_object_set_new(o, "ts", json_integer(ev->ts_us / 1000));
    json_object_set_new(o, "type", json_string(types[ev->op]));
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    *len = s ? strlen(s) : 0;
    return s;
}

static json_t *dbz_value(const rc_value *v)
{
    char buf[512];
    int n;
    switch (v->kind) {
    case RC_V_NULL: return json_null();
    case RC_V_INT: return json_integer(v->i);
    case RC_V_FLOAT64: return json_real(v->f64);
    case RC_V_DECIMAL: n = fmt_decimal(buf, sizeof buf, &v->dec); return str_of(buf, n);
    case RC_V_DATE: {
        struct tm tm = {0};
        tm.tm_year = v->date.year - 1900, tm.tm_mon = v->date.month - 1, tm.tm_mday = v->date.day;
        return json_integer((json_int_t)(timegm(&tm) / 86400));
    }
    case RC_V_DATETIME: {
        struct tm tm = {0};
        tm.tm_year = v->dt.year - 1900, tm.tm_mon = v->dt.month - 1, tm.tm_mday = v->dt.day;
        tm.tm_hour = v->dt.hour, tm.tm_min = v->dt.minute, tm.tm_sec = v->dt.second;
        return json_integer((json_int_t)timegm(&tm) * 1000 + v->dt.nanos / 1000000);
    }
    case RC_V_TIMESTAMP: n = fmt_ts(buf, sizeof buf, &v->ts, 'T', true); return str_of(buf, n);
    case RC_V_BYTES:
        n = 0;
        for (size_t i = 0; i < v->s.n; i++) n += snprintf(buf + n, sizeof buf - (size_t)n, "%02X", (unsigned char)v->s.p[i]);
        return str_of(buf, n);
    default: return json_stringn(v->s.p, v->s.n);
    }
}

static json_t *dbz_row(const rc_event *ev, const rc_value *img)
{
    json_t *o = json_object();
    for (uint32_t i = 0; i < ev->ncols; i++) {
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)ev->cols[i].name.n, ev->cols[i].name.p);
        json_object_set_new(o, name, dbz_value(&img[i]));
    }
    return o;
}

char *jansson_encode_debezium(const rc_event *ev, size_t *len)
{
    static const char *const ops[] = {"c", "u", "d", "c"};
    json_t *p = json_object();
    json_object_set_new(p, "op", json_string(ops[ev->op]));
    if (ev->op != RC_OP_INSERT) json_object_set_new(p, "before", dbz_row(ev, ev->before));
    json_t *src = json_object();
    char pos[96];
    int n = snprintf(pos, sizeof pos, "%llu@%.*s", (unsigned long long)ev->pos.offset, (int)ev->pos.file.n, ev->pos.file.p);
    json_object_set_new(src, "connector", json_string("MYSQL"));
    json_object_set_new(src, "pos", str_of(pos, n));
    json_object_set_new(src, "name", json_string("OMS"));
    json_object_set_new(src, "version", json_string(""));
    json_object_set_new(src, "ts_ms", json_integer(ev->ts_us / 1000));
    json_object_set_new(src, "db", strn(ev->src.db));
    json_object_set_new(src, "table", strn(ev->src.table));
    json_object_set_new(p, "source", src);
    if (ev->op != RC_OP_DELETE) json_object_set_new(p, "after", dbz_row(ev, ev->after));
    json_object_set_new(p, "ts_ms", json_integer(ev->ts_us / 1000));
    json_t *o = json_object();
    json_object_set_new(o, "payload", p);
    char *s = json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(17));
    json_decref(o);
    *len = s ? strlen(s) : 0;
    return s;
}
