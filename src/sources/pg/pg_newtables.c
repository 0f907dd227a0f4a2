/* Tables that start to match --include (pg_newtables.h). */
#include "sources/pg/pg_newtables.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sources/pg/pg_publication.h"
#include "sources/pg/pg_state.h"

enum { HANDLED = 1, WARNED = 2 };

typedef struct known {
    char *name; /* schema.table */
    int flags;
} known;

struct rc_pg_newtables {
    rc_pg_conn *conn;
    rc_pg_newtables_opts o;
    rc_pg_incsnap *inc;
    bool owned, started, resumed;
    rc_isstate loaded; /* the state file read at open: its `captured` line */
    bool has_captured;
    known *k;
    size_t nk;
    double next_at;
};

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void say(rc_pg_newtables *nt, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(rc_pg_newtables *nt, const char *fmt, ...)
{
    if (!nt->o.notice) return;
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nt->o.notice(nt->o.notice_ud, msg);
}

static rc_pg_rc widened(rc_pg_newtables *nt, bool exists, rc_error *err);

rc_pg_rc rc_pg_newtables_new(rc_pg_conn *c, const rc_pg_newtables_opts *o, rc_pg_newtables **out, rc_error *err)
{
    rc_pg_newtables *nt = *out = calloc(1, sizeof *nt);
    if (!nt) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"), RC_PG_FATAL;
    nt->conn = c, nt->o = *o;
    rc_isstate_init(&nt->loaded);
    bool exists = false;
    rc_pg_rc rc = rc_pg_publication_exists(c, o->publication, &exists, err);
    return rc == RC_PG_OK ? widened(nt, exists, err) : rc;
}

void rc_pg_newtables_free(rc_pg_newtables *nt)
{
    if (!nt) return;
    for (size_t i = 0; i < nt->nk; i++) free(nt->k[i].name);
    free(nt->k);
    rc_isstate_fini(&nt->loaded);
    free(nt);
}

/* The entry of schema.table (made with flags 0 when new), or NULL when out of memory. */
static known *entry(rc_pg_newtables *nt, const char *schema, const char *table)
{
    char name[300];
    snprintf(name, sizeof name, "%s.%s", schema, table);
    for (size_t i = 0; i < nt->nk; i++)
        if (!strcmp(nt->k[i].name, name)) return &nt->k[i];
    known *k = realloc(nt->k, (nt->nk + 1) * sizeof *k);
    if (k) nt->k = k;
    char *dup = k ? strdup(name) : NULL;
    if (!dup) return NULL;
    nt->k[nt->nk] = (known){dup, 0};
    return &nt->k[nt->nk++];
}

static bool was_captured(const rc_pg_newtables *nt, const char *name)
{
    for (size_t i = 0; i < nt->loaded.ncaptured; i++)
        if (!strcmp(nt->loaded.captured[i], name)) return true;
    return false;
}

/* widened: an owned publication gains every matched table the state's `captured` lacks */
static bool widened_table(void *ud, const char *schema, const char *table, bool published)
{
    (void)ud, (void)schema, (void)table;
    return !published;
}

/* An existing publication: whether it is rowcast's; with incremental snapshots, rowcast's and
 * a state file listing the captured tables, the tables --include now matches that it lacks are
 * added. */
static rc_pg_rc widened(rc_pg_newtables *nt, bool exists, rc_error *err)
{
    rc_pg_rc rc = exists ? rc_pg_publication_owned(nt->conn, nt->o.publication, &nt->owned, err) : RC_PG_OK;
    if (rc != RC_PG_OK || !exists || !nt->o.incremental) return rc;
    PGconn *sql = rc_pg_sql(nt->conn);
    char path[RC_PG_STATE_PATH_MAX], why[RC_PG_STATE_PATH_MAX + 200];
    rc_pg_state_locate(path, sizeof path, why, sizeof why, nt->o.state_path, PQhost(sql), PQport(sql), PQdb(sql), nt->o.slot);
    rc_pg_state_pos at;
    rc_error rerr; /* a state file that cannot be read is said when the snapshots open it */
    rc_error_clear(&rerr);
    nt->has_captured = !why[0] && rc_pg_state_read(path, &nt->o.home, nt->o.slot, &at, &nt->loaded, &rerr) == RC_OK && nt->loaded.ncaptured;
    if (!nt->has_captured || !nt->owned) return RC_PG_OK;
    return rc_pg_publication_sync(nt->conn, nt->o.publication, nt->o.include, nt->o.ninclude, widened_table, nt, err);
}

void rc_pg_newtables_created(rc_pg_newtables *nt) { nt->owned = true; }

/* Queues a table's incremental snapshot, said when it cannot be. */
static void queue(rc_pg_newtables *nt, const char *name, const char *asked)
{
    char why[600];
    rc_error err;
    rc_error_clear(&err);
    const char *no = rc_pg_incsnap_queue(nt->inc, name, asked, why, sizeof why);
    if (no) say(nt, "warning: %s matches --include, but its rows from before it was captured are not read: %s", name, no);
    else if (rc_pg_incsnap_captured(nt->inc, name, &err) != RC_OK) say(nt, "%s", err.message);
}

/* One table not in the publication: warned once (with what to run), or added (true). */
static bool unpublished(rc_pg_newtables *nt, known *k, const char *schema, const char *table)
{
    if (k->flags & WARNED) return false; /* said, or left out at the start */
    if (nt->o.incremental && nt->owned && (nt->has_captured || nt->started)) return true;
    k->flags |= WARNED;
    if (!nt->started && (!nt->o.incremental || nt->owned)) return false; /* as before this run: not said */
    char qp[140];
    rc_pg_quote_ident(qp, sizeof qp, nt->o.publication);
    if (!nt->owned)
        say(nt, "warning: table %s.%s matches --include but publication %s (not created by rowcast: never altered) does "
            "not publish it, so it is not captured: ALTER PUBLICATION %s ADD TABLE %s.%s%s", schema, table,
            nt->o.publication, qp, schema, table, nt->o.incremental ? " (rowcast then snapshots its rows)" : "");
    else
        say(nt, "warning: table %s.%s matches --include but is not in publication %s, so it is not captured: with "
            "--snapshot incremental or -o postgres.signal.table, rowcast adds it and reads its rows", schema, table,
            nt->o.publication);
    return false;
}

static bool on_table(void *ud, const char *schema, const char *table, bool published)
{
    rc_pg_newtables *nt = ud;
    known *k = entry(nt, schema, table);
    if (!k) return false;
    if (!published) return unpublished(nt, k, schema, table);
    if (k->flags & HANDLED) return false;
    k->flags |= HANDLED;
    if (!nt->inc) {
        if (nt->started)
            say(nt, "warning: table %s.%s is captured from now on (it came into publication %s); its rows from before "
                "are not read (--snapshot incremental or -o postgres.signal.table would)", schema, table, nt->o.publication);
        return false;
    }
    if (!nt->started && !(nt->resumed && nt->has_captured && !was_captured(nt, k->name))) {
        rc_error err;
        rc_error_clear(&err);
        if (rc_pg_incsnap_captured(nt->inc, k->name, &err) != RC_OK) say(nt, "%s", err.message);
        return false;
    }
    queue(nt, k->name, nt->started ? "a table that started to match --include" : "--include now matches it");
    return false;
}

rc_pg_rc rc_pg_newtables_start(rc_pg_newtables *nt, rc_pg_incsnap *inc, bool resumed, rc_error *err)
{
    nt->inc = inc, nt->resumed = resumed;
    if (inc && resumed && !nt->has_captured)
        say(nt, "the snapshot state lists no captured tables (state file %s): tables --include matches that are not "
            "captured yet are not read this run; from now on they are", rc_pg_incsnap_state_path(inc));
    rc_pg_rc rc = rc_pg_publication_sync(nt->conn, nt->o.publication, nt->o.include, nt->o.ninclude, on_table, nt, err);
    nt->started = true;
    nt->next_at = now_s() + RC_PG_NEWTABLES_POLL_S;
    return rc;
}

rc_pg_rc rc_pg_newtables_poll(rc_pg_newtables *nt, rc_error *err)
{
    double t = now_s();
    if (t < nt->next_at) return RC_PG_OK;
    nt->next_at = t + RC_PG_NEWTABLES_POLL_S;
    return rc_pg_publication_sync(nt->conn, nt->o.publication, nt->o.include, nt->o.ninclude, on_table, nt, err);
}
