/* The native format, reader side: JSON line -> canonical event. Strict: unknown fields,
 * values that do not match their column type and inconsistent images are errors naming the
 * byte offset, so `convert` never passes on something it did not understand. */
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"
#include "core/colcache.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsondec.h"

/* The objects of a native line and their member names (in the order their nodes are used). */
enum { KS_EVENT, KS_SOURCE, KS_POS, KS_COLUMN, KS_DDL, KS_INVALID, KS_N };
static const char *const event_keys[] = {"op", "source", "pos", "ts_us", "proc_us", "columns", "before", "after", "changed", "ddl", "snapshot", "before_key_only", "document"};
static const char *const source_keys[] = {"kind", "server", "version", "tenant", "db", "schema", "table"};
static const char *const pos_keys[] = {"file", "offset", "gtid", "lsn", "scn", "txid", "seq", "index",
                                       "checkpoint", "count", "server_id", "row", "thread", "query", "xmin", "last_commit_lsn",
                                       "collections"};
static const char *const column_keys[] = {"name", "type", "pk", "nullable", "jdbc"};
static const char *const ddl_keys[] = {"kind", "text", "charset"};
static const char *const invalid_keys[] = {"invalid", "unavailable"};
#define KEYS(a) {a, sizeof a / sizeof *a}
static const struct {
    const char *const *names;
    unsigned n;
} key_sets[KS_N] = {KEYS(event_keys), KEYS(source_keys), KEYS(pos_keys), KEYS(column_keys), KEYS(ddl_keys), KEYS(invalid_keys)};
#undef KEYS

typedef struct native_dec {
    rc_jsondec jd; /* the current line parsed, its arena, the type cache */
    rc_json_memo memo[2]; /* "columns" and "source" of the last line, recognised instead of parsed */
    rc_coltext tables;     /* column lists by their "columns" text and the source's type family */
    /* the last "source" read (memo[1]): its text, and its kind and strings as offsets into that
     * text, so that a recognised source is rebuilt pointing into the new line */
    rc_buf src_text;
    rc_dbkind src_kind;
    uint32_t src_off[6], src_len[6];
    bool src_has[6];
    rc_jkeys keys[KS_N]; /* the member names of each object kind, found in one pass */
} native_dec;

