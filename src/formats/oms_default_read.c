/* OMS "default" and "defaultextendcolumntype", reader side (docs/formats/oms-default.md,
 * "Reading"): {"prevStruct", "postStruct", "allMetaData", "recordType"}. Column types come
 * from "__light_type" in the extended flavour and from the JSON values otherwise. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/oms_default_read.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsondec.h"
#include "core/nameidx.h"
#include "core/vparse.h"

typedef struct ctx {
    rc_jread r; /* the message, the events' arena, the error */
    rc_jsondec *d; /* the parsed message, the type cache */
} ctx;

static bool is(const ctx *c, uint32_t i, const char *s)
{
    return i && rc_jread_node(&c->r, i)->type == RC_J_STRING && rc_jread_node(&c->r, i)->n == strlen(s) && !memcmp(rc_jread_node(&c->r, i)->s, s, rc_jread_node(&c->r, i)->n);
}


static bool rc_str_is(rc_str s, const char *lit) { return s.n == strlen(lit) && !memcmp(s.p, lit, s.n); }

/* allMetaData.dbType back to the source kind (docs/formats/oms-default.md). */
static bool kind_of(rc_str t, rc_dbkind *out)
{
    static const struct {
        const char *name;
        rc_dbkind kind;
    } map[] = {{"MYSQL", RC_DB_MYSQL},           {"OB_MYSQL", RC_DB_OB_MYSQL},  {"OB_ORACLE", RC_DB_OB_ORACLE},
               {"ORACLE", RC_DB_ORACLE},         {"POSTGRESQL", RC_DB_POSTGRES}, {"SQLSERVER", RC_DB_SQLSERVER},
               {"UNKNOWN", RC_DB_UNKNOWN}};
    for (size_t k = 0; k < sizeof map / sizeof *map; k++)
        if (rc_str_is(t, map[k].name)) return *out = map[k].kind, true;
    return false;
}

/* Without types: what the JSON value says (exact numbers stay exact). */
static const char *inferred(const rc_jnode *v)
{
    int64_t i;
    uint64_t u;
    switch (v->type) {
    case RC_J_NUMBER:
        if (rc_parse_i64(v->s, v->n, &i) == RC_OK) return "bigint";
        if (rc_parse_u64(v->s, v->n, &u) == RC_OK) return "bigint unsigned";
        /* Java's Double.toString writes "1.0E-307" (a point, no '+', at most 17 significant
         * digits); BigDecimal's toString "0E-10", "1.23E+5" or the exact expansion of a double
         * (hundreds of digits): anything else with an exponent is a decimal */
        {
            const char *e = memchr(v->s, 'E', v->n);
            if (!e) return "decimal";
            size_t digits = 0; /* Double.toString has at most 17 significant digits */
            for (const char *q = v->s; q < e; q++) digits += *q >= '0' && *q <= '9';
            return !memchr(v->s, '.', (size_t)(e - v->s)) || (e + 1 < v->s + v->n && e[1] == '+') || digits > 18 ? "decimal" : "double";
        }
    case RC_J_TRUE:
    case RC_J_FALSE: return "boolean";
    case RC_J_OBJECT:
    case RC_J_ARRAY: return "json";
    default: return "text";
    }
}

