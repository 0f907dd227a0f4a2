/* A fast non-cryptographic 64-bit hash for the per-table caches (schemas, parsed column
 * types): 8 bytes per step. Callers still compare the full key on a hit. */
#ifndef ROWCAST_HASH_H
#define ROWCAST_HASH_H

#include <stdint.h>
#include <string.h>

static inline uint64_t rc_hash64(const void *data, size_t n, uint64_t seed)
{
    const unsigned char *p = data;
    uint64_t h = seed ^ (n * 0x9E3779B97F4A7C15ull);
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
        p += 8, n -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0x94D049BB133111EBull;
    return h ^ (h >> 29);
}

#endif
