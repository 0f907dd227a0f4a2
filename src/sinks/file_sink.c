/* stdout and file sinks: records written in one of three layouts (rc_sink_layout). A record
 * is acknowledged once the stream is flushed (and, for a file, fsync'ed): sync. A file sink
 * counts the bytes it writes (the sink state of a checkpoint) and can be cut back to a size a
 * checkpoint recorded; stdout cannot. A file is written and fsync'ed by a thread of its own
 * (file_writer.h); stdout stays a stdio stream, which other output may share. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "file_writer.h"
#include "sink_impl.h"

enum { OUT_BUF = 1 << 20 };

typedef struct file_sink {
    FILE *f;
    char *path; /* NULL for stdout */
    char *vbuf;       /* stdout's */
    rc_file_writer w; /* a file's */
} file_sink;

static char stdout_buf[OUT_BUF]; /* stdout's buffer outlives the sink: exit flushes stdout */

/* A file's FILE is kept for rc_sink_restore (fflush, ftruncate) and closing; its bytes go
 * through the writer, by write(2) on its descriptor (opened for appending). */
static rc_status open_stream(rc_sink *s, FILE *f, const char *path, rc_error *err)
{
    file_sink *fs = calloc(1, sizeof *fs);
    char *p = path ? strdup(path) : NULL;
    if (!fs || (path && (!p || rc_fw_start(&fs->w, fileno(f)) != RC_OK))) {
        free(fs), free(p);
        if (path) fclose(f);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    if (!path) setvbuf(f, stdout_buf, _IOFBF, OUT_BUF), fs->vbuf = stdout_buf;
    fs->f = f, fs->path = p;
    s->impl = fs;
    return RC_OK;
}

static rc_status stdout_open(rc_sink *s, const char *rest, const rc_options *opts, rc_error *err)
{
    return open_stream(s, stdout, NULL, err);
}

static rc_status file_open(rc_sink *s, const char *path, const rc_options *opts, rc_error *err)
{
    if (!*path) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--sink file: needs a path (file:PATH)");
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
static void put(rc_sink *s, FILE *f, const void *p, size_t n)
{
    file_sink *fs = s->impl;
    if (fs->path) rc_fw_put(&fs->w, p, n);
    else fwrite(p, 1, n, f);
    s->state.output.size += n;
}

static rc_status write_error(const file_sink *fs, int e, rc_error *err)
{
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "writing %s: %s", fs->path ? fs->path : "output", strerror(e));
}

/* Acknowledges the records below `durable` (a file's, from its writer). */
static void ack_below(rc_sink *s, uint64_t durable)
{
    uint64_t before = s->tr.base;
    rc_tracker_ack_below(&s->tr, durable);
    s->stats.delivered += s->tr.base - before;
}

static void put_len(rc_sink *s, FILE *f, const void *p, size_t n)
{
    char len[32];
    if (!p) {
        put(s, f, "-1\t", 3);
        return;
    }
    put(s, f, len, (size_t)snprintf(len, sizeof len, "%zu\t", n));
    put(s, f, p, n);
}

static rc_status file_send(rc_sink *s, const rc_record *r, uint64_t seq, rc_error *err)
{
    file_sink *fs = s->impl;
    FILE *f = fs->f;
    switch (s->cfg.layout) {
    case RC_LAYOUT_VALUES:
        if (r->value) put(s, f, r->value, r->value_len);
        else put(s, f, "null", 4);
        if (!s->cfg.binary || !r->value) put(s, f, "\n", 1);
        break;
    case RC_LAYOUT_KEYS:
        if (r->key) put(s, f, r->key, r->key_len);
        else put(s, f, "null", 4);
        put(s, f, "\n", 1);
        break;
    case RC_LAYOUT_RECORDS:
        put(s, f, r->topic, r->topic_len);
        put(s, f, "\t", 1);
        put_len(s, f, r->key, r->key_len);
        put(s, f, "\t", 1);
        put_len(s, f, r->value, r->value_len);
        put(s, f, "\t", 1);
        for (size_t i = 0; i < r->nheaders; i++) {
            if (i) put(s, f, ",", 1);
            put(s, f, r->headers[i].name, strlen(r->headers[i].name));
            put(s, f, "=", 1);
            put(s, f, r->headers[i].value, r->headers[i].len);
        }
        put(s, f, "\n", 1);
        break;
    }
    if (fs->path) {
        fs->w.records = seq + 1;
        if (fs->w.seen_err) return write_error(fs, fs->w.seen_err, err);
    } else if (ferror(f)) {
        return write_error(fs, errno, err);
    }
    return RC_OK;
}

/* Waits until everything sent is durable (flushed; a file's written and fsync'ed). */
static rc_status file_sync(rc_sink *s, rc_error *err)
{
    file_sink *fs = s->impl;
    int e = fs->path ? rc_fw_wait(&fs->w) : fflush(fs->f) != 0 ? errno : 0;
    if (e) return write_error(fs, e, err);
    s->stats.delivered += tracker_outstanding(&s->tr);
    rc_tracker_ack_all(&s->tr);
    return RC_OK;
}

/* A checkpoint's sync of a file without waiting: asks its writer for an fsync of everything
 * sent and acknowledges what an earlier fsync covered, so that the run goes on while the file
 * is written back (the checkpoint is an interval behind, and never ahead of the disk). */
static rc_status file_sync_start(rc_sink *s, rc_error *err)
{
    file_sink *fs = s->impl;
    if (!fs->path) return file_sync(s, err);
    int e;
    uint64_t durable = rc_fw_push(&fs->w, true, &e);
    if (e) return write_error(fs, e, err);
    ack_below(s, durable);
    return RC_OK;
}

/* Pushes buffered output out (no fsync): called when the input is idle, so that a slow stream
 * shows its messages as they come. Flushed is delivered for stdout (docs/cli.md "Counting"), so
 * its records are acknowledged here, and a long run's metrics show them so; a file's wait for
 * the fsync of sync. */
static rc_status file_poll(rc_sink *s, int timeout_ms, rc_error *err)
{
    file_sink *fs = s->impl;
    if (fs->path) {
        int e;
        uint64_t durable = rc_fw_push(&fs->w, false, &e);
        if (e) return write_error(fs, e, err);
        ack_below(s, durable);
        return RC_OK;
    }
    if (fflush(fs->f) != 0) return write_error(fs, errno, err);
    s->stats.delivered += tracker_outstanding(&s->tr);
    rc_tracker_ack_all(&s->tr);
    return RC_OK;
}
static rc_status file_flush(rc_sink *s, int timeout_ms, rc_error *err) { return RC_OK; }

static void file_close(rc_sink *s)
{
    file_sink *fs = s->impl;
    if (!fs) return;
    if (fs->path) {
        rc_fw_stop(&fs->w);
        fclose(fs->f);
    } else {
        fflush(fs->f);
    }
    free(fs->path);
    free(fs);
}

const sink_ops rc_sink_stdout_ops = {"stdout", stdout_open, file_send, file_poll, file_flush, file_sync, file_close, NULL};
const sink_ops rc_sink_file_ops = {"file:", file_open, file_send, file_poll, file_flush, file_sync, file_close, file_sync_start};
