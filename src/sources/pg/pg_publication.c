/* The publication the PostgreSQL source reads (pg_publication.h). */
#include "sources/pg/pg_publication.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/buf.h"
#include "sources/pg/pg_catalog.h"
#include "sources/table_patterns.h"

/* The database's tables, whether each has a replica identity (UPDATE and DELETE carry a key),
 * whether the publication or its companion ($1, $2) publishes it (a partitioned table: itself,
 * or any of its partitions, which pg_publication_tables lists instead of it when the publication
 * lacks publish_via_partition_root), whether it is a partition (a publication rowcast creates
 * names the partitioned table only), its relkind, and a partition's root (schema, table). */
#define TABLES_SQL                                                                                 \
    "SELECT n.nspname, c.relname, c.relreplident, c.relreplident = 'f' OR EXISTS (SELECT 1 "       \
    "FROM pg_catalog.pg_index i WHERE i.indrelid = c.oid AND CASE c.relreplident "                 \
    "WHEN 'd' THEN i.indisprimary WHEN 'i' THEN i.indisreplident ELSE false END), "                \
    "EXISTS (SELECT 1 FROM pg_catalog.pg_publication_tables pt "                                   \
    "JOIN pg_catalog.pg_namespace pn ON pn.nspname = pt.schemaname "                               \
    "JOIN pg_catalog.pg_class pc ON pc.relnamespace = pn.oid AND pc.relname = pt.tablename "       \
    "WHERE pt.pubname IN ($1, $2) AND (pc.oid = c.oid OR (c.relkind = 'p' AND pc.oid IN "          \
    "(SELECT relid FROM pg_catalog.pg_partition_tree(c.oid))))), c.relispartition, c.relkind, "    \
    "rn.nspname, rc.relname "                                                                      \
    "FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace "         \
    "LEFT JOIN pg_catalog.pg_class rc ON c.relispartition AND rc.oid = "                           \
    "pg_catalog.pg_partition_root(c.oid) "                                                         \
    "LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace "                            \
    "WHERE c.relkind IN ('r', 'p') AND n.nspname <> 'information_schema' "                         \
    "AND n.nspname !~ '^pg_' ORDER BY 1, 2"
enum {
    COL_SCHEMA,
    COL_TABLE,
    COL_REPLIDENT,
    COL_IDENTITY,
    COL_PUBLISHED,
    COL_PARTITION,
    COL_KIND,
    COL_ROOT_SCHEMA,
    COL_ROOT_TABLE
};

