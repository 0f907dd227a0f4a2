/* The replication connection: URL handling, setup checks, slot and publication, streaming
 * (CopyBoth framing of XLogData / keepalive / standby status). */
#include "sources/pg/pg_conn.h"
#include "sources/db_phases.h"
#include "core/run_state.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PG_EPOCH_OFFSET_US 946684800000000LL /* 2000-01-01 - 1970-01-01 */
#define STOP_DRAIN_MS 10000

struct rc_pg_conn {
    PGconn *sql, *repl;
    char *url;   /* as given (libpq reads it again) */
    char *shown; /* without the password */
    rc_pg_opts opts;
    bool streaming;
    uint64_t received_lsn, flush_lsn;
    int64_t last_status; /* monotonic µs */
    char *copybuf;       /* the last PQgetCopyData buffer, freed at the next read */
    char slot[64];       /* the slot streamed, for the fix in stream errors */
};

/* ---- small helpers ---- */

static int64_t mono_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t pg_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000 - PG_EPOCH_OFFSET_US;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR) {
    }
}

static uint64_t get_u64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8) p[i] = (uint8_t)v;
}

void rc_pg_quote_ident(char *out, size_t cap, const char *id)
{
    bool plain = *id && !isdigit((unsigned char)*id);
    for (const char *s = id; *s && plain; s++)
        plain = (*s >= 'a' && *s <= 'z') || isdigit((unsigned char)*s) || *s == '_';
    if (plain) {
        snprintf(out, cap, "%s", id);
        return;
    }
    size_t k = 0;
    if (cap < 3) {
        if (cap) out[0] = '\0';
        return;
    }
    out[k++] = '"';
    for (const char *s = id; *s && k + 3 < cap; s++) {
        if (*s == '"') out[k++] = '"';
        out[k++] = *s;
    }
    out[k++] = '"';
    out[k] = '\0';
}

/* libpq's message on one line: runs of spaces, tabs and newlines become one space. */
static void one_line(char *out, size_t cap, const char *msg)
{
    size_t k = 0;
    bool space = false;
    for (const char *s = msg ? msg : ""; *s && k + 1 < cap; s++) {
        if (*s == '\n' || *s == '\t' || *s == ' ' || *s == '\r') {
            space = k > 0;
            continue;
        }
        if (space && k + 2 < cap) out[k++] = ' ';
        space = false;
        out[k++] = *s;
    }
    if (cap) out[k < cap ? k : cap - 1] = '\0';
}

static rc_pg_rc fail(rc_error *err, rc_pg_rc rc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static rc_pg_rc fail(rc_error *err, rc_pg_rc rc, const char *fmt, ...)
{
    char msg[sizeof err->message];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rc_error_set(err, rc == RC_PG_RETRY ? RC_ERR_IO : RC_ERR_USAGE, RC_NO_OFFSET, "%s", msg);
    return rc;
}

/* A server error a reconnect may cure: the connection is gone, the server is shutting down
 * or starting (class 57), a connection exception (08), out of connections (53300). */
static rc_pg_rc classify(PGconn *conn, const PGresult *res)
{
    if (PQstatus(conn) == CONNECTION_BAD) return RC_PG_RETRY;
    const char *st = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    if (!st) return RC_PG_FATAL;
    if (strncmp(st, "57", 2) == 0 || strncmp(st, "08", 2) == 0 || strcmp(st, "53300") == 0)
        return RC_PG_RETRY;
    return RC_PG_FATAL;
}

/* Fails with the server's message for a failed command: "WHAT on URL: message". */
static rc_pg_rc server_fail(rc_pg_conn *c, PGconn *conn, PGresult *res, rc_error *err,
                            const char *what)
{
    char msg[200];
    const char *prim = res ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) : NULL;
    one_line(msg, sizeof msg, prim ? prim : PQerrorMessage(conn));
    rc_pg_rc rc = classify(conn, res);
    PQclear(res);
    return fail(err, rc, "%s on %s: %s", what, c->shown, msg);
}

void rc_pg_notice(rc_pg_conn *c, const char *msg)
{
    if (c->opts.notice) c->opts.notice(c->opts.notice_ud, msg);
}

/* ---- connecting ---- */

/* Whether a failed connection may succeed later: the network or the server's state (starting,
 * shutting down, full); anything else (authentication, pg_hba, unknown role or database, a
 * bad parameter) needs the user. */
