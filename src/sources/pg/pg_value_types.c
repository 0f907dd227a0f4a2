/* PostgreSQL types -> canonical types (see pg_value.h): the built-in types, the registry of
 * enum, domain, array and named (extension, other) types, and the declarations resolved from
 * them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/fmt.h"
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

/* ---- extension types, known by their name ---- */

/* The types of extensions whose OIDs differ per database, read as text: contrib's citext,
 * ltree, hstore and isn types, PostGIS's geometry and geography (hex EWKB)
 * (docs/sources/postgres.md, "Extension and unknown types"). The declaration is the type's
 * name, a row of the type catalog. */
static const char *const ext_names[] = {"citext", "ltree", "hstore", "isbn", "isbn13", "ismn", "ismn13",
                                        "issn", "issn13", "ean13", "upc", "geometry", "geography"};

static bool ext_known(const char *name)
{
    for (size_t i = 0; i < sizeof ext_names / sizeof *ext_names; i++)
        if (!strcmp(ext_names[i], name)) return true;
    return false;
}

/* ---- the registry of enum, domain, array and named types ---- */

typedef enum { REG_ENUM, REG_DOMAIN, REG_ARRAY, REG_NAMED } reg_kind;

typedef struct reg_entry {
    uint32_t oid, ref; /* domain: base type; array: element type */
    int32_t typmod;    /* domain: the base type's typmod */
    char delim;        /* named: its arrays' element delimiter (pg_type.typdelim) */
    reg_kind kind;
    char *decl;        /* enum: "enum('a','b')"; named: the type's name (malloc) */
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

rc_status rc_pg_types_add_named(rc_pg_types *r, uint32_t oid, const char *typname, char delim, rc_error *err)
{
    char *name = strdup(typname);
    if (!name) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory registering PostgreSQL type %u", oid);
    return reg_put(r, (reg_entry){.oid = oid, .kind = REG_NAMED, .decl = name, .delim = delim ? delim : ','}, err);
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

/* The declaration of a named type: an extension type's name; any other type's name when the
 * catalog reads it as its "unknown" row (a name of letters, digits and _ that no row has), else
 * "unknown" (PostgreSQL's internal "char", a name with a space or a dot). */
static const char *named_decl(const char *name)
{
    if (ext_known(name)) return name;
    rc_coltype t;
    rc_error e;
    rc_error_clear(&e);
    size_t n = strlen(name);
    if (n && strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == n &&
        rc_coltype_parse(RC_FAM_PG, name, n, &t, &e) == RC_OK && !strcmp(t.info->name, "unknown"))
        return name;
    return "unknown";
}

enum { MAX_DEPTH = 8 }; /* domains over domains over arrays... */

typedef struct resolving {
    const builtin *bt; /* the base built-in type, or NULL for an enum or a named type */
    const char *enum_decl;
    const char *named; /* a named type's name; "unknown" for an OID nobody registered */
    char named_delim;  /* its arrays' element delimiter */
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
    if (!e) { /* read as text, declared unknown: no column type stops a capture */
        out->named = "unknown", out->named_delim = ',', out->typmod = -1;
        return RC_OK;
    }
    switch (e->kind) {
    case REG_ENUM: out->enum_decl = e->decl, out->typmod = -1; return RC_OK;
    case REG_NAMED: out->named = e->decl, out->named_delim = e->delim, out->typmod = -1; return RC_OK;
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
    else if (r.named) rc_buf_puts(&b, named_decl(r.named));
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
    out->reader = r.enum_decl ? RC_PG_R_ENUM : r.named ? RC_PG_R_TEXT : (rc_pg_reader)r.bt->reader;
    out->width = r.bt && r.bt->oid == 1560 && r.typmod >= 0 ? r.typmod : -1; /* bit(n): exactly n digits */
    out->elem_reader = out->reader, out->elem_width = out->width;
    if (r.array) out->reader = RC_PG_R_ARRAY, out->width = -1;
    out->delim = r.named ? r.named_delim : r.bt && r.bt->oid == BOX_OID ? ';' : ','; /* PostGIS's types: ':' */
    return RC_OK;
}

