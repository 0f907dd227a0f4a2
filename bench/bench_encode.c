/* Encode benchmark: the same standard-workload events encoded by rowcast's native encoder
 * and by a jansson-based encoder that produces the same bytes, in one run. Prints events/s
 * for both and the ratio.
 * usage: bench_encode [--events N] [--rounds R] [--only native|jansson|none]
 * (--only is for callgrind: run one encoder, or none to measure the generation alone) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "formats/native.h"
#include "jansson_encoder.h"
#include "workload.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t run_native(const rc_event *evs, size_t n, rc_buf *b)
{
    size_t bytes = 0;
    rc_error err;
    rc_error_clear(&err);
    for (size_t i = 0; i < n; i++) {
        rc_buf_reset(b);
        native_encode(NULL, &evs[i], b, &err);
        bytes += b->len;
    }
    return bytes;
}

static size_t run_jansson(const rc_event *evs, size_t n)
{
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t len;
        char *s = jansson_encode(&evs[i], &len);
        bytes += len;
        free(s);
    }
    return bytes;
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
        else return fprintf(stderr, "usage: bench_encode [--events N] [--rounds R] [--only native|jansson|none]\n"), 2;
    }
    rc_arena a;
    rc_arena_init(&a);
    rc_event *evs = malloc(sizeof *evs * n);
    workload_make(WORKLOAD_SEED, n, &a, evs);
    rc_buf b;
    rc_buf_init(&b, 0);
    if (only) {
        size_t bytes = !strcmp(only, "native") ? run_native(evs, n, &b) : !strcmp(only, "jansson") ? run_jansson(evs, n) : 0;
        printf("%s: %zu events, %zu bytes\n", only, n, bytes);
        return 0;
    }
    /* Same bytes first: the comparison is only fair if both produce identical output. */
    rc_error err;
    rc_error_clear(&err);
    for (size_t i = 0; i < n; i++) {
        rc_buf_reset(&b);
        native_encode(NULL, &evs[i], &b, &err);
        size_t len;
        char *s = jansson_encode(&evs[i], &len);
        if (len != b.len || memcmp(s, b.data, len) != 0) {
            fprintf(stderr, "outputs differ at event %zu:\nnative:  %.*s\njansson: %s\n", i, (int)b.len, b.data, s);
            return 1;
        }
        free(s);
    }
    double best_n = 1e30, best_j = 1e30;
    size_t bytes = 0;
    for (int r = 0; r < rounds; r++) {
        double t0 = now();
        bytes = run_native(evs, n, &b);
        double t1 = now();
        run_jansson(evs, n);
        double t2 = now();
        if (t1 - t0 < best_n) best_n = t1 - t0;
        if (t2 - t1 < best_j) best_j = t2 - t1;
    }
    printf("workload: %zu events (seed %u, %d columns, 50%% insert / 40%% update / 10%% delete), %.1f bytes/event\n", n,
           WORKLOAD_SEED, WORKLOAD_COLS, (double)bytes / n);
    printf("native encoder : %12.0f events/s  %8.1f MB/s\n", n / best_n, bytes / best_n / 1e6);
    printf("jansson encoder: %12.0f events/s  %8.1f MB/s\n", n / best_j, bytes / best_j / 1e6);
    printf("ratio native/jansson: %.2fx (best of %d rounds, identical output checked)\n", best_j / best_n, rounds);
    rc_buf_fini(&b);
    rc_arena_fini(&a);
    free(evs);
    return 0;
}