static bool connect_transient(const char *msg)
{
    static const char *const transient[] = {
        "Connection refused",
        "Connection timed out",
        "Connection reset",
        "timeout expired",
        "No route to host",
        "Network is unreachable",
        "could not translate host name",
        "server closed the connection unexpectedly",
        "the database system is starting up",
        "the database system is shutting down",
        "the database system is in recovery mode",
        "the database system is not yet accepting connections",
        "too many clients",
        "remaining connection slots",
    };
    for (size_t i = 0; i < sizeof transient / sizeof transient[0]; i++)
        if (strstr(msg, transient[i])) return true;
    return false;
}

/* Runs a command that returns no rows (or whose rows do not matter). */
static rc_pg_rc exec_ok(rc_pg_conn *c, PGconn *conn, const char *sql, rc_error *err,
                        const char *what)
{
    PGresult *res = PQexec(conn, sql);
    ExecStatusType st = PQresultStatus(res);
    if (st != PGRES_COMMAND_OK && st != PGRES_TUPLES_OK)
        return server_fail(c, conn, res, err, what);
    PQclear(res);
    return RC_PG_OK;
}

static rc_pg_rc connect_one(rc_pg_conn *c, bool replication, PGconn **out, rc_error *err)
{
    /* libpq's own parse first: its message for a bad URL, without trying to connect */
    char *perr = NULL;
    PQconninfoOption *info = PQconninfoParse(c->url, &perr);
    if (!info) {
        char msg[160];
        one_line(msg, sizeof msg, perr ? perr : "out of memory");
        rc_pg_url_mask(c->url, msg, sizeof msg);
        PQfreemem(perr);
        return fail(err, RC_PG_FATAL, "bad PostgreSQL URL %s: %s", c->shown, msg);
    }
    PQconninfoFree(info);
    const char *keys[] = {"dbname", "client_encoding", "fallback_application_name",
                          replication ? "replication" : NULL, NULL};
    const char *vals[] = {c->url, "UTF8", "rowcast", "database", NULL};
    PGconn *conn = PQconnectdbParams(keys, vals, 1);
    if (!conn) return fail(err, RC_PG_RETRY, "cannot connect to %s: out of memory", c->shown);
    if (PQstatus(conn) != CONNECTION_OK) {
        char msg[200];
        one_line(msg, sizeof msg, PQerrorMessage(conn));
        rc_pg_url_mask(c->url, msg, sizeof msg);
        PQfinish(conn);
        rc_pg_rc rc = connect_transient(msg) ? RC_PG_RETRY : RC_PG_FATAL;
        if (strstr(msg, "password authentication failed"))
            return fail(
                err, rc,
                "cannot connect to %s: %s (check the password: PGPASSWORD, ~/.pgpass or passfile=)",
                c->shown, msg);
        /* libpq's fe_sendauth: the server asked for a password, none was found */
        if (strstr(msg, "no password supplied"))
            return fail(err, rc,
                        "cannot connect to %s: %s (the server asks for a password: set "
                        "PGPASSWORD, add a line to ~/.pgpass, or give passfile=PATH in the URL)",
                        c->shown, msg);
        return fail(err, rc, "cannot connect to %s: %s", c->shown, msg);
    }
    *out = conn;
    return exec_ok(c, conn, RC_PG_SESSION_SQL, err, "pinning the session settings");
}

/* wal_level and the REPLICATION privilege, read on the SQL session so that their errors say
 * the fix instead of the walsender's "must be superuser or replication role". */
static rc_pg_rc check_server(rc_pg_conn *c, rc_error *err)
{
    PGresult *res = PQexec(
        c->sql, "SELECT current_setting('wal_level'), r.rolreplication OR r.rolsuper, r.rolname "
                "FROM pg_catalog.pg_roles r WHERE r.rolname = current_user");
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
        return server_fail(c, c->sql, res, err, "checking wal_level and the role");
    rc_pg_rc rc = RC_PG_OK;
    const char *level = PQgetvalue(res, 0, 0);
    if (strcmp(level, "logical") != 0) {
        rc = fail(
            err, RC_PG_FATAL,
            "%s has wal_level = %s, logical decoding needs logical: set wal_level = logical in "
            "postgresql.conf and restart PostgreSQL",
            c->shown, level);
    } else if (strcmp(PQgetvalue(res, 0, 1), "t") != 0) {
        char role[140];
        rc_pg_quote_ident(role, sizeof role, PQgetvalue(res, 0, 2));
        rc = fail(err, RC_PG_FATAL,
                  "role %s has no REPLICATION privilege on %s: run ALTER ROLE %s REPLICATION as a "
                  "superuser",
                  PQgetvalue(res, 0, 2), c->shown, role);
    }
    PQclear(res);
    return rc;
}