rc_status rc_native_dec_new(const rc_options *opts, void **out, rc_error *err)
{
    static const rc_option_desc none[] = {{0}};
    rc_status st = rc_options_check(opts, "native", none, err);
    if (st != RC_OK) return st;
    void *p;
    if ((st = rc_jsondec_new(sizeof(native_dec), &p, err)) != RC_OK) return st;
    native_dec *d = p; /* *out only once it is whole */
    if (!rc_coltext_init(&d->tables, &d->memo[0])) {
        rc_native_dec_free(d);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    d->memo[0] = (rc_json_memo){"columns", 7, NULL, 0};
    d->memo[1] = (rc_json_memo){"source", 6, NULL, 0};
    rc_buf_init(&d->src_text, 0);
    for (int k = 0; k < KS_N; k++) rc_jkeys_init(&d->keys[k], key_sets[k].names, key_sets[k].n);
    *out = d;
    return RC_OK;
}

void rc_native_dec_free(void *p)
{
    native_dec *d = p;
    if (d) rc_coltext_fini(&d->tables), rc_buf_fini(&d->src_text);
    rc_jsondec_free(d);
}


typedef struct ctx {
    rc_jread r; /* the message, the events' arena, the error */
    native_dec *d;
} ctx;

static rc_status want(const ctx *c, uint32_t i, rc_jtype t, const char *what) { return rc_jsondec_want(c->r.j, i, t, what, c->r.err); }

/* Copies a string node into the event arena (the JSON scratch is reused per line). */
static rc_status take_str(const ctx *c, uint32_t i, const char *what, rc_str *out)
{
    rc_status st = want(c, i, RC_J_STRING, what);
    if (st != RC_OK) return st;
    const rc_jnode *nd = rc_jread_node(&c->r, i);
    *out = (rc_str){nd->s, nd->n}; /* the line's text or the caller's arena: both outlive the event */
    return RC_OK;
}

static rc_status take_u64(const ctx *c, uint32_t i, const char *what, uint64_t max, uint64_t *out)
{
    rc_status st = want(c, i, RC_J_NUMBER, what);
    if (st != RC_OK) return st;
    const rc_jnode *nd = rc_jread_node(&c->r, i);
    st = rc_parse_u64(nd->s, nd->n, out);
    if (st == RC_OK && *out > max) st = RC_ERR_RANGE;
    if (st != RC_OK)
        return rc_error_set(c->r.err, st, nd->off, "%s must be an integer between 0 and %llu, found %.*s", what,
                            (unsigned long long)max, (int)(nd->n > 40 ? 40 : nd->n), nd->s);
    return RC_OK;
}

static rc_status take_i64(const ctx *c, uint32_t i, const char *what, int64_t *out)
{
    rc_status st = want(c, i, RC_J_NUMBER, what);
    if (st != RC_OK) return st;
    const rc_jnode *nd = rc_jread_node(&c->r, i);
    st = rc_parse_i64(nd->s, nd->n, out);
    if (st != RC_OK)
        return rc_error_set(c->r.err, st, nd->off, "%s must be a 64-bit integer, found %.*s", what,
                            (int)(nd->n > 40 ? 40 : nd->n), nd->s);
    return RC_OK;
}

/* A string that must be an LSN: an encoder would otherwise wrap it or drop it from the
 * position it writes. */
static rc_status take_lsn(const ctx *c, uint32_t i, const char *what, rc_str *out)
{
    rc_status st = take_str(c, i, what, out);
    return st != RC_OK ? st : rc_lsn_text_check(*out, what, rc_jread_node(&c->r, i)->off, c->r.err);
}

/* Finds the members of object obj named in key set ks: out[k] = the value node of
 * key_sets[ks].names[k], 0 when absent. An unknown or repeated name is an error. */
static rc_status members(const ctx *c, uint32_t obj, const char *what, int ks, uint32_t *out)
{
    rc_status st = want(c, obj, RC_J_OBJECT, what);
    if (st != RC_OK) return st;
    bool repeated;
    uint32_t bad = rc_json_members_strict(c->r.j, obj, &c->d->keys[ks], out, &repeated);
    if (!bad) return RC_OK;
    const rc_jnode *key = rc_jread_node(&c->r, bad);
    return rc_error_set(c->r.err, RC_ERR_SCHEMA, key->off, "%s field \"%.*s\" in %s", repeated ? "duplicate" : "unknown",
                        (int)(key->n > 60 ? 60 : key->n), key->s, what);
}

/* ---- values ---- */

static rc_status bad_value(const ctx *c, const rc_jnode *nd, const rc_column *col, const char *expect)
{
    return rc_error_set(c->r.err, RC_ERR_VALUE, nd->off, "column \"%.*s\" (%.*s): expected %s, found %s", (int)col->name.n,
                        col->name.p, (int)col->type.decl.n, col->type.decl.p, expect, rc_jtype_name((rc_jtype)nd->type));
}

static rc_status bad_text(const ctx *c, const rc_jnode *nd, const rc_column *col, const char *expect)
{
    return rc_error_set(c->r.err, RC_ERR_VALUE, nd->off, "column \"%.*s\" (%.*s): \"%.*s\" is not %s", (int)col->name.n,
                        col->name.p, (int)col->type.decl.n, col->type.decl.p, (int)(nd->n > 40 ? 40 : nd->n), nd->s, expect);
}

static rc_status copy_text(const ctx *c, const rc_jnode *nd, rc_str *out)
{
    char *p = rc_arena_memdup(c->r.a, nd->s, nd->n);
    if (!p) return rc_error_set(c->r.err, RC_ERR_NOMEM, nd->off, "out of memory");
    out->p = p;
    out->n = nd->n;
    return RC_OK;
}

static rc_status float_value(const ctx *c, const rc_jnode *nd, const rc_column *col, bool f32, rc_value *v)
{
    double x;
    if (nd->type == RC_J_STRING) {
        if (nd->n == 3 && memcmp(nd->s, "NaN", 3) == 0) x = __builtin_nan("");
        else if (nd->n == 8 && memcmp(nd->s, "Infinity", 8) == 0) x = __builtin_inf();
        else if (nd->n == 9 && memcmp(nd->s, "-Infinity", 9) == 0) x = -__builtin_inf();
        else return bad_text(c, nd, col, "a number, \"NaN\", \"Infinity\" or \"-Infinity\"");
    } else if (nd->type == RC_J_NUMBER) {
        char tmp[64];
        if (nd->n >= sizeof tmp) return bad_text(c, nd, col, "a float of at most 63 characters");
        memcpy(tmp, nd->s, nd->n);
        tmp[nd->n] = '\0';
        if (f32) {
            float fv = strtof(tmp, NULL);
            if (__builtin_isinf(fv)) return rc_error_set(c->r.err, RC_ERR_RANGE, nd->off, "column \"%.*s\": %s overflows float", (int)col->name.n, col->name.p, tmp);
            v->kind = RC_V_FLOAT32;
            v->f32 = fv;
            return RC_OK;
        }
        x = strtod(tmp, NULL);
        if (__builtin_isinf(x)) return rc_error_set(c->r.err, RC_ERR_RANGE, nd->off, "column \"%.*s\": %s overflows double", (int)col->name.n, col->name.p, tmp);
    } else {
        return bad_value(c, nd, col, "a number");
    }
    if (f32) v->kind = RC_V_FLOAT32, v->f32 = (float)x;
    else v->kind = RC_V_FLOAT64, v->f64 = x;
    return RC_OK;
}

static rc_status decode_value(const ctx *c, uint32_t i, const rc_column *col, rc_value *v)
{
    const rc_jnode *nd = rc_jread_node(&c->r, i);
    rc_vkind kind = (rc_vkind)col->type.info->vkind;
    rc_status st;
    memset(v, 0, sizeof *v);
    if (nd->type == RC_J_NULL) return RC_OK; /* kind NULL */
    if (nd->type == RC_J_OBJECT) {
        uint32_t f[2];
        if ((st = members(c, i, "an invalid-value object", KS_INVALID, f)) != RC_OK) return st;
        if (f[1] && !f[0]) { /* {"unavailable":true}: a value the source did not send */
            if (rc_jread_node(&c->r, f[1])->type != RC_J_TRUE) return want(c, f[1], RC_J_TRUE, "\"unavailable\"");
            v->kind = RC_V_UNAVAILABLE;
            return RC_OK;
        }
        if (!f[0] || f[1])
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, nd->off, "invalid-value object needs \"invalid\" (or only \"unavailable\":true)");
        if ((st = want(c, f[0], RC_J_STRING, "\"invalid\"")) != RC_OK) return st;
        v->kind = RC_V_INVALID;
        return copy_text(c, rc_jread_node(&c->r, f[0]), &v->s);
    }
    switch (kind) {
    case RC_V_BOOL:
        if (nd->type != RC_J_TRUE && nd->type != RC_J_FALSE) return bad_value(c, nd, col, "true or false");
        v->kind = RC_V_BOOL;
        v->b = nd->type == RC_J_TRUE;
        return RC_OK;
    case RC_V_INT:
    case RC_V_UINT:
    case RC_V_BITS:
        if (nd->type != RC_J_NUMBER) return bad_value(c, nd, col, "an integer");
        v->kind = kind;
        st = kind == RC_V_INT ? rc_parse_i64(nd->s, nd->n, &v->i) : rc_parse_u64(nd->s, nd->n, &v->u);
        if (st == RC_ERR_RANGE)
            return rc_error_set(c->r.err, RC_ERR_RANGE, nd->off, "column \"%.*s\" (%.*s): %.*s is out of range", (int)col->name.n,
                                col->name.p, (int)col->type.decl.n, col->type.decl.p, (int)(nd->n > 40 ? 40 : nd->n), nd->s);
        if (st != RC_OK) return bad_text(c, nd, col, "an integer");
        if (kind == RC_V_BITS && !rc_bits_fit(col, v->u))
            return rc_error_set(c->r.err, RC_ERR_RANGE, nd->off, "column \"%.*s\": %.*s does not fit in bit(%d)", (int)col->name.n,
                                col->name.p, (int)nd->n, nd->s, col->type.p1);
        return RC_OK;
    case RC_V_DECIMAL:
        if (nd->type != RC_J_STRING && nd->type != RC_J_NUMBER) return bad_value(c, nd, col, "a decimal string");
        v->kind = RC_V_DECIMAL;
        st = rc_dec_parse(nd->s, nd->n, c->r.a, &v->dec);
        if (st == RC_ERR_NOMEM) return rc_error_set(c->r.err, st, nd->off, "out of memory");
        if (st == RC_ERR_RANGE)
            return rc_error_set(c->r.err, st, nd->off, "column \"%.*s\": the exponent of %.*s puts its scale beyond ±%d",
                                (int)col->name.n, col->name.p, (int)(nd->n > 40 ? 40 : nd->n), nd->s, RC_DEC_MAX_SCALE);
        if (st != RC_OK) return bad_text(c, nd, col, "a decimal number");
        return RC_OK;
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: return float_value(c, nd, col, kind == RC_V_FLOAT32, v);
    default: break;
    }
    if (nd->type != RC_J_STRING) return bad_value(c, nd, col, "a string");
    v->kind = kind;
    switch (kind) {
    case RC_V_BYTES: {
        size_t bad = 0;
        st = rc_base64_decode(nd->s, nd->n, c->r.a, &v->s, &bad);
        if (st == RC_ERR_NOMEM) return rc_error_set(c->r.err, st, nd->off, "out of memory");
        if (st != RC_OK)
            return rc_error_set(c->r.err, RC_ERR_VALUE, nd->off + 1 + bad, "column \"%.*s\": bad base64 at character %zu",
                                (int)col->name.n, col->name.p, bad);
        return RC_OK;
    }
    case RC_V_DATE:
        if (!rc_parse_date(nd->s, nd->n, &v->date)) return bad_text(c, nd, col, "a valid date YYYY-MM-DD");
        return RC_OK;
    case RC_V_TIME:
        if (!rc_parse_time(nd->s, nd->n, &v->time)) return bad_text(c, nd, col, "a time [-]HH:MM:SS[.fffffffff]");
        return RC_OK;
    case RC_V_DATETIME:
        if (!rc_parse_datetime(nd->s, nd->n, &v->dt) || memchr(nd->s, 'T', 11))
            return bad_text(c, nd, col, "a datetime YYYY-MM-DD HH:MM:SS[.f][ zone]");
        if (v->dt.zone.n) {
            /* the zone slice points into the JSON scratch; move it to the event arena */
            rc_str z = v->dt.zone;
            char *p = rc_arena_memdup(c->r.a, z.p, z.n);
            if (!p) return rc_error_set(c->r.err, RC_ERR_NOMEM, nd->off, "out of memory");
            v->dt.zone.p = p;
        }
        return RC_OK;
    case RC_V_TIMESTAMP:
        if (!rc_parse_ts_iso(nd->s, nd->n, &v->ts)) return bad_text(c, nd, col, "a UTC timestamp YYYY-MM-DDTHH:MM:SS[.f]Z");
        return RC_OK;
    default: /* text, interval, json, enum, set, geometry */
        return copy_text(c, nd, &v->s);
    }
}

