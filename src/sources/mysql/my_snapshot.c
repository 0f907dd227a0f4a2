/* The snapshot of a MySQL/MariaDB capture (my_snapshot.h). */
#include "sources/mysql/my_snapshot.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/buf.h"
#include "rowcast/tz.h"
#include "core/vparse.h"
#include "core/wkb.h"

/* ---- the read view ---- */

/* The first row of a one-row query, or NULL (with err) when it has none. */
static MYSQL_ROW one_row(MYSQL *m, const rc_my_url *u, const char *sql, MYSQL_RES **r, rc_error *err)
{
    if (rc_my_select(m, u, sql, r, err) != RC_OK) return NULL;
    MYSQL_ROW row = mysql_fetch_row(*r);
    if (!row) rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s on %s returned no row", sql, u->shown);
    return row;
}

static rc_status gtids_of(rc_my_snap_pos *p, const char *text, rc_error *err)
{
    free(p->gtids);
    if (!(p->gtids = strdup(text ? text : ""))) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    p->gtids[strcspn(p->gtids, "\n")] = '\0'; /* MySQL's Executed_Gtid_Set breaks lines after commas */
    for (char *s = p->gtids, *d = p->gtids;; s++) {
        if (*s != '\n' && *s != ' ') *d++ = *s;
        if (!*s) break;
    }
    return RC_OK;
}

rc_status rc_my_snapshot_view(MYSQL *m, const rc_my_url *u, rc_my_snap_pos *p, rc_error *err)
{
    if (rc_my_exec(m, u, "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY", err) != RC_OK) return err->code;
    MYSQL_RES *r;
    if (rc_my_select(m, u, "SHOW STATUS LIKE 'binlog_snapshot_%'", &r, err) != RC_OK) return err->code;
    MYSQL_ROW row;
    bool file = false, pos = false;
    while ((row = mysql_fetch_row(r))) {
        if (!strcmp(row[0], "Binlog_snapshot_file") && row[1]) snprintf(p->file, sizeof p->file, "%s", row[1]), file = true;
        if (!strcmp(row[0], "Binlog_snapshot_position") && row[1]) p->offset = strtoull(row[1], NULL, 10), pos = true;
    }
    mysql_free_result(r);
    if (!file || !pos || !p->file[0])
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "%s gave no binlog_snapshot_file/position", u->shown);
    return RC_OK;
}

static rc_status begin_mariadb(MYSQL *m, const rc_my_url *u, rc_my_snap_pos *p, rc_error *err)
{
    if (rc_my_snapshot_view(m, u, p, err) != RC_OK) return err->code;
    MYSQL_RES *r;
    MYSQL_ROW row;
    char sql[600];
    char esc[520];
    mysql_real_escape_string(m, esc, p->file, (unsigned long)strlen(p->file));
    snprintf(sql, sizeof sql, "SELECT BINLOG_GTID_POS('%s', %llu)", esc, (unsigned long long)p->offset);
    row = one_row(m, u, sql, &r, err);
    rc_status st = row ? gtids_of(p, row[0], err) : err->code;
    if (r) mysql_free_result(r);
    return st;
}

static rc_status begin_mysql(MYSQL *m, const rc_my_url *u, rc_my_snap_pos *p, rc_error *err)
{
    if (mysql_query(m, "FLUSH TABLES WITH READ LOCK")) {
        unsigned e = mysql_errno(m);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "FLUSH TABLES WITH READ LOCK on %s: error %u: %s (the snapshot reads its binlog position under "
                            "this lock, held for three statements: GRANT RELOAD ON *.* to the user, or capture with "
                            "--snapshot never)",
                            u->shown, e, mysql_error(m));
    }
    rc_status st = rc_my_exec(m, u, "START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY", err);
    MYSQL_RES *r = NULL;
    MYSQL_ROW row = NULL;
    if (st == RC_OK) {
        /* 8.4 has only SHOW BINARY LOG STATUS; before 8.2 only SHOW MASTER STATUS */
        if (mysql_query(m, "SHOW MASTER STATUS") == 0 || mysql_query(m, "SHOW BINARY LOG STATUS") == 0) {
            r = mysql_store_result(m);
            row = r ? mysql_fetch_row(r) : NULL;
        }
        if (!row) st = rc_my_fail(m, u, "SHOW MASTER STATUS", err);
    }
    if (row) {
        snprintf(p->file, sizeof p->file, "%s", row[0] ? row[0] : "");
        p->offset = row[1] ? strtoull(row[1], NULL, 10) : 0;
        st = gtids_of(p, mysql_num_fields(r) >= 5 ? row[4] : "", err);
    }
    if (r) mysql_free_result(r);
    rc_error uerr;
    rc_error_clear(&uerr);
    rc_status ust = rc_my_exec(m, u, "UNLOCK TABLES", &uerr);
    if (st == RC_OK && ust != RC_OK) *err = uerr, st = ust;
    return st;
}

