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

/* What the command asks: a signal of `type` ("execute-snapshot", "stop-snapshot",
 * "pause-snapshot", "resume-snapshot") with id `id` into `signal_table` ("SCHEMA.TABLE"), for
 * the tables `patterns` match; `said` gets what was written. */
typedef struct rc_signal_ask {
    const char *signal_table, *type, *id;
    const char *const *patterns;
    size_t npatterns;
    char *said;
    size_t said_cap;
} rc_signal_ask;

/* The source's INSERT of the row (id, type, data; data NULL: SQL NULL). */
typedef rc_status rc_signal_insert_fn(void *ctx, const rc_signal_ask *ask, const char *data, rc_error *err);

/* The tables of `names` (the server's, n of them, in the catalog's order; NULL: out of memory;
 * reordered here) that the patterns match, the signal table left out, as the data of the
 * signal: execute-snapshot {"data-collections": [...], "type": "incremental"}; stop-snapshot
 * the same with patterns, no data without (every table); pause-snapshot and resume-snapshot no
 * data. Then `insert`, and ask->said: "SIGNAL_TABLE on WHERE: execute-snapshot public.a,
 * public.b (2 tables)". A pattern that matches no table is RC_ERR_SCHEMA (nothing inserted):
 * "--include 'P' matched no table on WHERE" (rc_table_pattern_unmatched; KIND "schemas" or
 * "databases") and what is near it: the closest name, else the tables of the schemas the
 * pattern names, else the schemas. */
rc_status rc_signal_write(const rc_signal_ask *ask, rc_signal_name *names, size_t n, const char *where, const char *kind,
                          rc_signal_insert_fn *insert, void *ctx, rc_error *err);

#endif
