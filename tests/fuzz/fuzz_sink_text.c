/* Fuzz target for the sink's text parsers: the checkpoint file and topic templates. The first
 * byte picks the parser; an accepted checkpoint (version 1, or 2 with the output and
 * dead-letter files' sizes) must survive being written and read back; a
 * template that is accepted is expanded for an origin with characters
 * Kafka refuses, and the topic may only hold Kafka's topic characters. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline/pipeline.h"
#include "rowcast/sink.h"

static bool same_file(const rc_sink_file *a, const rc_sink_file *b)
{
    return a->set == b->set && (!a->set || (a->size == b->size && !strcmp(a->path, b->path)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    rc_error err;
    rc_error_clear(&err);
    const char *p = (const char *)data + 1;
    size_t n = size - 1;
    if (data[0] & 1) {
        static rc_checkpoint ck, again;
        if (rc_checkpoint_parse(p, n, &ck, &err) != RC_OK) return 0;
        if (ck.version == 1 && (ck.sink.output.set || ck.sink.dead_letter.set)) abort(); /* sizes are version 2's */
        /* what is accepted is written back (as version 2) as the same checkpoint */
        rc_buf b;
        rc_buf_init(&b, 0);
        rc_checkpoint_format(&ck, &b);
        rc_error_clear(&err);
        if (rc_checkpoint_parse(b.data, b.len, &again, &err) != RC_OK || again.version != 2 ||
            strcmp(ck.input, again.input) != 0 || !rc_pos_equal(&ck.pos, &again.pos) ||
            !same_file(&ck.sink.output, &again.sink.output) || !same_file(&ck.sink.dead_letter, &again.sink.dead_letter))
            abort();
        rc_buf_fini(&b);
        return 0;
    }
    char *tmpl = malloc(n + 1);
    if (!tmpl) return 0;
    memcpy(tmpl, p, n);
    tmpl[n] = '\0';
    const char *t;
    if (rc_topic_template(tmpl, &t, &err) == RC_OK) {
        rc_origin src;
        memset(&src, 0, sizeof src);
        src.db = (rc_str){"shop db", 7};
        src.table = (rc_str){"Ü{x}", 6};
        rc_buf b;
        rc_buf_init(&b, 0);
        rc_topic_expand(t, &src, "srv", &b);
        for (size_t i = 0; i < b.len; i++) { /* an accepted template only makes valid topic names */
            char c = b.data[i];
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-'))
                abort();
        }
        rc_buf_fini(&b);
    }
    free(tmpl);
    return 0;
}
