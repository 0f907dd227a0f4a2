/* The event decoder's state machine (my_decoder.h): which transaction it is in, the table maps
 * by id, the GTID set at the last transaction boundary, and what each event turns into.
 *
 * A transaction starts at its GTID event (MySQL GTID / ANONYMOUS_GTID / GTID_TAGGED, MariaDB
 * GTID) or, without GTIDs, at QUERY BEGIN, and ends at XID, QUERY COMMIT/ROLLBACK, XA_PREPARE,
 * or the DDL statement that is its only event; the position moves only where none is open, so
 * a checkpoint never points inside one. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "my_decoder.h"
#include "my_event.h"
#include "my_rows.h"
#include "my_tablemap.h"
#include "my_value_int.h"
#include "rowcast/colcache.h"
#include "rowcast/fmt.h"

typedef struct tm_entry {
    rc_my_tablemap *map;
    bool accepted;
    bool refused; /* the history disagreed with it: its rows are refused too */
    uint64_t offset; /* of the TABLE_MAP, for that message */
    uint8_t *body;   /* the event's body: the same TABLE_MAP again (every transaction sends it) is */
    size_t bodyn;    /* recognised, not parsed and completed again */
    uint64_t gen;    /* the history's generation it was completed with */
    const rc_column *cols; /* from the column cache (NULL: build per event, the cache is full) */
    const void *cols_id;
} tm_entry;

struct rc_my_decoder {
    rc_my_decoder_config cfg;
    rc_my_fde fde;
    bool have_fde;
    rc_str version;       /* the FDE's server version, in keep */
    const char *file;     /* current binlog file (in keep) */
    size_t file_len;      /* its strlen, for every event's position */
    const char *bfile;    /* the boundary's */
    uint64_t boffset;
    bool in_tx, in_begin; /* a transaction is open; it began with BEGIN (so a DDL does not end it) */
    bool standalone;      /* MariaDB GTID flag: the transaction is one statement, no BEGIN */
    rc_my_gtid_set *gtids;
    /* the open transaction's GTID, added to gtids at its end */
    int gtid_kind; /* 0 none, 1 MySQL, 2 MariaDB */
    rc_my_gtid_ev my;
    rc_maria_gtid maria;
    uint32_t gtid_server;
    char gtid_text[96];
    size_t gtid_len;
    uint64_t thread;
    bool has_thread;
    /* Debezium's MySQL transaction id of the open BEGIN…COMMIT (MySqlOffsetContext): the GTID,
     * or without one "file=<binlog>,pos=<offset of the BEGIN>" */
    char txid_text[128];
    size_t txid_len;
    rc_buf query; /* the last ANNOTATE_ROWS / ROWS_QUERY statement */
    tm_entry *maps;
    size_t nmaps, capmaps;
    /* replaced table maps: events still held may point at their ENUM/SET labels, so they live
     * as long as the decoder (one per structure change, not one per transaction) */
    rc_my_tablemap **retired;
    size_t nretired, capretired;
    uint64_t gen; /* DDL statements applied to the history */
    rc_colcache *cols;
    rc_arena keep; /* file names and versions events point at: as long as the decoder */
    rc_buf scratch, payload, decl, key;
    int depth;    /* inside a TRANSACTION_PAYLOAD */
    bool rotated; /* a ROTATE set the boundary (the new file, its position) */
    uint64_t ev_offset;
    uint32_t ev_ts;
    uint32_t ev_server;
};

