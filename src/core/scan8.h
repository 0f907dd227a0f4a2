/* Eight (or sixteen) bytes at a time over JSON string text: where the first byte is that a
 * JSON reader or writer must look at, shared by both. Internal to src/core. */
#ifndef RC_CORE_SCAN8_H
#define RC_CORE_SCAN8_H

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The offset of the first byte among the 8 at p that is a quote, a backslash, a control
 * character or a non-ASCII byte, or 8 when there is none. Each test below is exact for the
 * first such byte, so the lowest flagged byte is the first one. */
static inline unsigned rc_scan8_stop(const char *p)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ && defined(__GNUC__)
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    uint64_t x;
    memcpy(&x, p, 8);
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    uint64_t m = ((q - ones) & ~q) | ((b - ones) & ~b) | ((x - ones * 0x20) & ~x) | x;
    m &= high;
    return m ? (unsigned)__builtin_ctzll(m) / 8 : 8;
#else
    for (unsigned k = 0; k < 8; k++) {
        unsigned char c = (unsigned char)p[k];
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) return k;
    }
    return 8;
#endif
}

/* Bit k set for each of the 16 bytes at p that rc_scan8_stop would stop at (SSE2 where the
 * compiler has it: one signed compare finds control characters and non-ASCII bytes together). */
static inline unsigned rc_scan16_bits(const char *p)
{
#if defined(__SSE2__)
    __m128i x = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('"')), _mm_cmpeq_epi8(x, _mm_set1_epi8('\\'))),
                             _mm_cmplt_epi8(x, _mm_set1_epi8(0x20)));
    return (unsigned)_mm_movemask_epi8(m);
#else
    unsigned bits = 0;
    for (unsigned k = 0; k < 16; k++) {
        unsigned char c = (unsigned char)p[k];
        if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) bits |= 1u << k;
    }
    return bits;
#endif
}

/* The offset of the first stop among the 16 bytes at p, 16 when there is none. */
static inline unsigned rc_scan16_stop(const char *p)
{
    unsigned bits = rc_scan16_bits(p);
    return bits ? (unsigned)__builtin_ctz(bits) : 16;
}

/* The same from byte `from` of the 16 at p (the bytes before it already looked at): the
 * offset of the first stop counted from `from`, 16 - from when there is none. For the last
 * bytes of a text of 16 or more, scanned as the 16 that end it. */
static inline unsigned rc_scan16_stop_from(const char *p, unsigned from)
{
    unsigned bits = rc_scan16_bits(p) >> from;
    return bits ? (unsigned)__builtin_ctz(bits) : 16 - from;
}

#endif
