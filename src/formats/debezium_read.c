/* Debezium messages, reader side (docs/formats/debezium.md, "Reading"): envelopes with or
 * without the Kafka Connect schema, Debezium 1.x-3.x layouts of the MySQL, PostgreSQL and SQL
 * Server connectors, and the OMS flavour. With a schema, column types come from it (logical
 * types back to dates, times, decimals, bits); without one, from the values.
 *
 * This file reads the envelope, the source block and the record key; the columns and their
 * values are read in debezium_read_columns.c (debezium_read_int.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_read_int.h"
#include "formats/debezium_upstream.h"
#include "core/bson.h"
#include "core/fmt.h"

rc_status rc_dbz_dec_new(const rc_options *o, void **out, rc_error *err)
{
    rc_dbz_opts opt;
    rc_status st = rc_dbz_opts_parse(o, &opt, err);
    return st != RC_OK ? st : rc_dbz_dec_open(&opt, out, err);
}

rc_status rc_dbz_flatten_dec_new(const rc_options *o, void **out, rc_error *err)
{
    rc_dbz_opts opt;
    rc_status st = rc_dbz_opts_parse(o, &opt, err);
    opt.flavor = 0; /* oms */
    return st != RC_OK ? st : rc_dbz_dec_open(&opt, out, err);
}

