/* stdout and file sinks: records written in one of three layouts (rc_sink_layout), by a
 * writing thread of their own (file_writer.h). A record is acknowledged once it is written
 * (and, for a file, fsync'ed). A file sink counts the bytes it writes (the sink state of a
 * checkpoint) and can be cut back to a size a checkpoint recorded; stdout cannot. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "file_writer.h"
#include "sink_impl.h"

typedef struct file_sink {
    FILE *f;
    char *path; /* NULL for stdout */
    rc_file_writer w;
} file_sink;

/* The FILE is kept for rc_sink_restore (fflush, ftruncate) and closing; the bytes go through
 * the writer, by write(2) on its descriptor (a file's opened for appending). */
static rc_status open_stream(rc_sink *s, FILE *f, const char *path, rc_error *err)
{
    file_sink *fs = calloc(1, sizeof *fs);
    char *p = path ? strdup(path) : NULL;
    fflush(f); /* anything stdio holds goes first */
    rc_status st = !fs || (path && !p) ? rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory")
                                       : rc_fw_start(&fs->w, fileno(f), path != NULL, path ? path : "stdout", err);
    if (st != RC_OK) {
        free(fs), free(p);
        if (path) fclose(f);
        return st;
    }
    fs->f = f, fs->path = p;
    s->impl = fs;
    return RC_OK;
}

static rc_status stdout_open(rc_sink *s, const char *rest, const rc_options *opts, rc_error *err)
{
    return open_stream(s, stdout, NULL, err);
}

static rc_status file_check(const char *path, const rc_options *opts, rc_error *err)
{
    (void)opts;
    return *path ? RC_OK : rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--sink file: needs a path (file:PATH)");
}

static rc_status file_open(rc_sink *s, const char *path, const rc_options *opts, rc_error *err)
{
    if (file_check(path, opts, err) != RC_OK) return err->code;
    FILE *f = fopen(path, "ab");
    if (!f) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "cannot open %s: %s", path, strerror(errno));
    rc_status st = rc_sink_file_track(&s->state.output, path, fileno(f), err);
    if (st != RC_OK) {
        fclose(f);
        return st;
    }
    s->out = f;
    return open_stream(s, f, path, err);
}

/* Writes n bytes and counts them in the sink state. */
static void put(rc_sink *s, rc_file_writer *w, const void *p, size_t n)
{
    rc_fw_put(w, p, n);
    s->state.output.size += n;
}

static rc_status write_error(const file_sink *fs, int e, rc_error *err)
{
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s", fs->w.err_in_sync ? "syncing" : "writing",
                        fs->path ? fs->path : "output", strerror(e));
}

/* Acknowledges the records below `durable` (the writer's answer). */
static void ack_below(rc_sink *s, uint64_t durable)
{
    uint64_t before = s->tr.base;
    rc_tracker_ack_below(&s->tr, durable);
    s->stats.delivered += s->tr.base - before;
}

static void put_len(rc_sink *s, rc_file_writer *w, const void *p, size_t n)
{
    char len[32];
    if (!p) {
        put(s, w, "-1\t", 3);
        return;
    }
    put(s, w, len, (size_t)snprintf(len, sizeof len, "%zu\t", n));
    put(s, w, p, n);
}

static rc_status file_send(rc_sink *s, const rc_record *r, uint64_t seq, rc_error *err)
{
    file_sink *fs = s->impl;
    rc_file_writer *w = &fs->w;
    switch (s->cfg.layout) {
    case RC_LAYOUT_VALUES:
        if (r->value) put(s, w, r->value, r->value_len);
        else put(s, w, "null", 4);
        if (!s->cfg.binary || !r->value) put(s, w, "\n", 1);
        break;
    case RC_LAYOUT_KEYS:
        if (r->key) put(s, w, r->key, r->key_len);
        else put(s, w, "null", 4);
        put(s, w, "\n", 1);
        break;
    case RC_LAYOUT_RECORDS:
        put(s, w, r->topic, r->topic_len);
        put(s, w, "\t", 1);
        put_len(s, w, r->key, r->key_len);
        put(s, w, "\t", 1);
        put_len(s, w, r->value, r->value_len);
        put(s, w, "\t", 1);
        for (size_t i = 0; i < r->nheaders; i++) {
            if (i) put(s, w, ",", 1);
            put(s, w, r->headers[i].name, strlen(r->headers[i].name));
            put(s, w, "=", 1);
            put(s, w, r->headers[i].value, r->headers[i].len);
        }
        put(s, w, "\n", 1);
        break;
    }
    w->records = seq + 1;
    return w->seen_err ? write_error(fs, w->seen_err, err) : RC_OK;
}

