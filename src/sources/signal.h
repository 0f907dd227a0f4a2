/* Signals (docs/design/incremental-snapshots.md §2): the rows of the signal table (id, type,
 * data; Debezium's table is accepted) and PostgreSQL's `rowcast.signal` messages
 * ({"id":…,"type":…,"data":{…}}), read from the stream, into commands for the incremental
 * snapshot core. Types (Debezium's names): execute-snapshot {"data-collections": [...],
 * "type": "incremental", "additional-conditions": [{"data-collection": T, "filter": F}]},
 * stop-snapshot (optional data-collections: absent, all), pause-snapshot, resume-snapshot;
 * snapshot-window-open / -close rows are watermarks, never signals. Names are exact (no
 * patterns); whether they are captured tables is the caller's check. A malformed signal is
 * an error naming its id and where it was read ("signal id=s-42 in public.rowcast_signal:
 * data is not JSON (byte 17: ...)"): the caller says it and goes on. */
#ifndef RC_SOURCES_SIGNAL_H
#define RC_SOURCES_SIGNAL_H

#include <stddef.h>
#include "rowcast/arena.h"
#include "rowcast/error.h"
#include "rowcast/value.h"

typedef enum rc_signal_kind {
    RC_SIGNAL_EXECUTE,
    RC_SIGNAL_STOP,
    RC_SIGNAL_PAUSE,
    RC_SIGNAL_RESUME,
    RC_SIGNAL_WATERMARK, /* a watermark row of the signal table: not a command */
} rc_signal_kind;

typedef struct rc_signal_table {
    const char *name;
    const char *filter; /* additional-conditions' filter, ANDed to every chunk query; NULL none */
} rc_signal_table;

typedef struct rc_signal {
    rc_signal_kind kind;
    const char *id;
    rc_signal_table *tables; /* execute: the data-collections, each once; stop: the tables
                              * named (none: every table) */
    size_t ntables;
} rc_signal;

/* One signal row: id and type as read, data NULL when SQL NULL. `where` names the source of
 * the row in errors (the signal table's name). Strings and arrays live in `a`. */
rc_status rc_signal_parse(rc_signal *sg, rc_arena *a, const char *where, rc_str id, rc_str type,
                          const rc_str *data, rc_error *err);

/* One signal row from the values of its first three columns (id, type, data) as the stream
 * decoded them: text (also bytes, JSON, ENUM), an integer (its decimal text; an INT id column)
 * or NULL; another kind is an error naming the row (by id when the id is readable). */
rc_status rc_signal_parse_values(rc_signal *sg, rc_arena *a, const char *where, const rc_value *v,
                                 rc_error *err);

/* A `rowcast.signal` message's content: {"id": "...", "type": "...", "data": {...}}. */
rc_status rc_signal_parse_message(rc_signal *sg, rc_arena *a, const char *msg, size_t n,
                                  rc_error *err);

#endif