rc_status rc_my_snapshot_begin(MYSQL *m, const rc_my_url *u, bool mariadb, rc_my_snap_pos *pos, rc_error *err)
{
    memset(pos, 0, sizeof *pos);
    if (rc_my_exec(m, u, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ", err) != RC_OK) return err->code;
    return mariadb ? begin_mariadb(m, u, pos, err) : begin_mysql(m, u, pos, err);
}

rc_status rc_my_snapshot_end(MYSQL *m, const rc_my_url *u, rc_error *err)
{
    return rc_my_exec(m, u, "COMMIT", err);
}

void rc_my_snap_pos_fini(rc_my_snap_pos *p)
{
    free(p->gtids);
    p->gtids = NULL;
}

/* ---- the structures ---- */

enum { COL_SCHEMA, COL_TABLE, COL_NAME, COL_TYPE, COL_NULLABLE, COL_KEY, COL_EXTRA, COL_COLLATION, COL_PK, COL_ROWS,
       COL_TCOLLATION, COL_DEFAULT };

/* %s: the column's type and collation: COLUMN_TYPE and COLLATION_NAME, or on MariaDB "json"
 * without a collation for a JSON column (MariaDB's JSON is LONGTEXT with the column check
 * json_valid(`c`), which information_schema shows as longtext in utf8mb4_bin; the binlog's CREATE
 * TABLE says json, and the stream's history has it so); %s: COLUMN_DEFAULT in MariaDB's form
 * (MySQL's quoted, its CURRENT_TIMESTAMP MariaDB's current_timestamp(), another expression's
 * NULL); %s: MariaDB's join of that check */
static const char columns_sql[] =
    "SELECT c.TABLE_SCHEMA, c.TABLE_NAME, c.COLUMN_NAME, %s, c.IS_NULLABLE, c.COLUMN_KEY, c.EXTRA, "
    "%s, COALESCE(k.ORDINAL_POSITION, 0), COALESCE(t.TABLE_ROWS, 0), t.TABLE_COLLATION, %s "
    "FROM information_schema.COLUMNS c %s"
    "JOIN information_schema.TABLES t ON t.TABLE_SCHEMA = c.TABLE_SCHEMA AND t.TABLE_NAME = c.TABLE_NAME "
    "AND t.TABLE_TYPE = 'BASE TABLE' "
    "LEFT JOIN information_schema.KEY_COLUMN_USAGE k ON k.TABLE_SCHEMA = c.TABLE_SCHEMA AND k.TABLE_NAME = c.TABLE_NAME "
    "AND k.COLUMN_NAME = c.COLUMN_NAME AND k.CONSTRAINT_NAME = 'PRIMARY' "
    "WHERE c.TABLE_SCHEMA NOT IN ('mysql', 'information_schema', 'performance_schema', 'sys')";

static rc_str col_str(MYSQL_ROW row, const unsigned long *lens, int i)
{
    return row[i] ? (rc_str){row[i], lens[i]} : (rc_str){"", 0};
}

/* One table's information_schema rows rows[0..n) into the history. */
static rc_status put_table(rc_my_history *h, MYSQL_ROW *rows, unsigned long **lens, uint32_t n, rc_error *err)
{
    rc_my_is_column *is = calloc(n, sizeof *is);
    if (!is) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < n; i++)
        is[i] = (rc_my_is_column){.name = col_str(rows[i], lens[i], COL_NAME),
                                  .column_type = col_str(rows[i], lens[i], COL_TYPE),
                                  .is_nullable = col_str(rows[i], lens[i], COL_NULLABLE),
                                  .column_key = col_str(rows[i], lens[i], COL_KEY),
                                  .extra = col_str(rows[i], lens[i], COL_EXTRA),
                                  .collation_name = col_str(rows[i], lens[i], COL_COLLATION),
                                  .column_default = col_str(rows[i], lens[i], COL_DEFAULT),
                                  .has_column_default = rows[i][COL_DEFAULT] != NULL,
                                  .pk = (uint16_t)strtoul(rows[i][COL_PK], NULL, 10)};
    rc_status st = rc_my_history_put_is(h, col_str(rows[0], lens[0], COL_SCHEMA), col_str(rows[0], lens[0], COL_TABLE),
                                        col_str(rows[0], lens[0], COL_TCOLLATION), is, n, err);
    free(is);
    return st;
}

/* The events' columns and the key of a table of the history. */
rc_status rc_my_snap_table_of(const rc_my_table *t, rc_my_snap_table *st, rc_error *err)
{
    st->t = t;
    st->cols = calloc(t->ncols ? t->ncols : 1, sizeof *st->cols + sizeof *st->dflts); /* the defaults after the columns */
    st->pk = calloc(t->ncols ? t->ncols : 1, sizeof *st->pk);
    if (!st->cols || !st->pk) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < t->ncols; i++) {
        const rc_my_table_col *c = &t->cols[i];
        st->cols[i] = (rc_column){.name = c->name, .type = c->type, .pk = c->pk, .nullable = c->nullable};
        if (c->has_dflt) st->dflts = (rc_str *)(st->cols + t->ncols);
    }
    for (uint32_t i = 0; st->dflts && i < t->ncols; i++)
        if (t->cols[i].has_dflt) st->dflts[i] = (rc_str){t->cols[i].dflt.p ? t->cols[i].dflt.p : "", t->cols[i].dflt.n};
    for (uint32_t k = 1; k <= t->ncols; k++)
        for (uint32_t i = 0; i < t->ncols; i++)
            if (t->cols[i].pk == k) st->pk[st->npk++] = i;
    return RC_OK;
}

