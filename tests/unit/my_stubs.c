/* Until the schema history (s7-myschema) is merged: the little of it test_my_event needs (no
 * table known, every statement OTHER), so that the event decoder can be tested on its own. Not
 * part of the product; removed when that branch is merged. */
#include "sources/mysql/my_schema.h"
#include "sources/mysql/my_value.h"

const rc_my_table *rc_my_history_get(const rc_my_history *h, rc_str db, rc_str table) { return NULL; }

rc_status rc_my_history_ddl(rc_my_history *h, rc_str db, rc_str sql, rc_my_ddl_result *out, rc_error *err)
{
    *out = (rc_my_ddl_result){.kind = "OTHER", .db = db};
    return RC_OK;
}

/* s7-myvalue's JSON diffs are not merged yet either */
rc_status rc_my_json_diff_apply(const uint8_t *before, size_t bn, const uint8_t *diff, size_t dn, size_t *used, rc_buf *out,
                                rc_error *err)
{
    return rc_error_set(err, RC_ERR_UNSUPPORTED, 0, "JSON diffs are not in the test stub");
}