static rc_status decode_image(const ctx *c, uint32_t i, const rc_event *ev, const char *what, const rc_value **out)
{
    rc_status st = want(c, i, RC_J_ARRAY, what);
    if (st != RC_OK) return st;
    const rc_jnode *arr = rc_jread_node(&c->r, i);
    if (arr->count != ev->ncols)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, arr->off, "%s has %u values but the event has %u columns", what, arr->count,
                            ev->ncols);
    rc_value *vals = rc_arena_alloc(c->r.a, sizeof *vals * (ev->ncols ? ev->ncols : 1));
    if (!vals) return rc_error_set(c->r.err, RC_ERR_NOMEM, arr->off, "out of memory");
    uint32_t k = 0;
    for (uint32_t e = arr->first; e; e = rc_jread_node(&c->r, e)->next, k++)
        if ((st = decode_value(c, e, &ev->cols[k], &vals[k])) != RC_OK) return st;
    *out = vals;
    return RC_OK;
}

static rc_status decode_columns(const ctx *c, uint32_t i, rc_family fam, rc_event *ev)
{
    rc_status st = want(c, i, RC_J_ARRAY, "\"columns\"");
    if (st != RC_OK) return st;
    const rc_jnode *arr = rc_jread_node(&c->r, i);
    rc_column *cols = rc_arena_alloc(c->r.a, sizeof *cols * (arr->count ? arr->count : 1));
    if (!cols) return rc_error_set(c->r.err, RC_ERR_NOMEM, arr->off, "out of memory");
    uint32_t k = 0;
    uint16_t pk_auto = 0;
    bool pk_explicit = false;
    uint64_t pk_stack[4] = {0}, *pk_seen = pk_stack;
    if (arr->count >= 256) {
        pk_seen = rc_arena_alloc(c->r.a, (arr->count / 64 + 1) * sizeof *pk_seen);
        if (!pk_seen) return rc_error_set(c->r.err, RC_ERR_NOMEM, arr->off, "out of memory");
        memset(pk_seen, 0, (arr->count / 64 + 1) * sizeof *pk_seen);
    }
    if (arr->count > UINT16_MAX) return rc_error_set(c->r.err, RC_ERR_LIMIT, arr->off, "more than %u columns", UINT16_MAX);
    for (uint32_t e = arr->first; e; e = rc_jread_node(&c->r, e)->next, k++) {
        uint32_t f[5];
        if ((st = members(c, e, "a column", KS_COLUMN, f)) != RC_OK) return st;
        if (!f[0] || !f[1])
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, e)->off, "a column needs \"name\" and \"type\"");
        rc_column *col = &cols[k];
        memset(col, 0, sizeof *col);
        if ((st = take_str(c, f[0], "column \"name\"", &col->name)) != RC_OK) return st;
        if ((st = want(c, f[1], RC_J_STRING, "column \"type\"")) != RC_OK) return st;
        const rc_jnode *tn = rc_jread_node(&c->r, f[1]);
        const rc_coltype *t = NULL;
        if ((st = rc_type_cache_get(c->d->jd.types, c->r.a, fam, tn->s, tn->n, tn->off + 1, &t, c->r.err)) != RC_OK) return st;
        col->type = *t;
        if (f[2]) {
            /* true: key column in column order; a number: its position in the key */
            const rc_jnode *pn = rc_jread_node(&c->r, f[2]);
            uint64_t pos;
            if (pn->type == RC_J_TRUE) {
                col->pk = ++pk_auto;
            } else if (pn->type == RC_J_NUMBER && rc_parse_u64(pn->s, pn->n, &pos) == RC_OK && pos >= 1 && pos <= arr->count) {
                col->pk = (uint16_t)pos;
                pk_explicit = true;
            } else if (pn->type != RC_J_FALSE) {
                return rc_error_set(c->r.err, RC_ERR_SCHEMA, pn->off, "column \"pk\" must be true, false or the column's position in the key (1..%u)", arr->count);
            }
            if (pk_auto && pk_explicit)
                return rc_error_set(c->r.err, RC_ERR_SCHEMA, pn->off, "\"pk\": use true for every key column or positions for every key column, not both");
            if (col->pk && (pk_seen[col->pk / 64] >> (col->pk % 64) & 1))
                return rc_error_set(c->r.err, RC_ERR_SCHEMA, pn->off, "two columns at key position %u", col->pk);
            if (col->pk) pk_seen[col->pk / 64] |= 1ull << (col->pk % 64);
        }
        if (f[3]) {
            const rc_jnode *bn = rc_jread_node(&c->r, f[3]);
            if (bn->type != RC_J_TRUE && bn->type != RC_J_FALSE)
                return rc_error_set(c->r.err, RC_ERR_SCHEMA, bn->off, "column \"nullable\" must be true or false");
            col->nullable = bn->type == RC_J_TRUE;
        }
        if (f[4]) { /* the java.sql.Types code the input stated (Canal's sqlType) */
            int64_t code;
            if ((st = take_i64(c, f[4], "column \"jdbc\"", &code)) != RC_OK) return st;
            if (code < INT16_MIN || code > INT16_MAX)
                return rc_error_set(c->r.err, RC_ERR_RANGE, rc_jread_node(&c->r, f[4])->off, "column \"jdbc\" must be between %d and %d", INT16_MIN, INT16_MAX);
            col->jdbc = (int16_t)code, col->has_jdbc = true;
        }
        if (rc_column_name_taken(cols, k, col->name))
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, f[0])->off, "duplicate column \"%.*s\"", (int)col->name.n, col->name.p);
    }
    if (pk_explicit) { /* positions must be 1..n without gaps */
        uint32_t n = 0;
        for (uint32_t q = 0; q < k; q++) n += cols[q].pk != 0;
        for (uint32_t q = 0; q < k; q++)
            if (cols[q].pk > n)
                return rc_error_set(c->r.err, RC_ERR_SCHEMA, arr->off, "key positions must run from 1 to %u without gaps", n);
    }
    ev->cols = cols;
    ev->ncols = arr->count;
    return RC_OK;
}

