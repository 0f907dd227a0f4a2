/* Encode benchmark: the standard workload encoded by every registered format in one run
 * (events/s, MB/s), and three formats side by side with a jansson-based encoder that produces
 * the same bytes (checked before timing): native, canal (Canal flavour) and debezium.
 *
 * usage: bench_encode [--events N] [--rounds R] [--only TARGET]
 *   --only runs one target once, for callgrind: a format spec (see `targets` below), a peer
 *   (jansson-native, jansson-canal, jansson-debezium) or none (workload generation only). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "jansson_encoder.h"
#include "rowcast/format.h"
#include "workload.h"

typedef struct target {
    const char *label;
    const char *format;
    rc_option opts[2]; /* up to two -o options; key NULL when unused */
} target;

/* Every format, and the option variants the issues measure. */
static const target targets[] = {
    {"native", "native", {{0}}},
    {"default", "default", {{0}}},
    {"defaultextendcolumntype", "defaultextendcolumntype", {{0}}},
    {"canal", "canal", {{"canal.flavor", "oms"}}}, /* oms-canal: OMS's flavour, as measured before the names changed */
    {"canal (canal flavour)", "canal", {{"canal.flavor", "canal"}}},
    {"dataworks", "dataworks", {{0}}},
    {"shareplex", "shareplex", {{0}}},
    {"debezium", "debezium", {{"debezium.flavor", "oms"}}}, /* oms-debezium */
    {"debezium (schemas)", "debezium", {{"debezium.flavor", "oms"}, {"debezium.schemas", "true"}}},
    {"debeziumflatten", "debeziumflatten", {{0}}},
    {"debeziumsmt", "debeziumsmt", {{0}}},
    {"avro (raw)", "avro", {{"avro.framing", "raw"}}},
    {"avro-json", "avro-json", {{0}}},
    {"drs-json", "drs-json", {{0}}},
    {"cloudevents", "cloudevents", {{0}}},
    {"debezium upstream", "debezium", {{"debezium.flavor", "upstream"}}},
    {"debezium upstream (schemas)", "debezium", {{"debezium.flavor", "upstream"}, {"debezium.schemas", "true"}}},
    /* without commit info: the row is written at once (with it, the pipeline releases a held row
     * when the next event comes, which this loop of bare encode calls does not do) */
    {"maxwell", "maxwell", {{"maxwell.output_commit_info", "false"}}},
    {"ogg-json", "ogg-json", {{0}}},
};
enum { NTARGETS = sizeof targets / sizeof *targets };

typedef char *(*peer_fn)(const rc_event *, size_t *);
static const struct {
    const char *label;
    peer_fn fn;
    int target; /* index in targets */
} peers[] = {
    {"jansson-native", jansson_encode, 0},
    {"jansson-canal", jansson_encode_canal, 4},
    {"jansson-debezium", jansson_encode_debezium, 7},
};
enum { NPEERS = sizeof peers / sizeof *peers };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *open_encoder(const target *t, const rc_format **f)
{
    *f = rc_format_find(t->format);
    rc_options o = {t->opts, t->opts[1].key ? 2 : t->opts[0].key ? 1 : 0};
    void *enc = NULL;
    rc_error err;
    rc_error_clear(&err);
    if (!*f || (*f)->enc_new(&o, &enc, &err) != RC_OK) {
        fprintf(stderr, "bench_encode: %s: %s\n", t->label, err.message);
        exit(1);
    }
    return enc;
}

/* Every event of the workload must be written: an encoder that refuses or holds events would
 * be timed doing nothing (a datetime finer than OMS Debezium's milliseconds once made that
 * target encode no event at all, unnoticed). */
static void encoded(const target *t, rc_status st, size_t i, rc_error *err)
{
    if (st == RC_OK) return;
    fprintf(stderr, "bench_encode: %s did not write event %zu (%s): %s\n", t->label, i, rc_status_name(st), err->message);
    exit(1);
}

/* Encodes every event once; returns the bytes written. */
static size_t run_format(const target *t, const rc_event *evs, size_t n, rc_buf *b)
{
    const rc_format *f;
    void *enc = open_encoder(t, &f);
    size_t bytes = 0;
    rc_error err;
    rc_error_clear(&err);
    for (size_t i = 0; i < n; i++) {
        rc_buf_reset(b);
        encoded(t, f->encode_value(enc, &evs[i], b, &err), i, &err);
        bytes += b->len;
    }
    f->enc_free(enc);
    return bytes;
}

