/* Canal's binlog renderings of ENUM, SET and geometry values (see canal_values.h). */
#include <string.h>
#include "formats/canal_values.h"
#include "core/fmt.h"
#include "core/jsonw.h"
#include "core/vparse.h"
#include "core/wkb.h"

/* MySQL's SET has at most 64 members and an ENUM at most 65,535 */
enum { SET_MAX = 64 };

static bool all_digits(const char *s, size_t n)
{
    if (!n || n > 20) return false;
    for (size_t i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

static bool is_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* The quote of a label rc_coltype_label found: the byte before it in the declaration. */
static char label_quote(const rc_str *label) { return label->p[-1]; }

/* Appends the label without its doubled quotes ('it''s' is it's). */
static void put_label(rc_buf *b, rc_str label)
{
    char q = label_quote(&label);
    for (size_t i = 0; i < label.n; i++) {
        rc_buf_putc(b, label.p[i]);
        if (label.p[i] == q && i + 1 < label.n && label.p[i + 1] == q) i++;
    }
}

/* Whether label (doubled quotes as declared) is s[0..n). */
static bool label_is(rc_str label, const char *s, size_t n)
{
    char q = label_quote(&label);
    size_t k = 0;
    for (size_t i = 0; i < label.n; i++, k++) {
        if (k >= n || label.p[i] != s[k]) return false;
        if (label.p[i] == q && i + 1 < label.n && label.p[i + 1] == q) i++;
    }
    return k == n;
}

/* An index or bitmask that names no label: what it is and how Canal's numbers are read. */
static rc_status value_err(rc_error *err, const rc_column *col, const char *s, size_t n, bool set)
{
    unsigned count = 0;
    size_t pos = 0;
    rc_str label;
    while (rc_coltype_label_next(&col->type, &pos, &label)) count++;
    return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET,
                        "column \"%.*s\" (%.*s): \"%.*s\" %s the %s's %u labels (under sqlType %d a number is Canal's %s; "
                        "a label, or a number under another sqlType, is read as the label it is)",
                        (int)col->name.n, col->name.p, (int)col->type.decl.n, col->type.decl.p, (int)(n > 40 ? 40 : n), s,
                        set ? "sets a bit beyond" : "is beyond", set ? "SET" : "ENUM", count, col->type.info->canal_jdbc,
                        set ? "bitmask" : "1-based index");
}

static rc_status labels_value(const rc_column *col, bool set, const char *s, size_t n, rc_arena *a, rc_value *out, rc_error *err)
{
    uint64_t u;
    if (rc_parse_u64(s, n, &u) != RC_OK) return value_err(err, col, s, n, set);
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_status st = RC_OK;
    rc_str label;
    if (!set) { /* index 0 is MySQL's error value, the empty string */
        if (u && (u > UINT32_MAX || !rc_coltype_label(&col->type, (unsigned)(u - 1), &label)))
            st = value_err(err, col, s, n, false);
        else if (u)
            put_label(&b, label);
    } else {
        size_t pos = 0;
        unsigned i = 0;
        for (; i < SET_MAX && rc_coltype_label_next(&col->type, &pos, &label); i++) {
            if (!(u >> i & 1)) continue;
            if (b.len) rc_buf_putc(&b, ',');
            put_label(&b, label);
        }
        if (i < SET_MAX && u >> i) st = value_err(err, col, s, n, true); /* a bit beyond the last label */
    }
    if (st == RC_OK && b.err != RC_OK) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    if (st == RC_OK) {
        char *p = rc_arena_memdup(a, b.data ? b.data : "", b.len);
        if (!p) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        else out->kind = set ? RC_V_SET : RC_V_ENUM, out->s = (rc_str){p, b.len};
    }
    rc_buf_fini(&b);
    return st;
}

/* MySQL's geometry value; RC_SKIP when the text is not one (the value is then its text, as
 * every reader of a geometry column takes it) */
static rc_status geometry_value(const char *s, size_t n, rc_arena *a, rc_value *out, rc_error *err)
{
    rc_str raw;
    if (n < 9 || !rc_latin1_bytes(s, n, a, &raw) || raw.n < 9) return RC_SKIP;
    const unsigned char *p = (const unsigned char *)raw.p;
    int32_t srid = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_error werr;
    rc_error_clear(&werr);
    rc_status st = rc_wkb_to_wkt(p + 4, raw.n - 4, srid != 0, srid, &b, &werr);
    if (st != RC_OK) {
        st = st == RC_ERR_NOMEM ? rc_error_set(err, st, RC_NO_OFFSET, "out of memory") : RC_SKIP;
    } else {
        char *t = b.err == RC_OK ? rc_arena_memdup(a, b.data, b.len) : NULL;
        if (!t) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        else out->kind = RC_V_GEOMETRY, out->s = (rc_str){t, b.len};
    }
    rc_buf_fini(&b);
    return st;
}

rc_status rc_canal_binlog_value(const rc_column *col, int16_t code, const char *s, size_t n, rc_arena *a, rc_value *out, rc_error *err)
{
    const rc_type_info *t = col->type.info;
    switch (t->vkind) {
    case RC_V_ENUM:
    case RC_V_SET:
        if (t->family != RC_FAM_MYSQL || code != t->canal_jdbc || !all_digits(s, n)) return RC_SKIP;
        return labels_value(col, t->vkind == RC_V_SET, s, n, a, out, err);
    case RC_V_GEOMETRY:
        /* WKT starts with its type name (or SRID=); MySQL's value with the SRID's bytes */
        if (t->family != RC_FAM_MYSQL || (n && is_letter(s[0]))) return RC_SKIP;
        return geometry_value(s, n, a, out, err);
    default: return RC_SKIP;
    }
}

/* The index (ENUM) or bitmask (SET) of v among the column's labels; false when a label is
 * not among them. */
static bool labels_number(const rc_column *col, const rc_value *v, uint64_t *out)
{
    rc_str label;
    size_t pos = 0;
    if (v->kind == RC_V_ENUM) {
        if (!v->s.n) return *out = 0, true; /* MySQL's error value */
        for (unsigned i = 0; rc_coltype_label_next(&col->type, &pos, &label); i++)
            if (label_is(label, v->s.p, v->s.n)) return *out = i + 1, true;
        return false;
    }
    uint64_t mask = 0;
    for (size_t st = 0, i = 0; v->s.n && i <= v->s.n; i++) {
        if (i < v->s.n && v->s.p[i] != ',') continue;
        unsigned k = 0;
        bool found = false;
        for (pos = 0; k < SET_MAX && !found && rc_coltype_label_next(&col->type, &pos, &label); k++) found = label_is(label, v->s.p + st, i - st);
        if (!found) return false;
        mask |= 1ull << (k - 1);
        st = i + 1;
    }
    *out = mask;
    return true;
}

bool rc_canal_put_binlog_value(rc_buf *b, const rc_column *col, int16_t code, const rc_value *v, bool quoted, rc_buf *scratch)
{
    const rc_type_info *t = col->type.info;
    if (t->family != RC_FAM_MYSQL) return false;
    if ((v->kind == RC_V_ENUM || v->kind == RC_V_SET) && code == t->canal_jdbc) {
        uint64_t u;
        if (!labels_number(col, v, &u)) return false;
        if (quoted) rc_buf_putc(b, '"');
        rc_fmt_u64(b, u);
        if (quoted) rc_buf_putc(b, '"');
        return true;
    }
    if (v->kind != RC_V_GEOMETRY) return false;
    rc_buf_reset(scratch);
    RC_BUF_LIT(scratch, "\0\0\0\0"); /* the SRID, filled in below */
    rc_wkb_info info;
    rc_error werr;
    if (rc_wkt_to_wkb(v->s.p, v->s.n, scratch, &info, &werr) != RC_OK || scratch->err != RC_OK) return false;
    uint32_t srid = info.has_srid ? (uint32_t)info.srid : 0;
    for (int i = 0; i < 4; i++) scratch->data[i] = (char)(srid >> (8 * i));
    rc_jw_latin1(b, (const unsigned char *)scratch->data, scratch->len);
    return true;
}
