/* Canal flat messages, reader side (docs/formats/canal.md, "Reading"): real Canal's messages
 * (every value a string, mysqlType as declared, several rows per message, "old" with the
 * changed columns only) and the OMS canal flavour (typed values, OMS type names). One canonical
 * event per row; isDdl messages become DDL events; INIT rows become snapshot reads.
 *
 * Huawei DRS json and json-c are Canal-shaped and read here too (docs/formats/drs-json.md,
 * "Reading"): "old" is the whole previous row, a DELETE's row is in "old" (json) or "data"
 * (json-c), binary is Java's byte-list text (hex for other databases), TIMESTAMP epoch seconds
 * (json) or wall clock (json-c); the other-databases layout has "columnType", "dbType" and
 * "schema". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats/canal_read.h"
#include "formats/canal_values.h"
#include "rowcast/buf.h"
#include "core/colcache.h"
#include "core/fmt.h"
#include "core/json.h"
#include "core/jsondec.h"
#include "core/vparse.h"

/* The root members read, found in one pass (rc_json_members). */
enum { K_TYPE, K_DATABASE, K_TABLE, K_ES, K_TS, K_ID, K_ISDDL, K_SQL, K_DATA, K_OLD, K_MYSQLTYPE, K_PKNAMES, K_SQLTYPE, K_COLUMNTYPE, K_DBTYPE, K_SCHEMA, K_N };
static const char *const member_names[K_N] = {"type",  "database",  "table",   "es",      "ts",         "id",     "isDdl",  "sql",
                                              "data",  "old",       "mysqlType", "pkNames", "sqlType", "columnType", "dbType", "schema"};

typedef struct canal_dec {
    rc_jsondec jd; /* the parsed message, its arena, the type cache */
    rc_jkeys keys; /* member_names */
    rc_vparse_opts vopts;
    rc_dbkind kind;
    bool drs, json_c; /* Huawei DRS json / json-c */
    const char *what; /* "Canal" or "DRS", in messages */
    /* Canal's tables: column lists by mysqlType text (with the typed-values flag and the
     * pkNames text), and the mysqlType and sqlType of the last message as the reader's memos, so
     * a run of messages of one table parses neither again (DRS decodes without: its types
     * depend on the row values) */
    rc_json_memo memo[2];
    rc_coltext tables; /* memo[0] */
    rc_buf extra;
    rc_buf sqltype; /* the memo text of sqlType (memo[1]) */
    rc_json sqlaux; /* a recognised sqlType parsed again, when a column list is built */
} canal_dec;