rc_status rc_dbz_dec_open(const rc_dbz_opts *opt, void **out, rc_error *err)
{
    void *p;
    rc_status st = rc_jsondec_new(sizeof(dz_dec), &p, err);
    if (st != RC_OK) return st;
    dz_dec *d = p; /* *out only once it is whole */
    if (!rc_jsondec_init(&d->kjd)) {
        rc_dbz_dec_free(d);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    /* binary text: OMS writes upper-case hex; Debezium base64 unless its binary mode says hex */
    d->heartbeats = opt->heartbeats;
    d->bytes = !opt->flavor || opt->bin_mode == 2 ? RC_BYTES_HEX : opt->bin_mode == 3 ? RC_BYTES_BASE64URL : RC_BYTES_BASE64;
    rc_dbz_mongo_keys_init(d);
    rc_buf_init(&d->text, 0);
    rc_buf_init(&d->b64_said, 0);
    rc_buf_init(&d->b64_now, 0);
    *out = d;
    return RC_OK;
}

void rc_dbz_dec_free(void *p)
{
    dz_dec *d = p;
    if (d) rc_jsondec_fini(&d->kjd), rc_buf_fini(&d->text), rc_buf_fini(&d->b64_said), rc_buf_fini(&d->b64_now);
    rc_jsondec_free(d);
}

/* ---- source and envelope ---- */

static rc_dbkind kind_of(const ctx *c, uint32_t conn)
{
    static const struct {
        const char *name;
        rc_dbkind kind;
    } map[] = {{"mysql", RC_DB_MYSQL},         {"postgresql", RC_DB_POSTGRES}, {"sqlserver", RC_DB_SQLSERVER}, {"OB_MYSQL", RC_DB_OB_MYSQL},
               {"OB_ORACLE", RC_DB_OB_ORACLE}, {"MYSQL", RC_DB_MYSQL},         {"oracle", RC_DB_ORACLE},       {"ORACLE", RC_DB_ORACLE}};
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (rc_jread_is(&c->r, conn, map[k].name)) return map[k].kind;
    return RC_DB_UNKNOWN;
}

/* A non-negative integer member into *dst (with *has set), or an error. */
#define UINT_MEMBER(key, dst, has_flag, T)                                                                                     \
    do {                                                                                                                       \
        bool h_;                                                                                                               \
        if ((st = rc_jsondec_i64(c->r.j, s, key, &x, &h_, c->r.err)) != RC_OK) return st;                                           \
        if (h_ && x >= 0) (dst) = (T)x, (has_flag) = true;                                                                    \
    } while (0)

static rc_status source(const ctx *c, uint32_t s, rc_event *ev)
{
    int64_t x;
    bool h;
    rc_status st;
    ev->src.kind = kind_of(c, rc_json_get(c->r.j, s, "connector"));
    ev->src.server = rc_dbz_read_copy_str(c, rc_json_get(c->r.j, s, "name"));
    ev->src.db = rc_dbz_read_copy_str(c, rc_json_get(c->r.j, s, "db"));
    ev->src.schema = rc_dbz_read_copy_str(c, rc_json_get(c->r.j, s, "schema"));
    ev->src.table = rc_dbz_read_copy_str(c, rc_json_get(c->r.j, s, "table"));
    if ((st = rc_jsondec_i64(c->r.j, s, "ts_us", &x, &h, c->r.err)) != RC_OK) return st;
    if (h) ev->ts_us = x, ev->has_ts = true;
    else {
        if ((st = rc_jsondec_us_at(c->r.j, rc_json_get(c->r.j, s, "ts_ms"), "ts_ms", 1000, &ev->ts_us, &ev->has_ts, c->r.err)) != RC_OK) return st;
    }
    uint32_t snap = rc_json_get(c->r.j, s, "snapshot");
    rc_str sn = rc_dbz_read_copy_str(c, snap);
    if (snap && rc_jread_node(&c->r, snap)->type == RC_J_TRUE) sn = RC_STR("true");
    /* keep the marker unless it says what the operation already implies */
    bool implied = (ev->op == RC_OP_READ && sn.n == 4 && !memcmp(sn.p, "true", 4)) ||
                   (ev->op != RC_OP_READ && sn.n == 5 && !memcmp(sn.p, "false", 5));
    if (!implied) ev->snapshot = sn;
    rc_position *p = &ev->pos;
    p->file = rc_dbz_read_copy_str(c, rc_json_get(c->r.j, s, "file"));
    p->gtid = rc_dbz_read_copy_str(c, rc_json_get(c->r.j, s, "gtid"));
    p->query = rc_dbz_read_copy_str(c, rc_json_get(c->r.j, s, "query"));
    uint32_t pos = rc_json_get(c->r.j, s, "pos");
    if (rc_dbz_read_num(c, pos, &x) && x >= 0) p->offset = (uint64_t)x, p->has_offset = true;
    if (pos && rc_jread_node(&c->r, pos)->type == RC_J_STRING) { /* OMS: "<offset>@<file or checkpoint>" */
        const char *at = memchr(rc_jread_node(&c->r, pos)->s, '@', rc_jread_node(&c->r, pos)->n);
        if (at) {
            rc_str whole = rc_dbz_read_copy_str(c, pos);
            size_t k = (size_t)(at - rc_jread_node(&c->r, pos)->s);
            uint64_t off;
            if (k && rc_parse_u64(whole.p, k, &off) == RC_OK) p->offset = off, p->has_offset = true;
            p->checkpoint = (rc_str){whole.p + k + 1, whole.n - k - 1};
        }
    }
    UINT_MEMBER("server_id", p->server_id, p->has_server_id, uint64_t);
    UINT_MEMBER("row", p->row, p->has_row, uint32_t);
    UINT_MEMBER("thread", p->thread, p->has_thread, uint64_t);
    UINT_MEMBER("xmin", p->xmin, p->has_xmin, uint64_t);
    /* PostgreSQL's sequence: the JSON text ["<last commit LSN>","<LSN>"] (decimal, null when
     * unknown); the first is what the event cannot tell otherwise */
    uint32_t seq = rc_json_get(c->r.j, s, "sequence");
    if (seq && rc_jread_node(&c->r, seq)->type == RC_J_STRING && rc_jread_node(&c->r, seq)->n > 3 && rc_jread_node(&c->r, seq)->s[0] == '[' && rc_jread_node(&c->r, seq)->s[1] == '"') {
        const char *q = rc_jread_node(&c->r, seq)->s + 2, *end = rc_jread_node(&c->r, seq)->s + rc_jread_node(&c->r, seq)->n;
        const char *close = memchr(q, '"', (size_t)(end - q));
        if (close && close > q) p->last_commit_lsn = (rc_str){rc_arena_memdup(c->r.a, q, (size_t)(close - q)), (size_t)(close - q)};
        if (p->last_commit_lsn.n && (st = rc_lsn_text_check(p->last_commit_lsn, "the first LSN of source \"sequence\"", rc_jread_node(&c->r, seq)->off, c->r.err)) != RC_OK)
            return st;
    }
    uint32_t tx = rc_json_get(c->r.j, s, "txId"), lsn = rc_json_get(c->r.j, s, "lsn");
    if (tx && rc_jread_node(&c->r, tx)->type == RC_J_NUMBER) p->txid = (rc_str){rc_arena_memdup(c->r.a, rc_jread_node(&c->r, tx)->s, rc_jread_node(&c->r, tx)->n), rc_jread_node(&c->r, tx)->n};
    if (lsn && (rc_jread_node(&c->r, lsn)->type == RC_J_NUMBER || rc_jread_node(&c->r, lsn)->type == RC_J_STRING))
        p->lsn = (rc_str){rc_arena_memdup(c->r.a, rc_jread_node(&c->r, lsn)->s, rc_jread_node(&c->r, lsn)->n), rc_jread_node(&c->r, lsn)->n};
    if (p->lsn.p && (st = rc_lsn_text_check(p->lsn, "source \"lsn\"", rc_jread_node(&c->r, lsn)->off, c->r.err)) != RC_OK) return st;
    return RC_OK;
}
#undef UINT_MEMBER

static rc_status source_cb(void *p, uint32_t s, rc_event *ev) { return source(p, s, ev); }

/* The Value struct's fields in the envelope schema into *out (0 with no schema); a schema
 * that describes no row is an error rather than a reason to guess types. */
static rc_status value_fields(const ctx *c, uint32_t schema, uint32_t *out)
{
    *out = 0;
    if (!schema || rc_jread_node(&c->r, schema)->type == RC_J_NULL) return RC_OK;
    uint32_t fs = rc_jread_node(&c->r, schema)->type == RC_J_OBJECT ? rc_json_get(c->r.j, schema, "fields") : 0;
    if (fs && rc_jread_node(&c->r, fs)->type == RC_J_ARRAY)
        for (uint32_t f = rc_jread_node(&c->r, fs)->first; f; f = rc_jread_node(&c->r, f)->next)
            if (rc_jread_is(&c->r, rc_json_get(c->r.j, f, "field"), "after") || rc_jread_is(&c->r, rc_json_get(c->r.j, f, "field"), "before")) {
                uint32_t inner = rc_json_get(c->r.j, f, "fields");
                if (inner && rc_jread_node(&c->r, inner)->type == RC_J_ARRAY) return *out = inner, RC_OK;
            }
    return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, schema)->off, "the envelope \"schema\" has no struct field \"after\" or \"before\"");
}

