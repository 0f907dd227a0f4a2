/* Declared fractional-second precision that follows the values (rc_event_fit_fractions). */
#include <stdio.h>
#include <string.h>
#include "rowcast/arena.h"
#include "rowcast/event.h"
#include "rowcast/types.h"

static int fraction_digits(const rc_value *v)
{
    uint32_t ns = v->kind == RC_V_DATETIME ? v->dt.nanos : v->kind == RC_V_TIME ? v->time.nanos : v->kind == RC_V_TIMESTAMP ? v->ts.nanos : 0;
    if (!ns) return 0;
    int d = 9;
    while (ns % 10 == 0) ns /= 10, d--;
    return d;
}

/* "datetime(6)", "timestamp(6) with time zone": the precision after the first word. */
static int decl_with(const char *name, int digits, char *out, size_t cap)
{
    size_t w = strcspn(name, " ");
    return snprintf(out, cap, "%.*s(%d)%s", (int)w, name, digits, name + w);
}

rc_status rc_event_fit_fractions(rc_event *ev, rc_arena *a, rc_type_cache *types, rc_error *err)
{
    rc_column *own = NULL;
    for (uint32_t i = 0; i < ev->ncols; i++) {
        const rc_coltype *t = &ev->cols[i].type;
        uint8_t k = t->info->vkind;
        if ((k != RC_V_DATETIME && k != RC_V_TIME && k != RC_V_TIMESTAMP) || t->p1 >= 0) continue;
        int digits = 0;
        const rc_value *imgs[2] = {ev->before, ev->after};
        for (int m = 0; m < 2; m++) {
            int d = imgs[m] ? fraction_digits(&imgs[m][i]) : 0;
            if (d > digits) digits = d;
        }
        if (digits <= (t->info->family == RC_FAM_PG ? 6 : 0)) continue; /* PostgreSQL's default precision is 6 */
        digits = digits <= 3 ? 3 : digits <= 6 ? 6 : 9; /* milli, micro, nano: one declaration for most values of a column */
        char decl[96];
        int dn = decl_with(t->info->name, digits, decl, sizeof decl);
        const rc_coltype *wide;
        rc_error perr;
        /* a type that takes no precision (Oracle DATE) stays as declared */
        if (dn <= 0 || (size_t)dn >= sizeof decl ||
            rc_type_cache_get(types, a, (rc_family)t->info->family, decl, (size_t)dn, 0, &wide, &perr) != RC_OK || wide->info != t->info)
            continue;
        if (!own) {
            if (!(own = rc_arena_alloc(a, sizeof *own * ev->ncols))) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
            memcpy(own, ev->cols, sizeof *own * ev->ncols);
        }
        own[i].type = *wide;
    }
    if (own) ev->cols = own, ev->cols_id = NULL;
    return RC_OK;
}