rc_status rc_canal_dec_new(const rc_options *o, void **out, rc_error *err)
{
    void *p;
    rc_status st = rc_jsondec_new(sizeof(canal_dec), &p, err);
    if (st != RC_OK) return st;
    canal_dec *d = p; /* *out only once it is whole */
    if (!rc_coltext_init(&d->tables, &d->memo[0])) {
        rc_canal_dec_free(d);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    rc_buf_init(&d->extra, 0), rc_buf_init(&d->sqltype, 0);
    rc_json_init(&d->sqlaux, NULL);
    rc_jkeys_init(&d->keys, member_names, K_N);
    d->memo[0] = (rc_json_memo){"mysqlType", 9, NULL, 0};
    d->memo[1] = (rc_json_memo){"sqlType", 7, NULL, 0};
    rc_canal_opts co = {.values = -1};
    st = rc_options_parse(o, "canal", rc_canal_options, &co, err);
    d->vopts.ts_tz = co.tz;
    if (st != RC_OK) {
        rc_canal_dec_free(d);
        return st;
    }
    d->vopts.bytes = RC_BYTES_LATIN1;
    d->kind = RC_DB_MYSQL;
    d->what = "Canal";
    *out = d;
    return RC_OK;
}

static rc_status drs_new(const rc_options *o, void **out, rc_error *err, bool json_c)
{
    rc_drs_opts dro = {0};
    rc_status st = rc_options_parse(o, json_c ? "drs-json-c" : "drs-json", json_c ? rc_drs_jsonc_options : rc_drs_json_options, &dro, err);
    if (st != RC_OK) return st;
    rc_options none = {0};
    if ((st = rc_canal_dec_new(&none, out, err)) != RC_OK) return st;
    canal_dec *d = *out;
    d->drs = true, d->json_c = json_c, d->what = "DRS";
    d->vopts.bytes = RC_BYTES_JAVA_LIST;
    d->vopts.ts_tz = dro.tz;
    return RC_OK;
}
rc_status rc_drs_json_dec_new(const rc_options *o, void **out, rc_error *err) { return drs_new(o, out, err, false); }
rc_status rc_drs_jsonc_dec_new(const rc_options *o, void **out, rc_error *err) { return drs_new(o, out, err, true); }

void rc_canal_dec_free(void *p)
{
    canal_dec *d = p;
    if (d) rc_coltext_fini(&d->tables), rc_buf_fini(&d->extra), rc_buf_fini(&d->sqltype), rc_json_fini(&d->sqlaux);
    rc_jsondec_free(d);
}

typedef struct ctx {
    rc_jread r; /* the message, the events' arena, the error */
    canal_dec *d;
    rc_vparse_opts vo; /* how values are written */
    uint32_t m[K_N];  /* the root members (value nodes) */
    const char *tkey; /* the type map: "mysqlType", or DRS's "columnType" for other databases */
    rc_family fam;    /* the type family of its names */
} ctx;

static rc_status schema_err(const ctx *c, uint32_t i, const char *what)
{
    const rc_jnode *n = rc_jread_node(&c->r, i);
    return rc_error_set(c->r.err, RC_ERR_SCHEMA, n->off, "%s (found %s)", what, rc_jtype_name((rc_jtype)n->type));
}

static rc_status str_member(const ctx *c, int k, bool required, rc_str *out)
{
    rc_status st = rc_jsondec_str_at(c->r.j, c->m[k], member_names[k], out, c->r.err);
    if (st == RC_OK && required && !out->p)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, 0, "%s message without \"%s\"", c->d->what, member_names[k]);
    return st;
}


/* OMS canal type names that are not declarations: int64 is BIGINT, and (with typed values)
 * its bigint is BIGINT UNSIGNED (docs/formats/canal.md). */
static const char *oms_alias(const char *s, size_t n, bool typed)
{
    if (n == 5 && !memcmp(s, "int64", 5)) return "bigint";
    if (typed && n == 6 && !memcmp(s, "bigint", 6)) return "bigint unsigned";
    return NULL;
}

static bool row_is_typed(const ctx *c, uint32_t data)
{
    for (uint32_t r = rc_jread_node(&c->r, data)->first; r; r = rc_jread_node(&c->r, r)->next)
        for (uint32_t k = rc_jread_node(&c->r, r)->first; k; k = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->next) {
            uint8_t t = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->type;
            if (t == RC_J_NUMBER || t == RC_J_TRUE || t == RC_J_FALSE) return true;
        }
    return false;
}

/* Calls f on each value of column `col` in rows[0..1] (arrays of row objects, or 0) until it
 * returns true; true when one did. */
static bool any_value(const ctx *c, const uint32_t rows[2], rc_str col, bool (*f)(const rc_jnode *v, void *arg), void *arg)
{
    for (int r = 0; r < 2; r++) {
        if (!rows[r] || rc_jread_node(&c->r, rows[r])->type != RC_J_ARRAY) continue;
        for (uint32_t o = rc_jread_node(&c->r, rows[r])->first; o; o = rc_jread_node(&c->r, o)->next) {
            if (rc_jread_node(&c->r, o)->type != RC_J_OBJECT) continue;
            for (uint32_t k = rc_jread_node(&c->r, o)->first; k; k = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->next) {
                const rc_jnode *key = rc_jread_node(&c->r, k);
                if (key->n == col.n && !memcmp(key->s, col.p, col.n) && f(rc_jread_node(&c->r, key->next), arg)) return true;
            }
        }
    }
    return false;
}

static bool is_beyond_int64(const rc_jnode *v, void *arg)
{
    (void)arg;
    int64_t i;
    uint64_t u;
    return v->type == RC_J_STRING && rc_parse_i64(v->s, v->n, &i) == RC_ERR_RANGE && rc_parse_u64(v->s, v->n, &u) == RC_OK;
}

