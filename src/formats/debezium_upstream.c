/* Upstream Debezium: the envelope, source blocks, key and Kafka Connect
 * JSON schemas the way Debezium's MySQL, PostgreSQL and SQL Server connectors write them, in
 * the layout of Debezium 1.x, 2.x or 3.x (debezium.compat). See docs/formats/debezium.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "formats/avro_bin.h"
#include "formats/debezium_upstream.h"
#include "formats/oms_common.h"
#include "sources/pg/pg_value.h"
#include "rowcast/fmt.h"
#include "rowcast/hash.h"
#include "rowcast/json.h"
#include "rowcast/jsonw.h"
#include "rowcast/names.h"
#include "rowcast/wkb.h"

enum { DEC_PRECISE, DEC_STRING, DEC_DOUBLE };
enum { BIN_BYTES, BIN_BASE64, BIN_HEX };
enum { TIME_ADAPTIVE, TIME_CONNECT };
enum { CONN_MYSQL, CONN_POSTGRES, CONN_SQLSERVER };
enum { SCHEMA_SLOTS = 256 };

typedef struct up_slot {
    uint64_t hash;
    char *sig, *text;
    size_t sig_n, text_n;
} up_slot;

/* A JSON string of a name that repeats from event to event (db, schema, table): its escaped
 * text kept with a copy of the name. */
typedef struct str_memo {
    rc_buf raw, json;
} str_memo;

/* The slot the last message of a cached column list (rc_event.cols_id) and table name used. */
typedef struct up_memo {
    const void *cols_id; /* NULL: none */
    int conn;
    size_t pn;
    char prefix[256];
    const up_slot *slot;
} up_memo;

typedef struct up_enc {
    int compat; /* 10 (1.0-1.5), 16 (1.6-1.9), 20 (2.x), 30 (3.x) */
    bool schemas, tx_meta, tombstones, schema_changes;
    int dec_mode, bin_mode, time_mode;
    bool unsigned_precise;
    const char *server, *version;
    rc_name_registry *names;
    rc_buf sig, scratch, name;
    rc_buf name_of; /* the parts `name` was made from (table_name): a run of one table is named once */
    rc_buf src_head, src_head_of; /* the source block up to "ts_ms": and the connector and server it was made for */
    /* the columns' names as JSON keys ("name":), for the cached column list keys_of
     * (rc_event.cols_id); keys_off[i] is where column i's key starts, keys_off[n] the end */
    rc_buf keys;
    uint32_t *keys_off;
    size_t keys_cap;
    const void *keys_of;
    up_slot value_slots[SCHEMA_SLOTS], key_slots[SCHEMA_SLOTS];
    up_memo value_memo, key_memo;
    str_memo memo_db, memo_schema, memo_table; /* the source block's names */
    /* PostgreSQL columns: the catalog rows' dbz_pg_kind (by row index), array element types,
     * and what arrays are split into */
    uint8_t *pg_kind;
    size_t ncatalog;
    rc_type_cache *types;
    rc_arena types_arena, elems;
    rc_buf pgbuf;
    rc_buf key_old, key_new, hdr, hval; /* an update's keys (rc_dbz_up_split) */
    uint8_t skip_ops; /* ops not written (skipped.operations), by rc_op bit */
    bool skip_set;    /* skipped.operations given: else truncates of PostgreSQL at compat >= 2 */
    /* the transaction of the last event written; its events per table so far (debezium_topics.c) */
    rc_buf tx_of;
    rc_dbz_tx *tx;
    uint32_t tx_extra; /* messages of the transaction beyond one per event (rc_dbz_up_split) */
} up_enc;

/* Every option of the `debezium` format: the first DBZ_COMMON_OPTIONS belong to both flavours,
 * the rest to the upstream flavour only. */
const rc_option_desc rc_dbz_all_options[] = {
    {"debezium.flavor", "oms|upstream", "oms: as OMS writes it (default); upstream: as Debezium itself writes it (debezium.compat and the options below)"},
    {"debezium.schemas", "false|true", "write {\"schema\", \"payload\"} with the Kafka Connect schema of each table (default: payload only)"},
    {"debezium.heartbeats", "false|true", "reading: pass HEARTBEAT messages on as heartbeat events (default: skip them)"},
    {"debezium.compat", "1|1.6|2|3", "upstream layout of that Debezium version: 1 (1.0-1.5), 1.6 (1.6-1.9: source.sequence), 2 (2.x, ts_us/ts_ns as 2.6 adds them), 3 (default)"},
    {"debezium.server", "name", "logical server name (topic.prefix): the topics' {server}, source.name and the heartbeat topic; default: the event's server, else \"rowcast\""},
    {"debezium.version", "text", "connector version written in source.version (default \"rowcast\")"},
    {"debezium.decimal.handling.mode", "precise|string|double", "DECIMAL as Kafka Connect Decimal bytes (default), a string, or a double"},
    {"debezium.binary.handling.mode", "bytes|base64|hex", "binary columns as bytes (base64 in JSON, default), a base64 string or a hex string"},
    {"debezium.time.precision.mode", "adaptive_time_microseconds|connect", "time types as Debezium's MicroTime/Timestamp types (default) or Kafka Connect's"},
    {"debezium.bigint.unsigned.handling.mode", "long|precise", "BIGINT UNSIGNED as int64 (values beyond it are an error) or as Decimal"},
    {"debezium.provide.transaction.metadata", "false|true", "write the transaction block {id, total_order, data_collection_order} and the BEGIN/END messages of the <server>.transaction topic"},
    {"debezium.transactions", "false|true", "the same as debezium.provide.transaction.metadata"},
    {"debezium.include.schema.changes", "true|false", "write DDL events of MySQL sources as the <server> schema-change topic's messages (default true)"},
    {"debezium.tombstones.on.delete", "true|false", "a tombstone (same key, null value) follows every delete (default true)"},
    {"debezium.skipped.operations", "none|c,u,d,t", "ops not written (default: t for PostgreSQL sources with compat 2 and 3, as Debezium 2.x skips truncates; none otherwise)"},
    {0},
};
const rc_option_desc *const rc_dbz_up_options = rc_dbz_all_options + DBZ_COMMON_OPTIONS;

/* skipped.operations: "none" or a comma-separated list of c, u, d, t (Debezium's letters). */
static rc_status parse_skipped(const char *v, uint8_t *ops, rc_error *err)
{
    *ops = 0;
    if (!strcmp(v, "none")) return RC_OK;
    for (const char *p = v; *p; p++) {
        switch (*p) {
        case 'c': *ops |= 1u << RC_OP_INSERT; break;
        case 'u': *ops |= 1u << RC_OP_UPDATE; break;
        case 'd': *ops |= 1u << RC_OP_DELETE; break;
        case 't': *ops |= 1u << RC_OP_TRUNCATE; break;
        default: goto bad;
        }
        if (p[1] == ',' && p[2]) p++;
        else if (p[1]) goto bad;
    }
    return RC_OK;
bad:
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                        "-o debezium.skipped.operations=%s: expected none or a comma-separated list of c, u, d, t (e.g. t)", v);
}