static rc_status nomem(rc_error *err) { return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory"); }

static const char *keep_str(rc_my_decoder *d, const char *s, size_t n) { return rc_arena_memdup(&d->keep, s, n); }

rc_status rc_my_decoder_new(const rc_my_decoder_config *cfg, rc_my_decoder **out, rc_error *err)
{
    rc_my_decoder *d = calloc(1, sizeof *d);
    if (!d) return nomem(err);
    d->cfg = *cfg;
    rc_arena_init(&d->keep);
    rc_buf_init(&d->query, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&d->scratch, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&d->payload, (size_t)1 << 30);
    rc_buf_init(&d->decl, 1 << 20);
    rc_buf_init(&d->key, 1 << 24);
    rc_my_fde_default(&d->fde);
    d->gtids = rc_my_gtid_set_new();
    d->cols = cfg->cols ? cfg->cols : rc_colcache_new();
    const char *f = cfg->file ? cfg->file : "";
    d->file = d->bfile = keep_str(d, f, d->file_len = strlen(f));
    d->boffset = 4;
    if (cfg->server.n) d->cfg.server = (rc_str){keep_str(d, cfg->server.p, cfg->server.n), cfg->server.n};
    if (!d->gtids || !d->cols || !d->file) {
        rc_my_decoder_free(d);
        return nomem(err);
    }
    *out = d;
    return RC_OK;
}

/* Keeps a replaced map until the decoder goes (false: out of memory, the map is freed). */
static bool retire(rc_my_decoder *d, rc_my_tablemap *m)
{
    if (d->nretired == d->capretired) {
        size_t cap = d->capretired ? d->capretired * 2 : 16;
        rc_my_tablemap **t = realloc(d->retired, cap * sizeof *t);
        if (!t) return rc_my_tablemap_free(m), false;
        d->retired = t, d->capretired = cap;
    }
    d->retired[d->nretired++] = m;
    return true;
}

static void maps_clear(rc_my_decoder *d)
{
    for (size_t i = 0; i < d->nmaps; i++) {
        retire(d, d->maps[i].map);
        free(d->maps[i].body);
    }
    d->nmaps = 0;
}

void rc_my_decoder_free(rc_my_decoder *d)
{
    if (!d) return;
    maps_clear(d);
    free(d->maps);
    for (size_t i = 0; i < d->nretired; i++) rc_my_tablemap_free(d->retired[i]);
    free(d->retired);
    if (d->cols != d->cfg.cols) rc_colcache_free(d->cols);
    rc_my_gtid_set_free(d->gtids);
    rc_buf_fini(&d->query);
    rc_buf_fini(&d->scratch);
    rc_buf_fini(&d->payload);
    rc_buf_fini(&d->decl);
    rc_buf_fini(&d->key);
    rc_arena_fini(&d->keep);
    free(d);
}

void rc_my_decoder_position(const rc_my_decoder *d, rc_my_decoder_pos *out)
{
    out->file = d->bfile;
    out->offset = d->boffset;
    out->gtids = d->gtids;
    out->in_transaction = d->in_tx;
}

rc_status rc_my_decoder_set_file(rc_my_decoder *d, const char *file, rc_error *err)
{
    size_t fn = strlen(file);
    const char *f = keep_str(d, file, fn);
    if (!f) return nomem(err);
    d->file = f, d->file_len = fn;
    if (!d->in_tx) d->bfile = f, d->boffset = 4;
    return RC_OK;
}

rc_status rc_my_decoder_set_gtids(rc_my_decoder *d, const rc_my_gtid_set *g, rc_error *err) { return rc_my_gtid_set_copy(d->gtids, g, err); }

/* --- transactions --- */

static void tx_begin(rc_my_decoder *d)
{
    d->in_tx = true;
    rc_buf_reset(&d->query);
}

/* The open transaction is over: its GTID joins the executed set. */
static rc_status tx_end(rc_my_decoder *d, rc_error *err)
{
    rc_status st = RC_OK;
    if (d->gtid_kind == 1 && d->my.gno) /* ANONYMOUS_GTID (gno 0) adds nothing */
        st = rc_my_gtid_set_add_mysql(d->gtids, d->my.uuid, (rc_str){d->my.tag, strlen(d->my.tag)}, d->my.gno, err);
    else if (d->gtid_kind == 2)
        st = rc_my_gtid_set_add_mariadb(d->gtids, d->maria.domain, d->gtid_server, d->maria.seq, err);
    d->in_tx = d->in_begin = d->standalone = false;
    d->gtid_kind = 0, d->gtid_len = 0, d->has_thread = false;
    rc_buf_reset(&d->query);
    return st;
}

/* An event with the origin and position every event of this decoder has. */
static rc_event *new_event(rc_my_decoder *d, rc_op op, rc_event_list *out, rc_arena *a)
{
    rc_event *ev = rc_event_list_push(out); /* zeroed */
    if (!ev) return NULL;
    ev->op = op;
    ev->src.kind = d->fde.mariadb ? RC_DB_MARIADB : RC_DB_MYSQL;
    ev->src.server = d->cfg.server;
    ev->src.version = d->version;
    ev->pos.file = (rc_str){d->file, d->file_len};
    ev->pos.offset = d->ev_offset, ev->pos.has_offset = true;
    if (d->gtid_len) {
        char *g = rc_arena_memdup(a, d->gtid_text, d->gtid_len);
        if (!g) return NULL;
        ev->pos.gtid = (rc_str){g, d->gtid_len};
    }
    ev->pos.server_id = d->ev_server, ev->pos.has_server_id = true;
    if (d->has_thread) ev->pos.thread = d->thread, ev->pos.has_thread = true;
    if (d->in_begin && d->txid_len) {
        /* the transaction id is the GTID when there is one: the same bytes, not a second copy */
        bool same = d->gtid_len == d->txid_len && !memcmp(d->gtid_text, d->txid_text, d->txid_len);
        char *t = same ? (char *)ev->pos.gtid.p : rc_arena_memdup(a, d->txid_text, d->txid_len);
        if (!t) return NULL;
        ev->pos.txid = (rc_str){t, d->txid_len};
    }
    ev->ts_us = (int64_t)d->ev_ts * 1000000, ev->has_ts = true;
    return ev;
}

static rc_str arena_str(rc_arena *a, rc_str s)
{
    if (!s.n) return (rc_str){"", 0};
    const char *p = rc_arena_memdup(a, s.p, s.n);
    return p ? (rc_str){p, s.n} : (rc_str){NULL, 0};
}

/* A collation's character set name, n 0 when unknown. */
static rc_str charset_of(uint16_t collation)
{
    const char *n = collation ? rc_my_charset_name(collation) : "?";
    return strcmp(n, "?") ? (rc_str){n, strlen(n)} : (rc_str){"", 0};
}

/* The table's structure after a DDL statement, from the history, as the DDL event's columns
 * (what Debezium's schema-change topic writes as tableChanges): copied into the event's arena,
 * since the history changes with the next statement. A table the history does not know (a
 * DROP) leaves the event without columns. */
static rc_status ddl_structure(rc_my_decoder *d, rc_event *ev, rc_arena *a, rc_error *err)
{
    const rc_my_table *t = d->cfg.history && ev->src.table.n ? rc_my_history_get(d->cfg.history, ev->src.db, ev->src.table) : NULL;
    if (!t) return RC_OK;
    rc_column *cols = rc_arena_alloc(a, sizeof *cols * (t->ncols ? t->ncols : 1));
    if (!cols) return nomem(err);
    for (uint32_t i = 0; i < t->ncols; i++) {
        const rc_my_table_col *c = &t->cols[i];
        memset(&cols[i], 0, sizeof cols[i]);
        cols[i].type = c->type;
        cols[i].name = arena_str(a, c->name);
        cols[i].type.decl = arena_str(a, c->type.decl);
        cols[i].type.labels = arena_str(a, c->type.labels);
        if (c->type.charset.n) cols[i].type.charset = arena_str(a, c->type.charset);
        else cols[i].type.charset = charset_of(c->collation);
        cols[i].pk = c->pk;
        cols[i].nullable = c->nullable;
        if (!cols[i].name.p || !cols[i].type.decl.p || !cols[i].type.labels.p || !cols[i].type.charset.p) return nomem(err);
    }
    ev->cols = cols;
    ev->ncols = t->ncols;
    ev->table_charset = charset_of(t->collation);
    return RC_OK;
}

/* --- QUERY --- */

/* The statement after leading blanks and comments. */
static rc_str sql_start(rc_str s)
{
    size_t i = 0;
    for (;;) {
        while (i < s.n && isspace((unsigned char)s.p[i])) i++;
        if (i + 1 < s.n && s.p[i] == '/' && s.p[i + 1] == '*' && !(i + 2 < s.n && s.p[i + 2] == '!')) {
            const char *e = NULL;
            for (size_t k = i + 2; k + 1 < s.n; k++)
                if (s.p[k] == '*' && s.p[k + 1] == '/') {
                    e = s.p + k + 2;
                    break;
                }
            if (!e) break;
            i = (size_t)(e - s.p);
        } else if ((i + 1 < s.n && s.p[i] == '-' && s.p[i + 1] == '-') || (i < s.n && s.p[i] == '#')) {
            while (i < s.n && s.p[i] != '\n') i++;
        } else {
            break;
        }
    }
    return (rc_str){s.p + i, s.n - i};
}

/* Whether the statement starts with `word` as a whole word (case-insensitive). */
static bool starts_word(rc_str s, const char *word)
{
    size_t k = strlen(word);
    if (s.n < k) return false;
    for (size_t i = 0; i < k; i++)
        if (toupper((unsigned char)s.p[i]) != word[i]) return false;
    return s.n == k || !(isalnum((unsigned char)s.p[k]) || s.p[k] == '_');
}

static rc_str after_word(rc_str s, size_t k)
{
    rc_str r = {s.p + k, s.n - k};
    while (r.n && isspace((unsigned char)*r.p)) r.p++, r.n--;
    return r;
}

/* A BEGIN (QUERY BEGIN, or MariaDB's GTID event) opens the transaction: its id. */
static void tx_id(rc_my_decoder *d)
{
    int k = d->gtid_len ? snprintf(d->txid_text, sizeof d->txid_text, "%.*s", (int)d->gtid_len, d->gtid_text)
                        : snprintf(d->txid_text, sizeof d->txid_text, "file=%s,pos=%llu", d->file, (unsigned long long)d->ev_offset);
    d->txid_len = k > 0 && (size_t)k < sizeof d->txid_text ? (size_t)k : 0;
}

static rc_status emit_tx(rc_my_decoder *d, rc_op op, rc_event_list *out, rc_arena *a, rc_error *err)
{
    return new_event(d, op, out, a) ? RC_OK : nomem(err);
}

static rc_status on_query(rc_my_decoder *d, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    rc_my_query q;
    rc_status st = rc_my_query_parse(&d->fde, b, n, &q, err);
    if (st != RC_OK) return st;
    rc_str s = sql_start(q.sql);
    d->thread = q.thread_id, d->has_thread = true;
    if (starts_word(s, "BEGIN") || (starts_word(s, "XA") && starts_word(after_word(s, 2), "START"))) {
        if (d->in_begin) return RC_OK; /* MariaDB's GTID event began it */
        tx_begin(d);
        d->in_begin = true;
        tx_id(d);
        return emit_tx(d, RC_OP_BEGIN, out, a, err);
    }
    if (starts_word(s, "COMMIT") || (starts_word(s, "XA") && starts_word(after_word(s, 2), "PREPARE"))) {
        st = emit_tx(d, RC_OP_COMMIT, out, a, err);
        return st == RC_OK ? tx_end(d, err) : st;
    }
    if (starts_word(s, "ROLLBACK") && !starts_word(after_word(s, 8), "TO")) return tx_end(d, err);
    if (starts_word(s, "SAVEPOINT") || starts_word(s, "ROLLBACK") || starts_word(s, "RELEASE") ||
        (starts_word(s, "XA") && (starts_word(after_word(s, 2), "END") || starts_word(after_word(s, 2), "COMMIT") ||
                                  starts_word(after_word(s, 2), "ROLLBACK")))) {
        if (!d->in_begin) return tx_end(d, err); /* XA COMMIT/ROLLBACK of a prepared transaction: its own */
        return RC_OK;
    }
    static const char *const dml[] = {"INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD", NULL};
    for (const char *const *w = dml; *w; w++)
        if (starts_word(s, *w))
            return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "statement-based %s (%.*s%s) cannot be captured: its rows are not in "
                                "the binlog; set binlog_format=ROW on the server (--on-error=skip goes on past the statement: "
                                "its rows are then missing from the output, the statement counted bad)", *w, (int)(s.n > 60 ? 60 : s.n), s.p,
                                s.n > 60 ? "..." : "");
    /* a DDL (or another statement of its own, such as GRANT) */
    rc_my_ddl_result res = {.kind = "OTHER", .db = q.db};
    if (d->cfg.history) {
        rc_error e2;
        rc_error_clear(&e2);
        if ((st = rc_my_history_ddl(d->cfg.history, q.db, q.sql, &res, &e2)) != RC_OK)
            return rc_error_set(err, e2.code, RC_NO_OFFSET, "the schema history cannot apply the statement: %s", e2.message);
        /* the column lists built from the old structure stay cached: a TABLE_MAP after the DDL
         * builds its list from the new one (its own key) */
        if (res.changed) d->gen++;
        if (!res.changed && !strcmp(res.kind, "OTHER")) /* GRANT, ALTER USER, CREATE PROCEDURE...: no table's */
            return d->in_begin ? RC_OK : tx_end(d, err);
    }
    rc_event *ev = new_event(d, RC_OP_DDL, out, a);
    if (!ev) return nomem(err);
    ev->src.db = arena_str(a, res.db.n ? res.db : q.db);
    /* a statement of no table (CREATE DATABASE) has no table name, not an empty one: formats
     * that keep a stated empty name (Canal's "table":"") write it as absent */
    if (res.table.n && !(ev->src.table = arena_str(a, res.table)).p) return nomem(err);
    ev->ddl = arena_str(a, q.sql);
    ev->ddl_kind = (rc_str){res.kind, strlen(res.kind)};
    if (!ev->ddl.p || !ev->src.db.p) return nomem(err);
    if ((st = ddl_structure(d, ev, a, err)) != RC_OK) return st;
    if (!d->in_begin) return tx_end(d, err);
    return RC_OK;
}