/* DRS type names drop UNSIGNED: an integer column whose values in rows[0..1] go beyond int64
 * is declared unsigned, so that no value is lost. */
static bool beyond_int64(const ctx *c, const uint32_t rows[2], rc_str col) { return any_value(c, rows, col, is_beyond_int64, NULL); }

/* The columns of the mysqlType (columnType) member, node `types` of c->r.j (the root node when
 * c->r.j is d->aux). */
static rc_status type_columns(const ctx *c, uint32_t types, bool typed, const uint32_t rows[2], rc_column **out, uint32_t *nout)
{
    if (rc_jread_node(&c->r, types)->type != RC_J_OBJECT)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, types)->off, "\"%s\" must be an object (found %s)", c->tkey,
                            rc_jtype_name((rc_jtype)rc_jread_node(&c->r, types)->type));
    uint32_t n = rc_jread_node(&c->r, types)->count;
    if (!n) return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, types)->off, "%s names no column", c->tkey);
    rc_column *cols = rc_arena_alloc(c->r.a, sizeof *cols * (n ? n : 1));
    if (!cols) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    uint32_t i = 0;
    for (uint32_t k = rc_jread_node(&c->r, types)->first; k; k = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->next, i++) {
        const rc_jnode *key = rc_jread_node(&c->r, k), *val = rc_jread_node(&c->r, key->next);
        if (val->type != RC_J_STRING)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, val->off, "a %s entry must be a string (found %s)", c->tkey, rc_jtype_name((rc_jtype)val->type));
        memset(&cols[i], 0, sizeof cols[i]);
        cols[i].name = (rc_str){key->s, key->n}; /* the message's bytes (or the arena's): they outlive the event */
        if (rc_column_name_taken(cols, i, cols[i].name))
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, key->off, "%s names column \"%.*s\" twice", c->tkey, (int)key->n, key->s);
        cols[i].nullable = true; /* Canal does not say */
        const char *alias = c->d->drs ? NULL : oms_alias(val->s, val->n, typed);
        const rc_coltype *t;
        rc_status st = rc_type_cache_get(c->d->jd.types, c->r.a, c->fam, alias ? alias : val->s, alias ? strlen(alias) : val->n,
                                         val->off + 1, &t, c->r.err);
        if (st != RC_OK) return st;
        if (c->d->drs && t->info->vkind == RC_V_INT && beyond_int64(c, rows, cols[i].name)) {
            char decl[80];
            int dn = snprintf(decl, sizeof decl, "%.*s unsigned", (int)(val->n > 60 ? 60 : val->n), val->s);
            if ((st = rc_type_cache_get(c->d->jd.types, c->r.a, c->fam, decl, (size_t)dn, val->off + 1, &t, c->r.err)) != RC_OK) return st;
        }
        cols[i].type = *t;
    }
    *out = cols;
    *nout = n;
    return RC_OK;
}

/* Keeps each column's sqlType code (rc_column.jdbc) from the sqlType object: Canal derives it
 * from the binlog value, so it is the input's to give back, not the catalog's. Entries that
 * are not integers of 16 bits, and a sqlType that is not an object, are ignored (sqlType is
 * not needed to read the message). A recognised sqlType (a memo node) is parsed again. */
static rc_status keep_jdbc(const ctx *c, rc_column *cols, uint32_t n)
{
    uint32_t m = c->m[K_SQLTYPE];
    if (!m) return RC_OK;
    const rc_json *j = c->r.j;
    if (rc_jread_node(&c->r, m)->type == RC_J_MEMO) {
        rc_json *aux = &c->d->sqlaux;
        aux->arena = c->r.a;
        const rc_jnode *mn = rc_jread_node(&c->r, m);
        if (rc_json_parse(aux, mn->s, mn->n, c->r.err) != RC_OK) return rc_error_set(c->r.err, RC_ERR_NOMEM, mn->off, "out of memory");
        j = aux, m = 0;
    }
    if (j->nodes[m].type != RC_J_OBJECT) return RC_OK;
    for (uint32_t k = j->nodes[m].first; k; k = j->nodes[j->nodes[k].next].next) {
        const rc_jnode *key = &j->nodes[k], *val = &j->nodes[key->next];
        int64_t code;
        if (val->type != RC_J_NUMBER || rc_parse_i64(val->s, val->n, &code) != RC_OK || code < INT16_MIN || code > INT16_MAX) continue;
        for (uint32_t i = 0; i < n; i++)
            if (cols[i].name.n == key->n && !memcmp(cols[i].name.p, key->s, key->n)) cols[i].jdbc = (int16_t)code, cols[i].has_jdbc = true;
    }
    return RC_OK;
}

