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
 * TABLE … LIKE of an unknown table) stays unknown: statements on it change nothing. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "rowcast/ddl.h"
#include "sources/mysql/my_ddl_lex.h"
#include "sources/mysql/my_schema.h"
#include "sources/mysql/my_types.h"

typedef struct wcol {
    rc_str name, decl;
    bool nullable, generated, invisible;
    uint16_t pk, coll;
    bool inherit; /* a character column without its own charset: the table's default */
    bool bin;     /* the BINARY attribute: the _bin collation of its charset */
} wcol;

typedef struct wtab {
    wcol *cols;
    uint32_t n, cap;
    uint16_t coll; /* the table's default collation */
} wtab;

typedef struct ps {
    rc_my_lexer lx;
    rc_my_tok t; /* the current token */
    rc_arena *a;
    rc_str sql;
    rc_error *err;
    rc_status st;
    rc_my_history *h;
    rc_str defdb;
    rc_my_ddl_result *out;
    bool unknown; /* ALTER of a table the history does not know: read, not checked */
    /* a PRIMARY KEY (…) read and not yet applied: CREATE TABLE applies it after the columns,
     * which may come after it */
    bool pk_pending;
    uint16_t npk;
    rc_str pk[64];
    size_t pk_off[64];
} ps;

/* ---- tokens ---- */

static void adv(ps *p) { p->t = rc_my_lex_next(&p->lx); }

