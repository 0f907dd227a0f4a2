/* What `rowcast snapshot` writes into a signal table (rc_source_ops.write_signal), the part both
 * database sources share: the tables the --include-style patterns match among the server's
 * (each once, in the catalog's order), the data column of the signal, and the words of the
 * message. The sources list their tables and INSERT the row (pg_signal_write.c,
 * my_signal_write.c). */
#ifndef RC_SOURCES_SIGNAL_WRITE_H
#define RC_SOURCES_SIGNAL_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"

/* One table of the server: schema (MySQL: database) and name. */
typedef struct rc_signal_name {
    const char *schema, *table;
} rc_signal_name;

typedef struct rc_signal_text {
    rc_buf data;    /* the data column: JSON, or nothing (SQL NULL: has_data false) */
    bool has_data;
    char said[400]; /* "execute-snapshot public.a, public.b (2 tables)", cut with "…" */
} rc_signal_text;

/* The signal of `type` for the tables of `names` (n of them; the signal table left out by the
 * caller) that `patterns` match: execute-snapshot {"data-collections": [...], "type":
 * "incremental"}; stop-snapshot the same with patterns, no data without (every table);
 * pause-snapshot and resume-snapshot no data. A pattern that matches no table is RC_ERR_SCHEMA:
 * "--include 'P' matched no table on WHERE" (rc_table_pattern_unmatched; KIND "schemas" or
 * "databases") and what is near it: the closest name, else the tables of the schemas the
 * pattern names, else the schemas. t is the caller's to rc_signal_text_fini (also on error). */
rc_status rc_signal_text_make(rc_signal_text *t, const char *type, const rc_signal_name *names, size_t n,
                              const char *const *patterns, size_t npatterns, const char *where, const char *kind,
                              rc_error *err);
void rc_signal_text_fini(rc_signal_text *t);

/* Whether "schema.table" is `qualified` (the signal table itself, never snapshotted). */
bool rc_signal_name_is(const rc_signal_name *n, const char *qualified);

#endif
