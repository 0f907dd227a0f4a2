/* Row-image values: one column's bytes in a WRITE/UPDATE/DELETE_ROWS image, decoded to the
 * canonical value (rowcast/value.h), exactly, for every MySQL and MariaDB type
 * (docs/sources/mysql-types.md has the table). Also MySQL's binary JSON and its
 * partial-update diffs. Pure functions of their inputs: no server, no global state. */
#ifndef ROWCAST_MY_VALUE_H
#define ROWCAST_MY_VALUE_H

#include <stddef.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/value.h"
#include "my_types.h"

/* rc_my_value_decode decodes the non-NULL value of column `c` that starts at p[0], with n bytes left in the row
 * image: its size in *used (so the caller can step to the next column), the value in *out
 * (text, bytes and decimal digits allocated in `a`). Errors (value truncated, malformed
 * packed decimal, a type this reader does not know) use offsets relative to p; the caller
 * adds the position in the event. */
rc_status rc_my_value_by_type(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a,
                              rc_error *err);
/* Inline: a prepared column's reader is one indirect call per value; a column not prepared
 * (rc_my_col_prepare) finds its reader by type in rc_my_value_by_type. */
static inline rc_status rc_my_value_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a,
                                           rc_error *err)
{
    return c->decode ? c->decode(c, p, n, used, out, a, err) : rc_my_value_by_type(c, p, n, used, out, a, err);
}

/* Works out once what every value of the column needs (its character set, MariaDB's 16-byte
 * types) from its type, collation and declaration: after a TABLE_MAP is parsed and completed
 * from the history, before its rows are decoded. The values decode the same without it. */
void rc_my_col_prepare(rc_my_col *c);

/* The binlog type's name as MySQL's enum_field_types has it without MYSQL_TYPE_ ("NEWDECIMAL",
 * "TIME2"), "unknown type" for a code no server writes; for messages. */
const char *rc_my_type_name(uint8_t type);

/* MySQL's binary JSON (the JSON column's payload) as JSON text appended to out. */
rc_status rc_my_json_text(const uint8_t *p, size_t n, rc_buf *out, rc_error *err);

/* PARTIAL_UPDATE_ROWS: applies the JSON diff list at diff[0..dn) (binlog_row_value_options=
 * PARTIAL_JSON) to the before document `before` (binary JSON) and appends the after document
 * as JSON text to out; the diff list's size in *used. */
rc_status rc_my_json_diff_apply(const uint8_t *before, size_t bn, const uint8_t *diff, size_t dn, size_t *used, rc_buf *out,
                                rc_error *err);

#endif
