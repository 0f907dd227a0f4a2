/* Operation and database-kind names, event equality for tests and round trips, and the LSN
 * text readers accept. */
#include <stdio.h>
#include <string.h>
#include "rowcast/event.h"
#include "core/bson.h"
#include "core/fmt.h"

static const char *const op_names[RC_OP_COUNT] = {"insert", "update", "delete", "read", "ddl",
                                                  "truncate", "heartbeat", "begin", "commit"};
static const char *const db_names[RC_DB_COUNT] = {"unknown", "mysql", "mariadb", "ob_mysql",
                                                  "ob_oracle", "oracle", "postgresql", "sqlserver"};

const char *rc_op_name(rc_op op) { return (unsigned)op < RC_OP_COUNT ? op_names[op] : "?"; }
const char *rc_dbkind_name(rc_dbkind k) { return (unsigned)k < RC_DB_COUNT ? db_names[k] : "?"; }

static bool find_name(const char *const *names, unsigned count, const char *s, size_t n, unsigned *out)
{
    for (unsigned i = 0; i < count; i++)
        if (strlen(names[i]) == n && memcmp(names[i], s, n) == 0) return *out = i, true;
    return false;
}

bool rc_op_parse(const char *s, size_t n, rc_op *out)
{
    unsigned v;
    if (!find_name(op_names, RC_OP_COUNT, s, n, &v)) return false;
    *out = (rc_op)v;
    return true;
}

bool rc_dbkind_parse(const char *s, size_t n, rc_dbkind *out)
{
    unsigned v;
    if (!find_name(db_names, RC_DB_COUNT, s, n, &v)) return false;
    *out = (rc_dbkind)v;
    return true;
}

rc_family rc_dbkind_family(rc_dbkind k)
{
    switch (k) {
    case RC_DB_OB_ORACLE:
    case RC_DB_ORACLE: return RC_FAM_ORACLE;
    case RC_DB_POSTGRES: return RC_FAM_PG;
    default: return RC_FAM_MYSQL;
    }
}

uint32_t rc_event_pk(const rc_event *ev, uint32_t *out, uint32_t max)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < ev->ncols; i++) n += ev->cols[i].pk != 0;
    uint32_t fill = n < max ? n : max;
    for (uint32_t k = 0; k < fill; k++) out[k] = UINT32_MAX;
    bool ok = true;
    for (uint32_t i = 0; i < ev->ncols; i++) {
        uint16_t k = ev->cols[i].pk;
        if (!k) continue;
        if (k > n || (k <= fill && out[k - 1] != UINT32_MAX)) ok = false;
        else if (k <= fill) out[k - 1] = i;
    }
    if (!ok) { /* positions not 1..n: fall back to column order */
        uint32_t j = 0;
        for (uint32_t i = 0; i < ev->ncols && j < fill; i++)
            if (ev->cols[i].pk) out[j++] = i;
    }
    return n;
}

static bool str_eq(rc_str a, rc_str b) { return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0); }

#define DIFF(...) (why ? (void)snprintf(why, whylen, __VA_ARGS__) : (void)0)

static bool image_equal(const rc_event *a, const rc_event *b, const rc_value *ia, const rc_value *ib,
                        const char *label, char *why, size_t whylen)
{
    if (!ia || !ib) {
        if (ia != ib && (ia == NULL || ib == NULL)) return DIFF("%s image present in only one event", label), false;
        return true;
    }
    for (uint32_t c = 0; c < a->ncols; c++)
        if (!rc_value_equal(&ia[c], &ib[c]))
            return DIFF("%s value of column %.*s differs (%s vs %s)", label, (int)a->cols[c].name.n, a->cols[c].name.p,
                        rc_vkind_name(ia[c].kind), rc_vkind_name(ib[c].kind)),
                   false;
    (void)b;
    return true;
}

