/* `-o key=value` options and the per-message event list. */
#include <stdio.h>
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

bool rc_event_list_accepts(rc_event_list *l, rc_str db, rc_str table)
{
    if (!l->accept || !table.n || l->accept(l->accept_ctx, db, table)) return true;
    l->rejected++;
    return false;
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

rc_status rc_options_bool(const rc_options *o, const char *key, bool *out, rc_error *err)
{
    const char *v = rc_options_get(o, key);
    if (!v) return RC_OK;
    if (!strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes")) return *out = true, RC_OK;
    if (!strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no")) return *out = false, RC_OK;
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s must be true or false, not '%s'", key, v);
}

rc_status rc_options_choice(const rc_options *o, const char *key, const char *choices, int *out, rc_error *err)
{
    const char *v = rc_options_get(o, key);
    if (!v) return RC_OK;
    size_t vl = strlen(v);
    int idx = 0;
    for (const char *p = choices;; idx++) {
        const char *bar = strchr(p, '|');
        size_t l = bar ? (size_t)(bar - p) : strlen(p);
        if (l == vl && !strncmp(p, v, l)) return *out = idx, RC_OK;
        if (!bar) break;
        p = bar + 1;
    }
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s must be one of %s, not '%s'", key, choices, v);
}

rc_status rc_options_int(const rc_options *o, const char *key, long min, long max, long *out, rc_error *err)
{
    const char *v = rc_options_get(o, key);
    if (!v) return RC_OK;
    char *end;
    long x = strtol(v, &end, 10);
    if (!*v || *end || x < min || x > max)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s must be an integer from %ld to %ld, not '%s'", key, min,
                            max, v);
    *out = x;
    return RC_OK;
}

rc_status rc_options_tz(const rc_options *o, const char *key, rc_tz *out, rc_error *err)
{
    const char *v = rc_options_get(o, key);
    return v ? rc_tz_parse(v, key, out, err) : RC_OK;
}