/* Marks the key columns named by pkNames (node pks of c->r.j, 0 when absent). */
static rc_status key_columns(const ctx *c, uint32_t pks, rc_column *cols, uint32_t n)
{
    if (pks && rc_jread_node(&c->r, pks)->type == RC_J_ARRAY) {
        uint16_t pos = 0;
        for (uint32_t p = rc_jread_node(&c->r, pks)->first; p; p = rc_jread_node(&c->r, p)->next) {
            const rc_jnode *pn = rc_jread_node(&c->r, p);
            if (pn->type != RC_J_STRING) return schema_err(c, p, "pkNames entries must be strings");
            uint32_t q = 0;
            while (q < n && !(cols[q].name.n == pn->n && !memcmp(cols[q].name.p, pn->s, pn->n))) q++;
            if (q == n)
                return rc_error_set(c->r.err, RC_ERR_SCHEMA, pn->off, "pkNames names \"%.*s\", which is not in %s", (int)pn->n, pn->s, c->tkey);
            if (cols[q].pk) return rc_error_set(c->r.err, RC_ERR_SCHEMA, pn->off, "pkNames names \"%.*s\" twice", (int)pn->n, pn->s);
            cols[q].pk = ++pos;
            cols[q].nullable = false;
        }
    } else if (pks && rc_jread_node(&c->r, pks)->type != RC_J_NULL) {
        return schema_err(c, pks, "\"pkNames\" must be an array or null");
    }
    return RC_OK;
}

/* What builds a message's column list (rc_coltext_build_fn): the types of member m of j (the
 * message, or the reader's second parse of a recognised mysqlType), the keys of the message. */
typedef struct col_build {
    const ctx *c;
    uint32_t pks;
    bool typed;
    const uint32_t *rows;
} col_build;

static rc_status build_columns(void *p, const rc_json *j, uint32_t m, const rc_column **out, uint32_t *n)
{
    const col_build *b = p;
    ctx tc = *b->c;
    tc.r.j = j;
    rc_column *cols = NULL;
    rc_status st = type_columns(&tc, m, b->typed, b->rows, &cols, n);
    if (st == RC_OK) st = key_columns(b->c, b->pks, cols, *n);
    if (st == RC_OK && !b->c->d->drs) st = keep_jdbc(b->c, cols, *n); /* DRS's sqlType codes are its own */
    *out = cols;
    return st;
}

/* pkNames as text for the table key: its array text, "null", or nothing when absent. */
static bool pk_text(const ctx *c, uint32_t pks, rc_str *out)
{
    *out = (rc_str){"", 0};
    if (!pks) return true;
    const rc_jnode *p = rc_jread_node(&c->r, pks);
    if (p->type == RC_J_NULL) *out = RC_STR("null");
    else if (p->type == RC_J_ARRAY) *out = (rc_str){p->s, p->n};
    else return false;
    return true;
}

