/* DataWorks "aliyun" layout, reader side (docs/formats/dataworks-aliyun.md, "Reading"): one
 * message is one row change. The six DataWorks types say little, so a column's type comes
 * from its DataWorks type and its value in the message: LONG is BIGINT (BIGINT UNSIGNED for a
 * value beyond it), DOUBLE is DECIMAL when the value is a string (DataWorks writes DECIMAL
 * so, with its scale) and DOUBLE when it is a number, DATE (epoch ms) TIMESTAMP(3), BYTES
 * (base64) LONGBLOB, STRING TEXT, BOOLEAN BOOLEAN.
 * An UPDATE written as two messages (UPDATE_BEFORE, then UPDATE_AFTER without before) is one
 * event: the decoder keeps the UPDATE_BEFORE message's text until its UPDATE_AFTER comes. */
#include <stdlib.h>
#include <string.h>
#include "formats/dataworks_aliyun.h"
#include "formats/dataworks_read.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsondec.h"
#include "core/nameidx.h"
#include "core/vparse.h"

typedef struct dwa_dec {
    rc_jsondec jd;   /* the parsed message, the type cache */
    char *pending;   /* the held UPDATE_BEFORE message, malloc'd; NULL: none */
    size_t pending_n;
} dwa_dec;

rc_status rc_dwa_dec_new(const rc_options *o, void **out, rc_error *err)
{
    (void)o; /* the writer's options do not change what is read: DATE is an instant */
    return rc_jsondec_new(sizeof(dwa_dec), out, err);
}

void rc_dwa_dec_free(void *p)
{
    dwa_dec *d = p;
    if (d) free(d->pending);
    rc_jsondec_free(p);
}

typedef struct ctx {
    rc_jread r; /* the message, the events' arena, the error */
    dwa_dec *d;
    rc_nameidx in_before, in_after; /* the images' dataColumn members by name */
} ctx;

static bool eq(const rc_jnode *n, const char *lit) { return n->n == strlen(lit) && !memcmp(n->s, lit, n->n); }

/* payload.<key>.dataColumn, 0 when the image is null or absent, and its members by name */
static rc_status image_obj(const ctx *c, uint32_t payload, const char *key, uint32_t *out, rc_nameidx *names)
{
    uint32_t dc;
    rc_status st = rc_dw_image(&c->r, payload, key, "dataColumn", &dc);
    *out = 0;
    if (st != RC_OK || !dc) return st;
    if (!rc_nameidx_object(names, c->r.j, dc, c->r.a)) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    *out = dc;
    return RC_OK;
}

/* The value node of column `name` in image object `img` (0: none), `names` its members. */
static uint32_t member(uint32_t img, const rc_nameidx *names, rc_str name) { return img ? rc_nameidx_member(names, name.p, name.n) : 0; }

typedef struct decl_ctx {
    const ctx *c;
    rc_family fam;
    uint32_t before, after; /* the images' dataColumn objects (0: none) */
} decl_ctx;

/* The declaration of a column of DataWorks type node `ty`, given its values in the message:
 * LONG beyond BIGINT in either image is BIGINT UNSIGNED, DOUBLE written as a string in either
 * is DECIMAL. */
static const char *declared(const void *p, const rc_json *j, uint32_t ty, rc_str name)
{
    const decl_ctx *dc = p;
    const rc_jnode *t = &j->nodes[ty];
    bool big = false, str = false;
    const uint32_t v[2] = {member(dc->before, &dc->c->in_before, name), member(dc->after, &dc->c->in_after, name)};
    for (int k = 0; k < 2; k++) {
        const rc_jnode *val = v[k] ? rc_jread_node(&dc->c->r, v[k]) : NULL;
        uint64_t u;
        int64_t i;
        if (val && val->type == RC_J_NUMBER && rc_parse_i64(val->s, val->n, &i) != RC_OK && rc_parse_u64(val->s, val->n, &u) == RC_OK) big = true;
        if (val && val->type == RC_J_STRING) str = true;
    }
    bool pg = dc->fam == RC_FAM_PG;
    if (eq(t, "LONG")) return rc_type_in_family(dc->fam, big ? "bigint unsigned" : "bigint");
    if (eq(t, "DOUBLE")) return rc_type_in_family(dc->fam, str ? "decimal" : "double");
    if (eq(t, "STRING")) return rc_type_in_family(dc->fam, "text");
    if (eq(t, "BOOLEAN")) return "boolean";
    if (eq(t, "DATE")) return pg ? "timestamptz(3)" : "timestamp(3)";
    if (eq(t, "BYTES")) return pg ? "bytea" : "longblob";
    return NULL;
}

