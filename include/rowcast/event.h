/* The canonical change event: the one structure every source and decoder produces and
 * every encoder consumes. It carries everything any format needs (ARCHITECTURE.md §2), so
 * no encoder has to guess. All pointers are borrowed; whoever fills an event (a decoder, a
 * source) owns the memory, usually an rc_arena reset after the sink has taken the event. */
#ifndef ROWCAST_EVENT_H
#define ROWCAST_EVENT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include "rowcast/api.h"
#include "rowcast/types.h"
#include "rowcast/value.h"

typedef enum rc_op {
    RC_OP_INSERT = 0,
    RC_OP_UPDATE,
    RC_OP_DELETE,
    RC_OP_READ, /* snapshot read / full sync / INIT */
    RC_OP_DDL,
    RC_OP_TRUNCATE,
    RC_OP_HEARTBEAT,
    RC_OP_BEGIN,
    RC_OP_COMMIT,
    RC_OP_COUNT
} rc_op;

typedef enum rc_dbkind {
    RC_DB_UNKNOWN = 0,
    RC_DB_MYSQL,
    RC_DB_MARIADB,
    RC_DB_OB_MYSQL,  /* OceanBase, MySQL tenant */
    RC_DB_OB_ORACLE, /* OceanBase, Oracle tenant */
    RC_DB_ORACLE,
    RC_DB_POSTGRES,
    RC_DB_SQLSERVER,
    RC_DB_COUNT
} rc_dbkind;

typedef struct rc_column {
    rc_str name;
    rc_coltype type;
    uint16_t pk; /* 0: not in the primary (or unique) key; k >= 1: the k-th key column */
    bool nullable;
    /* The java.sql.Types code the input stated for the column (Canal's sqlType, which Canal
     * derives from the binlog value and which is not always the catalog's: VARBINARY is -3 in
     * one message and 2004 in the next), valid when has_jdbc; writers of such a code use it
     * instead of the catalog's, so that Canal -> native -> Canal gives the input's codes back */
    int16_t jdbc;
    bool has_jdbc;
} rc_column;

/* One table's share of a transaction (Debezium's END message: data_collections). */
typedef struct rc_tx_collection {
    rc_str name;    /* "db.table" or "schema.table" as the input names it */
    uint64_t count; /* the transaction's events of that table */
} rc_tx_collection;

/* Where the event came from in its source. Absent strings have n == 0. */
typedef struct rc_origin {
    rc_dbkind kind;
    rc_str server;  /* logical server name */
    rc_str version; /* server version */
    rc_str tenant;  /* OceanBase tenant */
    rc_str db;
    rc_str schema;
    rc_str table;
} rc_origin;

typedef struct rc_position {
    rc_str file;     /* binlog file */
    uint64_t offset; /* binlog offset, valid when has_offset */
    bool has_offset;
    rc_str gtid;
    rc_str lsn;      /* PostgreSQL LSN as text ("0/16B3748") */
    rc_str last_commit_lsn; /* PostgreSQL: the end LSN of the last transaction committed before this
                             * event's (the XLogData start of its Commit message), as text; empty
                             * when none is known. Upstream Debezium's source.sequence is
                             * ["<last_commit_lsn>","<lsn>"] in decimal */
    rc_str scn;      /* Oracle / OceanBase SCN */
    rc_str txid;     /* transaction id */
    rc_str checkpoint; /* resumable checkpoint as the source states it (OceanBase/OMS: epoch
                        * seconds, which lag the change time) */
    uint64_t seq;    /* monotonically increasing sequence, valid when has_seq */
    bool has_seq;
    uint32_t tx_index; /* order of the event inside its transaction (0-based), valid when has_tx_index */
    bool has_tx_index;
    uint32_t tx_count; /* number of events in the transaction, valid when has_tx_count */
    bool has_tx_count;
    /* COMMIT: the transaction's events per table as the input stated them (Debezium's END
     * data_collections), so that a writer of such counts gives them back even when the rows
     * it saw are not all of the transaction's; NULL when not stated (ncollections 0 with a
     * non-NULL pointer: an empty list) */
    const rc_tx_collection *collections;
    uint32_t ncollections;
    /* MySQL binlog details Debezium reports: server id, row index in the rows event, thread
     * id, the statement text (when binlog_rows_query_log_events is on) */
    uint64_t server_id, thread, xmin; /* xmin: PostgreSQL */
    uint32_t row;
    bool has_server_id, has_thread, has_row, has_xmin;
    rc_str query;
} rc_position;