/* A block of records taken as it is when it is large (no copy: the writer writes it and gives
 * back one of its buffers), else copied as records are. */
static rc_status file_send_block(rc_sink *s, rc_buf *block, uint64_t seq, size_t n, rc_error *err)
{
    file_sink *fs = s->impl;
    rc_file_writer *w = &fs->w;
    if (block->len < RC_FW_BUF / 4) {
        put(s, w, block->data, block->len);
        w->records = seq + n;
    } else {
        s->state.output.size += block->len;
        rc_fw_give(w, &block->data, &block->cap, block->len, seq + n);
    }
    block->len = 0;
    return w->seen_err ? write_error(fs, w->seen_err, err) : RC_OK;
}

static bool file_blocks(const rc_sink *s) { return s->cfg.layout == RC_LAYOUT_VALUES && !s->cfg.binary; }

/* Waits until everything sent is delivered: written (a file's also fsync'ed). */
static rc_status file_sync(rc_sink *s, rc_error *err)
{
    file_sink *fs = s->impl;
    int e = rc_fw_wait(&fs->w);
    if (e) return write_error(fs, e, err);
    s->stats.delivered += tracker_outstanding(&s->tr);
    rc_tracker_ack_all(&s->tr);
    return RC_OK;
}

/* Hands what is buffered to the writer and acknowledges what it has delivered (`sync`: asks
 * it to deliver everything sent, which for a file is an fsync) without waiting. */
static rc_status push(rc_sink *s, bool sync, rc_error *err)
{
    file_sink *fs = s->impl;
    int e;
    uint64_t delivered = rc_fw_push(&fs->w, sync, &e);
    if (e) return write_error(fs, e, err);
    ack_below(s, delivered);
    return RC_OK;
}

/* A checkpoint's sync: the run goes on while the file is written back; the checkpoint is then
 * an interval behind, and never ahead of the disk. */
static rc_status file_sync_start(rc_sink *s, rc_error *err) { return push(s, true, err); }

/* Called when the input is idle: what is buffered goes out, so that a slow stream shows its
 * messages as they come. Written is delivered for stdout (docs/cli.md "Counting"), so stdout
 * waits for the write and its records are acknowledged here (a source on a pipe may not come
 * back before its next line), and a long run's metrics show them so; a file's go to the writer
 * when it has nothing else to do, and wait for the fsync that a sync asks for. */
static rc_status file_poll(rc_sink *s, int timeout_ms, rc_error *err)
{
    file_sink *fs = s->impl;
    return fs->path ? push(s, false, err) : file_sync(s, err);
}
static rc_status file_flush(rc_sink *s, int timeout_ms, rc_error *err) { return RC_OK; }

static void file_close(rc_sink *s)
{
    file_sink *fs = s->impl;
    if (!fs) return;
    rc_fw_stop(&fs->w);
    if (fs->path) fclose(fs->f);
    free(fs->path);
    free(fs);
}

const sink_ops rc_sink_stdout_ops = {"stdout",   stdout_open,  file_send,       file_poll,  file_flush, file_sync,
                                     file_close, file_sync_start, file_send_block, file_blocks, NULL};
const sink_ops rc_sink_file_ops = {"file:",    file_open,       file_send,       file_poll,  file_flush, file_sync,
                                   file_close, file_sync_start, file_send_block, file_blocks, file_check};