static rc_status columns(const ctx *c, uint32_t schema, rc_family fam, uint32_t before, uint32_t after, rc_event *ev)
{
    static const rc_dw_names names = {"dataColumn", "primaryKey", " (expected LONG, DOUBLE, STRING, DATE, BYTES or BOOLEAN)"};
    const decl_ctx dc = {c, fam, before, after};
    return rc_dw_columns(c->r.j, schema, &names, declared, &dc, fam, c->d->jd.types, c->r.a, ev, c->r.err);
}

/* One value of column `col` from JSON node v. */
static rc_status value(const ctx *c, const rc_column *col, const rc_jnode *v, rc_value *out)
{
    static const rc_vparse_opts vo = {.bytes = RC_BYTES_BASE64};
    rc_vkind k = col->type.info->vkind;
    memset(out, 0, sizeof *out);
    if (v->type == RC_J_NULL) return RC_OK;
    if (k == RC_V_BOOL && (v->type == RC_J_TRUE || v->type == RC_J_FALSE)) {
        *out = (rc_value){.kind = RC_V_BOOL, .b = v->type == RC_J_TRUE};
        return RC_OK;
    }
    if (k == RC_V_TIMESTAMP && v->type == RC_J_NUMBER) { /* DATE: epoch milliseconds */
        int64_t ms;
        if (rc_parse_i64(v->s, v->n, &ms) != RC_OK)
            return rc_error_set(c->r.err, RC_ERR_VALUE, v->off, "column \"%.*s\" (DATE): %.*s is not a whole number of milliseconds", (int)col->name.n,
                                col->name.p, (int)(v->n > 30 ? 30 : v->n), v->s);
        int64_t sec = rc_floor_div(ms, 1000);
        *out = (rc_value){.kind = RC_V_TIMESTAMP, .ts = {sec, (uint32_t)(ms - sec * 1000) * 1000000u}};
        return RC_OK;
    }
    bool text_ok = v->type == RC_J_STRING ? k != RC_V_INT && k != RC_V_UINT && k != RC_V_FLOAT64 && k != RC_V_BOOL
                                          : v->type == RC_J_NUMBER && (k == RC_V_INT || k == RC_V_UINT || k == RC_V_FLOAT64 || k == RC_V_DECIMAL);
    if (!text_ok)
        return rc_error_set(c->r.err, RC_ERR_VALUE, v->off, "column \"%.*s\": a %s is not a value of DataWorks type %s", (int)col->name.n, col->name.p,
                            rc_jtype_name((rc_jtype)v->type), rc_dwa_type(&col->type));
    rc_error verr;
    rc_error_clear(&verr);
    rc_status st = rc_value_from_text(col, v->s, v->n, &vo, c->r.a, out, &verr);
    return st == RC_OK ? RC_OK : rc_jread_raise(&c->r, v, st, &verr);
}

static rc_status image(const ctx *c, uint32_t img, const rc_nameidx *names, const char *which, const rc_event *ev, const rc_value **out)
{
    *out = NULL;
    if (!img) return RC_OK;
    rc_value *vals = rc_arena_alloc(c->r.a, sizeof *vals * ev->ncols);
    if (!vals) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    if (rc_jread_node(&c->r, img)->count != ev->ncols)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, img)->off, "payload.%s.dataColumn has %u columns, schema.dataColumn %u", which,
                            rc_jread_node(&c->r, img)->count, ev->ncols);
    for (uint32_t i = 0; i < ev->ncols; i++) {
        uint32_t v = member(img, names, ev->cols[i].name);
        if (!v)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, img)->off, "payload.%s.dataColumn has no column \"%.*s\"", which,
                                (int)ev->cols[i].name.n, ev->cols[i].name.p);
        rc_status st = value(c, &ev->cols[i], rc_jread_node(&c->r, v), &vals[i]);
        if (st != RC_OK) return st;
    }
    *out = vals;
    return RC_OK;
}

typedef enum { OP_INSERT, OP_UPDATE_BEFORE, OP_UPDATE_AFTER, OP_DELETE, OP_HEARTBEAT } dwa_op;

