/* Column defaults as the text of a value (rc_my_table_col.dflt, rc_column.dflt), read from
 * information_schema.COLUMNS.COLUMN_DEFAULT (a snapshot's tables) and from a DDL statement's
 * DEFAULT clause (the stream's), so that a table learned either way has the same default:
 * a string literal unquoted, a number as written, TRUE/FALSE as 1/0, a bit literal b'101' as
 * its number (5). CURRENT_TIMESTAMP and NOW() are "1970-01-01 00:00:00", as Debezium's DDL
 * parser makes them (its DefaultValueParserListener; the encoder then writes the epoch for a
 * NOT NULL TIMESTAMP and any DATETIME, none for a nullable TIMESTAMP). DEFAULT NULL and another
 * expression (now() + 1, (1 + 2), uuid()) are no default: Debezium cannot evaluate them where it
 * reads the DDL either. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "sources/mysql/my_ddl_int.h"

/* b'0101' digits → their number in decimal text, at out (room: n + 1 bytes); false when not
 * binary digits or over 64 bits. */
static bool bits_number(const char *s, size_t n, char *out, size_t *outn)
{
    if (!n || n > 64) return false;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '0' && s[i] != '1') return false;
        v = v << 1 | (uint64_t)(s[i] - '0');
    }
    char t[24];
    size_t k = 0;
    do t[k++] = (char)('0' + v % 10), v /= 10;
    while (v);
    if (k > n + 1) return false;
    for (size_t i = 0; i < k; i++) out[i] = t[k - 1 - i];
    *outn = k;
    return true;
}

static const char epoch_text[] = "1970-01-01 00:00:00";

static bool is_number(const char *s, size_t n)
{
    size_t i = n && (s[0] == '-' || s[0] == '+');
    if (i == n) return false;
    for (; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || s[i] == '.' || s[i] == 'e' || s[i] == 'E' || ((s[i] == '-' || s[i] == '+') && i && (s[i - 1] == 'e' || s[i - 1] == 'E'))))
            return false;
    return true;
}

bool rc_my_default_from_is(rc_str in, char *out, rc_str *res)
{
    const char *s = in.p;
    size_t n = in.n, k = 0;
    if (n >= 2 && s[0] == '\'' && s[n - 1] == '\'') { /* 'text', quotes doubled inside */
        for (size_t i = 1; i + 1 < n; i++) {
            if (s[i] == '\'' && i + 2 < n && s[i + 1] == '\'') i++;
            else if (s[i] == '\\' && i + 2 < n) i++;
            out[k++] = s[i];
        }
        *res = (rc_str){out, k};
        return true;
    }
    if (n >= 3 && (s[0] == 'b' || s[0] == 'B') && s[1] == '\'' && s[n - 1] == '\'' && bits_number(s + 2, n - 3, out, &k)) {
        *res = (rc_str){out, k};
        return true;
    }
    if (n >= sizeof epoch_text - 1 && !strncasecmp(s, "current_timestamp(", 18)) { /* current_timestamp(), (6) */
        memcpy(out, epoch_text, sizeof epoch_text - 1);
        *res = (rc_str){out, sizeof epoch_text - 1};
        return true;
    }
    if (!is_number(s, n)) return false; /* NULL, an expression */
    memcpy(out, s, n);
    *res = (rc_str){out, n};
    return true;
}

/* A text of the arena: `n` bytes of s, or NULL p when out of memory. */
static rc_str arena_text(ps *p, const char *s, size_t n)
{
    char *t = rc_arena_memdup(p->a, n ? s : "", n);
    if (!t) rc_my_ddl_nomem(p);
    return (rc_str){t, n};
}

rc_status rc_my_ddl_default_typed(ps *p, const char *base, rc_str *d)
{
    const char *s = d->p;
    size_t n = d->n;
    char t[12];
    if (!strcmp(base, "year") && n && n <= 2 && is_number(s, n) && s[0] != '-' && s[0] != '+') { /* 1 → 2001, 70 → 1970 */
        int y = (s[0] - '0') * (n == 2 ? 10 : 1) + (n == 2 ? s[1] - '0' : 0);
        if (!y) return RC_OK; /* 0 is the zero year */
        snprintf(t, sizeof t, "%d", y < 70 ? 2000 + y : 1900 + y);
        *d = arena_text(p, t, strlen(t));
    } else if (!strcmp(base, "time") && (n == 4 || n == 5) && s[n - 3] == ':' && !memchr(s, ':', n - 3)) { /* '08:00': 08:00:00 */
        memcpy(t, s, n);
        memcpy(t + n, ":00", 3);
        *d = arena_text(p, t, n + 3);
    }
    return p->st;
}

