/* json_same [--ordered] A B: exit 0 when the JSON documents in files A and B are the same value
 * (object key order and whitespace aside; numbers compared by their exact text), else print the
 * path of the first difference and exit 1. The golden tests use it to show that rowcast's output
 * carries exactly the data of the seed's example message. With --ordered the members of each
 * object must also come in the same order: a pretty-printed peer message is then matched
 * byte for byte but for its whitespace. json_same --compact A prints the document on one line
 * (numbers as written), the form rowcast reads messages in. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/buf.h"
#include "core/json.h"
#include "../common/slurp.h"

static bool ordered;

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
        for (uint32_t k = p->first, kb = q->first; k; k = a->nodes[a->nodes[k].next].next, kb = b->nodes[b->nodes[kb].next].next) {
            const rc_jnode *key = &a->nodes[k], *keyb = &b->nodes[kb];
            char name[256];
            snprintf(name, sizeof name, "%.*s", (int)key->n, key->s);
            int w = snprintf(path + pl, 512 - pl, ".%s", name);
            if (ordered && (key->n != keyb->n || memcmp(key->s, keyb->s, key->n)))
                return snprintf(path + pl + (size_t)w, 512 - pl - (size_t)w, ": member %.*s in second", (int)keyb->n, keyb->s), false;
            uint32_t v = rc_json_get(b, y, name);
            if (!v) return snprintf(path + pl + (size_t)w, 512 - pl - (size_t)w, ": missing in second"), false;
            if (!same(a, key->next, b, v, path, pl + (size_t)w)) return false;
        }
    }
    return true;
}

static int compact(const char *path)
{
    size_t n;
    char *t = slurp(path, &n);
    if (!t) return fprintf(stderr, "json_same: cannot read %s\n", path), 2;
    rc_arena a;
    rc_arena_init(&a);
    rc_json j;
    rc_json_init(&j, &a);
    rc_error err;
    rc_error_clear(&err);
    if (rc_json_parse(&j, t, n, &err) != RC_OK) return fprintf(stderr, "%s: byte %zu: %s\n", path, err.offset, err.message), 2;
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_json_write(&j, 0, &b);
    rc_buf_putc(&b, '\n');
    int rc = b.err == RC_OK && fwrite(b.data, 1, b.len, stdout) == b.len ? 0 : 2;
    rc_buf_fini(&b);
    rc_json_fini(&j);
    rc_arena_fini(&a);
    free(t);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--compact")) return compact(argv[2]);
    if (argc == 4 && !strcmp(argv[1], "--ordered")) ordered = true, argv++, argc--;
    if (argc != 3) return fprintf(stderr, "usage: json_same [--ordered] A B\n"), 2;
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