/* --- TABLE_MAP --- */

static unsigned mbmaxlen(uint16_t coll)
{
    switch (coll) {
    case 0: case 63: return 1;
    case 1: case 84: case 28: case 87: case 24: case 86: case 13: case 88: case 19: case 85: case 95: case 96: return 2; /* big5, gbk, gb2312, sjis, euckr, cp932 */
    case 12: case 91: case 97: case 98: return 3; /* ujis, eucjpms */
    case 33: case 83: case 76: case 223: return 3; /* utf8mb3 */
    case 35: case 90: case 54: case 55: case 56: case 62: case 60: case 61: case 101: case 124: case 160: case 183: return 4;
    case 45: case 46: return 4;
    case 248: case 249: case 250: return 4; /* gb18030 */
    default:
        if (coll >= 192 && coll <= 215) return 3; /* utf8mb3_*_ci */
        if (coll >= 128 && coll <= 151) return 2; /* ucs2 */
        if (coll >= 224 && coll <= 247) return 4; /* utf8mb4_*_ci */
        if (coll >= 255 && coll <= 323) return 4; /* MySQL 8's utf8mb4_0900 and later */
        if (coll >= 576 && coll <= 2047) return 4; /* MariaDB 10.10+ utf8mb4_uca1400 (and utf8mb3 ones: an upper bound) */
        return 1;
    }
}

