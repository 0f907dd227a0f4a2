/* json_same A B: exit 0 when the JSON documents in files A and B are the same value (object
 * key order and whitespace aside; numbers compared by their exact text), else print the path
 * of the first difference and exit 1. The golden tests use it to show that rowcast's output
 * carries exactly the data of the seed's example message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/json.h"
#include "../common/slurp.h"

static bool same(const rc_json *a, uint32_t x, const rc_json *b, uint32_t y, char *path, size_t pl)
{
    const rc_jnode *p = &a->nodes[x], *q = &b->nodes[y];
    if (p->type != q->type) return snprintf(path + pl, 512 - pl, ": %s vs %s", rc_jtype_name(p->type), rc_jtype_name(q->type)), false;
    if (p->type == RC_J_NUMBER || p->type == RC_J_STRING) {
        if (p->n != q->n || memcmp(p->s, q->s, p->n))
            return snprintf(path + pl, 512 - pl, ": %.*s vs %.*s", (int)(p->n > 80 ? 80 : p->n), p->s, (int)(q->n > 80 ? 80 : q->n), q->s), false;
        return true;
    }
    if (p->count != q->count) return snprintf(path + pl, 512 - pl, ": %u vs %u members", p->count, q->count), false;
    if (p->type == RC_J_ARRAY) {
        uint32_t i = p->first, j = q->first;
        for (unsigned k = 0; i; k++, i = a->nodes[i].next, j = b->nodes[j].next) {
            int w = snprintf(path + pl, 512 - pl, "[%u]", k);
            if (!same(a, i, b, j, path, pl + (size_t)w)) return false;
        }
        return true;
    }
    if (p->type == RC_J_OBJECT) {
        for (uint32_t k = p->first; k; k = a->nodes[a->nodes[k].next].next) {
            const rc_jnode *key = &a->nodes[k];
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)key->n, key->s);
            int w = snprintf(path + pl, 512 - pl, ".%s", name);
            uint32_t v = rc_json_get(b, y, name);
            if (!v) return snprintf(path + pl + (size_t)w, 512 - pl - (size_t)w, ": missing in second"), false;
            if (!same(a, key->next, b, v, path, pl + (size_t)w)) return false;
        }
    }
    return true;
}

int main(int argc, char **argv)
{
    if (argc != 3) return fprintf(stderr, "usage: json_same A B\n"), 2;
    size_t na, nb;
    char *ta = slurp(argv[1], &na), *tb = slurp(argv[2], &nb);
    if (!ta || !tb) return fprintf(stderr, "json_same: cannot read input\n"), 2;
    rc_arena aa, ab;
    rc_arena_init(&aa);
    rc_arena_init(&ab);
    rc_json ja, jb;
    rc_json_init(&ja, &aa);
    rc_json_init(&jb, &ab);
    rc_error err;
    rc_error_clear(&err);
    if (rc_json_parse(&ja, ta, na, &err) != RC_OK) return fprintf(stderr, "%s: byte %zu: %s\n", argv[1], err.offset, err.message), 2;
    rc_error_clear(&err);
    if (rc_json_parse(&jb, tb, nb, &err) != RC_OK) return fprintf(stderr, "%s: byte %zu: %s\n", argv[2], err.offset, err.message), 2;
    char path[512] = "$";
    int rc = 0;
    if (!same(&ja, 0, &jb, 0, path, 1)) {
        fprintf(stderr, "json_same: %s and %s differ at %s\n", argv[1], argv[2], path);
        rc = 1;
    }
    rc_json_fini(&ja);
    rc_json_fini(&jb);
    rc_arena_fini(&aa);
    rc_arena_fini(&ab);
    free(ta);
    free(tb);
    return rc;
}