rc_status rc_my_tables_load(MYSQL *m, const rc_my_url *u, rc_my_history *h, bool (*accept)(void *, rc_str, rc_str), void *ctx,
                            rc_my_snap_table **out, size_t *nout, rc_error *err)
{
    *out = NULL, *nout = 0;
    char sql[sizeof columns_sql + 1200];
    const char *info = mysql_get_server_info(m);
    bool maria = info && strstr(info, "MariaDB");
    size_t len = (size_t)snprintf(
        sql, sizeof sql, columns_sql,
        maria ? "IF(j.CHECK_CLAUSE IS NOT NULL AND c.DATA_TYPE = 'longtext', 'json', c.COLUMN_TYPE)" : "c.COLUMN_TYPE",
        maria ? "IF(j.CHECK_CLAUSE IS NOT NULL AND c.DATA_TYPE = 'longtext', NULL, c.COLLATION_NAME)" : "c.COLLATION_NAME",
        maria ? "c.COLUMN_DEFAULT"
              : "IF(c.COLUMN_DEFAULT LIKE 'CURRENT_TIMESTAMP%%' AND c.DATA_TYPE IN ('timestamp', 'datetime'), 'current_timestamp()', "
                "IF(c.EXTRA LIKE '%%DEFAULT_GENERATED%%', NULL, QUOTE(c.COLUMN_DEFAULT)))",
        maria ? "LEFT JOIN information_schema.CHECK_CONSTRAINTS j ON j.CONSTRAINT_SCHEMA = c.TABLE_SCHEMA AND j.TABLE_NAME = "
                "c.TABLE_NAME AND j.LEVEL = 'Column' AND j.CONSTRAINT_NAME = c.COLUMN_NAME AND j.CHECK_CLAUSE = "
                "CONCAT('json_valid(`', REPLACE(c.COLUMN_NAME, '`', '``'), '`)') "
              : "");
    if (u->db) {
        char esc[520];
        mysql_real_escape_string(m, esc, u->db, (unsigned long)(strlen(u->db) < 256 ? strlen(u->db) : 255));
        len += (size_t)snprintf(sql + len, sizeof sql - len, " AND c.TABLE_SCHEMA = '%s'", esc);
    }
    snprintf(sql + len, sizeof sql - len, " ORDER BY c.TABLE_SCHEMA, c.TABLE_NAME, c.ORDINAL_POSITION");
    MYSQL_RES *r;
    if (rc_my_select(m, u, sql, &r, err) != RC_OK) return err->code;
    size_t nrows = (size_t)mysql_num_rows(r), ntables = 0;
    MYSQL_ROW *rows = calloc(nrows ? nrows : 1, sizeof *rows);
    unsigned long **lens = calloc(nrows ? nrows : 1, sizeof *lens);
    unsigned long *all_lens = calloc(nrows ? nrows * (COL_DEFAULT + 1) : 1, sizeof *all_lens);
    size_t *first = calloc(nrows + 1, sizeof *first);
    rc_status st = rows && lens && all_lens && first ? RC_OK : rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (size_t i = 0; st == RC_OK && i < nrows; i++) {
        rows[i] = mysql_fetch_row(r);
        lens[i] = all_lens + i * (COL_DEFAULT + 1);
        memcpy(lens[i], mysql_fetch_lengths(r), (COL_DEFAULT + 1) * sizeof *lens[i]);
    }
    for (size_t i = 0; st == RC_OK && i < nrows;) {
        size_t j = i + 1;
        while (j < nrows && !strcmp(rows[j][COL_SCHEMA], rows[i][COL_SCHEMA]) && !strcmp(rows[j][COL_TABLE], rows[i][COL_TABLE]))
            j++;
        first[ntables++] = i;
        st = put_table(h, rows + i, lens + i, (uint32_t)(j - i), err);
        i = j;
    }
    /* the history's tables, once it is complete (a put may move the others) */
    rc_my_snap_table *ts = calloc(ntables ? ntables : 1, sizeof *ts);
    if (!ts && st == RC_OK) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (size_t k = 0; st == RC_OK && k < ntables; k++) {
        MYSQL_ROW row = rows[first[k]];
        rc_str db = col_str(row, lens[first[k]], COL_SCHEMA), name = col_str(row, lens[first[k]], COL_TABLE);
        const rc_my_table *t = rc_my_history_get(h, db, name);
        if (!t) st = rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "%s.%s: not in the schema history after reading it", row[0], row[1]);
        else st = rc_my_snap_table_of(t, &ts[k], err);
        ts[k].rows_estimate = strtoull(row[COL_ROWS], NULL, 10);
        size_t qn = db.n + name.n + 2;
        if (st == RC_OK && (ts[k].qname = malloc(qn))) snprintf(ts[k].qname, qn, "%.*s.%.*s", (int)db.n, db.p, (int)name.n, name.p);
        else if (st == RC_OK) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        ts[k].included = !accept || accept(ctx, db, name);
    }
    free(rows), free(lens), free(all_lens), free(first);
    mysql_free_result(r);
    if (st != RC_OK) {
        rc_my_tables_free(ts, ntables);
        return st;
    }
    *out = ts, *nout = ntables;
    return RC_OK;
}

