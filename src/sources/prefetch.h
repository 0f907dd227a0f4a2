/* A source read on a thread of its own (prefetch.c): rc_source_open's choice for a source that
 * says two_batches when rc_source_config.threaded asks for a second thread. */
#ifndef ROWCAST_SOURCES_PREFETCH_H
#define ROWCAST_SOURCES_PREFETCH_H

#include "rowcast/source.h"

/* Opens the source of `ops` with cfg (its notices said on the caller's thread) and starts the
 * thread that reads it. */
rc_status rc_source_prefetch_open(const rc_source_ops *ops, const rc_source_config *cfg, const rc_pos *resume, rc_source **out,
                                  rc_error *err);

/* Work an acknowledgement leaves for after the source's lock. `ack` and `ack_state` run on the
 * pipeline's thread under the lock the prefetch thread holds for `next`, so whatever slow I/O
 * they do (a checkpoint file's write, fsync, rename) keeps the next batch from being read
 * meanwhile. Called from within them, this asks for fn(ctx) to run on the same thread once the
 * lock is released, before the acknowledgement returns to the pipeline (so that nothing after it
 * is sent to the sink first): true when it will be (one call per acknowledgement), false when
 * the caller is not inside a prefetch acknowledgement (no thread, or the prefetch thread
 * itself): the caller does the work now. fn touches nothing the source's lock guards. */
bool rc_source_after_ack(void (*fn)(void *ctx), void *ctx);

#endif
