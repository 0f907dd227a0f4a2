/* libFuzzer target: the native decoder must never crash, whatever it accepts must survive
 * encode -> decode -> encode unchanged (field by field and byte for byte), and every
 * registered encoder must write it (or refuse it with an error) without crashing. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"

/* An incremental snapshot's table edge reaches only the formats that ask for edges
 * (rc_format.snapshot_edges): the pipeline drops it for the others (output.c), as here. */
static bool gets(const rc_format *f, const rc_event *ev) { return f->snapshot_edges || !rc_event_snapshot_edge(ev); }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static void *dec;
    static rc_arena a1, a2;
    static rc_event_list l1, l2;
    static rc_buf b1, b2;
    rc_error err;
    rc_error_clear(&err);
    if (!dec) {
        if (rc_native_dec_new(NULL, &dec, &err) != RC_OK) abort();
        rc_arena_init(&a1);
        rc_arena_init(&a2);
        rc_buf_init(&b1, 0);
        rc_buf_init(&b2, 0);
    }
    rc_arena_reset(&a1);
    l1.count = 0;
    if (rc_native_decode(dec, (const char *)data, size, &a1, &l1, &err) != RC_OK) {
        if (err.code == RC_OK || (err.offset > size && err.offset != RC_NO_OFFSET)) abort();
        return 0;
    }
    rc_buf_reset(&b1);
    if (rc_native_encode(NULL, &l1.items[0], &b1, &err) != RC_OK) abort();
    /* decoding the re-encoded text uses a second arena: the first event must stay valid */
    void *dec2;
    if (rc_native_dec_new(NULL, &dec2, &err) != RC_OK) abort();
    rc_arena_reset(&a2);
    l2.count = 0;
    if (rc_native_decode(dec2, b1.data, b1.len, &a2, &l2, &err) != RC_OK) {
        fprintf(stderr, "re-decode failed: %s\n%.*s\n", err.message, (int)b1.len, b1.data);
        abort();
    }
    char why[200];
    if (!rc_event_equal(&l1.items[0], &l2.items[0], why, sizeof why)) {
        fprintf(stderr, "round trip changed the event: %s\n", why);
        abort();
    }
    rc_buf_reset(&b2);
    if (rc_native_encode(NULL, &l2.items[0], &b2, &err) != RC_OK) abort();
    if (b1.len != b2.len || memcmp(b1.data, b2.data, b1.len) != 0) abort();
    rc_native_dec_free(dec2);

    static void *encs[64];
    static bool encs_ready;
    if (!encs_ready) {
        for (int i = 0; rc_formats[i] && i < 64; i++) {
            rc_error e2;
            rc_error_clear(&e2);
            if (rc_formats[i]->enc_new && rc_formats[i]->enc_new(NULL, &encs[i], &e2) != RC_OK) abort();
        }
        encs_ready = true;
    }
    for (int i = 0; rc_formats[i] && i < 64; i++) {
        if (!rc_formats[i]->encode_value || !gets(rc_formats[i], &l1.items[0])) continue;
        rc_buf_reset(&b2);
        rc_error_clear(&err);
        rc_status st = rc_formats[i]->encode_value(encs[i], &l1.items[0], &b2, &err);
        if (st != RC_OK && st != RC_SKIP && st != RC_PENDING && err.code == RC_OK) abort(); /* an error without message */
        if (rc_formats[i]->encode_key) {
            rc_buf_reset(&b2);
            rc_formats[i]->encode_key(encs[i], &l1.items[0], &b2, &err);
        }
    }
    /* option variants whose code the defaults do not reach */
    static const rc_option variants[][3] = {
        {{"debezium.flavor", "upstream"}, {"debezium.schemas", "true"}, {"debezium.bigint.unsigned.handling.mode", "precise"}},
        {{"debezium.flavor", "upstream"}, {"debezium.decimal.handling.mode", "double"}, {"debezium.binary.handling.mode", "hex"}},
        {{"canal.group", "true"}, {"canal.flavor", "canal"}, {"canal.timezone", "+08:00"}},
        {{"cloudevents.data", "avro"}, {"cloudevents.transactions", "true"}, {"cloudevents.compat", "1"}},
        {{"maxwell.output_primary_keys", "true"}, {"maxwell.output_nulls", "false"}, {"maxwell.output_ddl", "true"}},
    };
    static const char *const variant_format[] = {"debezium", "debezium", "canal", "cloudevents", "maxwell"};
    enum { NVARIANTS = sizeof variant_format / sizeof *variant_format };
    static void *venc[NVARIANTS];
    for (int k = 0; k < NVARIANTS; k++) {
        const rc_format *f = rc_format_find(variant_format[k]);
        if (!gets(f, &l1.items[0])) continue;
        if (!venc[k]) {
            rc_options o = {variants[k], 3};
            rc_error e2;
            rc_error_clear(&e2);
            if (f->enc_new(&o, &venc[k], &e2) != RC_OK) abort();
        }
        rc_buf_reset(&b2);
        rc_error_clear(&err);
        rc_status st = f->encode_value(venc[k], &l1.items[0], &b2, &err);
        if (st != RC_OK && st != RC_SKIP && st != RC_PENDING && err.code == RC_OK) abort();
        rc_buf_reset(&b2);
        if (f->encode_key) f->encode_key(venc[k], &l1.items[0], &b2, &err);
    }
    return 0;
}
