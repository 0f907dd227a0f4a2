/* The DDL parser's working table: its columns, the primary key, an element of a CREATE TABLE
 * body or ALTER TABLE ADD, table options, and the commit into the history. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "sources/mysql/my_ddl_int.h"
#include "sources/mysql/my_types.h"

/* ---- the working table ---- */

/* A column the statement names is not in the table: an error, unless the table is unknown. */
rc_status rc_my_ddl_missing(ps *p, size_t off, rc_str n)
{
    if (p->unknown) return RC_OK;
    return rc_my_ddl_fail(p, off, "column %.*s is not in the table", (int)n.n, n.p);
}

void rc_my_ddl_wtab_free(wtab *w) { free(w->cols); }

rc_status rc_my_ddl_wtab_insert(ps *p, wtab *w, uint32_t at, const wcol *c)
{
    if (w->n == w->cap) {
        uint32_t cap = w->cap ? w->cap * 2 : 16;
        wcol *nc = realloc(w->cols, cap * sizeof *nc);
        if (!nc) return rc_my_ddl_nomem(p);
        w->cols = nc;
        w->cap = cap;
    }
    memmove(w->cols + at + 1, w->cols + at, (w->n - at) * sizeof *w->cols);
    w->cols[at] = *c;
    w->n++;
    return RC_OK;
}

void rc_my_ddl_wtab_remove(wtab *w, uint32_t at)
{
    memmove(w->cols + at, w->cols + at + 1, (w->n - at - 1) * sizeof *w->cols);
    w->n--;
}

/* Column names compare without regard to ASCII case, as the server compares them. */
static bool col_eq(rc_str a, rc_str b) { return a.n == b.n && strncasecmp(a.p, b.p, a.n) == 0; }

int64_t rc_my_ddl_wtab_find(const wtab *w, rc_str name)
{
    for (uint32_t i = 0; i < w->n; i++)
        if (col_eq(w->cols[i].name, name)) return i;
    return -1;
}

rc_status rc_my_ddl_wtab_from(ps *p, wtab *w, const rc_my_table *t)
{
    memset(w, 0, sizeof *w);
    w->coll = t->collation;
    for (uint32_t i = 0; i < t->ncols; i++) {
        const rc_my_table_col *s = &t->cols[i];
        wcol c = {s->name, s->type.decl, s->nullable, s->generated, s->invisible, s->pk, s->collation, false, false, s->dflt, s->has_dflt};
        if (rc_my_ddl_wtab_insert(p, w, w->n, &c)) return p->st;
    }
    return RC_OK;
}

void rc_my_ddl_clear_pk(wtab *w)
{
    for (uint32_t i = 0; i < w->n; i++) w->cols[i].pk = 0;
}

/* Dropping a key column renumbers the others (the key loses that part). */
void rc_my_ddl_drop_pk_part(wtab *w, uint16_t k)
{
    if (!k) return;
    for (uint32_t i = 0; i < w->n; i++)
        if (w->cols[i].pk > k) w->cols[i].pk--;
}

/* PRIMARY KEY [USING x] (a, b(10) DESC, …): read into p->pk. */
static rc_status pk_list(ps *p)
{
    if ((p->t.kind == RC_MY_TK_WORD && !rc_my_ddl_is(p, "USING")) || p->t.kind == RC_MY_TK_QID)
        rc_my_ddl_adv(p); /* PRIMARY KEY name (…): the name is read past (the key is PRIMARY) */
    if (rc_my_ddl_accept(p, "USING")) rc_my_ddl_adv(p);
    if (rc_my_ddl_expect_c(p, '(')) return p->st;
    p->npk = 0;
    p->pk_pending = true;
    for (;;) {
        if (p->npk == 64) return rc_my_ddl_fail(p, p->t.off, "a primary key of more than 64 columns");
        p->pk_off[p->npk] = p->t.off;
        if (rc_my_ddl_name(p, &p->pk[p->npk], "a key column")) return p->st;
        if (rc_my_ddl_accept(p, "WITHOUT")) { /* MariaDB: the period's end and start columns (rc_my_ddl_apply_pk) */
            if (rc_my_ddl_expect(p, "OVERLAPS")) return p->st;
            p->pk_overlaps = (uint16_t)(p->npk + 1);
        }
        p->npk++;
        if (rc_my_ddl_punct(p, '(') && rc_my_ddl_skip_parens(p)) return p->st;
        if (!rc_my_ddl_accept(p, "ASC")) rc_my_ddl_accept(p, "DESC");
        if (rc_my_ddl_accept_c(p, ')')) break;
        if (rc_my_ddl_expect_c(p, ',')) return p->st;
    }
    return rc_my_ddl_skip_element(p); /* index options */
}

