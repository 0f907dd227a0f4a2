/* MySQL's binary JSON (json_binary.cc's layout) -> JSON text. Placeholder until the reader
 * lands: every JSON column is refused by name. */
#include "my_value_int.h"

rc_status rc_my_json_value(const rc_my_col *c, const uint8_t *p, size_t n, rc_value *out, rc_arena *a, rc_error *err)
{
    (void)p, (void)n, (void)out, (void)a;
    return rc_error_set(err, RC_ERR_UNSUPPORTED, 0, RC_MY_COLFMT ": MySQL's binary JSON is not read yet", RC_MY_COLARG(c));
}