/* Upstream Debezium's heartbeat value (HeartbeatImpl; what debezium_heartbeat.c writes):
 * {"ts_ms": N} alone, with schemas on inside an envelope whose schema is the struct
 * io.debezium.connector.common.Heartbeat. The server name is only in the key and the topic. */
static bool is_heartbeat(const ctx *c, uint32_t payload, uint32_t schema)
{
    const rc_jnode *p = rc_jread_node(&c->r, payload);
    uint32_t ts = rc_json_get(c->r.j, payload, "ts_ms");
    if (p->type != RC_J_OBJECT || p->count != 1 || !ts || rc_jread_node(&c->r, ts)->type != RC_J_NUMBER) return false;
    if (!schema || rc_jread_node(&c->r, schema)->type == RC_J_NULL) return true;
    return rc_jread_node(&c->r, schema)->type == RC_J_OBJECT && rc_jread_is(&c->r, rc_json_get(c->r.j, schema, "name"), "io.debezium.connector.common.Heartbeat");
}

static rc_status heartbeat(const ctx *c, uint32_t payload, rc_event_list *out)
{
    if (!c->d->heartbeats) return RC_OK; /* skipped unless asked for, as the OMS flavour's */
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.op = RC_OP_HEARTBEAT;
    rc_status st = rc_jsondec_us_at(c->r.j, rc_json_get(c->r.j, payload, "ts_ms"), "ts_ms", 1000, &ev.ts_us, &ev.has_ts, c->r.err);
    if (st != RC_OK) return st;
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    return RC_OK;
}

