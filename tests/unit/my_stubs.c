/* Until the row-value decoder (s7-myvalue) and the schema history (s7-myschema) are merged:
 * the little of them test_my_event needs, integers and strings only, so that the event decoder
 * can be tested on its own. Not part of the product; removed when those branches are merged. */
#include <stdio.h>
#include <string.h>
#include "sources/mysql/my_schema.h"
#include "sources/mysql/my_value.h"

rc_status rc_my_value_decode(const rc_my_col *c, const uint8_t *p, size_t n, size_t *used, rc_value *out, rc_arena *a, rc_error *err)
{
    static const unsigned isz[256] = {[RC_MY_TINY] = 1, [RC_MY_SHORT] = 2, [RC_MY_INT24] = 3, [RC_MY_LONG] = 4, [RC_MY_LONGLONG] = 8,
                                      [RC_MY_YEAR] = 1};
    unsigned k = isz[c->type];
    if (k) {
        if (n < k) return rc_error_set(err, RC_ERR_VALUE, 0, "integer truncated");
        uint64_t u = 0;
        for (unsigned i = 0; i < k; i++) u |= (uint64_t)p[i] << (8 * i);
        *used = k;
        if (c->type == RC_MY_YEAR) {
            *out = (rc_value){.kind = RC_V_INT, .i = u ? 1900 + (int64_t)u : 0};
        } else if (c->is_unsigned) {
            *out = (rc_value){.kind = RC_V_UINT, .u = u};
        } else {
            if (k < 8 && (u >> (8 * k - 1))) u |= ~0ull << (8 * k);
            *out = (rc_value){.kind = RC_V_INT, .i = (int64_t)u};
        }
        return RC_OK;
    }
    size_t lb = 0, len = 0;
    if (c->type == RC_MY_VARCHAR || c->type == RC_MY_VAR_STRING) lb = c->meta > 255 ? 2 : 1;
    else if (c->type == RC_MY_BLOB) lb = c->meta;
    else if (c->type == RC_MY_STRING) lb = 1;
    else return rc_error_set(err, RC_ERR_UNSUPPORTED, 0, "type %u is not in the test stub", c->type);
    if (n < lb) return rc_error_set(err, RC_ERR_VALUE, 0, "length truncated");
    for (size_t i = 0; i < lb; i++) len |= (size_t)p[i] << (8 * i);
    if (n - lb < len) return rc_error_set(err, RC_ERR_VALUE, 0, "string truncated");
    char *s = rc_arena_memdup(a, p + lb, len);
    *out = (rc_value){.kind = c->collation == RC_MY_COLLATION_BINARY ? RC_V_BYTES : RC_V_TEXT, .s = {s, len}};
    *used = lb + len;
    return RC_OK;
}

rc_status rc_my_json_text(const uint8_t *p, size_t n, rc_buf *out, rc_error *err)
{
    return rc_error_set(err, RC_ERR_UNSUPPORTED, 0, "not in the test stub");
}

rc_status rc_my_json_diff_apply(const uint8_t *before, size_t bn, const uint8_t *diff, size_t dn, size_t *used, rc_buf *out,
                                rc_error *err)
{
    return rc_error_set(err, RC_ERR_UNSUPPORTED, 0, "not in the test stub");
}

const rc_my_table *rc_my_history_get(const rc_my_history *h, rc_str db, rc_str table) { return NULL; }

rc_status rc_my_history_ddl(rc_my_history *h, rc_str db, rc_str sql, rc_my_ddl_result *out, rc_error *err)
{
    *out = (rc_my_ddl_result){.kind = "OTHER", .db = db};
    return RC_OK;
}
