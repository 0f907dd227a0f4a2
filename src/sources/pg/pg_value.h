/* PostgreSQL column types and text values -> rowcast's canonical column types and values
 * (docs/sources/postgres-types.md).
 *
 * pgoutput describes a column by its type OID and typmod and sends each value as the text
 * the type's output function writes, in the walsender session's settings, which the
 * connection pins: DateStyle ISO, IntervalStyle postgres, TimeZone UTC, extra_float_digits 3,
 * bytea_output hex.
 * rc_pg_type_resolve turns (OID, typmod) into the declaration PostgreSQL's format_type()
 * prints ("numeric(10,2)", "timestamp(3) with time zone", "integer[]"), parsed against the
 * type catalog as every decoder fills a column, plus the reader its values need;
 * rc_pg_value_parse (core/pg_value_text.h: a format re-reads PostgreSQL texts too) reads one
 * value text exactly (numbers never pass through a double unless the column is a float).
 *
 * Built-in types have fixed OIDs (the table in pg_value_types.c, PostgreSQL 15's pg_type.dat).
 * Enum and domain types, and arrays of them, get their OIDs when created: the connection
 * looks them up in pg_type and registers them in an rc_pg_types, the cache resolve reads.
 * So are the other types by their name (rc_pg_types_add_named): extensions' types, whose OIDs
 * differ per database (citext, ltree, hstore, the isn types: read as text, declared by their
 * name), and any type rowcast does not know, read as text and declared by its name parsed as
 * the type catalog's "unknown" row (or "unknown"): no column type stops a capture
 * (docs/sources/postgres.md, "Extension and unknown types"). */
#ifndef RC_SOURCES_PG_VALUE_H
#define RC_SOURCES_PG_VALUE_H

#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/error.h"
#include "rowcast/event.h"
#include "core/pg_value_text.h" /* the readers, rc_pg_type and rc_pg_value_parse */

/* The enum, domain and array types of one database, by OID (registered by the connection
 * from pg_type). Entries are replaced by a new registration of the same OID. */
typedef struct rc_pg_types rc_pg_types;
rc_pg_types *rc_pg_types_new(void);
void rc_pg_types_free(rc_pg_types *r);
/* `labels`: the enum's labels in sort order, each label[i] of label_len[i] bytes. */
rc_status rc_pg_types_add_enum(rc_pg_types *r, uint32_t oid, uint32_t nlabels, const char *const *labels, const size_t *label_len,
                               rc_error *err);
/* A domain over `base_oid` with the domain's typmod (pg_type.typbasetype, typtypmod). */
rc_status rc_pg_types_add_domain(rc_pg_types *r, uint32_t oid, uint32_t base_oid, int32_t base_typmod, rc_error *err);
/* An array type whose element type is `elem_oid` (pg_type.typelem of a typcategory 'A' type). */
rc_status rc_pg_types_add_array(rc_pg_types *r, uint32_t oid, uint32_t elem_oid, rc_error *err);
/* A type known by its name (pg_type.typname): an extension's type or one rowcast does not know;
 * `delim` the element delimiter of its arrays (pg_type.typdelim; 0: ','). */
rc_status rc_pg_types_add_named(rc_pg_types *r, uint32_t oid, const char *typname, char delim, rc_error *err);
/* Forgets what is known about `oid` (a Type message announced a change). */
void rc_pg_types_forget(rc_pg_types *r, uint32_t oid);

/* The column type of (oid, typmod), typmod -1 when the column has none. `reg` may be NULL
 * (built-in types only). An OID neither built in nor registered is read as text and declared
 * "unknown". */
rc_status rc_pg_type_resolve(const rc_pg_types *reg, uint32_t oid, int32_t typmod, rc_arena *a, rc_pg_type *out, rc_error *err);

#endif
