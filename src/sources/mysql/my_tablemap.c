/* TABLE_MAP events (my_tablemap.h): the fixed part (ids, names, types, metadata bytes, NULL
 * bitmap), then the optional metadata of binlog_row_metadata (MySQL 8.0+, MariaDB 10.5+), then
 * what the schema history adds. The metadata fields that list "character" / "numeric" /
 * "enum or set" columns count only the columns of that kind, in column order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "my_tablemap.h"
#include "my_value.h"

enum {
    OPT_SIGNEDNESS = 1,
    OPT_DEFAULT_CHARSET,
    OPT_COLUMN_CHARSET,
    OPT_COLUMN_NAME,
    OPT_SET_STR_VALUE,
    OPT_ENUM_STR_VALUE,
    OPT_GEOMETRY_TYPE,
    OPT_SIMPLE_PRIMARY_KEY,
    OPT_PRIMARY_KEY_WITH_PREFIX,
    OPT_ENUM_AND_SET_DEFAULT_CHARSET,
    OPT_ENUM_AND_SET_COLUMN_CHARSET,
    OPT_COLUMN_VISIBILITY,
    OPT_VECTOR_DIMENSIONALITY,
};

uint64_t rc_my_table_id(const rc_my_fde *f, uint8_t type, const uint8_t *b)
{
    return rc_my_le(b, f->post_len[type] == 6 ? 4 : 6);
}

void rc_my_tablemap_free(rc_my_tablemap *m)
{
    if (!m) return;
    rc_arena_fini(&m->arena);
    free(m);
}

static rc_status tm_truncated(rc_error *err, size_t at)
{
    return rc_error_set(err, RC_ERR_VALUE, at, "TABLE_MAP_EVENT truncated at byte %zu of its body", at);
}

/* The bytes of metadata each type has in the TABLE_MAP (my_types.h says what they mean). */
static int meta_size(uint8_t t)
{
    switch (t) {
    case RC_MY_FLOAT: case RC_MY_DOUBLE: case RC_MY_BLOB: case RC_MY_TINY_BLOB: case RC_MY_MEDIUM_BLOB: case RC_MY_LONG_BLOB:
    case RC_MY_GEOMETRY: case RC_MY_JSON: case RC_MY_VECTOR: case RC_MY_TIME2: case RC_MY_DATETIME2: case RC_MY_TIMESTAMP2:
        return 1;
    case RC_MY_VARCHAR: case RC_MY_VAR_STRING: case RC_MY_BIT: case RC_MY_NEWDECIMAL: case RC_MY_STRING: case RC_MY_ENUM:
    case RC_MY_SET:
        return 2;
    default:
        return 0;
    }
}

static bool is_numeric(uint8_t t)
{
    switch (t) {
    case RC_MY_TINY: case RC_MY_SHORT: case RC_MY_INT24: case RC_MY_LONG: case RC_MY_LONGLONG: case RC_MY_NEWDECIMAL:
    case RC_MY_DECIMAL: case RC_MY_FLOAT: case RC_MY_DOUBLE: case RC_MY_YEAR:
        return true;
    default:
        return false;
    }
}

static bool is_character(uint8_t t, bool mariadb)
{
    return t == RC_MY_STRING || t == RC_MY_VAR_STRING || t == RC_MY_VARCHAR || t == RC_MY_BLOB || (mariadb && t == RC_MY_GEOMETRY);
}

static bool is_enum_set(uint8_t t) { return t == RC_MY_ENUM || t == RC_MY_SET; }

/* A (MSB-first) bitmap field: one bit per column for which `want` holds (every column when
 * NULL), into flags_out[column] or, when NULL, the columns' signedness. */
static void read_bits(const uint8_t *v, size_t vn, rc_my_tablemap *m, bool (*want)(uint8_t), bool *flags_out)
{
    size_t k = 0;
    for (uint32_t i = 0; i < m->ncols; i++) {
        if (want && !want(m->cols[i].type)) continue;
        bool bit = k / 8 < vn && (v[k / 8] >> (7 - k % 8)) & 1;
        if (flags_out) flags_out[i] = bit;
        else m->cols[i].is_unsigned = bit;
        k++;
    }
}

