/* The schema history's store: one block of memory per table (its column array, then its
 * strings, the column types parsed again from the copied declarations so that they point into
 * the block), kept in an array sorted by (db, name) bytes, and the databases' default
 * collations. Lookups are binary searches; a change replaces or removes one table's block, so a
 * table returned by get stays valid until the history changes. */
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_schema.h"

typedef struct my_db {
    char *name;
    size_t n;
    uint16_t collation;
} my_db;

struct rc_my_history {
    rc_my_table **tables; /* each one malloc block: rc_my_table, its columns, its strings */
    uint32_t ntables, cap;
    my_db *dbs;
    uint32_t ndbs, dbcap;
    rc_arena scratch;
};

rc_my_history *rc_my_history_new(void)
{
    rc_my_history *h = calloc(1, sizeof(rc_my_history));
    if (h) rc_arena_init(&h->scratch);
    return h;
}

rc_arena *rc_my_history_scratch(rc_my_history *h) { return &h->scratch; }

void rc_my_history_free(rc_my_history *h)
{
    if (!h) return;
    for (uint32_t i = 0; i < h->ntables; i++) free(h->tables[i]);
    for (uint32_t i = 0; i < h->ndbs; i++) free(h->dbs[i].name);
    free(h->tables);
    free(h->dbs);
    rc_arena_fini(&h->scratch);
    free(h);
}

static int str_cmp(rc_str a, rc_str b)
{
    int c = memcmp(a.p, b.p, a.n < b.n ? a.n : b.n);
    if (c) return c;
    return a.n < b.n ? -1 : a.n > b.n;
}

static int key_cmp(const rc_my_table *t, rc_str db, rc_str name)
{
    int c = str_cmp(t->db, db);
    return c ? c : str_cmp(t->name, name);
}

/* Index of db.name, or where it would go (*found false). */
static uint32_t find(const rc_my_history *h, rc_str db, rc_str name, bool *found)
{
    uint32_t lo = 0, hi = h->ntables;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = key_cmp(h->tables[mid], db, name);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0) lo = mid + 1;
        else hi = mid;
    }
    *found = false;
    return lo;
}

static char *put_str(char *w, rc_str s, rc_str *out)
{
    if (s.n) memcpy(w, s.p, s.n);
    w[s.n] = '\0';
    out->p = w;
    out->n = s.n;
    return w + s.n + 1;
}

/* One block holding a copy of t named db.name. */
static rc_my_table *copy_table(const rc_my_table *t, rc_str db, rc_str name, rc_error *err)
{
    size_t size = sizeof(rc_my_table) + (size_t)t->ncols * sizeof(rc_my_table_col) + db.n + name.n + 2;
    for (uint32_t i = 0; i < t->ncols; i++) size += t->cols[i].name.n + t->cols[i].type.decl.n + t->cols[i].dflt.n + 3;
    rc_my_table *c = malloc(size);
    if (!c) return NULL;
    rc_my_table_col *cols = (rc_my_table_col *)(c + 1);
    char *w = (char *)(cols + t->ncols);
    *c = *t;
    c->cols = cols;
    w = put_str(w, db, &c->db);
    w = put_str(w, name, &c->name);
    for (uint32_t i = 0; i < t->ncols; i++) {
        const rc_my_table_col *s = &t->cols[i];
        rc_str decl;
        cols[i] = *s;
        w = put_str(w, s->name, &cols[i].name);
        w = put_str(w, s->type.decl, &decl);
        w = put_str(w, s->dflt, &cols[i].dflt);
        rc_error e;
        rc_error_clear(&e);
        if (rc_coltype_parse(RC_FAM_MYSQL, decl.p, decl.n, &cols[i].type, &e) != RC_OK) {
            rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET, "table %.*s.%.*s, column %.*s: %s", (int)db.n, db.p,
                         (int)name.n, name.p, (int)s->name.n, s->name.p, e.message);
            free(c);
            return NULL;
        }
    }
    return c;
}

rc_my_table *rc_my_table_copy(const rc_my_table *t, rc_error *err)
{
    rc_my_table *c = copy_table(t, t->db, t->name, err);
    if (!c && !err->code) rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    return c;
}

static bool str_eq(rc_str a, rc_str b) { return a.n == b.n && !memcmp(a.p, b.p, a.n); }

bool rc_my_table_same(const rc_my_table *a, const rc_my_table *b)
{
    if (a->ncols != b->ncols) return false;
    for (uint32_t i = 0; i < a->ncols; i++)
        if (!str_eq(a->cols[i].name, b->cols[i].name) || !str_eq(a->cols[i].type.decl, b->cols[i].type.decl)) return false;
    return true;
}

