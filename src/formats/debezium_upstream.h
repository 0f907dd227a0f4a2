/* The upstream-compatible Debezium flavour (debezium.flavor=upstream, the default): what
 * Debezium itself writes, selected from the `debezium` format. Internal to the debezium files. */
#ifndef RC_FORMATS_DEBEZIUM_UPSTREAM_H
#define RC_FORMATS_DEBEZIUM_UPSTREAM_H

#include "rowcast/arena.h"
#include "rowcast/format.h"
#include "core/wkb.h"

enum { DBZ_COMMON_OPTIONS = 3 };
/* The choices of the options CloudEvents shares (cloudevents.compat, ...), written once */
#define DBZ_COMPAT_CHOICES "0.10|1|1.6|2.0|2.6|2|3"
#define DBZ_DECIMAL_CHOICES "precise|string|double"
#define DBZ_BINARY_CHOICES "bytes|base64|hex|base64-url-safe"
#define DBZ_TIME_CHOICES "adaptive_time_microseconds|connect|adaptive"
#define DBZ_UNSIGNED_CHOICES "long|precise"
extern const rc_option_desc rc_dbz_all_options[];      /* every option of the `debezium` format */
extern const rc_option_desc *const rc_dbz_up_options; /* the upstream flavour's own */

/* The debezium.* options as rc_dbz_opts_parse reads them (choices as their index). */
typedef struct rc_dbz_skip {
    uint8_t ops; /* by rc_op bit */
    bool given;  /* else the layout decides (truncates of PostgreSQL at compat >= 2.0) */
} rc_dbz_skip;
typedef struct rc_dbz_opts {
    int flavor; /* 0 oms, 1 upstream */
    bool schemas, heartbeats;
    int compat; /* index in debezium.compat's choices; -1: by debezium.version's release, else 3 */
    const char *server, *version;
    int schema_adjust; /* DBZ_ADJUST_*; -1: by the layout */
    int field_adjust, dec_mode, dec_format, bin_mode, time_mode, unsig;
    bool tx_meta, schema_changes, tombstones;
    rc_dbz_skip skip;
    int hstore_mode;       /* hstore.handling.mode: 0 json, 1 map */
    int interval_mode;     /* interval.handling.mode: 0 numeric, 1 string */
    bool include_unknown;  /* include.unknown.datatypes */
    bool include_query;    /* include.query */
    bool time_adjust;      /* enable.time.adjuster */
    const char *propagate; /* column.propagate.source.type: comma-separated regular expressions, NULL none */
    const char *propagate_dt; /* datatype.propagate.source.type: the same, of "db.table.TYPE" */
    const char *converters;   /* converters: "boolean" or none (NULL) */
    const char *bool_type, *bool_selector; /* boolean.type, boolean.selector */
    bool bool_length_checker; /* boolean.length.checker */
    /* the topics the encoder names (rc_dbz_hb_route): topic.delimiter, topic.transaction,
     * topic.heartbeat.prefix, topic.heartbeat.name (NULL: none) */
    const char *topic_delim, *topic_tx, *topic_hb_prefix, *topic_hb_name;
    /* topic.naming.strategy (DBZ_TOPIC_*) and the regex strategy's topic.regex, .replacement,
     * .key.enforce.uniqueness, .key.field.name, .key.field.regex, .key.field.replacement */
    int topic_strategy;
    const char *topic_regex, *topic_repl, *topic_key_field, *topic_key_regex, *topic_key_repl;
    bool topic_key_unique;
} rc_dbz_opts;
/* Reads every debezium.* option of `o` (rc_dbz_all_options) into *out. */
rc_status rc_dbz_opts_parse(const rc_options *o, rc_dbz_opts *out, rc_error *err);