/* DEFAULT_CHARSET / ENUM_AND_SET_DEFAULT_CHARSET: a default collation, then (index among the
 * listed columns, collation) for those that differ. */
static bool read_default_charset(const uint8_t *v, size_t vn, rc_my_tablemap *m, bool mariadb, bool enum_set)
{
    size_t i = 0;
    uint64_t dflt, idx, coll;
    if (!rc_my_packed(v, vn, &i, &dflt)) return false;
    uint32_t k = 0;
    for (uint32_t c = 0; c < m->ncols; c++) {
        bool listed = enum_set ? is_enum_set(m->cols[c].type) : is_character(m->cols[c].type, mariadb);
        if (!listed) continue;
        if (enum_set) m->enum_set_collation[c] = (uint16_t)dflt;
        else m->cols[c].collation = (uint16_t)dflt;
        k++;
    }
    while (i < vn) {
        if (!rc_my_packed(v, vn, &i, &idx) || !rc_my_packed(v, vn, &i, &coll)) return false;
        k = 0;
        for (uint32_t c = 0; c < m->ncols; c++) {
            bool listed = enum_set ? is_enum_set(m->cols[c].type) : is_character(m->cols[c].type, mariadb);
            if (!listed) continue;
            if (k++ != idx) continue;
            if (enum_set) m->enum_set_collation[c] = (uint16_t)coll;
            else m->cols[c].collation = (uint16_t)coll;
            break;
        }
    }
    return true;
}

/* COLUMN_CHARSET / ENUM_AND_SET_COLUMN_CHARSET / GEOMETRY_TYPE / VECTOR_DIMENSIONALITY: one
 * packed number per listed column. */
static bool read_per_column(const uint8_t *v, size_t vn, rc_my_tablemap *m, int field, bool mariadb)
{
    size_t i = 0;
    for (uint32_t c = 0; c < m->ncols; c++) {
        uint8_t t = m->cols[c].type;
        bool listed = field == OPT_COLUMN_CHARSET ? is_character(t, mariadb)
                      : field == OPT_ENUM_AND_SET_COLUMN_CHARSET ? is_enum_set(t)
                      : field == OPT_GEOMETRY_TYPE ? t == RC_MY_GEOMETRY
                                                   : t == RC_MY_VECTOR;
        if (!listed) continue;
        uint64_t x;
        if (!rc_my_packed(v, vn, &i, &x)) return false;
        if (field == OPT_COLUMN_CHARSET) m->cols[c].collation = (uint16_t)x;
        else if (field == OPT_ENUM_AND_SET_COLUMN_CHARSET) m->enum_set_collation[c] = (uint16_t)x;
        else if (field == OPT_GEOMETRY_TYPE) m->geometry_type[c] = (uint8_t)x;
        else m->cols[c].vector_dim = (uint32_t)x;
    }
    return true;
}

static bool read_str(rc_my_tablemap *m, const uint8_t *v, size_t vn, size_t *i, rc_str *out)
{
    uint64_t len;
    if (!rc_my_packed(v, vn, i, &len) || vn - *i < len) return false;
    char *s = rc_arena_memdup(&m->arena, v + *i, (size_t)len);
    if (!s) return false;
    *out = (rc_str){s, (size_t)len};
    *i += len;
    return true;
}

static bool read_names(const uint8_t *v, size_t vn, rc_my_tablemap *m)
{
    size_t i = 0;
    for (uint32_t c = 0; c < m->ncols; c++)
        if (!read_str(m, v, vn, &i, &m->cols[c].name)) return false;
    return true;
}

static bool read_labels(const uint8_t *v, size_t vn, rc_my_tablemap *m, uint8_t type)
{
    size_t i = 0;
    for (uint32_t c = 0; c < m->ncols; c++) {
        if (m->cols[c].type != type) continue;
        uint64_t cnt;
        if (!rc_my_packed(v, vn, &i, &cnt) || cnt > vn) return false;
        rc_str *l = rc_arena_alloc(&m->arena, (cnt ? cnt : 1) * sizeof *l);
        if (!l) return false;
        for (uint64_t k = 0; k < cnt; k++)
            if (!read_str(m, v, vn, &i, &l[k])) return false;
        m->cols[c].labels = l, m->cols[c].nlabels = (uint32_t)cnt;
    }
    return true;
}

