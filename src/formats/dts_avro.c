/* OMS "avro": Avro binary of the DTS Record (docs/formats/oms-avro.md). One record per message, framed
 * as raw Avro (Kafka), length-prefixed (4-byte big-endian length), or an Avro object container
 * file (default, for files and stdout: avrocat reads it). See docs/formats/oms-avro.md. */
#include <stdlib.h>
#include <string.h>
#include "formats/avro_bin.h"
#include "formats/dts_common.h"
#include "formats/dts_schema.h"
#include "formats/oms_common.h"

enum { FRAME_CONTAINER, FRAME_RAW, FRAME_LENGTH };

typedef struct avro_enc {
    int framing;
    bool full; /* the layout with bornTimestamp */
    bool header_done;
    uint64_t seq;
    rc_buf rec, scratch, pos, text;
} avro_enc;

/* A fixed sync marker keeps the output reproducible (golden tests compare bytes). */
static const uint8_t sync_marker[16] = {'r', 'o', 'w', 'c', 'a', 's', 't', '-', 'd', 't', 's', '-', 's', 'y', 'n', 'c'};

typedef struct avro_opts {
    int framing, schema;
} avro_opts;
static const rc_option_desc avro_options[] = {
    {"avro.framing", RC_OPT_CHOICE, "container|raw|length-prefixed", "container", "container: an Avro object container file; raw: bare Avro binary per message (Kafka, where --sink kafka makes it the default); length-prefixed: each record after its 4-byte big-endian length", .off = offsetof(avro_opts, framing)},
    {"avro.schema", RC_OPT_CHOICE, "seed|full", "seed", "seed: the field list of the OMS documentation's examples; full: with the trailing bornTimestamp of the DTS demo schema", .off = offsetof(avro_opts, schema)},
    {0},
};

static rc_status avro_new(const rc_options *o, void **out, rc_error *err)
{
    avro_opts ao;
    rc_status st = rc_options_parse(o, "avro", avro_options, &ao, err);
    if (st != RC_OK) return st;
    avro_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->framing = ao.framing;
    e->full = ao.schema == 1;
    rc_buf_init(&e->rec, 0), rc_buf_init(&e->scratch, 0), rc_buf_init(&e->pos, 0), rc_buf_init(&e->text, 0);
    *out = e;
    return RC_OK;
}

static void avro_free(void *p)
{
    avro_enc *e = p;
    if (!e) return;
    rc_buf_fini(&e->rec), rc_buf_fini(&e->scratch), rc_buf_fini(&e->pos), rc_buf_fini(&e->text);
    free(e);
}

static void put_opt_int(rc_buf *b, const dts_val *v, int field)
{
    if (v->dt_has & (1u << field)) {
        rc_avro_long(b, 1);
        rc_avro_long(b, v->dt[field]);
    } else {
        rc_avro_long(b, 0);
    }
}

static void put_item(rc_buf *b, const dts_val *v)
{
    rc_avro_long(b, v->br);
    switch (v->br) {
    case DTS_NULL:
    case DTS_EMPTY_OBJECT: return;
    case DTS_INTEGER:
        rc_avro_long(b, v->precision);
        rc_avro_string(b, v->text.p, v->text.n);
        return;
    case DTS_CHARACTER:
        rc_avro_string(b, v->type.p, v->type.n);
        rc_avro_string(b, v->text.p, v->text.n);
        return;
    case DTS_DECIMAL:
        rc_avro_string(b, v->text.p, v->text.n);
        rc_avro_long(b, v->precision);
        rc_avro_long(b, v->scale);
        return;
    case DTS_FLOAT:
        rc_avro_double(b, v->f);
        rc_avro_long(b, v->precision);
        rc_avro_long(b, v->scale);
        return;
    case DTS_TIMESTAMP:
        rc_avro_long(b, v->ts_sec);
        rc_avro_long(b, v->ts_micros);
        return;
    case DTS_DATETIME:
    case DTS_TSTZ:
        for (int f = 0; f < DTS_DT_N; f++) put_opt_int(b, v, f);
        if (v->br == DTS_TSTZ) rc_avro_string(b, v->type.p, v->type.n);
        return;
    default: /* geometry and objects: {type, value} */
        rc_avro_string(b, v->type.p, v->type.n);
        rc_avro_string(b, v->text.p, v->text.n);
        return;
    }
}

static void put_images(avro_enc *e, rc_buf *b, const rc_event *ev, const rc_value *img)
{
    if (!img) {
        rc_avro_long(b, 0);
        return;
    }
    rc_avro_long(b, 2);
    rc_avro_long(b, ev->ncols);
    for (uint32_t i = 0; i < ev->ncols; i++) {
        dts_val v;
        rc_dts_value(&ev->cols[i], &img[i], &e->scratch, &v);
        put_item(b, &v);
    }
    if (ev->ncols) rc_avro_long(b, 0);
}