static void put_labels(rc_buf *b, const rc_my_col *c)
{
    rc_buf_putc(b, '(');
    for (uint32_t k = 0; k < c->nlabels; k++) {
        if (k) rc_buf_putc(b, ',');
        rc_buf_putc(b, '\'');
        for (size_t i = 0; i < c->labels[k].n; i++) {
            if (c->labels[k].p[i] == '\'') rc_buf_putc(b, '\'');
            rc_buf_putc(b, c->labels[k].p[i]);
        }
        rc_buf_putc(b, '\'');
    }
    rc_buf_putc(b, ')');
}

static void put_len(rc_buf *b, const char *name, uint64_t n)
{
    rc_buf_puts(b, name);
    rc_buf_putc(b, '(');
    rc_fmt_u64(b, n);
    rc_buf_putc(b, ')');
}

/* The declaration the binlog alone implies for a column (no schema history). */
static void decl_from_binlog(rc_buf *b, const rc_my_tablemap *m, uint32_t ci)
{
    const rc_my_col *c = &m->cols[ci];
    static const char *const blobs[] = {"blob", "tinyblob", "blob", "mediumblob", "longblob"};
    static const char *const texts[] = {"text", "tinytext", "text", "mediumtext", "longtext"};
    static const char *const geos[] = {"geometry", "point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon",
                                       "geometrycollection"};
    bool binary = c->collation == RC_MY_COLLATION_BINARY;
    unsigned fsp = c->meta;
    switch (c->type) {
    case RC_MY_TINY: rc_buf_puts(b, "tinyint"); break;
    case RC_MY_SHORT: rc_buf_puts(b, "smallint"); break;
    case RC_MY_INT24: rc_buf_puts(b, "mediumint"); break;
    case RC_MY_LONG: rc_buf_puts(b, "int"); break;
    case RC_MY_LONGLONG: rc_buf_puts(b, "bigint"); break;
    case RC_MY_FLOAT: rc_buf_puts(b, "float"); break;
    case RC_MY_DOUBLE: rc_buf_puts(b, "double"); break;
    case RC_MY_NEWDECIMAL: case RC_MY_DECIMAL:
        rc_buf_puts(b, "decimal(");
        rc_fmt_u64(b, c->meta >> 8);
        rc_buf_putc(b, ',');
        rc_fmt_u64(b, c->meta & 0xff);
        rc_buf_putc(b, ')');
        break;
    case RC_MY_YEAR: rc_buf_puts(b, "year"); return;
    case RC_MY_DATE: case RC_MY_NEWDATE: rc_buf_puts(b, "date"); return;
    case RC_MY_TIME: rc_buf_puts(b, "time"); return;
    case RC_MY_DATETIME: rc_buf_puts(b, "datetime"); return;
    case RC_MY_TIMESTAMP: rc_buf_puts(b, "timestamp"); return;
    case RC_MY_TIME2: fsp ? put_len(b, "time", fsp) : rc_buf_puts(b, "time"); return;
    case RC_MY_DATETIME2: fsp ? put_len(b, "datetime", fsp) : rc_buf_puts(b, "datetime"); return;
    case RC_MY_TIMESTAMP2: fsp ? put_len(b, "timestamp", fsp) : rc_buf_puts(b, "timestamp"); return;
    case RC_MY_BIT: put_len(b, "bit", (c->meta >> 8) * 8u + (c->meta & 0xff)); return;
    case RC_MY_VARCHAR: case RC_MY_VAR_STRING:
        if (binary) put_len(b, "varbinary", c->meta);
        else put_len(b, "varchar", c->meta / mbmaxlen(c->collation));
        return;
    case RC_MY_STRING: {
        unsigned b0 = c->meta >> 8, len = (((b0 & 0x30) ^ 0x30) << 4) | (c->meta & 0xff);
        if (binary) put_len(b, "binary", len);
        else put_len(b, "char", len / mbmaxlen(c->collation));
        return;
    }
    case RC_MY_ENUM: case RC_MY_SET:
        rc_buf_puts(b, c->type == RC_MY_ENUM ? "enum" : "set");
        if (c->nlabels) put_labels(b, c);
        return;
    case RC_MY_BLOB: case RC_MY_TINY_BLOB: case RC_MY_MEDIUM_BLOB: case RC_MY_LONG_BLOB:
        rc_buf_puts(b, (binary || !c->collation ? blobs : texts)[c->meta <= 4 ? c->meta : 0]);
        return;
    case RC_MY_JSON: rc_buf_puts(b, "json"); return;
    case RC_MY_GEOMETRY: rc_buf_puts(b, geos[m->has_geometry && m->geometry_type[ci] < 8 ? m->geometry_type[ci] : 0]); return;
    case RC_MY_VECTOR:
        /* the catalog's vector type when it has one, else text: the value is the text of its
         * float array (my_value_ext.c) */
        if (rc_type_lookup(RC_FAM_MYSQL, "vector", 6)) put_len(b, "vector", c->vector_dim ? c->vector_dim : (c->meta ? c->meta : 4) / 4);
        else rc_buf_puts(b, "text");
        return;
    default: rc_buf_puts(b, "blob"); return;
    }
    if (c->is_unsigned) rc_buf_puts(b, " unsigned");
}