/* Whether a transaction id is "<digits>:<lsn>" (PostgreSQL 2.x). */
static bool pg_tx_id(rc_str id, rc_str lsn)
{
    const char *colon = id.n ? memchr(id.p, ':', id.n) : NULL;
    if (!colon || colon == id.p) return false;
    for (const char *q = id.p; q < colon; q++)
        if (*q < '0' || *q > '9') return false;
    size_t rest = id.n - (size_t)(colon + 1 - id.p);
    return rest == lsn.n && !memcmp(colon + 1, lsn.p, rest);
}

static rc_status decode_msg(dz_dec *d, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

/* A message; the columns whose schemaless text looked like a Decimal (b64_decimal) for the
 * first time are said in err's notice (rc_format.decode). */
rc_status rc_dbz_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    dz_dec *d = p;
    rc_buf_reset(&d->b64_now);
    rc_status st = decode_msg(d, msg, n, a, out, err);
    if (st == RC_OK && d->b64_now.len)
        rc_error_notice(err, "column%s %.*s (%s): base64 text in a schemaless Debezium message, read as text; a Decimal (or "
                             "binary value) needs the schema: -o debezium.schemas=true on the writer, or "
                             "decimal.handling.mode=string",
                        memchr(d->b64_now.data, ',', d->b64_now.len) ? "s" : "", (int)d->b64_now.len, d->b64_now.data, d->b64_table);
    return st;
}

