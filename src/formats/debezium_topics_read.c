/* Debezium's two topics beside the tables', reader side (docs/formats/debezium.md, "Reading"):
 * the transaction-metadata topic (<server>.transaction: {"status":"BEGIN"|"END","id",...}),
 * read as BEGIN and COMMIT markers, and the schema-change topic (<server>: {"databaseName",
 * "ddl","tableChanges",...}), read as DDL events whose columns are the table's structure after
 * the statement (one event per table change). */
#include <ctype.h>
#include <string.h>
#include "formats/debezium_read.h"
#include "core/fmt.h"
#include "core/jsondec.h"

typedef struct tctx {
    rc_jread r; /* the message, the events' arena, the error */
    rc_type_cache *types;
} tctx;

static bool is_type(const tctx *c, uint32_t i, rc_jtype t) { return i && rc_jread_node(&c->r, i)->type == t; }

static rc_str str_of(const tctx *c, uint32_t i)
{
    return is_type(c, i, RC_J_STRING) ? (rc_str){rc_jread_node(&c->r, i)->s, rc_jread_node(&c->r, i)->n} : (rc_str){0};
}

static bool str_is(const tctx *c, uint32_t i, const char *s)
{
    rc_str v = str_of(c, i);
    return v.p && v.n == strlen(s) && !memcmp(v.p, s, v.n);
}

static rc_status nomem(const tctx *c) { return rc_error_set(c->r.err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"); }

/* A member that must be a string (or, when `nullable`, null or absent). */
static rc_status want_str(const tctx *c, uint32_t obj, const char *key, bool nullable, rc_str *out)
{
    uint32_t v = rc_json_get(c->r.j, obj, key);
    rc_status st = rc_jsondec_str_at(c->r.j, v, key, out, c->r.err);
    if (st != RC_OK || out->p || nullable) return st;
    if (v) return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, v)->off, "\"%s\" must be a string (found null)", key);
    return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, obj)->off, "\"%s\" is missing: it must be a string", key);
}

static rc_status push(const tctx *c, const rc_event *ev, rc_event_list *out)
{
    rc_event *e = rc_event_list_push(out);
    if (!e) return nomem(c);
    *e = *ev;
    return RC_OK;
}

/* ---- transaction metadata ---- */

static rc_status collections(const tctx *c, uint32_t arr, rc_position *p)
{
    if (!arr || rc_jread_node(&c->r, arr)->type == RC_J_NULL) return RC_OK;
    if (rc_jread_node(&c->r, arr)->type != RC_J_ARRAY)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, arr)->off, "\"data_collections\" must be an array or null");
    uint32_t n = rc_jread_node(&c->r, arr)->count;
    rc_tx_collection *cs = rc_arena_alloc(c->r.a, sizeof *cs * (n ? n : 1));
    if (!cs) return nomem(c);
    uint32_t k = 0;
    for (uint32_t e = rc_jread_node(&c->r, arr)->first; e; e = rc_jread_node(&c->r, e)->next, k++) {
        int64_t x;
        bool h;
        rc_status st = want_str(c, e, "data_collection", false, &cs[k].name);
        if (st == RC_OK) st = rc_jsondec_i64(c->r.j, e, "event_count", &x, &h, c->r.err);
        if (st != RC_OK) return st;
        if (!h || x < 0)
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, e)->off, "a data_collections entry needs a non-negative \"event_count\"");
        cs[k].count = (uint64_t)x;
    }
    p->collections = cs;
    p->ncollections = n;
    return RC_OK;
}

/* The PostgreSQL connector's (2.x) transaction id "<txId>:<LSN>" (digits, a colon, a decimal
 * LSN; MySQL's ids are GTIDs or binlog positions, never all digits before the colon): the
 * marker is PostgreSQL's, its txid the txId (as its rows', which the reader splits the same
 * way) and its lsn the LSN, from which the writer builds the id again. */
static void pg_marker_id(rc_event *ev)
{
    rc_str id = ev->pos.txid;
    const char *colon = id.n ? memchr(id.p, ':', id.n) : NULL;
    if (!colon || colon == id.p || colon + 1 == id.p + id.n) return;
    for (const char *q = id.p; q < id.p + id.n; q++)
        if (q != colon && (*q < '0' || *q > '9')) return;
    rc_str lsn = {colon + 1, (size_t)(id.p + id.n - colon - 1)};
    rc_error e;
    rc_error_clear(&e);
    if (rc_lsn_text_check(lsn, "lsn", 0, &e) != RC_OK) return;
    ev->pos.txid = (rc_str){id.p, (size_t)(colon - id.p)};
    ev->pos.lsn = lsn;
    if (ev->src.kind == RC_DB_UNKNOWN) ev->src.kind = RC_DB_POSTGRES;
}

