/* The upstream Debezium encoder's state and the rules its files share (debezium_up_*.c and
 * debezium_upstream.c). Internal to those files; the rest of rowcast uses debezium_upstream.h. */
#ifndef RC_FORMATS_DEBEZIUM_UP_ENC_H
#define RC_FORMATS_DEBEZIUM_UP_ENC_H

#include <string.h>
#include <regex.h>
#include "formats/debezium_upstream.h"
#include "formats/enc_event.h"
#include "core/fmt.h"
#include "core/names.h"
#include "core/wkb.h"

enum { DEC_PRECISE, DEC_STRING, DEC_DOUBLE };
enum { BIN_BYTES, BIN_BASE64, BIN_HEX, BIN_BASE64URL };
/* debezium.time.precision.mode (its choices' order); TIME_DEFAULT: not given, each connector's
 * own default (PostgreSQL adaptive, MySQL adaptive_time_microseconds) */
enum { TIME_DEFAULT = -1, TIME_MICROS, TIME_CONNECT, TIME_ADAPTIVE };
enum { CONN_MYSQL, CONN_POSTGRES, CONN_SQLSERVER };
enum { SCHEMA_SLOTS = 256 };
enum { DBZ_ADJUST_NONE, DBZ_ADJUST_AVRO, DBZ_ADJUST_AVRO_UNICODE }; /* *.name.adjustment.mode */
enum { DBZ_TOPIC_DEFAULT, DBZ_TOPIC_UNICODE, DBZ_TOPIC_REGEX, DBZ_TOPIC_ROUTER }; /* topic.naming.strategy */

typedef struct up_slot {
    uint64_t hash;
    char *sig, *text;
    size_t sig_n, text_n;
} up_slot;

/* A piece of the source block that repeats from event to event (the fields of one table in
 * one transaction): its text (json) kept with the fields it was made from (lens[i]: field i's
 * length, raw: their bytes one after the other). */
enum { MEMO_FIELDS = 9 };
typedef struct str_memo {
    rc_buf raw, json;
    size_t nf, lens[MEMO_FIELDS];
} str_memo;

/* The slot the last message of a cached column list (rc_event.cols_id) and table name used. */
typedef struct up_memo {
    const void *cols_id; /* NULL: none */
    int conn;
    rc_buf prefix; /* the table's schema-name prefix, whole (a name is never cut) */
    const up_slot *slot;
} up_memo;

/* A time in µs, formatted once for the ms, µs and ns fields that repeat it. */
typedef struct us_text {
    char s[24];
    size_t n;
} us_text;

static inline void us_text_of(us_text *t, int64_t us)
{
    rc_buf tmp = {t->s, 0, sizeof t->s, sizeof t->s, RC_OK};
    rc_fmt_i64(&tmp, us);
    t->n = tmp.len;
}

/* The same through a memo of the last time formatted: the source block's time and the
 * envelope's are the commit's, the same for every event of a transaction. */
typedef struct us_memo {
    int64_t us;
    us_text t; /* t.n 0: none yet */
} us_memo;
static inline void us_text_memo(us_memo *m, us_text *t, int64_t us)
{
    if (!m->t.n || m->us != us) us_text_of(&m->t, us), m->us = us;
    *t = m->t;
}

