/* The sink front: picks the implementation from the URL, numbers records, keeps the
 * acknowledgement tracker and answers the safe checkpoint position. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "sink_impl.h"

enum { IN_FLIGHT = 1 << 20 }; /* records awaiting acknowledgement, at most */

static const sink_ops *const all_sinks[] = {&sink_stdout_ops, &sink_file_ops, &sink_kafka_ops};

rc_status rc_sink_open(const char *url, const rc_options *opts, const rc_sink_config *cfg, rc_sink **out,
                       rc_error *err)
{
    const sink_ops *ops = NULL;
    for (size_t i = 0; i < sizeof all_sinks / sizeof *all_sinks && !ops; i++) {
        size_t l = strlen(all_sinks[i]->scheme);
        if (!strncmp(url, all_sinks[i]->scheme, l)) ops = all_sinks[i];
    }
    if (!ops || (ops == &sink_stdout_ops && strcmp(url, "stdout") != 0))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--sink %s: expected stdout, file:PATH or kafka://HOST:PORT[,HOST:PORT...]/TOPIC", url);
    rc_sink *s = calloc(1, sizeof *s);
    if (!s || tracker_init(&s->tr, IN_FLIGHT) != RC_OK) {
        free(s);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    s->ops = ops;
    s->cfg = *cfg;
    rc_status st = ops->open(s, url + strlen(ops->scheme), opts, err);
    if (st != RC_OK) {
        tracker_fini(&s->tr);
        free(s);
        return st;
    }
    *out = s;
    return RC_OK;
}

const char *rc_sink_topic_template(const rc_sink *s) { return s->topic_template; }
bool rc_sink_is_kafka(const rc_sink *s) { return s->ops == &sink_kafka_ops; }

rc_status rc_sink_send(rc_sink *s, const rc_record *r, rc_error *err)
{
    while (!tracker_room(&s->tr)) {
        rc_status st = s->ops->sync ? s->ops->sync(s, err) : s->ops->poll(s, 100, err);
        if (st != RC_OK) return st;
        if (s->cfg.stop && *s->cfg.stop)
            return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "stopped by a signal while waiting for acknowledgements");
    }
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

void rc_sink_mark(rc_sink *s, uint64_t offset, uint64_t line) { tracker_mark_at(&s->tr, offset, line); }

rc_status rc_sink_poll(rc_sink *s, int timeout_ms, rc_error *err) { return s->ops->poll(s, timeout_ms, err); }

rc_status rc_sink_flush(rc_sink *s, int timeout_ms, rc_error *err)
{
    rc_status st = s->ops->flush(s, timeout_ms, err);
    if (st == RC_OK && s->ops->sync) st = s->ops->sync(s, err);
    return st;
}

bool rc_sink_checkpoint(rc_sink *s, uint64_t *offset, uint64_t *line)
{
    rc_error e;
    rc_error_clear(&e);
    if (s->ops->sync) s->ops->sync(s, &e); /* on failure nothing new is acknowledged */
    if (!s->tr.has_safe) return false;
    *offset = s->tr.safe_offset;
    *line = s->tr.safe_line;
    return true;
}

void rc_sink_get_stats(const rc_sink *s, rc_sink_stats *out) { *out = s->stats; }

void rc_sink_close(rc_sink *s)
{
    if (!s) return;
    s->ops->close(s);
    tracker_fini(&s->tr);
    free(s);
}

rc_status sink_dead_letter(rc_sink *s, const void *value, size_t len, rc_error *err)
{
    FILE *f = s->cfg.dead_letter;
    if (!value) value = "null", len = 4;
    if (fwrite(value, 1, len, f) != len || fputc('\n', f) == EOF || fflush(f) != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "writing dead-letter file %s: %s", s->cfg.dead_path,
                            strerror(errno));
    s->stats.dead_lettered++;
    return RC_OK;
}
