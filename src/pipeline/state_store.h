/* Where a run keeps a state text between runs (docs/sinks.md, "State in Kafka"): a file, or a
 * record in a Kafka topic.
 *
 *   PATH                     written atomically: PATH.tmp, fsync, rename over PATH, fsync of
 *                            the directory; absent: nothing stored
 *   kafka://HOST:PORT[,...]/TOPIC
 *                            a record of partition 0 of TOPIC (compacted, as Kafka Connect's
 *                            offsets topic) keyed rowcast/SERVER/KIND, the newest one wins;
 *                            written by an idempotent producer with acks=all and awaited; read
 *                            back from the partition's first offset to its end. -o kafka.*
 *                            properties (TLS, SASL) apply as for the sink.
 *
 * A save returns only once the text is durable there, so that a position is never stored ahead
 * of what it names. One text per store; errors name the store as "LABEL WHERE". */
#ifndef ROWCAST_PIPELINE_STATE_STORE_H
#define ROWCAST_PIPELINE_STATE_STORE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/format.h" /* rc_options */

typedef struct rc_state_store rc_state_store;

/* True for a kafka:// place. */
bool rc_state_store_is_kafka(const char *where);
/* Opens the store at `where`; `label` names it in messages ("checkpoint"); `server` and `kind`
 * make a Kafka record's key (refused empty there); opts: the run's -o options (kafka.* for a
 * Kafka store; NULL: none); stop: a signal's flag that ends a wait (NULL: none). */
rc_status rc_state_store_open(const char *where, const char *label, const char *server, const char *kind,
                              const rc_options *opts, volatile sig_atomic_t *stop, rc_state_store **out, rc_error *err);
/* The text stored (appended to `text`): RC_OK, RC_SKIP when none is, or the error. */
rc_status rc_state_store_load(rc_state_store *s, rc_buf *text, rc_error *err);
/* Replaces the text; RC_OK once it is durable. */
rc_status rc_state_store_save(rc_state_store *s, const char *text, size_t n, rc_error *err);
/* Removes the text (a file deleted, a Kafka tombstone written and awaited): RC_OK once done. */
rc_status rc_state_store_clear(rc_state_store *s, rc_error *err);
/* `where` as opened (for messages). */
const char *rc_state_store_where(const rc_state_store *s);
void rc_state_store_close(rc_state_store *s);

/* A file replaced atomically by data[0..n) (PATH.tmp, fsync, rename, fsync of the directory);
 * errors read "LABEL PATH: what: why". */
rc_status rc_file_replace(const char *label, const char *path, const char *data, size_t n, rc_error *err);

#endif