/* One message into *ev and its op; *skip when the table filter refused it. */
static rc_status decode_one(ctx *c, rc_event *ev, dwa_op *op, bool *skip, rc_event_list *out)
{
    rc_error *err = c->r.err;
    memset(ev, 0, sizeof *ev);
    *skip = false;
    if (rc_jread_node(&c->r, 0)->type != RC_J_OBJECT)
        return rc_error_set(err, RC_ERR_SCHEMA, 0, "a DataWorks aliyun message must be a JSON object (found %s)", rc_jtype_name((rc_jtype)rc_jread_node(&c->r, 0)->type));
    uint32_t ver = rc_json_get(c->r.j, 0, "version");
    if (ver && !(rc_jread_is_str(&c->r, ver) && eq(rc_jread_node(&c->r, ver), "0.0.1")))
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c->r, ver)->off, "\"version\" must be \"0.0.1\" in the aliyun layout (found \"%.*s\")",
                            (int)(rc_jread_node(&c->r, ver)->n > 20 ? 20 : rc_jread_node(&c->r, ver)->n), rc_jread_node(&c->r, ver)->s);
    uint32_t payload, schema, ts, before, after;
    rc_status st;
    if ((st = rc_dw_object(&c->r, 0, "payload", true, &payload)) != RC_OK || (st = rc_dw_object(&c->r, payload, "timestamp", false, &ts)) != RC_OK) return st;
    uint32_t opn = rc_json_get(c->r.j, payload, "op");
    if (!rc_jread_is_str(&c->r, opn)) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c->r, payload)->off, "payload needs \"op\" as a string");
    const rc_jnode *o = rc_jread_node(&c->r, opn);
    if (eq(o, "INSERT")) *op = OP_INSERT, ev->op = RC_OP_INSERT;
    else if (eq(o, "UPDATE_BEFORE")) *op = OP_UPDATE_BEFORE, ev->op = RC_OP_UPDATE;
    else if (eq(o, "UPDATE_AFTER")) *op = OP_UPDATE_AFTER, ev->op = RC_OP_UPDATE;
    else if (eq(o, "DELETE")) *op = OP_DELETE, ev->op = RC_OP_DELETE;
    else if (eq(o, "MHEARTBEAT")) *op = OP_HEARTBEAT, ev->op = RC_OP_HEARTBEAT;
    else
        return rc_error_set(err, RC_ERR_SCHEMA, o->off, "unknown payload.op \"%.*s\" (read are INSERT, UPDATE_BEFORE, UPDATE_AFTER, DELETE and MHEARTBEAT)",
                            (int)(o->n > 20 ? 20 : o->n), o->s);
    if (ts) { /* -1: unknown (a snapshot row); checkpointTime repeats eventTime */
        uint32_t et = rc_json_get(c->r.j, ts, "eventTime"), sy = rc_json_get(c->r.j, ts, "systemTime");
        if ((st = rc_jsondec_us_at(c->r.j, et, "eventTime", 1000, &ev->ts_us, &ev->has_ts, err)) != RC_OK ||
            (st = rc_jsondec_us_at(c->r.j, sy, "systemTime", 1000, &ev->proc_us, &ev->has_proc, err)) != RC_OK)
            return st;
        if (ev->has_ts && ev->ts_us == -1000) ev->has_ts = false, ev->ts_us = 0;
        if (ev->has_proc && ev->proc_us == -1000) ev->has_proc = false, ev->proc_us = 0;
    }
    if (*op == OP_HEARTBEAT) return RC_OK;
    rc_str seq;
    if ((st = rc_jsondec_str(c->r.j, payload, "sequenceId", c->r.a, &seq, err)) != RC_OK) return st;
    if (seq.n && !(seq.n == 2 && !memcmp(seq.p, "-1", 2))) {
        if (rc_parse_u64(seq.p, seq.n, &ev->pos.seq) != RC_OK)
            return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c->r, rc_json_get(c->r.j, payload, "sequenceId"))->off, "payload.sequenceId must be a number as a string (or \"-1\")");
        ev->pos.has_seq = true;
    }
    uint32_t src, dbt;
    rc_str dbtype;
    if ((st = rc_dw_object(&c->r, 0, "schema", true, &schema)) != RC_OK || (st = rc_dw_object(&c->r, schema, "source", true, &src)) != RC_OK ||
        (st = rc_jsondec_str(c->r.j, src, "dbType", c->r.a, &dbtype, err)) != RC_OK || (st = rc_jsondec_str(c->r.j, src, "dbName", c->r.a, &ev->src.db, err)) != RC_OK ||
        (st = rc_jsondec_str(c->r.j, src, "schemaName", c->r.a, &ev->src.schema, err)) != RC_OK ||
        (st = rc_jsondec_str(c->r.j, src, "tableName", c->r.a, &ev->src.table, err)) != RC_OK)
        return st;
    dbt = rc_json_get(c->r.j, src, "dbType");
    if (!rc_dwa_dbkind(dbtype, &ev->src.kind) || ev->src.kind == RC_DB_ORACLE || ev->src.kind == RC_DB_OB_ORACLE || ev->src.kind == RC_DB_SQLSERVER)
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c->r, dbt ? dbt : src)->off, "schema.source.dbType \"%.*s\" is not read (read are MySQL, OceanBase and PostgreSQL)",
                            (int)(dbtype.n > 40 ? 40 : dbtype.n), dbtype.p);
    if (!rc_event_list_accepts(out, ev->src.db.n ? ev->src.db : ev->src.schema, ev->src.table)) {
        *skip = true;
        return RC_OK;
    }
    if ((st = image_obj(c, payload, "before", &before, &c->in_before)) != RC_OK || (st = image_obj(c, payload, "after", &after, &c->in_after)) != RC_OK)
        return st;
    static const char *const need[] = {[OP_INSERT] = "after", [OP_UPDATE_BEFORE] = "before", [OP_UPDATE_AFTER] = "after", [OP_DELETE] = "before"};
    if (!(*op == OP_INSERT || *op == OP_UPDATE_AFTER ? after : before))
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c->r, payload)->off, "an op %.*s message needs payload.%s", (int)o->n, o->s, need[*op]);
    if (*op == OP_INSERT) before = 0;
    if (*op == OP_DELETE || *op == OP_UPDATE_BEFORE) after = 0;
    if ((st = columns(c, schema, rc_dbkind_family(ev->src.kind), before, after, ev)) != RC_OK ||
        (st = image(c, before, &c->in_before, "before", ev, &ev->before)) != RC_OK ||
        (st = image(c, after, &c->in_after, "after", ev, &ev->after)) != RC_OK)
        return st;
    return RC_OK;
}

