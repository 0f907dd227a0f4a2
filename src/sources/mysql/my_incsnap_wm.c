/* The table watermarks of the MySQL/MariaDB source's incremental snapshots (docs/sources/mysql.md,
 * "Incremental snapshots": -o mysql.snapshot.watermark=table, what auto picks on MySQL): each
 * chunk framed by two rows INSERTed (autocommit) into the signal table, Debezium's way. The low
 * mark's row, then the chunk's plain SELECT, then the high mark's row. The stream reads the rows
 * back (rc_my_incsnap_signals): at the low mark the window opens, every change of the table
 * between the two marks drops its key from the chunk (the streamed change is newer), at the high
 * mark the rest is handed out. The marks are given to the core at the end of their transaction
 * (reach in my_incsnap.c), never inside one. Why it holds: the low mark's INSERT returns once it
 * is committed, and InnoDB commits in binlog order (MariaDB always, MySQL with
 * binlog_order_commits=ON, its default), so every transaction before it in the binlog is visible
 * to the SELECT that follows; whatever the SELECT saw committed before the high mark. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "sources/mysql/my_incsnap_int.h"

void rc_my_incsnap_wm_init(rc_my_incsnap *x)
{
    /* the process and the start (µs, hex): a restart (the same PID in a container) never takes
     * an older run's rows, still in the binlog after the checkpoint, for its own */
    snprintf(x->run, sizeof x->run, "%ld-%" PRIx64, (long)getpid(), (uint64_t)rc_db_wall_us());
}

/* This run's watermark id of chunk `chunk` into id (cap bytes). */
static void wm_id(const rc_my_incsnap *x, uint64_t chunk, bool low, char *id, size_t cap)
{
    snprintf(id, cap, "rowcast-wm-%s-%" PRIu64 "-%s", x->run, chunk, low ? "open" : "close");
}

/* A JSON string of `s` into b (quotes, backslashes and control characters escaped). */
static void json_str(rc_buf *b, const char *s)
{
    rc_buf_putc(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20) {
            char u[8];
            snprintf(u, sizeof u, "\\u%04x", c);
            rc_buf_puts(b, u);
            continue;
        }
        if (c == '"' || c == '\\') rc_buf_putc(b, '\\');
        rc_buf_putc(b, (char)c);
    }
    rc_buf_putc(b, '"');
}

rc_status rc_my_incsnap_wm_write(my_source *s, const rc_incsnap_table *t, uint64_t chunk, rc_incsnap_mark mark, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    bool low = mark == RC_INCSNAP_LOW;
    char id[96];
    wm_id(x, chunk, low, id, sizeof id);
    rc_buf d;
    rc_buf_init(&d, RC_BUF_DEFAULT_MAX);
    RC_BUF_LIT(&d, "{\"data-collection\":");
    json_str(&d, t->name);
    char tail[40];
    snprintf(tail, sizeof tail, ",\"chunk\":%" PRIu64 "}", chunk);
    rc_buf_puts(&d, tail);
    rc_buf_putc(&d, '\0');
    rc_status st = d.err ? rc_my_source_nomem(err) : rc_my_incsnap_session(s, err);
    if (st == RC_OK)
        st = rc_my_signal_insert(x->sql, &s->url, x->o.signal_table, id, low ? "snapshot-window-open" : "snapshot-window-close",
                                 d.data, err);
    rc_buf_fini(&d);
    unsigned e = x->sql ? mysql_errno(x->sql) : 0;
    if (st == RC_OK || !e || (st = rc_my_incsnap_again(x, st)) == RC_ERR_RETRY) return st;
    rc_error_clear(err); /* the first message wins: the statement's (all of its SQL) is replaced */
    return rc_error_set(err, st, RC_NO_OFFSET,
                        "incremental snapshot of %s: its %s watermark row not written into %s: error %u: %s; the table "
                        "watermark needs INSERT on it (GRANT INSERT ON %s TO the capture's user)%s", t->name, low ? "low" : "high",
                        x->o.signal_table, e, mysql_error(x->sql), x->o.signal_table,
                        s->srv.mariadb ? ", or -o mysql.snapshot.watermark=point (MariaDB: nothing written)" : "");
}

void rc_my_incsnap_wm_seen(rc_my_incsnap *x, rc_str id)
{
    char pre[64], want[96];
    int n = snprintf(pre, sizeof pre, "rowcast-wm-%s-", x->run);
    if (!x->table_wm || n <= 0 || id.n <= (size_t)n || id.n >= sizeof want || memcmp(id.p, pre, (size_t)n)) return;
    uint64_t chunk = 0;
    for (size_t i = (size_t)n; i < id.n && i < (size_t)n + 19 && id.p[i] >= '0' && id.p[i] <= '9'; i++)
        chunk = chunk * 10 + (uint64_t)(id.p[i] - '0');
    /* exactly the id this run writes for that chunk (no leading zero, no other tail): a user's
     * row that only looks like one is ignored */
    for (int low = 0; chunk && low < 2; low++) {
        wm_id(x, chunk, low, want, sizeof want);
        if (strlen(want) != id.n || memcmp(want, id.p, id.n)) continue;
        if (low) x->seen_low = chunk;
        else x->seen_high = chunk;
    }
}

bool rc_my_incsnap_event_key(const rc_my_snap_table *st, const rc_event *ev, const rc_value *row, rc_value *key)
{
    for (uint32_t k = 0; k < st->npk; k++) {
        const rc_str *name = &st->cols[st->pk[k]].name;
        uint32_t c = 0;
        while (c < ev->ncols && (ev->cols[c].name.n != name->n || strncasecmp(ev->cols[c].name.p, name->p, name->n))) c++;
        if (c == ev->ncols) return false;
        key[k] = row[c];
    }
    return true;
}

static bool same(rc_str a, rc_str b) { return a.n == b.n && (!a.n || !memcmp(a.p, b.p, a.n)); }

rc_status rc_my_incsnap_wm_change(my_source *s, const rc_event *ev, rc_error *err)
{
    rc_my_incsnap *x = s->inc;
    if (!x->table_wm || rc_incsnap_phase_of(x->core) != RC_INCSNAP_OPEN || x->cur >= x->ntabs) return RC_OK;
    inc_table *it = x->tabs[x->cur];
    if (!it->own || !same(ev->src.db, it->own->db) || !same(ev->src.table, it->own->name)) return RC_OK;
    if (ev->op == RC_OP_DDL && ev->ddl_kind.n == 8 && !memcmp(ev->ddl_kind.p, "TRUNCATE", 8))
        rc_incsnap_on_truncate(x->core, it->name);
    if (ev->op != RC_OP_INSERT && ev->op != RC_OP_UPDATE && ev->op != RC_OP_DELETE) return RC_OK;
    rc_value before[MAX_KEY], after[MAX_KEY];
    if ((ev->before && !rc_my_incsnap_event_key(&it->st, ev, ev->before, before)) ||
        (ev->after && !rc_my_incsnap_event_key(&it->st, ev, ev->after, after))) {
        /* a key column the event does not have (a DDL dropped it): which row changed is unknown */
        rc_incsnap_reread(x->core);
        rc_my_incsnap_say(s, x->cur, 0, "read again (a change without its key columns in the window)");
        return RC_OK;
    }
    return rc_incsnap_on_change(x->core, it->name, ev->before ? before : NULL, ev->after ? after : NULL, it->st.npk, err);
}
