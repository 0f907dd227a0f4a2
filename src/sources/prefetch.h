/* A source read on a thread of its own (prefetch.c): rc_source_open's choice for a source that
 * says two_batches when rc_source_config.threaded asks for a second thread. */
#ifndef ROWCAST_SOURCES_PREFETCH_H
#define ROWCAST_SOURCES_PREFETCH_H

#include "rowcast/source.h"

/* Opens the source of `ops` with cfg (its notices said on the caller's thread) and starts the
 * thread that reads it. */
rc_status rc_source_prefetch_open(const rc_source_ops *ops, const rc_source_config *cfg, const rc_pos *resume, rc_source **out,
                                  rc_error *err);

#endif
