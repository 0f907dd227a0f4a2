/* pgoutput messages -> canonical events (pg_events.h). */
#include "sources/pg/pg_events.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/pg/pg_conn.h"

/* The columns of one relation version, built at its Relation message (or first use). */
typedef struct colset {
    const rc_pg_relation *rel; /* one reference held for the decoder's life */
    rc_column *cols;
    rc_pg_type *types; /* how each column's text is read */
    uint32_t n;
    rc_str schema, table;
} colset;

/* A held event of a streamed transaction: built in the transaction's arena. */
typedef struct held_ev {
    rc_event ev;
    uint32_t subxid;
} held_ev;

typedef struct held_tx {
    uint32_t xid;
    rc_arena a;
    held_ev *evs;
    size_t n, cap;
    size_t bytes; /* what this transaction counts against stream_max_bytes */
} held_tx;

struct rc_pg_events {
    rc_str server, db;
    size_t max_bytes;
    const rc_pg_types *types;
    rc_arena keep; /* column lists and the copies of server and db */
    colset **sets; /* by relation version, ascending */
    size_t nsets, capsets;
    colset *last;
    /* the open (not streamed) transaction, from Begin */
    bool in_tx;
    uint32_t xid;
    uint64_t final_lsn;
    int64_t commit_us;
    uint32_t index;
    uint32_t stream_xid; /* the top-level transaction of the stream chunk being read */
    held_tx *held;
    size_t nheld, capheld;
    size_t held_bytes;
};

rc_pg_events *rc_pg_events_new(const rc_pg_events_opts *o, const rc_pg_types *types)
{
    rc_pg_events *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    rc_arena_init(&e->keep);
    e->types = types;
    e->max_bytes = o && o->stream_max_bytes ? o->stream_max_bytes : (size_t)256 << 20;
    const char *sv = o && o->server ? o->server : "", *db = o && o->db ? o->db : "";
    char *s1 = rc_arena_memdup(&e->keep, sv, strlen(sv)),
         *s2 = rc_arena_memdup(&e->keep, db, strlen(db));
    if (!s1 || !s2) {
        rc_pg_events_free(e);
        return NULL;
    }
    e->server = (rc_str){s1, strlen(s1)};
    e->db = (rc_str){s2, strlen(s2)};
    return e;
}

static void held_drop(rc_pg_events *e, size_t i)
{
    held_tx *h = &e->held[i];
    e->held_bytes -= h->bytes;
    rc_arena_fini(&h->a);
    free(h->evs);
    memmove(h, h + 1, (e->nheld - i - 1) * sizeof *h);
    e->nheld--;
}

void rc_pg_events_session_reset(rc_pg_events *e)
{
    while (e->nheld) held_drop(e, e->nheld - 1);
    e->in_tx = false;
}

void rc_pg_events_free(rc_pg_events *e)
{
    if (!e) return;
    rc_pg_events_session_reset(e);
    free(e->held);
    for (size_t i = 0; i < e->nsets; i++) rc_pg_relation_release(e->sets[i]->rel);
    free(e->sets);
    rc_arena_fini(&e->keep);
    free(e);
}

bool rc_pg_events_idle(const rc_pg_events *e)
{
    return !e->in_tx && !e->nheld;
}
size_t rc_pg_events_held_bytes(const rc_pg_events *e)
{
    return e->held_bytes;
}

/* ---- column lists ---- */

static colset *set_find(rc_pg_events *e, const rc_pg_relation *rel, size_t *at)
{
    size_t lo = 0, hi = e->nsets;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (e->sets[mid]->rel->version < rel->version)
            lo = mid + 1;
        else
            hi = mid;
    }
    *at = lo;
    return lo < e->nsets && e->sets[lo]->rel == rel ? e->sets[lo] : NULL;
}

