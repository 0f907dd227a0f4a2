/* The sink front: picks the implementation from the URL, numbers records, keeps the
 * acknowledgement tracker and answers the safe checkpoint position. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sink_impl.h"
#include "sink_txn.h"

enum { IN_FLIGHT = 1 << 20 }; /* records awaiting acknowledgement, at most */

static const sink_ops *const all_sinks[] = {&rc_sink_stdout_ops, &rc_sink_file_ops, &rc_sink_kafka_ops};

rc_status rc_sink_open(const char *url, const rc_options *opts, const rc_sink_config *cfg, rc_sink **out,
                       rc_error *err)
{
    return rc_sink_open_named(url, opts, cfg, NULL, out, err);
}

/* The sink `url` names, else NULL after the error. */
static const sink_ops *sink_of(const char *url, rc_error *err)
{
    const sink_ops *ops = NULL;
    for (size_t i = 0; i < sizeof all_sinks / sizeof *all_sinks && !ops; i++) {
        size_t l = strlen(all_sinks[i]->scheme);
        if (!strncmp(url, all_sinks[i]->scheme, l)) ops = all_sinks[i];
    }
    if (ops && (ops != &rc_sink_stdout_ops || !strcmp(url, "stdout"))) return ops;
    rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--sink %s: expected stdout, file:PATH or kafka://HOST:PORT[,HOST:PORT...]/TOPIC", url);
    return NULL;
}

rc_status rc_sink_check(const char *url, const rc_options *opts, rc_error *err)
{
    const sink_ops *ops = sink_of(url, err);
    if (!ops) return err->code;
    return ops->check ? ops->check(url + strlen(ops->scheme), opts, err) : RC_OK;
}

rc_status rc_sink_open_named(const char *url, const rc_options *opts, const rc_sink_config *cfg, const char *name,
                             rc_sink **out, rc_error *err)
{
    const sink_ops *ops = sink_of(url, err);
    if (!ops) return err->code;
    rc_sink *s = calloc(1, sizeof *s);
    if (!s || rc_tracker_init(&s->tr, IN_FLIGHT) != RC_OK) {
        free(s);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    s->ops = ops;
    s->cfg = *cfg;
    s->name = name;
    rc_status st = ops->open(s, url + strlen(ops->scheme), opts, err);
    /* Kafka's refusals reach the dead-letter file in report order, not input order: a size
     * there marks no input position, so that file is not tracked (appended to, at least once) */
    if (st == RC_OK && cfg->dead_letter && ops != &rc_sink_kafka_ops)
        st = rc_sink_file_track(&s->state.dead_letter, cfg->dead_path, fileno(cfg->dead_letter), err);
    if (st != RC_OK) {
        if (s->impl) ops->close(s);
        rc_tracker_fini(&s->tr);
        free(s);
        return st;
    }
    *out = s;
    return RC_OK;
}

const char *rc_sink_topic_template(const rc_sink *s) { return s->topic_template; }
bool rc_sink_is_kafka(const rc_sink *s) { return s->ops == &rc_sink_kafka_ops; }

/* Waits (serving acknowledgements) until n more records may be numbered. */
static rc_status wait_room(rc_sink *s, size_t n, rc_error *err)
{
    while (s->tr.next + n - s->tr.base > s->tr.mask + 1) {
        rc_status st = s->ops->sync ? s->ops->sync(s, err) : s->ops->poll(s, 100, err);
        if (st != RC_OK) return st;
        if (s->cfg.stop && *s->cfg.stop)
            return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "stopped by a signal while waiting for acknowledgements");
    }
    return RC_OK;
}

rc_status rc_sink_send(rc_sink *s, const rc_record *r, rc_error *err)
{
    rc_status wst = wait_room(s, 1, err);
    if (wst != RC_OK) return wst;
    uint64_t seq = tracker_take(&s->tr);
    rc_status st = s->ops->send(s, r, seq, err);
    if (st != RC_OK) {
        tracker_untake(&s->tr); /* never handed over */
        return st;
    }
    s->stats.sent++;
    s->stats.bytes += r->key_len + r->value_len;
    return RC_OK;
}

size_t rc_sink_block_max(const rc_sink *s)
{
    return s->ops->send_block && (!s->ops->blocks || s->ops->blocks(s)) ? (size_t)s->tr.mask + 1 : 0;
}

