/* A resumed run's sink files against what a store (the checkpoint, a capture's state file)
 * recorded, and cut back to it. Shared by checkpoint.c and slot_state.c, in a file of its own so
 * that the two do not reference each other (checkpoint.c uses slot_state.c). */
#include <stdio.h>
#include <string.h>
#include "pipeline_impl.h"
#include "core/log.h"

/* A file of a resumed run against the one a store (`what` PATH: the checkpoint, a capture's
 * state file) recorded: the same file (or none on both sides), at least as long as recorded;
 * false after saying why not (both paths, both sizes). */
bool rc_pipeline_file_resumable(const rc_pipeline *c, const char *what, const char *path, const rc_sink_file *now,
                                const rc_sink_file *want, bool output)
{
    const char *opt = output ? "--sink file:" : "--on-error=dead-letter:", *none = output ? "no file sink" : "no dead-letter file";
    if (now->set != want->set || (now->set && strcmp(now->path, want->path) != 0)) {
        rc_logf("rowcast %s: %s %s: made with %s%s, this run has %s%s: resume with the same %s, or "
                "delete the %s to start over\n", c->command, what, path, want->set ? opt : none, want->set ? want->path : "",
                now->set ? opt : none, now->set ? now->path : "", output ? "--sink" : "dead-letter file", what);
        return false;
    }
    if (now->set && now->size < want->size) {
        rc_logf("rowcast %s: %s %s: %s holds %llu bytes, fewer than the %llu bytes the %s "
                "recorded: it was changed after the %s was written; restore it, or delete the %s%s\n", c->command, what, path,
                now->path, (unsigned long long)now->size, (unsigned long long)want->size, what, what, what,
                c->database ? " (the capture then appends to the file as it is)" : " (and the file) to start over");
        return false;
    }
    return true;
}

int rc_pipeline_cut_back(rc_pipeline *c, const char *what, const char *path, const rc_sink_state *want)
{
    rc_sink_state was, to;
    rc_sink_state_now(c->sink, &was);
    to = was;
    /* a file the store did not record (another --sink, or none then) got nothing of what came
     * before its position: it is appended to as it is (said when the store recorded another) */
    rc_sink_file *now[2] = {&to.output, &to.dead_letter};
    const rc_sink_file *rec[2] = {&want->output, &want->dead_letter};
    for (int i = 0; i < 2; i++) {
        if (!now[i]->set || !rec[i]->set) continue;
        if (strcmp(now[i]->path, rec[i]->path) != 0) {
            rc_logf("rowcast: %s %s recorded %s, not %s: %s is appended to as it is\n", what, path, rec[i]->path,
                    now[i]->path, now[i]->path);
            continue;
        }
        if (!rc_pipeline_file_resumable(c, what, path, now[i], rec[i], i == 0)) return RC_EXIT_USAGE;
        now[i]->size = rec[i]->size;
    }
    rc_error err;
    rc_error_clear(&err);
    if (rc_sink_restore(c->sink, &to, &was, &err) != RC_OK) {
        rc_logf("rowcast %s: %s %s: %s\n", c->command, what, path, err.message);
        return err.code == RC_ERR_USAGE ? RC_EXIT_USAGE : RC_EXIT_IO;
    }
    const rc_sink_file *before[2] = {&was.output, &was.dead_letter};
    for (int i = 0; i < 2; i++)
        if (before[i]->set && before[i]->size != now[i]->size)
            rc_logf("rowcast: cut %s back from %llu to %llu bytes, where %s %s left it\n", now[i]->path,
                    (unsigned long long)before[i]->size, (unsigned long long)now[i]->size, what, path);
    return RC_EXIT_OK;
}
