/* Kafka's default partitioner: murmur2 with seed 0x9747b28c over the key bytes, as the Java
 * client's Utils.murmur2, then toPositive(hash) % partitions. Written from the algorithm; the
 * unit test checks the values Kafka's own tests publish. */
#include "rowcast/sink.h"

int32_t rc_murmur2(const void *key, size_t len)
{
    const unsigned char *d = key;
    const uint32_t m = 0x5bd1e995u;
    uint32_t h = 0x9747b28cu ^ (uint32_t)len;
    size_t i = 0;
    for (; i + 4 <= len; i += 4) {
        uint32_t k = (uint32_t)d[i] | (uint32_t)d[i + 1] << 8 | (uint32_t)d[i + 2] << 16 | (uint32_t)d[i + 3] << 24;
        k *= m;
        k ^= k >> 24;
        k *= m;
        h *= m;
        h ^= k;
    }
    switch (len & 3) {
    case 3: h ^= (uint32_t)d[i + 2] << 16; /* fall through */
    case 2: h ^= (uint32_t)d[i + 1] << 8;  /* fall through */
    case 1:
        h ^= d[i];
        h *= m;
    }
    h ^= h >> 13;
    h *= m;
    h ^= h >> 15;
    return (int32_t)h;
}

int32_t rc_murmur2_partition(const void *key, size_t len, int32_t count)
{
    if (count <= 0) return 0;
    return (int32_t)(((uint32_t)rc_murmur2(key, len) & 0x7fffffffu) % (uint32_t)count);
}
