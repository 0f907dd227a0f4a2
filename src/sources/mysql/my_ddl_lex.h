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

enum { TK_END = 0, TK_WORD, TK_QID /* `name` */, TK_STRING /* 'x' or "x" */, TK_NUMBER, TK_PUNCT, TK_ERROR };

typedef struct my_tok {
    int kind;
    char c;        /* TK_PUNCT: the character */
    size_t off, n; /* the token's bytes in the statement, quotes included */
} my_tok;

typedef struct my_lexer {
    const char *s;
    size_t n, i;
    int vdepth;      /* versioned comments open around i */
    size_t err_off;  /* TK_ERROR: where */
    const char *err; /* TK_ERROR: what */
} my_lexer;

void my_lex_init(my_lexer *lx, const char *s, size_t n);
my_tok my_lex_next(my_lexer *lx);

/* Case-insensitive: the token is the word w (upper-case ASCII). */
bool my_tok_is(const my_lexer *lx, my_tok t, const char *w);

/* The text of a word, quoted identifier or string, unquoted and unescaped (a string's
 * backslash escapes as MySQL reads them without NO_BACKSLASH_ESCAPES); in the statement where
 * nothing needed unescaping, else in `a`. NULL p when out of memory. */
rc_str my_tok_text(const my_lexer *lx, my_tok t, rc_arena *a);

#endif
