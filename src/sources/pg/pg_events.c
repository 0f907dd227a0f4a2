/* pgoutput messages -> canonical events (pg_events.h). */
#include "sources/pg/pg_events.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/pg/pg_conn.h"
#include "sources/pg/pg_spill.h"
#include "core/fmt.h"

/* The columns of one relation version, built at its Relation message (or first use). */
typedef struct colset {
    const rc_pg_relation *rel; /* one reference held for the decoder's life */
    rc_column *cols;
    rc_pg_type *types; /* how each column's text is read */
    rc_str *dflts;     /* the columns' defaults (rc_event.dflts), NULL: none */
    uint32_t n;
    rc_str schema, table;
} colset;

/* A committed streamed transaction whose events are being released (rc_pg_events_drain). */
typedef struct release {
    rc_pg_spill *tx; /* NULL when it held no change */
    bool active, begun;
    uint32_t xid, index;
    uint64_t commit_lsn, end_lsn;
    int64_t commit_us;
    uint64_t last_commit; /* the commit before this transaction's (its events' last_commit_lsn) */
} release;

struct rc_pg_events {
    rc_str server, db;
    size_t max_bytes, spill_bytes, release_events;
    const char *spill_dir;
    rc_pg_key_fn *primary_key;
    void *key_ud;
    const rc_pg_types *types;
    uint64_t last_commit; /* the LSN of the last Commit (or Stream Commit) message seen; 0: none */
    rc_arena keep; /* column lists and the copies of server, db and spill_dir */
    colset **sets; /* by relation version, ascending */
    size_t nsets, capsets;
    colset *last;
    /* the open (not streamed) transaction, from Begin */
    bool in_tx;
    uint32_t xid;
    uint64_t final_lsn;
    uint64_t order_lsn; /* rc_pg_events_order_lsn */
    int64_t commit_us;
    uint32_t index;
    uint32_t stream_xid; /* the top-level transaction of the stream chunk being read */
    rc_pg_spill **held;  /* streamed transactions not committed yet */
    size_t nheld, capheld;
    size_t held_bytes;   /* their records in memory (spill_bytes caps it) */
    uint64_t file_bytes; /* ... and in spill files (max_bytes caps both together) */
    release rel;
};

rc_pg_events *rc_pg_events_new(const rc_pg_events_opts *o, const rc_pg_types *types)
{
    rc_pg_events *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    rc_arena_init(&e->keep);
    e->types = types;
    if (o) e->primary_key = o->primary_key, e->key_ud = o->key_ud;
    e->max_bytes = o && o->stream_max_bytes ? o->stream_max_bytes : (size_t)16 << 30;
    e->spill_bytes = o && o->spill_bytes ? o->spill_bytes : (size_t)8 << 20;
    e->release_events = o && o->release_events ? o->release_events : 1024;
    const char *sv = o && o->server ? o->server : "", *db = o && o->db ? o->db : "";
    const char *dir = o && o->spill_dir && *o->spill_dir ? o->spill_dir : getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    char *s1 = rc_arena_memdup(&e->keep, sv, strlen(sv)),
         *s2 = rc_arena_memdup(&e->keep, db, strlen(db)),
         *s3 = rc_arena_memdup(&e->keep, dir, strlen(dir) + 1);
    e->spill_dir = s3;
    if (!s1 || !s2 || !s3) {
        rc_pg_events_free(e);
        return NULL;
    }
    e->server = (rc_str){s1, strlen(s1)};
    e->db = (rc_str){s2, strlen(s2)};
    return e;
}

/* A held transaction ends: its bytes are no longer counted, its file goes. */
static void held_free(rc_pg_events *e, rc_pg_spill *h)
{
    if (!h) return;
    e->held_bytes -= rc_pg_spill_mem_bytes(h);
    e->file_bytes -= rc_pg_spill_file_bytes(h);
    rc_pg_spill_free(h);
}

