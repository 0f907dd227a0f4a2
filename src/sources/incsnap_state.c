/* The incremental snapshot state text: writing and parsing (incsnap_state.h). */
#include <string.h>
#include "core/json.h"
#include "core/jsonw.h"
#include "sources/incsnap_state.h"

static const char *const by_names[] = {"pk", "index", "ctid"};
static const char hexd[] = "0123456789abcdef";

void rc_isstate_init(rc_isstate *st)
{
    memset(st, 0, sizeof *st);
    rc_arena_init(&st->arena);
}

void rc_isstate_fini(rc_isstate *st)
{
    rc_arena_fini(&st->arena);
}

/* ---- writing ---- */

static bool bare(const char *s, size_t n)
{
    if (!n || s[0] == '"' || s[0] == '(' || s[0] == '[') return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c <= ' ' || c == '"' || c == '\\' || c == 0x7f) return false;
    }
    return rc_utf8_valid_prefix(s, n) == n;
}

/* A name, signal id or filter: bare when `may_bare` and it can be, else a JSON string. */
static rc_status put_text(rc_buf *b, const char *s, bool may_bare, rc_error *err)
{
    size_t n = strlen(s);
    if (rc_utf8_valid_prefix(s, n) != n)
        return rc_error_set(err, RC_ERR_UTF8, RC_NO_OFFSET,
                            "snapshot state: \"%.40s\" is not UTF-8", s);
    if (may_bare && bare(s, n))
        rc_buf_put(b, s, n);
    else
        rc_jw_str(b, s, n);
    return RC_OK;
}

static void put_u64(rc_buf *b, uint64_t v)
{
    char d[24];
    size_t i = sizeof d;
    do d[--i] = (char)('0' + v % 10), v /= 10;
    while (v);
    rc_buf_put(b, d + i, sizeof d - i);
}

static void put_key(rc_buf *b, const rc_isstate_table *t)
{
    if (t->last_is_page) {
        rc_buf_putc(b, '(');
        put_u64(b, t->last_page);
        RC_BUF_LIT(b, ",0)");
        return;
    }
    rc_buf_putc(b, '[');
    for (size_t i = 0; i < t->nlast; i++) {
        const rc_isstate_key *k = &t->last[i];
        if (i) rc_buf_putc(b, ',');
        if (!k->bytes && rc_utf8_valid_prefix(k->p, k->n) == k->n) {
            rc_jw_str(b, k->p, k->n);
            continue;
        }
        RC_BUF_LIT(b, "{\"hex\":\"");
        for (size_t j = 0; j < k->n; j++) {
            unsigned char c = (unsigned char)k->p[j];
            rc_buf_putc(b, hexd[c >> 4]);
            rc_buf_putc(b, hexd[c & 15]);
        }
        RC_BUF_LIT(b, "\"}");
    }
    rc_buf_putc(b, ']');
}

/* "KEYWORD NAME" at the start of a table's line. */
static rc_status put_head(rc_buf *b, const char *kw, const char *name, rc_error *err)
{
    rc_buf_puts(b, kw);
    rc_buf_putc(b, ' ');
    return put_text(b, name, true, err);
}

static rc_status put_table(rc_buf *b, const rc_isstate_table *t, rc_error *err)
{
    rc_status rc = put_head(b, t->queued ? "queued" : "table", t->name, err);
    if (rc == RC_OK && !t->queued) {
        rc_buf_puts(b, t->initial ? " initial by=" : " incremental by=");
        rc_buf_puts(b, by_names[t->by]);
    }
    if (rc == RC_OK && t->signal) {
        RC_BUF_LIT(b, " signal=");
        rc = put_text(b, t->signal, true, err);
    }
    if (rc != RC_OK || t->queued) return rc_buf_putc(b, '\n'), rc;
    const char *lbl[] = {" rows=", " estimate=", " chunks="};
    const uint64_t num[] = {t->rows, t->estimate, t->chunks};
    for (int i = 0; i < 3; i++) rc_buf_puts(b, lbl[i]), put_u64(b, num[i]);
    rc_buf_putc(b, '\n');
    if (t->has_last && (rc = put_head(b, "last", t->name, err)) == RC_OK) {
        rc_buf_putc(b, ' ');
        put_key(b, t);
        rc_buf_putc(b, '\n');
    }
    if (rc == RC_OK && t->filter && (rc = put_head(b, "filter", t->name, err)) == RC_OK) {
        rc_buf_putc(b, ' ');
        rc = put_text(b, t->filter, false, err);
        rc_buf_putc(b, '\n');
    }
    return rc;
}