/* rc_coltext_build_fn: "columns" member m of j (the line, or a recognised member parsed
 * again) for the type family in *ctx. */
typedef struct col_build {
    const ctx *c;
    rc_family fam;
} col_build;

static rc_status build_columns(void *p, const rc_json *j, uint32_t m, const rc_column **cols, uint32_t *n)
{
    const col_build *b = p;
    ctx tc = *b->c;
    tc.r.j = j;
    rc_event tmp;
    memset(&tmp, 0, sizeof tmp);
    rc_status st = decode_columns(&tc, m, b->fam, &tmp);
    *cols = tmp.cols, *n = tmp.ncols;
    return st;
}

static rc_status decode_source(const ctx *c, uint32_t i, rc_event *ev)
{
    uint32_t f[7];
    rc_status st = members(c, i, "\"source\"", KS_SOURCE, f);
    if (st != RC_OK) return st;
    if (f[0]) {
        if ((st = want(c, f[0], RC_J_STRING, "source \"kind\"")) != RC_OK) return st;
        const rc_jnode *k = rc_jread_node(&c->r, f[0]);
        if (!rc_dbkind_parse(k->s, k->n, &ev->src.kind))
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, k->off, "unknown source kind \"%.*s\"", (int)(k->n > 40 ? 40 : k->n), k->s);
    }
    rc_str *dst[] = {&ev->src.server, &ev->src.version, &ev->src.tenant, &ev->src.db, &ev->src.schema, &ev->src.table};
    for (int k = 1; k < 7; k++)
        if (f[k] && (st = take_str(c, f[k], source_keys[k], dst[k - 1])) != RC_OK) return st;
    return RC_OK;
}