static rc_pg_rc pub_fail(rc_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static rc_pg_rc pub_fail(rc_error *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char msg[sizeof err->message];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s", msg);
    return RC_PG_FATAL;
}

void rc_pg_publication_companion(const char *name, char out[RC_PG_PUB_MAX])
{
    snprintf(out, RC_PG_PUB_MAX, "%.*s_inserts", RC_PG_PUB_MAX - 9, name);
}

void rc_pg_identity_fix(char *out, size_t cap, const char *schema, const char *table,
                        char relreplident)
{
    char q[300], qs[140], qt[140];
    rc_pg_quote_ident(qs, sizeof qs, schema);
    rc_pg_quote_ident(qt, sizeof qt, table);
    snprintf(q, sizeof q, "%s.%s", qs, qt);
    /* the fix depends on the cause: NOTHING was chosen (the table may have a key), the others
     * lack one */
    if (relreplident == 'n')
        snprintf(out, cap,
                 "REPLICA IDENTITY NOTHING): ALTER TABLE %s REPLICA IDENTITY FULL, or DEFAULT if "
                 "it has a primary key",
                 q);
    else if (relreplident == 'i')
        snprintf(out, cap,
                 "its identity index is gone): ALTER TABLE %s REPLICA IDENTITY USING INDEX another "
                 "unique index, or FULL",
                 q);
    else
        snprintf(out, cap,
                 "no primary key): add a primary key, or ALTER TABLE %s REPLICA IDENTITY FULL", q);
}

static bool row_match(const PGresult *r, int i, const char *pattern)
{
    const char *s = PQgetvalue(r, i, COL_SCHEMA), *t = PQgetvalue(r, i, COL_TABLE);
    return rc_table_pattern_match(pattern, s, strlen(s), t, strlen(t));
}

static bool flag(const PGresult *r, int i, int col)
{
    return PQgetvalue(r, i, col)[0] == 't';
}

/* A pattern that no captured table matches: why, and what to run. `exists`: the publication was
 * there before this run (else it is the one about to be created, with every table it can take). */
static rc_pg_rc unmatched(rc_pg_conn *c, const PGresult *r, const char *name, const char *pattern,
                          bool exists, rc_error *err)
{
    int i = 0;
    while (i < PQntuples(r) && !row_match(r, i, pattern)) i++;
    if (i == PQntuples(r)) {
        char msg[600];
        rc_table_pattern_unmatched(msg, sizeof msg, pattern, rc_pg_url(c), "schemas");
        return pub_fail(err, "%s", msg);
    }
    const char *schema = PQgetvalue(r, i, COL_SCHEMA), *table = PQgetvalue(r, i, COL_TABLE);
    char qs[140], qt[140], qp[140];
    rc_pg_quote_ident(qs, sizeof qs, schema);
    rc_pg_quote_ident(qt, sizeof qt, table);
    rc_pg_quote_ident(qp, sizeof qp, name);
    if (flag(r, i, COL_IDENTITY))
        return pub_fail(err,
                        "--include '%s': publication \"%s\" on %s has no table it matches (%s.%s "
                        "is not in it): run ALTER PUBLICATION %s ADD TABLE %s.%s, or leave the "
                        "pattern out",
                        pattern, name, rc_pg_url(c), schema, table, qp, qs, qt);
    char fix[600];
    rc_pg_identity_fix(fix, sizeof fix, schema, table, PQgetvalue(r, i, COL_REPLIDENT)[0]);
    if (exists)
        return pub_fail(err,
                        "--include '%s': table %s.%s is not in publication \"%s\" and has no "
                        "replica identity (%s, then ALTER PUBLICATION %s ADD TABLE %s.%s",
                        pattern, schema, table, name, fix, qp, qs, qt);
    return pub_fail(
        err,
        "--include '%s': table %s.%s has no replica identity (%s; published without one, the "
        "application's UPDATEs and DELETEs on it would fail, so rowcast does not publish it "
        "(-o postgres.publish.no_identity=insert_only: its INSERTs only)",
        pattern, schema, table, fix);
}

/* An existing publication without publish_via_partition_root publishes a partitioned table's
 * partitions under their own names: a pattern that matches the partitioned table and not one of
 * its published partitions would capture none of that partition's rows (the snapshot and the
 * stream name the partition). Refused, with what to run. */
static rc_pg_rc partitions_by_name(rc_pg_conn *c, const PGresult *r, const char *name,
                                   const char *const *include, size_t n, rc_error *err)
{
    for (int i = 0; i < PQntuples(r); i++) {
        if (!flag(r, i, COL_PARTITION) || !flag(r, i, COL_PUBLISHED) ||
            PQgetisnull(r, i, COL_ROOT_TABLE))
            continue;
        bool named = false;
        for (size_t k = 0; !named && k < n; k++) named = row_match(r, i, include[k]);
        if (named) continue;
        const char *rs = PQgetvalue(r, i, COL_ROOT_SCHEMA), *rt = PQgetvalue(r, i, COL_ROOT_TABLE);
        for (size_t k = 0; k < n; k++) {
            if (!rc_table_pattern_match(include[k], rs, strlen(rs), rt, strlen(rt))) continue;
            char qp[140];
            rc_pg_quote_ident(qp, sizeof qp, name);
            return pub_fail(err,
                            "--include '%s': publication \"%s\" on %s publishes partition %s.%s of "
                            "%s.%s under the partition's name, which the pattern does not match: "
                            "run ALTER PUBLICATION %s SET (publish_via_partition_root = true) to "
                            "capture its rows as %s.%s, or include the partition too",
                            include[k], name, rc_pg_url(c), PQgetvalue(r, i, COL_SCHEMA),
                            PQgetvalue(r, i, COL_TABLE), rs, rt, qp, rs, rt);
        }
    }
    return RC_PG_OK;
}

/* Whether row i is a partition whose root a pattern matches (the root is named instead). */
static bool root_included(const PGresult *r, int i, const char *const *include, size_t n)
{
    if (!flag(r, i, COL_PARTITION) || PQgetisnull(r, i, COL_ROOT_TABLE)) return false;
    const char *rs = PQgetvalue(r, i, COL_ROOT_SCHEMA), *rt = PQgetvalue(r, i, COL_ROOT_TABLE);
    for (size_t k = 0; k < n; k++)
        if (rc_table_pattern_match(include[k], rs, strlen(rs), rt, strlen(rt))) return true;
    return false;
}

/* Whether row i is a table a publication rowcast creates would name: matched by a pattern, not
 * a partition whose partitioned table a pattern matches (that one is named, published through
 * its root). A partition named by itself is published under its own name. */
static bool candidate(const PGresult *r, int i, const char *const *include, size_t n)
{
    if (root_included(r, i, include, n)) return false;
    for (size_t k = 0; k < n; k++)
        if (row_match(r, i, include[k])) return true;
    return false;
}

/* Appends "CREATE PUBLICATION q FOR TABLE a, b WITH (...);" of the candidate tables with (or
 * without) a replica identity; nothing when there is none and `always` is false. `publish`: the
 * publish option, or NULL. A partitioned table among them is published through its root
 * (publish_via_partition_root = true): its partitions' changes come under its name, which the
 * pattern matched, and pg_publication_tables lists it (the snapshot reads it once, with its
 * partitions) instead of its partitions. */
static void create_sql(rc_buf *b, const PGresult *r, const char *name, const char *const *include,
                       size_t n, bool identity, const char *publish, bool always)
{
    bool partitioned = false;
    char q[140];
    size_t start = b->len;
    rc_pg_quote_ident(q, sizeof q, name);
    rc_buf_puts(b, "CREATE PUBLICATION ");
    rc_buf_puts(b, q);
    bool any = false;
    for (int i = 0; i < PQntuples(r); i++) {
        if (!candidate(r, i, include, n) || flag(r, i, COL_IDENTITY) != identity) continue;
        char qs[140], qt[140];
        rc_pg_quote_ident(qs, sizeof qs, PQgetvalue(r, i, COL_SCHEMA));
        rc_pg_quote_ident(qt, sizeof qt, PQgetvalue(r, i, COL_TABLE));
        rc_buf_puts(b, any ? ", " : " FOR TABLE ");
        rc_buf_puts(b, qs);
        rc_buf_putc(b, '.');
        rc_buf_puts(b, qt);
        any = true;
        partitioned |= PQgetvalue(r, i, COL_KIND)[0] == 'p';
    }
    if (!any && !always) {
        b->len = start;
        return;
    }
    if (publish || partitioned) {
        rc_buf_puts(b, " WITH (");
        if (publish) rc_buf_puts(b, publish);
        if (publish && partitioned) rc_buf_puts(b, ", ");
        if (partitioned) rc_buf_puts(b, "publish_via_partition_root = true");
        rc_buf_putc(b, ')');
    }
    rc_buf_puts(b, ";\n");
}

/* Says each table the patterns match that has no replica identity: left out, or in the
 * companion. */
static void say_left_out(rc_pg_conn *c, const PGresult *r, const char *name,
                         const char *const *include, size_t n, bool inserts)
{
    char companion[RC_PG_PUB_MAX];
    rc_pg_publication_companion(name, companion);
    for (int i = 0; i < PQntuples(r); i++) {
        if (!candidate(r, i, include, n) || flag(r, i, COL_IDENTITY)) continue;
        const char *schema = PQgetvalue(r, i, COL_SCHEMA), *table = PQgetvalue(r, i, COL_TABLE);
        char fix[400], msg[1600];
        rc_pg_identity_fix(fix, sizeof fix, schema, table, PQgetvalue(r, i, COL_REPLIDENT)[0]);
        char qp[140], qs[140], qt[140];
        rc_pg_quote_ident(qp, sizeof qp, name);
        rc_pg_quote_ident(qs, sizeof qs, schema);
        rc_pg_quote_ident(qt, sizeof qt, table);
        if (inserts)
            snprintf(msg, sizeof msg,
                     "table %s.%s has no replica identity: its INSERTs and TRUNCATEs only are "
                     "captured, through publication %s (publish = 'insert, truncate')",
                     schema, table, companion);
        else
            snprintf(msg, sizeof msg,
                     "warning: table %s.%s is left out of publication %s: it has no replica "
                     "identity (%s, then ALTER PUBLICATION %s ADD TABLE %s.%s; published without "
                     "one, the application's UPDATEs and DELETEs on it would fail "
                     "(-o postgres.publish.no_identity=insert_only: its INSERTs only)",
                     schema, table, name, fix, qp, qs, qt);
        rc_pg_notice(c, msg);
    }
}

rc_pg_rc rc_pg_publication_ensure(rc_pg_conn *c, const char *name, const char *const *include,
                                  size_t n_include, bool no_identity_inserts, bool *created,
                                  rc_error *err)
{
    bool exists = false; /* set on RC_PG_OK; GCC -O3 does not see that */
    if (created) *created = false;
    rc_pg_rc rc = rc_pg_publication_exists(c, name, &exists, err);
    if (rc != RC_PG_OK || (exists && !n_include)) return rc;
    if (!n_include) return rc_pg_publication_missing(c, name, err);
    char companion[RC_PG_PUB_MAX];
    rc_pg_publication_companion(name, companion);
    const char *args[] = {name, companion};
    PGresult *r = rc_pg_query(c, TABLES_SQL, 2, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK)
        return rc_pg_query_fail(c, r, "listing the tables", err);
    /* each pattern matches a table the run captures: published, or to be */
    for (size_t k = 0; rc == RC_PG_OK && k < n_include; k++) {
        int i = 0;
        while (i < PQntuples(r) &&
               !(row_match(r, i, include[k]) &&
                 (exists ? flag(r, i, COL_PUBLISHED)
                         : !root_included(r, i, include, n_include) &&
                               (no_identity_inserts || flag(r, i, COL_IDENTITY)))))
            i++;
        if (i == PQntuples(r)) rc = unmatched(c, r, name, include[k], exists, err);
    }
    if (rc == RC_PG_OK && exists) rc = partitions_by_name(c, r, name, include, n_include, err);
    if (rc != RC_PG_OK || exists) {
        PQclear(r);
        return rc;
    }
    rc_buf sql;
    rc_buf_init(&sql, 0);
    rc_buf_puts(&sql, "BEGIN;\n");
    create_sql(&sql, r, name, include, n_include, true, NULL, true);
    char qn[140];
    rc_pg_quote_ident(qn, sizeof qn, name);
    rc_buf_puts(&sql, "COMMENT ON PUBLICATION ");
    rc_buf_puts(&sql, qn);
    rc_buf_puts(&sql, " IS '" RC_PG_PUB_MARK "';\n");
    if (no_identity_inserts)
        create_sql(&sql, r, companion, include, n_include, false, "publish = 'insert, truncate'",
                   false);
    rc_buf_puts(&sql, "COMMIT");
    rc_buf_putc(&sql, '\0');
    if (sql.err) {
        rc_buf_fini(&sql);
        PQclear(r);
        return pub_fail(err, "out of memory");
    }
    PGresult *res = PQexec(rc_pg_sql(c), sql.data);
    rc_buf_fini(&sql);
    if (PQresultStatus(res) != PGRES_COMMAND_OK) {
        PQclear(r);
        PQclear(PQexec(rc_pg_sql(c), "ROLLBACK"));
        return rc_pg_query_fail(c, res, "creating the publication", err);
    }
    PQclear(res);
    if (created) *created = true;
    char msg[RC_PG_PUB_MAX + 32];
    snprintf(msg, sizeof msg, "publication %s created", name);
    rc_pg_notice(c, msg);
    say_left_out(c, r, name, include, n_include, no_identity_inserts);
    PQclear(r);
    return RC_PG_OK;
}

rc_pg_rc rc_pg_publication_companion_find(rc_pg_conn *c, const char *name, char out[RC_PG_PUB_MAX],
                                          rc_error *err)
{
    bool exists = false;
    rc_pg_publication_companion(name, out);
    rc_pg_rc rc = rc_pg_publication_exists(c, out, &exists, err);
    if (rc != RC_PG_OK || !exists) out[0] = '\0';
    return rc;
}

rc_pg_rc rc_pg_tables_without_identity(rc_pg_conn *c, const char *publication, rc_pg_table_fn *fn,
                                       void *ud, rc_error *err)
{
    const char *args[] = {publication};
    PGresult *res = rc_pg_query(
        c,
        "SELECT t.schemaname, t.tablename, c.relreplident FROM pg_catalog.pg_publication_tables t "
        "JOIN pg_catalog.pg_publication p ON p.pubname = t.pubname "
        "JOIN pg_catalog.pg_namespace n ON n.nspname = t.schemaname "
        "JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid AND c.relname = t.tablename "
        "WHERE t.pubname = $1 AND (p.pubupdate OR p.pubdelete) AND (c.relreplident = 'n' "
        "OR (c.relreplident = 'd' AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_index i "
        "WHERE i.indrelid = c.oid AND i.indisprimary)) "
        "OR (c.relreplident = 'i' AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_index i "
        "WHERE i.indrelid = c.oid AND i.indisreplident))) ORDER BY 1, 2",
        1, args);
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        return rc_pg_query_fail(c, res, "reading the replica identities", err);
    for (int i = 0; i < PQntuples(res); i++)
        fn(ud, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1), PQgetvalue(res, i, 2)[0]);
    PQclear(res);
    return RC_PG_OK;
}

