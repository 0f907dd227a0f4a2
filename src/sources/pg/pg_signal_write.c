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

static rc_status pg_status(rc_error *err, rc_pg_rc rc)
{
    if (rc == RC_PG_RETRY) err->code = RC_ERR_IO; /* the command has no retry: the server's failure */
    return err->code ? err->code : RC_ERR_IO;
}

/* The tables of the database but the signal table, the signal made of them, and its INSERT. */
static rc_pg_rc write_row(rc_pg_conn *c, const char *signal_table, const char *type, const char *const *patterns,
                          size_t np, const char *id, char *said, size_t said_cap, rc_error *err)
{
    PGresult *r = rc_pg_query(c, TABLES_SQL, 0, NULL);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, "listing the tables", err);
    int rows = PQntuples(r);
    rc_signal_name *names = malloc(((size_t)rows + 1) * sizeof *names);
    size_t n = 0;
    for (int i = 0; names && i < rows; i++) {
        names[n] = (rc_signal_name){PQgetvalue(r, i, 0), PQgetvalue(r, i, 1)};
        if (!rc_signal_name_is(&names[n], signal_table)) n++;
    }
    rc_signal_text t;
    rc_status st = names ? rc_signal_text_make(&t, type, names, n, patterns, np, rc_pg_url(c), "schemas", err)
                         : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_pg_rc rc = st == RC_OK ? RC_PG_OK : RC_PG_FATAL;
    if (st == RC_OK) {
        rc_buf_putc(&t.data, '\0');
        const char *args[] = {id, type, t.has_data ? t.data.data : NULL};
        char sql[300];
        snprintf(sql, sizeof sql, "INSERT INTO %s VALUES ($1, $2, $3)", signal_table);
        PGresult *ins = rc_pg_query(c, sql, 3, args);
        if (PQresultStatus(ins) != PGRES_COMMAND_OK) rc = rc_pg_query_fail(c, ins, "writing the signal", err);
        else PQclear(ins), snprintf(said, said_cap, "%s on %s: %s", signal_table, rc_pg_url(c), t.said);
    }
    if (names) rc_signal_text_fini(&t);
    free(names);
    PQclear(r);
    return rc;
}

rc_status rc_pg_signal_write(const char *url, const rc_options *opts, const char *type, const char *const *patterns,
                             size_t npatterns, const char *id, char *said, size_t said_cap, rc_error *err)
{
    rc_pg_capture_options o = {0};
    if (opts && rc_options_parse(opts, "postgres", rc_pg_options, &o, err) != RC_OK) return err->code;
    if (!o.signal_table)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "which signal table? give the capture's: -o postgres.signal.table=SCHEMA.TABLE");
    rc_pg_conn *c = NULL;
    rc_pg_rc rc = rc_pg_open(url, NULL, &c, err);
    if (rc == RC_PG_OK) rc = rc_pg_incsnap_table_exists(c, o.signal_table, err);
    if (rc == RC_PG_OK) rc = write_row(c, o.signal_table, type, patterns, npatterns, id, said, said_cap, err);
    rc_pg_close(c);
    return rc == RC_PG_OK ? RC_OK : pg_status(err, rc);
}