typedef struct up_enc {
    int compat; /* the layout: 0 (0.x), 10 (1.0-1.5), 16 (1.6-1.9), 20 (2.0-2.5), 26 (2.6-2.7), 30 (3.x) */
    bool schemas, tx_meta, tombstones, schema_changes;
    int dec_mode, bin_mode, time_mode;
    int schema_adjust, field_adjust; /* DBZ_ADJUST_* */
    bool unsigned_precise;
    bool dec_numeric; /* decimal.format=numeric: Decimal fields as JSON numbers */
    rc_cut_log *cuts; /* --on-loss=cut (rc_dbz_fits_unit); NULL: refuse */
    const char *server, *version;
    rc_name_registry *names;
    rc_buf sig, scratch, name;
    rc_buf fieldname; /* a field name adjusted (rc_dbz_field_name) */
    rc_buf digits, cvtext; /* a decimal rescaled (rc_dbz_rescale); a value's text made for it (dbz_cv) */
    rc_buf name_of; /* the parts `name` was made from (table_name): a run of one table is named once */
    rc_buf src_head, src_head_of; /* the source block up to "ts_ms": and the connector and server it was made for */
    /* the columns' names as JSON keys ("name":, adjusted), for the cached column list keys.of
     * (rc_event.cols_id) */
    rc_enc_colkeys keys;
    uint8_t *col_fast; /* per column of keys.of: how a row image writes its value (FAST_*) */
    size_t fast_cap;
    rc_enc_pk_memo pk; /* the key columns' order (the keys, an update's split) */
    us_memo us_last; /* the last time written as µs text (us_text_memo) */
    rc_day_memo ts_day; /* the date of the last timestamp written (put_image) */
    up_slot value_slots[SCHEMA_SLOTS], key_slots[SCHEMA_SLOTS];
    up_memo value_memo, key_memo;
    /* the source block from "snapshot" to the sequence's LSN, and from "schema" (MySQL: "table")
     * to the LSN (MySQL: "pos") */
    str_memo src_mid, src_tail;
    str_memo src_my; /* MySQL: the whole source block up to "pos":, used from an event's time's second event on */
    int64_t src_my_us;
    bool src_my_us_set; /* src_my_us: the last event's time */
    /* PostgreSQL columns: the catalog rows' dbz_pg_kind (by row index), array element types,
     * and what arrays are split into */
    uint8_t *pg_kind;
    size_t ncatalog;
    rc_type_cache *types;
    rc_arena types_arena, elems, hstore_pairs;
    rc_buf pgbuf;
    rc_buf key_old, key_new, hdr, hval; /* an update's keys (rc_dbz_up_split) */
    uint8_t skip_ops; /* ops not written (skipped.operations), by rc_op bit */
    bool skip_set;    /* skipped.operations given: else truncates of PostgreSQL at compat >= 2 */
    bool hstore_map;      /* hstore.handling.mode=map (else json) */
    bool interval_string; /* interval.handling.mode=string (else numeric) */
    bool include_unknown; /* include.unknown.datatypes */
    bool include_query;   /* include.query: source.query (else null) */
    bool time_adjust;     /* enable.time.adjuster: a MySQL year 0-99 moved to 1970-2069 */
    regex_t *srctype;     /* column.propagate.source.type's expressions (debezium_up_srctype.c) */
    size_t nsrctype;
    regex_t *srctype_dt;  /* datatype.propagate.source.type's */
    size_t nsrctype_dt;
    const char *topic_delim, *topic_tx, *topic_hb_prefix, *topic_hb_name; /* rc_dbz_opts' */
    struct rc_dbz_naming *naming; /* the unicode and regex strategies (debezium_up_naming.c); NULL: the default */
    /* converters=boolean, TinyIntOneToBooleanConverter (debezium_up_boolconv.c) */
    bool bc_on, bc_length_checker;
    regex_t *bc_sel; /* boolean.selector's expressions (none: every column) */
    size_t bc_nsel;
    struct rc_dbz_bc_list { const void *of; rc_column *cols; } *bc_lists; /* per cached column list: its converted columns, NULL: none taken */
    size_t bc_n, bc_last;
    rc_column *bc_scratch; /* the converted columns of an uncached list */
    rc_value *bc_vals;     /* the converted before and after images */
    rc_str *bc_dflts;
    uint32_t bc_cap;       /* of bc_vals (twice) and bc_dflts */
    bool zoned_width;     /* ZonedTimestamp's fraction as wide as the column's precision (2.2 and later) */
    bool tinyint8;        /* a MySQL signed TINYINT as int8 (debezium.version 3.7 and later), else int16 */
    bool mongo_22;        /* MongoDB: 2.2's layout and later (no patch nor filter; source.wallTime) */
    bool geometric37;     /* debezium.version 3.7 and later: PostgreSQL's box, circle... have converters (dbz#2135) */
    rc_buf warned;        /* "schema.table.column\n" of each column left out and said so */
    /* the transaction of the last event written; its events per table so far (debezium_topics.c) */
    rc_buf tx_of;
    struct rc_dbz_tx *tx;
    uint32_t tx_extra; /* messages of the transaction beyond one per event (rc_dbz_up_split) */
} up_enc;

