/* Drives src/sources/pg/pg_conn.c against a live server for pg_conn_test.sh.
 *
 * usage: pg_conn_check redact URL...           prints each URL without its password
 *        pg_conn_check lsn TEXT...             parses each LSN, prints its value and text again
 *        pg_conn_check open URL                connects and checks the server
 *        pg_conn_check slot URL SLOT           rc_pg_slot_ensure (no snapshot export)
 *        pg_conn_check pub URL PUB [PATTERN]...  rc_pg_publication_ensure
 *        pg_conn_check start URL SLOT PUB RETRY_MS   starts a stream, says so, ends it
 *        pg_conn_check hold URL SLOT PUB       creates the slot if missing, streams until killed;
 *                                              after a retriable error, starts again
 *        pg_conn_check status URL SLOT PUB MS  streams 2.5 s with a status every MS ms, counts
 *                                              the keepalives that asked for a reply
 *        pg_conn_check scenario URL            the whole life of a slot (see scenario below)
 * Errors print "retry: MESSAGE" (exit 3) or "fatal: MESSAGE" (exit 4) on stdout, where the
 * test compares them; notices (retries) print as "notice: MESSAGE". */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "sources/pg/pg_conn.h"
#include "sources/pg/pg_publication.h"

static int report(rc_pg_rc rc, const rc_error *err)
{
    if (rc == RC_PG_OK) return 0;
    printf("%s: %s\n", rc == RC_PG_RETRY ? "retry" : "fatal", err->message);
    fflush(stdout);
    return rc == RC_PG_RETRY ? 3 : 4;
}

static void on_notice(void *ud, const char *msg)
{
    (void)ud;
    printf("notice: %s\n", msg);
    fflush(stdout);
}

static int open_conn(const char *url, int retry_ms, int status_ms, rc_pg_conn **c)
{
    rc_error err;
    rc_error_clear(&err);
    rc_pg_opts o = {
        .active_retry_ms = retry_ms, .status_interval_ms = status_ms, .notice = on_notice};
    return report(rc_pg_open(url, &o, c, &err), &err);
}

/* ---- a plain libpq session of the test's own, for the changes and the checks ---- */

static PGconn *side;

static void die(const char *what)
{
    printf("FAIL: %s: %s\n", what, PQerrorMessage(side));
    exit(1);
}

static void sql(const char *q)
{
    PGresult *r = PQexec(side, q);
    if (PQresultStatus(r) != PGRES_COMMAND_OK && PQresultStatus(r) != PGRES_TUPLES_OK) die(q);
    PQclear(r);
}

/* The first value of a one-row query (static buffer). */
static const char *sql1(PGconn *conn, const char *q)
{
    static char v[512];
    PGresult *r = PQexec(conn, q);
    if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) die(q);
    snprintf(v, sizeof v, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return v;
}

static uint64_t confirmed(const char *slot)
{
    char q[200];
    snprintf(q, sizeof q,
             "SELECT confirmed_flush_lsn FROM pg_replication_slots WHERE slot_name = '%s'", slot);
    uint64_t lsn = 0;
    if (!rc_pg_lsn_parse(sql1(side, q), &lsn)) die("confirmed_flush_lsn");
    return lsn;
}

static uint64_t be64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | p[i];
    return v;
}

/* The new tuple of an Insert ('I' relid 'N' natts {'t' len bytes | 'n' | 'u'}...) as a|b|c. */
static void print_insert(const uint8_t *d, size_t n)
{
    size_t natts = n > 7 ? (size_t)(d[6] << 8 | d[7]) : 0;
    printf("insert:");
    for (size_t i = 8; natts--;) {
        char kind = (char)d[i++];
        if (kind == 't') {
            size_t len =
                (size_t)d[i] << 24 | (size_t)d[i + 1] << 16 | (size_t)d[i + 2] << 8 | d[i + 3];
            printf(" %.*s |", (int)len, (const char *)d + i + 4);
            i += 4 + len;
        } else {
            printf(" (%c) |", kind);
        }
    }
    printf("\n");
}

/* Reads the stream for ms milliseconds (or until `until_commits` Commits): message types go
 * to `types` (a space between transactions), the last Commit's end LSN to *end, reply-requesting
 * keepalives are counted. */
typedef struct stream_seen {
    char types[128];
    size_t ntypes;
    uint64_t commit_end[8];
    int commits, replies;
} stream_seen;