static size_t run_peer(peer_fn fn, const rc_event *evs, size_t n)
{
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        char *s = fn(&evs[i], &len);
        bytes += len;
        free(s);
    }
    return bytes;
}

/* The peer must write exactly what the format writes, or the comparison means nothing. */
static void check_same(int p, const rc_event *evs, size_t n, rc_buf *b)
{
    const target *t = &targets[peers[p].target];
    const rc_format *f;
    void *enc = open_encoder(t, &f);
    rc_error err;
    rc_error_clear(&err);
    for (size_t i = 0; i < n; i++) {
        rc_buf_reset(b);
        encoded(t, f->encode_value(enc, &evs[i], b, &err), i, &err);
        size_t len;
        char *s = peers[p].fn(&evs[i], &len);
        if (len != b->len || memcmp(s, b->data, len) != 0) {
            fprintf(stderr, "%s and %s differ at event %zu:\nrowcast: %.*s\njansson: %s\n", t->label, peers[p].label, i,
                    (int)b->len, b->data, s);
            exit(1);
        }
        free(s);
    }
    f->enc_free(enc);
}

int main(int argc, char **argv)
{
    size_t n = 200000;
    int rounds = 5;
    const char *only = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--events") && i + 1 < argc) n = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--rounds") && i + 1 < argc) rounds = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--only") && i + 1 < argc) only = argv[++i];
        else if (!strcmp(argv[i], "--list")) {
            for (int k = 0; k < NTARGETS; k++) printf("%s\n", targets[k].label);
            for (int k = 0; k < NPEERS; k++) printf("%s\n", peers[k].label);
            return 0;
        } else {
            return fprintf(stderr, "usage: bench_encode [--events N] [--rounds R] [--only TARGET|none] [--list]\n"), 2;
        }
    }
    rc_arena a;
    rc_arena_init(&a);
    rc_event *evs = malloc(sizeof *evs * n);
    workload_make(WORKLOAD_SEED, n, &a, evs);
    rc_buf b;
    rc_buf_init(&b, 0);
    if (only) {
        size_t bytes = 0;
        for (int k = 0; k < NTARGETS; k++)
            if (!strcmp(only, targets[k].label)) bytes = run_format(&targets[k], evs, n, &b);
        for (int k = 0; k < NPEERS; k++)
            if (!strcmp(only, peers[k].label)) bytes = run_peer(peers[k].fn, evs, n);
        printf("%s: %zu events, %zu bytes\n", only, n, bytes);
        return 0;
    }
    for (int p = 0; p < NPEERS; p++) check_same(p, evs, n, &b);

    double best[NTARGETS], pbest[NPEERS];
    size_t bytes[NTARGETS];
    for (int k = 0; k < NTARGETS; k++) best[k] = 1e30;
    for (int k = 0; k < NPEERS; k++) pbest[k] = 1e30;
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < NTARGETS; k++) {
            double t0 = now();
            bytes[k] = run_format(&targets[k], evs, n, &b);
            double t = now() - t0;
            if (t < best[k]) best[k] = t;
        }
        for (int k = 0; k < NPEERS; k++) {
            double t0 = now();
            run_peer(peers[k].fn, evs, n);
            double t = now() - t0;
            if (t < pbest[k]) pbest[k] = t;
        }
    }
    printf("workload: %zu events (seed %u, %d columns, 50%% insert / 40%% update / 10%% delete), best of %d rounds\n", n,
           WORKLOAD_SEED, WORKLOAD_COLS, rounds);
    printf("%-26s %12s %9s %9s\n", "format", "events/s", "MB/s", "bytes/ev");
    for (int k = 0; k < NTARGETS; k++)
        printf("%-26s %12.0f %9.1f %9.1f\n", targets[k].label, n / best[k], bytes[k] / best[k] / 1e6, (double)bytes[k] / n);
    printf("\npeers (same bytes, checked):\n");
    for (int k = 0; k < NPEERS; k++)
        printf("%-26s %12.0f events/s   rowcast %s is %.2fx faster\n", peers[k].label, n / pbest[k],
               targets[peers[k].target].label, pbest[k] / best[peers[k].target]);
    printf("\ndebezium schemas on / off: %.2fx the time (OMS flavour), %.2fx (upstream)\n", best[8] / best[7],
           best[NTARGETS - 1] / best[NTARGETS - 2]);
    rc_buf_fini(&b);
    rc_arena_fini(&a);
    free(evs);
    return 0;
}
