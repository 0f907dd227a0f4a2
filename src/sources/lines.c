/* The lines source (rowcast/source.h): reads the lines of each input file (or stdin) into
 * batches and decodes them with the input format, on a thread of its own with --threads 2.
 *
 * A batch holds up to RC_BATCH_ITEMS lines, their text, and the events the decoder made of
 * them (in the batch's arena); the pipeline takes batches in order and handles their lines in
 * order. With two threads the next batch is decoded while the last one is encoded: the
 * decoder's state is touched only here, the encoder's and the sink's only by the pipeline, and
 * a batch passes between them under a mutex. When the input is a pipe or terminal with nothing
 * more to read, the batch so far is handed over, so a slow stream is converted line by line as
 * it comes. Its position is the byte offset of the next line and the number of the last.
 *
 * An item is a line, with two exceptions for files that people save rather than streams that
 * tools send (the peers' fixtures are such files): a pretty-printed JSON message is one item
 * over all its lines (see continues_message), and a comment block between messages ("/" "*" to
 * "*" "/", the licence header of a test fixture) is one item the pipeline skips like a blank
 * line and the summary counts. */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include "sources/records_in.h"
#include "formats/sniff.h"
#include "rowcast/source.h"
#include "core/thread.h"
#include "core/log.h"

enum { BATCH_BYTES = 1 << 20, BATCHES = 3, IN_BUF = 1 << 20 };

typedef struct lines_source {
    rc_source base;
    rc_source_config cfg;
    const char *const *files;
    size_t nfiles, file_i;
    FILE *in;
    const char *in_name;
    uint64_t in_off, in_line;
    bool in_may_wait; /* the input is a pipe or terminal: reading may block */
    char *linebuf; /* getline's */
    size_t linecap;
    ssize_t pending; /* > 0: linebuf holds a line read but not yet used (it began a new message) */
    char *morebuf; /* the next line of a record that goes on (records layout) */
    size_t morecap;
    uint64_t start_off, start_line; /* from the checkpoint */
    bool threaded;
    pthread_t reader;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    rc_batch batches[BATCHES];
    size_t full_head, full_count, free_head, free_count; /* two FIFO rings of batch indexes */
    size_t full_q[BATCHES], free_q[BATCHES];
    bool stop; /* the pipeline wants no more batches */
} lines_source;

/* True when `off` is within the file and a line starts there (the byte before is '\n'); leaves
 * the stream positioned at `off`. */
static bool at_line_start(FILE *in, uint64_t off)
{
    return fseeko(in, (off_t)off - 1, SEEK_SET) == 0 && fgetc(in) == '\n' && fseeko(in, (off_t)off, SEEK_SET) == 0;
}

/* Opens the next input: RC_EXIT_OK, -1 when there is none, or a status after a message. */
static int open_next(lines_source *c)
{
    if (c->file_i == c->nfiles) return -1;
    const char *f = c->files[c->file_i++];
    bool is_stdin = !strcmp(f, "-");
    c->in = is_stdin ? stdin : fopen(f, "rb");
    c->in_name = is_stdin ? "<stdin>" : f;
    c->in_off = c->in_line = 0;
    if (!c->in) {
        rc_logf("rowcast convert: cannot open %s: %s\n", f, strerror(errno));
        return RC_EXIT_IO;
    }
    struct stat st;
    c->in_may_wait = fstat(fileno(c->in), &st) != 0 || !S_ISREG(st.st_mode); /* pipes, terminals */
    /* a file: big reads (stdio's 4 KiB made 25,000 read calls per 100 MB); one input is open at a
     * time, and the buffer outlives it (stdin is never closed) */
    static char in_buf[IN_BUF];
    if (!c->in_may_wait) setvbuf(c->in, in_buf, _IOFBF, sizeof in_buf);
    if (c->start_off) { /* resuming from a checkpoint (one input file) */
        if (!at_line_start(c->in, c->start_off)) {
            rc_logf("rowcast convert: checkpoint %s: offset %llu is not the start of a line of %s (a changed or "
                    "shorter input?)\n", c->cfg.resume_name, (unsigned long long)c->start_off, f);
            return RC_EXIT_USAGE;
        }
        c->in_off = c->start_off, c->in_line = c->start_line;
    }
    return RC_EXIT_OK;
}

static void close_input(lines_source *c)
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

/* The records layout: a key or value may hold newlines, its length says where it ends. Appends
 * the lines that belong to the record read (got bytes in linebuf) and counts them in *extra;
 * -1 when memory runs out. */
