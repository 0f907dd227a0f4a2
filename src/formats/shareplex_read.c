/* OMS "shareplex", reader side (docs/formats/oms-shareplex.md, "Reading"): {data, meta, key, sql}.
 * No column types: they come from the values, as for the default format. An UPDATE's "key" is
 * the whole before image and its "data" the changed columns. */
#include <stdlib.h>
#include <string.h>
#include "formats/oms_default_read.h"
#include "formats/shareplex_read.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsondec.h"

typedef struct sp_dec {
    rc_jsondec jd; /* the parsed message, its arena, the type cache */
    rc_tz tz; /* meta.time / posttime are wall clock in this zone */
} sp_dec;

rc_status rc_sp_dec_new(const rc_options *o, void **out, rc_error *err)
{
    rc_sp_opts so = {0};
    rc_status st = rc_options_parse(o, "shareplex", rc_sp_options, &so, err);
    if (st == RC_OK) st = rc_jsondec_new(sizeof(sp_dec), out, err);
    if (st == RC_OK) ((sp_dec *)*out)->tz = so.tz;
    return st;
}

void rc_sp_dec_free(void *p) { rc_jsondec_free(p); }

typedef struct ctx {
    rc_jread r; /* the message, the events' arena, the error */
    sp_dec *d;
} ctx;

static rc_status need(const ctx *c, uint32_t obj, const char *key, rc_jtype t, uint32_t *out)
{
    uint32_t v = rc_json_get(c->r.j, obj, key);
    if (!v) return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, obj)->off, "a SharePlex message needs \"%s\"", key);
    if (rc_jread_node(&c->r, v)->type != t)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, v)->off, "\"%s\" must be %s (found %s)", key, rc_jtype_name(t), rc_jtype_name((rc_jtype)rc_jread_node(&c->r, v)->type));
    *out = v;
    return RC_OK;
}

/* meta.time / posttime, "YYYY-MM-DDTHH:mm:ss" wall clock, into µs since the epoch. */
static rc_status wall_time(const ctx *c, uint32_t meta, const char *key, int64_t *us, bool *has)
{
    uint32_t v = rc_json_get(c->r.j, meta, key);
    rc_datetime dt;
    *has = false;
    if (!v || rc_jread_node(&c->r, v)->type == RC_J_NULL) return RC_OK;
    if (rc_jread_node(&c->r, v)->type != RC_J_STRING || !rc_parse_datetime(rc_jread_node(&c->r, v)->s, rc_jread_node(&c->r, v)->n, &dt) || dt.zone.n)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, v)->off, "meta.%s must be a time like 2020-11-25T00:01:02", key);
    int64_t local;
    if (!rc_datetime_epoch_us(&dt, &local) || __builtin_sub_overflow(local, (int64_t)rc_tz_offset_of_local(&c->d->tz, rc_datetime_epoch_sec(&dt)) * 1000000, us))
        return rc_error_set(c->r.err, RC_ERR_RANGE, rc_jread_node(&c->r, v)->off, "meta.%s: %.*s is beyond the microseconds since 1970 that 64 bits hold", key,
                            (int)(rc_jread_node(&c->r, v)->n > 30 ? 30 : rc_jread_node(&c->r, v)->n), rc_jread_node(&c->r, v)->s);
    *has = true;
    return RC_OK;
}

/* The key columns: rowid is "<db>.<table>-<key values joined by \u0001>"; each value is matched
 * to the first not yet used column (in order) whose value in `row` has that text. */
static rc_status key_columns(const ctx *c, uint32_t rowid, size_t prefix, uint32_t row, rc_event *ev)
{
    const rc_jnode *r = rc_jread_node(&c->r, rowid);
    if (r->n <= prefix) return RC_OK;
    rc_column *cols = (rc_column *)ev->cols;
    uint16_t pos = 0;
    for (size_t s = prefix; s <= r->n;) {
        const char *e = memchr(r->s + s, '\x01', r->n - s);
        size_t len = e ? (size_t)(e - (r->s + s)) : r->n - s;
        uint32_t i = 0;
        for (uint32_t k = rc_jread_node(&c->r, row)->first; k; k = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->next, i++) {
            const rc_jnode *v = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next);
            if (!cols[i].pk && (v->type == RC_J_STRING || v->type == RC_J_NUMBER) && v->n == len && !memcmp(v->s, r->s + s, len)) break;
        }
        if (i == ev->ncols)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, r->off, "meta.rowid holds key value \"%.*s\", which no column of the row has", (int)(len > 40 ? 40 : len),
                                r->s + s);
        cols[i].pk = ++pos;
        cols[i].nullable = false;
        s += len + 1;
    }
    return RC_OK;
}