rc_status rc_dbz_up_new(const rc_options *o, void **out, rc_error *err)
{
    up_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    int compat = 3;
    int unsig = 0;
    e->tombstones = true;
    e->schema_changes = true;
    rc_status st;
    if ((st = rc_options_choice(o, "debezium.compat", "1|1.6|2|3", &compat, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.schemas", &e->schemas, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.provide.transaction.metadata", &e->tx_meta, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.transactions", &e->tx_meta, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.include.schema.changes", &e->schema_changes, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.tombstones.on.delete", &e->tombstones, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.decimal.handling.mode", "precise|string|double", &e->dec_mode, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.binary.handling.mode", "bytes|base64|hex", &e->bin_mode, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.time.precision.mode", "adaptive_time_microseconds|connect", &e->time_mode, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.bigint.unsigned.handling.mode", "long|precise", &unsig, err)) != RC_OK) {
        free(e);
        return st;
    }
    e->compat = compat == 0 ? 10 : compat == 1 ? 16 : compat == 2 ? 20 : 30;
    e->unsigned_precise = unsig == 1;
    e->server = rc_options_get(o, "debezium.server");
    e->version = rc_options_get(o, "debezium.version");
    if (!e->version) e->version = "rowcast";
    const char *skip = rc_options_get(o, "debezium.skipped.operations");
    if (skip && (st = parse_skipped(skip, &e->skip_ops, err)) != RC_OK) {
        free(e);
        return st;
    }
    e->skip_set = skip != NULL;
    while (rc_type_catalog[e->ncatalog].name) e->ncatalog++;
    if (!(e->names = rc_name_registry_new()) || !(e->types = rc_type_cache_new()) || !(e->pg_kind = malloc(e->ncatalog + 1)) ||
        !(e->tx = rc_dbz_tx_new())) {
        rc_name_registry_free(e->names), rc_type_cache_free(e->types), free(e->pg_kind);
        free(e);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    for (size_t i = 0; i < e->ncatalog; i++) e->pg_kind[i] = (uint8_t)rc_dbz_pg_kind_of(&rc_type_catalog[i]);
    rc_arena_init(&e->types_arena), rc_arena_init(&e->elems);
    rc_buf_init(&e->pgbuf, 0), rc_buf_init(&e->tx_of, 0);
    rc_buf_init(&e->key_old, 0), rc_buf_init(&e->key_new, 0), rc_buf_init(&e->hdr, 0), rc_buf_init(&e->hval, 0);
    str_memo *memos[] = {&e->memo_db, &e->memo_schema, &e->memo_table};
    for (int i = 0; i < 3; i++) rc_buf_init(&memos[i]->raw, 0), rc_buf_init(&memos[i]->json, 0);
    rc_buf_init(&e->sig, 0), rc_buf_init(&e->scratch, 0), rc_buf_init(&e->name, 0), rc_buf_init(&e->name_of, 0);
    rc_buf_init(&e->src_head, 0), rc_buf_init(&e->src_head_of, 0), rc_buf_init(&e->keys, 0);
    *out = e;
    return RC_OK;
}

void rc_dbz_up_free(void *p)
{
    up_enc *e = p;
    if (!e) return;
    for (int i = 0; i < SCHEMA_SLOTS; i++) {
        free(e->value_slots[i].sig), free(e->value_slots[i].text);
        free(e->key_slots[i].sig), free(e->key_slots[i].text);
    }
    rc_name_registry_free(e->names);
    rc_buf_fini(&e->sig), rc_buf_fini(&e->scratch), rc_buf_fini(&e->name), rc_buf_fini(&e->name_of);
    rc_buf_fini(&e->src_head), rc_buf_fini(&e->src_head_of), rc_buf_fini(&e->keys);
    free(e->keys_off);
    free(e->pg_kind);
    rc_type_cache_free(e->types);
    rc_arena_fini(&e->types_arena), rc_arena_fini(&e->elems);
    rc_buf_fini(&e->pgbuf), rc_buf_fini(&e->tx_of);
    rc_buf_fini(&e->key_old), rc_buf_fini(&e->key_new), rc_buf_fini(&e->hdr), rc_buf_fini(&e->hval);
    str_memo *memos[] = {&e->memo_db, &e->memo_schema, &e->memo_table};
    for (int i = 0; i < 3; i++) rc_buf_fini(&memos[i]->raw), rc_buf_fini(&memos[i]->json);
    rc_dbz_tx_free(e->tx);
    free(e);
}

static int connector_of(rc_dbkind k)
{
    switch (k) {
    case RC_DB_POSTGRES: return CONN_POSTGRES;
    case RC_DB_SQLSERVER: return CONN_SQLSERVER;
    case RC_DB_MYSQL:
    case RC_DB_MARIADB:
    case RC_DB_OB_MYSQL:
    case RC_DB_UNKNOWN: return CONN_MYSQL;
    default: return -1;
    }
}

/* ---- column types ---- */

/* What one column looks like in Kafka Connect: type, optional logical name and version,
 * parameters (JSON object text, or NULL). */
typedef struct col_schema {
    const char *type;
    const char *name;
    int version;
    rc_buf *params; /* NULL when none */
} col_schema;

/* What the PostgreSQL connector does with column c beyond its value kind (DBZ_PG_NONE for
 * other sources). */
static dbz_pg_kind pg_kind(const up_enc *e, const rc_column *c)
{
    const rc_type_info *t = c->type.info;
    if (t->family != RC_FAM_PG) return DBZ_PG_NONE;
    size_t i = (size_t)(t - rc_type_catalog);
    return t >= rc_type_catalog && i < e->ncatalog ? (dbz_pg_kind)e->pg_kind[i] : rc_dbz_pg_kind_of(t);
}

/* The element column of a PostgreSQL array column ("numeric(10,2)[]": numeric(10,2)); false
 * when its declaration does not parse. */
static bool array_elem(up_enc *e, const rc_column *c, rc_column *out)
{
    rc_str d = c->type.decl;
    const rc_coltype *t;
    rc_error err;
    rc_error_clear(&err);
    if (d.n < 3 || memcmp(d.p + d.n - 2, "[]", 2) ||
        rc_type_cache_get(e->types, &e->types_arena, RC_FAM_PG, d.p, d.n - 2, 0, &t, &err) != RC_OK)
        return false;
    *out = (rc_column){.name = c->name, .type = *t, .nullable = true};
    return true;
}

static int32_t dec_scale(const rc_column *c, const rc_decimal *d) { return c->type.p2 >= 0 ? c->type.p2 : (d ? d->scale : 0); }

/* How a DATETIME column is written: Oracle's DATE/TIMESTAMP as a zoned string, Kafka
 * Connect's Timestamp (ms), Debezium's Timestamp (ms, precision 0-3) or MicroTimestamp. */
typedef enum { DT_ZONED, DT_CONNECT, DT_MILLIS, DT_MICROS } dt_as;
static dt_as datetime_as(const up_enc *e, const rc_column *c)
{
    if (c->type.info->vclass == RC_VC_DATETIME && c->type.info->family == RC_FAM_ORACLE) return DT_ZONED;
    if (e->time_mode == TIME_CONNECT) return DT_CONNECT;
    int prec = c->type.p1 < 0 ? (c->type.info->family == RC_FAM_PG ? 6 : 0) : c->type.p1;
    return prec <= 3 ? DT_MILLIS : DT_MICROS;
}

/* Decimal {scale[, connect.decimal.precision]} parameters. */
static void decimal_params(rc_buf *params, int32_t scale, int32_t prec)
{
    RC_BUF_LIT(params, "{\"scale\":\"");
    rc_fmt_i64(params, scale);
    rc_buf_putc(params, '"');
    if (prec > 0) {
        RC_BUF_LIT(params, ",\"connect.decimal.precision\":\"");
        rc_fmt_i64(params, prec);
        rc_buf_putc(params, '"');
    }
    rc_buf_putc(params, '}');
}

/* The schema of a PostgreSQL column whose type the connector writes in a way of its own; false
 * for the others (their value kind decides). */
static bool pg_col_schema(up_enc *e, const rc_column *c, col_schema *s, rc_buf *params)
{
    switch (pg_kind(e, c)) {
    case DBZ_PG_UUID: s->type = "string", s->name = "io.debezium.data.Uuid", s->version = 1; return true;
    case DBZ_PG_XML: s->type = "string", s->name = "io.debezium.data.Xml", s->version = 1; return true;
    case DBZ_PG_TSVECTOR: s->type = "string", s->name = "io.debezium.data.TsVector", s->version = 1; return true;
    case DBZ_PG_TIMETZ: s->type = "string", s->name = "io.debezium.time.ZonedTime", s->version = 1; return true;
    case DBZ_PG_INTERVAL: s->type = "int64", s->name = "io.debezium.time.MicroDuration", s->version = 1; return true;
    case DBZ_PG_FLOAT4: s->type = "float"; return true;
    case DBZ_PG_POINT: s->type = "struct", s->name = "io.debezium.data.geometry.Point", s->version = 1; return true;
    case DBZ_PG_MONEY:
        if (e->dec_mode == DEC_STRING) s->type = "string";
        else if (e->dec_mode == DEC_DOUBLE) s->type = "double";
        else {
            s->type = "bytes", s->name = "org.apache.kafka.connect.data.Decimal", s->version = 1;
            decimal_params(params, 2, -1); /* Decimal.builder(money.fraction.digits): no precision */
            s->params = params;
        }
        return true;
    case DBZ_PG_BITS:
        if (c->type.p1 == 1) {
            s->type = "boolean";
            return true;
        }
        s->type = "bytes", s->name = "io.debezium.data.Bits", s->version = 1;
        RC_BUF_LIT(params, "{\"length\":\"");
        rc_fmt_i64(params, c->type.p1);
        RC_BUF_LIT(params, "\"}");
        s->params = params;
        return true;
    case DBZ_PG_ARRAY: s->type = "array"; return true;
    default: return false;
    }
}

/* A TIME column in milliseconds: Kafka Connect's Time, or Debezium's Time for a PostgreSQL
 * time(0-3) (time.precision.mode adaptive, the PostgreSQL connector's default). */
static bool time_millis(const up_enc *e, const rc_column *c)
{
    return e->time_mode == TIME_CONNECT || (c->type.info->family == RC_FAM_PG && c->type.p1 >= 0 && c->type.p1 <= 3);
}

static void col_schema_of(up_enc *e, const rc_column *c, col_schema *s, rc_buf *params)
{
    const rc_type_info *t = c->type.info;
    memset(s, 0, sizeof *s);
    rc_buf_reset(params);
    if (pg_col_schema(e, c, s, params)) return;
    switch (t->vkind) {
    case RC_V_BOOL: s->type = "boolean"; return;
    case RC_V_INT:
        s->type = t->connect; /* int16 / int32 / int64 by the column's width */
        if (t->avro == RC_AVRO_DATETIME) s->name = "io.debezium.time.Year", s->version = 1;
        return;
    case RC_V_UINT:
        if (!e->unsigned_precise) {
            s->type = "int64";
            return;
        }
        /* precise unsigned is a Decimal of scale 0 */
        __attribute__((fallthrough));
    case RC_V_DECIMAL:
        if (e->dec_mode == DEC_STRING) s->type = "string";
        else if (e->dec_mode == DEC_DOUBLE) s->type = "double";
        else if (t->vkind == RC_V_DECIMAL && c->type.p2 < 0 && c->type.info->family == RC_FAM_PG) {
            s->type = "struct", s->name = "io.debezium.data.VariableScaleDecimal", s->version = 1;
        } else {
            s->type = "bytes", s->name = "org.apache.kafka.connect.data.Decimal", s->version = 1;
            /* Debezium writes no precision for unsigned */
            decimal_params(params, t->vkind == RC_V_UINT ? 0 : dec_scale(c, NULL), t->vkind == RC_V_UINT ? -1 : c->type.p1);
            s->params = params;
        }
        return;
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: s->type = "double"; return;
    case RC_V_BITS:
        if (c->type.p1 <= 1) {
            s->type = "boolean";
            return;
        }
        s->type = "bytes", s->name = "io.debezium.data.Bits", s->version = 1;
        RC_BUF_LIT(params, "{\"length\":\"");
        rc_fmt_i64(params, c->type.p1);
        RC_BUF_LIT(params, "\"}");
        s->params = params;
        return;
    case RC_V_BYTES: s->type = e->bin_mode == BIN_BYTES ? "bytes" : "string"; return;
    case RC_V_DATE:
        s->type = "int32";
        if (e->time_mode == TIME_CONNECT) s->name = "org.apache.kafka.connect.data.Date", s->version = 1;
        else s->name = "io.debezium.time.Date", s->version = 1;
        return;
    case RC_V_TIME:
        if (e->time_mode == TIME_CONNECT) s->type = "int32", s->name = "org.apache.kafka.connect.data.Time", s->version = 1;
        else if (time_millis(e, c)) s->type = "int32", s->name = "io.debezium.time.Time", s->version = 1;
        else s->type = "int64", s->name = "io.debezium.time.MicroTime", s->version = 1;
        return;
    case RC_V_DATETIME:
        s->type = "int64", s->version = 1;
        switch (datetime_as(e, c)) {
        case DT_ZONED: s->type = "string", s->name = "io.debezium.time.ZonedTimestamp"; return;
        case DT_CONNECT: s->name = "org.apache.kafka.connect.data.Timestamp"; return;
        case DT_MILLIS: s->name = "io.debezium.time.Timestamp"; return;
        case DT_MICROS: s->name = "io.debezium.time.MicroTimestamp"; return;
        }
        return;
    case RC_V_TIMESTAMP: s->type = "string", s->name = "io.debezium.time.ZonedTimestamp", s->version = 1; return;
    case RC_V_ENUM:
    case RC_V_SET: {
        s->type = "string", s->version = 1;
        s->name = t->vkind == RC_V_ENUM ? "io.debezium.data.Enum" : "io.debezium.data.EnumSet";
        RC_BUF_LIT(params, "{\"allowed\":\"");
        rc_str l;
        for (unsigned i = 0; rc_coltype_label(&c->type, i, &l); i++) {
            if (i) rc_buf_putc(params, ',');
            rc_jw_str_body(params, l.p, l.n);
        }
        RC_BUF_LIT(params, "\"}");
        s->params = params;
        return;
    }
    case RC_V_JSON: s->type = "string", s->name = "io.debezium.data.Json", s->version = 1; return;
    case RC_V_GEOMETRY:
        s->type = "struct", s->version = 1;
        s->name = !strcmp(t->name, "point") ? "io.debezium.data.geometry.Point" : "io.debezium.data.geometry.Geometry";
        return;
    default: s->type = "string"; return;
    }
}

/* A field's schema in JsonConverter key order: type, (fields), optional, name, version,
 * parameters, field. */
static void put_field_schema(rc_buf *b, const col_schema *s, bool optional, const char *field, size_t fn)
{
    RC_BUF_LIT(b, "{\"type\":\"");
    rc_buf_puts(b, s->type);
    rc_buf_putc(b, '"');
    bool point = s->name && !strcmp(s->name, "io.debezium.data.geometry.Point");
    bool geometry = s->name && !strcmp(s->name, "io.debezium.data.geometry.Geometry");
    if (point)
        RC_BUF_LIT(b, ",\"fields\":[{\"type\":\"double\",\"optional\":false,\"field\":\"x\"},{\"type\":\"double\",\"optional\":false,\"field\":\"y\"},"
                      "{\"type\":\"bytes\",\"optional\":true,\"field\":\"wkb\"},{\"type\":\"int32\",\"optional\":true,\"field\":\"srid\"}]");
    else if (geometry)
        RC_BUF_LIT(b, ",\"fields\":[{\"type\":\"bytes\",\"optional\":false,\"field\":\"wkb\"},{\"type\":\"int32\",\"optional\":true,\"field\":\"srid\"}]");
    else if (!strcmp(s->type, "struct")) /* VariableScaleDecimal */
        RC_BUF_LIT(b, ",\"fields\":[{\"type\":\"int32\",\"optional\":false,\"field\":\"scale\"},{\"type\":\"bytes\",\"optional\":false,\"field\":\"value\"}]");
    RC_BUF_LIT(b, ",\"optional\":");
    rc_buf_puts(b, optional ? "true" : "false");
    if (s->name) {
        RC_BUF_LIT(b, ",\"name\":\"");
        rc_buf_puts(b, s->name);
        rc_buf_putc(b, '"');
    }
    if (s->version) {
        RC_BUF_LIT(b, ",\"version\":");
        rc_fmt_i64(b, s->version);
    }
    if (s->name && !strcmp(s->name, "io.debezium.data.VariableScaleDecimal")) RC_BUF_LIT(b, ",\"doc\":\"Variable scaled decimal\"");
    if (point) RC_BUF_LIT(b, ",\"doc\":\"Geometry (POINT)\"");
    if (geometry) RC_BUF_LIT(b, ",\"doc\":\"Geometry\"");
    if (s->params) {
        RC_BUF_LIT(b, ",\"parameters\":");
        rc_buf_put(b, s->params->data, s->params->len);
    }
    if (field) {
        RC_BUF_LIT(b, ",\"field\":");
        rc_jw_str(b, field, fn);
    }
    rc_buf_putc(b, '}');
}

/* A column's field schema; a PostgreSQL array is {"type":"array","items":<the element's
 * optional schema>,...} as JsonConverter writes it. */
static void put_column_schema(up_enc *e, rc_buf *b, const rc_column *c, bool optional, rc_buf *params)
{
    col_schema s;
    col_schema_of(e, c, &s, params);
    rc_column elem;
    if (!strcmp(s.type, "array") && array_elem(e, c, &elem)) {
        RC_BUF_LIT(b, "{\"type\":\"array\",\"items\":");
        col_schema es;
        col_schema_of(e, &elem, &es, params);
        put_field_schema(b, &es, true, NULL, 0);
        RC_BUF_LIT(b, ",\"optional\":");
        rc_buf_puts(b, optional ? "true" : "false");
        RC_BUF_LIT(b, ",\"field\":");
        rc_jw_str(b, c->name.p, c->name.n);
        rc_buf_putc(b, '}');
        return;
    }
    put_field_schema(b, &s, optional, c->name.p, c->name.n);
}

/* ---- values ---- */

/* The unscaled value of a decimal rescaled to `scale` (padding zeros); false when the value
 * has more fraction digits than the column declares. */
static bool rescale(const rc_decimal *d, int32_t scale, rc_buf *digits, rc_decimal *out)
{
    *out = *d;
    if (d->scale == scale) return true;
    if (d->scale > scale || (int64_t)scale - d->scale + d->ndigits > RC_DEC_MAX_BINARY_DIGITS) return false;
    rc_buf_reset(digits);
    rc_buf_put(digits, d->digits, d->ndigits);
    for (int32_t i = d->scale; i < scale; i++) rc_buf_putc(digits, '0');
    if (digits->err != RC_OK) return false;
    out->digits = digits->data;
    out->ndigits = (uint32_t)digits->len;
    out->scale = scale;
    if (d->ndigits == 1 && d->digits[0] == '0') out->ndigits = 1; /* zero stays "0" */
    return true;
}

rc_status rc_dbz_fits_unit(const rc_column *c, uint32_t nanos, rc_str zone, bool ms, const char *hint, rc_error *err)
{
    const char *unit = ms ? "milliseconds" : "microseconds";
    if (nanos % (ms ? 1000000u : 1000u)) {
        rc_error_set(err, RC_ERR_RANGE, RC_NO_OFFSET, "column \"%.*s\" (%.*s): the value's fraction of a second .%09u is finer than the %s Debezium writes for it%s%s",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (unsigned)nanos, unit, hint ? "; " : "", hint ? hint : "");
        return RC_SKIP;
    }
    if (zone.n) {
        rc_error_set(err, RC_ERR_RANGE, RC_NO_OFFSET, "column \"%.*s\" (%.*s): the value's zone %.*s has no place in the epoch %s Debezium writes",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (int)zone.n, zone.p, unit);
        return RC_SKIP;
    }
    return RC_OK;
}

/* An unchanged TOAST value: Debezium's PostgreSQL connector writes its placeholder
 * (unavailable.value.placeholder, "__debezium_unavailable_value") in string columns, its bytes
 * in bytea ones and a one-element array of it in arrays of strings; any other schema cannot
 * hold it, and the event is not expressible. */
static rc_status unavailable(up_enc *e, const rc_column *c, rc_buf *b, bool avro, rc_error *err)
{
    static const char ph[] = "__debezium_unavailable_value";
    rc_vkind k = (rc_vkind)c->type.info->vkind;
    rc_buf params;
    rc_buf_init(&params, 0);
    col_schema s, es = {"", NULL, 0, NULL};
    col_schema_of(e, c, &s, &params);
    rc_column ec;
    if (!strcmp(s.type, "array") && array_elem(e, c, &ec)) col_schema_of(e, &ec, &es, &params);
    rc_buf_fini(&params);
    if (!avro && k == RC_V_BYTES) {
        rc_buf_putc(b, '"');
        rc_fmt_base64(b, (const unsigned char *)ph, sizeof ph - 1);
        rc_buf_putc(b, '"');
        return RC_OK;
    }
    if (!avro && (!strcmp(s.type, "string") || !strcmp(es.type, "string"))) {
        rc_buf_puts(b, !strcmp(s.type, "string") ? "\"__debezium_unavailable_value\"" : "[\"__debezium_unavailable_value\"]");
        return RC_OK;
    }
    rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                 "column \"%.*s\" (%.*s): its value was not sent (an unchanged TOAST value) and upstream Debezium%s has no "
                 "placeholder for this type; REPLICA IDENTITY FULL sends it in the old row",
                 (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, avro ? " Avro" : "");
    return RC_SKIP;
}

static rc_status put_value(up_enc *e, rc_buf *b, const rc_column *c, const rc_value *v, rc_error *err);

/* A decimal in the decimal handling mode, as a Decimal of `scale` in precise mode. */
/* A decimal's unscaled value as Kafka Connect's Decimal bytes, base64 (the JSON converter's
 * rendering of bytes), without the quotes. */
static void put_dec_b64(up_enc *e, rc_buf *b, const rc_decimal *d)
{
    rc_buf_reset(&e->scratch);
    rc_dec_unscaled_bytes(&e->scratch, d);
    rc_fmt_base64(b, (const unsigned char *)e->scratch.data, e->scratch.len);
}

static rc_status put_decimal(up_enc *e, rc_buf *b, const rc_column *c, const rc_decimal *dec, int32_t scale, rc_error *err)
{
    if (e->dec_mode == DEC_STRING) {
        rc_buf_putc(b, '"');
        rc_fmt_dec_plain(b, dec);
        rc_buf_putc(b, '"');
    } else if (e->dec_mode == DEC_DOUBLE) {
        rc_buf_reset(&e->scratch);
        rc_fmt_dec_java(&e->scratch, dec);
        rc_buf_putc(&e->scratch, '\0');
        rc_value dv = {.kind = RC_V_FLOAT64, .f64 = strtod(e->scratch.data, NULL)};
        rc_fmt_json_float(b, &dv);
    } else {
        rc_decimal d;
        if (!rescale(dec, scale, &e->name, &d))
            return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET,
                                "column \"%.*s\": the value has more fraction digits than its scale %d, or more than %d digits",
                                (int)c->name.n, c->name.p, scale, RC_DEC_MAX_BINARY_DIGITS);
        rc_buf_putc(b, '"');
        put_dec_b64(e, b, &d);
        rc_buf_putc(b, '"');
    }
    return RC_OK;
}

/* PostgreSQL's ±infinity and NaN, which the canonical value keeps as their text (RC_V_INVALID),
 * as the connector writes them (PostgresValueConverter, SpecialValueDecimal). */
static rc_status pg_special(up_enc *e, rc_buf *b, const rc_column *c, rc_str text, rc_error *err)
{
    int inf = rc_dbz_pg_infinity(text);
    switch (c->type.info->vkind) {
    case RC_V_DECIMAL: {
        bool nan = text.n == 3 && !memcmp(text.p, "NaN", 3);
        bool pos = text.n == 8 && !memcmp(text.p, "Infinity", 8), neg = text.n == 9 && !memcmp(text.p, "-Infinity", 9);
        if (!nan && !pos && !neg) break;
        if (e->dec_mode == DEC_STRING) { /* SpecialValueDecimal.toString(): the enum constant's name */
            rc_buf_puts(b, nan ? "\"NAN\"" : pos ? "\"POSITIVE_INFINITY\"" : "\"NEGATIVE_INFINITY\"");
        } else if (e->dec_mode == DEC_DOUBLE) {
            rc_value dv = {.kind = RC_V_FLOAT64, .f64 = nan ? (double)NAN : pos ? (double)INFINITY : -(double)INFINITY};
            rc_fmt_json_float(b, &dv);
        } else {
            rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                         "column \"%.*s\" (%.*s): %.*s has no Decimal value, and upstream Debezium stops on it in "
                         "decimal.handling.mode precise; -o debezium.decimal.handling.mode=string or double writes it",
                         (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (int)text.n, text.p);
            return RC_SKIP;
        }
        return RC_OK;
    }
    case RC_V_DATE:
        if (!inf || e->time_mode == TIME_CONNECT) break;
        rc_fmt_i64(b, rc_dbz_pg_infinity_days(inf));
        return RC_OK;
    case RC_V_DATETIME: {
        if (!inf || e->time_mode == TIME_CONNECT) break;
        int64_t us = rc_dbz_pg_infinity_micros(inf);
        rc_fmt_i64(b, datetime_as(e, c) == DT_MICROS ? us : us / 1000);
        return RC_OK;
    }
    case RC_V_TIMESTAMP: /* ZonedTimestamp: the connector passes PostgreSQL's text on */
        if (!inf) break;
        rc_jw_str(b, text.p, text.n);
        return RC_OK;
    default: break;
    }
    RC_BUF_LIT(b, "null");
    return RC_OK;
}

/* One array element's text as a value of the element column, read as the PostgreSQL source
 * reads a column's text (the element's layout is its type's output text). */
static rc_status elem_value(up_enc *e, const rc_column *ec, rc_str text, rc_value *v, rc_error *err)
{
    static const uint8_t readers[RC_V_KIND_COUNT] = {
        [RC_V_BOOL] = RC_PG_R_BOOL,       [RC_V_INT] = RC_PG_R_INT,           [RC_V_DECIMAL] = RC_PG_R_NUMERIC,
        [RC_V_FLOAT32] = RC_PG_R_FLOAT4,  [RC_V_FLOAT64] = RC_PG_R_FLOAT8,    [RC_V_TEXT] = RC_PG_R_TEXT,
        [RC_V_BYTES] = RC_PG_R_BYTEA,     [RC_V_DATE] = RC_PG_R_DATE,         [RC_V_TIME] = RC_PG_R_TIME,
        [RC_V_DATETIME] = RC_PG_R_TIMESTAMP, [RC_V_TIMESTAMP] = RC_PG_R_TIMESTAMPTZ, [RC_V_INTERVAL] = RC_PG_R_INTERVAL,
        [RC_V_JSON] = RC_PG_R_JSON,       [RC_V_ENUM] = RC_PG_R_ENUM,
    };
    rc_vkind k = (rc_vkind)ec->type.info->vkind;
    rc_pg_type t = {ec->type, (rc_pg_reader)readers[k], -1, ',', RC_PG_R_TEXT, -1};
    if (k != RC_V_INT && !readers[k]) t.reader = RC_PG_R_TEXT; /* RC_PG_R_INT is 0 */
    return rc_pg_value_parse(&t, ec, text.p, text.n, &e->elems, v, err);
}

/* A PostgreSQL array as a JSON array of its elements, each as the element type is written. */
static rc_status pg_array(up_enc *e, rc_buf *b, const rc_column *c, rc_str text, rc_error *err)
{
    rc_column ec;
    if (!array_elem(e, c, &ec))
        return rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET, "column \"%.*s\": array type %.*s has no element type", (int)c->name.n,
                            c->name.p, (int)c->type.decl.n, c->type.decl.p);
    dbz_pg_kind ek = pg_kind(e, &ec);
    if (ek == DBZ_PG_MONEY || ek == DBZ_PG_INTERVAL || ek == DBZ_PG_BITS || ek == DBZ_PG_XML || ek == DBZ_PG_POINT ||
        ek == DBZ_PG_UNKNOWN || ek == DBZ_PG_ARRAY || !strcmp(ec.type.info->name, "name")) {
        rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                     "column \"%.*s\" (%.*s): upstream Debezium's PostgreSQL connector has no schema for arrays of %s and leaves "
                     "the column out of its events; rowcast drops no column",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, ec.type.info->name);
        return RC_SKIP;
    }
    dbz_pg_elem *el;
    size_t n;
    rc_arena_reset(&e->elems);
    rc_status st = rc_dbz_pg_array_split(c, text, &e->elems, &el, &n, err);
    if (st != RC_OK) return st;
    rc_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) rc_buf_putc(b, ',');
        rc_value v = {.kind = RC_V_NULL};
        if (!el[i].null && (st = elem_value(e, &ec, el[i].text, &v, err)) != RC_OK) return st == RC_SKIP ? st : (rc_status)RC_SKIP;
        if ((st = put_value(e, b, &ec, &v, err)) != RC_OK) return st;
    }
    rc_buf_putc(b, ']');
    return RC_OK;
}

