/* pg_min_client: the ceiling of bench/run_capture_pg.sh. The least a pgoutput reader can do:
 * START_REPLICATION with protocol version 1, read every CopyData with libpq until the end LSN,
 * acknowledge, and throw the messages away. It looks at one byte of each message (the kind,
 * to count row changes for the benchmark's check) and at the end LSN of each Commit.
 *
 * usage: pg_min_client URL SLOT PUBLICATION END_LSN
 *   URL: a libpq connection string or postgres:// URL (replication=database is added).
 *   Stops at the first Commit whose end LSN is at or past END_LSN, or at a keepalive at or past
 *   it outside a transaction (the server has sent everything before it). Prints one line:
 *   "inserts I updates U deletes D transactions T bytes B". */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <libpq-fe.h>

/* microseconds since 2000-01-01, the PostgreSQL epoch of standby status updates */
static int64_t pg_now(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return ((int64_t)tv.tv_sec - 946684800) * 1000000 + tv.tv_usec;
}

static uint64_t get64(const char *p)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | (unsigned char)p[i];
    return v;
}

static void put64(char *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--, v >>= 8) p[i] = (char)(v & 0xff);
}

static int die(PGconn *c, const char *what)
{
    fprintf(stderr, "pg_min_client: %s: %s", what, PQerrorMessage(c));
    PQfinish(c);
    return 1;
}

/* Standby status update: everything up to lsn written, flushed and applied. */
static int ack(PGconn *c, uint64_t lsn)
{
    char m[34];
    m[0] = 'r';
    put64(m + 1, lsn);
    put64(m + 9, lsn);
    put64(m + 17, lsn);
    put64(m + 25, (uint64_t)pg_now());
    m[33] = 0;
    return PQputCopyData(c, m, sizeof m) == 1 && PQflush(c) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: pg_min_client URL SLOT PUBLICATION END_LSN\n");
        return 2;
    }
    unsigned hi, lo;
    if (sscanf(argv[4], "%X/%X", &hi, &lo) != 2) {
        fprintf(stderr, "pg_min_client: %s is not an LSN (X/X)\n", argv[4]);
        return 2;
    }
    uint64_t end = (uint64_t)hi << 32 | lo;
    const char *keys[] = {"dbname", "replication", "application_name", NULL};
    const char *vals[] = {argv[1], "database", "pg_min_client", NULL};
    PGconn *c = PQconnectdbParams(keys, vals, 1);
    if (PQstatus(c) != CONNECTION_OK) return die(c, "connect");
    char q[512];
    snprintf(q, sizeof q,
             "START_REPLICATION SLOT \"%s\" LOGICAL 0/0 (proto_version '1', publication_names '%s')",
             argv[2], argv[3]);
    PGresult *r = PQexec(c, q);
    if (PQresultStatus(r) != PGRES_COPY_BOTH) {
        PQclear(r);
        return die(c, "START_REPLICATION");
    }
    PQclear(r);
    uint64_t n_ins = 0, n_upd = 0, n_del = 0, n_txn = 0, bytes = 0, acked = 0;
    int in_txn = 0;
    for (;;) {
        char *buf;
        int n = PQgetCopyData(c, &buf, 0);
        if (n == -1) break; /* the server ended the stream (it never does before END_LSN) */
        if (n < 0) return die(c, "PQgetCopyData");
        bytes += (uint64_t)n;
        int done = 0;
        if (buf[0] == 'w' && n > 25) {
            const char *m = buf + 25;
            switch (m[0]) {
            case 'I': n_ins++; break;
            case 'U': n_upd++; break;
            case 'D': n_del++; break;
            case 'B': in_txn = 1; break;
            case 'C':
                if (n < 25 + 18) break;
                in_txn = 0;
                n_txn++;
                acked = get64(m + 10);
                done = acked >= end;
                break;
            }
        } else if (buf[0] == 'k' && n >= 18) {
            uint64_t wal_end = get64(buf + 1);
            if (!in_txn && wal_end >= end) done = 1;
            else if (buf[17] && ack(c, acked) < 0) {
                PQfreemem(buf);
                return die(c, "status update");
            }
        }
        PQfreemem(buf);
        if (done) break;
    }
    if (ack(c, acked) < 0) return die(c, "status update");
    printf("inserts %" PRIu64 " updates %" PRIu64 " deletes %" PRIu64 " transactions %" PRIu64
           " bytes %" PRIu64 "\n",
           n_ins, n_upd, n_del, n_txn, bytes);
    PQfinish(c);
    return 0;
}