static bool same_str(rc_str a, rc_str b) { return a.n == b.n && !memcmp(a.p, b.p, a.n); }

/* The held UPDATE_BEFORE message's before image for `ev`, an UPDATE_AFTER without one. */
static rc_status pair(ctx *c, rc_event *ev, rc_arena *a, rc_event_list *out)
{
    dwa_dec *d = c->d;
    char *text = rc_arena_memdup(a, d->pending, d->pending_n); /* its values live as long as ev */
    size_t n = d->pending_n;
    free(d->pending);
    d->pending = NULL;
    if (!text) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    rc_event bev;
    dwa_op op;
    bool skip;
    rc_status st = rc_jsondec_parse(&d->jd, text, n, a, c->r.err);
    if (st == RC_OK) st = decode_one(c, &bev, &op, &skip, out);
    if (st != RC_OK) return st;
    bool fits = same_str(bev.src.db, ev->src.db) && same_str(bev.src.table, ev->src.table) && bev.ncols == ev->ncols;
    rc_value *img = (rc_value *)bev.before;
    rc_column *cols = NULL;
    for (uint32_t i = 0; fits && i < ev->ncols; i++) {
        fits = same_str(bev.cols[i].name, ev->cols[i].name);
        if (!fits || bev.cols[i].type.info == ev->cols[i].type.info) continue;
        /* LONG: one image beyond BIGINT makes the column BIGINT UNSIGNED; the other image's
         * values must then be unsigned too */
        bool to_before = bev.cols[i].type.info->vkind == RC_V_UINT && ev->cols[i].type.info->vkind == RC_V_INT;
        bool to_after = bev.cols[i].type.info->vkind == RC_V_INT && ev->cols[i].type.info->vkind == RC_V_UINT;
        rc_value *v = (rc_value *)(to_before ? &ev->after[i] : &img[i]);
        fits = (to_before || to_after) && (v->kind != RC_V_INT || v->i >= 0);
        if (!fits) break;
        if (v->kind == RC_V_INT) v->kind = RC_V_UINT, v->u = (uint64_t)v->i;
        if (to_before) {
            if (!cols && !(cols = (rc_column *)rc_arena_memdup(a, ev->cols, sizeof *cols * ev->ncols))) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
            cols[i].type = bev.cols[i].type;
        }
    }
    if (!fits)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, 0, "this UPDATE_AFTER message has no payload.before, and the UPDATE_BEFORE message before it is of "
                                                      "another table or has other columns or column types");
    if (cols) ev->cols = cols;
    ev->before = img;
    return RC_OK;
}

rc_status rc_dwa_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    dwa_dec *d = p;
    rc_status st = rc_jsondec_parse(&d->jd, msg, n, a, err);
    if (st != RC_OK) return st;
    ctx c = {{&d->jd.json, a, err}, d, {0}, {0}};
    rc_event ev;
    dwa_op op;
    bool skip;
    if ((st = decode_one(&c, &ev, &op, &skip, out)) != RC_OK) return st;
    if (skip) return RC_OK;
    if (op == OP_UPDATE_BEFORE || (d->pending && !(op == OP_UPDATE_AFTER && !ev.before))) {
        if (d->pending) {
            free(d->pending), d->pending = NULL;
            return rc_error_set(err, RC_ERR_SCHEMA, 0, "the UPDATE_BEFORE message before this one is not followed by its UPDATE_AFTER");
        }
        if (!(d->pending = malloc(n ? n : 1))) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        memcpy(d->pending, msg, n);
        d->pending_n = n;
        return RC_OK; /* the event comes with the UPDATE_AFTER message */
    }
    if (d->pending && (st = pair(&c, &ev, a, out)) != RC_OK) return st;
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    return RC_OK;
}
