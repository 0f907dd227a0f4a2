/* The offline binlog source (`rowcast convert --from mysql-binlog FILE...`): reads binlog files
 * (the magic \xfebin, then events) in the order given, as the server rotated them, and turns
 * each event into one item through the event decoder (my_decoder.h), the same one the live
 * source uses. The files' DDL feeds a schema history this source keeps, so a table created
 * earlier in the files has its names and declared types; without one the columns are "@1",
 * "@2"... with types from the binlog (or the names of binlog_row_metadata=FULL).
 *
 * An item's position is the decoder's last transaction boundary (RC_POS_MYSQL: the file's
 * place among the inputs, the offset); a bad event is named "FILE at offset N", and an event
 * cut off by the end of a file ends that file. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "my_binlog_file.h"
#include "sources/db_phases.h"
#include "my_decoder.h"
#include "my_event.h"
#include "my_schema.h"
#include "rowcast/source.h"
#include "core/log.h"

enum { IN_BUF = 1 << 20, MAX_EVENT = 1 << 30 };

typedef struct binlog_source {
    rc_source base;
    rc_source_config cfg;
    size_t file_i;    /* the next input to open */
    FILE *in;
    const char *path; /* the input being read */
    uint64_t off;     /* of the next event in it */
    uint8_t *ev;
    size_t evcap;
    rc_my_history *history;
    rc_my_decoder *dec;
    rc_db_batches batches; /* two: read on a thread of its own with --threads 2 (sources/prefetch.c) */
    char *inbuf;
    bool done;
} binlog_source;

static void binlog_close(rc_source *src);

static rc_status binlog_open(const rc_source_config *cfg, const rc_pos *resume, rc_source **out, rc_error *err)
{
    if (resume && resume->kind != RC_POS_NONE)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--from mysql-binlog does not resume from a checkpoint");
    binlog_source *s = calloc(1, sizeof *s);
    if (!s) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    s->base.ops = &rc_source_mysql_binlog;
    s->cfg = *cfg;
    bool batches = rc_db_batches_init(&s->batches, cfg->accept, cfg->accept_ctx);
    s->history = rc_my_history_new();
    s->inbuf = malloc(IN_BUF);
    rc_my_decoder_config dc = {.file = "", .history = s->history};
    if (!batches || !s->history || !s->inbuf || rc_my_decoder_new(&dc, &s->dec, err) != RC_OK) {
        binlog_close(&s->base);
        return err && err->code ? err->code : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    *out = &s->base;
    return RC_OK;
}

static void close_input(binlog_source *s)
{
    if (s->in && s->in != stdin) fclose(s->in);
    s->in = NULL;
}

/* Opens the next input and checks its magic: RC_EXIT_OK, -1 when there is none, or a status
 * after a message. */
static int open_next(binlog_source *s)
{
    if (s->file_i == s->cfg.nurls) return -1;
    const char *f = s->cfg.urls[s->file_i++];
    bool is_stdin = !strcmp(f, "-");
    s->in = is_stdin ? stdin : fopen(f, "rb");
    s->path = is_stdin ? "<stdin>" : f;
    if (!s->in) {
        rc_logf("rowcast convert: cannot open %s: %s\n", f, strerror(errno));
        return RC_EXIT_IO;
    }
    if (!is_stdin) setvbuf(s->in, s->inbuf, _IOFBF, IN_BUF);
    uint8_t magic[4];
    size_t got = fread(magic, 1, 4, s->in);
    if (got != 4 || memcmp(magic, "\xfe" "bin", 4)) {
        rc_logf("rowcast convert: %s is not a binlog file: it does not start with the binlog magic bytes fe 62 69 6e "
                "(\\xfebin)%s\n", s->path, got == 0 ? " (it is empty)" : "");
        close_input(s);
        return RC_EXIT_DATA;
    }
    s->off = 4;
    const char *base = strrchr(f, '/');
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_decoder_set_file(s->dec, base ? base + 1 : f, &err) != RC_OK) {
        rc_logf("rowcast convert: %s\n", err.message);
        close_input(s);
        return RC_EXIT_IO;
    }
    return RC_EXIT_OK;
}

/* A bad item: named "FILE at offset N" (in the batch's arena), with the message `m`. */
static void bad_item(binlog_source *s, rc_batch *b, rc_source_item *it, rc_status st, const char *m, uint64_t at)
{
    char name[600];
    snprintf(name, sizeof name, "%s at offset %llu", s->path, (unsigned long long)at);
    const char *p = rc_arena_memdup(&b->arena, name, strlen(name));
    it->file = p ? p : s->path;
    it->st = st;
    rc_error_clear(&it->err);
    rc_error_set(&it->err, st, RC_NO_OFFSET, "%s", m);
}

/* The decoder's message without its own "NAME at offset N: " (the name here is the path). */
static const char *decoder_message(const rc_error *e)
{
    const char *k = strstr(e->message, " at offset ");
    return k && (k = strstr(k, ": ")) ? k + 2 : e->message;
}

/* Reads the next event into s->ev: its size, 0 at the end of the file, or (size_t)-1 for an
 * event the file cuts off (with err filled). */
