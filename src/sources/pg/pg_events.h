/* pg_events: decoded pgoutput messages (pgoutput.h) -> canonical change events (event.h), as a
 * format decoder fills them (docs/sources/postgres.md, "Events").
 *
 * Each message becomes zero or more events appended to an rc_event_list, their values and
 * position strings in the caller's arena:
 *   Begin            RC_OP_BEGIN: txid, lsn = the commit LSN (Begin's final LSN), commit time
 *   Insert           RC_OP_INSERT, after image
 *   Update           RC_OP_UPDATE, after image; before image = the old key ('K', before_key_only
 *                    set, non-key columns NULL as the server sends them), the old row ('O',
 *                    REPLICA IDENTITY FULL) or none (the key did not change)
 *   Delete           RC_OP_DELETE, before image = the old key (before_key_only) or the old row
 *   Truncate         one RC_OP_TRUNCATE per relation, columns but no images
 *   Commit           RC_OP_COMMIT: txid, lsn = commit LSN, checkpoint = the end LSN (the
 *                    transaction's acknowledgeable position), count = its row events
 *   Relation, Type   no event (the column list of a new relation version is built)
 *   Origin, Message  no event: rc_origin has no replication-origin field, and the logical
 *                    messages of pg_logical_emit_message are not changes of a table
 * Every row event carries the transaction's xid (pos.txid), its own LSN (pos.lsn, the
 * XLogData header's start), its 0-based order in the transaction (pos.index) and the commit
 * time (ts_us), which pgoutput sends in Begin. LSNs are written as PostgreSQL does ("0/16B3748").
 *
 * Origin: kind PostgreSQL, the configured server name and database, schema (namespace) and
 * table. Columns: the relation's names, the declared types of pg_value.h, pk = the rank of
 * the column among those flagged as key; with REPLICA IDENTITY FULL pgoutput flags every
 * column, which says nothing about the primary key, so no column is marked. pgoutput does not
 * send NOT NULL: key columns are not nullable, and the columns opts.primary_key (or the
 * catalog's relation flags) says are NOT NULL; every other column is. For FULL and NOTHING the
 * key is what opts.primary_key answers (the source reads the primary key from the catalog). The list is built once
 * per relation version and kept (with a reference on the version) for the decoder's life, so
 * that events may be held until the sink acknowledges them.
 *
 * Unchanged TOAST values ('u') are RC_V_UNAVAILABLE, except when the old row ('O') has the
 * column: then its value is the old one, as Debezium does.
 *
 * Protocol 2 streaming: the changes of a streamed transaction are held by the decoder as the
 * raw messages they came in (per top-level xid, tagged with their subtransaction, bound to
 * the relation version each was decoded against: pg_spill.h) until Stream Commit. Past
 * opts.spill_bytes of held messages in memory (all transactions together), the transaction
 * holding the most goes on in a temporary file in opts.spill_dir, unnamed, so that nothing
 * stays on disk after a crash. Stream Commit decodes the messages again, in order, one at a
 * time, and releases the events between a BEGIN and a COMMIT event in batches: the call that
 * adds the Stream Commit appends the BEGIN and the first ones (opts.release_events at most),
 * rc_pg_events_drain the next ones until rc_pg_events_pending is false, so that memory stays
 * bounded whatever the transaction's size. Stream Abort drops the transaction (and its file),
 * or marks its subtransaction's changes to be skipped. Held bytes, in memory and files, are
 * capped (opts.stream_max_bytes): past it the decoder fails with RC_ERR_LIMIT and a message
 * that says what to do. A spill file that cannot be created, written or read back is
 * RC_ERR_IO naming the transaction and the directory.
 *
 * Errors: a value that is not a value of its column's type is the pg_value error, prefixed
 * with the relation and LSN, err->offset the byte in the pgoutput message (none when the
 * change was held: its value is read at Stream Commit). */
#ifndef ROWCAST_SOURCES_PG_EVENTS_H
#define ROWCAST_SOURCES_PG_EVENTS_H

#include "rowcast/format.h"
#include "sources/pg/pg_value.h"
#include "sources/pg/pgoutput.h"

/* The primary key of a relation whose Relation message does not say it (REPLICA IDENTITY FULL
 * flags every column, NOTHING none): rank[i] = the 1-based position of column i in the key, 0
 * when not in it. False: unknown (no column is marked). not_null[i] (all false on entry): column
 * i is NOT NULL, which no Relation message says (a relation read from the catalog has it in its
 * flags, RC_PG_COLUMN_NOT_NULL). */