void rc_my_tables_free(rc_my_snap_table *t, size_t n)
{
    if (!t) return;
    for (size_t i = 0; i < n; i++) free(t[i].cols), free(t[i].pk), free(t[i].qname);
    free(t);
}

/* ---- values ---- */

rc_status rc_my_text_value(const rc_column *c, const char *s, size_t n, rc_arena *a, rc_value *v, rc_error *err)
{
    memset(v, 0, sizeof *v);
    switch ((rc_vkind)c->type.info->vkind) {
    case RC_V_BITS: /* the text protocol sends BIT(n) as its bytes, big-endian */
        if (n > 8) break;
        v->kind = RC_V_BITS;
        for (size_t i = 0; i < n; i++) v->u = v->u << 8 | (unsigned char)s[i];
        return RC_OK;
    case RC_V_BYTES: {
        char *p = rc_arena_memdup(a, s, n);
        if (!p && n) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        v->kind = RC_V_BYTES, v->s = (rc_str){p ? p : "", n};
        return RC_OK;
    }
    case RC_V_GEOMETRY: { /* 4 bytes SRID (little-endian), then WKB: as the binlog stores it */
        if (n < 4) break;
        int32_t srid = (int32_t)((uint32_t)(unsigned char)s[0] | (uint32_t)(unsigned char)s[1] << 8 |
                                 (uint32_t)(unsigned char)s[2] << 16 | (uint32_t)(unsigned char)s[3] << 24);
        rc_buf b;
        rc_buf_init(&b, RC_BUF_DEFAULT_MAX);
        /* EWKT with its SRID always (0 too), as the binlog decoder writes it (docs/sources/mysql-types.md) */
        rc_status st = rc_wkb_to_wkt((const unsigned char *)s + 4, n - 4, true, srid, &b, err);
        if (st == RC_OK) {
            char *p = rc_arena_memdup(a, b.data, b.len);
            if (!p) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
            else v->kind = RC_V_GEOMETRY, v->s = (rc_str){p, b.len};
        }
        rc_buf_fini(&b);
        return st;
    }
    case RC_V_INT:
    case RC_V_UINT:
    case RC_V_DECIMAL:
    case RC_V_FLOAT32:
    case RC_V_FLOAT64: /* a ZEROFILL column's text is padded ("00005", "0003.50"): the number without the padding */
        while (n > 1 && s[0] == '0' && s[1] >= '0' && s[1] <= '9') s++, n--;
        /* FALLTHROUGH */
    default: {
        /* the session's time_zone is +00:00: TIMESTAMP text is UTC */
        static const rc_vparse_opts o = {.bytes = RC_BYTES_LATIN1, .ts_tz = {0, NULL}};
        return rc_value_from_text(c, s, n, &o, a, v, err);
    }
    }
    return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "column %.*s (%.*s): %zu bytes are not a value of its type",
                        (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, n);
}

