/* Typed values from the text other tools write (Canal's all-string values, DRS, Maxwell,
 * Debezium without schema): the column's type decides how the text is read. Used by every
 * decoder, so that "0000-00-00" or "1.2510357E7" mean the same thing whatever format carried
 * them. */
#ifndef ROWCAST_VPARSE_H
#define ROWCAST_VPARSE_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/error.h"
#include "rowcast/event.h"
#include "rowcast/tz.h"

/* Binary values as text: Latin-1 (Canal), base64 (Debezium), hex, or Java's byte-array text
 * "[106, -1]" (DRS json for MySQL). */
typedef enum rc_bytes_text { RC_BYTES_LATIN1 = 0, RC_BYTES_BASE64, RC_BYTES_HEX, RC_BYTES_JAVA_LIST, RC_BYTES_BASE64URL } rc_bytes_text;

typedef struct rc_vparse_opts {
    rc_bytes_text bytes; /* how binary values are written as text */
    rc_tz ts_tz;         /* TIMESTAMP wall-clock text is in this zone */
} rc_vparse_opts;

/* Parses `s` as a value of column `col`. Zero dates and other texts a date/time type cannot
 * hold become RC_V_INVALID with the text; anything else that does not fit is RC_ERR_VALUE or
 * RC_ERR_RANGE with a message naming the column (offsets are the caller's to add). Strings
 * are copied into the arena. */
rc_status rc_value_from_text(const rc_column *col, const char *s, size_t n, const rc_vparse_opts *o, rc_arena *a,
                             rc_value *out, rc_error *err);

/* Latin-1 text (each code point U+0000..U+00FF one byte, as UTF-8) back to its bytes, in the
 * arena; false when the text holds a code point beyond U+00FF (or out of memory). */
bool rc_latin1_bytes(const char *s, size_t n, rc_arena *a, rc_str *out);

#endif