/* Takes held transaction i out of the list (its bytes stay counted until held_free). */
static rc_pg_spill *held_take(rc_pg_events *e, size_t i)
{
    rc_pg_spill *h = e->held[i];
    memmove(e->held + i, e->held + i + 1, (e->nheld - i - 1) * sizeof *e->held);
    e->nheld--;
    return h;
}

static void release_end(rc_pg_events *e)
{
    held_free(e, e->rel.tx);
    memset(&e->rel, 0, sizeof e->rel);
}

void rc_pg_events_session_reset(rc_pg_events *e)
{
    while (e->nheld) held_free(e, held_take(e, e->nheld - 1));
    release_end(e);
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
    return !e->in_tx && !e->nheld && !e->rel.active;
}
size_t rc_pg_events_held_bytes(const rc_pg_events *e)
{
    return e->held_bytes;
}
uint64_t rc_pg_events_spilled_bytes(const rc_pg_events *e)
{
    return e->file_bytes;
}
bool rc_pg_events_pending(const rc_pg_events *e)
{
    return e->rel.active;
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
    uint16_t rank = 0, *ranks = NULL;
    bool *not_null = NULL;
    char **dtext = NULL;
    rc_str *dflts = NULL;
    /* FULL flags every column and NOTHING none: the primary key comes from the catalog, as
     * NOT NULL and the defaults do for every relation */
    if (e->primary_key && rel->ncols && (ranks = rc_arena_alloc(&e->keep, rel->ncols * sizeof *ranks)) &&
        (not_null = rc_arena_alloc(&e->keep, rel->ncols * sizeof *not_null)) &&
        (dtext = calloc(rel->ncols, sizeof *dtext))) {
        memset(not_null, 0, rel->ncols * sizeof *not_null);
        if (!e->primary_key(e->key_ud, rel, ranks, not_null, dtext) || (!full && rel->replident != RC_PG_REPLIDENT_NOTHING))
            ranks = NULL;
        for (uint32_t i = 0; i < rel->ncols; i++) {
            if (!dtext[i]) continue;
            if (!dflts && (dflts = rc_arena_alloc(&e->keep, rel->ncols * sizeof *dflts))) memset(dflts, 0, rel->ncols * sizeof *dflts);
            size_t dn = strlen(dtext[i]);
            char *dp = dn ? rc_arena_memdup(&e->keep, dtext[i], dn) : "";
            if (dflts && dp) dflts[i] = (rc_str){dp, dn};
            free(dtext[i]);
        }
        free(dtext);
    } else
        ranks = NULL;
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
        cols[i].pk = ranks ? ranks[i] : !full && (pc->flags & RC_PG_COLUMN_KEY) ? ++rank : 0;
        cols[i].nullable = !cols[i].pk && !(pc->flags & RC_PG_COLUMN_NOT_NULL) && !(not_null && not_null[i]);
    }
    *s = (colset){rel,
                  cols,
                  types,
                  dflts,
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
    rc_buf t = {b, 0, sizeof b, sizeof b, RC_OK}; /* by hand: snprintf was 700 instructions an event */
    rc_fmt_u64(&t, v);
    char *p = rc_arena_memdup(a, b, t.len);
    return p ? (rc_str){p, t.len} : (rc_str){0};
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
    ev->dflts = s->dflts;
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
                           uint64_t last_commit, rc_arena *a, rc_error *err)
{
    ev->pos.txid = text_u64(a, xid);
    if (!ev->pos.txid.p) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (last_commit && !(ev->pos.last_commit_lsn = text_lsn(a, last_commit)).p)
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
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

static rc_status row_events(rc_pg_events *e, const rc_pgo_msg *m, const uint8_t *msg, size_t len,
                            rc_arena *a, rc_event *evs, uint32_t *n, rc_error *err);

static rc_status no_memory(rc_error *err)
{
    return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
}

/* The held transaction xid (its place in the list in *at), created when asked and missing. */
static rc_pg_spill *held_get(rc_pg_events *e, uint32_t xid, bool create, size_t *at, rc_error *err)
{
    for (size_t i = 0; i < e->nheld; i++)
        if (rc_pg_spill_xid(e->held[i]) == xid) return *at = i, e->held[i];
    if (!create) return NULL;
    if (e->nheld == e->capheld) {
        size_t cap = e->capheld ? e->capheld * 2 : 4;
        rc_pg_spill **p = realloc(e->held, cap * sizeof *p);
        if (!p) return no_memory(err), NULL;
        e->held = p, e->capheld = cap;
    }
    rc_pg_spill *h = rc_pg_spill_new(xid, e->spill_dir);
    if (!h) return no_memory(err), NULL;
    *at = e->nheld;
    e->held[e->nheld++] = h;
    return h;
}

/* h's records in memory to its file, the counts kept. */
static rc_status spill(rc_pg_events *e, rc_pg_spill *h, rc_error *err)
{
    size_t mem = rc_pg_spill_mem_bytes(h);
    uint64_t file = rc_pg_spill_file_bytes(h);
    rc_status st = rc_pg_spill_flush(h, err);
    e->held_bytes -= mem - rc_pg_spill_mem_bytes(h);
    e->file_bytes += rc_pg_spill_file_bytes(h) - file;
    return st;
}

enum { SPILL_CHUNK = 64 << 10 }; /* what a transaction that has spilled gathers per write */

/* Room in memory for a record of `cost` bytes of h: past spill_bytes the transaction that
 * holds the most memory goes to its file (until it fits, or only this record would be left);
 * one that has a file already appends to it in chunks. */
static rc_status make_room(rc_pg_events *e, rc_pg_spill *h, size_t cost, rc_error *err)
{
    while (e->held_bytes > e->spill_bytes || cost > e->spill_bytes - e->held_bytes) {
        rc_pg_spill *big = NULL;
        for (size_t i = 0; i < e->nheld; i++)
            if (!big || rc_pg_spill_mem_bytes(e->held[i]) > rc_pg_spill_mem_bytes(big))
                big = e->held[i];
        if (!big || !rc_pg_spill_mem_bytes(big)) break;
        rc_status st = spill(e, big, err);
        if (st != RC_OK) return st;
    }
    if (rc_pg_spill_has_file(h) && rc_pg_spill_mem_bytes(h) + cost > SPILL_CHUNK)
        return spill(e, h, err);
    return RC_OK;
}

/* A change of a streamed transaction: its message is held as it came (pg_spill.h), its events
 * are built when Stream Commit releases it. */
static rc_status hold(rc_pg_events *e, const rc_pgo_msg *m, const uint8_t *msg, size_t len,
                      rc_error *err)
{
    bool trunc = m->kind == RC_PGO_TRUNCATE;
    const rc_pg_relation *const *rels = trunc ? m->u.truncate.rels : &m->u.change.rel;
    uint32_t nrels = trunc ? m->u.truncate.nrels : 1, top = e->stream_xid;
    for (uint32_t i = 0; i < nrels; i++) { /* a column type that does not resolve: now */
        const colset *s;
        rc_status st = set_of(e, rels[i], &s, err);
        if (st != RC_OK) return st;
    }
    if (!msg)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "pgoutput %s of streamed transaction %u: held as its message bytes, "
                            "which were not given",
                            rc_pgo_kind_name(m->kind), top);
    size_t at, cost = rc_pg_spill_record_size(len, nrels);
    if ((uint64_t)e->held_bytes + e->file_bytes + cost > e->max_bytes)
        return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET,
                            "streamed transaction %u: its held changes pass %zu bytes "
                            "(postgres.stream.max_bytes); raise it, "
                            "or capture with protocol version 1 (the server then keeps large "
                            "transactions on its own disk "
                            "until they commit)",
                            top, e->max_bytes);
    rc_pg_spill *h = held_get(e, top, true, &at, err);
    if (!h) return RC_ERR_NOMEM;
    rc_status st = make_room(e, h, cost, err);
    if (st == RC_OK) st = rc_pg_spill_add(h, msg, len, m->wal_start, m->xid, rels, nrels, err);
    if (st == RC_OK) e->held_bytes += cost;
    return st;
}

