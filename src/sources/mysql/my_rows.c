/* Row events (my_rows.h). Bitmaps here are LSB first (column i: byte i/8, bit i%8): the
 * columns an image holds, then per image the NULL bits of the columns it holds. Values are
 * my_value.c's. */
#include <stdio.h>
#include <string.h>
#include "my_rows.h"
#include "my_value.h"

static bool is_update(uint8_t t)
{
    return t == RC_MYEV_UPDATE_ROWS || t == RC_MYEV_UPDATE_ROWS_V1 || t == RC_MYEV_PRE_GA_UPDATE_ROWS || t == RC_MYEV_PARTIAL_UPDATE_ROWS;
}

static bool is_v2(uint8_t t) { return t >= RC_MYEV_WRITE_ROWS && t <= RC_MYEV_DELETE_ROWS ? true : t == RC_MYEV_PARTIAL_UPDATE_ROWS; }

static rc_status rows_truncated(uint8_t type, size_t at, rc_error *err)
{
    return rc_error_set(err, RC_ERR_VALUE, at, "%s truncated at byte %zu of its body", rc_my_event_name(type), at);
}

static bool bit(const uint8_t *bm, uint32_t i) { return (bm[i / 8] >> (i % 8)) & 1; }

/* The columns a bitmap of ncols bits holds (its last byte's bits past ncols not counted). */
static uint32_t held(const uint8_t *present, uint32_t ncols)
{
    uint32_t k = 0;
    for (uint32_t j = 0; j < ncols / 8; j++) k += (uint32_t)__builtin_popcount(present[j]);
    if (ncols % 8) k += (uint32_t)__builtin_popcount(present[ncols / 8] & ((1u << (ncols % 8)) - 1));
    return k;
}

/* "column 3 (name) of db.t", or "column @3 of db.t" without a name, for messages. */
static const char *col_label(const rc_my_tablemap *m, uint32_t c, char *t, size_t tn)
{
    const rc_str *nm = &m->cols[c].name;
    if (nm->n) snprintf(t, tn, "column %u (%.*s) of %.*s.%.*s", c + 1, (int)nm->n, nm->p, (int)m->db.n, m->db.p, (int)m->table.n, m->table.p);
    else snprintf(t, tn, "column @%u of %.*s.%.*s", c + 1, (int)m->db.n, m->db.p, (int)m->table.n, m->table.p);
    return t;
}

rc_status rc_my_rows_parse(const rc_my_fde *f, uint8_t type, const uint8_t *b, size_t n, rc_my_rows *r, rc_error *err)
{
    memset(r, 0, sizeof *r);
    r->type = type;
    r->partial = type == RC_MYEV_PARTIAL_UPDATE_ROWS;
    r->op = is_update(type) ? RC_OP_UPDATE
            : (type == RC_MYEV_WRITE_ROWS || type == RC_MYEV_WRITE_ROWS_V1 || type == RC_MYEV_PRE_GA_WRITE_ROWS) ? RC_OP_INSERT
                                                                                                                  : RC_OP_DELETE;
    size_t post = f->post_len[type] ? f->post_len[type] : (is_v2(type) ? 10 : 8);
    size_t idlen = post == 6 ? 4 : 6;
    if (n < post || post < idlen + 2) return rows_truncated(type, n, err);
    r->table_id = rc_my_le(b, (unsigned)idlen);
    r->flags = (uint16_t)rc_my_le(b + idlen, 2);
    size_t i = post;
    if (is_v2(type) && post >= idlen + 4) {
        size_t xl = (size_t)rc_my_le(b + idlen + 2, 2); /* the extra data with these two bytes */
        if (xl < 2 || n - post < xl - 2) return rows_truncated(type, post, err);
        const uint8_t *x = b + post;
        size_t xn = xl - 2;
        if (xn >= 1 && x[0] == 1) { /* partition info: the partition, and an update's source partition */
            if (xn < 3) return rows_truncated(type, post, err);
            r->has_partition = true;
            r->partition_id = (uint32_t)rc_my_le(x + 1, 2);
            if (is_update(type) && xn >= 5) r->source_partition_id = (uint32_t)rc_my_le(x + 3, 2);
        } else if (xn >= 3 && x[0] == 0) { /* NDB: a length (its own byte included), a format, the data */
            size_t len = x[1];
            if (len < 2 || len + 1 > xn) return rows_truncated(type, post, err);
            r->has_ndb = true;
            r->ndb_format = x[2];
            r->ndb_data = x + 3, r->ndb_len = len - 2;
        }
        i += xl - 2;
    }
    uint64_t nc;
    if (!rc_my_packed(b, n, &i, &nc) || nc > 4096) return rows_truncated(type, i, err);
    r->ncols = (uint32_t)nc;
    size_t bm = (r->ncols + 7) / 8;
    if (n - i < bm * (is_update(type) ? 2 : 1)) return rows_truncated(type, n, err);
    const uint8_t *first = b + i;
    i += bm;
    if (r->op == RC_OP_INSERT) r->present_after = first;
    else r->present_before = first;
    if (is_update(type)) r->present_after = b + i, i += bm;
    if (r->present_before) r->held_before = held(r->present_before, r->ncols);
    if (r->present_after) r->held_after = held(r->present_after, r->ncols);
    r->rows_off = i;
    return RC_OK;
}

/* One image: the NULL bits of the columns it holds, then their values. `raw_json` (when not
 * NULL) gets each JSON column's stored document; `partial` (when not NULL) marks the JSON
 * columns whose value is a diff against the before image's document in before_json. */
