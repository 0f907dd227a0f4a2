/* PostgreSQL types and value texts -> canonical types and values (see pg_value.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/fmt.h"
#include "rowcast/jsonw.h"
#include "rowcast/vparse.h"
#include "sources/pg/pg_value.h"

/* ---- built-in types ---- */

/* How a type's typmod shows in its declaration (format_type() in PostgreSQL's
 * src/backend/utils/adt/format_type.c). */
typedef enum {
    TM_NONE = 0,
    TM_NUMERIC,  /* ((p << 16) | s) + 4: "numeric(p,s)" */
    TM_CHARLEN,  /* n + 4: "character varying(n)" */
    TM_BITLEN,   /* n: "bit(n)" */
    TM_TIMEPREC, /* p: "time(p) without time zone" (the precision goes after the first word) */
    TM_INTERVAL, /* (fields << 16) | p: "interval day to second(3)" */
} typmod_as;

typedef struct builtin {
    uint32_t oid, array_oid; /* pg_type.oid and typarray (PostgreSQL 15's pg_type.dat) */
    const char *decl;        /* format_type() without typmod */
    uint8_t reader;          /* rc_pg_reader */
    uint8_t typmod;          /* typmod_as */
} builtin;

#define B(oid, arr, decl, rd, tm) {oid, arr, decl, RC_PG_R_##rd, TM_##tm}
static const builtin builtins[] = {
    B(16, 1000, "boolean", BOOL, NONE),
    B(17, 1001, "bytea", BYTEA, NONE),
    B(19, 1003, "name", TEXT, NONE),
    B(20, 1016, "bigint", INT, NONE),
    B(21, 1005, "smallint", INT, NONE),
    B(23, 1007, "integer", INT, NONE),
    B(25, 1009, "text", TEXT, NONE),
    B(26, 1028, "oid", INT, NONE),
    B(114, 199, "json", JSON, NONE),
    B(142, 143, "xml", TEXT, NONE),
    B(600, 1017, "point", TEXT, NONE),
    B(601, 1018, "lseg", TEXT, NONE),
    B(602, 1019, "path", TEXT, NONE),
    B(603, 1020, "box", TEXT, NONE),
    B(604, 1027, "polygon", TEXT, NONE),
    B(628, 629, "line", TEXT, NONE),
    B(650, 651, "cidr", TEXT, NONE),
    B(700, 1021, "real", FLOAT4, NONE),
    B(701, 1022, "double precision", FLOAT8, NONE),
    B(718, 719, "circle", TEXT, NONE),
    B(774, 775, "macaddr8", TEXT, NONE),
    B(790, 791, "money", TEXT, NONE),
    B(829, 1040, "macaddr", TEXT, NONE),
    B(869, 1041, "inet", TEXT, NONE),
    B(1042, 1014, "character", TEXT, CHARLEN),
    B(1043, 1015, "character varying", TEXT, CHARLEN),
    B(1082, 1182, "date", DATE, NONE),
    B(1083, 1183, "time without time zone", TIME, TIMEPREC),
    B(1114, 1115, "timestamp without time zone", TIMESTAMP, TIMEPREC),
    B(1184, 1185, "timestamp with time zone", TIMESTAMPTZ, TIMEPREC),
    B(1186, 1187, "interval", INTERVAL, INTERVAL),
    B(1266, 1270, "time with time zone", TIMETZ, TIMEPREC),
    B(1560, 1561, "bit", BITS, BITLEN),
    B(1562, 1563, "bit varying", BITS, BITLEN),
    B(1700, 1231, "numeric", NUMERIC, NUMERIC),
    B(2950, 2951, "uuid", UUID, NONE),
    B(3614, 3643, "tsvector", TEXT, NONE),
    B(3615, 3645, "tsquery", TEXT, NONE),
    B(3802, 3807, "jsonb", JSON, NONE),
    B(3904, 3905, "int4range", TEXT, NONE),
    B(3906, 3907, "numrange", TEXT, NONE),
    B(3908, 3909, "tsrange", TEXT, NONE),
    B(3910, 3911, "tstzrange", TEXT, NONE),
    B(3912, 3913, "daterange", TEXT, NONE),
    B(3926, 3927, "int8range", TEXT, NONE),
    B(4451, 6150, "int4multirange", TEXT, NONE),
    B(4532, 6151, "nummultirange", TEXT, NONE),
    B(4533, 6152, "tsmultirange", TEXT, NONE),
    B(4534, 6153, "tstzmultirange", TEXT, NONE),
    B(4535, 6155, "datemultirange", TEXT, NONE),
    B(4536, 6157, "int8multirange", TEXT, NONE),
};
#undef B
#define NBUILTINS (sizeof builtins / sizeof builtins[0])

enum { BOX_OID = 603 }; /* the one built-in type whose arrays use ';' between elements */

static const builtin *builtin_of(uint32_t oid, bool *is_array)
{
    for (size_t i = 0; i < NBUILTINS; i++) {
        if (builtins[i].oid == oid) return *is_array = false, &builtins[i];
        if (builtins[i].array_oid == oid) return *is_array = true, &builtins[i];
    }
    return NULL;
}

/* ---- the registry of enum, domain and array types ---- */

typedef enum { REG_ENUM, REG_DOMAIN, REG_ARRAY } reg_kind;