/* ---- the rows ---- */

struct rc_my_snap_reader {
    MYSQL *m;
    const rc_my_url *u;
    const rc_my_snap_table *t;
    uint32_t chunk, in_chunk;
    MYSQL_RES *res;  /* the chunk being read (mysql_use_result) */
    bool done;       /* the last chunk was short: no more rows */
    rc_buf after;    /* the last key read, as the SQL tuple "(lit, lit)" (settle_after) */
    rc_buf last;     /* ... as read: per key column its 4-byte length and bytes */
    bool unsettled;  /* `last` is newer than `after` */
    rc_buf sql;
    const char *filter; /* ANDed to every chunk's WHERE (additional-conditions), or NULL */
};

rc_my_snap_reader *rc_my_snap_reader_new(MYSQL *m, const rc_my_url *u, const rc_my_snap_table *t, uint32_t chunk)
{
    rc_my_snap_reader *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    r->m = m, r->u = u, r->t = t, r->chunk = chunk;
    rc_buf_init(&r->after, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&r->last, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&r->sql, RC_BUF_DEFAULT_MAX);
    return r;
}

void rc_my_snap_reader_filter(rc_my_snap_reader *r, const char *filter) { r->filter = filter; }

void rc_my_snap_reader_chunk(rc_my_snap_reader *r, uint32_t chunk)
{
    if (r->res) mysql_free_result(r->res);
    r->res = NULL;
    r->chunk = chunk;
}

static rc_status buf_copy(rc_buf *to, const rc_buf *from)
{
    rc_buf_reset(to);
    rc_buf_put(to, from->data, from->len);
    return to->err;
}

static void settle_after(rc_my_snap_reader *r);

rc_status rc_my_snap_reader_mark(rc_my_snap_reader *r, rc_buf *out)
{
    settle_after(r);
    return buf_copy(out, &r->after);
}

rc_status rc_my_snap_reader_rewind(rc_my_snap_reader *r, const rc_buf *mark)
{
    rc_my_snap_reader_chunk(r, r->chunk);
    r->done = false;
    r->unsettled = false;
    return buf_copy(&r->after, mark);
}

void rc_my_snap_reader_free(rc_my_snap_reader *r)
{
    if (!r) return;
    if (r->res) mysql_free_result(r->res); /* reads what is left of the chunk */
    rc_buf_fini(&r->after);
    rc_buf_fini(&r->last);
    rc_buf_fini(&r->sql);
    free(r);
}

static void put_ident(rc_buf *b, rc_str id)
{
    rc_buf_putc(b, '`');
    for (size_t i = 0; i < id.n; i++) {
        if (id.p[i] == '`') rc_buf_putc(b, '`');
        rc_buf_putc(b, id.p[i]);
    }
    rc_buf_putc(b, '`');
}

static void put_key_list(rc_buf *b, const rc_my_snap_table *t)
{
    for (uint32_t k = 0; k < t->npk; k++) {
        if (k) RC_BUF_LIT(b, ", ");
        put_ident(b, t->cols[t->pk[k]].name);
    }
}

