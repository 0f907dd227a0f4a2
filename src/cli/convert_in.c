/* The input side of `convert`: reads lines of each input file into batches and decodes them,
 * on a thread of its own when there are two (see convert.h). */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "cli/cli.h"
#include "cli/convert.h"
#include "rowcast/sniff.h"

/* True when `off` is within the file and a line starts there (the byte before is '\n'); leaves
 * the stream positioned at `off`. */
static bool at_line_start(FILE *in, uint64_t off)
{
    return fseeko(in, (off_t)off - 1, SEEK_SET) == 0 && fgetc(in) == '\n' && fseeko(in, (off_t)off, SEEK_SET) == 0;
}

/* Opens the next input: EXIT_OK, -1 when there is none, or a status after a message. */
static int open_next(conv *c)
{
    if (c->file_i == c->nfiles) return -1;
    const char *f = c->files[c->file_i++];
    bool is_stdin = !strcmp(f, "-");
    c->in = is_stdin ? stdin : fopen(f, "rb");
    c->in_name = is_stdin ? "<stdin>" : f;
    c->in_off = c->in_line = 0;
    if (!c->in) {
        fprintf(stderr, "rowcast convert: cannot open %s: %s\n", f, strerror(errno));
        return EXIT_IO;
    }
    struct stat st;
    c->in_may_wait = fstat(fileno(c->in), &st) != 0 || !S_ISREG(st.st_mode); /* pipes, terminals */
    /* a file: big reads (stdio's 4 KiB made 25,000 read calls per 100 MB); one input is open at a
     * time, and the buffer outlives it (stdin is never closed) */
    static char in_buf[IN_BUF];
    if (!c->in_may_wait) setvbuf(c->in, in_buf, _IOFBF, sizeof in_buf);
    if (c->start_off) { /* resuming from a checkpoint (one input file) */
        if (!at_line_start(c->in, c->start_off)) {
            fprintf(stderr, "rowcast convert: checkpoint %s: offset %llu is not the start of a line of %s (a changed or "
                    "shorter input?)\n", c->ck_path, (unsigned long long)c->start_off, f);
            return EXIT_USAGE;
        }
        c->in_off = c->start_off, c->in_line = c->start_line;
    }
    return EXIT_OK;
}

static void close_input(conv *c)
{
    if (c->in && c->in != stdin) fclose(c->in);
    c->in = NULL;
}

/* False when reading now would wait (a pipe or terminal with nothing in it): the batch so far is
 * handed over instead, so lines arriving slowly are converted as they come. */
static bool input_ready(FILE *in)
{
    struct pollfd p = {.fd = fileno(in), .events = POLLIN};
    return poll(&p, 1, 0) != 0;
}

/* Appends one line read into b; false when memory runs out. */
static bool add_line(conv *c, batch *b, const char *line, size_t got)
{
    if (b->len + got > b->cap) {
        size_t cap = b->cap ? b->cap : BATCH_BYTES;
        while (cap < b->len + got) cap *= 2;
        char *t = realloc(b->text, cap);
        if (!t) return false;
        b->text = t, b->cap = cap;
    }
    memcpy(b->text + b->len, line, got);
    in_line *ln = &b->lines[b->n++];
    size_t n = got;
    if (n && line[n - 1] == '\n') n--;
    if (n && line[n - 1] == '\r') n--;
    size_t k = 0;
    while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
    *ln = (in_line){.file = c->in_name, .off = b->len, .raw = got, .n = n, .lineno = ++c->in_line,
                    .file_off = c->in_off, .end_off = c->in_off + got, .blank = k == n};
    c->in_off += got;
    b->len += got;
    return true;
}

/* Appends to a refused line's message what the line looks like, when that is recognisable
 * (rowcast/sniff.h). The hint is the part that says what to do: when both do not fit, the
 * message is shortened, visibly ("..."), not the hint. */
static void add_hint(const conv *c, const batch *b, in_line *ln)
{
    char hint[160];
    if (!rc_sniff_hint(c->from, c->opts, b->text + ln->off, ln->n, &ln->err, hint, sizeof hint)) return;
    char *m = ln->err.message;
    size_t room = sizeof ln->err.message, ml = strlen(m), hl = strlen(hint);
    if (ml + 2 + hl >= room) {
        ml = room - 2 - hl - 4;
        while (ml && (m[ml] & 0xC0) == 0x80) ml--; /* not inside a UTF-8 sequence */
        memcpy(m + ml, "...", 4);
        ml += 3;
    }
    snprintf(m + ml, room - ml, "; %s", hint);
}

