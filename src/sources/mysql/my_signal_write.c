/* `rowcast snapshot` on MySQL/MariaDB (rc_source_ops.write_signal): the capture's URL and
 * connection (my_conn.h), its checks of the signal table (my_incsnap.c: DATABASE.TABLE, a
 * MariaDB server, the table there, else the CREATE TABLE to run), the tables the patterns match
 * among the server's (base tables outside the system databases; the signal table left out),
 * and one INSERT of the signal row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_source_decl.h"
#include "sources/mysql/my_source_int.h"
#include "sources/signal_write.h"

static const char tables_sql[] = "SELECT TABLE_SCHEMA, TABLE_NAME FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' "
                                 "AND TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys') "
                                 "ORDER BY 1, 2";

/* `name` as an SQL identifier: in backquotes, a backquote doubled. */
static void quote_ident(rc_buf *b, const char *name, size_t n)
{
    rc_buf_putc(b, '`');
    for (size_t i = 0; i < n; i++) {
        if (name[i] == '`') rc_buf_putc(b, '`');
        rc_buf_putc(b, name[i]);
    }
    rc_buf_putc(b, '`');
}

/* 'text' escaped for the session's character set. */
static void quote_text(rc_buf *b, MYSQL *m, const char *text)
{
    size_t n = strlen(text);
    char *w = rc_buf_reserve(b, 2 * n + 3);
    if (!w) return;
    w[0] = '\'';
    unsigned long l = mysql_real_escape_string(m, w + 1, text, (unsigned long)n);
    w[l + 1] = '\'';
    rc_buf_commit(b, l + 2);
}

rc_status rc_my_signal_insert(MYSQL *m, const rc_my_url *u, const char *signal_table, const char *id, const char *type,
                              const char *data, rc_error *err)
{
    rc_buf q;
    rc_buf_init(&q, RC_BUF_DEFAULT_MAX);
    size_t dot = strcspn(signal_table, "."); /* DATABASE.TABLE: my_incsnap.c checked it */
    RC_BUF_LIT(&q, "INSERT INTO ");
    quote_ident(&q, signal_table, dot);
    rc_buf_putc(&q, '.');
    quote_ident(&q, signal_table + dot + 1, strlen(signal_table + dot + 1));
    RC_BUF_LIT(&q, " VALUES (");
    quote_text(&q, m, id);
    RC_BUF_LIT(&q, ", ");
    quote_text(&q, m, type);
    RC_BUF_LIT(&q, ", ");
    if (data) quote_text(&q, m, data);
    else RC_BUF_LIT(&q, "NULL");
    RC_BUF_LIT(&q, ")");
    rc_buf_putc(&q, '\0');
    rc_status st = q.err != RC_OK ? rc_my_source_nomem(err) : rc_my_exec(m, u, q.data, err);
    rc_buf_fini(&q);
    return st;
}

static rc_status insert(void *ctx, const rc_signal_ask *ask, const char *data, rc_error *err)
{
    my_source *s = ctx;
    return rc_my_signal_insert(s->sql, &s->url, ask->signal_table, ask->id, ask->type, data, err);
}

/* The server's tables, the signal made of them, and its INSERT. */
static rc_status write_row(my_source *s, const rc_signal_ask *ask, rc_error *err)
{
    MYSQL_RES *r;
    if (rc_my_select(s->sql, &s->url, tables_sql, &r, err) != RC_OK) return err->code;
    size_t n = 0;
    rc_signal_name *names = malloc((mysql_num_rows(r) + 1) * sizeof *names);
    for (MYSQL_ROW row; names && (row = mysql_fetch_row(r));) names[n++] = (rc_signal_name){row[0], row[1]};
    rc_status st = rc_signal_write(ask, names, n, s->url.shown, "databases", insert, s, err);
    free(names);
    mysql_free_result(r);
    return st;
}

rc_status rc_my_signal_write(const char *url, const rc_options *opts, const char *type, const char *const *patterns,
                             size_t npatterns, const char *id, char *said, size_t said_cap, rc_error *err)
{
    rc_my_capture_options o;
    my_source *s = calloc(1, sizeof *s);
    if (!s) return rc_my_source_nomem(err);
    rc_source_config cfg = {.opts = opts};
    rc_status st = rc_my_options_read(opts, &o, err);
    if (st == RC_OK) st = rc_my_incsnap_new(s, &cfg, err); /* the signal table's name checked */
    if (st == RC_OK && !s->inc)
        st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "which signal table? give the capture's: -o mysql.signal.table=DATABASE.TABLE");
    if (st == RC_OK) st = rc_my_url_parse(url, &s->url, err);
    if (st == RC_OK) st = rc_my_connect(&s->url, &s->sql, err);
    if (st == RC_OK) {
        s->srv.mariadb = strstr(mysql_get_server_info(s->sql), "MariaDB") != NULL;
        st = rc_my_incsnap_check(s, err);
    }
    rc_signal_ask ask = {o.signal_table, type, id, patterns, npatterns, said, said_cap};
    if (st == RC_OK) st = write_row(s, &ask, err);
    if (st == RC_ERR_RETRY) err->code = st = RC_ERR_IO; /* the command has no retry: the server failed */
    rc_my_incsnap_free(s);
    if (s->sql) mysql_close(s->sql);
    rc_my_url_fini(&s->url);
    free(s);
    return st;
}
