/* Upstream Debezium: the options of the `debezium` format, and the encoder made from them. */
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_up_enc.h"

static rc_status parse_skipped(const char *key, const char *v, void *field, rc_error *err);
static rc_status parse_strategy(const char *key, const char *v, void *field, rc_error *err);

/* Every option of the `debezium` format: the first DBZ_COMMON_OPTIONS belong to both flavours,
 * the rest to the upstream flavour only. */
#define OFF(f) offsetof(rc_dbz_opts, f)
const rc_option_desc rc_dbz_all_options[] = {
    {"debezium.flavor", RC_OPT_CHOICE, "oms|upstream", "upstream", "upstream: as Debezium itself writes it (debezium.compat and the options below); oms: as OceanBase OMS writes it (what --to oms-debezium is)", .off = OFF(flavor)},
    {"debezium.schemas", RC_OPT_BOOL, NULL, "false", "write {\"schema\", \"payload\"} with the Kafka Connect schema of each table (false: payload only)", .off = OFF(schemas)},
    {"debezium.heartbeats", RC_OPT_BOOL, NULL, "false", "reading: pass HEARTBEAT messages on as heartbeat events (false: skip them)", .off = OFF(heartbeats)},
    {"debezium.compat", RC_OPT_CHOICE, DBZ_COMPAT_CHOICES, "(by debezium.version's release, else 3)", "upstream layout of that Debezium version: 0.10 (0.x, MySQL: snapshot a boolean, no transaction), 1 (1.0-1.5), 1.6 (1.6-1.9: source.sequence), 2.0 (2.0-2.5: envelope schema version 1, FLOAT as float32), 2.6 (2.6-2.7: ts_us/ts_ns; 2 is the same), 3 (3.x)", .off = OFF(compat)},
    {"debezium.server", RC_OPT_STRING, "NAME", "(the event's server, else rowcast)", "logical server name (topic.prefix): the topics' {server}, source.name and the heartbeat topic", .off = OFF(server)},
    {"debezium.version", RC_OPT_STRING, "TEXT", "rowcast", "connector version written in source.version; a release (2.4.0.Final) also picks its layout unless debezium.compat is given", .off = OFF(version)},
    {"debezium.schema.name.adjustment.mode", RC_OPT_CHOICE, "none|avro|avro_unicode", "(by the layout: avro before 2.0, none from 2.0, DBZ-5541)", "schema names (<server>.<db>.<table>.Envelope) as they are, with characters Avro does not allow as _, or as _uXXXX (the underscore too)", .off = OFF(schema_adjust)},
    {"debezium.field.name.adjustment.mode", RC_OPT_CHOICE, "none|avro|avro_unicode", "none", "the same for the columns' field names (no dots there)", .off = OFF(field_adjust)},
    {"debezium.decimal.handling.mode", RC_OPT_CHOICE, DBZ_DECIMAL_CHOICES, "precise", "DECIMAL as Kafka Connect Decimal bytes, a string, or a double", .off = OFF(dec_mode)},
    {"debezium.decimal.format", RC_OPT_CHOICE, "base64|numeric", "base64", "Kafka Connect JsonConverter's decimal.format: Decimal fields as base64 of their bytes or as JSON numbers (BigDecimal.toString(), 1.50, 1E-7)", .off = OFF(dec_format)},
    {"debezium.binary.handling.mode", RC_OPT_CHOICE, DBZ_BINARY_CHOICES, "bytes", "binary columns as bytes (base64 in JSON), a base64 string, a hex string or a URL-safe base64 string ('-' and '_', padded)", .off = OFF(bin_mode)},
    {"debezium.time.precision.mode", RC_OPT_CHOICE, DBZ_TIME_CHOICES, "(the connector's: adaptive for PostgreSQL, adaptive_time_microseconds for MySQL)", "time types as Debezium's Time/MicroTime/Timestamp types (adaptive: TIME(0-3) in ms, adaptive_time_microseconds: every TIME in µs; timestamps by precision in both) or Kafka Connect's", .off = OFF(time_mode)},
    {"debezium.bigint.unsigned.handling.mode", RC_OPT_CHOICE, DBZ_UNSIGNED_CHOICES, "long", "BIGINT UNSIGNED as int64 (a value beyond it is refused; --on-loss=cut wraps it as Debezium does) or as Decimal", .off = OFF(unsig)},
    {"debezium.provide.transaction.metadata", RC_OPT_BOOL, NULL, "false", "write the transaction block {id, total_order, data_collection_order} and the BEGIN/END messages of the <server>.transaction topic", .off = OFF(tx_meta)},
    {"debezium.transactions", RC_OPT_BOOL, NULL, "false", "the same as debezium.provide.transaction.metadata", .off = OFF(tx_meta)},
    {"debezium.include.schema.changes", RC_OPT_BOOL, NULL, "true", "write DDL events of MySQL sources as the <server> schema-change topic's messages", .off = OFF(schema_changes)},
    {"debezium.tombstones.on.delete", RC_OPT_BOOL, NULL, "true", "a tombstone (same key, null value) follows every delete", .off = OFF(tombstones)},
    {"debezium.hstore.handling.mode", RC_OPT_CHOICE, "json|map", "json", "PostgreSQL hstore columns as the JSON text of an object (io.debezium.data.Json) or as a map of strings", .off = OFF(hstore_mode)},
    {"debezium.interval.handling.mode", RC_OPT_CHOICE, "numeric|string", "numeric", "PostgreSQL intervals as microseconds (io.debezium.time.MicroDuration, a month 30.4375 days) or as the ISO 8601 text of their parts (io.debezium.time.Interval, P1Y2M3DT4H5M6.78S)", .off = OFF(interval_mode)},
    {"debezium.include.unknown.datatypes", RC_OPT_BOOL, NULL, "false", "PostgreSQL columns of a type the connector has no converter for (an extension's, pg_lsn, tsquery...): false: left out of the events, said once per column; true: the bytes of their text (binary.handling.mode)", .off = OFF(include_unknown)},
    {"debezium.enable.time.adjuster", RC_OPT_BOOL, NULL, "true", "MySQL: a DATE or DATETIME of year 0-69 written as 2000-2069 and of 70-99 as 1970-1999, as Debezium does by default (MySQL's reading of two-digit years); false: the year stored", .off = OFF(time_adjust)},
    {"debezium.column.propagate.source.type", RC_OPT_STRING, "REGEX,...", "(none)", "the columns whose db.table.column (PostgreSQL: schema.table.column) matches one of the expressions carry __debezium.source.column.type, .length and .scale in their schema's parameters", .off = OFF(propagate)},
    {"debezium.datatype.propagate.source.type", RC_OPT_STRING, "REGEX,...", "(none)", "the same for the columns whose db.table.TYPE (PostgreSQL: schema.table.TYPE; TYPE as __debezium.source.column.type writes it: VARCHAR, INT UNSIGNED) matches one of the expressions (e.g. .+\\.FLOAT,.+\\.VARCHAR)", .off = OFF(propagate_dt)},
    {"debezium.converters", RC_OPT_STRING, "boolean", "(none)", "Debezium's custom converters: boolean, with debezium.boolean.type TinyIntOneToBooleanConverter, is the one rowcast has", .off = OFF(converters)},
    {"debezium.boolean.type", RC_OPT_STRING, "CLASS", "(none)", "io.debezium.connector.binlog.converters.TinyIntOneToBooleanConverter (or io.debezium.connector.mysql.converters.TinyIntOneToBooleanConverter): MySQL TINYINT(1) columns as BOOLEAN (schema boolean, nonzero true)", .off = OFF(bool_type)},
    {"debezium.boolean.selector", RC_OPT_STRING, "REGEX,...", "(every column)", "the converter's columns: those whose db.table.column matches one of the expressions", .off = OFF(bool_selector)},
    {"debezium.boolean.length.checker", RC_OPT_BOOL, NULL, "true", "the converter takes a TINYINT declared with length 1 only; false: any TINYINT the selector names", .off = OFF(bool_length_checker)},
    {"debezium.topic.delimiter", RC_OPT_STRING, "TEXT", ".", "topic.delimiter: between the parts of the transaction and heartbeat topics' names (the data topics' is --topic's: '{server}_{db}_{table}')", .off = OFF(topic_delim)},
    {"debezium.topic.transaction", RC_OPT_STRING, "NAME", "transaction", "topic.transaction: the transaction topic is <server><delimiter><NAME>", .off = OFF(topic_tx)},
    {"debezium.topic.heartbeat.prefix", RC_OPT_STRING, "NAME", "__debezium-heartbeat", "topic.heartbeat.prefix: the heartbeat topic is <NAME><delimiter><server>", .off = OFF(topic_hb_prefix)},
    {"debezium.topic.heartbeat.name", RC_OPT_STRING, "NAME", "(none)", "topic.heartbeat.name: the heartbeat topic's whole name instead", .off = OFF(topic_hb_name)},
    {"debezium.topic.naming.strategy", RC_OPT_FUNC, "default|unicode|regex|router", "default", "topic.naming.strategy (or its class, io.debezium.schema.DefaultUnicodeTopicNamingStrategy...): the data topics as --topic's template names them, with _uXXXX for each character a topic may not hold ('_' too), or rewritten by debezium.topic.regex; router: as the ByLogicalTableRouter SMT (the schemas renamed after the new topic too)", .off = OFF(topic_strategy), .parse = parse_strategy},
    {"debezium.topic.regex", RC_OPT_STRING, "REGEX", "(none)", "topic.regex (strategy regex): an expression (POSIX extended) the whole topic name must match to be rewritten", .off = OFF(topic_regex)},
    {"debezium.topic.replacement", RC_OPT_STRING, "TEXT", "(none)", "topic.replacement: the new topic name, $1..$9 the expression's groups", .off = OFF(topic_repl)},
    {"debezium.topic.key.enforce.uniqueness", RC_OPT_BOOL, NULL, "true", "topic.key.enforce.uniqueness (strategy regex): the key gets a string field, the table's topic before the rewrite", .off = OFF(topic_key_unique)},
    {"debezium.topic.key.field.name", RC_OPT_STRING, "NAME", "__dbz__physicalTableIdentifier", "topic.key.field.name: that field's name", .off = OFF(topic_key_field)},
    {"debezium.topic.key.field.regex", RC_OPT_STRING, "REGEX", "(none)", "topic.key.field.regex: an expression the old topic name must match for its value to be rewritten", .off = OFF(topic_key_regex)},
    {"debezium.topic.key.field.replacement", RC_OPT_STRING, "TEXT", "(none)", "topic.key.field.replacement: that value, $1..$9 the expression's groups", .off = OFF(topic_key_repl)},
    {"debezium.include.query", RC_OPT_BOOL, NULL, "false", "MySQL: the row's statement in source.query (a MySQL/MariaDB capture then asks the server for it: MariaDB's binlog_annotate_row_events, MySQL's binlog_rows_query_log_events must be on); false: null, Debezium's default", .off = OFF(include_query)},
    {"debezium.skipped.operations", RC_OPT_FUNC, "none|c,u,d,t", "(t for PostgreSQL sources with compat 2.0 and later, as Debezium 2.x skips truncates; none otherwise)", "ops not written", .off = OFF(skip), .parse = parse_skipped},
    {0},
};
#undef OFF
const rc_option_desc *const rc_dbz_up_options = rc_dbz_all_options + DBZ_COMMON_OPTIONS;