typedef struct reg_entry {
    uint32_t oid, ref; /* domain: base type; array: element type */
    int32_t typmod;    /* domain: the base type's typmod */
    reg_kind kind;
    char *decl;        /* enum: "enum('a','b')" (malloc) */
} reg_entry;

struct rc_pg_types {
    reg_entry *e;
    size_t n, cap;
};

rc_pg_types *rc_pg_types_new(void) { return calloc(1, sizeof(rc_pg_types)); }

void rc_pg_types_free(rc_pg_types *r)
{
    if (!r) return;
    for (size_t i = 0; i < r->n; i++) free(r->e[i].decl);
    free(r->e);
    free(r);
}

static reg_entry *reg_find(const rc_pg_types *r, uint32_t oid)
{
    for (size_t i = 0; r && i < r->n; i++)
        if (r->e[i].oid == oid) return &r->e[i];
    return NULL;
}

void rc_pg_types_forget(rc_pg_types *r, uint32_t oid)
{
    reg_entry *e = reg_find(r, oid);
    if (!e) return;
    free(e->decl);
    *e = r->e[--r->n];
}

static rc_status reg_put(rc_pg_types *r, reg_entry ne, rc_error *err)
{
    rc_pg_types_forget(r, ne.oid);
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 16;
        reg_entry *p = realloc(r->e, cap * sizeof *p);
        if (!p) {
            free(ne.decl);
            return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory registering PostgreSQL type %u", ne.oid);
        }
        r->e = p, r->cap = cap;
    }
    r->e[r->n++] = ne;
    return RC_OK;
}

rc_status rc_pg_types_add_enum(rc_pg_types *r, uint32_t oid, uint32_t nlabels, const char *const *labels, const size_t *label_len,
                               rc_error *err)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    RC_BUF_LIT(&b, "enum(");
    for (uint32_t i = 0; i < nlabels; i++) {
        if (i) rc_buf_putc(&b, ',');
        rc_buf_putc(&b, '\'');
        for (size_t k = 0; k < label_len[i]; k++) { /* a quote inside a label is doubled, as in SQL */
            if (labels[i][k] == '\'') rc_buf_putc(&b, '\'');
            rc_buf_putc(&b, labels[i][k]);
        }
        rc_buf_putc(&b, '\'');
    }
    RC_BUF_LIT(&b, ")");
    rc_buf_putc(&b, '\0');
    if (b.err != RC_OK) {
        rc_buf_fini(&b);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory registering PostgreSQL enum type %u", oid);
    }
    return reg_put(r, (reg_entry){.oid = oid, .kind = REG_ENUM, .decl = b.data}, err);
}

rc_status rc_pg_types_add_domain(rc_pg_types *r, uint32_t oid, uint32_t base_oid, int32_t base_typmod, rc_error *err)
{
    return reg_put(r, (reg_entry){.oid = oid, .ref = base_oid, .typmod = base_typmod, .kind = REG_DOMAIN}, err);
}

rc_status rc_pg_types_add_array(rc_pg_types *r, uint32_t oid, uint32_t elem_oid, rc_error *err)
{
    return reg_put(r, (reg_entry){.oid = oid, .ref = elem_oid, .kind = REG_ARRAY}, err);
}

/* ---- declarations ---- */

/* format_type()'s interval fields (INTERVAL_MASK bits of PostgreSQL's datetime.h: MONTH 1,
 * YEAR 2, DAY 3, HOUR 10, MINUTE 11, SECOND 12). */
static const char *interval_fields(int32_t range)
{
    enum { MO = 1 << 1, Y = 1 << 2, D = 1 << 3, H = 1 << 10, MI = 1 << 11, S = 1 << 12 };
    switch (range) {
    case Y: return " year";
    case MO: return " month";
    case D: return " day";
    case H: return " hour";
    case MI: return " minute";
    case S: return " second";
    case Y | MO: return " year to month";
    case D | H: return " day to hour";
    case D | H | MI: return " day to minute";
    case D | H | MI | S: return " day to second";
    case H | MI: return " hour to minute";
    case H | MI | S: return " hour to second";
    case MI | S: return " minute to second";
    case 0x7FFF: return ""; /* INTERVAL_FULL_RANGE */
    default: return NULL;
    }
}

/* Appends the declaration of a built-in type with its typmod; false when the typmod is not
 * one PostgreSQL writes. */
static bool put_decl(rc_buf *b, const builtin *t, int32_t typmod)
{
    if (typmod < 0) {
        /* bpchar without a length is a column of type "bpchar" as PostgreSQL prints it */
        rc_buf_puts(b, t->typmod == TM_CHARLEN && t->oid == 1042 ? "bpchar" : t->decl);
        return true;
    }
    char par[32];
    switch ((typmod_as)t->typmod) {
    case TM_NONE: rc_buf_puts(b, t->decl); return true;
    case TM_NUMERIC: {
        if (typmod < 4) return false;
        int32_t p = ((typmod - 4) >> 16) & 0xFFFF, s = (((typmod - 4) & 0x7FF) ^ 1024) - 1024; /* PG 15: s may be negative */
        if (s < 0) return false; /* numeric(p,-s): not a declaration rc_coltype_parse reads (yet) */
        snprintf(par, sizeof par, "(%d,%d)", (int)p, (int)s);
        break;
    }
    case TM_CHARLEN:
        if (typmod < 4) return false;
        snprintf(par, sizeof par, "(%d)", (int)(typmod - 4));
        break;
    case TM_BITLEN: snprintf(par, sizeof par, "(%d)", (int)typmod); break;
    case TM_TIMEPREC: {
        const char *sp = strchr(t->decl, ' ');
        rc_buf_put(b, t->decl, (size_t)(sp - t->decl));
        snprintf(par, sizeof par, "(%d)", (int)typmod);
        rc_buf_puts(b, par);
        rc_buf_puts(b, sp);
        return true;
    }
    case TM_INTERVAL: {
        const char *f = interval_fields((typmod >> 16) & 0x7FFF);
        int32_t prec = typmod & 0xFFFF;
        if (!f) return false;
        rc_buf_puts(b, t->decl);
        rc_buf_puts(b, f);
        if (prec != 0xFFFF) { /* INTERVAL_FULL_PRECISION: none given */
            snprintf(par, sizeof par, "(%d)", (int)prec);
            rc_buf_puts(b, par);
        }
        return true;
    }
    }
    rc_buf_puts(b, t->decl);
    rc_buf_puts(b, par);
    return true;
}