/* The value of a PostgreSQL column whose kind (pg_kind) the connector writes in a way of its
 * own; *done false for the others. */
static rc_status pg_value(up_enc *e, rc_buf *b, const rc_column *c, const rc_value *v, dbz_pg_kind k, bool *done, rc_error *err)
{
    *done = true;
    if (k == DBZ_PG_UNKNOWN) {
        rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                     "column \"%.*s\" (%.*s): upstream Debezium's PostgreSQL connector has no schema for "
                     "this type and leaves the column out of its events; rowcast drops no column",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p);
        return RC_SKIP;
    }
    if (k == DBZ_PG_BITS && c->type.p1 < 1) {
        rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                     "column \"%.*s\" (%.*s): rowcast does not know the io.debezium.data.Bits length upstream Debezium gives a bit "
                     "string without a declared length",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p);
        return RC_SKIP;
    }
    if (v->kind == RC_V_INVALID) return pg_special(e, b, c, v->s, err);
    if (v->kind != RC_V_TEXT && !(k == DBZ_PG_FLOAT4 && v->kind == RC_V_FLOAT32) && !(k == DBZ_PG_INTERVAL && v->kind == RC_V_INTERVAL)) {
        *done = false;
        return RC_OK;
    }
    rc_status st;
    switch (k) {
    case DBZ_PG_TIMETZ: return rc_dbz_pg_timetz(b, c, v->s, err);
    case DBZ_PG_FLOAT4: rc_fmt_json_float(b, v); return RC_OK;
    case DBZ_PG_BITS: return rc_dbz_pg_bits(b, &e->pgbuf, c, v->s, err);
    case DBZ_PG_INTERVAL: {
        int64_t us;
        if ((st = rc_dbz_pg_interval(c, v->s, &us, err)) != RC_OK) return st;
        rc_fmt_i64(b, us);
        return RC_OK;
    }
    case DBZ_PG_MONEY: {
        rc_decimal d;
        if ((st = rc_dbz_pg_money(c, v->s, &e->pgbuf, &d, err)) != RC_OK) return st;
        return put_decimal(e, b, c, &d, 2, err);
    }
    case DBZ_PG_POINT: {
        if ((st = rc_dbz_pg_point_wkt(c, v->s, &e->pgbuf, err)) != RC_OK) return st;
        rc_value g = {.kind = RC_V_GEOMETRY, .s = {e->pgbuf.data, e->pgbuf.len}};
        return put_value(e, b, c, &g, err);
    }
    case DBZ_PG_ARRAY: return pg_array(e, b, c, v->s, err);
    default: *done = false; return RC_OK;
    }
}