static rc_status decode_msg(dz_dec *d, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    rc_status st = rc_jsondec_parse(&d->jd, msg, n, a, err);
    if (st != RC_OK) return st;
    ctx c = {{&d->jd.json, a, err}, d};
    if (rc_jread_node(&c.r, 0)->type == RC_J_NULL) return RC_OK; /* a tombstone: no event */
    if (rc_jread_node(&c.r, 0)->type != RC_J_OBJECT)
        return rc_error_set(err, RC_ERR_SCHEMA, 0, "a Debezium message must be a JSON object (found %s)", rc_jtype_name((rc_jtype)rc_jread_node(&c.r, 0)->type));
    uint32_t payload = rc_json_get(c.r.j, 0, "payload"), schema = 0;
    if (payload) {
        schema = rc_json_get(c.r.j, 0, "schema");
        if (rc_jread_node(&c.r, payload)->type == RC_J_NULL) return RC_OK; /* tombstone with schema */
        if (rc_jread_node(&c.r, payload)->type != RC_J_OBJECT)
            return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, payload)->off, "\"payload\" must be an object or null");
    } else {
        payload = 0; /* the message is the payload itself (schemas off, debeziumflatten) */
    }
    uint32_t opn = rc_json_get(c.r.j, payload, "op");
    if (!opn && is_heartbeat(&c, payload, schema)) return heartbeat(&c, payload, out);
    if (!opn && (st = rc_dbz_read_topics(c.r.j, payload, a, d->jd.types, source_cb, &c, out, err)) != RC_SKIP) return st;
    if (!opn) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, payload)->off, "a Debezium payload without \"op\"");
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    if (rc_jread_is(&c.r, opn, "c")) ev.op = RC_OP_INSERT;
    else if (rc_jread_is(&c.r, opn, "u")) ev.op = RC_OP_UPDATE;
    else if (rc_jread_is(&c.r, opn, "d")) ev.op = RC_OP_DELETE;
    else if (rc_jread_is(&c.r, opn, "r")) ev.op = RC_OP_READ;
    else if (rc_jread_is(&c.r, opn, "t")) ev.op = RC_OP_TRUNCATE;
    else if (rc_jread_is(&c.r, opn, "m")) return RC_OK; /* a logical decoding message: not a row change */
    else if (rc_jread_is(&c.r, opn, "HEARTBEAT")) {
        if (!d->heartbeats) return RC_OK;
        ev.op = RC_OP_HEARTBEAT;
    } else
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, opn)->off, "unknown Debezium op \"%.*s\" (expected c, u, d, r, t or m)",
                            (int)(rc_jread_node(&c.r, opn)->n > 20 ? 20 : rc_jread_node(&c.r, opn)->n), rc_jread_node(&c.r, opn)->s);
    uint32_t src = rc_json_get(c.r.j, payload, "source");
    if (!src || rc_jread_node(&c.r, src)->type != RC_J_OBJECT)
        return rc_error_set(err, RC_ERR_SCHEMA, src ? rc_jread_node(&c.r, src)->off : rc_jread_node(&c.r, payload)->off, "a Debezium payload without a \"source\" object");
    if (rc_jread_is(&c.r, rc_json_get(c.r.j, src, "connector"), "mongodb")) return rc_dbz_mongo_read(&c, payload, &ev, out);
    if ((st = source(&c, src, &ev)) != RC_OK) return st;
    if (!ev.src.table.n && ev.op != RC_OP_HEARTBEAT)
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, src)->off, "\"source\" names no \"table\"");
    if (!rc_event_list_accepts(out, ev.src.db.n ? ev.src.db : ev.src.schema, ev.src.table)) return RC_OK;
    int64_t x;
    bool h;
    if ((st = rc_jsondec_i64(c.r.j, payload, "ts_us", &x, &h, err)) != RC_OK) return st;
    if (h) ev.proc_us = x, ev.has_proc = true;
    else {
        if ((st = rc_jsondec_us_at(c.r.j, rc_json_get(c.r.j, payload, "ts_ms"), "ts_ms", 1000, &ev.proc_us, &ev.has_proc, err)) != RC_OK) return st;
    }
    uint32_t tx = rc_json_get(c.r.j, payload, "transaction");
    if (tx && rc_jread_node(&c.r, tx)->type == RC_J_OBJECT) {
        /* PostgreSQL 2.x: "<txId>:<the event's LSN>", which the writer builds again from
         * source.txId and lsn: the id is kept only when source has no txId */
        rc_str id = rc_dbz_read_copy_str(&c, rc_json_get(c.r.j, tx, "id"));
        if (!(ev.src.kind == RC_DB_POSTGRES && ev.pos.txid.n && pg_tx_id(id, ev.pos.lsn))) ev.pos.txid = id;
        if ((st = rc_jsondec_i64(c.r.j, tx, "total_order", &x, &h, err)) != RC_OK) return st;
        if (h && x >= 1) ev.pos.tx_index = (uint32_t)(x - 1), ev.pos.has_tx_index = true;
    }
    if (ev.op == RC_OP_HEARTBEAT || ev.op == RC_OP_TRUNCATE) {
        rc_event *e = rc_event_list_push(out);
        if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        *e = ev;
        return RC_OK;
    }
    uint32_t before = rc_json_get(c.r.j, payload, "before"), after = rc_json_get(c.r.j, payload, "after");
    uint32_t imgs[2] = {before, after};
    for (int k = 0; k < 2; k++)
        if (imgs[k] && rc_jread_node(&c.r, imgs[k])->type != RC_J_OBJECT && rc_jread_node(&c.r, imgs[k])->type != RC_J_NULL)
            return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, imgs[k])->off, "\"%s\" must be an object or null (found %s)", k ? "after" : "before",
                                rc_jtype_name((rc_jtype)rc_jread_node(&c.r, imgs[k])->type));
    uint32_t row = after && rc_jread_node(&c.r, after)->type == RC_J_OBJECT ? after : before;
    if (!row || rc_jread_node(&c.r, row)->type != RC_J_OBJECT) {
        if (ev.op == RC_OP_DELETE) { /* a delete without before image (PostgreSQL replica identity) */
            rc_event *e = rc_event_list_push(out);
            if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
            *e = ev;
            return RC_OK;
        }
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, payload)->off, "op %.*s without a row image", (int)rc_jread_node(&c.r, opn)->n, rc_jread_node(&c.r, opn)->s);
    }
    uint32_t *field_of = NULL, vf;
    if ((st = value_fields(&c, schema, &vf)) != RC_OK) return st;
    if ((st = rc_dbz_read_columns(&c, vf, row, rc_dbkind_family(ev.src.kind), &ev, &field_of)) != RC_OK) return st;
    if ((st = rc_dbz_read_image(&c, before, &ev, field_of, &ev.before)) != RC_OK) return st;
    if ((st = rc_dbz_read_image(&c, after, &ev, field_of, &ev.after)) != RC_OK) return st;
    if ((ev.op == RC_OP_INSERT || ev.op == RC_OP_READ || ev.op == RC_OP_UPDATE) && !ev.after)
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, payload)->off, "op %.*s without \"after\"", (int)rc_jread_node(&c.r, opn)->n, rc_jread_node(&c.r, opn)->s);
    if (ev.op != RC_OP_UPDATE && ev.op != RC_OP_DELETE) ev.before = NULL;
    if (ev.op == RC_OP_DELETE) ev.after = NULL;
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    return RC_OK;
}

