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

/* "Did you mean": the registered name closest to one the user typed (a format, an option, a
 * command). The distance is Damerau's optimal string alignment (insert, delete, substitute or
 * swap two neighbours, one each), ASCII case ignored. A candidate is suggested only when it is
 * within a third of the typed name's length (at least 1, at most 4 edits), so that a name
 * unlike every other gets no suggestion rather than a random one; of equally close candidates
 * the first offered wins. */
size_t rc_name_distance(const char *a, const char *b);

typedef struct rc_suggest {
    const char *given;
    const char *best; /* NULL until a candidate is close enough */
    size_t best_d;
} rc_suggest;

void rc_suggest_init(rc_suggest *s, const char *given);
void rc_suggest_offer(rc_suggest *s, const char *candidate);

#endif