/* The event column list of a table map: names ("@1"... when unknown), declared types, keys.
 * Kept in the column cache by the text of all that, so that it outlives the map. */
static rc_status build_columns(rc_my_decoder *d, tm_entry *e, rc_arena *a, const rc_column **cols_out, const void **id_out,
                               rc_error *err)
{
    rc_my_tablemap *m = e->map;
    uint32_t nc = m->ncols;
    rc_column *cols = rc_arena_alloc(a, (nc ? nc : 1) * sizeof *cols);
    if (!cols) return nomem(err);
    rc_buf_reset(&d->decl);
    rc_buf_reset(&d->key);
    size_t *doff = rc_arena_alloc(a, (nc ? nc : 1) * 2 * sizeof *doff);
    if (!doff) return nomem(err);
    for (uint32_t c = 0; c < nc; c++) { /* all texts first: the buffers may move as they grow */
        const rc_my_col *mc = &m->cols[c];
        doff[2 * c] = d->decl.len;
        if (mc->decl) rc_buf_put(&d->decl, mc->decl->decl.p, mc->decl->decl.n);
        else decl_from_binlog(&d->decl, m, c);
        doff[2 * c + 1] = d->decl.len;
        if (!mc->name.n) {
            rc_buf_putc(&d->decl, '@');
            rc_fmt_u64(&d->decl, c + 1);
        } else {
            rc_buf_put(&d->decl, mc->name.p, mc->name.n);
        }
    }
    if (d->decl.err != RC_OK) return nomem(err);
    for (uint32_t c = 0; c < nc; c++) {
        size_t ds = doff[2 * c], de = doff[2 * c + 1], ne = c + 1 < nc ? doff[2 * c + 2] : d->decl.len;
        rc_column *col = &cols[c];
        memset(col, 0, sizeof *col);
        col->name = (rc_str){d->decl.data + de, ne - de};
        col->nullable = m->cols[c].nullable;
        rc_error e2;
        rc_error_clear(&e2);
        if (rc_coltype_parse(RC_FAM_MYSQL, d->decl.data + ds, de - ds, &col->type, &e2) != RC_OK)
            return rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET, "column %u of %.*s.%.*s: type '%.*s': %s", c + 1, (int)m->db.n, m->db.p,
                                (int)m->table.n, m->table.p, (int)(de - ds), d->decl.data + ds, e2.message);
    }
    for (uint32_t k = 0; k < m->npk; k++)
        if (m->pk[k] < nc && !cols[m->pk[k]].pk) cols[m->pk[k]].pk = (uint16_t)(k + 1);
    /* the key: the column count, every column's name, declaration, key position, nullability */
    rc_fmt_u64(&d->key, nc);
    rc_buf_putc(&d->key, 0);
    for (uint32_t c = 0; c < nc; c++) {
        rc_buf_put(&d->key, cols[c].name.p, cols[c].name.n);
        rc_buf_putc(&d->key, 0);
        rc_buf_put(&d->key, cols[c].type.decl.p, cols[c].type.decl.n);
        rc_buf_putc(&d->key, 0);
        rc_buf_putc(&d->key, (char)('0' + cols[c].nullable));
        rc_fmt_u64(&d->key, cols[c].pk);
        rc_buf_putc(&d->key, 0);
    }
    if (d->key.err != RC_OK) return nomem(err);
    const rc_colset *set = rc_colcache_find(d->cols, d->key.data, d->key.len);
    if (!set) set = rc_colcache_put(d->cols, d->key.data, d->key.len, cols, nc);
    if (set) {
        *cols_out = set->cols, *id_out = set;
        return RC_OK;
    }
    /* the cache is full: this event's own copy, in its arena */
    for (uint32_t c = 0; c < nc; c++) {
        cols[c].name = arena_str(a, cols[c].name);
        rc_str decl = arena_str(a, cols[c].type.decl);
        if (!cols[c].name.p || !decl.p) return nomem(err);
        rc_coltype_parse(RC_FAM_MYSQL, decl.p, decl.n, &cols[c].type, NULL);
    }
    *cols_out = cols, *id_out = NULL;
    return RC_OK;
}

static tm_entry *map_find(rc_my_decoder *d, uint64_t id)
{
    for (size_t i = 0; i < d->nmaps; i++)
        if (d->maps[i].map->table_id == id) return &d->maps[i];
    return NULL;
}

static bool same_ci(rc_str a, rc_str b) { return a.n == b.n && !strncasecmp(a.p, b.p, a.n); }

/* The history's structure of db.table: by name as the server compares them by default, else
 * the one table whose name matches without case (a server with lower_case_table_names=1 writes
 * lower-case names in TABLE_MAP, the statement's own case in the DDL). */
static const rc_my_table *history_table(const rc_my_history *h, rc_str db, rc_str table)
{
    const rc_my_table *t = rc_my_history_get(h, db, table), *found = NULL;
    if (t) return t;
    uint32_t n = rc_my_history_count(h);
    for (uint32_t i = 0; i < n; i++) {
        const rc_my_table *c = rc_my_history_at(h, i);
        if (!same_ci(c->db, db) || !same_ci(c->name, table)) continue;
        if (found) return NULL; /* two candidates: not a guess */
        found = c;
    }
    return found;
}