/* The connector layout of a source kind (CONN_*), -1 for none. */
static inline int connector_of(rc_dbkind k)
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

/* The logical server name: debezium.server, else the event's, else "rowcast". */
static inline rc_str server_of(const up_enc *e, const rc_event *ev)
{
    return e->server ? (rc_str){e->server, strlen(e->server)} : ev->src.server.n ? ev->src.server : RC_STR("rowcast");
}

/* ---- column types (debezium_up_types.c): the rules both the schemas and the values follow ---- */

/* What one column looks like in Kafka Connect: type, optional logical name and version,
 * parameters (JSON object text, or NULL). */
typedef struct col_schema {
    const char *type;
    const char *name;
    int version;
    rc_buf *params; /* NULL when none */
    rc_buf *dflt;   /* the column's default as JSON (Connect's "default"), NULL when none */
} col_schema;

/* What the PostgreSQL connector does with column c beyond its value kind (DBZ_PG_NONE for
 * other sources). */
static inline dbz_pg_kind pg_kind(const up_enc *e, const rc_column *c)
{
    const rc_type_info *t = c->type.info;
    if (t->family != RC_FAM_PG) return DBZ_PG_NONE;
    size_t i = (size_t)(t - rc_type_catalog);
    return t >= rc_type_catalog && i < e->ncatalog ? (dbz_pg_kind)e->pg_kind[i] : rc_dbz_pg_kind_of(t);
}

/* A zero date (RC_V_INVALID) of a MySQL NOT NULL column: Debezium's converters fall back to the
 * column's default for a non-optional field, the epoch (1970-01-01, 0 ms, "1970-01-01T00:00:00Z");
 * a nullable column gets null (the value as it is). */
static inline const rc_value *zero_date_value(const rc_column *c, const rc_value *v)
{
    static const rc_value epoch_date = {.kind = RC_V_DATE, .date = {1970, 1, 1}};
    static const rc_value epoch_dt = {.kind = RC_V_DATETIME, .dt = {.year = 1970, .month = 1, .day = 1}};
    static const rc_value epoch_ts = {.kind = RC_V_TIMESTAMP, .ts = {0, 0}};
    if (v->kind != RC_V_INVALID || c->nullable || c->type.info->family == RC_FAM_PG) return v;
    switch ((rc_vkind)c->type.info->vkind) {
    case RC_V_DATE: return &epoch_date;
    case RC_V_DATETIME: return &epoch_dt;
    case RC_V_TIMESTAMP: return &epoch_ts;
    default: return v;
    }
}

static inline int32_t dec_scale(const rc_column *c, const rc_decimal *d) { return c->type.p2 >= 0 ? c->type.p2 : (d ? d->scale : 0); }

/* How a DATETIME column is written: Oracle's DATE/TIMESTAMP as a zoned string, Kafka
 * Connect's Timestamp (ms), Debezium's Timestamp (ms, precision 0-3) or MicroTimestamp. */
typedef enum { DT_ZONED, DT_CONNECT, DT_MILLIS, DT_MICROS } dt_as;
static inline dt_as datetime_as(const up_enc *e, const rc_column *c)
{
    if (c->type.info->vclass == RC_VC_DATETIME && c->type.info->family == RC_FAM_ORACLE) return DT_ZONED;
    if (e->time_mode == TIME_CONNECT) return DT_CONNECT;
    int prec = c->type.p1 < 0 ? (c->type.info->family == RC_FAM_PG ? 6 : 0) : c->type.p1;
    return prec <= 3 ? DT_MILLIS : DT_MICROS;
}