static rc_status put_value(up_enc *e, rc_buf *b, const rc_column *c, const rc_value *v, rc_error *err)
{
    const rc_type_info *t = c->type.info;
    dbz_pg_kind pk = pg_kind(e, c);
    if ((pk != DBZ_PG_NONE || (v->kind == RC_V_INVALID && t->family == RC_FAM_PG)) && v->kind != RC_V_NULL && v->kind != RC_V_UNAVAILABLE &&
        v->kind != RC_V_GEOMETRY) {
        bool done;
        rc_status st = pg_value(e, b, c, v, pk, &done, err);
        if (done) return st;
    } else if ((pk == DBZ_PG_UNKNOWN || (pk == DBZ_PG_BITS && c->type.p1 < 1)) && v->kind == RC_V_NULL) {
        bool done;
        return pg_value(e, b, c, v, pk, &done, err); /* the column itself has no place, NULL or not */
    }
    switch (v->kind) {
    case RC_V_NULL: RC_BUF_LIT(b, "null"); return RC_OK;
    case RC_V_INVALID: RC_BUF_LIT(b, "null"); return RC_OK; /* zero dates: Debezium writes null */
    case RC_V_UNAVAILABLE: return unavailable(e, c, b, false, err);
    case RC_V_BOOL: rc_buf_puts(b, v->b ? "true" : "false"); return RC_OK;
    case RC_V_INT: rc_fmt_i64(b, v->i); return RC_OK;
    case RC_V_UINT:
        if (!e->unsigned_precise) {
            if (v->u > INT64_MAX) { /* Debezium wraps it to a negative number; rowcast says so and writes nothing */
                rc_error_set(err, RC_ERR_RANGE, RC_NO_OFFSET,
                             "column \"%.*s\": %llu does not fit an int64 (bigint.unsigned.handling.mode=long; the "
                             "mode precise keeps it)",
                             (int)c->name.n, c->name.p, (unsigned long long)v->u);
                return RC_SKIP;
            }
            rc_fmt_u64(b, v->u);
            return RC_OK;
        } else {
            char dg[24];
            rc_buf tmp = {dg, 0, sizeof dg, sizeof dg, RC_OK};
            rc_fmt_u64(&tmp, v->u);
            rc_decimal d = {dg, (uint32_t)tmp.len, 0, false};
            rc_buf_putc(b, '"');
            put_dec_b64(e, b, &d);
            rc_buf_putc(b, '"');
            return RC_OK;
        }
    case RC_V_DECIMAL:
        if (e->dec_mode == DEC_STRING) {
            /* the PostgreSQL connector writes BigDecimal.toString() (SpecialValueDecimal: 1E-7
             * for 0.0000001), the others toPlainString() */
            rc_buf_putc(b, '"');
            if (t->family == RC_FAM_PG) rc_fmt_dec_java(b, &v->dec);
            else rc_fmt_dec_plain(b, &v->dec);
            rc_buf_putc(b, '"');
        } else if (e->dec_mode == DEC_DOUBLE) {
            rc_buf_reset(&e->scratch);
            rc_fmt_dec_java(&e->scratch, &v->dec);
            rc_buf_putc(&e->scratch, '\0');
            rc_value dv = {.kind = RC_V_FLOAT64, .f64 = strtod(e->scratch.data, NULL)};
            rc_fmt_json_float(b, &dv);
        } else if (c->type.p2 < 0 && t->family == RC_FAM_PG) {
            if (v->dec.ndigits > RC_DEC_MAX_BINARY_DIGITS)
                return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\": more than %d digits", (int)c->name.n, c->name.p,
                                    RC_DEC_MAX_BINARY_DIGITS);
            /* VariableScaleDecimal of the value without trailing zeros, scale at least 0 (the
             * connector's stripTrailingZeros): 1.50 is {scale 1, 15}, 100 {scale 0, 100} */
            rc_decimal d = v->dec;
            while (d.scale > 0 && d.ndigits > 1 && d.digits[d.ndigits - 1] == '0') d.ndigits--, d.scale--;
            if (d.ndigits == 1 && d.digits[0] == '0') d.scale = 0;
            if (d.scale < 0 && !rescale(&v->dec, 0, &e->name, &d))
                return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\": more than %d digits", (int)c->name.n, c->name.p,
                                    RC_DEC_MAX_BINARY_DIGITS);
            RC_BUF_LIT(b, "{\"scale\":");
            rc_fmt_i64(b, d.scale);
            RC_BUF_LIT(b, ",\"value\":\"");
            put_dec_b64(e, b, &d);
            RC_BUF_LIT(b, "\"}");
        } else {
            return put_decimal(e, b, c, &v->dec, dec_scale(c, &v->dec), err);
        }
        return RC_OK;
    case RC_V_FLOAT32: { /* widened to double, as Debezium does (3.14f is 3.140000104904175) */
        rc_value dv = {.kind = RC_V_FLOAT64, .f64 = (double)v->f32};
        rc_fmt_json_float(b, &dv);
        return RC_OK;
    }
    case RC_V_FLOAT64: rc_fmt_json_float(b, v); return RC_OK;
    case RC_V_BITS:
        if (c->type.p1 <= 1) {
            rc_buf_puts(b, v->u ? "true" : "false");
        } else { /* io.debezium.data.Bits: little-endian bytes */
            unsigned char be[8], le[8];
            size_t nb = rc_bits_bytes(c->type.p1, v->u, be);
            for (size_t i = 0; i < nb; i++) le[i] = be[nb - 1 - i];
            rc_buf_putc(b, '"');
            rc_fmt_base64(b, le, nb);
            rc_buf_putc(b, '"');
        }
        return RC_OK;
    case RC_V_BYTES:
        rc_buf_putc(b, '"');
        if (e->bin_mode == BIN_HEX) rc_fmt_hex(b, (const unsigned char *)v->s.p, v->s.n, false);
        else rc_fmt_base64(b, (const unsigned char *)v->s.p, v->s.n);
        rc_buf_putc(b, '"');
        return RC_OK;
    case RC_V_DATE: rc_fmt_i64(b, rc_date_epoch_days(&v->date)); return RC_OK;
    case RC_V_TIME: {
        bool ms = time_millis(e, c);
        rc_status st = rc_dbz_fits_unit(c, v->time.nanos, (rc_str){0}, ms, ms ? "time.precision.mode=adaptive_time_microseconds writes microseconds" : NULL, err);
        if (st == RC_OK) rc_fmt_i64(b, ms ? rc_time_micros(&v->time) / 1000 : rc_time_micros(&v->time));
        return st;
    }
    case RC_V_DATETIME: {
        dt_as as = datetime_as(e, c);
        if (as == DT_ZONED) {
            rc_buf_putc(b, '"');
            rc_fmt_datetime(b, &v->dt, 'T', false);
            rc_buf_putc(b, '"');
            return RC_OK;
        }
        const char *hint = as == DT_MILLIS ? "a column declared with the precision its values have (datetime(6)) is written in microseconds" : NULL;
        rc_status st = rc_dbz_fits_unit(c, v->dt.nanos, v->dt.zone, as != DT_MICROS, hint, err);
        if (st != RC_OK) return st;
        int64_t us;
        if (as != DT_MICROS) rc_fmt_i64(b, rc_datetime_epoch_ms(&v->dt));
        else if (rc_datetime_epoch_us(&v->dt, &us)) rc_fmt_i64(b, us);
        else {
            rc_error_set(err, RC_ERR_RANGE, RC_NO_OFFSET, "column \"%.*s\" (%.*s): year %d is beyond the microseconds since 1970 that Debezium's 64 bits hold",
                         (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, (int)v->dt.year);
            return RC_SKIP;
        }
        return RC_OK;
    }
    case RC_V_TIMESTAMP:
        rc_buf_putc(b, '"');
        rc_fmt_ts_iso(b, &v->ts);
        rc_buf_putc(b, '"');
        return RC_OK;
    case RC_V_GEOMETRY: {
        /* {"x", "y", "wkb", "srid"} for POINT columns, {"wkb", "srid"} for the others */
        rc_wkb_info gi;
        rc_buf_reset(&e->scratch);
        rc_error gerr;
        rc_error_clear(&gerr);
        if (rc_wkt_to_wkb(v->s.p, v->s.n, &e->scratch, &gi, &gerr) != RC_OK)
            return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\": %s", (int)c->name.n, c->name.p, gerr.message);
        rc_buf_putc(b, '{');
        if (!strcmp(t->name, "point")) {
            if (!gi.is_point)
                return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\" is a POINT but the value is not", (int)c->name.n, c->name.p);
            rc_value xv = {.kind = RC_V_FLOAT64, .f64 = gi.x}, yv = {.kind = RC_V_FLOAT64, .f64 = gi.y};
            RC_BUF_LIT(b, "\"x\":");
            rc_fmt_json_float(b, &xv);
            RC_BUF_LIT(b, ",\"y\":");
            rc_fmt_json_float(b, &yv);
            rc_buf_putc(b, ',');
        }
        RC_BUF_LIT(b, "\"wkb\":\"");
        rc_fmt_base64(b, (const unsigned char *)e->scratch.data, e->scratch.len);
        RC_BUF_LIT(b, "\",\"srid\":");
        if (gi.has_srid) rc_fmt_i64(b, gi.srid);
        else RC_BUF_LIT(b, "null");
        rc_buf_putc(b, '}');
        return RC_OK;
    }
    default: rc_jw_str(b, v->s.p, v->s.n); return RC_OK;
    }
}

