/* The event decoder's helpers its parts share (my_decoder_int.h): the maps kept, the
 * transactions, a new event with its origin and position, a DDL's structure. Apart from
 * my_decoder.c, so that it, my_decoder_query.c and my_decoder_tablemap.c use these and not
 * each other. */
#include <stdlib.h>
#include <string.h>
#include "my_decoder_int.h"
#include "my_value_int.h"

rc_status rc_my_decoder_nomem(rc_error *err) { return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"); }

/* Keeps a replaced map until the decoder goes (false: out of memory, the map is freed). */
bool rc_my_decoder_retire(rc_my_decoder *d, rc_my_tablemap *m)
{
    if (d->nretired == d->capretired) {
        size_t cap = d->capretired ? d->capretired * 2 : 16;
        rc_my_tablemap **t = realloc(d->retired, cap * sizeof *t);
        if (!t) return rc_my_tablemap_free(m), false;
        d->retired = t, d->capretired = cap;
    }
    d->retired[d->nretired++] = m;
    return true;
}

/* --- transactions --- */

void rc_my_decoder_tx_begin(rc_my_decoder *d)
{
    d->in_tx = true;
    rc_buf_reset(&d->query);
}

/* The open transaction is over: its GTID joins the executed set. */
rc_status rc_my_decoder_tx_end(rc_my_decoder *d, rc_error *err)
{
    rc_status st = RC_OK;
    if (d->gtid_kind == 1 && d->my.gno) /* ANONYMOUS_GTID (gno 0) adds nothing */
        st = rc_my_gtid_set_add_mysql(d->gtids, d->my.uuid, (rc_str){d->my.tag, strlen(d->my.tag)}, d->my.gno, err);
    else if (d->gtid_kind == 2)
        st = rc_my_gtid_set_add_mariadb(d->gtids, d->maria.domain, d->gtid_server, d->maria.seq, err);
    d->in_tx = d->in_begin = d->standalone = false;
    d->gtid_kind = 0, d->gtid_len = 0, d->has_thread = false;
    rc_buf_reset(&d->query);
    return st;
}

/* An event with the origin and position every event of this decoder has. */
rc_event *rc_my_decoder_new_event(rc_my_decoder *d, rc_op op, rc_event_list *out, rc_arena *a)
{
    rc_event *ev = rc_event_list_push(out); /* zeroed */
    if (!ev) return NULL;
    ev->op = op;
    ev->src.kind = d->fde.mariadb ? RC_DB_MARIADB : RC_DB_MYSQL;
    ev->src.server = d->cfg.server;
    ev->src.version = d->version;
    ev->pos.file = (rc_str){d->file, d->file_len};
    ev->pos.offset = d->ev_offset, ev->pos.has_offset = true;
    if (d->gtid_len) {
        char *g = rc_arena_memdup(a, d->gtid_text, d->gtid_len);
        if (!g) return NULL;
        ev->pos.gtid = (rc_str){g, d->gtid_len};
    }
    ev->pos.server_id = d->ev_server, ev->pos.has_server_id = true;
    if (d->has_thread) ev->pos.thread = d->thread, ev->pos.has_thread = true;
    if (d->in_begin && d->txid_len) {
        /* the transaction id is the GTID when there is one: the same bytes, not a second copy */
        bool same = d->gtid_len == d->txid_len && !memcmp(d->gtid_text, d->txid_text, d->txid_len);
        char *t = same ? (char *)ev->pos.gtid.p : rc_arena_memdup(a, d->txid_text, d->txid_len);
        if (!t) return NULL;
        ev->pos.txid = (rc_str){t, d->txid_len};
    }
    ev->ts_us = (int64_t)d->ev_ts * 1000000, ev->has_ts = true;
    return ev;
}

rc_str rc_my_decoder_arena_str(rc_arena *a, rc_str s)
{
    if (!s.n) return (rc_str){"", 0};
    const char *p = rc_arena_memdup(a, s.p, s.n);
    return p ? (rc_str){p, s.n} : (rc_str){NULL, 0};
}

/* A collation's character set name, n 0 when unknown. */
static rc_str charset_of(uint16_t collation)
{
    const char *n = collation ? rc_my_charset_name(collation) : "?";
    return strcmp(n, "?") ? (rc_str){n, strlen(n)} : (rc_str){"", 0};
}

/* The table's structure after a DDL statement, from the history, as the DDL event's columns
 * (what Debezium's schema-change topic writes as tableChanges): copied into the event's arena,
 * since the history changes with the next statement. A table the history does not know (a
 * DROP) leaves the event without columns. */
rc_status rc_my_decoder_ddl_structure(rc_my_decoder *d, rc_event *ev, rc_arena *a, rc_error *err)
{
    const rc_my_table *t = d->cfg.history && ev->src.table.n ? rc_my_history_get(d->cfg.history, ev->src.db, ev->src.table) : NULL;
    if (!t) return RC_OK;
    rc_column *cols = rc_arena_alloc(a, sizeof *cols * (t->ncols ? t->ncols : 1));
    if (!cols) return rc_my_decoder_nomem(err);
    for (uint32_t i = 0; i < t->ncols; i++) {
        const rc_my_table_col *c = &t->cols[i];
        memset(&cols[i], 0, sizeof cols[i]);
        cols[i].type = c->type;
        cols[i].name = rc_my_decoder_arena_str(a, c->name);
        cols[i].type.decl = rc_my_decoder_arena_str(a, c->type.decl);
        cols[i].type.labels = rc_my_decoder_arena_str(a, c->type.labels);
        if (c->type.charset.n) cols[i].type.charset = rc_my_decoder_arena_str(a, c->type.charset);
        else cols[i].type.charset = charset_of(c->collation);
        cols[i].pk = c->pk;
        cols[i].nullable = c->nullable;
        if (!cols[i].name.p || !cols[i].type.decl.p || !cols[i].type.labels.p || !cols[i].type.charset.p) return rc_my_decoder_nomem(err);
    }
    ev->cols = cols;
    ev->ncols = t->ncols;
    ev->table_charset = charset_of(t->collation);
    return RC_OK;
}
