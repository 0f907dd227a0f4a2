/* The PostgreSQL connection of the capture source: from one postgres:// URL, two libpq
 * connections to the same database — a walsender (`replication=database`) that creates the
 * slot and streams pgoutput, and a normal one for catalog queries, the publication and the
 * snapshot. Both sessions are pinned (DateStyle, IntervalStyle, TimeZone, extra_float_digits,
 * bytea_output, lc_monetary, client_encoding UTF8) so the text of values never depends on the
 * server's configuration. Setup problems are errors that say what to change; a password in
 * the URL is never printed (messages carry rc_pg_url_redact's rendering).
 *
 * Every fallible function returns an rc_pg_rc and fills `err` (rc_error, optional): RC_PG_RETRY
 * when the same call may succeed later (connection refused or lost, server starting or
 * shutting down), RC_PG_FATAL when a retry cannot help. */
#ifndef ROWCAST_SOURCES_PG_CONN_H
#define ROWCAST_SOURCES_PG_CONN_H

#include <libpq-fe.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/error.h"

typedef enum rc_pg_rc {
    RC_PG_OK = 0,
    RC_PG_TIMEOUT, /* rc_pg_stream_read: nothing arrived in time (not an error) */
    RC_PG_RETRY,   /* may succeed later: reconnect (err->code RC_ERR_IO) */
    RC_PG_FATAL,   /* a retry cannot fix it; the message says what to do (RC_ERR_USAGE) */
} rc_pg_rc;

/* What both sessions SET right after connecting. Not startup -c options: libpq sends PGTZ
 * and PGDATESTYLE from the environment after them, and those would win. */
#define RC_PG_SESSION_SQL                                                                          \
    "SET DateStyle = ISO, YMD; SET IntervalStyle = postgres; SET TimeZone = 'UTC'; "               \
    "SET extra_float_digits = 3; SET bytea_output = hex; SET lc_monetary = 'C'"

/* LSNs as PostgreSQL writes them: "16/B374D848". */
#define RC_PG_LSN_MAX 18
bool rc_pg_lsn_parse(const char *s, uint64_t *lsn);
void rc_pg_lsn_format(uint64_t lsn, char out[RC_PG_LSN_MAX]);

/* True when s starts with postgres:// or postgresql:// */
bool rc_pg_is_url(const char *s);
/* Whether NAME can be a replication slot's: lower-case letters, digits and _, at most 63. */
bool rc_pg_slot_name_ok(const char *name);
/* Writes the postgres:// or postgresql:// `url` without its password (user:PASSWORD@ and the
 * password= / sslpassword= parameters; anything that is not such a URL as "(not a URL)") to out
 * (NUL-terminated, cut at cap - 1); returns the length of the whole rendering, as snprintf does. */
size_t rc_pg_url_redact(const char *url, char *out, size_t cap);
/* Rewrites the NUL-terminated msg (of cap bytes) with each secret of `url` (the userinfo's
 * password, password= and sslpassword= values) as ***: libpq's parse errors quote the text
 * they could not read. */
void rc_pg_url_mask(const char *url, char *msg, size_t cap);

typedef struct rc_pg_opts {
    int active_retry_ms;    /* how long "replication slot ... is active for PID" is retried
                             * before it is fatal (0: 90 s, above wal_sender_timeout's default) */
    int status_interval_ms; /* standby status at least this often while streaming (0: 10 s) */
    bool take_slot;         /* "active for PID": end that walsender (pg_terminate_backend), then
                             * retry: a --standby that leads takes the slot from the old leader */
    /* told about each retry ("... is active for PID 123: retrying in 200 ms"); may be NULL */
    void (*notice)(void *ud, const char *msg);
    void *notice_ud;
} rc_pg_opts;

typedef struct rc_pg_conn rc_pg_conn;

/* Connects both sessions and checks wal_level = logical and the REPLICATION privilege.
 * `opts` may be NULL. On success *out is the caller's (rc_pg_close). */
rc_pg_rc rc_pg_open(const char *url, const rc_pg_opts *opts, rc_pg_conn **out, rc_error *err);
/* Stops a stream cleanly when one runs, closes both sessions; NULL is a no-op. */
void rc_pg_close(rc_pg_conn *c);
/* The URL without its password, for messages. */
const char *rc_pg_url(const rc_pg_conn *c);
/* The normal SQL session (the snapshot reads on it); owned by c. */
PGconn *rc_pg_sql(rc_pg_conn *c);
/* Runs sql with n text parameters on the SQL session (PQexecParams, text results); the caller
 * checks and clears the result. */
PGresult *rc_pg_query(rc_pg_conn *c, const char *sql, int n, const char *const *args);
/* The database's encoding: pgoutput sends text in it, whatever client_encoding says. */
const char *rc_pg_server_encoding(const rc_pg_conn *c);

/* Whether the publication `name` exists; the error when it does not (what to do). */
rc_pg_rc rc_pg_publication_exists(rc_pg_conn *c, const char *name, bool *exists, rc_error *err);
rc_pg_rc rc_pg_publication_missing(rc_pg_conn *c, const char *name, rc_error *err);
/* An identifier as SQL needs it: bare when it is lower-case letters, digits and _, else quoted. */
void rc_pg_quote_ident(char *out, size_t cap, const char *id);
/* Says msg through rc_pg_opts.notice (nothing without one). */
void rc_pg_notice(rc_pg_conn *c, const char *msg);

