/* --on-loss=cut's count of the values cut, per table and column (rowcast/format.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/format.h"

void rc_cut_note(rc_cut_log *log, const rc_column *c, const char *unit)
{
    for (size_t i = 0; i < log->npending; i++) /* a row counts once per column (before and after) */
        if (log->pending[i].column.n == c->name.n && !memcmp(log->pending[i].column.p, c->name.p, c->name.n)) return;
    if (log->npending == RC_CUT_PENDING) return; /* more columns cut in one row: counted by the first ones */
    log->pending[log->npending].column = c->name;
    log->pending[log->npending++].unit = unit;
}

static char *dup_str(rc_str s)
{
    char *p = malloc(s.n + 1);
    if (p) memcpy(p, s.p, s.n), p[s.n] = '\0';
    return p;
}

/* The totals' entry of table t, column c (added when new); NULL when out of memory. */
static rc_cut_col *entry(rc_cut_log *log, const char *t, size_t tn, rc_str c, const char *unit)
{
    for (size_t i = 0; i < log->ncols; i++) {
        rc_cut_col *e = &log->cols[i];
        if (strlen(e->table) == tn && !memcmp(e->table, t, tn) && strlen(e->column) == c.n && !memcmp(e->column, c.p, c.n) &&
            e->unit == unit)
            return e;
    }
    if (log->ncols == log->cap) {
        size_t cap = log->cap ? log->cap * 2 : 8;
        rc_cut_col *n = realloc(log->cols, cap * sizeof *n);
        if (!n) return NULL;
        log->cols = n, log->cap = cap;
    }
    rc_cut_col *e = &log->cols[log->ncols];
    e->table = dup_str((rc_str){t, tn});
    e->column = dup_str(c);
    e->unit = unit, e->rows = 0;
    if (!e->table || !e->column) {
        free(e->table), free(e->column);
        return NULL;
    }
    log->ncols++;
    return e;
}

rc_status rc_cut_commit(rc_cut_log *log, const rc_origin *src)
{
    char t[512];
    rc_str db = src->schema.n ? src->schema : src->db; /* PostgreSQL's schema.table, MySQL's db.table */
    int tn = snprintf(t, sizeof t, "%.*s%s%.*s", (int)db.n, db.p, db.n ? "." : "", (int)src->table.n, src->table.p);
    rc_status st = RC_OK;
    for (size_t i = 0; i < log->npending; i++) {
        rc_cut_col *e = entry(log, t, tn < (int)sizeof t ? (size_t)tn : sizeof t - 1, log->pending[i].column, log->pending[i].unit);
        if (e) e->rows++;
        else st = RC_ERR_NOMEM;
    }
    log->npending = 0;
    return st;
}

void rc_cut_fini(rc_cut_log *log)
{
    for (size_t i = 0; i < log->ncols; i++) free(log->cols[i].table), free(log->cols[i].column);
    free(log->cols);
    memset(log, 0, sizeof *log);
}
