/* The DDL parser of the schema history: CREATE / ALTER / RENAME / DROP / TRUNCATE TABLE and
 * CREATE / ALTER / DROP DATABASE of MySQL 5.7-9.x and MariaDB 10.x-11.x, applied to the history
 * (rc_my_history_ddl).
 *
 * Why a parser and not a re-read of information_schema: the binlog is read behind the server
 * (offline files, a restart at an old position), where the server's current structure is not
 * the structure at the statement's position; the statement itself is.
 *
 * What is kept of a column is what decodes its row images and what the formats write of it:
 * name, declared type (normalised to the spelling information_schema.COLUMNS.COLUMN_TYPE uses:
 * aliases such as INT4, DEC, BOOL, SERIAL, LONG VARCHAR, NATIONAL CHAR become int, decimal,
 * tinyint(1), bigint unsigned, mediumtext, char; FLOAT(p) with p > 24 is double), nullability,
 * primary-key ordinal, generated, invisible and collation. Indexes, defaults, comments, foreign
 * keys, checks and table options other than the default charset are read past.
 *
 * A table statement that cannot be read is an error naming the byte and the statement, never a
 * guessed structure. A table the history does not know (not captured, or created by CREATE
 * TABLE … LIKE of an unknown table) stays unknown: statements on it change nothing.
 *
 * This file reads the statements; the token helpers, column definitions and the working table
 * are in my_ddl_tokens.c, my_ddl_column.c and my_ddl_table.c (my_ddl_int.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "core/ddl.h"
#include "sources/mysql/my_ddl_int.h"
#include "sources/mysql/my_types.h"

/* ---- statements ---- */

static void result(ps *p, rc_ddl_class kind, rc_str db, rc_str t)
{
    p->out->kind = rc_ddl_class_name(kind);
    p->out->db = db;
    p->out->table = t;
}

static rc_status create_table(ps *p, bool or_replace, bool temporary)
{
    bool if_not_exists = false;
    if (rc_my_ddl_accept(p, "IF")) {
        if (rc_my_ddl_expect(p, "NOT") || rc_my_ddl_expect(p, "EXISTS")) return p->st;
        if_not_exists = true;
    }
    rc_str db, tn;
    if (rc_my_ddl_table_name(p, &db, &tn)) return p->st;
    result(p, RC_DDL_CREATE_TABLE, db, tn);
    const rc_my_table *old = rc_my_history_get(p->h, db, tn);
    bool keep = (old && if_not_exists && !or_replace) || temporary;
    /* LIKE other / (LIKE other) */
    bool paren_like = rc_my_ddl_punct(p, '(') && rc_my_ddl_next_is(p, "LIKE");
    if (paren_like) rc_my_ddl_adv(p);
    if (rc_my_ddl_accept(p, "LIKE")) {
        rc_str sdb, st;
        if (rc_my_ddl_table_name(p, &sdb, &st)) return p->st;
        if (paren_like && rc_my_ddl_expect_c(p, ')')) return p->st;
        if (!rc_my_ddl_end_of_statement(p)) return rc_my_ddl_unexpected(p, "the end of the statement");
        const rc_my_table *src = rc_my_history_get(p->h, sdb, st);
        if (keep) return RC_OK;
        if (!src) { /* unknown source: the new table is unknown too, not guessed */
            p->out->changed = rc_my_history_drop(p->h, db, tn);
            return RC_OK;
        }
        wtab w;
        if (rc_my_ddl_wtab_from(p, &w, src) == RC_OK) rc_my_ddl_commit(p, &w, db, tn, false, 0);
        rc_my_ddl_wtab_free(&w);
        return p->st;
    }
    if (!rc_my_ddl_punct(p, '(')) {
        if (rc_my_ddl_is(p, "SELECT") || rc_my_ddl_is(p, "AS") || rc_my_ddl_is(p, "IGNORE") || rc_my_ddl_is(p, "REPLACE"))
            return rc_my_ddl_fail(p, p->t.off, "CREATE TABLE ... SELECT: the columns the SELECT makes are not in the statement");
        return rc_my_ddl_unexpected(p, "'(' or LIKE");
    }
    rc_my_ddl_adv(p);
    wtab w = {0};
    w.coll = rc_my_history_database(p->h, db);
    for (;;) {
        if (rc_my_ddl_element(p, &w, NULL, false)) goto out;
        if (rc_my_ddl_accept_c(p, ')')) break;
        if (!rc_my_ddl_accept_c(p, ',')) {
            rc_my_ddl_unexpected(p, "',' or ')'");
            goto out;
        }
    }
    if (rc_my_ddl_apply_pk(p, &w)) goto out;
    bool coll_explicit = false;
    if (rc_my_ddl_create_options(p, &w, &coll_explicit)) goto out;
    if (!keep) {
        rc_my_ddl_commit(p, &w, db, tn, false, 0);
    }
out:
    rc_my_ddl_wtab_free(&w);
    return p->st;
}