static rc_status tx_marker(const tctx *c, uint32_t payload, uint32_t status, rc_event_list *out)
{
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    if (str_is(c, status, "BEGIN")) ev.op = RC_OP_BEGIN;
    else if (str_is(c, status, "END")) ev.op = RC_OP_COMMIT;
    else
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, status)->off, "a transaction \"status\" must be \"BEGIN\" or \"END\"");
    rc_status st = want_str(c, payload, "id", false, &ev.pos.txid);
    if (st != RC_OK) return st;
    pg_marker_id(&ev);
    /* ts_ms since 2.0 (1.x wrote none) */
    if ((st = rc_jsondec_us_at(c->r.j, rc_json_get(c->r.j, payload, "ts_ms"), "ts_ms", 1000, &ev.ts_us, &ev.has_ts, c->r.err)) != RC_OK) return st;
    int64_t x;
    bool h;
    if ((st = rc_jsondec_i64(c->r.j, payload, "event_count", &x, &h, c->r.err)) != RC_OK) return st;
    if (h) {
        if (x < 0 || x > UINT32_MAX)
            return rc_error_set(c->r.err, RC_ERR_RANGE, rc_jread_node(&c->r, rc_json_get(c->r.j, payload, "event_count"))->off,
                                "\"event_count\" must be between 0 and 4294967295");
        ev.pos.tx_count = (uint32_t)x, ev.pos.has_tx_count = true;
    }
    if ((st = collections(c, rc_json_get(c->r.j, payload, "data_collections"), &ev.pos)) != RC_OK) return st;
    return push(c, &ev, out);
}

/* ---- schema changes ---- */

/* The names of a TableId as Debezium quotes it ("db"."table" MySQL, "schema"."table"
 * PostgreSQL, "db"."schema"."table" SQL Server; quotes inside doubled) into the event's db,
 * schema and table; a db or schema the event has already stays. */
static rc_status table_id(const tctx *c, uint32_t idn, rc_event *ev)
{
    rc_str id = str_of(c, idn);
    rc_str parts[3] = {{0}};
    size_t np = 0, i = 0;
    while (i < id.n) {
        if (np == 3 || id.p[i] != '"') goto bad;
        char *buf = rc_arena_alloc(c->r.a, id.n);
        if (!buf) return nomem(c);
        size_t k = 0;
        for (i++;; i++) {
            if (i >= id.n) goto bad;
            if (id.p[i] == '"') {
                if (i + 1 < id.n && id.p[i + 1] == '"') buf[k++] = '"', i++;
                else break;
            } else {
                buf[k++] = id.p[i];
            }
        }
        parts[np++] = (rc_str){buf, k};
        i++;
        if (i < id.n && id.p[i++] != '.') goto bad;
    }
    if (!np) goto bad;
    ev->src.table = parts[np - 1];
    rc_str *first = rc_dbkind_family(ev->src.kind) == RC_FAM_PG ? &ev->src.schema : &ev->src.db;
    if (np == 3 && !ev->src.db.n) ev->src.db = parts[0];
    if (np == 3 && !ev->src.schema.n) ev->src.schema = parts[1];
    if (np == 2 && !first->n) *first = parts[0];
    return RC_OK;
bad:
    return rc_error_set(c->r.err, RC_ERR_SCHEMA, idn ? rc_jread_node(&c->r, idn)->off : 0, "a table change \"id\" must be quoted names joined by dots (\"db\".\"table\")");
}

/* The column's declaration in the source's dialect from Debezium's typeName, length, scale and
 * enumValues: "VARCHAR" 32 -> varchar(32), "INT UNSIGNED" 10 -> int(10) unsigned, "ENUM"
 * ['a','b'] -> enum('a','b'); a charsetName is kept as "character set X". */
