/* PostgreSQL capture path without a server, for callgrind (bench/callgrind_counts.sh): pgoutput
 * messages (protocol 1) as a server sends them for bench/capture_pg/workload.sql's 12-column
 * `orders` table, built in memory, then decoded (pgoutput.c), turned into events (pg_events.c)
 * and encoded, as pg_source does between the connection and the sink. The messages are a
 * function of their number only: transactions of 100 changes, half inserts of new ids, 40%
 * updates (the new row, no old key: the key does not change), 10% deletes of the oldest live row
 * (its key). Text values as PostgreSQL's output functions write them.
 *
 * usage: bench_pgoutput [--changes N] [--to FORMAT [-o KEY=VALUE]] [--build-only]
 *   --build-only: build the messages and stop (what callgrind_counts.sh subtracts). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../tests/unit/pg_msg_build.h"
#include "rowcast/format.h"
#include "sources/pg/pg_events.h"

enum { OID = 16385, TX = 100, NCOLS = 12 };

typedef struct stream {
    uint8_t *b;
    size_t n, cap;
    size_t *ends; /* ends[i]: the end of message i in b */
    size_t count, ends_cap;
} stream;

static void keep(stream *s, const mb *m)
{
    if (s->n + m->n > s->cap) s->b = realloc(s->b, s->cap = (s->cap + m->n) * 2);
    if (s->count == s->ends_cap)
        s->ends = realloc(s->ends, (s->ends_cap = s->ends_cap * 2 + 64) * sizeof *s->ends);
    if (!s->b || !s->ends) exit(1);
    memcpy(s->b + s->n, m->b, m->n);
    s->ends[s->count++] = s->n += m->n;
}

static void relation(stream *s)
{
    static const struct {
        const char *name;
        uint32_t type;
        int32_t mod;
    } cols[NCOLS] = {{"id", 20, -1},       {"c_int", 23, -1},
                     {"c_big", 20, -1},    {"c_num", 1700, (12 << 16 | 2) + 4},
                     {"c_text", 25, -1},   {"c_name", 1043, 68},
                     {"c_bool", 16, -1},   {"c_date", 1082, -1},
                     {"c_ts", 1114, 6},    {"c_tstz", 1184, 6},
                     {"c_json", 3802, -1}, {"c_bytes", 17, -1}};
    mb m = {0};
    u8(&m, 'R'), u32(&m, OID), str(&m, "public"), str(&m, "orders"), u8(&m, 'd'), u16(&m, NCOLS);
    for (int i = 0; i < NCOLS; i++)
        u8(&m, i == 0), str(&m, cols[i].name), u32(&m, cols[i].type),
            u32(&m, (uint32_t)cols[i].mod);
    keep(s, &m);
}

/* The new row of id g (v: how often it was updated) as a tuple: 'N' and 12 text columns. */
static void row(mb *m, int64_t g, int64_t v)
{
    char t[NCOLS][128];
    int64_t x = g * 7907 + v * 104729;
    snprintf(t[0], sizeof t[0], "%" PRId64, g);
    snprintf(t[1], sizeof t[1], "%" PRId64, (g * 7919 + v) % 2000001 - 1000000);
    snprintf(t[2], sizeof t[2], "%" PRId64, g * 1000003);
    snprintf(t[3], sizeof t[3], "%" PRId64 ".%02d", x % 10000000000 / 100, (int)(x % 100));
    snprintf(t[4], sizeof t[4], "row \"%" PRId64 "\"\t%.*s%016" PRIx64, g, (int)(g % 7) * 2,
             "üüüüüüü", (uint64_t)x * 0x9e3779b97f4a7c15u);
    snprintf(t[5], sizeof t[5], "name-%" PRId64, g);
    snprintf(t[6], sizeof t[6], "%s", g % 2 ? "f" : "t");
    snprintf(t[7], sizeof t[7], "20%02d-%02d-%02d", (int)(g % 30), (int)(g % 12 + 1),
             (int)(g % 28 + 1));
    snprintf(t[8], sizeof t[8], "2020-01-01 %02d:%02d:%02d.%06d", (int)(g % 24), (int)(g % 60),
             (int)(x % 60), (int)(g % 1000000));
    snprintf(t[9], sizeof t[9], "2020-01-01 %02d:%02d:%02d.%06d+00", (int)(x % 24), (int)(g % 60),
             (int)(g % 60), (int)(x % 1000000));
    snprintf(t[10], sizeof t[10], "{\"id\": %" PRId64 ", \"ok\": %s, \"tag\": \"x%d\"}", g,
             g % 3 ? "false" : "true", (int)(x % 100));
    snprintf(t[11], sizeof t[11], "\\x%016" PRIx64 "%016" PRIx64, (uint64_t)g * 0x9e3779b97f4a7c15u,
             (uint64_t)x);
    u8(m, 'N'), u16(m, NCOLS);
    for (int i = 0; i < NCOLS; i++) text(m, t[i]);
}