/* The keys of ev's columns written once for a cached column list (false: write them per event). */
static bool column_keys(up_enc *e, const rc_event *ev)
{
    if (!ev->cols_id) return false;
    if (ev->cols_id == e->keys_of) return true;
    e->keys_of = NULL;
    if (ev->ncols + 1 > e->keys_cap) {
        uint32_t *no = realloc(e->keys_off, sizeof *no * (ev->ncols + 1));
        if (!no) return false;
        e->keys_off = no, e->keys_cap = ev->ncols + 1;
    }
    rc_buf_reset(&e->keys);
    for (uint32_t i = 0; i < ev->ncols; i++) {
        e->keys_off[i] = (uint32_t)e->keys.len;
        rc_jw_str(&e->keys, ev->cols[i].name.p, ev->cols[i].name.n);
        rc_buf_putc(&e->keys, ':');
    }
    e->keys_off[ev->ncols] = (uint32_t)e->keys.len;
    if (e->keys.err != RC_OK || e->keys.len > UINT32_MAX) return false;
    e->keys_of = ev->cols_id;
    return true;
}

static rc_status put_image(up_enc *e, rc_buf *b, const rc_event *ev, const rc_value *img, rc_error *err)
{
    if (!img) {
        RC_BUF_LIT(b, "null");
        return RC_OK;
    }
    bool keys = column_keys(e, ev);
    rc_buf_putc(b, '{');
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (i) rc_buf_putc(b, ',');
        if (keys) {
            rc_buf_put(b, e->keys.data + e->keys_off[i], e->keys_off[i + 1] - e->keys_off[i]);
        } else {
            rc_jw_str(b, ev->cols[i].name.p, ev->cols[i].name.n);
            rc_buf_putc(b, ':');
        }
        rc_status st = put_value(e, b, &ev->cols[i], &img[i], err);
        if (st != RC_OK) return st;
    }
    rc_buf_putc(b, '}');
    return RC_OK;
}

/* ---- names ---- */

/* "<server>.<db>.<table>" (MySQL), "<server>.<schema>.<table>" (PostgreSQL, SQL Server 1.x),
 * "<server>.<db>.<schema>.<table>" (SQL Server 2.x and later), as a valid Avro name. */
/* The name parts as one key: each part's length, then its bytes (names may hold any byte). */
static void put_parts(rc_buf *b, const rc_str *parts, size_t n)
{
    rc_buf_reset(b);
    for (size_t i = 0; i < n; i++) {
        rc_buf_put(b, &parts[i].n, sizeof parts[i].n);
        rc_buf_put(b, parts[i].p, parts[i].n);
    }
}

/* The table's Avro full name into e->name, checked against the names of other tables once per
 * run of events of one table (the name depends only on the parts compared here). */
static rc_status table_name(up_enc *e, const rc_event *ev, int conn, rc_error *err)
{
    rc_buf *out = &e->name;
    rc_str server = e->server ? (rc_str){e->server, strlen(e->server)} : ev->src.server.n ? ev->src.server : RC_STR("rowcast");
    rc_str parts[4];
    size_t n = 0;
    parts[n++] = server;
    if (conn == CONN_MYSQL) parts[n++] = ev->src.db;
    else if (conn == CONN_POSTGRES) parts[n++] = ev->src.schema;
    else {
        if (e->compat >= 20) parts[n++] = ev->src.db;
        parts[n++] = ev->src.schema;
    }
    parts[n++] = ev->src.table;
    put_parts(&e->scratch, parts, n);
    if (e->name_of.len && e->scratch.len == e->name_of.len && !memcmp(e->scratch.data, e->name_of.data, e->name_of.len)) return RC_OK;
    rc_buf_reset(&e->name_of); /* named again below; kept only when that succeeds */
    rc_buf_reset(out);
    if (!rc_avro_fullname(out, parts, n)) {
        /* remember where the adjusted name came from, to catch two tables meeting in one name */
        rc_buf_reset(&e->scratch);
        for (size_t i = 0; i < n; i++) {
            if (i) rc_buf_putc(&e->scratch, '.');
            rc_buf_put(&e->scratch, parts[i].p, parts[i].n);
        }
        rc_status st = rc_name_registry_add(e->names, e->scratch.data, e->scratch.len, out->data, out->len, err);
        if (st == RC_OK) put_parts(&e->name_of, parts, n);
        return st;
    }
    rc_status st = rc_name_registry_add(e->names, out->data, out->len, out->data, out->len, err);
    if (st == RC_OK) put_parts(&e->name_of, parts, n);
    return st;
}

/* ---- source block ---- */

typedef struct src_field {
    const char *name, *type;
    bool optional;
} src_field;

static const char *const connector_names[] = {"mysql", "postgresql", "sqlserver"};
static const char *const source_names[] = {"io.debezium.connector.mysql.Source", "io.debezium.connector.postgresql.Source",
                                           "io.debezium.connector.sqlserver.Source"};

/* Fields after the common head (version, connector, name, ts_ms, snapshot, db[, sequence,
 * ts_us, ts_ns]) per connector. */
static const src_field mysql_tail[] = {{"table", "string", true},  {"server_id", "int64", false}, {"gtid", "string", true},
                                       {"file", "string", false},  {"pos", "int64", false},       {"row", "int32", false},
                                       {"thread", "int64", true},  {"query", "string", true},     {0}};
static const src_field pg_tail[] = {{"schema", "string", false}, {"table", "string", false}, {"txId", "int64", true},
                                    {"lsn", "int64", true},       {"xmin", "int64", true},    {0}};
static const src_field ss_tail[] = {{"schema", "string", false},    {"table", "string", false},
                                    {"change_lsn", "string", true}, {"commit_lsn", "string", true},
                                    {"event_serial_no", "int64", true}, {0}};
static const src_field *const tails[] = {mysql_tail, pg_tail, ss_tail};

static void put_simple_field(rc_buf *b, const char *type, bool optional, const char *field)
{
    col_schema s = {type, NULL, 0, NULL};
    put_field_schema(b, &s, optional, field, strlen(field));
}

static void source_schema(up_enc *e, rc_buf *b, int conn)
{
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    put_simple_field(b, "string", false, "version");
    rc_buf_putc(b, ',');
    put_simple_field(b, "string", false, "connector");
    rc_buf_putc(b, ',');
    put_simple_field(b, "string", false, "name");
    rc_buf_putc(b, ',');
    put_simple_field(b, "int64", false, "ts_ms");
    RC_BUF_LIT(b, ",{\"type\":\"string\",\"optional\":true,\"name\":\"io.debezium.data.Enum\",\"version\":1,\"parameters\":{\"allowed\":\"");
    /* SnapshotRecord's values: 2.x adds first, first_in_data_collection, last_in_data_collection */
    rc_buf_puts(b, e->compat < 16   ? "true,last,false"
                   : e->compat < 20 ? "true,last,false,incremental"
                                    : "true,first,first_in_data_collection,last_in_data_collection,last,false,incremental");
    RC_BUF_LIT(b, "\"},\"default\":\"false\",\"field\":\"snapshot\"},");
    put_simple_field(b, "string", false, "db");
    if (e->compat >= 16) {
        RC_BUF_LIT(b, ",");
        put_simple_field(b, "string", true, "sequence");
    }
    if (e->compat >= 20) {
        RC_BUF_LIT(b, ",");
        put_simple_field(b, "int64", true, "ts_us");
        RC_BUF_LIT(b, ",");
        put_simple_field(b, "int64", true, "ts_ns");
    }
    for (const src_field *f = tails[conn]; f->name; f++) {
        rc_buf_putc(b, ',');
        put_simple_field(b, f->type, f->optional, f->name);
    }
    RC_BUF_LIT(b, "],\"optional\":false,\"name\":\"");
    rc_buf_puts(b, source_names[conn]);
    rc_buf_putc(b, '"');
    if (e->compat >= 30) RC_BUF_LIT(b, ",\"version\":1");
    RC_BUF_LIT(b, ",\"field\":\"source\"}");
}

static void str_or_null(rc_buf *b, rc_str s)
{
    if (s.n) rc_jw_str(b, s.p, s.n);
    else RC_BUF_LIT(b, "null");
}

/* PostgreSQL LSN "X/Y" (hex) or a decimal number, as Debezium's int64. */
static bool lsn_value(rc_str s, uint64_t *out)
{
    uint64_t hi = 0, lo = 0;
    size_t i = 0;
    bool slash = false;
    for (; i < s.n; i++) {
        char c = s.p[i];
        if (c == '/') {
            if (slash) return false;
            slash = true;
            continue;
        }
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return false;
        if (slash) lo = lo * 16 + (uint64_t)d;
        else hi = hi * 16 + (uint64_t)d;
    }
    if (!s.n) return false;
    if (slash) {
        *out = hi << 32 | lo;
        return true;
    }
    return rc_parse_u64(s.p, s.n, out) == RC_OK;
}

/* A time in µs, formatted once for the ms, µs and ns fields that repeat it. */
typedef struct us_text {
    char s[24];
    size_t n;
} us_text;

static void us_text_of(us_text *t, int64_t us)
{
    rc_buf tmp = {t->s, 0, sizeof t->s, sizeof t->s, RC_OK};
    rc_fmt_i64(&tmp, us);
    t->n = tmp.len;
}

/* Milliseconds as C's us / 1000 (toward zero): the µs digits without the last three. */
static void put_ms(rc_buf *b, const us_text *t)
{
    if (t->n - (t->s[0] == '-') <= 3) rc_buf_putc(b, '0');
    else rc_buf_put(b, t->s, t->n - 3);
}

/* Nanoseconds from microseconds as exact digits (us followed by 000): no int64 overflow
 * beyond the year 2262. */
static void put_ns(rc_buf *b, const us_text *t)
{
    rc_buf_put(b, t->s, t->n);
    if (t->n != 1 || t->s[0] != '0') RC_BUF_LIT(b, "000");
}

static void put_str_memo(rc_buf *b, str_memo *m, rc_str s)
{
    if (!m->json.len || m->raw.len != s.n || (s.n && memcmp(m->raw.data, s.p, s.n))) {
        rc_buf_reset(&m->raw), rc_buf_reset(&m->json);
        rc_buf_put(&m->raw, s.p, s.n);
        rc_jw_str(&m->json, s.p, s.n);
        if (m->raw.err != RC_OK || m->json.err != RC_OK) {
            rc_buf_reset(&m->json);
            rc_jw_str(b, s.p, s.n);
            return;
        }
    }
    rc_buf_put(b, m->json.data, m->json.len);
}

/* A snapshot marker Debezium 2.0 added (DBZ-5136: first, first_in_data_collection,
 * last_in_data_collection); 1.x writes "true" for those rows. */
static bool snapshot_2x(rc_str m)
{
    return (m.n == 5 && !memcmp(m.p, "first", 5)) || (m.n == 24 && !memcmp(m.p, "first_in_data_collection", 24)) ||
           (m.n == 23 && !memcmp(m.p, "last_in_data_collection", 23));
}

