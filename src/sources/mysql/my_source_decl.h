/* The MySQL/MariaDB source's declaration (my_source_decl.c), which my_source.c's
 * rc_source_ops takes in (RC_MY_SOURCE_DECL): URL schemes, the flags only it reads, what it
 * refuses of PostgreSQL's, its traits. */
#ifndef ROWCAST_SOURCES_MY_SOURCE_DECL_H
#define ROWCAST_SOURCES_MY_SOURCE_DECL_H

#include "rowcast/source.h"

extern const char *const rc_my_schemes[], *const rc_my_flags[];
extern const char rc_my_flag_refused[], rc_my_option_refused[], rc_my_until_refused[];

/* The -o mysql.* options (docs/sources/mysql.md, "Incremental snapshots"). */
typedef struct rc_my_capture_options {
    const char *signal_table; /* DB.TABLE; NULL: no incremental snapshots (nothing changes) */
    long chunk_rows;          /* 0: the core's default */
    long unacked_chunks;      /* chunks handed out and not acknowledged before the next is read (default 1) */
    int watermark;            /* -o mysql.snapshot.watermark: RC_MY_WM_AUTO, _POINT or _TABLE */
} rc_my_capture_options;
/* The incremental snapshots' watermarks (docs/sources/mysql.md, "Incremental snapshots"): auto
 * (point on MariaDB, table on MySQL), MariaDB's read-only point, or rows of the signal table. */
enum { RC_MY_WM_AUTO, RC_MY_WM_POINT, RC_MY_WM_TABLE };
extern const rc_option_desc rc_my_options[];
void rc_my_configure(rc_capture_config *cc, const void *options);
rc_status rc_my_options_read(const rc_options *opts, rc_my_capture_options *o, rc_error *err);
/* `rowcast snapshot`'s signal (rc_source_ops.write_signal): my_signal_write.c */
rc_status rc_my_signal_write(const char *url, const rc_options *opts, const char *type, const char *const *patterns,
                             size_t npatterns, const char *id, char *said, size_t said_cap, rc_error *err);

/* threaded (--threads 2 by default), measured (docs/BENCHMARKS.md, session 10): a binlog's
 * decoding runs beside its encoding on the second core; PostgreSQL's walsender needs that core,
 * and the hand-overs cost more than the overlap gives (pg_source_decl.h: 1) */
#define RC_MY_SOURCE_DECL                                                                                 \
    .schemes = rc_my_schemes, .flags = rc_my_flags, .flag_refused = rc_my_flag_refused,                   \
    .option_refused = rc_my_option_refused, .option_prefix = "mysql", .options = rc_my_options,           \
    .options_size = sizeof(rc_my_capture_options), .configure = rc_my_configure, .until_refused = rc_my_until_refused, .item_word = "message", \
    .threaded = true, .database = true, .write_signal = rc_my_signal_write

#endif
