/* Huawei DRS "json" and "json-c" (docs/formats/drs-json*.md). Every value is a string.
 *
 * MySQL-family sources get the Canal-shaped MySQL layout (mysqlType, id, es, ts, database,
 * table, type, isDdl, sql, sqlType, data, old, pkNames); PostgreSQL, Oracle and SQL Server
 * sources the "other databases" layout (columnType, dbType, schema, opType, then the same).
 * json-c differs from json in two ways: a DELETE's row goes in "data" instead of "old", and
 * TIMESTAMP values are written as wall-clock time instead of epoch seconds.
 * See docs/formats/drs-json.md. */
#include <stdlib.h>
#include <string.h>
#include "formats/canal_read.h"
#include "formats/oms_common.h"
#include "core/ddl.h"
#include "core/fmt.h"
#include "core/jsonw.h"

typedef struct drs_enc {
    bool json_c;
    rc_tz tz;           /* json-c TIMESTAMP wall clock */
    const char *dbtype; /* "other databases" dbType override, or NULL */
    uint64_t next_id;
    rc_buf text;
} drs_enc;

static rc_status enc_new(const rc_options *o, void **out, rc_error *err, bool json_c)
{
    const char *prefix = json_c ? "drs-json-c" : "drs-json";
    rc_drs_opts dro = {0};
    rc_status st = rc_options_parse(o, prefix, json_c ? rc_drs_jsonc_options : rc_drs_json_options, &dro, err);
    if (st != RC_OK) return st;
    drs_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->json_c = json_c;
    e->next_id = 1;
    e->dbtype = dro.dbtype, e->tz = dro.tz;
    rc_buf_init(&e->text, 0);
    *out = e;
    return RC_OK;
}

static rc_status json_new(const rc_options *o, void **out, rc_error *err) { return enc_new(o, out, err, false); }
static rc_status jsonc_new(const rc_options *o, void **out, rc_error *err) { return enc_new(o, out, err, true); }

static void drs_free(void *p)
{
    drs_enc *e = p;
    if (!e) return;
    rc_buf_fini(&e->text);
    free(e);
}

/* One value as text (unescaped) into `t`; false for SQL NULL. */
static bool value_text(rc_buf *t, const drs_enc *e, const rc_event *ev, const rc_column *col, const rc_value *v)
{
    bool mysql = rc_dbkind_family(ev->src.kind) == RC_FAM_MYSQL;
    switch (v->kind) {
    case RC_V_NULL: return false;
    case RC_V_BOOL: rc_buf_puts(t, mysql ? (v->b ? "1" : "0") : (v->b ? "true" : "false")); break;
    case RC_V_INT: rc_fmt_i64(t, v->i); break;
    case RC_V_UINT:
    case RC_V_BITS: rc_fmt_u64(t, v->u); break;
    case RC_V_DECIMAL: rc_fmt_dec_plain(t, &v->dec); break;
    case RC_V_FLOAT32: rc_fmt_f32_java(t, v->f32); break;
    case RC_V_FLOAT64: rc_fmt_f64_java(t, v->f64); break;
    case RC_V_BYTES:
        /* MySQL: Java's byte-array text; other databases (bytea): lower-case hex */
        if (mysql) rc_fmt_java_bytes(t, (const unsigned char *)v->s.p, v->s.n);
        else rc_fmt_hex(t, (const unsigned char *)v->s.p, v->s.n, false);
        break;
    case RC_V_DATE: rc_fmt_date(t, &v->date); break;
    case RC_V_TIME: rc_fmt_time(t, &v->time); break;
    case RC_V_DATETIME: rc_fmt_datetime(t, &v->dt, ' ', true); break;
    case RC_V_TIMESTAMP:
        if (e->json_c) rc_fmt_ts_local(t, &v->ts, rc_tz_offset_at(&e->tz, v->ts.sec), ' ');
        else rc_fmt_ts_epoch(t, &v->ts);
        break;
    default: rc_buf_put(t, v->s.p, v->s.n); break; /* text, enum, set, json, intervals, invalid */
    }
    (void)col;
    return true;
}

static void put_row(rc_buf *b, drs_enc *e, const rc_event *ev, const rc_value *img)
{
    RC_BUF_LIT(b, "[{");
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (i) rc_buf_putc(b, ',');
        rc_jw_str(b, ev->cols[i].name.p, ev->cols[i].name.n);
        rc_buf_putc(b, ':');
        rc_buf_reset(&e->text);
        if (value_text(&e->text, e, ev, &ev->cols[i], &img[i])) rc_jw_str(b, e->text.data ? e->text.data : "", e->text.len);
        else RC_BUF_LIT(b, "null");
    }
    RC_BUF_LIT(b, "}]");
}

static void put_type_map(rc_buf *b, const rc_event *ev, bool codes)
{
    rc_buf_putc(b, '{');
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (i) rc_buf_putc(b, ',');
        rc_jw_str(b, ev->cols[i].name.p, ev->cols[i].name.n);
        rc_buf_putc(b, ':');
        if (codes) {
            rc_fmt_i64(b, ev->cols[i].type.info->drs_sqltype);
        } else {
            rc_buf_putc(b, '"');
            rc_buf_puts(b, ev->cols[i].type.info->drs_type);
            rc_buf_putc(b, '"');
        }
    }
    rc_buf_putc(b, '}');
}

static const char *default_dbtype(rc_dbkind k)
{
    switch (k) {
    case RC_DB_POSTGRES: return "PostgreSQL";
    case RC_DB_ORACLE:
    case RC_DB_OB_ORACLE: return "Oracle";
    case RC_DB_SQLSERVER: return "Microsoft SQL Server";
    default: return "";
    }
}