bool rc_event_equal(const rc_event *a, const rc_event *b, char *why, size_t whylen)
{
    if (a->op != b->op) return DIFF("op %s vs %s", rc_op_name(a->op), rc_op_name(b->op)), false;
    const rc_origin *x = &a->src, *y = &b->src;
    if (x->kind != y->kind || !str_eq(x->server, y->server) || !str_eq(x->version, y->version) ||
        !str_eq(x->tenant, y->tenant) || !str_eq(x->db, y->db) || !str_eq(x->schema, y->schema) ||
        !str_eq(x->table, y->table))
        return DIFF("source differs"), false;
    const rc_position *p = &a->pos, *q = &b->pos;
    if (!str_eq(p->file, q->file) || p->has_offset != q->has_offset || (p->has_offset && p->offset != q->offset) ||
        !str_eq(p->gtid, q->gtid) || !str_eq(p->lsn, q->lsn) || !str_eq(p->last_commit_lsn, q->last_commit_lsn) || !str_eq(p->scn, q->scn) || !str_eq(p->txid, q->txid) || !str_eq(p->checkpoint, q->checkpoint) ||
        p->has_seq != q->has_seq || (p->has_seq && p->seq != q->seq) || p->has_tx_index != q->has_tx_index ||
        (p->has_tx_index && p->tx_index != q->tx_index) || p->has_tx_count != q->has_tx_count ||
        (p->has_tx_count && p->tx_count != q->tx_count) || p->has_server_id != q->has_server_id ||
        (p->has_server_id && p->server_id != q->server_id) || p->has_thread != q->has_thread ||
        (p->has_thread && p->thread != q->thread) || p->has_row != q->has_row || (p->has_row && p->row != q->row) ||
        p->has_xmin != q->has_xmin || (p->has_xmin && p->xmin != q->xmin) || !str_eq(p->query, q->query))
        return DIFF("position differs"), false;
    if (a->has_ts != b->has_ts || (a->has_ts && a->ts_us != b->ts_us)) return DIFF("source time differs"), false;
    if (a->has_proc != b->has_proc || (a->has_proc && a->proc_us != b->proc_us)) return DIFF("processing time differs"), false;
    if (a->ncols != b->ncols) return DIFF("column count %u vs %u", a->ncols, b->ncols), false;
    for (uint32_t c = 0; c < a->ncols; c++) {
        const rc_column *ca = &a->cols[c], *cb = &b->cols[c];
        if (!str_eq(ca->name, cb->name) || ca->pk != cb->pk || ca->nullable != cb->nullable ||
            ca->type.info != cb->type.info || ca->type.p1 != cb->type.p1 || ca->type.p2 != cb->type.p2 ||
            !str_eq(ca->type.decl, cb->type.decl) || ca->has_jdbc != cb->has_jdbc || (ca->has_jdbc && ca->jdbc != cb->jdbc))
            return DIFF("column %u (%.*s) differs", c, (int)ca->name.n, ca->name.p), false;
    }
    if (!image_equal(a, b, a->before, b->before, "before", why, whylen)) return false;
    if (!image_equal(a, b, a->after, b->after, "after", why, whylen)) return false;
    if ((a->changed == NULL) != (b->changed == NULL)) return DIFF("changed set present in only one event"), false;
    if (a->changed && memcmp(a->changed, b->changed, a->ncols) != 0) return DIFF("changed set differs"), false;
    if (!str_eq(a->ddl, b->ddl) || !str_eq(a->ddl_kind, b->ddl_kind) || !str_eq(a->table_charset, b->table_charset))
        return DIFF("ddl differs"), false;
    if (!p->collections != !q->collections || p->ncollections != q->ncollections) return DIFF("collections differ"), false;
    for (uint32_t i = 0; i < p->ncollections; i++)
        if (!str_eq(p->collections[i].name, q->collections[i].name) || p->collections[i].count != q->collections[i].count)
            return DIFF("collection %u differs", i), false;
    if (!str_eq(a->snapshot, b->snapshot)) return DIFF("snapshot marker differs"), false;
    if (a->before_key_only != b->before_key_only) return DIFF("before_key_only differs"), false;
    if (!a->doc != !b->doc || (a->doc && !rc_doc_change_equal(a->doc, b->doc))) return DIFF("document change differs"), false;
    return true;
}

bool rc_column_name_taken(const rc_column *cols, uint32_t n, rc_str name)
{
    for (uint32_t q = 0; q < n; q++)
        if (cols[q].name.n == name.n && memcmp(cols[q].name.p, name.p, name.n) == 0) return true;
    return false;
}

/* Up to 8 hex digits from s[*i], stopping at '/' or the end; false on anything else. */
static bool lsn_half(rc_str s, size_t *i)
{
    size_t start = *i;
    for (; *i < s.n && s.p[*i] != '/'; (*i)++) {
        unsigned char c = (unsigned char)s.p[*i];
        bool hex = (c >= '0' && c <= '9') || ((c | 0x20u) >= 'a' && (c | 0x20u) <= 'f'); /* | 0x20 folds the case */
        if (!hex || *i - start == 8) return false;
    }
    return *i > start;
}

static bool lsn_text_ok(rc_str s)
{
    if (!memchr(s.p ? s.p : "", '/', s.n)) { /* decimal: rc_parse_u64 would also take "-0" */
        uint64_t v;
        return s.n && s.p[0] >= '0' && s.p[0] <= '9' && rc_parse_u64(s.p, s.n, &v) == RC_OK;
    }
    size_t i = 0;
    if (!lsn_half(s, &i)) return false;
    i++; /* the '/' */
    return lsn_half(s, &i) && i == s.n;
}

rc_status rc_lsn_text_check(rc_str s, const char *what, size_t off, rc_error *err)
{
    if (lsn_text_ok(s)) return RC_OK;
    return rc_error_set(err, RC_ERR_VALUE, off,
                        "%s must be a PostgreSQL LSN, X/Y in hex with 1 to 8 digits each side (\"0/16B3748\") or its "
                        "decimal number, found \"%.*s\"%s",
                        what, (int)(s.n > 40 ? 40 : s.n), s.p ? s.p : "", s.n > 40 ? "..." : "");
}

rc_status rc_event_refuse_unavailable(const rc_event *ev, const char *format, rc_error *err)
{
    if (ev->doc) return rc_doc_refuse(format, err);
    const rc_value *imgs[2] = {ev->after, ev->before};
    for (int k = 0; k < 2; k++)
        for (uint32_t i = 0; imgs[k] && i < ev->ncols; i++) {
            if (imgs[k][i].kind != RC_V_UNAVAILABLE) continue;
            const rc_column *c = &ev->cols[i];
            if (ev->src.kind == RC_DB_MYSQL || ev->src.kind == RC_DB_MARIADB) { /* a partial row image */
                rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                             "column \"%.*s\" (%.*s): its value is not in the binlog's row image (binlog_row_image=MINIMAL or "
                             "NOBLOB) and %s has no way to write that; binlog_row_image=FULL sends every column, or use native "
                             "or upstream Debezium", (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, format);
                return RC_SKIP;
            }
            rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                         "column \"%.*s\" (%.*s): its value was not sent (an unchanged TOAST value) and %s has no way to "
                         "write that; REPLICA IDENTITY FULL sends it in the old row, or use native or upstream Debezium",
                         (int)c->name.n, c->name.p, (int)c->type.decl.n, c->type.decl.p, format);
            return RC_SKIP;
        }
    return RC_OK;
}