/* Reads up to a batch of lines, then decodes them (the text no longer moves). */
static void fill(conv *c, batch *b)
{
    b->len = b->n = 0;
    b->last = false;
    b->rc = EXIT_OK;
    while (b->n < BATCH_LINES && b->len < BATCH_BYTES) {
        if (convert_stop_signal) {
            b->last = true;
            break;
        }
        if (c->in && c->in_may_wait && b->n && !input_ready(c->in)) break;
        if (!c->in) {
            int st = open_next(c);
            if (st != EXIT_OK) {
                b->last = true;
                if (st > 0) b->rc = st;
                break;
            }
        }
        ssize_t got = getline(&c->linebuf, &c->linecap, c->in);
        if (got <= 0) {
            if (ferror(c->in) && errno != EINTR) {
                fprintf(stderr, "rowcast: reading %s: %s\n", c->in_name, strerror(errno));
                b->rc = EXIT_IO, b->last = true;
            }
            close_input(c);
            if (b->last) break;
            continue;
        }
        if (!add_line(c, b, c->linebuf, (size_t)got)) {
            fprintf(stderr, "rowcast: out of memory reading %s\n", c->in_name);
            b->rc = EXIT_IO, b->last = true;
            break;
        }
    }
    rc_arena_reset(&b->arena);
    b->events.count = 0;
    for (size_t i = 0; i < b->n; i++) {
        in_line *ln = &b->lines[i];
        ln->ev_first = b->events.count;
        rc_error_clear(&ln->err);
        size_t rejected = b->events.rejected;
        ln->st = ln->blank ? RC_OK : c->from->decode(c->dec, b->text + ln->off, ln->n, &b->arena, &b->events, &ln->err);
        ln->filtered = b->events.rejected != rejected;
        if (ln->st != RC_OK) {
            b->events.count = ln->ev_first; /* a failed line keeps no events */
            add_hint(c, b, ln);
        }
        ln->ev_count = b->events.count - ln->ev_first;
    }
}

static void unlock(void *mu) { pthread_mutex_unlock(mu); }

/* The reader thread: fills free batches and queues them, in order, until the input ends or
 * the output side stops it. */
static void *reader_main(void *arg)
{
    conv *c = arg;
    for (;;) {
        pthread_mutex_lock(&c->mu);
        pthread_cleanup_push(unlock, &c->mu);
        while (!c->free_count && !c->stop) pthread_cond_wait(&c->cv, &c->mu);
        pthread_cleanup_pop(0);
        if (c->stop) {
            pthread_mutex_unlock(&c->mu);
            return NULL;
        }
        size_t i = c->free_q[c->free_head];
        c->free_head = (c->free_head + 1) % BATCHES, c->free_count--;
        pthread_mutex_unlock(&c->mu);
        batch *b = &c->batches[i];
        fill(c, b);
        pthread_mutex_lock(&c->mu);
        c->full_q[(c->full_head + c->full_count) % BATCHES] = i, c->full_count++;
        pthread_cond_broadcast(&c->cv);
        pthread_mutex_unlock(&c->mu);
        if (b->last) return NULL;
    }
}

int convert_input_start(conv *c)
{
    for (size_t i = 0; i < BATCHES; i++) {
        batch *b = &c->batches[i];
        rc_arena_init(&b->arena);
        b->lines = calloc(BATCH_LINES, sizeof *b->lines);
        if (!b->lines) {
            fprintf(stderr, "rowcast convert: out of memory\n");
            return EXIT_IO;
        }
        if (c->ninclude) b->events.accept = convert_table_included, b->events.accept_ctx = c;
        c->free_q[i] = i;
    }
    c->free_count = BATCHES;
    if (!c->threaded) return EXIT_OK;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    if (pthread_create(&c->reader, NULL, reader_main, c) != 0) {
        c->threaded = false; /* go on with one thread */
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->cv);
    }
    return EXIT_OK;
}

batch *convert_input_next(conv *c)
{
    if (!c->threaded) {
        fill(c, &c->batches[0]);
        return &c->batches[0];
    }
    pthread_mutex_lock(&c->mu);
    while (!c->full_count) {
        if (convert_stop_signal) { /* the reader may be waiting for input that never comes */
            pthread_mutex_unlock(&c->mu);
            return NULL;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 100 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&c->cv, &c->mu, &until);
    }
    size_t i = c->full_q[c->full_head];
    c->full_head = (c->full_head + 1) % BATCHES, c->full_count--;
    pthread_mutex_unlock(&c->mu);
    return &c->batches[i];
}

void convert_input_done(conv *c, batch *b)
{
    if (!c->threaded) return;
    pthread_mutex_lock(&c->mu);
    c->free_q[(c->free_head + c->free_count) % BATCHES] = (size_t)(b - c->batches), c->free_count++;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

void convert_input_stop(conv *c)
{
    if (c->threaded) {
        pthread_mutex_lock(&c->mu);
        c->stop = true;
        pthread_cond_broadcast(&c->cv);
        pthread_mutex_unlock(&c->mu);
        /* a reader blocked on a pipe that never ends must not keep rowcast alive */
        pthread_cancel(c->reader);
        pthread_join(c->reader, NULL);
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->cv);
        c->threaded = false;
    }
    close_input(c);
    free(c->linebuf);
    c->linebuf = NULL;
    for (size_t i = 0; i < BATCHES; i++) {
        batch *b = &c->batches[i];
        free(b->text);
        free(b->lines);
        rc_arena_fini(&b->arena);
        rc_event_list_fini(&b->events);
        memset(b, 0, sizeof *b);
    }
}
