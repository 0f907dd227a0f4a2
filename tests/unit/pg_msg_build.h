/* Building pgoutput messages byte by byte (the layouts of "Logical Replication Message
 * Formats"), for the pgoutput decoder and pg_events tests. */
#ifndef RC_TEST_PG_MSG_BUILD_H
#define RC_TEST_PG_MSG_BUILD_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct mb {
    uint8_t b[1024];
    size_t n;
} mb;

static inline void put(mb *m, uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; i--) m->b[m->n++] = (uint8_t)(v >> (8 * i));
}
static inline void u8(mb *m, unsigned v) { put(m, v, 1); }
static inline void u16(mb *m, unsigned v) { put(m, v, 2); }
static inline void u32(mb *m, uint32_t v) { put(m, v, 4); }
static inline void u64(mb *m, uint64_t v) { put(m, v, 8); }
static inline void raw(mb *m, const void *p, size_t n)
{
    memcpy(m->b + m->n, p, n);
    m->n += n;
}
static inline void str(mb *m, const char *s) { raw(m, s, strlen(s) + 1); }
/* a tuple column: 'n', 'u', or 't'/'b' with its bytes */
static inline void col(mb *m, char kind, const char *v, size_t n)
{
    u8(m, (uint8_t)kind);
    if (kind == 't' || kind == 'b') {
        u32(m, (uint32_t)n);
        raw(m, v, n);
    }
}
static inline void text(mb *m, const char *v) { col(m, 't', v, strlen(v)); }

#endif