/* The "source" member, node i: recognised (the last line's text, rebuilt from the offsets
 * kept) or read, and then kept for the next line when every string of it lies in its text (an
 * escaped one was unescaped elsewhere: not kept). */
static rc_status source(const ctx *c, uint32_t i, rc_event *ev)
{
    native_dec *d = c->d;
    const rc_jnode *sn = rc_jread_node(&c->r, i);
    rc_str *dst[] = {&ev->src.server, &ev->src.version, &ev->src.tenant, &ev->src.db, &ev->src.schema, &ev->src.table};
    if (sn->type == RC_J_MEMO) {
        ev->src.kind = d->src_kind;
        for (int k = 0; k < 6; k++)
            if (d->src_has[k]) *dst[k] = (rc_str){sn->s + d->src_off[k], d->src_len[k]};
        return RC_OK;
    }
    rc_status st = decode_source(c, i, ev);
    if (st != RC_OK) return st;
    d->memo[1].n = 0;
    if (sn->type != RC_J_OBJECT) return RC_OK;
    for (int k = 0; k < 6; k++) {
        d->src_has[k] = dst[k]->p != NULL;
        if (!dst[k]->p) continue;
        uintptr_t at = (uintptr_t)dst[k]->p, lo = (uintptr_t)sn->s; /* addresses: the string may be in the arena */
        if (at < lo || at + dst[k]->n > lo + sn->n) return RC_OK; /* unescaped elsewhere */
        d->src_off[k] = (uint32_t)(dst[k]->p - sn->s), d->src_len[k] = (uint32_t)dst[k]->n;
    }
    d->src_kind = ev->src.kind;
    rc_json_memo_keep(&d->memo[1], &d->src_text, sn->s, sn->n); /* out of memory: not kept */
    return RC_OK;
}