enum { MAX_DEPTH = 8 }; /* domains over domains over arrays... */

typedef struct resolving {
    const builtin *bt; /* the base built-in type, or NULL for an enum */
    const char *enum_decl;
    int32_t typmod;
    bool array;
} resolving;

static rc_status resolve_oid(const rc_pg_types *reg, uint32_t oid, int32_t typmod, int depth, resolving *out, rc_error *err)
{
    if (depth > MAX_DEPTH) return rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET, "PostgreSQL type %u: domains nested too deep", oid);
    bool is_array;
    const builtin *bt = builtin_of(oid, &is_array);
    if (bt) {
        if (is_array && out->array)
            return rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET, "PostgreSQL type %u: an array of arrays", oid);
        out->bt = bt, out->typmod = typmod, out->array |= is_array;
        return RC_OK;
    }
    const reg_entry *e = reg_find(reg, oid);
    if (!e)
        return rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET,
                            "PostgreSQL type %u is neither built in nor a registered enum, domain or array type "
                            "(extension types such as hstore or citext are not supported yet)",
                            oid);
    switch (e->kind) {
    case REG_ENUM: out->enum_decl = e->decl, out->typmod = -1; return RC_OK;
    case REG_DOMAIN: return resolve_oid(reg, e->ref, typmod >= 0 ? typmod : e->typmod, depth + 1, out, err);
    case REG_ARRAY:
        if (out->array) return rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET, "PostgreSQL type %u: an array of arrays", oid);
        out->array = true;
        return resolve_oid(reg, e->ref, typmod, depth + 1, out, err);
    }
    return RC_ERR_TYPE;
}

rc_status rc_pg_type_resolve(const rc_pg_types *reg, uint32_t oid, int32_t typmod, rc_arena *a, rc_pg_type *out, rc_error *err)
{
    memset(out, 0, sizeof *out);
    resolving r = {0};
    rc_status st = resolve_oid(reg, oid, typmod, 0, &r, err);
    if (st != RC_OK) return st;
    rc_buf b;
    rc_buf_init(&b, 0);
    if (r.enum_decl) rc_buf_puts(&b, r.enum_decl);
    else if (!put_decl(&b, r.bt, r.typmod)) {
        rc_buf_fini(&b);
        return rc_error_set(err, RC_ERR_TYPE, RC_NO_OFFSET, "PostgreSQL type %u (%s): typmod %d is not supported", oid, r.bt->decl,
                            (int)r.typmod);
    }
    if (r.array) RC_BUF_LIT(&b, "[]");
    char *decl = b.err == RC_OK ? rc_arena_memdup(a, b.data, b.len) : NULL;
    size_t dn = b.len;
    rc_buf_fini(&b);
    if (!decl) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory for the type of PostgreSQL type %u", oid);
    if ((st = rc_coltype_parse(RC_FAM_PG, decl, dn, &out->type, err)) != RC_OK) return st;
    out->reader = r.enum_decl ? RC_PG_R_ENUM : (rc_pg_reader)r.bt->reader;
    out->width = r.bt && r.bt->oid == 1560 && r.typmod >= 0 ? r.typmod : -1; /* bit(n): exactly n digits */
    out->elem_reader = out->reader, out->elem_width = out->width;
    if (r.array) out->reader = RC_PG_R_ARRAY, out->width = -1;
    out->delim = r.bt && r.bt->oid == BOX_OID ? ';' : ',';
    return RC_OK;
}

/* ---- values ---- */

