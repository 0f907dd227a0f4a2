/* CloudEvents data in Avro (cloudevents.data=avro), reader side: the Avro binary of the record
 * {before: [null, Value], after: [null, Value]} after the Confluent wire format's magic byte and
 * schema id, read with the schema the user gives (cloudevents.schema.file, the .avsc the schema
 * registry holds; Debezium's AvroConverter writes the Kafka Connect schema into it as
 * connect.name, connect.parameters, connect.type). The record is turned into the Kafka Connect
 * JSON the Debezium reader reads with a schema: the Connect schema made once from the .avsc,
 * the images as JSON values (bytes as base64), so each type rule exists once, in
 * debezium_read.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/cloudevents_avro.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsonw.h"
#include "core/nameidx.h"

struct rc_ce_avro {
    char *text; /* the .avsc */
    rc_arena arena;
    rc_json json;
    uint32_t before, after; /* the union types of the two fields */
    rc_nameidx names;       /* the named types by name and by full name (namespace.name) */
    rc_buf schema;          /* the Connect envelope schema made of it */
    const char *path;
};

typedef struct rd {
    const rc_ce_avro *s;
    const unsigned char *start, *p, *end;
    rc_buf *out;
    rc_error *err;
    size_t off; /* the offset of the base64 text's first character, which errors count from */
    int depth;
} rd;

static const rc_jnode *jn(const rc_ce_avro *s, uint32_t i) { return &s->json.nodes[i]; }

static bool node_is(const rc_jnode *n, const char *t) { return n->type == RC_J_STRING && n->n == strlen(t) && !memcmp(n->s, t, n->n); }

/* the member `key` of object node i as a node, 0 when absent */
static uint32_t member(const rc_ce_avro *s, uint32_t i, const char *key)
{
    return jn(s, i)->type == RC_J_OBJECT ? rc_json_get(&s->json, i, key) : 0;
}

static const char *const primitives[] = {"null", "boolean", "int", "long", "float", "double", "bytes", "string"};

/* s->names: every object with a "name" by that name and by namespace.name, the first object
 * of a name in the schema's order winning; false when out of memory. */
static bool index_names(rc_ce_avro *s)
{
    uint32_t objects = 0;
    for (uint32_t i = 1; i < s->json.nnodes; i++) objects += jn(s, i)->type == RC_J_OBJECT;
    if (!rc_nameidx_init(&s->names, 2 * objects, &s->arena)) return false;
    for (uint32_t i = 1; i < s->json.nnodes; i++) {
        if (jn(s, i)->type != RC_J_OBJECT) continue;
        uint32_t n = member(s, i, "name"), ns = member(s, i, "namespace");
        if (!n || jn(s, n)->type != RC_J_STRING) continue;
        const rc_jnode *nn = jn(s, n);
        rc_nameidx_add(&s->names, nn->s, nn->n, i);
        if (!ns || jn(s, ns)->type != RC_J_STRING) continue;
        const rc_jnode *nsn = jn(s, ns);
        char *full = rc_arena_alloc(&s->arena, nsn->n + 1 + nn->n);
        if (!full) return false;
        memcpy(full, nsn->s, nsn->n), full[nsn->n] = '.', memcpy(full + nsn->n + 1, nn->s, nn->n);
        rc_nameidx_add(&s->names, full, nsn->n + 1 + nn->n, i);
    }
    return true;
}

/* A named type used by its name: the record of that name defined in the schema */
static uint32_t named(const rc_ce_avro *s, const rc_jnode *name)
{
    uint32_t i = rc_nameidx_find(&s->names, name->s, name->n);
    return i == UINT32_MAX ? 0 : i;
}

/* The type node t resolved: a primitive name (a string node), a record or a union (array);
 * 0 when it is none of them (an unknown name, a type rowcast does not read). */
static uint32_t resolve(const rc_ce_avro *s, uint32_t t)
{
    const rc_jnode *n = jn(s, t);
    if (n->type == RC_J_ARRAY) return t;
    if (n->type == RC_J_STRING) {
        for (size_t i = 0; i < sizeof primitives / sizeof *primitives; i++)
            if (node_is(n, primitives[i])) return t;
        return named(s, n);
    }
    if (n->type != RC_J_OBJECT) return 0;
    uint32_t ty = member(s, t, "type");
    if (!ty) return 0;
    if (node_is(jn(s, ty), "record")) return t;
    return jn(s, ty)->type == RC_J_STRING ? resolve(s, ty) ? t : 0 : 0; /* {"type":"int", "connect.type":...} */
}