static void build(stream *s, size_t changes)
{
    int64_t lo = 1, next = 10001;
    uint32_t xid = 1000;
    int64_t t = 1000000; /* microseconds after 2000-01-01 */
    for (size_t done = 0; done < changes; xid++, t += 1000) {
        size_t first = s->count;
        mb m = {0};
        u8(&m, 'B'), u64(&m, 0), u64(&m, (uint64_t)t), u32(&m, xid); /* the final LSN: below */
        keep(s, &m);
        if (done == 0) relation(s);
        for (int k = 0; k < TX && done < changes; k++, done++) {
            m.n = 0;
            if (k % 10 < 5) {
                u8(&m, 'I'), u32(&m, OID), row(&m, next++, 0);
            } else if (k % 10 < 9) {
                int64_t g = lo + (int64_t)(done * 7919 % (uint64_t)(next - lo));
                u8(&m, 'U'), u32(&m, OID), row(&m, g, (int64_t)done);
            } else {
                u8(&m, 'D'), u32(&m, OID), u8(&m, 'K'), u16(&m, NCOLS);
                char id[24];
                snprintf(id, sizeof id, "%" PRId64, lo++);
                text(&m, id);
                for (int i = 1; i < NCOLS; i++) col(&m, 'n', NULL, 0);
            }
            keep(s, &m);
        }
        uint64_t commit = 0x1000000 + s->count * 0x100;
        for (int i = 0; i < 8; i++)
            s->b[(first ? s->ends[first - 1] : 0) + 1 + i] = (uint8_t)(commit >> (56 - 8 * i));
        m.n = 0;
        u8(&m, 'C'), u8(&m, 0), u64(&m, commit), u64(&m, commit + 0x30), u64(&m, (uint64_t)t);
        keep(s, &m);
    }
}

static void fail(const char *what, const rc_error *err)
{
    fprintf(stderr, "bench_pgoutput: %s: %s\n", what, err->message);
    exit(1);
}

int main(int argc, char **argv)
{
    size_t changes = 20000;
    const char *to = "native";
    rc_option opts[4];
    size_t nopts = 0;
    int build_only = 0;
    for (int i = 1; i < argc; i++) {
        char *eq;
        if (!strcmp(argv[i], "--changes") && i + 1 < argc)
            changes = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--to") && i + 1 < argc)
            to = argv[++i];
        else if (!strcmp(argv[i], "-o") && i + 1 < argc && nopts < 4 &&
                 (eq = strchr(argv[++i], '='))) {
            *eq = 0;
            opts[nopts++] = (rc_option){argv[i], eq + 1};
        } else if (!strcmp(argv[i], "--build-only"))
            build_only = 1;
        else
            return fprintf(stderr, "usage: bench_pgoutput [--changes N] [--to FORMAT [-o "
                                   "KEY=VALUE]...] [--build-only]\n"),
                   2;
    }
    stream s = {0};
    build(&s, changes);
    if (build_only) return printf("%zu messages\n", s.count), 0;

    rc_error err;
    rc_error_clear(&err);
    const rc_format *f = rc_format_find(to);
    rc_options o = {opts, nopts};
    void *enc = NULL;
    if (!f || f->enc_new(&o, &enc, &err) != RC_OK) fail(to, &err);
    rc_pgo_decoder *d = rc_pgo_new(1);
    rc_pg_events *e = rc_pg_events_new(&(rc_pg_events_opts){.server = "pg1", .db = "bench"}, NULL);
    if (!d || !e) return 1;
    rc_arena a;
    rc_arena_init(&a);
    rc_event_list out = {0};
    rc_buf b;
    rc_buf_init(&b, 0);
    size_t events = 0, written = 0, bytes = 0;
    for (size_t i = 0, at = 0; i < s.count; at = s.ends[i++]) {
        rc_pgo_msg msg;
        size_t len = s.ends[i] - at;
        uint64_t lsn = 0x1000000 + i * 0x100;
        if (rc_pgo_decode(d, s.b + at, len, lsn, &a, &msg, &err) != RC_OK) fail("pgoutput", &err);
        if (rc_pg_events_add(e, &msg, s.b + at, len, &a, &out, &err) != RC_OK)
            fail("pg_events", &err);
        for (size_t k = 0; k < out.count; k++) {
            rc_buf_reset(&b);
            rc_status st = f->encode_value(enc, &out.items[k], &b, &err);
            if (st != RC_OK && st != RC_SKIP) fail(to, &err); /* SKIP: no message (a BEGIN) */
            bytes += st == RC_OK ? b.len : 0;
            written += st == RC_OK;
        }
        events += out.count;
        out.count = 0;
        if (s.b[at] == 'C') rc_arena_reset(&a); /* the transaction's events are written */
    }
    printf("%zu messages, %zu events, %zu messages of %s (%zu bytes)\n", s.count, events, written,
           to, bytes);
    rc_buf_fini(&b);
    rc_event_list_fini(&out);
    rc_arena_fini(&a);
    rc_pg_events_free(e);
    rc_pgo_free(d);
    f->enc_free(enc);
    free(s.b);
    free(s.ends);
    return 0;
}