static rc_status columns(const ctx *c, uint32_t types, uint32_t pks, bool typed, const uint32_t rows[2], rc_event *ev)
{
    if (!types) return rc_error_set(c->r.err, RC_ERR_SCHEMA, 0, "a DML message needs \"%s\"", c->tkey);
    col_build b = {c, pks, typed, rows};
    rc_str pt;
    if (c->d->drs) return build_columns(&b, c->r.j, types, &ev->cols, &ev->ncols);
    rc_buf *x = &c->d->extra; /* what else decides the list: the typed flag, the pkNames and sqlType texts */
    rc_buf_reset(x);
    if (pk_text(c, pks, &pt)) {
        uint32_t pn = (uint32_t)pt.n; /* the pkNames text's length first: the key reads back one way */
        rc_buf_putc(x, typed ? '1' : '0');
        rc_buf_put(x, &pn, sizeof pn);
        rc_buf_put(x, pt.p, pt.n);
        uint32_t sq = c->m[K_SQLTYPE];
        if (sq) rc_buf_put(x, rc_jread_node(&c->r, sq)->s, rc_jread_node(&c->r, sq)->n);
    } else {
        rc_buf_putc(x, 'x'); /* pkNames of the wrong type: built (from a recognised mysqlType too), for its error */
    }
    if (x->err != RC_OK) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    return rc_coltext_columns(&c->d->tables, c->r.j, types, x->data, x->len, build_columns, &b, c->r.a, &ev->cols, &ev->ncols, &ev->cols_id,
                              c->r.err);
}

static bool name_is(const rc_str *c, const char *s, size_t n) { return c->n == n && rc_short_eq(c->p, s, n); }

/* The column named s[0..n): column `from` first (rows name the columns in mysqlType's order),
 * then all of them. */
static uint32_t col_index(const rc_event *ev, const char *s, size_t n, uint32_t from)
{
    if (from < ev->ncols && name_is(&ev->cols[from].name, s, n)) return from;
    for (uint32_t i = 0; i < ev->ncols; i++)
        if (name_is(&ev->cols[i].name, s, n)) return i;
    return UINT32_MAX;
}

static rc_status value(const ctx *c, const rc_column *col, uint32_t vn, rc_value *out)
{
    const rc_jnode *v = rc_jread_node(&c->r, vn);
    if (v->type == RC_J_STRING && 1u << col->type.info->vkind & (1u << RC_V_ENUM | 1u << RC_V_SET | 1u << RC_V_GEOMETRY) && !c->d->drs) {
        /* an ENUM index, a SET bitmask, MySQL's geometry value (canal_values.h); else its text */
        rc_error verr;
        rc_error_clear(&verr);
        rc_status st = rc_canal_binlog_value(col, col->has_jdbc ? col->jdbc : INT16_MIN, v->s, v->n, c->r.a, out, &verr);
        if (st != RC_SKIP) return st == RC_OK ? RC_OK : rc_jread_raise(&c->r, v, st, &verr);
    }
    rc_status st = rc_jread_value(&c->r, col, vn, &c->vo, NULL, out);
    if (st == RC_SKIP)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, v->off, "a %s value must be a string, number, boolean or null (found %s)", c->d->what,
                            rc_jtype_name((rc_jtype)v->type));
    return st;
}

/* One row object into a full image (every column present). */
static rc_status full_row(const ctx *c, uint32_t row, const char *where, const rc_event *ev, rc_value **out)
{
    if (rc_jread_node(&c->r, row)->type != RC_J_OBJECT)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, row)->off, "a row in \"%s\" must be an object (found %s)", where,
                            rc_jtype_name((rc_jtype)rc_jread_node(&c->r, row)->type));
    if (rc_jread_node(&c->r, row)->count != ev->ncols)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, row)->off, "a row in \"%s\" has %u values but %s has %u columns", where,
                            rc_jread_node(&c->r, row)->count, c->tkey, ev->ncols);
    rc_value *img = rc_arena_alloc(c->r.a, sizeof *img * (ev->ncols ? ev->ncols : 1));
    uint8_t *got = rc_arena_alloc(c->r.a, ev->ncols ? ev->ncols : 1); /* each column once: with the count check, all of them */
    if (!img || !got) return rc_error_set(c->r.err, RC_ERR_NOMEM, 0, "out of memory");
    memset(got, 0, ev->ncols ? ev->ncols : 1);
    uint32_t i = UINT32_MAX;
    for (uint32_t k = rc_jread_node(&c->r, row)->first; k; k = rc_jread_node(&c->r, rc_jread_node(&c->r, k)->next)->next) {
        const rc_jnode *key = rc_jread_node(&c->r, k);
        i = col_index(ev, key->s, key->n, i + 1);
        if (i == UINT32_MAX)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, key->off, "%s names \"%.*s\", which is not in %s", where, (int)key->n, key->s, c->tkey);
        if (got[i]++)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, key->off, "a row in \"%s\" names column \"%.*s\" twice", where, (int)key->n, key->s);
        rc_status st = value(c, &ev->cols[i], key->next, &img[i]);
        if (st != RC_OK) return st;
    }
    *out = img;
    return RC_OK;
}