/* The primary key read last, applied: its columns get their ordinals and become NOT NULL. */
rc_status rc_my_ddl_apply_pk(ps *p, wtab *w)
{
    if (!p->pk_pending) return RC_OK;
    p->pk_pending = false;
    rc_my_ddl_clear_pk(w);
    uint16_t ord = 0;
    for (uint16_t k = 0; k < p->npk; k++) {
        if (k + 1 == p->pk_overlaps) { /* period WITHOUT OVERLAPS: its end column, then its start */
            if (!p->period.n || p->period.n != p->pk[k].n || strncasecmp(p->period.p, p->pk[k].p, p->period.n))
                return rc_my_ddl_fail(p, p->pk_off[k], "period %.*s is not a period of the statement", (int)p->pk[k].n, p->pk[k].p);
            rc_str ends[2] = {p->period_end, p->period_start};
            for (int e = 0; e < 2; e++) {
                int64_t i = rc_my_ddl_wtab_find(w, ends[e]);
                if (i >= 0) w->cols[i].pk = ++ord, w->cols[i].nullable = false;
            }
            continue;
        }
        int64_t i = rc_my_ddl_wtab_find(w, p->pk[k]);
        if (i < 0) {
            if (p->unknown) continue;
            return rc_my_ddl_fail(p, p->pk_off[k], "primary key column %.*s is not a column of the table", (int)p->pk[k].n, p->pk[k].p);
        }
        w->cols[i].pk = ++ord;
        w->cols[i].nullable = false;
    }
    return RC_OK;
}

/* An element of a CREATE TABLE body or of ALTER TABLE ADD: a column (placed at *pos, or at
 * the end when pos is NULL), or a key / constraint / index / period. */
rc_status rc_my_ddl_element(ps *p, wtab *w, uint32_t *pos, bool if_not_exists)
{
    if (rc_my_ddl_accept(p, "CONSTRAINT")) {
        if (!rc_my_ddl_is(p, "PRIMARY") && !rc_my_ddl_is(p, "UNIQUE") && !rc_my_ddl_is(p, "FOREIGN") && !rc_my_ddl_is(p, "CHECK")) {
            if (rc_my_ddl_accept(p, "IF")) { /* MariaDB: CONSTRAINT IF NOT EXISTS name */
                if (rc_my_ddl_expect(p, "NOT") || rc_my_ddl_expect(p, "EXISTS")) return p->st;
            }
            rc_str sym;
            if (rc_my_ddl_name(p, &sym, "a constraint name")) return p->st;
        }
        if (rc_my_ddl_accept(p, "PRIMARY")) {
            if (rc_my_ddl_expect(p, "KEY")) return p->st;
            return pk_list(p);
        }
        if (!rc_my_ddl_is(p, "UNIQUE") && !rc_my_ddl_is(p, "FOREIGN") && !rc_my_ddl_is(p, "CHECK")) return rc_my_ddl_unexpected(p, "PRIMARY, UNIQUE, FOREIGN or CHECK");
        return rc_my_ddl_skip_element(p);
    }
    if (rc_my_ddl_accept(p, "PRIMARY")) {
        if (rc_my_ddl_expect(p, "KEY")) return p->st;
        return pk_list(p);
    }
    if (rc_my_ddl_is(p, "INDEX") || rc_my_ddl_is(p, "KEY") || rc_my_ddl_is(p, "UNIQUE") || rc_my_ddl_is(p, "FULLTEXT") || rc_my_ddl_is(p, "SPATIAL") || rc_my_ddl_is(p, "FOREIGN") ||
        rc_my_ddl_is(p, "CHECK") || (rc_my_ddl_is(p, "VECTOR") && (rc_my_ddl_next_is(p, "INDEX") || rc_my_ddl_next_is(p, "KEY"))))
        return rc_my_ddl_skip_element(p);
    if (rc_my_ddl_is(p, "PERIOD") && rc_my_ddl_next_is(p, "FOR")) return rc_my_ddl_period(p, w);
    wcol c;
    bool pk;
    size_t at = p->t.off;
    if (rc_my_ddl_column_def(p, &c, &pk)) return p->st;
    int64_t exists = rc_my_ddl_wtab_find(w, c.name);
    if (exists >= 0) {
        if (if_not_exists) return RC_OK;
        return rc_my_ddl_fail(p, at, "column %.*s is defined twice", (int)c.name.n, c.name.p);
    }
    uint32_t where = pos ? *pos : w->n;
    if (rc_my_ddl_wtab_insert(p, w, where, &c)) return p->st;
    if (pos) (*pos)++;
    if (pk) { /* inline PRIMARY KEY: the same as a PRIMARY KEY (name) */
        p->npk = 1;
        p->pk[0] = c.name;
        p->pk_off[0] = at;
        p->pk_pending = true;
    }
    return RC_OK;
}

