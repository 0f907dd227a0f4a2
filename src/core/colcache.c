/* Cache of built column lists (see colcache.h): open addressing over a power-of-two slot
 * array that doubles at 3/4; each entry is one allocation holding the key, the columns and
 * their strings, so growing the slot array never moves what events point at. */
#include <stdlib.h>
#include <string.h>
#include "core/colcache.h"
#include "core/hash.h"

typedef struct slot {
    uint64_t hash;
    rc_colset *set; /* NULL: empty */
} slot;

struct rc_colcache {
    slot *slots;
    size_t cap, used; /* cap: a power of two */
};

rc_colcache *rc_colcache_new(void) { return calloc(1, sizeof(rc_colcache)); }

void rc_colcache_free(rc_colcache *c)
{
    if (!c) return;
    for (size_t i = 0; i < c->cap; i++) free(c->slots[i].set);
    free(c->slots);
    free(c);
}

static size_t probe(const rc_colcache *c, uint64_t h, const char *key, size_t n)
{
    size_t i = (size_t)h & (c->cap - 1);
    for (;; i = (i + 1) & (c->cap - 1)) {
        const slot *s = &c->slots[i];
        if (!s->set || (s->hash == h && s->set->keyn == n && memcmp(s->set->key, key, n) == 0)) return i;
    }
}

const rc_colset *rc_colcache_find(const rc_colcache *c, const char *key, size_t n)
{
    if (!c->used) return NULL;
    return c->slots[probe(c, rc_hash64(key, n, 0), key, n)].set;
}

static bool grow(rc_colcache *c)
{
    size_t cap = c->cap ? c->cap * 2 : 16;
    slot *old = c->slots, *ns = calloc(cap, sizeof *ns);
    if (!ns) return false;
    size_t oldcap = c->cap;
    c->slots = ns, c->cap = cap;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].set) c->slots[probe(c, old[i].hash, old[i].set->key, old[i].set->keyn)] = old[i];
    free(old);
    return true;
}

/* Copies s into the entry's string area at *w. */
static rc_str copy_str(rc_str s, char **w)
{
    if (!s.n) return (rc_str){s.p ? *w : NULL, 0}; /* absent stays absent, empty stays empty */
    memcpy(*w, s.p, s.n);
    rc_str r = {*w, s.n};
    *w += s.n;
    return r;
}

const rc_colset *rc_colcache_put(rc_colcache *c, const char *key, size_t n, const rc_column *cols, uint32_t ncols)
{
    return rc_colcache_put_dflts(c, key, n, cols, ncols, NULL);
}

const rc_colset *rc_colcache_put_dflts(rc_colcache *c, const char *key, size_t n, const rc_column *cols, uint32_t ncols,
                                      const rc_str *dflts)
{
    if (c->used >= RC_COLCACHE_MAX || ((c->used + 1) * 4 > c->cap * 3 && !grow(c))) return NULL;
    size_t text = n;
    for (uint32_t i = 0; i < ncols; i++)
        text += cols[i].name.n + cols[i].type.charset.n + cols[i].type.labels.n + cols[i].type.decl.n + (dflts ? dflts[i].n : 0);
    /* layout: rc_colset, the columns, the defaults, then the key and the strings */
    size_t nd = dflts ? ncols : 0;
    rc_colset *set = malloc(sizeof *set + sizeof(rc_column) * ncols + sizeof(rc_str) * nd + text + 1);
    if (!set) return NULL;
    rc_column *cc = (rc_column *)(set + 1);
    rc_str *cd = (rc_str *)(cc + ncols);
    char *w = (char *)(cd + nd);
    memcpy(w, key, n);
    set->key = w, set->keyn = n, set->cols = cc, set->n = ncols, set->dflts = dflts ? cd : NULL;
    w += n;
    for (uint32_t i = 0; i < ncols; i++) {
        cc[i] = cols[i];
        cc[i].name = copy_str(cols[i].name, &w);
        cc[i].type.charset = copy_str(cols[i].type.charset, &w);
        cc[i].type.labels = copy_str(cols[i].type.labels, &w);
        cc[i].type.decl = copy_str(cols[i].type.decl, &w);
        if (dflts) cd[i] = copy_str(dflts[i], &w);
    }
    uint64_t h = rc_hash64(key, n, 0);
    c->slots[probe(c, h, key, n)] = (slot){h, set};
    c->used++;
    return set;
}

bool rc_coltext_init(rc_coltext *t, rc_json_memo *memo)
{
    memset(t, 0, sizeof *t);
    if (!(t->cache = rc_colcache_new())) return false;
    t->memo = memo;
    rc_buf_init(&t->key, 0);
    rc_json_init(&t->aux, NULL);
    return true;
}

void rc_coltext_fini(rc_coltext *t)
{
    rc_colcache_free(t->cache);
    rc_buf_fini(&t->key);
    rc_json_fini(&t->aux);
    memset(t, 0, sizeof *t);
}

rc_status rc_coltext_columns(rc_coltext *t, const rc_json *j, uint32_t m, const char *extra, size_t extra_n, rc_coltext_build_fn build,
                             void *ctx, rc_arena *a, const rc_column **cols, uint32_t *n, const void **cols_id, rc_error *err)
{
    const rc_jnode *mn = &j->nodes[m];
    *cols_id = NULL;
    if (mn->type != RC_J_OBJECT && mn->type != RC_J_ARRAY && mn->type != RC_J_MEMO) return build(ctx, j, m, cols, n);
    const rc_colset *cur = t->cur;
    /* the usual case: the member of the last table, recognised by the reader, and the same extra */
    if (mn->type == RC_J_MEMO && cur && t->cur_extra == extra_n && !memcmp(cur->key + 4, extra, extra_n)) {
        *cols = cur->cols, *n = cur->n, *cols_id = cur;
        return RC_OK;
    }
    uint32_t en = (uint32_t)extra_n;
    rc_buf_reset(&t->key);
    rc_buf_put(&t->key, &en, 4);
    rc_buf_put(&t->key, extra, extra_n);
    rc_buf_put(&t->key, mn->s, mn->n);
    if (t->key.err != RC_OK) return rc_error_set(err, RC_ERR_NOMEM, mn->off, "out of memory");
    const rc_colset *set = rc_colcache_find(t->cache, t->key.data, t->key.len);
    if (!set) {
        const rc_json *bj = j;
        uint32_t bm = m;
        if (mn->type == RC_J_MEMO) { /* read before without error: parsed again, offsets moved to this message */
            t->aux.arena = a;
            rc_status st = rc_json_parse(&t->aux, mn->s, mn->n, err);
            if (st != RC_OK) return st;
            for (uint32_t i = 0; i < t->aux.nnodes; i++) t->aux.nodes[i].off += mn->off;
            bj = &t->aux, bm = 0;
        }
        const rc_column *built;
        uint32_t bn;
        rc_status st = build(ctx, bj, bm, &built, &bn);
        if (st != RC_OK) return st;
        if (!(set = rc_colcache_put(t->cache, t->key.data, t->key.len, built, bn))) { /* full: this message's own */
            *cols = built, *n = bn;
            return RC_OK;
        }
    }
    t->cur = set;
    t->cur_extra = extra_n;
    t->memo->text = set->key + 4 + extra_n, t->memo->n = mn->n;
    *cols = set->cols, *n = set->n, *cols_id = set;
    return RC_OK;
}