/* The primitive name of a resolved non-union type, or "record" */
static const rc_jnode *prim(const rc_ce_avro *s, uint32_t t)
{
    return jn(s, t)->type == RC_J_STRING ? jn(s, t) : jn(s, member(s, t, "type"));
}

static rc_status bad_schema(const rc_ce_avro *s, uint32_t at, rc_error *err, const char *what)
{
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "cloudevents.schema.file %s: byte %zu: %s", s->path, jn(s, at)->off, what);
}

/* The union [null, T] or T of a field: *t the non-null branch, *optional */
static rc_status branch(const rc_ce_avro *s, uint32_t ft, uint32_t *t, bool *optional, rc_error *err)
{
    uint32_t r = resolve(s, ft);
    *optional = false, *t = 0;
    if (!r) return bad_schema(s, ft, err, "a type rowcast does not read (it reads records, unions with null and the primitive types)");
    if (jn(s, r)->type != RC_J_ARRAY) return *t = r, RC_OK;
    *t = 0;
    for (uint32_t b = jn(s, r)->first; b; b = jn(s, b)->next) {
        uint32_t rb = resolve(s, b);
        if (rb && jn(s, rb)->type == RC_J_STRING && node_is(jn(s, rb), "null")) *optional = true;
        else if (!*t && rb && jn(s, rb)->type != RC_J_ARRAY) *t = rb;
        else return bad_schema(s, b, err, "a union of more than null and one type");
    }
    return *t ? RC_OK : bad_schema(s, r, err, "a union without a type besides null");
}

static void put_connect_attr(const rc_ce_avro *s, uint32_t t, const char *avro, const char *connect, rc_buf *b)
{
    uint32_t v = member(s, t, avro);
    if (!v) return;
    RC_BUF_LIT(b, ",\"");
    rc_buf_puts(b, connect);
    RC_BUF_LIT(b, "\":");
    rc_json_write(&s->json, v, b);
}

/* The Connect schema of the field `name` of type ft (core/json.h) */
static rc_status connect_field(const rc_ce_avro *s, uint32_t ft, const char *name, size_t nl, rc_buf *b, rc_error *err, int depth)
{
    uint32_t t = 0;
    bool optional;
    rc_status st = branch(s, ft, &t, &optional, err);
    if (st != RC_OK) return st;
    if (depth > 8) return bad_schema(s, ft, err, "records nested too deep");
    const rc_jnode *p = prim(s, t);
    RC_BUF_LIT(b, "{\"type\":");
    uint32_t ct = member(s, t, "connect.type");
    if (node_is(p, "record")) {
        RC_BUF_LIT(b, "\"struct\",\"fields\":[");
        uint32_t fs = member(s, t, "fields");
        if (!fs || jn(s, fs)->type != RC_J_ARRAY) return bad_schema(s, t, err, "a record without \"fields\"");
        for (uint32_t f = jn(s, fs)->first; f; f = jn(s, f)->next) {
            uint32_t fn = member(s, f, "name"), fty = member(s, f, "type");
            if (!fn || jn(s, fn)->type != RC_J_STRING || !fty) return bad_schema(s, f, err, "a field needs \"name\" and \"type\"");
            if (f != jn(s, fs)->first) rc_buf_putc(b, ',');
            if ((st = connect_field(s, fty, jn(s, fn)->s, jn(s, fn)->n, b, err, depth + 1)) != RC_OK) return st;
        }
        rc_buf_putc(b, ']');
    } else if (ct && jn(s, ct)->type == RC_J_STRING) {
        rc_jw_str(b, jn(s, ct)->s, jn(s, ct)->n);
    } else {
        static const char *const map[][2] = {{"boolean", "boolean"}, {"int", "int32"},    {"long", "int64"}, {"float", "float"},
                                             {"double", "double"},   {"bytes", "bytes"}, {"string", "string"}};
        const char *c = NULL;
        for (size_t i = 0; i < sizeof map / sizeof *map; i++)
            if (node_is(p, map[i][0])) c = map[i][1];
        if (!c) return bad_schema(s, t, err, "a field of type null");
        rc_buf_putc(b, '"');
        rc_buf_puts(b, c);
        rc_buf_putc(b, '"');
    }
    RC_BUF_LIT(b, ",\"optional\":");
    rc_buf_puts(b, optional ? "true" : "false");
    put_connect_attr(s, t, "connect.name", "name", b);
    put_connect_attr(s, t, "connect.version", "version", b);
    put_connect_attr(s, t, "connect.parameters", "parameters", b);
    RC_BUF_LIT(b, ",\"field\":");
    rc_jw_str(b, name, nl);
    rc_buf_putc(b, '}');
    return RC_OK;
}

