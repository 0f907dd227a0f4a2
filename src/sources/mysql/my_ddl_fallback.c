/* A DDL statement the schema history cannot apply, at the live position of a capture
 * (my_ddl_fallback.h): the table read again from information_schema, or, when it is not
 * captured, left alone. The server's structure is the one at the live position: a DDL on the
 * table that the server ran after this statement (the binlog read behind the server) is in it
 * too, so rows between the two are decoded with the later structure; the warning says so. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_ddl_fallback.h"
#include "sources/mysql/my_source_int.h"

/* The URL's database, and the events lists' filter (--include) */
static bool captured(my_source *s, rc_str db, rc_str table)
{
    if (s->url.db && (strlen(s->url.db) != db.n || memcmp(s->url.db, db.p, db.n))) return false;
    const rc_event_list *l = &rc_db_batch(&s->db.batches)->events;
    return !l->accept || l->accept(l->accept_ctx, db, table);
}

/* db.table as information_schema has it now into the history, or out of it when the server has
 * no such table (*found false). */
static rc_status reread(my_source *s, rc_str db, rc_str table, bool *found, rc_error *err)
{
    *found = false;
    char *name = malloc(db.n + 1);
    rc_my_history *tmp = rc_my_history_new();
    if (!name || !tmp) {
        free(name), rc_my_history_free(tmp);
        return rc_my_source_nomem(err);
    }
    memcpy(name, db.p, db.n), name[db.n] = '\0';
    rc_my_url u = s->url;
    u.db = name; /* the tables of that database alone */
    MYSQL *m = NULL;
    rc_my_snap_table *ts = NULL;
    size_t n = 0;
    rc_status st = rc_my_connect(&s->url, &m, err);
    if (st == RC_OK) st = rc_my_tables_load(m, &u, tmp, NULL, NULL, &ts, &n, err);
    if (m) mysql_close(m);
    rc_my_tables_free(ts, n);
    const rc_my_table *t = st == RC_OK ? rc_my_history_get(tmp, db, table) : NULL;
    if (t) {
        *found = true;
        st = rc_my_history_put(s->hist, t, err);
    } else if (st == RC_OK) {
        rc_my_history_drop(s->hist, db, table);
    }
    rc_my_history_free(tmp);
    free(name);
    return st;
}

rc_status rc_my_ddl_unapplied(void *ctx, rc_str db, rc_str sql, const char *file, uint64_t offset, const rc_error *why,
                              rc_my_ddl_result *res, rc_error *err)
{
    my_source *s = ctx;
    (void)sql;
    res->changed = false;
    if (!res->table.n) {
        rc_my_source_notice(s, "warning: %s:%" PRIu64 ": the schema history cannot apply the statement and found no table name "
                            "in it; no table's structure changed (%s)", file, offset, why->message);
        return RC_OK;
    }
    rc_str tdb = res->db.n ? res->db : db;
    if (!captured(s, tdb, res->table)) {
        rc_my_source_notice(s, "%s:%" PRIu64 ": the schema history cannot apply the statement on %.*s.%.*s, a table not captured: "
                            "ignored (%s)", file, offset, (int)tdb.n, tdb.p, (int)res->table.n, res->table.p, why->message);
        return RC_OK;
    }
    bool found;
    rc_status st = reread(s, tdb, res->table, &found, err);
    if (st != RC_OK) return st;
    res->changed = true;
    rc_my_source_notice(s, "warning: %s:%" PRIu64 ": the schema history cannot apply the statement on %.*s.%.*s: %s (%s)", file, offset,
                        (int)tdb.n, tdb.p, (int)res->table.n, res->table.p,
                        found ? "its structure was read again from information_schema (the server's structure now: a later DDL it "
                                "already ran on the table is in it too)"
                              : "read again from information_schema, where the server has no such base table now: it left the history",
                        why->message);
    return RC_OK;
}