/* The fraction digits of a ZonedTimestamp: Debezium 2.2 and later pass the column's precision
 * as fractionalWidth (DBZ-5996 MySQL, DBZ-6163 PostgreSQL): timestamptz(6) writes 30.000000Z;
 * a precision not declared is PostgreSQL's and Oracle's 6, MySQL's 0. 0: as many as needed. */
static inline int zoned_width(const up_enc *e, const rc_column *c)
{
    if (!e->zoned_width) return 0;
    return c->type.p1 >= 0 ? c->type.p1 : c->type.info->family == RC_FAM_MYSQL ? 0 : 6;
}

/* A MySQL FLOAT or FLOAT(p) as Kafka Connect's float32: Debezium 2.0 stopped widening it to a
 * double (DBZ-3865), so 12345.123 is written 12345.123, not 12345.123046875; FLOAT(M,D) stays
 * a double. */
static inline bool float32_kept(const up_enc *e, const rc_column *c)
{
    return e->compat >= 20 && c->type.info->family == RC_FAM_MYSQL && c->type.p2 < 0;
}

/* A TIME column in milliseconds: Kafka Connect's Time, or Debezium's Time for a time(0-3) in
 * mode adaptive (the PostgreSQL connector's default; MySQL's, adaptive_time_microseconds,
 * writes every TIME as MicroTime). A PostgreSQL time without precision is time(6), a MySQL one
 * time(0). */
static inline bool time_millis(const up_enc *e, const rc_column *c)
{
    bool pg = c->type.info->family == RC_FAM_PG;
    int mode = e->time_mode == TIME_DEFAULT ? (pg ? TIME_ADAPTIVE : TIME_MICROS) : e->time_mode;
    int prec = c->type.p1 < 0 ? (pg ? 6 : 0) : c->type.p1;
    return mode == TIME_CONNECT || (mode == TIME_ADAPTIVE && prec <= 3);
}


/* What the connector does with a column of a type it has no converter for
 * (include.unknown.datatypes): */
typedef enum {
    UNK_NO = 0, /* it has one */
    UNK_OUT,    /* false: the column is left out of the events, said once per column (a type rowcast does not
                 * know, an array of one, a built-in the connector has no converter for: tsquery, box, line...) */
    UNK_BYTES,  /* true: the bytes of its text */
} dbz_unknown;
dbz_unknown rc_dbz_unknown(up_enc *e, const rc_column *c);
/* Column i of ev is left out (UNK_OUT): said once per table and column on stderr. */
bool rc_dbz_left_out(up_enc *e, const rc_event *ev, uint32_t i);

/* Column c's Kafka Connect schema (params: its parameters' text, reset first). */
void rc_dbz_col_schema(up_enc *e, const rc_column *c, col_schema *s, rc_buf *params);
bool rc_dbz_array_elem(up_enc *e, const rc_column *c, rc_column *out);
void rc_dbz_put_field_schema(rc_buf *b, const col_schema *s, bool optional, const char *field, size_t fn);
/* Column i of ev; dflt: its default as JSON (rc_dbz_default_json), NULL when none. */
void rc_dbz_put_column_schema(up_enc *e, rc_buf *b, const rc_event *ev, uint32_t i, bool optional, rc_buf *params, rc_buf *dflt);
/* ---- debezium_up_srctype.c: column/datatype.propagate.source.type ---- */
/* Compiles the options' comma-separated expressions (NULL: none) into e. */
rc_status rc_dbz_srctype_open(up_enc *e, const char *columns, const char *datatypes, rc_error *err);
void rc_dbz_srctype_close(up_enc *e);
/* Column i's source type into s's parameters (params), when its name or its type's matches. */
/* Column selectors (Debezium's Predicates.includes): an option's comma-separated expressions,
 * each compiled to match a whole name case-insensitively, appended to *rs (opt names the
 * option in an error). */
rc_status rc_dbz_selectors_compile(const char *opt, const char *list, regex_t **rs, size_t *n, rc_error *err);
/* Whether "db.table.<last>" (PostgreSQL: "schema.table.<last>") matches one of rs: <last> is
 * column i's name, or with by_type its type's as __debezium.source.column.type writes it
 * (Debezium's fullyQualifiedColumnDatatype). */
