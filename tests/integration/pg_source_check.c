/* The decoder chain of the PostgreSQL source against a real server, for pg_source_test.sh:
 * pg_conn (replication connection) -> pgoutput (messages) -> pg_events (canonical events) ->
 * the native encoder, one line per event on stdout.
 *
 *   pg_source_check setup URL SLOT PUBLICATION   publication FOR TABLE public.*, the slot
 *   pg_source_check stream URL SLOT PUBLICATION LSN [SPILL_BYTES|off]
 *       streams (protocol 2, streaming on, messages on) from the slot until caught up: no
 *       transaction open or held and the server's end of WAL (a keepalive's) or the last
 *       commit's end LSN at LSN or past it; each commit's end LSN is acknowledged. Streamed
 *       transactions spill past SPILL_BYTES held in memory (default pg_events', "off": never)
 *       to files in $TMPDIR, and are released in drains of at most 1000 events, each written
 *       before the next, so that the process never holds a whole transaction. On stderr at the
 *       end: how many Stream Start and Stream Abort messages came, the most bytes that were in
 *       spill files at once, and the peak RSS (VmHWM), "(sanitized)" in an ASan build, whose
 *       memory says nothing about rowcast's.
 *
 * The enum and domain types of the database are registered from pg_type first (what the
 * source will do at startup). Errors go to stderr with exit status 1. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "formats/native.h"
#include "rowcast/buf.h"
#include "sources/pg/pg_conn.h"
#include "sources/pg/pg_publication.h"
#include "sources/pg/pg_events.h"

static int failed(const char *what, const rc_error *err)
{
    fprintf(stderr, "%s: %s (offset %zu)\n", what, err->message, err->offset);
    return 1;
}

/* enums (labels in sort order) and domains of the database into reg */
static int load_types(PGconn *sql, rc_pg_types *reg)
{
    PGresult *r = PQexec(
        sql, "SELECT t.oid, t.typtype, t.typbasetype, t.typtypmod, "
             "array_to_json(ARRAY(SELECT e.enumlabel FROM pg_enum e WHERE e.enumtypid = t.oid "
             "ORDER BY e.enumsortorder))::text FROM pg_type t WHERE t.typtype IN ('e', 'd')");
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        fprintf(stderr, "pg_type: %s", PQerrorMessage(sql));
        return 1;
    }
    rc_error err;
    rc_error_clear(&err);
    for (int i = 0; i < PQntuples(r); i++) {
        uint32_t oid = (uint32_t)strtoul(PQgetvalue(r, i, 0), NULL, 10);
        rc_status st;
        if (PQgetvalue(r, i, 1)[0] == 'd') {
            st = rc_pg_types_add_domain(reg, oid, (uint32_t)strtoul(PQgetvalue(r, i, 2), NULL, 10),
                                        atoi(PQgetvalue(r, i, 3)), &err);
        } else { /* ["a","b"]: test labels hold no quote or backslash */
            const char *labels[64];
            size_t lens[64];
            uint32_t n = 0;
            for (const char *p = PQgetvalue(r, i, 4); (p = strchr(p, '"')) && n < 64; n++) {
                const char *q = strchr(p + 1, '"');
                labels[n] = p + 1, lens[n] = (size_t)(q - p - 1);
                p = q + 1;
            }
            st = rc_pg_types_add_enum(reg, oid, n, labels, lens, &err);
        }
        if (st != RC_OK) return PQclear(r), failed("type", &err);
    }
    PQclear(r);
    return 0;
}

/* The events in out, one native line each, on stdout. */
static int write_events(const rc_event_list *out, rc_buf *line)
{
    rc_error err;
    rc_error_clear(&err);
    for (size_t i = 0; i < out->count; i++) {
        rc_buf_reset(line);
        if (rc_native_encode(NULL, &out->items[i], line, &err) != RC_OK) return failed("native", &err);
        fwrite(line->data, 1, line->len, stdout);
        putchar('\n');
    }
    return 0;
}

static int64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* VmHWM of /proc/self/status, in kB (0 when unknown). */
static long peak_rss_kb(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char l[256];
    long kb = 0;
    while (f && fgets(l, sizeof l, f))
        if (!strncmp(l, "VmHWM:", 6)) kb = atol(l + 6);
    if (f) fclose(f);
    return kb;
}

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED " (sanitized)"
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SANITIZED " (sanitized)"
#endif
#endif
#ifndef SANITIZED
#define SANITIZED ""
#endif

