/* The schema history as text, for the checkpoint file: one line per database default, table
 * and column, so that a person can read what a checkpoint holds and a diff shows a DDL.
 *
 *   rowcast-mysql-history 1
 *   database TAB <name> TAB <collation id>
 *   table TAB <db> TAB <name> TAB <default collation id> TAB <number of columns>
 *   column TAB <name> TAB <declared type> TAB null|not null TAB <pk ordinal> TAB <collation id>
 *          TAB generated|- TAB invisible|- [TAB =<default>]
 *                                           (one line, the table's columns in order; the
 *                                           default's text after '=' when the column has one)
 *   end TAB <number of databases> TAB <number of tables>
 *
 * Every line ends with LF. Databases come in name order, then tables in (db, name) byte
 * order. In names and types, '\' is written "\\" and the bytes below 0x20 and 0x7F as "\xHH"
 * (two lower-case hex digits), so no field holds a TAB or a line break. Numbers are decimal,
 * without leading zeros. The end line's counts make a cut-off text an error. Written and read
 * only here: reading accepts exactly what writing produces. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_schema.h"

#define MAGIC "rowcast-mysql-history 1"

static void put_text(rc_buf *b, rc_str s)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < s.n; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if (c == '\\') {
            RC_BUF_LIT(b, "\\\\");
        } else if (c < 0x20 || c == 0x7f) {
            char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
            rc_buf_put(b, e, 4);
        } else {
            rc_buf_putc(b, (char)c);
        }
    }
}

static void put_field(rc_buf *b, rc_str s)
{
    rc_buf_putc(b, '\t');
    put_text(b, s);
}

static void put_num(rc_buf *b, unsigned long v)
{
    char t[24];
    int n = snprintf(t, sizeof t, "\t%lu", v);
    rc_buf_put(b, t, (size_t)n);
}

void rc_my_history_write(const rc_my_history *h, rc_buf *b)
{
    RC_BUF_LIT(b, MAGIC "\n");
    uint32_t ndb = rc_my_history_database_count(h), nt = rc_my_history_count(h);
    for (uint32_t i = 0; i < ndb; i++) {
        uint16_t coll;
        rc_str name = rc_my_history_database_at(h, i, &coll);
        RC_BUF_LIT(b, "database");
        put_field(b, name);
        put_num(b, coll);
        rc_buf_putc(b, '\n');
    }
    for (uint32_t i = 0; i < nt; i++) {
        const rc_my_table *t = rc_my_history_at(h, i);
        RC_BUF_LIT(b, "table");
        put_field(b, t->db);
        put_field(b, t->name);
        put_num(b, t->collation);
        put_num(b, t->ncols);
        rc_buf_putc(b, '\n');
        for (uint32_t k = 0; k < t->ncols; k++) {
            const rc_my_table_col *c = &t->cols[k];
            RC_BUF_LIT(b, "column");
            put_field(b, c->name);
            put_field(b, c->type.decl);
            rc_buf_puts(b, c->nullable ? "\tnull" : "\tnot null");
            put_num(b, c->pk);
            put_num(b, c->collation);
            rc_buf_puts(b, c->generated ? "\tgenerated" : "\t-");
            rc_buf_puts(b, c->invisible ? "\tinvisible" : "\t-");
            if (c->has_dflt) {
                rc_buf_put(b, "\t=", 2);
                put_text(b, c->dflt);
            }
            rc_buf_putc(b, '\n');
        }
    }
    RC_BUF_LIT(b, "end");
    put_num(b, ndb);
    put_num(b, nt);
    rc_buf_putc(b, '\n');
}

/* ---- reading ---- */

enum { MAX_FIELDS = 10 };

typedef struct line {
    rc_str f[MAX_FIELDS];
    int nf;
    unsigned long no; /* line number, from 1 */
    size_t off;       /* where it starts */
} line;

typedef struct reader {
    const char *s;
    size_t n, i;
    unsigned long no;
    rc_error *err;
    char *buf; /* unescaped fields of the current line */
    size_t cap;
} reader;

static rc_status bad(reader *r, const line *l, const char *what)
{
    return rc_error_set(r->err, RC_ERR_SYNTAX, l->off, "schema history, line %lu: %s", l->no, what);
}