rc_status rc_my_ddl_default(ps *p, rc_str *dflt, bool *has)
{
    *has = false;
    *dflt = (rc_str){"", 0};
    const char *sql = p->lx.s;
    if (rc_my_ddl_is(p, "NULL")) {
        rc_my_ddl_adv(p);
        return RC_OK;
    }
    if (rc_my_ddl_is(p, "TRUE") || rc_my_ddl_is(p, "FALSE")) {
        *dflt = arena_text(p, rc_my_ddl_is(p, "TRUE") ? "1" : "0", 1);
        *has = dflt->p != NULL;
        rc_my_ddl_adv(p);
        return p->st;
    }
    if (rc_my_ddl_is(p, "CURRENT_TIMESTAMP") || rc_my_ddl_is(p, "NOW")) {
        bool now = rc_my_ddl_is(p, "NOW");
        rc_my_ddl_adv(p);
        if (rc_my_ddl_punct(p, '(')) {
            if (rc_my_ddl_skip_parens(p)) return p->st;
        } else if (now) {
            return rc_my_ddl_unexpected(p, "'(' after NOW");
        }
        if (!rc_my_ddl_punct(p, ',') && !rc_my_ddl_punct(p, ')') && p->t.kind != RC_MY_TK_END && p->t.kind != RC_MY_TK_WORD &&
            !rc_my_ddl_punct(p, ';'))
            return rc_my_ddl_skip_value(p); /* an expression: now() + 1 */
        *dflt = arena_text(p, epoch_text, sizeof epoch_text - 1);
        *has = dflt->p != NULL;
        return p->st;
    }
    rc_my_tok w = p->t;
    bool bits = false;
    if (w.kind == RC_MY_TK_WORD) { /* _utf8mb4'x', DATE '2020-01-01', b'101': the string after it */
        bits = w.n == 1 && (sql[w.off] == 'b' || sql[w.off] == 'B');
        bool literal = bits || sql[w.off] == '_' || rc_my_ddl_is(p, "DATE") || rc_my_ddl_is(p, "TIME") || rc_my_ddl_is(p, "TIMESTAMP");
        rc_my_lexer save = p->lx;
        rc_my_ddl_adv(p);
        if (!literal || p->t.kind != RC_MY_TK_STRING) { /* an expression: CURRENT_TIMESTAMP, now(), x'0F' */
            p->lx = save, p->t = w;
            return rc_my_ddl_skip_value(p);
        }
    }
    if (p->t.kind == RC_MY_TK_STRING) {
        rc_buf b;
        rc_buf_init(&b, 0);
        while (p->t.kind == RC_MY_TK_STRING) { /* 'a' 'b' is one string */
            rc_str t = rc_my_tok_text(&p->lx, p->t, p->a);
            if (!t.p) return rc_buf_fini(&b), rc_my_ddl_nomem(p);
            rc_buf_put(&b, t.p, t.n);
            rc_my_ddl_adv(p);
        }
        if (b.err == RC_OK && bits) {
            size_t k;
            char num[24];
            if (b.len > 64 || !bits_number(b.data, b.len, num, &k)) return rc_buf_fini(&b), RC_OK;
            *dflt = arena_text(p, num, k);
        } else if (b.err == RC_OK) {
            *dflt = arena_text(p, b.data, b.len);
        } else {
            rc_my_ddl_nomem(p);
        }
        rc_buf_fini(&b);
        *has = dflt->p != NULL;
        return p->st;
    }
    bool neg = rc_my_ddl_punct(p, '-');
    if (neg || rc_my_ddl_punct(p, '+')) rc_my_ddl_adv(p);
    if (p->t.kind == RC_MY_TK_NUMBER && is_number(sql + p->t.off, p->t.n)) {
        char *t = rc_arena_alloc(p->a, p->t.n + 2);
        if (!t) return rc_my_ddl_nomem(p);
        t[0] = '-';
        memcpy(t + 1, sql + p->t.off, p->t.n);
        *dflt = neg ? (rc_str){t, p->t.n + 1} : (rc_str){t + 1, p->t.n};
        *has = true;
        rc_my_ddl_adv(p);
        return RC_OK;
    }
    return rc_my_ddl_skip_value(p);
}