rc_status rc_dbz_up_new(const rc_options *o, void **out, rc_error *err);
/* The upstream encoder of options already read (CloudEvents gives its own). */
rc_status rc_dbz_up_open(const rc_dbz_opts *opt, void **out, rc_error *err);
void rc_dbz_up_free(void *enc);
void rc_dbz_up_set_cut(void *enc, rc_cut_log *cuts); /* rc_format.set_cut */
void rc_dbz_up_set_topics(void *enc, const char *tmpl); /* rc_format.set_topics */
rc_status rc_dbz_up_encode(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
rc_status rc_dbz_up_key(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
bool rc_dbz_up_tombstone(void *enc, const rc_event *ev);
size_t rc_dbz_up_split(void *enc, const rc_event *ev, rc_event_part *parts, rc_arena *a); /* rc_format.split */
/* The topic and partition of the messages that do not go to their table's topic (heartbeats);
 * RC_SKIP for the others. */
rc_status rc_dbz_hb_route(void *enc, const rc_event *ev, rc_buf *topic, int32_t *partition);

/* Heartbeats (debezium_heartbeat.c): the value, the key ({"schema", "payload"} with schemas;
 * versioned: the schemas carry "version":1), and the topic. */
rc_status rc_dbz_hb_value(rc_buf *out, const rc_event *ev, bool schemas, bool versioned);
rc_status rc_dbz_hb_key(rc_buf *out, rc_str server, bool schemas, bool versioned);
/* __debezium-heartbeat.<server>, or with hb_name that name; prefix and delim: topic.heartbeat.prefix
 * and topic.delimiter. */
void rc_dbz_hb_topic(rc_buf *topic, rc_str server, const char *prefix, const char *delim, const char *hb_name);

/* Pieces the CloudEvents format reuses. The connector name ("mysql", "postgresql",
 * "sqlserver") or NULL when the event's source has no upstream layout. */
const char *rc_dbz_up_connector(const rc_event *ev);
/* Debezium's op letter for the event (c, r, u, d, t), or NULL where Debezium writes no change
 * event (DDL, heartbeats, transaction markers: docs/formats/debezium.md). */
static inline const char *rc_dbz_up_op(const rc_event *ev)
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
/* The logical server name used for the event. */
rc_str rc_dbz_up_server(void *enc, const rc_event *ev);
/* The source block / one row image as JSON, exactly as in the envelope. */
void rc_dbz_up_put_source(void *enc, rc_buf *b, const rc_event *ev);
rc_status rc_dbz_up_put_image(void *enc, rc_buf *b, const rc_event *ev, const rc_value *img, rc_error *err);
/* A time value goes into milliseconds (ms) or microseconds, a wall-clock time into epoch
 * numbers without a zone: RC_OK when value `nanos` (and `zone`) of column c fit, else RC_SKIP
 * with the reason in err, followed by `hint` (what to do; NULL for none): the event is not
 * expressible. With `cuts` (--on-loss=cut) a fraction finer than the unit is RC_OK, noted
 * there: the caller writes the value cut to the unit, as the connector does; a zone is still
 * refused. */
rc_status rc_dbz_fits_unit(const rc_column *c, uint32_t nanos, rc_str zone, bool ms, const char *hint, rc_cut_log *cuts, rc_error *err);
/* The transaction block or null. */
void rc_dbz_up_put_transaction(void *enc, rc_buf *b, const rc_event *ev);
/* Avro binary of the record {before: [null, Value], after: [null, Value]} whose Value fields
 * have the Avro types behind the Kafka Connect schema. */
rc_status rc_dbz_up_put_data_avro(void *enc, rc_buf *b, const rc_event *ev, const rc_value *before, const rc_value *after,
                               rc_error *err);

/* PostgreSQL columns (debezium_pg.c): the catalog types whose upstream rendering is not their
 * canonical value kind's. */
typedef enum dbz_pg_kind {
    DBZ_PG_NONE = 0,  /* as the value kind says */
    DBZ_PG_UUID,      /* string io.debezium.data.Uuid */
    DBZ_PG_XML,       /* string io.debezium.data.Xml */
    DBZ_PG_TSVECTOR,  /* string io.debezium.data.TsVector */
    DBZ_PG_TIMETZ,    /* string io.debezium.time.ZonedTime, in UTC */
    DBZ_PG_MONEY,     /* Decimal with scale 2 (money.fraction.digits) */
    DBZ_PG_INTERVAL,  /* int64 io.debezium.time.MicroDuration */
    DBZ_PG_BITS,      /* bit(1): boolean; bit(n), varbit(n): io.debezium.data.Bits */
    DBZ_PG_POINT,     /* io.debezium.data.geometry.Point */
    DBZ_PG_ARRAY,     /* a Kafka Connect array of the element's schema */
    DBZ_PG_FLOAT4,    /* float32 (pgjdbc reports REAL) */
    DBZ_PG_UNKNOWN,   /* no schema in the connector: it leaves the column out */
    DBZ_PG_LTREE,     /* string io.debezium.data.Ltree */
    DBZ_PG_HSTORE,    /* hstore.handling.mode: json (string io.debezium.data.Json), map */
    DBZ_PG_OTHER,     /* a type rowcast does not know ("unknown"): include.unknown.datatypes */
    DBZ_PG_POSTGIS,   /* io.debezium.data.geometry.Geometry / Geography {wkb, srid} from hex EWKB */
} dbz_pg_kind;
dbz_pg_kind rc_dbz_pg_kind_of(const rc_type_info *t);
/* The value text s of column c into b as Debezium writes it (RC_SKIP with the reason when the
 * text is not one these readers accept, or the connector cannot write it). */
rc_status rc_dbz_pg_timetz(rc_buf *b, const rc_column *c, rc_str s, rc_error *err);
rc_status rc_dbz_pg_bits(rc_buf *b, rc_buf *scratch, const rc_column *c, rc_str s, rc_error *err);
/* money text -> decimal (digits in dg), interval text -> MicroDuration, point -> WKT */
rc_status rc_dbz_pg_money(const rc_column *c, rc_str s, rc_buf *dg, rc_decimal *out, rc_error *err);
rc_status rc_dbz_pg_interval(const rc_column *c, rc_str s, int64_t *out, rc_error *err);
rc_status rc_dbz_pg_interval_iso(rc_buf *b, const rc_column *c, rc_str s, rc_error *err); /* interval.handling.mode=string */
rc_status rc_dbz_pg_point_wkt(const rc_column *c, rc_str s, rc_buf *wkt, rc_error *err);
/* hstore text (`"a"=>"1", "b"=>NULL`) -> the JSON object the connector makes of it ({"a":"1",
 * "b":null}), its keys in the order of the Java HashMap the connector reads it into; pairs
 * unescaped in the arena. */
/* PostGIS's hex EWKB text -> its bytes (in wkb) and the SRID it carries (info.has_srid,
 * info.srid). */
rc_status rc_dbz_pg_ewkb(const rc_column *c, rc_str s, rc_buf *wkb, rc_wkb_info *info, rc_error *err);
rc_status rc_dbz_pg_hstore_json(rc_buf *b, rc_arena *a, const rc_column *c, rc_str s, rc_error *err);
/* The elements of a one-dimensional array literal (unquoted, unescaped, in the arena). */
typedef struct dbz_pg_elem {
    rc_str text;
    bool null;
} dbz_pg_elem;
struct rc_arena;
rc_status rc_dbz_pg_array_split(const rc_column *c, rc_str s, char delim, struct rc_arena *a, dbz_pg_elem **out, size_t *count,
                                rc_error *err);
/* box, circle, line, lseg, path, polygon; their text with each number as Java's Double.toString
 * writes it, as the JDBC driver's objects give it to the connector ("(1,1),(0,0)" ->
 * "(1.0,1.0),(0.0,0.0)") */
bool rc_dbz_pg_geometric(const rc_type_info *t);
void rc_dbz_pg_geometric_text(rc_buf *b, rc_str s);
/* Debezium 3.7's schema of such a type (dbz#2135): Circle, Line (version 1) or Geometry (2); and
 * its value's JSON appended to out (wkb: scratch for the WKB): box, lseg, path, polygon as
 * Geometry {wkb, srid: null, extensions {type[, closed]}}, circle {center: Point, radius}, line
 * {a, b, c}, numbers as Java's Double.toString writes them. */
const char *rc_dbz_pg_geometric_schema(const rc_type_info *t, int *version);
rc_status rc_dbz_pg_geometric_json(rc_buf *out, rc_buf *wkb, const rc_column *c, rc_str s, rc_error *err);
/* "infinity": 1, "-infinity": -1, else 0; what the connector writes for them as a date (epoch
 * days) and as a timestamp (epoch microseconds) */
int rc_dbz_pg_infinity(rc_str s);
int64_t rc_dbz_pg_infinity_days(int sign);
int64_t rc_dbz_pg_infinity_micros(int sign);

#endif