static int read_for(rc_pg_conn *c, int ms, int until_commits, stream_seen *s, bool show_insert)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        long spent = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
        if (spent >= ms || (until_commits && s->commits >= until_commits)) return 0;
        rc_pg_msg m;
        rc_error err;
        rc_error_clear(&err);
        rc_pg_rc rc = rc_pg_stream_read(c, &m, (int)(ms - spent), &err);
        if (rc == RC_PG_TIMEOUT) continue;
        if (rc != RC_PG_OK) return report(rc, &err);
        if (m.kind == 'k') {
            s->replies += m.reply_requested;
            continue;
        }
        if (m.len == 0) continue;
        if (s->ntypes + 2 < sizeof s->types) {
            if (s->ntypes && s->types[s->ntypes - 1] == 'C') s->types[s->ntypes++] = ' ';
            s->types[s->ntypes++] = (char)m.data[0];
            s->types[s->ntypes] = '\0';
        }
        if (m.data[0] == 'I' && show_insert) print_insert(m.data, m.len);
        if (m.data[0] == 'C' && m.len >= 18 && s->commits < 8)
            s->commit_end[s->commits++] = be64(m.data + 10);
    }
}

/* Polls pg_replication_slots until confirmed_flush_lsn is `want` (the status update travels
 * asynchronously), reading the stream meanwhile; at most 5 s. */
static bool wait_confirmed(rc_pg_conn *c, const char *slot, uint64_t want, stream_seen *s)
{
    for (int i = 0; i < 50; i++) {
        if (confirmed(slot) == want) return true;
        if (read_for(c, 100, 0, s, false)) return false;
    }
    return false;
}

static void no_identity(void *ud, const char *schema, const char *table, char relreplident)
{
    (void)ud;
    printf("no identity: %s.%s (%c)\n", schema, table, relreplident);
}

/* Publication and slot created, the exported snapshot, changes streamed (types in order,
 * values in the pinned text), confirmed_flush_lsn moved only by acknowledgements, a clean
 * stop and a resume after the acknowledged LSN, and a publication dropped mid-stream. */