/* What each reader expects, for error messages. */
static const char *const expected[RC_PG_R_COUNT] = {
    [RC_PG_R_INT] = "an integer",
    [RC_PG_R_NUMERIC] = "[-]digits[.digits], NaN, Infinity or -Infinity",
    [RC_PG_R_FLOAT4] = "a number such as -1.5e-07, NaN, Infinity or -Infinity",
    [RC_PG_R_FLOAT8] = "a number such as -1.5e-07, NaN, Infinity or -Infinity",
    [RC_PG_R_BOOL] = "t or f",
    [RC_PG_R_TEXT] = "UTF-8 text",
    [RC_PG_R_BYTEA] = "\\x and pairs of hex digits",
    [RC_PG_R_DATE] = "YYYY-MM-DD[ BC], infinity or -infinity",
    [RC_PG_R_TIME] = "HH:MM:SS[.ffffff] from 00:00:00 to 24:00:00",
    [RC_PG_R_TIMETZ] = "HH:MM:SS[.ffffff]+HH[:MM[:SS]]",
    [RC_PG_R_TIMESTAMP] = "YYYY-MM-DD HH:MM:SS[.ffffff][ BC], infinity or -infinity",
    [RC_PG_R_TIMESTAMPTZ] = "YYYY-MM-DD HH:MM:SS[.ffffff]+HH[:MM[:SS]][ BC], infinity or -infinity",
    [RC_PG_R_INTERVAL] = "an interval such as 1 year 2 mons -3 days +04:05:06.789 (IntervalStyle postgres)",
    [RC_PG_R_JSON] = "UTF-8 JSON text",
    [RC_PG_R_UUID] = "8-4-4-4-12 lower-case hex digits",
    [RC_PG_R_BITS] = "binary digits 0 and 1",
    [RC_PG_R_ENUM] = "a UTF-8 label",
    [RC_PG_R_ARRAY] = "an array literal such as {1,NULL,\"a,b\",{2,3}}",
};

typedef struct vctx {
    const rc_pg_type *t;
    const rc_column *col;
    const char *s;
    size_t n;
    rc_arena *a;
    rc_value *v;
    rc_error *err;
    size_t base; /* an array element: its offset in the literal (errors say it) */
    int elem;    /* 0: a whole value; 1: an unquoted element (offsets shift by base); 2: a quoted one */
} vctx;

/* The error for a text that is wrong at byte `at` (n: it ends too early): what was found
 * where, and what the type's text looks like. */
static rc_status fail_at(const vctx *c, rc_status code, size_t at, const char *why)
{
    char head[64 + 80];
    int shown = (int)(c->n > 48 ? 48 : c->n);
    if (rc_utf8_valid_prefix(c->s, (size_t)shown) < (size_t)shown) shown = 0; /* the message stays UTF-8 */
    int hn = snprintf(head, sizeof head, "column \"%.*s\" (%.*s)", (int)(c->col->name.n > 64 ? 64 : c->col->name.n), c->col->name.p,
                      (int)(c->col->type.decl.n > 64 ? 64 : c->col->type.decl.n), c->col->type.decl.p);
    if (c->elem && hn > 0 && (size_t)hn < sizeof head) snprintf(head + hn, sizeof head - (size_t)hn, ": element at byte %zu", c->base);
    size_t msg_at = at;
    at = c->elem == 1 ? c->base + at : c->elem == 2 ? c->base : at; /* the offset in the whole text */
    const char *more = c->n > (size_t)shown ? "..." : "";
    if (code == RC_ERR_RANGE)
        return rc_error_set(c->err, code, at, "%s: \"%.*s%s\" is out of range at byte %zu", head, shown, c->s, more, msg_at);
    why = why ? why : expected[c->t->reader];
    if (msg_at >= c->n)
        return rc_error_set(c->err, code, at, "%s: \"%.*s%s\" ends early at byte %zu: expected %s", head, shown, c->s, more, msg_at, why);
    unsigned char ch = (unsigned char)c->s[msg_at];
    if (ch >= 0x20 && ch < 0x7F)
        return rc_error_set(c->err, code, at, "%s: unexpected '%c' at byte %zu of \"%.*s%s\": expected %s", head, ch, msg_at, shown,
                            c->s, more, why);
    return rc_error_set(c->err, code, at, "%s: unexpected byte 0x%02X at byte %zu: expected %s", head, ch, msg_at, why);
}
#define FAIL(c, at) fail_at(c, RC_ERR_VALUE, at, NULL)
#define FAIL_RANGE(c, at) fail_at(c, RC_ERR_RANGE, at, NULL)

static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }

static bool is_lit(const vctx *c, const char *lit)
{
    size_t k = strlen(lit);
    return c->n == k && !memcmp(c->s, lit, k);
}

/* Digits from s[*i]; returns how many were read (their value in *v, saturated). */
static size_t digits(const vctx *c, size_t *i, uint64_t *v)
{
    size_t st = *i;
    uint64_t x = 0;
    while (*i < c->n && is_digit(c->s[*i])) {
        x = x < 100000000000000000ull ? x * 10 + (uint64_t)(c->s[*i] - '0') : UINT64_MAX;
        (*i)++;
    }
    if (v) *v = x;
    return *i - st;
}

/* Exactly `k` digits at s[*i], or the offset of the first that is not one in *bad. */
static bool fixed_digits(const vctx *c, size_t *i, size_t k, uint32_t *v, size_t *bad)
{
    uint32_t x = 0;
    for (size_t j = 0; j < k; j++, (*i)++) {
        if (*i >= c->n || !is_digit(c->s[*i])) return *bad = *i, false;
        x = x * 10 + (uint32_t)(c->s[*i] - '0');
    }
    *v = x;
    return true;
}

static bool lit_at(const vctx *c, size_t *i, const char *lit, size_t *bad)
{
    for (; *lit; lit++, (*i)++)
        if (*i >= c->n || c->s[*i] != *lit) return *bad = *i, false;
    return true;
}

static rc_status copy_text(const vctx *c, rc_vkind kind)
{
    size_t ok = rc_utf8_valid_prefix(c->s, c->n);
    if (ok != c->n) return fail_at(c, RC_ERR_VALUE, ok, "valid UTF-8 (is the database encoding UTF8?)");
    char *p = rc_arena_memdup(c->a, c->s, c->n);
    if (!p && c->n) return RC_ERR_NOMEM;
    c->v->kind = kind;
    c->v->s = (rc_str){p ? p : "", c->n};
    return RC_OK;
}

