/* Value kind names and value equality. */
#include <string.h>
#include "rowcast/value.h"

static const char *const kind_names[RC_V_KIND_COUNT] = {
    "null", "bool", "int", "uint", "decimal", "float32", "float64", "text", "bytes", "bits",
    "date", "time", "datetime", "timestamp", "interval", "json", "enum", "set", "geometry", "invalid",
    "unavailable",
};

const char *rc_vkind_name(rc_vkind k) { return (unsigned)k < RC_V_KIND_COUNT ? kind_names[k] : "?"; }

static bool str_eq(rc_str a, rc_str b) { return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0); }

bool rc_value_equal(const rc_value *a, const rc_value *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case RC_V_NULL:
    case RC_V_UNAVAILABLE: return true;
    case RC_V_BOOL: return a->b == b->b;
    case RC_V_INT: return a->i == b->i;
    case RC_V_UINT:
    case RC_V_BITS: return a->u == b->u;
    case RC_V_FLOAT32: return memcmp(&a->f32, &b->f32, sizeof a->f32) == 0;
    case RC_V_FLOAT64: return memcmp(&a->f64, &b->f64, sizeof a->f64) == 0;
    case RC_V_DECIMAL:
        return a->dec.neg == b->dec.neg && a->dec.scale == b->dec.scale && a->dec.ndigits == b->dec.ndigits &&
               memcmp(a->dec.digits, b->dec.digits, a->dec.ndigits) == 0;
    case RC_V_DATE: return a->date.year == b->date.year && a->date.month == b->date.month && a->date.day == b->date.day;
    case RC_V_TIME:
        return a->time.neg == b->time.neg && a->time.hour == b->time.hour && a->time.minute == b->time.minute &&
               a->time.second == b->time.second && a->time.nanos == b->time.nanos;
    case RC_V_DATETIME:
        return a->dt.year == b->dt.year && a->dt.month == b->dt.month && a->dt.day == b->dt.day &&
               a->dt.hour == b->dt.hour && a->dt.minute == b->dt.minute && a->dt.second == b->dt.second &&
               a->dt.nanos == b->dt.nanos && str_eq(a->dt.zone, b->dt.zone);
    case RC_V_TIMESTAMP: return a->ts.sec == b->ts.sec && a->ts.nanos == b->ts.nanos;
    default: return str_eq(a->s, b->s);
    }
}
