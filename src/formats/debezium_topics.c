/* Upstream Debezium's topics beside the tables' (docs/formats/debezium.md, "Transaction and
 * schema-change topics"):
 *  - the transaction-metadata topic <server>.transaction (TransactionMonitor, with
 *    provide.transaction.metadata): key {"id"}, value {"status":"BEGIN"|"END","id",
 *    "event_count","data_collections"[,"ts_ms" from 2.x]} for the BEGIN and COMMIT markers;
 *  - the schema-change topic <server> (the MySQL connector's SchemaChangeKey/Value, partition
 *    0): key {"databaseName"}, value {"source","ts_ms","databaseName","schemaName","ddl",
 *    "tableChanges"} for DDL events, tableChanges as ConnectTableChangeSerializer fills them
 *    from the structure the event carries.
 * Each with its Kafka Connect schema when schemas are on (names and field order of Debezium's
 * SchemaFactory; "version":1 in the 3.x layouts, as the heartbeat's). The per-table counts of
 * the open transaction (data_collection_order, the END's data_collections) and the transaction
 * id are kept here, for this file and the change events' transaction block (debezium_up_tx.c). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "core/ddl.h"
#include "core/fmt.h"
#include "core/jsonw.h"

/* ---- the open transaction's counts ---- */

struct rc_dbz_tx {
    rc_buf id;    /* the transaction counted */
    rc_buf names; /* the tables' data_collection names, one after another */
    struct tx_table {
        size_t off, len;
        uint64_t count;
    } *tables;
    size_t ntables, cap;
    uint64_t total;
};

rc_dbz_tx *rc_dbz_tx_new(void)
{
    rc_dbz_tx *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    rc_buf_init(&t->id, 0);
    rc_buf_init(&t->names, 0);
    return t;
}

void rc_dbz_tx_free(rc_dbz_tx *t)
{
    if (!t) return;
    rc_buf_fini(&t->id);
    rc_buf_fini(&t->names);
    free(t->tables);
    free(t);
}

/* The counts start again when the event's transaction is not the one counted. */
static void tx_enter(rc_dbz_tx *t, const rc_event *ev)
{
    rc_str id = ev->pos.txid;
    if (t->id.len == id.n && (!id.n || !memcmp(t->id.data, id.p, id.n))) return;
    rc_buf_reset(&t->id);
    rc_buf_put(&t->id, id.p, id.n);
    rc_buf_reset(&t->names);
    t->ntables = 0;
    t->total = 0;
}

/* The parts of Debezium's TableId: db.table for MySQL, schema.table for PostgreSQL,
 * db.schema.table for SQL Server (absent parts have n 0). */
static void table_parts(const rc_event *ev, rc_str parts[3])
{
    parts[0] = ev->src.kind == RC_DB_POSTGRES ? (rc_str){0} : ev->src.db;
    parts[1] = ev->src.schema;
    parts[2] = ev->src.table;
}

/* The data collection name (TableId.identifier()). */
static void collection_name(const rc_event *ev, rc_buf *b)
{
    rc_str parts[3];
    table_parts(ev, parts);
    bool first = true;
    for (int i = 0; i < 3; i++) {
        if (!parts[i].n) continue;
        if (!first) rc_buf_putc(b, '.');
        rc_buf_put(b, parts[i].p, parts[i].n);
        first = false;
    }
}

uint64_t rc_dbz_tx_count(rc_dbz_tx *t, const rc_event *ev)
{
    tx_enter(t, ev);
    t->total++;
    size_t mark = t->names.len;
    collection_name(ev, &t->names);
    size_t len = t->names.len - mark;
    for (size_t i = 0; i < t->ntables; i++)
        if (t->tables[i].len == len && !memcmp(t->names.data + t->tables[i].off, t->names.data + mark, len)) {
            t->names.len = mark;
            return ++t->tables[i].count;
        }
    if (t->ntables == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        struct tx_table *n = realloc(t->tables, cap * sizeof *n);
        if (!n) return t->names.len = mark, 1; /* out of memory: the order is all it costs */
        t->tables = n, t->cap = cap;
    }
    t->tables[t->ntables++] = (struct tx_table){mark, len, 1};
    return 1;
}