typedef struct rc_event {
    rc_op op;
    rc_origin src;
    rc_position pos;
    int64_t ts_us;   /* change time at the source, µs since epoch; has_ts */
    int64_t proc_us; /* processing time, µs since epoch; has_proc */
    bool has_ts, has_proc;
    bool before_key_only;   /* the before image holds the key columns' values only, the others
                             * NULL as the source sent them (PostgreSQL replica identity
                             * DEFAULT or INDEX) */
    uint32_t ncols;
    const rc_column *cols;
    /* Non-NULL when cols is a decoder's cached list (rc_colcache): it neither changes nor goes
     * away while the decoder lives, so an encoder may keep what it derives from the columns
     * alone (a type map, names as JSON) under this pointer. NULL: derive it for every event. */
    const void *cols_id;
    const rc_value *before; /* ncols values or NULL when the event has no before image */
    const rc_value *after;  /* ncols values or NULL */
    const uint8_t *changed; /* UPDATE: ncols flags (1 = changed), or NULL when unknown */
    /* The columns' DEFAULTs (ncols entries, as cols; the same lifetime), NULL when the source
     * says none: each the text of a value (what a SELECT of it gives: "station", "1976-08-23",
     * "5.6"; a BIT's as its number), p NULL for a column without one (no DEFAULT, DEFAULT NULL,
     * an expression). Debezium writes them in its schemas. Beside cols rather than in them: a
     * column stays small for the encoders' loops over it. */
    const rc_str *dflts;
    rc_str snapshot;        /* snapshot marker as the source states it ("true", "last", "false",
                             * "incremental" and its table edges: rc_event_incremental);
                             * empty: "true" for snapshot reads, "false" otherwise */
    rc_str ddl;             /* DDL statement text */
    rc_str ddl_kind;        /* e.g. "CREATE_TABLE", "ALTER_TABLE" */
    rc_str table_charset;   /* DDL with cols (the table's structure after the statement): the
                             * table's default character set, n 0 when unknown */
    /* A change of a document (MongoDB: a collection's insert, update, replace or delete), NULL
     * for every row event: the document, update description or filter as a BSON-faithful
     * value tree (docs/design/documents.md). Such an event has no columns; its origin's db
     * and table are the database and the collection. Internal for now (src/core/bson.h). */
    const struct rc_doc_change *doc;
} rc_event;

RC_API const char *rc_op_name(rc_op op);       /* "insert", "update", ... */
RC_API bool rc_op_parse(const char *s, size_t n, rc_op *out);
RC_API const char *rc_dbkind_name(rc_dbkind k); /* "mysql", "ob_oracle", ... */
RC_API bool rc_dbkind_parse(const char *s, size_t n, rc_dbkind *out);
RC_API rc_family rc_dbkind_family(rc_dbkind k);

/* The key columns of `ev` in key order: writes up to `max` column indexes to `out` and
 * returns how many key columns there are. */
RC_API uint32_t rc_event_pk(const rc_event *ev, uint32_t *out, uint32_t max);

/* For readers of formats whose type names carry no fractional-second precision (OMS and DRS
 * names, DataWorks types): a DATETIME, TIME or TIMESTAMP column declared without one gets the
 * precision its values in this event have ("…59.999999": datetime(6)), so that no writer
 * picking its unit from the declaration cuts them (upstream Debezium: milliseconds up to 3).
 * The columns are then copied into `a` and the event's own (cols_id NULL); parsed types come
 * from `types`. A type that takes no precision (Oracle DATE) stays as it is. */
