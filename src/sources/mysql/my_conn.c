/* The MySQL/MariaDB session of the capture source (my_conn.h): connecting, pinning the
 * session, and the server checks whose messages say what to change. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errmsg.h>
#include <mysqld_error.h>
#include "sources/mysql/my_conn.h"
#include "sources/db_phases.h"

bool rc_my_errno_lost(unsigned e)
{
    return e == CR_CONNECTION_ERROR || e == CR_CONN_HOST_ERROR || e == CR_SERVER_GONE_ERROR || e == CR_SERVER_LOST ||
           e == ER_CON_COUNT_ERROR || e == ER_SERVER_SHUTDOWN || e == ER_CONNECTION_KILLED || e == ER_NORMAL_SHUTDOWN ||
           e == CR_SERVER_LOST_EXTENDED;
}

rc_status rc_my_fail(MYSQL *m, const rc_my_url *u, const char *what, rc_error *err)
{
    unsigned e = mysql_errno(m);
    rc_status code = rc_my_errno_lost(e) ? RC_ERR_RETRY : RC_ERR_IO;
    return rc_error_set(err, code, RC_NO_OFFSET, "%s on %s: error %u: %s", what, u->shown, e, mysql_error(m));
}

rc_status rc_my_exec(MYSQL *m, const rc_my_url *u, const char *sql, rc_error *err)
{
    if (mysql_query(m, sql)) return rc_my_fail(m, u, sql, err);
    MYSQL_RES *r = mysql_store_result(m);
    if (r) mysql_free_result(r);
    return RC_OK;
}

rc_status rc_my_select(MYSQL *m, const rc_my_url *u, const char *sql, MYSQL_RES **res, rc_error *err)
{
    *res = NULL;
    if (mysql_query(m, sql) || !(*res = mysql_store_result(m))) return rc_my_fail(m, u, sql, err);
    return RC_OK;
}

/* The TLS parameters as libmariadb options. Without ssl-mode: PREFERRED, as MySQL's clients
 * and Debezium's connector (libmariadb's own default is no TLS at all). */
static void tls_options(MYSQL *m, const rc_my_url *u)
{
    if (u->ssl_mode == RC_MY_SSL_DISABLED) return; /* a CA's path alone would turn TLS on in libmariadb */
    mysql_ssl_set(m, NULL, NULL, NULL, NULL, NULL); /* TLS when the server offers it */
    if (u->ssl_ca) mysql_optionsv(m, MYSQL_OPT_SSL_CA, u->ssl_ca);
    if (u->ssl_cert) mysql_optionsv(m, MYSQL_OPT_SSL_CERT, u->ssl_cert);
    if (u->ssl_key) mysql_optionsv(m, MYSQL_OPT_SSL_KEY, u->ssl_key);
    my_bool yes = 1, no = 0;
    if (u->ssl_mode >= RC_MY_SSL_REQUIRED) mysql_optionsv(m, MYSQL_OPT_SSL_ENFORCE, &yes);
    /* VERIFY_CA and VERIFY_IDENTITY: libmariadb verifies the chain and the host name together */
    int verify = u->verify_cert >= 0 ? u->verify_cert : u->ssl_mode >= RC_MY_SSL_VERIFY_CA;
    if (u->verify_cert >= 0 || u->ssl_mode >= RC_MY_SSL_VERIFY_CA)
        mysql_optionsv(m, MYSQL_OPT_SSL_VERIFY_SERVER_CERT, verify ? &yes : &no);
}

/* What a session of this source always has: UTC times (TIMESTAMP values read in the
 * snapshot are the instants the binlog holds), utf8mb4 text, and the patience of a slow sink
 * (a snapshot read waits on the sink between rows). */
static const char session_sql[] = "SET time_zone = '+00:00', NAMES utf8mb4, SESSION net_write_timeout = 3600, "
                                  "SESSION net_read_timeout = 3600";

/* The files the URL names, readable: libmariadb ignores a defaults-file it cannot open (the
 * password then missing, "using password: NO") and says only "TLS/SSL error" of a CA file. */
static rc_status check_files(const rc_my_url *u, rc_error *err)
{
    const struct {
        const char *key, *path;
    } files[] = {{"defaults-file", u->defaults_file}, {"ssl-ca", u->ssl_ca}, {"ssl-cert", u->ssl_cert}, {"ssl-key", u->ssl_key}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        FILE *f = files[i].path ? fopen(files[i].path, "r") : NULL;
        if (files[i].path && !f)
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "cannot connect to %s: %s %s: %s", u->shown, files[i].key,
                                files[i].path, strerror(errno));
        if (f) fclose(f);
    }
    return RC_OK;
}

