/* Tokenizer of MySQL/MariaDB statements (see my_ddl_lex.h). */
#include <string.h>
#include <strings.h>
#include "sources/mysql/my_ddl_lex.h"
#include "core/quoted.h"

void rc_my_lex_init(rc_my_lexer *lx, const char *s, size_t n)
{
    memset(lx, 0, sizeof *lx);
    lx->s = s;
    lx->n = n;
}

static bool word_char(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '$' || c >= 0x80;
}
static bool digit(char c) { return c >= '0' && c <= '9'; }

static rc_my_tok fail(rc_my_lexer *lx, size_t off, const char *what)
{
    lx->err_off = off;
    lx->err = what;
    lx->i = lx->n;
    return (rc_my_tok){RC_MY_TK_ERROR, 0, off, 0};
}

/* Skips white space and comments; false with lx->err set when a comment is not closed. */
static bool skip_space(rc_my_lexer *lx)
{
    const char *s = lx->s;
    size_t n = lx->n;
    while (lx->i < n) {
        char c = s[lx->i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            lx->i++;
        } else if (c == '#' || (c == '-' && lx->i + 1 < n && s[lx->i + 1] == '-' &&
                                (lx->i + 2 >= n || (unsigned char)s[lx->i + 2] <= ' '))) {
            while (lx->i < n && s[lx->i] != '\n') lx->i++;
        } else if (c == '/' && lx->i + 1 < n && s[lx->i + 1] == '*') {
            size_t st = lx->i;
            size_t j = lx->i + 2;
            bool versioned = false;
            if (j < n && s[j] == '!') versioned = true, j++;
            else if (j + 1 < n && s[j] == 'M' && s[j + 1] == '!') versioned = true, j += 2;
            if (versioned) {
                for (int k = 0; k < 6 && j < n && digit(s[j]); k++) j++;
                lx->vdepth++;
                lx->i = j;
                continue;
            }
            j = lx->i + 2;
            while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/')) j++;
            if (j + 1 >= n) {
                fail(lx, st, "a comment that is not closed");
                return false;
            }
            lx->i = j + 2;
        } else if (c == '*' && lx->vdepth > 0 && lx->i + 1 < n && s[lx->i + 1] == '/') {
            lx->vdepth--;
            lx->i += 2;
        } else {
            break;
        }
    }
    return true;
}

rc_my_tok rc_my_lex_next(rc_my_lexer *lx)
{
    if (!skip_space(lx)) return (rc_my_tok){RC_MY_TK_ERROR, 0, lx->err_off, 0};
    const char *s = lx->s;
    size_t n = lx->n, st = lx->i;
    if (st >= n) return (rc_my_tok){RC_MY_TK_END, 0, n, 0};
    char c = s[st];
    if (c == '`' || c == '\'' || c == '"') {
        size_t j = rc_quoted_end(s, n, st + 1, c, c != '`');
        if (j >= n) return fail(lx, st, c == '`' ? "a quoted name that is not closed" : "a string that is not closed");
        lx->i = j + 1;
        return (rc_my_tok){c == '`' ? RC_MY_TK_QID : RC_MY_TK_STRING, 0, st, lx->i - st};
    }
    if (digit(c) || (c == '.' && st + 1 < n && digit(s[st + 1]))) {
        size_t j = st;
        while (j < n && digit(s[j])) j++;
        bool number = true;
        if (j < n && word_char((unsigned char)s[j]) && !(s[j] == 'e' || s[j] == 'E')) number = false;
        if (number) {
            if (j < n && s[j] == '.') {
                j++;
                while (j < n && digit(s[j])) j++;
            }
            if (j < n && (s[j] == 'e' || s[j] == 'E')) {
                size_t k = j + 1;
                if (k < n && (s[k] == '+' || s[k] == '-')) k++;
                if (k < n && digit(s[k])) {
                    j = k;
                    while (j < n && digit(s[j])) j++;
                } else if (c != '.') {
                    number = false; /* 1e is a name */
                }
            }
            if (number && !(j < n && word_char((unsigned char)s[j]))) {
                lx->i = j;
                return (rc_my_tok){RC_MY_TK_NUMBER, 0, st, j - st};
            }
        }
        /* a name that starts with digits (MySQL allows 1abc) */
    }
    if (word_char((unsigned char)c)) {
        size_t j = st;
        while (j < n && word_char((unsigned char)s[j])) j++;
        lx->i = j;
        return (rc_my_tok){RC_MY_TK_WORD, 0, st, j - st};
    }
    lx->i = st + 1;
    return (rc_my_tok){RC_MY_TK_PUNCT, c, st, 1};
}

bool rc_my_tok_is(const rc_my_lexer *lx, rc_my_tok t, const char *w)
{
    return t.kind == RC_MY_TK_WORD && strlen(w) == t.n && strncasecmp(lx->s + t.off, w, t.n) == 0;
}

rc_str rc_my_tok_text(const rc_my_lexer *lx, rc_my_tok t, rc_arena *a)
{
    const char *p = lx->s + t.off;
    if (t.kind != RC_MY_TK_QID && t.kind != RC_MY_TK_STRING) return (rc_str){p, t.n};
    char q = p[0];
    const char *in = p + 1;
    size_t len = t.n - 2;
    bool plain = true;
    for (size_t i = 0; i < len && plain; i++)
        if (in[i] == q || (q != '`' && in[i] == '\\')) plain = false;
    if (plain) return (rc_str){in, len};
    char *out = rc_arena_alloc(a, len + 1);
    if (!out) return (rc_str){NULL, 0};
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        char c = in[i];
        if (c == q) {
            out[o++] = c; /* a doubled quote */
            i++;
        } else if (q != '`' && c == '\\' && i + 1 < len) {
            char e = in[++i];
            switch (e) {
            case '0': out[o++] = '\0'; break;
            case 'b': out[o++] = '\b'; break;
            case 'n': out[o++] = '\n'; break;
            case 'r': out[o++] = '\r'; break;
            case 't': out[o++] = '\t'; break;
            case 'Z': out[o++] = '\032'; break;
            case '%': case '_': out[o++] = '\\'; out[o++] = e; break; /* kept, as MySQL does */
            default: out[o++] = e; break;
            }
        } else {
            out[o++] = c;
        }
    }
    out[o] = '\0';
    return (rc_str){out, o};
}