rc_pg_rc rc_pg_publication_owned(rc_pg_conn *c, const char *name, bool *owned, rc_error *err)
{
    const char *args[] = {name, RC_PG_PUB_MARK "%"};
    PGresult *r = rc_pg_query(c,
                              "SELECT EXISTS (SELECT 1 FROM pg_catalog.pg_publication WHERE pubname = $1 "
                              "AND pg_catalog.obj_description(oid, 'pg_publication') LIKE $2)",
                              2, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, "reading the publication's comment", err);
    *owned = PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    return RC_PG_OK;
}

/* ALTER PUBLICATION name ADD TABLE schema.table, said. */
static rc_pg_rc add_table(rc_pg_conn *c, const char *name, const char *schema, const char *table, rc_error *err)
{
    char qp[140], qs[140], qt[140], q[500];
    rc_pg_quote_ident(qp, sizeof qp, name);
    rc_pg_quote_ident(qs, sizeof qs, schema);
    rc_pg_quote_ident(qt, sizeof qt, table);
    snprintf(q, sizeof q, "ALTER PUBLICATION %s ADD TABLE %s.%s", qp, qs, qt);
    PGresult *r = PQexec(rc_pg_sql(c), q);
    if (PQresultStatus(r) != PGRES_COMMAND_OK) return rc_pg_query_fail(c, r, "adding a table to the publication", err);
    PQclear(r);
    char msg[700];
    snprintf(msg, sizeof msg, "table %s.%s matches --include: added to publication %s (%s)", schema, table, name, q);
    rc_pg_notice(c, msg);
    return RC_PG_OK;
}

rc_pg_rc rc_pg_publication_sync(rc_pg_conn *c, const char *name, const char *const *include, size_t n,
                                 rc_pg_pub_table_fn *fn, void *ud, rc_error *err)
{
    char companion[RC_PG_PUB_MAX];
    rc_pg_publication_companion(name, companion);
    const char *args[] = {name, companion};
    PGresult *r = rc_pg_query(c, TABLES_SQL, 2, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, "listing the tables", err);
    rc_pg_rc rc = RC_PG_OK;
    for (int i = 0; i < PQntuples(r) && rc == RC_PG_OK; i++) {
        if (!candidate(r, i, include, n) || !flag(r, i, COL_IDENTITY) || flag(r, i, COL_PARTITION)) continue;
        const char *schema = PQgetvalue(r, i, COL_SCHEMA), *table = PQgetvalue(r, i, COL_TABLE);
        bool published = flag(r, i, COL_PUBLISHED);
        if (!published && fn(ud, schema, table, false) && (rc = add_table(c, name, schema, table, err)) == RC_PG_OK)
            published = true;
        if (published && rc == RC_PG_OK) fn(ud, schema, table, true);
    }
    PQclear(r);
    return rc;
}