static void put_source(up_enc *e, rc_buf *b, const rc_event *ev, int conn)
{
    us_text ts;
    us_text_of(&ts, ev->has_ts ? ev->ts_us : 0);
    /* the head depends on the connector and the server name only: made again when they change */
    rc_str server = e->server ? (rc_str){e->server, strlen(e->server)} : ev->src.server.n ? ev->src.server : RC_STR("rowcast");
    rc_buf *h = &e->src_head, *of = &e->src_head_of;
    if (!h->len || of->len != server.n + 1 || of->data[0] != (char)conn || memcmp(of->data + 1, server.p, server.n) != 0) {
        rc_buf_reset(h), rc_buf_reset(of);
        rc_buf_putc(of, (char)conn);
        rc_buf_put(of, server.p, server.n);
        RC_BUF_LIT(h, "{\"version\":");
        rc_jw_str(h, e->version, strlen(e->version));
        RC_BUF_LIT(h, ",\"connector\":\"");
        rc_buf_puts(h, connector_names[conn]);
        RC_BUF_LIT(h, "\",\"name\":");
        rc_jw_str(h, server.p, server.n);
        RC_BUF_LIT(h, ",\"ts_ms\":");
        if ((h->err != RC_OK || of->err != RC_OK) && b->err == RC_OK) b->err = RC_ERR_NOMEM; /* the message fails */
        if (h->err != RC_OK || of->err != RC_OK) rc_buf_reset(h);
    }
    rc_buf_put(b, h->data, h->len);
    put_ms(b, &ts);
    RC_BUF_LIT(b, ",\"snapshot\":");
    if (ev->snapshot.n && e->compat < 20 && snapshot_2x(ev->snapshot)) RC_BUF_LIT(b, "\"true\"");
    else if (ev->snapshot.n) rc_jw_str(b, ev->snapshot.p, ev->snapshot.n);
    else rc_buf_puts(b, ev->op == RC_OP_READ ? "\"true\"" : "\"false\"");
    RC_BUF_LIT(b, ",\"db\":");
    put_str_memo(b, &e->memo_db, ev->src.db);
    uint64_t lsn = 0;
    bool has_lsn = conn == CONN_POSTGRES && lsn_value(ev->pos.lsn, &lsn);
    if (e->compat >= 16 && conn == CONN_POSTGRES) {
        /* SourceInfo.sequence(): the JSON array text ["<last commit LSN>","<LSN>"], decimal, null
         * for what is not known (Jackson's layout: no spaces) */
        uint64_t v;
        RC_BUF_LIT(b, ",\"sequence\":\"[");
        if (lsn_value(ev->pos.last_commit_lsn, &v)) {
            RC_BUF_LIT(b, "\\\"");
            rc_fmt_u64(b, v);
            RC_BUF_LIT(b, "\\\"");
        } else {
            RC_BUF_LIT(b, "null");
        }
        rc_buf_putc(b, ',');
        if (has_lsn) {
            RC_BUF_LIT(b, "\\\"");
            rc_fmt_u64(b, lsn);
            RC_BUF_LIT(b, "\\\"");
        } else {
            RC_BUF_LIT(b, "null");
        }
        RC_BUF_LIT(b, "]\"");
    } else if (e->compat >= 16) {
        RC_BUF_LIT(b, ",\"sequence\":null");
    }
    if (e->compat >= 20) {
        RC_BUF_LIT(b, ",\"ts_us\":");
        rc_buf_put(b, ts.s, ts.n);
        RC_BUF_LIT(b, ",\"ts_ns\":");
        put_ns(b, &ts);
    }
    const rc_position *p = &ev->pos;
    if (conn == CONN_MYSQL) {
        RC_BUF_LIT(b, ",\"table\":");
        str_or_null(b, ev->src.table);
        RC_BUF_LIT(b, ",\"server_id\":");
        rc_fmt_u64(b, p->has_server_id ? p->server_id : 0);
        RC_BUF_LIT(b, ",\"gtid\":");
        str_or_null(b, p->gtid);
        RC_BUF_LIT(b, ",\"file\":");
        rc_jw_str(b, p->file.p, p->file.n);
        RC_BUF_LIT(b, ",\"pos\":");
        rc_fmt_u64(b, p->has_offset ? p->offset : 0);
        RC_BUF_LIT(b, ",\"row\":");
        rc_fmt_u64(b, p->has_row ? p->row : 0);
        RC_BUF_LIT(b, ",\"thread\":");
        if (p->has_thread) rc_fmt_u64(b, p->thread);
        else RC_BUF_LIT(b, "null");
        RC_BUF_LIT(b, ",\"query\":");
        str_or_null(b, p->query);
    } else {
        RC_BUF_LIT(b, ",\"schema\":");
        put_str_memo(b, &e->memo_schema, ev->src.schema);
        RC_BUF_LIT(b, ",\"table\":");
        put_str_memo(b, &e->memo_table, ev->src.table);
        if (conn == CONN_POSTGRES) {
            uint64_t v;
            RC_BUF_LIT(b, ",\"txId\":");
            if (p->txid.n && rc_parse_u64(p->txid.p, p->txid.n, &v) == RC_OK) rc_fmt_u64(b, v);
            else RC_BUF_LIT(b, "null");
            RC_BUF_LIT(b, ",\"lsn\":");
            if (has_lsn) rc_fmt_u64(b, lsn);
            else RC_BUF_LIT(b, "null");
            RC_BUF_LIT(b, ",\"xmin\":");
            if (p->has_xmin) rc_fmt_u64(b, p->xmin);
            else RC_BUF_LIT(b, "null");
        } else {
            RC_BUF_LIT(b, ",\"change_lsn\":");
            str_or_null(b, p->lsn);
            RC_BUF_LIT(b, ",\"commit_lsn\":");
            str_or_null(b, p->lsn);
            RC_BUF_LIT(b, ",\"event_serial_no\":");
            if (p->has_row) rc_fmt_u64(b, p->row);
            else RC_BUF_LIT(b, "null");
        }
    }
    rc_buf_putc(b, '}');
}

/* ---- schemas, cached per table ---- */

static void image_schema(up_enc *e, rc_buf *b, const rc_event *ev, const char *prefix, size_t pn, const char *field,
                         rc_buf *params)
{
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (i) rc_buf_putc(b, ',');
        put_column_schema(e, b, &ev->cols[i], ev->cols[i].nullable, params);
    }
    RC_BUF_LIT(b, "],\"optional\":true,\"name\":\"");
    rc_jw_str_body(b, prefix, pn);
    RC_BUF_LIT(b, ".Value\",\"field\":\"");
    rc_buf_puts(b, field);
    RC_BUF_LIT(b, "\"}");
}