/* skipped.operations: "none" or a comma-separated list of c, u, d, t (Debezium's letters). */
static rc_status parse_skipped(const char *key, const char *v, void *field, rc_error *err)
{
    rc_dbz_skip *skip = field;
    uint8_t *ops = &skip->ops;
    skip->given = true;
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
                        "-o %s=%s: expected none or a comma-separated list of c, u, d, t (e.g. t)", key, v);
}

/* topic.naming.strategy: default, unicode or regex, or the class of Debezium's strategy. */
static rc_status parse_strategy(const char *key, const char *v, void *field, rc_error *err)
{
    static const char *const names[] = {"default", "unicode", "regex", "router"};
    static const char *const classes[] = {"TopicNamingStrategy", "UnicodeTopicNamingStrategy", "RegexTopicNamingStrategy"};
    int *strategy = field;
    for (int i = 0; i < 4; i++)
        if (!strcmp(v, names[i])) return *strategy = i, RC_OK;
    if (!strcmp(v, "io.debezium.transforms.ByLogicalTableRouter")) return *strategy = DBZ_TOPIC_ROUTER, RC_OK;
    static const char pkg[] = "io.debezium.schema.";
    if (!strncmp(v, pkg, sizeof pkg - 1)) {
        const char *c = v + sizeof pkg - 1;
        size_t skip = !strncmp(c, "Default", 7) ? 7 : !strncmp(c, "Schema", 6) ? 6 : 0;
        for (int i = 0; skip && i < 3; i++)
            if (!strcmp(c + skip, classes[i])) return *strategy = i, RC_OK;
    }
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                        "-o %s=%s: expected default, unicode, regex, router, one of Debezium's io.debezium.schema.{Default,Schema}"
                        "{,Unicode,Regex}TopicNamingStrategy or io.debezium.transforms.ByLogicalTableRouter (the template --topic "
                        "gives is the rest of the name)", key, v);
}