void rc_dbz_put_tx_id(up_enc *e, rc_buf *b, const rc_event *ev)
{
    uint64_t lsn;
    rc_jw_str_body(b, ev->pos.txid.p, ev->pos.txid.n);
    if (e->compat >= 20 && connector_of(ev->src.kind) == CONN_POSTGRES && rc_dbz_lsn_value(ev->pos.lsn, &lsn)) {
        rc_buf_putc(b, ':');
        rc_fmt_u64(b, lsn);
    }
}

/* ---- schemas ---- */

/* The end of a struct schema: "],"optional":..,"name":..[,"version":1]" and the field name. */
static void close_struct(rc_buf *b, bool optional, const char *name, bool versioned, const char *fieldname)
{
    RC_BUF_LIT(b, "],\"optional\":");
    rc_buf_puts(b, optional ? "true" : "false");
    if (name) {
        RC_BUF_LIT(b, ",\"name\":\"");
        rc_buf_puts(b, name);
        rc_buf_putc(b, '"');
        if (versioned) RC_BUF_LIT(b, ",\"version\":1");
    }
    if (fieldname) {
        RC_BUF_LIT(b, ",\"field\":\"");
        rc_buf_puts(b, fieldname);
        rc_buf_putc(b, '"');
    }
    rc_buf_putc(b, '}');
}

static void tx_value_schema(rc_buf *b, int compat)
{
    bool v = compat >= 30;
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    static const rc_dbz_field head[] = {{"status", "string", false}, {"id", "string", false}, {"event_count", "int64", true}, {0}};
    static const rc_dbz_field collection[] = {{"data_collection", "string", false}, {"event_count", "int64", false}, {0}};
    rc_dbz_put_simple_fields(b, head, false);
    RC_BUF_LIT(b, ",{\"type\":\"array\",\"items\":{\"type\":\"struct\",\"fields\":[");
    rc_dbz_put_simple_fields(b, collection, false);
    /* 2.x: SchemaFactory's optional "event.collection"; 1.x: TransactionMonitor's unnamed struct */
    close_struct(b, compat >= 20, compat >= 20 ? "event.collection" : NULL, v, NULL);
    RC_BUF_LIT(b, ",\"optional\":true,\"field\":\"data_collections\"}");
    if (compat >= 20) {
        rc_buf_putc(b, ',');
        rc_dbz_put_simple_field(b, "int64", false, "ts_ms");
    }
    close_struct(b, false, "io.debezium.connector.common.TransactionMetadataValue", v, NULL);
}

static void column_schema(rc_buf *b, bool v)
{
    static const rc_dbz_field cols[] = {{"name", "string", false},          {"jdbcType", "int32", false},       {"nativeType", "int32", true},
                                        {"typeName", "string", false},      {"typeExpression", "string", true}, {"charsetName", "string", true},
                                        {"length", "int32", true},          {"scale", "int32", true},           {"position", "int32", false},
                                        {"optional", "boolean", true},      {"autoIncremented", "boolean", true}, {"generated", "boolean", true},
                                        {"comment", "string", true},        {"defaultValueExpression", "string", true}, {0}};
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    rc_dbz_put_simple_fields(b, cols, false);
    RC_BUF_LIT(b, ",{\"type\":\"array\",\"items\":{\"type\":\"string\",\"optional\":false},\"optional\":true,\"field\":\"enumValues\"}");
    close_struct(b, false, "io.debezium.connector.schema.Column", v, NULL);
}

