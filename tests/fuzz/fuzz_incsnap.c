/* libFuzzer target: the texts the incremental snapshot code parses (src/sources): the first
 * byte chooses (mod 4) a snapshot state text (incsnap_state.c: a text that parses writes a
 * text that parses back to the same writing), a rowcast.signal message or a signal row (type,
 * a newline, then data; signal.c: an error names the signal), or a key image (incsnap_key.c:
 * an image that reads back writes the same bytes). No input may crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "sources/incsnap.h"
#include "sources/incsnap_state.h"
#include "sources/signal.h"

static void state(const char *p, size_t n)
{
    rc_isstate st;
    rc_isstate_init(&st);
    rc_buf a, b;
    rc_buf_init(&a, 0), rc_buf_init(&b, 0);
    if (rc_isstate_parse(&st, p, n, NULL) == RC_OK && rc_isstate_write(&st, &a, NULL) == RC_OK) {
        if (rc_isstate_parse(&st, a.data, a.len, NULL) != RC_OK ||
            rc_isstate_write(&st, &b, NULL) != RC_OK)
            abort();
        if (a.len != b.len || memcmp(a.data, b.data, a.len)) abort();
    }
    rc_buf_fini(&a), rc_buf_fini(&b);
    rc_isstate_fini(&st);
}

static void signal(const char *p, size_t n, bool message)
{
    rc_arena a;
    rc_arena_init(&a);
    rc_signal sg;
    rc_error err;
    rc_error_clear(&err);
    rc_status rc;
    if (message) {
        rc = rc_signal_parse_message(&sg, &a, p, n, &err);
    } else {
        const char *nl = memchr(p, '\n', n);
        size_t tn = nl ? (size_t)(nl - p) : n;
        rc_str data = {nl ? nl + 1 : NULL, nl ? n - tn - 1 : 0};
        rc = rc_signal_parse(&sg, &a, "s.signal", (rc_str){"id", 2}, (rc_str){p, tn},
                             nl ? &data : NULL, &err);
    }
    if (rc != RC_OK && !err.message[0]) abort();
    if (rc == RC_OK)
        for (size_t i = 0; i < sg.ntables; i++)
            if (!sg.tables[i].name) abort();
    rc_arena_fini(&a);
}

static void key(const char *p, size_t n)
{
    rc_value v[16];
    size_t k;
    if (rc_incsnap_key_decode(p, n, v, 16, &k, NULL) != RC_OK) return;
    rc_buf b;
    rc_buf_init(&b, 0);
    if (rc_incsnap_key_image(&b, v, k, NULL) != RC_OK || b.len != n || (n && memcmp(b.data, p, n)))
        abort();
    rc_buf_fini(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) return 0;
    const char *p = (const char *)data + 1;
    size_t n = size - 1;
    switch (data[0] % 4) {
    case 0:
        state(p, n);
        break;
    case 1:
        signal(p, n, true);
        break;
    case 2:
        signal(p, n, false);
        break;
    default:
        key(p, n);
        break;
    }
    return 0;
}
