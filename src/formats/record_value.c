/* rc_record_value (rowcast/format.h): a record's value decoded alone, for every decoder of
 * records (convert --input-layout records). */
#include "rowcast/format.h"

rc_status rc_record_value(rc_status (*decode)(void *, const char *, size_t, rc_arena *, rc_event_list *, rc_error *), void *dec,
                          const rc_record_in *r, rc_arena *a, rc_event_list *out, rc_error *err)
{
    if (!r->value) return RC_OK; /* a tombstone: nothing happened to any row */
    rc_status st = decode(dec, r->value, r->value_n, a, out, err);
    if (st != RC_OK && err->offset != RC_NO_OFFSET) err->offset += (size_t)(r->value - r->rec);
    return st;
}
