/* Maxwell's daemon JSON: the options the writer (maxwell_write.c) and the reader
 * (maxwell_read.c) both parse, so that each depends on this file and not on the descriptor
 * (maxwell.c), which uses them all. */
#include "formats/maxwell.h"

/* Maxwell's own output_* options (its docs/config.md), with Maxwell's defaults. */
#define OFF(f) offsetof(rc_mx_opts, f)
const rc_option_desc rc_mx_options[] = {
    {"maxwell.output_commit_info", RC_OPT_BOOL, NULL, "true", "write xid and, on the last row of a transaction, \"commit\":true", .off = OFF(commit_info)},
    {"maxwell.output_xoffset", RC_OPT_BOOL, NULL, "false", "write \"xoffset\", the row's place in its transaction, on every row but the last", .off = OFF(xoffset)},
    {"maxwell.output_binlog_position", RC_OPT_BOOL, NULL, "false", "write \"position\" (binlog file:offset) when the event has one", .off = OFF(position)},
    {"maxwell.output_gtid_position", RC_OPT_BOOL, NULL, "false", "write \"gtid\" when the event has one", .off = OFF(gtid)},
    {"maxwell.output_server_id", RC_OPT_BOOL, NULL, "false", "write \"server_id\" when the event has one", .off = OFF(server_id)},
    {"maxwell.output_thread_id", RC_OPT_BOOL, NULL, "false", "write \"thread_id\" when the event has one", .off = OFF(thread_id)},
    {"maxwell.output_primary_keys", RC_OPT_BOOL, NULL, "false", "write \"primary_key\", the values of the key columns", .off = OFF(pks)},
    {"maxwell.output_primary_key_columns", RC_OPT_BOOL, NULL, "false", "write \"primary_key_columns\", the names of the key columns", .off = OFF(pk_cols)},
    {"maxwell.output_nulls", RC_OPT_BOOL, NULL, "true", "write columns whose value is NULL (false: leave them out of data and old)", .off = OFF(nulls)},
    {"maxwell.output_row_query", RC_OPT_BOOL, NULL, "false", "write \"query\", the statement of the row (MariaDB's ANNOTATE_ROWS, MySQL's ROWS_QUERY: binlog_annotate_row_events / binlog_rows_query_log_events on), when the event has it", .off = OFF(row_query)},
    {"maxwell.output_ddl", RC_OPT_BOOL, NULL, "false", "write DDL messages (table-create, table-alter, ...) where the event carries what they hold", .off = OFF(ddl)},
    {0},
};
#undef OFF
