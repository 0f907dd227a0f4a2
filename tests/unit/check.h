/* Helpers for the unit tests: render into a buffer and compare with expected text. */
#ifndef RC_TEST_CHECK_H
#define RC_TEST_CHECK_H

#include <string.h>
#include "rowcast/buf.h"

/* Runs `stmt` (which writes into `b`) and compares the buffer with `want`. */
#define EXPECT_TEXT(want, stmt)                                                                    \
    do {                                                                                           \
        rc_buf b;                                                                                  \
        rc_buf_init(&b, 0);                                                                        \
        stmt;                                                                                      \
        rc_buf_putc(&b, '\0');                                                                     \
        assert_string_equal(b.data, want);                                                         \
        rc_buf_fini(&b);                                                                           \
    } while (0)

#endif
