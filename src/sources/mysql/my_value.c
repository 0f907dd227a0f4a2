/* Row-image values: the dispatch by binlog type (see my_value.h; one file per group of types:
 * my_value_num.c, my_value_decimal.c, my_value_time.c, my_value_str.c, my_value_ext.c). */
#include "rowcast/error.h"
#include "my_value_int.h"

const char *rc_my_type_name(uint8_t type)
{
    switch (type) {
    case RC_MY_DECIMAL: return "DECIMAL";
    case RC_MY_TINY: return "TINY";
    case RC_MY_SHORT: return "SHORT";
    case RC_MY_LONG: return "LONG";
    case RC_MY_FLOAT: return "FLOAT";
    case RC_MY_DOUBLE: return "DOUBLE";
    case RC_MY_NULL: return "NULL";
    case RC_MY_TIMESTAMP: return "TIMESTAMP";
    case RC_MY_LONGLONG: return "LONGLONG";
    case RC_MY_INT24: return "INT24";
    case RC_MY_DATE: return "DATE";
    case RC_MY_TIME: return "TIME";
    case RC_MY_DATETIME: return "DATETIME";
    case RC_MY_YEAR: return "YEAR";
    case RC_MY_NEWDATE: return "NEWDATE";
    case RC_MY_VARCHAR: return "VARCHAR";
    case RC_MY_BIT: return "BIT";
    case RC_MY_TIMESTAMP2: return "TIMESTAMP2";
    case RC_MY_DATETIME2: return "DATETIME2";
    case RC_MY_TIME2: return "TIME2";
    case RC_MY_TYPED_ARRAY: return "TYPED_ARRAY";
    case RC_MY_VECTOR: return "VECTOR";
    case RC_MY_INVALID: return "INVALID";
    case RC_MY_BOOL: return "BOOL";
    case RC_MY_JSON: return "JSON";
    case RC_MY_NEWDECIMAL: return "NEWDECIMAL";
    case RC_MY_ENUM: return "ENUM";
    case RC_MY_SET: return "SET";
    case RC_MY_TINY_BLOB: return "TINY_BLOB";
    case RC_MY_MEDIUM_BLOB: return "MEDIUM_BLOB";
    case RC_MY_LONG_BLOB: return "LONG_BLOB";
    case RC_MY_BLOB: return "BLOB";
    case RC_MY_VAR_STRING: return "VAR_STRING";
    case RC_MY_STRING: return "STRING";
    case RC_MY_GEOMETRY: return "GEOMETRY";
    default: return "unknown type";
    }
}

rc_status rc_my_need_fail(const rc_my_col *c, size_t need, size_t n, rc_error *err)
{
    return rc_error_set(err, RC_ERR_VALUE, n, RC_MY_COLFMT ": value truncated: it needs %zu bytes, the row image has %zu left",
                        RC_MY_COLARG(c), need, n);
}

const char *rc_my_decl_name(const rc_my_col *c)
{
    return c->decl && c->decl->info && c->decl->info->name ? c->decl->info->name : "";
}

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
