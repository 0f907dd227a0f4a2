/* Shared by the binlog event and decoder tests (test_my_event.c, test_my_decoder.c): where the
 * peers' test data is, and a string as JSON (quotes and backslashes escaped). */
#ifndef RC_TEST_MY_EVENT_COMMON_H
#define RC_TEST_MY_EVENT_COMMON_H

#include <stddef.h>
#include "rowcast/buf.h"

#define PEERS RC_SOURCE_DIR "/../shared/testdata/peers/"
#define GOMYSQL PEERS "go-mysql-org__go-mysql/extracted/replication/"
#define OSHEROFF PEERS "osheroff__mysql-binlog-connector-java/extracted/src/test/java/com/github/shyiko/mysql/binlog/event/deserialization/"

static inline void put_jstr(rc_buf *b, const char *s, size_t n)
{
    rc_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\') rc_buf_putc(b, '\\');
        rc_buf_putc(b, s[i]);
    }
    rc_buf_putc(b, '"');
}

#endif