rc_pg_rc rc_pg_open(const char *url, const rc_pg_opts *opts, rc_pg_conn **out, rc_error *err)
{
    *out = NULL;
    rc_pg_conn *c = calloc(1, sizeof *c);
    if (!c) return fail(err, RC_PG_FATAL, "out of memory");
    if (opts) c->opts = *opts;
    if (c->opts.active_retry_ms <= 0) c->opts.active_retry_ms = 90000;
    /* well inside wal_sender_timeout (60 s by default), after which the server gives up on us */
    if (c->opts.status_interval_ms <= 0) c->opts.status_interval_ms = 10000;
    size_t n = rc_pg_url_redact(url, NULL, 0) + 1;
    c->url = strdup(url);
    c->shown = malloc(n);
    if (!c->url || !c->shown) {
        rc_pg_close(c);
        return fail(err, RC_PG_FATAL, "out of memory");
    }
    rc_pg_url_redact(url, c->shown, n);
    rc_pg_rc rc = RC_PG_OK;
    if (!rc_pg_is_url(url))
        rc = fail(err, RC_PG_FATAL,
                  "not a PostgreSQL URL (expected postgres://USER@HOST:PORT/DB[?PARAMS])");
    /* the SQL session first: wal_level and the privilege get their fix in the message before
     * the walsender would refuse with its own words */
    if (rc == RC_PG_OK) rc = connect_one(c, false, &c->sql, err);
    if (rc == RC_PG_OK) rc = check_server(c, err);
    if (rc == RC_PG_OK) rc = connect_one(c, true, &c->repl, err);
    if (rc != RC_PG_OK) {
        rc_pg_close(c);
        return rc;
    }
    *out = c;
    return RC_PG_OK;
}

void rc_pg_close(rc_pg_conn *c)
{
    if (!c) return;
    if (c->streaming) rc_pg_stream_stop(c, NULL);
    PQfreemem(c->copybuf);
    if (c->repl) PQfinish(c->repl);
    if (c->sql) PQfinish(c->sql);
    free(c->url);
    free(c->shown);
    free(c);
}

const char *rc_pg_url(const rc_pg_conn *c)
{
    return c->shown;
}
PGconn *rc_pg_sql(rc_pg_conn *c)
{
    return c->sql;
}

PGresult *rc_pg_query(rc_pg_conn *c, const char *sql, int n, const char *const *args)
{
    return PQexecParams(c->sql, sql, n, NULL, args, NULL, NULL, 0);
}

const char *rc_pg_server_encoding(const rc_pg_conn *c)
{
    const char *e = PQparameterStatus(c->sql, "server_encoding");
    return e ? e : "";
}

/* After a stream the walsender session is closed: PostgreSQL 15's walsender ends a second
 * START_REPLICATION at once once it has seen a CopyDone (its "done" flags are only reset for
 * physical replication), so the next rc_pg_stream_start opens a fresh one. */
static void drop_repl(rc_pg_conn *c)
{
    c->streaming = false;
    PQfreemem(c->copybuf);
    c->copybuf = NULL;
    if (c->repl) PQfinish(c->repl);
    c->repl = NULL;
}

void rc_pg_repl_reset(rc_pg_conn *c)
{
    drop_repl(c);
}

static rc_pg_rc stream_error(rc_pg_conn *c, rc_error *err);

/* Reads a command's results to the end; returns the first error (the caller's), if any. */
static PGresult *take_results(PGconn *conn)
{
    PGresult *res, *bad = NULL;
    while ((res = PQgetResult(conn))) {
        if (!bad && PQresultStatus(res) == PGRES_FATAL_ERROR)
            bad = res;
        else
            PQclear(res);
    }
    return bad;
}

/* Opens again what is closed or broken: the walsender after a stream, either session after a
 * lost connection (the caller retries after RC_PG_RETRY). */