static void schema_change_schema(up_enc *e, rc_buf *b, const rc_event *ev, const char *connector)
{
    static const rc_dbz_field head[] = {{"ts_ms", "int64", false}, {"databaseName", "string", true}, {"schemaName", "string", true}, {"ddl", "string", true}, {0}};
    static const rc_dbz_field change[] = {{"type", "string", false}, {"id", "string", false}, {0}};
    bool v = e->compat >= 30;
    char name[96];
    RC_BUF_LIT(b, "{\"type\":\"struct\",\"fields\":[");
    rc_dbz_source_schema(e, b, connector_of(ev->src.kind));
    rc_dbz_put_simple_fields(b, head, true);
    RC_BUF_LIT(b, ",{\"type\":\"array\",\"items\":{\"type\":\"struct\",\"fields\":[");
    rc_dbz_put_simple_fields(b, change, false);
    RC_BUF_LIT(b, ",{\"type\":\"struct\",\"fields\":[");
    rc_dbz_put_simple_field(b, "string", true, "defaultCharsetName");
    RC_BUF_LIT(b, ",{\"type\":\"array\",\"items\":{\"type\":\"string\",\"optional\":false},\"optional\":true,\"field\":\"primaryKeyColumnNames\"}"
                  ",{\"type\":\"array\",\"items\":");
    column_schema(b, v);
    RC_BUF_LIT(b, ",\"optional\":false,\"field\":\"columns\"},");
    rc_dbz_put_simple_field(b, "string", true, "comment");
    close_struct(b, v, "io.debezium.connector.schema.Table", v, "table");
    close_struct(b, false, "io.debezium.connector.schema.Change", v, NULL);
    RC_BUF_LIT(b, ",\"optional\":false,\"field\":\"tableChanges\"}");
    snprintf(name, sizeof name, "io.debezium.connector.%s.SchemaChangeValue", connector);
    close_struct(b, false, name, v, NULL);
}

/* ---- values ---- */

/* The end of a message: the envelope's brace with schemas (the caller checks the buffer). */
static rc_status done(rc_buf *b, bool schemas)
{
    if (schemas) rc_buf_putc(b, '}');
    return RC_OK;
}

/* Milliseconds of the event's time (the marker's; else processing time), as the envelope's. */
static void put_event_ms(rc_buf *b, const rc_event *ev, bool proc_first)
{
    us_text t;
    int64_t us = proc_first ? (ev->has_proc ? ev->proc_us : ev->has_ts ? ev->ts_us : 0) : (ev->has_ts ? ev->ts_us : ev->has_proc ? ev->proc_us : 0);
    us_text_of(&t, us);
    put_ms(b, &t);
}

static rc_status tx_value(up_enc *e, const rc_event *ev, rc_buf *b)
{
    bool schemas = e->schemas, end = ev->op == RC_OP_COMMIT;
    int compat = e->compat;
    rc_dbz_tx *t = e->tx;
    if (schemas) {
        RC_BUF_LIT(b, "{\"schema\":");
        tx_value_schema(b, compat);
        RC_BUF_LIT(b, ",\"payload\":");
    }
    RC_BUF_LIT(b, "{\"status\":\"");
    rc_buf_puts(b, end ? "END" : "BEGIN");
    RC_BUF_LIT(b, "\",\"id\":\"");
    rc_dbz_put_tx_id(e, b, ev);
    RC_BUF_LIT(b, "\",\"event_count\":");
    if (!end) {
        RC_BUF_LIT(b, "null,\"data_collections\":null");
    } else if (ev->pos.collections) { /* as the input stated them (a Debezium END read back) */
        rc_fmt_u64(b, ev->pos.has_tx_count ? ev->pos.tx_count : 0);
        RC_BUF_LIT(b, ",\"data_collections\":[");
        for (uint32_t i = 0; i < ev->pos.ncollections; i++) {
            rc_buf_puts(b, i ? ",{\"data_collection\":" : "{\"data_collection\":");
            rc_jw_str(b, ev->pos.collections[i].name.p, ev->pos.collections[i].name.n);
            RC_BUF_LIT(b, ",\"event_count\":");
            rc_fmt_u64(b, ev->pos.collections[i].count);
            rc_buf_putc(b, '}');
        }
        rc_buf_putc(b, ']');
    } else { /* the events of the transaction written here, per table in first-seen order */
        tx_enter(t, ev);
        rc_fmt_u64(b, t->total);
        RC_BUF_LIT(b, ",\"data_collections\":[");
        for (size_t i = 0; i < t->ntables; i++) {
            rc_buf_puts(b, i ? ",{\"data_collection\":" : "{\"data_collection\":");
            rc_jw_str(b, t->names.data + t->tables[i].off, t->tables[i].len);
            RC_BUF_LIT(b, ",\"event_count\":");
            rc_fmt_u64(b, t->tables[i].count);
            rc_buf_putc(b, '}');
        }
        rc_buf_putc(b, ']');
    }
    if (compat >= 20) {
        RC_BUF_LIT(b, ",\"ts_ms\":");
        put_event_ms(b, ev, false);
    }
    rc_buf_putc(b, '}');
    return done(b, schemas);
}