rc_status rc_isstate_write(const rc_isstate *st, rc_buf *out, rc_error *err)
{
    RC_BUF_LIT(out, "snapshot-state 1\ncaptured");
    rc_status rc = RC_OK;
    for (size_t i = 0; i < st->ncaptured && rc == RC_OK; i++) {
        rc_buf_putc(out, ' ');
        rc = put_text(out, st->captured[i], true, err);
    }
    rc_buf_puts(out, st->paused ? "\npaused 1\n" : "\npaused 0\n");
    for (size_t i = 0; i < st->nt && rc == RC_OK; i++) rc = put_table(out, &st->t[i], err);
    if (rc == RC_OK && out->err != RC_OK)
        rc = rc_error_set(err, out->err, RC_NO_OFFSET, "snapshot state: out of memory");
    return rc;
}

/* ---- parsing ---- */

typedef struct lexer {
    const char *base, *p, *eol; /* the text, the next byte, the end of the current line */
    size_t line;
    rc_isstate *st;
    rc_json j;
    rc_arena scratch;
    rc_error *err;
} lexer;

static rc_status fail(lexer *l, rc_status code, const char *what)
{
    return rc_error_set(l->err, code, (size_t)(l->p - l->base), "snapshot state line %zu: %s",
                        l->line, what);
}

static void spaces(lexer *l)
{
    while (l->p < l->eol && (*l->p == ' ' || *l->p == '\t')) l->p++;
}

/* A bare word up to a space (or '=' when `to_eq`). */
static rc_str word(lexer *l, bool to_eq)
{
    spaces(l);
    const char *s = l->p;
    while (l->p < l->eol && *l->p != ' ' && *l->p != '\t' && !(to_eq && *l->p == '=')) l->p++;
    return (rc_str){s, (size_t)(l->p - s)};
}

/* Parses the JSON value p[0..n) into l->j, root checked to be `type`. */
static rc_status json_at(lexer *l, const char *p, size_t n, rc_jtype type, const char *what)
{
    rc_error jerr;
    rc_error_clear(&jerr);
    rc_arena_reset(&l->scratch);
    if (rc_json_parse(&l->j, p, n, &jerr) != RC_OK) {
        l->p = p + (jerr.offset <= n ? jerr.offset : 0);
        return rc_error_set(l->err, jerr.code, (size_t)(l->p - l->base),
                            "snapshot state line %zu: %s: %s", l->line, what, jerr.message);
    }
    if (rc_json_node(&l->j, 0)->type != type) return fail(l, RC_ERR_SYNTAX, what);
    return RC_OK;
}