static ssize_t record_lines(lines_source *c, ssize_t got, uint64_t *extra)
{
    *extra = 0;
    while (rc_record_short(c->linebuf, (size_t)got)) {
        ssize_t more = getline(&c->morebuf, &c->morecap, c->in);
        if (more <= 0) break; /* a record cut short: its parse says so */
        if ((size_t)(got + more) + 1 > c->linecap) {
            char *t = realloc(c->linebuf, (size_t)(got + more) + 1);
            if (!t) return -1;
            c->linebuf = t, c->linecap = (size_t)(got + more) + 1;
        }
        memcpy(c->linebuf + got, c->morebuf, (size_t)more + 1);
        got += more;
        (*extra)++;
    }
    return got;
}

/* The next line of the input, in linebuf: the pending one, or one read now. */
static ssize_t read_line(lines_source *c)
{
    ssize_t got = c->pending;
    if (got > 0) {
        c->pending = 0;
        return got;
    }
    return getline(&c->linebuf, &c->linecap, c->in);
}

/* The brackets of a JSON text still open after the bytes seen, strings skipped. */
typedef struct json_depth {
    long depth;
    bool in_str, esc;
} json_depth;

static void json_depth_scan(json_depth *s, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char ch = p[i];
        if (s->in_str) {
            if (s->esc) s->esc = false;
            else if (ch == '\\') s->esc = true;
            else if (ch == '"') s->in_str = false;
        } else if (ch == '"') {
            s->in_str = true;
        } else if (ch == '{' || ch == '[') {
            s->depth++;
        } else if (ch == '}' || ch == ']') {
            s->depth--;
        }
    }
}

/* The first and last bytes of a line that are not white space: false for a blank line. */
static bool line_ends(const char *p, size_t n, size_t *first, size_t *last)
{
    size_t a = 0, z = n;
    while (a < z && (p[a] == ' ' || p[a] == '\t')) a++;
    while (z > a && (p[z - 1] == ' ' || p[z - 1] == '\t' || p[z - 1] == '\n' || p[z - 1] == '\r')) z--;
    if (a == z) return false;
    *first = a, *last = z - 1;
    return true;
}

/* True when a line starts a JSON message that a pretty-printer broke over several lines: it
 * opens an object or array and ends where no message can end, after "{", "[", "," or ":" (jq,
 * Jackson, json.dumps and Go's MarshalIndent all break lines there). A one-line message ends
 * with "}" and is never scanned; a line cut short by accident mostly ends elsewhere, so it
 * stays one bad line instead of swallowing the next message. */
static bool continues_message(const char *p, size_t n)
{
    size_t a, z;
    if (!line_ends(p, n, &a, &z) || (p[a] != '{' && p[a] != '[')) return false;
    char e = p[z];
    return e == '{' || e == '[' || e == ',' || e == ':';
}

/* Where the end of a comment ("*" "/") in p[0..n) is, just after it; NULL when p holds none. */
static const char *comment_end(const char *p, size_t n)
{
    for (const char *q; n >= 2 && (q = memchr(p, '*', n - 1)); n -= (size_t)(q + 1 - p), p = q + 1)
        if (q[1] == '/') return q + 2;
    return NULL;
}

/* A line that begins with c0 c1 after its blanks (*at: where): "/" "*" begins a comment block
 * outside a message, "*" "/" ends one. */
static bool starts_with(const char *p, size_t n, char c0, char c1, size_t *at)
{
    size_t z;
    return line_ends(p, n, at, &z) && z > *at && p[*at] == c0 && p[*at + 1] == c1;
}

/* Appends one line read into b (to its last item when `join`: the next line of a message
 * or comment over several lines); false when memory runs out. */
static bool add_line(lines_source *c, rc_batch *b, const char *line, size_t got, bool join)
{
    if (b->len + got > b->cap) {
        size_t cap = b->cap ? b->cap : BATCH_BYTES;
        while (cap < b->len + got) cap *= 2;
        char *t = realloc(b->text, cap);
        if (!t) return false;
        b->text = t, b->cap = cap;
    }
    memcpy(b->text + b->len, line, got);
    if (join) {
        rc_source_item *ln = &b->lines[b->n - 1];
        size_t n = got;
        if (n && line[n - 1] == '\n') n--;
        if (n && line[n - 1] == '\r') n--;
        ln->n = ln->raw + n, ln->raw += got, ln->end_off += got, ln->lines++;
        ln->end = rc_pos_lines(ln->end_off, ++c->in_line);
        c->in_off += got;
        b->len += got;
        return true;
    }
    rc_source_item *ln = &b->lines[b->n++];
    size_t n = got;
    if (n && line[n - 1] == '\n') n--;
    if (n && line[n - 1] == '\r') n--;
    size_t k = 0;
    while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
    *ln = (rc_source_item){.file = c->in_name, .off = b->len, .raw = got, .n = n, .lineno = ++c->in_line,
                    .file_off = c->in_off, .end_off = c->in_off + got, .blank = k == n, .lines = 1,
                    .order = {.a = c->in_off, .src = 'l'}};
    ln->end = rc_pos_lines(ln->end_off, ln->lineno);
    c->in_off += got;
    b->len += got;
    return true;
}

