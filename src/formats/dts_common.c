/* DTS Avro mapping (docs/formats/oms-avro.md), shared by avro and avro-json. */
#include <ctype.h>
#include <string.h>
#include "formats/dts_common.h"
#include "core/fmt.h"
#include "core/jsonw.h"

/* The invalid-TIMESTAMP marker of the OMS documentation. */
#define DTS_INVALID_TS (-9223372022400LL)

/* Upper-case catalog name ("BLOB", "JSON", "POINT") as the type of Object/Geometry records. */
static rc_str type_name(const rc_column *col, dts_val *o)
{
    const char *n = col->type.info->name;
    size_t i = 0;
    for (; n[i] && n[i] != ' ' && i + 1 < sizeof o->type_buf; i++) o->type_buf[i] = (char)toupper((unsigned char)n[i]);
    o->type_buf[i] = '\0';
    return (rc_str){o->type_buf, i};
}

static void dt_set(dts_val *o, int field, int32_t v)
{
    o->dt[field] = v;
    o->dt_has |= 1u << field;
}

void rc_dts_value(const rc_column *col, const rc_value *v, rc_buf *scratch, dts_val *o)
{
    memset(o, 0, sizeof *o);
    rc_buf_reset(scratch);
    const rc_type_info *t = col->type.info;
    switch (v->kind) {
    case RC_V_NULL: o->br = DTS_NULL; return;
    case RC_V_BOOL:
    case RC_V_INT:
    case RC_V_UINT:
    case RC_V_BITS:
        o->br = DTS_INTEGER;
        o->precision = 8; /* OMS writes precision 8 for every integer (the OMS serialization document; docs/formats/oms-values.md) */
        if (v->kind == RC_V_BOOL) rc_buf_putc(scratch, v->b ? '1' : '0');
        else if (v->kind == RC_V_INT) rc_fmt_i64(scratch, v->i);
        else rc_fmt_u64(scratch, v->u);
        break;
    case RC_V_DECIMAL:
        o->br = DTS_DECIMAL;
        rc_fmt_dec_plain(scratch, &v->dec);
        /* BigDecimal precision and scale of the value */
        o->precision = (int32_t)v->dec.ndigits;
        o->scale = v->dec.scale;
        break;
    case RC_V_FLOAT32:
    case RC_V_FLOAT64:
        o->br = DTS_FLOAT;
        o->f = v->kind == RC_V_FLOAT32 ? (double)v->f32 : v->f64;
        o->precision = 8; /* the OMS serialization document: precision 8, scale 64 */
        o->scale = 64;
        return;
    case RC_V_BYTES:
        o->br = DTS_BINARY_OBJECT;
        o->text = v->s;
        o->type = type_name(col, o);
        return;
    case RC_V_TIMESTAMP:
        o->br = DTS_TIMESTAMP;
        o->ts_sec = v->ts.sec;
        o->ts_micros = (int32_t)(v->ts.nanos / 1000);
        return;
    case RC_V_DATE:
        o->br = DTS_DATETIME;
        dt_set(o, DTS_DT_YEAR, v->date.year), dt_set(o, DTS_DT_MONTH, v->date.month), dt_set(o, DTS_DT_DAY, v->date.day);
        return;
    case RC_V_TIME: {
        /* the sign goes on the first non-zero field: -838:59:59 is hour -838 */
        int32_t f[4] = {(int32_t)v->time.hour, v->time.minute, v->time.second, (int32_t)(v->time.nanos / 1000)};
        if (v->time.neg)
            for (int i = 0; i < 4; i++)
                if (f[i]) {
                    f[i] = -f[i];
                    break;
                }
        o->br = DTS_DATETIME;
        dt_set(o, DTS_DT_HOUR, f[0]), dt_set(o, DTS_DT_MINUTE, f[1]), dt_set(o, DTS_DT_SECOND, f[2]), dt_set(o, DTS_DT_MICROS, f[3]);
        return;
    }
    case RC_V_DATETIME:
        o->br = v->dt.zone.n ? DTS_TSTZ : DTS_DATETIME;
        dt_set(o, DTS_DT_YEAR, v->dt.year), dt_set(o, DTS_DT_MONTH, v->dt.month), dt_set(o, DTS_DT_DAY, v->dt.day);
        dt_set(o, DTS_DT_HOUR, v->dt.hour), dt_set(o, DTS_DT_MINUTE, v->dt.minute), dt_set(o, DTS_DT_SECOND, v->dt.second);
        dt_set(o, DTS_DT_MICROS, (int32_t)(v->dt.nanos / 1000));
        o->type = v->dt.zone;
        return;
    case RC_V_INVALID:
        if (t->vclass == RC_VC_TIMESTAMP) {
            o->br = DTS_TIMESTAMP;
            o->ts_sec = DTS_INVALID_TS;
            return;
        }
        /* a zero date or any other unrepresentable value: its text, as a Character */
        o->br = DTS_CHARACTER;
        o->text = v->s;
        o->type = col->type.charset.n ? col->type.charset : RC_STR("utf8mb4");
        return;
    default: /* text, enum, set, json, interval, geometry */
        if (t->avro == RC_AVRO_TEXT || t->avro == RC_AVRO_GEOMETRY) {
            o->br = t->avro == RC_AVRO_TEXT ? DTS_TEXT_OBJECT : DTS_TEXT_GEOMETRY;
            o->text = v->s;
            o->type = type_name(col, o);
            return;
        }
        o->br = DTS_CHARACTER;
        o->text = v->s;
        o->type = col->type.charset.n ? col->type.charset : RC_STR("utf8mb4");
        return;
    }
    o->text.p = scratch->data;
    o->text.n = scratch->len;
}

