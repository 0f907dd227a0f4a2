/* COPY ... TO STDOUT's text format, as the snapshot reads it: one row per line, columns
 * separated by tabs, \N for NULL, backslash escapes (\b \f \n \r \t \v \\, \NNN octal,
 * \xHH hex, any other character after a backslash stands for itself). The values are the
 * types' text output, as pgoutput sends them, so the same readers (pg_value.h) take them. */
#ifndef ROWCAST_SOURCES_PG_COPY_H
#define ROWCAST_SOURCES_PG_COPY_H

#include "sources/pg/pgoutput.h"

/* One line (without its "\n") as a tuple of `rel`: values unescaped into the arena. A line
 * with fewer or more columns than the relation is RC_ERR_SCHEMA naming both counts and the
 * byte (err->offset) where it went wrong. */
rc_status rc_pg_copy_row(rc_arena *a, const rc_pg_relation *rel, const char *line, size_t n,
                         rc_pgo_tuple *t, rc_error *err);

#endif