rc_status rc_dbz_opts_parse(const rc_options *o, rc_dbz_opts *out, rc_error *err)
{
    *out = (rc_dbz_opts){.compat = -1, .schema_adjust = -1, .time_mode = -1}; /* their "not given" */
    return rc_options_parse(o, "debezium", rc_dbz_all_options, out, err);
}

/* The layout of a Debezium release "X.Y[.Z[.Final]]" (-1: not a release number): where Debezium
 * changed what it writes, see docs/formats/debezium.md. */
/* A release's major and minor number ("2.4.0.Final": 2, 4); false when v names none. */
static bool release_of(const char *v, long *major, long *minor)
{
    char *end;
    *major = strtol(v, &end, 10);
    if (end == v || *end != '.' || end[1] < '0' || end[1] > '9') return false;
    *minor = strtol(end + 1, &end, 10);
    return !*end || *end == '.';
}

static int layout_of_release(const char *v)
{
    long major, minor;
    if (!release_of(v, &major, &minor)) return -1;
    if (major == 0) return 0;
    if (major == 1) return minor < 6 ? 10 : 16;
    if (major == 2) return minor < 6 ? 20 : 26;
    return major >= 3 ? 30 : -1;
}

/* A release of 3.7 or later (signed TINYINT as INT8, debezium/dbz#2235); false when v names none. */
static bool release_from_3_7(const char *v)
{
    long major, minor;
    return release_of(v, &major, &minor) && (major > 3 || (major == 3 && minor >= 7));
}

