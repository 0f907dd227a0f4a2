/* Catalog lookup and the parser of declared column types. */
#include <string.h>
#include <strings.h>
#include "rowcast/types.h"
#include "core/quoted.h"

static const char *const family_names[RC_FAM_COUNT] = {"mysql", "oracle", "postgresql"};
const char *rc_family_name(rc_family f) { return (unsigned)f < RC_FAM_COUNT ? family_names[f] : "?"; }

const rc_type_info *rc_type_lookup(rc_family fam, const char *name, size_t n)
{
    for (const rc_type_info *t = rc_type_catalog; t->name; t++)
        if (t->family == fam && strlen(t->name) == n && strncasecmp(t->name, name, n) == 0) return t;
    return NULL;
}

static bool is_word(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool word_is(const char *s, size_t n, const char *w) { return strlen(w) == n && strncasecmp(s, w, n) == 0; }

enum { BASE_MAX = 64 };

typedef struct tparser {
    const char *s;
    size_t n, i;
    rc_error *err;
} tparser;

static void skip_sp(tparser *tp)
{
    while (tp->i < tp->n && (tp->s[tp->i] == ' ' || tp->s[tp->i] == '\t')) tp->i++;
}

/* Reads one word; returns its length (0 if none). */
static size_t read_word(tparser *tp, const char **w)
{
    skip_sp(tp);
    size_t st = tp->i;
    while (tp->i < tp->n && is_word(tp->s[tp->i])) tp->i++;
    *w = tp->s + st;
    return tp->i - st;
}

/* Enum/set label list: everything up to the matching ')', honouring quotes. */
static rc_status read_labels(tparser *tp, rc_str *labels)
{
    size_t st = ++tp->i;
    char q = 0;
    for (; tp->i < tp->n; tp->i++) {
        char c = tp->s[tp->i];
        if (q) {
            if (c == q) {
                if (tp->i + 1 < tp->n && tp->s[tp->i + 1] == q) tp->i++;
                else q = 0;
            }
        } else if (c == '\'' || c == '"') {
            q = c;
        } else if (c == ')') {
            labels->p = tp->s + st;
            labels->n = tp->i - st;
            tp->i++;
            return RC_OK;
        }
    }
    return rc_error_set(tp->err, RC_ERR_TYPE, st - 1, "unterminated label list in type '%.*s'", (int)tp->n, tp->s);
}

/* "(p1[,p2])" */
static rc_status read_params(tparser *tp, int32_t *p1, int32_t *p2)
{
    size_t open = tp->i++;
    int32_t vals[2] = {-1, -1};
    int k = 0;
    for (;;) {
        skip_sp(tp);
        int64_t v = 0;
        size_t st = tp->i;
        while (tp->i < tp->n && tp->s[tp->i] >= '0' && tp->s[tp->i] <= '9') {
            v = v * 10 + (tp->s[tp->i++] - '0');
            if (v > 0x7fffffff) return rc_error_set(tp->err, RC_ERR_TYPE, st, "type parameter too large");
        }
        if (tp->i == st || k >= 2)
            return rc_error_set(tp->err, RC_ERR_TYPE, tp->i, "bad type parameters in '%.*s'", (int)tp->n, tp->s);
        vals[k++] = (int32_t)v;
        skip_sp(tp);
        if (tp->i < tp->n && tp->s[tp->i] == ',') {
            tp->i++;
            continue;
        }
        if (tp->i < tp->n && tp->s[tp->i] == ')') {
            tp->i++;
            break;
        }
        return rc_error_set(tp->err, RC_ERR_TYPE, tp->i < tp->n ? tp->i : open, "bad type parameters in '%.*s'", (int)tp->n, tp->s);
    }
    if (*p1 < 0) {
        *p1 = vals[0];
        if (vals[1] >= 0) *p2 = vals[1];
    } else {
        *p2 = vals[0]; /* interval day(2) to second(6): the second group is the scale */
    }
    return RC_OK;
}

/* MySQL's other spellings of its types (sql_yacc.yy's field_type and the lexer's synonyms:
 * SERIAL, FIXED, DEC, INT1..INT8, MIDDLEINT, FLOAT4/8, FLOAT(p), CHARACTER [VARYING], NATIONAL
 * CHAR/VARCHAR, NCHAR, NVARCHAR, LONG [VARCHAR|VARBINARY], a trailing BINARY/ASCII/UNICODE
 * charset shorthand) rewritten in base[0..blen) to the catalog row they declare; the
 * declaration text itself stays as given. Returns the new length. */
static size_t mysql_synonym(char *base, size_t blen, rc_coltype *out)
{
    static const char *const strip[] = {" binary", " ascii", " unicode"};
    for (size_t k = 0; k < sizeof strip / sizeof *strip; k++) {
        size_t sl = strlen(strip[k]);
        if (blen > sl && !memcmp(base + blen - sl, strip[k], sl)) {
            blen -= sl;
            break;
        }
    }
    static const struct {
        const char *from, *to;
    } syn[] = {
        {"serial", "bigint"},           {"fixed", "decimal"},          {"dec", "decimal"},
        {"int1", "tinyint"},            {"int2", "smallint"},          {"int3", "mediumint"},
        {"middleint", "mediumint"},     {"int4", "int"},               {"int8", "bigint"},
        {"float4", "float"},            {"float8", "double"},          {"character", "char"},
        {"char varying", "varchar"},    {"character varying", "varchar"}, {"nchar", "char"},
        {"national char", "char"},      {"national character", "char"}, {"nvarchar", "varchar"},
        {"national varchar", "varchar"}, {"nchar varchar", "varchar"}, {"nchar varying", "varchar"},
        {"national char varying", "varchar"}, {"national character varying", "varchar"},
        {"long", "mediumtext"},         {"long varchar", "mediumtext"}, {"long char varying", "mediumtext"},
        {"long character varying", "mediumtext"}, {"long varbinary", "mediumblob"},
    };
    const char *to = NULL;
    for (size_t k = 0; k < sizeof syn / sizeof *syn && !to; k++)
        if (strlen(syn[k].from) == blen && !memcmp(syn[k].from, base, blen)) to = syn[k].to;
    if (blen == 6 && !memcmp(base, "serial", 6)) out->is_unsigned = true; /* BIGINT UNSIGNED NOT NULL AUTO_INCREMENT UNIQUE */
    /* FLOAT(p): a float up to 24 bits of precision, a double from 25 to 53 (FLOAT(M,D) stays a float) */
    if (blen == 5 && !memcmp(base, "float", 5) && out->p1 > 24 && out->p2 < 0) to = "double";
    if (!to) return blen;
    memcpy(base, to, strlen(to));
    return strlen(to);
}

rc_status rc_coltype_parse(rc_family fam, const char *s, size_t n, rc_coltype *out, rc_error *err)
{
    tparser tp = {s, n, 0, err};
    char base[BASE_MAX + sizeof " unsigned"]; /* the name, and " unsigned" after it for the lookup */
    size_t blen = 0;
    memset(out, 0, sizeof *out);
    out->p1 = out->p2 = -1;
    out->decl.p = s;
    out->decl.n = n;
    bool array = false;
    for (;;) {
        skip_sp(&tp);
        if (tp.i >= n) break;
        char c = s[tp.i];
        if (c == '(') {
            rc_status st;
            bool is_enum = (blen == 4 && strncmp(base, "enum", 4) == 0) || (blen == 3 && strncmp(base, "set", 3) == 0);
            st = is_enum ? read_labels(&tp, &out->labels) : read_params(&tp, &out->p1, &out->p2);
            if (st != RC_OK) return st;
            continue;
        }
        if (c == '[' && tp.i + 1 < n && s[tp.i + 1] == ']') {
            array = true;
            tp.i += 2;
            continue;
        }
        const char *w;
        size_t at = tp.i, wl = read_word(&tp, &w);
        if (!wl) return rc_error_set(err, RC_ERR_TYPE, at, "unexpected character '%c' in type '%.*s'", c, (int)n, s);
        if (word_is(w, wl, "unsigned")) {
            out->is_unsigned = true;
        } else if (word_is(w, wl, "signed")) {
        } else if (word_is(w, wl, "zerofill")) {
            out->zerofill = true;
            out->is_unsigned = true;
        } else if (word_is(w, wl, "character") && blen && (tp.i < n)) {
            /* `character set X` after a base name; `character varying` is a base name */
            size_t save = tp.i;
            const char *w2;
            size_t l2 = read_word(&tp, &w2);
            if (word_is(w2, l2, "set")) {
                out->charset.n = read_word(&tp, &out->charset.p);
                if (!out->charset.n) return rc_error_set(err, RC_ERR_TYPE, tp.i, "charset name expected in type '%.*s'", (int)n, s);
            } else {
                tp.i = save;
                goto append;
            }
        } else if (word_is(w, wl, "charset")) {
            out->charset.n = read_word(&tp, &out->charset.p);
            if (!out->charset.n) return rc_error_set(err, RC_ERR_TYPE, tp.i, "charset name expected in type '%.*s'", (int)n, s);
        } else if (word_is(w, wl, "collate")) {
            const char *w2;
            if (!read_word(&tp, &w2)) return rc_error_set(err, RC_ERR_TYPE, tp.i, "collation name expected in type '%.*s'", (int)n, s);
        } else {
        append:
            if (blen + wl + 1 > BASE_MAX) return rc_error_set(err, RC_ERR_TYPE, at, "type name too long in '%.*s'", (int)n, s);
            if (blen) base[blen++] = ' ';
            for (size_t k = 0; k < wl; k++) {
                char ch = w[k];
                base[blen++] = (ch >= 'A' && ch <= 'Z') ? (char)(ch + 32) : ch;
            }
        }
    }
    if (!blen) return rc_error_set(err, RC_ERR_TYPE, 0, "empty column type");
    if (fam == RC_FAM_MYSQL && !array) blen = mysql_synonym(base, blen, out);
    const rc_type_info *info = NULL;
    if (array && fam == RC_FAM_PG) {
        info = rc_type_lookup(fam, "array", 5);
    } else if (!array) {
        if (out->is_unsigned) {
            memcpy(base + blen, " unsigned", 9);
            info = rc_type_lookup(fam, base, blen + 9);
        }
        if (!info) info = rc_type_lookup(fam, base, blen);
    }
    /* PostgreSQL: a type of one word no row has (an extension's, pg_lsn...) is its "unknown" row,
     * as the PostgreSQL source declares such columns */
    if (!info && fam == RC_FAM_PG && !array && !memchr(base, ' ', blen) && out->p1 < 0 && !out->labels.n)
        info = rc_type_lookup(fam, "unknown", 7);
    if (!info)
        return rc_error_set(err, RC_ERR_TYPE, 0, "unknown %s column type '%.*s'", rc_family_name(fam), (int)n, s);
    out->info = info;
    return RC_OK;
}

bool rc_coltype_label_next(const rc_coltype *t, size_t *pos, rc_str *label)
{
    const char *s = t->labels.p;
    size_t n = t->labels.n, i = *pos;
    while (i < n && (s[i] == ' ' || s[i] == ',')) i++;
    if (i >= n) return false;
    char q = s[i];
    if (q != '\'' && q != '"') return false;
    size_t st = ++i;
    i = rc_quoted_end(s, n, st, q, false);
    label->p = s + st;
    label->n = i - st;
    *pos = i + 1;
    return true;
}

bool rc_coltype_label(const rc_coltype *t, unsigned idx, rc_str *label)
{
    size_t pos = 0;
    for (unsigned k = 0; rc_coltype_label_next(t, &pos, label); k++)
        if (k == idx) return true;
    return false;
}