rc_status rc_my_connect(const rc_my_url *u, MYSQL **out, rc_error *err)
{
    *out = NULL;
    if (check_files(u, err) != RC_OK) return err->code;
    MYSQL *m = mysql_init(NULL);
    if (!m) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    unsigned timeout = 10;
    mysql_optionsv(m, MYSQL_OPT_CONNECT_TIMEOUT, &timeout);
    mysql_optionsv(m, MYSQL_SET_CHARSET_NAME, "utf8mb4");
    if (u->defaults_file) {
        mysql_optionsv(m, MYSQL_READ_DEFAULT_FILE, u->defaults_file);
        mysql_optionsv(m, MYSQL_READ_DEFAULT_GROUP, "client");
    }
    tls_options(m, u);
    if (!mysql_real_connect(m, u->host, u->user, u->password, u->db, u->port, NULL, CLIENT_MULTI_STATEMENTS)) {
        unsigned e = mysql_errno(m);
        char fix[320] = "";
        if (e == ER_ACCESS_DENIED_ERROR || e == ER_ACCESS_DENIED_NO_PASSWORD_ERROR)
            /* the servers say the same when the user or the server requires TLS or a client
             * certificate the connection did not have (without ssl-mode, TLS is used when
             * the server has it) */
            snprintf(fix, sizeof fix, " (check the user and the password: MYSQL_PWD, ?password-file= or ?defaults-file=%s)",
                     u->ssl_mode == RC_MY_SSL_DISABLED
                         ? "; or TLS, which the user (REQUIRE SSL) or the server (require_secure_transport) may require: "
                           "ssl-mode=REQUIRED"
                     : u->ssl_mode >= RC_MY_SSL_REQUIRED && !u->ssl_cert
                         ? "; or a client certificate, which the user may require (REQUIRE X509): ?ssl-cert= and ?ssl-key="
                         : "");
        else if (e == CR_SSL_CONNECTION_ERROR)
            snprintf(fix, sizeof fix, " (check ?ssl-ca=: the CA that signed the server's certificate; ?ssl-cert= and "
                                      "?ssl-key=: a certificate and its key; or ?ssl-mode=)");
        else if (e == ER_BAD_DB_ERROR)
            snprintf(fix, sizeof fix, " (the database after the port is one the server has, or none)");
        else if (e == CR_CONN_HOST_ERROR || e == CR_CONNECTION_ERROR)
            /* at the start not retried: a wrong address is said at once (a supervisor restarts
             * a capture that a server still starting refused) */
            snprintf(fix, sizeof fix, " (nothing accepted the connection at %s port %u: check that the server runs, its port "
                     "and bind-address, and any firewall on the way)", u->host ? u->host : "localhost", u->port);
        else if (e == CR_UNKNOWN_HOST)
            snprintf(fix, sizeof fix, " (check the host name %s)", u->host ? u->host : "");
        rc_error_set(err, rc_my_errno_lost(e) ? RC_ERR_RETRY : RC_ERR_USAGE, RC_NO_OFFSET, "cannot connect to %s: %s%s",
                     u->shown, mysql_error(m), fix);
        mysql_close(m);
        return err->code;
    }
    if (rc_my_exec(m, u, session_sql, err) != RC_OK) {
        mysql_close(m);
        return err->code;
    }
    *out = m;
    return RC_OK;
}

static void copy_var(char *dst, size_t cap, const char *v)
{
    snprintf(dst, cap, "%s", v ? v : "");
}

static rc_status read_variables(MYSQL *m, const rc_my_url *u, rc_my_server *s, rc_error *err)
{
    MYSQL_RES *r;
    if (rc_my_select(m, u,
                    "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('version', 'log_bin', 'binlog_format', "
                    "'binlog_row_image', 'binlog_row_metadata', 'binlog_checksum', 'gtid_mode', 'server_id')",
                    &r, err) != RC_OK)
        return err->code;
    MYSQL_ROW row;
    while ((row = mysql_fetch_row(r))) {
        const char *k = row[0], *v = row[1] ? row[1] : "";
        if (!strcmp(k, "version")) copy_var(s->version, sizeof s->version, v);
        else if (!strcmp(k, "log_bin")) s->log_bin = !strcmp(v, "ON") || !strcmp(v, "1");
        else if (!strcmp(k, "binlog_format")) copy_var(s->binlog_format, sizeof s->binlog_format, v);
        else if (!strcmp(k, "binlog_row_image")) copy_var(s->row_image, sizeof s->row_image, v);
        else if (!strcmp(k, "binlog_row_metadata")) copy_var(s->row_metadata, sizeof s->row_metadata, v);
        else if (!strcmp(k, "binlog_checksum")) copy_var(s->checksum, sizeof s->checksum, v);
        else if (!strcmp(k, "gtid_mode")) copy_var(s->gtid_mode, sizeof s->gtid_mode, v);
        else if (!strcmp(k, "server_id")) s->server_id = (uint32_t)strtoul(v, NULL, 10);
    }
    mysql_free_result(r);
    s->mariadb = strstr(s->version, "MariaDB") != NULL;
    s->gtids = s->mariadb || !strcmp(s->gtid_mode, "ON");
    return RC_OK;
}

