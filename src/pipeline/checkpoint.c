/* The checkpoint store of a run (docs/sinks.md): at the start, the checkpoint's position is
 * checked against this run's input and sink, the sink's files are cut back to it and it is
 * stored again before any output; during the run, the sink's safe position (the last one
 * whose records are all acknowledged) is stored at most every interval, and the source is
 * told (ack). The file's text is checkpoint_file.c's; cutting the sink's files back, cut_back.c. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pipeline_impl.h"
#include "sinks/sink_txn.h"
#include "core/log.h"

/* The clock of the interval between checkpoints, read for every item: the coarse one (a few ms
 * of resolution, ten times cheaper; the precise one was 1.6% of a snapshot's CPU). */
static double interval_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A file of the sink state in messages: the name this run was given for it. */
static const char *state_name(const rc_pipeline *c, const char *sink_url, bool output)
{
    return output ? sink_url + strlen("file:") : c->dead_path;
}

/* The sink state as text to a source that stores it (rowcast/source.h, ack_state). */
static void ack_state(rc_pipeline *c, const rc_pos *pos, const rc_sink_state *st)
{
    rc_buf text;
    rc_buf_init(&text, 0);
    rc_sink_state_format(st, &text);
    rc_buf_putc(&text, '\0');
    if (text.err == RC_OK) c->src->ops->ack_state(c->src, pos, text.data);
    rc_buf_fini(&text); /* out of memory: not acknowledged (the checkpoint stays behind) */
}

int rc_pipeline_capture_start(rc_pipeline *c)
{
    const rc_source_ops *ops = c->src->ops;
    /* --exactly-once: a capture from no position of its own at the server's current one finds a
     * lost state in the topic (rc_sink_eos_fresh) */
    rc_pos at;
    bool resumed = (ops->resumed && ops->resumed(c->src)) || (ops->stored_state && ops->stored_state(c->src)) ||
                   (ops->resumes_at && ops->resumes_at(c->src, &at));
    if (!resumed && (!c->capture->start || !strcmp(c->capture->start, "current"))) {
        rc_error err;
        rc_error_clear(&err);
        if (rc_sink_eos_fresh(c->sink, ops->resumes_at ? "a new slot" : c->capture->checkpoint ? "no state in --checkpoint" : "no --checkpoint",
                              &err) != RC_OK) {
            rc_logf("rowcast %s: %s\n", c->command, err.message);
            return err.code == RC_ERR_USAGE ? RC_EXIT_USAGE : RC_EXIT_IO;
        }
    }
    if (ops->ack_state) {
        const char *stored = ops->stored_state ? ops->stored_state(c->src) : NULL;
        if (stored) {
            rc_sink_state want;
            rc_error err;
            rc_error_clear(&err);
            if (rc_sink_state_parse(stored, strlen(stored), &want, &err) != RC_OK) {
                rc_logf("rowcast %s: checkpoint %s: %s\n", c->command, c->capture->checkpoint, err.message);
                return RC_EXIT_USAGE;
            }
            int rc = rc_pipeline_cut_back(c, "checkpoint", c->capture->checkpoint, &want);
            if (rc != RC_EXIT_OK) return rc;
        }
        rc_sink_state now;
        rc_sink_state_now(c->sink, &now);
        ack_state(c, NULL, &now);
        return RC_EXIT_OK;
    }
    rc_sink_state now;
    rc_sink_state_now(c->sink, &now);
    return ops->resumes_at && now.output.set ? rc_pipeline_slot_start(c) : RC_EXIT_OK;
}

/* --checkpoint at the start, with the sink open: the input must be the checkpoint's (by real
 * path, so ./in and in and /abs/in are one input, wherever the checkpoint was made); a resumed
 * run cuts the sink's files back to the sizes the checkpoint recorded and says where it
 * resumes. The checkpoint is then stored at once, fsync'ed, before any output: a run killed
 * before its first interval is resumed like any other, and an output file that is there
 * without a checkpoint was there before the run (appended to, as file:PATH always is; said).
 * `sink_url` is NULL for Kafka. RC_EXIT_OK or a status after a message. */
