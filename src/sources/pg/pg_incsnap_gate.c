/* PostgreSQL incremental snapshots: a table's first chunk waits for the transactions that were
 * open when the table was queued (pg_incsnap_int.h; docs/design/incremental-snapshots.md,
 * "Tables added to the publication").
 *
 * pgoutput decides whether a change is published with the catalog as of that change in the
 * WAL: the changes a transaction made to a table before `ALTER PUBLICATION ... ADD TABLE`
 * committed are never streamed, even when the transaction commits later. A chunk read while
 * such a transaction is open does not see them either, so they would be lost. Every such
 * transaction had its xid before the ADD committed, so before the table was queued: below an
 * xid assigned then (pg_current_xact_id() on rowcast's session, committed at once: xids are
 * handed out in order). Not pg_snapshot_xmax(pg_current_snapshot()): that is the newest
 * finished xid + 1, and a transaction given its xid after the newest one that finished is still
 * open above it (seen: "724:724:" with xid 724 open). Once pg_snapshot_xmin of a new snapshot
 * has reached that bound, all of them ended, and every chunk read from then on sees what they
 * committed. Polled between stream reads (never a wait inside a query). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sources/pg/pg_incsnap_int.h"

enum { GATE_POLL_MS = 20, GATE_SAY_S = 5 };

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The xid8 the query `q` gives (what: the function, for the error), or 0 when it cannot be read. */
static uint64_t query_xid(rc_pg_incsnap *is, const char *q, const char *what, rc_error *err)
{
    PGresult *r = PQexec(rc_pg_sql(is->conn), q);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(is->conn, r, what, err), 0;
    uint64_t x = strtoull(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return x;
}

rc_status rc_pgis_gate_set(rc_pg_incsnap *is, started *tb, rc_error *err)
{
    /* autocommit: the xid's transaction ends at once (its commit record flushed locally with
     * -o postgres.snapshot.flush, as the watermarks') */
    uint64_t x = query_xid(is, "SELECT pg_catalog.pg_current_xact_id()::text", "pg_current_xact_id", err);
    if (!x) return err->code ? err->code : RC_ERR_IO;
    tb->gate = x, tb->gate_since = now_s(), tb->gate_said = false;
    return RC_OK;
}

/* The started entry of the table the core reads its next chunk of (the one running, else the
 * first queued), or NULL. */
static started *next_table(rc_pg_incsnap *is)
{
    for (int want = RC_INCSNAP_RUNNING; want >= (int)RC_INCSNAP_QUEUED; want--)
        for (size_t i = 0; i < rc_incsnap_ntables(is->core); i++) {
            const rc_incsnap_table *t = rc_incsnap_table_at(is->core, i);
            if ((int)t->state == want) return rc_pgis_table_of(is, t->name);
        }
    return NULL;
}

/* The oldest open transaction, for the line that says why a chunk waits. */
static void say_waiting(rc_pg_incsnap *is, const started *tb, uint64_t xmin)
{
    PGresult *r = PQexec(rc_pg_sql(is->conn),
                         "SELECT format('pid %s, %s, open %s s%s', pid, state, "
                         "round(extract(epoch FROM pg_catalog.now() - xact_start)), CASE WHEN wait_event = 'SyncRep' THEN "
                         "', committed and waiting for a synchronous standby (synchronous_standby_names): its changes are "
                         "visible once one confirms it' ELSE '' END) FROM pg_catalog.pg_stat_activity "
                         "WHERE backend_xid IS NOT NULL ORDER BY pg_catalog.age(backend_xid) DESC LIMIT 1");
    const char *who = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r)
                          ? PQgetvalue(r, 0, 0)
                          : "not in pg_stat_activity: a prepared transaction, or another role's session (pg_read_all_stats shows it)";
    rc_pgis_say(is, "incremental snapshot of %s waits for the transactions open when it was queued to end (xid < %" PRIu64
            "; the oldest open: xid %" PRIu64 ", %s): a chunk read before they end could miss their changes to it (a "
            "change made before the table was added to the publication is never streamed)", tb->name, tb->gate, xmin, who);
    PQclear(r);
}

void rc_pgis_gate_missed(rc_pg_incsnap *is) { is->missed_until = now_s() + GATE_POLL_MS / 1000.0; }

bool rc_pgis_gate_waits(rc_pg_incsnap *is)
{
    if (now_s() < is->missed_until) return true;
    started *tb = next_table(is);
    if (!tb || !tb->gate || rc_incsnap_paused(is->core)) return false;
    double t = now_s();
    if (t < is->gate_polled + GATE_POLL_MS / 1000.0) return true;
    is->gate_polled = t;
    rc_error err;
    rc_error_clear(&err);
    uint64_t xmin =
        query_xid(is, "SELECT pg_catalog.pg_snapshot_xmin(pg_catalog.pg_current_snapshot())::text", "pg_current_snapshot", &err);
    if (!xmin) { /* the chunk waits; said once */
        if (!tb->gate_said) rc_pgis_say(is, "warning: incremental snapshot of %s waits: %s", tb->name, err.message);
        tb->gate_said = true;
        return true;
    }
    if (xmin >= tb->gate) {
        if (tb->gate_said) rc_pgis_say(is, "incremental snapshot of %s: the transactions open when it was queued ended; its chunks start", tb->name);
        tb->gate = 0;
        return false;
    }
    if (!tb->gate_said && (is->o.verbose || t - tb->gate_since >= GATE_SAY_S)) {
        say_waiting(is, tb, xmin);
        tb->gate_said = true;
    }
    return true;
}