/* pos "collections": [["<table>", <events>], ...] (Debezium's END data_collections) */
static rc_status decode_collections(const ctx *c, uint32_t i, rc_position *p)
{
    rc_status st = want(c, i, RC_J_ARRAY, "pos \"collections\"");
    if (st != RC_OK) return st;
    uint32_t n = rc_jread_node(&c->r, i)->count, k = 0;
    rc_tx_collection *cs = rc_arena_alloc(c->r.a, sizeof *cs * (n ? n : 1));
    if (!cs) return rc_error_set(c->r.err, RC_ERR_NOMEM, rc_jread_node(&c->r, i)->off, "out of memory");
    for (uint32_t e = rc_jread_node(&c->r, i)->first; e; e = rc_jread_node(&c->r, e)->next, k++) {
        uint32_t name = rc_jread_node(&c->r, e)->type == RC_J_ARRAY ? rc_jread_node(&c->r, e)->first : 0, count = name ? rc_jread_node(&c->r, name)->next : 0;
        if (!count || rc_jread_node(&c->r, count)->next)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, e)->off, "a pos \"collections\" entry must be [\"<table>\", <events>]");
        if ((st = take_str(c, name, "a collection's table", &cs[k].name)) != RC_OK ||
            (st = take_u64(c, count, "a collection's events", UINT64_MAX, &cs[k].count)) != RC_OK)
            return st;
    }
    p->collections = cs;
    p->ncollections = n;
    return RC_OK;
}

/* Position member node f (present: the caller tests it, which keeps the absent members'
 * cost at a test) into *v, *has set once it is read. */
static rc_status opt_u64(const ctx *c, uint32_t f, const char *what, uint64_t *v, bool *has)
{
    rc_status st = take_u64(c, f, what, UINT64_MAX, v);
    if (st == RC_OK) *has = true;
    return st;
}

static rc_status opt_u32(const ctx *c, uint32_t f, const char *what, uint32_t *v, bool *has)
{
    uint64_t w = 0;
    rc_status st = take_u64(c, f, what, UINT32_MAX, &w);
    if (st == RC_OK) *v = (uint32_t)w, *has = true;
    return st;
}

