/* The PostgreSQL source (pg_source.c): rc_source_ops for postgres:// and postgresql:// URLs
 * (what it declares for `capture`: pg_source_decl.c), configured by rc_source_config.capture. */
#ifndef ROWCAST_SOURCES_PG_SOURCE_H
#define ROWCAST_SOURCES_PG_SOURCE_H

#include "rowcast/source.h"

extern const rc_source_ops rc_source_postgres;

#endif