rc_status rc_sp_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    sp_dec *d = p;
    ctx c = {.d = d};
    rc_status st = rc_jsondec_object(&d->jd, msg, n, a, "a SharePlex message", &c.r, err);
    if (st != RC_OK) return st;
    uint32_t meta = 0, data = 0, opn = 0, table = 0, rowid = 0; /* set by need() (GCC cannot tell) */
    if ((st = need(&c, 0, "meta", RC_J_OBJECT, &meta)) != RC_OK || (st = need(&c, 0, "data", RC_J_OBJECT, &data)) != RC_OK ||
        (st = need(&c, meta, "op", RC_J_STRING, &opn)) != RC_OK || (st = need(&c, meta, "table", RC_J_STRING, &table)) != RC_OK ||
        (st = need(&c, meta, "rowid", RC_J_STRING, &rowid)) != RC_OK)
        return st;
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    const rc_jnode *op = rc_jread_node(&c.r, opn);
    if (op->n == 3 && !memcmp(op->s, "ins", 3)) ev.op = RC_OP_INSERT;
    else if (op->n == 3 && !memcmp(op->s, "upd", 3)) ev.op = RC_OP_UPDATE;
    else if (op->n == 3 && !memcmp(op->s, "del", 3)) ev.op = RC_OP_DELETE;
    else if (op->n == 3 && !memcmp(op->s, "ddl", 3)) ev.op = RC_OP_DDL;
    else return rc_error_set(err, RC_ERR_SCHEMA, op->off, "unknown meta.op (expected ins, upd, del or ddl)");
    /* meta.table "<db>.<table>" (SharePlex's owner.table) */
    const rc_jnode *t = rc_jread_node(&c.r, table);
    char *tp = rc_arena_memdup(a, t->s, t->n);
    if (!tp) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    const char *dot = memchr(tp, '.', t->n);
    if (!dot) return rc_error_set(err, RC_ERR_SCHEMA, t->off, "meta.table must be <db>.<table>");
    ev.src.db = (rc_str){tp, (size_t)(dot - tp)};
    ev.src.table = (rc_str){dot + 1, t->n - (size_t)(dot - tp) - 1};
    if (!rc_event_list_accepts(out, ev.src.db, ev.src.table)) return RC_OK;
    int64_t us;
    bool h;
    if ((st = wall_time(&c, meta, "time", &us, &h)) != RC_OK) return st;
    if (h) ev.ts_us = us, ev.has_ts = true;
    if ((st = wall_time(&c, meta, "posttime", &us, &h)) != RC_OK) return st;
    if (h) ev.proc_us = us, ev.has_proc = true;
    /* idx "i/n": the row's place in its transaction ("0/0": not known) */
    uint32_t idx = rc_json_get(c.r.j, meta, "idx"), seq = rc_json_get(c.r.j, meta, "seq"), trans = rc_json_get(c.r.j, meta, "trans"),
             scn = rc_json_get(c.r.j, meta, "scn");
    if (idx && rc_jread_node(&c.r, idx)->type == RC_J_STRING) {
        const rc_jnode *in = rc_jread_node(&c.r, idx);
        const char *sl = memchr(in->s, '/', in->n);
        uint64_t i, cnt;
        if (!sl || rc_parse_u64(in->s, (size_t)(sl - in->s), &i) != RC_OK || rc_parse_u64(sl + 1, in->n - (size_t)(sl - in->s) - 1, &cnt) != RC_OK ||
            i > cnt || cnt > UINT32_MAX)
            return rc_error_set(err, RC_ERR_SCHEMA, in->off, "meta.idx must be \"<index>/<count>\"");
        if (i && cnt) ev.pos.tx_index = (uint32_t)(i - 1), ev.pos.tx_count = (uint32_t)cnt, ev.pos.has_tx_index = ev.pos.has_tx_count = true;
    }
    if (seq && rc_jread_node(&c.r, seq)->type == RC_J_NUMBER) {
        uint64_t sq;
        if (rc_parse_u64(rc_jread_node(&c.r, seq)->s, rc_jread_node(&c.r, seq)->n, &sq) != RC_OK) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, seq)->off, "meta.seq must be a count");
        if (sq) ev.pos.seq = sq, ev.pos.has_seq = true;
    }
    if (trans && rc_jread_node(&c.r, trans)->type == RC_J_STRING)
        ev.pos.txid = (rc_str){rc_arena_memdup(a, rc_jread_node(&c.r, trans)->s, rc_jread_node(&c.r, trans)->n), rc_jread_node(&c.r, trans)->n};
    if (scn && rc_jread_node(&c.r, scn)->type == RC_J_STRING && !(rc_jread_node(&c.r, scn)->n == 4 && !memcmp(rc_jread_node(&c.r, scn)->s, "null", 4)))
        ev.pos.scn = (rc_str){rc_arena_memdup(a, rc_jread_node(&c.r, scn)->s, rc_jread_node(&c.r, scn)->n), rc_jread_node(&c.r, scn)->n};
    if (ev.op == RC_OP_DDL) {
        uint32_t sql, text;
        if ((st = need(&c, 0, "sql", RC_J_OBJECT, &sql)) != RC_OK || (st = need(&c, sql, "ddl", RC_J_STRING, &text)) != RC_OK) return st;
        if (!rc_jread_node(&c.r, text)->n) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, text)->off, "a DDL message with an empty \"sql.ddl\"");
        ev.ddl = (rc_str){rc_arena_memdup(a, rc_jread_node(&c.r, text)->s, rc_jread_node(&c.r, text)->n), rc_jread_node(&c.r, text)->n};
    } else {
        uint32_t key = 0;
        if (ev.op == RC_OP_UPDATE && (st = need(&c, 0, "key", RC_J_OBJECT, &key)) != RC_OK) return st;
        uint32_t full = key ? key : data; /* the row with every column */
        uint32_t nc = rc_jread_node(&c.r, full)->count;
        if (!nc) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, full)->off, "a row message needs the row's columns in \"%s\"", key ? "key" : "data");
        rc_column *cols = rc_arena_alloc(a, sizeof *cols * (nc ? nc : 1));
        if (!cols) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        uint32_t i = 0;
        for (uint32_t k = rc_jread_node(&c.r, full)->first; k; k = rc_jread_node(&c.r, rc_jread_node(&c.r, k)->next)->next, i++) {
            const rc_jnode *kn = rc_jread_node(&c.r, k), *v = rc_jread_node(&c.r, kn->next);
            memset(&cols[i], 0, sizeof cols[i]);
            cols[i].name = (rc_str){rc_arena_memdup(a, kn->s, kn->n), kn->n};
            if (rc_column_name_taken(cols, i, cols[i].name))
                return rc_error_set(err, RC_ERR_SCHEMA, kn->off, "the row names column \"%.*s\" twice", (int)kn->n, kn->s);
            cols[i].nullable = true;
            if (v->type == RC_J_NULL && key) /* a null says nothing: the new value may */
                for (uint32_t q = rc_jread_node(&c.r, data)->first; q; q = rc_jread_node(&c.r, rc_jread_node(&c.r, q)->next)->next)
                    if (rc_jread_node(&c.r, q)->n == kn->n && !memcmp(rc_jread_node(&c.r, q)->s, kn->s, kn->n)) v = rc_jread_node(&c.r, rc_jread_node(&c.r, q)->next);
            const char *decl = rc_oms_infer_type(v);
            const rc_coltype *ct;
            if ((st = rc_type_cache_get(d->jd.types, a, RC_FAM_MYSQL, decl, strlen(decl), kn->off, &ct, err)) != RC_OK) return st;
            cols[i].type = *ct;
        }
        ev.cols = cols;
        ev.ncols = nc;
        size_t prefix = rc_jread_node(&c.r, table)->n + 1; /* "<db>.<table>-" */
        if (rc_jread_node(&c.r, rowid)->n < prefix || memcmp(rc_jread_node(&c.r, rowid)->s, rc_jread_node(&c.r, table)->s, prefix - 1) || rc_jread_node(&c.r, rowid)->s[prefix - 1] != '-')
            return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, rowid)->off, "meta.rowid must start with meta.table and '-'");
        if ((st = key_columns(&c, rowid, prefix, full, &ev)) != RC_OK) return st;
        const rc_value *img;
        if ((st = rc_oms_read_image(c.r.j, full, key ? "key" : "data", &ev, NULL, NULL, a, err, &img)) != RC_OK) return st;
        if (ev.op == RC_OP_INSERT) ev.after = img;
        else ev.before = img;
        if (ev.op == RC_OP_UPDATE) {
            uint8_t *changed = rc_arena_alloc(a, nc ? nc : 1);
            if (!changed) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
            memset(changed, 0, nc ? nc : 1);
            if ((st = rc_oms_read_image(c.r.j, data, "data", &ev, img, changed, a, err, &ev.after)) != RC_OK) return st;
            ev.changed = changed;
        }
    }
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    return RC_OK;
}
