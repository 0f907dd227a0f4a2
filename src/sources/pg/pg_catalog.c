/* Catalog reads of the PostgreSQL source (pg_catalog.h). */
#include "sources/pg/pg_catalog.h"
#include "sources/pg/pg_default.h"
#include <stdio.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include "sources/table_patterns.h"

rc_pg_rc rc_pg_query_fail(rc_pg_conn *c, PGresult *res, const char *what, rc_error *err)
{
    PGconn *sql = rc_pg_sql(c);
    bool lost = PQstatus(sql) == CONNECTION_BAD;
    char msg[200];
    const char *prim = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL; /* without "ERROR:  " */
    snprintf(msg, sizeof msg, "%s", prim ? prim : res ? PQresultErrorMessage(res) : PQerrorMessage(sql));
    msg[strcspn(msg, "\n")] = '\0';
    PQclear(res);
    rc_error_set(err, lost ? RC_ERR_IO : RC_ERR_USAGE, RC_NO_OFFSET, "%s on %s: %s", what,
                 rc_pg_url(c), msg);
    return lost ? RC_PG_RETRY : RC_PG_FATAL;
}

static uint32_t oid_at(const PGresult *r, int row, int col)
{
    return (uint32_t)strtoul(PQgetvalue(r, row, col), NULL, 10);
}

/* The enums' labels: one row per label, in each type's sort order. */
static rc_pg_rc add_enums(rc_pg_conn *c, rc_pg_types *reg, const char *oid, rc_error *err)
{
    const char *args[] = {oid};
    PGresult *r = rc_pg_query(c,
                              "SELECT enumtypid, enumlabel FROM pg_catalog.pg_enum "
                              "WHERE $1::oid = 0 OR enumtypid = $1::oid ORDER BY enumtypid, enumsortorder",
                              1, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, "reading enum types", err);
    int n = PQntuples(r);
    const char **labels = malloc(((size_t)n + 1) * sizeof *labels);
    size_t *lens = malloc(((size_t)n + 1) * sizeof *lens);
    rc_status st = labels && lens ? RC_OK : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (int i = 0, first = 0; st == RC_OK && i < n; i++) {
        labels[i - first] = PQgetvalue(r, i, 1);
        lens[i - first] = (size_t)PQgetlength(r, i, 1);
        if (i + 1 < n && oid_at(r, i + 1, 0) == oid_at(r, i, 0)) continue;
        st = rc_pg_types_add_enum(reg, oid_at(r, i, 0), (uint32_t)(i + 1 - first), labels, lens, err);
        first = i + 1;
    }
    free(labels);
    free(lens);
    PQclear(r);
    return st == RC_OK ? RC_PG_OK : RC_PG_FATAL;
}

/* Registers each row of catalog query q (one parameter: the OID, 0 for all) with add_row. */
static rc_pg_rc each_type(rc_pg_conn *c, const char *q, const char *oid, const char *what, rc_pg_types *reg,
                          rc_status (*add_row)(rc_pg_types *, const PGresult *, int, rc_error *), rc_error *err)
{
    const char *args[] = {oid};
    PGresult *r = rc_pg_query(c, q, 1, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, what, err);
    rc_status st = RC_OK;
    for (int i = 0; st == RC_OK && i < PQntuples(r); i++) st = add_row(reg, r, i, err);
    PQclear(r);
    return st == RC_OK ? RC_PG_OK : RC_PG_FATAL;
}

static rc_status add_named(rc_pg_types *reg, const PGresult *r, int i, rc_error *err)
{
    return rc_pg_types_add_named(reg, oid_at(r, i, 0), PQgetvalue(r, i, 1), PQgetvalue(r, i, 2)[0], err);
}

static rc_status add_domain_or_array(rc_pg_types *reg, const PGresult *r, int i, rc_error *err)
{
    if (PQgetvalue(r, i, 1)[0] == 'd') return rc_pg_types_add_domain(reg, oid_at(r, i, 0), oid_at(r, i, 2), atoi(PQgetvalue(r, i, 3)), err);
    return rc_pg_types_add_array(reg, oid_at(r, i, 0), oid_at(r, i, 4), err);
}