static rc_status decode_pos(const ctx *c, uint32_t i, rc_event *ev)
{
    uint32_t f[17];
    rc_status st = members(c, i, "\"pos\"", KS_POS, f);
    if (st != RC_OK) return st;
    rc_position *p = &ev->pos;
    rc_str *strs[] = {&p->file, NULL, &p->gtid, NULL, &p->scn, &p->txid};
    for (int k = 0; k < 6; k++)
        if (strs[k] && f[k] && (st = take_str(c, f[k], pos_keys[k], strs[k])) != RC_OK) return st;
    if (f[3] && (st = take_lsn(c, f[3], "pos \"lsn\"", &p->lsn)) != RC_OK) return st;
    if (f[8] && (st = take_str(c, f[8], "pos \"checkpoint\"", &p->checkpoint)) != RC_OK) return st;
    if ((f[1] && (st = opt_u64(c, f[1], "pos \"offset\"", &p->offset, &p->has_offset)) != RC_OK) ||
        (f[6] && (st = opt_u64(c, f[6], "pos \"seq\"", &p->seq, &p->has_seq)) != RC_OK) ||
        (f[7] && (st = opt_u32(c, f[7], "pos \"index\"", &p->tx_index, &p->has_tx_index)) != RC_OK) ||
        (f[9] && (st = opt_u32(c, f[9], "pos \"count\"", &p->tx_count, &p->has_tx_count)) != RC_OK) ||
        (f[10] && (st = opt_u64(c, f[10], "pos \"server_id\"", &p->server_id, &p->has_server_id)) != RC_OK) ||
        (f[11] && (st = opt_u32(c, f[11], "pos \"row\"", &p->row, &p->has_row)) != RC_OK) ||
        (f[12] && (st = opt_u64(c, f[12], "pos \"thread\"", &p->thread, &p->has_thread)) != RC_OK))
        return st;
    if (f[13] && (st = take_str(c, f[13], "pos \"query\"", &p->query)) != RC_OK) return st;
    if (f[14] && (st = opt_u64(c, f[14], "pos \"xmin\"", &p->xmin, &p->has_xmin)) != RC_OK) return st;
    if (f[15] && (st = take_lsn(c, f[15], "pos \"last_commit_lsn\"", &p->last_commit_lsn)) != RC_OK) return st;
    if (f[16]) return decode_collections(c, f[16], p);
    return RC_OK;
}

static rc_status decode_changed(const ctx *c, uint32_t i, rc_event *ev)
{
    rc_status st = want(c, i, RC_J_ARRAY, "\"changed\"");
    if (st != RC_OK) return st;
    uint8_t *ch = rc_arena_alloc(c->r.a, ev->ncols ? ev->ncols : 1);
    if (!ch) return rc_error_set(c->r.err, RC_ERR_NOMEM, rc_jread_node(&c->r, i)->off, "out of memory");
    memset(ch, 0, ev->ncols);
    for (uint32_t e = rc_jread_node(&c->r, i)->first; e; e = rc_jread_node(&c->r, e)->next) {
        if ((st = want(c, e, RC_J_STRING, "a \"changed\" entry")) != RC_OK) return st;
        const rc_jnode *nd = rc_jread_node(&c->r, e);
        uint32_t k = 0;
        while (k < ev->ncols && !(ev->cols[k].name.n == nd->n && memcmp(ev->cols[k].name.p, nd->s, nd->n) == 0)) k++;
        if (k == ev->ncols)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, nd->off, "\"changed\" names unknown column \"%.*s\"", (int)(nd->n > 60 ? 60 : nd->n), nd->s);
        ch[k] = 1;
    }
    ev->changed = ch;
    return RC_OK;
}

enum { F_OP, F_SOURCE, F_POS, F_TS, F_PROC, F_COLUMNS, F_BEFORE, F_AFTER, F_CHANGED, F_DDL, F_SNAPSHOT, F_BEFORE_KEY, F_DOCUMENT, F_COUNT };

