/* What the MySQL/MariaDB source declares for `capture` (rowcast/source.h): its URL schemes
 * (mysql:// and mariadb://: the flavour is the scheme's, my_source.c), the capture flags only
 * it reads, its -o mysql.* options, what it says to PostgreSQL's, and its traits. */
#include <stddef.h>
#include "sources/mysql/my_source_decl.h"

const char *const rc_my_schemes[] = {"mysql://", "mariadb://", NULL};
const char *const rc_my_flags[] = {"--checkpoint", "--start", "--server-id", NULL};
const char rc_my_flag_refused[] =
    "%s is PostgreSQL's: MySQL and MariaDB have no slots or publications (the position is kept in --checkpoint PATH)";
const char rc_my_option_refused[] = "-o %s is PostgreSQL's: MySQL and MariaDB have no postgres.* options";
const char rc_my_until_refused[] = "--until takes caught-up for MySQL and MariaDB (an LSN is PostgreSQL's)";

#define MY_OPT(key, type, max, field) {key, type, NULL, NULL, NULL, offsetof(rc_my_capture_options, field), 0, max, NULL}
const rc_option_desc rc_my_options[] = {
    MY_OPT("mysql.signal.table", RC_OPT_STRING, 0, signal_table),
    MY_OPT("mysql.snapshot.chunk.rows", RC_OPT_INT, 1000000, chunk_rows),
    /* 1: a kill repeats at most one chunk (docs/sources/mysql.md, "What survives a kill") */
    {"mysql.snapshot.unacked.chunks", RC_OPT_INT, NULL, "1", NULL, offsetof(rc_my_capture_options, unacked_chunks), 1, 1000000, NULL},
    /* in the order of RC_MY_WM_AUTO, _POINT, _TABLE */
    {"mysql.snapshot.watermark", RC_OPT_CHOICE, "auto|point|table", "auto", NULL, offsetof(rc_my_capture_options, watermark), 0, 0, NULL},
    {0},
};
#undef MY_OPT

/* The options reach the source through rc_source_config.opts (my_source.c reads them again with
 * rc_my_options_read): rc_capture_config, a public struct, has no field for them. */
void rc_my_configure(rc_capture_config *cc, const void *options)
{
    (void)cc, (void)options;
}

rc_status rc_my_options_read(const rc_options *opts, rc_my_capture_options *o, rc_error *err)
{
    *o = (rc_my_capture_options){0};
    return opts ? rc_options_parse(opts, "mysql", rc_my_options, o, err) : RC_OK;
}