static rc_status set_of(rc_pg_events *e, const rc_pg_relation *rel, const colset **out,
                        rc_error *err)
{
    if (e->last && e->last->rel == rel) return *out = e->last, RC_OK;
    size_t at;
    colset *s = set_find(e, rel, &at);
    if (s) return *out = e->last = s, RC_OK;
    if (e->nsets == e->capsets) {
        size_t cap = e->capsets ? e->capsets * 2 : 16;
        colset **p = realloc(e->sets, cap * sizeof *p);
        if (!p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        e->sets = p, e->capsets = cap;
    }
    /* a column type that does not resolve leaves its bytes in the keep arena (it never shrinks) */
    s = rc_arena_alloc(&e->keep, sizeof *s);
    rc_column *cols = rel->ncols ? rc_arena_alloc(&e->keep, rel->ncols * sizeof *cols) : NULL;
    rc_pg_type *types = rel->ncols ? rc_arena_alloc(&e->keep, rel->ncols * sizeof *types) : NULL;
    if (!s || (rel->ncols && (!cols || !types)))
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    bool full = rel->replident == RC_PG_REPLIDENT_FULL;
    uint16_t rank = 0;
    for (uint32_t i = 0; i < rel->ncols; i++) {
        const rc_pg_column *pc = &rel->cols[i];
        rc_status st =
            rc_pg_type_resolve(e->types, pc->type_oid, pc->typmod, &e->keep, &types[i], err);
        if (st != RC_OK) {
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            err->code = RC_OK, err->message[0] = 0;
            return rc_error_set(err, st, RC_NO_OFFSET, "relation %s.%s column \"%s\": %s",
                                rel->nspname, rel->relname, pc->name, why);
        }
        memset(&cols[i], 0, sizeof cols[i]);
        cols[i].name = (rc_str){pc->name, strlen(pc->name)};
        cols[i].type = types[i].type;
        cols[i].pk = !full && (pc->flags & RC_PG_COLUMN_KEY) ? ++rank : 0;
        cols[i].nullable = !cols[i].pk;
    }
    *s = (colset){rel,
                  cols,
                  types,
                  rel->ncols,
                  {rel->nspname, strlen(rel->nspname)},
                  {rel->relname, strlen(rel->relname)}};
    rc_pg_relation_retain(rel);
    memmove(e->sets + at + 1, e->sets + at, (e->nsets - at) * sizeof *e->sets);
    e->sets[at] = s;
    e->nsets++;
    return *out = e->last = s, RC_OK;
}

/* ---- row images ---- */

static rc_status value_error(const colset *s, const rc_pgo_msg *m, const uint8_t *msg, size_t len,
                             const rc_pgo_datum *d, rc_error *err)
{
    char lsn[RC_PG_LSN_MAX], why[sizeof err->message];
    rc_pg_lsn_format(m->wal_start, lsn);
    snprintf(why, sizeof why, "%s", err->message);
    rc_status code = err->code;
    size_t off = err->offset;
    if (msg && d->data >= msg && d->data <= msg + len && off != RC_NO_OFFSET)
        off += (size_t)(d->data - msg);
    else
        off = RC_NO_OFFSET;
    err->code = RC_OK, err->message[0] = 0;
    if (!m->kind) /* a snapshot row (rc_pg_events_read): no message, no LSN */
        return rc_error_set(err, code, off, "snapshot row of %.*s.%.*s: %s", (int)s->schema.n,
                            s->schema.p, (int)s->table.n, s->table.p, why);
    return rc_error_set(err, code, off, "pgoutput %s of %.*s.%.*s at LSN %s: %s",
                        rc_pgo_kind_name(m->kind), (int)s->schema.n, s->schema.p, (int)s->table.n,
                        s->table.p, lsn, why);
}

/* The values of tuple t; `old` (may be NULL) is the old row an unchanged value is taken from. */
static rc_status image(const colset *s, const rc_pgo_msg *m, const uint8_t *msg, size_t len,
                       const rc_pgo_tuple *t, const rc_pgo_tuple *old, rc_arena *a,
                       const rc_value **out, rc_error *err)
{
    rc_value *v = rc_arena_alloc(a, (s->n ? s->n : 1) * sizeof *v);
    if (!v) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < s->n; i++) {
        const rc_pgo_datum *d = &t->cols[i];
        if (d->kind == RC_PGO_UNCHANGED && old && old->cols[i].kind == RC_PGO_TEXT)
            d = &old->cols[i];
        memset(&v[i], 0, sizeof v[i]);
        switch (d->kind) {
        case RC_PGO_NULL:
            v[i].kind = RC_V_NULL;
            break;
        case RC_PGO_UNCHANGED:
            v[i].kind = RC_V_UNAVAILABLE;
            break;
        case RC_PGO_TEXT: {
            rc_status st = rc_pg_value_parse(&s->types[i], &s->cols[i], (const char *)d->data,
                                             d->len, a, &v[i], err);
            if (st != RC_OK) return value_error(s, m, msg, len, d, err);
            break;
        }
        default: /* binary 'true' is never asked for */
            rc_error_set(err, RC_ERR_UNSUPPORTED, 0,
                         "column \"%.*s\": a binary value (START_REPLICATION asked for text)",
                         (int)s->cols[i].name.n, s->cols[i].name.p);
            return value_error(s, m, msg, len, d, err);
        }
    }
    *out = v;
    return RC_OK;
}