static rc_pg_rc sessions(rc_pg_conn *c, rc_error *err)
{
    if (c->sql && PQstatus(c->sql) == CONNECTION_BAD) {
        PQfinish(c->sql);
        c->sql = NULL;
    }
    if (c->repl && PQstatus(c->repl) == CONNECTION_BAD) drop_repl(c);
    rc_pg_rc rc = c->sql ? RC_PG_OK : connect_one(c, false, &c->sql, err);
    if (rc == RC_PG_OK && !c->repl) rc = connect_one(c, true, &c->repl, err);
    return rc;
}

/* ---- publication ---- */

rc_pg_rc rc_pg_publication_exists(rc_pg_conn *c, const char *name, bool *exists, rc_error *err)
{
    const char *args[] = {name};
    PGresult *res = rc_pg_query(c, "SELECT 1 FROM pg_catalog.pg_publication WHERE pubname = $1", 1, args);
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        return server_fail(c, c->sql, res, err, "looking up the publication");
    *exists = PQntuples(res) > 0;
    PQclear(res);
    return RC_PG_OK;
}

rc_pg_rc rc_pg_publication_missing(rc_pg_conn *c, const char *name, rc_error *err)
{
    return fail(
        err, RC_PG_FATAL,
        "publication \"%s\" does not exist on %s: name its tables with --include SCHEMA.TABLE "
        "(rowcast creates it FOR TABLE those) or create it yourself",
        name, c->shown);
}

/* ---- slot ---- */

static bool slot_name_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n > 63) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || isdigit((unsigned char)*s) || *s == '_')) return false;
    return true;
}

bool rc_pg_slot_name_ok(const char *name)
{
    return slot_name_ok(name);
}

static rc_pg_rc check_slot(rc_pg_conn *c, const char *name, PGresult *res, rc_pg_slot *out,
                           rc_error *err)
{
    const char *type = PQgetvalue(res, 0, 0), *plugin = PQgetvalue(res, 0, 1),
               *db = PQgetvalue(res, 0, 2);
    const char *wal = PQgetvalue(res, 0, 3);
    if (strcmp(type, "logical") != 0)
        return fail(err, RC_PG_FATAL,
                    "replication slot \"%s\" on %s is a %s slot: choose another slot name", name,
                    c->shown, type);
    if (strcmp(plugin, "pgoutput") != 0)
        return fail(err, RC_PG_FATAL,
                    "replication slot \"%s\" on %s uses the plugin %s, rowcast reads pgoutput: "
                    "choose another slot "
                    "name, or drop it (SELECT pg_drop_replication_slot('%s')) if nothing reads it",
                    name, c->shown, plugin, name);
    if (strcmp(db, PQdb(c->sql)) != 0)
        return fail(err, RC_PG_FATAL,
                    "replication slot \"%s\" on %s belongs to database %s: connect to that "
                    "database or choose "
                    "another slot name",
                    name, c->shown, db);
    if (strcmp(wal, "lost") == 0)
        return fail(
            err, RC_PG_FATAL,
            "replication slot \"%s\" on %s is invalidated (wal_status lost, see "
            "max_slot_wal_keep_size): "
            "drop it with SELECT pg_drop_replication_slot('%s') and capture again with a snapshot",
            name, c->shown, name);
    if (!rc_pg_lsn_parse(PQgetvalue(res, 0, 4), &out->confirmed_lsn)) out->confirmed_lsn = 0;
    if (!rc_pg_lsn_parse(PQgetvalue(res, 0, 5), &out->restart_lsn)) out->restart_lsn = 0;
    return RC_PG_OK;
}

rc_pg_rc rc_pg_slot_find(rc_pg_conn *c, const char *name, rc_pg_slot *out, bool *found,
                         rc_error *err)
{
    memset(out, 0, sizeof *out);
    *found = false;
    rc_pg_rc rc = sessions(c, err);
    if (rc != RC_PG_OK) return rc;
    if (!slot_name_ok(name))
        return fail(err, RC_PG_FATAL,
                    "replication slot name \"%s\" is not valid: use lower-case letters, digits and "
                    "_ (at most 63)",
                    name);
    const char *args[] = {name};
    PGresult *res = rc_pg_query(c,
                                "SELECT slot_type, coalesce(plugin, ''), coalesce(database, ''), "
                                "coalesce(wal_status, ''), coalesce(confirmed_flush_lsn::text, ''), "
                                "coalesce(restart_lsn::text, '') FROM pg_catalog.pg_replication_slots "
                                "WHERE slot_name = $1",
                                1, args);
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        return server_fail(c, c->sql, res, err, "looking up the replication slot");
    if (PQntuples(res) == 1) {
        *found = true;
        rc = check_slot(c, name, res, out, err);
    }
    PQclear(res);
    return rc;
}

