/* Debezium CloudEvents, structured mode with a JSON envelope (docs/formats/cloudevents.md).
 *
 * {id, source, specversion, type, time, datacontenttype, [dataschema], iodebezium<source
 * field>..., [iodebeziumtx<transaction field>...], data}. The source attributes are the
 * upstream Debezium source block of the event (debezium_upstream.c), each field name without
 * non-alphanumerics after "iodebezium", numbers as strings. data is {before, after} as JSON, or
 * with cloudevents.data=avro the base64 of the Avro binary of that record in the Confluent wire
 * format (magic byte 0, 4-byte schema id). See docs/formats/cloudevents.md. */
#include <stdlib.h>
#include <string.h>
#include "formats/cloudevents_read.h"
#include "formats/debezium_upstream.h"
#include "formats/enc_event.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsonw.h"

typedef struct ce_enc {
    void *up; /* the upstream Debezium encoder that renders source and data */
    bool avro;
    const char *dataschema;
    uint32_t schema_id;
    rc_buf src, data;
    rc_arena arena;
    rc_json json;
} ce_enc;

typedef struct ce_opts {
    int data;
    const char *dataschema, *schema_file;
    long schema_id;
    rc_dbz_opts dbz; /* the upstream encoder's and reader's, from the debezium.* options they stand for */
} ce_opts;

#define OFF(f) offsetof(ce_opts, f)
static const rc_option_desc ce_options[] = {
    {"cloudevents.data", RC_OPT_CHOICE, "json|avro", "json", "data as JSON or as base64 Avro binary in the Confluent wire format", .off = OFF(data)},
    {"cloudevents.dataschema", RC_OPT_STRING, "URL", NULL, "with data=avro: the dataschema attribute (the schema's registry URL)", .off = OFF(dataschema)},
    {"cloudevents.schema.id", RC_OPT_INT, "N", "1", "with data=avro: the schema id written after the magic byte", .off = OFF(schema_id), .min = 0, .max = 0x7fffffff},
    {"cloudevents.schema.file", RC_OPT_STRING, "PATH", NULL, "reading Avro data: the .avsc of the data record {before, after} (as the registry holds it)", .off = OFF(schema_file)},
    {"cloudevents.compat", RC_OPT_CHOICE, DBZ_COMPAT_CHOICES, "(by cloudevents.version's release, else 3)", "as debezium.compat: the Debezium version whose source block to reproduce", .off = OFF(dbz.compat)},
    {"cloudevents.server", RC_OPT_STRING, "NAME", "(the event's server, else rowcast)", "logical server name", .off = OFF(dbz.server)},
    {"cloudevents.version", RC_OPT_STRING, "TEXT", "(as debezium.version)", "connector version (iodebeziumversion)", .off = OFF(dbz.version)},
    {"cloudevents.transactions", RC_OPT_BOOL, NULL, "(as debezium.provide.transaction.metadata)", "add the iodebeziumtx* attributes of the transaction block", .off = OFF(dbz.tx_meta)},
    {"cloudevents.decimal.handling.mode", RC_OPT_CHOICE, DBZ_DECIMAL_CHOICES, "(as debezium.decimal.handling.mode)", "as debezium.decimal.handling.mode", .off = OFF(dbz.dec_mode)},
    {"cloudevents.binary.handling.mode", RC_OPT_CHOICE, DBZ_BINARY_CHOICES, "(as debezium.binary.handling.mode)", "as debezium.binary.handling.mode", .off = OFF(dbz.bin_mode)},
    {"cloudevents.time.precision.mode", RC_OPT_CHOICE, DBZ_TIME_CHOICES, "(as debezium.time.precision.mode)", "as debezium.time.precision.mode", .off = OFF(dbz.time_mode)},
    {"cloudevents.bigint.unsigned.handling.mode", RC_OPT_CHOICE, DBZ_UNSIGNED_CHOICES, "(as debezium.bigint.unsigned.handling.mode)", "as debezium.bigint.unsigned.handling.mode", .off = OFF(dbz.unsig)},
    {0},
};
#undef OFF

/* The reader takes the writer's options (the same command line reads and writes). The
 * debezium.* options they stand for start at Debezium's defaults. */
static rc_status ce_opts_parse(const rc_options *o, ce_opts *c, rc_error *err)
{
    static const rc_options none;
    *c = (ce_opts){0};
    rc_status st = rc_dbz_opts_parse(&none, &c->dbz, err);
    return st != RC_OK ? st : rc_options_parse(o, "cloudevents", ce_options, c, err);
}

