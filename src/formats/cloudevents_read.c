/* Debezium CloudEvents, reader side (docs/formats/cloudevents.md, "Reading"): what
 * cloudevents.c writes and Debezium's CloudEventsConverter writes in structured mode with a JSON
 * envelope. The envelope is turned back into the upstream Debezium payload it was made of —
 * {op, source: the iodebezium<field> attributes under their Debezium names, transaction: the
 * iodebeziumtx<field> ones, before and after from data} — which the Debezium reader decodes. The
 * payload's text is the attributes, then data's members as they are in the message, so an
 * error in the row names its byte in the message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/cloudevents_avro.h"
#include "formats/cloudevents_read.h"
#include "formats/debezium_read.h"
#include "core/json.h"
#include "core/jsondec.h"
#include "core/jsonw.h"
#include "core/fmt.h"

typedef struct ce_dec {
    rc_jsondec jd; /* the envelope */
    void *dbz;     /* the upstream Debezium reader */
    rc_buf payload;
    rc_ce_avro *avro; /* the schema of Avro data (cloudevents.schema.file), or NULL */
} ce_dec;

rc_status rc_ce_dec_open(bool avro_data, const char *avsc, const struct rc_dbz_opts *dbz, void **out, rc_error *err)
{
    if (avro_data && !avsc)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "reading Avro data (cloudevents.data=avro) needs its schema: -o cloudevents.schema.file=PATH, the .avsc "
                            "of the data record {before, after} as the schema registry holds it");
    rc_ce_avro *avro = NULL;
    rc_status st = avsc ? rc_ce_avro_load(avsc, &avro, err) : RC_OK;
    if (st != RC_OK) return st;
    void *p;
    if ((st = rc_jsondec_new(sizeof(ce_dec), &p, err)) != RC_OK) {
        rc_ce_avro_free(avro);
        return st;
    }
    ce_dec *d = p; /* *out only once it is whole */
    d->avro = avro;
    rc_buf_init(&d->payload, 0);
    if ((st = rc_dbz_dec_open(dbz, &d->dbz, err)) != RC_OK) {
        rc_ce_dec_free(d);
        return st;
    }
    *out = d;
    return RC_OK;
}

void rc_ce_dec_free(void *p)
{
    ce_dec *d = p;
    if (d) rc_dbz_dec_free(d->dbz), rc_buf_fini(&d->payload), rc_ce_avro_free(d->avro);
    rc_jsondec_free(d);
}

/* Source fields whose attribute name lost its underscores, and the fields that are numbers in
 * the source block (attributes hold every number as a string). */
static const char *const renamed[][2] = {{"tsms", "ts_ms"},           {"tsus", "ts_us"},
                                         {"tsns", "ts_ns"},           {"serverid", "server_id"},
                                         {"changelsn", "change_lsn"}, {"commitlsn", "commit_lsn"},
                                         {"eventserialno", "event_serial_no"}};
static const char *const numeric[] = {"ts_ms", "ts_us", "ts_ns", "server_id", "pos", "row", "thread", "xmin", "txId", "lsn", "event_serial_no"};
/* The transaction block's attributes (iodebeziumtx<field>; the source's txId is iodebeziumtxId) */
static const char *const tx_fields[][2] = {{"txid", "id"}, {"txtotalorder", "total_order"}, {"txdatacollectionorder", "data_collection_order"}};

static bool same(const char *p, size_t n, const char *s) { return n == strlen(s) && !memcmp(p, s, n); }
static bool is_name(const rc_jnode *k, const char *s) { return same(k->s, k->n, s); }

static bool in_list(rc_str name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (same(name.p, name.n, list[i])) return true;
    return false;
}

/* "name": value, the value a number when the field is one and the text an integer */
static void put_member(rc_buf *b, const char *name, size_t nl, const rc_jnode *v, bool number)
{
    if (b->len && b->data[b->len - 1] != '{') rc_buf_putc(b, ',');
    rc_jw_str(b, name, nl);
    rc_buf_putc(b, ':');
    int64_t x;
    if (v->type == RC_J_NULL) RC_BUF_LIT(b, "null");
    else if (number && v->type == RC_J_STRING && rc_parse_i64(v->s, v->n, &x) == RC_OK) rc_buf_put(b, v->s, v->n);
    else if (v->type == RC_J_STRING) rc_jw_str(b, v->s, v->n);
    else rc_buf_put(b, v->s, v->n); /* numbers, booleans as another producer may write them */
}

/* The attributes iodebezium<field> (prefix "") or iodebeziumtx<field> (tx) as a JSON object. */
static void put_block(const rc_json *j, bool tx, rc_buf *b)
{
    rc_buf_putc(b, '{');
    for (uint32_t k = j->nodes[0].first; k; k = j->nodes[j->nodes[k].next].next) {
        const rc_jnode *key = &j->nodes[k], *v = &j->nodes[key->next];
        if (key->n <= 10 || memcmp(key->s, "iodebezium", 10) || is_name(key, "iodebeziumop")) continue;
        /* the field name is the rest of the attribute's, whatever its length (not copied) */
        rc_str name = {key->s + 10, key->n - 10}, field = name;
        bool is_tx = false;
        for (size_t i = 0; i < sizeof tx_fields / sizeof *tx_fields; i++)
            if (same(name.p, name.n, tx_fields[i][0])) is_tx = true, field = (rc_str){tx_fields[i][1], strlen(tx_fields[i][1])};
        if (is_tx != tx) continue;
        for (size_t i = 0; !tx && i < sizeof renamed / sizeof *renamed; i++)
            if (same(name.p, name.n, renamed[i][0])) field = (rc_str){renamed[i][1], strlen(renamed[i][1])};
        put_member(b, field.p, field.n, v, tx ? !same(field.p, field.n, "id") : in_list(field, numeric, sizeof numeric / sizeof *numeric));
    }
    rc_buf_putc(b, '}');
}