static rc_str text_u64(rc_arena *a, uint64_t v)
{
    char b[24];
    int n = snprintf(b, sizeof b, "%llu", (unsigned long long)v);
    char *p = rc_arena_memdup(a, b, (size_t)n);
    return p ? (rc_str){p, (size_t)n} : (rc_str){0};
}

static rc_str text_lsn(rc_arena *a, uint64_t lsn)
{
    char b[RC_PG_LSN_MAX];
    rc_pg_lsn_format(lsn, b);
    char *p = rc_arena_memdup(a, b, strlen(b));
    return p ? (rc_str){p, strlen(p)} : (rc_str){0};
}

static void origin_of(const rc_pg_events *e, const colset *s, rc_event *ev)
{
    ev->src.kind = RC_DB_POSTGRES;
    ev->src.server = e->server;
    ev->src.db = e->db;
    ev->src.schema = s->schema;
    ev->src.table = s->table;
    ev->ncols = s->n;
    ev->cols = s->cols;
    ev->cols_id = s;
}

/* The row event(s) of an Insert, Update or Delete, or of a Truncate, into ev[0..*n) (at most
 * one per relation); transaction fields are filled by the caller. */
static rc_status change_event(rc_pg_events *e, const rc_pgo_msg *m, const uint8_t *msg, size_t len,
                              rc_arena *a, rc_event *ev, rc_error *err)
{
    const colset *s;
    rc_status st = set_of(e, m->u.change.rel, &s, err);
    if (st != RC_OK) return st;
    memset(ev, 0, sizeof *ev);
    origin_of(e, s, ev);
    ev->op = m->kind == RC_PGO_INSERT   ? RC_OP_INSERT
             : m->kind == RC_PGO_UPDATE ? RC_OP_UPDATE
                                        : RC_OP_DELETE;
    char ok = m->u.change.old_kind;
    const rc_pgo_tuple *old = ok ? &m->u.change.old_tuple : NULL;
    if (old && (st = image(s, m, msg, len, old, NULL, a, &ev->before, err)) != RC_OK) return st;
    ev->before_key_only = ok == 'K';
    if (m->kind != RC_PGO_DELETE &&
        (st = image(s, m, msg, len, &m->u.change.new_tuple, ok == 'O' ? old : NULL, a, &ev->after,
                    err)) != RC_OK)
        return st;
    ev->pos.lsn = text_lsn(a, m->wal_start);
    if (!ev->pos.lsn.p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    return RC_OK;
}

/* The transaction's fields of a row event. */
static rc_status tx_fields(rc_event *ev, uint32_t xid, int64_t commit_us, uint32_t index,
                           rc_arena *a, rc_error *err)
{
    ev->pos.txid = text_u64(a, xid);
    if (!ev->pos.txid.p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    ev->pos.tx_index = index, ev->pos.has_tx_index = true;
    ev->ts_us = commit_us, ev->has_ts = true;
    return RC_OK;
}

static rc_status push(rc_event_list *out, const rc_event *ev, rc_error *err)
{
    rc_event *slot = rc_event_list_push(out);
    if (!slot) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    *slot = *ev;
    return RC_OK;
}

/* BEGIN or COMMIT of transaction xid. */
static rc_status tx_event(const rc_pg_events *e, rc_op op, uint32_t xid, uint64_t commit_lsn,
                          uint64_t end_lsn, int64_t commit_us, uint32_t count, rc_arena *a,
                          rc_event_list *out, rc_error *err)
{
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.op = op;
    ev.src.kind = RC_DB_POSTGRES, ev.src.server = e->server, ev.src.db = e->db;
    ev.pos.txid = text_u64(a, xid);
    ev.pos.lsn = text_lsn(a, commit_lsn);
    if (op == RC_OP_COMMIT) {
        ev.pos.checkpoint = text_lsn(a, end_lsn);
        ev.pos.tx_count = count, ev.pos.has_tx_count = true;
    }
    ev.ts_us = commit_us, ev.has_ts = true;
    if (!ev.pos.txid.p || !ev.pos.lsn.p || (op == RC_OP_COMMIT && !ev.pos.checkpoint.p))
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    return push(out, &ev, err);
}

/* ---- streamed transactions ---- */

static held_tx *held_get(rc_pg_events *e, uint32_t xid, bool create, rc_error *err)
{
    for (size_t i = 0; i < e->nheld; i++)
        if (e->held[i].xid == xid) return &e->held[i];
    if (!create) return NULL;
    if (e->nheld == e->capheld) {
        size_t cap = e->capheld ? e->capheld * 2 : 4;
        held_tx *p = realloc(e->held, cap * sizeof *p);
        if (!p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"), NULL;
        e->held = p, e->capheld = cap;
    }
    held_tx *h = &e->held[e->nheld++];
    memset(h, 0, sizeof *h);
    h->xid = xid;
    rc_arena_init(&h->a);
    return h;
}

/* What an event costs while held: its images and the message it came from (an upper bound of
 * its strings). */
static size_t held_cost(const rc_event *ev, size_t msg_len)
{
    return sizeof(held_ev) + msg_len +
           ev->ncols * sizeof(rc_value) * ((ev->before != NULL) + (ev->after != NULL));
}

static rc_status hold(rc_pg_events *e, uint32_t top, uint32_t subxid, const rc_event *ev,
                      size_t cost, rc_error *err)
{
    if (e->held_bytes + cost > e->max_bytes)
        return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET,
                            "streamed transaction %u: its held changes pass %zu bytes "
                            "(postgres.stream.max_bytes); raise it, "
                            "or capture with protocol version 1 (the server then keeps large "
                            "transactions on its own disk "
                            "until they commit)",
                            top, e->max_bytes);
    held_tx *h = held_get(e, top, false, err);
    if (h->n == h->cap) {
        size_t cap = h->cap ? h->cap * 2 : 64;
        held_ev *p = realloc(h->evs, cap * sizeof *p);
        if (!p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        h->evs = p, h->cap = cap;
    }
    h->evs[h->n++] = (held_ev){*ev, subxid};
    h->bytes += cost, e->held_bytes += cost;
    return RC_OK;
}

static rc_status copy_str(rc_arena *a, rc_str *s)
{
    if (!s->n) return RC_OK;
    char *p = rc_arena_memdup(a, s->p, s->n);
    if (!p) return RC_ERR_NOMEM;
    s->p = p;
    return RC_OK;
}

/* A held image copied into the caller's arena (the held one goes with its transaction). */
static rc_status copy_image(rc_arena *a, const rc_value *src, uint32_t n, const rc_value **out)
{
    if (!src) return RC_OK;
    rc_value *v = rc_arena_alloc(a, (n ? n : 1) * sizeof *v);
    if (!v) return RC_ERR_NOMEM;
    memcpy(v, src, n * sizeof *v);
    for (uint32_t i = 0; i < n; i++) {
        rc_status st = RC_OK;
        switch (v[i].kind) {
        case RC_V_NULL:
        case RC_V_BOOL:
        case RC_V_INT:
        case RC_V_UINT:
        case RC_V_BITS:
        case RC_V_FLOAT32:
        case RC_V_FLOAT64:
        case RC_V_DATE:
        case RC_V_TIME:
        case RC_V_TIMESTAMP:
        case RC_V_UNAVAILABLE:
            break;
        case RC_V_DECIMAL: {
            char *p = rc_arena_memdup(a, v[i].dec.digits, v[i].dec.ndigits);
            if (!p) return RC_ERR_NOMEM;
            v[i].dec.digits = p;
            break;
        }
        case RC_V_DATETIME:
            st = copy_str(a, &v[i].dt.zone);
            break;
        default:
            st = copy_str(a, &v[i].s);
            break;
        }
        if (st != RC_OK) return st;
    }
    *out = v;
    return RC_OK;
}

static rc_status stream_commit(rc_pg_events *e, const rc_pgo_msg *m, rc_arena *a,
                               rc_event_list *out, rc_error *err)
{
    uint32_t xid = m->u.commit.xid;
    int64_t us = rc_pg_time_to_unix_us(m->u.commit.commit_time);
    held_tx *h = held_get(e, xid, false, err);
    size_t n = h ? h->n : 0, mark = out->count;
    rc_status st = tx_event(e, RC_OP_BEGIN, xid, m->u.commit.commit_lsn, 0, us, 0, a, out, err);
    for (size_t i = 0; st == RC_OK && i < n; i++) {
        rc_event ev = h->evs[i].ev;
        ev.before = ev.after = NULL;
        if (copy_image(a, h->evs[i].ev.before, ev.ncols, &ev.before) != RC_OK ||
            copy_image(a, h->evs[i].ev.after, ev.ncols, &ev.after) != RC_OK ||
            copy_str(a, &ev.pos.lsn) != RC_OK)
            st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        if (st == RC_OK) st = tx_fields(&ev, xid, us, (uint32_t)i, a, err);
        if (st == RC_OK) st = push(out, &ev, err);
    }
    if (st == RC_OK)
        st = tx_event(e, RC_OP_COMMIT, xid, m->u.commit.commit_lsn, m->u.commit.end_lsn, us,
                      (uint32_t)n, a, out, err);
    if (st != RC_OK) {
        out->count = mark;
        return st;
    }
    if (h) held_drop(e, (size_t)(h - e->held));
    return RC_OK;
}

static void stream_abort(rc_pg_events *e, uint32_t xid, uint32_t subxid)
{
    held_tx *h = held_get(e, xid, false, NULL);
    if (!h) return;
    if (subxid == xid) {
        held_drop(e, (size_t)(h - e->held));
        return;
    }
    /* a subtransaction: its changes go, the rest stay in order (their memory stays in the
     * transaction's arena until it ends; the count of held bytes does not go down) */
    size_t k = 0;
    for (size_t i = 0; i < h->n; i++)
        if (h->evs[i].subxid != subxid) h->evs[k++] = h->evs[i];
    h->n = k;
}

/* ---- messages ---- */

static rc_status row_events(rc_pg_events *e, const rc_pgo_msg *m, const uint8_t *msg, size_t len,
                            rc_arena *a, rc_event *evs, uint32_t *n, rc_error *err)
{
    if (m->kind != RC_PGO_TRUNCATE) {
        *n = 1;
        return change_event(e, m, msg, len, a, evs, err);
    }
    rc_str lsn = text_lsn(a, m->wal_start);
    if (!lsn.p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < m->u.truncate.nrels; i++) {
        const colset *s;
        rc_status st = set_of(e, m->u.truncate.rels[i], &s, err);
        if (st != RC_OK) return st;
        memset(&evs[i], 0, sizeof evs[i]);
        origin_of(e, s, &evs[i]);
        evs[i].op = RC_OP_TRUNCATE;
        evs[i].pos.lsn = lsn;
    }
    *n = m->u.truncate.nrels;
    return RC_OK;
}

rc_status rc_pg_events_add(rc_pg_events *e, const rc_pgo_msg *m, const uint8_t *msg, size_t len,
                           rc_arena *a, rc_event_list *out, rc_error *err)
{
    switch (m->kind) {
    case RC_PGO_BEGIN:
        e->in_tx = true;
        e->xid = m->u.begin.xid, e->final_lsn = m->u.begin.final_lsn;
        e->commit_us = rc_pg_time_to_unix_us(m->u.begin.commit_time);
        e->index = 0;
        return tx_event(e, RC_OP_BEGIN, e->xid, e->final_lsn, 0, e->commit_us, 0, a, out, err);
    case RC_PGO_COMMIT: {
        if (!e->in_tx)
            return rc_error_set(err, RC_ERR_SCHEMA, 0, "pgoutput Commit without a Begin before it");
        rc_status st = tx_event(e, RC_OP_COMMIT, e->xid, m->u.commit.commit_lsn,
                                m->u.commit.end_lsn, e->commit_us, e->index, a, out, err);
        if (st == RC_OK) e->in_tx = false;
        return st;
    }
    case RC_PGO_RELATION: {
        const colset *s;
        return set_of(e, m->u.relation.rel, &s, err);
    }
    case RC_PGO_INSERT:
    case RC_PGO_UPDATE:
    case RC_PGO_DELETE:
    case RC_PGO_TRUNCATE: {
        uint32_t n = m->kind == RC_PGO_TRUNCATE ? m->u.truncate.nrels : 1;
        if (!n) return RC_OK;
        bool streamed = m->streamed;
        rc_arena *to = a;
        held_tx *h = NULL;
        if (streamed) {
            if (!(h = held_get(e, e->stream_xid, true, err))) return err->code;
            to = &h->a;
        }
        rc_event *evs = rc_arena_alloc(to, n * sizeof *evs);
        if (!evs) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        rc_status st = row_events(e, m, msg, len, to, evs, &n, err);
        if (st != RC_OK) return st;
        if (streamed) {
            for (uint32_t i = 0; i < n && st == RC_OK; i++)
                st = hold(e, h->xid, m->xid, &evs[i], held_cost(&evs[i], len / n + 1), err);
            return st;
        }
        if (!e->in_tx)
            return rc_error_set(err, RC_ERR_SCHEMA, 0,
                                "pgoutput %s outside a transaction (no Begin before it)",
                                rc_pgo_kind_name(m->kind));
        size_t mark = out->count;
        for (uint32_t i = 0; i < n && st == RC_OK; i++) {
            if ((st = tx_fields(&evs[i], e->xid, e->commit_us, e->index + i, a, err)) == RC_OK)
                st = push(out, &evs[i], err);
        }
        if (st != RC_OK) {
            out->count = mark;
            return st;
        }
        e->index += n;
        return RC_OK;
    }
    case RC_PGO_STREAM_START:
        e->stream_xid = m->u.stream_start.xid;
        return RC_OK;
    case RC_PGO_STREAM_COMMIT:
        return stream_commit(e, m, a, out, err);
    case RC_PGO_STREAM_ABORT:
        stream_abort(e, m->u.stream_abort.xid, m->u.stream_abort.subxid);
        return RC_OK;
    default:
        break; /* Type, Origin, Message, Stream Stop: no event */
    }
    return RC_OK;
}

rc_status rc_pg_events_read(rc_pg_events *e, const rc_pg_relation *rel, const rc_pgo_tuple *row,
                            rc_arena *a, rc_event_list *out, rc_error *err)
{
    const colset *s;
    rc_status st = set_of(e, rel, &s, err);
    if (st != RC_OK) return st;
    if (row->ncols != s->n)
        return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET,
                            "snapshot row of %s.%s has %u columns, the table %u", rel->nspname,
                            rel->relname, row->ncols, s->n);
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    origin_of(e, s, &ev);
    ev.op = RC_OP_READ;
    rc_pgo_msg none = {0};
    if ((st = image(s, &none, NULL, 0, row, NULL, a, &ev.after, err)) != RC_OK) return st;
    return push(out, &ev, err);
}
