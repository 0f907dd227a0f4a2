/* The publication the PostgreSQL source reads: used as it is when it exists, else created FOR
 * TABLE the tables --include matches (never FOR ALL TABLES or TABLES IN SCHEMA, whose list
 * rowcast could not keep tables out of). A table without a replica identity is never put in a
 * publication that publishes UPDATE and DELETE: PostgreSQL would refuse the application's own
 * UPDATEs and DELETEs on it from then on. It is left out, said with the fixes, or, when asked
 * (`no_identity_inserts`), put in a companion publication NAME_inserts with publish = 'insert,
 * truncate', which the stream reads beside NAME. Every --include pattern must match a table
 * the run captures: one that matches none is an error that says why and what to run. */
#ifndef ROWCAST_SOURCES_PG_PUBLICATION_H
#define ROWCAST_SOURCES_PG_PUBLICATION_H

#include "sources/pg/pg_conn.h"

#define RC_PG_PUB_MAX 64 /* a publication's name, NUL included (NAMEDATALEN) */

/* The comment a publication rowcast creates carries (COMMENT ON PUBLICATION): it marks the
 * publication as rowcast's, which may add the tables --include comes to match. */
#define RC_PG_PUB_MARK "created by rowcast"

/* Whether publication `name` carries rowcast's mark (one made by a rowcast before the mark, or
 * by anyone else, does not: it is the user's, never altered). */
rc_pg_rc rc_pg_publication_owned(rc_pg_conn *c, const char *name, bool *owned, rc_error *err);

/* Each table `include` matches that a publication rowcast creates would name (with a replica
 * identity; not a partition): fn(ud, schema, table, published). For one the publication does
 * not publish, fn's true means "add it": ALTER PUBLICATION name ADD TABLE (said through the
 * notice), then fn again with published true. */
typedef bool rc_pg_pub_table_fn(void *ud, const char *schema, const char *table, bool published);
rc_pg_rc rc_pg_publication_sync(rc_pg_conn *c, const char *name, const char *const *include, size_t n,
                                rc_pg_pub_table_fn *fn, void *ud, rc_error *err);

/* The companion publication's name of `name`: NAME_inserts (cut to fit). */
void rc_pg_publication_companion(const char *name, char out[RC_PG_PUB_MAX]);

/* Checks the `include` patterns against the publication `name` (with its companion) when it
 * exists; else creates it (and the companion when `no_identity_inserts` and a table needs it),
 * saying through the connection's notice which tables are left out and why. A missing
 * publication without patterns, or a pattern matching no table that would be captured, is
 * RC_PG_FATAL with the message. *created: the publication was created now. */
rc_pg_rc rc_pg_publication_ensure(rc_pg_conn *c, const char *name, const char *const *include,
                                  size_t n_include, bool no_identity_inserts, bool *created,
                                  rc_error *err);

/* The companion's name into out when it exists, else "". */
rc_pg_rc rc_pg_publication_companion_find(rc_pg_conn *c, const char *name, char out[RC_PG_PUB_MAX],
                                          rc_error *err);

/* Calls fn for each table that `publication` publishes UPDATEs or DELETEs of and whose UPDATE
 * and DELETE carry no key: replica identity NOTHING, DEFAULT without a primary key, or INDEX
 * on a dropped index (relreplident 'n', 'd' or 'i'). Only a publication made by someone else
 * has such tables; the caller warns (rc_pg_identity_fix says what to do). */
typedef void rc_pg_table_fn(void *ud, const char *schema, const char *table, char relreplident);
rc_pg_rc rc_pg_tables_without_identity(rc_pg_conn *c, const char *publication, rc_pg_table_fn *fn,
                                       void *ud, rc_error *err);

/* "no primary key): add a primary key, or ALTER TABLE s.t REPLICA IDENTITY FULL" for a
 * table without replica identity: its cause in words, a ')', and the fix, by relreplident. */
void rc_pg_identity_fix(char *out, size_t cap, const char *schema, const char *table,
                        char relreplident);

#endif