/* The columns, from the row object `row` (and its __light_type, when present). */
static rc_status columns(const ctx *c, uint32_t row, uint32_t other, rc_family fam, rc_str pk, size_t pk_off, rc_event *ev)
{
    uint32_t light = rc_json_get(c->r.j, row, "__light_type");
    if (light && rc_jread_node(&c->r, light)->type != RC_J_OBJECT)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, light)->off, "\"__light_type\" must be an object");
    uint32_t n = rc_jread_node(&c->r, row)->count - (light ? 1 : 0);
    if (!n) return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, row)->off, "a row image with no columns");
    rc_column *cols = rc_arena_alloc(c->r.a, sizeof *cols * (n ? n : 1));
    /* the row's names, __light_type's and (made at the first null) the other image's, each
     * found in constant time, not by a pass per column; of a repeated member the first counts,
     * as rc_json_get takes it */
    rc_nameidx names, light_names, other_names = {0};
    if (!cols || !rc_nameidx_init(&names, n, c->r.a) || (light && !rc_nameidx_object(&light_names, c->r.j, light, c->r.a)))
        return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    bool other_indexed = false;
    uint32_t i = 0;
    for (uint32_t k = rc_jread_node(&c->r, row)->first; k; k = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->next) {
        const rc_jnode *key = rc_jread_node(&c->r, k);
        if (key->n == 12 && !memcmp(key->s, "__light_type", 12)) continue;
        memset(&cols[i], 0, sizeof cols[i]);
        cols[i].name = (rc_str){rc_arena_memdup(c->r.a, key->s, key->n), key->n};
        if (!cols[i].name.p) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
        if (rc_nameidx_add(&names, cols[i].name.p, key->n, i) != UINT32_MAX)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, key->off, "the row names column \"%.*s\" twice", (int)key->n, key->s);
        cols[i].nullable = true;
        const char *decl;
        size_t off = key->off;
        if (light) {
            uint32_t lt = rc_nameidx_member(&light_names, key->s, key->n), st = 0; /* the column's entry */
            if (lt && rc_jread_node(&c->r, lt)->type == RC_J_OBJECT) st = rc_json_get(c->r.j, lt, "schemaType");
            if (!st || rc_jread_node(&c->r, st)->type != RC_J_STRING)
                return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, light)->off, "__light_type has no schemaType for column \"%.*s\"",
                                    (int)key->n, key->s);
            decl = rc_type_by_label(fam, offsetof(rc_type_info, light_type), rc_jread_node(&c->r, st)->s, rc_jread_node(&c->r, st)->n);
            if (!decl)
                return rc_error_set(c->r.err, RC_ERR_TYPE, rc_jread_node(&c->r, st)->off, "unknown schemaType \"%.*s\"", (int)(rc_jread_node(&c->r, st)->n > 40 ? 40 : rc_jread_node(&c->r, st)->n),
                                    rc_jread_node(&c->r, st)->s);
            off = rc_jread_node(&c->r, st)->off;
        } else {
            /* a null says nothing: the other image's value of the column may */
            const rc_jnode *v = rc_jread_node(&c->r, key->next);
            if (v->type == RC_J_NULL && other && rc_jread_node(&c->r, other)->type == RC_J_OBJECT) {
                if (!other_indexed && !rc_nameidx_object(&other_names, c->r.j, other, c->r.a))
                    return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
                other_indexed = true;
                uint32_t ov = rc_nameidx_member(&other_names, key->s, key->n);
                if (ov) v = rc_jread_node(&c->r, ov);
            }
            decl = rc_type_in_family(fam, inferred(v)); /* dbType ORACLE or POSTGRESQL: that family's names */
        }
        const rc_coltype *t;
        rc_status s = rc_type_cache_get(c->d->types, c->r.a, fam, decl, strlen(decl), off, &t, c->r.err);
        if (s != RC_OK) return s;
        cols[i].type = *t;
        i++;
    }
    /* record_primary_key: the key columns' names joined by \u0001 */
    uint16_t pos = 0;
    for (size_t s = 0; pk.n && s <= pk.n;) {
        const char *e = memchr(pk.p + s, '\x01', pk.n - s);
        size_t len = e ? (size_t)(e - (pk.p + s)) : pk.n - s;
        uint32_t q = rc_nameidx_find(&names, pk.p + s, len);
        if (q == UINT32_MAX)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, pk_off, "record_primary_key names \"%.*s\", which is not a column of the row", (int)len, pk.p + s);
        if (cols[q].pk) return rc_error_set(c->r.err, RC_ERR_SCHEMA, pk_off, "record_primary_key names \"%.*s\" twice", (int)len, pk.p + s);
        cols[q].pk = ++pos;
        s += len + 1;
    }
    ev->cols = cols;
    ev->ncols = i;
    return RC_OK;
}

/* With `base`, the row holds only some columns (SharePlex's changed columns): the others keep
 * base's values and `changed` marks the ones present. */
