/* The checkpoint file of a MySQL/MariaDB capture (--checkpoint PATH; docs/sources/mysql.md):
 * the position of the last transaction boundary whose every event the sink acknowledged, and
 * the schema history as it was there, so that a restart decodes the rows after it with the
 * structures they were written with. Text:
 *
 *   rowcast-mysql-checkpoint 2
 *   server mysql://USER@HOST:PORT          (the URL without password: a reminder, not checked)
 *   file mysql-bin.000042
 *   offset 1234
 *   gtids 0-1-14                           (the server's executed-set text; empty without GTIDs)
 *   sink BYTES                             (when the sink tracks a file: else version 1)
 *   <BYTES bytes: the sink's files and their sizes there, the pipeline's text>
 *   history BYTES
 *   <BYTES bytes of rc_my_history_write's text>
 *   snapshot BYTES                         (version 3: an incremental snapshot ran)
 *   <BYTES bytes: its state, sources/incsnap_state.h's text, as of this position>
 *
 * Version 4 (a Kafka store, pipeline/state_store.h) is version 3 whose history is not in the
 * text but in chunk records the line names: "history HASH CHUNKS BYTES" (no bytes follow).
 *
 * Version 1 (older rowcast) has no sink lines, version 2 no snapshot section; both are still
 * read, and still written when there is no sink state (1) or no snapshot state (2). An empty file name with
 * offset 0 (no binlog offset is below 4) is no position: the run that wrote it was taking its
 * snapshot, and the next one takes it again; its sink state is where the snapshot began.
 * Written atomically: PATH.tmp, fsync, rename over PATH, fsync of the directory; or kept in a
 * Kafka topic (--checkpoint kafka://HOST:PORT/TOPIC: pipeline/state_store.h). */
#ifndef ROWCAST_SOURCES_MY_CHECKPOINT_H
#define ROWCAST_SOURCES_MY_CHECKPOINT_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/error.h"
#include "pipeline/state_store.h"

typedef struct rc_my_checkpoint {
    char *file;    /* malloc'd, as are the others */
    uint64_t offset;
    char *gtids;
    char *history; /* its text, history_len bytes (version 4: NULL until read from its chunks) */
    size_t history_len;
    rc_state_ref history_at; /* version 4: the chunks holding the history (hash "": in the text) */
    char *sink;    /* the sink state's text ('\0'-ended), NULL: none stored */
    char *snapshot; /* the incremental snapshot's state text ('\0'-ended, snapshot_len bytes), NULL: none */
    size_t snapshot_len;
} rc_my_checkpoint;

/* A checkpoint without a position: written when a snapshot begins (see above). */
static inline bool rc_my_checkpoint_snapshot_begun(const rc_my_checkpoint *ck) { return !ck->offset && !(ck->file && ck->file[0]); }

/* RC_OK, RC_SKIP when PATH does not exist, or an error naming PATH, the line and the byte. */
rc_status rc_my_checkpoint_read(const char *path, rc_my_checkpoint *ck, rc_error *err);
/* The same for the file's text[0..n) (`path` names it in errors); on error ck may hold part of
 * it: rc_my_checkpoint_fini frees it either way. */
rc_status rc_my_checkpoint_parse(const char *path, const char *text, size_t n, rc_my_checkpoint *ck, rc_error *err);
rc_status rc_my_checkpoint_write(const char *path, const char *server, const rc_my_checkpoint *ck, rc_error *err);
/* The same through a store (pipeline/state_store.h: a file or a Kafka record); `where` names it
 * in errors. */
rc_status rc_my_checkpoint_load(rc_state_store *store, rc_my_checkpoint *ck, rc_error *err);
/* The checkpoint's text (above) appended to b (version 4 when ck->history_at names chunks);
 * false when it did not fit. */
bool rc_my_checkpoint_format(const char *server, const rc_my_checkpoint *ck, rc_buf *b);
/* In a store that keeps the history in chunks: ck->history_at set to its ref (none when the
 * history is empty or the store is a file). */
void rc_my_checkpoint_chunk(const rc_state_store *store, rc_my_checkpoint *ck);
/* A text formatted from ck into the store: ck's history chunks first when it names them
 * (history_at), then the text, awaited. */
rc_status rc_my_checkpoint_store(rc_state_store *store, const char *text, size_t n, const rc_my_checkpoint *ck, rc_error *err);
rc_status rc_my_checkpoint_save(rc_state_store *store, const char *server, const rc_my_checkpoint *ck, rc_error *err);
void rc_my_checkpoint_fini(rc_my_checkpoint *ck);

#endif