/* 'user'@'host' of CURRENT_USER() ("user@host"), for the GRANT in a message. */
static void grantee(MYSQL *m, char *out, size_t cap)
{
    snprintf(out, cap, "CURRENT_USER");
    if (mysql_query(m, "SELECT CURRENT_USER()")) return;
    MYSQL_RES *r = mysql_store_result(m);
    MYSQL_ROW row = r ? mysql_fetch_row(r) : NULL;
    if (row && row[0]) {
        const char *at = strrchr(row[0], '@');
        if (at) snprintf(out, cap, "'%.*s'@'%s'", (int)(at - row[0]), row[0], at + 1);
    }
    if (r) mysql_free_result(r);
}

/* Whether the global grants (ON *.*) of the session's user hold `priv` (or ALL PRIVILEGES, or
 * an alias). *roles is set when the user has roles, whose grants are not looked into. */
static bool has_priv(MYSQL_RES *r, const char *priv, const char *alias, bool *roles)
{
    mysql_data_seek(r, 0);
    MYSQL_ROW row;
    while ((row = mysql_fetch_row(r))) {
        const char *g = row[0];
        if (!g || strncmp(g, "GRANT ", 6)) continue;
        const char *on = strstr(g, " ON ");
        if (!on) {
            *roles = true; /* GRANT `role` TO user */
            continue;
        }
        if (strncmp(on, " ON *.* ", 8)) continue;
        size_t n = (size_t)(on - g);
        char list[512];
        snprintf(list, sizeof list, "%.*s,", (int)(n < sizeof list - 2 ? n : sizeof list - 2), g + 6);
        if (strstr(list, "ALL PRIVILEGES") || strstr(list, priv) || (alias && strstr(list, alias))) return true;
    }
    return false;
}

static rc_status check_grants(MYSQL *m, const rc_my_url *u, const rc_my_server *s, rc_error *err)
{
    MYSQL_RES *r;
    if (rc_my_select(m, u, "SHOW GRANTS", &r, err) != RC_OK) return err->code;
    bool roles = false;
    bool slave = has_priv(r, "REPLICATION SLAVE", NULL, &roles);
    /* MariaDB 10.5 renamed REPLICATION CLIENT to BINLOG MONITOR; SUPER held it before */
    bool client = has_priv(r, "REPLICATION CLIENT", s->mariadb ? "BINLOG MONITOR" : NULL, &roles) ||
                  has_priv(r, "SUPER", NULL, &roles);
    mysql_free_result(r);
    if ((slave && client) || roles) return RC_OK;
    char who[200];
    grantee(m, who, sizeof who);
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                        "user %s has no %s privilege on %s: run GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* "
                        "TO %s as an administrator",
                        who, !slave && !client ? "REPLICATION SLAVE or REPLICATION CLIENT" : !slave ? "REPLICATION SLAVE" : "REPLICATION CLIENT",
                        u->shown, who);
}

rc_status rc_my_server_check(MYSQL *m, const rc_my_url *u, rc_my_server *s, void (*notice)(void *, const char *), void *ctx,
                             rc_error *err)
{
    memset(s, 0, sizeof *s);
    if (read_variables(m, u, s, err) != RC_OK) return err->code;
    if (!s->log_bin)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "the binary log is off on %s: start the server with log_bin (--log-bin) and "
                            "binlog_format=ROW in its configuration",
                            u->shown);
    if (strcmp(s->binlog_format, "ROW"))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "binlog_format is %s on %s: capture needs row events: SET GLOBAL binlog_format = 'ROW' and "
                            "binlog_format=ROW in the server's configuration (sessions open before keep their format)",
                            s->binlog_format, u->shown);
    if (check_grants(m, u, s, err) != RC_OK) return err->code;
    if (s->row_image[0] && strcmp(s->row_image, "FULL"))
        rc_db_notice(notice, ctx, 1000,
                     "note: binlog_row_image is %s on %s: columns a change leaves out are unavailable in its events "
                     "(FULL has every column)",
                     s->row_image, u->shown);
    if (s->row_metadata[0] && strcmp(s->row_metadata, "FULL"))
        rc_db_notice(notice, ctx, 1000,
                     "note: binlog_row_metadata is %s on %s: column names and types come from the schema history "
                     "(FULL writes them into the binlog too)",
                     s->row_metadata, u->shown);
    return RC_OK;
}
