/* Order keys (order_key.h): fixed-width hex fields, each checked to fit its width. */
#include "pipeline/order_key.h"
#include <stdbool.h>

/* v as `width` lower-case hex digits at p; false when it needs more. */
static bool hex(char *p, unsigned width, uint64_t v)
{
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = width; i-- > 0; v >>= 4) p[i] = digits[v & 15];
    return v == 0;
}

size_t rc_order_key(const rc_item_order *o, uint64_t event, unsigned record,
                    char out[RC_ORDER_KEY_MAX])
{
    if (o->src != 'p' && o->src != 'm' && o->src != 'l') return 0;
    char *p = out;
    bool ok = record < RC_ORDER_RECORDS;
    *p++ = o->src;
    if (o->src == 'm') { /* the binlog file's number, then the offset in it */
        ok = ok && hex(p, 8, o->a);
        p += 8;
    }
    ok = ok && hex(p, 16, o->src == 'm' ? o->b : o->a);
    p += 16;
    if (o->src != 'l') { /* lines have one number: the record's in the line */
        *p++ = o->kind;
        ok = ok && o->num <= RC_ORDER_NUMBER_MAX && event <= RC_ORDER_NUMBER_MAX - o->num &&
             hex(p, 11, o->num + event);
        p += 11;
    }
    ok = ok && hex(p, 2, record);
    p += 2;
    return ok ? (size_t)(p - out) : 0;
}

char rc_order_key_kind(const char *key, size_t n)
{
    size_t at = n == 31 && key[0] == 'p' ? 17 : n == 39 && key[0] == 'm' ? 25 : 0;
    return at ? key[at] : 0;
}
