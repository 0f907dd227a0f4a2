/* The PostgreSQL source's declaration (pg_source_decl.c), which pg_source.c's rc_source_ops
 * takes in (RC_PG_SOURCE_DECL): URL schemes, -o postgres.* options, the flags only it reads,
 * its checks and traits. */
#ifndef ROWCAST_SOURCES_PG_SOURCE_DECL_H
#define ROWCAST_SOURCES_PG_SOURCE_DECL_H

#include "rowcast/source.h"

/* The -o options, read by rc_options_parse (0: the source's default) and then put in
 * rc_capture_config by rc_pg_configure. */
typedef struct rc_pg_capture_options {
    int no_identity; /* 0 skip, 1 insert_only */
    bool streaming;
    long heartbeat_s, spill_bytes, max_bytes;
    const char *spill_dir;
    const char *signal_table; /* incremental snapshots' signals (NULL: none; pg_incsnap.h) */
    long chunk_rows;          /* their chunk size (0: the core's default) */
    bool flush;               /* their watermark commits flushed at commit (SET synchronous_commit = local) */
    bool read_ahead;          /* the next chunk read while the last one's rows are handed out */
} rc_pg_capture_options;

extern const char *const rc_pg_schemes[], *const rc_pg_flags[];
extern const char rc_pg_flag_refused[];
extern const rc_option_desc rc_pg_options[];
bool rc_pg_until_parse(const char *text, uint64_t *lsn);
rc_status rc_pg_validate(rc_capture_config *cc, const rc_options *opts, rc_error *err);
void rc_pg_configure(rc_capture_config *cc, const void *options);
/* `rowcast snapshot`'s signal (rc_source_ops.write_signal): pg_signal_write.c */
rc_status rc_pg_signal_write(const char *url, const rc_options *opts, const char *type, const char *const *patterns,
                             size_t npatterns, const char *id, char *said, size_t said_cap, rc_error *err);

/* --threads 1 by default (threaded left false): PostgreSQL's walsender needs the second core
 * (my_source_decl.h says the measurement) */
#define RC_PG_SOURCE_DECL                                                                                    \
    .schemes = rc_pg_schemes, .option_prefix = "postgres", .options = rc_pg_options,                         \
    .options_size = sizeof(rc_pg_capture_options), .flags = rc_pg_flags, .flag_refused = rc_pg_flag_refused, \
    .position_parse = rc_pg_until_parse, .validate = rc_pg_validate, .configure = rc_pg_configure,           \
    .item_word = "message", .include_schema = true, .database = true, .write_signal = rc_pg_signal_write

#endif
