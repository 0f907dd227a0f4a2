/* The event decoder's TABLE_MAP events: the table maps by id, completed from the schema
 * history (or from the binlog alone), and the event column list of each. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "my_decoder_int.h"
#include "my_rows.h"
#include "my_value_int.h"
#include "core/fmt.h"

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

/* The event column list of a table map: names ("@1"... when unknown), declared types, keys,
 * and the defaults (NULL when no column has one). Kept in the column cache by the text of all
 * that, so that it outlives the map. */
rc_status rc_my_decoder_build_columns(rc_my_decoder *d, tm_entry *e, rc_arena *a, const rc_column **cols_out, const void **id_out,
                                     const rc_str **dflts_out, rc_error *err)
{
    rc_my_tablemap *m = e->map;
    uint32_t nc = m->ncols;
    rc_column *cols = rc_arena_alloc(a, (nc ? nc : 1) * sizeof *cols);
    rc_str *dflts = NULL;
    if (!cols) return rc_my_decoder_nomem(err);
    for (uint32_t c = 0; c < nc && !dflts; c++)
        if (m->cols[c].has_dflt && !(dflts = rc_arena_alloc(a, nc * sizeof *dflts))) return rc_my_decoder_nomem(err);
    for (uint32_t c = 0; dflts && c < nc; c++)
        dflts[c] = m->cols[c].has_dflt ? (rc_str){m->cols[c].dflt.p ? m->cols[c].dflt.p : "", m->cols[c].dflt.n} : (rc_str){NULL, 0};
    rc_buf_reset(&d->decl);
    rc_buf_reset(&d->key);
    size_t *doff = rc_arena_alloc(a, (nc ? nc : 1) * 2 * sizeof *doff);
    if (!doff) return rc_my_decoder_nomem(err);
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
    if (d->decl.err != RC_OK) return rc_my_decoder_nomem(err);
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
        if (dflts && dflts[c].p) { /* the default, with its length (it may hold any byte) */
            rc_buf_putc(&d->key, '=');
            rc_fmt_u64(&d->key, dflts[c].n);
            rc_buf_putc(&d->key, ':');
            rc_buf_put(&d->key, dflts[c].p, dflts[c].n);
        }
    }
    if (d->key.err != RC_OK) return rc_my_decoder_nomem(err);
    const rc_colset *set = rc_colcache_find(d->cols, d->key.data, d->key.len);
    if (!set) set = rc_colcache_put_dflts(d->cols, d->key.data, d->key.len, cols, nc, dflts);
    if (set) {
        *cols_out = set->cols, *id_out = set, *dflts_out = set->dflts;
        return RC_OK;
    }
    /* the cache is full: this event's own copy, in its arena */
    for (uint32_t c = 0; c < nc; c++) {
        cols[c].name = rc_my_decoder_arena_str(a, cols[c].name);
        rc_str decl = rc_my_decoder_arena_str(a, cols[c].type.decl);
        if (dflts && dflts[c].p && !(dflts[c] = rc_my_decoder_arena_str(a, dflts[c])).p) return rc_my_decoder_nomem(err);
        if (!cols[c].name.p || !decl.p) return rc_my_decoder_nomem(err);
        rc_coltype_parse(RC_FAM_MYSQL, decl.p, decl.n, &cols[c].type, NULL);
    }
    *cols_out = cols, *id_out = NULL, *dflts_out = dflts;
    return RC_OK;
}

tm_entry *rc_my_decoder_map_find(rc_my_decoder *d, uint64_t id)
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

rc_status rc_my_decoder_on_table_map(rc_my_decoder *d, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    size_t post = d->fde.post_len[RC_MYEV_TABLE_MAP] ? d->fde.post_len[RC_MYEV_TABLE_MAP] : 8;
    if (n >= post) { /* the map of the last transaction again, with the history as it was then */
        tm_entry *old = rc_my_decoder_map_find(d, rc_my_table_id(&d->fde, RC_MYEV_TABLE_MAP, b));
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
    tm_entry *e = rc_my_decoder_map_find(d, m->table_id);
    if (e) {
        free(e->body);
        if (!rc_my_decoder_retire(d, e->map)) {
            memset(e, 0, sizeof *e);
            rc_my_tablemap_free(m);
            return rc_my_decoder_nomem(err);
        }
    } else {
        if (d->nmaps == d->capmaps) {
            size_t cap = d->capmaps ? d->capmaps * 2 : 16;
            tm_entry *t = realloc(d->maps, cap * sizeof *t);
            if (!t) return rc_my_tablemap_free(m), rc_my_decoder_nomem(err);
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
    return rc_my_decoder_build_columns(d, e, a, &e->cols, &e->cols_id, &e->dflts, err);
}

