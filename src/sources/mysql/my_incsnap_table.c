/* The tables of the MySQL/MariaDB source's incremental snapshots (my_incsnap_int.h): looked up
 * by name, made ready to be read (their structure as the history has it, their chunk key: the
 * primary key, else a unique index on NOT NULL columns), on the SQL session the chunks use.
 * Used by my_incsnap.c (signals), my_incsnap_state.c (a resumed state) and my_incsnap_captured.c
 * (tables that start to match --include). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_incsnap_int.h"

inc_table *rc_my_incsnap_table(rc_my_incsnap *x, const char *name)
{
    for (size_t i = 0; i < x->ntabs; i++)
        if (!strcmp(x->tabs[i]->name, name)) return x->tabs[i];
    return NULL;
}

rc_status rc_my_incsnap_session(my_source *s, rc_error *err)
{
    return s->inc->sql ? RC_OK : rc_my_connect(&s->url, &s->inc->sql, err);
}

rc_status rc_my_incsnap_again(rc_my_incsnap *x, rc_status st)
{
    if (!x->sql || !rc_my_errno_lost(mysql_errno(x->sql))) return st;
    for (size_t i = 0; i < x->ntabs; i++) rc_my_snap_reader_free(x->tabs[i]->rd), x->tabs[i]->rd = NULL;
    mysql_close(x->sql), x->sql = NULL;
    return RC_ERR_RETRY;
}

/* The table's chunk key: its primary key, else the unique index on NOT NULL columns with the
 * fewest columns (information_schema.STATISTICS); false when it has neither. */
static rc_status chunk_key(my_source *s, inc_table *it, bool *found, rc_incsnap_by *by, rc_error *err)
{
    *found = it->st.npk > 0, *by = RC_INCSNAP_BY_PK;
    if (*found) return RC_OK;
    char sql[900], db[140], tb[140];
    const rc_my_table *t = it->st.t;
    mysql_real_escape_string(s->inc->sql, db, t->db.p, (unsigned long)t->db.n);
    mysql_real_escape_string(s->inc->sql, tb, t->name.p, (unsigned long)t->name.n);
    snprintf(sql, sizeof sql,
             "SELECT INDEX_NAME, COLUMN_NAME, NULLABLE, SUB_PART FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = '%s' "
             "AND TABLE_NAME = '%s' AND NON_UNIQUE = 0 ORDER BY INDEX_NAME, SEQ_IN_INDEX", db, tb);
    MYSQL_RES *r;
    if (rc_my_select(s->inc->sql, &s->url, sql, &r, err) != RC_OK) return err->code;
    char cur[130] = "";
    uint32_t cols[MAX_KEY], n = 0, best = 0;
    bool ok = false;
    MYSQL_ROW row;
    for (bool more = true; more;) {
        row = mysql_fetch_row(r);
        if (!row || strcmp(row[0], cur)) { /* an index ends */
            if (n && ok && (!best || n < best)) memcpy(it->st.pk, cols, n * sizeof *cols), best = n;
            if (!row) break;
            snprintf(cur, sizeof cur, "%s", row[0]), n = 0, ok = true;
        }
        uint32_t c = 0;
        while (c < t->ncols && (t->cols[c].name.n != strlen(row[1]) || memcmp(t->cols[c].name.p, row[1], t->cols[c].name.n))) c++;
        ok = ok && c < t->ncols && n < MAX_KEY && strcmp(row[2] ? row[2] : "", "YES") && !row[3];
        if (ok) cols[n++] = c;
    }
    mysql_free_result(r);
    it->st.npk = best, *found = best > 0, *by = RC_INCSNAP_BY_INDEX;
    return RC_OK;
}

rc_status rc_my_incsnap_prepare(my_source *s, const char *name, rc_incsnap_by *by, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    inc_table *it = rc_my_incsnap_table(x, name);
    const char *dot = strchr(name, '.');
    rc_str db = {name, dot ? (size_t)(dot - name) : 0}, tb = {dot ? dot + 1 : name, dot ? strlen(dot + 1) : 0};
    const rc_my_table *t = dot ? rc_my_history_get(s->hist, db, tb) : NULL;
    if (!t || (s->accept && !s->accept(s->accept_ctx, db, tb)))
        return rc_error_set(err, RC_SKIP, RC_NO_OFFSET, "%s is not a table this capture captures (--include)", name);
    if (!it) {
        inc_table **n = realloc(x->tabs, (x->ntabs + 1) * sizeof *n);
        if (!n) return rc_my_source_nomem(err);
        x->tabs = n;
        if (!(it = calloc(1, sizeof *it))) return rc_my_source_nomem(err);
        it->index = (uint32_t)x->ntabs, n[x->ntabs++] = it;
        rc_buf_init(&it->from, RC_BUF_DEFAULT_MAX), rc_buf_init(&it->at, RC_BUF_DEFAULT_MAX);
        if (!(it->name = strdup(name))) return rc_my_source_nomem(err);
    } else { /* queued anew: from its first row, with the structure now */
        rc_buf_reset(&it->from), rc_buf_reset(&it->at);
        rc_my_snap_reader_free(it->rd);
        free(it->st.cols), free(it->st.pk), free(it->own), free(it->resume);
        it->rd = NULL, it->st = (rc_my_snap_table){0}, it->resume = NULL, it->resume_len = 0;
    }
    if (!(it->own = rc_my_table_copy(t, err)) || rc_my_snap_table_of(it->own, &it->st, err) != RC_OK) return err->code;
    bool found;
    if (rc_my_incsnap_session(s, err) != RC_OK || chunk_key(s, it, &found, by, err) != RC_OK)
        return rc_my_incsnap_again(x, err->code), err->code;
    if (!found)
        return rc_error_set(err, RC_SKIP, RC_NO_OFFSET,
                            "table %s has no primary key and no unique index on NOT NULL columns: an incremental snapshot of it "
                            "could deliver rows twice or miss them; add one (ALTER TABLE %s ADD PRIMARY KEY (...)), or take an "
                            "initial snapshot (--snapshot initial with a new checkpoint)", name, name);
    return RC_OK;
}
