/* stdout and file sinks: records written in one of three layouts (rc_sink_layout). A record
 * is acknowledged once the stream is flushed (and, for a file, fsync'ed): sync. A file sink
 * counts the bytes it writes (the sink state of a checkpoint) and can be cut back to a size a
 * checkpoint recorded; stdout cannot. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sink_impl.h"

enum { OUT_BUF = 1 << 20 };

typedef struct file_sink {
    FILE *f;
    char *path; /* NULL for stdout */
    char *vbuf;
} file_sink;

static char stdout_buf[OUT_BUF]; /* stdout's buffer outlives the sink: exit flushes stdout */

static rc_status open_stream(rc_sink *s, FILE *f, const char *path, rc_error *err)
{
    file_sink *fs = calloc(1, sizeof *fs);
    char *vbuf = path ? malloc(OUT_BUF) : stdout_buf;
    char *p = path ? strdup(path) : NULL;
    if (!fs || !vbuf || (path && !p)) {
        free(fs), free(p);
        if (path) free(vbuf);
        if (path) fclose(f);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    setvbuf(f, vbuf, _IOFBF, OUT_BUF);
    fs->f = f, fs->path = p, fs->vbuf = vbuf;
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
    fwrite(p, 1, n, f);
    s->state.output.size += n;
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
    if (ferror(f))
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "writing %s: %s", fs->path ? fs->path : "output",
                            strerror(errno));
    return RC_OK;
}

static rc_status file_sync(rc_sink *s, rc_error *err)
{
    file_sink *fs = s->impl;
    /* EINVAL: a special file that cannot be synchronized (/dev/null, a pipe): flushed is all there is */
    if (fflush(fs->f) != 0 || (fs->path && fsync(fileno(fs->f)) != 0 && errno != EINVAL))
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "writing %s: %s", fs->path ? fs->path : "output",
                            strerror(errno));
    s->stats.delivered += tracker_outstanding(&s->tr);
    rc_tracker_ack_all(&s->tr);
    return RC_OK;
}

/* Pushes buffered output out (no fsync): called when the input is idle, so that a slow stream
 * shows its messages as they come. Flushed is delivered for stdout (docs/cli.md "Counting"), so
 * its records are acknowledged here, and a long run's metrics show them so; a file's wait for
 * the fsync of sync. */
static rc_status file_poll(rc_sink *s, int timeout_ms, rc_error *err)
{
    file_sink *fs = s->impl;
    if (fflush(fs->f) != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "writing %s: %s", fs->path ? fs->path : "output", strerror(errno));
    if (!fs->path) {
        s->stats.delivered += tracker_outstanding(&s->tr);
        rc_tracker_ack_all(&s->tr);
    }
    return RC_OK;
}
static rc_status file_flush(rc_sink *s, int timeout_ms, rc_error *err) { return RC_OK; }

static void file_close(rc_sink *s)
{
    file_sink *fs = s->impl;
    if (!fs) return;
    if (fs->path) {
        fclose(fs->f);
        free(fs->vbuf);
    } else {
        fflush(fs->f);
    }
    free(fs->path);
    free(fs);
}

const sink_ops rc_sink_stdout_ops = {"stdout", stdout_open, file_send, file_poll, file_flush, file_sync, file_close};
const sink_ops rc_sink_file_ops = {"file:", file_open, file_send, file_poll, file_flush, file_sync, file_close};