static int stream(rc_pg_conn *c, const char *slot, const char *pub, uint64_t until,
                  size_t spill_bytes)
{
    rc_error err;
    rc_error_clear(&err);
    rc_pg_types *reg = rc_pg_types_new();
    if (!reg || load_types(rc_pg_sql(c), reg)) return 1;
    rc_pg_stream_opts so = {slot, pub, NULL, 0, 2, true, true};
    if (rc_pg_stream_start(c, &so, &err) != RC_PG_OK) return failed("start", &err);
    rc_pgo_decoder *d = rc_pgo_new(2);
    rc_pg_events_opts eo = {.server = "pg",
                            .db = PQdb(rc_pg_sql(c)),
                            .spill_bytes = spill_bytes,
                            .release_events = 1000};
    rc_pg_events *ev = rc_pg_events_new(&eo, reg);
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list out = {0};
    rc_buf line;
    rc_buf_init(&line, RC_BUF_DEFAULT_MAX);
    uint64_t last_end = 0, spilled = 0;
    int rc = 0, chunks = 0, aborts = 0;
    for (;;) {
        rc_pg_msg m;
        rc_pg_rc r = rc_pg_stream_read(c, &m, 1000, &err);
        if (r == RC_PG_TIMEOUT) continue;
        if (r != RC_PG_OK) {
            rc = failed("read", &err);
            break;
        }
        if (m.kind == 'k') {
            if (rc_pg_events_idle(ev) && (m.wal_end >= until || last_end >= until)) break;
            continue;
        }
        rc_pgo_msg msg;
        out.count = 0;
        if (rc_pgo_decode(d, m.data, m.len, m.wal_start, &a, &msg, &err) != RC_OK ||
            rc_pg_events_add(ev, &msg, m.data, m.len, &a, &out, &err) != RC_OK) {
            rc = failed("decode", &err);
            break;
        }
        chunks += msg.kind == RC_PGO_STREAM_START;
        aborts += msg.kind == RC_PGO_STREAM_ABORT;
        if (rc_pg_events_spilled_bytes(ev) > spilled) spilled = rc_pg_events_spilled_bytes(ev);
        if (write_events(&out, &line)) return 1;
        /* the rest of a Stream Commit, batch by batch; no message is read meanwhile, so a status
         * update (with the last acknowledged end, which it does not move) goes out every 500 ms:
         * a slow drain (a sanitized build) must not pass the server's wal_sender_timeout */
        for (int64_t sent = now_ms(); rc_pg_events_pending(ev);) {
            if (now_ms() - sent >= 500) {
                if (rc_pg_stream_ack(c, last_end, &err) != RC_PG_OK) return failed("ack", &err);
                sent = now_ms();
            }
            out.count = 0;
            rc_arena_reset(&a);
            if (rc_pg_events_drain(ev, 1000, &a, &out, &err) != RC_OK) {
                rc = failed("drain", &err);
                break;
            }
            if (write_events(&out, &line)) return 1;
        }
        if (rc) break;
        if (msg.kind == RC_PGO_COMMIT || msg.kind == RC_PGO_STREAM_COMMIT) {
            last_end = msg.u.commit.end_lsn;
            /* every event of the transaction is written: its end is safe */
            fflush(stdout);
            if (rc_pg_stream_ack(c, last_end, &err) != RC_PG_OK) return failed("ack", &err);
            if (last_end >= until) break;
        }
        rc_arena_reset(&a);
    }
    fprintf(stderr, "stream chunks: %d, stream aborts: %d\n", chunks, aborts);
    fprintf(stderr, "spilled bytes at most: %" PRIu64 "\npeak RSS: %ld kB%s\n", spilled,
            peak_rss_kb(), SANITIZED);
    rc_buf_fini(&line);
    rc_event_list_fini(&out);
    rc_arena_fini(&a);
    rc_pg_events_free(ev);
    rc_pgo_free(d);
    rc_pg_types_free(reg);
    if (!rc && rc_pg_stream_stop(c, &err) != RC_PG_OK) rc = failed("stop", &err);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: pg_source_check setup|stream URL SLOT PUBLICATION [LSN "
                        "[SPILL_BYTES|off]]\n");
        return 2;
    }
    rc_pg_conn *c;
    rc_error err;
    rc_error_clear(&err);
    if (rc_pg_open(argv[2], NULL, &c, &err) != RC_PG_OK) return failed("open", &err);
    int rc = 0;
    if (!strcmp(argv[1], "setup")) {
        const char *inc[] = {"public.*"};
        bool created;
        rc_pg_slot s;
        if (rc_pg_publication_ensure(c, argv[4], inc, 1, false, &created, &err) != RC_PG_OK)
            rc = failed("publication", &err);
        else if (rc_pg_slot_ensure(c, argv[3], false, &s, &err) != RC_PG_OK)
            rc = failed("slot", &err);
    } else {
        uint64_t until;
        size_t spill = 0;
        if (argc > 6) spill = !strcmp(argv[6], "off") ? SIZE_MAX : strtoull(argv[6], NULL, 10);
        if (argc < 6 || !rc_pg_lsn_parse(argv[5], &until)) {
            fprintf(stderr, "stream needs an LSN\n");
            rc = 2;
        } else {
            rc = stream(c, argv[3], argv[4], until, spill);
        }
    }
    rc_pg_close(c);
    return rc;
}