/* A name or signal id: bare, or a JSON string (up to its closing quote). */
static rc_status text(lexer *l, const char **out, const char *what)
{
    spaces(l);
    if (l->p == l->eol) return fail(l, RC_ERR_SYNTAX, what);
    if (*l->p != '"') {
        rc_str w = word(l, false);
        if (memchr(w.p, '\0', w.n)) return fail(l, RC_ERR_VALUE, "a NUL in a name");
        *out = rc_arena_memdup(&l->st->arena, w.p, w.n);
        return *out ? RC_OK : fail(l, RC_ERR_NOMEM, "out of memory");
    }
    const char *s = l->p++;
    while (l->p < l->eol && *l->p != '"') l->p += *l->p == '\\' && l->p + 1 < l->eol ? 2 : 1;
    if (l->p == l->eol) return fail(l, RC_ERR_SYNTAX, "unterminated string");
    l->p++;
    rc_status rc = json_at(l, s, (size_t)(l->p - s), RC_J_STRING, what);
    if (rc != RC_OK) return rc;
    const rc_jnode *nd = rc_json_node(&l->j, 0);
    if (memchr(nd->s, '\0', nd->n)) return fail(l, RC_ERR_VALUE, "a NUL in a name");
    *out = rc_arena_memdup(&l->st->arena, nd->s, nd->n);
    return *out ? RC_OK : fail(l, RC_ERR_NOMEM, "out of memory");
}

static bool number(rc_str w, uint64_t *v)
{
    if (!w.n || w.n > 20) return false;
    uint64_t x = 0;
    for (size_t i = 0; i < w.n; i++) {
        unsigned d = (unsigned char)w.p[i] - '0';
        if (d > 9 || x > (UINT64_MAX - d) / 10) return false;
        x = x * 10 + d;
    }
    *v = x;
    return true;
}

static bool eq(rc_str w, const char *s)
{
    return w.n == strlen(s) && !memcmp(w.p, s, w.n);
}

static rc_status line_end(lexer *l)
{
    spaces(l);
    return l->p == l->eol ? RC_OK
                          : fail(l, RC_ERR_SYNTAX, "unexpected text at the end of the line");
}

/* Room for element n of an arena array of n elements: it doubles when n is 0 or 2^k - 1
 * (capacities 2, 4, 8, ...; the old copy stays in the arena). */
static rc_status room(lexer *l, void *arr, size_t n, size_t size)
{
    if (n && (n & (n + 1))) return RC_OK;
    void *a = rc_arena_alloc(&l->st->arena, (n + 1) * 2 * size), **p = arr;
    if (!a) return fail(l, RC_ERR_NOMEM, "out of memory");
    if (n) memcpy(a, *p, n * size);
    *p = a;
    return RC_OK;
}

static rc_status new_table(lexer *l, rc_isstate_table **out)
{
    rc_isstate *st = l->st;
    rc_status rc = room(l, &st->t, st->nt, sizeof *st->t);
    if (rc == RC_OK) *out = memset(&st->t[st->nt++], 0, sizeof **out);
    return rc;
}

/* `table NAME KIND by=B [signal=S] rows=N estimate=N chunks=N` or `queued NAME [signal=S]`. */
static rc_status table_line(lexer *l, bool queued)
{
    rc_isstate_table *t;
    rc_status rc = new_table(l, &t);
    if (rc == RC_OK) rc = text(l, &t->name, "a table name");
    if (rc != RC_OK) return rc;
    t->queued = queued;
    if (!queued) {
        rc_str kind = word(l, false);
        if (!eq(kind, "initial") && !eq(kind, "incremental"))
            return fail(l, RC_ERR_SYNTAX, "expected initial or incremental");
        t->initial = eq(kind, "initial");
    }
    unsigned seen = 0; /* bits: by, signal, rows, estimate, chunks */
    for (spaces(l); rc == RC_OK && l->p < l->eol; spaces(l)) {
        rc_str k = word(l, true);
        if (l->p == l->eol || *l->p != '=') return fail(l, RC_ERR_SYNTAX, "expected NAME=VALUE");
        l->p++;
        static const char *const keys[] = {"by", "signal", "rows", "estimate", "chunks"};
        unsigned i = 0;
        while (i < 5 && !eq(k, keys[i])) i++;
        if (i == 5 || (queued && i != 1)) return fail(l, RC_ERR_SYNTAX, "unknown attribute");
        if (seen & 1u << i) return fail(l, RC_ERR_SYNTAX, "attribute given twice");
        seen |= 1u << i;
        if (i == 1) {
            rc = text(l, &t->signal, "a signal id");
            continue;
        }
        rc_str v = word(l, false);
        uint64_t *num[] = {NULL, NULL, &t->rows, &t->estimate, &t->chunks};
        if (i == 0) {
            unsigned b = 0;
            while (b < 3 && !eq(v, by_names[b])) b++;
            if (b == 3) return fail(l, RC_ERR_SYNTAX, "by= is pk, index or ctid");
            t->by = (rc_incsnap_by)b;
        } else if (!number(v, num[i])) {
            return fail(l, RC_ERR_SYNTAX, "expected a number");
        }
    }
    if (rc == RC_OK && !queued && (seen | 2u) != 31u)
        return fail(l, RC_ERR_SYNTAX, "by=, rows=, estimate= and chunks= are required");
    return rc;
}

