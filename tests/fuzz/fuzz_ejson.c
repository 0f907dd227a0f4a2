/* libFuzzer target: the Extended JSON reader (canonical, relaxed, shell, legacy strict) must
 * accept or reject any input without crashing; what it accepts, written as canonical Extended
 * JSON (also with the Java driver's spacing) and as Debezium's strict text, must read back to an
 * equal tree, and its relaxed and shell texts must read back without crashing. */
#include <stdint.h>
#include <stdlib.h>
#include "core/ejson.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rc_arena arena;
    static rc_buf out;
    static int ready;
    if (!ready) {
        rc_arena_init(&arena);
        rc_buf_init(&out, 0);
        ready = 1;
    }
    rc_arena_reset(&arena);
    rc_error err;
    rc_error_clear(&err);
    rc_bson v, w;
    rc_status st = rc_ejson_read((const char *)data, size, &arena, &v, &err);
    if (st != RC_OK) {
        if (err.code != st || (err.offset > size && err.offset != RC_NO_OFFSET)) abort();
        return 0;
    }
    /* the other writers' texts only for inputs up to 16 KiB: a 64 KiB array of small numbers
     * written and read seven times came near the 3 s an input has (tests/fuzz/run.sh) */
    static const rc_ejson_mode lossless[] = {RC_EJSON_CANONICAL, RC_EJSON_STRICT, RC_EJSON_JAVA_CANONICAL};
    int modes = size <= 16384 ? 3 : 1;
    for (int m = 0; m < modes; m++) {
        rc_buf_reset(&out);
        rc_ejson_write(&out, &v, lossless[m]);
        if (out.err != RC_OK || rc_ejson_read(out.data, out.len, &arena, &w, &err) != RC_OK || !rc_bson_equal(&v, &w)) abort();
    }
    static const rc_ejson_mode lossy[] = {RC_EJSON_RELAXED, RC_EJSON_SHELL, RC_EJSON_JAVA_RELAXED};
    for (int m = 0; m < (modes == 3 ? 3 : 2); m++) {
        rc_buf_reset(&out);
        rc_ejson_write(&out, &v, lossy[m]);
        (void)rc_ejson_read(out.data, out.len, &arena, &w, &err);
    }
    return 0;
}
