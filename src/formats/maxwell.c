/* Maxwell's daemon JSON (docs/formats/maxwell.md): the descriptor and the options both sides
 * read. */
#include "formats/maxwell.h"

/* Maxwell's own output_* options (its docs/config.md); the first of each one's values is
 * Maxwell's default. The writer's flags follow this order (maxwell_write.c, flag_offs). */
const rc_option_desc rc_mx_options[] = {
    {"maxwell.output_commit_info", "true|false", "write xid and, on the last row of a transaction, \"commit\":true (default true)"},
    {"maxwell.output_xoffset", "false|true", "write \"xoffset\", the row's place in its transaction, on every row but the last"},
    {"maxwell.output_binlog_position", "false|true", "write \"position\" (binlog file:offset) when the event has one"},
    {"maxwell.output_gtid_position", "false|true", "write \"gtid\" when the event has one"},
    {"maxwell.output_server_id", "false|true", "write \"server_id\" when the event has one"},
    {"maxwell.output_thread_id", "false|true", "write \"thread_id\" when the event has one"},
    {"maxwell.output_primary_keys", "false|true", "write \"primary_key\", the values of the key columns"},
    {"maxwell.output_primary_key_columns", "false|true", "write \"primary_key_columns\", the names of the key columns"},
    {"maxwell.output_nulls", "true|false", "write columns whose value is NULL (false: leave them out of data and old)"},
    {"maxwell.output_ddl", "false|true", "write DDL messages (table-create, table-alter, ...) where the event carries what they hold"},
    {0},
};

const rc_format rc_format_maxwell = {
    .name = "maxwell",
    .summary = "Maxwell's daemon JSON: insert/update/delete rows with data, old, xid/commit; bootstrap messages",
    .content_type = "application/json",
    .options = rc_mx_options,
    .enc_new = rc_mx_enc_new,
    .enc_free = rc_mx_enc_free,
    .encode_value = rc_mx_encode,
    .flush = rc_mx_flush,
    .holding = rc_mx_holding,
    .split = rc_mx_split,
    .dec_new = rc_mx_dec_new,
    .dec_free = rc_mx_dec_free,
    .decode = rc_mx_decode,
};
