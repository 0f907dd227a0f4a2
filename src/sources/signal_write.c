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

static bool name_is(const rc_signal_name *n, const char *qualified)
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
    char msg[600], near[400] = ""; /* the list (at most 299 bytes) and its words */
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

/* The data (JSON, NUL-terminated) and the words of the message. */
typedef struct text {
    rc_buf data;
    char said[400];
} text;

static rc_status make(text *t, const rc_signal_ask *ask, rc_signal_name *names, size_t n, const char *where, const char *kind,
                      rc_error *err)
{
    if (!names) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    size_t kept = 0;
    for (size_t i = 0; i < n; i++)
        if (!name_is(&names[i], ask->signal_table)) names[kept++] = names[i];
    n = kept;
    for (size_t k = 0; k < ask->npatterns; k++) {
        size_t i = 0;
        while (i < n && !matches(ask->patterns[k], &names[i])) i++;
        if (i == n) return unmatched(ask->patterns[k], names, n, where, kind, err);
    }
    snprintf(t->said, sizeof t->said, "%s", ask->type);
    if (!ask->npatterns) return RC_OK; /* pause, resume, stop of every table: no data */
    RC_BUF_LIT(&t->data, "{\"data-collections\": [");
    char list[sizeof t->said] = "";
    size_t count = 0, shown = 0;
    for (size_t i = 0; i < n; i++) {
        if (!any_match(ask->patterns, ask->npatterns, &names[i])) continue;
        if (count++) RC_BUF_LIT(&t->data, ", ");
        rc_buf_putc(&t->data, '"');
        rc_jw_str_body(&t->data, names[i].schema, strlen(names[i].schema));
        rc_buf_putc(&t->data, '.');
        rc_jw_str_body(&t->data, names[i].table, strlen(names[i].table));
        rc_buf_putc(&t->data, '"');
        if (shown == count - 1 && list_add(list, sizeof list - 40, names[i].schema, names[i].table)) shown++;
    }
    RC_BUF_LIT(&t->data, "], \"type\": \"incremental\"}");
    rc_buf_putc(&t->data, '\0');
    if (t->data.err != RC_OK) return rc_error_set(err, t->data.err, RC_NO_OFFSET, "out of memory");
    /* (list stops 40 bytes short of said's size: what follows it fits) */
    int w = snprintf(t->said, sizeof t->said, "%s %s%s (%zu table%s)", ask->type, list, shown < count ? ", …" : "",
                     count, count == 1 ? "" : "s");
    return w >= 0 && (size_t)w < sizeof t->said ? RC_OK : rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET, "signal summary too long");
}

rc_status rc_signal_write(const rc_signal_ask *ask, rc_signal_name *names, size_t n, const char *where, const char *kind,
                          rc_signal_insert_fn *insert, void *ctx, rc_error *err)
{
    text t = {.said = ""};
    rc_buf_init(&t.data, RC_BUF_DEFAULT_MAX);
    rc_status st = make(&t, ask, names, n, where, kind, err);
    if (st == RC_OK) st = insert(ctx, ask, t.data.len ? t.data.data : NULL, err);
    if (st == RC_OK) snprintf(ask->said, ask->said_cap, "%s on %s: %s", ask->signal_table, where, t.said);
    rc_buf_fini(&t.data);
    return st;
}