/* The table a `last` or `filter` line is about: the latest table line's, by name. */
static rc_status of_table(lexer *l, rc_isstate_table **out)
{
    const char *name;
    rc_status rc = text(l, &name, "a table name");
    if (rc != RC_OK) return rc;
    rc_isstate_table *t = l->st->nt ? &l->st->t[l->st->nt - 1] : NULL;
    if (!t || t->queued || strcmp(t->name, name))
        return fail(l, RC_ERR_SYNTAX, "not the table of the line before");
    *out = t;
    return RC_OK;
}

static int hexv(char c)
{
    const char *h = memchr(hexd, c | 0x20, 16);
    return c && h ? (int)(h - hexd) : -1;
}

static rc_status key_value(lexer *l, uint32_t node, rc_isstate_key *k)
{
    const rc_jnode *nd = rc_json_node(&l->j, node);
    if (nd->type == RC_J_STRING) {
        *k = (rc_isstate_key){rc_arena_memdup(&l->st->arena, nd->s, nd->n), nd->n, false};
        return k->p ? RC_OK : fail(l, RC_ERR_NOMEM, "out of memory");
    }
    uint32_t hx = nd->type == RC_J_OBJECT && nd->count == 1 ? rc_json_get(&l->j, node, "hex") : 0;
    const rc_jnode *h = hx ? rc_json_node(&l->j, hx) : NULL;
    if (!h || h->type != RC_J_STRING || h->n % 2)
        return fail(l, RC_ERR_SYNTAX, "a key value is a string or {\"hex\":\"…\"}");
    char *p = rc_arena_alloc(&l->st->arena, h->n / 2 + 1);
    if (!p) return fail(l, RC_ERR_NOMEM, "out of memory");
    for (size_t i = 0; i < h->n / 2; i++) {
        int a = hexv(h->s[2 * i]), b = hexv(h->s[2 * i + 1]);
        if (a < 0 || b < 0) return fail(l, RC_ERR_SYNTAX, "not hex digits");
        p[i] = (char)(a << 4 | b);
    }
    *k = (rc_isstate_key){p, h->n / 2, true};
    return RC_OK;
}

static rc_status last_line(lexer *l)
{
    rc_isstate_table *t;
    rc_status rc = of_table(l, &t);
    if (rc != RC_OK) return rc;
    if (t->has_last) return fail(l, RC_ERR_SYNTAX, "a second last line");
    t->has_last = true;
    spaces(l);
    if (l->p < l->eol && *l->p == '(') { /* (PAGE,0) */
        l->p++;
        const char *s = l->p;
        while (l->p < l->eol && *l->p != ',') l->p++;
        if (!number((rc_str){s, (size_t)(l->p - s)}, &t->last_page) || l->eol - l->p < 3 ||
            memcmp(l->p, ",0)", 3))
            return fail(l, RC_ERR_SYNTAX, "expected (PAGE,0)");
        l->p += 3;
        t->last_is_page = true;
        return line_end(l);
    }
    rc = json_at(l, l->p, (size_t)(l->eol - l->p), RC_J_ARRAY, "the last key is a JSON array");
    if (rc != RC_OK) return rc;
    const rc_jnode *arr = rc_json_node(&l->j, 0);
    t->nlast = arr->count;
    t->last = rc_arena_alloc(&l->st->arena, (arr->count ? arr->count : 1) * sizeof *t->last);
    if (!t->last) return fail(l, RC_ERR_NOMEM, "out of memory");
    uint32_t e = arr->first;
    for (size_t i = 0; i < t->nlast && rc == RC_OK; i++, e = rc_json_node(&l->j, e)->next)
        rc = key_value(l, e, &t->last[i]);
    l->p = l->eol;
    return rc;
}