bool rc_dbz_selectors_match(const rc_event *ev, uint32_t i, bool by_type, const regex_t *rs, size_t n);
/* ---- debezium_up_boolconv.c: converters=boolean (TinyIntOneToBooleanConverter) ---- */
rc_status rc_dbz_boolconv_open(up_enc *e, const rc_dbz_opts *o, rc_error *err);
void rc_dbz_boolconv_close(up_enc *e);
/* ev, or when the converter takes some of its columns a copy of it in *copy with those columns
 * BOOLEAN and their values and defaults booleans (valid until the next call). */
const rc_event *rc_dbz_boolconv(up_enc *e, const rc_event *ev, rc_event *copy);
void rc_dbz_srctype_params(up_enc *e, const rc_event *ev, uint32_t i, col_schema *s, rc_buf *params);
/* Column c's default (rc_event.dflts: the text of a value) as its schema's "default" JSON, into
 * out (emptied first); false when it is none Debezium writes. */
bool rc_dbz_default_json(up_enc *e, const rc_column *c, rc_str text, rc_buf *out);
void rc_dbz_put_simple_field(rc_buf *b, const char *type, bool optional, const char *field);
/* A field of a schema written from a list: its name, its Connect type, whether optional. */
typedef struct rc_dbz_field {
    const char *name, *type;
    bool optional;
} rc_dbz_field;
/* The fields of list f (ending with {0}) as rc_dbz_put_simple_field writes them, separated by
 * commas, and a comma before the first too when `comma_first`. */
void rc_dbz_put_simple_fields(rc_buf *b, const rc_dbz_field *f, bool comma_first);
/* ts_us and ts_ns, optional int64s: what 2.6 (DBZ-7107) adds to the envelope and the source. */
extern const rc_dbz_field rc_dbz_ts_us_ns[];

/* ---- values (debezium_up_values.c; Avro: debezium_up_avro.c) ---- */

/* A column's value as Kafka Connect holds it once every rule of the connector and the handling
 * modes is applied (rc_dbz_connect_value): the JSON and the Avro writers only encode it. */
typedef enum dbz_cv_kind {
    CV_NULL,
    CV_BOOL,     /* b */
    CV_INT,      /* i: int16, int32, int64 */
    CV_UINT,     /* u (at most INT64_MAX): int64 */
    CV_FLOAT,    /* f32: float32 */
    CV_DOUBLE,   /* f64 */
    CV_TEXT,     /* s: a string */
    CV_ASCII,    /* a string needing no JSON escape: s, or what fmt writes (formatted when written) */
    CV_BYTES,    /* s: bytes */
    CV_DECIMAL,  /* dec: Decimal bytes (the unscaled value's two's complement) */
    CV_VSDECIMAL, /* dec: VariableScaleDecimal {scale, value} */
    CV_POINT,    /* io.debezium.data.geometry.Point {x, y, wkb, srid}: geo and the WKB in e->scratch */
    CV_GEOMETRY, /* io.debezium.data.geometry.Geometry {wkb, srid} */
    CV_ARRAY,    /* s: a PostgreSQL array literal (JSON only) */
    CV_JSON,     /* s: its JSON text (upstream's placeholder array) */
} dbz_cv_kind;
typedef enum { CV_FMT_NONE, CV_FMT_DEC_PLAIN, CV_FMT_DEC_JAVA, CV_FMT_TIMESTAMP, CV_FMT_DATETIME, CV_FMT_HEX, CV_FMT_BASE64, CV_FMT_BASE64URL } dbz_cv_fmt;
typedef struct dbz_cv {
    dbz_cv_kind kind;
    dbz_cv_fmt fmt; /* CV_ASCII */
    union {
        bool b;
        int64_t i;
        uint64_t u;
        float f32;
        double f64;
        rc_str s;
        rc_decimal dec;
        const rc_value *v; /* CV_ASCII with fmt: the value formatted */
        rc_wkb_info geo;
    };
    char own[24]; /* bytes the value points into (an unsigned's digits, bits) */
    int width;    /* CV_FMT_TIMESTAMP: zoned_width */
} dbz_cv;

