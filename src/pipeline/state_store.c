/* A run's state text in a file or a Kafka record (state_store.h). */
#include "pipeline/state_store.h"
#include "core/run_state.h"
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sinks/kafka_state.h"

struct rc_state_store {
    char *where, *label;
    rc_kafka_state *kafka; /* NULL: a file */
};

bool rc_state_store_is_kafka(const char *where) { return where && !strncmp(where, "kafka://", 8); }

rc_status rc_state_store_open(const char *where, const char *label, const char *server, const char *kind,
                              const rc_options *opts, volatile sig_atomic_t *stop, rc_state_store **out, rc_error *err)
{
    rc_state_store *s = calloc(1, sizeof *s);
    if (!s || !(s->where = strdup(where)) || !(s->label = strdup(label))) {
        rc_state_store_close(s);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    if (rc_state_store_is_kafka(where)) {
        rc_status st = rc_kafka_state_open(where + 8, label, server, kind, opts, stop, &s->kafka, err);
        if (st != RC_OK) {
            rc_state_store_close(s);
            return st;
        }
    }
    *out = s;
    return RC_OK;
}

static rc_status file_load(const rc_state_store *s, rc_buf *text, rc_error *err)
{
    FILE *f = fopen(s->where, "rb");
    if (!f) {
        if (errno == ENOENT) return RC_SKIP;
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s", s->label, s->where, strerror(errno));
    }
    char chunk[65536];
    size_t k;
    while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) rc_buf_put(text, chunk, k);
    bool failed = ferror(f);
    fclose(f);
    if (failed) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: read error", s->label, s->where);
    if (text->err) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "%s %s: too large", s->label, s->where);
    return RC_OK;
}

rc_status rc_state_store_load(rc_state_store *s, rc_buf *text, rc_error *err)
{
    return s->kafka ? rc_kafka_state_load(s->kafka, text, err) : file_load(s, text, err);
}

/* --standby: a state written by an instance that lost the lead could move the new leader's
 * position; nothing is written then (core/run_state.h). */
static rc_status lead_held(const rc_state_store *s, rc_error *err)
{
    char why[256];
    if (rc_run_lead_held(why, sizeof why)) return RC_OK;
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: not written: lost the lead (%s)", s->label, s->where, why);
}

rc_status rc_state_store_save(rc_state_store *s, const char *text, size_t n, rc_error *err)
{
    rc_status st = lead_held(s, err);
    if (st != RC_OK) return st;
    return s->kafka ? rc_kafka_state_save(s->kafka, text, n, err) : rc_file_replace(s->label, s->where, text, n, err);
}

rc_status rc_state_store_clear(rc_state_store *s, rc_error *err)
{
    rc_status st = lead_held(s, err);
    if (st != RC_OK) return st;
    if (s->kafka) return rc_kafka_state_save(s->kafka, NULL, 0, err);
    if (remove(s->where) && errno != ENOENT) return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: remove: %s", s->label, s->where, strerror(errno));
    return RC_OK;
}

const char *rc_state_store_where(const rc_state_store *s) { return s->where; }

void rc_state_store_close(rc_state_store *s)
{
    if (!s) return;
    rc_kafka_state_close(s->kafka);
    free(s->where), free(s->label), free(s);
}

static rc_status io_fail(const char *label, const char *path, const char *what, rc_error *err)
{
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s %s: %s: %s", label, path, what, strerror(errno));
}

rc_status rc_file_replace(const char *label, const char *path, const char *data, size_t n, rc_error *err)
{
    char tmp[4200];
    if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp", path) >= sizeof tmp)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s %s: the path is too long", label, path);
    rc_status st = RC_OK;
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) st = io_fail(label, tmp, "cannot create its temporary file", err);
    for (size_t done = 0; st == RC_OK && done < n;) {
        ssize_t w = write(fd, data + done, n - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) st = io_fail(label, tmp, "write", err);
        else done += (size_t)w;
    }
    if (st == RC_OK && fsync(fd)) st = io_fail(label, tmp, "fsync", err);
    if (fd >= 0 && close(fd) && st == RC_OK) st = io_fail(label, tmp, "close", err);
    if (st == RC_OK && rename(tmp, path)) st = io_fail(label, path, "rename", err);
    if (st == RC_OK) { /* the rename itself is durable once the directory is */
        char dir[4200];
        snprintf(dir, sizeof dir, "%s", path);
        int dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dfd < 0 || fsync(dfd)) st = io_fail(label, path, "fsync of its directory", err);
        if (dfd >= 0) close(dfd);
    }
    return st;
}