rc_pg_rc rc_pg_slot_create(rc_pg_conn *c, const char *name, bool temporary, bool export_snapshot,
                           rc_pg_slot *out, rc_error *err)
{
    memset(out, 0, sizeof *out);
    rc_pg_rc rc = sessions(c, err);
    if (rc != RC_PG_OK) return rc;
    if (!slot_name_ok(name))
        return fail(err, RC_PG_FATAL, "replication slot name \"%s\" is not valid", name);
    char sql[200];
    bool v15 = PQserverVersion(c->repl) >= 150000;
    snprintf(sql, sizeof sql, "CREATE_REPLICATION_SLOT %s%s LOGICAL pgoutput %s", name,
             temporary ? " TEMPORARY" : "",
             v15 ? (export_snapshot ? "(SNAPSHOT 'export')" : "(SNAPSHOT 'nothing')")
                 : (export_snapshot ? "EXPORT_SNAPSHOT" : "NOEXPORT_SNAPSHOT"));
    PGresult *res = PQexec(c->repl, sql);
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1 || PQnfields(res) < 3)
        return server_fail(c, c->repl, res, err, "creating the replication slot");
    out->created = true;
    if (!rc_pg_lsn_parse(PQgetvalue(res, 0, 1), &out->consistent_lsn)) {
        PQclear(res);
        return fail(err, RC_PG_FATAL,
                    "creating the replication slot on %s: unexpected consistent point", c->shown);
    }
    if (!PQgetisnull(res, 0, 2))
        snprintf(out->snapshot, sizeof out->snapshot, "%s", PQgetvalue(res, 0, 2));
    PQclear(res);
    return RC_PG_OK;
}

rc_pg_rc rc_pg_slot_ensure(rc_pg_conn *c, const char *name, bool export_snapshot, rc_pg_slot *out,
                           rc_error *err)
{
    bool found;
    rc_pg_rc rc = rc_pg_slot_find(c, name, out, &found, err);
    if (rc != RC_PG_OK || found) return rc;
    return rc_pg_slot_create(c, name, false, export_snapshot, out, err);
}

rc_pg_rc rc_pg_slot_copy(rc_pg_conn *c, const char *from, const char *to, rc_error *err)
{
    rc_pg_rc rc = sessions(c, err);
    if (rc != RC_PG_OK) return rc;
    const char *args[] = {from, to};
    PGresult *res = rc_pg_query(c, "SELECT pg_catalog.pg_copy_logical_replication_slot($1, $2, false)", 2, args);
    if (PQresultStatus(res) != PGRES_TUPLES_OK)
        return server_fail(c, c->sql, res, err, "making the replication slot permanent");
    PQclear(res);
    return RC_PG_OK;
}

rc_pg_rc rc_pg_wal_lsn(rc_pg_conn *c, uint64_t *lsn, rc_error *err)
{
    rc_pg_rc rc = sessions(c, err);
    if (rc != RC_PG_OK) return rc;
    PGresult *res = PQexec(c->sql, "SELECT pg_catalog.pg_current_wal_insert_lsn()::text");
    if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1)
        return server_fail(c, c->sql, res, err, "reading the current WAL position");
    bool ok = rc_pg_lsn_parse(PQgetvalue(res, 0, 0), lsn);
    PQclear(res);
    return ok ? RC_PG_OK : fail(err, RC_PG_FATAL, "unexpected WAL position from %s", c->shown);
}

rc_pg_rc rc_pg_snapshot_begin(rc_pg_conn *c, const char *snapshot, rc_error *err)
{
    rc_pg_rc rc = exec_ok(c, c->sql, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", err,
                          "starting the snapshot");
    if (rc != RC_PG_OK) return rc;
    char *lit = PQescapeLiteral(c->sql, snapshot, strlen(snapshot));
    if (!lit) return fail(err, RC_PG_FATAL, "out of memory");
    char sql[128];
    snprintf(sql, sizeof sql, "SET TRANSACTION SNAPSHOT %s", lit);
    PQfreemem(lit);
    rc = exec_ok(c, c->sql, sql, err, "adopting the exported snapshot");
    if (rc != RC_PG_OK) PQclear(PQexec(c->sql, "ROLLBACK"));
    return rc;
}