rc_status rc_sink_send_block(rc_sink *s, rc_buf *block, size_t n, uint64_t bytes, rc_error *err)
{
    rc_status st = wait_room(s, n, err);
    if (st != RC_OK) return st;
    uint64_t seq = s->tr.next;
    s->tr.next += n;
    if ((st = s->ops->send_block(s, block, seq, n, err)) != RC_OK) {
        s->tr.next = seq; /* never handed over */
        return st;
    }
    s->stats.sent += n;
    s->stats.bytes += bytes;
    return RC_OK;
}

void rc_sink_mark(rc_sink *s, const rc_pos *pos)
{
    rc_tracker_mark_at(&s->tr, pos, (tracker_sizes){s->state.output.size, s->state.dead_letter.size});
}

rc_status rc_sink_poll(rc_sink *s, int timeout_ms, rc_error *err) { return s->ops->poll(s, timeout_ms, err); }

rc_status rc_sink_flush(rc_sink *s, int timeout_ms, rc_error *err)
{
    rc_status st = s->ops->flush(s, timeout_ms, err);
    if (st == RC_OK && s->ops->sync) st = s->ops->sync(s, err);
    return st;
}

/* `wait`: the sink's sync, else its sync_start when it has one */
static bool checkpoint(rc_sink *s, rc_pos *pos, rc_sink_state *state, bool wait)
{
    rc_error e;
    rc_error_clear(&e);
    /* the files' data durable before a checkpoint names their sizes; on failure nothing new */
    if (s->ops->sync && (!wait && s->ops->sync_start ? s->ops->sync_start : s->ops->sync)(s, &e) != RC_OK) return false;
    if (s->dead_unsynced && s->state.dead_letter.set) {
        if (fsync(fileno(s->cfg.dead_letter)) != 0) return false;
        s->dead_unsynced = false;
    }
    if (!s->tr.has_safe) return false;
    *pos = s->tr.safe_pos;
    *state = s->state;
    state->output.size = s->tr.safe_sizes.output;
    state->dead_letter.size = s->tr.safe_sizes.dead_letter;
    return true;
}

bool rc_sink_checkpoint(rc_sink *s, rc_pos *pos, rc_sink_state *state) { return checkpoint(s, pos, state, true); }
bool rc_sink_checkpoint_soon(rc_sink *s, rc_pos *pos, rc_sink_state *state) { return checkpoint(s, pos, state, false); }

void rc_sink_state_now(const rc_sink *s, rc_sink_state *out) { *out = s->state; }

/* One tracked file of a resumed run: the same file as the checkpoint's (or none on both sides),
 * at least as long as recorded (the caller says why not, with both paths and sizes; these
 * refusals only guard the cut); it is cut back to the recorded size. */
static rc_status restore_file(rc_sink *s, rc_sink_file *now, const rc_sink_file *want, bool output, rc_error *err)
{
    if (now->set != want->set || (now->set && strcmp(now->path, want->path) != 0))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "the checkpoint tracks another %s than this run",
                            output ? "output file" : "dead-letter file");
    if (!now->set || now->size == want->size) return RC_OK;
    if (now->size < want->size)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s is shorter than the checkpoint recorded", now->path);
    FILE *f = output ? s->out : s->cfg.dead_letter;
    if (fflush(f) != 0 || ftruncate(fileno(f), (off_t)want->size) != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "cannot cut %s back to %llu bytes: %s", now->path,
                            (unsigned long long)want->size, strerror(errno));
    now->size = want->size;
    return RC_OK;
}

rc_status rc_sink_restore(rc_sink *s, const rc_sink_state *want, rc_sink_state *was, rc_error *err)
{
    *was = s->state;
    rc_status st = restore_file(s, &s->state.output, &want->output, true, err);
    if (st == RC_OK) st = restore_file(s, &s->state.dead_letter, &want->dead_letter, false, err);
    return st;
}

rc_status rc_sink_reject(rc_sink *s, const void *line, size_t len, rc_error *err)
{
    FILE *f = s->cfg.dead_letter;
    bool nl = len && ((const char *)line)[len - 1] == '\n';
    if (!f || fwrite(line, 1, len, f) != len || (!nl && fputc('\n', f) == EOF) || fflush(f) != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "writing dead-letter file %s: %s", s->cfg.dead_path,
                            f ? strerror(errno) : "none given");
    s->state.dead_letter.size += len + !nl;
    s->dead_unsynced = true;
    return RC_OK;
}

void rc_sink_get_stats(const rc_sink *s, rc_sink_stats *out) { *out = s->stats; }
uint64_t rc_sink_acknowledged(const rc_sink *s) { return s->tr.base; }

void rc_sink_close(rc_sink *s)
{
    if (!s) return;
    s->ops->close(s);
    rc_tracker_fini(&s->tr);
    free(s);
}