static bool if_exists(ps *p)
{
    if (!rc_my_ddl_is(p, "IF")) return false;
    rc_my_ddl_adv(p);
    if (rc_my_ddl_expect(p, "EXISTS")) return false;
    return true;
}

static bool if_not_exists(ps *p)
{
    if (!rc_my_ddl_is(p, "IF")) return false;
    rc_my_ddl_adv(p);
    if (rc_my_ddl_expect(p, "NOT") || rc_my_ddl_expect(p, "EXISTS")) return false;
    return true;
}

/* FIRST | AFTER col: where a column goes (*at), the end when neither. */
static rc_status placement(ps *p, wtab *w, uint32_t *at)
{
    if (rc_my_ddl_accept(p, "FIRST")) {
        *at = 0;
    } else if (rc_my_ddl_accept(p, "AFTER")) {
        size_t off = p->t.off;
        rc_str n;
        if (rc_my_ddl_name(p, &n, "a column name")) return p->st;
        int64_t i = rc_my_ddl_wtab_find(w, n);
        if (i < 0 && !p->unknown) return rc_my_ddl_fail(p, off, "AFTER %.*s: no such column in the table", (int)n.n, n.p);
        *at = i < 0 ? w->n : (uint32_t)i + 1;
    }
    return RC_OK;
}

/* MODIFY / CHANGE: the new definition of column `old` (same name for MODIFY). */
static rc_status redefine(ps *p, wtab *w, bool change)
{
    rc_my_ddl_accept(p, "COLUMN");
    bool ie = if_exists(p);
    if (p->st) return p->st;
    size_t at = p->t.off;
    rc_str oldname;
    if (change) {
        if (rc_my_ddl_name(p, &oldname, "a column name")) return p->st;
    } else {
        rc_my_lexer save = p->lx;
        rc_my_tok t0 = p->t;
        if (rc_my_ddl_name(p, &oldname, "a column name")) return p->st;
        p->lx = save, p->t = t0;
    }
    wcol c;
    bool pk;
    if (rc_my_ddl_column_def(p, &c, &pk)) return p->st;
    int64_t i = rc_my_ddl_wtab_find(w, oldname);
    if (i < 0) {
        if (ie || rc_my_ddl_missing(p, at, oldname) == RC_OK) return rc_my_ddl_skip_element(p);
        return p->st;
    }
    int64_t dup = rc_my_ddl_wtab_find(w, c.name);
    if (dup >= 0 && dup != i) return rc_my_ddl_fail(p, at, "column %.*s is already in the table", (int)c.name.n, c.name.p);
    c.pk = w->cols[i].pk;
    if (c.pk) c.nullable = false;
    rc_my_ddl_wtab_remove(w, (uint32_t)i);
    uint32_t where = (uint32_t)i;
    if (placement(p, w, &where)) return p->st;
    if (rc_my_ddl_wtab_insert(p, w, where, &c)) return p->st;
    if (pk) {
        p->npk = 1;
        p->pk[0] = c.name;
        p->pk_off[0] = at;
        p->pk_pending = true;
        return rc_my_ddl_apply_pk(p, w);
    }
    return RC_OK;
}

static rc_status drop_column(ps *p, wtab *w)
{
    bool ie = if_exists(p);
    if (p->st) return p->st;
    size_t at = p->t.off;
    rc_str n;
    if (rc_my_ddl_name(p, &n, "a column name")) return p->st;
    if (!rc_my_ddl_accept(p, "RESTRICT")) rc_my_ddl_accept(p, "CASCADE");
    int64_t i = rc_my_ddl_wtab_find(w, n);
    if (i < 0) return ie ? RC_OK : rc_my_ddl_missing(p, at, n);
    uint16_t k = w->cols[i].pk;
    rc_my_ddl_wtab_remove(w, (uint32_t)i);
    rc_my_ddl_drop_pk_part(w, k);
    return RC_OK;
}

/* The words that start an ALTER TABLE clause (a name list of ORDER BY or of a partition
 * clause goes on past a comma only when the next word is none of these). */