static rc_status fail(ps *p, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static rc_status fail(ps *p, size_t off, const char *fmt, ...)
{
    if (p->st != RC_OK) return p->st;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    size_t show = p->sql.n < 80 ? p->sql.n : 80;
    rc_error_set(p->err, RC_ERR_SYNTAX, off, "DDL statement not understood at byte %zu: %s; the statement: \"%.*s%s\"", off,
                 what, (int)show, p->sql.p, p->sql.n > 80 ? "..." : "");
    return p->st = RC_ERR_SYNTAX;
}

static rc_status nomem(ps *p)
{
    if (p->st == RC_OK) p->st = rc_error_set(p->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    return p->st;
}

/* What the current token is, for messages. */
static const char *shown(ps *p, char *buf, size_t size)
{
    if (p->t.kind == RC_MY_TK_END) return "the end of the statement";
    if (p->t.kind == RC_MY_TK_ERROR) return p->lx.err;
    size_t n = p->t.n < 40 ? p->t.n : 40;
    snprintf(buf, size, "'%.*s'", (int)n, p->sql.p + p->t.off);
    return buf;
}

static rc_status unexpected(ps *p, const char *expected)
{
    char b[64];
    if (p->t.kind == RC_MY_TK_ERROR) return fail(p, p->lx.err_off, "%s", p->lx.err);
    return fail(p, p->t.off, "expected %s, found %s", expected, shown(p, b, sizeof b));
}

static bool is(ps *p, const char *w) { return rc_my_tok_is(&p->lx, p->t, w); }
static bool punct(ps *p, char c) { return p->t.kind == RC_MY_TK_PUNCT && p->t.c == c; }

static bool accept(ps *p, const char *w)
{
    if (!is(p, w)) return false;
    adv(p);
    return true;
}
static bool accept_c(ps *p, char c)
{
    if (!punct(p, c)) return false;
    adv(p);
    return true;
}
static rc_status expect(ps *p, const char *w)
{
    if (accept(p, w)) return RC_OK;
    return unexpected(p, w);
}
static rc_status expect_c(ps *p, char c)
{
    if (accept_c(p, c)) return RC_OK;
    char w[4] = {'\'', c, '\'', 0};
    return unexpected(p, w);
}

/* The word after the current token, without moving. */
static bool next_is(ps *p, const char *w)
{
    rc_my_lexer save = p->lx;
    rc_my_tok t = rc_my_lex_next(&p->lx);
    bool r = rc_my_tok_is(&p->lx, t, w);
    p->lx = save;
    return r;
}

/* MariaDB's WAIT n | NOWAIT (lock wait timeout of one statement). */
static void skip_wait(ps *p)
{
    if (accept(p, "WAIT")) adv(p);
    else accept(p, "NOWAIT");
}

static bool end_of_statement(ps *p)
{
    while (punct(p, ';')) adv(p);
    return p->t.kind == RC_MY_TK_END;
}

/* A name: a word, a `quoted` or "quoted" identifier. */
static rc_status name(ps *p, rc_str *out, const char *what)
{
    if (p->t.kind != RC_MY_TK_WORD && p->t.kind != RC_MY_TK_QID && !(p->t.kind == RC_MY_TK_STRING && p->sql.p[p->t.off] == '"'))
        return unexpected(p, what);
    *out = rc_my_tok_text(&p->lx, p->t, p->a);
    if (!out->p) return nomem(p);
    adv(p);
    return RC_OK;
}

/* [db.]table; db the default database when not given. */
static rc_status table_name(ps *p, rc_str *db, rc_str *tbl)
{
    size_t at = p->t.off;
    if (name(p, tbl, "a table name")) return p->st;
    if (accept_c(p, '.')) {
        *db = *tbl;
        if (name(p, tbl, "a table name")) return p->st;
    } else {
        *db = p->defdb;
        if (!db->n) return fail(p, at, "table %.*s names no database and the statement has no default database", (int)tbl->n, tbl->p);
    }
    return RC_OK;
}

/* Skips a balanced ( … ) starting at the current '('. */
static rc_status skip_parens(ps *p)
{
    size_t open = p->t.off;
    int depth = 0;
    do {
        if (p->t.kind == RC_MY_TK_END) return fail(p, open, "a '(' that is not closed");
        if (p->t.kind == RC_MY_TK_ERROR) return unexpected(p, "')'");
        if (punct(p, '(')) depth++;
        else if (punct(p, ')')) depth--;
        adv(p);
    } while (depth > 0);
    return RC_OK;
}

/* Skips up to the next ',' or ')' (or the end) outside parentheses. */
static rc_status skip_element(ps *p)
{
    while (p->t.kind != RC_MY_TK_END && !punct(p, ',') && !punct(p, ')') && !punct(p, ';')) {
        if (p->t.kind == RC_MY_TK_ERROR) return unexpected(p, "','");
        if (punct(p, '(')) {
            if (skip_parens(p)) return p->st;
        } else {
            adv(p);
        }
    }
    return RC_OK;
}

/* One value: a literal, -literal, (expr), f(args), _charset'x', x'..', DATE '…'. */
static rc_status skip_value(ps *p)
{
    while (punct(p, '-') || punct(p, '+') || punct(p, '~') || punct(p, '!')) adv(p);
    if (punct(p, '(')) return skip_parens(p);
    if (p->t.kind == RC_MY_TK_STRING) {
        while (p->t.kind == RC_MY_TK_STRING) adv(p); /* 'a' 'b' is one string */
        return RC_OK;
    }
    if (p->t.kind == RC_MY_TK_WORD) {
        adv(p);
        if (punct(p, '(')) return skip_parens(p);
        if (p->t.kind == RC_MY_TK_STRING) adv(p); /* _utf8mb4'x', X'0F', DATE '2020-01-01' */
        return RC_OK;
    }
    if (p->t.kind == RC_MY_TK_NUMBER || p->t.kind == RC_MY_TK_QID) {
        adv(p);
        return RC_OK;
    }
    return unexpected(p, "a value");
}

/* ---- column types ---- */

typedef struct alias {
    const char *word, *base;
} alias;

/* One-word spellings and the type information_schema shows for them. */
static const alias aliases[] = {
    {"INT1", "tinyint"},     {"TINYINT", "tinyint"},       {"INT2", "smallint"},     {"SMALLINT", "smallint"},
    {"INT3", "mediumint"},   {"MEDIUMINT", "mediumint"},   {"MIDDLEINT", "mediumint"}, {"INT", "int"},
    {"INTEGER", "int"},      {"INT4", "int"},              {"INT8", "bigint"},       {"BIGINT", "bigint"},
    {"DEC", "decimal"},      {"DECIMAL", "decimal"},       {"NUMERIC", "decimal"},   {"FIXED", "decimal"},
    {"FLOAT", "float"},      {"FLOAT4", "float"},          {"FLOAT8", "double"},     {"DOUBLE", "double"},
    {"REAL", "double"},      {"BIT", "bit"},               {"YEAR", "year"},         {"DATE", "date"},
    {"TIME", "time"},        {"DATETIME", "datetime"},     {"TIMESTAMP", "timestamp"}, {"CHAR", "char"},
    {"CHARACTER", "char"},   {"VARCHAR", "varchar"},       {"VARCHARACTER", "varchar"}, {"NCHAR", "char"},
    {"NVARCHAR", "varchar"}, {"BINARY", "binary"},         {"VARBINARY", "varbinary"}, {"TINYTEXT", "tinytext"},
    {"TEXT", "text"},        {"MEDIUMTEXT", "mediumtext"}, {"LONGTEXT", "longtext"}, {"TINYBLOB", "tinyblob"},
    {"BLOB", "blob"},        {"MEDIUMBLOB", "mediumblob"}, {"LONGBLOB", "longblob"}, {"ENUM", "enum"},
    {"SET", "set"},          {"JSON", "json"},             {"GEOMETRY", "geometry"}, {"POINT", "point"},
    {"LINESTRING", "linestring"}, {"POLYGON", "polygon"},  {"MULTIPOINT", "multipoint"},
    {"MULTILINESTRING", "multilinestring"}, {"MULTIPOLYGON", "multipolygon"},
    {"GEOMETRYCOLLECTION", "geometrycollection"}, {"GEOMCOLLECTION", "geomcollection"},
    {"INET6", "inet6"},      {"INET4", "inet4"},           {"UUID", "uuid"},         {"VECTOR", "vector"},
    {"BOOL", "tinyint"},     {"BOOLEAN", "tinyint"},       {"SERIAL", "bigint"},     {"LONG", "mediumtext"},
};

static bool in_list(const char *base, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(base, *list)) return true;
    return false;
}
static const char *const char_types[] = {"char", "varchar", "tinytext", "text", "mediumtext", "longtext", "enum", "set", NULL};
static const char *const binary_types[] = {"binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob", NULL};

typedef struct coldef {
    const char *base;
    bool nullable_set, nullable, pk, generated, invisible, bin, unique, serial;
    uint16_t coll;   /* explicit, or 0 */
    bool coll_given; /* COLLATE or CHARACTER SET was given */
} coldef;

/* ENUM/SET labels as information_schema writes them: 'a','it''s'. */
static rc_status labels(ps *p, rc_buf *d)
{
    if (expect_c(p, '(')) return p->st;
    rc_buf_putc(d, '(');
    for (bool first = true;; first = false) {
        if (p->t.kind != RC_MY_TK_STRING) return unexpected(p, "a quoted label");
        rc_str s = rc_my_tok_text(&p->lx, p->t, p->a);
        if (!s.p) return nomem(p);
        adv(p);
        if (!first) rc_buf_putc(d, ',');
        rc_buf_putc(d, '\'');
        for (size_t i = 0; i < s.n; i++) {
            if (s.p[i] == '\'') rc_buf_putc(d, '\'');
            rc_buf_putc(d, s.p[i]);
        }
        rc_buf_putc(d, '\'');
        if (accept_c(p, ')')) break;
        if (expect_c(p, ',')) return p->st;
    }
    rc_buf_putc(d, ')');
    return RC_OK;
}

/* (n) or (p,s): appended as given; *first the first number (-1 when none). */
static rc_status params(ps *p, rc_buf *d, long *first)
{
    *first = -1;
    if (!punct(p, '(')) return RC_OK;
    adv(p);
    rc_buf_putc(d, '(');
    for (int k = 0;; k++) {
        if (p->t.kind != RC_MY_TK_NUMBER || k >= 2) return unexpected(p, "a number");
        rc_str num = {p->sql.p + p->t.off, p->t.n};
        if (k == 0) { /* its leading digits, read within the token (the statement is not NUL-terminated) */
            long v = 0;
            for (size_t i = 0; i < num.n && num.p[i] >= '0' && num.p[i] <= '9'; i++) v = v * 10 + (num.p[i] - '0');
            *first = num.n < 10 ? v : 1000000000L;
        }
        if (k) rc_buf_putc(d, ',');
        rc_buf_put(d, num.p, num.n);
        adv(p);
        if (accept_c(p, ')')) break;
        if (expect_c(p, ',')) return p->st;
    }
    rc_buf_putc(d, ')');
    return RC_OK;
}

/* The declared type: words, parameters, UNSIGNED / SIGNED / ZEROFILL. */
static rc_status col_type(ps *p, coldef *cd, rc_str *decl)
{
    if (p->t.kind != RC_MY_TK_WORD) return unexpected(p, "a column type");
    size_t at = p->t.off;
    const char *base = NULL;
    bool national = false, is_bool = false;
    if (accept(p, "NATIONAL")) national = true;
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (is(p, aliases[i].word)) {
            base = aliases[i].base;
            break;
        }
    if (!base || (national && strcmp(base, "char") && strcmp(base, "varchar"))) return unexpected(p, "a column type");
    if (is(p, "NCHAR") || is(p, "NVARCHAR")) national = true;
    is_bool = is(p, "BOOL") || is(p, "BOOLEAN");
    cd->serial = is(p, "SERIAL");
    bool is_long = is(p, "LONG");
    adv(p);
    if (is_long) {
        if (accept(p, "VARBINARY")) base = "mediumblob";
        else accept(p, "VARCHAR");
    } else if (!strcmp(base, "double")) {
        accept(p, "PRECISION");
    } else if (!strcmp(base, "char")) {
        if (accept(p, "VARYING")) base = "varchar";
        else if (accept(p, "VARCHAR")) base = "varchar"; /* NCHAR VARCHAR */
        else if (is(p, "BYTE")) {
            adv(p);
            base = "binary";
        }
    } else if (!strcmp(base, "varchar")) {
        accept(p, "VARYING");
    }
    if (national) cd->coll = 33, cd->coll_given = true; /* NATIONAL is utf8mb3 */
    rc_buf d;
    rc_buf_init(&d, 1 << 20);
    rc_buf_puts(&d, base);
    long first = -1;
    if (!strcmp(base, "enum") || !strcmp(base, "set")) {
        if (labels(p, &d)) goto out;
    } else if (is_bool) {
        RC_BUF_LIT(&d, "(1)");
    } else if (!strcmp(base, "float")) {
        /* FLOAT(p): a single precision of 25-53 is a DOUBLE */
        rc_buf tmp;
        rc_buf_init(&tmp, 1 << 10);
        if (params(p, &tmp, &first)) {
            rc_buf_fini(&tmp);
            goto out;
        }
        bool one = tmp.len && !memchr(tmp.data, ',', tmp.len);
        if (one && first > 24) {
            d.len = 0;
            rc_buf_puts(&d, "double");
        } else if (!one) {
            rc_buf_put(&d, tmp.data, tmp.len);
        }
        rc_buf_fini(&tmp);
    } else if (params(p, &d, &first)) {
        goto out;
    } else if (!strcmp(base, "decimal") && first < 0) {
        RC_BUF_LIT(&d, "(10,0)"); /* the defaults, as COLUMN_TYPE shows them */
    } else if (!strcmp(base, "decimal") && d.len && d.data[d.len - 1] == ')' && !memchr(d.data, ',', d.len)) {
        d.len--;
        RC_BUF_LIT(&d, ",0)");
    } else if (first < 0 && (!strcmp(base, "char") || !strcmp(base, "binary") || !strcmp(base, "bit"))) {
        RC_BUF_LIT(&d, "(1)");
    }
    if (!strcmp(base, "char") && accept(p, "BYTE")) { /* CHAR(n) BYTE is BINARY(n) */
        base = "binary";
        if (rc_buf_reserve(&d, 2)) {
            memmove(d.data + 2, d.data, d.len);
            memcpy(d.data, "binary", 6);
            d.len += 2;
        }
    }
    cd->base = base;
    bool uns = cd->serial, zf = false;
    for (;;) {
        if (accept(p, "UNSIGNED")) uns = true;
        else if (accept(p, "SIGNED")) {
        } else if (accept(p, "ZEROFILL")) zf = uns = true;
        else break;
    }
    if (uns) rc_buf_puts(&d, " unsigned");
    if (zf) rc_buf_puts(&d, " zerofill");
    if (d.err) {
        nomem(p);
        goto out;
    }
    char *txt = rc_arena_memdup(p->a, d.data, d.len);
    if (!txt) {
        nomem(p);
        goto out;
    }
    *decl = (rc_str){txt, d.len};
    rc_coltype check;
    rc_error e;
    rc_error_clear(&e);
    if (rc_coltype_parse(RC_FAM_MYSQL, txt, d.len, &check, &e) != RC_OK)
        fail(p, at, "a column type the type catalog does not know (%s)", e.message);
out:
    rc_buf_fini(&d);
    return p->st;
}

/* CHARACTER SET x / CHARSET x / COLLATE x / BINARY / ASCII / UNICODE: true when one was read. */
static bool charset_attr(ps *p, coldef *cd)
{
    rc_str n;
    if (is(p, "CHARACTER") || is(p, "CHARSET") || (is(p, "CHAR") && next_is(p, "SET"))) {
        if (!accept(p, "CHARSET")) {
            adv(p);
            if (expect(p, "SET")) return true;
        }
        accept_c(p, '=');
        if (name(p, &n, "a character set name") || cd->coll_given) return true; /* COLLATE before it wins */
        cd->coll = rc_my_charset_default_collation(n);
        cd->coll_given = true;
        if (!strncasecmp(n.p, "binary", n.n) && n.n == 6) cd->coll = RC_MY_COLLATION_BINARY;
        return true;
    }
    if (accept(p, "COLLATE")) {
        accept_c(p, '=');
        if (p->t.kind == RC_MY_TK_STRING) {
            n = rc_my_tok_text(&p->lx, p->t, p->a);
            adv(p);
        } else if (name(p, &n, "a collation name")) {
            return true;
        }
        cd->coll = rc_my_collation_id(n);
        cd->coll_given = true;
        cd->bin = false;
        return true;
    }
    if (accept(p, "ASCII")) {
        cd->coll = 11, cd->coll_given = true;
        return true;
    }
    if (accept(p, "UNICODE")) {
        cd->coll = 35, cd->coll_given = true;
        return true;
    }
    if (accept(p, "BINARY")) {
        cd->bin = true;
        return true;
    }
    return false;
}

/* REFERENCES t [(cols)] [MATCH …] [ON DELETE|UPDATE action]… */
static rc_status references(ps *p)
{
    rc_str db, t;
    if (table_name(p, &db, &t)) return p->st;
    if (punct(p, '(') && skip_parens(p)) return p->st;
    for (;;) {
        if (accept(p, "MATCH")) {
            adv(p);
        } else if (accept(p, "ON")) {
            if (!accept(p, "DELETE") && !accept(p, "UPDATE")) return unexpected(p, "DELETE or UPDATE");
            if (accept(p, "SET")) adv(p);            /* SET NULL, SET DEFAULT */
            else if (accept(p, "NO")) adv(p);        /* NO ACTION */
            else if (!accept(p, "RESTRICT") && !accept(p, "CASCADE")) return unexpected(p, "a referential action");
        } else {
            return RC_OK;
        }
    }
}

/* The attributes after a column's type, up to ',' / ')' / FIRST / AFTER / the end. */
static rc_status col_attrs(ps *p, coldef *cd, rc_str colname)
{
    for (;;) {
        if (p->st) return p->st;
        if (p->t.kind == RC_MY_TK_END || punct(p, ',') || punct(p, ')') || punct(p, ';') || is(p, "FIRST") || is(p, "AFTER"))
            return RC_OK;
        if (p->t.kind == RC_MY_TK_ERROR) return unexpected(p, "a column attribute");
        if (charset_attr(p, cd)) continue;
        if (accept(p, "NOT")) {
            if (accept(p, "NULL")) cd->nullable_set = true, cd->nullable = false;
            else if (!accept(p, "ENFORCED")) return unexpected(p, "NULL");
        } else if (accept(p, "NULL")) {
            cd->nullable_set = true, cd->nullable = true;
        } else if (accept(p, "DEFAULT")) {
            if (is(p, "SERIAL") && next_is(p, "VALUE")) { /* NOT NULL AUTO_INCREMENT UNIQUE */
                adv(p), adv(p);
                cd->nullable_set = true, cd->nullable = false;
            } else if (skip_value(p)) {
                return p->st;
            }
        } else if (accept(p, "ON")) {
            if (expect(p, "UPDATE") || skip_value(p)) return p->st;
        } else if (accept(p, "AUTO_INCREMENT") || accept(p, "VISIBLE") || accept(p, "VIRTUAL") || accept(p, "STORED") ||
                   accept(p, "PERSISTENT") || accept(p, "ENFORCED")) {
        } else if (accept(p, "UNIQUE")) {
            cd->unique = true;
            accept(p, "KEY");
        } else if (accept(p, "PRIMARY")) {
            if (expect(p, "KEY")) return p->st;
            cd->pk = true;
        } else if (accept(p, "KEY")) {
            cd->pk = true; /* KEY alone in a column definition is PRIMARY KEY */
        } else if (accept(p, "COMMENT")) {
            if (p->t.kind != RC_MY_TK_STRING) return unexpected(p, "a quoted comment");
            while (p->t.kind == RC_MY_TK_STRING) adv(p);
        } else if (accept(p, "COLUMN_FORMAT") || accept(p, "STORAGE") || accept(p, "SRID")) {
            adv(p);
        } else if (accept(p, "ENGINE_ATTRIBUTE") || accept(p, "SECONDARY_ENGINE_ATTRIBUTE")) {
            accept_c(p, '=');
            if (skip_value(p)) return p->st;
        } else if (accept(p, "COMPRESSED")) {
            if (accept_c(p, '=')) adv(p);
        } else if (is(p, "GENERATED") || is(p, "AS")) {
            if (accept(p, "GENERATED") && expect(p, "ALWAYS")) return p->st;
            if (expect(p, "AS")) return p->st;
            if (is(p, "ROW"))
                return fail(p, p->t.off, "column %.*s: system-versioning columns (AS ROW START/END) are not supported",
                            (int)colname.n, colname.p);
            if (!punct(p, '(')) return unexpected(p, "'(' (the generation expression)");
            if (skip_parens(p)) return p->st;
            cd->generated = true;
        } else if (accept(p, "INVISIBLE")) {
            cd->invisible = true;
        } else if (accept(p, "REFERENCES")) {
            if (references(p)) return p->st;
        } else if (accept(p, "CONSTRAINT")) {
            if (!is(p, "CHECK") && (p->t.kind == RC_MY_TK_WORD || p->t.kind == RC_MY_TK_QID)) adv(p);
            if (!is(p, "CHECK")) return unexpected(p, "CHECK");
        } else if (accept(p, "CHECK")) {
            if (!punct(p, '(')) return unexpected(p, "'('");
            if (skip_parens(p)) return p->st;
        } else if (accept(p, "WITH") || accept(p, "WITHOUT")) {
            if (expect(p, "SYSTEM") || expect(p, "VERSIONING")) return p->st;
        } else {
            char b[64];
            return fail(p, p->t.off, "%s in the definition of column %.*s is not a column attribute", shown(p, b, sizeof b),
                        (int)colname.n, colname.p);
        }
    }
}

/* name type attributes → a column of the working table (not yet placed). */
static rc_status column_def(ps *p, wcol *c, bool *pk)
{
    memset(c, 0, sizeof *c);
    if (name(p, &c->name, "a column name")) return p->st;
    coldef cd = {0};
    if (col_type(p, &cd, &c->decl) || col_attrs(p, &cd, c->name)) return p->st;
    c->nullable = cd.nullable_set ? cd.nullable : true;
    if (cd.serial) c->nullable = false;
    c->generated = cd.generated;
    c->invisible = cd.invisible;
    if (in_list(cd.base, char_types)) {
        c->coll = cd.coll;
        c->inherit = !cd.coll_given;
        c->bin = cd.bin;
        if (cd.coll == RC_MY_COLLATION_BINARY) c->bin = false;
    } else if (in_list(cd.base, binary_types)) {
        c->coll = RC_MY_COLLATION_BINARY;
    }
    *pk = cd.pk;
    return RC_OK;
}

/* ---- the working table ---- */

/* A column the statement names is not in the table: an error, unless the table is unknown. */
static rc_status missing(ps *p, size_t off, rc_str n)
{
    if (p->unknown) return RC_OK;
    return fail(p, off, "column %.*s is not in the table", (int)n.n, n.p);
}

static void wtab_free(wtab *w) { free(w->cols); }

static rc_status wtab_insert(ps *p, wtab *w, uint32_t at, const wcol *c)
{
    if (w->n == w->cap) {
        uint32_t cap = w->cap ? w->cap * 2 : 16;
        wcol *nc = realloc(w->cols, cap * sizeof *nc);
        if (!nc) return nomem(p);
        w->cols = nc;
        w->cap = cap;
    }
    memmove(w->cols + at + 1, w->cols + at, (w->n - at) * sizeof *w->cols);
    w->cols[at] = *c;
    w->n++;
    return RC_OK;
}

static void wtab_remove(wtab *w, uint32_t at)
{
    memmove(w->cols + at, w->cols + at + 1, (w->n - at - 1) * sizeof *w->cols);
    w->n--;
}

/* Column names compare without regard to ASCII case, as the server compares them. */
static bool col_eq(rc_str a, rc_str b) { return a.n == b.n && strncasecmp(a.p, b.p, a.n) == 0; }

static int64_t wtab_find(const wtab *w, rc_str name)
{
    for (uint32_t i = 0; i < w->n; i++)
        if (col_eq(w->cols[i].name, name)) return i;
    return -1;
}

static rc_status wtab_from(ps *p, wtab *w, const rc_my_table *t)
{
    memset(w, 0, sizeof *w);
    w->coll = t->collation;
    for (uint32_t i = 0; i < t->ncols; i++) {
        const rc_my_table_col *s = &t->cols[i];
        wcol c = {s->name, s->type.decl, s->nullable, s->generated, s->invisible, s->pk, s->collation, false, false};
        if (wtab_insert(p, w, w->n, &c)) return p->st;
    }
    return RC_OK;
}

static void clear_pk(wtab *w)
{
    for (uint32_t i = 0; i < w->n; i++) w->cols[i].pk = 0;
}

/* Dropping a key column renumbers the others (the key loses that part). */
static void drop_pk_part(wtab *w, uint16_t k)
{
    if (!k) return;
    for (uint32_t i = 0; i < w->n; i++)
        if (w->cols[i].pk > k) w->cols[i].pk--;
}

/* PRIMARY KEY [USING x] (a, b(10) DESC, …): read into p->pk. */
static rc_status pk_list(ps *p)
{
    if (accept(p, "USING")) adv(p);
    if (expect_c(p, '(')) return p->st;
    p->npk = 0;
    p->pk_pending = true;
    for (;;) {
        if (p->npk == 64) return fail(p, p->t.off, "a primary key of more than 64 columns");
        p->pk_off[p->npk] = p->t.off;
        if (name(p, &p->pk[p->npk], "a key column")) return p->st;
        p->npk++;
        if (punct(p, '(') && skip_parens(p)) return p->st;
        if (!accept(p, "ASC")) accept(p, "DESC");
        if (accept_c(p, ')')) break;
        if (expect_c(p, ',')) return p->st;
    }
    return skip_element(p); /* index options */
}

/* The primary key read last, applied: its columns get their ordinals and become NOT NULL. */
static rc_status apply_pk(ps *p, wtab *w)
{
    if (!p->pk_pending) return RC_OK;
    p->pk_pending = false;
    clear_pk(w);
    for (uint16_t k = 0; k < p->npk; k++) {
        int64_t i = wtab_find(w, p->pk[k]);
        if (i < 0) {
            if (p->unknown) continue;
            return fail(p, p->pk_off[k], "primary key column %.*s is not a column of the table", (int)p->pk[k].n, p->pk[k].p);
        }
        w->cols[i].pk = (uint16_t)(k + 1);
        w->cols[i].nullable = false;
    }
    return RC_OK;
}

/* An element of a CREATE TABLE body or of ALTER TABLE ADD: a column (placed at *pos, or at
 * the end when pos is NULL), or a key / constraint / index / period. */
static rc_status element(ps *p, wtab *w, uint32_t *pos, bool if_not_exists)
{
    if (accept(p, "CONSTRAINT")) {
        if (!is(p, "PRIMARY") && !is(p, "UNIQUE") && !is(p, "FOREIGN") && !is(p, "CHECK")) {
            if (accept(p, "IF")) { /* MariaDB: CONSTRAINT IF NOT EXISTS name */
                if (expect(p, "NOT") || expect(p, "EXISTS")) return p->st;
            }
            rc_str sym;
            if (name(p, &sym, "a constraint name")) return p->st;
        }
        if (accept(p, "PRIMARY")) {
            if (expect(p, "KEY")) return p->st;
            return pk_list(p);
        }
        if (!is(p, "UNIQUE") && !is(p, "FOREIGN") && !is(p, "CHECK")) return unexpected(p, "PRIMARY, UNIQUE, FOREIGN or CHECK");
        return skip_element(p);
    }
    if (accept(p, "PRIMARY")) {
        if (expect(p, "KEY")) return p->st;
        return pk_list(p);
    }
    if (is(p, "INDEX") || is(p, "KEY") || is(p, "UNIQUE") || is(p, "FULLTEXT") || is(p, "SPATIAL") || is(p, "FOREIGN") ||
        is(p, "CHECK") || (is(p, "VECTOR") && (next_is(p, "INDEX") || next_is(p, "KEY"))) ||
        (is(p, "PERIOD") && next_is(p, "FOR")))
        return skip_element(p);
    wcol c;
    bool pk;
    size_t at = p->t.off;
    if (column_def(p, &c, &pk)) return p->st;
    int64_t exists = wtab_find(w, c.name);
    if (exists >= 0) {
        if (if_not_exists) return RC_OK;
        return fail(p, at, "column %.*s is defined twice", (int)c.name.n, c.name.p);
    }
    uint32_t where = pos ? *pos : w->n;
    if (wtab_insert(p, w, where, &c)) return p->st;
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
            x->generated != y->generated || x->invisible != y->invisible || x->collation != y->collation)
            return false;
    }
    return true;
}

