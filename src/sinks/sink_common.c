/* What the sinks (file_sink.c, kafka_sink.c) and the sink front (sink.c) share: tracking a file
 * a sink appends to, and the dead-letter file. Here rather than in sink.c, which names the
 * sinks' ops tables, so that the references run one way: sink.c -> a sink -> this file. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "sink_impl.h"

rc_status rc_sink_file_track(rc_sink_file *f, const char *path, int fd, rc_error *err)
{
    char real[PATH_MAX];
    struct stat st;
    if (!realpath(path, real) || fstat(fd, &st) != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "cannot find the real path of %s: %s", path, strerror(errno));
    if (strlen(real) >= sizeof f->path || strchr(real, '\n'))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s: a path a checkpoint cannot hold (a newline, or too long)", path);
    strcpy(f->path, real);
    f->size = (uint64_t)st.st_size;
    f->set = true;
    return RC_OK;
}

rc_status rc_sink_dead_letter(rc_sink *s, const void *value, size_t len, rc_error *err)
{
    FILE *f = s->cfg.dead_letter;
    if (!value) value = "null", len = 4;
    if (fwrite(value, 1, len, f) != len || fputc('\n', f) == EOF || fflush(f) != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "writing dead-letter file %s: %s", s->cfg.dead_path,
                            strerror(errno));
    s->stats.dead_lettered++;
    return RC_OK;
}
