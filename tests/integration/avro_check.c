/* avro_check SCHEMA.avsc RECORDS: decodes length-prefixed Avro records (4-byte big-endian
 * length, then the record) with avro-c (libavro, an independent decoder) using the given DTS
 * schema file, and prints them as one JSON array in the layout of rowcast's avro-json view, so
 * that a test can compare what avro-c decoded with what rowcast meant to write. Fails when a
 * record does not decode or does not use exactly its bytes. */
#include <avro.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/buf.h"
#include "core/fmt.h"
#include "core/jsonw.h"

static int fail(const char *what)
{
    fprintf(stderr, "avro_check: %s: %s\n", what, avro_strerror());
    exit(1);
}

static avro_value_t field(avro_value_t *rec, const char *name)
{
    avro_value_t f;
    if (avro_value_get_by_name(rec, name, &f, NULL)) fail(name);
    return f;
}

static void put_string(rc_buf *b, avro_value_t *v)
{
    const char *s;
    size_t n;
    if (avro_value_get_string(v, &s, &n)) fail("string");
    rc_jw_str(b, s, n ? n - 1 : 0);
}

static void put_bytes(rc_buf *b, avro_value_t *v)
{
    const void *p;
    size_t n;
    if (avro_value_get_bytes(v, &p, &n)) fail("bytes");
    RC_BUF_LIT(b, "{\"bytes\":");
    rc_jw_latin1(b, p, n);
    rc_buf_putc(b, '}');
}

static void put_int(rc_buf *b, avro_value_t *v)
{
    int32_t i;
    if (avro_value_get_int(v, &i)) fail("int");
    rc_fmt_i64(b, i);
}

static void put_long(rc_buf *b, avro_value_t *v)
{
    int64_t l;
    if (avro_value_get_long(v, &l)) fail("long");
    rc_fmt_i64(b, l);
}

static void put_enum(rc_buf *b, avro_value_t *v)
{
    int e;
    if (avro_value_get_enum(v, &e)) fail("enum");
    rc_buf_putc(b, '"');
    rc_buf_puts(b, avro_schema_enum_get(avro_value_get_schema(v), e));
    rc_buf_putc(b, '"');
}

/* Writes `"name":` then the value of the record field through `put`. */
static void kv(rc_buf *b, avro_value_t *rec, const char *name, void (*put)(rc_buf *, avro_value_t *), bool first)
{
    if (!first) rc_buf_putc(b, ',');
    rc_buf_putc(b, '"');
    rc_buf_puts(b, name);
    RC_BUF_LIT(b, "\":");
    avro_value_t f = field(rec, name);
    put(b, &f);
}

static void put_opt_int(rc_buf *b, avro_value_t *u)
{
    int d;
    avro_value_t br;
    avro_value_get_discriminant(u, &d);
    if (d == 0) {
        RC_BUF_LIT(b, "null");
        return;
    }
    avro_value_get_current_branch(u, &br);
    put_int(b, &br);
}

static void put_datetime(rc_buf *b, avro_value_t *v)
{
    static const char *const names[] = {"year", "month", "day", "hour", "minute", "second", "millis"};
    rc_buf_putc(b, '{');
    for (int i = 0; i < 7; i++) kv(b, v, names[i], put_opt_int, i == 0);
    rc_buf_putc(b, '}');
}

static void put_double(rc_buf *b, avro_value_t *v)
{
    double d;
    if (avro_value_get_double(v, &d)) fail("double");
    bool q = rc_f64_special(d);
    if (q) rc_buf_putc(b, '"');
    rc_fmt_f64_java(b, d);
    if (q) rc_buf_putc(b, '"');
}