rc_status rc_native_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    native_dec *d = p;
    d->jd.json.memo = d->memo, d->jd.json.nmemo = 2;
    rc_status st = rc_jsondec_parse(&d->jd, msg, n, a, err);
    if (st != RC_OK) return st;
    ctx c = {{&d->jd.json, a, err}, d};
    uint32_t f[F_COUNT];
    if ((st = members(&c, 0, "the event", KS_EVENT, f)) != RC_OK) return st;
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    if (!f[F_OP]) return rc_error_set(err, RC_ERR_SCHEMA, 0, "the event has no \"op\"");
    if ((st = want(&c, f[F_OP], RC_J_STRING, "\"op\"")) != RC_OK) return st;
    const rc_jnode *opn = rc_jread_node(&c.r, f[F_OP]);
    if (!rc_op_parse(opn->s, opn->n, &ev.op))
        return rc_error_set(err, RC_ERR_SCHEMA, opn->off, "unknown op \"%.*s\"", (int)(opn->n > 40 ? 40 : opn->n), opn->s);
    if (f[F_SOURCE] && (st = source(&c, f[F_SOURCE], &ev)) != RC_OK) return st;
    if (f[F_SNAPSHOT] && (st = take_str(&c, f[F_SNAPSHOT], "\"snapshot\"", &ev.snapshot)) != RC_OK) return st;
    if (!rc_event_list_accepts(out, ev.src.db, ev.src.table)) return RC_OK; /* filtered table: rows not parsed */
    if (f[F_POS] && (st = decode_pos(&c, f[F_POS], &ev)) != RC_OK) return st;
    if (f[F_TS]) {
        if ((st = take_i64(&c, f[F_TS], "\"ts_us\"", &ev.ts_us)) != RC_OK) return st;
        ev.has_ts = true;
    }
    if (f[F_PROC]) {
        if ((st = take_i64(&c, f[F_PROC], "\"proc_us\"", &ev.proc_us)) != RC_OK) return st;
        ev.has_proc = true;
    }
    if (f[F_COLUMNS]) {
        col_build b = {&c, rc_dbkind_family(ev.src.kind)};
        char fam = (char)b.fam; /* the family decides the types too */
        if ((st = rc_coltext_columns(&d->tables, c.r.j, f[F_COLUMNS], &fam, 1, build_columns, &b, a, &ev.cols, &ev.ncols, &ev.cols_id, err)) != RC_OK)
            return st;
    }
    if (f[F_BEFORE] && (st = decode_image(&c, f[F_BEFORE], &ev, "\"before\"", &ev.before)) != RC_OK) return st;
    if (f[F_AFTER] && (st = decode_image(&c, f[F_AFTER], &ev, "\"after\"", &ev.after)) != RC_OK) return st;
    if (f[F_CHANGED] && (st = decode_changed(&c, f[F_CHANGED], &ev)) != RC_OK) return st;
    if (f[F_BEFORE_KEY]) {
        if ((st = want(&c, f[F_BEFORE_KEY], RC_J_TRUE, "\"before_key_only\"")) != RC_OK) return st;
        if (!ev.before) return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, f[F_BEFORE_KEY])->off, "\"before_key_only\" without \"before\"");
        ev.before_key_only = true;
    }
    if (f[F_DDL]) {
        uint32_t g[3];
        if ((st = members(&c, f[F_DDL], "\"ddl\"", KS_DDL, g)) != RC_OK) return st;
        if (g[2] && (st = take_str(&c, g[2], "ddl \"charset\"", &ev.table_charset)) != RC_OK) return st;
        if (g[0] && (st = take_str(&c, g[0], "ddl \"kind\"", &ev.ddl_kind)) != RC_OK) return st;
        if (g[1] && (st = take_str(&c, g[1], "ddl \"text\"", &ev.ddl)) != RC_OK) return st;
    }

    if (f[F_DOCUMENT]) { /* a document change: no columns, its own rules */
        const rc_jnode *dn = rc_jread_node(&c.r, f[F_DOCUMENT]);
        if ((st = want(&c, f[F_DOCUMENT], RC_J_OBJECT, "\"document\"")) != RC_OK ||
            (st = rc_native_read_doc(dn->s, dn->n, dn->off, a, &ev.doc, err)) != RC_OK || (st = rc_native_doc_check(&ev, opn->off, err)) != RC_OK)
            return st;
        goto push;
    }

    /* What each operation must and must not carry. An incremental snapshot's table edge is a
     * read without a row (its columns optional). */
    bool edge = rc_event_snapshot_edge(&ev);
    bool row = (ev.op == RC_OP_INSERT || ev.op == RC_OP_UPDATE || ev.op == RC_OP_DELETE || ev.op == RC_OP_READ) && !edge;
    size_t at = opn->off;
    if (row && !ev.ncols && !(ev.op == RC_OP_DELETE && !ev.before)) /* a delete may come with no image at all */
        return rc_error_set(err, RC_ERR_SCHEMA, at, "op \"%s\" needs \"columns\"", rc_op_name(ev.op));
    if (row && (ev.op == RC_OP_INSERT || ev.op == RC_OP_READ || ev.op == RC_OP_UPDATE) && !ev.after)
        return rc_error_set(err, RC_ERR_SCHEMA, at, "op \"%s\" needs \"after\"", rc_op_name(ev.op));
    if ((ev.op == RC_OP_INSERT || ev.op == RC_OP_READ) && ev.before)
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, f[F_BEFORE])->off, "op \"%s\" has no \"before\"", rc_op_name(ev.op));
    if (ev.op == RC_OP_DELETE && ev.after)
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, f[F_AFTER])->off, "op \"delete\" has no \"after\"");
    if (ev.changed && ev.op != RC_OP_UPDATE)
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, f[F_CHANGED])->off, "only an update has \"changed\"");
    if (!row && (ev.before || ev.after))
        return edge ? rc_error_set(err, RC_ERR_SCHEMA, at, "snapshot \"%.*s\" (a table edge) carries no row images", (int)ev.snapshot.n, ev.snapshot.p)
                    : rc_error_set(err, RC_ERR_SCHEMA, at, "op \"%s\" carries no row images", rc_op_name(ev.op));
    if (ev.op == RC_OP_DDL && !ev.ddl.n) return rc_error_set(err, RC_ERR_SCHEMA, at, "op \"ddl\" needs \"ddl\": {\"text\": ...}");

push:;
    rc_event *slot = rc_event_list_push(out);
    if (!slot) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
    *slot = ev;
    return RC_OK;
}