rc_pg_rc rc_pg_catalog_types(rc_pg_conn *c, rc_pg_types *reg, uint32_t oid, rc_error *err)
{
    char o[16];
    snprintf(o, sizeof o, "%u", oid);
    if (oid) rc_pg_types_forget(reg, oid);
    rc_pg_rc rc = add_enums(c, reg, o, err);
    /* the types known by name (rc_pg_types_add_named): every base, composite, range, multirange
     * and pseudo type that is not an enum or domain -- those of the system (below
     * FirstNormalObjectId, 16384: the built-in ones rowcast reads are found before the
     * registry), and the others that a column uses or an array of one is over; `oid` != 0:
     * that type and its element type (a Type message names the array type of a column) */
    if (rc == RC_PG_OK)
        rc = each_type(c,
                       "SELECT t.oid, t.typname, t.typdelim FROM pg_catalog.pg_type t WHERE t.typtype IN ('b', 'c', 'r', 'm', 'p') "
                       "AND t.typcategory <> 'A' AND CASE WHEN $1::oid = 0 THEN t.oid < 16384 OR t.oid IN (SELECT a.atttypid "
                       "FROM pg_catalog.pg_attribute a WHERE a.attnum > 0 UNION SELECT e.typelem FROM pg_catalog.pg_attribute a "
                       "JOIN pg_catalog.pg_type e ON e.oid = a.atttypid WHERE a.attnum > 0) ELSE t.oid = $1::oid OR t.oid = "
                       "(SELECT typelem FROM pg_catalog.pg_type WHERE oid = $1::oid) END",
                       o, "reading type names", reg, add_named, err);
    /* domains, and the arrays over enums, domains and the types of extensions, and those a
     * column uses (pg_lsn[]: the built-in ones rowcast reads are found first) */
    if (rc == RC_PG_OK)
        rc = each_type(c,
                       "SELECT t.oid, t.typtype, t.typbasetype, t.typtypmod, t.typelem FROM pg_catalog.pg_type t "
                       "WHERE ($1::oid = 0 OR t.oid = $1::oid) AND (t.typtype = 'd' OR (t.typcategory = 'A' AND "
                       "(t.typelem IN (SELECT oid FROM pg_catalog.pg_type WHERE typtype IN ('e', 'd') OR oid >= 16384) OR "
                       "t.oid IN (SELECT a.atttypid FROM pg_catalog.pg_attribute a WHERE a.attnum > 0))))",
                       o, "reading domain types", reg, add_domain_or_array, err);
    return rc;
}

static bool included(const char *const *include, size_t n, const char *schema, const char *table)
{
    for (size_t i = 0; i < n; i++)
        if (rc_table_pattern_match(include[i], schema, strlen(schema), table, strlen(table))) return true;
    return !n;
}

/* The columns of relation `oid` as a Relation message lists them: the key flag is the
 * replica identity's (primary key, the identity index, every column with FULL, none); and
 * RC_PG_COLUMN_NOT_NULL, which a Relation message does not send. */
static rc_pg_rc relation_of(rc_pg_conn *c, const char *oid, const char *schema, const char *table,
                            char replident, const rc_pg_relation **out, uint64_t version, rc_error *err)
{
    const char *args[] = {oid};
    PGresult *r = rc_pg_query(
        c,
        "SELECT a.attname, a.atttypid, a.atttypmod, CASE c.relreplident WHEN 'f' THEN true "
        "WHEN 'n' THEN false ELSE coalesce(a.attnum = ANY((SELECT i.indkey FROM pg_catalog.pg_index i "
        "WHERE i.indrelid = c.oid AND CASE c.relreplident WHEN 'd' THEN i.indisprimary ELSE "
        "i.indisreplident END LIMIT 1)::int2[]), false) END, a.attnotnull FROM pg_catalog.pg_class c JOIN "
        "pg_catalog.pg_attribute a ON a.attrelid = c.oid WHERE c.oid = $1::oid AND a.attnum > 0 "
        "AND NOT a.attisdropped AND a.attgenerated = '' ORDER BY a.attnum",
        1, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, "reading table columns", err);
    int n = PQntuples(r);
    rc_pg_column *cols = calloc((size_t)n + 1, sizeof *cols);
    if (!cols) {
        PQclear(r);
        rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        return RC_PG_FATAL;
    }
    for (int i = 0; i < n; i++) {
        cols[i].name = PQgetvalue(r, i, 0);
        cols[i].type_oid = oid_at(r, i, 1);
        cols[i].typmod = atoi(PQgetvalue(r, i, 2));
        cols[i].flags = (PQgetvalue(r, i, 3)[0] == 't' ? RC_PG_COLUMN_KEY : 0) |
                        (PQgetvalue(r, i, 4)[0] == 't' ? RC_PG_COLUMN_NOT_NULL : 0);
    }
    rc_pg_relation tmp = {.oid = (uint32_t)strtoul(oid, NULL, 10),
                          .nspname = schema,
                          .relname = table,
                          .replident = replident,
                          .ncols = (uint16_t)n,
                          .cols = cols};
    *out = rc_pg_relation_new(&tmp, version);
    free(cols);
    PQclear(r);
    if (*out) return RC_PG_OK;
    rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    return RC_PG_FATAL;
}

/* The versions of relations read from the catalog, unique in the process (two tables, or a
 * table read again after a DDL, never share one: rc_pg_events keys its column sets by it). */
static atomic_uint_fast64_t catalog_versions;