static void put_image_item(rc_buf *b, avro_value_t *u)
{
    int d;
    avro_value_t v;
    avro_value_get_discriminant(u, &d);
    avro_value_get_current_branch(u, &v);
    const char *rec = d == 0 ? "null" : avro_schema_name(avro_value_get_schema(&v));
    if (d == 0) {
        RC_BUF_LIT(b, "null");
    } else if (!strcmp(rec, "Integer")) {
        rc_buf_putc(b, '{'), kv(b, &v, "precision", put_int, true), kv(b, &v, "value", put_string, false), rc_buf_putc(b, '}');
    } else if (!strcmp(rec, "Character")) {
        rc_buf_putc(b, '{'), kv(b, &v, "charset", put_string, true), kv(b, &v, "value", put_bytes, false), rc_buf_putc(b, '}');
    } else if (!strcmp(rec, "Decimal")) {
        rc_buf_putc(b, '{'), kv(b, &v, "value", put_string, true), kv(b, &v, "precision", put_int, false);
        kv(b, &v, "scale", put_int, false), rc_buf_putc(b, '}');
    } else if (!strcmp(rec, "Float")) {
        rc_buf_putc(b, '{'), kv(b, &v, "value", put_double, true), kv(b, &v, "precision", put_int, false);
        kv(b, &v, "scale", put_int, false), rc_buf_putc(b, '}');
    } else if (!strcmp(rec, "Timestamp")) {
        rc_buf_putc(b, '{'), kv(b, &v, "timestamp", put_long, true), kv(b, &v, "millis", put_int, false), rc_buf_putc(b, '}');
    } else if (!strcmp(rec, "DateTime")) {
        put_datetime(b, &v);
    } else if (!strcmp(rec, "TimestampWithTimeZone")) {
        rc_buf_putc(b, '{'), kv(b, &v, "value", put_datetime, true), kv(b, &v, "timezone", put_string, false), rc_buf_putc(b, '}');
    } else if (!strcmp(rec, "BinaryObject") || !strcmp(rec, "BinaryGeometry")) {
        rc_buf_putc(b, '{'), kv(b, &v, "type", put_string, true), kv(b, &v, "value", put_bytes, false), rc_buf_putc(b, '}');
    } else if (!strcmp(rec, "TextObject") || !strcmp(rec, "TextGeometry")) {
        rc_buf_putc(b, '{'), kv(b, &v, "type", put_string, true), kv(b, &v, "value", put_string, false), rc_buf_putc(b, '}');
    } else {
        put_enum(b, &v);
    }
}

/* union [null, string, array<...>] of fields / images */
static void put_images(rc_buf *b, avro_value_t *u)
{
    int d;
    avro_value_t v;
    avro_value_get_discriminant(u, &d);
    avro_value_get_current_branch(u, &v);
    if (d == 0) {
        RC_BUF_LIT(b, "null");
        return;
    }
    if (d == 1) {
        put_string(b, &v);
        return;
    }
    size_t n;
    avro_value_get_size(&v, &n);
    rc_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        avro_value_t item;
        avro_value_get_by_index(&v, i, &item, NULL);
        if (i) rc_buf_putc(b, ',');
        if (avro_value_get_type(&item) == AVRO_RECORD) { /* Field */
            rc_buf_putc(b, '{'), kv(b, &item, "name", put_string, true), kv(b, &item, "dataTypeNumber", put_int, false);
            rc_buf_putc(b, '}');
        } else {
            put_image_item(b, &item);
        }
    }
    rc_buf_putc(b, ']');
}

static void put_source(rc_buf *b, avro_value_t *v)
{
    rc_buf_putc(b, '{'), kv(b, v, "sourceType", put_enum, true), kv(b, v, "version", put_string, false), rc_buf_putc(b, '}');
}

static void put_opt_string(rc_buf *b, avro_value_t *u)
{
    int d;
    avro_value_t v;
    avro_value_get_discriminant(u, &d);
    avro_value_get_current_branch(u, &v);
    if (d == 0) RC_BUF_LIT(b, "null");
    else put_string(b, &v);
}