bool rc_dbz_rescale(const rc_decimal *d, int32_t scale, rc_buf *digits, rc_decimal *out);
/* Value v of column c as Kafka Connect holds it; RC_SKIP (the reason in err) when upstream
 * Debezium cannot write it. The cv may point into e's buffers until the next value. */
rc_status rc_dbz_connect_value(up_enc *e, const rc_column *c, const rc_value *v, dbz_cv *cv, rc_error *err);
/* The error of an unchanged TOAST value (RC_V_UNAVAILABLE) where no placeholder fits. */
rc_status rc_dbz_unavailable_error(const rc_column *c, bool avro, rc_error *err);
/* A CV_ASCII's text without quotes. */
void rc_dbz_put_ascii(up_enc *e, rc_buf *b, const dbz_cv *cv);
/* Value v of column c in JSON. */
rc_status rc_dbz_put_value(up_enc *e, rc_buf *b, const rc_column *c, const rc_value *v, rc_error *err);

/* ---- the source block (debezium_up_source.c) ---- */

/* Milliseconds as C's us / 1000 (toward zero): the µs digits without the last three. */
static inline void put_ms(rc_buf *b, const us_text *t)
{
    if (t->n - (t->s[0] == '-') <= 3) rc_buf_putc(b, '0');
    else rc_buf_put(b, t->s, t->n - 3);
}

/* Nanoseconds from microseconds as exact digits (us followed by 000): no int64 overflow
 * beyond the year 2262. */
static inline void put_ns(rc_buf *b, const us_text *t)
{
    rc_buf_put(b, t->s, t->n);
    if (t->n != 1 || t->s[0] != '0') RC_BUF_LIT(b, "000");
}

/* The same written at w, which has room for 24 bytes more than they take (a whole us_text is
 * copied, a fixed size the compiler inlines): each returns the end. For the fields of an event
 * written after one reservation. */
static inline char *raw_put(char *w, const char *s, size_t n)
{
    memcpy(w, s, n);
    return w + n;
}
#define RAW_LIT(w, lit) raw_put((w), (lit), sizeof(lit) - 1)
static inline char *raw_us(char *w, const us_text *t)
{
    memcpy(w, t->s, sizeof t->s);
    return w + t->n;
}
static inline char *raw_ms(char *w, const us_text *t)
{
    if (t->n - (t->s[0] == '-') <= 3) return raw_put(w, "0", 1);
    memcpy(w, t->s, sizeof t->s);
    return w + t->n - 3;
}
static inline char *raw_ns(char *w, const us_text *t)
{
    w = raw_us(w, t);
    return t->n != 1 || t->s[0] != '0' ? RAW_LIT(w, "000") : w;
}

bool rc_dbz_lsn_value(rc_str s, uint64_t *out);
void rc_dbz_put_source(up_enc *e, rc_buf *b, const rc_event *ev, int conn);
void rc_dbz_source_schema(up_enc *e, rc_buf *b, int conn); /* its Kafka Connect schema */
void rc_dbz_snapshot_schema(const up_enc *e, rc_buf *b);    /* the source's snapshot field (an Enum) */
void rc_dbz_transaction_schema(const up_enc *e, rc_buf *b); /* the envelope's transaction field */

/* ---- the MongoDB connector's messages, for document events (debezium_mongo_write.c) ---- */
rc_status rc_dbz_mongo_value(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err);
rc_status rc_dbz_mongo_key_put(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err);

/* ---- topic.naming.strategy unicode and regex (debezium_up_naming.c) ---- */

/* e->naming from the options (NULL with the default strategy); RC_ERR_USAGE for a bad regex. */
rc_status rc_dbz_naming_open(up_enc *e, const rc_dbz_opts *o, rc_error *err);
void rc_dbz_naming_close(up_enc *e);
/* Appends the topic of ev's table as the strategy names it; false with the default strategy
 * (the pipeline's template then) or for an event without a table. */