void rc_dts_record_of(const rc_event *ev, uint64_t seq, rc_buf *pos_scratch, dts_record *r)
{
    memset(r, 0, sizeof *r);
    switch (ev->op) {
    case RC_OP_INSERT: r->op = DTS_OP_INSERT; break;
    case RC_OP_READ: r->op = DTS_OP_INIT; break;
    case RC_OP_UPDATE: r->op = DTS_OP_UPDATE; break;
    case RC_OP_DELETE: r->op = DTS_OP_DELETE; break;
    case RC_OP_DDL:
    case RC_OP_TRUNCATE: r->op = DTS_OP_DDL; break;
    case RC_OP_HEARTBEAT: r->op = DTS_OP_HEARTBEAT; break;
    case RC_OP_BEGIN: r->op = DTS_OP_BEGIN; break;
    case RC_OP_COMMIT: r->op = DTS_OP_COMMIT; break;
    default: r->op = -1; break;
    }
    int64_t es = ev->has_ts ? rc_floor_div(ev->ts_us, 1000) : 0;
    r->process_ms = ev->has_proc ? rc_floor_div(ev->proc_us, 1000) : es;
    r->source_ts = rc_floor_div(es, 1000);
    /* id: the event's sequence, else {process ms}{5-digit counter} as OMS does */
    r->id = ev->pos.has_seq ? (int64_t)ev->pos.seq
                            : (int64_t)((uint64_t)r->process_ms * 100000u + seq % 100000); /* wraps as Java's long does, no UB */
    rc_buf_reset(pos_scratch);
    if (ev->op == RC_OP_READ) {
        /* full migration: empty positions (as the OMS documentation shows them) */
    } else if (ev->pos.checkpoint.n) {
        rc_buf_put(pos_scratch, ev->pos.checkpoint.p, ev->pos.checkpoint.n);
    } else if (ev->pos.file.n || ev->pos.has_offset) {
        rc_fmt_u64(pos_scratch, ev->pos.offset);
        rc_buf_putc(pos_scratch, '@');
        rc_buf_put(pos_scratch, ev->pos.file.p, ev->pos.file.n);
    } else if (ev->pos.lsn.n) {
        rc_buf_put(pos_scratch, ev->pos.lsn.p, ev->pos.lsn.n);
    }
    r->position.p = pos_scratch->data ? pos_scratch->data : "";
    r->position.n = pos_scratch->len;
    switch (ev->src.kind) {
    case RC_DB_OB_ORACLE:
    case RC_DB_ORACLE: r->source_type = 1; break;
    case RC_DB_SQLSERVER: r->source_type = 2; break;
    case RC_DB_POSTGRES: r->source_type = 3; break;
    case RC_DB_UNKNOWN: r->source_type = 12; break;
    default: r->source_type = 0; break; /* MySQL, MariaDB, OceanBase MySQL tenant */
    }
    if (ev->src.version.n) r->source_version_s = ev->src.version;
    else r->source_version_s = ev->src.kind == RC_DB_OB_MYSQL ? RC_STR("OBMySQL") : ev->src.kind == RC_DB_OB_ORACLE ? RC_STR("OBOracle") : RC_STR("");
}

void rc_dts_object_name(rc_buf *b, const rc_event *ev)
{
    rc_buf_put(b, ev->src.db.p, ev->src.db.n);
    if (ev->src.table.n) {
        rc_buf_putc(b, '.');
        rc_buf_put(b, ev->src.table.p, ev->src.table.n);
    }
}

rc_str rc_dts_ddl_text(rc_buf *scratch, const rc_event *ev)
{
    if (ev->ddl.n) return ev->ddl;
    rc_buf_reset(scratch);
    RC_BUF_LIT(scratch, "TRUNCATE TABLE ");
    rc_dts_object_name(scratch, ev);
    return (rc_str){scratch->data, scratch->len};
}

void rc_dts_pk_info(rc_buf *b, const rc_event *ev)
{
    uint32_t idx[64], n = rc_event_pk(ev, idx, 64);
    if (n > 64) n = 64;
    RC_BUF_LIT(b, "{\"PRIMARY\":[");
    for (uint32_t k = 0; k < n; k++) {
        if (k) rc_buf_putc(b, ',');
        rc_jw_str(b, ev->cols[idx[k]].name.p, ev->cols[idx[k]].name.n);
    }
    RC_BUF_LIT(b, "]}");
}