static rc_status declaration(const tctx *c, uint32_t col, rc_buf *d)
{
    rc_str name = str_of(c, rc_json_get(c->r.j, col, "typeName"));
    if (!name.n) return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, col)->off, "a column without \"typeName\"");
    int64_t len = 0, scale = 0;
    bool has_len, has_scale;
    rc_status st = rc_jsondec_i64(c->r.j, col, "length", &len, &has_len, c->r.err);
    if (st == RC_OK) st = rc_jsondec_i64(c->r.j, col, "scale", &scale, &has_scale, c->r.err);
    if (st != RC_OK) return st;
    size_t base = name.n;
    for (size_t i = 0; i < name.n; i++)
        if (name.p[i] == ' ' || name.p[i] == '(') {
            base = i;
            break;
        }
    rc_buf_reset(d);
    for (size_t i = 0; i < base; i++) rc_buf_putc(d, (char)tolower((unsigned char)name.p[i]));
    uint32_t ev = rc_json_get(c->r.j, col, "enumValues");
    if (is_type(c, ev, RC_J_ARRAY) && rc_jread_node(&c->r, ev)->count) {
        rc_buf_putc(d, '(');
        for (uint32_t v = rc_jread_node(&c->r, ev)->first; v; v = rc_jread_node(&c->r, v)->next) {
            /* Debezium's options are unquoted, a comma in one escaped as \, */
            rc_str s = str_of(c, v);
            if (v != rc_jread_node(&c->r, ev)->first) rc_buf_putc(d, ',');
            rc_buf_putc(d, '\'');
            for (size_t i = 0; i < s.n; i++) {
                if (s.p[i] == '\\' && i + 1 < s.n && s.p[i + 1] == ',') continue;
                if (s.p[i] == '\'') rc_buf_putc(d, '\'');
                rc_buf_putc(d, s.p[i]);
            }
            rc_buf_putc(d, '\'');
        }
        rc_buf_putc(d, ')');
    } else if (has_len && len >= 0 && base == name.n) {
        rc_buf_putc(d, '(');
        rc_fmt_i64(d, len);
        if (has_scale && scale >= 0) rc_buf_putc(d, ','), rc_fmt_i64(d, scale);
        rc_buf_putc(d, ')');
    }
    for (size_t i = base; i < name.n; i++) rc_buf_putc(d, (char)tolower((unsigned char)name.p[i]));
    rc_str cs = str_of(c, rc_json_get(c->r.j, col, "charsetName"));
    if (cs.n) {
        rc_buf_puts(d, " character set ");
        rc_buf_put(d, cs.p, cs.n);
    }
    return d->err == RC_OK ? RC_OK : nomem(c);
}

static rc_status table_columns(const tctx *c, uint32_t table, rc_family fam, rc_event *ev)
{
    uint32_t cols = rc_json_get(c->r.j, table, "columns"), pks = rc_json_get(c->r.j, table, "primaryKeyColumnNames");
    if (!is_type(c, cols, RC_J_ARRAY))
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, table)->off, "a table change's \"table\" needs a \"columns\" array");
    uint32_t n = rc_jread_node(&c->r, cols)->count;
    rc_column *out = rc_arena_alloc(c->r.a, sizeof *out * (n ? n : 1));
    if (!out) return nomem(c);
    rc_buf d;
    rc_buf_init(&d, 0);
    rc_status st = RC_OK;
    uint32_t i = 0;
    for (uint32_t k = rc_jread_node(&c->r, cols)->first; k && st == RC_OK; k = rc_jread_node(&c->r, k)->next, i++) {
        memset(&out[i], 0, sizeof out[i]);
        if ((st = want_str(c, k, "name", false, &out[i].name)) != RC_OK) break;
        if (rc_column_name_taken(out, i, out[i].name)) {
            st = rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, k)->off, "the table change names column \"%.*s\" twice", (int)out[i].name.n, out[i].name.p);
            break;
        }
        out[i].nullable = is_type(c, rc_json_get(c->r.j, k, "optional"), RC_J_TRUE);
        int64_t jdbc;
        bool h;
        if ((st = rc_jsondec_i64(c->r.j, k, "jdbcType", &jdbc, &h, c->r.err)) != RC_OK) break;
        if (h && jdbc >= INT16_MIN && jdbc <= INT16_MAX) out[i].jdbc = (int16_t)jdbc, out[i].has_jdbc = true;
        if ((st = declaration(c, k, &d)) != RC_OK) break;
        const rc_coltype *t;
        rc_error terr;
        rc_error_clear(&terr);
        if ((st = rc_type_cache_get(c->types, c->r.a, fam, d.data, d.len, rc_jread_node(&c->r, k)->off, &t, &terr)) != RC_OK) {
            rc_error_set(c->r.err, terr.code, terr.offset, "table change column \"%.*s\": %s", (int)out[i].name.n, out[i].name.p, terr.message);
            break;
        }
        out[i].type = *t;
        if (is_type(c, pks, RC_J_ARRAY)) {
            uint16_t pos = 1;
            for (uint32_t p = rc_jread_node(&c->r, pks)->first; p; p = rc_jread_node(&c->r, p)->next, pos++) {
                rc_str pn = str_of(c, p);
                if (pn.n == out[i].name.n && !memcmp(pn.p, out[i].name.p, pn.n)) out[i].pk = pos;
            }
        }
    }
    rc_buf_fini(&d);
    if (st != RC_OK) return st;
    if (is_type(c, pks, RC_J_ARRAY)) { /* every key name must be one column, named once */
        uint16_t pos = 1;
        for (uint32_t p = rc_jread_node(&c->r, pks)->first; p; p = rc_jread_node(&c->r, p)->next, pos++) {
            uint32_t j = 0;
            while (j < n && out[j].pk != pos) j++;
            if (j == n) {
                rc_str pn = str_of(c, p);
                return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, p)->off,
                                    "primaryKeyColumnNames names \"%.*s\", which is not a column of the table change or is named twice", (int)pn.n, pn.p);
            }
        }
    }
    ev->cols = out;
    ev->ncols = n;
    return RC_OK;
}

