/* The MySQL/MariaDB source's declaration (my_source_decl.c), which my_source.c's
 * rc_source_ops takes in (RC_MY_SOURCE_DECL): URL schemes, the flags only it reads, what it
 * refuses of PostgreSQL's, its traits. */
#ifndef ROWCAST_SOURCES_MY_SOURCE_DECL_H
#define ROWCAST_SOURCES_MY_SOURCE_DECL_H

#include "rowcast/source.h"

extern const char *const rc_my_schemes[], *const rc_my_flags[];
extern const char rc_my_flag_refused[], rc_my_option_refused[], rc_my_until_refused[];

/* threaded (--threads 2 by default), measured (docs/BENCHMARKS.md, session 10): a binlog's
 * decoding runs beside its encoding on the second core; PostgreSQL's walsender needs that core,
 * and the hand-overs cost more than the overlap gives (pg_source_decl.h: 1) */
#define RC_MY_SOURCE_DECL                                                                                 \
    .schemes = rc_my_schemes, .flags = rc_my_flags, .flag_refused = rc_my_flag_refused,                   \
    .option_refused = rc_my_option_refused, .until_refused = rc_my_until_refused, .item_word = "message", \
    .threaded = true, .database = true

#endif
