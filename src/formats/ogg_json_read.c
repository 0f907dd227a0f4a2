/* Oracle GoldenGate JSON, reader side (docs/formats/ogg-json.md, "Reading"): one operation per
 * message, {"table", "op_type", "op_ts", "current_ts", "pos", "primary_keys", "tokens",
 * "before", "after"}, as Flink's and Paimon's ogg-json readers take it. OGG writes no column
 * types, so each column's type is the one its JSON value implies (rc_oms_infer_type: exact
 * numbers stay exact). Keys the reader does not use ("tokens", a "source" object) are
 * skipped. */
#include <stdlib.h>
#include <string.h>
#include "formats/ogg_json.h"
#include "formats/oms_default_read.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsondec.h"
#include "core/nameidx.h"

/* The root members read, found in one pass (rc_json_members). */
enum { K_TABLE, K_OP_TYPE, K_OP_TS, K_CURRENT_TS, K_POS, K_BEFORE, K_AFTER, K_PRIMARY_KEYS, K_PRIAMRY_KEYS, K_N };
static const char *const member_names[K_N] = {"table", "op_type", "op_ts", "current_ts", "pos", "before", "after", "primary_keys", "priamry_keys"};

typedef struct ogg_dec {
    rc_jsondec jd; /* first: rc_jsondec_new/free; the parsed message and the type cache */
    rc_ogg_common o;
    rc_jkeys keys; /* member_names */
} ogg_dec;

rc_status rc_ogg_dec_new(const rc_options *o, void **out, rc_error *err)
{
    rc_ogg_common common;
    rc_status st = rc_ogg_common_parse(o, &common, err);
    if (st != RC_OK) return st;
    if ((st = rc_jsondec_new(sizeof(ogg_dec), out, err)) != RC_OK) return st;
    ((ogg_dec *)*out)->o = common;
    rc_jkeys_init(&((ogg_dec *)*out)->keys, member_names, K_N);
    return RC_OK;
}

void rc_ogg_dec_free(void *p) { rc_jsondec_free(p); }

typedef struct ctx {
    rc_jread r; /* the message, the events' arena, the error */
    ogg_dec *d;
    uint32_t m[K_N];   /* the root members (value nodes) */
    rc_nameidx names; /* the columns by name */
} ctx;

/* Root member k when present and not null; 0 otherwise. */
static uint32_t member(const ctx *c, int k)
{
    uint32_t v = c->m[k];
    return v && rc_jread_node(&c->r, v)->type != RC_J_NULL ? v : 0;
}

/* "SCHEMA.TABLE" (or "CATALOG.SCHEMA.TABLE"): the first part is the database, as Paimon
 * reads it; a third part makes the middle one the schema. */
static void split_table(rc_str t, rc_origin *o)
{
    const char *dot = memchr(t.p, '.', t.n);
    if (!dot) {
        o->table = t;
        return;
    }
    o->db = (rc_str){t.p, (size_t)(dot - t.p)};
    rc_str rest = {dot + 1, t.n - o->db.n - 1};
    const char *dot2 = rest.n ? memchr(rest.p, '.', rest.n) : NULL;
    if (!dot2) {
        o->table = rest;
        return;
    }
    o->schema = (rc_str){rest.p, (size_t)(dot2 - rest.p)};
    o->table = (rc_str){dot2 + 1, rest.n - o->schema.n - 1};
}

/* op_ts / current_ts: "YYYY-MM-DD HH:MM:SS[.ffffff]" (current_ts with a 'T' in OGG's default
 * ISO-8601 layout), wall clock in ogg-json.timezone; µs since the epoch. */
static rc_status take_time(const ctx *c, int k, int64_t *us, bool *has)
{
    const char *key = member_names[k];
    uint32_t v = member(c, k);
    if (!v) return RC_OK;
    const rc_jnode *t = rc_jread_node(&c->r, v);
    rc_datetime dt;
    int64_t local;
    if (t->type != RC_J_STRING)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, t->off, "\"%s\" must be a string \"YYYY-MM-DD HH:MM:SS.ffffff\" (found %s)", key,
                            rc_jtype_name((rc_jtype)t->type));
    if (!rc_parse_datetime(t->s, t->n, &dt) || dt.zone.n || !rc_datetime_epoch_us(&dt, &local))
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, t->off, "\"%s\" must be a time \"YYYY-MM-DD HH:MM:SS.ffffff\" (found \"%.*s\")", key,
                            (int)(t->n > 40 ? 40 : t->n), t->s);
    if (dt.nanos % 1000)
        return rc_error_set(c->r.err, RC_ERR_RANGE, t->off, "\"%s\" \"%.*s\" is finer than the microseconds an event time holds", key,
                            (int)(t->n > 40 ? 40 : t->n), t->s);
    int64_t off = rc_tz_offset_of_local(&c->d->o.tz, rc_floor_div(local, 1000000));
    *us = local - off * 1000000;
    *has = true;
    return RC_OK;
}