static rc_status on_table_map(rc_my_decoder *d, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    size_t post = d->fde.post_len[RC_MYEV_TABLE_MAP] ? d->fde.post_len[RC_MYEV_TABLE_MAP] : 8;
    if (n >= post) { /* the map of the last transaction again, with the history as it was then */
        tm_entry *old = map_find(d, rc_my_table_id(&d->fde, RC_MYEV_TABLE_MAP, b));
        if (old && old->gen == d->gen && old->bodyn == n && !memcmp(old->body, b, n)) {
            if (!old->accepted) out->rejected++;
            return old->refused ? rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "TABLE_MAP of %.*s.%.*s disagrees with the schema "
                                               "history, as at offset %llu", (int)old->map->db.n, old->map->db.p,
                                               (int)old->map->table.n, old->map->table.p, (unsigned long long)old->offset)
                                : RC_OK;
        }
    }
    rc_my_tablemap *m;
    rc_status st = rc_my_tablemap_parse(&d->fde, d->fde.mariadb, b, n, &m, err);
    if (st != RC_OK) return st;
    tm_entry *e = map_find(d, m->table_id);
    if (e) {
        free(e->body);
        if (!retire(d, e->map)) {
            memset(e, 0, sizeof *e);
            rc_my_tablemap_free(m);
            return nomem(err);
        }
    } else {
        if (d->nmaps == d->capmaps) {
            size_t cap = d->capmaps ? d->capmaps * 2 : 16;
            tm_entry *t = realloc(d->maps, cap * sizeof *t);
            if (!t) return rc_my_tablemap_free(m), nomem(err);
            d->maps = t, d->capmaps = cap;
        }
        e = &d->maps[d->nmaps++];
    }
    memset(e, 0, sizeof *e);
    e->map = m;
    e->gen = d->gen;
    if ((e->body = malloc(n ? n : 1))) memcpy(e->body, b, n), e->bodyn = n;
    e->accepted = rc_event_list_accepts(out, m->db, m->table);
    if (!e->accepted) return RC_OK; /* rows of other tables are not decoded */
    const rc_my_table *t = d->cfg.history ? history_table(d->cfg.history, m->db, m->table) : NULL;
    e->offset = d->ev_offset;
    if (t && (st = rc_my_tablemap_complete(m, t, err)) != RC_OK) {
        e->refused = true; /* its rows would be decoded in a structure known to be wrong */
        return st;
    }
    for (uint32_t c = 0; c < m->ncols; c++) rc_my_col_prepare(&m->cols[c]);
    return build_columns(d, e, a, &e->cols, &e->cols_id, err);
}

/* --- rows --- */

static rc_status on_rows(rc_my_decoder *d, uint8_t type, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    rc_my_rows r;
    rc_status st = rc_my_rows_parse(&d->fde, type, b, n, &r, err);
    if (st != RC_OK) return st;
    tm_entry *e = map_find(d, r.table_id);
    if (!e)
        return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "%s for table id %llu, which no TABLE_MAP_EVENT before it maps (a file read "
                            "from the middle of a transaction?)", rc_my_event_name(type), (unsigned long long)r.table_id);
    if (!e->accepted) {
        out->rejected++;
        return RC_OK;
    }
    if (e->refused)
        return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "%s of %.*s.%.*s, whose TABLE_MAP_EVENT at offset %llu disagrees with the "
                            "schema history: not decoded", rc_my_event_name(type), (int)e->map->db.n, e->map->db.p,
                            (int)e->map->table.n, e->map->table.p, (unsigned long long)e->offset);
    rc_my_tablemap *m = e->map;
    const rc_column *cols = e->cols;
    const void *cols_id = e->cols_id;
    if (!cols && (st = build_columns(d, e, a, &cols, &cols_id, err)) != RC_OK) return st;
    rc_str db = arena_str(a, m->db), table = arena_str(a, m->table), query = {NULL, 0};
    if (d->cfg.with_query && d->query.len) query = arena_str(a, (rc_str){d->query.data, d->query.len});
    if (!db.p || !table.p || (d->cfg.with_query && d->query.len && !query.p)) return nomem(err);
    size_t pos = r.rows_off;
    uint32_t row = 0;
    size_t nv = m->ncols ? m->ncols : 1;
    while (pos < n) {
        rc_value *before = r.present_before ? rc_arena_alloc(a, nv * sizeof *before) : NULL;
        rc_value *after = r.present_after ? rc_arena_alloc(a, nv * sizeof *after) : NULL;
        if ((r.present_before && !before) || (r.present_after && !after)) return nomem(err);
        size_t at = pos;
        if ((st = rc_my_rows_next(&r, m, b, n, &pos, before, after, a, &d->scratch, err)) != RC_OK) return st;
        if (pos == at) return rc_error_set(err, RC_ERR_VALUE, at, "%s: a row of no bytes at byte %zu", rc_my_event_name(type), at);
        rc_event *ev = new_event(d, r.op, out, a);
        if (!ev) return nomem(err);
        ev->src.db = db, ev->src.table = table;
        ev->ncols = m->ncols, ev->cols = cols, ev->cols_id = cols_id;
        ev->before = before, ev->after = after;
        ev->pos.row = row++, ev->pos.has_row = true;
        if (query.p) ev->pos.query = query;
    }
    return RC_OK;
}

/* --- one event --- */

/* checked: the event ends in the CRC32 the FDE announces (the events inside a payload have
 * none); sum: that CRC32 of ev[0..n-4) as the caller computed it, NULL: computed here. */
static rc_status feed_one(rc_my_decoder *d, const uint8_t *ev, size_t n, bool checked, const uint32_t *sum, rc_event_list *out,
                          rc_arena *a, rc_error *err);

static rc_status on_payload(rc_my_decoder *d, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    if (d->depth) return rc_error_set(err, RC_ERR_VALUE, 0, "TRANSACTION_PAYLOAD_EVENT inside another one");
    rc_my_payload t;
    rc_status st = rc_my_payload_parse(b, n, &t, err);
    if (st == RC_OK) st = rc_my_payload_inflate(&t, b, n, &d->payload, err);
    if (st != RC_OK) return st;
    d->depth++;
    const uint8_t *p = (const uint8_t *)d->payload.data;
    size_t pn = d->payload.len, i = 0;
    while (st == RC_OK && i < pn) {
        rc_my_header h;
        if (rc_my_header_parse(p + i, pn - i, &h, err) != RC_OK || h.size < RC_MY_HEADER_LEN || h.size > pn - i) {
            rc_error_clear(err);
            st = rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "TRANSACTION_PAYLOAD_EVENT: the event at byte %zu of its %zu decompressed "
                              "bytes does not fit in them", i, pn);
            break;
        }
        st = feed_one(d, p + i, h.size, false, NULL, out, a, err);
        if (st != RC_OK) {
            char inner[sizeof err->message];
            snprintf(inner, sizeof inner, "%s", err->message);
            rc_status code = err->code;
            rc_error_clear(err);
            rc_error_set(err, code, RC_NO_OFFSET, "in TRANSACTION_PAYLOAD_EVENT, its event at byte %zu: %s", i, inner);
        }
        i += h.size;
    }
    d->depth--;
    return st;
}

