/* OMS "dataworks", reader side (docs/formats/oms-dataworks.md, "Reading"): {version, schema
 * {source, column, pk}, payload {before, after, op, timestamp, ddl, scn}, extend}. Column
 * types come from schema.column; images are read as the default format's. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "formats/dataworks_read.h"
#include "formats/oms_default_read.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsondec.h"
#include "core/nameidx.h"

typedef struct ctx {
    rc_jread r; /* the message, the events' arena, the error */
    rc_jsondec *d; /* the parsed message, the type cache */
} ctx;


rc_status rc_dw_object(const rc_jread *r, uint32_t obj, const char *key, bool required, uint32_t *out)
{
    const rc_json *j = r->j;
    uint32_t v = rc_json_get(j, obj, key);
    *out = 0;
    if (!v || j->nodes[v].type == RC_J_NULL)
        return required ? rc_error_set(r->err, RC_ERR_SCHEMA, j->nodes[obj].off, "a DataWorks message needs \"%s\"", key) : RC_OK;
    if (j->nodes[v].type != RC_J_OBJECT)
        return rc_error_set(r->err, RC_ERR_SCHEMA, j->nodes[v].off, "\"%s\" must be an object (found %s)", key, rc_jtype_name((rc_jtype)j->nodes[v].type));
    *out = v;
    return RC_OK;
}

rc_status rc_dw_columns(const rc_json *j, uint32_t schema, const rc_dw_names *names, rc_dw_decl_fn decl, const void *dctx, rc_family fam,
                        rc_type_cache *types, rc_arena *a, rc_event *ev, rc_error *err)
{
    const rc_jnode *N = j->nodes;
    uint32_t list = rc_json_get(j, schema, names->list_key), pk = rc_json_get(j, schema, names->pk_key);
    if (!list || N[list].type != RC_J_ARRAY)
        return rc_error_set(err, RC_ERR_SCHEMA, list ? N[list].off : N[schema].off, "a row message needs the array schema.%s", names->list_key);
    uint32_t n = N[list].count, i = 0;
    if (!n) return rc_error_set(err, RC_ERR_SCHEMA, N[list].off, "schema.%s names no column", names->list_key);
    rc_column *cols = rc_arena_alloc(a, sizeof *cols * n);
    rc_nameidx by_name;
    if (!cols || !rc_nameidx_init(&by_name, n, a)) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    for (uint32_t f = N[list].first; f; f = N[f].next, i++) {
        uint32_t nm = N[f].type == RC_J_OBJECT ? rc_json_get(j, f, "name") : 0, ty = nm ? rc_json_get(j, f, "type") : 0;
        if (!nm || N[nm].type != RC_J_STRING || !ty || N[ty].type != RC_J_STRING)
            return rc_error_set(err, RC_ERR_SCHEMA, N[f].off, "a schema.%s entry needs \"name\" and \"type\" strings", names->list_key);
        memset(&cols[i], 0, sizeof cols[i]);
        cols[i].name = (rc_str){rc_arena_memdup(a, N[nm].s, N[nm].n), N[nm].n};
        if (!cols[i].name.p) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        if (rc_nameidx_add(&by_name, cols[i].name.p, cols[i].name.n, i) != UINT32_MAX)
            return rc_error_set(err, RC_ERR_SCHEMA, N[nm].off, "schema.%s names \"%.*s\" twice", names->list_key, (int)N[nm].n, N[nm].s);
        cols[i].nullable = true;
        const char *d = decl(dctx, j, ty, cols[i].name);
        if (!d)
            return rc_error_set(err, RC_ERR_TYPE, N[ty].off, "unknown DataWorks column type \"%.*s\"%s", (int)(N[ty].n > 40 ? 40 : N[ty].n), N[ty].s,
                                names->types);
        const rc_coltype *t;
        rc_status st = rc_type_cache_get(types, a, fam, d, strlen(d), N[ty].off, &t, err);
        if (st != RC_OK) return st;
        cols[i].type = *t;
    }
    if (pk && N[pk].type == RC_J_ARRAY) {
        uint16_t pos = 0;
        for (uint32_t p = N[pk].first; p; p = N[p].next) {
            uint32_t q = N[p].type == RC_J_STRING ? rc_nameidx_find(&by_name, N[p].s, N[p].n) : UINT32_MAX;
            if (q == UINT32_MAX)
                return rc_error_set(err, RC_ERR_SCHEMA, N[p].off, "schema.%s names no column of schema.%s", names->pk_key, names->list_key);
            if (cols[q].pk) return rc_error_set(err, RC_ERR_SCHEMA, N[p].off, "schema.%s names a column twice", names->pk_key);
            cols[q].pk = ++pos;
        }
    } else if (pk && N[pk].type != RC_J_NULL) {
        return rc_error_set(err, RC_ERR_SCHEMA, N[pk].off, "schema.%s must be an array or null", names->pk_key);
    }
    ev->cols = cols;
    ev->ncols = n;
    return RC_OK;
}

