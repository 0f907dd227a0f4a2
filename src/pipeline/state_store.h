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
#include <stdint.h>
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
/* A large part of the state (the MySQL schema history) in a Kafka store is kept apart from the
 * text, in chunk records rowcast/SERVER/history/HASH/N (N from 0, up to 512 KiB each: below the
 * default message.max.bytes), which the text names by HASH (FNV-1a 64 of the content, 16 hex
 * digits), chunk count and bytes. Order (docs/design/exactly-once.md §3.2): the chunks are
 * acknowledged before a text naming them is produced, and a part's chunks get tombstones only
 * after a text that no longer names them was acknowledged. A file store keeps the part inside
 * the text (rc_state_store_chunked false). */
typedef struct rc_state_ref {
    char hash[17]; /* "": none */
    size_t chunks, bytes;
} rc_state_ref;

bool rc_state_store_chunked(const rc_state_store *s);
/* The ref of data[0..n). */
void rc_state_ref_of(const char *data, size_t n, rc_state_ref *ref);
/* Writes ref's chunks (data: ref->bytes bytes) unless they were the last written or read back:
 * RC_OK once all are acknowledged. Nothing for a file store. */
rc_status rc_state_store_put_part(rc_state_store *s, const rc_state_ref *ref, const char *data, rc_error *err);
/* The part ref names, appended to out, from what the load read: an error naming the first chunk
 * missing, or a content whose size or hash is not ref's. */
rc_status rc_state_store_get_part(rc_state_store *s, const rc_state_ref *ref, rc_buf *out, rc_error *err);
/* rc_state_store_save of a text naming ref's part (NULL: none; its chunks must have been put or
 * read back); once it is acknowledged, the chunks of every other part known get tombstones. */
rc_status rc_state_store_save_naming(rc_state_store *s, const char *text, size_t n, const rc_state_ref *ref, rc_error *err);
/* Removes the text (a file deleted, a Kafka tombstone written and awaited): RC_OK once done. */
rc_status rc_state_store_clear(rc_state_store *s, rc_error *err);
/* `where` as opened (for messages). */
const char *rc_state_store_where(const rc_state_store *s);
void rc_state_store_close(rc_state_store *s);

/* A file replaced atomically by data[0..n) (PATH.tmp, fsync, rename, fsync of the directory);
 * errors read "LABEL PATH: what: why". */
rc_status rc_file_replace(const char *label, const char *path, const char *data, size_t n, rc_error *err);

#endif
