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
#include "rowcast/arena.h"
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
    rc_str dflt;        /* the DEFAULT as a value's text (rc_column.dflt), when has_dflt */
    bool has_dflt;
} rc_my_table_col;

typedef struct rc_my_table {
    rc_str db, name;
    uint32_t ncols;
    const rc_my_table_col *cols; /* in ordinal order, as the binlog's row images have them */
    uint16_t collation; /* the table's default collation id (what a column added without a
                         * charset gets), 0 when unknown */
} rc_my_table;

/* What a DDL statement did, for the DDL events of the formats (Canal, OMS, DRS, Debezium's
 * schema-change topic): the kind as rc_event.ddl_kind names it, i.e. rc_ddl_class_name's names
 * ("CREATE_TABLE", "ALTER_TABLE", "RENAME_TABLE", "DROP_TABLE", "TRUNCATE", "CREATE_INDEX",
 * "DROP_INDEX", "CREATE_DATABASE", "DROP_DATABASE", "OTHER"),
 * and the table (after a rename: the new name; old_* the old one). */
typedef struct rc_my_ddl_result {
    const char *kind;
    rc_str db, table, old_db, old_table;
    bool changed; /* the history changed (a statement of no table, such as GRANT, or one that left
                   * every structure as it was, such as ALTER TABLE t ADD INDEX: false) */
} rc_my_ddl_result;

typedef struct rc_my_history rc_my_history;

rc_my_history *rc_my_history_new(void);
void rc_my_history_free(rc_my_history *h);

/* Adds or replaces a table's structure (copied). */
rc_status rc_my_history_put(rc_my_history *h, const rc_my_table *t, rc_error *err);

/* The structure of db.table now, NULL when the history does not know it. Valid until the next
 * change of the history. Names compare as the server does by default on Linux
 * (lower_case_table_names=0: case-sensitive tables and databases, columns not). */
/* A copy of t the caller owns (free()), NULL with err set. */
rc_my_table *rc_my_table_copy(const rc_my_table *t, rc_error *err);
/* The same columns (names and declared types) in the same order. */
bool rc_my_table_same(const rc_my_table *a, const rc_my_table *b);
const rc_my_table *rc_my_history_get(const rc_my_history *h, rc_str db, rc_str table);

/* Applies one statement of a QUERY event (`db` is the event's default database, for
 * unqualified names). Statements that change no table structure (GRANT, CREATE USER, …) are
 * OTHER and change nothing. A table statement it cannot parse is an error naming the
 * statement and the byte, never a guess. The result's names point into `sql` or into the
 * history's scratch memory: valid until the next call. */
rc_status rc_my_history_ddl(rc_my_history *h, rc_str db, rc_str sql, rc_my_ddl_result *out, rc_error *err);

/* The whole history as text (appended to out), for the checkpoint file, and back: a history
 * read from the text equals the one written, and writes the same text (the format:
 * my_history_text.c). Reading replaces what h held; a text that is not such a history is an
 * error naming the line (err->offset: the byte where that line starts), and h is unchanged. */
void rc_my_history_write(const rc_my_history *h, rc_buf *out);
rc_status rc_my_history_read(rc_my_history *h, const char *text, size_t n, rc_error *err);
/* Exchanges the contents of two histories. */
void rc_my_history_swap(rc_my_history *a, rc_my_history *b);

/* Removes db.table (false when the history did not know it). */
bool rc_my_history_drop(rc_my_history *h, rc_str db, rc_str table);
/* Renames db.table to ndb.ntable (replacing a table of that name); *found false (and nothing
 * changed) when the history does not know db.table. */
rc_status rc_my_history_rename(rc_my_history *h, rc_str db, rc_str table, rc_str ndb, rc_str ntable, bool *found,
                               rc_error *err);