/* Appends to a refused line's message what the line looks like, when that is recognisable
 * (formats/sniff.h). The hint is the part that says what to do: when both do not fit, the
 * message is shortened, visibly ("..."), not the hint. */
static void add_hint(const lines_source *c, const rc_batch *b, rc_source_item *ln)
{
    char hint[160];
    if (!rc_sniff_hint(c->cfg.from, c->cfg.opts, b->text + ln->off, ln->n, &ln->err, hint, sizeof hint)) return;
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

/* After the first line of an item: the rest of a message or comment that goes on over the
 * next lines. A message ends where its brackets close; a line that starts at its first byte
 * with "{" or "[" while they are still open is the next message (a pretty-printer indents
 * what is inside), so a message cut short stays one bad item and the next is read as it is.
 * False when memory runs out. */
static bool add_rest(lines_source *c, rc_batch *b)
{
    rc_source_item *ln = &b->lines[b->n - 1];
    const char *first = b->text + ln->off;
    /* no message starts so: the end of a comment whose lines that start with "{" or "[" were
     * read as messages (a comment never holds one, docs/cli.md); a bad item that says so */
    size_t at;
    if (starts_with(first, ln->n, '*', '/', &at)) {
        ln->comment_fault = RC_COMMENT_STRAY_END, ln->comment_at = at;
        return true;
    }
    if (starts_with(first, ln->n, '/', '*', &at)) {
        /* a comment block: skipped only when it closes and nothing follows it on its last line;
         * otherwise the item is bad and says why (comment_fault), so no message is lost unseen */
        ln->comment = true;
        size_t from = (size_t)((const char *)memchr(first, '*', ln->n) - first) + 1;
        const char *end;
        while (!(end = comment_end(first + from, ln->n - from))) {
            ssize_t got = read_line(c);
            if (got <= 0) { /* the input ended inside it */
                ln->comment_fault = RC_COMMENT_UNCLOSED_END;
                return true;
            }
            if (c->linebuf[0] == '{' || c->linebuf[0] == '[') { /* a message: the comment was not closed before it */
                c->pending = got;
                ln->comment_fault = RC_COMMENT_UNCLOSED_NEXT;
                return true;
            }
            from = ln->raw;
            if (!add_line(c, b, c->linebuf, (size_t)got, true)) return false;
            first = b->text + ln->off;
        }
        size_t k = (size_t)(end - first);
        while (k < ln->n && (first[k] == ' ' || first[k] == '\t' || first[k] == '\r')) k++;
        if (k < ln->n) ln->comment_fault = RC_COMMENT_TEXT_AFTER, ln->comment_at = k;
        else ln->blank = true;
        return true;
    }
    if (!continues_message(first, ln->n)) return true;
    json_depth d = {0};
    json_depth_scan(&d, first, ln->n);
    while (d.depth > 0) {
        ssize_t got = read_line(c);
        if (got <= 0) return true; /* the input ended inside it: the decoder says where */
        if (!d.in_str && (c->linebuf[0] == '{' || c->linebuf[0] == '[')) {
            c->pending = got;
            return true;
        }
        if (!add_line(c, b, c->linebuf, (size_t)got, true)) return false;
        ln->pretty = true;
        json_depth_scan(&d, c->linebuf, (size_t)got);
    }
    return true;
}

/* A comment block that could not be skipped: never closed, or closed with text after it; or
 * the end of one with none open. */
static rc_status comment_error(rc_source_item *ln)
{
    switch (ln->comment_fault) {
    case RC_COMMENT_UNCLOSED_END:
        return rc_error_set(&ln->err, RC_ERR_SYNTAX, 0, "a comment (/*) that is not closed before the end of the input: close it with */");
    case RC_COMMENT_UNCLOSED_NEXT: /* that message is the line after the comment's last */
        return rc_error_set(&ln->err, RC_ERR_SYNTAX, 0,
                            "a comment (/*) that is not closed before the next message (line %llu starts with '{' or '['): "
                            "close it with */ before that line; a line that starts so is read as a message, also in a "
                            "comment (indent it to keep it there)",
                            (unsigned long long)(ln->lineno + ln->lines));
    case RC_COMMENT_STRAY_END:
        return rc_error_set(&ln->err, RC_ERR_SYNTAX, ln->comment_at,
                            "the end of a comment (*/) with no comment open: a line that starts with '{' or '[' is read "
                            "as a message, also in a comment, and ends it (indent such lines to keep them in the comment)");
    default:
        return rc_error_set(&ln->err, RC_ERR_SYNTAX, ln->comment_at,
                            "text after the end of a comment (*/): a message starts on a line of its own, or it is not read");
    }
}

static rc_status decode_record(lines_source *c, rc_batch *b, rc_source_item *ln)
{
    rc_record_in r;
    rc_status st = rc_record_parse(b->text + ln->off, ln->n, &r, &ln->err);
    return st != RC_OK ? st : rc_record_decode(c->cfg.from, c->cfg.dec, &r, &b->arena, &b->events, &ln->err);
}

/* Reads up to a batch of lines, then decodes them (the text no longer moves). */
static void fill(lines_source *c, rc_batch *b)
{
    b->len = b->n = 0;
    b->last = false;
    b->rc = RC_EXIT_OK;
    while (b->n < RC_BATCH_ITEMS && b->len < BATCH_BYTES) {
        if (*c->cfg.stop) {
            b->last = true;
            break;
        }
        if (c->in && c->in_may_wait && b->n && !input_ready(c->in)) break;
        if (!c->in) {
            int st = open_next(c);
            if (st != RC_EXIT_OK) {
                b->last = true;
                if (st > 0) b->rc = st;
                break;
            }
        }
        ssize_t got = read_line(c);
        if (got <= 0) {
            if (ferror(c->in) && errno != EINTR) {
                rc_logf("rowcast: reading %s: %s\n", c->in_name, strerror(errno));
                b->rc = RC_EXIT_IO, b->last = true;
            }
            close_input(c);
            if (b->last) break;
            continue;
        }
        uint64_t extra = 0;
        if (c->cfg.records) got = record_lines(c, got, &extra);
        if (got < 0 || !add_line(c, b, c->linebuf, (size_t)got, false) || (!c->cfg.records && !add_rest(c, b))) {
            rc_logf("rowcast: out of memory reading %s\n", c->in_name);
            b->rc = RC_EXIT_IO, b->last = true;
            break;
        }
        if (extra) { /* the item is numbered by its first line; a resume goes on after its last */
            c->in_line += extra;
            rc_source_item *ln = &b->lines[b->n - 1];
            ln->end = rc_pos_lines(ln->end_off, c->in_line);
            ln->lines += (unsigned)extra; /* an error names the line within the record */
        }
    }
    rc_arena_reset(&b->arena);
    b->events.count = 0;
    for (size_t i = 0; i < b->n; i++) {
        rc_source_item *ln = &b->lines[i];
        ln->ev_first = b->events.count;
        rc_error_clear(&ln->err);
        size_t rejected = b->events.rejected;
        if (ln->comment_fault)
            ln->st = comment_error(ln);
        else
            ln->st = ln->blank          ? RC_OK
                     : c->cfg.records ? decode_record(c, b, ln)
                                      : c->cfg.from->decode(c->cfg.dec, b->text + ln->off, ln->n, &b->arena, &b->events, &ln->err);
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
    lines_source *c = arg;
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
        rc_batch *b = &c->batches[i];
        fill(c, b);
        pthread_mutex_lock(&c->mu);
        c->full_q[(c->full_head + c->full_count) % BATCHES] = i, c->full_count++;
        pthread_cond_broadcast(&c->cv);
        pthread_mutex_unlock(&c->mu);
        if (b->last) return NULL;
    }
}

static void lines_close(rc_source *src);

static rc_status lines_open(const rc_source_config *cfg, const rc_pos *resume, rc_source **out, rc_error *err)
{
    /* aligned: the batches sit on cache lines of their own */
    size_t size = (sizeof(lines_source) + 63) / 64 * 64;
    lines_source *c = aligned_alloc(64, size);
    if (!c) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    memset(c, 0, size);
    c->base.ops = &rc_source_lines;
    c->cfg = *cfg;
    c->files = cfg->urls, c->nfiles = cfg->nurls;
    c->threaded = cfg->threaded;
    if (resume && resume->kind == RC_POS_LINES)
        c->start_off = rc_pos_lines_offset(resume), c->start_line = rc_pos_lines_line(resume);
    for (size_t i = 0; i < BATCHES; i++) {
        rc_batch *b = &c->batches[i];
        rc_arena_init(&b->arena);
        b->lines = calloc(RC_BATCH_ITEMS, sizeof *b->lines);
        if (!b->lines) {
            lines_close(&c->base);
            return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        }
        if (cfg->accept) b->events.accept = cfg->accept, b->events.accept_ctx = cfg->accept_ctx;
        c->free_q[i] = i;
    }
    c->free_count = BATCHES;
    *out = &c->base;
    if (!c->threaded) return RC_OK;
    pthread_mutex_init(&c->mu, NULL);
    pthread_cond_init(&c->cv, NULL);
    /* signals go to the pipeline's thread, which waits at most timeout_ms for a batch */
    if (rc_thread_start(&c->reader, reader_main, c, 0, NULL, "the lines reader") != RC_OK) {
        c->threaded = false; /* go on with one thread */
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->cv);
    }
    return RC_OK;
}

