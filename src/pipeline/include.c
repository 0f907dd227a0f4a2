/* --include: the table filter the source's reader asks (on its thread with --threads 2) and
 * the output side asks again of every event (output.c), marking the patterns that matched for
 * the summary. A file of its own so that output.c and pipeline.c do not reference each other. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline_impl.h"

/* Whether db.table matches one of the --include patterns. With `mark`, goes on past the first
 * match to mark every pattern that matches (a pattern's `hit` is then read by the summary). A
 * pattern without a dot is matched against the database alone: `shop` is `shop.*`. */
static bool include_match(rc_include_pat *pats, size_t n, rc_str db, rc_str table, bool mark)
{
    char buf[512], *name = buf; /* "db.table"; a longer one (no database allows it) on the heap */
    size_t need = db.n + table.n + 2;
    if (need > sizeof buf && !(name = malloc(need))) return false;
    if (db.n) memcpy(name, db.p, db.n);
    name[db.n] = '.';
    memcpy(name + db.n + 1, table.p, table.n);
    name[need - 1] = '\0';
    bool found = false;
    for (size_t i = 0; i < n; i++) {
        rc_include_pat *p = &pats[i];
        if (found && p->hit) continue;
        name[db.n] = p->db_only ? '\0' : '.';
        bool m = fnmatch(p->pattern, name, 0) == 0;
        name[db.n] = '.';
        if (m && mark) p->hit = true;
        found |= m;
        if (found && !mark) break;
    }
    if (name != buf) free(name);
    return found;
}

/* The reader's check (the source's; on its reading thread with --threads 2, so it writes
 * nothing). Events without a table (heartbeats, transaction markers) always pass. */
bool rc_pipeline_table_included(void *ctx, rc_str db, rc_str table)
{
    const rc_pipeline *c = ctx;
    return !c->ninclude || !table.n || include_match(c->include, c->ninclude, db, table, false);
}

/* The output side's check of every event, which also marks the patterns that matched, for the
 * summary. Events the reader skipped never come here: had they matched a pattern, the reader
 * would have kept them. */
bool rc_pipeline_event_included(rc_pipeline *c, rc_str db, rc_str table)
{
    if (!c->ninclude || !table.n) return true;
    /* the last table's answer: consecutive events are mostly of one table (fnmatch was 3% of a
     * snapshot row) */
    rc_include_cache *k = &c->include_last;
    if (k->valid && k->dbn == db.n && k->tn == table.n && !memcmp(k->db, db.p, db.n) && !memcmp(k->t, table.p, table.n))
        return k->in;
    bool in = include_match(c->include, c->ninclude, db, table, true);
    if (db.n <= sizeof k->db && table.n <= sizeof k->t) {
        memcpy(k->db, db.p, db.n), memcpy(k->t, table.p, table.n);
        k->dbn = db.n, k->tn = table.n, k->in = in, k->valid = true;
    }
    return in;
}