/* ---- streaming ---- */

/* The server's message for a failed START_REPLICATION; *active when it is "active for PID". */
static rc_pg_rc start_once(rc_pg_conn *c, const char *cmd, bool *active, char *msg, size_t cap,
                           rc_error *err)
{
    PGresult *res = PQexec(c->repl, cmd);
    if (PQresultStatus(res) == PGRES_COPY_BOTH) {
        PQclear(res);
        return RC_PG_OK;
    }
    const char *st = PQresultErrorField(res, PG_DIAG_SQLSTATE);
    *active = st && strcmp(st, "55006") == 0 && PQstatus(c->repl) == CONNECTION_OK;
    if (!*active) return server_fail(c, c->repl, res, err, "starting replication");
    one_line(msg, cap, PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
    PQclear(res);
    return RC_PG_RETRY;
}

/* --standby, leading: the slot's walsender is the old leader's (a paused one keeps it until
 * wal_sender_timeout): end it (allowed for the same role or pg_signal_backend), and say so. */
static void take_slot(rc_pg_conn *c, const char *slot)
{
    char why[256];
    if (!rc_run_lead_held(why, sizeof why)) return; /* an old leader woken up: the slot is the new one's */
    const char *params[1] = {slot};
    PGresult *res = PQexecParams(c->sql, "SELECT active_pid, pg_terminate_backend(active_pid) FROM pg_catalog.pg_replication_slots "
                                         "WHERE slot_name = $1 AND active_pid IS NOT NULL", 1, NULL, params, NULL, NULL, 0);
    bool ok = PQresultStatus(res) == PGRES_TUPLES_OK;
    if (!ok || PQntuples(res) == 1)
        rc_db_notice(c->opts.notice, c->opts.notice_ud, 300, "--standby: slot %s was held by PID %s (the old leader's walsender): %s", slot,
                     ok ? PQgetvalue(res, 0, 0) : "?", !ok ? PQerrorMessage(c->sql) : strcmp(PQgetvalue(res, 0, 1), "t") ? "ending it was refused" : "ended it");
    PQclear(res);
}

rc_pg_rc rc_pg_stream_start(rc_pg_conn *c, const rc_pg_stream_opts *o, rc_error *err)
{
    bool exists = false; /* set on RC_PG_OK; GCC -O3 does not see that */
    if (c->streaming)
        return fail(err, RC_PG_FATAL, "a replication stream already runs on %s", c->shown);
    rc_pg_rc rc = sessions(c, err);
    if (rc == RC_PG_OK) rc = rc_pg_publication_exists(c, o->publication, &exists, err);
    if (rc != RC_PG_OK) return rc;
    if (!exists) return rc_pg_publication_missing(c, o->publication, err);
    if (!slot_name_ok(o->slot))
        return fail(err, RC_PG_FATAL, "replication slot name \"%s\" is not valid", o->slot);
    char qpub[300], lsn[RC_PG_LSN_MAX];
    rc_pg_quote_ident(qpub, 140, o->publication);
    if (o->publication2 && *o->publication2) { /* pgoutput reads a comma-separated list */
        size_t n = strlen(qpub);
        qpub[n++] = ',';
        rc_pg_quote_ident(qpub + n, 140, o->publication2);
    }
    char *lit = PQescapeLiteral(c->repl, qpub, strlen(qpub));
    if (!lit) return fail(err, RC_PG_FATAL, "out of memory");
    rc_pg_lsn_format(o->start_lsn, lsn);
    int proto = o->proto_version ? o->proto_version : 1;
    char cmd[400];
    snprintf(cmd, sizeof cmd,
             "START_REPLICATION SLOT %s LOGICAL %s (proto_version '%d'%s, publication_names %s%s)",
             o->slot, lsn, proto, proto >= 2 && o->streaming ? ", streaming 'on'" : "", lit,
             o->messages ? ", messages 'true'" : "");
    PQfreemem(lit);
    int64_t give_up = mono_us() + (int64_t)c->opts.active_retry_ms * 1000;
    int wait = 100;
    for (;;) {
        bool active = false;
        char msg[200];
        rc = start_once(c, cmd, &active, msg, sizeof msg, err);
        if (rc == RC_PG_OK) break;
        if (!active) return rc;
        int64_t left = (give_up - mono_us()) / 1000;
        if (left <= 0)
            return fail(err, RC_PG_FATAL,
                        "%s on %s, still after %d ms: another client reads this slot; stop it or "
                        "choose another "
                        "slot",
                        msg, c->shown, c->opts.active_retry_ms);
        if (wait > left) wait = (int)left;
        if (c->opts.take_slot) take_slot(c, o->slot);
        rc_db_notice(c->opts.notice, c->opts.notice_ud, 300, "%s: retrying in %d ms", msg, wait);
        sleep_ms(wait);
        wait = wait * 2 > 2000 ? 2000 : wait * 2;
    }
    c->streaming = true;
    snprintf(c->slot, sizeof c->slot, "%s", o->slot);
    c->received_lsn = o->start_lsn;
    c->last_status = mono_us();
    return RC_PG_OK;
}

static rc_pg_rc send_status(rc_pg_conn *c, rc_error *err)
{
    uint8_t m[34];
    m[0] = 'r';
    /* written: what arrived (for pg_stat_replication); flushed and applied: what the caller
     * acknowledged, which is all that moves confirmed_flush_lsn (0/0 moves nothing) */
    put_u64(m + 1, c->received_lsn > c->flush_lsn ? c->received_lsn : c->flush_lsn);
    put_u64(m + 9, c->flush_lsn);
    put_u64(m + 17, c->flush_lsn);
    put_u64(m + 25, (uint64_t)pg_now_us());
    m[33] = 0;
    if (PQputCopyData(c->repl, (const char *)m, sizeof m) != 1 || PQflush(c->repl) != 0) {
        char msg[160];
        one_line(msg, sizeof msg, PQerrorMessage(c->repl));
        return fail(err, RC_PG_RETRY, "sending a status update to %s: %s", c->shown, msg);
    }
    c->last_status = mono_us();
    return RC_PG_OK;
}

/* The stream ended from the server's side: its error (publication dropped, ...) or a lost
 * connection. */
static rc_pg_rc stream_ended(rc_pg_conn *c, rc_error *err)
{
    rc_pg_rc rc = stream_error(c, err);
    drop_repl(c);
    return rc;
}

static rc_pg_rc stream_error(rc_pg_conn *c, rc_error *err)
{
    PGresult *bad = take_results(c->repl);
    if (bad) {
        const char *st = PQresultErrorField(bad, PG_DIAG_SQLSTATE);
        const char *prim = PQresultErrorField(bad, PG_DIAG_MESSAGE_PRIMARY);
        if (st && strcmp(st, "42704") == 0 && prim && strstr(prim, "publication")) {
            char msg[160];
            one_line(msg, sizeof msg, prim);
            PQclear(bad);
            /* pgoutput reads the publication as of each change: the slot can never pass a change
             * made while it was missing, even once it exists again */
            return fail(err, RC_PG_FATAL,
                        "replication from %s stopped: %s: create it again, drop the slot (SELECT "
                        "pg_drop_replication_slot('%s')) and capture again with a snapshot",
                        c->shown, msg, c->slot);
        }
        return server_fail(c, c->repl, bad, err, "replication");
    }
    if (PQstatus(c->repl) == CONNECTION_BAD) {
        char msg[160];
        one_line(msg, sizeof msg, PQerrorMessage(c->repl));
        return fail(err, RC_PG_RETRY, "connection to %s lost: %s", c->shown, msg);
    }
    return fail(err, RC_PG_RETRY, "the server ended the replication stream of %s", c->shown);
}

static rc_pg_rc parse_msg(rc_pg_conn *c, const uint8_t *b, int n, rc_pg_msg *m, rc_error *err)
{
    memset(m, 0, sizeof *m);
    m->kind = (char)b[0];
    if (b[0] == 'w' && n >= 25) {
        m->wal_start = get_u64(b + 1);
        m->wal_end = get_u64(b + 9);
        m->send_time = (int64_t)get_u64(b + 17);
        m->data = b + 25;
        m->len = (size_t)n - 25;
        if (m->wal_start > c->received_lsn) c->received_lsn = m->wal_start;
        return RC_PG_OK;
    }
    if (b[0] == 'k' && n >= 18) {
        m->wal_end = get_u64(b + 1);
        m->send_time = (int64_t)get_u64(b + 9);
        m->reply_requested = b[17] != 0;
        /* everything before the server's end of WAL has been sent, hence received */
        if (m->wal_end > c->received_lsn) c->received_lsn = m->wal_end;
        return m->reply_requested ? send_status(c, err) : RC_PG_OK;
    }
    return fail(err, RC_PG_FATAL,
                "unexpected message '%c' of %d bytes in the replication stream of %s",
                isprint(b[0]) ? b[0] : '?', n, c->shown);
}

rc_pg_rc rc_pg_stream_read(rc_pg_conn *c, rc_pg_msg *m, int timeout_ms, rc_error *err)
{
    PQfreemem(c->copybuf);
    c->copybuf = NULL;
    if (!c->streaming) return fail(err, RC_PG_FATAL, "no replication stream runs on %s", c->shown);
    /* the clock once a message while they come (it was 2% of a busy stream's CPU read twice) */
    int64_t now = mono_us(), deadline = now + (int64_t)timeout_ms * 1000;
    for (;;) {
        int64_t every = (int64_t)c->opts.status_interval_ms * 1000;
        if (now - c->last_status >= every) {
            rc_pg_rc rc = send_status(c, err);
            if (rc != RC_PG_OK) return rc;
        }
        char *buf = NULL;
        int n = PQgetCopyData(c->repl, &buf, 1);
        if (n > 0) {
            c->copybuf = buf;
            return parse_msg(c, (const uint8_t *)buf, n, m, err);
        }
        if (n == -1 || n == -2) return stream_ended(c, err);
        int64_t until = c->last_status + every;
        if (deadline < until) until = deadline;
        int wait = (int)((until - now + 999) / 1000);
        if (now >= deadline) return RC_PG_TIMEOUT;
        struct pollfd pfd = {PQsocket(c->repl), POLLIN, 0};
        int pr = poll(&pfd, 1, wait < 0 ? 0 : wait);
        if (pr < 0 && errno != EINTR)
            return fail(err, RC_PG_RETRY, "waiting for %s: %s", c->shown, strerror(errno));
        if (pr > 0 && !PQconsumeInput(c->repl)) return stream_ended(c, err);
        now = mono_us();
    }
}

rc_pg_rc rc_pg_stream_ack(rc_pg_conn *c, uint64_t flush_lsn, rc_error *err)
{
    if (!c->streaming) return fail(err, RC_PG_FATAL, "no replication stream runs on %s", c->shown);
    if (flush_lsn > c->flush_lsn) c->flush_lsn = flush_lsn;
    return send_status(c, err);
}

/* CopyDone, then what the server still sends: in COPY_BOTH, PQgetResult keeps returning a
 * COPY result until the server's CopyDone has been read, so the copy data is drained first,
 * then the results. */
static rc_pg_rc stream_finish(rc_pg_conn *c, rc_error *err)
{
    if (PQputCopyEnd(c->repl, NULL) != 1 || PQflush(c->repl) != 0)
        return fail(err, RC_PG_RETRY, "ending the replication stream of %s: %s", c->shown,
                    PQerrorMessage(c->repl));
    int64_t deadline = mono_us() + STOP_DRAIN_MS * 1000LL;
    for (;;) {
        char *buf = NULL;
        int n = PQgetCopyData(c->repl, &buf, 1);
        PQfreemem(buf);
        if (n > 0) continue;
        if (n < 0) break;
        int64_t left = (deadline - mono_us()) / 1000;
        if (left <= 0)
            return fail(err, RC_PG_RETRY, "the server of %s did not end the stream in time",
                        c->shown);
        struct pollfd pfd = {PQsocket(c->repl), POLLIN, 0};
        if (poll(&pfd, 1, (int)left) > 0 && !PQconsumeInput(c->repl)) break;
    }
    PGresult *bad = take_results(c->repl);
    if (bad) return server_fail(c, c->repl, bad, err, "ending replication");
    return RC_PG_OK;
}

rc_pg_rc rc_pg_stream_stop(rc_pg_conn *c, rc_error *err)
{
    if (!c->streaming) return RC_PG_OK;
    PQfreemem(c->copybuf);
    c->copybuf = NULL;
    rc_pg_rc rc = stream_finish(c, err);
    drop_repl(c);
    return rc;
}