/* The next line split at TABs, its fields unescaped; false at the end of the text. */
static rc_status next_line(reader *r, line *l, bool *got)
{
    *got = false;
    if (r->i >= r->n) return RC_OK;
    l->off = r->i;
    l->no = ++r->no;
    const char *nl = memchr(r->s + r->i, '\n', r->n - r->i);
    if (!nl) return bad(r, l, "the line does not end with a line feed (the text is cut off)");
    size_t len = (size_t)(nl - (r->s + r->i));
    if (len + 1 > r->cap) {
        char *nb = realloc(r->buf, len + 1);
        if (!nb) return rc_error_set(r->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        r->buf = nb;
        r->cap = len + 1;
    }
    const char *p = r->s + r->i;
    char *o = r->buf;
    l->nf = 0;
    l->f[0].p = o;
    for (size_t k = 0; k < len; k++) {
        char c = p[k];
        if (c == '\t') {
            if (l->nf + 1 >= MAX_FIELDS) return bad(r, l, "too many fields");
            l->f[l->nf].n = (size_t)(o - l->f[l->nf].p);
            l->f[++l->nf].p = o;
        } else if (c == '\\') {
            if (k + 1 < len && p[k + 1] == '\\') {
                *o++ = '\\';
                k++;
            } else if (k + 3 < len && p[k + 1] == 'x') {
                int v = 0;
                for (int d = 2; d <= 3; d++) {
                    char h = p[k + d];
                    int x = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : -1;
                    if (x < 0) return bad(r, l, "a \\x escape without two lower-case hex digits");
                    v = v * 16 + x;
                }
                if (v >= 0x20 && v != 0x7f) return bad(r, l, "a \\x escape of a byte that is written as itself");
                *o++ = (char)v;
                k += 3;
            } else {
                return bad(r, l, "a '\\' that is not \\\\ or \\xHH");
            }
        } else if ((unsigned char)c < 0x20 || c == 0x7f) {
            return bad(r, l, "a control byte that should have been escaped");
        } else {
            *o++ = c;
        }
    }
    l->f[l->nf].n = (size_t)(o - l->f[l->nf].p);
    l->nf++;
    r->i += len + 1;
    *got = true;
    return RC_OK;
}

static bool field_is(rc_str f, const char *w) { return f.n == strlen(w) && memcmp(f.p, w, f.n) == 0; }

static rc_status number(reader *r, const line *l, rc_str f, unsigned long max, unsigned long *v, const char *what)
{
    char msg[96];
    bool ok = f.n > 0 && f.n <= 10 && !(f.n > 1 && f.p[0] == '0');
    unsigned long x = 0;
    for (size_t i = 0; ok && i < f.n; i++) {
        if (f.p[i] < '0' || f.p[i] > '9') ok = false;
        else x = x * 10 + (unsigned long)(f.p[i] - '0');
    }
    if (!ok || x > max) {
        snprintf(msg, sizeof msg, "%s is not a number from 0 to %lu", what, max);
        return bad(r, l, msg);
    }
    *v = x;
    return RC_OK;
}

/* The column lines of a table, then the table into h. */
static rc_status read_table(reader *r, const line *tl, rc_my_history *h)
{
    unsigned long coll, ncols;
    if (tl->nf != 5) return bad(r, tl, "a table line has 5 fields: table, database, name, collation, columns");
    if (number(r, tl, tl->f[3], 65535, &coll, "the collation") || number(r, tl, tl->f[4], 65535, &ncols, "the column count"))
        return r->err->code;
    if (!tl->f[1].n || !tl->f[2].n) return bad(r, tl, "an empty database or table name");
    /* the table line's fields live in r->buf, which the column lines reuse: copy the names */
    size_t names = tl->f[1].n + tl->f[2].n;
    rc_my_table_col *cols = calloc(ncols ? ncols : 1, sizeof *cols);
    char *mem = malloc(names + 1);
    char **texts = calloc(ncols ? ncols : 1, sizeof *texts);
    rc_status st = RC_OK;
    if (!cols || !mem || !texts) {
        st = rc_error_set(r->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        goto out;
    }
    memcpy(mem, tl->f[1].p, tl->f[1].n);
    memcpy(mem + tl->f[1].n, tl->f[2].p, tl->f[2].n);
    rc_my_table t = {{mem, tl->f[1].n}, {mem + tl->f[1].n, tl->f[2].n}, (uint32_t)ncols, cols, (uint16_t)coll};
    for (unsigned long k = 0; k < ncols; k++) {
        line l;
        bool got;
        if ((st = next_line(r, &l, &got))) goto out;
        if (!got) {
            st = bad(r, tl, "the text ends before the table's columns do");
            goto out;
        }
        if (!l.nf || !field_is(l.f[0], "column") || (l.nf != 8 && !(l.nf == 9 && l.f[8].n && l.f[8].p[0] == '='))) {
            st = bad(r, &l, "expected a column line (column, name, type, null|not null, pk, collation, generated|-, invisible|-)");
            goto out;
        }
        unsigned long pk, cc;
        if ((st = number(r, &l, l.f[4], 65535, &pk, "the primary key ordinal")) ||
            (st = number(r, &l, l.f[5], 65535, &cc, "the collation")))
            goto out;
        rc_my_table_col *c = &cols[k];
        if (field_is(l.f[3], "null")) c->nullable = true;
        else if (!field_is(l.f[3], "not null")) {
            st = bad(r, &l, "the nullability is neither 'null' nor 'not null'");
            goto out;
        }
        if (field_is(l.f[6], "generated")) c->generated = true;
        else if (!field_is(l.f[6], "-")) {
            st = bad(r, &l, "the generated field is neither 'generated' nor '-'");
            goto out;
        }
        if (field_is(l.f[7], "invisible")) c->invisible = true;
        else if (!field_is(l.f[7], "-")) {
            st = bad(r, &l, "the invisible field is neither 'invisible' nor '-'");
            goto out;
        }
        if (!l.f[1].n || !l.f[2].n) {
            st = bad(r, &l, "an empty column name or type");
            goto out;
        }
        rc_str dflt = l.nf == 9 ? (rc_str){l.f[8].p + 1, l.f[8].n - 1} : (rc_str){"", 0};
        texts[k] = malloc(l.f[1].n + l.f[2].n + dflt.n + 1);
        if (!texts[k]) {
            st = rc_error_set(r->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
            goto out;
        }
        memcpy(texts[k], l.f[1].p, l.f[1].n);
        memcpy(texts[k] + l.f[1].n, l.f[2].p, l.f[2].n);
        if (dflt.n) memcpy(texts[k] + l.f[1].n + l.f[2].n, dflt.p, dflt.n);
        c->name = (rc_str){texts[k], l.f[1].n};
        c->type.decl = (rc_str){texts[k] + l.f[1].n, l.f[2].n};
        c->dflt = (rc_str){texts[k] + l.f[1].n + l.f[2].n, dflt.n};
        c->has_dflt = l.nf == 9;
        c->pk = (uint16_t)pk;
        c->collation = (uint16_t)cc;
    }
    if (rc_my_history_get(h, t.db, t.name)) {
        st = bad(r, tl, "the table appears twice");
        goto out;
    }
    rc_error e;
    rc_error_clear(&e);
    if (rc_my_history_put(h, &t, &e) != RC_OK) {
        st = e.code == RC_ERR_NOMEM ? rc_error_set(r->err, e.code, RC_NO_OFFSET, "%s", e.message) : bad(r, tl, e.message);
    }
out:
    if (texts)
        for (unsigned long k = 0; k < ncols; k++) free(texts[k]);
    free(texts);
    free(cols);
    free(mem);
    return st;
}

static rc_status read_all(reader *r, rc_my_history *h)
{
    line l;
    bool got;
    rc_status st;
    if ((st = next_line(r, &l, &got))) return st;
    if (!got || l.nf != 1 || !field_is(l.f[0], MAGIC)) {
        if (!got) l = (line){.no = 1, .off = 0};
        return bad(r, &l, "not a schema history (the first line is not '" MAGIC "')");
    }
    unsigned long ndb = 0, nt = 0;
    for (;;) {
        if ((st = next_line(r, &l, &got))) return st;
        if (!got) {
            l = (line){.no = r->no + 1, .off = r->n};
            return bad(r, &l, "the text ends without its end line (it is cut off)");
        }
        if (field_is(l.f[0], "database")) {
            unsigned long coll;
            if (nt) return bad(r, &l, "a database line after the tables");
            if (l.nf != 3) return bad(r, &l, "a database line has 3 fields: database, name, collation");
            if ((st = number(r, &l, l.f[2], 65535, &coll, "the collation"))) return st;
            if (!l.f[1].n) return bad(r, &l, "an empty database name");
            if (rc_my_history_has_database(h, l.f[1])) return bad(r, &l, "the database appears twice");
            if ((st = rc_my_history_set_database(h, l.f[1], (uint16_t)coll, r->err))) return st;
            ndb++;
        } else if (field_is(l.f[0], "table")) {
            if ((st = read_table(r, &l, h))) return st;
            nt++;
        } else if (field_is(l.f[0], "end")) {
            unsigned long a, b;
            if (l.nf != 3) return bad(r, &l, "the end line has 3 fields: end, databases, tables");
            if ((st = number(r, &l, l.f[1], 4000000000UL, &a, "the database count")) ||
                (st = number(r, &l, l.f[2], 4000000000UL, &b, "the table count")))
                return st;
            if (a != ndb || b != nt) return bad(r, &l, "the counts of the end line are not those of the lines before it");
            if (r->i != r->n) {
                l = (line){.no = r->no + 1, .off = r->i};
                return bad(r, &l, "text after the end line");
            }
            return RC_OK;
        } else {
            return bad(r, &l, "expected a database, table or end line");
        }
    }
}

rc_status rc_my_history_read(rc_my_history *h, const char *text, size_t n, rc_error *err)
{
    rc_error local;
    if (!err) err = &local;
    rc_error_clear(&local);
    rc_my_history *tmp = rc_my_history_new();
    if (!tmp) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    reader r = {text, n, 0, 0, err, NULL, 0};
    rc_status st = read_all(&r, tmp);
    free(r.buf);
    if (st == RC_OK) rc_my_history_swap(h, tmp);
    rc_my_history_free(tmp);
    return st;
}
