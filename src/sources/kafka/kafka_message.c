/* The message a bad item came as (rc_source_ops.message), for a dead letter to Kafka: its
 * headers are kept in the batch text after its key (add_message, kafka_source.c), in the layout
 * rc_source_message.headers describes. */
#include <string.h>
#include "sources/kafka/kafka_source_int.h"

/* Puts a 4-byte length at p (when p is not NULL); the bytes it takes. */
static size_t put_len(char *p, uint32_t n)
{
    if (p) memcpy(p, &n, sizeof n);
    return sizeof n;
}

size_t rc_ksrc_headers_put(const rd_kafka_message_t *m, char *out)
{
    rd_kafka_headers_t *hdrs;
    if (rd_kafka_message_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR) return 0;
    const char *name;
    const void *value;
    size_t size, n = 0;
    for (size_t i = 0; !rd_kafka_header_get_all(hdrs, i, &name, &value, &size); i++) {
        size_t nl = strlen(name);
        n += put_len(out ? out + n : NULL, (uint32_t)nl);
        if (out) memcpy(out + n, name, nl);
        n += nl;
        n += put_len(out ? out + n : NULL, value ? (uint32_t)size : UINT32_MAX);
        if (out && value) memcpy(out + n, value, size);
        n += value ? size : 0;
    }
    return n;
}

void rc_ksrc_message(const rc_source *src, const rc_batch *b, size_t i, rc_source_message *out)
{
    const kafka_source *k = (const kafka_source *)src;
    const rc_source_item *it = &b->lines[i];
    const kafka_part *p = &k->parts[k->rec[i].part];
    const char *value = b->text + it->off;
    *out = (rc_source_message){.topic = p->topic,
                               .partition = p->partition,
                               .offset = (int64_t)it->lineno,
                               .value = k->rec[i].value ? value : NULL,
                               .value_len = it->n,
                               .key = k->rec[i].key ? value + it->n : NULL,
                               .key_len = k->rec[i].key_n,
                               .headers = value + it->n + k->rec[i].key_n,
                               .headers_len = k->rec[i].hdr_n};
}