static bool clause_word(ps *p)
{
    static const char *const words[] = {"ADD", "ALGORITHM", "ALTER", "ANALYZE", "CHANGE", "CHARACTER", "CHARSET", "CHECK",
                                        "COALESCE", "COLLATE", "COMMENT", "CONVERT", "DEFAULT", "DISABLE", "DISCARD", "DROP",
                                        "ENABLE", "ENGINE", "EXCHANGE", "FORCE", "IMPORT", "LOCK", "MODIFY", "OPTIMIZE",
                                        "ORDER", "PARTITION", "REBUILD", "REMOVE", "RENAME", "REORGANIZE", "REPAIR",
                                        "TRUNCATE", "UPGRADE", "WITH", "WITHOUT", "AUTO_INCREMENT", "ROW_FORMAT", NULL};
    for (int i = 0; words[i]; i++)
        if (rc_my_ddl_is(p, words[i])) return true;
    return false;
}

/* A list of names after ORDER BY or PARTITION: a, b DESC, … */
static rc_status name_list(ps *p)
{
    for (;;) {
        if (rc_my_ddl_punct(p, '(') ? rc_my_ddl_skip_parens(p) : rc_my_ddl_skip_value(p)) return p->st;
        if (!rc_my_ddl_accept(p, "ASC")) rc_my_ddl_accept(p, "DESC");
        if (!rc_my_ddl_punct(p, ',')) return RC_OK;
        rc_my_lexer save = p->lx;
        rc_my_tok t0 = p->t;
        rc_my_ddl_adv(p);
        if (clause_word(p) || p->t.kind == RC_MY_TK_END) {
            p->lx = save, p->t = t0;
            return RC_OK;
        }
    }
}

/* Partition maintenance: no column changes; read to the end of the clause. */
static rc_status partition_clause(ps *p)
{
    while (p->t.kind != RC_MY_TK_END && !rc_my_ddl_punct(p, ';')) {
        if (p->t.kind == RC_MY_TK_ERROR) return rc_my_ddl_unexpected(p, "a partition clause");
        if (rc_my_ddl_punct(p, ',')) {
            rc_my_lexer save = p->lx;
            rc_my_tok t0 = p->t;
            rc_my_ddl_adv(p);
            bool next_clause = clause_word(p) && !rc_my_ddl_is(p, "PARTITION");
            p->lx = save, p->t = t0;
            if (next_clause) return RC_OK;
            rc_my_ddl_adv(p);
            continue;
        }
        if (rc_my_ddl_punct(p, '(')) {
            if (rc_my_ddl_skip_parens(p)) return p->st;
        } else {
            rc_my_ddl_adv(p);
        }
    }
    return RC_OK;
}

static rc_status alter_add(ps *p, wtab *w)
{
    if (rc_my_ddl_is(p, "PARTITION")) return partition_clause(p);
    if (rc_my_ddl_is(p, "PERIOD") && rc_my_ddl_next_is(p, "FOR")) { /* an application-time period; SYSTEM_TIME: below */
        rc_my_lexer save = p->lx;
        rc_my_tok t0 = p->t;
        rc_my_ddl_adv(p), rc_my_ddl_adv(p);
        bool system = rc_my_ddl_is(p, "SYSTEM_TIME");
        p->lx = save, p->t = t0;
        if (!system) return rc_my_ddl_period(p, w);
    }
    if ((rc_my_ddl_is(p, "SYSTEM") && rc_my_ddl_next_is(p, "VERSIONING")) || (rc_my_ddl_is(p, "PERIOD") && rc_my_ddl_next_is(p, "FOR")))
        return rc_my_ddl_fail(p, p->t.off, "system versioning and application-time periods are not supported");
    bool column = rc_my_ddl_accept(p, "COLUMN");
    bool ine = if_not_exists(p);
    if (p->st) return p->st;
    if (rc_my_ddl_punct(p, '(')) {
        rc_my_ddl_adv(p);
        for (;;) {
            if (rc_my_ddl_element(p, w, NULL, ine) || rc_my_ddl_apply_pk(p, w)) return p->st;
            if (rc_my_ddl_accept_c(p, ')')) return RC_OK;
            if (rc_my_ddl_expect_c(p, ',')) return p->st;
        }
    }
    if (!column && (rc_my_ddl_is(p, "INDEX") || rc_my_ddl_is(p, "KEY") || rc_my_ddl_is(p, "UNIQUE") || rc_my_ddl_is(p, "FULLTEXT") || rc_my_ddl_is(p, "SPATIAL") ||
                    rc_my_ddl_is(p, "FOREIGN") || rc_my_ddl_is(p, "CHECK") || rc_my_ddl_is(p, "CONSTRAINT") || rc_my_ddl_is(p, "PRIMARY")))
        return rc_my_ddl_element(p, w, NULL, ine) ? p->st : rc_my_ddl_apply_pk(p, w);
    uint32_t before = w->n;
    if (rc_my_ddl_element(p, w, NULL, ine) || rc_my_ddl_apply_pk(p, w)) return p->st;
    if (w->n == before) return rc_my_ddl_skip_element(p); /* IF NOT EXISTS and it exists */
    uint32_t where = w->n - 1;
    uint32_t to = where;
    if (placement(p, w, &to)) return p->st;
    if (to != where) {
        wcol c = w->cols[where];
        rc_my_ddl_wtab_remove(w, where);
        if (to > where) to--;
        if (rc_my_ddl_wtab_insert(p, w, to, &c)) return p->st;
    }
    return RC_OK;
}