static const struct {
    const char *name;
    rc_dbkind kind;
} kinds[] = {{"mysql", RC_DB_MYSQL},   {"ob_mysql", RC_DB_OB_MYSQL},  {"ob_oracle", RC_DB_OB_ORACLE}, {"oracle", RC_DB_ORACLE},
             {"postgresql", RC_DB_POSTGRES}, {"sqlserver", RC_DB_SQLSERVER}, {"unknown", RC_DB_UNKNOWN}};

/* DDL operations of payload.op (the DDL kind the encoder derived from the statement). */
static const char *const ddl_ops[] = {"QUERY", "CREATE", "ALTER", "ERASE", "TRUNCATE", "RENAME", "CINDEX", "DINDEX", NULL};

/* The 2.0 type names: the catalog's DataWorks labels. */
static const char *label_decl(const void *fam, const rc_json *j, uint32_t ty, rc_str name)
{
    (void)name;
    return rc_type_by_label(*(const rc_family *)fam, offsetof(rc_type_info, dataworks), j->nodes[ty].s, j->nodes[ty].n);
}

static rc_status columns(const ctx *c, uint32_t schema, rc_family fam, rc_event *ev)
{
    static const rc_dw_names names = {"column", "pk", ""};
    return rc_dw_columns(c->r.j, schema, &names, label_decl, &fam, fam, c->d->types, c->r.a, ev, c->r.err);
}

rc_status rc_dw_image(const rc_jread *r, uint32_t payload, const char *key, const char *inner, uint32_t *out)
{
    uint32_t img;
    rc_status st = rc_dw_object(r, payload, key, false, &img);
    *out = 0;
    if (st != RC_OK || !img) return st;
    uint32_t v = rc_json_get(r->j, img, inner);
    if (!v || rc_jread_node(r, v)->type != RC_J_OBJECT)
        return rc_error_set(r->err, RC_ERR_SCHEMA, rc_jread_node(r, img)->off, "payload.%s needs a \"%s\" object", key, inner);
    *out = v;
    return RC_OK;
}

/* payload.before / payload.after: {"data": {...}} or null */
static rc_status image(const ctx *c, uint32_t payload, const char *key, rc_event *ev, const rc_value **out)
{
    uint32_t data;
    *out = NULL;
    rc_status st = rc_dw_image(&c->r, payload, key, "data", &data);
    if (st != RC_OK || !data) return st;
    return rc_oms_read_image(c->r.j, data, key, ev, NULL, NULL, c->r.a, c->r.err, out);
}

rc_status rc_dw_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    rc_jsondec *d = p;
    ctx c = {.d = d};
    rc_status st = rc_jsondec_object(d, msg, n, a, "a DataWorks message", &c.r, err);
    if (st != RC_OK) return st;
    uint32_t payload, schema, ts;
    if ((st = rc_dw_object(&c.r, 0, "payload", true, &payload)) != RC_OK || (st = rc_dw_object(&c.r, 0, "schema", false, &schema)) != RC_OK ||
        (st = rc_dw_object(&c.r, payload, "timestamp", false, &ts)) != RC_OK)
        return st;
    uint32_t opn = rc_json_get(c.r.j, payload, "op");
    if (!rc_jread_is_str(&c.r, opn)) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, payload)->off, "payload needs \"op\" as a string");
    const rc_jnode *op = rc_jread_node(&c.r, opn);
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    int64_t x;
    bool h;
    if (ts) {
        if ((st = rc_jsondec_us_at(c.r.j, rc_json_get(c.r.j, ts, "eventTime"), "eventTime", 1000, &ev.ts_us, &ev.has_ts, err)) != RC_OK ||
            (st = rc_jsondec_us_at(c.r.j, rc_json_get(c.r.j, ts, "systemTime"), "systemTime", 1000, &ev.proc_us, &ev.has_proc, err)) != RC_OK)
            return st;
        if ((st = rc_jsondec_i64(c.r.j, ts, "checkpointTime", &x, &h, err)) != RC_OK) return st;
        if (h) { /* kept as the checkpoint, which is what the writer puts there */
            uint32_t cn = rc_json_get(c.r.j, ts, "checkpointTime");
            ev.pos.checkpoint = (rc_str){rc_arena_memdup(a, rc_jread_node(&c.r, cn)->s, rc_jread_node(&c.r, cn)->n), rc_jread_node(&c.r, cn)->n};
        }
    }
