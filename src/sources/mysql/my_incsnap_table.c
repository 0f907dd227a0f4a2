/* The tables of the MySQL/MariaDB source's incremental snapshots (my_incsnap_int.h): looked up
 * by name, made ready to be read (their structure as the history has it, their chunk key: the
 * primary key, else a unique index on NOT NULL columns), on the SQL session the chunks use.
 * Used by my_incsnap.c (signals), my_incsnap_state.c (a resumed state) and my_incsnap_captured.c
 * (tables that start to match --include). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sources/mysql/my_incsnap_int.h"

inc_table *rc_my_incsnap_table(rc_my_incsnap *x, const char *name)
{
    /* the chunk's table first: asked once a row (pend, row_key) */
    if (x->cur < x->ntabs && !strcmp(x->tabs[x->cur]->name, name)) return x->tabs[x->cur];
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
        rc_my_incsnap_table_drop(x, it, true);
        free(it->resume);
        it->rd = NULL, it->resume = NULL, it->resume_len = 0, it->ddl_rereads = 0;
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

/* ---- structures: a DDL during a table's snapshot ---- */

/* Events handed out point at p (their columns): kept until rc_my_incsnap_free (a DDL, or a
 * table queued anew, is rare). Out of memory: left allocated, never freed under them. */
static void retire(rc_my_incsnap *x, void *p)
{
    void **r = p ? realloc(x->retired, (x->nretired + 1) * sizeof *r) : NULL;
    if (r) x->retired = r, r[x->nretired++] = p;
}

void rc_my_incsnap_table_drop(rc_my_incsnap *x, inc_table *it, bool keep)
{
    void *parts[] = {it->own, it->st.cols, it->st.pk};
    for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
        if (keep) retire(x, parts[i]);
        else free(parts[i]);
    }
    it->own = NULL, it->st = (rc_my_snap_table){0};
}

bool rc_my_incsnap_ddl_errno(unsigned e)
{
    return e == 1054 /* ER_BAD_FIELD_ERROR */ || e == 1146 /* ER_NO_SUCH_TABLE */ || e == 1049 /* ER_BAD_DB_ERROR */ ||
           e == 1412 /* ER_TABLE_DEF_CHANGED */;
}

bool rc_my_incsnap_current(const my_source *s, const inc_table *it)
{
    const rc_my_table *now = rc_my_history_get(s->hist, it->own->db, it->own->name);
    if (!now || !rc_my_table_same(now, it->own)) return false;
    for (uint32_t i = 0; i < now->ncols; i++)
        if (now->cols[i].pk != it->own->cols[i].pk) return false;
    return true;
}

/* The chunk keys of a and b: the same columns (names as the server compares them) with the
 * same declared types, in the same order. */
static bool same_key(const rc_my_snap_table *a, const rc_my_snap_table *b)
{
    if (a->npk != b->npk) return false;
    for (uint32_t k = 0; k < a->npk; k++) {
        const rc_column *ca = &a->cols[a->pk[k]], *cb = &b->cols[b->pk[k]];
        if (ca->name.n != cb->name.n || strncasecmp(ca->name.p, cb->name.p, ca->name.n) || ca->type.decl.n != cb->type.decl.n ||
            memcmp(ca->type.decl.p, cb->type.decl.p, ca->type.decl.n))
            return false;
    }
    return true;
}

rc_status rc_my_incsnap_refresh(my_source *s, inc_table *it, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    if (it->ddl_rereads > INC_DDL_REREADS)
        return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET,
                            "incremental snapshot of %s stopped: its structure changed while one chunk was read, %u times in a "
                            "row; write the signal again once its DDL is done", it->name, it->ddl_rereads);
    if (it->behind_rereads > INC_BEHIND_REREADS)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                            "incremental snapshot of %s stopped: the server's binlog_snapshot_position stayed before the "
                            "stream's last transaction (%s:%" PRIu64 ") for %u reads of one chunk in a row; write the signal "
                            "again, or take the table watermark (-o mysql.snapshot.watermark=table)",
                            it->name, x->change_file, x->change_offset, it->behind_rereads);
    if (rc_my_incsnap_current(s, it)) return RC_OK;
    const rc_my_table *now = rc_my_history_get(s->hist, it->own->db, it->own->name);
    if (!now)
        return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET,
                            "incremental snapshot of %s stopped: the table was dropped or renamed during its snapshot; write "
                            "the signal again (with its new name) to read it", it->name);
    inc_table was = *it;
    it->own = NULL, it->st = (rc_my_snap_table){0};
    rc_incsnap_by by;
    bool found = false;
    rc_status st = (it->own = rc_my_table_copy(now, err)) && rc_my_snap_table_of(it->own, &it->st, err) == RC_OK
                       ? chunk_key(s, it, &found, &by, err)
                       : err->code;
    if (st == RC_OK && (!found || !same_key(&was.st, &it->st)))
        st = rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET,
                          "incremental snapshot of %s stopped: its key changed during its snapshot (an ALTER TABLE); write the "
                          "signal again to read it by its new key", it->name);
    if (st != RC_OK) { /* the structure the chunks were read with stays */
        rc_my_incsnap_table_drop(x, it, false);
        it->own = was.own, it->st = was.st;
        return rc_my_incsnap_again(x, st);
    }
    rc_my_incsnap_table_drop(x, &was, true);
    rc_my_source_notice(s, "incremental snapshot of %s: its columns changed; the next rows are read with the new ones", it->name);
    return RC_OK;
}