/* Resolves inherited collations and puts the table into the history as db.name, unless the
 * history holds that very structure there already (result.changed says which). */
static rc_status commit(ps *p, wtab *w, rc_str db, rc_str tname, bool convert, uint16_t convert_coll)
{
    rc_my_table_col *cols = calloc(w->n ? w->n : 1, sizeof *cols);
    if (!cols) return nomem(p);
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

/* [DEFAULT] CHARACTER SET [=] x / CHARSET x / COLLATE [=] x of a table or database: true when
 * one was read (*coll updated). */
static bool default_charset(ps *p, uint16_t *coll, bool *coll_explicit)
{
    rc_my_lexer save = p->lx;
    rc_my_tok t0 = p->t;
    accept(p, "DEFAULT");
    if (is(p, "CHARACTER") || is(p, "CHARSET") || is(p, "COLLATE") || (is(p, "CHAR") && next_is(p, "SET"))) {
        coldef cd = {0};
        bool was_collate = is(p, "COLLATE");
        if (!charset_attr(p, &cd)) return false;
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
static rc_status table_option(ps *p, wtab *w, bool *coll_explicit)
{
    if (default_charset(p, &w->coll, coll_explicit)) return p->st;
    if (accept(p, "DEFAULT")) return RC_OK; /* DEFAULT ENCRYPTION='N' and the like */
    if (p->t.kind != RC_MY_TK_WORD) return unexpected(p, "a table option");
    if (is(p, "SELECT") || is(p, "AS") || is(p, "IGNORE") || is(p, "REPLACE"))
        return fail(p, p->t.off, "CREATE TABLE ... SELECT: the columns the SELECT makes are not in the statement");
    if (is(p, "WITH") && next_is(p, "SYSTEM"))
        return fail(p, p->t.off, "system-versioned tables (WITH SYSTEM VERSIONING) are not supported");
    if (accept(p, "DATA") || accept(p, "INDEX")) {
        if (expect(p, "DIRECTORY")) return p->st;
    } else if (accept(p, "START")) {
        return expect(p, "TRANSACTION"); /* MySQL 8's atomic CREATE TABLE ... SELECT */
    } else {
        adv(p);
    }
    bool eq = accept_c(p, '=');
    if (punct(p, '(')) return skip_parens(p);
    if (p->t.kind == RC_MY_TK_STRING || p->t.kind == RC_MY_TK_NUMBER || p->t.kind == RC_MY_TK_QID || (eq && p->t.kind == RC_MY_TK_WORD))
        return skip_value(p);
    if (p->t.kind == RC_MY_TK_WORD && !is(p, "PARTITION") && !is(p, "DEFAULT") && !is(p, "CHARACTER") && !is(p, "CHARSET") &&
        !is(p, "COLLATE") && !is(p, "ENGINE") && !is(p, "COMMENT") && !is(p, "AUTO_INCREMENT") && !is(p, "ROW_FORMAT") &&
        !is(p, "STORAGE") && !is(p, "START") && !is(p, "WITH"))
        adv(p); /* ENGINE InnoDB, TABLESPACE ts: a value without '=' */
    return RC_OK;
}

/* Table options and partitioning up to the end of a CREATE TABLE. */
static rc_status create_options(ps *p, wtab *w, bool *coll_explicit)
{
    while (!end_of_statement(p)) {
        if (accept_c(p, ',')) continue;
        if (is(p, "PARTITION")) {
            while (p->t.kind != RC_MY_TK_END && p->t.kind != RC_MY_TK_ERROR) adv(p); /* partitioning: no columns */
            break;
        }
        if (table_option(p, w, coll_explicit)) return p->st;
    }
    if (p->t.kind == RC_MY_TK_ERROR) return unexpected(p, "the end of the statement");
    return RC_OK;
}

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
    if (accept(p, "IF")) {
        if (expect(p, "NOT") || expect(p, "EXISTS")) return p->st;
        if_not_exists = true;
    }
    rc_str db, tn;
    if (table_name(p, &db, &tn)) return p->st;
    result(p, RC_DDL_CREATE_TABLE, db, tn);
    const rc_my_table *old = rc_my_history_get(p->h, db, tn);
    bool keep = (old && if_not_exists && !or_replace) || temporary;
    /* LIKE other / (LIKE other) */
    bool paren_like = punct(p, '(') && next_is(p, "LIKE");
    if (paren_like) adv(p);
    if (accept(p, "LIKE")) {
        rc_str sdb, st;
        if (table_name(p, &sdb, &st)) return p->st;
        if (paren_like && expect_c(p, ')')) return p->st;
        if (!end_of_statement(p)) return unexpected(p, "the end of the statement");
        const rc_my_table *src = rc_my_history_get(p->h, sdb, st);
        if (keep) return RC_OK;
        if (!src) { /* unknown source: the new table is unknown too, not guessed */
            p->out->changed = rc_my_history_drop(p->h, db, tn);
            return RC_OK;
        }
        wtab w;
        if (wtab_from(p, &w, src) == RC_OK) commit(p, &w, db, tn, false, 0);
        wtab_free(&w);
        return p->st;
    }
    if (!punct(p, '(')) {
        if (is(p, "SELECT") || is(p, "AS") || is(p, "IGNORE") || is(p, "REPLACE"))
            return fail(p, p->t.off, "CREATE TABLE ... SELECT: the columns the SELECT makes are not in the statement");
        return unexpected(p, "'(' or LIKE");
    }
    adv(p);
    wtab w = {0};
    w.coll = rc_my_history_database(p->h, db);
    for (;;) {
        if (element(p, &w, NULL, false)) goto out;
        if (accept_c(p, ')')) break;
        if (!accept_c(p, ',')) {
            unexpected(p, "',' or ')'");
            goto out;
        }
    }
    if (apply_pk(p, &w)) goto out;
    bool coll_explicit = false;
    if (create_options(p, &w, &coll_explicit)) goto out;
    if (!keep) {
        commit(p, &w, db, tn, false, 0);
    }
out:
    wtab_free(&w);
    return p->st;
}

static bool if_exists(ps *p)
{
    if (!is(p, "IF")) return false;
    adv(p);
    if (expect(p, "EXISTS")) return false;
    return true;
}

static bool if_not_exists(ps *p)
{
    if (!is(p, "IF")) return false;
    adv(p);
    if (expect(p, "NOT") || expect(p, "EXISTS")) return false;
    return true;
}

/* FIRST | AFTER col: where a column goes (*at), the end when neither. */
static rc_status placement(ps *p, wtab *w, uint32_t *at)
{
    if (accept(p, "FIRST")) {
        *at = 0;
    } else if (accept(p, "AFTER")) {
        size_t off = p->t.off;
        rc_str n;
        if (name(p, &n, "a column name")) return p->st;
        int64_t i = wtab_find(w, n);
        if (i < 0 && !p->unknown) return fail(p, off, "AFTER %.*s: no such column in the table", (int)n.n, n.p);
        *at = i < 0 ? w->n : (uint32_t)i + 1;
    }
    return RC_OK;
}

/* MODIFY / CHANGE: the new definition of column `old` (same name for MODIFY). */
static rc_status redefine(ps *p, wtab *w, bool change)
{
    accept(p, "COLUMN");
    bool ie = if_exists(p);
    if (p->st) return p->st;
    size_t at = p->t.off;
    rc_str oldname;
    if (change) {
        if (name(p, &oldname, "a column name")) return p->st;
    } else {
        rc_my_lexer save = p->lx;
        rc_my_tok t0 = p->t;
        if (name(p, &oldname, "a column name")) return p->st;
        p->lx = save, p->t = t0;
    }
    wcol c;
    bool pk;
    if (column_def(p, &c, &pk)) return p->st;
    int64_t i = wtab_find(w, oldname);
    if (i < 0) {
        if (ie || missing(p, at, oldname) == RC_OK) return skip_element(p);
        return p->st;
    }
    int64_t dup = wtab_find(w, c.name);
    if (dup >= 0 && dup != i) return fail(p, at, "column %.*s is already in the table", (int)c.name.n, c.name.p);
    c.pk = w->cols[i].pk;
    if (c.pk) c.nullable = false;
    wtab_remove(w, (uint32_t)i);
    uint32_t where = (uint32_t)i;
    if (placement(p, w, &where)) return p->st;
    if (wtab_insert(p, w, where, &c)) return p->st;
    if (pk) {
        p->npk = 1;
        p->pk[0] = c.name;
        p->pk_off[0] = at;
        p->pk_pending = true;
        return apply_pk(p, w);
    }
    return RC_OK;
}

static rc_status drop_column(ps *p, wtab *w)
{
    bool ie = if_exists(p);
    if (p->st) return p->st;
    size_t at = p->t.off;
    rc_str n;
    if (name(p, &n, "a column name")) return p->st;
    if (!accept(p, "RESTRICT")) accept(p, "CASCADE");
    int64_t i = wtab_find(w, n);
    if (i < 0) return ie ? RC_OK : missing(p, at, n);
    uint16_t k = w->cols[i].pk;
    wtab_remove(w, (uint32_t)i);
    drop_pk_part(w, k);
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
        if (is(p, words[i])) return true;
    return false;
}

/* A list of names after ORDER BY or PARTITION: a, b DESC, … */
static rc_status name_list(ps *p)
{
    for (;;) {
        if (punct(p, '(') ? skip_parens(p) : skip_value(p)) return p->st;
        if (!accept(p, "ASC")) accept(p, "DESC");
        if (!punct(p, ',')) return RC_OK;
        rc_my_lexer save = p->lx;
        rc_my_tok t0 = p->t;
        adv(p);
        if (clause_word(p) || p->t.kind == RC_MY_TK_END) {
            p->lx = save, p->t = t0;
            return RC_OK;
        }
    }
}

/* Partition maintenance: no column changes; read to the end of the clause. */
static rc_status partition_clause(ps *p)
{
    while (p->t.kind != RC_MY_TK_END && !punct(p, ';')) {
        if (p->t.kind == RC_MY_TK_ERROR) return unexpected(p, "a partition clause");
        if (punct(p, ',')) {
            rc_my_lexer save = p->lx;
            rc_my_tok t0 = p->t;
            adv(p);
            bool next_clause = clause_word(p) && !is(p, "PARTITION");
            p->lx = save, p->t = t0;
            if (next_clause) return RC_OK;
            adv(p);
            continue;
        }
        if (punct(p, '(')) {
            if (skip_parens(p)) return p->st;
        } else {
            adv(p);
        }
    }
    return RC_OK;
}

static rc_status alter_add(ps *p, wtab *w)
{
    if (is(p, "PARTITION")) return partition_clause(p);
    if ((is(p, "SYSTEM") && next_is(p, "VERSIONING")) || (is(p, "PERIOD") && next_is(p, "FOR")))
        return fail(p, p->t.off, "system versioning and application-time periods are not supported");
    bool column = accept(p, "COLUMN");
    bool ine = if_not_exists(p);
    if (p->st) return p->st;
    if (punct(p, '(')) {
        adv(p);
        for (;;) {
            if (element(p, w, NULL, ine) || apply_pk(p, w)) return p->st;
            if (accept_c(p, ')')) return RC_OK;
            if (expect_c(p, ',')) return p->st;
        }
    }
    if (!column && (is(p, "INDEX") || is(p, "KEY") || is(p, "UNIQUE") || is(p, "FULLTEXT") || is(p, "SPATIAL") ||
                    is(p, "FOREIGN") || is(p, "CHECK") || is(p, "CONSTRAINT") || is(p, "PRIMARY")))
        return element(p, w, NULL, ine) ? p->st : apply_pk(p, w);
    uint32_t before = w->n;
    if (element(p, w, NULL, ine) || apply_pk(p, w)) return p->st;
    if (w->n == before) return skip_element(p); /* IF NOT EXISTS and it exists */
    uint32_t where = w->n - 1;
    uint32_t to = where;
    if (placement(p, w, &to)) return p->st;
    if (to != where) {
        wcol c = w->cols[where];
        wtab_remove(w, where);
        if (to > where) to--;
        if (wtab_insert(p, w, to, &c)) return p->st;
    }
    return RC_OK;
}

static rc_status alter_drop(ps *p, wtab *w)
{
    if (accept(p, "PRIMARY")) {
        if (expect(p, "KEY")) return p->st;
        clear_pk(w);
        return RC_OK;
    }
    if (accept(p, "INDEX") || accept(p, "KEY") || accept(p, "CONSTRAINT")) {
        if_exists(p);
        rc_str n;
        if (p->st || name(p, &n, "an index name")) return p->st;
        if (n.n == 7 && !strncasecmp(n.p, "PRIMARY", 7)) clear_pk(w);
        return RC_OK;
    }
    if (accept(p, "FOREIGN")) {
        if (expect(p, "KEY")) return p->st;
        if_exists(p);
        rc_str n;
        return p->st ? p->st : name(p, &n, "a foreign key name");
    }
    if (accept(p, "CHECK")) {
        if_exists(p);
        rc_str n;
        return p->st ? p->st : name(p, &n, "a check name");
    }
    if (is(p, "PARTITION")) return partition_clause(p);
    if ((is(p, "SYSTEM") && next_is(p, "VERSIONING")) || (is(p, "PERIOD") && next_is(p, "FOR")))
        return fail(p, p->t.off, "system versioning and application-time periods are not supported");
    accept(p, "COLUMN");
    return drop_column(p, w);
}

static rc_status alter_alter(ps *p, wtab *w)
{
    if (accept(p, "INDEX") || accept(p, "KEY") || accept(p, "CHECK") || accept(p, "CONSTRAINT")) return skip_element(p);
    accept(p, "COLUMN");
    bool ie = if_exists(p);
    if (p->st) return p->st;
    size_t at = p->t.off;
    rc_str n;
    if (name(p, &n, "a column name")) return p->st;
    int64_t i = wtab_find(w, n);
    if (i < 0 && !ie && missing(p, at, n)) return p->st;
    if (accept(p, "SET")) {
        if (accept(p, "DEFAULT")) return skip_value(p);
        bool vis = accept(p, "VISIBLE");
        if (!vis && expect(p, "INVISIBLE")) return p->st;
        if (i >= 0) w->cols[i].invisible = !vis;
        return RC_OK;
    }
    if (accept(p, "DROP")) return expect(p, "DEFAULT");
    return unexpected(p, "SET or DROP");
}

static rc_status alter_rename(ps *p, wtab *w, rc_str *db, rc_str *tn)
{
    if (accept(p, "COLUMN")) {
        bool ie = if_exists(p);
        if (p->st) return p->st;
        size_t at = p->t.off;
        rc_str from, to;
        if (name(p, &from, "a column name") || expect(p, "TO") || name(p, &to, "a column name")) return p->st;
        int64_t i = wtab_find(w, from);
        if (i < 0) return ie ? RC_OK : missing(p, at, from);
        int64_t dup = wtab_find(w, to);
        if (dup >= 0 && dup != i) return fail(p, at, "column %.*s is already in the table", (int)to.n, to.p);
        w->cols[i].name = to;
        return RC_OK;
    }
    if (accept(p, "INDEX") || accept(p, "KEY")) {
        rc_str a, b;
        return name(p, &a, "an index name") || expect(p, "TO") || name(p, &b, "an index name") ? p->st : RC_OK;
    }
    if (!accept(p, "TO")) accept(p, "AS");
    return table_name(p, db, tn);
}

static rc_status alter_table(ps *p)
{
    rc_str db, tn;
    if_exists(p);
    if (p->st || table_name(p, &db, &tn)) return p->st;
    result(p, RC_DDL_ALTER_TABLE, db, tn);
    skip_wait(p);
    const rc_my_table *t = rc_my_history_get(p->h, db, tn);
    wtab w = {0};
    if (t && wtab_from(p, &w, t)) goto out;
    if (!t) w.coll = rc_my_history_database(p->h, db);
    p->unknown = !t;
    rc_str ndb = db, ntn = tn;
    bool coll_explicit = false, convert = false;
    uint16_t convert_coll = 0;
    while (!end_of_statement(p)) {
        if (p->st) goto out;
        if (accept(p, "ADD")) {
            alter_add(p, &w);
        } else if (accept(p, "DROP")) {
            alter_drop(p, &w);
        } else if (accept(p, "MODIFY")) {
            redefine(p, &w, false);
        } else if (accept(p, "CHANGE")) {
            redefine(p, &w, true);
        } else if (accept(p, "ALTER")) {
            alter_alter(p, &w);
        } else if (accept(p, "RENAME")) {
            alter_rename(p, &w, &ndb, &ntn);
        } else if (accept(p, "CONVERT")) {
            coldef cd = {0};
            if (expect(p, "TO")) goto out;
            if (!charset_attr(p, &cd)) {
                unexpected(p, "CHARACTER SET");
                goto out;
            }
            while (is(p, "COLLATE")) charset_attr(p, &cd);
            convert = true;
            convert_coll = cd.coll;
            w.coll = cd.coll;
            coll_explicit = true;
        } else if (accept(p, "ALGORITHM") || accept(p, "LOCK")) {
            accept_c(p, '=');
            adv(p);
        } else if (accept(p, "FORCE")) {
        } else if (accept(p, "ENABLE") || accept(p, "DISABLE")) {
            expect(p, "KEYS");
        } else if (accept(p, "DISCARD") || accept(p, "IMPORT")) {
            if (is(p, "PARTITION")) partition_clause(p);
            else expect(p, "TABLESPACE");
        } else if (accept(p, "ORDER")) {
            if (expect(p, "BY") == RC_OK) name_list(p);
        } else if (accept(p, "WITH") || accept(p, "WITHOUT")) {
            expect(p, "VALIDATION");
        } else if (is(p, "PARTITION") || is(p, "TRUNCATE") || is(p, "COALESCE") || is(p, "REORGANIZE") ||
                   is(p, "EXCHANGE") || is(p, "ANALYZE") || is(p, "CHECK") || is(p, "OPTIMIZE") || is(p, "REBUILD") ||
                   is(p, "REPAIR") || is(p, "REMOVE") || is(p, "UPGRADE")) {
            adv(p);
            partition_clause(p);
        } else {
            table_option(p, &w, &coll_explicit);
        }
        if (p->st) goto out;
        if (!accept_c(p, ',') && !end_of_statement(p) && p->t.kind != RC_MY_TK_WORD) {
            unexpected(p, "',' or the end of the statement");
            goto out;
        }
    }
    if (p->t.kind == RC_MY_TK_ERROR) {
        unexpected(p, "the end of the statement");
        goto out;
    }
    if (!t) goto out; /* a table the history does not know: nothing to change */
    if (commit(p, &w, ndb, ntn, convert, convert_coll)) goto out;
    if (ndb.n != db.n || ntn.n != tn.n || memcmp(ndb.p, db.p, db.n) || memcmp(ntn.p, tn.p, tn.n)) {
        rc_my_history_drop(p->h, db, tn);
        p->out->old_db = db, p->out->old_table = tn;
        p->out->db = ndb, p->out->table = ntn;
    }
out:
    wtab_free(&w);
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
        if (!nv) return nomem(p);
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = db;
    l->v[l->n++] = tn;
    return RC_OK;
}

static rc_status rename_tables(ps *p)
{
    if (!accept(p, "TABLE") && expect(p, "TABLES")) return p->st;
    if_exists(p);
    names_t l = {0};
    for (;;) {
        rc_str db, tn, ndb, ntn;
        if (p->st || table_name(p, &db, &tn)) goto out;
        skip_wait(p); /* MariaDB: RENAME TABLE t WAIT n TO u */
        if (expect(p, "TO") || table_name(p, &ndb, &ntn) || names_add(p, &l, db, tn) ||
            names_add(p, &l, ndb, ntn))
            goto out;
        if (!accept_c(p, ',')) break;
    }
    if (!end_of_statement(p)) {
        unexpected(p, "',' or the end of the statement");
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
        if (p->st || table_name(p, &db, &tn) || names_add(p, &l, db, tn)) goto out;
        if (!accept_c(p, ',')) break;
    }
    skip_wait(p);
    if (!accept(p, "RESTRICT")) accept(p, "CASCADE");
    if (!end_of_statement(p)) {
        unexpected(p, "',' or the end of the statement");
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
    while (!end_of_statement(p)) {
        bool read = default_charset(p, coll, &explicit_coll);
        if (p->st) return p->st;
        if (read) continue;
        /* ENCRYPTION 'Y', COMMENT 'x', READ ONLY 1, UPGRADE DATA DIRECTORY NAME */
        if (p->t.kind != RC_MY_TK_WORD && p->t.kind != RC_MY_TK_STRING && p->t.kind != RC_MY_TK_NUMBER && !punct(p, '='))
            return unexpected(p, "a database option");
        adv(p);
    }
    return p->t.kind == RC_MY_TK_ERROR ? unexpected(p, "the end of the statement") : RC_OK;
}

static rc_status database_stmt(ps *p, const char *verb, bool or_replace)
{
    adv(p); /* DATABASE / SCHEMA */
    rc_str db = p->defdb;
    if (!strcmp(verb, "CREATE")) {
        if_not_exists(p);
        if (p->st || name(p, &db, "a database name")) return p->st;
        result(p, RC_DDL_CREATE_DATABASE, db, (rc_str){"", 0});
        uint16_t coll = or_replace ? 0 : rc_my_history_database(p->h, db);
        if (database_options(p, &coll)) return p->st;
        if (or_replace) rc_my_history_drop_database(p->h, db);
        p->out->changed = true;
        return rc_my_history_set_database(p->h, db, coll, p->err) ? (p->st = RC_ERR_NOMEM) : RC_OK;
    }
    if (!strcmp(verb, "DROP")) {
        if_exists(p);
        if (p->st || name(p, &db, "a database name")) return p->st;
        result(p, RC_DDL_DROP_DATABASE, db, (rc_str){"", 0});
        if (!end_of_statement(p)) return unexpected(p, "the end of the statement");
        rc_my_history_drop_database(p->h, db);
        p->out->changed = true;
        return RC_OK;
    }
    /* ALTER DATABASE [name] options */
    p->out->kind = rc_ddl_class_name(RC_DDL_OTHER);
    if ((p->t.kind == RC_MY_TK_WORD && !is(p, "DEFAULT") && !is(p, "CHARACTER") && !is(p, "CHARSET") && !is(p, "COLLATE") &&
         !is(p, "UPGRADE") && !is(p, "ENCRYPTION") && !is(p, "READ") && !is(p, "COMMENT")) ||
        p->t.kind == RC_MY_TK_QID) {
        if (name(p, &db, "a database name")) return p->st;
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
    adv(p);
    if (p->t.kind != RC_MY_TK_WORD) return RC_OK; /* not a statement of ours: OTHER */
    if (accept(p, "CREATE")) {
        bool or_replace = false, temporary = false;
        if (accept(p, "OR")) {
            if (!accept(p, "REPLACE")) return RC_OK;
            or_replace = true;
        }
        if (accept(p, "TEMPORARY")) temporary = true;
        if (accept(p, "TABLE")) return create_table(p, or_replace, temporary);
        if (is(p, "DATABASE") || is(p, "SCHEMA")) return database_stmt(p, "CREATE", or_replace);
        if (!accept(p, "UNIQUE") && !accept(p, "FULLTEXT")) accept(p, "SPATIAL");
        if (!accept(p, "ONLINE")) accept(p, "OFFLINE");
        if (is(p, "INDEX")) p->out->kind = rc_ddl_class_name(RC_DDL_CREATE_INDEX); /* keys are not kept */
        return RC_OK;
    }
    if (accept(p, "ALTER")) {
        if (!accept(p, "ONLINE")) accept(p, "OFFLINE");
        accept(p, "IGNORE");
        if (accept(p, "TABLE")) return alter_table(p);
        if (is(p, "DATABASE") || is(p, "SCHEMA")) return database_stmt(p, "ALTER", false);
        return RC_OK;
    }
    if (accept(p, "DROP")) {
        bool temporary = accept(p, "TEMPORARY");
        if (accept(p, "TABLE") || accept(p, "TABLES")) return drop_tables(p, temporary);
        if (is(p, "DATABASE") || is(p, "SCHEMA")) return database_stmt(p, "DROP", false);
        if (!accept(p, "ONLINE")) accept(p, "OFFLINE");
        if (accept(p, "INDEX")) {
            /* DROP INDEX `PRIMARY` ON t drops the primary key */
            p->out->kind = rc_ddl_class_name(RC_DDL_DROP_INDEX);
            if_exists(p);
            rc_str idx, db, tn;
            if (p->st || name(p, &idx, "an index name") || expect(p, "ON") || table_name(p, &db, &tn)) return p->st;
            p->out->db = db, p->out->table = tn;
            const rc_my_table *t = rc_my_history_get(p->h, db, tn);
            if (!t || idx.n != 7 || strncasecmp(idx.p, "PRIMARY", 7)) return RC_OK;
            wtab w;
            if (wtab_from(p, &w, t) == RC_OK) {
                clear_pk(&w);
                commit(p, &w, db, tn, false, 0);
            }
            wtab_free(&w);
            return p->st;
        }
        return RC_OK;
    }
    if (is(p, "RENAME")) {
        adv(p);
        if (is(p, "TABLE") || is(p, "TABLES")) return rename_tables(p);
        return RC_OK;
    }
    if (accept(p, "TRUNCATE")) {
        accept(p, "TABLE");
        rc_str db, tn;
        if (table_name(p, &db, &tn)) return p->st;
        result(p, RC_DDL_TRUNCATE, db, tn);
        if (!end_of_statement(p)) return unexpected(p, "the end of the statement");
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