static rc_status image(const ctx *c, uint32_t row, const char *which, rc_event *ev, const rc_value *base, uint8_t *changed, const rc_value **out)
{
    *out = NULL;
    if (rc_jread_node(&c->r, row)->type != RC_J_OBJECT)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, row)->off, "\"%s\" must be an object (found %s)", which, rc_jtype_name((rc_jtype)rc_jread_node(&c->r, row)->type));
    rc_value *img = rc_arena_alloc(c->r.a, sizeof *img * (ev->ncols ? ev->ncols : 1));
    if (!img) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    uint8_t *got = rc_arena_alloc(c->r.a, ev->ncols ? ev->ncols : 1);
    if (!got) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    memset(got, 0, ev->ncols ? ev->ncols : 1);
    if (base) memcpy(img, base, sizeof *img * ev->ncols);
    else memset(img, 0, sizeof *img * (ev->ncols ? ev->ncols : 1));
    static const rc_vparse_opts vo = {.bytes = RC_BYTES_BASE64};
    uint32_t seen = 0, i = UINT32_MAX;
    rc_nameidx names = {0}; /* the columns by name, made when a row lists them in another order */
    for (uint32_t k = rc_jread_node(&c->r, row)->first; k; k = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->next) {
        const rc_jnode *key = rc_jread_node(&c->r, k), *v = rc_jread_node(&c->r, key->next);
        if (key->n == 12 && !memcmp(key->s, "__light_type", 12)) continue;
        i = rc_nameidx_column(&names, ev->cols, ev->ncols, i + 1, key->s, key->n, c->r.a);
        if (i == UINT32_MAX)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, key->off, "\"%s\" has column \"%.*s\", which the other image lacks", which, (int)key->n, key->s);
        if (got[i]++)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, key->off, "\"%s\" names column \"%.*s\" twice", which, (int)key->n, key->s);
        seen++;
        if (changed) changed[i] = 1;
        if (ev->cols[i].type.info->vkind == RC_V_BITS && v->type == RC_J_STRING) { /* BIT: base64 of its bytes, big-endian */
            rc_str raw;
            size_t bad;
            if (rc_base64_decode(v->s, v->n, c->r.a, &raw, &bad) != RC_OK || raw.n > 8)
                return rc_error_set(c->r.err, RC_ERR_VALUE, v->off, "column \"%.*s\" (bit): \"%.*s\" is not base64 of at most 8 bytes",
                                    (int)key->n, key->s, (int)(v->n > 20 ? 20 : v->n), v->s);
            uint64_t bv = 0;
            for (size_t q = 0; q < raw.n; q++) bv = bv << 8 | (unsigned char)raw.p[q];
            img[i] = (rc_value){.kind = RC_V_BITS, .u = bv};
            /* no width in the type label: the writer wrote ceil(width / 8) bytes, keep that many */
            rc_column *col = (rc_column *)&ev->cols[i];
            if (col->type.p1 < 0 && raw.n) {
                char *decl = rc_arena_alloc(c->r.a, 12);
                if (!decl) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
                col->type.p1 = (int32_t)raw.n * 8;
                col->type.decl = (rc_str){decl, (size_t)snprintf(decl, 12, "bit(%d)", col->type.p1)};
            }
            if (!rc_bits_fit(col, bv))
                return rc_error_set(c->r.err, RC_ERR_RANGE, v->off, "column \"%.*s\": a BIT value wider than bit(%d)", (int)key->n, key->s, col->type.p1);
            continue;
        }
        rc_status st = rc_jread_value(&c->r, &ev->cols[i], key->next, &vo, NULL, &img[i]);
        if (st == RC_SKIP)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, v->off, "a value must be a string, number, boolean or null (found %s)", rc_jtype_name((rc_jtype)v->type));
        if (st != RC_OK) return st;
    }
    if (!base && seen != ev->ncols)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, row)->off, "\"%s\" has %u columns, the other image %u", which, seen, ev->ncols);
    *out = img;
    return RC_OK;
}

rc_status rc_oms_read_image(const rc_json *j, uint32_t row, const char *which, rc_event *ev, const rc_value *base, uint8_t *changed, rc_arena *a,
                         rc_error *err, const rc_value **out)
{
    ctx c = {{j, a, err}, NULL};
    return image(&c, row, which, ev, base, changed, out);
}

const char *rc_oms_infer_type(const rc_jnode *v) { return inferred(v); }