static bool read_pk(const uint8_t *v, size_t vn, rc_my_tablemap *m, bool with_prefix)
{
    size_t i = 0;
    uint32_t cap = (uint32_t)(vn + 1);
    m->pk = rc_arena_alloc(&m->arena, cap * sizeof *m->pk);
    m->pk_prefix = rc_arena_alloc(&m->arena, cap * sizeof *m->pk_prefix);
    if (!m->pk || !m->pk_prefix) return false;
    m->npk = 0;
    while (i < vn) {
        uint64_t col, prefix = 0;
        if (!rc_my_packed(v, vn, &i, &col) || col >= m->ncols) return false;
        if (with_prefix && !rc_my_packed(v, vn, &i, &prefix)) return false;
        m->pk[m->npk] = (uint32_t)col, m->pk_prefix[m->npk] = (uint32_t)prefix;
        m->npk++;
    }
    return true;
}

static rc_status read_optional(rc_my_tablemap *m, const uint8_t *b, size_t n, size_t i, bool mariadb, rc_error *err)
{
    while (i < n) {
        size_t at = i;
        uint8_t field = b[i++];
        uint64_t len;
        if (!rc_my_packed(b, n, &i, &len) || n - i < len) return tm_truncated(err, at);
        const uint8_t *v = b + i;
        size_t vn = (size_t)len;
        bool ok = true;
        switch (field) {
        case OPT_SIGNEDNESS: read_bits(v, vn, m, is_numeric, NULL), m->has_signedness = true; break;
        case OPT_DEFAULT_CHARSET: ok = read_default_charset(v, vn, m, mariadb, false), m->has_charsets = true; break;
        case OPT_ENUM_AND_SET_DEFAULT_CHARSET: ok = read_default_charset(v, vn, m, mariadb, true); break;
        case OPT_COLUMN_CHARSET: case OPT_ENUM_AND_SET_COLUMN_CHARSET: case OPT_GEOMETRY_TYPE: case OPT_VECTOR_DIMENSIONALITY:
            ok = read_per_column(v, vn, m, field, mariadb);
            if (field == OPT_COLUMN_CHARSET) m->has_charsets = true;
            if (field == OPT_GEOMETRY_TYPE) m->has_geometry = true;
            break;
        case OPT_COLUMN_NAME: ok = read_names(v, vn, m), m->has_names = true; break;
        case OPT_SET_STR_VALUE: ok = read_labels(v, vn, m, RC_MY_SET), m->has_set_labels = true; break;
        case OPT_ENUM_STR_VALUE: ok = read_labels(v, vn, m, RC_MY_ENUM), m->has_enum_labels = true; break;
        case OPT_SIMPLE_PRIMARY_KEY: case OPT_PRIMARY_KEY_WITH_PREFIX:
            ok = read_pk(v, vn, m, field == OPT_PRIMARY_KEY_WITH_PREFIX), m->has_pk = true;
            break;
        case OPT_COLUMN_VISIBILITY: read_bits(v, vn, m, NULL, m->visible), m->has_visibility = true; break;
        default: break; /* a field of a newer server: skipped by its length */
        }
        if (!ok) return rc_error_set(err, RC_ERR_VALUE, at, "TABLE_MAP_EVENT optional metadata field %u at byte %zu is malformed", field, at);
        i += vn;
    }
    return RC_OK;
}