static rc_status want_image(const ctx *c, uint32_t v, const char *which)
{
    if (!v || rc_jread_node(&c->r, v)->type == RC_J_OBJECT) return RC_OK;
    return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, v)->off, "\"%s\" must be an object or null (found %s)", which,
                        rc_jtype_name((rc_jtype)rc_jread_node(&c->r, v)->type));
}

/* Appends the columns of `img` not yet in cols[0..*n) (and c->names); a null value takes its
 * type from the same column in `other`, which may hold a value. */
static rc_status add_columns(ctx *c, uint32_t img, const char *which, uint32_t other, rc_column *cols, uint32_t *n)
{
    rc_family fam = rc_dbkind_family(c->d->o.kind);
    rc_nameidx in_other = {0}; /* other's members by name, made at the first null */
    uint32_t i = UINT32_MAX;
    for (uint32_t k = img ? rc_jread_node(&c->r, img)->first : 0; k; k = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->next) {
        const rc_jnode *key = rc_jread_node(&c->r, k);
        /* the second image (other is img) mostly repeats the first's columns in their order */
        if (img == other && (i = rc_nameidx_column(&c->names, cols, *n, i + 1, key->s, key->n, c->r.a)) != UINT32_MAX) continue;
        if (rc_nameidx_add(&c->names, key->s, key->n, *n) != UINT32_MAX) {
            if (img == other) continue;
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, key->off, "\"%s\" names column \"%.*s\" twice", which, (int)key->n, key->s);
        }
        rc_column *col = &cols[(*n)++];
        memset(col, 0, sizeof *col);
        col->name = (rc_str){key->s, key->n}; /* the message's bytes (or the arena's): they outlive the event */
        col->nullable = true;
        const rc_jnode *v = rc_jread_node(&c->r, key->next);
        if (v->type == RC_J_NULL && other && !in_other.slot && !rc_nameidx_object(&in_other, c->r.j, other, c->r.a))
            return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
        uint32_t o = v->type == RC_J_NULL && other ? rc_nameidx_member(&in_other, key->s, key->n) : 0;
        const char *decl = rc_oms_infer_type(o ? rc_jread_node(&c->r, o) : v);
        if (fam == RC_FAM_ORACLE && !strcmp(decl, "boolean")) decl = "number(1)"; /* Oracle before 23ai has no BOOLEAN */
        decl = rc_type_in_family(fam, decl);
        const rc_coltype *t;
        rc_status st = rc_type_cache_get(c->d->jd.types, c->r.a, fam, decl, strlen(decl), key->off, &t, c->r.err);
        if (st != RC_OK) return st;
        col->type = *t;
    }
    return RC_OK;
}

/* primary_keys (or Flink's fixture spelling priamry_keys): the key columns in key order. */
static rc_status mark_keys(const ctx *c, rc_column *cols, uint32_t n)
{
    uint32_t pk = member(c, K_PRIMARY_KEYS);
    const char *name = "primary_keys";
    if (!pk) pk = member(c, K_PRIAMRY_KEYS), name = "priamry_keys";
    if (!pk) return RC_OK;
    if (rc_jread_node(&c->r, pk)->type != RC_J_ARRAY)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, pk)->off, "\"%s\" must be an array of column names (found %s)", name,
                            rc_jtype_name((rc_jtype)rc_jread_node(&c->r, pk)->type));
    uint16_t pos = 0;
    for (uint32_t q = rc_jread_node(&c->r, pk)->first; q; q = rc_jread_node(&c->r, q)->next) {
        const rc_jnode *e = rc_jread_node(&c->r, q);
        if (e->type != RC_J_STRING) return rc_error_set(c->r.err, RC_ERR_SCHEMA, e->off, "\"%s\" must hold column names (found %s)", name, rc_jtype_name((rc_jtype)e->type));
        uint32_t i = rc_nameidx_find(&c->names, e->s, e->n);
        if (i == UINT32_MAX && n) /* a truncate has no columns: its key names are kept nowhere */
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, e->off, "\"%s\" names \"%.*s\", which is not a column of the row", name, (int)(e->n > 64 ? 64 : e->n), e->s);
        if (i == UINT32_MAX) continue;
        if (cols[i].pk) return rc_error_set(c->r.err, RC_ERR_SCHEMA, e->off, "\"%s\" names \"%.*s\" twice", name, (int)(e->n > 64 ? 64 : e->n), e->s);
        cols[i].pk = ++pos;
        cols[i].nullable = false;
    }
    return RC_OK;
}

/* An image's values; columns it does not hold (OGG leaves out the ones it did not capture,
 * e.g. the before image of a compressed update) are RC_V_UNAVAILABLE. */
