/* stdout and file sinks: records written in one of three layouts (rc_sink_layout). A record
 * is acknowledged once the stream is flushed (and, for a file, fsync'ed): sync. */
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
    return open_stream(s, f, path, err);
}

static void put_len(FILE *f, const void *p, size_t n)
{
    if (p) fprintf(f, "%zu\t", n), fwrite(p, 1, n, f);
    else fputs("-1\t", f);
}

static rc_status file_send(rc_sink *s, const rc_record *r, uint64_t seq, rc_error *err)
{
    file_sink *fs = s->impl;
    FILE *f = fs->f;
    switch (s->cfg.layout) {
    case RC_LAYOUT_VALUES:
        if (r->value) fwrite(r->value, 1, r->value_len, f);
        else fputs("null", f);
        if (!s->cfg.binary || !r->value) fputc('\n', f);
        break;
    case RC_LAYOUT_KEYS:
        if (r->key) fwrite(r->key, 1, r->key_len, f);
        else fputs("null", f);
        fputc('\n', f);
        break;
    case RC_LAYOUT_RECORDS:
        fwrite(r->topic, 1, r->topic_len, f);
        fputc('\t', f);
        put_len(f, r->key, r->key_len);
        fputc('\t', f);
        put_len(f, r->value, r->value_len);
        fputc('\t', f);
        for (size_t i = 0; i < r->nheaders; i++) {
            if (i) fputc(',', f);
            fprintf(f, "%s=", r->headers[i].name);
            fwrite(r->headers[i].value, 1, r->headers[i].len, f);
        }
        fputc('\n', f);
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
    if (fflush(fs->f) != 0 || (fs->path && fsync(fileno(fs->f)) != 0))
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "writing %s: %s", fs->path ? fs->path : "output",
                            strerror(errno));
    s->stats.delivered += tracker_outstanding(&s->tr);
    tracker_ack_all(&s->tr);
    return RC_OK;
}

/* Pushes buffered output out (no fsync): called when the input is idle, so that a slow stream
 * shows its messages as they come. */
static rc_status file_poll(rc_sink *s, int timeout_ms, rc_error *err)
{
    file_sink *fs = s->impl;
    if (fflush(fs->f) != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "writing %s: %s", fs->path ? fs->path : "output", strerror(errno));
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

const sink_ops sink_stdout_ops = {"stdout", stdout_open, file_send, file_poll, file_flush, file_sync, file_close};
const sink_ops sink_file_ops = {"file:", file_open, file_send, file_poll, file_flush, file_sync, file_close};