bool rc_dbz_naming_topic(up_enc *e, const rc_event *ev, rc_buf *topic);
/* The regex strategy's key field (topic.key.field.name): its schema after the key columns', and
 * its value added to the key struct b ends with. Nothing without one. */
void rc_dbz_naming_key_schema(const up_enc *e, rc_buf *b);
void rc_dbz_naming_key(up_enc *e, const rc_event *ev, rc_buf *b);
/* The router's schema name prefix of ev's table (its new topic) in *p, *n when it rerouted it;
 * false otherwise (the table's own name then). */
bool rc_dbz_naming_prefix(up_enc *e, const rc_event *ev, const char **p, size_t *n);

/* ---- name adjustment (debezium_up_names.c) ---- */

/* Name s adjusted as Debezium's SchemaNameAdjuster does in `mode` (field: a field name, where a
 * dot is replaced too) appended to out; true when it differs from s. */
bool rc_dbz_adjust_name(rc_buf *out, const char *s, size_t n, int mode, bool field);
/* Topic name s as AbstractTopicNamingStrategy.sanitizedTopicName makes it valid ('_' for each
 * character Kafka does not allow; unicode: _uXXXX, '_' included), appended to out. */
void rc_dbz_topic_sanitize(rc_buf *out, const char *s, size_t n, bool unicode);
/* A column's field name under field.name.adjustment.mode (valid until the next call). */
static inline rc_str rc_dbz_field_name(up_enc *e, rc_str name)
{
    if (e->field_adjust == DBZ_ADJUST_NONE) return name;
    rc_buf_reset(&e->fieldname);
    rc_dbz_adjust_name(&e->fieldname, name.p, name.n, e->field_adjust, true);
    return e->fieldname.err == RC_OK ? (rc_str){e->fieldname.data, e->fieldname.len} : name;
}

/* ---- names and schemas (debezium_up_schemas.c), keys (debezium_up_keys.c), transactions
 * (debezium_up_tx.c) ---- */

/* The table's schema name prefix (whole, in e->name) and, with schemas on, the opening of
 * {"schema": <the table's cached value or key schema>, "payload": ... */
rc_status rc_dbz_open_envelope(up_enc *e, up_slot *slots, bool key, const rc_event *ev, int conn, rc_buf *b, rc_error *err);
/* The JSON "name": texts of a cached column list (rc_event.cols_id), made once per list into
 * e->keys: false when the list is not cached; rc_dbz_put_col_key writes column i's, from them
 * when `cached`. */
bool rc_dbz_column_keys(up_enc *e, const rc_event *ev);
void rc_dbz_put_col_key(up_enc *e, rc_buf *b, const rc_event *ev, uint32_t i, bool cached);
rc_status rc_dbz_put_key_fields(up_enc *e, rc_buf *b, const rc_event *ev, const rc_value *img, rc_error *err);
void rc_dbz_tx_enter(up_enc *e, const rc_event *ev);

/* ---- the transaction-metadata and schema-change topics (debezium_topics.c) ---- */

/* The open transaction's per-table counts. */
typedef struct rc_dbz_tx rc_dbz_tx;
rc_dbz_tx *rc_dbz_tx_new(void);
void rc_dbz_tx_free(rc_dbz_tx *t);
/* Counts a message of row event ev in its transaction: its order among its table's, from 1. */
uint64_t rc_dbz_tx_count(rc_dbz_tx *t, const rc_event *ev);
/* The transaction id as Debezium writes it, the body of a JSON string (the transaction block's
 * "id" and the transaction topic's). */
void rc_dbz_put_tx_id(up_enc *e, rc_buf *b, const rc_event *ev);
/* Whether ev (a BEGIN/COMMIT marker, a DDL event) has a message in one of these topics with
 * the options given; its value, key and topic (partition) then. */
bool rc_dbz_topics_has(const up_enc *e, const rc_event *ev);
rc_status rc_dbz_topics_value(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err);
rc_status rc_dbz_topics_key(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err);
void rc_dbz_topics_topic(up_enc *e, const rc_event *ev, rc_buf *topic, int32_t *partition);

#endif
