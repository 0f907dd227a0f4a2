/* `rowcast snapshot` on PostgreSQL (rc_source_ops.write_signal): the capture's connection
 * (rc_pg_open: the capture role), its check of the signal table (missing: the CREATE TABLE to
 * run, pg_incsnap.h), the tables the patterns match among the database's (ordinary and
 * partitioned tables, partitions left out as the publication names their root; the signal
 * table left out), and one INSERT of the signal row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/pg/pg_catalog.h"
#include "sources/pg/pg_incsnap.h"
#include "sources/pg/pg_source_decl.h"
#include "sources/signal_write.h"

#define TABLES_SQL                                                                                       \
    "SELECT n.nspname, c.relname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n "             \
    "ON n.oid = c.relnamespace WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition "                  \
    "AND n.nspname <> 'information_schema' AND n.nspname !~ '^pg_' ORDER BY 1, 2"

static rc_status insert(void *ctx, const rc_signal_ask *ask, const char *data, rc_error *err)
{
    rc_pg_conn *c = ctx;
    const char *args[] = {ask->id, ask->type, data};
    char sql[300];
    snprintf(sql, sizeof sql, "INSERT INTO %s VALUES ($1, $2, $3)", ask->signal_table);
    PGresult *r = rc_pg_query(c, sql, 3, args);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) return rc_pg_query_fail(c, r, "writing the signal", err), err->code;
    PQclear(r);
    return RC_OK;
}

/* The tables of the database, the signal made of them, and its INSERT. */
static rc_status write_row(rc_pg_conn *c, const rc_signal_ask *ask, rc_error *err)
{
    PGresult *r = rc_pg_query(c, TABLES_SQL, 0, NULL);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, "listing the tables", err), err->code;
    int rows = PQntuples(r);
    rc_signal_name *names = malloc(((size_t)rows + 1) * sizeof *names);
    for (int i = 0; names && i < rows; i++) names[i] = (rc_signal_name){PQgetvalue(r, i, 0), PQgetvalue(r, i, 1)};
    rc_status st = rc_signal_write(ask, names, (size_t)rows, rc_pg_url(c), "schemas", insert, c, err);
    free(names);
    PQclear(r);
    return st;
}

rc_status rc_pg_signal_write(const char *url, const rc_options *opts, const char *type, const char *const *patterns,
                             size_t npatterns, const char *id, char *said, size_t said_cap, rc_error *err)
{
    rc_pg_capture_options o = {0};
    if (opts && rc_options_parse(opts, "postgres", rc_pg_options, &o, err) != RC_OK) return err->code;
    if (!o.signal_table)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "which signal table? give the capture's: -o postgres.signal.table=SCHEMA.TABLE");
    const char *dot = strchr(o.signal_table, '.');
    if (!dot || dot == o.signal_table || !dot[1]) /* as the capture refuses it (pg_incsnap.c) */
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o postgres.signal.table=%s: expected SCHEMA.TABLE", o.signal_table);
    rc_signal_ask ask = {o.signal_table, type, id, patterns, npatterns, said, said_cap};
    rc_pg_conn *c = NULL;
    rc_pg_rc rc = rc_pg_open(url, NULL, &c, err);
    if (rc == RC_PG_OK) rc = rc_pg_incsnap_table_exists(c, o.signal_table, err);
    rc_status st = rc == RC_PG_OK ? write_row(c, &ask, err) : err->code ? err->code : RC_ERR_IO;
    rc_pg_close(c);
    return st == RC_ERR_RETRY ? RC_ERR_IO : st; /* the command has no retry: the server failed */
}
