/* A DDL statement the schema history cannot apply (rc_my_history_ddl refuses it: a syntax the
 * parser does not know) must not stop a live capture (issue 28 §2; docs/sources/mysql-schema.md).
 * The decoder hands it here (rc_my_decoder_config.ddl_unapplied): for a captured table the
 * table's structure is read again from information_schema, and a warning names the binlog file
 * and offset, the table and the parser's message; a table that is not captured is left as it
 * is, with a notice. Either way the capture goes on. */
#ifndef ROWCAST_MY_DDL_FALLBACK_H
#define ROWCAST_MY_DDL_FALLBACK_H

#include <stdint.h>
#include "rowcast/error.h"
#include "rowcast/types.h"
#include "sources/mysql/my_schema.h"

/* ctx: the my_source (my_source_int.h). res: what the parser read of the statement before it
 * stopped (its table, when it got that far); on RC_OK it is the statement's result, changed
 * when the table was read again. An error only when the server cannot be asked. */
rc_status rc_my_ddl_unapplied(void *ctx, rc_str db, rc_str sql, const char *file, uint64_t offset, const rc_error *why,
                              rc_my_ddl_result *res, rc_error *err);

#endif