static rc_status chunk_start(rc_my_snap_reader *r, rc_error *err)
{
    const rc_my_snap_table *t = r->t;
    rc_buf *q = &r->sql;
    rc_buf_reset(q);
    settle_after(r);
    if (r->after.err) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    RC_BUF_LIT(q, "SELECT ");
    for (uint32_t i = 0; i < t->t->ncols; i++) {
        if (i) RC_BUF_LIT(q, ", ");
        put_ident(q, t->cols[i].name);
    }
    RC_BUF_LIT(q, " FROM ");
    put_ident(q, t->t->db);
    rc_buf_putc(q, '.');
    put_ident(q, t->t->name);
    bool key_where = t->npk && r->after.len;
    if (key_where) {
        RC_BUF_LIT(q, " WHERE (");
        put_key_list(q, t);
        RC_BUF_LIT(q, ") > ");
        rc_buf_put(q, r->after.data, r->after.len);
    }
    if (r->filter) {
        rc_buf_puts(q, key_where ? " AND (" : " WHERE (");
        rc_buf_puts(q, r->filter);
        rc_buf_putc(q, ')');
    }
    if (t->npk) {
        RC_BUF_LIT(q, " ORDER BY ");
        put_key_list(q, t);
        char lim[32];
        rc_buf_put(q, lim, (size_t)snprintf(lim, sizeof lim, " LIMIT %u", r->chunk));
    }
    if (q->err) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (mysql_real_query(r->m, q->data, (unsigned long)q->len) || !(r->res = mysql_use_result(r->m))) {
        unsigned e = mysql_errno(r->m);
        rc_error_clear(err);
        if (e == 1142 /* ER_TABLEACCESS_DENIED_ERROR */)
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "snapshot of %.*s.%.*s on %s: %s (GRANT SELECT ON %.*s.%.*s TO the user)",
                                (int)t->t->db.n, t->t->db.p, (int)t->t->name.n, t->t->name.p, r->u->shown, mysql_error(r->m), (int)t->t->db.n, t->t->db.p, (int)t->t->name.n, t->t->name.p);
        if (r->filter) /* the filter is the likely fault: the table's snapshot stops, the capture goes on */
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                                "snapshot of %.*s.%.*s with the additional-conditions filter \"%s\" on %s: error %u: %s",
                                (int)t->t->db.n, t->t->db.p, (int)t->t->name.n, t->t->name.p, r->filter, r->u->shown, e,
                                mysql_error(r->m));
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                            "snapshot of %.*s.%.*s on %s: error %u: %s (run again: the snapshot starts over)",
                            (int)t->t->db.n, t->t->db.p, (int)t->t->name.n, t->t->name.p, r->u->shown, e, mysql_error(r->m));
    }
    r->in_chunk = 0;
    return RC_OK;
}

/* The number of ENUM label v[0..n) (1 the first; 0 when none matches: '' in a declared label is
 * one quote). ORDER BY sorts an ENUM by it, and a quoted label compares as text: the bound is it. */
static unsigned enum_number(const rc_coltype *t, const char *v, size_t n)
{
    size_t pos = 0, i, j;
    rc_str l;
    for (unsigned k = 1; rc_coltype_label_next(t, &pos, &l); k++) {
        for (i = 0, j = 0; i < l.n && j < n && l.p[i] == v[j]; j++) i += l.p[i] == '\'' && i + 1 < l.n && l.p[i + 1] == '\'' ? 2 : 1;
        if (i == l.n && j == n) return k;
    }
    return 0;
}

/* Remembers a key (its columns' values in key order, as the text protocol has them) as the SQL
 * tuple the next chunk starts after. */
static void keep_values(rc_my_snap_reader *r, const char *const *v, const unsigned long *lens)
{
    rc_buf *b = &r->after;
    rc_buf_reset(b);
    rc_buf_putc(b, '(');
    for (uint32_t k = 0; k < r->t->npk; k++) {
        if (k) RC_BUF_LIT(b, ", ");
        rc_vkind kind = (rc_vkind)r->t->cols[r->t->pk[k]].type.info->vkind;
        unsigned number = kind == RC_V_ENUM ? enum_number(&r->t->cols[r->t->pk[k]].type, v[k], lens[k]) : 0;
        if (number) {
            char d[16];
            rc_buf_put(b, d, (size_t)snprintf(d, sizeof d, "%u", number));
            continue;
        }
        if (kind == RC_V_BYTES || kind == RC_V_BITS || kind == RC_V_GEOMETRY) { /* bytes: a hex literal */
            RC_BUF_LIT(b, "X'");
            for (unsigned long j = 0; j < lens[k]; j++) {
                char h[3];
                snprintf(h, sizeof h, "%02x", (unsigned char)v[k][j]);
                rc_buf_put(b, h, 2);
            }
        } else {
            rc_buf_putc(b, '\'');
            char *w = rc_buf_reserve(b, 2 * lens[k] + 1);
            if (w) rc_buf_commit(b, mysql_real_escape_string(r->m, w, v[k], lens[k]));
        }
        rc_buf_putc(b, '\'');
    }
    rc_buf_putc(b, ')');
}