rc_status rc_dflt_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    rc_jsondec *d = p;
    ctx c = {.d = d};
    rc_status st = rc_jsondec_object(d, msg, n, a, "an OMS default record", &c.r, err);
    if (st != RC_OK) return st;
    uint32_t rt = rc_json_get(c.r.j, 0, "recordType"), meta = rc_json_get(c.r.j, 0, "allMetaData");
    if (!rt) return rc_error_set(err, RC_ERR_SCHEMA, 0, "an OMS default record without \"recordType\"");
    if (!meta || rc_jread_node(&c.r, meta)->type != RC_J_OBJECT)
        return rc_error_set(err, RC_ERR_SCHEMA, meta ? rc_jread_node(&c.r, meta)->off : 0, "an OMS default record needs an \"allMetaData\" object");
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    if (is(&c, rt, "INSERT")) ev.op = RC_OP_INSERT;
    else if (is(&c, rt, "UPDATE")) ev.op = RC_OP_UPDATE;
    else if (is(&c, rt, "DELETE")) ev.op = RC_OP_DELETE;
    else if (is(&c, rt, "DDL")) ev.op = RC_OP_DDL;
    else if (is(&c, rt, "HEARTBEAT")) ev.op = RC_OP_HEARTBEAT;
    else return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, rt)->off, "unknown recordType (expected INSERT, UPDATE, DELETE, DDL or HEARTBEAT)");
    rc_str dbtype, db, ts, uid, pk;
    if ((st = rc_jsondec_str(c.r.j, meta, "dbType", a, &dbtype, err)) != RC_OK || (st = rc_jsondec_str(c.r.j, meta, "db", a, &db, err)) != RC_OK ||
        (st = rc_jsondec_str(c.r.j, meta, "table_name", a, &ev.src.table, err)) != RC_OK || (st = rc_jsondec_str(c.r.j, meta, "checkpoint", a, &ev.pos.checkpoint, err)) != RC_OK ||
        (st = rc_jsondec_str(c.r.j, meta, "timestamp", a, &ts, err)) != RC_OK || (st = rc_jsondec_str(c.r.j, meta, "uniqueId", a, &uid, err)) != RC_OK ||
        (st = rc_jsondec_str(c.r.j, meta, "record_primary_key", a, &pk, err)) != RC_OK || (st = rc_jsondec_str(c.r.j, meta, "ddlType", a, &ev.ddl_kind, err)) != RC_OK)
        return st;
    if (!kind_of(dbtype, &ev.src.kind))
        return rc_error_set(err, RC_ERR_SCHEMA, rc_json_get(c.r.j, meta, "dbType") ? rc_jread_node(&c.r, rc_json_get(c.r.j, meta, "dbType"))->off : rc_jread_node(&c.r, meta)->off,
                            "unknown allMetaData.dbType \"%.*s\"", (int)(dbtype.n > 40 ? 40 : dbtype.n), dbtype.p);
    /* OceanBase writes "tenant.database" */
    const char *dot = (ev.src.kind == RC_DB_OB_MYSQL || ev.src.kind == RC_DB_OB_ORACLE) && db.n ? memchr(db.p, '.', db.n) : NULL;
    if (dot) ev.src.tenant = (rc_str){db.p, (size_t)(dot - db.p)}, ev.src.db = (rc_str){dot + 1, db.n - (size_t)(dot - db.p) - 1};
    else ev.src.db = db;
    if (!rc_event_list_accepts(out, ev.src.db, ev.src.table)) return RC_OK;
    int64_t x;
    uint64_t u;
    if (ts.n) {
        if (rc_parse_i64(ts.p, ts.n, &x) != RC_OK || x > INT64_MAX / 1000000 || x < INT64_MIN / 1000000)
            return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, rc_json_get(c.r.j, meta, "timestamp"))->off, "allMetaData.timestamp must be seconds as a string");
        ev.ts_us = x * 1000000, ev.has_ts = true;
    }
    if (uid.n) {
        if (rc_parse_u64(uid.p, uid.n, &u) != RC_OK)
            return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, rc_json_get(c.r.j, meta, "uniqueId"))->off, "allMetaData.uniqueId must be a number as a string");
        ev.pos.seq = u, ev.pos.has_seq = true;
    }
    uint32_t prev = rc_json_get(c.r.j, 0, "prevStruct"), post = rc_json_get(c.r.j, 0, "postStruct");
    if (prev && rc_jread_node(&c.r, prev)->type == RC_J_NULL) prev = 0;
    if (post && rc_jread_node(&c.r, post)->type == RC_J_NULL) post = 0;
    if (ev.op == RC_OP_DDL) {
        uint32_t t = post ? rc_json_get(c.r.j, post, "ddl") : 0;
        if (!t || rc_jread_node(&c.r, t)->type != RC_J_STRING) return rc_error_set(err, RC_ERR_SCHEMA, post ? rc_jread_node(&c.r, post)->off : 0, "a DDL record needs postStruct.ddl");
        rc_str s;
        if ((st = rc_jsondec_str(c.r.j, post, "ddl", a, &s, err)) != RC_OK) return st;
        ev.ddl = s;
    } else if (ev.op != RC_OP_HEARTBEAT) {
        uint32_t shape = ev.op == RC_OP_DELETE ? prev : post;
        if (!shape) return rc_error_set(err, RC_ERR_SCHEMA, 0, "%s record without %s", ev.op == RC_OP_DELETE ? "a DELETE" : "an INSERT or UPDATE",
                                        ev.op == RC_OP_DELETE ? "prevStruct" : "postStruct");
        if (rc_jread_node(&c.r, shape)->type != RC_J_OBJECT)
            return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, shape)->off, "a row image must be an object (found %s)", rc_jtype_name((rc_jtype)rc_jread_node(&c.r, shape)->type));
        if ((st = columns(&c, shape, shape == prev ? post : prev, rc_dbkind_family(ev.src.kind), pk,
                          rc_json_get(c.r.j, meta, "record_primary_key") ? rc_jread_node(&c.r, rc_json_get(c.r.j, meta, "record_primary_key"))->off : 0, &ev)) != RC_OK) return st;
        if (ev.op != RC_OP_INSERT && prev && (st = image(&c, prev, "prevStruct", &ev, NULL, NULL, &ev.before)) != RC_OK) return st;
        if (ev.op != RC_OP_DELETE && (st = image(&c, post, "postStruct", &ev, NULL, NULL, &ev.after)) != RC_OK) return st;
        if ((st = rc_event_fit_fractions(&ev, a, d->types, err)) != RC_OK) return st; /* type names without precision */
    }
    rc_event *e = rc_event_list_push(out);
    if (!e) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *e = ev;
    return RC_OK;
}