/* ±infinity of dates and timestamps, NaN and ±Infinity of numeric: no canonical value
 * holds them, so they are kept as their text (RC_V_INVALID), as zero dates are. */
static bool special(const vctx *c, const char *const *lits)
{
    for (; *lits; lits++)
        if (is_lit(c, *lits)) {
            c->v->kind = RC_V_INVALID;
            c->v->s = (rc_str){*lits, c->n}; /* static text: no copy needed */
            return true;
        }
    return false;
}
static const char *const date_specials[] = {"infinity", "-infinity", NULL};

static rc_status read_int(const vctx *c)
{
    size_t i = c->n && c->s[0] == '-';
    uint64_t v;
    size_t k = digits(c, &i, &v);
    if (!k) return FAIL(c, i);
    if (i != c->n) return FAIL(c, i);
    if (k > 1 && c->s[c->n - k] == '0') return FAIL(c, c->n - k); /* the server writes no leading zeros */
    c->v->kind = RC_V_INT;
    rc_status st = rc_parse_i64(c->s, c->n, &c->v->i);
    return st == RC_OK ? RC_OK : FAIL_RANGE(c, 0);
}

static rc_status read_numeric(const vctx *c)
{
    static const char *const specials[] = {"NaN", "Infinity", "-Infinity", NULL};
    if (special(c, specials)) return RC_OK;
    size_t i = c->n && c->s[0] == '-';
    if (!digits(c, &i, NULL)) return FAIL(c, i);
    if (i < c->n && c->s[i] == '.') {
        i++;
        if (!digits(c, &i, NULL)) return FAIL(c, i);
    }
    if (i != c->n) return FAIL(c, i);
    c->v->kind = RC_V_DECIMAL;
    rc_status st = rc_dec_parse(c->s, c->n, c->a, &c->v->dec);
    if (st == RC_ERR_NOMEM) return st;
    return st == RC_OK ? RC_OK : FAIL_RANGE(c, 0);
}

/* float4/float8 as float4out/float8out write them with extra_float_digits 3: the shortest
 * text that reads back exactly, read with strtof/strtod (correctly rounded, never through a
 * double for float4). */
static rc_status read_float(const vctx *c, bool f32)
{
    static const char *const specials[] = {"NaN", "Infinity", "-Infinity", NULL};
    double d;
    float f;
    if (is_lit(c, specials[0])) d = NAN, f = NAN;
    else if (is_lit(c, specials[1])) d = INFINITY, f = INFINITY;
    else if (is_lit(c, specials[2])) d = -INFINITY, f = -INFINITY;
    else {
        size_t i = c->n && c->s[0] == '-';
        if (!digits(c, &i, NULL)) return FAIL(c, i);
        if (i < c->n && c->s[i] == '.') {
            i++;
            if (!digits(c, &i, NULL)) return FAIL(c, i);
        }
        if (i < c->n && c->s[i] == 'e') {
            i++;
            if (i < c->n && (c->s[i] == '+' || c->s[i] == '-')) i++;
            if (!digits(c, &i, NULL)) return FAIL(c, i);
        }
        if (i != c->n) return FAIL(c, i);
        char small[64], *z = c->n < sizeof small ? small : rc_arena_alloc(c->a, c->n + 1);
        if (!z) return RC_ERR_NOMEM;
        memcpy(z, c->s, c->n);
        z[c->n] = '\0';
        if (f32) f = strtof(z, NULL), d = 0;
        else d = strtod(z, NULL), f = 0;
        if (f32 ? isinf(f) : isinf(d)) return FAIL_RANGE(c, 0);
    }
    if (f32) c->v->kind = RC_V_FLOAT32, c->v->f32 = f;
    else c->v->kind = RC_V_FLOAT64, c->v->f64 = d;
    return RC_OK;
}

static rc_status read_bytea(const vctx *c)
{
    size_t i = 0, bad;
    if (!lit_at(c, &i, "\\x", &bad)) return FAIL(c, bad);
    /* checked and decoded in one pass: the digit pairs after \x, high nibble first */
    size_t nb = (c->n - 2) / 2;
    unsigned char *d = rc_arena_alloc(c->a, nb + 1);
    if (!d) return RC_ERR_NOMEM;
    for (; i < c->n; i++) {
        unsigned char ch = (unsigned char)c->s[i];
        unsigned h = ch >= '0' && ch <= '9' ? ch - '0' : (ch | 0x20) >= 'a' && (ch | 0x20) <= 'f' ? (ch | 0x20) - 'a' + 10 : 16;
        if (h == 16) return FAIL(c, i);
        if (i % 2 == 0) d[(i - 2) / 2] = (unsigned char)(h << 4);
        else d[(i - 2) / 2] |= (unsigned char)h;
    }
    if ((c->n - 2) % 2) return FAIL(c, c->n);
    c->v->kind = RC_V_BYTES;
    c->v->s = (rc_str){(const char *)d, nb};
    return RC_OK;
}

/* A date as the server writes it: YYYY-MM-DD (four or more year digits), " BC" later. */
typedef struct ymd {
    int32_t y;
    uint32_t m, d;
    size_t at; /* offset of the year, for errors */
} ymd;