static rc_status drs_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    drs_enc *e = p;
    const char *fmt = e->json_c ? "drs-json-c" : "drs-json", *type;
    if (rc_event_refuse_unavailable(ev, fmt, err) != RC_OK) return RC_SKIP;
    bool ddl = false;
    switch (ev->op) {
    case RC_OP_INSERT: type = "INSERT"; break;
    case RC_OP_READ: type = "INIT"; break;
    case RC_OP_UPDATE: type = "UPDATE"; break;
    case RC_OP_DELETE: type = "DELETE"; break;
    case RC_OP_DDL:
    case RC_OP_TRUNCATE:
        /* DDL of a full sync (the event's snapshot marker says so) is INIT_DDL */
        type = ev->snapshot.n == 4 && !memcmp(ev->snapshot.p, "true", 4) ? "INIT_DDL" : "DDL", ddl = true;
        break;
    default: return RC_SKIP; /* heartbeat, begin, commit: DRS has no message (docs/formats/: each page's "no message" list) */
    }
    rc_status need = rc_enc_need_before(ev, fmt, e->json_c && ev->op == RC_OP_DELETE ? "\"data\"" : "\"old\"", false, err);
    if (need != RC_OK) return need;
    if (ev->op == RC_OP_DDL && !ev->ddl.n) return rc_enc_unsupported(err, fmt, ev, "a DDL message needs the statement text");
    bool mysql = rc_dbkind_family(ev->src.kind) == RC_FAM_MYSQL;
    uint64_t id = ev->pos.has_seq ? ev->pos.seq : e->next_id;
    e->next_id++;
    rc_buf_putc(b, '{');
    if (mysql) {
        RC_BUF_LIT(b, "\"mysqlType\":");
        if (ddl) RC_BUF_LIT(b, "null");
        else put_type_map(b, ev, false);
    } else {
        RC_BUF_LIT(b, "\"columnType\":");
        if (ddl) RC_BUF_LIT(b, "null");
        else put_type_map(b, ev, false);
        RC_BUF_LIT(b, ",\"dbType\":");
        const char *dbt = e->dbtype ? e->dbtype : default_dbtype(ev->src.kind);
        rc_jw_str(b, dbt, strlen(dbt));
        RC_BUF_LIT(b, ",\"schema\":");
        rc_jw_str(b, ev->src.schema.p, ev->src.schema.n);
        RC_BUF_LIT(b, ",\"opType\":\"");
        rc_buf_puts(b, type);
        rc_buf_putc(b, '"');
    }
    RC_BUF_LIT(b, ",\"id\":");
    rc_fmt_u64(b, id);
    RC_BUF_LIT(b, ",\"es\":");
    rc_fmt_i64(b, rc_enc_es_ms(ev));
    RC_BUF_LIT(b, ",\"ts\":");
    rc_fmt_i64(b, rc_enc_ts_ms(ev));
    RC_BUF_LIT(b, ",\"database\":");
    rc_jw_str(b, ev->src.db.p, ev->src.db.n);
    RC_BUF_LIT(b, ",\"table\":");
    rc_jw_str(b, ev->src.table.p, ev->src.table.n);
    RC_BUF_LIT(b, ",\"type\":\"");
    rc_buf_puts(b, type);
    RC_BUF_LIT(b, "\",\"isDdl\":");
    rc_buf_puts(b, ddl ? "true" : "false");
    RC_BUF_LIT(b, ",\"sql\":");
    if (ddl) rc_enc_put_ddl_text(b, ev);
    else RC_BUF_LIT(b, "\"\"");
    RC_BUF_LIT(b, ",\"sqlType\":");
    if (ddl) RC_BUF_LIT(b, "null");
    else put_type_map(b, ev, true);
    /* data: the new row (json-c: also the deleted row); old: the previous row */
    const rc_value *data = ev->op == RC_OP_DELETE ? (e->json_c ? ev->before : NULL) : (ddl ? NULL : ev->after);
    const rc_value *old = ev->op == RC_OP_UPDATE ? ev->before : (ev->op == RC_OP_DELETE && !e->json_c ? ev->before : NULL);
    RC_BUF_LIT(b, ",\"data\":");
    if (data) put_row(b, e, ev, data);
    else RC_BUF_LIT(b, "null");
    RC_BUF_LIT(b, ",\"old\":");
    if (old) put_row(b, e, ev, old);
    else RC_BUF_LIT(b, "null");
    RC_BUF_LIT(b, ",\"pkNames\":");
    if (ddl) RC_BUF_LIT(b, "null");
    else rc_enc_put_pk_array(b, ev);
    rc_buf_putc(b, '}');
    return rc_enc_finish(b, err);
}

const rc_format rc_format_drs_json = {
    .name = "drs-json",
    .summary = "Huawei DRS json: Canal-shaped, every value a string (MySQL and other-database layouts)",
    .content_type = "application/json",
    .options = rc_drs_json_options,
    .enc_new = json_new,
    .enc_free = drs_free,
    .encode_value = drs_encode,
    .encode_key = rc_oms_encode_key,
    .dec_new = rc_drs_json_dec_new,
    .dec_free = rc_canal_dec_free,
    .decode = rc_canal_decode,
};

const rc_format rc_format_drs_json_c = {
    .name = "drs-json-c",
    .summary = "Huawei DRS json-c: as drs-json, deleted rows in data, TIMESTAMP as yyyy-mm-dd hh:mm:ss",
    .content_type = "application/json",
    .options = rc_drs_jsonc_options,
    .enc_new = jsonc_new,
    .enc_free = drs_free,
    .encode_value = drs_encode,
    .encode_key = rc_oms_encode_key,
    .dec_new = rc_drs_jsonc_dec_new,
    .dec_free = rc_canal_dec_free,
    .decode = rc_canal_decode,
};
