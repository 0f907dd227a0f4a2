/* The signal `rowcast snapshot` writes, the part both database sources share (signal_write.h). */
#include "sources/signal_write.h"
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/jsonw.h"
#include "core/names.h"
#include "sources/table_patterns.h"

enum { NEARBY_MAX = 5 }; /* names said after a pattern that matched none */

bool rc_signal_name_is(const rc_signal_name *n, const char *qualified)
{
    size_t sl = strlen(n->schema);
    return !strncmp(qualified, n->schema, sl) && qualified[sl] == '.' && !strcmp(qualified + sl + 1, n->table);
}

static bool matches(const char *pattern, const rc_signal_name *n)
{
    return rc_table_pattern_match(pattern, n->schema, strlen(n->schema), n->table, strlen(n->table));
}

/* Appends ", NAME" (or "NAME" first) to out while it fits; false once it did not. */
static bool list_add(char *out, size_t cap, const char *schema, const char *table)
{
    size_t l = strlen(out);
    int w = snprintf(out + l, cap - l, "%s%s%s%s", l ? ", " : "", schema, table ? "." : "", table ? table : "");
    if (w >= 0 && (size_t)w < cap - l) return true;
    out[l] = '\0';
    return false;
}

/* What is near a pattern that matched nothing: the closest name, else the tables of the schemas
 * its schema part names, else the schemas. */
static void nearby(char *out, size_t cap, const char *pattern, const rc_signal_name *names, size_t n, const char *kind)
{
    char full[300], part[300];
    rc_suggest sg;
    rc_suggest_init(&sg, pattern);
    char **all = calloc(n ? n : 1, sizeof *all);
    for (size_t i = 0; all && i < n; i++) {
        snprintf(full, sizeof full, "%s.%s", names[i].schema, names[i].table);
        if ((all[i] = strdup(full))) rc_suggest_offer(&sg, all[i]);
    }
    if (sg.best) snprintf(out, cap, "; did you mean '%s'?", sg.best);
    for (size_t i = 0; all && i < n; i++) free(all[i]);
    free(all);
    if (sg.best) return;
    snprintf(part, sizeof part, "%.*s", (int)strcspn(pattern, "."), pattern);
    char list[300] = "";
    size_t shown = 0, there = 0;
    for (size_t i = 0; i < n; i++)
        if (!fnmatch(part, names[i].schema, 0) && there++ < NEARBY_MAX && list_add(list, sizeof list, names[i].schema, names[i].table)) shown++;
    if (there) {
        snprintf(out, cap, "; tables there: %s%s", list, shown < there ? ", …" : "");
        return;
    }
    for (size_t i = 0; i < n; i++) {
        if (i && !strcmp(names[i].schema, names[i - 1].schema)) continue; /* the catalog is ordered by schema */
        if (there++ < NEARBY_MAX && list_add(list, sizeof list, names[i].schema, NULL)) shown++;
    }
    if (there) snprintf(out, cap, "; %s there: %s%s", kind, list, shown < there ? ", …" : "");
    else snprintf(out, cap, "; it has no table");
}

static rc_status unmatched(const char *pattern, const rc_signal_name *names, size_t n, const char *where, const char *kind,
                           rc_error *err)
{
    char msg[600], near[300] = "";
    rc_table_pattern_unmatched(msg, sizeof msg, pattern, where, kind);
    nearby(near, sizeof near, pattern, names, n, kind);
    return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "%s%s", msg, near);
}

static bool any_match(const char *const *patterns, size_t np, const rc_signal_name *n)
{
    for (size_t k = 0; k < np; k++)
        if (matches(patterns[k], n)) return true;
    return false;
}

rc_status rc_signal_text_make(rc_signal_text *t, const char *type, const rc_signal_name *names, size_t n,
                              const char *const *patterns, size_t npatterns, const char *where, const char *kind,
                              rc_error *err)
{
    memset(t, 0, sizeof *t);
    rc_buf_init(&t->data, RC_BUF_DEFAULT_MAX);
    for (size_t k = 0; k < npatterns; k++) {
        size_t i = 0;
        while (i < n && !matches(patterns[k], &names[i])) i++;
        if (i == n) return unmatched(patterns[k], names, n, where, kind, err);
    }
    snprintf(t->said, sizeof t->said, "%s", type);
    if (!npatterns) return RC_OK; /* pause, resume, stop of every table: no data */
    t->has_data = true;
    RC_BUF_LIT(&t->data, "{\"data-collections\": [");
    char list[sizeof t->said] = "";
    size_t count = 0, shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (!any_match(patterns, npatterns, &names[i])) continue;
        if (count++) RC_BUF_LIT(&t->data, ", ");
        rc_buf_putc(&t->data, '"');
        rc_jw_str_body(&t->data, names[i].schema, strlen(names[i].schema));
        rc_buf_putc(&t->data, '.');
        rc_jw_str_body(&t->data, names[i].table, strlen(names[i].table));
        rc_buf_putc(&t->data, '"');
        if (shown == count - 1 && list_add(list, sizeof list - 40, names[i].schema, names[i].table)) shown++;
    }
    RC_BUF_LIT(&t->data, "], \"type\": \"incremental\"}");
    if (t->data.err != RC_OK) return rc_error_set(err, t->data.err, RC_NO_OFFSET, "out of memory");
    snprintf(t->said, sizeof t->said, "%s %s%s (%zu table%s)", type, list, shown < count ? ", …" : "", count, count == 1 ? "" : "s");
    return RC_OK;
}

void rc_signal_text_fini(rc_signal_text *t)
{
    rc_buf_fini(&t->data);
}
