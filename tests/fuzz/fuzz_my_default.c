/* libFuzzer target: a column default as information_schema.COLUMNS.COLUMN_DEFAULT shows it, read
 * into a value's text (src/sources/mysql/my_default.c, rc_my_default_from_is), and put into a
 * history as a column's default (rc_my_history_put_is). No input may crash; the text fits in
 * the input's length (the caller's buffer); the history written, read back and written again
 * gives the same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_schema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *out = malloc(size + 1);
    if (!out) return 0;
    rc_str in = {(const char *)data, size}, res = {NULL, 0};
    if (rc_my_default_from_is(in, out, &res) && (res.p != out || res.n > (size > 19 ? size : 19))) abort();
    rc_my_history *h = rc_my_history_new();
    rc_error err;
    rc_error_clear(&err);
    rc_my_is_column col = {.name = {"c", 1}, .column_type = {"varchar(10)", 11}, .is_nullable = {"YES", 3}, .column_key = {"", 0},
                           .extra = {"", 0}, .collation_name = {"", 0}, .column_default = in, .has_column_default = true};
    if (rc_my_history_put_is(h, (rc_str){"d", 1}, (rc_str){"t", 1}, (rc_str){"", 0}, &col, 1, &err) == RC_OK) {
        rc_buf a, b;
        rc_buf_init(&a, 0), rc_buf_init(&b, 0);
        rc_my_history_write(h, &a);
        rc_my_history *h2 = rc_my_history_new();
        if (rc_my_history_read(h2, a.data, a.len, &err) != RC_OK) abort();
        rc_my_history_write(h2, &b);
        if (a.len != b.len || memcmp(a.data, b.data, a.len)) abort();
        rc_my_history_free(h2);
        rc_buf_fini(&a), rc_buf_fini(&b);
    }
    rc_my_history_free(h);
    free(out);
    return 0;
}