/* dflts[i] (all NULL on entry): column i's default as the text of a value (rc_pg_default_text),
 * malloc'd, the caller frees it. */
typedef bool rc_pg_key_fn(void *ud, const rc_pg_relation *rel, uint16_t *rank, bool *not_null, char **dflts);

typedef struct rc_pg_events_opts {
    const char *server;      /* logical server name (rc_origin.server); NULL or "": none */
    const char *db;          /* the database (rc_origin.db) */
    size_t stream_max_bytes; /* held streamed changes, all transactions, in memory and spill
                              * files (0: 16 GiB) */
    size_t spill_bytes;      /* held in memory before spilling to files (0: 8 MiB; SIZE_MAX:
                              * never spill) */
    const char *spill_dir;   /* where spill files are (NULL or "": $TMPDIR, else /tmp) */
    size_t release_events;   /* events a Stream Commit releases at most (0: 1024) */
    rc_pg_key_fn *primary_key; /* asked once per relation version; may be NULL */
    void *key_ud;
} rc_pg_events_opts;

typedef struct rc_pg_events rc_pg_events;

/* `types` (enum and domain types; may be NULL) must outlive the decoder. NULL when out of memory.
 */
rc_pg_events *rc_pg_events_new(const rc_pg_events_opts *opts, const rc_pg_types *types);
/* Releases the held transactions and the column lists (and their relation references). */
void rc_pg_events_free(rc_pg_events *e);

/* Turns message m, decoded from msg[0..len) (for error offsets; may be NULL except for the
 * changes of a streamed transaction, which are held as these bytes), into events appended to
 * out, allocated in a. On error nothing is appended and the state is unchanged, except that a
 * failing streamed change leaves its transaction held as it was, and a Stream Commit that
 * released some events stays pending. While rc_pg_events_pending, it refuses any message
 * (RC_ERR_USAGE). */
rc_status rc_pg_events_add(rc_pg_events *e, const rc_pgo_msg *m, const uint8_t *msg, size_t len,
                           rc_arena *a, rc_event_list *out, rc_error *err);

/* The commit LSN of the transaction whose events were appended last (Begin's final LSN; a
 * streamed one's at its Stream Commit), kept after its Commit: the order key's (rowcast/source.h,
 * rc_item_order). 0 before the first. */
uint64_t rc_pg_events_order_lsn(const rc_pg_events *e);

/* True while a committed streamed transaction has events not released yet. */
bool rc_pg_events_pending(const rc_pg_events *e);
/* Appends its next events to out (max_events at most, 0: opts.release_events; a Truncate of
 * more tables comes whole), allocated in a, which the caller may reset between calls; the
 * last call appends the COMMIT. Nothing to do when not pending. On error (a spill file that
 * cannot be read back, a value that is not of its type) nothing is appended and the
 * transaction stays pending at the same place. */
rc_status rc_pg_events_drain(rc_pg_events *e, size_t max_events, rc_arena *a, rc_event_list *out,
                             rc_error *err);

/* A new replication session: the server sends again every transaction not acknowledged, so
 * the open transaction and the held streamed ones (pending one included) are dropped. Column
 * lists stay. */
void rc_pg_events_session_reset(rc_pg_events *e);

/* True when no transaction is open, held or pending: a keepalive's end of WAL may then be
 * acknowledged once the sink has taken every event (pg_conn.h, rc_pg_stream_ack). */
bool rc_pg_events_idle(const rc_pg_events *e);

/* Bytes of streamed transactions held in memory now, and in spill files (metrics, tests). */
size_t rc_pg_events_held_bytes(const rc_pg_events *e);
uint64_t rc_pg_events_spilled_bytes(const rc_pg_events *e);

/* A snapshot row: one RC_OP_READ event with the after image of `row` (its values as COPY's
 * text, kind RC_PGO_TEXT or RC_PGO_NULL), with the origin and columns a streamed change of
 * `rel` gets, so both encode alike. `rel` is a catalog version (rc_pg_relation_new). No
 * position or transaction fields: the snapshot is no transaction of the stream. */
rc_status rc_pg_events_read(rc_pg_events *e, const rc_pg_relation *rel, const rc_pgo_tuple *row,
                            rc_arena *a, rc_event_list *out, rc_error *err);

#endif
