/* What the PostgreSQL source reads from the catalog on the SQL session: the database's enum,
 * domain and array-of-those types (for rc_pg_types), and the tables of a publication with
 * their columns as pgoutput would describe them in a Relation message (same column order,
 * generated and dropped columns left out, the key flag from the replica identity), so that
 * snapshot rows and streamed changes of a table encode alike. */
#ifndef ROWCAST_SOURCES_PG_CATALOG_H
#define ROWCAST_SOURCES_PG_CATALOG_H

#include "sources/pg/pg_conn.h"
#include "sources/pg/pg_value.h"
#include "sources/pg/pgoutput.h"

/* A failed query: RETRY when the session is gone, FATAL otherwise; "WHAT on URL: the server's
 * message". Clears res. */
rc_pg_rc rc_pg_query_fail(rc_pg_conn *c, PGresult *res, const char *what, rc_error *err);

/* Registers every enum (labels in sort order) and domain of the database, the other types by
 * name (extensions' types, and those rowcast does not know: rc_pg_types_add_named), and the
 * array types over them, in reg; `oid` != 0: only that type (a Type message announced it). */
rc_pg_rc rc_pg_catalog_types(rc_pg_conn *c, rc_pg_types *reg, uint32_t oid, rc_error *err);

typedef struct rc_pg_table {
    const rc_pg_relation *rel; /* catalog version: one reference, dropped by rc_pg_tables_free */
    uint16_t *pk_rank;         /* the primary key (rc_pg_catalog_primary_key), NULL: none */
    char **dflts;              /* per column its default as a value's text (rc_pg_default_text), NULL: none */
    char relkind;              /* 'r' table, 'p' partitioned table */
    double reltuples;          /* the planner's estimate (-1: never analyzed) */
} rc_pg_table;

/* The tables of `publication` and `publication2` (NULL or "": none) matching one of `include`
 * (table_patterns.h; all when n_include is 0), sorted by schema and name. *out is the
 * caller's: rc_pg_tables_free. */
rc_pg_rc rc_pg_catalog_tables(rc_pg_conn *c, const char *publication, const char *publication2,
                              const char *const *include, size_t n_include, rc_pg_table **out, size_t *n,
                              rc_error *err);
void rc_pg_tables_free(rc_pg_table *t, size_t n);
/* Drops one entry's references (its relation, its key), leaving it zeroed. */
void rc_pg_table_fini(rc_pg_table *t);

/* The primary key of relation `rel` (by its OID) as rank[i] for its column i: the 1-based
 * position in the key, 0 when not in it. *found false when the table has none. not_null (may
 * be NULL): not_null[i], whether column i is NOT NULL. dflts (may be NULL): dflts[i], column i's
 * default as rc_pg_default_text gives it (malloc'd, NULL: none). */
rc_pg_rc rc_pg_catalog_primary_key(rc_pg_conn *c, const rc_pg_relation *rel, uint16_t *rank, bool *not_null,
                                   char **dflts, bool *found, rc_error *err);

#endif