/* Debezium's MySQL type name and java.sql.Types code (MySqlAntlrDdlParser's DataTypeResolver)
 * for a declared type; code 0 when the type is not MySQL's. */
static int16_t mysql_jdbc(const char *base)
{
    static const struct {
        const char *name;
        int16_t jdbc;
    } map[] = {{"char", 1},       {"varchar", 12},  {"tinytext", 12},  {"text", 12},       {"mediumtext", 12}, {"longtext", 12},
               {"nchar", -15},    {"nvarchar", -9}, {"tinyint", 5},    {"smallint", 5},    {"mediumint", 4},   {"int", 4},
               {"bigint", -5},    {"real", 7},      {"double", 8},     {"float", 6},       {"decimal", 3},     {"numeric", 2},
               {"bit", -7},       {"time", 92},     {"timestamp", 2014}, {"datetime", 93}, {"binary", -2},     {"varbinary", -3},
               {"blob", 2004},    {"tinyblob", 2004}, {"mediumblob", 2004}, {"longblob", 2004}, {"year", 4},   {"date", 91},
               {"boolean", 16},   {"bool", 16},     {"serial", -5},    {"enum", 1},        {"set", 1},         {"json", 1111},
               {"geometry", 1111}, {"point", 1111}, {"linestring", 1111}, {"polygon", 1111}, {"multipoint", 1111},
               {"multilinestring", 1111}, {"multipolygon", 1111}, {"geometrycollection", 1111}};
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (!strcmp(map[i].name, base)) return map[i].jdbc;
    return 0;
}

static void upper(rc_buf *b, const char *s)
{
    for (; *s; s++) rc_buf_putc(b, (char)toupper((unsigned char)*s));
}

