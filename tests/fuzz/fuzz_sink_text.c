/* Fuzz target for the sink's text parsers: the checkpoint file and topic templates. The first
 * byte picks the parser; an accepted checkpoint must survive being written and read back; a
 * template that is accepted is expanded for an origin with characters
 * Kafka refuses, and the topic may only hold Kafka's topic characters. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/sink.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    rc_error err;
    rc_error_clear(&err);
    const char *p = (const char *)data + 1;
    size_t n = size - 1;
    if (data[0] & 1) {
        rc_checkpoint ck, again;
        if (rc_checkpoint_parse(p, n, &ck, &err) != RC_OK) return 0;
        /* what is accepted is written back as the same checkpoint */
        rc_buf b;
        rc_buf_init(&b, 0);
        rc_checkpoint_format(&ck, &b);
        rc_error_clear(&err);
        if (rc_checkpoint_parse(b.data, b.len, &again, &err) != RC_OK || strcmp(ck.input, again.input) != 0 ||
            ck.offset != again.offset || ck.line != again.line)
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