/* DRS's layout for other databases: "columnType" with the source's own type names, "dbType"
 * naming the source, "schema"; binary values as hex. */
static rc_status drs_layout(ctx *c, rc_event *base)
{
    if (!c->m[K_COLUMNTYPE] && !c->m[K_DBTYPE]) return RC_OK; /* the MySQL layout */
    rc_str dbtype = {0};
    rc_status st;
    if ((st = str_member(c, K_DBTYPE, true, &dbtype)) != RC_OK || (st = str_member(c, K_SCHEMA, false, &base->src.schema)) != RC_OK) return st;
    static const struct {
        const char *part;
        rc_dbkind kind;
    } kinds[] = {{"Oracle", RC_DB_ORACLE}, {"SQL Server", RC_DB_SQLSERVER}, {"PostgreSQL", RC_DB_POSTGRES}, {"GaussDB", RC_DB_POSTGRES}};
    base->src.kind = RC_DB_POSTGRES; /* other PostgreSQL-like targets (openGauss, ...) */
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        size_t pl = strlen(kinds[k].part);
        for (size_t i = 0; i + pl <= dbtype.n; i++)
            if (!memcmp(dbtype.p + i, kinds[k].part, pl)) {
                base->src.kind = kinds[k].kind;
                k = sizeof kinds / sizeof *kinds - 1;
                break;
            }
    }
    c->tkey = "columnType";
    c->m[K_MYSQLTYPE] = c->m[K_COLUMNTYPE];
    c->fam = rc_dbkind_family(base->src.kind);
    c->vo.bytes = RC_BYTES_HEX;
    return RC_OK;
}

/* sqlType says nothing mysqlType does not: it is only read, and kept as the parser's memo so
 * the next message of the table skips it. */
static rc_status remember_sqltype(const ctx *c)
{
    uint32_t st = c->m[K_SQLTYPE];
    const rc_jnode *sn = st ? rc_jread_node(&c->r, st) : NULL;
    if (!sn || sn->type != RC_J_OBJECT) return RC_OK; /* absent, recognised, or not an object (ignored) */
    canal_dec *d = c->d;
    if (!rc_json_memo_keep(&d->memo[1], &d->sqltype, sn->s, sn->n)) return rc_error_set(c->r.err, RC_ERR_NOMEM, sn->off, "out of memory");
    return RC_OK;
}

static const struct {
    const char *canal, *kind;
} ddl_kinds[] = {{"CREATE", "CREATE_TABLE"}, {"ALTER", "ALTER_TABLE"},   {"ERASE", "DROP_TABLE"},     {"TRUNCATE", "TRUNCATE"},
                 {"RENAME", "RENAME_TABLE"}, {"CINDEX", "CREATE_INDEX"}, {"DINDEX", "DROP_INDEX"}};