static rc_status build_record(avro_enc *e, const rc_event *ev, rc_buf *b, rc_error *err)
{
    dts_record r;
    rc_dts_record_of(ev, e->seq++, &e->pos, &r);
    if (r.op < 0) return RC_SKIP;
    bool ddl = r.op == DTS_OP_DDL, row = ev->ncols > 0 && !ddl;
    if (ev->op == RC_OP_DDL && !ev->ddl.n) return rc_enc_unsupported(err, "avro", ev, "a DDL record needs the statement text");
    rc_avro_long(b, 1); /* version */
    rc_avro_long(b, r.id);
    rc_avro_long(b, r.source_ts);
    rc_avro_string(b, r.position.p, r.position.n);
    rc_avro_string(b, r.position.p, r.position.n);
    rc_avro_string(b, ev->pos.txid.p, ev->pos.txid.n);
    rc_avro_long(b, r.source_type);
    rc_avro_string(b, r.source_version_s.p, r.source_version_s.n);
    rc_avro_long(b, r.op);
    rc_buf_reset(&e->text);
    rc_dts_object_name(&e->text, ev);
    rc_avro_long(b, 1);
    rc_avro_string(b, e->text.data ? e->text.data : "", e->text.len);
    rc_avro_long(b, 1); /* processTimestamps: [ms] */
    rc_avro_long(b, 1);
    rc_avro_long(b, r.process_ms);
    rc_avro_long(b, 0);
    if (row && rc_enc_has_pk(ev)) { /* tags */
        rc_buf_reset(&e->text);
        rc_dts_pk_info(&e->text, ev);
        rc_avro_long(b, 1);
        rc_avro_string(b, "pk_uk_info", 10);
        rc_avro_string(b, e->text.data, e->text.len);
    }
    rc_avro_long(b, 0);
    if (row) { /* fields */
        rc_avro_long(b, 2);
        rc_avro_long(b, ev->ncols);
        for (uint32_t i = 0; i < ev->ncols; i++) {
            rc_avro_string(b, ev->cols[i].name.p, ev->cols[i].name.n);
            rc_avro_long(b, ev->cols[i].type.info->mysql_code);
        }
        rc_avro_long(b, 0);
    } else {
        rc_avro_long(b, 0);
    }
    put_images(e, b, ev, ev->op == RC_OP_UPDATE || ev->op == RC_OP_DELETE ? ev->before : NULL);
    if (ddl) {
        rc_avro_long(b, 1); /* afterImages: the statement */
        rc_str sql = rc_dts_ddl_text(&e->text, ev);
        rc_avro_string(b, sql.p, sql.n);
    } else {
        put_images(e, b, ev, ev->op == RC_OP_DELETE ? NULL : ev->after);
    }
    if (e->full) rc_avro_long(b, ev->has_ts ? ev->ts_us / 1000 : 0); /* bornTimestamp: change time, ms */
    return RC_OK;
}

static rc_status avro_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    avro_enc *e = p;
    if (rc_event_refuse_unavailable(ev, "avro", err) != RC_OK) return RC_SKIP;
    rc_status need = rc_enc_need_before(ev, "avro", "beforeImages", false, err);
    if (need != RC_OK) return need;
    rc_buf_reset(&e->rec);
    rc_status st = build_record(e, ev, &e->rec, err);
    if (st == RC_OK) st = rc_enc_finish(&e->rec, err);
    if (st != RC_OK) return st;
    switch (e->framing) {
    case FRAME_RAW: rc_buf_put(b, e->rec.data, e->rec.len); break;
    case FRAME_LENGTH: {
        char len[4] = {(char)(e->rec.len >> 24), (char)(e->rec.len >> 16), (char)(e->rec.len >> 8), (char)e->rec.len};
        rc_buf_put(b, len, 4);
        rc_buf_put(b, e->rec.data, e->rec.len);
        break;
    }
    default:
        if (!e->header_done) {
            const char *schema = e->full ? rc_dts_schema_full : rc_dts_schema_seed;
            rc_avro_container_header(b, schema, strlen(schema), sync_marker);
            e->header_done = true;
        }
        rc_avro_container_block(b, e->rec.data, e->rec.len, 1, sync_marker);
        break;
    }
    return rc_enc_finish(b, err);
}

const rc_format rc_format_avro = {
    .name = "avro",
    .summary = "DTS Avro Record (binary), as OMS writes it: container file, raw or length-prefixed",
    .content_type = "avro/binary",
    .binary = true,
    .options = avro_options,
    .enc_new = avro_new,
    .enc_free = avro_free,
    .encode_value = avro_encode,
    .encode_key = rc_oms_encode_key,
};