static rc_status read_ymd(const vctx *c, size_t *i, ymd *o)
{
    size_t bad;
    uint64_t yy;
    o->at = *i;
    size_t k = digits(c, i, &yy);
    if (k < 4) return FAIL(c, *i);
    if (k > 7 || yy > 5874897) return FAIL_RANGE(c, o->at); /* PostgreSQL's last date is 5874897-12-31 */
    if (!lit_at(c, i, "-", &bad) || !fixed_digits(c, i, 2, &o->m, &bad) || !lit_at(c, i, "-", &bad) || !fixed_digits(c, i, 2, &o->d, &bad))
        return FAIL(c, bad);
    o->y = (int32_t)yy;
    return RC_OK;
}

/* The end of a date or timestamp at s[*i]: nothing or " BC" (year Y BC is astronomical year
 * 1 - Y, as in ISO 8601), then the check of the day against the month of that year. */
static rc_status end_ymd(const vctx *c, size_t *i, ymd *o)
{
    size_t bad;
    bool bc = *i < c->n;
    if (bc && !lit_at(c, i, " BC", &bad)) return FAIL(c, bad);
    if (*i != c->n) return FAIL(c, *i);
    if (o->y == 0) return FAIL_RANGE(c, o->at); /* there is no year 0, AD or BC */
    if (bc) o->y = 1 - o->y;
    if (o->m < 1 || o->m > 12 || o->d < 1 || o->d > rc_days_in_month(o->y, o->m)) return FAIL_RANGE(c, o->at);
    return RC_OK;
}

static rc_status read_date(const vctx *c)
{
    if (special(c, date_specials)) return RC_OK;
    size_t i = 0;
    ymd d;
    rc_status st;
    if ((st = read_ymd(c, &i, &d)) != RC_OK || (st = end_ymd(c, &i, &d)) != RC_OK) return st;
    c->v->kind = RC_V_DATE;
    c->v->date = (rc_date){d.y, (uint8_t)d.m, (uint8_t)d.d};
    return RC_OK;
}

/* HH:MM:SS[.f{1,6}] at s[*i]; hours up to `max_hour` (24 only as 24:00:00). Read by
 * rc_parse_time once its layout is checked here (for the offset of a bad byte). */
static rc_status read_clock(const vctx *c, size_t *i, uint32_t max_hour, rc_time *t)
{
    size_t st = *i, bad;
    uint32_t h, mi, se;
    if (!fixed_digits(c, i, 2, &h, &bad) || !lit_at(c, i, ":", &bad) || !fixed_digits(c, i, 2, &mi, &bad) || !lit_at(c, i, ":", &bad) ||
        !fixed_digits(c, i, 2, &se, &bad))
        return FAIL(c, bad);
    uint32_t nanos = 0;
    if (*i < c->n && c->s[*i] == '.') {
        (*i)++;
        size_t k = digits(c, i, NULL);
        if (!k) return FAIL(c, *i);
        if (k > 6) return FAIL(c, *i - k + 6); /* microseconds at most */
        for (size_t j = *i - k; j < *i; j++) nanos = nanos * 10 + (uint32_t)(c->s[j] - '0');
        for (size_t j = k; j < 9; j++) nanos *= 10;
    }
    /* the layout is checked above: the fields are the value (no second parse of the text) */
    if (h > max_hour || mi > 59 || se > 59 || (h == 24 && (mi || se || nanos))) return FAIL_RANGE(c, st);
    *t = (rc_time){.hour = h, .minute = (uint8_t)mi, .second = (uint8_t)se, .nanos = nanos};
    return RC_OK;
}

/* +HH[:MM[:SS]] at s[*i] -> seconds east of UTC. */
static rc_status read_offset(const vctx *c, size_t *i, int32_t *off)
{
    size_t st = *i, bad;
    if (*i >= c->n || (c->s[*i] != '+' && c->s[*i] != '-')) return FAIL(c, *i);
    bool neg = c->s[(*i)++] == '-';
    uint32_t h, m = 0, s = 0;
    if (!fixed_digits(c, i, 2, &h, &bad)) return FAIL(c, bad);
    if (*i < c->n && c->s[*i] == ':') {
        (*i)++;
        if (!fixed_digits(c, i, 2, &m, &bad)) return FAIL(c, bad);
        if (*i < c->n && c->s[*i] == ':') {
            (*i)++;
            if (!fixed_digits(c, i, 2, &s, &bad)) return FAIL(c, bad);
        }
    }
    if (h > 15 || m > 59 || s > 59) return FAIL_RANGE(c, st); /* PostgreSQL's offsets stay within ±15:59:59 */
    *off = (int32_t)(h * 3600 + m * 60 + s) * (neg ? -1 : 1);
    return RC_OK;
}

static rc_status read_time(const vctx *c)
{
    size_t i = 0;
    rc_status st = read_clock(c, &i, 24, &c->v->time);
    if (st != RC_OK) return st;
    if (i != c->n) return FAIL(c, i);
    c->v->kind = RC_V_TIME;
    return RC_OK;
}

/* timetz has no canonical kind (a time of day with an offset): its text is kept, checked. */
static rc_status read_timetz(const vctx *c)
{
    size_t i = 0;
    rc_time t;
    int32_t off;
    rc_status st;
    if ((st = read_clock(c, &i, 24, &t)) != RC_OK || (st = read_offset(c, &i, &off)) != RC_OK) return st;
    if (i != c->n) return FAIL(c, i);
    return copy_text(c, RC_V_TEXT);
}