rc_status rc_canal_decode(void *p, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err)
{
    canal_dec *d = p;
    if (!d->drs) d->jd.json.memo = d->memo, d->jd.json.nmemo = 2;
    rc_status st = rc_jsondec_parse(&d->jd, msg, n, a, err);
    if (st != RC_OK) return st;
    ctx c = {.r = {&d->jd.json, a, err}, .d = d, .vo = d->vopts, .tkey = "mysqlType", .fam = RC_FAM_MYSQL};
    rc_json_members(c.r.j, 0, &d->keys, c.m);
    if (!d->drs && (st = remember_sqltype(&c)) != RC_OK) return st;
    if (rc_jread_node(&c.r, 0)->type != RC_J_OBJECT)
        return rc_error_set(err, RC_ERR_SCHEMA, 0, "a %s message must be a JSON object (found %s)", d->what, rc_jtype_name((rc_jtype)rc_jread_node(&c.r, 0)->type));
    rc_event base;
    memset(&base, 0, sizeof base);
    base.src.kind = d->kind;
    if (d->drs && (st = drs_layout(&c, &base)) != RC_OK) return st;
    rc_str type = {0};
    if ((st = str_member(&c, K_TYPE, true, &type)) != RC_OK || (st = str_member(&c, K_DATABASE, false, &base.src.db)) != RC_OK ||
        (st = str_member(&c, K_TABLE, false, &base.src.table)) != RC_OK)
        return st;
    if (!rc_event_list_accepts(out, base.src.db, base.src.table)) return RC_OK; /* filtered table: rows not parsed */
    int64_t id = 0;
    bool has_id = false;
    if ((st = rc_jsondec_us_at(c.r.j, c.m[K_ES], "es", 1000, &base.ts_us, &base.has_ts, err)) != RC_OK ||
        (st = rc_jsondec_us_at(c.r.j, c.m[K_TS], "ts", 1000, &base.proc_us, &base.has_proc, err)) != RC_OK ||
        (st = rc_jsondec_i64_at(c.r.j, c.m[K_ID], "id", &id, &has_id, err)) != RC_OK)
        return st;
    if (has_id && id >= 0) base.pos.seq = (uint64_t)id, base.pos.has_seq = true;
    uint32_t isddl = c.m[K_ISDDL];
    if (isddl && rc_jread_node(&c.r, isddl)->type == RC_J_TRUE) {
        rc_event *ev = rc_event_list_push(out);
        if (!ev) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        *ev = base;
        ev->op = type.n == 8 && !memcmp(type.p, "TRUNCATE", 8) ? RC_OP_TRUNCATE : RC_OP_DDL;
        if ((st = str_member(&c, K_SQL, false, &ev->ddl)) != RC_OK) return st;
        for (size_t k = 0; k < sizeof ddl_kinds / sizeof *ddl_kinds; k++)
            if (strlen(ddl_kinds[k].canal) == type.n && !memcmp(ddl_kinds[k].canal, type.p, type.n))
                ev->ddl_kind = (rc_str){ddl_kinds[k].kind, strlen(ddl_kinds[k].kind)};
        if (d->drs && type.n == 8 && !memcmp(type.p, "INIT_DDL", 8)) ev->snapshot = RC_STR("true"); /* DDL of a full sync */
        if (ev->op == RC_OP_DDL && !ev->ddl.n) return rc_error_set(err, RC_ERR_SCHEMA, 0, "a DDL message (isDdl true) without \"sql\"");
        return RC_OK;
    } else if (isddl && rc_jread_node(&c.r, isddl)->type != RC_J_FALSE) {
        return schema_err(&c, isddl, "\"isDdl\" must be true or false");
    }
    rc_op op;
    if (type.n == 6 && !memcmp(type.p, "INSERT", 6)) op = RC_OP_INSERT;
    else if (type.n == 6 && !memcmp(type.p, "UPDATE", 6)) op = RC_OP_UPDATE;
    else if (type.n == 6 && !memcmp(type.p, "DELETE", 6)) op = RC_OP_DELETE;
    else if (type.n == 4 && !memcmp(type.p, "INIT", 4)) op = RC_OP_READ;
    else
        return rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, c.m[K_TYPE])->off, "unknown %s type \"%.*s\" for a DML message", d->what,
                            (int)(type.n > 40 ? 40 : type.n), type.p);
    /* the rows: "data", but DRS json puts a DELETE's row in "old" (json-c in "data") */
    bool rows_in_old = d->drs && !d->json_c && op == RC_OP_DELETE;
    const char *rows_key = rows_in_old ? "old" : "data";
    uint32_t data = c.m[rows_in_old ? K_OLD : K_DATA], old = rows_in_old ? 0 : c.m[K_OLD];
    if (!data || rc_jread_node(&c.r, data)->type != RC_J_ARRAY)
        return data ? rc_error_set(err, RC_ERR_SCHEMA, rc_jread_node(&c.r, data)->off, "\"%s\" must be an array%s (found %s)", rows_key,
                                   rows_in_old ? " (DRS json carries a deleted row in \"old\")" : "",
                                   rc_jtype_name((rc_jtype)rc_jread_node(&c.r, data)->type))
                    : rc_error_set(err, RC_ERR_SCHEMA, 0, "a %.*s message needs \"%s\"", (int)type.n, type.p, rows_key);
    const uint32_t rowsets[2] = {data, old};
    if ((st = columns(&c, c.m[K_MYSQLTYPE], c.m[K_PKNAMES], row_is_typed(&c, data), rowsets, &base)) != RC_OK)
        return st;
    bool has_old = old && rc_jread_node(&c.r, old)->type == RC_J_ARRAY;
    if (old && !has_old && rc_jread_node(&c.r, old)->type != RC_J_NULL) return schema_err(&c, old, "\"old\" must be an array or null");
    if (op == RC_OP_UPDATE && (!has_old || rc_jread_node(&c.r, old)->count != rc_jread_node(&c.r, data)->count))
        return rc_error_set(err, RC_ERR_SCHEMA, old ? rc_jread_node(&c.r, old)->off : 0, "an UPDATE needs one \"old\" row per \"data\" row (%u data, %u old)",
                            rc_jread_node(&c.r, data)->count, has_old ? rc_jread_node(&c.r, old)->count : 0);
    uint32_t orow = has_old ? rc_jread_node(&c.r, old)->first : 0, index = 0;
    for (uint32_t r = rc_jread_node(&c.r, data)->first; r; r = rc_jread_node(&c.r, r)->next, index++) {
        rc_event *ev = rc_event_list_push(out);
        if (!ev) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
        *ev = base;
        ev->op = op;
        /* the row's place in its message, as in a binlog rows event: row 0 starts a message, so
         * a writer that groups rows (canal.group) keeps the input's message boundaries */
        if (!d->drs) ev->pos.row = index, ev->pos.has_row = true;
        rc_value *img = NULL;
        if ((st = full_row(&c, r, rows_key, ev, &img)) != RC_OK) return st;
        if (op == RC_OP_DELETE) {
            ev->before = img;
        } else {
            ev->after = img;
        }
        if (op == RC_OP_UPDATE && d->drs) { /* DRS: "old" is the whole previous row */
            rc_value *before = NULL;
            if ((st = full_row(&c, orow, "old", ev, &before)) != RC_OK) return st;
            ev->before = before;
            orow = rc_jread_node(&c.r, orow)->next;
        } else if (op == RC_OP_UPDATE) {
            /* the before image: the after image with the changed columns' previous values */
            if (rc_jread_node(&c.r, orow)->type != RC_J_OBJECT) return schema_err(&c, orow, "an \"old\" row must be an object");
            rc_value *before = rc_arena_alloc(a, sizeof *before * (ev->ncols ? ev->ncols : 1));
            uint8_t *changed = rc_arena_alloc(a, ev->ncols ? ev->ncols : 1);
            if (!before || !changed) return rc_error_set(err, RC_ERR_NOMEM, 0, "out of memory");
            memcpy(before, img, sizeof *before * ev->ncols);
            memset(changed, 0, ev->ncols);
            uint32_t i = UINT32_MAX;
            for (uint32_t k = rc_jread_node(&c.r, orow)->first; k; k = rc_jread_node(&c.r, rc_jread_node(&c.r, k)->next)->next) {
                const rc_jnode *key = rc_jread_node(&c.r, k);
                i = col_index(ev, key->s, key->n, i + 1);
                if (i == UINT32_MAX)
                    return rc_error_set(err, RC_ERR_SCHEMA, key->off, "old names \"%.*s\", which is not in %s", (int)key->n, key->s, c.tkey);
                if ((st = value(&c, &ev->cols[i], key->next, &before[i])) != RC_OK) return st;
                /* TiCDC's "old" is the whole previous row: only a value that differs changed */
                changed[i] = !rc_value_equal(&before[i], &img[i]);
            }
            ev->before = before;
            ev->changed = changed;
            orow = rc_jread_node(&c.r, orow)->next;
        }
        if ((st = rc_event_fit_fractions(ev, a, d->jd.types, err)) != RC_OK) return st; /* type names without precision */
    }
    return RC_OK;
}
