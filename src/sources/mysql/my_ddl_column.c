/* The DDL parser's column definitions: the declared type normalised as information_schema
 * writes it, and the attributes after it. */
#include <string.h>
#include <strings.h>
#include "sources/mysql/my_ddl_int.h"
#include "sources/mysql/my_types.h"

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


/* ENUM/SET labels as information_schema writes them: 'a','it''s'. */
static rc_status labels(ps *p, rc_buf *d)
{
    if (rc_my_ddl_expect_c(p, '(')) return p->st;
    rc_buf_putc(d, '(');
    for (bool first = true;; first = false) {
        if (p->t.kind != RC_MY_TK_STRING) return rc_my_ddl_unexpected(p, "a quoted label");
        rc_str s = rc_my_tok_text(&p->lx, p->t, p->a);
        if (!s.p) return rc_my_ddl_nomem(p);
        rc_my_ddl_adv(p);
        if (!first) rc_buf_putc(d, ',');
        rc_buf_putc(d, '\'');
        for (size_t i = 0; i < s.n; i++) {
            if (s.p[i] == '\'') rc_buf_putc(d, '\'');
            rc_buf_putc(d, s.p[i]);
        }
        rc_buf_putc(d, '\'');
        if (rc_my_ddl_accept_c(p, ')')) break;
        if (rc_my_ddl_expect_c(p, ',')) return p->st;
    }
    rc_buf_putc(d, ')');
    return RC_OK;
}

/* (n) or (p,s): appended as given; *first the first number (-1 when none). */
static rc_status params(ps *p, rc_buf *d, long *first)
{
    *first = -1;
    if (!rc_my_ddl_punct(p, '(')) return RC_OK;
    rc_my_ddl_adv(p);
    rc_buf_putc(d, '(');
    for (int k = 0;; k++) {
        if (p->t.kind != RC_MY_TK_NUMBER || k >= 2) return rc_my_ddl_unexpected(p, "a number");
        rc_str num = {p->sql.p + p->t.off, p->t.n};
        if (k == 0) { /* its leading digits, read within the token (the statement is not NUL-terminated) */
            long v = 0;
            /* ten digits at most: a longer number is capped below, and 10^18 and up would overflow */
            for (size_t i = 0; i < num.n && i < 10 && num.p[i] >= '0' && num.p[i] <= '9'; i++) v = v * 10 + (num.p[i] - '0');
            *first = num.n < 10 ? v : 1000000000L;
        }
        if (k) rc_buf_putc(d, ',');
        rc_buf_put(d, num.p, num.n);
        rc_my_ddl_adv(p);
        if (rc_my_ddl_accept_c(p, ')')) break;
        if (rc_my_ddl_expect_c(p, ',')) return p->st;
    }
    rc_buf_putc(d, ')');
    return RC_OK;
}

/* What the server makes of BLOB(n) / TEXT(n), DATETIME(0), TIME(0), TIMESTAMP(0) (d holds the
 * type with its parameter, n the parameter): the smallest BLOB kind that holds n bytes; TEXT(n)
 * the same for n characters, known without the column's charset (at most 4 bytes a character)
 * when n <= 63 or n > 16777215 (otherwise kept as written); no fraction for precision 0. */
static void server_type(rc_buf *d, const char **base, long n)
{
    static const char *const blobs[] = {"tinyblob", "blob", "mediumblob", "longblob"};
    static const char *const texts[] = {"tinytext", "text", "mediumtext", "longtext"};
    bool blob = !strcmp(*base, "blob"), text = !strcmp(*base, "text");
    if (n < 0) return;
    if (n == 0 && (!strcmp(*base, "datetime") || !strcmp(*base, "time") || !strcmp(*base, "timestamp"))) {
        d->len = strlen(*base);
        return;
    }
    if (!blob && !(text && (n <= 63 || n > 16777215))) return;
    int k = n <= 255 ? 0 : n <= 65535 ? 1 : n <= 16777215 ? 2 : 3;
    if (text) k = n <= 63 ? 0 : 3;
    *base = blob ? blobs[k] : texts[k];
    d->len = 0;
    rc_buf_puts(d, *base);
}