struct rc_type_cache;
struct rc_arena;
RC_API rc_status rc_event_fit_fractions(rc_event *ev, struct rc_arena *a, struct rc_type_cache *types, rc_error *err);

/* Field-by-field equality of two events (names, types, values, positions, times). When
 * not equal and `why` is non-NULL, a short description of the first difference. */
RC_API bool rc_event_equal(const rc_event *a, const rc_event *b, char *why, size_t whylen);

/* Whether one of cols[0..n) is named `name`: decoders refuse a message that names a column
 * twice (a JSON object with a repeated key), since every format keys values by name. */
RC_API bool rc_column_name_taken(const rc_column *cols, uint32_t n, rc_str name);

/* RC_OK when s is a PostgreSQL LSN as rc_position.lsn and last_commit_lsn hold it: "X/Y", the
 * halves 1 to 8 hex digits ("0/16B3748", PostgreSQL's own text), or the same number in decimal
 * (Debezium's source.lsn), without sign or leading zero, below 2^64. Otherwise RC_ERR_VALUE at
 * byte `off`: "<what> must be a PostgreSQL LSN, ..., found "<s>"". Readers refuse anything else,
 * so that no writer meets a position it would have to drop or wrap. */
RC_API rc_status rc_lsn_text_check(rc_str s, const char *what, size_t off, rc_error *err);

/* For encoders of rows, which have no way to write a document change (rc_event.doc) nor
 * RC_V_UNAVAILABLE (a value the source did not send,
 * such as PostgreSQL's unchanged TOAST values): RC_SKIP with a message naming the first such
 * column and `format` when the event holds one, so that the event is reported as not
 * expressible instead of written with an invented value (a document change likewise, naming
 * the collection and `format`); RC_OK otherwise. */
RC_API rc_status rc_event_refuse_unavailable(const rc_event *ev, const char *format, rc_error *err);

/* Whether BIT value u fits the column's declared width (always true without a width). */
static inline bool rc_bits_fit(const rc_column *col, uint64_t u)
{
    return !(col->type.p1 > 0 && col->type.p1 < 64 && (u >> col->type.p1));
}

/* Incremental snapshots (docs/design/incremental-snapshots.md §6): a row read while the stream
 * runs is an RC_OP_READ with snapshot "incremental"; each table's snapshot opens and closes with
 * an edge, an RC_OP_READ without row images (its columns may be given) whose snapshot is
 * "incremental:start", then "incremental:end" (read whole) or "incremental:stopped" (a stop
 * signal). The pipeline drops the edges unless the format sets rc_format.snapshot_edges. */
typedef enum rc_incremental {
    RC_INCR_NONE = 0, /* not an incremental snapshot's event */
    RC_INCR_READ,     /* "incremental": a row */
    RC_INCR_START,    /* "incremental:start" */
    RC_INCR_END,      /* "incremental:end" */
    RC_INCR_STOPPED,  /* "incremental:stopped" */
} rc_incremental;

/* What an RC_OP_READ's snapshot marker says of it (RC_INCR_NONE for other ops). */
static inline rc_incremental rc_event_incremental(const rc_event *ev)
{
    static const char *const marks[] = {"incremental", "incremental:start", "incremental:end", "incremental:stopped"};
    if (ev->op != RC_OP_READ || ev->snapshot.n < 11 || memcmp(ev->snapshot.p, "incremental", 11)) return RC_INCR_NONE;
    for (int k = 0; k < 4; k++)
        if (ev->snapshot.n == strlen(marks[k]) && !memcmp(ev->snapshot.p, marks[k], ev->snapshot.n)) return (rc_incremental)(k + 1);
    return RC_INCR_NONE;
}

/* A table edge of an incremental snapshot (start, end or stopped). */
static inline bool rc_event_snapshot_edge(const rc_event *ev) { return rc_event_incremental(ev) >= RC_INCR_START; }

#endif
