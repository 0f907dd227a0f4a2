/* The table-structure history of a MySQL/MariaDB capture: the structure of every captured
 * table at the current binlog position. It is filled from information_schema at the start
 * (my_source.c), changed by every DDL statement the binlog carries (rc_my_history_ddl parses
 * CREATE / ALTER / RENAME / DROP / TRUNCATE TABLE of MySQL's and MariaDB's dialects), and
 * written into the checkpoint with the position, so that a restart at an old position knows
 * the tables as they were there. The event decoder asks it for a table's columns and checks
 * them against each TABLE_MAP. */
#ifndef ROWCAST_MY_SCHEMA_H
#define ROWCAST_MY_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/types.h"
#include "rowcast/value.h"

typedef struct rc_my_table_col {
    rc_str name;
    rc_coltype type;   /* parsed with family MySQL: "decimal(10,2) unsigned", "enum('a','b')", "inet6" */
    bool nullable;
    uint16_t pk;       /* 0, or the k-th column of the primary key (1-based) */
    bool generated;    /* GENERATED ALWAYS AS (…) VIRTUAL/STORED */
    bool invisible;    /* INVISIBLE (MySQL 8.0.23+, MariaDB 10.3+) */
    uint16_t collation; /* character columns: collation id when known, 0 otherwise */
} rc_my_table_col;

typedef struct rc_my_table {
    rc_str db, name;
    uint32_t ncols;
    const rc_my_table_col *cols; /* in ordinal order, as the binlog's row images have them */
} rc_my_table;

/* What a DDL statement did, for the DDL events of the formats (Canal, OMS, DRS, Debezium's
 * schema-change topic): the kind as rc_event.ddl_kind names it ("CREATE_TABLE",
 * "ALTER_TABLE", "RENAME_TABLE", "DROP_TABLE", "TRUNCATE_TABLE", "CREATE_DATABASE", … "OTHER"),
 * and the table (after a rename: the new name; old_* the old one). */
typedef struct rc_my_ddl_result {
    const char *kind;
    rc_str db, table, old_db, old_table;
    bool changed; /* the history changed (a statement of no table, such as GRANT: false) */
} rc_my_ddl_result;

typedef struct rc_my_history rc_my_history;

rc_my_history *rc_my_history_new(void);
void rc_my_history_free(rc_my_history *h);

/* Adds or replaces a table's structure (copied). */
rc_status rc_my_history_put(rc_my_history *h, const rc_my_table *t, rc_error *err);

/* The structure of db.table now, NULL when the history does not know it. Valid until the next
 * change of the history. Names compare as the server does by default on Linux
 * (lower_case_table_names=0: case-sensitive tables and databases, columns not). */
const rc_my_table *rc_my_history_get(const rc_my_history *h, rc_str db, rc_str table);

/* Applies one statement of a QUERY event (`db` is the event's default database, for
 * unqualified names). Statements that change no table structure (GRANT, CREATE USER, …) are
 * OTHER and change nothing. A table statement it cannot parse is an error naming the
 * statement and the byte, never a guess. */
rc_status rc_my_history_ddl(rc_my_history *h, rc_str db, rc_str sql, rc_my_ddl_result *out, rc_error *err);

/* The whole history as text (appended to out), for the checkpoint file, and back: a history
 * read from the text equals the one written. */
void rc_my_history_write(const rc_my_history *h, rc_buf *out);
rc_status rc_my_history_read(rc_my_history *h, const char *text, size_t n, rc_error *err);

#endif