/* The declared type: words, parameters, UNSIGNED / SIGNED / ZEROFILL. */
static rc_status col_type(ps *p, coldef *cd, rc_str *decl)
{
    if (p->t.kind != RC_MY_TK_WORD) return rc_my_ddl_unexpected(p, "a column type");
    size_t at = p->t.off;
    const char *base = NULL;
    bool national = false, is_bool = false;
    if (rc_my_ddl_accept(p, "NATIONAL")) national = true;
    for (size_t i = 0; i < sizeof aliases / sizeof *aliases; i++)
        if (rc_my_ddl_is(p, aliases[i].word)) {
            base = aliases[i].base;
            break;
        }
    if (!base || (national && strcmp(base, "char") && strcmp(base, "varchar"))) return rc_my_ddl_unexpected(p, "a column type");
    if (rc_my_ddl_is(p, "NCHAR") || rc_my_ddl_is(p, "NVARCHAR")) national = true;
    is_bool = rc_my_ddl_is(p, "BOOL") || rc_my_ddl_is(p, "BOOLEAN");
    cd->serial = rc_my_ddl_is(p, "SERIAL");
    bool is_long = rc_my_ddl_is(p, "LONG");
    rc_my_ddl_adv(p);
    if (is_long) {
        if (rc_my_ddl_accept(p, "VARBINARY")) base = "mediumblob";
        else rc_my_ddl_accept(p, "VARCHAR");
    } else if (!strcmp(base, "double")) {
        rc_my_ddl_accept(p, "PRECISION");
    } else if (!strcmp(base, "char")) {
        if (rc_my_ddl_accept(p, "VARYING")) base = "varchar";
        else if (rc_my_ddl_accept(p, "VARCHAR")) base = "varchar"; /* NCHAR VARCHAR */
        else if (rc_my_ddl_is(p, "BYTE")) {
            rc_my_ddl_adv(p);
            base = "binary";
        }
    } else if (!strcmp(base, "varchar")) {
        rc_my_ddl_accept(p, "VARYING");
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
    server_type(&d, &base, first);
    if (!strcmp(base, "char") && rc_my_ddl_accept(p, "BYTE")) { /* CHAR(n) BYTE is BINARY(n) */
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
        if (rc_my_ddl_accept(p, "UNSIGNED")) uns = true;
        else if (rc_my_ddl_accept(p, "SIGNED")) {
        } else if (rc_my_ddl_accept(p, "ZEROFILL")) zf = uns = true;
        else break;
    }
    if (uns) rc_buf_puts(&d, " unsigned");
    if (zf) rc_buf_puts(&d, " zerofill");
    if (d.err) {
        rc_my_ddl_nomem(p);
        goto out;
    }
    char *txt = rc_arena_memdup(p->a, d.data, d.len);
    if (!txt) {
        rc_my_ddl_nomem(p);
        goto out;
    }
    *decl = (rc_str){txt, d.len};
    rc_coltype check;
    rc_error e;
    rc_error_clear(&e);
    if (rc_coltype_parse(RC_FAM_MYSQL, txt, d.len, &check, &e) != RC_OK)
        rc_my_ddl_fail(p, at, "a column type the type catalog does not know (%s)", e.message);
out:
    rc_buf_fini(&d);
    return p->st;
}

/* A character set or collation name: a name, or a string ('utf8', "latin1_bin": both servers
 * accept either quote there). */
static rc_status charset_name(ps *p, rc_str *n, const char *what)
{
    if (p->t.kind != RC_MY_TK_STRING) return rc_my_ddl_name(p, n, what);
    *n = rc_my_tok_text(&p->lx, p->t, p->a);
    if (!n->p) return rc_my_ddl_nomem(p);
    rc_my_ddl_adv(p);
    return RC_OK;
}

/* CHARACTER SET x / CHARSET x / COLLATE x / BINARY / ASCII / UNICODE: true when one was read. */
bool rc_my_ddl_charset_attr(ps *p, coldef *cd)
{
    rc_str n;
    if (rc_my_ddl_is(p, "CHARACTER") || rc_my_ddl_is(p, "CHARSET") || (rc_my_ddl_is(p, "CHAR") && rc_my_ddl_next_is(p, "SET"))) {
        if (!rc_my_ddl_accept(p, "CHARSET")) {
            rc_my_ddl_adv(p);
            if (rc_my_ddl_expect(p, "SET")) return true;
        }
        rc_my_ddl_accept_c(p, '=');
        if (charset_name(p, &n, "a character set name") || cd->coll_given) return true; /* COLLATE before it wins */
        if (n.n == 7 && !strncasecmp(n.p, "default", 7)) return true; /* the default's: as if not given */
        cd->coll = rc_my_charset_default_collation(n);
        cd->coll_given = true;
        if (!strncasecmp(n.p, "binary", n.n) && n.n == 6) cd->coll = RC_MY_COLLATION_BINARY;
        return true;
    }
    if (rc_my_ddl_accept(p, "COLLATE")) {
        rc_my_ddl_accept_c(p, '=');
        if (charset_name(p, &n, "a collation name")) return true;
        if (n.n == 7 && !strncasecmp(n.p, "default", 7)) return true; /* COLLATE DEFAULT: as if not given */
        cd->coll = rc_my_collation_id(n);
        cd->coll_given = true;
        cd->bin = false;
        return true;
    }
    if (rc_my_ddl_accept(p, "ASCII")) {
        cd->coll = 11, cd->coll_given = true;
        return true;
    }
    if (rc_my_ddl_accept(p, "UNICODE")) {
        cd->coll = 35, cd->coll_given = true;
        return true;
    }
    if (rc_my_ddl_accept(p, "BINARY")) {
        cd->bin = true;
        return true;
    }
    return false;
}

/* REFERENCES t [(cols)] [MATCH …] [ON DELETE|UPDATE action]… */
static rc_status references(ps *p)
{
    rc_str db, t;
    if (rc_my_ddl_table_name(p, &db, &t)) return p->st;
    if (rc_my_ddl_punct(p, '(') && rc_my_ddl_skip_parens(p)) return p->st;
    for (;;) {
        if (rc_my_ddl_accept(p, "MATCH")) {
            rc_my_ddl_adv(p);
        } else if (rc_my_ddl_accept(p, "ON")) {
            if (!rc_my_ddl_accept(p, "DELETE") && !rc_my_ddl_accept(p, "UPDATE")) return rc_my_ddl_unexpected(p, "DELETE or UPDATE");
            if (rc_my_ddl_accept(p, "SET")) rc_my_ddl_adv(p);            /* SET NULL, SET DEFAULT */
            else if (rc_my_ddl_accept(p, "NO")) rc_my_ddl_adv(p);        /* NO ACTION */
            else if (!rc_my_ddl_accept(p, "RESTRICT") && !rc_my_ddl_accept(p, "CASCADE")) return rc_my_ddl_unexpected(p, "a referential action");
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
        if (p->t.kind == RC_MY_TK_END || rc_my_ddl_punct(p, ',') || rc_my_ddl_punct(p, ')') || rc_my_ddl_punct(p, ';') || rc_my_ddl_is(p, "FIRST") || rc_my_ddl_is(p, "AFTER"))
            return RC_OK;
        if (p->t.kind == RC_MY_TK_ERROR) return rc_my_ddl_unexpected(p, "a column attribute");
        if (rc_my_ddl_charset_attr(p, cd)) continue;
        if (rc_my_ddl_accept(p, "NOT")) {
            if (rc_my_ddl_accept(p, "NULL")) cd->nullable_set = true, cd->nullable = false;
            else if (!rc_my_ddl_accept(p, "ENFORCED")) return rc_my_ddl_unexpected(p, "NULL");
        } else if (rc_my_ddl_accept(p, "NULL")) {
            cd->nullable_set = true, cd->nullable = true;
        } else if (rc_my_ddl_accept(p, "DEFAULT")) {
            if (rc_my_ddl_is(p, "SERIAL") && rc_my_ddl_next_is(p, "VALUE")) { /* NOT NULL AUTO_INCREMENT UNIQUE */
                rc_my_ddl_adv(p), rc_my_ddl_adv(p);
                cd->nullable_set = true, cd->nullable = false;
            } else if (rc_my_ddl_default(p, &cd->dflt, &cd->has_dflt)) {
                return p->st;
            }
        } else if (rc_my_ddl_accept(p, "ON")) {
            if (rc_my_ddl_expect(p, "UPDATE") || rc_my_ddl_skip_value(p)) return p->st;
        } else if (rc_my_ddl_accept(p, "AUTO_INCREMENT") || rc_my_ddl_accept(p, "VISIBLE") || rc_my_ddl_accept(p, "VIRTUAL") || rc_my_ddl_accept(p, "STORED") ||
                   rc_my_ddl_accept(p, "PERSISTENT") || rc_my_ddl_accept(p, "ENFORCED")) {
        } else if (rc_my_ddl_accept(p, "UNIQUE")) {
            cd->unique = true;
            rc_my_ddl_accept(p, "KEY");
        } else if (rc_my_ddl_accept(p, "PRIMARY")) {
            if (rc_my_ddl_expect(p, "KEY")) return p->st;
            cd->pk = true;
        } else if (rc_my_ddl_accept(p, "KEY")) {
            cd->pk = true; /* KEY alone in a column definition is PRIMARY KEY */
        } else if (rc_my_ddl_accept(p, "COMMENT")) {
            if (p->t.kind != RC_MY_TK_STRING) return rc_my_ddl_unexpected(p, "a quoted comment");
            while (p->t.kind == RC_MY_TK_STRING) rc_my_ddl_adv(p);
        } else if (rc_my_ddl_accept(p, "COLUMN_FORMAT") || rc_my_ddl_accept(p, "STORAGE") || rc_my_ddl_accept(p, "SRID")) {
            rc_my_ddl_adv(p);
        } else if (rc_my_ddl_accept(p, "REF_SYSTEM_ID")) { /* MariaDB's SRID: REF_SYSTEM_ID = n */
            rc_my_ddl_accept_c(p, '=');
            rc_my_ddl_adv(p);
        } else if (rc_my_ddl_is(p, "SERIAL") && rc_my_ddl_next_is(p, "DEFAULT")) { /* SERIAL DEFAULT VALUE: NOT NULL AUTO_INCREMENT UNIQUE */
            rc_my_ddl_adv(p), rc_my_ddl_adv(p);
            if (rc_my_ddl_expect(p, "VALUE")) return p->st;
            cd->nullable_set = true, cd->nullable = false;
        } else if (rc_my_ddl_accept(p, "ENGINE_ATTRIBUTE") || rc_my_ddl_accept(p, "SECONDARY_ENGINE_ATTRIBUTE")) {
            rc_my_ddl_accept_c(p, '=');
            if (rc_my_ddl_skip_value(p)) return p->st;
        } else if (rc_my_ddl_accept(p, "COMPRESSED")) {
            if (rc_my_ddl_accept_c(p, '=')) rc_my_ddl_adv(p);
        } else if (rc_my_ddl_is(p, "GENERATED") || rc_my_ddl_is(p, "AS")) {
            if (rc_my_ddl_accept(p, "GENERATED") && rc_my_ddl_expect(p, "ALWAYS")) return p->st;
            if (rc_my_ddl_expect(p, "AS")) return p->st;
            if (rc_my_ddl_is(p, "ROW"))
                return rc_my_ddl_fail(p, p->t.off, "column %.*s: system-versioning columns (AS ROW START/END) are not supported",
                            (int)colname.n, colname.p);
            if (!rc_my_ddl_punct(p, '(')) return rc_my_ddl_unexpected(p, "'(' (the generation expression)");
            if (rc_my_ddl_skip_parens(p)) return p->st;
            cd->generated = true;
        } else if (rc_my_ddl_accept(p, "INVISIBLE")) {
            cd->invisible = true;
        } else if (rc_my_ddl_accept(p, "REFERENCES")) {
            if (references(p)) return p->st;
        } else if (rc_my_ddl_accept(p, "CONSTRAINT")) {
            if (!rc_my_ddl_is(p, "CHECK") && (p->t.kind == RC_MY_TK_WORD || p->t.kind == RC_MY_TK_QID)) rc_my_ddl_adv(p);
            if (!rc_my_ddl_is(p, "CHECK")) return rc_my_ddl_unexpected(p, "CHECK");
        } else if (rc_my_ddl_accept(p, "CHECK")) {
            if (!rc_my_ddl_punct(p, '(')) return rc_my_ddl_unexpected(p, "'('");
            if (rc_my_ddl_skip_parens(p)) return p->st;
        } else if (rc_my_ddl_accept(p, "WITH") || rc_my_ddl_accept(p, "WITHOUT")) {
            if (rc_my_ddl_expect(p, "SYSTEM") || rc_my_ddl_expect(p, "VERSIONING")) return p->st;
        } else {
            char b[64];
            return rc_my_ddl_fail(p, p->t.off, "%s in the definition of column %.*s is not a column attribute", rc_my_ddl_shown(p, b, sizeof b),
                        (int)colname.n, colname.p);
        }
    }
}

/* name type attributes → a column of the working table (not yet placed). */
rc_status rc_my_ddl_column_def(ps *p, wcol *c, bool *pk)
{
    memset(c, 0, sizeof *c);
    if (rc_my_ddl_name(p, &c->name, "a column name")) return p->st;
    coldef cd = {0};
    if (col_type(p, &cd, &c->decl) || col_attrs(p, &cd, c->name)) return p->st;
    c->nullable = cd.nullable_set ? cd.nullable : true;
    if (cd.serial) c->nullable = false;
    c->generated = cd.generated;
    c->invisible = cd.invisible;
    c->dflt = cd.dflt;
    c->has_dflt = cd.has_dflt;
    if (c->has_dflt && rc_my_ddl_default_typed(p, cd.base, &c->dflt)) return p->st;
    if (in_list(cd.base, char_types)) {
        c->coll = cd.coll;
        c->inherit = !cd.coll_given;
        c->bin = cd.bin;
        if (cd.coll == RC_MY_COLLATION_BINARY) c->bin = false;
    } else if (in_list(cd.base, binary_types)) {
        c->coll = RC_MY_COLLATION_BINARY;
    }
    size_t k = strlen(cd.base);
    if (cd.coll == RC_MY_COLLATION_BINARY && k >= 4 && !strcmp(cd.base + k - 4, "text")) { /* TEXT CHARACTER SET binary: a BLOB */
        char *t = rc_arena_memdup(p->a, c->decl.p, c->decl.n);
        if (!t) return rc_my_ddl_nomem(p);
        memcpy(t + k - 4, "blob", 4);
        c->decl.p = t;
    }
    *pk = cd.pk;
    return RC_OK;
}