/* A release before 2.2; false when v names none. */
static bool release_before_2_2(const char *v)
{
    long major, minor;
    return release_of(v, &major, &minor) && (major < 2 || (major == 2 && minor < 2));
}

void rc_dbz_up_set_cut(void *p, rc_cut_log *cuts)
{
    up_enc *e = p;
    e->cuts = cuts;
}

rc_status rc_dbz_up_new(const rc_options *o, void **out, rc_error *err)
{
    rc_dbz_opts opt;
    rc_status st = rc_dbz_opts_parse(o, &opt, err);
    return st != RC_OK ? st : rc_dbz_up_open(&opt, out, err);
}

rc_status rc_dbz_up_open(const rc_dbz_opts *opt, void **out, rc_error *err)
{
    up_enc *e = calloc(1, sizeof *e);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    e->schemas = opt->schemas, e->tx_meta = opt->tx_meta, e->schema_changes = opt->schema_changes, e->tombstones = opt->tombstones;
    e->dec_mode = opt->dec_mode, e->bin_mode = opt->bin_mode, e->time_mode = opt->time_mode, e->field_adjust = opt->field_adjust;
    e->unsigned_precise = opt->unsig == 1;
    e->include_query = opt->include_query;
    e->time_adjust = opt->time_adjust;
    e->topic_delim = opt->topic_delim ? opt->topic_delim : ".";
    e->topic_tx = opt->topic_tx ? opt->topic_tx : "transaction";
    e->topic_hb_prefix = opt->topic_hb_prefix ? opt->topic_hb_prefix : "__debezium-heartbeat";
    e->topic_hb_name = opt->topic_hb_name;
    if (rc_dbz_srctype_open(e, opt->propagate, opt->propagate_dt, err) != RC_OK || rc_dbz_boolconv_open(e, opt, err) != RC_OK ||
        rc_dbz_naming_open(e, opt, err) != RC_OK) {
        rc_dbz_up_free(e);
        return err->code;
    }
    e->dec_numeric = opt->dec_format == 1;
    e->server = opt->server;
    e->version = opt->version;
    static const int layouts[] = {0, 10, 16, 20, 26, 26, 30}; /* of debezium.compat's choices */
    int release = layout_of_release(e->version);
    e->compat = opt->compat >= 0 ? layouts[opt->compat] : release >= 0 ? release : 30;
    e->zoned_width = e->compat >= 26 || (e->compat == 20 && !release_before_2_2(e->version));
    e->tinyint8 = e->geometric37 = release_from_3_7(e->version);
    e->mongo_22 = e->compat >= 26 || (e->compat == 20 && !release_before_2_2(e->version));
    e->schema_adjust = opt->schema_adjust >= 0 ? opt->schema_adjust : e->compat >= 20 ? DBZ_ADJUST_NONE : DBZ_ADJUST_AVRO;
    e->skip_ops = opt->skip.ops;
    e->hstore_map = opt->hstore_mode == 1, e->include_unknown = opt->include_unknown;
    e->interval_string = opt->interval_mode == 1;
    e->skip_set = opt->skip.given;
    while (rc_type_catalog[e->ncatalog].name) e->ncatalog++;
    if (!(e->names = rc_name_registry_new()) || !(e->types = rc_type_cache_new()) || !(e->pg_kind = malloc(e->ncatalog + 1)) ||
        !(e->tx = rc_dbz_tx_new())) {
        rc_name_registry_free(e->names), rc_type_cache_free(e->types), free(e->pg_kind);
        free(e);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    for (size_t i = 0; i < e->ncatalog; i++) e->pg_kind[i] = (uint8_t)rc_dbz_pg_kind_of(&rc_type_catalog[i]);
    rc_arena_init(&e->types_arena), rc_arena_init(&e->elems), rc_arena_init(&e->hstore_pairs);
    rc_buf_init(&e->pgbuf, 0), rc_buf_init(&e->tx_of, 0);
    rc_buf_init(&e->key_old, 0), rc_buf_init(&e->key_new, 0), rc_buf_init(&e->hdr, 0), rc_buf_init(&e->hval, 0);
    str_memo *memos[] = {&e->src_mid, &e->src_tail, &e->src_my};
    for (size_t i = 0; i < sizeof memos / sizeof *memos; i++) rc_buf_init(&memos[i]->raw, 0), rc_buf_init(&memos[i]->json, 0);
    rc_buf_init(&e->sig, 0), rc_buf_init(&e->scratch, 0), rc_buf_init(&e->name, 0), rc_buf_init(&e->name_of, 0);
    rc_buf_init(&e->value_memo.prefix, 0), rc_buf_init(&e->key_memo.prefix, 0);
    rc_buf_init(&e->digits, 0), rc_buf_init(&e->cvtext, 0), rc_buf_init(&e->fieldname, 0);
    rc_buf_init(&e->src_head, 0), rc_buf_init(&e->src_head_of, 0), rc_buf_init(&e->warned, 0);
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
    rc_buf_fini(&e->src_head), rc_buf_fini(&e->src_head_of), rc_buf_fini(&e->warned);
    rc_enc_colkeys_fini(&e->keys);
    rc_dbz_srctype_close(e);
    rc_dbz_boolconv_close(e);
    rc_dbz_naming_close(e);
    free(e->col_fast);
    free(e->pg_kind);
    rc_type_cache_free(e->types);
    rc_arena_fini(&e->types_arena), rc_arena_fini(&e->elems), rc_arena_fini(&e->hstore_pairs);
    rc_buf_fini(&e->pgbuf), rc_buf_fini(&e->tx_of);
    rc_buf_fini(&e->key_old), rc_buf_fini(&e->key_new), rc_buf_fini(&e->hdr), rc_buf_fini(&e->hval);
    str_memo *memos[] = {&e->src_mid, &e->src_tail, &e->src_my};
    for (size_t i = 0; i < sizeof memos / sizeof *memos; i++) rc_buf_fini(&memos[i]->raw), rc_buf_fini(&memos[i]->json);
    rc_dbz_tx_free(e->tx);
    free(e);
}
