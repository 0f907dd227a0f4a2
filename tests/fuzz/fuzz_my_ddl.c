/* libFuzzer target: the MySQL schema history's DDL parser and its text (src/sources/mysql:
 * my_ddl.c, my_history_text.c). An input that starts with the history's first line is read as
 * a history text; any other is statements separated by NUL bytes, applied in order to a history
 * that knows two tables. No input may crash; an error names a byte within its statement (or
 * text) and has a message, and a refused statement leaves the history as it was; after every
 * statement, and after a text that reads, the history written, read back and written again
 * gives the same text (the round trip the checkpoint relies on). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_schema.h"

static void roundtrip(const rc_my_history *h)
{
    rc_buf a, b;
    rc_buf_init(&a, 0);
    rc_buf_init(&b, 0);
    rc_my_history_write(h, &a);
    rc_my_history *h2 = rc_my_history_new();
    rc_error err;
    rc_error_clear(&err);
    if (rc_my_history_read(h2, a.data, a.len, &err) != RC_OK) abort();
    rc_my_history_write(h2, &b);
    if (a.len != b.len || memcmp(a.data, b.data, a.len)) abort();
    rc_my_history_free(h2);
    rc_buf_fini(&a);
    rc_buf_fini(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char magic[] = "rowcast-mysql-history 1\n";
    rc_my_history *h = rc_my_history_new();
    rc_error err;
    rc_error_clear(&err);
    if (size >= sizeof magic - 1 && memcmp(data, magic, sizeof magic - 1) == 0) {
        if (rc_my_history_read(h, (const char *)data, size, &err) == RC_OK) roundtrip(h);
        else if (!err.message[0] || (err.offset != RC_NO_OFFSET && err.offset > size)) abort();
        rc_my_history_free(h);
        return 0;
    }
    rc_my_ddl_result r;
    static const char *const setup[] = {
        "CREATE TABLE t (id INT PRIMARY KEY, a VARCHAR(10) CHARSET latin1, b ENUM('x','y'), c INT AS (id) INVISIBLE)",
        "CREATE TABLE d2.u (k BIGINT UNSIGNED, v TEXT, PRIMARY KEY (k, v(4))) DEFAULT CHARSET=utf8mb4",
    };
    for (size_t i = 0; i < 2; i++)
        if (rc_my_history_ddl(h, (rc_str){"db", 2}, (rc_str){setup[i], strlen(setup[i])}, &r, &err) != RC_OK) abort();
    /* (empty statements are skipped, and at most 256 are applied: a binary seed holds
     * thousands of NULs, and each statement costs two writes and a read of the whole history,
     * which made one 28 kB input take over the 3 s timeout on a loaded machine) */
    size_t st = 0;
    for (unsigned applied = 0; st <= size && applied < 256;) {
        const uint8_t *nul = memchr(data + st, 0, size - st);
        size_t end = nul ? (size_t)(nul - data) : size;
        rc_str sql = {(const char *)data + st, end - st};
        if (!sql.n) {
            st = end + 1;
            continue;
        }
        applied++;
        rc_error_clear(&err);
        rc_buf before;
        rc_buf_init(&before, 0);
        rc_my_history_write(h, &before);
        if (rc_my_history_ddl(h, (rc_str){"db", 2}, sql, &r, &err) != RC_OK) {
            if (!err.message[0] || (err.offset != RC_NO_OFFSET && err.offset > sql.n)) abort();
            /* a refused statement changes nothing */
            rc_buf after;
            rc_buf_init(&after, 0);
            rc_my_history_write(h, &after);
            if (after.len != before.len || memcmp(after.data, before.data, after.len)) abort();
            rc_buf_fini(&after);
        } else if (!r.kind) {
            abort();
        }
        rc_buf_fini(&before);
        roundtrip(h);
        st = end + 1;
    }
    rc_my_history_free(h);
    return 0;
}
