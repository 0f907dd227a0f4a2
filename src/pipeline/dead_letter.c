/* --on-error=dead-letter: a bad item to the dead-letter file (through the sink, which counts the
 * file's size for the checkpoint), or, with dead-letter:kafka://HOSTS/TOPIC, as a Kafka message
 * (sinks/kafka_dead_letter.h) acknowledged before the run goes on: a Kafka source's message as
 * it came (key, value, headers), another item's text as the value; rowcast's headers say where
 * it came from and why it is bad. */
#include <inttypes.h>
#include <stdio.h>
#include "pipeline/pipeline_impl.h"
#include "sinks/kafka_dead_letter.h"

enum { EXTRA = 4 };

int rc_pipeline_dead_letter(rc_pipeline *c, const rc_batch *b, size_t i, const rc_error *why, rc_error *err)
{
    const rc_source_item *ln = &b->lines[i];
    if (!c->dead_kafka) return rc_sink_reject(c->sink, b->text + ln->off, ln->raw, err) == RC_OK ? RC_EXIT_OK : RC_EXIT_IO;
    char error[sizeof why->message + 64], a[32], bb[32], where[512];
    snprintf(error, sizeof error, "%s error: %s", rc_status_name(why->code), why->message);
    rc_header extra[EXTRA];
    rc_dead_letter m = {.extra = extra, .nextra = EXTRA, .where = where};
    if (c->src && c->src->ops->message) {
        rc_source_message sm;
        c->src->ops->message(c->src, b, i, &sm);
        m.key = sm.key, m.key_len = sm.key_len, m.value = sm.value, m.value_len = sm.value_len;
        m.headers = sm.headers, m.headers_len = sm.headers_len;
        snprintf(a, sizeof a, "%" PRId32, sm.partition);
        snprintf(bb, sizeof bb, "%" PRId64, sm.offset);
        snprintf(where, sizeof where, "topic %s partition %s offset %s", sm.topic, a, bb);
        extra[0] = (rc_header){"rowcast.source.topic", sm.topic, strlen(sm.topic)};
        extra[1] = (rc_header){"rowcast.source.partition", a, strlen(a)};
        extra[2] = (rc_header){"rowcast.source.offset", bb, strlen(bb)};
    } else {
        /* without its line end (a binlog event's bytes have none: its raw size) */
        m.value = b->text + ln->off, m.value_len = ln->n ? ln->n : ln->raw;
        snprintf(a, sizeof a, "%" PRIu64, ln->lineno);
        snprintf(bb, sizeof bb, "%" PRIu64, ln->file_off);
        snprintf(where, sizeof where, "%s line %s", ln->file, a);
        extra[0] = (rc_header){"rowcast.source.file", ln->file, strlen(ln->file)};
        extra[1] = (rc_header){"rowcast.source.line", a, strlen(a)};
        extra[2] = (rc_header){"rowcast.source.byte", bb, strlen(bb)};
    }
    extra[3] = (rc_header){"rowcast.error", error, strlen(error)};
    return rc_dead_kafka_write(c->dead_kafka, &m, err) == RC_OK ? RC_EXIT_OK : RC_EXIT_IO;
}