/* The string attribute `name`, or NULL (absent, or not a string) */
static const rc_jnode *attr(const rc_json *j, const char *name)
{
    uint32_t v = rc_json_get(j, 0, name);
    return v && j->nodes[v].type == RC_J_STRING ? &j->nodes[v] : NULL;
}

rc_status rc_ce_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    ce_dec *d = p;
    rc_jread r;
    rc_status st = rc_jsondec_object(&d->jd, msg, n, a, "a CloudEvent", &r, err);
    if (st != RC_OK) return st;
    const rc_json *j = r.j;
    const rc_jnode *spec = attr(j, "specversion"), *op = attr(j, "iodebeziumop"), *ct = attr(j, "datacontenttype");
    if (!spec || !is_name(spec, "1.0"))
        return rc_error_set(err, RC_ERR_SCHEMA, spec ? spec->off : 0, "a CloudEvent needs \"specversion\": \"1.0\" (structured mode)");
    if (!op)
        return rc_error_set(err, RC_ERR_SCHEMA, 0, "a CloudEvent without \"iodebeziumop\": not a Debezium change event "
                                                   "(CloudEventsConverter's attributes)");
    bool avro = ct && is_name(ct, "application/avro");
    if (ct && !avro && !is_name(ct, "application/json"))
        return rc_error_set(err, RC_ERR_UNSUPPORTED, ct->off, "datacontenttype \"%.*s\": rowcast reads CloudEvents data in JSON "
                                                              "(application/json) or Avro (application/avro)", (int)(ct->n > 40 ? 40 : ct->n), ct->s);
    if (avro && !d->avro)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, ct->off, "Avro data needs its schema: -o cloudevents.schema.file=PATH (the .avsc of "
                                                              "the data record {before, after} as the schema registry holds it)");
    uint32_t data = rc_json_get(j, 0, "data");
    if (avro ? !data || j->nodes[data].type != RC_J_STRING : !data || j->nodes[data].type != RC_J_OBJECT || !j->nodes[data].count)
        return rc_error_set(err, RC_ERR_SCHEMA, data ? j->nodes[data].off : 0, avro ? "Avro data is a base64 string"
                                                                                  : "a Debezium CloudEvent's \"data\" is an object {before, after}");
    rc_buf *b = &d->payload;
    rc_buf_reset(b);
    if (avro) { /* a Connect envelope with the schema made of the .avsc */
        size_t sn;
        const char *sch = rc_ce_avro_schema(d->avro, &sn);
        RC_BUF_LIT(b, "{\"schema\":");
        rc_buf_put(b, sch, sn);
        RC_BUF_LIT(b, ",\"payload\":");
    }
    RC_BUF_LIT(b, "{\"op\":");
    rc_jw_str(b, op->s, op->n);
    RC_BUF_LIT(b, ",\"source\":");
    put_block(j, false, b);
    size_t at = b->len;
    RC_BUF_LIT(b, ",\"transaction\":");
    put_block(j, true, b);
    if (b->len - at == 17) b->len = at; /* no transaction attributes */
    rc_buf_putc(b, ',');
    size_t prefix = b->len;
    const rc_jnode *dn = &j->nodes[data];
    if (avro) {
        rc_str raw;
        size_t bad;
        if (rc_base64_decode(dn->s, dn->n, a, &raw, &bad) != RC_OK)
            return rc_error_set(err, RC_ERR_VALUE, dn->off + 1 + bad, "the Avro data is not base64 here");
        if ((st = rc_ce_avro_images(d->avro, (const unsigned char *)raw.p, raw.n, dn->off + 1, b, err)) != RC_OK) return st;
        RC_BUF_LIT(b, "}}");
    } else {
        rc_buf_put(b, dn->s + 1, dn->n - 1); /* data's members and its closing brace */
    }
    if (b->err != RC_OK) return rc_error_set(err, b->err, RC_NO_OFFSET, "out of memory");
    /* the events may point into the payload's text: it lives in the batch's arena */
    char *text = rc_arena_memdup(a, b->data, b->len);
    if (!text) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if ((st = rc_dbz_decode(d->dbz, text, b->len, a, out, err)) != RC_OK && err->offset != RC_NO_OFFSET) {
        if (err->offset >= prefix) { /* in data (Avro: the data attribute) */
            err->offset = avro ? dn->off : err->offset - prefix + dn->off + 1;
        } else { /* the source block the attributes made: named at the op */
            err->offset = op->off;
            size_t ml = strlen(err->message);
            snprintf(err->message + ml, sizeof err->message - ml, " (in the source block of the iodebezium* attributes)");
        }
    }
    return st;
}

/* A record: the value, then its key, which is Debezium's (cloudevents.c writes the key struct) */
rc_status rc_ce_decode_record(void *p, const rc_record_in *r, rc_arena *a, rc_event_list *out, rc_error *err)
{
    ce_dec *d = p;
    size_t first = out->count;
    rc_status st = rc_record_value(rc_ce_decode, d, r, a, out, err);
    return st != RC_OK ? st : rc_dbz_record_key(d->dbz, r, first, a, out, err);
}