/* One thread: reads a batch now (a pipe may keep it waiting for its first line). Two: the next
 * batch the reader filled, waiting up to timeout_ms for it; none when a signal came. */
static rc_status lines_next(rc_source *src, int timeout_ms, rc_batch **out, rc_error *err)
{
    lines_source *c = (lines_source *)src;
    *out = NULL;
    if (!c->threaded) {
        fill(c, &c->batches[0]);
        *out = &c->batches[0];
        return RC_OK;
    }
    pthread_mutex_lock(&c->mu);
    if (!c->full_count && !*c->cfg.stop) { /* the reader may be waiting for input that never comes */
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)timeout_ms % 1000 * 1000 * 1000;
        until.tv_sec += timeout_ms / 1000;
        if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
        pthread_cond_timedwait(&c->cv, &c->mu, &until);
    }
    if (c->full_count) {
        size_t i = c->full_q[c->full_head];
        c->full_head = (c->full_head + 1) % BATCHES, c->full_count--;
        *out = &c->batches[i];
    }
    pthread_mutex_unlock(&c->mu);
    return RC_OK;
}

static void lines_release(rc_source *src, rc_batch *b)
{
    lines_source *c = (lines_source *)src;
    if (!c->threaded) return;
    pthread_mutex_lock(&c->mu);
    c->free_q[(c->free_head + c->free_count) % BATCHES] = (size_t)(b - c->batches), c->free_count++;
    pthread_cond_broadcast(&c->cv);
    pthread_mutex_unlock(&c->mu);
}

