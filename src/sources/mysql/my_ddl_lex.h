/* The tokenizer of MySQL/MariaDB statements for the DDL parser (my_ddl.c): words, `quoted`
 * identifiers, 'strings' and "strings", numbers, single punctuation characters. Comments are
 * white space (/ * … * /, "-- " and # to the end of the line) except versioned comments
 * (/ *!50100 … * /, MariaDB's / *M!100100 … * /), whose contents are read as statement text:
 * the server that wrote the binlog ran them. */
#ifndef ROWCAST_MY_DDL_LEX_H
#define ROWCAST_MY_DDL_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include "rowcast/arena.h"
#include "rowcast/error.h"
#include "rowcast/value.h"

enum { RC_MY_TK_END = 0, RC_MY_TK_WORD, RC_MY_TK_QID /* `name` */, RC_MY_TK_STRING /* 'x' or "x" */, RC_MY_TK_NUMBER, RC_MY_TK_PUNCT, RC_MY_TK_ERROR };

typedef struct rc_my_tok {
    int kind;
    char c;        /* RC_MY_TK_PUNCT: the character */
    size_t off, n; /* the token's bytes in the statement, quotes included */
} rc_my_tok;

typedef struct rc_my_lexer {
    const char *s;
    size_t n, i;
    int vdepth;      /* versioned comments open around i */
    size_t err_off;  /* RC_MY_TK_ERROR: where */
    const char *err; /* RC_MY_TK_ERROR: what */
} rc_my_lexer;

void rc_my_lex_init(rc_my_lexer *lx, const char *s, size_t n);
rc_my_tok rc_my_lex_next(rc_my_lexer *lx);

/* Case-insensitive: the token is the word w (upper-case ASCII). */
bool rc_my_tok_is(const rc_my_lexer *lx, rc_my_tok t, const char *w);

/* The text of a word, quoted identifier or string, unquoted and unescaped (a string's
 * backslash escapes as MySQL reads them without NO_BACKSLASH_ESCAPES); in the statement where
 * nothing needed unescaping, else in `a`. NULL p when out of memory. */
rc_str rc_my_tok_text(const rc_my_lexer *lx, rc_my_tok t, rc_arena *a);

#endif
