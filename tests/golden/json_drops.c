/* json_drops ORIGINAL ROUNDTRIP: both files hold native events, one per line, line N of
 * ROUNDTRIP being line N of ORIGINAL after native -> F -> native (an empty line: F wrote no
 * message for it). Prints, one per line, every field that did not come back:
 *   - PATH            the original has it, the round trip does not
 *   + PATH            the round trip has it, the original does not
 *   ~ PATH            both have it with different values
 *   ! op OP           an event of that operation has no message in F
 * Elements of "columns", "before" and "after" are named by the column ("columns[id].type",
 * "after[email]"), so `sort -u` of the output is what F drops, independent of the data. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/json.h"

enum { PATH_MAX_LEN = 512, MAX_COLS = 4096 };

typedef struct side {
    rc_json j;
    rc_arena a;
} side;

static const rc_jnode *nd(const rc_json *j, uint32_t i) { return &j->nodes[i]; }

/* Column names of the original event, to label the arrays. */
static const rc_jnode *names[MAX_COLS];
static uint32_t nnames;

static void label(char *path, size_t pl, const char *parent, uint32_t k)
{
    bool named = (!strcmp(parent, "columns") || !strcmp(parent, "before") || !strcmp(parent, "after")) && k < nnames && names[k];
    if (named) snprintf(path + pl, PATH_MAX_LEN - pl, "[%.*s]", (int)names[k]->n, names[k]->s);
    else snprintf(path + pl, PATH_MAX_LEN - pl, "[%u]", k);
}

static bool scalar_same(const rc_jnode *p, const rc_jnode *q)
{
    if (p->type != q->type) return false;
    if (p->type == RC_J_NUMBER || p->type == RC_J_STRING) return p->n == q->n && !memcmp(p->s, q->s, p->n);
    return true;
}

static void diff(const rc_json *a, uint32_t x, const rc_json *b, uint32_t y, char *path, size_t pl, const char *parent)
{
    const rc_jnode *p = nd(a, x), *q = nd(b, y);
    if (p->type != q->type || (p->type != RC_J_OBJECT && p->type != RC_J_ARRAY)) {
        if (!scalar_same(p, q)) printf("~ %s\n", path);
        return;
    }
    if (p->type == RC_J_ARRAY) {
        uint32_t i = p->first, j = q->first, k = 0;
        for (; i || j; k++) {
            label(path, pl, parent, k);
            size_t l2 = strlen(path);
            if (i && j) diff(a, i, b, j, path, l2, parent);
            else printf("%c %s\n", i ? '-' : '+', path);
            if (i) i = nd(a, i)->next;
            if (j) j = nd(b, j)->next;
        }
        path[pl] = '\0';
        return;
    }
    /* objects: every key of the original, then the keys only the round trip has */
    for (uint32_t k = p->first; k; k = nd(a, nd(a, k)->next)->next) {
        const rc_jnode *key = nd(a, k);
        snprintf(path + pl, PATH_MAX_LEN - pl, "%s%.*s", pl ? "." : "", (int)key->n, key->s);
        size_t l2 = strlen(path);
        uint32_t m = 0;
        for (uint32_t t = q->first; t; t = nd(b, nd(b, t)->next)->next)
            if (nd(b, t)->n == key->n && !memcmp(nd(b, t)->s, key->s, key->n)) m = nd(b, t)->next;
        char child[64];
        snprintf(child, sizeof child, "%.*s", (int)(key->n < 63 ? key->n : 63), key->s);
        if (m) diff(a, key->next, b, m, path, l2, child);
        else printf("- %s\n", path);
    }
    path[pl] = '\0';
    for (uint32_t t = q->first; t; t = nd(b, nd(b, t)->next)->next) {
        const rc_jnode *key = nd(b, t);
        uint32_t m = 0;
        for (uint32_t k = p->first; k; k = nd(a, nd(a, k)->next)->next)
            if (nd(a, k)->n == key->n && !memcmp(nd(a, k)->s, key->s, key->n)) m = 1;
        if (!m) printf("+ %s%s%.*s\n", path, pl ? "." : "", (int)key->n, key->s);
    }
    path[pl] = '\0';
}

static bool parse(side *s, const char *line, size_t n)
{
    rc_error err;
    rc_error_clear(&err);
    rc_arena_reset(&s->a);
    return rc_json_parse(&s->j, line, n, &err) == RC_OK && nd(&s->j, 0)->type == RC_J_OBJECT;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: json_drops ORIGINAL ROUNDTRIP\n");
        return 2;
    }
    FILE *fa = fopen(argv[1], "r"), *fb = fopen(argv[2], "r");
    if (!fa || !fb) {
        fprintf(stderr, "json_drops: cannot open the input files\n");
        return 2;
    }
    side A, B;
    rc_arena_init(&A.a), rc_arena_init(&B.a);
    rc_json_init(&A.j, &A.a), rc_json_init(&B.j, &B.a);
    char *la = NULL, *lb = NULL;
    size_t ca = 0, cb = 0;
    ssize_t na, nb;
    int status = 0;
    while ((na = getline(&la, &ca, fa)) > 0) {
        nb = getline(&lb, &cb, fb);
        while (na && la[na - 1] == '\n') na--;
        while (nb > 0 && lb[nb - 1] == '\n') nb--;
        if (!parse(&A, la, (size_t)na)) {
            fprintf(stderr, "json_drops: %s: not a JSON object per line\n", argv[1]);
            status = 2;
            break;
        }
        uint32_t op = rc_json_get(&A.j, 0, "op");
        if (nb <= 0) {
            printf("! op %.*s\n", op ? (int)nd(&A.j, op)->n : 1, op ? nd(&A.j, op)->s : "?");
            continue;
        }
        if (!parse(&B, lb, (size_t)nb)) {
            fprintf(stderr, "json_drops: %s: not a JSON object per line\n", argv[2]);
            status = 2;
            break;
        }
        nnames = 0;
        uint32_t cols = rc_json_get(&A.j, 0, "columns");
        if (cols && nd(&A.j, cols)->type == RC_J_ARRAY)
            for (uint32_t c = nd(&A.j, cols)->first; c && nnames < MAX_COLS; c = nd(&A.j, c)->next) {
                uint32_t nm = rc_json_get(&A.j, c, "name");
                names[nnames++] = nm && nd(&A.j, nm)->type == RC_J_STRING ? nd(&A.j, nm) : NULL;
            }
        char path[PATH_MAX_LEN] = "";
        diff(&A.j, 0, &B.j, 0, path, 0, "");
    }
    free(la), free(lb);
    fclose(fa), fclose(fb);
    rc_json_fini(&A.j), rc_json_fini(&B.j);
    rc_arena_fini(&A.a), rc_arena_fini(&B.a);
    return status;
}