static rc_status ce_new(const rc_options *o, void **out, rc_error *err)
{
    ce_opts c;
    rc_status st = ce_opts_parse(o, &c, err);
    if (st != RC_OK) return st;
    ce_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if ((st = rc_dbz_up_open(&c.dbz, &e->up, err)) != RC_OK) {
        free(e);
        return st;
    }
    e->avro = c.data == 1;
    e->schema_id = (uint32_t)c.schema_id;
    e->dataschema = c.dataschema;
    rc_buf_init(&e->src, 0), rc_buf_init(&e->data, 0);
    rc_arena_init(&e->arena);
    rc_json_init(&e->json, &e->arena);
    *out = e;
    return RC_OK;
}

static void ce_free(void *p)
{
    ce_enc *e = p;
    if (!e) return;
    rc_dbz_up_free(e->up);
    rc_buf_fini(&e->src), rc_buf_fini(&e->data);
    rc_json_fini(&e->json);
    rc_arena_fini(&e->arena);
    free(e);
}

/* "iodebezium" + prefix + the field name without non-alphanumerics */
static void put_attr_name(rc_buf *b, const char *prefix, const char *name, size_t n)
{
    RC_BUF_LIT(b, ",\"iodebezium");
    rc_buf_puts(b, prefix);
    for (size_t i = 0; i < n; i++) {
        char c = name[i];
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) rc_buf_putc(b, c);
    }
    RC_BUF_LIT(b, "\":");
}

/* Every member of the JSON object in `text` as an extension attribute; numbers and booleans
 * become strings, null stays null. */
static rc_status put_attrs(ce_enc *e, rc_buf *b, const char *prefix, const rc_buf *text, rc_error *err)
{
    rc_arena_reset(&e->arena);
    rc_status st = rc_json_parse(&e->json, text->data, text->len, err);
    if (st != RC_OK) return st;
    const rc_json *j = &e->json;
    if (j->nodes[0].type != RC_J_OBJECT) return RC_OK;
    for (uint32_t k = j->nodes[0].first; k; k = j->nodes[j->nodes[k].next].next) {
        const rc_jnode *key = &j->nodes[k], *v = &j->nodes[key->next];
        put_attr_name(b, prefix, key->s, key->n);
        switch (v->type) {
        case RC_J_NULL: RC_BUF_LIT(b, "null"); break;
        case RC_J_TRUE: RC_BUF_LIT(b, "\"true\""); break;
        case RC_J_FALSE: RC_BUF_LIT(b, "\"false\""); break;
        case RC_J_NUMBER:
            rc_buf_putc(b, '"');
            rc_buf_put(b, v->s, v->n);
            rc_buf_putc(b, '"');
            break;
        default: rc_jw_str(b, v->s, v->n); break;
        }
    }
    return RC_OK;
}

/* The member `name` of the parsed source block as text ("" when absent or null). */
static rc_str source_member(const ce_enc *e, const char *name)
{
    uint32_t v = rc_json_get(&e->json, 0, name);
    if (!v || e->json.nodes[v].type == RC_J_NULL) return RC_STR("");
    return (rc_str){e->json.nodes[v].s, e->json.nodes[v].n};
}

static void put_id_part(rc_buf *b, const char *k, rc_str v, bool first)
{
    if (!first) rc_buf_putc(b, ';');
    rc_buf_puts(b, k);
    rc_buf_putc(b, ':');
    rc_jw_str_body(b, v.p, v.n);
}

