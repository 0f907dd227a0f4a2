/* What the MySQL/MariaDB source declares for `capture` (rowcast/source.h): its URL schemes
 * (mysql:// and mariadb://: the flavour is the scheme's, my_source.c), the capture flags only
 * it reads, what it says to PostgreSQL's, and its traits. It has no -o options yet. */
#include "sources/mysql/my_source_decl.h"

const char *const rc_my_schemes[] = {"mysql://", "mariadb://", NULL};
const char *const rc_my_flags[] = {"--checkpoint", "--start", "--server-id", NULL};
const char rc_my_flag_refused[] =
    "%s is PostgreSQL's: MySQL and MariaDB have no slots or publications (the position is kept in --checkpoint PATH)";
const char rc_my_option_refused[] = "-o %s is PostgreSQL's: MySQL and MariaDB have no postgres.* options";
const char rc_my_until_refused[] = "--until takes caught-up for MySQL and MariaDB (an LSN is PostgreSQL's)";