static size_t read_event(binlog_source *s, rc_error *err)
{
    uint8_t h[RC_MY_HEADER_LEN];
    size_t got = fread(h, 1, sizeof h, s->in);
    if (got == 0) return 0;
    if (got < sizeof h) {
        rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "the file ends %zu bytes into an event's 19-byte header (a truncated "
                     "file, or one still being written)", got);
        return (size_t)-1;
    }
    uint32_t size = (uint32_t)rc_my_le(h + 9, 4);
    if (size < RC_MY_HEADER_LEN || size > MAX_EVENT) {
        rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "the event's header says it has %u bytes: the file is corrupted here",
                     size);
        return (size_t)-1;
    }
    if (size > s->evcap) {
        size_t cap = s->evcap ? s->evcap : 1 << 16;
        while (cap < size) cap *= 2;
        uint8_t *e = realloc(s->ev, cap);
        if (!e) {
            rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory for an event of %u bytes", size);
            return (size_t)-1;
        }
        s->ev = e, s->evcap = cap;
    }
    memcpy(s->ev, h, sizeof h);
    got = fread(s->ev + sizeof h, 1, size - sizeof h, s->in);
    if (got < size - sizeof h) {
        rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "the event is cut off: its header says %u bytes, the file has %zu "
                     "(a truncated file, or one still being written)", size, got + sizeof h);
        return (size_t)-1;
    }
    return size;
}

static void fill(binlog_source *s, rc_batch *b)
{
    while (!rc_batch_full(b)) {
        if (*s->cfg.stop) {
            b->last = true;
            break;
        }
        if (!s->in) {
            int st = open_next(s);
            if (st != RC_EXIT_OK) {
                b->last = true;
                if (st > 0) b->rc = st;
                break;
            }
        }
        rc_error err;
        rc_error_clear(&err);
        uint64_t at = s->off;
        size_t size = read_event(s, &err);
        if (size == 0) {
            if (ferror(s->in)) {
                rc_logf("rowcast: reading %s: %s\n", s->path, strerror(errno));
                b->rc = RC_EXIT_IO, b->last = true;
            }
            close_input(s);
            if (b->last) break;
            continue;
        }
        rc_source_item *it = &b->lines[b->n++];
        memset(it, 0, sizeof *it);
        it->file = s->path;
        it->file_off = at;
        it->ev_first = b->events.count;
        size_t rejected = b->events.rejected;
        if (size == (size_t)-1) { /* the framing is lost: the rest of this file cannot be read */
            bad_item(s, b, it, err.code, err.message, at);
            close_input(s);
        } else {
            s->off += size;
            it->raw = size, it->end_off = s->off;
            rc_status st = rc_my_decoder_feed(s->dec, s->ev, size, at, &b->events, &b->arena, &err);
            it->filtered = b->events.rejected != rejected;
            if (st != RC_OK) bad_item(s, b, it, st, decoder_message(&err), at);
        }
        if (it->st != RC_OK && it->raw) { /* the event's bytes, for a dead-letter file */
            if (b->len + it->raw > b->cap) {
                size_t cap = b->cap ? b->cap : 1 << 16;
                while (cap < b->len + it->raw) cap *= 2;
                char *t = realloc(b->text, cap);
                if (t) b->text = t, b->cap = cap;
            }
            if (b->len + it->raw <= b->cap) {
                memcpy(b->text + b->len, s->ev, it->raw);
                it->off = b->len, b->len += it->raw;
            } else {
                it->raw = 0;
            }
        }
        it->ev_count = b->events.count - it->ev_first;
        rc_my_decoder_pos p;
        rc_my_decoder_position(s->dec, &p);
        it->end = rc_pos_mysql(s->file_i, p.offset, 0);
    }
}

static rc_status binlog_next(rc_source *src, int timeout_ms, rc_batch **out, rc_error *err)
{
    binlog_source *s = (binlog_source *)src;
    if (s->done) {
        *out = NULL;
        return RC_OK;
    }
    rc_batch *b = rc_db_batches_take(&s->batches);
    fill(s, b);
    s->done = b->last;
    *out = rc_db_batches_hand(&s->batches);
    return RC_OK;
}

static void binlog_release(rc_source *src, rc_batch *b) {}
static void binlog_ack(rc_source *src, const rc_pos *pos) {}

static void binlog_progress(const rc_source *src, uint64_t *size, uint64_t *start)
{
    const binlog_source *s = (const binlog_source *)src;
    *size = *start = 0;
    for (size_t i = 0; i < s->cfg.nurls; i++) {
        struct stat st;
        if (stat(s->cfg.urls[i], &st) != 0 || !S_ISREG(st.st_mode)) {
            *size = 0;
            return;
        }
        *size += (uint64_t)st.st_size;
    }
}

static void binlog_close(rc_source *src)
{
    binlog_source *s = (binlog_source *)src;
    if (!s) return;
    close_input(s);
    rc_my_decoder_free(s->dec);
    rc_my_history_free(s->history);
    free(s->ev);
    free(s->inbuf);
    rc_db_batches_fini(&s->batches);
    free(s);
}

const rc_source_ops rc_source_mysql_binlog = {
    .name = "mysql-binlog",
    .item_word = "binlog event",
    .open = binlog_open,
    .next = binlog_next,
    .release = binlog_release,
    .ack = binlog_ack,
    .progress = binlog_progress,
    .close = binlog_close,
    .two_batches = true,
};