static rc_status ce_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    ce_enc *e = p;
    if (rc_event_refuse_unavailable(ev, "cloudevents", err) != RC_OK) return RC_SKIP;
    const char *op = rc_dbz_up_op(ev);
    if (!op) return RC_SKIP; /* DDL, heartbeats, transaction markers: no CloudEvent (docs/formats/: each page's "no message" list) */
    const char *conn = rc_dbz_up_connector(ev);
    if (!conn)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "Debezium CloudEvents have no layout for %s sources",
                            rc_dbkind_name(ev->src.kind));
    rc_str server = rc_dbz_up_server(e->up, ev);
    rc_buf_reset(&e->src);
    rc_dbz_up_put_source(e->up, &e->src, ev);
    rc_status st = rc_json_parse(&e->json, e->src.data, e->src.len, err);
    if (st != RC_OK) return st;
    /* id: what identifies the change in its source */
    RC_BUF_LIT(b, "{\"id\":\"");
    put_id_part(b, "name", server, true);
    if (!strcmp(conn, "postgresql")) {
        put_id_part(b, "lsn", source_member(e, "lsn"), false);
        put_id_part(b, "txId", source_member(e, "txId"), false);
    } else if (!strcmp(conn, "mysql")) {
        put_id_part(b, "file", source_member(e, "file"), false);
        put_id_part(b, "pos", source_member(e, "pos"), false);
    } else {
        put_id_part(b, "change_lsn", source_member(e, "change_lsn"), false);
        put_id_part(b, "commit_lsn", source_member(e, "commit_lsn"), false);
        put_id_part(b, "event_serial_no", source_member(e, "event_serial_no"), false);
    }
    RC_BUF_LIT(b, "\",\"source\":\"/debezium/");
    rc_buf_puts(b, conn);
    rc_buf_putc(b, '/');
    rc_jw_str_body(b, server.p, server.n);
    RC_BUF_LIT(b, "\",\"specversion\":\"1.0\",\"type\":\"io.debezium.");
    rc_buf_puts(b, conn);
    RC_BUF_LIT(b, ".datachangeevent\",\"time\":\"");
    int64_t ms = ev->has_ts ? rc_floor_div(ev->ts_us, 1000) : 0;
    rc_timestamp t = {rc_floor_div(ms, 1000), (uint32_t)(((ms % 1000) + 1000) % 1000) * 1000000u};
    rc_buf tb;
    char tbuf[48];
    tb = (rc_buf){tbuf, 0, sizeof tbuf, sizeof tbuf, RC_OK};
    rc_fmt_ts_iso(&tb, &t);
    /* CloudEvents time: UTC with exactly milliseconds */
    size_t dot = 19; /* YYYY-MM-DDTHH:MM:SS */
    rc_buf_put(b, tbuf, dot);
    rc_buf_putc(b, '.');
    char msd[3] = {(char)('0' + t.nanos / 100000000), (char)('0' + t.nanos / 10000000 % 10), (char)('0' + t.nanos / 1000000 % 10)};
    rc_buf_put(b, msd, 3);
    RC_BUF_LIT(b, "Z\",\"datacontenttype\":\"");
    rc_buf_puts(b, e->avro ? "application/avro" : "application/json");
    rc_buf_putc(b, '"');
    if (e->avro && e->dataschema) {
        RC_BUF_LIT(b, ",\"dataschema\":");
        rc_jw_str(b, e->dataschema, strlen(e->dataschema));
    }
    RC_BUF_LIT(b, ",\"iodebeziumop\":\"");
    rc_buf_puts(b, op);
    rc_buf_putc(b, '"');
    if ((st = put_attrs(e, b, "", &e->src, err)) != RC_OK) return st;
    rc_buf_reset(&e->src);
    rc_dbz_up_put_transaction(e->up, &e->src, ev);
    if (e->src.len > 4 && (st = put_attrs(e, b, "tx", &e->src, err)) != RC_OK) return st;
    const rc_value *before = ev->op == RC_OP_UPDATE || ev->op == RC_OP_DELETE ? ev->before : NULL;
    const rc_value *after = ev->op == RC_OP_INSERT || ev->op == RC_OP_READ || ev->op == RC_OP_UPDATE ? ev->after : NULL;
    RC_BUF_LIT(b, ",\"data\":");
    if (e->avro) {
        rc_buf_reset(&e->data);
        char hdr[5] = {0, (char)(e->schema_id >> 24), (char)(e->schema_id >> 16), (char)(e->schema_id >> 8), (char)e->schema_id};
        rc_buf_put(&e->data, hdr, 5);
        if ((st = rc_dbz_up_put_data_avro(e->up, &e->data, ev, before, after, err)) != RC_OK) return st;
        rc_buf_putc(b, '"');
        rc_fmt_base64(b, (const unsigned char *)e->data.data, e->data.len);
        rc_buf_putc(b, '"');
    } else {
        RC_BUF_LIT(b, "{\"before\":");
        if ((st = rc_dbz_up_put_image(e->up, b, ev, before, err)) != RC_OK) return st;
        RC_BUF_LIT(b, ",\"after\":");
        if ((st = rc_dbz_up_put_image(e->up, b, ev, after, err)) != RC_OK) return st;
        rc_buf_putc(b, '}');
    }
    rc_buf_putc(b, '}');
    return rc_enc_finish(b, err);
}

static rc_status ce_key(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    ce_enc *e = p;
    return rc_dbz_up_key(e->up, ev, b, err);
}

static rc_status ce_dec_new(const rc_options *o, void **out, rc_error *err)
{
    ce_opts c;
    rc_status st = ce_opts_parse(o, &c, err);
    c.dbz.flavor = 1; /* upstream */
    return st != RC_OK ? st : rc_ce_dec_open(c.data == 1, c.schema_file, &c.dbz, out, err);
}

const rc_format rc_format_cloudevents = {
    .name = "cloudevents",
    .summary = "Debezium CloudEvents (structured mode, JSON envelope; data as JSON or Avro)",
    .content_type = "application/cloudevents+json",
    .options = ce_options,
    .enc_new = ce_new,
    .enc_free = ce_free,
    .encode_value = ce_encode,
    .encode_key = ce_key,
    .dec_new = ce_dec_new,
    .dec_free = rc_ce_dec_free,
    .decode = rc_ce_decode,
    .decode_record = rc_ce_decode_record,
};
