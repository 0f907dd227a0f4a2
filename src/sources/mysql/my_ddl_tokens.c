/* The DDL parser's token helpers: moving, matching and expecting words and punctuation, names,
 * skipping what the parser reads past, and its error messages. */
#include <stdarg.h>
#include <stdio.h>
#include "sources/mysql/my_ddl_int.h"

/* ---- tokens ---- */

void rc_my_ddl_adv(ps *p) { p->t = rc_my_lex_next(&p->lx); }

rc_status rc_my_ddl_fail(ps *p, size_t off, const char *fmt, ...)
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

rc_status rc_my_ddl_nomem(ps *p)
{
    if (p->st == RC_OK) p->st = rc_error_set(p->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    return p->st;
}

/* What the current token is, for messages. */
const char *rc_my_ddl_shown(ps *p, char *buf, size_t size)
{
    if (p->t.kind == RC_MY_TK_END) return "the end of the statement";
    if (p->t.kind == RC_MY_TK_ERROR) return p->lx.err;
    size_t n = p->t.n < 40 ? p->t.n : 40;
    snprintf(buf, size, "'%.*s'", (int)n, p->sql.p + p->t.off);
    return buf;
}

rc_status rc_my_ddl_unexpected(ps *p, const char *expected)
{
    char b[64];
    if (p->t.kind == RC_MY_TK_ERROR) return rc_my_ddl_fail(p, p->lx.err_off, "%s", p->lx.err);
    return rc_my_ddl_fail(p, p->t.off, "expected %s, found %s", expected, rc_my_ddl_shown(p, b, sizeof b));
}

bool rc_my_ddl_is(ps *p, const char *w) { return rc_my_tok_is(&p->lx, p->t, w); }
bool rc_my_ddl_punct(ps *p, char c) { return p->t.kind == RC_MY_TK_PUNCT && p->t.c == c; }

bool rc_my_ddl_accept(ps *p, const char *w)
{
    if (!rc_my_ddl_is(p, w)) return false;
    rc_my_ddl_adv(p);
    return true;
}
bool rc_my_ddl_accept_c(ps *p, char c)
{
    if (!rc_my_ddl_punct(p, c)) return false;
    rc_my_ddl_adv(p);
    return true;
}
rc_status rc_my_ddl_expect(ps *p, const char *w)
{
    if (rc_my_ddl_accept(p, w)) return RC_OK;
    return rc_my_ddl_unexpected(p, w);
}
rc_status rc_my_ddl_expect_c(ps *p, char c)
{
    if (rc_my_ddl_accept_c(p, c)) return RC_OK;
    char w[4] = {'\'', c, '\'', 0};
    return rc_my_ddl_unexpected(p, w);
}

/* The word after the current token, without moving. */
bool rc_my_ddl_next_is(ps *p, const char *w)
{
    rc_my_lexer save = p->lx;
    rc_my_tok t = rc_my_lex_next(&p->lx);
    bool r = rc_my_tok_is(&p->lx, t, w);
    p->lx = save;
    return r;
}

/* MariaDB's WAIT n | NOWAIT (lock wait timeout of one statement). */
void rc_my_ddl_skip_wait(ps *p)
{
    if (rc_my_ddl_accept(p, "WAIT")) rc_my_ddl_adv(p);
    else rc_my_ddl_accept(p, "NOWAIT");
}

bool rc_my_ddl_end_of_statement(ps *p)
{
    while (rc_my_ddl_punct(p, ';')) rc_my_ddl_adv(p);
    return p->t.kind == RC_MY_TK_END;
}

/* A name: a word, a `quoted` or "quoted" identifier. */
rc_status rc_my_ddl_name(ps *p, rc_str *out, const char *what)
{
    if (p->t.kind != RC_MY_TK_WORD && p->t.kind != RC_MY_TK_QID && !(p->t.kind == RC_MY_TK_STRING && p->sql.p[p->t.off] == '"'))
        return rc_my_ddl_unexpected(p, what);
    *out = rc_my_tok_text(&p->lx, p->t, p->a);
    if (!out->p) return rc_my_ddl_nomem(p);
    rc_my_ddl_adv(p);
    return RC_OK;
}

/* [db.]table; db the default database when not given. */
rc_status rc_my_ddl_table_name(ps *p, rc_str *db, rc_str *tbl)
{
    size_t at = p->t.off;
    if (rc_my_ddl_name(p, tbl, "a table name")) return p->st;
    if (rc_my_ddl_accept_c(p, '.')) {
        *db = *tbl;
        if (rc_my_ddl_name(p, tbl, "a table name")) return p->st;
    } else {
        *db = p->defdb;
        if (!db->n) return rc_my_ddl_fail(p, at, "table %.*s names no database and the statement has no default database", (int)tbl->n, tbl->p);
    }
    return RC_OK;
}

/* Skips a balanced ( … ) starting at the current '('. */
rc_status rc_my_ddl_skip_parens(ps *p)
{
    size_t open = p->t.off;
    int depth = 0;
    do {
        if (p->t.kind == RC_MY_TK_END) return rc_my_ddl_fail(p, open, "a '(' that is not closed");
        if (p->t.kind == RC_MY_TK_ERROR) return rc_my_ddl_unexpected(p, "')'");
        if (rc_my_ddl_punct(p, '(')) depth++;
        else if (rc_my_ddl_punct(p, ')')) depth--;
        rc_my_ddl_adv(p);
    } while (depth > 0);
    return RC_OK;
}

/* Skips up to the next ',' or ')' (or the end) outside parentheses. */
rc_status rc_my_ddl_skip_element(ps *p)
{
    while (p->t.kind != RC_MY_TK_END && !rc_my_ddl_punct(p, ',') && !rc_my_ddl_punct(p, ')') && !rc_my_ddl_punct(p, ';')) {
        if (p->t.kind == RC_MY_TK_ERROR) return rc_my_ddl_unexpected(p, "','");
        if (rc_my_ddl_punct(p, '(')) {
            if (rc_my_ddl_skip_parens(p)) return p->st;
        } else {
            rc_my_ddl_adv(p);
        }
    }
    return RC_OK;
}

/* One value: a literal, -literal, (expr), f(args), _charset'x', x'..', DATE '…'. */
rc_status rc_my_ddl_skip_value(ps *p)
{
    while (rc_my_ddl_punct(p, '-') || rc_my_ddl_punct(p, '+') || rc_my_ddl_punct(p, '~') || rc_my_ddl_punct(p, '!')) rc_my_ddl_adv(p);
    if (rc_my_ddl_punct(p, '(')) return rc_my_ddl_skip_parens(p);
    if (p->t.kind == RC_MY_TK_STRING) {
        while (p->t.kind == RC_MY_TK_STRING) rc_my_ddl_adv(p); /* 'a' 'b' is one string */
        return RC_OK;
    }
    if (p->t.kind == RC_MY_TK_WORD) {
        rc_my_ddl_adv(p);
        if (rc_my_ddl_punct(p, '(')) return rc_my_ddl_skip_parens(p);
        if (p->t.kind == RC_MY_TK_STRING) rc_my_ddl_adv(p); /* _utf8mb4'x', X'0F', DATE '2020-01-01' */
        return RC_OK;
    }
    if (p->t.kind == RC_MY_TK_NUMBER || p->t.kind == RC_MY_TK_QID) {
        rc_my_ddl_adv(p);
        return RC_OK;
    }
    return rc_my_ddl_unexpected(p, "a value");
}