static bool same_table(const rc_my_table *a, const rc_my_table *b)
{
    if (a->ncols != b->ncols || a->collation != b->collation) return false;
    for (uint32_t i = 0; i < a->ncols; i++) {
        const rc_my_table_col *x = &a->cols[i], *y = &b->cols[i];
        if (x->name.n != y->name.n || memcmp(x->name.p, y->name.p, x->name.n) || x->type.decl.n != y->type.decl.n ||
            memcmp(x->type.decl.p, y->type.decl.p, x->type.decl.n) || x->nullable != y->nullable || x->pk != y->pk ||
            x->generated != y->generated || x->invisible != y->invisible || x->collation != y->collation ||
            x->has_dflt != y->has_dflt || x->dflt.n != y->dflt.n || (x->dflt.n && memcmp(x->dflt.p, y->dflt.p, x->dflt.n)))
            return false;
    }
    return true;
}

/* Resolves inherited collations and puts the table into the history as db.name, unless the
 * history holds that very structure there already (result.changed says which). */
rc_status rc_my_ddl_commit(ps *p, wtab *w, rc_str db, rc_str tname, bool convert, uint16_t convert_coll)
{
    rc_my_table_col *cols = calloc(w->n ? w->n : 1, sizeof *cols);
    if (!cols) return rc_my_ddl_nomem(p);
    for (uint32_t i = 0; i < w->n; i++) {
        wcol *c = &w->cols[i];
        uint16_t coll = c->inherit ? w->coll : c->coll;
        if (convert && (c->inherit || (c->coll && c->coll != RC_MY_COLLATION_BINARY))) coll = convert_coll;
        if (c->bin) coll = rc_my_collation_bin(coll);
        c->coll = coll;
        c->inherit = c->bin = false;
        cols[i].name = c->name;
        cols[i].type.decl = c->decl;
        cols[i].nullable = c->nullable;
        cols[i].pk = c->pk;
        cols[i].generated = c->generated;
        cols[i].invisible = c->invisible;
        cols[i].collation = coll;
        cols[i].dflt = c->dflt;
        cols[i].has_dflt = c->has_dflt;
    }
    rc_my_table t = {db, tname, w->n, cols, w->coll};
    const rc_my_table *old = rc_my_history_get(p->h, db, tname);
    bool same = old && same_table(old, &t);
    rc_status st = same ? RC_OK : rc_my_history_put(p->h, &t, p->err); /* put frees old */
    if (st == RC_OK && !same) p->out->changed = true;
    free(cols);
    if (st) p->st = st;
    return st;
}

/* PERIOD FOR p (start, end): MariaDB's application-time period makes both columns NOT NULL;
 * PERIOD FOR SYSTEM_TIME (of system versioning, refused by its WITH SYSTEM VERSIONING) is read
 * past. */
rc_status rc_my_ddl_period(ps *p, wtab *w)
{
    rc_my_ddl_adv(p), rc_my_ddl_adv(p); /* PERIOD FOR */
    rc_str name, col;
    if (rc_my_ddl_name(p, &name, "a period name")) return p->st;
    bool system = name.n == 11 && !strncasecmp(name.p, "SYSTEM_TIME", 11);
    if (rc_my_ddl_expect_c(p, '(')) return p->st;
    for (int k = 0; k < 2; k++) {
        if (k && rc_my_ddl_expect_c(p, ',')) return p->st;
        size_t at = p->t.off;
        if (rc_my_ddl_name(p, &col, "a column name")) return p->st;
        int64_t i = rc_my_ddl_wtab_find(w, col);
        if (i < 0) return rc_my_ddl_missing(p, at, col);
        if (!system) w->cols[i].nullable = false;
        if (!system) *(k ? &p->period_end : &p->period_start) = col;
    }
    if (!system) p->period = name;
    return rc_my_ddl_expect_c(p, ')');
}

/* [DEFAULT] CHARACTER SET [=] x / CHARSET x / COLLATE [=] x of a table or database: true when
 * one was read (*coll updated). */