int rc_pipeline_checkpoint_start(rc_pipeline *c, const char *input, const char *sink_url)
{
    rc_error err;
    rc_error_clear(&err);
    char real[PATH_MAX], ckreal[PATH_MAX];
    if (!realpath(input, real)) {
        rc_logf("rowcast %s: cannot open %s: %s\n", c->command, input, strerror(errno));
        return RC_EXIT_IO;
    }
    if (strlen(real) >= sizeof c->ck.input || strchr(real, '\n')) {
        rc_logf("rowcast %s: input path a checkpoint cannot hold: %s\n(see rowcast help %s)\n", c->command, input, c->command);
        return RC_EXIT_USAGE;
    }
    rc_checkpoint *ck = &c->ck;
    rc_status got = rc_checkpoint_read(c->ck_path, ck, &err);
    if (got != RC_OK && got != RC_SKIP) {
        rc_logf("rowcast %s: %s\n", c->command, err.message);
        return RC_EXIT_IO;
    }
    rc_sink_state was;
    rc_sink_state_now(c->sink, &was);
    rc_sink_file *files[2] = {&was.output, &was.dead_letter};
    bool is_stdout = sink_url && !strcmp(sink_url, "stdout");
    if (got == RC_SKIP) {
        for (int i = 0; i < 2; i++)
            if (files[i]->set && files[i]->size)
                rc_logf("rowcast %s: no checkpoint %s yet: %s is read from its start and appended to %s, "
                        "which already holds %llu bytes\n", c->command, c->ck_path, input, state_name(c, sink_url, i == 0),
                        (unsigned long long)files[i]->size);
    } else {
        const char *made = realpath(ck->input, ckreal) ? ckreal : ck->input;
        if (strcmp(made, real) != 0) {
            rc_logf("rowcast %s: checkpoint %s is for input %s, not %s\n", c->command, c->ck_path, made, real);
            return RC_EXIT_USAGE;
        }
        if (ck->version == 1) {
            for (int i = 0; i < 2; i++)
                if (files[i]->set)
                    rc_logf("rowcast %s: checkpoint %s (version 1) has no file sizes: %s is appended to as it "
                            "is; what the stopped run wrote there after line %llu may be there twice\n", c->command, c->ck_path,
                            state_name(c, sink_url, i == 0), (unsigned long long)rc_pos_lines_line(&ck->pos));
        } else if (!rc_pipeline_file_resumable(c, "checkpoint", c->ck_path, files[0], &ck->sink.output, true) ||
                   !rc_pipeline_file_resumable(c, "checkpoint", c->ck_path, files[1], &ck->sink.dead_letter, false)) {
            return RC_EXIT_USAGE;
        } else if (rc_sink_restore(c->sink, &ck->sink, &was, &err) != RC_OK) {
            rc_logf("rowcast %s: checkpoint %s: %s\n", c->command, c->ck_path, err.message);
            return err.code == RC_ERR_USAGE ? RC_EXIT_USAGE : RC_EXIT_IO;
        }
        rc_logf("rowcast: resuming %s at line %llu, byte %llu (checkpoint %s)%s\n", input,
                (unsigned long long)rc_pos_lines_line(&ck->pos) + 1,
                (unsigned long long)rc_pos_lines_offset(&ck->pos), c->ck_path,
                !is_stdout ? "" : "; stdout is not cut back: what the stopped run wrote after that is written again");
        rc_sink_file *want[2] = {&ck->sink.output, &ck->sink.dead_letter};
        for (int i = 0; i < 2 && ck->version > 1; i++)
            if (files[i]->set && files[i]->size != want[i]->size)
                rc_logf("rowcast: cut %s back from %llu to %llu bytes, where checkpoint %s left it\n",
                        state_name(c, sink_url, i == 0), (unsigned long long)files[i]->size,
                        (unsigned long long)want[i]->size, c->ck_path);
        c->start = ck->pos;
    }
    ck->version = 2;
    strcpy(ck->input, real);
    ck->pos = c->start.kind ? c->start : rc_pos_lines(0, 0);
    rc_sink_state_now(c->sink, &ck->sink);
    if (rc_checkpoint_write(c->ck_path, ck, true, &err) != RC_OK) {
        rc_logf("rowcast %s: %s\n", c->command, err.message);
        return RC_EXIT_IO;
    }
    c->ck_written = true;
    c->ck_last = interval_clock(); /* the next one an interval from now */
    return RC_EXIT_OK;
}

/* Stores the sink's safe position when it moved (pipeline_impl.h); without a checkpoint file
 * (a database source: its slot is the checkpoint; a Kafka source: its group's offsets) only the
 * source is told. */
int rc_pipeline_checkpoint(rc_pipeline *c, bool now)
{
    if (!c->ck_path && !c->acks) return 0;
    double t = interval_clock();
    if (!now && t - c->ck_last < c->ck_interval) return 0;
    c->ck_last = t;
    rc_pos pos;
    rc_sink_state state;
    /* the start's checkpoint is stored (rc_pipeline_checkpoint_start) before anything is written */
    /* during the run the file sink's fsync is not waited for: the position comes an interval later */
    if (!(now ? rc_sink_checkpoint : rc_sink_checkpoint_soon)(c->sink, &pos, &state) || (c->ck_written && rc_pos_compare(&pos, &c->ck.pos) == 0)) return 0;
    c->ck.pos = pos, c->ck.sink = state;
    c->ck_written = true;
    if (!c->ck_path) { /* a file's sizes stored before the source (its slot) may move past them */
        if (!c->src) return 0;
        if (c->slot_state && rc_pipeline_slot_store(c, &pos, &state) != 0) return -1;
        if (c->src->ops->ack_state) ack_state(c, &pos, &state);
        else c->src->ops->ack(c->src, &pos);
        return 0;
    }
    rc_error err;
    rc_error_clear(&err);
    if (rc_checkpoint_write(c->ck_path, &c->ck, now, &err) == RC_OK) {
        if (c->src) c->src->ops->ack(c->src, &pos); /* stored: the source may let go of what is before */
        return 0;
    }
    rc_pipeline_progress_clear(c);
    rc_logf("rowcast: %s\n", err.message);
    return -1;
}

