/* Internals of the binary JSON reader (my_json.c) shared with the partial-update diffs
 * (my_json_diff.c): MySQL's JSON text layouts of strings and doubles. */
#ifndef ROWCAST_MY_JSON_INT_H
#define ROWCAST_MY_JSON_INT_H

#include "my_value_int.h"

/* A string as MySQL's JSON text writes it: `"` + the bytes, with \" \\ \b \f \n \r \t and
 * \u00xx (lower-case) for the other control characters, everything else as it is + `"`. */
void rc_my_json_quote(rc_buf *b, const char *p, size_t n);
/* A double as MySQL's JSON text writes it (see my_json.c). */
void rc_my_json_double(rc_buf *b, double d);

#endif