static rc_status filter_line(lexer *l)
{
    rc_isstate_table *t;
    rc_status rc = of_table(l, &t);
    if (rc == RC_OK && t->filter) return fail(l, RC_ERR_SYNTAX, "a second filter line");
    spaces(l);
    if (rc == RC_OK && (l->p == l->eol || *l->p != '"'))
        return fail(l, RC_ERR_SYNTAX, "the filter is a JSON string");
    return rc == RC_OK ? text(l, &t->filter, "the filter") : rc;
}

static rc_status captured_line(lexer *l)
{
    rc_isstate *st = l->st;
    for (spaces(l); l->p < l->eol; spaces(l)) {
        rc_status rc = room(l, &st->captured, st->ncaptured, sizeof *st->captured);
        if (rc == RC_OK) rc = text(l, &st->captured[st->ncaptured], "a table name");
        if (rc != RC_OK) return rc;
        st->ncaptured++;
    }
    return RC_OK;
}

static rc_status one_line(lexer *l, unsigned *seen)
{
    rc_str kw = word(l, false);
    if (l->line == 1)
        return eq(kw, "snapshot-state") && eq(word(l, false), "1")
                   ? line_end(l)
                   : fail(l, RC_ERR_SYNTAX, "expected snapshot-state 1");
    if (eq(kw, "captured") || eq(kw, "paused")) {
        unsigned bit = eq(kw, "captured") ? 1 : 2;
        if (*seen & bit) return fail(l, RC_ERR_SYNTAX, "a second line of this kind");
        *seen |= bit;
        if (bit == 1) return captured_line(l);
        rc_str v = word(l, false);
        if (!eq(v, "0") && !eq(v, "1")) return fail(l, RC_ERR_SYNTAX, "paused is 0 or 1");
        l->st->paused = eq(v, "1");
        return line_end(l);
    }
    rc_status rc;
    if (eq(kw, "table") || eq(kw, "queued"))
        rc = table_line(l, eq(kw, "queued"));
    else if (eq(kw, "last"))
        rc = last_line(l);
    else if (eq(kw, "filter"))
        rc = filter_line(l);
    else
        return fail(l, RC_ERR_SYNTAX, "unknown line");
    return rc == RC_OK ? line_end(l) : rc;
}

rc_status rc_isstate_parse(rc_isstate *st, const char *txt, size_t n, rc_error *err)
{
    rc_arena_reset(&st->arena);
    rc_arena keep = st->arena;
    memset(st, 0, sizeof *st);
    st->arena = keep;
    lexer l = {.base = txt, .p = txt, .st = st, .err = err};
    rc_arena_init(&l.scratch);
    rc_json_init(&l.j, &l.scratch);
    rc_status rc = RC_OK;
    unsigned seen = 0;
    const char *end = txt + n;
    while (rc == RC_OK && l.p < end) {
        l.line++;
        l.eol = memchr(l.p, '\n', (size_t)(end - l.p));
        if (!l.eol) l.eol = end;
        if (l.eol > l.p || l.line == 1) rc = one_line(&l, &seen);
        l.p = l.eol + (l.eol < end);
    }
    if (rc == RC_OK && !l.line) rc = rc_error_set(err, RC_ERR_SYNTAX, 0, "snapshot state: empty");
    rc_json_fini(&l.j);
    rc_arena_fini(&l.scratch);
    return rc;
}
