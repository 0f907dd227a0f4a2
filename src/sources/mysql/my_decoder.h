/* Binlog events -> canonical change events (rowcast/event.h), for the live MySQL/MariaDB
 * source (my_source.c) and for binlog files read offline (`convert --from mysql-binlog`).
 *
 * The caller hands over one whole event at a time as the server or the file frames it: the
 * 19-byte common header, the body, and the 4-byte CRC32 when the FORMAT_DESCRIPTION says so
 * (verified; a mismatch is an error). The decoder keeps the FORMAT_DESCRIPTION, the TABLE_MAPs
 * by table id, the current transaction (GTID, BEGIN … XID/COMMIT) and the GTID set, and turns
 *   QUERY BEGIN                 RC_OP_BEGIN
 *   WRITE/UPDATE/DELETE_ROWS    one RC_OP_INSERT / UPDATE / DELETE per row (v1 and v2; MySQL's
 *                               PARTIAL_UPDATE_ROWS with the JSON diff applied)
 *   XID, QUERY COMMIT           RC_OP_COMMIT
 *   QUERY with DDL              RC_OP_DDL (applied to the history first: rc_my_history_ddl)
 *   TRANSACTION_PAYLOAD         its inner events, zstd-decompressed, as if they came one by one
 * and every other event (FDE, ROTATE, GTID, GTID_LIST, PREVIOUS_GTIDS, ANNOTATE_ROWS,
 * ROWS_QUERY, HEARTBEAT, …) into no event, only state. Statement-based DML (a QUERY that is
 * INSERT/UPDATE/DELETE/REPLACE) cannot be captured: RC_ERR_UNSUPPORTED naming file and offset.
 *
 * Each row event: origin kind MySQL or MariaDB (from the FDE's server version), the
 * configured server name, db and table; columns from the TABLE_MAP completed by the history
 * (names "@1", "@2"… and types from the binlog alone when neither has them); position: the
 * binlog file name, the event's offset, the GTID of its transaction, server id, thread id (the
 * BEGIN's), row index in its rows event, the statement (ANNOTATE_ROWS / ROWS_QUERY) when
 * cfg.with_query; ts_us the event's timestamp. The events from a BEGIN to its COMMIT (those
 * included) have the transaction id Debezium's MySQL connector gives them: the GTID, else
 * "file=<binlog>,pos=<the BEGIN's offset>" (a DDL of its own has none). Columns a partial row image leaves out
 * (binlog_row_image=MINIMAL/NOBLOB) are RC_V_UNAVAILABLE, never NULL.
 *
 * A TABLE_MAP that disagrees with the history (column count, or a column's binlog type that
 * its declared type cannot have) is RC_ERR_SCHEMA naming the table, the file and offset, and
 * both structures. Every error names the binlog file and the event's offset. */
#ifndef ROWCAST_MY_DECODER_H
#define ROWCAST_MY_DECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/event.h"
#include "rowcast/format.h"
#include "my_gtid.h"
#include "my_schema.h"

typedef struct rc_my_decoder_config {
    const char *file;         /* the binlog file the first event comes from (ROTATE changes it) */
    rc_str server;            /* logical server name (rc_origin.server) */
    rc_my_history *history;   /* NULL: none (offline files without schema) */
    bool with_query;          /* the row events' statement text into pos.query */
    /* the column lists' cache, when it must outlive the decoder (a stream restarted at a
     * rotation makes a new decoder: its lists are rc_event.cols_id, which encoders remember
     * by address, so a freed one's address must not come back for another table); NULL: the
     * decoder's own */
    struct rc_colcache *cols;
    /* a DDL statement the history cannot apply (why: the parser's error; res: what it read of
     * the statement): NULL, the error stops the decoder; else this decides (RC_OK: the decoder
     * goes on with res as the statement's result; the live capture: my_ddl_fallback.h) */
    rc_status (*ddl_unapplied)(void *ctx, rc_str db, rc_str sql, const char *file, uint64_t offset, const rc_error *why,
                               rc_my_ddl_result *res, rc_error *err);
    void *ddl_ctx;
} rc_my_decoder_config;

/* Where the decoder stands: the last transaction boundary (what a checkpoint may hold: never
 * inside a transaction) and the current event. */
typedef struct rc_my_decoder_pos {
    const char *file;      /* binlog file name of the boundary (the decoder's memory) */
    uint64_t offset;       /* the offset just after the transaction's last event */
    const rc_my_gtid_set *gtids; /* executed GTID set at the boundary (the decoder's memory) */
    bool in_transaction;   /* the decoder is between a BEGIN and its COMMIT */
} rc_my_decoder_pos;

typedef struct rc_my_decoder rc_my_decoder;

rc_status rc_my_decoder_new(const rc_my_decoder_config *cfg, rc_my_decoder **out, rc_error *err);
void rc_my_decoder_free(rc_my_decoder *d);

/* Decodes the event ev[0..n) found at `offset` of the current binlog file, appending its
 * events to `out` (values in `a`; column lists are kept by the decoder per table structure
 * so that events may be held until the sink acknowledges them). The list's accept filter
 * (--include) is asked as soon as a TABLE_MAP names its table: rows of other tables are not
 * decoded. */
rc_status rc_my_decoder_feed(rc_my_decoder *d, const uint8_t *ev, size_t n, uint64_t offset, rc_event_list *out, rc_arena *a,
                             rc_error *err);
/* The same with the event's CRC32 (of ev[0..n-4)) computed by the caller: the live stream's
 * reader thread sums each event while the pipeline decodes the one before. The stored
 * checksum is compared with `sum` when the FDE says events have one, with the same error. */
rc_status rc_my_decoder_feed_summed(rc_my_decoder *d, const uint8_t *ev, size_t n, uint64_t offset, uint32_t sum, rc_event_list *out,
                                    rc_arena *a, rc_error *err);

/* The binlog file the next events come from, when the caller knows it without a ROTATE (an
 * offline reader opening its next input); copied. */
rc_status rc_my_decoder_set_file(rc_my_decoder *d, const char *file, rc_error *err);

/* Position of the last transaction boundary seen (see rc_my_decoder_pos). */
void rc_my_decoder_position(const rc_my_decoder *d, rc_my_decoder_pos *out);

/* The start GTID set (a resumed run's, or the server's gtid_purged/GTID_LIST) to which the
 * GTIDs of later transactions are added. */
rc_status rc_my_decoder_set_gtids(rc_my_decoder *d, const rc_my_gtid_set *g, rc_error *err);

#endif
