/* Schema names that are valid Avro names, as Debezium makes them (docs/formats/debezium.md): the
 * logical server name must start with a letter or '_', every other character of the server,
 * database, schema and table names must be [A-Za-z0-9_]; an invalid character becomes '_'.
 * Replacing characters can make two tables collide ("a-b" and "a_b"): a registry remembers
 * which original name each adjusted name came from and reports a collision naming both. */
#ifndef ROWCAST_NAMES_H
#define ROWCAST_NAMES_H

#include <stddef.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/value.h"

/* Appends parts[0..n) joined by '.', adjusted as above; returns true when nothing had to be
 * replaced. */
bool rc_avro_fullname(rc_buf *out, const rc_str *parts, size_t n);

typedef struct rc_name_registry rc_name_registry;

rc_name_registry *rc_name_registry_new(void);
void rc_name_registry_free(rc_name_registry *r);

/* Records that `original` (the dot-joined original parts) was adjusted to `adjusted`.
 * RC_ERR_VALUE when another original already maps to the same adjusted name; the message
 * names both. */
rc_status rc_name_registry_add(rc_name_registry *r, const char *original, size_t on, const char *adjusted, size_t an,
                               rc_error *err);

#endif
