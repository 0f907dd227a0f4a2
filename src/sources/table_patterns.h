/* --include patterns against the tables a database source lists before it reads (PostgreSQL's
 * publication, MySQL's snapshot): the pipeline's rule (fnmatch of "schema.table"; a pattern
 * without a dot names schemas or databases, `shop` is `shop.*`), and the words for a pattern
 * that matched none, convert's ("--include 'P' matched no event") said of tables. */
#ifndef ROWCAST_SOURCES_TABLE_PATTERNS_H
#define ROWCAST_SOURCES_TABLE_PATTERNS_H

#include <stdbool.h>
#include <stddef.h>

/* Whether schema.table (lengths given: the names need no NUL) matches `pattern`. */
bool rc_table_pattern_match(const char *pattern, const char *schema, size_t schema_n,
                            const char *table, size_t table_n);

/* "--include 'P' matched no table on WHERE", and for a pattern without a dot " (as P.*: a
 * pattern without a dot names KIND)" (KIND: "schemas", "databases"), into out. */
void rc_table_pattern_unmatched(char *out, size_t cap, const char *pattern, const char *where,
                                const char *kind);

#endif