static rc_status image(const ctx *c, uint32_t img, const char *which, rc_event *ev, const rc_value **out)
{
    *out = NULL;
    if (!img) return RC_OK;
    rc_value *base = NULL;
    if (rc_jread_node(&c->r, img)->count < ev->ncols) {
        base = rc_arena_alloc(c->r.a, sizeof *base * ev->ncols);
        if (!base) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
        memset(base, 0, sizeof *base * ev->ncols);
        for (uint32_t i = 0; i < ev->ncols; i++) base[i].kind = RC_V_UNAVAILABLE;
    }
    return rc_oms_read_image(c->r.j, img, which, ev, base, NULL, c->r.a, c->r.err, out);
}

rc_status rc_ogg_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    ogg_dec *d = p;
    ctx c = {.d = d};
    rc_status st = rc_jsondec_object(&d->jd, msg, n, a, "an OGG JSON message", &c.r, err);
    if (st != RC_OK) return st;
    rc_json_members(c.r.j, 0, &d->keys, c.m);
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.src.kind = d->o.kind;
    rc_str table, op;
    if ((st = rc_jsondec_str_at(c.r.j, c.m[K_TABLE], "table", &table, err)) != RC_OK || (st = rc_jsondec_str_at(c.r.j, c.m[K_OP_TYPE], "op_type", &op, err)) != RC_OK)
        return st;
    if (!table.n) return rc_error_set(err, RC_ERR_SCHEMA, 0, "an OGG JSON message without \"table\" (\"SCHEMA.TABLE\")");
    if (!op.n) return rc_error_set(err, RC_ERR_SCHEMA, 0, "an OGG JSON message without \"op_type\" (I, U, D or T)");
    split_table(table, &ev.src);
    if (!rc_event_list_accepts(out, ev.src.db, ev.src.table)) return RC_OK;
    static const char ops[] = "IUDT";
    static const rc_op kinds[] = {RC_OP_INSERT, RC_OP_UPDATE, RC_OP_DELETE, RC_OP_TRUNCATE};
    const char *k = op.n == 1 ? memchr(ops, op.p[0], 4) : NULL;
    if (!k)
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, c.m[K_OP_TYPE])->off, "unknown \"op_type\" \"%.*s\" (expected I, U, D or T)",
                            (int)(op.n > 20 ? 20 : op.n), op.p);
    ev.op = kinds[k - ops];
    if ((st = take_time(&c, K_OP_TS, &ev.ts_us, &ev.has_ts)) != RC_OK || (st = take_time(&c, K_CURRENT_TS, &ev.proc_us, &ev.has_proc)) != RC_OK ||
        (st = rc_jsondec_str_at(c.r.j, c.m[K_POS], "pos", &ev.pos.checkpoint, err)) != RC_OK)
        return st;
    uint32_t before = member(&c, K_BEFORE), after = member(&c, K_AFTER);
    if ((st = want_image(&c, before, "before")) != RC_OK || (st = want_image(&c, after, "after")) != RC_OK) return st;
    if (ev.op == RC_OP_TRUNCATE) before = after = 0; /* OGG writes none; nothing to read if one came */
    if (ev.op == RC_OP_INSERT) before = 0;
    if (ev.op == RC_OP_DELETE) after = 0;
    if ((ev.op == RC_OP_INSERT || ev.op == RC_OP_UPDATE) && !after)
        return rc_error_set(err, RC_ERR_SCHEMA, 0, "an OGG JSON %s message (op_type %c) without \"after\"", ev.op == RC_OP_INSERT ? "insert" : "update", op.p[0]);
    if (ev.op == RC_OP_DELETE && !before) return rc_error_set(err, RC_ERR_SCHEMA, 0, "an OGG JSON delete message (op_type D) without \"before\"");
    uint32_t most = (after ? rc_jread_node(&c.r, after)->count : 0) + (before ? rc_jread_node(&c.r, before)->count : 0);
    rc_column *cols = rc_arena_alloc(a, sizeof *cols * (most ? most : 1));
    if (!cols || !rc_nameidx_init(&c.names, most, a)) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    uint32_t nc = 0;
    if ((st = add_columns(&c, after ? after : before, after ? "after" : "before", after ? before : 0, cols, &nc)) != RC_OK) return st;
    if (after && before && (st = add_columns(&c, before, "before", before, cols, &nc)) != RC_OK) return st;
    if (ev.op != RC_OP_TRUNCATE && !nc) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, after ? after : before)->off, "a row image with no columns");
    if ((st = mark_keys(&c, cols, nc)) != RC_OK) return st;
    ev.cols = cols;
    ev.ncols = nc;
    if ((st = image(&c, before, "before", &ev, &ev.before)) != RC_OK || (st = image(&c, after, "after", &ev, &ev.after)) != RC_OK) return st;
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    return RC_OK;
}