static int scenario(const char *url)
{
    int r;
    sql("CREATE TABLE t (id int PRIMARY KEY, v text, ts timestamptz, iv interval, f float8, d "
        "date, b bytea)");
    sql("INSERT INTO t VALUES (1, 'a', '2020-01-02 03:04:05.123456+05:30', '1 year 2 mons 3 days "
        "04:05:06', "
        "0.3333333333333333, '2020-01-02', '\\x00ff'), (2, 'b', NULL, NULL, NULL, NULL, NULL)");
    sql("CREATE TABLE tnokey (a int); CREATE TABLE tfull (a int); ALTER TABLE tfull REPLICA "
        "IDENTITY FULL; "
        "CREATE TABLE tnothing (a int PRIMARY KEY); ALTER TABLE tnothing REPLICA IDENTITY NOTHING; "
        "CREATE TABLE other (a int)");
    rc_pg_conn *c;
    if ((r = open_conn(url, 0, 0, &c))) return r;
    rc_error err;
    rc_error_clear(&err);
    printf("server encoding: %s\n", rc_pg_server_encoding(c));
    const char *inc[] = {"public.t*"};
    bool created;
    if ((r = report(rc_pg_publication_ensure(c, "rc_pub", inc, 1, false, &created, &err), &err))) return r;
    printf("publication created: %s; tables: %s\n", created ? "yes" : "no",
           sql1(side, "SELECT string_agg(schemaname || '.' || tablename, ', ' ORDER BY tablename) "
                      "FROM pg_publication_tables WHERE pubname = 'rc_pub'"));
    printf("all tables: %s\n",
           sql1(side, "SELECT puballtables FROM pg_publication WHERE pubname = 'rc_pub'"));
    if ((r = report(rc_pg_publication_ensure(c, "rc_pub", inc, 1, false, &created, &err), &err))) return r;
    printf("publication created again: %s\n", created ? "yes" : "no");
    if ((r = report(rc_pg_tables_without_identity(c, "rc_pub", no_identity, NULL, &err), &err)))
        return r;

    rc_pg_slot slot;
    if ((r = report(rc_pg_slot_ensure(c, "rc_slot", true, &slot, &err), &err))) return r;
    printf("slot created: %s; snapshot exported: %s\n", slot.created ? "yes" : "no",
           slot.snapshot[0] ? "yes" : "no");
    uint64_t cp = slot.consistent_lsn;
    printf("confirmed_flush_lsn %s the consistent point\n",
           confirmed("rc_slot") == cp ? "=" : "!=");

    /* the snapshot: rows before the slot, not the row inserted after it */
    if ((r = report(rc_pg_snapshot_begin(c, slot.snapshot, &err), &err))) return r;
    sql("INSERT INTO t VALUES (3, 'c', '2020-01-02 03:04:05.123456+05:30', '1 year 2 mons 3 days "
        "04:05:06', "
        "0.3333333333333333, '2020-01-02', '\\x00ff')");
    printf("snapshot: %s\n",
           sql1(rc_pg_sql(c), "SELECT string_agg(id::text || ' ' || coalesce(ts::text, '-') || ' ' "
                              "|| coalesce(iv::text, '-'), ', ' ORDER BY id) FROM t"));
    sql1(rc_pg_sql(c), "SELECT 1"); /* still inside the snapshot */
    PQclear(PQexec(rc_pg_sql(c), "COMMIT"));
    printf("after the snapshot: %s\n",
           sql1(rc_pg_sql(c), "SELECT string_agg(id::text, ',' ORDER BY id) FROM t"));
    sql("BEGIN; UPDATE t SET v = 'z' WHERE id = 1; DELETE FROM t WHERE id = 2; COMMIT");

    rc_pg_stream_opts so = {"rc_slot", "rc_pub", NULL, cp, 1, false, true};
    if ((r = report(rc_pg_stream_start(c, &so, &err), &err))) return r;
    stream_seen s = {0};
    if ((r = read_for(c, 10000, 2, &s, true))) return r;
    printf("stream: %s\n", s.types);
    /* keepalives asking for a reply (wal_sender_timeout is 2 s) are answered with 0/0 */
    if ((r = read_for(c, 2500, 0, &s, false))) return r;
    printf("keepalives answered: %s; confirmed_flush_lsn %s the consistent point\n",
           s.replies ? "yes" : "no", confirmed("rc_slot") == cp ? "=" : "!=");

    uint64_t ack = s.commit_end[1];
    if ((r = report(rc_pg_stream_ack(c, ack, &err), &err))) return r;
    printf("after ack: confirmed_flush_lsn %s the acknowledged LSN\n",
           wait_confirmed(c, "rc_slot", ack, &s) ? "=" : "!=");
    /* lower: ignored */
    if ((r = report(rc_pg_stream_ack(c, s.commit_end[0], &err), &err))) return r;
    int before = s.replies;
    if ((r = read_for(c, 2500, 0, &s, false))) return r;
    printf("after a lower ack and %s keepalives: confirmed_flush_lsn %s the acknowledged LSN\n",
           s.replies > before ? "more" : "no", confirmed("rc_slot") == ack ? "=" : "!=");
    char lsn[RC_PG_LSN_MAX];
    rc_pg_lsn_format(ack, lsn);
    printf("ack as text parses back: %s\n", rc_pg_lsn_parse(lsn, &cp) && cp == ack ? "yes" : "no");

    /* a clean stop, then the stream resumes after the acknowledged transaction (protocol 2) */
    if ((r = report(rc_pg_stream_stop(c, &err), &err))) return r;
    printf("stopped; slot active: %s\n",
           sql1(side, "SELECT active FROM pg_replication_slots WHERE slot_name = 'rc_slot'"));
    sql("INSERT INTO t VALUES (4, 'd', NULL, NULL, NULL, NULL, NULL)");
    so.start_lsn = 0;
    so.proto_version = 2; /* and large transactions streamed while in progress */
    so.streaming = true;
    if ((r = report(rc_pg_stream_start(c, &so, &err), &err))) return r;
    stream_seen s2 = {0};
    if ((r = read_for(c, 10000, 1, &s2, true))) return r;
    printf("resumed stream: %s\n", s2.types);

    /* the publication dropped while streaming: fatal at the next change */
    sql("DROP PUBLICATION rc_pub");
    sql("INSERT INTO t VALUES (5, 'e', NULL, NULL, NULL, NULL, NULL)");
    stream_seen s3 = {0};
    int rc = read_for(c, 10000, 1, &s3, false);
    printf("after DROP PUBLICATION: exit %d, stream: %s\n", rc, s3.ntypes ? s3.types : "(nothing)");
    rc_pg_close(c);
    return 0;
}

