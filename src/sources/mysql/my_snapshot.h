/* The snapshot of a MySQL/MariaDB capture (docs/sources/mysql.md, "Snapshot"): a consistent
 * read view and the binlog position it is at, the structures of the tables from
 * information_schema (for the schema history and for the snapshot's columns), and the rows of
 * the included tables read in primary-key chunks, each parsed by its declared type so that a
 * snapshot value equals the same value decoded from the binlog.
 *
 *   MariaDB: START TRANSACTION WITH CONSISTENT SNAPSHOT, then SHOW STATUS LIKE
 *     'binlog_snapshot_%' (the binlog file:pos of that view, no lock) and BINLOG_GTID_POS.
 *   MySQL: FLUSH TABLES WITH READ LOCK, START TRANSACTION WITH CONSISTENT SNAPSHOT, SHOW MASTER
 *     STATUS (file, pos, Executed_Gtid_Set), UNLOCK TABLES: the lock is held for those three
 *     statements only. Without the RELOAD privilege the lock is refused and the message says
 *     what to grant. */
#ifndef ROWCAST_SOURCES_MY_SNAPSHOT_H
#define ROWCAST_SOURCES_MY_SNAPSHOT_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/event.h"
#include "sources/mysql/my_conn.h"
#include "sources/mysql/my_schema.h"

/* Where the read view is in the binlog. */
typedef struct rc_my_snap_pos {
    char file[256];
    uint64_t offset;
    char *gtids; /* the GTID set of the view as the server writes it (malloc'd; "" without GTIDs) */
} rc_my_snap_pos;

/* A table of the history (as information_schema has it at the start) with what the snapshot
 * and its events need. */
typedef struct rc_my_snap_table {
    const rc_my_table *t;   /* the history's: valid while the history does not change (the snapshot) */
    rc_column *cols;        /* the events' columns */
    rc_str *dflts;          /* their defaults (rc_event.dflts; the history's texts), NULL when none;
                             * in cols' block (freed with it) */
    uint32_t *pk;           /* the key columns' indexes, in key order */
    uint32_t npk;
    uint64_t rows_estimate; /* information_schema.TABLES.TABLE_ROWS */
    char *qname;            /* "db.table" (malloc'd): a name that outlives a DDL that frees `t` */
    bool included;          /* --include keeps it: its rows are read */
} rc_my_snap_table;

/* Starts the read view on `m` (a session of its own: the view lasts until rc_my_snapshot_end)
 * and gives its position. */
rc_status rc_my_snapshot_begin(MYSQL *m, const rc_my_url *u, bool mariadb, rc_my_snap_pos *pos, rc_error *err);
/* MariaDB: START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY and the view's exact binlog
 * position (binlog_snapshot_file/position; p->gtids untouched): an incremental chunk's point. */
rc_status rc_my_snapshot_view(MYSQL *m, const rc_my_url *u, rc_my_snap_pos *p, rc_error *err);
rc_status rc_my_snapshot_end(MYSQL *m, const rc_my_url *u, rc_error *err);
void rc_my_snap_pos_fini(rc_my_snap_pos *p);

/* The structures of every base table outside the system databases (the URL's database only
 * when it names one) into the history h, and those tables in (database, table) order;
 * `accept` (NULL: all) marks which are included. */
rc_status rc_my_tables_load(MYSQL *m, const rc_my_url *u, rc_my_history *h, bool (*accept)(void *, rc_str, rc_str), void *ctx,
                            rc_my_snap_table **out, size_t *n, rc_error *err);
void rc_my_tables_free(rc_my_snap_table *t, size_t n);

/* Reads one table's rows chunk by chunk (ORDER BY the primary key, LIMIT chunk rows, each
 * chunk after the last key of the one before; a table without a key in one query), one row at
 * a time: memory stays flat whatever the table's size. */
typedef struct rc_my_snap_reader rc_my_snap_reader;
/* More key columns than an index can have (MariaDB: 32, MySQL: 16). */
#define RC_MY_SNAP_MAX_KEY 64
rc_my_snap_reader *rc_my_snap_reader_new(MYSQL *m, const rc_my_url *u, const rc_my_snap_table *t, uint32_t chunk);
/* The next row as the text protocol has it: fields[i] (NULL for NULL) of lens[i] bytes, valid
 * until the next call; RC_OK with *got true, or *got false after the last row. */
rc_status rc_my_snap_reader_next(rc_my_snap_reader *r, char ***fields, unsigned long **lens, bool *got, rc_error *err);
/* The values of one row of t into vals[0..ncols) (strings in `a`). */
rc_status rc_my_snap_row_parse(const rc_my_snap_table *t, char *const *fields, const unsigned long *lens, rc_arena *a,
                               rc_value *vals, rc_error *err);
/* Every chunk's rows also match this SQL condition (an execute-snapshot's additional-conditions,
 * run as written; the string outlives the reader's use of it), NULL: none. */
void rc_my_snap_reader_filter(rc_my_snap_reader *r, const char *filter);
/* Ends the chunk being read (what is left of it is dropped) and sets the next chunks' size:
 * the next rc_my_snap_reader_next reads a new chunk after the last key read. */
void rc_my_snap_reader_chunk(rc_my_snap_reader *r, uint32_t chunk);
/* Where the reader is (the last key read, empty at the table's start) into out, and a reader
 * sent back there (the chunk being read dropped, the table not ended): a chunk read again. */
rc_status rc_my_snap_reader_mark(rc_my_snap_reader *r, rc_buf *out);
rc_status rc_my_snap_reader_rewind(rc_my_snap_reader *r, const rc_buf *mark);
/* Before the first row: the reader starts after this key (the key columns' values in key
 * order, as the text protocol sends them: an incremental snapshot resumed from its state). */
rc_status rc_my_snap_reader_resume(rc_my_snap_reader *r, const char *const *keys, const unsigned long *lens, rc_error *err);
/* The events' columns and the primary key of a table of the history (freed by rc_my_tables_free). */
rc_status rc_my_snap_table_of(const rc_my_table *t, rc_my_snap_table *st, rc_error *err);
void rc_my_snap_reader_free(rc_my_snap_reader *r);

/* One value of column `c` as the text protocol sends it, parsed as the binlog decoder would
 * have it (BIT as its number, GEOMETRY from SRID + WKB, TIMESTAMP in UTC...). */
rc_status rc_my_text_value(const rc_column *c, const char *s, size_t n, rc_arena *a, rc_value *out, rc_error *err);

#endif
