/* Where a quoted text ends, as SQL quotes it: a doubled quote stands for one, and in MySQL's
 * strings a backslash escapes the next byte. Shared by the column type parser (enum and set
 * labels) and the MySQL DDL lexer. Internal header. */
#ifndef RC_CORE_QUOTED_H
#define RC_CORE_QUOTED_H

#include <stdbool.h>
#include <stddef.h>

/* The index of the quote q that closes the text starting at s[i] (just after the opening
 * quote), or an index >= n when none does. */
static inline size_t rc_quoted_end(const char *s, size_t n, size_t i, char q, bool backslash)
{
    while (i < n) {
        if (backslash && s[i] == '\\') i += 2;
        else if (s[i] != q) i++;
        else if (i + 1 < n && s[i + 1] == q) i += 2;
        else return i;
    }
    return i;
}

#endif
