/* The Extended JSON reader's parts shared by its files (ejson_scan.c: tokens; ejson_read.c:
 * the grammar; ejson_wrap.c: the type wrappers and the shell's words). */
#ifndef ROWCAST_EJSON_INT_H
#define ROWCAST_EJSON_INT_H

#include "core/ejson.h"

typedef struct ej_ctx {
    const char *p;
    size_t n, i;
    int depth;
    rc_arena *a;
    rc_error *err;
} ej_ctx;

/* An argument of a shell constructor: its text (a string's unescaped), quoted or not. */
typedef struct ej_arg {
    rc_str s;
    size_t at;
    bool quoted;
} ej_arg;

static inline int rc_ej_hexv(char h)
{
    return h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
}

bool rc_ej_is_ws(char c);
bool rc_ej_is_ident(char c);
void rc_ej_skip_ws(ej_ctx *c);
/* Skips white space; true (and past it) when the next byte is ch. */
bool rc_ej_expect(ej_ctx *c, char ch);
rc_status rc_ej_fail(ej_ctx *c, rc_status code, size_t at, const char *what);
rc_status rc_ej_value(ej_ctx *c, rc_bson *v);
rc_status rc_ej_string(ej_ctx *c, rc_str *out);
rc_status rc_ej_double(ej_ctx *c, const char *s, size_t n, size_t at, rc_bson *v);
rc_status rc_ej_args(ej_ctx *c, ej_arg *args, int max, int *nargs);
/* A document just read whose first key is a type wrapper becomes that value. */
rc_status rc_ej_unwrap(ej_ctx *c, rc_bson *v, size_t at);
/* A bare word (true, MinKey, NaN) or a shell constructor (ObjectId(…)) at `at`. */
rc_status rc_ej_word(ej_ctx *c, rc_str w, size_t at, rc_bson *v);

#endif
