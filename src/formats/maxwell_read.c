/* Maxwell's daemon JSON, the reader (docs/formats/maxwell.md): one event per message, and a
 * COMMIT after a row marked "commit":true (the last of its transaction). Maxwell
 * writes no column types, so each column's type is the one its JSON value implies, as for the
 * OMS default reader (rc_oms_infer_type: exact numbers stay exact, Java's doubles are DOUBLE);
 * a column that is null in the message is TEXT. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/fmt.h"
#include "rowcast/format.h"
#include "core/json.h"
#include "core/jsondec.h"
#include "core/nameidx.h"
#include "core/vparse.h"
#include "formats/maxwell.h"
#include "formats/oms_default_read.h"

/* The root members read, found in one pass (rc_json_members). */
enum { K_TYPE, K_DATABASE, K_TABLE, K_TS, K_XID, K_XOFFSET, K_SERVER_ID, K_THREAD_ID, K_POSITION, K_SQL, K_DATA, K_PKS, K_OLD, K_COMMIT, K_N };
static const char *const member_names[K_N] = {"type",      "database", "table", "ts",   "xid",                 "xoffset", "server_id",
                                              "thread_id", "position", "sql",   "data", "primary_key_columns", "old",     "commit"};

typedef struct mx_dec {
    rc_jsondec jd; /* the parsed message, its arena, the type cache */
    rc_jkeys keys; /* member_names */
    rc_buf text;
} mx_dec;

rc_status rc_mx_dec_new(const rc_options *o, void **out, rc_error *err)
{
    rc_mx_opts unused; /* the writer's switches: read here only so that a bad one is an error on either side */
    rc_status st = rc_options_parse(o, "maxwell", rc_mx_options, &unused, err);
    if (st != RC_OK) return st;
    if ((st = rc_jsondec_new(sizeof(mx_dec), out, err)) != RC_OK) return st;
    mx_dec *d = *out;
    rc_buf_init(&d->text, 0);
    rc_jkeys_init(&d->keys, member_names, K_N);
    return RC_OK;
}

void rc_mx_dec_free(void *p)
{
    mx_dec *d = p;
    if (d) rc_buf_fini(&d->text);
    rc_jsondec_free(d);
}

typedef struct ctx {
    rc_jread r; /* the message, the events' arena, the error */
    mx_dec *d;
    uint32_t m[K_N]; /* the root members (value nodes) */
} ctx;

static rc_status want(const ctx *c, uint32_t i, rc_jtype t, const char *what) { return rc_jsondec_want(c->r.j, i, t, what, c->r.err); }

static rc_status take_str(const ctx *c, int k, rc_str *out) { return rc_jsondec_str_at(c->r.j, c->m[k], member_names[k], out, c->r.err); }

static rc_status take_u64(const ctx *c, int k, uint64_t *out, bool *has)
{
    uint32_t v = c->m[k];
    if (!v || rc_jread_node(&c->r, v)->type == RC_J_NULL) return RC_OK;
    if (rc_jread_node(&c->r, v)->type != RC_J_NUMBER || rc_parse_u64(rc_jread_node(&c->r, v)->s, rc_jread_node(&c->r, v)->n, out) != RC_OK)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, v)->off, "\"%s\" must be a non-negative integer", member_names[k]);
    *has = true;
    return RC_OK;
}

static rc_status value(const ctx *c, const rc_column *col, uint32_t vn, rc_value *out)
{
    static const rc_vparse_opts vo = {.bytes = RC_BYTES_LATIN1};
    return rc_jread_value(&c->r, col, vn, &vo, &c->d->text, out);
}