typedef struct json_ref {
    const uint8_t *p;
    size_t n;
} json_ref;

static rc_status image(const rc_my_rows *r, const rc_my_tablemap *m, const uint8_t *present, uint32_t nheld, const uint8_t *b, size_t n,
                       size_t *pos, rc_value *vals, json_ref *raw_json, const bool *partial, const json_ref *before_json, rc_arena *a,
                       rc_buf *scratch, rc_error *err)
{
    size_t nb = (nheld + 7) / 8, i = *pos;
    if (n - i < nb) return rows_truncated(r->type, i, err);
    const uint8_t *nulls = b + i;
    i += nb;
    uint32_t k = 0;
    char lab[320];
    for (uint32_t c = 0; c < r->ncols; c++) {
        if (!bit(present, c)) {
            vals[c] = (rc_value){.kind = RC_V_UNAVAILABLE};
            continue;
        }
        bool is_null = bit(nulls, k++);
        if (is_null) {
            vals[c] = (rc_value){.kind = RC_V_NULL};
            continue;
        }
        const rc_my_col *col = &m->cols[c];
        if (col->type == RC_MY_JSON && (raw_json || (partial && partial[c]))) {
            unsigned lb = col->meta ? col->meta : 4;
            if (lb > 4 || n - i < lb) return rows_truncated(r->type, i, err);
            size_t len = (size_t)rc_my_le(b + i, lb);
            if (n - i - lb < len) return rows_truncated(r->type, i, err);
            const uint8_t *doc = b + i + lb;
            if (raw_json) raw_json[c] = (json_ref){doc, len};
            if (partial && partial[c]) {
                if (!before_json || !before_json[c].p)
                    return rc_error_set(err, RC_ERR_VALUE, i, "PARTIAL_UPDATE_ROWS_EVENT: %s is a partial JSON update, and the before "
                                        "image does not hold the document it changes, so the new document is not known "
                                        "(binlog_row_image=FULL is needed with binlog_row_value_options=PARTIAL_JSON)",
                                        col_label(m, c, lab, sizeof lab));
                rc_buf_reset(scratch);
                size_t used = 0;
                rc_error e2;
                rc_error_clear(&e2);
                if (rc_my_json_diff_apply(before_json[c].p, before_json[c].n, doc, len, &used, scratch, &e2) != RC_OK)
                    return rc_error_set(err, e2.code, i, "%s: %s", col_label(m, c, lab, sizeof lab), e2.message);
                char *t = rc_arena_memdup(a, scratch->data, scratch->len);
                if (!t) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
                vals[c] = (rc_value){.kind = RC_V_JSON, .s = {t, scratch->len}};
                i += lb + len;
                continue;
            }
        }
        size_t used = 0;
        rc_error e2; /* set by the decoder when it fails */
        rc_error_clear(&e2);
        if (rc_my_value_decode(col, b + i, n - i, &used, &vals[c], a, &e2) != RC_OK) {
            size_t at = e2.offset == RC_NO_OFFSET ? i : i + e2.offset;
            return rc_error_set(err, e2.code, at, "%s: %s", col_label(m, c, lab, sizeof lab), e2.message);
        }
        if (used > n - i) return rows_truncated(r->type, i, err);
        i += used;
    }
    *pos = i;
    return RC_OK;
}

rc_status rc_my_rows_next(const rc_my_rows *r, const rc_my_tablemap *m, const uint8_t *b, size_t n, size_t *pos, rc_value *before,
                          rc_value *after, rc_arena *a, rc_buf *scratch, rc_error *err)
{
    if (r->ncols != m->ncols)
        return rc_error_set(err, RC_ERR_SCHEMA, 0, "%s has %u columns, the TABLE_MAP of %.*s.%.*s %u", rc_my_event_name(r->type), r->ncols,
                            (int)m->db.n, m->db.p, (int)m->table.n, m->table.p, m->ncols);
    json_ref *bj = NULL;
    if (r->partial) {
        bj = rc_arena_alloc(a, (r->ncols ? r->ncols : 1) * sizeof *bj);
        if (!bj) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        memset(bj, 0, (r->ncols ? r->ncols : 1) * sizeof *bj);
    }
    rc_status st;
    if (r->present_before && (st = image(r, m, r->present_before, r->held_before, b, n, pos, before, bj, NULL, NULL, a, scratch, err)) != RC_OK) return st;
    bool *partial = NULL;
    if (r->partial) { /* value options; with PARTIAL_JSON, one bit per JSON column of the after image */
        uint64_t opts;
        if (!rc_my_packed(b, n, pos, &opts)) return rows_truncated(r->type, *pos, err);
        if (opts & 1) {
            uint32_t nj = 0;
            for (uint32_t c = 0; c < r->ncols; c++) nj += m->cols[c].type == RC_MY_JSON && bit(r->present_after, c);
            size_t nb = (nj + 7) / 8;
            if (n - *pos < nb) return rows_truncated(r->type, *pos, err);
            partial = rc_arena_alloc(a, r->ncols ? r->ncols : 1);
            if (!partial) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
            uint32_t k = 0;
            for (uint32_t c = 0; c < r->ncols; c++) {
                partial[c] = false;
                if (m->cols[c].type == RC_MY_JSON && bit(r->present_after, c)) partial[c] = bit(b + *pos, k++);
            }
            *pos += nb;
        }
    }
    if (r->present_after && (st = image(r, m, r->present_after, r->held_after, b, n, pos, after, NULL, partial, bj, a, scratch, err)) != RC_OK) return st;
    return RC_OK;
}