/* The events of a held record, its message decoded again against the relation versions it was
 * held with. An error's offset was in that message, which the caller never saw: the message
 * names the change by its LSN instead. */
static rc_status replay(rc_pg_events *e, const rc_pg_spill_rec *r, rc_arena *a, rc_event_list *out,
                        rc_error *err)
{
    rc_pgo_msg m;
    uint32_t n = r->msg[0] == RC_PGO_TRUNCATE ? r->nrels : 1;
    rc_status st =
        rc_pgo_decode_row(r->msg, r->len, r->wal_start, true, r->rels, r->nrels, a, &m, err);
    rc_event *evs = st == RC_OK ? rc_arena_alloc(a, n * sizeof *evs) : NULL;
    if (st == RC_OK && !evs) st = no_memory(err);
    if (st == RC_OK) st = row_events(e, &m, r->msg, r->len, a, evs, &n, err);
    for (uint32_t i = 0; i < n && st == RC_OK; i++) {
        st = tx_fields(&evs[i], e->rel.xid, e->rel.commit_us, e->rel.index + i, e->rel.last_commit, a, err);
        if (st == RC_OK) st = push(out, &evs[i], err);
    }
    if (st != RC_OK) {
        err->offset = RC_NO_OFFSET;
        return st;
    }
    e->rel.index += n;
    return RC_OK;
}