typedef struct rc_pg_slot {
    bool created;            /* the slot was missing and has been created now */
    uint64_t consistent_lsn; /* created: the snapshot's point, where the stream starts */
    uint64_t confirmed_lsn;  /* existing: pg_replication_slots.confirmed_flush_lsn */
    uint64_t restart_lsn;    /* existing: pg_replication_slots.restart_lsn */
    /* created with export: the exported snapshot ("" otherwise). It lives until the next
     * command on the replication session: rc_pg_snapshot_begin it before rc_pg_stream_start. */
    char snapshot[64];
} rc_pg_slot;

/* Uses the logical slot `name` when it exists (it must be pgoutput's, of this database, and
 * not invalidated); creates a permanent one with pgoutput when it does not, exporting its
 * snapshot when `export_snapshot`. Creation waits for transactions open at that moment. */
rc_pg_rc rc_pg_slot_ensure(rc_pg_conn *c, const char *name, bool export_snapshot, rc_pg_slot *out,
                           rc_error *err);
/* The two halves of rc_pg_slot_ensure: looks `name` up (*found; the checks above when found),
 * and creates it on the replication session — TEMPORARY: dropped by the server when that
 * session ends, however it ends (the snapshot's slot, see pg_source.c). */
rc_pg_rc rc_pg_slot_find(rc_pg_conn *c, const char *name, rc_pg_slot *out, bool *found,
                         rc_error *err);
rc_pg_rc rc_pg_slot_create(rc_pg_conn *c, const char *name, bool temporary, bool export_snapshot,
                           rc_pg_slot *out, rc_error *err);
/* pg_copy_logical_replication_slot(from, to, permanent): `to` starts where `from` stands now
 * (its restart and confirmed LSNs). Works while `from` is in use. */
rc_pg_rc rc_pg_slot_copy(rc_pg_conn *c, const char *from, const char *to, rc_error *err);
/* Ends the replication session (a temporary slot it created goes with it); the next call
 * that needs one connects again. */
void rc_pg_repl_reset(rc_pg_conn *c);
/* pg_current_wal_insert_lsn() on the SQL session: past every record written, committed ones
 * included even when synchronous_commit = off has not flushed them yet. */
rc_pg_rc rc_pg_wal_lsn(rc_pg_conn *c, uint64_t *lsn, rc_error *err);

/* Opens a REPEATABLE READ READ ONLY transaction on the SQL session that sees the exported
 * `snapshot` (rows committed before the slot's consistent point, none after). The caller
 * ends it (COMMIT) with PQexec on rc_pg_sql. */
rc_pg_rc rc_pg_snapshot_begin(rc_pg_conn *c, const char *snapshot, rc_error *err);

typedef struct rc_pg_stream_opts {
    const char *slot, *publication;
    const char *publication2; /* read beside it (the companion, pg_publication.h); NULL or "": none */
    uint64_t start_lsn; /* 0: the slot's confirmed position (the server never starts before it) */
    int proto_version;  /* 1, or 2 with streaming of large in-progress transactions; 0: 1 */
    bool streaming;     /* proto_version 2 only */
    bool messages;      /* logical messages (pg_logical_emit_message) in the stream */
} rc_pg_stream_opts;

/* START_REPLICATION. Checks the publication first (the server would only fail at the first
 * change); retries "slot is active for PID" (a client killed a moment ago) with backoff for
 * opts.active_retry_ms. */
rc_pg_rc rc_pg_stream_start(rc_pg_conn *c, const rc_pg_stream_opts *o, rc_error *err);

/* What rc_pg_stream_read returns. */
typedef struct rc_pg_msg {
    char kind;            /* 'w' XLogData, 'k' primary keepalive */
    uint64_t wal_start;   /* 'w': LSN of the message (0/0 for some: Relation, Type, ...) */
    uint64_t wal_end;     /* the server's current end of WAL */
    int64_t send_time;    /* server clock, µs since 2000-01-01 UTC */
    bool reply_requested; /* 'k': the server asked for a status (already sent) */
    const uint8_t *data;  /* 'w': the pgoutput message, valid until the next read or stop */
    size_t len;
} rc_pg_msg;

/* Waits up to timeout_ms for the next message. Keepalives are answered when they ask and a
 * status update goes out at least every 10 s, both with the flush LSN of the last
 * rc_pg_stream_ack (0/0, which moves nothing, before the first). */
rc_pg_rc rc_pg_stream_read(rc_pg_conn *c, rc_pg_msg *m, int timeout_ms, rc_error *err);

/* Records `flush_lsn` — the end of the last transaction whose every event the sink
 * acknowledged — and sends a standby status update now. The server sets the slot's
 * confirmed_flush_lsn to it; a value below an earlier one is ignored (never moves back).
 * When nothing is in flight and everything is acknowledged, ack a keepalive's wal_end: a
 * server shutting down (also for a restart) waits until the flush LSN — once one was sent —
 * reaches its end of WAL, however long a connected client keeps answering (walsender.c,
 * WalSndDone). */
rc_pg_rc rc_pg_stream_ack(rc_pg_conn *c, uint64_t flush_lsn, rc_error *err);

/* Ends the stream (CopyDone, then drains what the server still sends and the command's
 * results); the replication session can start another stream afterwards. */
rc_pg_rc rc_pg_stream_stop(rc_pg_conn *c, rc_error *err);

#endif