void rc_ce_avro_free(rc_ce_avro *s)
{
    if (!s) return;
    rc_json_fini(&s->json);
    rc_arena_fini(&s->arena);
    rc_buf_fini(&s->schema);
    free(s->text);
    free(s);
}

rc_status rc_ce_avro_load(const char *path, rc_ce_avro **out, rc_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "cloudevents.schema.file %s: %s", path, strerror(errno));
    rc_ce_avro *s = calloc(1, sizeof *s);
    size_t n = 0, cap = 0;
    char *t = NULL;
    for (;;) {
        if (n == cap) {
            char *nt = cap < (64u << 20) ? realloc(t, cap = cap ? cap * 2 : 4096) : NULL;
            if (!nt) break;
            t = nt;
        }
        size_t got = fread(t + n, 1, cap - n, f);
        n += got;
        if (!got) break;
    }
    bool failed = ferror(f) || n == cap;
    fclose(f);
    if (!s || !t || failed) {
        free(t), free(s);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "cloudevents.schema.file %s: cannot read it (over 64 MiB?)", path);
    }
    s->text = t, s->path = path;
    rc_arena_init(&s->arena);
    rc_json_init(&s->json, &s->arena);
    rc_buf_init(&s->schema, 0);
    rc_error perr;
    rc_error_clear(&perr);
    rc_status st = rc_json_parse(&s->json, t, n, &perr);
    if (st != RC_OK) {
        rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "cloudevents.schema.file %s: byte %zu: %s", path, perr.offset, perr.message);
        rc_ce_avro_free(s);
        return RC_ERR_USAGE;
    }
    if (!index_names(s)) {
        rc_ce_avro_free(s);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    uint32_t fs = member(s, 0, "fields");
    if (fs && jn(s, fs)->type == RC_J_ARRAY)
        for (uint32_t fl = jn(s, fs)->first; fl; fl = jn(s, fl)->next) {
            uint32_t fn = member(s, fl, "name");
            if (fn && node_is(jn(s, fn), "before")) s->before = member(s, fl, "type");
            if (fn && node_is(jn(s, fn), "after")) s->after = member(s, fl, "type");
        }
    if (!s->before || !s->after) {
        rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "cloudevents.schema.file %s: not the schema of CloudEvents data: a record with the "
                                                      "fields \"before\" and \"after\"", path);
        rc_ce_avro_free(s);
        return RC_ERR_USAGE;
    }
    rc_buf *b = &s->schema;
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    st = connect_field(s, s->before, "before", 6, b, err, 0);
    rc_buf_putc(b, ',');
    if (st == RC_OK) st = connect_field(s, s->after, "after", 5, b, err, 0);
    RC_BUF_LIT(b, "],\"optional\":false}");
    if (st == RC_OK && b->err != RC_OK) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (st != RC_OK) {
        rc_ce_avro_free(s);
        return st;
    }
    *out = s;
    return RC_OK;
}

/* ---- the binary ---- */

/* The offset of the base64 character that holds the first bits of data byte q (3 bytes are 4
 * characters; the end of the data: the character after its last). */
static size_t at(const rd *r, const unsigned char *q)
{
    size_t i = (size_t)(q - r->start);
    return r->off + i / 3 * 4 + i % 3;
}

static rc_status truncated(rd *r) { return rc_error_set(r->err, RC_ERR_VALUE, at(r, r->end), "the Avro data ends before its schema's record does"); }

/* A zigzag varint; errors point at its first byte. */
static rc_status read_long(rd *r, int64_t *out)
{
    const unsigned char *first = r->p;
    uint64_t u = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (r->p == r->end) return truncated(r);
        unsigned char c = *r->p++;
        if (shift == 63 && (c & 0x7e)) break; /* the tenth byte has room for one bit */
        u |= (uint64_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *out = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
            return RC_OK;
        }
    }
    return rc_error_set(r->err, RC_ERR_VALUE, at(r, first), "the Avro data holds a number beyond 64 bits");
}

static rc_status read_bytes(rd *r, const unsigned char **p, size_t *n)
{
    const unsigned char *first = r->p;
    int64_t len = 0; /* read_long sets it when it returns RC_OK; GCC -O3 does not see that */
    rc_status st = read_long(r, &len);
    if (st != RC_OK) return st;
    if (len < 0 || len > r->end - r->p)
        return len < 0 ? rc_error_set(r->err, RC_ERR_VALUE, at(r, first), "the Avro data holds a negative length") : truncated(r);
    *p = r->p, *n = (size_t)len;
    r->p += len;
    return RC_OK;
}

static rc_status value(rd *r, uint32_t ft);