static rc_status on_gtid(rc_my_decoder *d, uint8_t type, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    rc_status st;
    rc_buf t;
    rc_buf_init(&t, sizeof d->gtid_text);
    if (type == RC_MYEV_MARIA_GTID) {
        if ((st = rc_maria_gtid_parse(b, n, &d->maria, err)) != RC_OK) return st;
        d->gtid_kind = 2, d->gtid_server = d->ev_server;
        d->standalone = d->maria.flags & RC_MARIA_FL_STANDALONE;
        d->gtid_len = (size_t)snprintf(d->gtid_text, sizeof d->gtid_text, "%u-%u-%llu", d->maria.domain, d->gtid_server,
                                       (unsigned long long)d->maria.seq);
    } else {
        if ((st = rc_my_gtid_ev_parse(type, b, n, &d->my, err)) != RC_OK) return st;
        d->gtid_kind = 1;
        d->gtid_len = 0;
        if (type != RC_MYEV_ANONYMOUS_GTID) {
            rc_my_gtid_ev_format(&d->my, &t);
            if (t.err == RC_OK && t.len < sizeof d->gtid_text) memcpy(d->gtid_text, t.data, t.len), d->gtid_len = t.len;
        }
    }
    rc_buf_fini(&t);
    tx_begin(d);
    /* MariaDB's GTID event is the transaction's BEGIN (no QUERY BEGIN follows), unless the
     * transaction is one statement of its own (a DDL) */
    if (type == RC_MYEV_MARIA_GTID && !d->standalone) {
        d->in_begin = true;
        tx_id(d);
        return emit_tx(d, RC_OP_BEGIN, out, a, err);
    }
    return RC_OK;
}

static rc_status gtid_set_event(rc_my_decoder *d, uint8_t type, const uint8_t *b, size_t n, rc_error *err)
{
    rc_my_gtid_set *g = rc_my_gtid_set_new();
    if (!g) return nomem(err);
    rc_status st = type == RC_MYEV_MARIA_GTID_LIST ? rc_maria_gtid_list_parse(b, n, g, err) : rc_my_previous_gtids_parse(b, n, g, err);
    /* the set before this file: it holds what came before, so it is the executed set when the
     * decoder has none yet (a resumed run's set is kept) */
    if (st == RC_OK && rc_my_gtid_set_empty(d->gtids)) st = rc_my_gtid_set_copy(d->gtids, g, err);
    rc_my_gtid_set_free(g);
    return st;
}

static rc_status refuse(const char *what, const char *why, rc_error *err)
{
    return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "%s cannot be read: %s", what, why);
}

static rc_status dispatch(rc_my_decoder *d, const rc_my_header *h, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a,
                          rc_error *err)
{
    rc_status st;
    switch (h->type) {
    case RC_MYEV_QUERY: return on_query(d, b, n, out, a, err);
    case RC_MYEV_XID:
        if (n < 8) return rc_error_set(err, RC_ERR_VALUE, 0, "XID_EVENT of %zu bytes (8 expected)", n);
        if ((st = emit_tx(d, RC_OP_COMMIT, out, a, err)) != RC_OK) return st;
        return tx_end(d, err);
    case RC_MYEV_XA_PREPARE: {
        rc_my_xa_prepare x;
        if ((st = rc_my_xa_prepare_parse(b, n, &x, err)) != RC_OK) return st;
        if ((st = emit_tx(d, RC_OP_COMMIT, out, a, err)) != RC_OK) return st;
        return tx_end(d, err);
    }
    case RC_MYEV_TABLE_MAP: return on_table_map(d, b, n, out, a, err);
    case RC_MYEV_PRE_GA_WRITE_ROWS: case RC_MYEV_PRE_GA_UPDATE_ROWS: case RC_MYEV_PRE_GA_DELETE_ROWS:
    case RC_MYEV_WRITE_ROWS_V1: case RC_MYEV_UPDATE_ROWS_V1: case RC_MYEV_DELETE_ROWS_V1:
    case RC_MYEV_WRITE_ROWS: case RC_MYEV_UPDATE_ROWS: case RC_MYEV_DELETE_ROWS: case RC_MYEV_PARTIAL_UPDATE_ROWS:
        return on_rows(d, h->type, b, n, out, a, err);
    case RC_MYEV_GTID: case RC_MYEV_ANONYMOUS_GTID: case RC_MYEV_GTID_TAGGED: case RC_MYEV_MARIA_GTID:
        return on_gtid(d, h->type, b, n, out, a, err);
    case RC_MYEV_PREVIOUS_GTIDS: case RC_MYEV_MARIA_GTID_LIST: return gtid_set_event(d, h->type, b, n, err);
    case RC_MYEV_ROTATE: {
        rc_my_rotate r;
        if ((st = rc_my_rotate_parse(&d->fde, b, n, &r, err)) != RC_OK) return st;
        const char *f = keep_str(d, r.file.p, r.file.n);
        if (!f) return nomem(err);
        d->file = f, d->file_len = strlen(f); /* a NUL in the name ends it, as everywhere the name is used */
        if (!d->in_tx) d->bfile = f, d->boffset = r.position, d->rotated = true;
        return RC_OK;
    }
    case RC_MYEV_TRANSACTION_PAYLOAD: return on_payload(d, b, n, out, a, err);
    case RC_MYEV_ROWS_QUERY: case RC_MYEV_MARIA_ANNOTATE_ROWS: {
        rc_str sql;
        if ((st = rc_my_rows_query_parse(h->type, b, n, &sql, err)) != RC_OK) return st;
        rc_buf_reset(&d->query);
        rc_buf_put(&d->query, sql.p, sql.n);
        return RC_OK;
    }
    case RC_MYEV_HEARTBEAT: case RC_MYEV_HEARTBEAT_V2: {
        rc_my_heartbeat hb;
        return rc_my_heartbeat_parse(h->type, b, n, &hb, err);
    }
    case RC_MYEV_INCIDENT: {
        rc_my_incident in;
        if ((st = rc_my_incident_parse(&d->fde, b, n, &in, err)) != RC_OK) return st;
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "INCIDENT_EVENT %u (%.*s): the server lost events here; what follows cannot "
                            "be trusted to be complete (resynchronise the target)", in.type, (int)(in.message.n > 200 ? 200 : in.message.n),
                            in.message.p);
    }
    case RC_MYEV_STOP: case RC_MYEV_MARIA_BINLOG_CHECKPOINT: case RC_MYEV_INTVAR: case RC_MYEV_RAND: case RC_MYEV_USER_VAR:
    case RC_MYEV_IGNORABLE: case RC_MYEV_TRANSACTION_CONTEXT: case RC_MYEV_VIEW_CHANGE: case RC_MYEV_BEGIN_LOAD_QUERY:
    case 9: /* APPEND_BLOCK: the file of a statement-based LOAD DATA, refused at its EXECUTE_LOAD_QUERY */
        return RC_OK;
    case RC_MYEV_EXECUTE_LOAD_QUERY:
        return refuse("statement-based LOAD DATA (EXECUTE_LOAD_QUERY_EVENT)", "its rows are not in the binlog; set binlog_format=ROW", err);
    case RC_MYEV_MARIA_START_ENCRYPTION:
        return refuse("START_ENCRYPTION_EVENT", "the binlog is encrypted (encrypt_binlog=ON); read it through the server", err);
    case RC_MYEV_MARIA_QUERY_COMPRESSED: case 166: case 167: case 168: case 169: case 170: case 171:
        return refuse(rc_my_event_name(h->type), "MariaDB's compressed events (log_bin_compress=ON) are not read here", err);
    default:
        if (h->flags & RC_MY_LOG_EVENT_IGNORABLE_F) return RC_OK; /* the server says a reader may skip it */
        if (rc_my_event_name(h->type))
            return refuse(rc_my_event_name(h->type), "an event of MySQL before 5.0 (binlog version 3) is not read here", err);
        return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "event type %u is not known and not marked ignorable "
                            "(LOG_EVENT_IGNORABLE_F): a newer server's event?", h->type);
    }
}

