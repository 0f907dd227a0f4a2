/* Internals of the DDL parser (my_ddl.c): the parser's state and working table, shared by its
 * parts: the token helpers (my_ddl_tokens.c), column definitions (my_ddl_column.c), the working
 * table, keys and table options (my_ddl_table.c). Not for the rest of the source: it uses
 * my_schema.h (rc_my_history_ddl). */
#ifndef ROWCAST_MY_DDL_INT_H
#define ROWCAST_MY_DDL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/buf.h"
#include "core/ddl.h"
#include "sources/mysql/my_ddl_lex.h"
#include "sources/mysql/my_schema.h"

typedef struct wcol {
    rc_str name, decl;
    bool nullable, generated, invisible;
    uint16_t pk, coll;
    bool inherit; /* a character column without its own charset: the table's default */
    bool bin;     /* the BINARY attribute: the _bin collation of its charset */
    rc_str dflt;  /* the DEFAULT's value text (my_default.c), when has_dflt */
    bool has_dflt;
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
    uint16_t pk_overlaps; /* k + 1 when the key's k-th part is `period WITHOUT OVERLAPS`, else 0 */
    rc_str period, period_start, period_end; /* the statement's application-time period (MariaDB) */
} ps;

typedef struct coldef {
    const char *base;
    bool nullable_set, nullable, pk, generated, invisible, bin, unique, serial;
    uint16_t coll;   /* explicit, or 0 */
    bool coll_given; /* COLLATE or CHARACTER SET was given */
    rc_str dflt;     /* DEFAULT, when has_dflt (the last one given counts) */
    bool has_dflt;
} coldef;

/* ---- my_default.c ---- */
/* After DEFAULT: reads the value; *has says whether it is a default Debezium writes (a literal,
 * not NULL or an expression), its text in the arena. */
rc_status rc_my_ddl_default(ps *p, rc_str *dflt, bool *has);
/* A default read for a column of type `base` ("year", "time", …) in the server's value: YEAR's
 * two digits as MySQL reads them (1 → 2001), TIME's 'HH:MM' with its seconds. */
rc_status rc_my_ddl_default_typed(ps *p, const char *base, rc_str *d);

/* ---- my_ddl_tokens.c ---- */
void rc_my_ddl_adv(ps *p);
rc_status rc_my_ddl_fail(ps *p, size_t off, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
rc_status rc_my_ddl_nomem(ps *p);
const char *rc_my_ddl_shown(ps *p, char *buf, size_t size);
rc_status rc_my_ddl_unexpected(ps *p, const char *expected);
bool rc_my_ddl_is(ps *p, const char *w);
bool rc_my_ddl_punct(ps *p, char c);
bool rc_my_ddl_accept(ps *p, const char *w);
bool rc_my_ddl_accept_c(ps *p, char c);
rc_status rc_my_ddl_expect(ps *p, const char *w);
rc_status rc_my_ddl_expect_c(ps *p, char c);
bool rc_my_ddl_next_is(ps *p, const char *w);
void rc_my_ddl_skip_wait(ps *p);
bool rc_my_ddl_end_of_statement(ps *p);
rc_status rc_my_ddl_name(ps *p, rc_str *out, const char *what);
rc_status rc_my_ddl_table_name(ps *p, rc_str *db, rc_str *tbl);
rc_status rc_my_ddl_skip_parens(ps *p);
rc_status rc_my_ddl_skip_element(ps *p);
rc_status rc_my_ddl_skip_value(ps *p);

/* ---- my_ddl_column.c ---- */
bool rc_my_ddl_charset_attr(ps *p, coldef *cd);
rc_status rc_my_ddl_column_def(ps *p, wcol *c, bool *pk);

/* ---- my_ddl_table.c ---- */
rc_status rc_my_ddl_missing(ps *p, size_t off, rc_str n);
void rc_my_ddl_wtab_free(wtab *w);
rc_status rc_my_ddl_wtab_insert(ps *p, wtab *w, uint32_t at, const wcol *c);
void rc_my_ddl_wtab_remove(wtab *w, uint32_t at);
int64_t rc_my_ddl_wtab_find(const wtab *w, rc_str name);
rc_status rc_my_ddl_wtab_from(ps *p, wtab *w, const rc_my_table *t);
void rc_my_ddl_clear_pk(wtab *w);
void rc_my_ddl_drop_pk_part(wtab *w, uint16_t k);
rc_status rc_my_ddl_apply_pk(ps *p, wtab *w);
rc_status rc_my_ddl_element(ps *p, wtab *w, uint32_t *pos, bool if_not_exists);
rc_status rc_my_ddl_period(ps *p, wtab *w);
rc_status rc_my_ddl_commit(ps *p, wtab *w, rc_str db, rc_str tname, bool convert, uint16_t convert_coll);
bool rc_my_ddl_default_charset(ps *p, uint16_t *coll, bool *coll_explicit);
rc_status rc_my_ddl_table_option(ps *p, wtab *w, bool *coll_explicit);
rc_status rc_my_ddl_create_options(ps *p, wtab *w, bool *coll_explicit);

#endif