/* Removes database db: its default collation and every table in it. */
void rc_my_history_drop_database(rc_my_history *h, rc_str db);
/* A database's default collation (CREATE/ALTER DATABASE ... CHARACTER SET / COLLATE): what a
 * table created there without a charset gets; 0 when not known. */
rc_status rc_my_history_set_database(rc_my_history *h, rc_str db, uint16_t collation, rc_error *err);
uint16_t rc_my_history_database(const rc_my_history *h, rc_str db);
bool rc_my_history_has_database(const rc_my_history *h, rc_str db);
/* The databases with a known default, in name order: the i-th for i < count. */
uint32_t rc_my_history_database_count(const rc_my_history *h);
rc_str rc_my_history_database_at(const rc_my_history *h, uint32_t i, uint16_t *collation);
/* Every table, in (db, name) byte order: the i-th for i < count. */
uint32_t rc_my_history_count(const rc_my_history *h);
const rc_my_table *rc_my_history_at(const rc_my_history *h, uint32_t i);

/* Scratch memory of the DDL parser (unescaped names of the last rc_my_history_ddl, which its
 * result may point to): reset by each rc_my_history_ddl. */
rc_arena *rc_my_history_scratch(rc_my_history *h);

/* Whether a column declared `decl` can arrive in a row image as binlog type `binlog_type`
 * (enum rc_my_type; ENUM/SET already resolved from STRING): for the decoder's TABLE_MAP
 * cross-check. */
bool rc_my_type_matches(const rc_coltype *decl, uint8_t binlog_type);

/* Collations: the id of a collation name ("utf8mb4_general_ci" 45, "utf8_bin" 83: MySQL's and
 * MariaDB's ids, which agree for these), 0 for one not in the table; the default collation of
 * a character set name ("latin1" 8, "utf8mb4" 45 as MariaDB and MySQL 5.7 define it; MySQL 8's
 * default 255 is the same character set), 0 when unknown; the binary (_bin) collation of the
 * charset of collation id c (for the BINARY attribute of a character column), 0 when unknown. */
uint16_t rc_my_collation_id(rc_str name);
uint16_t rc_my_charset_default_collation(rc_str charset);
uint16_t rc_my_collation_bin(uint16_t c);

/* One row of
 *   SELECT COLUMN_NAME, COLUMN_TYPE, IS_NULLABLE, COLUMN_KEY, EXTRA, COLLATION_NAME, ORDINAL_POSITION
 *   FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? ORDER BY ORDINAL_POSITION
 * as text (a NULL COLLATION_NAME: n == 0), with the column's position in the primary key
 * (information_schema.KEY_COLUMN_USAGE.ORDINAL_POSITION where CONSTRAINT_NAME = 'PRIMARY';
 * 0 when not in it). */
typedef struct rc_my_is_column {
    rc_str name, column_type, is_nullable, column_key, extra, collation_name;
    uint16_t pk;
    rc_str column_default;   /* COLUMN_DEFAULT as MariaDB 10.2.7+ shows it ('text', 5.6, NULL, now()) */
    bool has_column_default; /* COLUMN_DEFAULT is not SQL NULL */
} rc_my_is_column;

/* COLUMN_DEFAULT (MariaDB's form: 'text', 5.6, b'101', NULL, current_timestamp()) as a value's
 * text, as the DDL parser reads a DEFAULT clause (my_default.c): false when it is no default
 * (NULL, an expression). The text goes to out (room for in.n bytes). */
bool rc_my_default_from_is(rc_str in, char *out, rc_str *res);

/* Builds db.table from its information_schema rows and puts it into the history (copied; the
 * rows may go once it returns). `table_collation` is information_schema.TABLES.TABLE_COLLATION
 * (n == 0: unknown). A COLUMN_TYPE that is not a MySQL type is an error naming the table and the
 * column. */
rc_status rc_my_history_put_is(rc_my_history *h, rc_str db, rc_str table, rc_str table_collation,
                               const rc_my_is_column *rows, uint32_t nrows, rc_error *err);

#endif