/* The key of this row, copied as it is: the SQL tuple is made from the last one only when a
 * chunk's query or a mark needs it (settle_after), not a row. */
static void keep_key(rc_my_snap_reader *r, MYSQL_ROW row, const unsigned long *lens)
{
    rc_buf_reset(&r->last);
    for (uint32_t k = 0; k < r->t->npk && k < RC_MY_SNAP_MAX_KEY; k++) {
        uint32_t l = (uint32_t)lens[r->t->pk[k]];
        rc_buf_put(&r->last, &l, 4);
        rc_buf_put(&r->last, row[r->t->pk[k]], l);
    }
    r->unsettled = true;
}

static void settle_after(rc_my_snap_reader *r)
{
    if (!r->unsettled) return;
    r->unsettled = false;
    if (r->last.err) { /* the key was not kept whole: no tuple from it (chunk_start says out of memory) */
        r->after.err = r->last.err;
        return;
    }
    const char *v[RC_MY_SNAP_MAX_KEY];
    unsigned long l[RC_MY_SNAP_MAX_KEY];
    const char *p = r->last.data;
    for (uint32_t k = 0; k < r->t->npk && k < RC_MY_SNAP_MAX_KEY; k++) {
        uint32_t n;
        memcpy(&n, p, 4);
        v[k] = p + 4, l[k] = n, p += 4 + n;
    }
    keep_values(r, v, l);
}

rc_status rc_my_snap_reader_resume(rc_my_snap_reader *r, const char *const *keys, const unsigned long *lens, rc_error *err)
{
    r->unsettled = false;
    keep_values(r, keys, lens);
    return r->after.err ? rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory") : RC_OK;
}

rc_status rc_my_snap_reader_next(rc_my_snap_reader *r, char ***fields, unsigned long **lens, bool *got, rc_error *err)
{
    *got = false;
    const rc_my_snap_table *t = r->t;
    MYSQL_ROW row = NULL;
    while (!row) {
        if (!r->res) {
            if (r->done) return RC_OK;
            if (chunk_start(r, err) != RC_OK) return err->code;
        }
        if ((row = mysql_fetch_row(r->res))) break;
        bool failed = mysql_errno(r->m) != 0;
        mysql_free_result(r->res);
        r->res = NULL;
        if (failed)
            return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                                "snapshot of %.*s.%.*s on %s interrupted: %s (run again: the snapshot starts over)",
                                (int)t->t->db.n, t->t->db.p, (int)t->t->name.n, t->t->name.p, r->u->shown, mysql_error(r->m));
        if (!t->npk || r->in_chunk < r->chunk) r->done = true; /* a short chunk is the last */
    }
    *lens = mysql_fetch_lengths(r->res);
    r->in_chunk++;
    if (t->npk) keep_key(r, row, *lens);
    if (r->last.err) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    *fields = row;
    *got = true;
    return RC_OK;
}

rc_status rc_my_snap_row_parse(const rc_my_snap_table *t, char *const *fields, const unsigned long *lens, rc_arena *a,
                               rc_value *vals, rc_error *err)
{
    for (uint32_t i = 0; i < t->t->ncols; i++) {
        if (!fields[i]) {
            memset(&vals[i], 0, sizeof vals[i]);
            vals[i].kind = RC_V_NULL;
            continue;
        }
        rc_error verr;
        rc_error_clear(&verr);
        if (rc_my_text_value(&t->cols[i], fields[i], lens[i], a, &vals[i], &verr) != RC_OK)
            return rc_error_set(err, verr.code, RC_NO_OFFSET, "snapshot row of %.*s.%.*s: %s", (int)t->t->db.n, t->t->db.p, (int)t->t->name.n, t->t->name.p,
                                verr.message);
    }
    return RC_OK;
}