rc_status rc_my_tablemap_parse(const rc_my_fde *f, bool mariadb, const uint8_t *b, size_t n, rc_my_tablemap **out, rc_error *err)
{
    *out = NULL;
    size_t post = f->post_len[RC_MYEV_TABLE_MAP] ? f->post_len[RC_MYEV_TABLE_MAP] : 8;
    if (n < post + 2 || post < 6) return tm_truncated(err, n);
    rc_my_tablemap *m = calloc(1, sizeof *m);
    if (!m) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    rc_arena_init(&m->arena);
    rc_status st = RC_OK;
    m->table_id = rc_my_table_id(f, RC_MYEV_TABLE_MAP, b);
    m->flags = (uint16_t)rc_my_le(b + post - 2, 2);
    size_t i = post;
    size_t dl = b[i++];
    if (n - i < dl + 2) goto truncated;
    m->db = (rc_str){rc_arena_memdup(&m->arena, b + i, dl), dl};
    i += dl + 1;
    size_t tl = b[i++];
    if (n - i < tl + 1) goto truncated;
    m->table = (rc_str){rc_arena_memdup(&m->arena, b + i, tl), tl};
    i += tl + 1;
    uint64_t nc, ml;
    if (!rc_my_packed(b, n, &i, &nc) || n - i < nc) goto truncated;
    m->ncols = (uint32_t)nc;
    size_t cn = nc ? (size_t)nc : 1;
    m->cols = rc_arena_alloc(&m->arena, cn * sizeof *m->cols);
    m->visible = rc_arena_alloc(&m->arena, cn * sizeof *m->visible);
    m->geometry_type = rc_arena_alloc(&m->arena, cn);
    m->enum_set_collation = rc_arena_alloc(&m->arena, cn * sizeof *m->enum_set_collation);
    if (!m->cols || !m->visible || !m->geometry_type || !m->enum_set_collation || !m->db.p || !m->table.p) {
        rc_my_tablemap_free(m);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    memset(m->cols, 0, cn * sizeof *m->cols);
    memset(m->geometry_type, 0, cn);
    memset(m->enum_set_collation, 0, cn * sizeof *m->enum_set_collation);
    for (uint32_t c = 0; c < m->ncols; c++) m->cols[c].type = b[i + c], m->visible[c] = true;
    i += m->ncols;
    if (!rc_my_packed(b, n, &i, &ml) || n - i < ml) goto truncated;
    size_t mend = i + (size_t)ml;
    for (uint32_t c = 0; c < m->ncols; c++) {
        rc_my_col *col = &m->cols[c];
        int sz = meta_size(col->type);
        if (mend - i < (size_t)sz) goto truncated;
        if (sz == 1) col->meta = b[i];
        else if (sz == 2 && (col->type == RC_MY_VARCHAR || col->type == RC_MY_VAR_STRING || col->type == RC_MY_BIT))
            col->meta = (uint16_t)rc_my_le(b + i, 2);
        else if (sz == 2) col->meta = (uint16_t)(b[i] << 8 | b[i + 1]);
        i += (size_t)sz;
        if (col->type == RC_MY_STRING) { /* ENUM and SET are written as STRING, the real type in the metadata */
            uint8_t real = (uint8_t)(col->meta >> 8);
            if ((real & 0x30) != 0x30) real |= 0x30;
            if (real == RC_MY_ENUM || real == RC_MY_SET) col->type = real;
        }
    }
    i = mend;
    size_t nb = (m->ncols + 7) / 8;
    if (n - i < nb) goto truncated;
    for (uint32_t c = 0; c < m->ncols; c++) m->cols[c].nullable = (b[i + c / 8] >> (c % 8)) & 1;
    i += nb;
    if ((st = read_optional(m, b, n, i, mariadb, err)) != RC_OK) {
        rc_my_tablemap_free(m);
        return st;
    }
    *out = m;
    return RC_OK;
truncated:
    rc_my_tablemap_free(m);
    return tm_truncated(err, i > n ? n : i);
}

/* --- the schema history --- */

/* "(LONG, VARCHAR)" and "(id int, name varchar(20))", cut visibly when long. */
static void describe(const rc_my_tablemap *m, const rc_my_table *t, char *bin, size_t bn, char *hist, size_t hn)
{
    size_t k = 0;
    k += (size_t)snprintf(bin + k, bn - k, "(");
    for (uint32_t c = 0; c < m->ncols && k < bn; c++) k += (size_t)snprintf(bin + k, bn - k, "%s%s", c ? ", " : "", rc_my_type_name(m->cols[c].type));
    if (k < bn) snprintf(bin + k, bn - k, ")");
    k = (size_t)snprintf(hist, hn, "(");
    for (uint32_t c = 0; c < t->ncols && k < hn; c++)
        k += (size_t)snprintf(hist + k, hn - k, "%s%.*s %.*s", c ? ", " : "", (int)t->cols[c].name.n, t->cols[c].name.p,
                              (int)t->cols[c].type.decl.n, t->cols[c].type.decl.p);
    if (k < hn) snprintf(hist + k, hn - k, ")");
    if (strlen(bin) >= bn - 1) memcpy(bin + bn - 4, "...", 4);
    if (strlen(hist) >= hn - 1) memcpy(hist + hn - 4, "...", 4);
}

/* The labels of an enum/set declaration, '' unescaped, into the map's arena. */
static bool labels_from_decl(rc_my_tablemap *m, rc_my_col *col, const rc_coltype *d)
{
    rc_str l;
    uint32_t cnt = 0;
    while (rc_coltype_label(d, cnt, &l)) cnt++;
    rc_str *out = rc_arena_alloc(&m->arena, (cnt ? cnt : 1) * sizeof *out);
    if (!out) return false;
    for (uint32_t k = 0; k < cnt; k++) {
        rc_coltype_label(d, k, &l);
        char *s = rc_arena_alloc(&m->arena, l.n + 1);
        if (!s) return false;
        size_t w = 0;
        for (size_t r = 0; r < l.n; r++) {
            s[w++] = l.p[r];
            if (l.p[r] == '\'' && r + 1 < l.n && l.p[r + 1] == '\'') r++;
        }
        out[k] = (rc_str){s, w};
    }
    col->labels = out, col->nlabels = cnt;
    return true;
}

rc_status rc_my_tablemap_complete(rc_my_tablemap *m, const rc_my_table *t, rc_error *err)
{
    bool ok = t->ncols == m->ncols;
    uint32_t bad = 0;
    for (uint32_t c = 0; ok && c < m->ncols; c++)
        if (!rc_my_type_matches(&t->cols[c].type, m->cols[c].type)) ok = false, bad = c;
    if (!ok) {
        char bin[200], hist[260];
        describe(m, t, bin, sizeof bin, hist, sizeof hist);
        if (t->ncols != m->ncols)
            return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "TABLE_MAP of %.*s.%.*s has %u columns %s, the schema history %u %s: the "
                                "history is not the table's structure at this position (a DDL it missed?)", (int)m->db.n, m->db.p,
                                (int)m->table.n, m->table.p, m->ncols, bin, t->ncols, hist);
        return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "TABLE_MAP of %.*s.%.*s: column %u (%.*s) is %s in the binlog but %.*s in "
                            "the schema history; binlog %s, history %s", (int)m->db.n, m->db.p, (int)m->table.n, m->table.p, bad + 1,
                            (int)t->cols[bad].name.n, t->cols[bad].name.p, rc_my_type_name(m->cols[bad].type), (int)t->cols[bad].type.decl.n,
                            t->cols[bad].type.decl.p, bin, hist);
    }
    for (uint32_t c = 0; c < m->ncols; c++) {
        rc_my_col *col = &m->cols[c];
        const rc_my_table_col *h = &t->cols[c];
        col->decl = &h->type;
        col->dflt = h->dflt, col->has_dflt = h->has_dflt;
        if (!m->has_names) col->name = h->name;
        if (!m->has_signedness) col->is_unsigned = h->type.is_unsigned;
        if (!col->collation) col->collation = h->collation;
        if (is_enum_set(col->type) && !col->nlabels && !labels_from_decl(m, col, &h->type))
            return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    if (!m->has_pk) {
        m->npk = 0;
        uint32_t cnt = 0;
        for (uint32_t c = 0; c < t->ncols; c++) cnt += t->cols[c].pk != 0;
        if (cnt) {
            m->pk = rc_arena_alloc(&m->arena, cnt * sizeof *m->pk);
            m->pk_prefix = rc_arena_alloc(&m->arena, cnt * sizeof *m->pk_prefix);
            if (!m->pk || !m->pk_prefix) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
            for (uint32_t c = 0; c < t->ncols; c++)
                if (t->cols[c].pk && t->cols[c].pk <= cnt) m->pk[t->cols[c].pk - 1] = c, m->pk_prefix[t->cols[c].pk - 1] = 0;
            m->npk = cnt;
        }
    }
    return RC_OK;
}
