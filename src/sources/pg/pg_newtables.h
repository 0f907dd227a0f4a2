/* Tables that start to match --include while PostgreSQL is captured (docs/sources/postgres.md,
 * "Tables that start to match --include"; issue 24 N1). rowcast's publication is FOR TABLE the
 * tables matched when it was made, so a table created later is not in it and pgoutput sends
 * nothing of it. Every RC_PG_NEWTABLES_POLL_S seconds of streaming the catalog is read again
 * (one query on the SQL session):
 *  - with incremental snapshots (--snapshot incremental, or -o postgres.signal.table) and a
 *    publication rowcast owns (RC_PG_PUB_MARK): ALTER PUBLICATION ... ADD TABLE, then the
 *    table's incremental snapshot is queued (its rows from before the ADD come in chunks, later
 *    ones by the stream);
 *  - a publication the user owns is never altered: one warning with the ALTER PUBLICATION to
 *    run; once the table is in it, its snapshot is queued (with incremental snapshots);
 *  - without incremental snapshots nothing is altered or read: one warning per such table.
 * At open (rc_pg_newtables_new, before the publication is checked): a table --include now
 * matches that the state file's `captured` line does not list (a widened --include and a
 * restart) is added to an owned publication and queued (rc_pg_newtables_start); without a `captured` line, said once and left as before. */
#ifndef ROWCAST_SOURCES_PG_NEWTABLES_H
#define ROWCAST_SOURCES_PG_NEWTABLES_H

#include "sources/pg/pg_conn.h"
#include "sources/pg/pg_incsnap.h"

#define RC_PG_NEWTABLES_POLL_S 5.0

typedef struct rc_pg_newtables rc_pg_newtables;

typedef struct rc_pg_newtables_opts {
    const char *publication;
    const char *const *include;
    size_t ninclude;
    bool incremental; /* incremental snapshots run (the rc_pg_incsnap is given later) */
    const char *state_path, *slot; /* --checkpoint (NULL: the default path) and the slot */
    rc_pg_state_home home;         /* what a kafka:// state_path needs (pg_state.h) */
    void (*notice)(void *ud, const char *msg);
    void *notice_ud;
} rc_pg_newtables_opts;

/* Before the publication is checked: whether it exists and is rowcast's; with incremental
 * snapshots, rowcast's publication and a state file listing the captured tables, the tables
 * --include now matches that are not in it are added to it. *out is made even on error. */
rc_pg_rc rc_pg_newtables_new(rc_pg_conn *c, const rc_pg_newtables_opts *o, rc_pg_newtables **out, rc_error *err);
void rc_pg_newtables_free(rc_pg_newtables *nt);

/* The publication was created by this run: it is rowcast's. */
void rc_pg_newtables_created(rc_pg_newtables *nt);
/* Once the incremental snapshots' state is read and the slot was looked for (`resumed`: the
 * slot existed, so the state goes on): the tables published now are the captured ones; a
 * table the state's `captured` line lacks is queued. The first look at the catalog. */
rc_pg_rc rc_pg_newtables_start(rc_pg_newtables *nt, rc_pg_incsnap *inc, bool resumed, rc_error *err);
/* While streaming: the catalog read again when RC_PG_NEWTABLES_POLL_S passed. */
rc_pg_rc rc_pg_newtables_poll(rc_pg_newtables *nt, rc_error *err);

#endif
