/* The offline binlog source of `convert --from mysql-binlog` (my_binlog_file.c). */
#ifndef ROWCAST_MY_BINLOG_FILE_H
#define ROWCAST_MY_BINLOG_FILE_H

#include "rowcast/source.h"

extern const rc_source_ops rc_source_mysql_binlog;

#endif
