/* The MySQL/MariaDB source's snapshot: the included tables read in chunks through the read
 * view, one read event per row, the last row marked by reading one ahead. */
#include <stdlib.h>
#include <string.h>
#include "sources/mysql/my_source_int.h"

/* ---- snapshot ---- */

/* Copies the reader's row into s->ahead. */
static rc_status keep_ahead(my_source *s, size_t table, char **fields, const unsigned long *lens, rc_error *err)
{
    uint32_t n = s->tables[table].t->ncols;
    size_t need = 0;
    for (uint32_t i = 0; i < n; i++) need += fields[i] ? lens[i] + 1 : 0;
    if (need > s->ahead_cap) {
        char *p = realloc(s->ahead, need);
        if (!p) return rc_my_source_nomem(err);
        s->ahead = p, s->ahead_cap = need;
    }
    if (n > s->ahead_ncols) {
        char **f = realloc(s->ahead_fields, n * sizeof *f);
        if (f) s->ahead_fields = f;
        unsigned long *l = realloc(s->ahead_lens, n * sizeof *l);
        if (l) s->ahead_lens = l;
        if (!f || !l) return rc_my_source_nomem(err);
        s->ahead_ncols = n;
    }
    char *w = s->ahead;
    for (uint32_t i = 0; i < n; i++) {
        s->ahead_lens[i] = fields[i] ? lens[i] : 0;
        s->ahead_fields[i] = fields[i] ? memcpy(w, fields[i], lens[i]) : NULL;
        if (fields[i]) w[lens[i]] = '\0', w += lens[i] + 1;
    }
    s->has_ahead = true, s->ahead_table = table;
    return RC_OK;
}

/* Reads the next snapshot row into s->ahead (has_ahead false after the last row of the last table). */
rc_status rc_my_source_snapshot_fetch(my_source *s, rc_error *err)
{
    s->has_ahead = false;
    while (s->table_i < s->ntables) {
        const rc_my_snap_table *t = &s->tables[s->table_i];
        if (!t->included) {
            s->table_i++;
            continue;
        }
        if (!s->reader && !(s->reader = rc_my_snap_reader_new(s->sql, &s->url, t, SNAPSHOT_CHUNK))) return rc_my_source_nomem(err);
        char **fields;
        unsigned long *lens;
        bool got;
        if (rc_my_snap_reader_next(s->reader, &fields, &lens, &got, err) != RC_OK) return err->code;
        if (got) return keep_ahead(s, s->table_i, fields, lens, err);
        rc_my_snap_reader_free(s->reader);
        s->reader = NULL;
        s->table_i++;
        s->tables_done++;
    }
    return RC_OK;
}

static rc_status push(rc_event_list *out, const rc_event *ev, rc_error *err)
{
    rc_event *slot = rc_event_list_push(out);
    if (!slot) return rc_my_source_nomem(err);
    *slot = *ev;
    return RC_OK;
}

/* The read event of the row ahead. */
static rc_status read_event(my_source *s, rc_error *err)
{
    rc_batch *b = rc_db_batch(&s->db.batches);
    const rc_my_snap_table *t = &s->tables[s->ahead_table];
    rc_value *vals = rc_arena_alloc(&b->arena, (t->t->ncols ? t->t->ncols : 1) * sizeof *vals);
    if (!vals) return rc_my_source_nomem(err);
    rc_status st = rc_my_snap_row_parse(t, s->ahead_fields, s->ahead_lens, &b->arena, vals, err);
    if (st != RC_OK) return st;
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.op = RC_OP_READ;
    ev.src = (rc_origin){.kind = s->srv.mariadb ? RC_DB_MARIADB : RC_DB_MYSQL, .server = s->server, .version = s->version,
                         .db = t->t->db, .table = t->t->name};
    ev.pos.file = (rc_str){s->snap.file, strlen(s->snap.file)};
    ev.pos.offset = s->snap.offset, ev.pos.has_offset = true;
    ev.ts_us = s->snap_us, ev.has_ts = true;
    ev.ncols = t->t->ncols, ev.cols = t->cols, ev.cols_id = t, ev.dflts = t->dflts;
    ev.after = vals;
    return push(&b->events, &ev, err);
}

rc_status rc_my_source_snapshot_batch(void *arg, rc_error *err)
{
    my_source *s = arg;
    rc_batch *b = rc_db_batch(&s->db.batches);
    static const char *const marks[] = {"first", "true", "last"};
    while (b->n < RC_DB_BATCH_ITEMS && s->has_ahead) {
        if (*s->stop) return RC_OK;
        rc_source_item *it = rc_my_source_item_new(s);
        rc_error ierr;
        rc_error_clear(&ierr);
        rc_status st = read_event(s, &ierr);
        if (st != RC_OK) {
            const char *none = "";
            rc_my_source_item_bad(s, it, &ierr, (const uint8_t *)none, 0);
        }
        bool first = s->db.snap_rows == 0;
        s->db.snap_rows++;
        if (rc_my_source_snapshot_fetch(s, err) != RC_OK) return err->code;
        if (st == RC_OK) {
            rc_event *ev = &b->events.items[b->events.count - 1];
            const char *m = marks[!s->has_ahead ? 2 : first ? 0 : 1];
            ev->snapshot = (rc_str){m, strlen(m)};
        }
        rc_my_source_item_end(s, it);
        rc_db_item_order(&s->db, it, 'm', 's', 0, 0);
        if (st == RC_OK) it->raw = 1; /* counted as one message of the snapshot */
        if (st == RC_OK && s->cfg.max_events && ++s->row_events >= s->cfg.max_events) {
            s->db.ph = PH_DONE;
            return RC_OK;
        }
    }
    if (!s->has_ahead) s->db.ph = PH_SNAPSHOT_ACK;
    return RC_OK;
}

