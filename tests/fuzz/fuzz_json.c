/* libFuzzer target: the JSON reader must accept or reject any input without crashing, and
 * on success every node must lie inside the input. */
#include <stdint.h>
#include <stdlib.h>
#include "core/json.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static rc_arena arena;
    static rc_json json;
    static int ready;
    if (!ready) {
        rc_arena_init(&arena);
        rc_json_init(&json, &arena);
        ready = 1;
    }
    rc_arena_reset(&arena);
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_json_parse(&json, (const char *)data, size, &err);
    if (st != RC_OK) {
        if (err.code != st || (err.offset > size && err.offset != RC_NO_OFFSET)) abort();
        return 0;
    }
    for (uint32_t i = 0; i < json.nnodes; i++) {
        const rc_jnode *n = &json.nodes[i];
        if (n->off >= size || n->next >= json.nnodes || n->first >= json.nnodes) abort();
        if (n->type == RC_J_NUMBER && (n->s < (const char *)data || n->s + n->n > (const char *)data + size)) abort();
    }
    return 0;
}
