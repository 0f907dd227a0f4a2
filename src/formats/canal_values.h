/* Canal's binlog renderings of ENUM, SET and geometry values (docs/formats/canal.md,
 * "ENUM, SET and geometry"): Alibaba Canal writes what the binlog holds, an ENUM as its
 * 1-based index ("1"), a SET as its bitmask ("3") and a geometry as the Latin-1 text of MySQL's
 * internal value (4-byte little-endian SRID + WKB), while OMS and TiCDC write the labels and
 * WKT. Both directions live here, so that the reader and the writer agree on when a number is
 * an index: only under Canal's binlog sqlType for the type (ENUM 4, SET -2). */
#ifndef RC_FORMATS_CANAL_VALUES_H
#define RC_FORMATS_CANAL_VALUES_H

#include <stdbool.h>
#include "rowcast/arena.h"
#include "rowcast/buf.h"
#include "rowcast/event.h"

/* Reading: when the text s[0..n) of column col is in Canal's binlog rendering (an index or a
 * bitmask under the binlog sqlType `code`, a geometry that is MySQL's value), the value it
 * stands for in *out and RC_OK; RC_SKIP when the text is to be read as it is (a label, WKT,
 * another type, a geometry text that is neither WKT nor MySQL's value); RC_ERR_VALUE (message
 * in err, naming the column) for an index or bit beyond the labels. */
rc_status rc_canal_binlog_value(const rc_column *col, int16_t code, const char *s, size_t n, rc_arena *a, rc_value *out, rc_error *err);

/* Writing: v of column col in Canal's binlog rendering, as a JSON string (quoted = true) or a
 * number (an index or bitmask with typed values), when the sqlType written is `code`; false
 * when v is written as it is (another kind, another code, a label not among the column's, a
 * geometry that is not WKT). `scratch` is the caller's reusable buffer. */
bool rc_canal_put_binlog_value(rc_buf *b, const rc_column *col, int16_t code, const rc_value *v, bool quoted, rc_buf *scratch);

#endif
