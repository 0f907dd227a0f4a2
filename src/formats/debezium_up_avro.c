/* Upstream Debezium: row images in Avro binary (for CloudEvents with Avro data), each value the
 * one rc_dbz_connect_value gives in the Avro type behind its Kafka Connect schema. */
#include <string.h>
#include "formats/avro_bin.h"
#include "formats/debezium_up_enc.h"

/* One value in Avro binary: the union branch of an optional field, then the value. */
static rc_status avro_value(up_enc *e, rc_buf *b, const rc_column *c, const rc_value *v, rc_error *err)
{
    bool optional = c->nullable;
    if (v->kind == RC_V_UNAVAILABLE) return rc_dbz_unavailable_error(c, true, err);
    dbz_pg_kind pk = pg_kind(e, c);
    if (v->kind != RC_V_NULL && (pk == DBZ_PG_ARRAY || pk == DBZ_PG_UNKNOWN)) {
        rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "column \"%.*s\" (%.*s): rowcast does not write this PostgreSQL type in Avro yet",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p);
        return RC_SKIP;
    }
    v = zero_date_value(c, v); /* a NOT NULL column's zero date: the epoch */
    /* PostgreSQL's NaN and ±infinity have values of their own in Debezium (pg_special) */
    bool null = v->kind == RC_V_NULL || (v->kind == RC_V_INVALID && c->type.info->family != RC_FAM_PG);
    if (null && !optional)
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\" is not nullable but the value is null or invalid",
                            (int)c->name.n, c->name.p);
    if (optional) rc_avro_long(b, null ? 0 : 1);
    if (null) return RC_OK;
    dbz_cv cv;
    rc_status st = rc_dbz_connect_value(e, c, v, &cv, err);
    if (st != RC_OK) return st;
    switch (cv.kind) {
    case CV_BOOL: rc_buf_putc(b, cv.b ? 1 : 0); return RC_OK;
    case CV_INT: rc_avro_long(b, cv.i); return RC_OK;
    case CV_UINT: rc_avro_long(b, (int64_t)cv.u); return RC_OK;
    case CV_FLOAT: { /* Avro float: 4 bytes little-endian */
        uint32_t u;
        memcpy(&u, &cv.f32, 4);
        for (int i = 0; i < 4; i++) rc_buf_putc(b, (char)(u >> (8 * i)));
        return RC_OK;
    }
    case CV_DOUBLE: rc_avro_double(b, cv.f64); return RC_OK;
    case CV_TEXT:
    case CV_BYTES: rc_avro_string(b, cv.s.p, cv.s.n); return RC_OK;
    case CV_ASCII:
        if (cv.fmt == CV_FMT_NONE) {
            rc_avro_string(b, cv.s.p, cv.s.n);
            return RC_OK;
        }
        rc_buf_reset(&e->cvtext);
        rc_dbz_put_ascii(e, &e->cvtext, &cv);
        if (e->cvtext.err != RC_OK) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        rc_avro_string(b, e->cvtext.data, e->cvtext.len);
        return RC_OK;
    case CV_DECIMAL:
    case CV_VSDECIMAL: /* VariableScaleDecimal {scale, value} */
        if (cv.kind == CV_VSDECIMAL) rc_avro_long(b, cv.dec.scale);
        rc_buf_reset(&e->scratch);
        rc_dec_unscaled_bytes(&e->scratch, &cv.dec);
        rc_avro_string(b, e->scratch.data, e->scratch.len);
        return RC_OK;
    case CV_POINT: /* Point {x, y, wkb?, srid?} or Geometry {wkb, srid?} */
    case CV_GEOMETRY:
        if (cv.kind == CV_POINT) {
            rc_avro_double(b, cv.geo.x);
            rc_avro_double(b, cv.geo.y);
            rc_avro_long(b, 1);
        }
        rc_avro_string(b, e->scratch.data, e->scratch.len);
        rc_avro_long(b, cv.geo.has_srid ? 1 : 0);
        if (cv.geo.has_srid) rc_avro_long(b, cv.geo.srid);
        return RC_OK;
    case CV_NULL: /* a PostgreSQL special value with no value of the type: no Avro one either */
    case CV_ARRAY:
    case CV_JSON: break;
    }
    rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "column \"%.*s\" (%.*s): the value %.*s has no Avro value", (int)c->name.n,
                 c->name.p, (int)c->type.decl.n, c->type.decl.p, (int)v->s.n, v->s.p);
    return RC_SKIP;
}

static rc_status avro_image(up_enc *e, rc_buf *b, const rc_event *ev, const rc_value *img, rc_error *err)
{
    if (!img) {
        rc_avro_long(b, 0);
        return RC_OK;
    }
    rc_avro_long(b, 1);
    for (uint32_t i = 0; i < ev->ncols; i++) {
        rc_status st = avro_value(e, b, &ev->cols[i], &img[i], err);
        if (st != RC_OK) return st;
    }
    return RC_OK;
}

rc_status rc_dbz_up_put_data_avro(void *p, rc_buf *b, const rc_event *ev, const rc_value *before, const rc_value *after,
                               rc_error *err)
{
    rc_status st = avro_image(p, b, ev, before, err);
    return st != RC_OK ? st : avro_image(p, b, ev, after, err);
}