/* Nothing to tell the input: the pipeline's checkpoint file holds the position. */
static void lines_ack(rc_source *src, const rc_pos *pos) {}

/* The input size, for % and ETA: known when every input is a regular file. */
static void lines_progress(const rc_source *src, uint64_t *size, uint64_t *start)
{
    const lines_source *c = (const lines_source *)src;
    *size = 0;
    *start = c->start_off;
    for (size_t i = 0; i < c->nfiles; i++) {
        struct stat st;
        bool ok = !strcmp(c->files[i], "-") ? fstat(0, &st) == 0 : stat(c->files[i], &st) == 0;
        if (!ok || !S_ISREG(st.st_mode)) {
            *size = 0;
            return;
        }
        *size += (uint64_t)st.st_size;
    }
}

/* No more batches wanted: joins the reader, closes the input, frees the batches. */
static void lines_close(rc_source *src)
{
    lines_source *c = (lines_source *)src;
    if (!c) return;
    if (c->threaded) {
        rc_thread_tell_stop(&c->mu, &c->cv, &c->stop);
        /* a reader blocked on a pipe that never ends must not keep rowcast alive */
        pthread_cancel(c->reader);
        pthread_join(c->reader, NULL);
        pthread_mutex_destroy(&c->mu);
        pthread_cond_destroy(&c->cv);
        c->threaded = false;
    }
    close_input(c);
    free(c->linebuf);
    free(c->morebuf);
    for (size_t i = 0; i < BATCHES; i++) {
        rc_batch *b = &c->batches[i];
        free(b->text);
        free(b->lines);
        rc_arena_fini(&b->arena);
        rc_event_list_fini(&b->events);
    }
    free(c);
}

const rc_source_ops rc_source_lines = {
    .name = "lines",
    .item_word = "line",
    .open = lines_open,
    .next = lines_next,
    .release = lines_release,
    .ack = lines_ack,
    .progress = lines_progress,
    .close = lines_close,
};