static rc_status read_timestamp(const vctx *c, bool tz)
{
    if (special(c, date_specials)) return RC_OK;
    size_t i = 0, bad;
    int32_t off = 0;
    ymd d;
    rc_time t;
    rc_status st;
    if ((st = read_ymd(c, &i, &d)) != RC_OK) return st;
    if (!lit_at(c, &i, " ", &bad)) return FAIL(c, bad);
    if ((st = read_clock(c, &i, 23, &t)) != RC_OK) return st;
    if (tz && (st = read_offset(c, &i, &off)) != RC_OK) return st;
    if ((st = end_ymd(c, &i, &d)) != RC_OK) return st;
    if (tz) {
        c->v->kind = RC_V_TIMESTAMP;
        c->v->ts.sec = rc_days_from_civil(d.y, d.m, d.d) * 86400 + (int64_t)t.hour * 3600 + t.minute * 60 + t.second - off;
        c->v->ts.nanos = t.nanos;
    } else {
        c->v->kind = RC_V_DATETIME;
        c->v->dt = (rc_datetime){.year = d.y, .month = (uint8_t)d.m, .day = (uint8_t)d.d, .hour = (uint8_t)t.hour,
                                 .minute = t.minute, .second = t.second, .nanos = t.nanos};
    }
    return RC_OK;
}

/* IntervalStyle postgres: "N year[s] N mon[s] N day[s] H:MM:SS[.f]", any part absent,
 * "00:00:00" for zero; each part signed ('+' on a positive part after a negative one:
 * "-1 years +1 day"). Kept as the text (RC_V_INTERVAL). */
static rc_status read_interval(const vctx *c)
{
    static const char *const units[] = {"years", "year", "mons", "mon", "days", "day"};
    size_t i = 0, bad;
    int next_unit = 0; /* units come in this order, each once */
    for (;;) {
        size_t st = i;
        if (i < c->n && (c->s[i] == '-' || c->s[i] == '+')) i++;
        size_t k = digits(c, &i, NULL);
        if (!k) return FAIL(c, i);
        if (i < c->n && c->s[i] == ':') { /* the time part, hours unbounded, last */
            uint32_t mi, se;
            i++;
            if (!fixed_digits(c, &i, 2, &mi, &bad) || !lit_at(c, &i, ":", &bad) || !fixed_digits(c, &i, 2, &se, &bad)) return FAIL(c, bad);
            if (mi > 59 || se > 59) return FAIL_RANGE(c, st);
            if (i < c->n && c->s[i] == '.') {
                i++;
                size_t f = digits(c, &i, NULL);
                if (!f || f > 6) return FAIL(c, f ? i - f + 6 : i);
            }
            if (i != c->n) return FAIL(c, i);
            break;
        }
        if (!lit_at(c, &i, " ", &bad)) return FAIL(c, bad);
        size_t u = (size_t)next_unit * 2, ul = 0;
        for (; u < 6; u++) {
            ul = strlen(units[u]);
            if (c->n - i >= ul && !memcmp(c->s + i, units[u], ul) && (i + ul == c->n || c->s[i + ul] == ' ')) break;
        }
        if (u == 6) return FAIL(c, i);
        i += ul;
        next_unit = (int)(u / 2) + 1;
        if (i == c->n) break;
        i++; /* the space */
    }
    return copy_text(c, RC_V_INTERVAL);
}