rc_pg_rc rc_pg_catalog_tables(rc_pg_conn *c, const char *publication, const char *publication2,
                              const char *const *include, size_t n_include, rc_pg_table **out, size_t *n,
                              rc_error *err)
{
    *out = NULL, *n = 0;
    const char *args[] = {publication, publication2 ? publication2 : ""};
    PGresult *r = rc_pg_query(c,
                              "SELECT c.oid, n.nspname, c.relname, c.relreplident, c.relkind, c.reltuples "
                              "FROM pg_catalog.pg_publication_tables pt JOIN pg_catalog.pg_namespace n ON "
                              "n.nspname = pt.schemaname JOIN pg_catalog.pg_class c ON c.relnamespace = n.oid "
                              "AND c.relname = pt.tablename WHERE pt.pubname IN ($1, $2) GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 2, 3",
                              2, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, "listing the publication's tables", err);
    rc_pg_table *t = calloc((size_t)PQntuples(r) + 1, sizeof *t);
    if (!t) {
        PQclear(r);
        rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        return RC_PG_FATAL;
    }
    rc_pg_rc rc = RC_PG_OK;
    size_t k = 0;
    for (int i = 0; rc == RC_PG_OK && i < PQntuples(r); i++) {
        const char *schema = PQgetvalue(r, i, 1), *table = PQgetvalue(r, i, 2);
        if (!included(include, n_include, schema, table)) continue;
        rc = relation_of(c, PQgetvalue(r, i, 0), schema, table, PQgetvalue(r, i, 3)[0], &t[k].rel,
                         RC_PG_RELATION_CATALOG_VERSION + atomic_fetch_add(&catalog_versions, 1), err);
        if (rc != RC_PG_OK) break;
        bool found = false;
        uint16_t *rank = malloc((t[k].rel->ncols + 1) * sizeof *rank);
        char **dflts = calloc((size_t)t[k].rel->ncols + 1, sizeof *dflts);
        if (!rank || !dflts || (rc = rc_pg_catalog_primary_key(c, t[k].rel, rank, NULL, dflts, &found, err)) != RC_PG_OK || !found) {
            free(rank);
            rank = NULL;
        }
        t[k].pk_rank = rank;
        t[k].dflts = dflts;
        t[k].relkind = PQgetvalue(r, i, 4)[0];
        t[k].reltuples = atof(PQgetvalue(r, i, 5));
        k++;
    }
    PQclear(r);
    if (rc != RC_PG_OK) {
        rc_pg_tables_free(t, k);
        return rc;
    }
    *out = t, *n = k;
    return RC_PG_OK;
}

void rc_pg_table_fini(rc_pg_table *t)
{
    for (uint16_t i = 0; t->dflts && t->rel && i < t->rel->ncols; i++) free(t->dflts[i]);
    free(t->dflts);
    rc_pg_relation_release(t->rel);
    free(t->pk_rank);
    *t = (rc_pg_table){0};
}

void rc_pg_tables_free(rc_pg_table *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++) rc_pg_table_fini(&t[i]);
    free(t);
}

rc_pg_rc rc_pg_catalog_primary_key(rc_pg_conn *c, const rc_pg_relation *rel, uint16_t *rank, bool *not_null,
                                   char **dflts, bool *found, rc_error *err)
{
    char oid[16];
    snprintf(oid, sizeof oid, "%u", rel->oid);
    const char *args[] = {oid};
    PGresult *r = rc_pg_query(c,
                              /* indkey is an int2vector, subscripts from 0: its order by ORDINALITY */
                              "SELECT a.attname, coalesce(k.n, 0), a.attnotnull, pg_catalog.pg_get_expr(d.adbin, d.adrelid), "
                              "t.typname FROM pg_catalog.pg_attribute a "
                              "LEFT JOIN (SELECT k.attnum, k.n FROM pg_catalog.pg_index i, unnest(i.indkey) WITH "
                              "ORDINALITY AS k(attnum, n) WHERE i.indrelid = $1::oid AND i.indisprimary) k ON "
                              "k.attnum = a.attnum LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND "
                              "d.adnum = a.attnum AND a.attgenerated = '' JOIN pg_catalog.pg_type t ON t.oid = a.atttypid "
                              "WHERE a.attrelid = $1::oid AND a.attnum > 0 AND NOT a.attisdropped",
                              1, args);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) return rc_pg_query_fail(c, r, "reading the primary key", err);
    memset(rank, 0, rel->ncols * sizeof *rank);
    if (not_null) memset(not_null, 0, rel->ncols * sizeof *not_null);
    if (dflts) memset(dflts, 0, rel->ncols * sizeof *dflts);
    *found = false;
    for (int k = 0; k < PQntuples(r); k++)
        for (uint16_t i = 0; i < rel->ncols; i++)
            if (!strcmp(rel->cols[i].name, PQgetvalue(r, k, 0))) {
                rank[i] = (uint16_t)atoi(PQgetvalue(r, k, 1));
                *found |= rank[i] > 0;
                if (not_null) not_null[i] = PQgetvalue(r, k, 2)[0] == 't';
                if (dflts && !PQgetisnull(r, k, 3)) dflts[i] = rc_pg_default_text(PQgetvalue(r, k, 3), PQgetvalue(r, k, 4));
            }
    PQclear(r);
    return RC_PG_OK;
}