/* ---- the record key (decode_record) ---- */

/* The key struct's columns become the event's primary key, in the key's order; a key column the
 * row lacks is added with the key's value (a delete without before image: the key is all of the
 * row there is). */
static rc_status apply_key(const ctx *kc, uint32_t kfields, uint32_t krow, rc_event *ev)
{
    rc_event k;
    memset(&k, 0, sizeof k);
    uint32_t *field_of;
    const rc_value *kimg;
    rc_status st = rc_dbz_read_columns(kc, kfields, krow, rc_dbkind_family(ev->src.kind), &k, &field_of);
    if (st == RC_OK) st = rc_dbz_read_row_values(kc, krow, &k, field_of, &kimg);
    if (st != RC_OK) return st;
    uint32_t n = ev->ncols, *at = rc_arena_alloc(kc->r.a, sizeof *at * k.ncols);
    if (!at) return rc_error_set(kc->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < k.ncols; i++) { /* where each key column is in the row */
        at[i] = n;
        for (uint32_t j = 0; j < ev->ncols; j++)
            if (ev->cols[j].name.n == k.cols[i].name.n && !memcmp(ev->cols[j].name.p, k.cols[i].name.p, k.cols[i].name.n)) at[i] = j;
        if (at[i] == n) at[i] = n++;
    }
    rc_column *cols = rc_arena_alloc(kc->r.a, sizeof *cols * n);
    if (!cols) return rc_error_set(kc->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (ev->ncols) memcpy(cols, ev->cols, sizeof *cols * ev->ncols);
    for (uint32_t j = 0; j < ev->ncols; j++) cols[j].pk = 0; /* the key says which columns are the key */
    for (uint32_t i = 0; i < k.ncols; i++) {
        if (at[i] >= ev->ncols) cols[at[i]] = k.cols[i];
        cols[at[i]].pk = (uint16_t)(i + 1);
        cols[at[i]].nullable = false; /* a key column holds no null (a schemaless value's columns are all nullable) */
    }
    const rc_value **imgs[2] = {&ev->before, &ev->after};
    bool keyed_delete = ev->op == RC_OP_DELETE && !ev->before;
    for (int m = 0; m < 2 && n > ev->ncols; m++) {
        if (!*imgs[m] && !(m == 0 && keyed_delete)) continue;
        rc_value *img = rc_arena_alloc(kc->r.a, sizeof *img * n);
        if (!img) return rc_error_set(kc->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        memset(img, 0, sizeof *img * n);
        if (*imgs[m] && ev->ncols) memcpy(img, *imgs[m], sizeof *img * ev->ncols);
        for (uint32_t i = 0; i < k.ncols; i++)
            if (at[i] >= ev->ncols) img[at[i]] = kimg[i];
        *imgs[m] = img;
    }
    if (ev->changed && n > ev->ncols) {
        uint8_t *ch = rc_arena_alloc(kc->r.a, n);
        if (!ch) return rc_error_set(kc->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        memcpy(ch, ev->changed, ev->ncols);
        memset(ch + ev->ncols, 0, n - ev->ncols);
        ev->changed = ch;
    }
    ev->cols = cols, ev->ncols = n;
    ev->cols_id = NULL; /* no longer the cached list */
    return RC_OK;
}

/* A Debezium record: the value decoded as any message, then its key (the key struct, with or
 * without its Connect schema) applied to the row events it made. A null value is a tombstone,
 * which Debezium writes after a delete so that compaction can drop the key: no event. */
rc_status rc_dbz_decode_record(void *p, const rc_record_in *r, rc_arena *a, rc_event_list *out, rc_error *err)
{
    size_t first = out->count;
    dz_dec *d = p;
    d->keyed = true; /* a MongoDB delete may leave its document key to the record key */
    rc_status st = rc_record_value(rc_dbz_decode, p, r, a, out, err);
    d->keyed = false;
    return st != RC_OK ? st : rc_dbz_record_key(p, r, first, a, out, err);
}

rc_status rc_dbz_record_key(void *p, const rc_record_in *r, size_t first, rc_arena *a, rc_event_list *out, rc_error *err)
{
    dz_dec *d = p;
    rc_status st;
    bool key_struct = r->key && r->key_n && memchr(r->key, '{', r->key_n);
    for (size_t i = first; i < out->count && !key_struct; i++)
        if (out->items[i].doc && !out->items[i].doc->key && out->items[i].op == RC_OP_DELETE)
            return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "a MongoDB delete without \"filter\" takes its document key from the record key, and the record has none");
    if (!r->key || out->count == first) return RC_OK;
    size_t koff = (size_t)(r->key - r->rec), k = 0;
    while (k < r->key_n && (r->key[k] == ' ' || r->key[k] == '\t')) k++;
    if (k == r->key_n || r->key[k] != '{') return RC_OK; /* not a key struct (the OMS flavour's pk text): it names no column */
    if ((st = rc_jsondec_parse(&d->kjd, r->key, r->key_n, a, err)) != RC_OK) goto key_error;
    ctx kc = {{&d->kjd.json, a, err}, d};
    uint32_t krow = 0, kfields = 0;
    if (rc_jread_node(&kc.r, 0)->type == RC_J_OBJECT) {
        uint32_t pl = rc_json_get(kc.r.j, 0, "payload"), sc = rc_json_get(kc.r.j, 0, "schema");
        krow = pl && sc ? pl : 0; /* the envelope of schemas.enable=true (a key column named payload aside) */
        if (krow && rc_jread_node(&kc.r, pl)->type == RC_J_NULL) return RC_OK;
        if (krow && rc_jread_node(&kc.r, sc)->type == RC_J_OBJECT) kfields = rc_json_get(kc.r.j, sc, "fields");
        if (kfields && rc_jread_node(&kc.r, kfields)->type != RC_J_ARRAY) kfields = 0;
    }
    if (rc_jread_node(&kc.r, krow)->type != RC_J_OBJECT || !rc_jread_node(&kc.r, krow)->count) {
        st = rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&kc.r, krow)->off,
                          "the key is not a Debezium key struct (an object of the key columns, or with schemas "
                          "{\"schema\":..., \"payload\": that object}): read the values alone (--input-layout values)");
        goto key_error;
    }
    for (size_t i = first; i < out->count; i++) {
        rc_event *ev = &out->items[i];
        if (ev->op == RC_OP_HEARTBEAT) { /* {"serverName": ...}: the server is in the key and the topic only */
            if (!ev->src.server.n) ev->src.server = rc_dbz_read_copy_str(&kc, rc_json_get(kc.r.j, krow, "serverName"));
            continue;
        }
        /* a key names a row: the schema-change topic's {"databaseName"} and the transaction
         * topic's {"id"} name none */
        if (ev->op == RC_OP_TRUNCATE || ev->op == RC_OP_DDL || ev->op == RC_OP_BEGIN || ev->op == RC_OP_COMMIT) continue;
        if ((st = ev->doc ? rc_dbz_mongo_key(&kc, krow, ev) : apply_key(&kc, kfields, krow, ev)) != RC_OK) goto key_error;
    }
    return RC_OK;
key_error:
    if (err->offset != RC_NO_OFFSET) err->offset += koff;
    snprintf(err->message + strlen(err->message), sizeof err->message - strlen(err->message), " (in the record key)");
    return st;
}