static rc_status alter_drop(ps *p, wtab *w)
{
    if (rc_my_ddl_accept(p, "PRIMARY")) {
        if (rc_my_ddl_expect(p, "KEY")) return p->st;
        rc_my_ddl_clear_pk(w);
        return RC_OK;
    }
    if (rc_my_ddl_accept(p, "INDEX") || rc_my_ddl_accept(p, "KEY") || rc_my_ddl_accept(p, "CONSTRAINT")) {
        if_exists(p);
        rc_str n;
        if (p->st || rc_my_ddl_name(p, &n, "an index name")) return p->st;
        if (n.n == 7 && !strncasecmp(n.p, "PRIMARY", 7)) rc_my_ddl_clear_pk(w);
        return RC_OK;
    }
    if (rc_my_ddl_accept(p, "FOREIGN")) {
        if (rc_my_ddl_expect(p, "KEY")) return p->st;
        if_exists(p);
        rc_str n;
        return p->st ? p->st : rc_my_ddl_name(p, &n, "a foreign key name");
    }
    if (rc_my_ddl_accept(p, "CHECK")) {
        if_exists(p);
        rc_str n;
        return p->st ? p->st : rc_my_ddl_name(p, &n, "a check name");
    }
    if (rc_my_ddl_is(p, "PARTITION")) return partition_clause(p);
    if ((rc_my_ddl_is(p, "SYSTEM") && rc_my_ddl_next_is(p, "VERSIONING")) || (rc_my_ddl_is(p, "PERIOD") && rc_my_ddl_next_is(p, "FOR")))
        return rc_my_ddl_fail(p, p->t.off, "system versioning and application-time periods are not supported");
    rc_my_ddl_accept(p, "COLUMN");
    return drop_column(p, w);
}

static rc_status alter_alter(ps *p, wtab *w)
{
    if (rc_my_ddl_accept(p, "INDEX") || rc_my_ddl_accept(p, "KEY") || rc_my_ddl_accept(p, "CHECK") || rc_my_ddl_accept(p, "CONSTRAINT")) return rc_my_ddl_skip_element(p);
    rc_my_ddl_accept(p, "COLUMN");
    bool ie = if_exists(p);
    if (p->st) return p->st;
    size_t at = p->t.off;
    rc_str n;
    if (rc_my_ddl_name(p, &n, "a column name")) return p->st;
    int64_t i = rc_my_ddl_wtab_find(w, n);
    if (i < 0 && !ie && rc_my_ddl_missing(p, at, n)) return p->st;
    if (rc_my_ddl_accept(p, "SET")) {
        if (rc_my_ddl_accept(p, "DEFAULT")) {
            rc_str d = {"", 0};
            bool has = false;
            if (rc_my_ddl_default(p, &d, &has)) return p->st;
            if (i >= 0) w->cols[i].dflt = d, w->cols[i].has_dflt = has;
            return RC_OK;
        }
        bool vis = rc_my_ddl_accept(p, "VISIBLE");
        if (!vis && rc_my_ddl_expect(p, "INVISIBLE")) return p->st;
        if (i >= 0) w->cols[i].invisible = !vis;
        return RC_OK;
    }
    if (rc_my_ddl_accept(p, "DROP")) {
        if (i >= 0) w->cols[i].has_dflt = false, w->cols[i].dflt = (rc_str){"", 0};
        return rc_my_ddl_expect(p, "DEFAULT");
    }
    return rc_my_ddl_unexpected(p, "SET or DROP");
}