static rc_status schema_change(const tctx *c, uint32_t payload, rc_dbz_source_fn source, void *sctx, rc_event_list *out)
{
    rc_event ev;
    memset(&ev, 0, sizeof ev);
    ev.op = RC_OP_DDL;
    uint32_t src = rc_json_get(c->r.j, payload, "source");
    if (!is_type(c, src, RC_J_OBJECT))
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, src ? rc_jread_node(&c->r, src)->off : rc_jread_node(&c->r, payload)->off, "a schema change without a \"source\" object");
    rc_status st = source(sctx, src, &ev);
    rc_str db, schema;
    if (st == RC_OK) st = want_str(c, payload, "ddl", false, &ev.ddl); /* a schema change without its statement */
    if (st == RC_OK) st = want_str(c, payload, "databaseName", true, &db);
    if (st == RC_OK) st = want_str(c, payload, "schemaName", true, &schema);
    if (st == RC_OK)
        st = rc_jsondec_us_at(c->r.j, rc_json_get(c->r.j, payload, "ts_ms"), "ts_ms", 1000, &ev.proc_us, &ev.has_proc, c->r.err);
    if (st != RC_OK) return st;
    if (db.n) ev.src.db = db;
    if (schema.n) ev.src.schema = schema;
    uint32_t tcs = rc_json_get(c->r.j, payload, "tableChanges");
    if (tcs && rc_jread_node(&c->r, tcs)->type != RC_J_ARRAY && rc_jread_node(&c->r, tcs)->type != RC_J_NULL)
        return rc_error_set(c->r.err, RC_ERR_SCHEMA, rc_jread_node(&c->r, tcs)->off, "\"tableChanges\" must be an array");
    if (!is_type(c, tcs, RC_J_ARRAY) || !rc_jread_node(&c->r, tcs)->count) { /* CREATE DATABASE, a statement of no table */
        if (!rc_event_list_accepts(out, ev.src.db, ev.src.table)) return RC_OK;
        return push(c, &ev, out);
    }
    for (uint32_t t = rc_jread_node(&c->r, tcs)->first; t; t = rc_jread_node(&c->r, t)->next) {
        rc_event one = ev;
        uint32_t type = rc_json_get(c->r.j, t, "type"), table = rc_json_get(c->r.j, t, "table");
        if (str_is(c, type, "CREATE")) one.ddl_kind = RC_STR("CREATE_TABLE");
        else if (str_is(c, type, "ALTER")) one.ddl_kind = RC_STR("ALTER_TABLE");
        else if (str_is(c, type, "DROP")) one.ddl_kind = RC_STR("DROP_TABLE");
        else
            return rc_error_set(c->r.err, RC_ERR_SCHEMA, type ? rc_jread_node(&c->r, type)->off : rc_jread_node(&c->r, t)->off,
                                "a table change \"type\" must be \"CREATE\", \"ALTER\" or \"DROP\"");
        if ((st = table_id(c, rc_json_get(c->r.j, t, "id"), &one)) != RC_OK) return st;
        if (!rc_event_list_accepts(out, one.src.db.n ? one.src.db : one.src.schema, one.src.table)) continue;
        if (is_type(c, table, RC_J_OBJECT)) {
            if ((st = table_columns(c, table, rc_dbkind_family(one.src.kind), &one)) != RC_OK) return st;
            if ((st = want_str(c, table, "defaultCharsetName", true, &one.table_charset)) != RC_OK) return st;
        }
        if ((st = push(c, &one, out)) != RC_OK) return st;
    }
    return RC_OK;
}

rc_status rc_dbz_read_topics(const rc_json *j, uint32_t payload, rc_arena *a, rc_type_cache *types, rc_dbz_source_fn source,
                             void *sctx, rc_event_list *out, rc_error *err)
{
    tctx c = {{j, a, err}, types};
    uint32_t status = rc_json_get(j, payload, "status");
    if (is_type(&c, status, RC_J_STRING) && rc_json_get(j, payload, "id")) return tx_marker(&c, payload, status, out);
    if (rc_json_get(j, payload, "ddl") && rc_json_get(j, payload, "databaseName")) return schema_change(&c, payload, source, sctx, out);
    return RC_SKIP;
}
