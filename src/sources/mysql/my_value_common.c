/* What the row-image value readers (my_value*.c) share: the binlog type's name, the truncation
 * error and the declared type's name. Here rather than in my_value.c, which dispatches to the
 * readers, so that the references run one way: my_value.c -> a reader -> this file. */
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
