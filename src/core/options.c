/* `-o key=value` options and the per-message event list. */
#include <stdlib.h>
#include <string.h>
#include "rowcast/format.h"

const char *rc_options_get(const rc_options *o, const char *key)
{
    const char *v = NULL;
    for (size_t i = 0; o && i < o->count; i++) /* the last occurrence wins */
        if (strcmp(o->items[i].key, key) == 0) v = o->items[i].value;
    return v;
}

rc_status rc_options_check(const rc_options *o, const char *prefix, const rc_option_desc *known, rc_error *err)
{
    size_t pl = strlen(prefix);
    for (size_t i = 0; o && i < o->count; i++) {
        const char *k = o->items[i].key;
        if (strncmp(k, prefix, pl) != 0 || k[pl] != '.') continue;
        bool ok = false;
        for (const rc_option_desc *d = known; d && d->key; d++)
            if (strcmp(d->key, k) == 0) ok = true;
        if (!ok) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "unknown option '%s' (see rowcast formats --options)", k);
    }
    return RC_OK;
}

rc_event *rc_event_list_push(rc_event_list *l)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        rc_event *n = realloc(l->items, cap * sizeof *n);
        if (!n) return NULL;
        l->items = n;
        l->cap = cap;
    }
    rc_event *e = &l->items[l->count++];
    memset(e, 0, sizeof *e);
    return e;
}

void rc_event_list_fini(rc_event_list *l)
{
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
}