static rc_status alter_rename(ps *p, wtab *w, rc_str *db, rc_str *tn)
{
    if (rc_my_ddl_accept(p, "COLUMN")) {
        bool ie = if_exists(p);
        if (p->st) return p->st;
        size_t at = p->t.off;
        rc_str from, to;
        if (rc_my_ddl_name(p, &from, "a column name") || rc_my_ddl_expect(p, "TO") || rc_my_ddl_name(p, &to, "a column name")) return p->st;
        int64_t i = rc_my_ddl_wtab_find(w, from);
        if (i < 0) return ie ? RC_OK : rc_my_ddl_missing(p, at, from);
        int64_t dup = rc_my_ddl_wtab_find(w, to);
        if (dup >= 0 && dup != i) return rc_my_ddl_fail(p, at, "column %.*s is already in the table", (int)to.n, to.p);
        w->cols[i].name = to;
        return RC_OK;
    }
    if (rc_my_ddl_accept(p, "INDEX") || rc_my_ddl_accept(p, "KEY")) {
        rc_str a, b;
        return rc_my_ddl_name(p, &a, "an index name") || rc_my_ddl_expect(p, "TO") || rc_my_ddl_name(p, &b, "an index name") ? p->st : RC_OK;
    }
    if (!rc_my_ddl_accept(p, "TO")) rc_my_ddl_accept(p, "AS");
    return rc_my_ddl_table_name(p, db, tn);
}

static rc_status alter_table(ps *p)
{
    rc_str db, tn;
    if_exists(p);
    if (p->st || rc_my_ddl_table_name(p, &db, &tn)) return p->st;
    result(p, RC_DDL_ALTER_TABLE, db, tn);
    rc_my_ddl_skip_wait(p);
    const rc_my_table *t = rc_my_history_get(p->h, db, tn);
    wtab w = {0};
    if (t && rc_my_ddl_wtab_from(p, &w, t)) goto out;
    if (!t) w.coll = rc_my_history_database(p->h, db);
    p->unknown = !t;
    rc_str ndb = db, ntn = tn;
    bool coll_explicit = false, convert = false;
    uint16_t convert_coll = 0;
    while (!rc_my_ddl_end_of_statement(p)) {
        if (p->st) goto out;
        if (rc_my_ddl_accept(p, "ADD")) {
            alter_add(p, &w);
        } else if (rc_my_ddl_accept(p, "DROP")) {
            alter_drop(p, &w);
        } else if (rc_my_ddl_accept(p, "MODIFY")) {
            redefine(p, &w, false);
        } else if (rc_my_ddl_accept(p, "CHANGE")) {
            redefine(p, &w, true);
        } else if (rc_my_ddl_accept(p, "ALTER")) {
            alter_alter(p, &w);
        } else if (rc_my_ddl_accept(p, "RENAME")) {
            alter_rename(p, &w, &ndb, &ntn);
        } else if (rc_my_ddl_accept(p, "CONVERT")) {
            coldef cd = {0};
            if (rc_my_ddl_expect(p, "TO")) goto out;
            if (!rc_my_ddl_charset_attr(p, &cd)) {
                rc_my_ddl_unexpected(p, "CHARACTER SET");
                goto out;
            }
            while (rc_my_ddl_is(p, "COLLATE")) rc_my_ddl_charset_attr(p, &cd);
            convert = true;
            convert_coll = cd.coll;
            w.coll = cd.coll;
            coll_explicit = true;
        } else if (rc_my_ddl_accept(p, "ALGORITHM") || rc_my_ddl_accept(p, "LOCK")) {
            rc_my_ddl_accept_c(p, '=');
            rc_my_ddl_adv(p);
        } else if (rc_my_ddl_accept(p, "FORCE")) {
        } else if (rc_my_ddl_accept(p, "ENABLE") || rc_my_ddl_accept(p, "DISABLE")) {
            rc_my_ddl_expect(p, "KEYS");
        } else if (rc_my_ddl_accept(p, "DISCARD") || rc_my_ddl_accept(p, "IMPORT")) {
            if (rc_my_ddl_is(p, "PARTITION")) partition_clause(p);
            else rc_my_ddl_expect(p, "TABLESPACE");
        } else if (rc_my_ddl_accept(p, "ORDER")) {
            if (rc_my_ddl_expect(p, "BY") == RC_OK) name_list(p);
        } else if (rc_my_ddl_accept(p, "WITH") || rc_my_ddl_accept(p, "WITHOUT")) {
            rc_my_ddl_expect(p, "VALIDATION");
        } else if (rc_my_ddl_is(p, "PARTITION") || rc_my_ddl_is(p, "TRUNCATE") || rc_my_ddl_is(p, "COALESCE") || rc_my_ddl_is(p, "REORGANIZE") ||
                   rc_my_ddl_is(p, "EXCHANGE") || rc_my_ddl_is(p, "ANALYZE") || rc_my_ddl_is(p, "CHECK") || rc_my_ddl_is(p, "OPTIMIZE") || rc_my_ddl_is(p, "REBUILD") ||
                   rc_my_ddl_is(p, "REPAIR") || rc_my_ddl_is(p, "REMOVE") || rc_my_ddl_is(p, "UPGRADE")) {
            rc_my_ddl_adv(p);
            partition_clause(p);
        } else {
            rc_my_ddl_table_option(p, &w, &coll_explicit);
        }
        if (p->st) goto out;
        if (!rc_my_ddl_accept_c(p, ',') && !rc_my_ddl_end_of_statement(p) && p->t.kind != RC_MY_TK_WORD) {
            rc_my_ddl_unexpected(p, "',' or the end of the statement");
            goto out;
        }
    }
    if (p->t.kind == RC_MY_TK_ERROR) {
        rc_my_ddl_unexpected(p, "the end of the statement");
        goto out;
    }
    if (!t) goto out; /* a table the history does not know: nothing to change */
    if (rc_my_ddl_commit(p, &w, ndb, ntn, convert, convert_coll)) goto out;
    if (ndb.n != db.n || ntn.n != tn.n || memcmp(ndb.p, db.p, db.n) || memcmp(ntn.p, tn.p, tn.n)) {
        rc_my_history_drop(p->h, db, tn);
        p->out->old_db = db, p->out->old_table = tn;
        p->out->db = ndb, p->out->table = ntn;
    }
out:
    rc_my_ddl_wtab_free(&w);
    return p->st;
}