/* The value of a resolved non-union type t as JSON */
static rc_status typed(rd *r, uint32_t t)
{
    const rc_ce_avro *s = r->s;
    const rc_jnode *p = prim(s, t);
    rc_buf *b = r->out;
    int64_t x;
    const unsigned char *q;
    size_t n;
    rc_status st = RC_OK;
    if (node_is(p, "record")) {
        if (++r->depth > 8) return rc_error_set(r->err, RC_ERR_VALUE, at(r, r->p), "records nested too deep");
        rc_buf_putc(b, '{');
        uint32_t fs = member(s, t, "fields");
        for (uint32_t f = jn(s, fs)->first; f && st == RC_OK; f = jn(s, f)->next) {
            uint32_t fn = member(s, f, "name");
            if (f != jn(s, fs)->first) rc_buf_putc(b, ',');
            rc_jw_str(b, jn(s, fn)->s, jn(s, fn)->n);
            rc_buf_putc(b, ':');
            st = value(r, member(s, f, "type"));
        }
        rc_buf_putc(b, '}');
        r->depth--;
    } else if (node_is(p, "boolean")) {
        if (r->p == r->end) return truncated(r);
        rc_buf_puts(b, *r->p++ ? "true" : "false");
    } else if (node_is(p, "int") || node_is(p, "long")) {
        const unsigned char *first = r->p;
        if ((st = read_long(r, &x)) == RC_OK && node_is(p, "int") && (x < INT32_MIN || x > INT32_MAX))
            return rc_error_set(r->err, RC_ERR_VALUE, at(r, first), "the Avro data holds %lld for an int (32 bits)", (long long)x);
        if (st == RC_OK) rc_fmt_i64(b, x);
    } else if (node_is(p, "float") || node_is(p, "double")) {
        size_t w = node_is(p, "float") ? 4 : 8;
        if ((size_t)(r->end - r->p) < w) return truncated(r);
        uint64_t u = 0;
        for (size_t i = w; i-- > 0;) u = u << 8 | r->p[i];
        r->p += w;
        rc_value v = {.kind = w == 4 ? RC_V_FLOAT32 : RC_V_FLOAT64};
        if (w == 4) {
            uint32_t u32 = (uint32_t)u;
            memcpy(&v.f32, &u32, 4);
        } else {
            memcpy(&v.f64, &u, 8);
        }
        rc_fmt_json_float(b, &v);
    } else if (node_is(p, "string")) {
        if ((st = read_bytes(r, &q, &n)) == RC_OK) rc_jw_str(b, (const char *)q, n);
    } else if (node_is(p, "bytes")) {
        if ((st = read_bytes(r, &q, &n)) == RC_OK) {
            rc_buf_putc(b, '"');
            rc_fmt_base64(b, q, n);
            rc_buf_putc(b, '"');
        }
    } else {
        RC_BUF_LIT(b, "null");
    }
    return st;
}

/* The value of a field of type ft (a union: its branch index first) */
static rc_status value(rd *r, uint32_t ft)
{
    uint32_t t = resolve(r->s, ft);
    if (jn(r->s, t)->type != RC_J_ARRAY) return typed(r, t);
    int64_t k;
    const unsigned char *first = r->p;
    rc_status st = read_long(r, &k);
    if (st != RC_OK) return st;
    uint32_t b = jn(r->s, t)->first;
    for (int64_t i = 0; b && i < k; i++) b = jn(r->s, b)->next;
    if (k < 0 || !b) return rc_error_set(r->err, RC_ERR_VALUE, at(r, first), "the Avro data picks branch %lld of a union of %u", (long long)k, jn(r->s, t)->count);
    return typed(r, resolve(r->s, b));
}

const char *rc_ce_avro_schema(const rc_ce_avro *s, size_t *n)
{
    *n = s->schema.len;
    return s->schema.data;
}

rc_status rc_ce_avro_images(const rc_ce_avro *s, const unsigned char *p, size_t n, size_t off, rc_buf *out, rc_error *err)
{
    if (n < 5 || p[0] != 0)
        return rc_error_set(err, RC_ERR_VALUE, off, "Avro data starts with the magic byte 0 and a 4-byte schema id (the Confluent wire format)");
    rd r = {s, p, p + 5, p + n, out, err, off, 0};
    RC_BUF_LIT(out, "\"before\":");
    rc_status st = value(&r, s->before);
    RC_BUF_LIT(out, ",\"after\":");
    if (st == RC_OK) st = value(&r, s->after);
    if (st == RC_OK && r.p != r.end)
        st = rc_error_set(err, RC_ERR_VALUE, at(&r, r.p), "%zu bytes of Avro data follow the schema's record", (size_t)(r.end - r.p));
    return st;
}
