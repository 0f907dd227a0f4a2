/* libFuzzer target of one decoder (RC_FUZZ_FORMAT, set by tests/fuzz/CMakeLists.txt: one
 * target per decoder) or, without it, of every registered decoder: any input is accepted or
 * rejected with a message, never a crash; an accepted message's events must encode to native
 * and read back unchanged. The decoders live across inputs (as in a stream, with their caches
 * of earlier messages); a fresh decoder must read each input the same way. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"

/* RC_FUZZ_OPTION "key=value" (optional): one decoder option, e.g. a time zone, so that the
 * paths it switches on are fuzzed too. */
#ifdef RC_FUZZ_OPTION
static const rc_options *fuzz_options(void)
{
    static char kv[] = RC_FUZZ_OPTION;
    static rc_option item;
    static rc_options opts;
    if (!item.key) {
        char *eq = strchr(kv, '=');
        if (!eq) abort();
        *eq = '\0';
        item = (rc_option){kv, eq + 1};
        opts = (rc_options){&item, 1};
    }
    return &opts;
}
#else
static const rc_options *fuzz_options(void) { return NULL; }
#endif

static void *native_dec;
static rc_arena a1, a2, a3;
static rc_event_list l1, l2, l3;
static rc_buf b;

/* One message to decoder `dec` and to `twin`, which has read the same messages before (a fresh
 * decoder: none); both must read it the same way, and the events must survive native. */
static void check(const rc_format *f, void *dec, void *twin, const uint8_t *data, size_t size)
{
    rc_error err;
    rc_arena_reset(&a1);
    l1.count = 0;
    rc_error_clear(&err);
    rc_status st1 = f->decode(dec, (const char *)data, size, &a1, &l1, &err);
    if (st1 != RC_OK && err.code == RC_OK) abort(); /* an error without a message */
    rc_error ferr;
    rc_error_clear(&ferr);
    rc_arena_reset(&a3);
    l3.count = 0;
    rc_status st3 = f->decode(twin, (const char *)data, size, &a3, &l3, &ferr);
    if (st1 != st3 || (st1 != RC_OK && (err.offset != ferr.offset || strcmp(err.message, ferr.message) != 0)) || l1.count != l3.count) {
        fprintf(stderr, "%s: a fresh decoder reads this input differently: %s / %s\n", f->name, st1 == RC_OK ? "ok" : err.message,
                st3 == RC_OK ? "ok" : ferr.message);
        abort();
    }
    for (size_t k = 0; k < l1.count; k++) {
        char why[200];
        if (!rc_event_equal(&l1.items[k], &l3.items[k], why, sizeof why)) {
            fprintf(stderr, "%s: event %zu differs from a fresh decoder's: %s\n", f->name, k, why);
            abort();
        }
    }
    if (st1 != RC_OK) return;
    for (size_t k = 0; k < l1.count; k++) {
        rc_buf_reset(&b);
        if (rc_native_encode(NULL, &l1.items[k], &b, &err) != RC_OK) abort();
        rc_arena_reset(&a2);
        l2.count = 0;
        if (rc_native_decode(native_dec, b.data, b.len, &a2, &l2, &err) != RC_OK) {
            fprintf(stderr, "%s decoded an event native cannot read back: %s\n%.*s\n", f->name, err.message, (int)b.len, b.data);
            abort();
        }
        char why[200];
        if (!rc_event_equal(&l1.items[k], &l2.items[0], why, sizeof why)) {
            fprintf(stderr, "%s: native round trip changed the event: %s\n", f->name, why);
            abort();
        }
    }
}

static void *fresh_decoder(const rc_format *f)
{
    void *d;
    rc_error err;
    rc_error_clear(&err);
    if (f->dec_new(fuzz_options(), &d, &err) != RC_OK) abort();
    return d;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static void *decs[64];
    static bool ready;
    rc_error err;
    if (!ready) {
        for (int i = 0; rc_formats[i] && i < 64; i++) {
            rc_error_clear(&err);
            if (rc_formats[i]->dec_new && rc_formats[i]->dec_new(fuzz_options(), &decs[i], &err) != RC_OK) abort();
        }
        rc_error_clear(&err);
        if (rc_native_dec_new(NULL, &native_dec, &err) != RC_OK) abort();
        rc_arena_init(&a1), rc_arena_init(&a2), rc_arena_init(&a3), rc_buf_init(&b, 0);
        ready = true;
    }
    for (int i = 0; rc_formats[i] && i < 64; i++) {
        if (!rc_formats[i]->decode) continue;
#ifdef RC_FUZZ_FORMAT
        if (strcmp(rc_formats[i]->name, RC_FUZZ_FORMAT) != 0) continue;
#endif
#ifdef RC_FUZZ_LINES
        /* decoders that keep state between messages (dataworks-aliyun holds an UPDATE_BEFORE
         * until its UPDATE_AFTER): each input is a stream of lines, read by two fresh decoders */
        void *d1 = fresh_decoder(rc_formats[i]), *d2 = fresh_decoder(rc_formats[i]);
        for (size_t at = 0, end; at <= size; at = end + 1) {
            const uint8_t *nl = at < size ? memchr(data + at, '\n', size - at) : NULL;
            end = nl ? (size_t)(nl - data) : size;
            check(rc_formats[i], d1, d2, data + at, end - at);
        }
        rc_formats[i]->dec_free(d1), rc_formats[i]->dec_free(d2); /* their events point into them */
        (void)decs;
#else
        /* the same input to a decoder that has seen nothing before */
        void *fresh = fresh_decoder(rc_formats[i]);
        check(rc_formats[i], decs[i], fresh, data, size);
        rc_formats[i]->dec_free(fresh); /* its events point into it */
#endif
    }
    return 0;
}