rc_status rc_mx_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    mx_dec *d = p;
    ctx c = {.d = d};
    rc_status st = rc_jsondec_object(&d->jd, msg, n, a, "a Maxwell message", &c.r, err);
    if (st != RC_OK) return st;
    rc_json_members(c.r.j, 0, &d->keys, c.m);
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.src.kind = RC_DB_MYSQL;
    rc_str type = {0};
    if ((st = take_str(&c, K_TYPE, &type)) != RC_OK || (st = take_str(&c, K_DATABASE, &ev.src.db)) != RC_OK ||
        (st = take_str(&c, K_TABLE, &ev.src.table)) != RC_OK)
        return st;
    if (!type.n) return rc_error_set(err, RC_ERR_SCHEMA, 0, "a Maxwell message without \"type\"");
    if (!rc_event_list_accepts(out, ev.src.db, ev.src.table)) return RC_OK;
    uint64_t ts = 0, xid = 0, xoffset = 0, server_id = 0, thread = 0;
    bool has_ts = false, has_xid = false, has_xoff = false;
    if ((st = take_u64(&c, K_TS, &ts, &has_ts)) != RC_OK || (st = take_u64(&c, K_XID, &xid, &has_xid)) != RC_OK ||
        (st = take_u64(&c, K_XOFFSET, &xoffset, &has_xoff)) != RC_OK ||
        (st = take_u64(&c, K_SERVER_ID, &server_id, &ev.pos.has_server_id)) != RC_OK ||
        (st = take_u64(&c, K_THREAD_ID, &thread, &ev.pos.has_thread)) != RC_OK)
        return st;
    ev.pos.server_id = server_id;
    ev.pos.thread = thread;
    /* Maxwell's ts is in seconds for rows, in milliseconds for DDL (its DDLMap writes the
     * schema change's millisecond time) */
    bool ddl = (type.n > 6 && !memcmp(type.p, "table-", 6)) || (type.n > 9 && !memcmp(type.p, "database-", 9));
    uint64_t unit = ddl ? 1000 : 1000000;
    if (has_ts && ts > INT64_MAX / unit)
        return rc_error_set(err, RC_ERR_RANGE, rc_jread_node(&c.r, c.m[K_TS])->off, "\"ts\" is out of range: %llu %s is beyond int64 microseconds",
                            (unsigned long long)ts, ddl ? "milliseconds" : "seconds");
    if (has_ts) ev.ts_us = (int64_t)(ts * unit), ev.has_ts = true;
    if (has_xid) {
        char buf[24];
        int k = snprintf(buf, sizeof buf, "%llu", (unsigned long long)xid);
        ev.pos.txid = (rc_str){rc_arena_memdup(a, buf, (size_t)k), (size_t)k};
    }
    if (has_xoff) ev.pos.tx_index = (uint32_t)xoffset, ev.pos.has_tx_index = true;
    rc_str position = {0};
    if ((st = take_str(&c, K_POSITION, &position)) != RC_OK) return st;
    const char *colon = position.n ? memchr(position.p, ':', position.n) : NULL;
    if (colon && rc_parse_u64(colon + 1, position.n - (size_t)(colon + 1 - position.p), &ev.pos.offset) == RC_OK) {
        ev.pos.file = (rc_str){position.p, (size_t)(colon - position.p)};
        ev.pos.has_offset = true;
    }
    if (ddl) {
        ev.op = RC_OP_DDL;
        if ((st = take_str(&c, K_SQL, &ev.ddl)) != RC_OK) return st;
        if (!ev.ddl.n) return rc_error_set(err, RC_ERR_SCHEMA, 0, "a Maxwell DDL message (%.*s) without \"sql\"", (int)type.n, type.p);
        static const char *const kinds[][2] = {{"table-create", "CREATE_TABLE"}, {"table-alter", "ALTER_TABLE"}, {"table-drop", "DROP_TABLE"},
                                              {"database-create", "CREATE_DATABASE"}, {"database-drop", "DROP_DATABASE"}};
        for (size_t k = 0; k < 5; k++)
            if (strlen(kinds[k][0]) == type.n && !memcmp(kinds[k][0], type.p, type.n)) ev.ddl_kind = (rc_str){kinds[k][1], strlen(kinds[k][1])};
        rc_event *e = rc_event_list_push(out);
        if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        *e = ev;
        return RC_OK;
    }
    if (type.n == 6 && !memcmp(type.p, "insert", 6)) ev.op = RC_OP_INSERT;
    else if (type.n == 6 && !memcmp(type.p, "update", 6)) ev.op = RC_OP_UPDATE;
    else if (type.n == 6 && !memcmp(type.p, "delete", 6)) ev.op = RC_OP_DELETE;
    else if (type.n == 16 && !memcmp(type.p, "bootstrap-insert", 16)) ev.op = RC_OP_READ;
    else if (type.n > 10 && !memcmp(type.p, "bootstrap-", 10)) return RC_OK; /* bootstrap-start / -complete: markers */
    else
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, c.m[K_TYPE])->off, "unknown Maxwell type \"%.*s\"",
                            (int)(type.n > 40 ? 40 : type.n), type.p);
    uint32_t data = c.m[K_DATA];
    if (!data) return rc_error_set(err, RC_ERR_SCHEMA, 0, "a Maxwell %.*s without \"data\"", (int)type.n, type.p);
    if ((st = want(&c, data, RC_J_OBJECT, "\"data\"")) != RC_OK) return st;
    uint32_t nc = rc_jread_node(&c.r, data)->count;
    if (!nc) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, data)->off, "\"data\" has no columns");
    rc_column *cols = rc_arena_alloc(a, sizeof *cols * (nc ? nc : 1));
    rc_value *img = rc_arena_alloc(a, sizeof *img * (nc ? nc : 1));
    rc_nameidx names; /* the columns by name */
    if (!cols || !img || !rc_nameidx_init(&names, nc, a)) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    uint32_t i = 0;
    for (uint32_t k = rc_jread_node(&c.r, data)->first; k; k = rc_jread_node(&c.r, rc_jread_node(&c.r, k)->next)->next, i++) {
        const rc_jnode *key = rc_jread_node(&c.r, k);
        memset(&cols[i], 0, sizeof cols[i]);
        cols[i].name = (rc_str){key->s, key->n}; /* the message's bytes (or the arena's): they outlive the event */
        if (rc_nameidx_add(&names, key->s, key->n, i) != UINT32_MAX)
            return rc_error_set(err, RC_ERR_SCHEMA, key->off, "\"data\" names column \"%.*s\" twice", (int)key->n, key->s);
        cols[i].nullable = true;
        const char *t = rc_oms_infer_type(rc_jread_node(&c.r, key->next));
        const rc_coltype *ct;
        if ((st = rc_type_cache_get(d->jd.types, a, RC_FAM_MYSQL, t, strlen(t), key->off, &ct, err)) != RC_OK) return st;
        cols[i].type = *ct;
    }
    ev.cols = cols;
    ev.ncols = nc;
    i = 0;
    for (uint32_t k = rc_jread_node(&c.r, data)->first; k; k = rc_jread_node(&c.r, rc_jread_node(&c.r, k)->next)->next, i++)
        if ((st = value(&c, &cols[i], rc_jread_node(&c.r, k)->next, &img[i])) != RC_OK) return st;
    uint32_t pks = c.m[K_PKS];
    if (pks && rc_jread_node(&c.r, pks)->type == RC_J_ARRAY) {
        uint16_t pos = 0;
        for (uint32_t q = rc_jread_node(&c.r, pks)->first; q; q = rc_jread_node(&c.r, q)->next) {
            if ((st = want(&c, q, RC_J_STRING, "a \"primary_key_columns\" entry")) != RC_OK) return st;
            uint32_t ci = rc_nameidx_find(&names, rc_jread_node(&c.r, q)->s, rc_jread_node(&c.r, q)->n);
            if (ci == UINT32_MAX)
                return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, q)->off, "primary_key_columns names \"%.*s\", which is not in data",
                                    (int)rc_jread_node(&c.r, q)->n, rc_jread_node(&c.r, q)->s);
            if (cols[ci].pk)
                return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, q)->off, "primary_key_columns names \"%.*s\" twice",
                                    (int)rc_jread_node(&c.r, q)->n, rc_jread_node(&c.r, q)->s);
            cols[ci].pk = ++pos;
            cols[ci].nullable = false;
        }
    }
    if (ev.op == RC_OP_DELETE) ev.before = img;
    else ev.after = img;
    if (ev.op == RC_OP_UPDATE) {
        uint32_t old = c.m[K_OLD];
        if (!old) return rc_error_set(err, RC_ERR_SCHEMA, 0, "a Maxwell update without \"old\"");
        if ((st = want(&c, old, RC_J_OBJECT, "\"old\"")) != RC_OK) return st;
        rc_value *before = rc_arena_alloc(a, sizeof *before * (nc ? nc : 1));
        uint8_t *changed = rc_arena_alloc(a, nc ? nc : 1);
        if (!before || !changed) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        memcpy(before, img, sizeof *before * nc);
        memset(changed, 0, nc);
        for (uint32_t k = rc_jread_node(&c.r, old)->first; k; k = rc_jread_node(&c.r, rc_jread_node(&c.r, k)->next)->next) {
            const rc_jnode *key = rc_jread_node(&c.r, k);
            uint32_t ci = rc_nameidx_find(&names, key->s, key->n);
            if (ci == UINT32_MAX)
                return rc_error_set(err, RC_ERR_SCHEMA, key->off, "old names \"%.*s\", which is not in data", (int)key->n, key->s);
            /* the old value may be null where the new one has a type, or the other way round */
            if ((st = value(&c, &cols[ci], key->next, &before[ci])) != RC_OK) return st;
            changed[ci] = 1;
        }
        ev.before = before;
        ev.changed = changed;
    }
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    /* "commit":true: the transaction ends with this row, which is what a COMMIT says in the
     * canonical stream (MySQL capture's XID), so that writers of transaction boundaries see it */
    uint32_t commit = c.m[K_COMMIT];
    if (commit && rc_jread_node(&c.r, commit)->type == RC_J_TRUE) {
        rc_event *t = rc_event_list_push(out);
        if (!t) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        memset(t, 0, sizeof *t);
        t->op = RC_OP_COMMIT;
        t->src = ev.src;
        t->pos = ev.pos;
        t->pos.has_tx_index = false;
        t->ts_us = ev.ts_us, t->has_ts = ev.has_ts;
    }
    return RC_OK;
}
