/* The MySQL/MariaDB capture source (docs/sources/mysql.md): mysql:// and mariadb:// URLs. */
#ifndef ROWCAST_SOURCES_MY_SOURCE_H
#define ROWCAST_SOURCES_MY_SOURCE_H

#include "rowcast/source.h"

extern const rc_source_ops rc_source_mysql; /* declared in my_source_decl.c */

/* The replica id a capture announces when --server-id is not given: derived from the host,
 * the port and the checkpoint path (the same run setup gets the same id), never 0. */
uint32_t rc_my_default_server_id(const char *host, unsigned port, const char *checkpoint);

#endif
