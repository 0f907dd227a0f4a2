/* libFuzzer target of convert's records layout (sources/records_in.h): any input is split into a
 * record or rejected with a message, never a crash; a record is decoded with its key by every
 * decoder that reads keys (Debezium, CloudEvents) and by one that reads the value alone
 * (native), each accepted event encoding to native and reading back unchanged. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"
#include "sources/records_in.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const names[] = {"debezium", "cloudevents", "native"};
    enum { N = sizeof names / sizeof *names };
    static const rc_format *fmts[N];
    static void *decs[N], *native_dec;
    static bool ready;
    static rc_arena a1, a2;
    static rc_event_list l1, l2;
    static rc_buf b;
    static const rc_option up = {"debezium.flavor", "upstream"};
    rc_error err;
    if (!ready) {
        for (size_t i = 0; i < N; i++) {
            rc_options o = {&up, i == 0};
            rc_error_clear(&err);
            if (!(fmts[i] = rc_format_find(names[i])) || fmts[i]->dec_new(&o, &decs[i], &err) != RC_OK) abort();
        }
        rc_error_clear(&err);
        if (rc_native_dec_new(NULL, &native_dec, &err) != RC_OK) abort();
        rc_arena_init(&a1), rc_arena_init(&a2), rc_buf_init(&b, 0);
        ready = true;
    }
    rc_record_in r;
    rc_error_clear(&err);
    (void)rc_record_short((const char *)data, size);
    if (rc_record_parse((const char *)data, size, &r, &err) != RC_OK) {
        if (err.code == RC_OK || err.offset > size) abort(); /* an error without a message or a place */
        return 0;
    }
    for (size_t i = 0; i < N; i++) {
        rc_arena_reset(&a1);
        l1.count = 0;
        rc_error_clear(&err);
        rc_status st = rc_record_decode(fmts[i], decs[i], &r, &a1, &l1, &err);
        if (st != RC_OK) {
            if (err.code == RC_OK || (err.offset != RC_NO_OFFSET && err.offset > size)) abort();
            continue;
        }
        for (size_t k = 0; k < l1.count; k++) {
            rc_buf_reset(&b);
            if (rc_native_encode(NULL, &l1.items[k], &b, &err) != RC_OK) abort();
            rc_arena_reset(&a2);
            l2.count = 0;
            if (rc_native_decode(native_dec, b.data, b.len, &a2, &l2, &err) != RC_OK) {
                fprintf(stderr, "%s decoded a record native cannot read back: %s\n%.*s\n", names[i], err.message, (int)b.len, b.data);
                abort();
            }
            char why[200];
            if (!rc_event_equal(&l1.items[k], &l2.items[0], why, sizeof why)) {
                fprintf(stderr, "%s: native round trip changed the event: %s\n", names[i], why);
                abort();
            }
        }
    }
    return 0;
}
