/* Row-image values: the dispatch by binlog type (see my_value.h; one file per group of types:
 * my_value_num.c, my_value_decimal.c, my_value_time.c, my_value_str.c, my_value_ext.c; what they
 * and this file share is in my_value_common.c). */
#include "rowcast/error.h"
#include "my_value_int.h"

/* The reader of a binlog type's group, NULL for a type this reader does not know. */
static rc_my_decode_fn *reader_of(uint8_t type)
{
    switch (type) {
    case RC_MY_TINY:
    case RC_MY_SHORT:
    case RC_MY_INT24:
    case RC_MY_LONG:
    case RC_MY_LONGLONG:
    case RC_MY_FLOAT:
    case RC_MY_DOUBLE:
    case RC_MY_BIT:
    case RC_MY_YEAR:
        return rc_my_num_decode;
    case RC_MY_NEWDECIMAL:
        return rc_my_dec_decode;
    case RC_MY_DATE:
    case RC_MY_NEWDATE:
    case RC_MY_TIME:
    case RC_MY_TIME2:
    case RC_MY_DATETIME:
    case RC_MY_DATETIME2:
    case RC_MY_TIMESTAMP:
    case RC_MY_TIMESTAMP2:
        return rc_my_time_decode;
    case RC_MY_VARCHAR:
    case RC_MY_VAR_STRING:
    case RC_MY_STRING:
    case RC_MY_ENUM:
    case RC_MY_SET:
        return rc_my_str_decode;
    case RC_MY_TINY_BLOB:
    case RC_MY_MEDIUM_BLOB:
    case RC_MY_LONG_BLOB:
    case RC_MY_BLOB:
    case RC_MY_JSON:
    case RC_MY_GEOMETRY:
    case RC_MY_VECTOR:
        return rc_my_blob_decode;
    default:
        return NULL;
    }
}

void rc_my_col_prepare(rc_my_col *c)
{
    c->decode = reader_of(c->type);
    rc_my_str_prepare(c); /* these two may choose a reader of the column's own */
    rc_my_num_prepare(c);
    c->prepared = true;
}

rc_status rc_my_value_by_type(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a,
                              rc_error *err)
{
    rc_my_decode_fn *fn = reader_of(c->type);
    if (fn) return fn(c, p, n, used, out, a, err);
    return rc_error_set(err, RC_ERR_UNSUPPORTED, 0,
                        RC_MY_COLFMT ": binlog column type %u is not one this reader knows (no MySQL or MariaDB server "
                                     "writes it in row images)",
                        RC_MY_COLARG(c), c->type);
}