static rc_status feed_one(rc_my_decoder *d, const uint8_t *ev, size_t n, bool checked, const uint32_t *sum, rc_event_list *out,
                          rc_arena *a, rc_error *err)
{
    rc_my_header h;
    rc_status st = rc_my_header_parse(ev, n, &h, err);
    if (st != RC_OK) return st;
    if (h.size != n)
        return rc_error_set(err, RC_ERR_VALUE, 9, "the event's header says %u bytes, %zu were given (a cut or corrupted event)", h.size, n);
    if (h.type == RC_MYEV_FORMAT_DESCRIPTION) {
        rc_my_fde f;
        if ((st = rc_my_fde_parse(ev, n, &f, err)) != RC_OK) return st;
        if (d->in_tx) return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "FORMAT_DESCRIPTION_EVENT inside a transaction");
        if (!d->have_fde || strcmp(f.server_version, d->fde.server_version)) {
            const char *v = keep_str(d, f.server_version, strlen(f.server_version));
            if (!v) return nomem(err);
            d->version = (rc_str){v, strlen(v)};
        }
        d->fde = f, d->have_fde = true;
        maps_clear(d); /* a new file: table ids start over */
        return RC_OK;
    }
    size_t hl = d->fde.header_len;
    size_t tail = checked && d->fde.checksum ? RC_MY_CHECKSUM_LEN : 0;
    if (n < hl + tail) return rc_error_set(err, RC_ERR_VALUE, 0, "%zu-byte event is shorter than its header and checksum", n);
    if (tail) {
        uint32_t want = (uint32_t)rc_my_le(ev + n - 4, 4), got = sum ? *sum : rc_my_crc32(0, ev, n - 4);
        if (want != got) {
            const char *name = rc_my_event_name(h.type);
            char t[16];
            snprintf(t, sizeof t, "type %u", h.type);
            return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "checksum mismatch in %s (stored %08x, computed %08x): the event is "
                                "corrupted", name ? name : t, want, got);
        }
    }
    d->ev_ts = h.timestamp, d->ev_server = h.server_id;
    return dispatch(d, &h, ev + hl, n - hl - tail, out, a, err);
}

static rc_status feed_at(rc_my_decoder *d, const uint8_t *ev, size_t n, uint64_t offset, const uint32_t *sum, rc_event_list *out,
                         rc_arena *a, rc_error *err)
{
    d->ev_offset = offset;
    size_t first = out->count;
    rc_error e2;
    rc_error_clear(&e2);
    rc_status st = feed_one(d, ev, n, true, sum, out, a, &e2);
    if (st != RC_OK) {
        out->count = first; /* a failed event keeps no events */
        return rc_error_set(err, st, RC_NO_OFFSET, "%s at offset %llu: %s", d->file, (unsigned long long)offset, e2.message);
    }
    if (!d->in_tx && !d->rotated) d->bfile = d->file, d->boffset = offset + n;
    d->rotated = false;
    return RC_OK;
}

rc_status rc_my_decoder_feed(rc_my_decoder *d, const uint8_t *ev, size_t n, uint64_t offset, rc_event_list *out, rc_arena *a,
                             rc_error *err)
{
    return feed_at(d, ev, n, offset, NULL, out, a, err);
}

rc_status rc_my_decoder_feed_summed(rc_my_decoder *d, const uint8_t *ev, size_t n, uint64_t offset, uint32_t sum, rc_event_list *out,
                                    rc_arena *a, rc_error *err)
{
    return feed_at(d, ev, n, offset, &sum, out, a, err);
}
