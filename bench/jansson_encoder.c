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