/* The [db.]name list of RENAME TABLE (pairs) and DROP TABLE, read whole before any of it is
 * applied, so that a statement refused at its end leaves the history as it was. */
typedef struct names_t {
    rc_str *v; /* db, name, db, name, ... */
    size_t n, cap;
} names_t;

static rc_status names_add(ps *p, names_t *l, rc_str db, rc_str tn)
{
    if (l->n + 2 > l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        rc_str *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv) return rc_my_ddl_nomem(p);
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = db;
    l->v[l->n++] = tn;
    return RC_OK;
}

static rc_status rename_tables(ps *p)
{
    if (!rc_my_ddl_accept(p, "TABLE") && rc_my_ddl_expect(p, "TABLES")) return p->st;
    if_exists(p);
    names_t l = {0};
    for (;;) {
        rc_str db, tn, ndb, ntn;
        if (p->st || rc_my_ddl_table_name(p, &db, &tn)) goto out;
        rc_my_ddl_skip_wait(p); /* MariaDB: RENAME TABLE t WAIT n TO u */
        if (rc_my_ddl_expect(p, "TO") || rc_my_ddl_table_name(p, &ndb, &ntn) || names_add(p, &l, db, tn) ||
            names_add(p, &l, ndb, ntn))
            goto out;
        if (!rc_my_ddl_accept_c(p, ',')) break;
    }
    if (!rc_my_ddl_end_of_statement(p)) {
        rc_my_ddl_unexpected(p, "',' or the end of the statement");
        goto out;
    }
    result(p, RC_DDL_RENAME_TABLE, l.v[2], l.v[3]);
    p->out->old_db = l.v[0], p->out->old_table = l.v[1];
    for (size_t i = 0; i < l.n; i += 4) {
        bool found;
        if (rc_my_history_rename(p->h, l.v[i], l.v[i + 1], l.v[i + 2], l.v[i + 3], &found, p->err)) {
            p->st = p->err ? p->err->code : RC_ERR_NOMEM;
            goto out;
        }
        if (found) p->out->changed = true;
        else if (rc_my_history_drop(p->h, l.v[i + 2], l.v[i + 3])) p->out->changed = true; /* unknown, not the old one */
    }
out:
    free(l.v);
    return p->st;
}

