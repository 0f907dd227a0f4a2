/* JSON writing helpers shared by every encoder: string escaping from one table, and
 * Latin-1 rendering of bytes.
 *
 * Escaping rule: `"` and `\` are escaped; \b \f \n \r \t use their short forms; every other
 * byte below 0x20 is written \u00XX (upper-case hex, as Jackson does); DEL and non-ASCII
 * UTF-8 pass through unchanged; '/' is not escaped. Invalid UTF-8 (a byte that does not
 * start or continue a well-formed sequence, overlongs, surrogates, > U+10FFFF) is replaced by
 * U+FFFD, one replacement per maximal ill-formed subpart (the Unicode "best practice" that
 * Java's decoders follow), so a writer never emits invalid JSON. */
#ifndef ROWCAST_JSONW_H
#define ROWCAST_JSONW_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "rowcast/buf.h"

/* Writes `"` + escaped text + `"`. */
void rc_jw_str(rc_buf *b, const char *p, size_t n);
/* Writes escaped text without the quotes. */
void rc_jw_str_body(rc_buf *b, const char *p, size_t n);
/* Writes bytes as a JSON string of the code points U+0000..U+00FF (ISO-8859-1 decoding). */
void rc_jw_latin1(rc_buf *b, const unsigned char *p, size_t n);

/* Length of the longest valid UTF-8 prefix; equals n when the whole text is valid. */
size_t rc_utf8_valid_prefix(const char *p, size_t n);

/* Length of the prefix of bytes below 0x80, eight at a time (most text is ASCII). */
static inline size_t rc_ascii_prefix(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t x;
        memcpy(&x, p + i, 8);
        if (x & 0x8080808080808080u) break;
    }
    while (i < n && p[i] < 0x80) i++;
    return i;
}

#endif