static void transaction_schema(up_enc *e, rc_buf *b)
{
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[{\"type\":\"string\",\"optional\":false,\"field\":\"id\"},"
                  "{\"type\":\"int64\",\"optional\":false,\"field\":\"total_order\"},"
                  "{\"type\":\"int64\",\"optional\":false,\"field\":\"data_collection_order\"}],\"optional\":true");
    if (e->compat >= 20) RC_BUF_LIT(b, ",\"name\":\"event.block\",\"version\":1");
    RC_BUF_LIT(b, ",\"field\":\"transaction\"}");
}

static void envelope_schema(up_enc *e, rc_buf *b, const rc_event *ev, int conn, const char *prefix, size_t pn)
{
    rc_buf params;
    rc_buf_init(&params, 0);
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    image_schema(e, b, ev, prefix, pn, "before", &params);
    rc_buf_putc(b, ',');
    image_schema(e, b, ev, prefix, pn, "after", &params);
    rc_buf_putc(b, ',');
    source_schema(e, b, conn);
    rc_buf_putc(b, ',');
    if (e->compat >= 20) {
        transaction_schema(e, b);
        rc_buf_putc(b, ',');
    }
    put_simple_field(b, "string", false, "op");
    rc_buf_putc(b, ',');
    put_simple_field(b, "int64", true, "ts_ms");
    if (e->compat >= 20) {
        rc_buf_putc(b, ',');
        put_simple_field(b, "int64", true, "ts_us");
        rc_buf_putc(b, ',');
        put_simple_field(b, "int64", true, "ts_ns");
    } else {
        rc_buf_putc(b, ',');
        transaction_schema(e, b);
    }
    RC_BUF_LIT(b, "],\"optional\":false,\"name\":\"");
    rc_jw_str_body(b, prefix, pn);
    RC_BUF_LIT(b, ".Envelope\"");
    if (e->compat >= 20) RC_BUF_LIT(b, ",\"version\":2");
    rc_buf_putc(b, '}');
    rc_buf_fini(&params);
}

static void key_schema(up_enc *e, rc_buf *b, const rc_event *ev, const char *prefix, size_t pn)
{
    rc_buf params;
    rc_buf_init(&params, 0);
    uint32_t idx[64], n = rc_event_pk(ev, idx, 64);
    if (n > 64) n = 64;
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    for (uint32_t k = 0; k < n; k++) {
        if (k) rc_buf_putc(b, ',');
        put_column_schema(e, b, &ev->cols[idx[k]], false, &params);
    }
    RC_BUF_LIT(b, "],\"optional\":false,\"name\":\"");
    rc_jw_str_body(b, prefix, pn);
    RC_BUF_LIT(b, ".Key\"}");
    rc_buf_fini(&params);
}

/* Cached schema text: the signature is the prefix, connector and every column's name, type
 * declaration, nullability and key position. */
static rc_status cached_schema(up_enc *e, up_slot *slots, bool key, const rc_event *ev, int conn, const char *prefix,
                               size_t pn, const char **text, size_t *n, rc_error *err)
{
    /* the same cached column list and name as the last message's: its slot, without the
     * signature (most of the work here) */
    up_memo *m = key ? &e->key_memo : &e->value_memo;
    if (ev->cols_id && m->cols_id == ev->cols_id && m->conn == conn && m->pn == pn && !memcmp(m->prefix, prefix, pn)) {
        *text = m->slot->text;
        *n = m->slot->text_n;
        return RC_OK;
    }
    rc_buf *s = &e->sig;
    rc_buf_reset(s);
    rc_buf_put(s, prefix, pn);
    rc_buf_putc(s, (char)('0' + conn));
    for (uint32_t i = 0; i < ev->ncols; i++) {
        rc_buf_putc(s, '\0');
        rc_buf_put(s, ev->cols[i].name.p, ev->cols[i].name.n);
        rc_buf_putc(s, '\0');
        rc_buf_put(s, ev->cols[i].type.decl.p, ev->cols[i].type.decl.n);
        rc_buf_putc(s, ev->cols[i].nullable ? '?' : '!');
        rc_fmt_u64(s, ev->cols[i].pk);
    }
    if (s->err != RC_OK) return rc_error_set(err, s->err, RC_NO_OFFSET, "out of memory");
    uint64_t h = rc_hash64(s->data, s->len, 0);
    up_slot *sl = &slots[h % SCHEMA_SLOTS];
    if (!(sl->text && sl->hash == h && sl->sig_n == s->len && !memcmp(sl->sig, s->data, s->len))) {
        rc_buf t;
        rc_buf_init(&t, 0);
        if (key) key_schema(e, &t, ev, prefix, pn);
        else envelope_schema(e, &t, ev, conn, prefix, pn);
        char *sig = malloc(s->len + 1);
        if (!sig || t.err != RC_OK) {
            free(sig);
            rc_buf_fini(&t);
            return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        }
        memcpy(sig, s->data, s->len);
        free(sl->sig), free(sl->text);
        *sl = (up_slot){h, sig, t.data, s->len, t.len};
        e->value_memo.cols_id = e->key_memo.cols_id = NULL; /* a memo may have named this slot */
    }
    *text = sl->text;
    *n = sl->text_n;
    if (ev->cols_id && pn <= sizeof m->prefix) {
        m->cols_id = ev->cols_id, m->conn = conn, m->pn = pn, m->slot = sl;
        memcpy(m->prefix, prefix, pn);
    }
    return RC_OK;
}

/* ---- messages ---- */

/* The per-transaction count of extra messages starts again when the event's transaction is
 * not the last one's. */
static void tx_enter(up_enc *e, const rc_event *ev)
{
    rc_str tx = ev->pos.txid;
    if (e->tx_of.len != tx.n || memcmp(e->tx_of.data, tx.p, tx.n)) {
        rc_buf_reset(&e->tx_of);
        rc_buf_put(&e->tx_of, tx.p, tx.n);
        e->tx_extra = 0;
    }
}

/* The transaction id as Debezium writes it (the body of a JSON string). */
static void put_tx_id(up_enc *e, rc_buf *b, const rc_event *ev)
{
    uint64_t lsn;
    rc_jw_str_body(b, ev->pos.txid.p, ev->pos.txid.n);
    if (e->compat >= 20 && connector_of(ev->src.kind) == CONN_POSTGRES && lsn_value(ev->pos.lsn, &lsn)) {
        rc_buf_putc(b, ':');
        rc_fmt_u64(b, lsn);
    }
}

/* The transaction block, or null when metadata is off or the event has no transaction. The
 * PostgreSQL connector of 2.x and later writes the id as "<txId>:<this event's LSN>"
 * (PostgresTransactionMonitor), 1.x the txId alone. */
static void put_tx(up_enc *e, rc_buf *b, const rc_event *ev)
{
    if (!e->tx_meta || !ev->pos.txid.n) {
        RC_BUF_LIT(b, "null");
        return;
    }
    tx_enter(e, ev);
    /* the messages before it in the transaction: its index and one more for each key-changing
     * update before it (rc_dbz_up_split), modulo 2^32 as the index is */
    uint64_t order = ev->pos.has_tx_index ? (uint64_t)(uint32_t)(ev->pos.tx_index + e->tx_extra) + 1 : 1;
    RC_BUF_LIT(b, "{\"id\":\"");
    put_tx_id(e, b, ev);
    RC_BUF_LIT(b, "\",\"total_order\":");
    rc_fmt_u64(b, order);
    RC_BUF_LIT(b, ",\"data_collection_order\":");
    rc_fmt_u64(b, rc_dbz_tx_count(e->tx, ev));
    rc_buf_putc(b, '}');
}

/* The table's schema-name prefix into `out` (NUL-terminated, at most cap-1 bytes). */
static rc_status prefix_of(up_enc *e, const rc_event *ev, int conn, char *out, size_t cap, size_t *n, rc_error *err)
{
    rc_status st = table_name(e, ev, conn, err);
    if (st != RC_OK) return st;
    *n = e->name.len < cap ? e->name.len : cap - 1;
    memcpy(out, e->name.data, *n);
    out[*n] = '\0';
    return RC_OK;
}

/* skipped.operations; by default Debezium 2.x's "t" for PostgreSQL (its truncate events). */
static bool skipped(const up_enc *e, const rc_event *ev, int conn)
{
    if (e->skip_set) return e->skip_ops >> ev->op & 1;
    return ev->op == RC_OP_TRUNCATE && conn == CONN_POSTGRES && e->compat >= 20;
}

const char *rc_dbz_up_op(const rc_event *ev)
{
    switch (ev->op) {
    case RC_OP_INSERT: return "c";
    case RC_OP_READ: return "r";
    case RC_OP_UPDATE: return "u";
    case RC_OP_DELETE: return "d";
    case RC_OP_TRUNCATE: return "t";
    default: return NULL; /* DDL, heartbeats and transaction markers go to other topics */
    }
}

/* The table's topic prefix into prefix[0..*pn) and, with schemas on, the opening of
 * {"schema": <the table's cached value or key schema>, "payload": ... */
static rc_status open_envelope(up_enc *e, up_slot *slots, bool key, const rc_event *ev, int conn, char *prefix, size_t cap, size_t *pn,
                               rc_buf *b, rc_error *err)
{
    rc_status st = prefix_of(e, ev, conn, prefix, cap, pn, err);
    if (st != RC_OK || !e->schemas) return st;
    const char *text = NULL;
    size_t n = 0;
    if ((st = cached_schema(e, slots, key, ev, conn, prefix, *pn, &text, &n, err)) != RC_OK) return st;
    RC_BUF_LIT(b, "{\"schema\":");
    rc_buf_put(b, text, n);
    RC_BUF_LIT(b, ",\"payload\":");
    return RC_OK;
}

rc_status rc_dbz_up_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    up_enc *e = p;
    const char *op = rc_dbz_up_op(ev);
    if (ev->op == RC_OP_HEARTBEAT) return rc_dbz_hb_value(p, ev, b, err);
    if (!op) return rc_dbz_topics_value(p, e->tx, ev, b, err);
    int conn = connector_of(ev->src.kind);
    if (skipped(e, ev, conn)) return RC_SKIP;
    if (conn < 0)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "upstream Debezium has no connector layout for %s sources here",
                            rc_dbkind_name(ev->src.kind));
    char prefix[256];
    size_t pn;
    rc_status st = open_envelope(e, e->value_slots, false, ev, conn, prefix, sizeof prefix, &pn, b, err);
    if (st != RC_OK) return st;
    bool has_before = ev->op == RC_OP_UPDATE || ev->op == RC_OP_DELETE;
    bool has_after = ev->op == RC_OP_INSERT || ev->op == RC_OP_READ || ev->op == RC_OP_UPDATE;
    RC_BUF_LIT(b, "{\"before\":");
    if ((st = put_image(e, b, ev, has_before ? ev->before : NULL, err)) != RC_OK) return st;
    RC_BUF_LIT(b, ",\"after\":");
    if ((st = put_image(e, b, ev, has_after ? ev->after : NULL, err)) != RC_OK) return st;
    RC_BUF_LIT(b, ",\"source\":");
    put_source(e, b, ev, conn);
    if (e->compat >= 20) {
        RC_BUF_LIT(b, ",\"transaction\":");
        put_tx(e, b, ev);
    }
    RC_BUF_LIT(b, ",\"op\":\"");
    rc_buf_puts(b, op);
    RC_BUF_LIT(b, "\",\"ts_ms\":");
    us_text proc;
    us_text_of(&proc, ev->has_proc ? ev->proc_us : ev->has_ts ? ev->ts_us : 0);
    put_ms(b, &proc);
    if (e->compat >= 20) {
        RC_BUF_LIT(b, ",\"ts_us\":");
        rc_buf_put(b, proc.s, proc.n);
        RC_BUF_LIT(b, ",\"ts_ns\":");
        put_ns(b, &proc);
    } else {
        RC_BUF_LIT(b, ",\"transaction\":");
        put_tx(e, b, ev);
    }
    rc_buf_putc(b, '}');
    if (e->schemas) rc_buf_putc(b, '}');
    if (b->err != RC_OK) return rc_error_set(err, b->err, RC_NO_OFFSET, "output buffer: %s", rc_status_name(b->err));
    return RC_OK;
}

/* The key payload {"<key column>":<value>,...} of image img. */
static rc_status put_key_fields(up_enc *e, rc_buf *b, const rc_event *ev, const rc_value *img, rc_error *err)
{
    uint32_t idx[64], n = rc_event_pk(ev, idx, 64);
    if (n > 64) n = 64;
    rc_buf_putc(b, '{');
    for (uint32_t k = 0; k < n; k++) {
        if (k) rc_buf_putc(b, ',');
        rc_jw_str(b, ev->cols[idx[k]].name.p, ev->cols[idx[k]].name.n);
        rc_buf_putc(b, ':');
        /* a key value the format cannot hold is an error here: RC_SKIP would mean a null key */
        rc_status st = put_value(e, b, &ev->cols[idx[k]], &img[idx[k]], err);
        if (st != RC_OK) return st == RC_SKIP ? err->code : st;
    }
    rc_buf_putc(b, '}');
    return RC_OK;
}

rc_status rc_dbz_up_key(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    up_enc *e = p;
    if (ev->op == RC_OP_HEARTBEAT) return rc_dbz_hb_key(p, ev, b, err);
    if (!rc_dbz_up_op(ev)) return rc_dbz_topics_key(p, ev, b, err);
    const rc_value *img = ev->op == RC_OP_DELETE ? ev->before : ev->after;
    if (!img || !rc_oms_has_pk(ev)) return RC_SKIP; /* no key: Debezium writes a null key */
    int conn = connector_of(ev->src.kind);
    if (conn < 0) return RC_SKIP;
    char prefix[256];
    size_t pn;
    rc_status st = open_envelope(e, e->key_slots, true, ev, conn, prefix, sizeof prefix, &pn, b, err);
    if (st != RC_OK) return st;
    if ((st = put_key_fields(e, b, ev, img, err)) != RC_OK) return st;
    if (e->schemas) rc_buf_putc(b, '}');
    if (b->err != RC_OK) return rc_error_set(err, b->err, RC_NO_OFFSET, "output buffer: %s", rc_status_name(b->err));
    return RC_OK;
}

/* ---- an UPDATE that changes the key ---- */

/* A string as Kafka Connect's Values writes it (SimpleHeaderConverter, the worker's default
 * header.converter): quoted, only backslash and quote escaped. */
static void values_str(rc_buf *b, const char *p, size_t n)
{
    rc_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\' || p[i] == '"') rc_buf_putc(b, '\\');
        rc_buf_putc(b, p[i]);
    }
    rc_buf_putc(b, '"');
}

/* Values.convertToString of the value at node i of a JSON value as the envelope writes it:
 * strings (and bytes, base64) as values_str, structs and arrays with their members so,
 * numbers, booleans and null as in JSON. */
static void values_text(rc_buf *b, const rc_json *j, uint32_t i)
{
    const rc_jnode *nd = rc_json_node(j, i);
    if (nd->type == RC_J_STRING) {
        values_str(b, nd->s, nd->n);
    } else if (nd->type == RC_J_ARRAY || nd->type == RC_J_OBJECT) {
        bool obj = nd->type == RC_J_OBJECT;
        rc_buf_putc(b, obj ? '{' : '[');
        uint32_t k = 0;
        for (uint32_t c = nd->first; c; c = rc_json_node(j, c)->next, k++) {
            if (obj && k % 2) rc_buf_putc(b, ':');
            else if (k) rc_buf_putc(b, ',');
            values_text(b, j, c);
        }
        rc_buf_putc(b, obj ? '}' : ']');
    } else {
        rc_json_write(j, i, b);
    }
}

/* The key struct of image img as the __debezium.oldkey / newkey header holds it (Values'
 * text of the Struct: {"id":2}), copied into `a`; a Decimal is its BigDecimal's toString(). */
static bool header_key(up_enc *e, const rc_event *ev, const rc_value *img, rc_arena *a, rc_str *out)
{
    uint32_t idx[64], n = rc_event_pk(ev, idx, 64);
    if (n > 64) n = 64;
    rc_buf *h = &e->hdr;
    rc_buf_reset(h);
    rc_json j;
    rc_json_init(&j, a);
    bool ok = true;
    rc_buf_putc(h, '{');
    for (uint32_t k = 0; k < n && ok; k++) {
        const rc_column *c = &ev->cols[idx[k]];
        const rc_value *v = &img[idx[k]];
        if (k) rc_buf_putc(h, ',');
        values_str(h, c->name.p, c->name.n);
        rc_buf_putc(h, ':');
        rc_decimal d;
        rc_error err;
        rc_error_clear(&err);
        if (v->kind == RC_V_DECIMAL && e->dec_mode == DEC_PRECISE && !(c->type.p2 < 0 && c->type.info->family == RC_FAM_PG)) {
            if ((ok = rescale(&v->dec, dec_scale(c, &v->dec), &e->name, &d))) rc_fmt_dec_java(h, &d);
        } else if (v->kind == RC_V_UINT && e->unsigned_precise) {
            rc_fmt_u64(h, v->u);
        } else {
            rc_buf_reset(&e->hval);
            ok = put_value(e, &e->hval, c, v, &err) == RC_OK && e->hval.err == RC_OK &&
                 rc_json_parse(&j, e->hval.data, e->hval.len, &err) == RC_OK;
            if (ok) values_text(h, &j, 0);
        }
    }
    rc_buf_putc(h, '}');
    rc_json_fini(&j);
    char *p = ok && h->err == RC_OK ? rc_arena_alloc(a, h->len) : NULL;
    if (!p) return false;
    memcpy(p, h->data, h->len);
    *out = (rc_str){p, h->len};
    return true;
}