static rc_status drop_tables(ps *p, bool temporary)
{
    if_exists(p);
    names_t l = {0};
    for (;;) {
        rc_str db, tn;
        if (p->st || rc_my_ddl_table_name(p, &db, &tn) || names_add(p, &l, db, tn)) goto out;
        if (!rc_my_ddl_accept_c(p, ',')) break;
    }
    rc_my_ddl_skip_wait(p);
    if (!rc_my_ddl_accept(p, "RESTRICT")) rc_my_ddl_accept(p, "CASCADE");
    if (!rc_my_ddl_end_of_statement(p)) {
        rc_my_ddl_unexpected(p, "',' or the end of the statement");
        goto out;
    }
    result(p, RC_DDL_DROP_TABLE, l.v[0], l.v[1]);
    for (size_t i = 0; i < l.n && !temporary; i += 2)
        if (rc_my_history_drop(p->h, l.v[i], l.v[i + 1])) p->out->changed = true;
out:
    free(l.v);
    return p->st;
}

/* CREATE / ALTER DATABASE options: the default collation. */
static rc_status database_options(ps *p, uint16_t *coll)
{
    bool explicit_coll = false;
    while (!rc_my_ddl_end_of_statement(p)) {
        bool read = rc_my_ddl_default_charset(p, coll, &explicit_coll);
        if (p->st) return p->st;
        if (read) continue;
        /* ENCRYPTION 'Y', COMMENT 'x', READ ONLY 1, UPGRADE DATA DIRECTORY NAME */
        if (p->t.kind != RC_MY_TK_WORD && p->t.kind != RC_MY_TK_STRING && p->t.kind != RC_MY_TK_NUMBER && !rc_my_ddl_punct(p, '='))
            return rc_my_ddl_unexpected(p, "a database option");
        rc_my_ddl_adv(p);
    }
    return p->t.kind == RC_MY_TK_ERROR ? rc_my_ddl_unexpected(p, "the end of the statement") : RC_OK;
}

static rc_status database_stmt(ps *p, const char *verb, bool or_replace)
{
    rc_my_ddl_adv(p); /* DATABASE / SCHEMA */
    rc_str db = p->defdb;
    if (!strcmp(verb, "CREATE")) {
        if_not_exists(p);
        if (p->st || rc_my_ddl_name(p, &db, "a database name")) return p->st;
        result(p, RC_DDL_CREATE_DATABASE, db, (rc_str){"", 0});
        uint16_t coll = or_replace ? 0 : rc_my_history_database(p->h, db);
        if (database_options(p, &coll)) return p->st;
        if (or_replace) rc_my_history_drop_database(p->h, db);
        p->out->changed = true;
        return rc_my_history_set_database(p->h, db, coll, p->err) ? (p->st = RC_ERR_NOMEM) : RC_OK;
    }
    if (!strcmp(verb, "DROP")) {
        if_exists(p);
        if (p->st || rc_my_ddl_name(p, &db, "a database name")) return p->st;
        result(p, RC_DDL_DROP_DATABASE, db, (rc_str){"", 0});
        if (!rc_my_ddl_end_of_statement(p)) return rc_my_ddl_unexpected(p, "the end of the statement");
        rc_my_history_drop_database(p->h, db);
        p->out->changed = true;
        return RC_OK;
    }
    /* ALTER DATABASE [name] options */
    p->out->kind = rc_ddl_class_name(RC_DDL_OTHER);
    if ((p->t.kind == RC_MY_TK_WORD && !rc_my_ddl_is(p, "DEFAULT") && !rc_my_ddl_is(p, "CHARACTER") && !rc_my_ddl_is(p, "CHARSET") && !rc_my_ddl_is(p, "COLLATE") &&
         !rc_my_ddl_is(p, "UPGRADE") && !rc_my_ddl_is(p, "ENCRYPTION") && !rc_my_ddl_is(p, "READ") && !rc_my_ddl_is(p, "COMMENT")) ||
        p->t.kind == RC_MY_TK_QID) {
        if (rc_my_ddl_name(p, &db, "a database name")) return p->st;
    }
    p->out->db = db;
    uint16_t coll = rc_my_history_database(p->h, db);
    if (database_options(p, &coll)) return p->st;
    if (!db.n) return RC_OK;
    p->out->changed = true;
    return rc_my_history_set_database(p->h, db, coll, p->err) ? (p->st = RC_ERR_NOMEM) : RC_OK;
}