/* Up to `max` events of the transaction being released (BEGIN first, COMMIT last; a Truncate
 * whole). On error nothing is appended and the next call starts at the same place. */
static rc_status release_some(rc_pg_events *e, size_t max, rc_arena *a, rc_event_list *out,
                              rc_error *err)
{
    release *r = &e->rel;
    size_t mark = out->count, room = max ? max : e->release_events;
    uint64_t pos = r->tx ? rc_pg_spill_tell(r->tx) : 0;
    uint32_t index = r->index;
    bool begun = r->begun, done = false;
    rc_status st = RC_OK;
    if (!r->begun) {
        st = tx_event(e, RC_OP_BEGIN, r->xid, r->commit_lsn, 0, r->commit_us, 0, a, out, err);
        r->begun = true, room--;
    }
    while (st == RC_OK && room > 0) {
        rc_pg_spill_rec rec = {0};
        uint64_t at = r->tx ? rc_pg_spill_tell(r->tx) : 0;
        if (r->tx && (st = rc_pg_spill_next(r->tx, &rec, err)) != RC_OK) break;
        if (!rec.msg) {
            st = tx_event(e, RC_OP_COMMIT, r->xid, r->commit_lsn, r->end_lsn, r->commit_us,
                          r->index, a, out, err);
            done = st == RC_OK;
            break;
        }
        uint32_t n = rec.msg[0] == RC_PGO_TRUNCATE ? rec.nrels : 1;
        if (n > room && out->count > mark) {
            rc_pg_spill_seek(r->tx, at);
            break;
        }
        st = replay(e, &rec, a, out, err);
        room -= n < room ? n : room;
    }
    if (st != RC_OK) {
        out->count = mark;
        if (r->tx) rc_pg_spill_seek(r->tx, pos);
        r->index = index, r->begun = begun;
        return st;
    }
    if (done) release_end(e);
    return RC_OK;
}

/* Where Debezium's lastCommitLsn is: the XLogData start of the Commit message (the commit
 * record's LSN, which pgoutput also sends in the message). */
static uint64_t commit_position(const rc_pgo_msg *m)
{
    return m->wal_start ? m->wal_start : m->u.commit.commit_lsn;
}