static void put_column(rc_buf *b, const rc_event *ev, uint32_t i)
{
    const rc_column *c = &ev->cols[i];
    const rc_type_info *t = c->type.info;
    char base[64];
    size_t k = 0;
    for (; t->name[k] && t->name[k] != ' ' && k + 1 < sizeof base; k++) base[k] = t->name[k];
    base[k] = 0;
    int16_t my = rc_dbkind_family(ev->src.kind) == RC_FAM_MYSQL ? mysql_jdbc(base) : 0;
    int16_t jdbc = c->has_jdbc ? c->jdbc : my ? my : t->jdbc;
    bool text = t->vkind == RC_V_TEXT || t->vkind == RC_V_ENUM || t->vkind == RC_V_SET; /* the character types */
    bool decimal = !strcmp(base, "decimal") || !strcmp(base, "numeric");
    int32_t len = c->type.p1 >= 0 ? c->type.p1 : decimal ? 10 : -1, scale = c->type.p2 >= 0 ? c->type.p2 : decimal ? 0 : -1;
    RC_BUF_LIT(b, "{\"name\":");
    rc_jw_str(b, c->name.p, c->name.n);
    RC_BUF_LIT(b, ",\"jdbcType\":");
    rc_fmt_i64(b, jdbc);
    RC_BUF_LIT(b, ",\"nativeType\":null,\"typeName\":\"");
    upper(b, t->name);
    RC_BUF_LIT(b, "\",\"typeExpression\":\"");
    upper(b, t->name);
    RC_BUF_LIT(b, "\",\"charsetName\":");
    rc_enc_put_str_or_null(b, text ? (c->type.charset.n ? c->type.charset : ev->table_charset) : (rc_str){0});
    RC_BUF_LIT(b, ",\"length\":");
    if (len >= 0) rc_fmt_i64(b, len);
    else RC_BUF_LIT(b, "null");
    RC_BUF_LIT(b, ",\"scale\":");
    if (scale >= 0) rc_fmt_i64(b, scale);
    else RC_BUF_LIT(b, "null");
    RC_BUF_LIT(b, ",\"position\":");
    rc_fmt_u64(b, i + 1);
    RC_BUF_LIT(b, ",\"optional\":");
    rc_buf_puts(b, c->nullable ? "true" : "false");
    /* the structure carries no auto-increment, generation, comment or default */
    RC_BUF_LIT(b, ",\"autoIncremented\":false,\"generated\":false,\"comment\":null,\"defaultValueExpression\":null,\"enumValues\":");
    if (c->type.labels.n) { /* 'a','b' -> ["a","b"], unquoted and escaped as Debezium's parser does */
        rc_buf one;
        rc_buf_init(&one, 0);
        rc_buf_putc(b, '[');
        size_t pos = 0;
        rc_str l;
        for (bool first = true; rc_coltype_label_next(&c->type, &pos, &l); first = false) {
            rc_buf_reset(&one);
            for (size_t p = 0; p < l.n; p++) {
                if (l.p[p] == '\'' && p + 1 < l.n) p++; /* '' is one quote */
                if (l.p[p] == ',') rc_buf_putc(&one, '\\'); /* Debezium's escapeOption */
                rc_buf_putc(&one, l.p[p]);
            }
            if (!first) rc_buf_putc(b, ',');
            rc_jw_str(b, one.len ? one.data : "", one.len);
        }
        rc_buf_putc(b, ']');
        rc_buf_fini(&one);
    } else {
        RC_BUF_LIT(b, "null");
    }
    rc_buf_putc(b, '}');
}

/* A TableId as Debezium quotes it (toDoubleQuotedString): "db"."table" for MySQL. */
static void put_table_id(rc_buf *b, const rc_event *ev)
{
    rc_buf id;
    rc_buf_init(&id, 0);
    rc_str parts[3];
    table_parts(ev, parts);
    for (int i = 0; i < 3; i++) {
        if (!parts[i].n) continue;
        if (id.len) rc_buf_putc(&id, '.');
        rc_buf_putc(&id, '"');
        for (size_t k = 0; k < parts[i].n; k++) {
            if (parts[i].p[k] == '"') rc_buf_putc(&id, '"');
            rc_buf_putc(&id, parts[i].p[k]);
        }
        rc_buf_putc(&id, '"');
    }
    rc_jw_str(b, id.data ? id.data : "", id.len);
    rc_buf_fini(&id);
}

static void put_table_change(rc_buf *b, const rc_event *ev)
{
    rc_ddl_class k = rc_ddl_classify(ev);
    RC_BUF_LIT(b, "{\"type\":\"");
    rc_buf_puts(b, k == RC_DDL_CREATE_TABLE ? "CREATE" : k == RC_DDL_DROP_TABLE ? "DROP" : "ALTER");
    RC_BUF_LIT(b, "\",\"id\":");
    put_table_id(b, ev);
    RC_BUF_LIT(b, ",\"table\":{\"defaultCharsetName\":");
    rc_enc_put_str_or_null(b, ev->table_charset);
    RC_BUF_LIT(b, ",\"primaryKeyColumnNames\":[");
    rc_enc_put_pk_items(b, ev);
    RC_BUF_LIT(b, "],\"columns\":[");
    for (uint32_t i = 0; i < ev->ncols; i++) {
        if (i) rc_buf_putc(b, ',');
        put_column(b, ev, i);
    }
    RC_BUF_LIT(b, "],\"comment\":null}}");
}

