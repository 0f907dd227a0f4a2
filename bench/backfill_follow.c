/* The consumer of bench/run_backfill.sh: follows a file that a rowcast file sink writes in the
 * native format (as `tail -f` does: reads to the end, waits 1 ms, reads again) and notes when
 * each line appeared in it (CLOCK_REALTIME at the read() that returned it).
 *  - op "read" lines (snapshot rows; the zero-row "incremental:start"/":end" edges left out):
 *    their count and the arrival of the first and the last, so rows/s = count / (last - first);
 *  - op insert/update/delete lines: the stream lag of each, arrival - ts_us (ts_us is the
 *    source's change time: PostgreSQL's commit timestamp, MariaDB's binlog event time);
 *    percentiles over the changes that arrived between the first and the last read (during the
 *    backfill) and over all of them.
 * It stops at the end of the file after SIGTERM or SIGINT, and prints one line:
 *   reads=N read_s=S rows_per_s=R changes=N during=N p50_ms=.. p99_ms=.. max_ms=.. all_p50_ms=.. all_p99_ms=..
 * usage: backfill_follow FILE */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    int64_t at, lag; /* arrival and lag, µs */
} sample;

typedef struct {
    long long reads;
    int64_t first_read, last_read;
    sample *s;
    size_t n, cap;
} follow;

static volatile sig_atomic_t stopping;

static void on_signal(int sig) { stopping = sig; }

static int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void line(follow *f, const char *l, int64_t at)
{
    if (!strncmp(l, "{\"op\":\"read\"", 12)) {
        if (strstr(l, "\"snapshot\":\"incremental:")) return;
        if (!f->reads++) f->first_read = at;
        f->last_read = at;
        return;
    }
    if (strncmp(l, "{\"op\":\"insert\"", 14) && strncmp(l, "{\"op\":\"update\"", 14) && strncmp(l, "{\"op\":\"delete\"", 14)) return;
    const char *ts = strstr(l, "\"ts_us\":");
    if (!ts) return;
    if (f->n == f->cap) {
        f->cap = f->cap ? f->cap * 2 : 4096;
        if (!(f->s = realloc(f->s, f->cap * sizeof *f->s))) {
            perror("backfill_follow");
            exit(1);
        }
    }
    f->s[f->n++] = (sample){at, at - strtoll(ts + 8, NULL, 10)};
}

static int by_lag(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* the p-th percentile (nearest rank, p in per mille) of v[0..n-1], sorted; ms */
static double pct_ms(const int64_t *v, size_t n, unsigned p)
{
    if (!n) return 0;
    size_t rank = (n * p + 999) / 1000;
    return (double)v[rank ? rank - 1 : 0] / 1000.0;
}

static void report(const follow *f)
{
    int64_t *during = malloc((f->n + 1) * sizeof *during), *all = malloc((f->n + 1) * sizeof *all);
    size_t nd = 0;
    if (!during || !all) {
        perror("backfill_follow");
        exit(1);
    }
    for (size_t i = 0; i < f->n; i++) {
        all[i] = f->s[i].lag;
        if (f->reads && f->s[i].at >= f->first_read && f->s[i].at <= f->last_read) during[nd++] = f->s[i].lag;
    }
    qsort(during, nd, sizeof *during, by_lag);
    qsort(all, f->n, sizeof *all, by_lag);
    double read_s = (double)(f->last_read - f->first_read) / 1e6;
    printf("reads=%lld read_s=%.2f rows_per_s=%.0f changes=%zu during=%zu p50_ms=%.0f p99_ms=%.0f max_ms=%.0f all_p50_ms=%.0f all_p99_ms=%.0f\n",
           f->reads, read_s, read_s > 0 ? (double)f->reads / read_s : 0.0, f->n, nd, pct_ms(during, nd, 500),
           pct_ms(during, nd, 990), nd ? (double)during[nd - 1] / 1000.0 : 0.0, pct_ms(all, f->n, 500), pct_ms(all, f->n, 990));
    free(during);
    free(all);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: backfill_follow FILE\n");
        return 2;
    }
    struct sigaction sa = {.sa_handler = on_signal};
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    int fd;
    while ((fd = open(argv[1], O_RDONLY)) < 0) {
        if (errno != ENOENT || stopping) {
            perror(argv[1]);
            return 1;
        }
        nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    follow f = {0};
    size_t cap = 1 << 20, len = 0;
    char *buf = malloc(cap + 1);
    if (!buf) return 1;
    for (;;) {
        if (len == cap && !(buf = realloc(buf, (cap *= 2) + 1))) return 1;
        ssize_t got = read(fd, buf + len, cap - len);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) {
            perror(argv[1]);
            return 1;
        }
        if (got == 0) {
            if (stopping) break;
            nanosleep(&(struct timespec){0, 1000000}, NULL);
            continue;
        }
        int64_t at = now_us();
        len += (size_t)got;
        char *p = buf, *nl;
        while ((nl = memchr(p, '\n', len - (size_t)(p - buf)))) {
            *nl = 0;
            line(&f, p, at);
            p = nl + 1;
        }
        len -= (size_t)(p - buf);
        memmove(buf, p, len);
    }
    report(&f);
    return 0;
}
