/* Upstream Debezium: the options of the `debezium` format, and the encoder made from them. */
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_up_enc.h"

/* Every option of the `debezium` format: the first DBZ_COMMON_OPTIONS belong to both flavours,
 * the rest to the upstream flavour only. */
const rc_option_desc rc_dbz_all_options[] = {
    {"debezium.flavor", "oms|upstream", "oms: as OMS writes it (default); upstream: as Debezium itself writes it (debezium.compat and the options below)"},
    {"debezium.schemas", "false|true", "write {\"schema\", \"payload\"} with the Kafka Connect schema of each table (default: payload only)"},
    {"debezium.heartbeats", "false|true", "reading: pass HEARTBEAT messages on as heartbeat events (default: skip them)"},
    {"debezium.compat", "0.10|1|1.6|2.0|2.6|2|3", "upstream layout of that Debezium version: 0.10 (0.x, MySQL: snapshot a boolean, no transaction), 1 (1.0-1.5), 1.6 (1.6-1.9: source.sequence), 2.0 (2.0-2.5: envelope schema version 1, FLOAT as float32), 2.6 (2.6-2.7: ts_us/ts_ns; 2 is the same), 3 (3.x, the default); without it debezium.version's release decides"},
    {"debezium.server", "name", "logical server name (topic.prefix): the topics' {server}, source.name and the heartbeat topic; default: the event's server, else \"rowcast\""},
    {"debezium.version", "text", "connector version written in source.version (default \"rowcast\"); a release (2.4.0.Final) also picks its layout unless debezium.compat is given"},
    {"debezium.schema.name.adjustment.mode", "none|avro|avro_unicode", "schema names (<server>.<db>.<table>.Envelope) as they are, with characters Avro does not allow as _, or as _uXXXX (the underscore too); default avro before 2.0, none from 2.0 (DBZ-5541)"},
    {"debezium.field.name.adjustment.mode", "none|avro|avro_unicode", "the same for the columns' field names (no dots there); default none"},
    {"debezium.decimal.handling.mode", "precise|string|double", "DECIMAL as Kafka Connect Decimal bytes (default), a string, or a double"},
    {"debezium.decimal.format", "base64|numeric", "Kafka Connect JsonConverter's decimal.format: Decimal fields as base64 of their bytes (default) or as JSON numbers (BigDecimal.toString(), 1.50, 1E-7)"},
    {"debezium.binary.handling.mode", "bytes|base64|hex", "binary columns as bytes (base64 in JSON, default), a base64 string or a hex string"},
    {"debezium.time.precision.mode", "adaptive_time_microseconds|connect", "time types as Debezium's MicroTime/Timestamp types (default) or Kafka Connect's"},
    {"debezium.bigint.unsigned.handling.mode", "long|precise", "BIGINT UNSIGNED as int64 (values beyond it are an error) or as Decimal"},
    {"debezium.provide.transaction.metadata", "false|true", "write the transaction block {id, total_order, data_collection_order} and the BEGIN/END messages of the <server>.transaction topic"},
    {"debezium.transactions", "false|true", "the same as debezium.provide.transaction.metadata"},
    {"debezium.include.schema.changes", "true|false", "write DDL events of MySQL sources as the <server> schema-change topic's messages (default true)"},
    {"debezium.tombstones.on.delete", "true|false", "a tombstone (same key, null value) follows every delete (default true)"},
    {"debezium.skipped.operations", "none|c,u,d,t", "ops not written (default: t for PostgreSQL sources with compat 2.0 and later, as Debezium 2.x skips truncates; none otherwise)"},
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

/* The layout of a Debezium release "X.Y[.Z[.Final]]" (-1: not a release number): where Debezium
 * changed what it writes, see docs/formats/debezium.md. */
static int layout_of_release(const char *v)
{
    char *end;
    long major = strtol(v, &end, 10);
    if (end == v || *end != '.' || end[1] < '0' || end[1] > '9') return -1;
    long minor = strtol(end + 1, &end, 10);
    if (*end && *end != '.') return -1;
    if (major == 0) return 0;
    if (major == 1) return minor < 6 ? 10 : 16;
    if (major == 2) return minor < 6 ? 20 : 26;
    return major >= 3 ? 30 : -1;
}

rc_status rc_dbz_up_new(const rc_options *o, void **out, rc_error *err)
{
    up_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    int compat = 6; /* "3" */
    int unsig = 0, dec_format = 0;
    e->tombstones = true;
    e->schema_changes = true;
    rc_status st;
    if ((st = rc_options_choice(o, "debezium.compat", "0.10|1|1.6|2.0|2.6|2|3", &compat, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.schemas", &e->schemas, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.provide.transaction.metadata", &e->tx_meta, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.transactions", &e->tx_meta, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.include.schema.changes", &e->schema_changes, err)) != RC_OK ||
        (st = rc_options_bool(o, "debezium.tombstones.on.delete", &e->tombstones, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.decimal.handling.mode", "precise|string|double", &e->dec_mode, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.binary.handling.mode", "bytes|base64|hex", &e->bin_mode, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.time.precision.mode", "adaptive_time_microseconds|connect", &e->time_mode, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.bigint.unsigned.handling.mode", "long|precise", &unsig, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.field.name.adjustment.mode", "none|avro|avro_unicode", &e->field_adjust, err)) != RC_OK ||
        (st = rc_options_choice(o, "debezium.decimal.format", "base64|numeric", &dec_format, err)) != RC_OK) {
        free(e);
        return st;
    }
    static const int layouts[] = {0, 10, 16, 20, 26, 26, 30};
    e->compat = layouts[compat];
    e->unsigned_precise = unsig == 1;
    e->dec_numeric = dec_format == 1;
    e->server = rc_options_get(o, "debezium.server");
    e->version = rc_options_get(o, "debezium.version");
    if (!e->version) e->version = "rowcast";
    int release = layout_of_release(e->version);
    if (!rc_options_get(o, "debezium.compat") && release >= 0) e->compat = release;
    e->schema_adjust = e->compat >= 20 ? DBZ_ADJUST_NONE : DBZ_ADJUST_AVRO;
    if ((st = rc_options_choice(o, "debezium.schema.name.adjustment.mode", "none|avro|avro_unicode", &e->schema_adjust, err)) != RC_OK) {
        free(e);
        return st;
    }
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
    str_memo *memos[] = {&e->src_mid, &e->src_tail};
    for (int i = 0; i < 2; i++) rc_buf_init(&memos[i]->raw, 0), rc_buf_init(&memos[i]->json, 0);
    rc_buf_init(&e->sig, 0), rc_buf_init(&e->scratch, 0), rc_buf_init(&e->name, 0), rc_buf_init(&e->name_of, 0);
    rc_buf_init(&e->value_memo.prefix, 0), rc_buf_init(&e->key_memo.prefix, 0);
    rc_buf_init(&e->digits, 0), rc_buf_init(&e->cvtext, 0), rc_buf_init(&e->fieldname, 0);
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
    rc_buf_fini(&e->value_memo.prefix), rc_buf_fini(&e->key_memo.prefix);
    rc_buf_fini(&e->digits), rc_buf_fini(&e->cvtext), rc_buf_fini(&e->fieldname);
    rc_buf_fini(&e->src_head), rc_buf_fini(&e->src_head_of), rc_buf_fini(&e->keys);
    free(e->keys_off);
    free(e->col_fast);
    free(e->pg_kind);
    rc_type_cache_free(e->types);
    rc_arena_fini(&e->types_arena), rc_arena_fini(&e->elems);
    rc_buf_fini(&e->pgbuf), rc_buf_fini(&e->tx_of);
    rc_buf_fini(&e->key_old), rc_buf_fini(&e->key_new), rc_buf_fini(&e->hdr), rc_buf_fini(&e->hval);
    str_memo *memos[] = {&e->src_mid, &e->src_tail};
    for (int i = 0; i < 2; i++) rc_buf_fini(&memos[i]->raw), rc_buf_fini(&memos[i]->json);
    rc_dbz_tx_free(e->tx);
    free(e);
}