/* start, hold and status (see the head of the file) */
static int stream_cmd(rc_pg_conn *c, const char *cmd, const char *slot, const char *pub)
{
    rc_error err;
    rc_error_clear(&err);
    rc_pg_slot s;
    rc_pg_stream_opts so = {slot, pub, NULL, 0, 1, false, false};
    int rc;
    bool hold = strcmp(cmd, "hold") == 0;
    if (hold && (rc = report(rc_pg_slot_ensure(c, slot, false, &s, &err), &err))) return rc;
    if ((rc = report(rc_pg_stream_start(c, &so, &err), &err))) return rc;
    printf("streaming\n");
    fflush(stdout);
    if (strcmp(cmd, "status") == 0) {
        stream_seen seen = {0};
        if ((rc = read_for(c, 2500, 0, &seen, false))) return rc;
        printf("keepalives asking for a reply: %d\n", seen.replies);
    }
    while (hold) {
        rc_pg_msg m;
        rc_error_clear(&err);
        rc_pg_rc r = rc_pg_stream_read(c, &m, 1000, &err);
        /* a pipeline with nothing in flight: the keepalive's position is safe */
        if (r == RC_PG_OK && m.kind == 'k') r = rc_pg_stream_ack(c, m.wal_end, &err);
        if (r == RC_PG_OK || r == RC_PG_TIMEOUT) continue;
        if ((rc = report(r, &err)) != 3) return rc;
        /* retriable: start again until the server is back (at most 20 s) */
        for (int i = 0; i < 100; i++) {
            rc_error_clear(&err);
            if ((r = rc_pg_stream_start(c, &so, &err)) != RC_PG_RETRY) break;
            struct timespec ts = {0, 200000000L};
            nanosleep(&ts, NULL);
        }
        if ((rc = report(r, &err))) return rc;
        printf("streaming again\n");
        fflush(stdout);
    }
    return report(rc_pg_stream_stop(c, &err), &err);
}

int main(int argc, char **argv)
{
    if (argc < 3) return 2;
    const char *cmd = argv[1], *url = argv[2];
    if (strcmp(cmd, "redact") == 0) {
        for (int i = 2; i < argc; i++) {
            char small[16];
            size_t n = rc_pg_url_redact(argv[i], small, sizeof small);
            char *out = malloc(n + 1);
            if (!out || rc_pg_url_redact(argv[i], out, n + 1) != n) return 1;
            printf("%s\n", out);
            if (n >= sizeof small &&
                (strlen(small) != sizeof small - 1 || strncmp(small, out, sizeof small - 1)))
                printf("FAIL: cut rendering %s\n", small);
            free(out);
        }
        return 0;
    }
    if (strcmp(cmd, "lsn") == 0) {
        for (int i = 2; i < argc; i++) {
            uint64_t lsn;
            char back[RC_PG_LSN_MAX];
            if (!rc_pg_lsn_parse(argv[i], &lsn)) {
                printf("%s: not an LSN\n", argv[i]);
                continue;
            }
            rc_pg_lsn_format(lsn, back);
            printf("%s: %" PRIu64 " %s\n", argv[i], lsn, back);
        }
        return 0;
    }
    rc_error err;
    rc_error_clear(&err);
    rc_pg_conn *c = NULL;
    int rc = 0;
    if (strcmp(cmd, "scenario") == 0) {
        side = PQconnectdb(url);
        if (PQstatus(side) != CONNECTION_OK) die("connecting");
        rc = scenario(url);
        PQfinish(side);
        return rc;
    }
    int ms = argc > 5 ? atoi(argv[5]) : 0;
    if ((rc = open_conn(url, strcmp(cmd, "start") == 0 ? ms : 0,
                        strcmp(cmd, "status") == 0 ? ms : 0, &c)))
        return rc;
    if (strcmp(cmd, "open") == 0) {
        printf("connected to %s\n", rc_pg_url(c));
    } else if (strcmp(cmd, "slot") == 0 && argc == 4) {
        rc_pg_slot s;
        if (!(rc = report(rc_pg_slot_ensure(c, argv[3], false, &s, &err), &err)))
            printf("slot %s: %s\n", argv[3], s.created ? "created" : "exists");
    } else if (strcmp(cmd, "pub") == 0 && argc >= 4) {
        bool created;
        if (!(rc = report(rc_pg_publication_ensure(c, argv[3], (const char *const *)argv + 4,
                                                   (size_t)argc - 4, false, &created, &err),
                          &err)))
            printf("publication %s: %s\n", argv[3], created ? "created" : "exists");
    } else if ((strcmp(cmd, "start") == 0 || strcmp(cmd, "hold") == 0 ||
                strcmp(cmd, "status") == 0) &&
               argc >= 5) {
        rc = stream_cmd(c, cmd, argv[3], argv[4]);
    } else {
        rc = 2;
    }
    rc_pg_close(c);
    return rc;
}