static rc_status stream_commit(rc_pg_events *e, const rc_pgo_msg *m, rc_arena *a,
                               rc_event_list *out, rc_error *err)
{
    size_t at = 0;
    rc_pg_spill *h = held_get(e, m->u.commit.xid, false, &at, err);
    if (h) held_take(e, at);
    e->rel = (release){h,
                       true,
                       false,
                       m->u.commit.xid,
                       0,
                       m->u.commit.commit_lsn,
                       m->u.commit.end_lsn,
                       rc_pg_time_to_unix_us(m->u.commit.commit_time),
                       e->last_commit};
    e->order_lsn = m->u.commit.commit_lsn;
    rc_status st = release_some(e, e->release_events, a, out, err);
    if (st != RC_OK && !e->rel.begun) { /* nothing released: held as it was */
        if (h) {
            memmove(e->held + at + 1, e->held + at, (e->nheld - at) * sizeof *e->held);
            e->held[at] = h, e->nheld++;
        }
        memset(&e->rel, 0, sizeof e->rel);
        return st;
    }
    e->last_commit = commit_position(m); /* the next transaction's events name this one */
    return st;
}

rc_status rc_pg_events_drain(rc_pg_events *e, size_t max_events, rc_arena *a, rc_event_list *out,
                             rc_error *err)
{
    return e->rel.active ? release_some(e, max_events, a, out, err) : RC_OK;
}

static rc_status stream_abort(rc_pg_events *e, uint32_t xid, uint32_t subxid, rc_error *err)
{
    size_t at;
    rc_pg_spill *h = held_get(e, xid, false, &at, err);
    if (!h) return RC_OK;
    if (subxid == xid) {
        held_free(e, held_take(e, at));
        return RC_OK;
    }
    /* a subtransaction: its records stay where they are, in memory or in the file, and are
     * skipped when read back (the count of held bytes does not go down) */
    return rc_pg_spill_skip_sub(h, subxid, err);
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
    if (e->rel.active)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "streamed transaction %u is not released yet: rc_pg_events_drain "
                            "until rc_pg_events_pending is false, then the next message",
                            e->rel.xid);
    switch (m->kind) {
    case RC_PGO_BEGIN:
        e->in_tx = true;
        e->xid = m->u.begin.xid, e->final_lsn = e->order_lsn = m->u.begin.final_lsn;
        e->commit_us = rc_pg_time_to_unix_us(m->u.begin.commit_time);
        e->index = 0;
        return tx_event(e, RC_OP_BEGIN, e->xid, e->final_lsn, 0, e->commit_us, 0, a, out, err);
    case RC_PGO_COMMIT: {
        if (!e->in_tx)
            return rc_error_set(err, RC_ERR_SCHEMA, 0, "pgoutput Commit without a Begin before it");
        rc_status st = tx_event(e, RC_OP_COMMIT, e->xid, m->u.commit.commit_lsn,
                                m->u.commit.end_lsn, e->commit_us, e->index, a, out, err);
        if (st == RC_OK) e->in_tx = false, e->last_commit = commit_position(m);
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
        if (m->streamed) return hold(e, m, msg, len, err);
        rc_event *evs = rc_arena_alloc(a, n * sizeof *evs);
        if (!evs) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        rc_status st = row_events(e, m, msg, len, a, evs, &n, err);
        if (st != RC_OK) return st;
        if (!e->in_tx)
            return rc_error_set(err, RC_ERR_SCHEMA, 0,
                                "pgoutput %s outside a transaction (no Begin before it)",
                                rc_pgo_kind_name(m->kind));
        size_t mark = out->count;
        for (uint32_t i = 0; i < n && st == RC_OK; i++) {
            if ((st = tx_fields(&evs[i], e->xid, e->commit_us, e->index + i, e->last_commit, a, err)) == RC_OK)
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
        return stream_abort(e, m->u.stream_abort.xid, m->u.stream_abort.subxid, err);
    default:
        break; /* Type, Origin, Message, Stream Stop: no event */
    }
    return RC_OK;
}

uint64_t rc_pg_events_order_lsn(const rc_pg_events *e) { return e->order_lsn; }

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