bool rc_my_ddl_default_charset(ps *p, uint16_t *coll, bool *coll_explicit)
{
    rc_my_lexer save = p->lx;
    rc_my_tok t0 = p->t;
    rc_my_ddl_accept(p, "DEFAULT");
    if (rc_my_ddl_is(p, "CHARACTER") || rc_my_ddl_is(p, "CHARSET") || rc_my_ddl_is(p, "COLLATE") || (rc_my_ddl_is(p, "CHAR") && rc_my_ddl_next_is(p, "SET"))) {
        coldef cd = {0};
        bool was_collate = rc_my_ddl_is(p, "COLLATE");
        if (!rc_my_ddl_charset_attr(p, &cd)) return false;
        if (!cd.coll_given) return true; /* CHARACTER SET DEFAULT: the database's, unchanged */
        if (was_collate) {
            *coll = cd.coll;
            *coll_explicit = true;
        } else if (!*coll_explicit) {
            *coll = cd.coll;
        }
        return true;
    }
    p->lx = save;
    p->t = t0;
    return false;
}

/* One table option (ENGINE=x, COMMENT 'x', UNION=(a,b), DATA DIRECTORY='x', …). */
rc_status rc_my_ddl_table_option(ps *p, wtab *w, bool *coll_explicit)
{
    if (rc_my_ddl_default_charset(p, &w->coll, coll_explicit)) return p->st;
    if (rc_my_ddl_accept(p, "DEFAULT")) return RC_OK; /* DEFAULT ENCRYPTION='N' and the like */
    if (p->t.kind != RC_MY_TK_WORD && p->t.kind != RC_MY_TK_QID) return rc_my_ddl_unexpected(p, "a table option"); /* `PAGE_COMPRESSED`=`ON` */
    if (rc_my_ddl_is(p, "SELECT") || rc_my_ddl_is(p, "AS") || rc_my_ddl_is(p, "IGNORE") || rc_my_ddl_is(p, "REPLACE"))
        return rc_my_ddl_fail(p, p->t.off, "CREATE TABLE ... SELECT: the columns the SELECT makes are not in the statement");
    if (rc_my_ddl_is(p, "WITH") && rc_my_ddl_next_is(p, "SYSTEM"))
        return rc_my_ddl_fail(p, p->t.off, "system-versioned tables (WITH SYSTEM VERSIONING) are not supported");
    if (rc_my_ddl_accept(p, "DATA") || rc_my_ddl_accept(p, "INDEX")) {
        if (rc_my_ddl_expect(p, "DIRECTORY")) return p->st;
    } else if (rc_my_ddl_accept(p, "START")) {
        return rc_my_ddl_expect(p, "TRANSACTION"); /* MySQL 8's atomic CREATE TABLE ... SELECT */
    } else {
        rc_my_ddl_adv(p);
    }
    bool eq = rc_my_ddl_accept_c(p, '=');
    if (rc_my_ddl_punct(p, '(')) return rc_my_ddl_skip_parens(p);
    if (p->t.kind == RC_MY_TK_STRING || p->t.kind == RC_MY_TK_NUMBER || p->t.kind == RC_MY_TK_QID || (eq && p->t.kind == RC_MY_TK_WORD))
        return rc_my_ddl_skip_value(p);
    if (p->t.kind == RC_MY_TK_WORD && !rc_my_ddl_is(p, "PARTITION") && !rc_my_ddl_is(p, "DEFAULT") && !rc_my_ddl_is(p, "CHARACTER") && !rc_my_ddl_is(p, "CHARSET") &&
        !rc_my_ddl_is(p, "COLLATE") && !rc_my_ddl_is(p, "ENGINE") && !rc_my_ddl_is(p, "COMMENT") && !rc_my_ddl_is(p, "AUTO_INCREMENT") && !rc_my_ddl_is(p, "ROW_FORMAT") &&
        !rc_my_ddl_is(p, "STORAGE") && !rc_my_ddl_is(p, "START") && !rc_my_ddl_is(p, "WITH"))
        rc_my_ddl_adv(p); /* ENGINE InnoDB, TABLESPACE ts: a value without '=' */
    return RC_OK;
}

/* Table options and partitioning up to the end of a CREATE TABLE. */
rc_status rc_my_ddl_create_options(ps *p, wtab *w, bool *coll_explicit)
{
    while (!rc_my_ddl_end_of_statement(p)) {
        if (rc_my_ddl_accept_c(p, ',')) continue;
        if (rc_my_ddl_is(p, "PARTITION")) {
            while (p->t.kind != RC_MY_TK_END && p->t.kind != RC_MY_TK_ERROR) rc_my_ddl_adv(p); /* partitioning: no columns */
            break;
        }
        if (rc_my_ddl_table_option(p, w, coll_explicit)) return p->st;
    }
    if (p->t.kind == RC_MY_TK_ERROR) return rc_my_ddl_unexpected(p, "the end of the statement");
    return RC_OK;
}

