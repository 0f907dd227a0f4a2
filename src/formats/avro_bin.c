/* Avro binary primitives and container framing. */
#include <string.h>
#include "formats/avro_bin.h"

void rc_avro_long(rc_buf *b, int64_t v)
{
    uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    char *w = rc_buf_reserve(b, 10);
    if (!w) return;
    size_t i = 0;
    while (z >= 0x80) {
        w[i++] = (char)(z | 0x80);
        z >>= 7;
    }
    w[i++] = (char)z;
    rc_buf_commit(b, i);
}

void rc_avro_string(rc_buf *b, const char *p, size_t n)
{
    rc_avro_long(b, (int64_t)n);
    rc_buf_put(b, p, n);
}

void rc_avro_double(rc_buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, 8);
    char w[8];
    for (int i = 0; i < 8; i++) w[i] = (char)(u >> (8 * i));
    rc_buf_put(b, w, 8);
}

void rc_avro_container_header(rc_buf *b, const char *schema, size_t schema_n, const uint8_t sync[16])
{
    RC_BUF_LIT(b, "Obj\x01");
    rc_avro_long(b, 2); /* metadata map: one block of two entries */
    rc_avro_string(b, "avro.schema", 11);
    rc_avro_string(b, schema, schema_n);
    rc_avro_string(b, "avro.codec", 10);
    rc_avro_string(b, "null", 4);
    rc_avro_long(b, 0);
    rc_buf_put(b, sync, 16);
}

void rc_avro_container_block(rc_buf *b, const char *records, size_t n, int64_t count, const uint8_t sync[16])
{
    rc_avro_long(b, count);
    rc_avro_long(b, (int64_t)n);
    rc_buf_put(b, records, n);
    rc_buf_put(b, sync, 16);
}