#define OP_IS(lit) (op->n == sizeof lit - 1 && !memcmp(op->s, lit, sizeof lit - 1))
    if (OP_IS("HEARTBEAT") || OP_IS("TRANSACTION_BEGIN") || OP_IS("TRANSACTION_END")) {
        ev.op = OP_IS("HEARTBEAT") ? RC_OP_HEARTBEAT : OP_IS("TRANSACTION_BEGIN") ? RC_OP_BEGIN : RC_OP_COMMIT;
        ev.pos.checkpoint = (rc_str){0};
        rc_event *e = rc_event_list_push(out);
        if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        *e = ev;
        return RC_OK;
    }
    if (!schema) return rc_error_set(err, RC_ERR_SCHEMA, 0, "a DataWorks %.*s message needs \"schema\"", (int)(op->n > 20 ? 20 : op->n), op->s);
    uint32_t src;
    rc_str dbtype;
    if ((st = rc_dw_object(&c.r, schema, "source", true, &src)) != RC_OK || (st = rc_jsondec_str(c.r.j, src, "dbType", a, &dbtype, err)) != RC_OK ||
        (st = rc_jsondec_str(c.r.j, src, "dbVersion", a, &ev.src.version, err)) != RC_OK || (st = rc_jsondec_str(c.r.j, src, "dbName", a, &ev.src.db, err)) != RC_OK ||
        (st = rc_jsondec_str(c.r.j, src, "schema", a, &ev.src.schema, err)) != RC_OK || (st = rc_jsondec_str(c.r.j, src, "table", a, &ev.src.table, err)) != RC_OK ||
        (st = rc_jsondec_str(c.r.j, payload, "scn", a, &ev.pos.scn, err)) != RC_OK)
        return st;
    if (ev.pos.scn.n == 4 && !memcmp(ev.pos.scn.p, "null", 4)) ev.pos.scn = (rc_str){0}; /* the seed's absent SCN */
    size_t k = 0;
    while (k < sizeof kinds / sizeof *kinds && !(strlen(kinds[k].name) == dbtype.n && !memcmp(kinds[k].name, dbtype.p, dbtype.n))) k++;
    if (k == sizeof kinds / sizeof *kinds)
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, rc_json_get(c.r.j, src, "dbType") ? rc_json_get(c.r.j, src, "dbType") : src)->off,
                            "unknown schema.source.dbType \"%.*s\"", (int)(dbtype.n > 40 ? 40 : dbtype.n), dbtype.p);
    ev.src.kind = kinds[k].kind;
    if (!rc_event_list_accepts(out, ev.src.db.n ? ev.src.db : ev.src.schema, ev.src.table)) return RC_OK;
    if (OP_IS("INSERT")) ev.op = RC_OP_INSERT;
    else if (OP_IS("UPDATE")) ev.op = RC_OP_UPDATE;
    else if (OP_IS("DELETE")) ev.op = RC_OP_DELETE;
    else {
        for (k = 0; ddl_ops[k] && !(strlen(ddl_ops[k]) == op->n && !memcmp(ddl_ops[k], op->s, op->n)); k++) {}
        if (!ddl_ops[k]) return rc_error_set(err, RC_ERR_SCHEMA, op->off, "unknown payload.op \"%.*s\"", (int)(op->n > 20 ? 20 : op->n), op->s);
        uint32_t ddl;
        if ((st = rc_dw_object(&c.r, payload, "ddl", true, &ddl)) != RC_OK || (st = rc_jsondec_str(c.r.j, ddl, "text", a, &ev.ddl, err)) != RC_OK) return st;
        if (!ev.ddl.n) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, ddl)->off, "payload.ddl needs \"text\"");
        ev.op = RC_OP_DDL;
    }
#undef OP_IS
    if (ev.op != RC_OP_DDL) {
        if ((st = columns(&c, schema, rc_dbkind_family(ev.src.kind), &ev)) != RC_OK) return st;
        if (ev.op != RC_OP_INSERT && (st = image(&c, payload, "before", &ev, &ev.before)) != RC_OK) return st;
        if (ev.op != RC_OP_DELETE && (st = image(&c, payload, "after", &ev, &ev.after)) != RC_OK) return st;
        if ((ev.op == RC_OP_DELETE ? !ev.before : !ev.after))
            return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, payload)->off, "payload.%s is null", ev.op == RC_OP_DELETE ? "before" : "after");
        if ((st = rc_event_fit_fractions(&ev, a, d->types, err)) != RC_OK) return st; /* type names without precision */
    }
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    return RC_OK;
}