static rc_status schema_change_value(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err)
{
    const char *conn = rc_dbz_up_connector(ev);
    if (!conn)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "upstream Debezium has no schema-change layout for %s sources here",
                            rc_dbkind_name(ev->src.kind));
    if (!ev->ddl.n) return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "a schema-change message needs the statement text");
    bool schemas = e->schemas;
    if (schemas) {
        RC_BUF_LIT(b, "{\"schema\":");
        schema_change_schema(e, b, ev, conn);
        RC_BUF_LIT(b, ",\"payload\":");
    }
    RC_BUF_LIT(b, "{\"source\":");
    rc_dbz_put_source(e, b, ev, connector_of(ev->src.kind));
    RC_BUF_LIT(b, ",\"ts_ms\":");
    put_event_ms(b, ev, true);
    RC_BUF_LIT(b, ",\"databaseName\":");
    rc_enc_put_str_or_null(b, ev->src.db);
    RC_BUF_LIT(b, ",\"schemaName\":");
    rc_enc_put_str_or_null(b, ev->src.kind == RC_DB_MYSQL || ev->src.kind == RC_DB_MARIADB ? (rc_str){0} : ev->src.schema);
    RC_BUF_LIT(b, ",\"ddl\":");
    rc_jw_str(b, ev->ddl.p, ev->ddl.n);
    /* the structure after the statement; a statement of no table, or one whose structure the
     * event does not carry (a DROP), has none */
    RC_BUF_LIT(b, ",\"tableChanges\":[");
    if (ev->ncols && ev->src.table.n) put_table_change(b, ev);
    RC_BUF_LIT(b, "]}");
    return done(b, schemas);
}

/* ---- what rc_dbz_up_encode, rc_dbz_up_key and rc_dbz_hb_route call ---- */

bool rc_dbz_topics_has(const up_enc *e, const rc_event *ev)
{
    if (ev->op == RC_OP_DDL) { /* Debezium's PostgreSQL connector writes no schema changes */
        const char *conn = rc_dbz_up_connector(ev);
        return e->schema_changes && conn && strcmp(conn, "postgresql");
    }
    return (ev->op == RC_OP_BEGIN || ev->op == RC_OP_COMMIT) && e->tx_meta && ev->pos.txid.n;
}

rc_status rc_dbz_topics_value(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err)
{
    return ev->op == RC_OP_DDL ? schema_change_value(e, ev, b, err) : tx_value(e, ev, b);
}

rc_status rc_dbz_topics_key(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err)
{
    bool v = e->compat >= 30;
    char name[96];
    if (ev->op == RC_OP_DDL) snprintf(name, sizeof name, "io.debezium.connector.%s.SchemaChangeKey", rc_dbz_up_connector(ev));
    if (e->schemas) {
        RC_BUF_LIT(b, "{\"schema\":{\"type\":\"struct\",\"fields\":[");
        rc_dbz_put_simple_field(b, "string", false, ev->op == RC_OP_DDL ? "databaseName" : "id");
        close_struct(b, false, ev->op == RC_OP_DDL ? name : "io.debezium.connector.common.TransactionMetadataKey", v, NULL);
        RC_BUF_LIT(b, ",\"payload\":");
    }
    if (ev->op == RC_OP_DDL) {
        RC_BUF_LIT(b, "{\"databaseName\":");
        rc_jw_str(b, ev->src.db.p ? ev->src.db.p : "", ev->src.db.n);
        rc_buf_putc(b, '}');
    } else {
        RC_BUF_LIT(b, "{\"id\":\"");
        rc_dbz_put_tx_id(e, b, ev);
        RC_BUF_LIT(b, "\"}");
    }
    return done(b, e->schemas);
}

void rc_dbz_topics_topic(up_enc *e, const rc_event *ev, rc_buf *topic, int32_t *partition)
{
    rc_str server = server_of(e, ev);
    rc_buf_put(topic, server.p, server.n);
    if (ev->op == RC_OP_DDL) {
        *partition = 0; /* the schema-change topic has one partition: its order is the history's */
    } else {
        rc_buf_put(topic, e->topic_delim, strlen(e->topic_delim)); /* topic.delimiter, topic.transaction */
        rc_buf_put(topic, e->topic_tx, strlen(e->topic_tx));
        *partition = -1;
    }
}