static rc_status statement(ps *p)
{
    rc_my_ddl_adv(p);
    if (p->t.kind != RC_MY_TK_WORD) return RC_OK; /* not a statement of ours: OTHER */
    if (rc_my_ddl_accept(p, "CREATE")) {
        bool or_replace = false, temporary = false;
        if (rc_my_ddl_accept(p, "OR")) {
            if (!rc_my_ddl_accept(p, "REPLACE")) return RC_OK;
            or_replace = true;
        }
        if (rc_my_ddl_accept(p, "TEMPORARY")) temporary = true;
        if (rc_my_ddl_accept(p, "TABLE")) return create_table(p, or_replace, temporary);
        if (rc_my_ddl_is(p, "DATABASE") || rc_my_ddl_is(p, "SCHEMA")) return database_stmt(p, "CREATE", or_replace);
        if (!rc_my_ddl_accept(p, "UNIQUE") && !rc_my_ddl_accept(p, "FULLTEXT")) rc_my_ddl_accept(p, "SPATIAL");
        if (!rc_my_ddl_accept(p, "ONLINE")) rc_my_ddl_accept(p, "OFFLINE");
        if (rc_my_ddl_is(p, "INDEX")) p->out->kind = rc_ddl_class_name(RC_DDL_CREATE_INDEX); /* keys are not kept */
        return RC_OK;
    }
    if (rc_my_ddl_accept(p, "ALTER")) {
        if (!rc_my_ddl_accept(p, "ONLINE")) rc_my_ddl_accept(p, "OFFLINE");
        rc_my_ddl_accept(p, "IGNORE");
        if (rc_my_ddl_accept(p, "TABLE")) return alter_table(p);
        if (rc_my_ddl_is(p, "DATABASE") || rc_my_ddl_is(p, "SCHEMA")) return database_stmt(p, "ALTER", false);
        return RC_OK;
    }
    if (rc_my_ddl_accept(p, "DROP")) {
        bool temporary = rc_my_ddl_accept(p, "TEMPORARY");
        if (rc_my_ddl_accept(p, "TABLE") || rc_my_ddl_accept(p, "TABLES")) return drop_tables(p, temporary);
        if (rc_my_ddl_is(p, "DATABASE") || rc_my_ddl_is(p, "SCHEMA")) return database_stmt(p, "DROP", false);
        if (!rc_my_ddl_accept(p, "ONLINE")) rc_my_ddl_accept(p, "OFFLINE");
        if (rc_my_ddl_accept(p, "INDEX")) {
            /* DROP INDEX `PRIMARY` ON t drops the primary key */
            p->out->kind = rc_ddl_class_name(RC_DDL_DROP_INDEX);
            if_exists(p);
            rc_str idx, db, tn;
            if (p->st || rc_my_ddl_name(p, &idx, "an index name") || rc_my_ddl_expect(p, "ON") || rc_my_ddl_table_name(p, &db, &tn)) return p->st;
            p->out->db = db, p->out->table = tn;
            const rc_my_table *t = rc_my_history_get(p->h, db, tn);
            if (!t || idx.n != 7 || strncasecmp(idx.p, "PRIMARY", 7)) return RC_OK;
            wtab w;
            if (rc_my_ddl_wtab_from(p, &w, t) == RC_OK) {
                rc_my_ddl_clear_pk(&w);
                rc_my_ddl_commit(p, &w, db, tn, false, 0);
            }
            rc_my_ddl_wtab_free(&w);
            return p->st;
        }
        return RC_OK;
    }
    if (rc_my_ddl_is(p, "RENAME")) {
        rc_my_ddl_adv(p);
        if (rc_my_ddl_is(p, "TABLE") || rc_my_ddl_is(p, "TABLES")) return rename_tables(p);
        return RC_OK;
    }
    if (rc_my_ddl_accept(p, "TRUNCATE")) {
        rc_my_ddl_accept(p, "TABLE");
        rc_str db, tn;
        if (rc_my_ddl_table_name(p, &db, &tn)) return p->st;
        result(p, RC_DDL_TRUNCATE, db, tn);
        rc_my_ddl_skip_wait(p); /* MariaDB's WAIT n / NOWAIT */
        if (!rc_my_ddl_end_of_statement(p)) return rc_my_ddl_unexpected(p, "the end of the statement");
        return RC_OK;
    }
    return RC_OK;
}

rc_status rc_my_history_ddl(rc_my_history *h, rc_str db, rc_str sql, rc_my_ddl_result *out, rc_error *err)
{
    rc_arena *a = rc_my_history_scratch(h);
    rc_arena_reset(a);
    memset(out, 0, sizeof *out);
    out->kind = rc_ddl_class_name(RC_DDL_OTHER);
    ps p = {.a = a, .sql = sql, .err = err, .h = h, .defdb = db, .out = out};
    rc_my_lex_init(&p.lx, sql.p, sql.n);
    rc_status st = statement(&p);
    if (st != RC_OK) out->changed = false;
    return st;
}