/* RelationalChangeRecordEmitter: an UPDATE whose old key is known and differs from the new one
 * is written as a delete of the old key (header __debezium.newkey, then its tombstone) and a
 * create of the new one (header __debezium.oldkey), both with the update's source block. */
size_t rc_dbz_up_split(void *p, const rc_event *ev, rc_event_part *parts, rc_arena *a)
{
    up_enc *e = p;
    if (ev->op != RC_OP_UPDATE || !ev->before || !ev->after || connector_of(ev->src.kind) < 0 || !rc_oms_has_pk(ev)) return 0;
    uint32_t idx[64], n = rc_event_pk(ev, idx, 64);
    if (n > 64) n = 64;
    for (uint32_t k = 0; k < n; k++) /* a key column's old value not sent: the old key is not known */
        if (ev->before[idx[k]].kind == RC_V_NULL || ev->before[idx[k]].kind == RC_V_UNAVAILABLE) return 0;
    rc_error err;
    rc_error_clear(&err);
    rc_buf_reset(&e->key_old), rc_buf_reset(&e->key_new);
    /* a key that cannot be written: the update says so as one event */
    if (put_key_fields(e, &e->key_old, ev, ev->before, &err) != RC_OK || put_key_fields(e, &e->key_new, ev, ev->after, &err) != RC_OK ||
        e->key_old.err != RC_OK || e->key_new.err != RC_OK)
        return 0;
    if (e->key_old.len == e->key_new.len && !memcmp(e->key_old.data, e->key_new.data, e->key_old.len)) return 0;
    rc_str oldk, newk;
    if (!header_key(e, ev, ev->before, a, &oldk) || !header_key(e, ev, ev->after, a, &newk)) return 0;
    parts[0] = (rc_event_part){*ev, "__debezium.newkey", newk};
    parts[0].ev.op = RC_OP_DELETE, parts[0].ev.after = NULL, parts[0].ev.changed = NULL;
    parts[1] = (rc_event_part){*ev, "__debezium.oldkey", oldk};
    parts[1].ev.op = RC_OP_INSERT, parts[1].ev.before = NULL, parts[1].ev.changed = NULL, parts[1].ev.before_key_only = false;
    /* two messages in the transaction's total_order: the delete keeps the update's place
     * (index - 1 with the one more counted from here on), the create the next one */
    if (e->tx_meta && ev->pos.txid.n && ev->pos.has_tx_index) {
        tx_enter(e, ev);
        e->tx_extra++;
        parts[0].ev.pos.tx_index--;
    }
    return 2;
}

/* ---- pieces for CloudEvents ---- */

const char *rc_dbz_up_connector(const rc_event *ev)
{
    int conn = connector_of(ev->src.kind);
    return conn < 0 ? NULL : connector_names[conn];
}

rc_str rc_dbz_up_server(void *p, const rc_event *ev)
{
    up_enc *e = p;
    return e->server ? (rc_str){e->server, strlen(e->server)} : ev->src.server.n ? ev->src.server : RC_STR("rowcast");
}

void rc_dbz_up_put_source(void *p, rc_buf *b, const rc_event *ev) { put_source(p, b, ev, connector_of(ev->src.kind)); }

rc_status rc_dbz_up_put_image(void *p, rc_buf *b, const rc_event *ev, const rc_value *img, rc_error *err)
{
    return put_image(p, b, ev, img, err);
}

void rc_dbz_up_put_transaction(void *p, rc_buf *b, const rc_event *ev) { put_tx(p, b, ev); }

void rc_dbz_up_put_tx_id(void *p, rc_buf *b, const rc_event *ev) { put_tx_id(p, b, ev); }

void rc_dbz_up_put_source_schema(void *p, rc_buf *b, const rc_event *ev) { source_schema(p, b, connector_of(ev->src.kind)); }

bool rc_dbz_up_tx_meta(void *p) { return ((up_enc *)p)->tx_meta; }

bool rc_dbz_up_schema_changes(void *p) { return ((up_enc *)p)->schema_changes; }

void rc_dbz_up_put_struct1_schema(rc_buf *b, const char *name, bool versioned, const char *ftype, const char *field)
{
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    put_simple_field(b, ftype, false, field);
    RC_BUF_LIT(b, "],\"optional\":false,\"name\":\"");
    rc_buf_puts(b, name);
    rc_buf_putc(b, '"');
    if (versioned) RC_BUF_LIT(b, ",\"version\":1");
    rc_buf_putc(b, '}');
}

/* One value in Avro binary, with the Avro type behind its Connect schema. */
static rc_status avro_value(up_enc *e, rc_buf *b, const rc_column *c, const rc_value *v, rc_error *err)
{
    bool optional = c->nullable;
    if (v->kind == RC_V_UNAVAILABLE) return unavailable(e, c, b, true, err);
    dbz_pg_kind pk = pg_kind(e, c);
    rc_value g;
    if (v->kind != RC_V_NULL && (pk == DBZ_PG_ARRAY || pk == DBZ_PG_UNKNOWN)) {
        rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "column \"%.*s\" (%.*s): rowcast does not write this PostgreSQL type in Avro yet",
                     (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p);
        return RC_SKIP;
    }
    if (pk == DBZ_PG_POINT && v->kind == RC_V_TEXT) { /* the Point record, from the point's WKT */
        rc_status st = rc_dbz_pg_point_wkt(c, v->s, &e->pgbuf, err);
        if (st != RC_OK) return st;
        g = (rc_value){.kind = RC_V_GEOMETRY, .s = {e->pgbuf.data, e->pgbuf.len}};
        v = &g;
    }
    /* PostgreSQL's NaN and ±infinity have values of their own in Debezium (pg_special) */
    bool null = v->kind == RC_V_NULL || (v->kind == RC_V_INVALID && c->type.info->family != RC_FAM_PG);
    if (null && !optional)
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\" is not nullable but the value is null or invalid",
                            (int)c->name.n, c->name.p);
    if (optional) rc_avro_long(b, null ? 0 : 1);
    if (null) return RC_OK;
    switch (v->kind) {
    case RC_V_BOOL: rc_buf_putc(b, v->b ? 1 : 0); return RC_OK;
    case RC_V_INT: rc_avro_long(b, v->i); return RC_OK;
    case RC_V_BITS:
        if (c->type.p1 <= 1) {
            rc_buf_putc(b, v->u ? 1 : 0);
        } else {
            unsigned char be[8], le[8];
            size_t nb = rc_bits_bytes(c->type.p1, v->u, be);
            for (size_t i = 0; i < nb; i++) le[i] = be[nb - 1 - i];
            rc_avro_string(b, (const char *)le, nb);
        }
        return RC_OK;
    case RC_V_FLOAT32:
        if (pk == DBZ_PG_FLOAT4) { /* Avro float: 4 bytes little-endian */
            uint32_t u;
            memcpy(&u, &v->f32, 4);
            for (int i = 0; i < 4; i++) rc_buf_putc(b, (char)(u >> (8 * i)));
        } else {
            rc_avro_double(b, (double)v->f32);
        }
        return RC_OK;
    case RC_V_FLOAT64: rc_avro_double(b, v->f64); return RC_OK;
    case RC_V_DATE: rc_avro_long(b, rc_date_epoch_days(&v->date)); return RC_OK;
    case RC_V_TIME: rc_avro_long(b, time_millis(e, c) ? rc_time_micros(&v->time) / 1000 : rc_time_micros(&v->time)); return RC_OK;
    case RC_V_GEOMETRY: { /* Point {x, y, wkb?, srid?} or Geometry {wkb, srid?} */
        rc_wkb_info gi;
        rc_buf_reset(&e->scratch);
        rc_error gerr;
        rc_error_clear(&gerr);
        if (rc_wkt_to_wkb(v->s.p, v->s.n, &e->scratch, &gi, &gerr) != RC_OK)
            return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column \"%.*s\": %s", (int)c->name.n, c->name.p, gerr.message);
        bool point = !strcmp(c->type.info->name, "point");
        if (point) {
            rc_avro_double(b, gi.x);
            rc_avro_double(b, gi.y);
            rc_avro_long(b, 1);
        }
        rc_avro_string(b, e->scratch.data, e->scratch.len);
        rc_avro_long(b, gi.has_srid ? 1 : 0);
        if (gi.has_srid) rc_avro_long(b, gi.srid);
        return RC_OK;
    }
    default: break;
    }
    /* everything else: the JSON rendering tells the representation (number, or string/bytes) */
    rc_buf t;
    rc_buf_init(&t, 0);
    rc_status st = put_value(e, &t, c, v, err);
    if (st == RC_OK && t.err != RC_OK) st = rc_error_set(err, t.err, RC_NO_OFFSET, "out of memory");
    if (st != RC_OK) {
        rc_buf_fini(&t);
        return st;
    }
    if (v->kind == RC_V_INVALID && t.len == 4 && !memcmp(t.data, "null", 4)) { /* no value of the type: no Avro one either */
        rc_buf_fini(&t);
        rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "column \"%.*s\" (%.*s): the value %.*s has no Avro value", (int)c->name.n,
                     c->name.p, (int)c->type.decl.n, c->type.decl.p, (int)v->s.n, v->s.p);
        return RC_SKIP;
    }
    col_schema s;
    rc_buf params;
    rc_buf_init(&params, 0);
    col_schema_of(e, c, &s, &params);
    rc_buf_fini(&params);
    if (!strcmp(s.type, "boolean")) { /* bit(1) */
        rc_buf_putc(b, t.len == 4 ? 1 : 0);
    } else if (!strcmp(s.type, "int64") || !strcmp(s.type, "int32")) {
        int64_t x = 0;
        rc_parse_i64(t.data, t.len, &x);
        rc_avro_long(b, x);
    } else if (!strcmp(s.type, "double")) {
        char tmp[64];
        size_t n = t.len < sizeof tmp - 1 ? t.len : sizeof tmp - 1;
        memcpy(tmp, t.data, n);
        tmp[n] = '\0';
        rc_avro_double(b, strtod(tmp[0] == '"' ? tmp + 1 : tmp, NULL));
    } else if (!strcmp(s.type, "struct")) { /* VariableScaleDecimal {scale, value} */
        rc_buf_reset(&e->scratch);
        rc_dec_unscaled_bytes(&e->scratch, &v->dec);
        rc_avro_long(b, v->dec.scale);
        rc_avro_string(b, e->scratch.data, e->scratch.len);
    } else if (!strcmp(s.type, "bytes")) { /* the JSON text is "<base64>": write the bytes */
        rc_arena a;
        rc_arena_init(&a);
        rc_str raw = {"", 0};
        size_t bad;
        if (t.len >= 2) rc_base64_decode(t.data + 1, t.len - 2, &a, &raw, &bad);
        rc_avro_string(b, raw.p, raw.n);
        rc_arena_fini(&a);
    } else { /* string: the value's text without JSON escaping */
        bool pg_own = pk == DBZ_PG_TIMETZ || pk == DBZ_PG_MONEY || pk == DBZ_PG_INTERVAL || pk == DBZ_PG_BITS;
        if (v->kind == RC_V_DECIMAL || v->kind == RC_V_TIMESTAMP || v->kind == RC_V_UINT || v->kind == RC_V_DATETIME || pg_own ||
            v->kind == RC_V_INVALID) { /* written by put_value: quoted ASCII */
            rc_avro_string(b, t.data + 1, t.len - 2); /* quoted ASCII */
        } else if (v->kind == RC_V_BYTES) {
            rc_avro_string(b, t.data + 1, t.len - 2);
        } else {
            rc_avro_string(b, v->s.p, v->s.n);
        }
    }
    rc_buf_fini(&t);
    return RC_OK;
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

bool rc_dbz_up_schemas(void *p) { return ((up_enc *)p)->schemas; }
int rc_dbz_up_compat(void *p) { return ((up_enc *)p)->compat; }

bool rc_dbz_up_tombstone(void *p, const rc_event *ev)
{
    up_enc *e = p;
    return e->tombstones && ev->op == RC_OP_DELETE && connector_of(ev->src.kind) >= 0;
}
