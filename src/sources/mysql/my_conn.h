/* The MySQL/MariaDB connection of the capture source (docs/sources/mysql.md): the mysql:// (or
 * mariadb://) URL, a libmariadb session pinned so that the text of values never depends on the
 * server's configuration (time_zone '+00:00', utf8mb4, the SQL mode the server has), and the
 * server checks that say what to change (binary log, ROW format, row image, metadata,
 * privileges). The password never appears in a message: messages show u->shown, the URL
 * without it.
 *
 * URL: mysql://USER[:PASSWORD]@HOST[:PORT][/DB][?PARAMS], PARAMS among
 *   ssl-mode=DISABLED|PREFERRED|REQUIRED|VERIFY_CA|VERIFY_IDENTITY, ssl-ca=PATH,
 *   ssl-cert=PATH, ssl-key=PATH, ssl-verify-server-cert=true|false (libmariadb's TLS options),
 *   defaults-file=PATH (an option file whose [client] group gives the password, as the
 *   mariadb client's --defaults-file), password-file=PATH (the password, the file's first line).
 * The password is, in this order: the URL's, password-file's, MYSQL_PWD, the defaults file's. */
#ifndef ROWCAST_SOURCES_MY_CONN_H
#define ROWCAST_SOURCES_MY_CONN_H

#include <mysql.h>
#include <stdbool.h>
#include <stdint.h>
#include "rowcast/error.h"

typedef struct rc_my_url {
    char *user, *password, *host, *db; /* percent-decoded; db NULL when the URL names none */
    unsigned port;                     /* 3306 when not given */
    int ssl_mode;                      /* enum below */
    char *ssl_ca, *ssl_cert, *ssl_key, *defaults_file;
    int verify_cert;                   /* -1 not given, 0, 1 */
    char shown[512];                   /* the URL without password (and without password-file's path) */
} rc_my_url;

enum { RC_MY_SSL_DEFAULT = 0, RC_MY_SSL_DISABLED, RC_MY_SSL_PREFERRED, RC_MY_SSL_REQUIRED, RC_MY_SSL_VERIFY_CA,
       RC_MY_SSL_VERIFY_IDENTITY };

/* True when s starts with mysql:// or mariadb://. */
bool rc_my_is_url(const char *s);
/* Parses the URL (and reads password-file=). Errors show the URL without its password. */
rc_status rc_my_url_parse(const char *url, rc_my_url *u, rc_error *err);
void rc_my_url_fini(rc_my_url *u);
/* Writes the URL without password into out (cap bytes, NUL-terminated): for messages about
 * an argument that is not a URL rowcast reads. */
void rc_my_url_redact(const char *url, char *out, size_t cap);

/* What the server is, and how its binary log is set up (SHOW GLOBAL VARIABLES). */
typedef struct rc_my_server {
    char version[96];
    bool mariadb;
    bool log_bin;
    char binlog_format[16], row_image[16], row_metadata[16], checksum[16], gtid_mode[24];
    bool gtids; /* MariaDB (always), MySQL with gtid_mode ON */
    uint32_t server_id;
} rc_my_server;

/* Connects and pins the session. A connection that may succeed later (refused, lost, server
 * starting) is RC_ERR_RETRY; wrong credentials and the like RC_ERR_USAGE with the fix. */
rc_status rc_my_connect(const rc_my_url *u, MYSQL **out, rc_error *err);
/* Reads what the server is into `out` and checks what capture needs: binary log on,
 * binlog_format ROW, REPLICATION SLAVE and REPLICATION CLIENT (MariaDB: BINLOG MONITOR).
 * binlog_row_image other than FULL and binlog_row_metadata other than FULL are said through
 * `notice` (they are supported: docs/sources/mysql.md). Errors name the server and the fix. */
rc_status rc_my_server_check(MYSQL *m, const rc_my_url *u, rc_my_server *out, void (*notice)(void *, const char *),
                             void *ctx, rc_error *err);
/* Runs a statement that returns no rows; the error names the URL and the statement. */
rc_status rc_my_exec(MYSQL *m, const rc_my_url *u, const char *sql, rc_error *err);
/* Runs a query and stores its result (*res, the caller's to mysql_free_result). */
rc_status rc_my_select(MYSQL *m, const rc_my_url *u, const char *sql, MYSQL_RES **res, rc_error *err);
/* Fills err from the session's last error: "WHAT on URL: error N: MESSAGE", RC_ERR_RETRY for a
 * lost connection, RC_ERR_IO otherwise. */
rc_status rc_my_fail(MYSQL *m, const rc_my_url *u, const char *what, rc_error *err);
/* Whether a client error number means the connection went away (retry). */
bool rc_my_errno_lost(unsigned e);

#endif