static rc_status put_as(rc_my_history *h, const rc_my_table *t, rc_str db, rc_str name, rc_error *err)
{
    rc_my_table *c = copy_table(t, db, name, err);
    if (!c) return err && err->code ? err->code : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    bool found;
    uint32_t at = find(h, c->db, c->name, &found);
    if (found) {
        free(h->tables[at]);
        h->tables[at] = c;
        return RC_OK;
    }
    if (h->ntables == h->cap) {
        uint32_t cap = h->cap ? h->cap * 2 : 16;
        rc_my_table **nt = realloc(h->tables, cap * sizeof *nt);
        if (!nt) {
            free(c);
            return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        }
        h->tables = nt;
        h->cap = cap;
    }
    memmove(h->tables + at + 1, h->tables + at, (h->ntables - at) * sizeof *h->tables);
    h->tables[at] = c;
    h->ntables++;
    return RC_OK;
}

rc_status rc_my_history_put(rc_my_history *h, const rc_my_table *t, rc_error *err)
{
    return put_as(h, t, t->db, t->name, err);
}

const rc_my_table *rc_my_history_get(const rc_my_history *h, rc_str db, rc_str table)
{
    bool found;
    uint32_t at = find(h, db, table, &found);
    return found ? h->tables[at] : NULL;
}

static void remove_at(rc_my_history *h, uint32_t at)
{
    free(h->tables[at]);
    memmove(h->tables + at, h->tables + at + 1, (h->ntables - at - 1) * sizeof *h->tables);
    h->ntables--;
}

bool rc_my_history_drop(rc_my_history *h, rc_str db, rc_str table)
{
    bool found;
    uint32_t at = find(h, db, table, &found);
    if (found) remove_at(h, at);
    return found;
}

rc_status rc_my_history_rename(rc_my_history *h, rc_str db, rc_str table, rc_str ndb, rc_str ntable, bool *found,
                               rc_error *err)
{
    uint32_t at = find(h, db, table, found);
    if (!*found) return RC_OK;
    rc_my_table *old = h->tables[at];
    if (key_cmp(old, ndb, ntable) == 0) return RC_OK;
    /* the new entry is made from the old block before the old one goes */
    rc_status st = put_as(h, old, ndb, ntable, err);
    if (st != RC_OK) return st;
    bool again;
    at = find(h, old->db, old->name, &again);
    remove_at(h, at);
    return RC_OK;
}

static my_db *find_db(const rc_my_history *h, rc_str db)
{
    for (uint32_t i = 0; i < h->ndbs; i++)
        if (h->dbs[i].n == db.n && memcmp(h->dbs[i].name, db.p, db.n) == 0) return &h->dbs[i];
    return NULL;
}

void rc_my_history_drop_database(rc_my_history *h, rc_str db)
{
    my_db *d = find_db(h, db);
    if (d) {
        free(d->name);
        *d = h->dbs[--h->ndbs];
    }
    for (uint32_t i = h->ntables; i-- > 0;)
        if (str_cmp(h->tables[i]->db, db) == 0) remove_at(h, i);
}

static int db_cmp(const void *a, const void *b)
{
    const my_db *x = a, *y = b;
    return str_cmp((rc_str){x->name, x->n}, (rc_str){y->name, y->n});
}

rc_status rc_my_history_set_database(rc_my_history *h, rc_str db, uint16_t collation, rc_error *err)
{
    my_db *d = find_db(h, db);
    if (d) {
        d->collation = collation;
        return RC_OK;
    }
    if (h->ndbs == h->dbcap) {
        uint32_t cap = h->dbcap ? h->dbcap * 2 : 8;
        my_db *nd = realloc(h->dbs, cap * sizeof *nd);
        if (!nd) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        h->dbs = nd;
        h->dbcap = cap;
    }
    char *name = malloc(db.n + 1);
    if (!name) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (db.n) memcpy(name, db.p, db.n);
    name[db.n] = '\0';
    h->dbs[h->ndbs++] = (my_db){name, db.n, collation};
    /* kept in name order so that the text the history writes does not depend on history */
    qsort(h->dbs, h->ndbs, sizeof *h->dbs, db_cmp);
    return RC_OK;
}

uint16_t rc_my_history_database(const rc_my_history *h, rc_str db)
{
    my_db *d = find_db(h, db);
    return d ? d->collation : 0;
}

bool rc_my_history_has_database(const rc_my_history *h, rc_str db) { return find_db(h, db) != NULL; }

uint32_t rc_my_history_database_count(const rc_my_history *h) { return h->ndbs; }

rc_str rc_my_history_database_at(const rc_my_history *h, uint32_t i, uint16_t *collation)
{
    *collation = h->dbs[i].collation;
    return (rc_str){h->dbs[i].name, h->dbs[i].n};
}

uint32_t rc_my_history_count(const rc_my_history *h) { return h->ntables; }

const rc_my_table *rc_my_history_at(const rc_my_history *h, uint32_t i) { return i < h->ntables ? h->tables[i] : NULL; }

void rc_my_history_swap(rc_my_history *a, rc_my_history *b)
{
    rc_my_history t = *a;
    *a = *b;
    *b = t;
}