static rc_status read_uuid(const vctx *c)
{
    static const char layout[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx";
    for (size_t i = 0; i < sizeof layout - 1; i++) {
        char ch = i < c->n ? c->s[i] : 0;
        bool ok = layout[i] == 'x' ? ((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')) : ch == layout[i];
        if (!ok || i >= c->n) return FAIL(c, i);
    }
    if (c->n != sizeof layout - 1) return FAIL(c, sizeof layout - 1);
    return copy_text(c, RC_V_TEXT);
}

static rc_status read_bits(const vctx *c)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->s[i] != '0' && c->s[i] != '1') return FAIL(c, i);
    if (c->t->width >= 0 && c->n != (size_t)c->t->width)
        return fail_at(c, RC_ERR_VALUE, c->n < (size_t)c->t->width ? c->n : (size_t)c->t->width, "as many binary digits as bit(n) declares");
    return copy_text(c, RC_V_TEXT);
}

static rc_status dispatch(const vctx *c);

/* Checks one element, s[st..end) of the literal (quoted: with its quotes), with the element
 * type's reader; NULL is SQL NULL. The element's value is not kept. */
static rc_status check_elem(const vctx *c, size_t st, size_t end, bool quoted)
{
    if (!quoted && end - st == 4 && !memcmp(c->s + st, "NULL", 4)) return RC_OK;
    rc_pg_type et = *c->t;
    et.reader = c->t->elem_reader, et.width = c->t->elem_width;
    rc_value ev;
    memset(&ev, 0, sizeof ev);
    vctx ec = {&et, c->col, c->s + st, end - st, c->a, &ev, c->err, st, 1};
    if (quoted) { /* without the quotes and the backslashes before escaped characters */
        char *u = rc_arena_alloc(c->a, end - st);
        if (!u) return RC_ERR_NOMEM;
        size_t k = 0;
        for (size_t i = st + 1; i + 1 < end; i++) u[k++] = c->s[i] == '\\' ? c->s[++i] : c->s[i];
        ec.s = u, ec.n = k, ec.elem = 2;
    }
    return dispatch(&ec);
}

/* An array literal as array_out writes it: optional bounds "[1:2][0:1]=", then nested
 * braces; elements are NULL, unquoted text without whitespace and the characters {}",\ and
 * the delimiter, or "quoted" with \ escapes. The structure is checked, the text kept. */
static rc_status read_array(const vctx *c)
{
    size_t i = 0, bad;
    if (i < c->n && c->s[i] == '[') { /* lower bounds other than 1 */
        while (i < c->n && c->s[i] == '[') {
            i++;
            if (i < c->n && c->s[i] == '-') i++;
            if (!digits(c, &i, NULL)) return FAIL(c, i);
            if (!lit_at(c, &i, ":", &bad)) return FAIL(c, bad);
            if (i < c->n && c->s[i] == '-') i++;
            if (!digits(c, &i, NULL)) return FAIL(c, i);
            if (!lit_at(c, &i, "]", &bad)) return FAIL(c, bad);
        }
        if (!lit_at(c, &i, "=", &bad)) return FAIL(c, bad);
    }
    int depth = 0;
    bool need_elem = false; /* after a delimiter */
    if (i >= c->n || c->s[i] != '{') return FAIL(c, i);
    while (i < c->n) {
        char ch = c->s[i];
        if (ch == '{') {
            if (depth && !need_elem && c->s[i - 1] != '{') return FAIL(c, i);
            if (++depth > 6) return fail_at(c, RC_ERR_VALUE, i, "at most 6 dimensions (PostgreSQL's MAXDIM)");
            i++;
            need_elem = false;
            continue;
        }
        if (ch == '}') {
            if (need_elem) return FAIL(c, i);
            i++;
            if (--depth == 0) break;
        } else if (c->s[i - 1] != '{' && !need_elem) {
            return FAIL(c, i);
        } else if (ch == '"') {
            size_t st = i;
            for (i++;; i++) {
                if (i >= c->n) return FAIL(c, i);
                if (c->s[i] == '\\') {
                    if (++i >= c->n) return FAIL(c, i);
                } else if (c->s[i] == '"') {
                    break;
                }
            }
            i++;
            rc_status st2 = check_elem(c, st, i, true);
            if (st2 != RC_OK) return st2;
        } else {
            size_t st = i;
            while (i < c->n && c->s[i] != '{' && c->s[i] != '}' && c->s[i] != '"' && c->s[i] != '\\' && c->s[i] != c->t->delim &&
                   c->s[i] != ' ' && c->s[i] != '\t' && c->s[i] != '\n' && c->s[i] != '\r' && c->s[i] != '\v' && c->s[i] != '\f')
                i++;
            if (i == st) return FAIL(c, i);
            rc_status st2 = check_elem(c, st, i, false);
            if (st2 != RC_OK) return st2;
        }
        need_elem = false;
        if (i < c->n && c->s[i] == c->t->delim) {
            i++;
            need_elem = true;
        } else if (i < c->n && c->s[i] != '}') {
            return FAIL(c, i);
        }
    }
    if (depth) return FAIL(c, i);
    if (i != c->n) return FAIL(c, i);
    return copy_text(c, RC_V_TEXT);
}

static rc_status dispatch(const vctx *c)
{
    switch (c->t->reader) {
    case RC_PG_R_INT: return read_int(c);
    case RC_PG_R_NUMERIC: return read_numeric(c);
    case RC_PG_R_FLOAT4: return read_float(c, true);
    case RC_PG_R_FLOAT8: return read_float(c, false);
    case RC_PG_R_BOOL:
        if (c->n == 1 && (c->s[0] == 't' || c->s[0] == 'f')) return c->v->kind = RC_V_BOOL, c->v->b = c->s[0] == 't', RC_OK;
        return FAIL(c, c->n == 1 || !c->n ? 0 : 1);
    case RC_PG_R_TEXT: return copy_text(c, RC_V_TEXT);
    case RC_PG_R_BYTEA: return read_bytea(c);
    case RC_PG_R_DATE: return read_date(c);
    case RC_PG_R_TIME: return read_time(c);
    case RC_PG_R_TIMETZ: return read_timetz(c);
    case RC_PG_R_TIMESTAMP: return read_timestamp(c, false);
    case RC_PG_R_TIMESTAMPTZ: return read_timestamp(c, true);
    case RC_PG_R_INTERVAL: return read_interval(c);
    case RC_PG_R_JSON: return copy_text(c, RC_V_JSON);
    case RC_PG_R_UUID: return read_uuid(c);
    case RC_PG_R_BITS: return read_bits(c);
    case RC_PG_R_ENUM: return copy_text(c, RC_V_ENUM);
    case RC_PG_R_ARRAY: return c->elem ? RC_ERR_TYPE : read_array(c); /* elements are never arrays */
    case RC_PG_R_COUNT: break;
    }
    return rc_error_set(c->err, RC_ERR_TYPE, RC_NO_OFFSET, "column \"%.*s\": no reader for its type", (int)c->col->name.n, c->col->name.p);
}

rc_status rc_pg_value_parse(const rc_pg_type *t, const rc_column *col, const char *s, size_t n, rc_arena *a, rc_value *out,
                            rc_error *err)
{
    memset(out, 0, sizeof *out);
    vctx c = {t, col, s, n, a, out, err, 0, 0};
    return dispatch(&c);
}