static void put_timestamps(rc_buf *b, avro_value_t *u)
{
    int d;
    avro_value_t v;
    avro_value_get_discriminant(u, &d);
    avro_value_get_current_branch(u, &v);
    if (d == 0) {
        RC_BUF_LIT(b, "null");
        return;
    }
    size_t n;
    avro_value_get_size(&v, &n);
    rc_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        avro_value_t item;
        avro_value_get_by_index(&v, i, &item, NULL);
        if (i) rc_buf_putc(b, ',');
        put_long(b, &item);
    }
    rc_buf_putc(b, ']');
}

static void put_tags(rc_buf *b, avro_value_t *m)
{
    size_t n;
    avro_value_get_size(m, &n);
    rc_buf_putc(b, '{');
    for (size_t i = 0; i < n; i++) {
        avro_value_t item;
        const char *key;
        avro_value_get_by_index(m, i, &item, &key);
        if (i) rc_buf_putc(b, ',');
        rc_jw_str(b, key, strlen(key));
        rc_buf_putc(b, ':');
        put_string(b, &item);
    }
    rc_buf_putc(b, '}');
}

int main(int argc, char **argv)
{
    if (argc != 3) return fprintf(stderr, "usage: avro_check SCHEMA.avsc RECORDS\n"), 2;
    FILE *sf = fopen(argv[1], "rb"), *rf = fopen(argv[2], "rb");
    if (!sf || !rf) return fprintf(stderr, "avro_check: cannot open input\n"), 2;
    static char sj[1 << 16];
    size_t sn = fread(sj, 1, sizeof sj, sf);
    avro_schema_t schema;
    if (avro_schema_from_json_length(sj, sn, &schema)) fail("schema");
    avro_value_iface_t *iface = avro_generic_class_from_schema(schema);
    avro_value_t rec;
    avro_generic_value_new(iface, &rec);
    rc_buf out;
    rc_buf_init(&out, 0);
    rc_buf_putc(&out, '[');
    unsigned char hdr[4];
    size_t count = 0;
    while (fread(hdr, 1, 4, rf) == 4) {
        size_t len = (size_t)hdr[0] << 24 | (size_t)hdr[1] << 16 | (size_t)hdr[2] << 8 | hdr[3];
        char *data = malloc(len ? len : 1);
        if (fread(data, 1, len, rf) != len) return fprintf(stderr, "avro_check: truncated record %zu\n", count), 1;
        avro_reader_t r = avro_reader_memory(data, (int64_t)len);
        avro_value_reset(&rec);
        if (avro_value_read(r, &rec)) fail("record");
        char extra; /* the record must use exactly its bytes: one more read must fail */
        if (avro_read(r, &extra, 1) == 0) return fprintf(stderr, "avro_check: record %zu has bytes after its end\n", count), 1;
        avro_reader_free(r);
        free(data);
        if (count++) rc_buf_putc(&out, ',');
        rc_buf_putc(&out, '{');
        kv(&out, &rec, "version", put_int, true);
        kv(&out, &rec, "id", put_long, false);
        kv(&out, &rec, "sourceTimestamp", put_long, false);
        kv(&out, &rec, "sourcePosition", put_string, false);
        kv(&out, &rec, "safeSourcePosition", put_string, false);
        kv(&out, &rec, "sourceTxid", put_string, false);
        kv(&out, &rec, "source", put_source, false);
        kv(&out, &rec, "operation", put_enum, false);
        kv(&out, &rec, "objectName", put_opt_string, false);
        kv(&out, &rec, "processTimestamps", put_timestamps, false);
        kv(&out, &rec, "tags", put_tags, false);
        kv(&out, &rec, "fields", put_images, false);
        kv(&out, &rec, "beforeImages", put_images, false);
        kv(&out, &rec, "afterImages", put_images, false);
        rc_buf_putc(&out, '}');
    }
    rc_buf_putc(&out, ']');
    fwrite(out.data, 1, out.len, stdout);
    fprintf(stderr, "avro_check: %zu records decoded by avro-c\n", count);
    avro_value_decref(&rec);
    avro_value_iface_decref(iface);
    avro_schema_decref(schema);
    rc_buf_fini(&out);
    return 0;
}
