/* pgoutput message decoder, relation and type caches (see pgoutput.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sources/pg/pgoutput.h"

/* ---- OID maps: open addressing, OID 0 (InvalidOid) marks an empty slot ---- */

typedef struct oidmap {
    uint32_t *keys;
    void **vals;
    size_t mask; /* capacity - 1; capacity is a power of two, 0 before the first reserve */
    size_t count;
} oidmap;

static size_t oid_slot(uint32_t oid, size_t mask)
{
    return (size_t)((oid * 0x9E3779B97F4A7C15ull) >> 32) & mask;
}

static void *oidmap_get(const oidmap *m, uint32_t oid)
{
    if (!m->keys || oid == 0) return NULL;
    for (size_t i = oid_slot(oid, m->mask);; i = (i + 1) & m->mask) {
        if (m->keys[i] == oid) return m->vals[i];
        if (m->keys[i] == 0) return NULL;
    }
}

/* Stores into a map that has room (oidmap_reserve); replaces the value of a present key. */
static void oidmap_put(oidmap *m, uint32_t oid, void *v)
{
    size_t i = oid_slot(oid, m->mask);
    while (m->keys[i] != 0 && m->keys[i] != oid) i = (i + 1) & m->mask;
    if (m->keys[i] == 0) m->count++;
    m->keys[i] = oid;
    m->vals[i] = v;
}

/* Room for one more key at a load of at most 3/4, so that a later put cannot fail. */
static bool oidmap_reserve(oidmap *m)
{
    size_t cap = m->keys ? m->mask + 1 : 0;
    if ((m->count + 1) * 4 <= cap * 3) return true;
    size_t ncap = cap ? cap * 2 : 16;
    oidmap n = {calloc(ncap, sizeof *n.keys), calloc(ncap, sizeof *n.vals), ncap - 1, 0};
    if (!n.keys || !n.vals) {
        free(n.keys);
        free(n.vals);
        return false;
    }
    for (size_t i = 0; i < cap; i++)
        if (m->keys[i]) oidmap_put(&n, m->keys[i], m->vals[i]);
    free(m->keys);
    free(m->vals);
    *m = n;
    return true;
}

/* ---- the decoder ---- */

typedef struct type_entry {
    rc_pgo_typeinfo t;
    struct type_entry *retired_next;
    char names[]; /* nspname NUL typname NUL */
} type_entry;

struct rc_pgo_decoder {
    int proto;
    bool in_stream;
    uint32_t stream_xid;
    uint64_t last_version;
    oidmap rels;  /* rc_pg_relation *, one reference each */
    oidmap types; /* type_entry * */
    type_entry *retired; /* replaced types: earlier lookups may still point at them */
};

rc_pgo_decoder *rc_pgo_new(int proto_version)
{
    if (proto_version != 1 && proto_version != 2) return NULL;
    rc_pgo_decoder *d = calloc(1, sizeof *d);
    if (d) d->proto = proto_version;
    return d;
}

void rc_pgo_free(rc_pgo_decoder *d)
{
    if (!d) return;
    for (size_t i = 0; d->rels.keys && i <= d->rels.mask; i++)
        if (d->rels.keys[i]) rc_pg_relation_release(d->rels.vals[i]);
    for (size_t i = 0; d->types.keys && i <= d->types.mask; i++)
        if (d->types.keys[i]) free(d->types.vals[i]);
    while (d->retired) {
        type_entry *next = d->retired->retired_next;
        free(d->retired);
        d->retired = next;
    }
    free(d->rels.keys);
    free(d->rels.vals);
    free(d->types.keys);
    free(d->types.vals);
    free(d);
}

void rc_pgo_session_reset(rc_pgo_decoder *d)
{
    d->in_stream = false;
    d->stream_xid = 0;
}

bool rc_pgo_in_stream(const rc_pgo_decoder *d) { return d->in_stream; }

const rc_pg_relation *rc_pgo_relation(const rc_pgo_decoder *d, uint32_t oid)
{
    return oidmap_get(&d->rels, oid);
}

const rc_pgo_typeinfo *rc_pgo_type(const rc_pgo_decoder *d, uint32_t oid)
{
    type_entry *e = oidmap_get(&d->types, oid);
    return e ? &e->t : NULL;
}

void rc_pg_relation_retain(const rc_pg_relation *rel)
{
    /* refs is the one mutable part of an otherwise immutable version */
    atomic_fetch_add_explicit(&((rc_pg_relation *)rel)->refs, 1, memory_order_relaxed);
}

void rc_pg_relation_release(const rc_pg_relation *rel)
{
    if (!rel) return;
    rc_pg_relation *r = (rc_pg_relation *)rel;
    if (atomic_fetch_sub_explicit(&r->refs, 1, memory_order_acq_rel) == 1) free(r);
}

int64_t rc_pg_time_to_unix_us(int64_t pg_us)
{
    const int64_t epoch_diff = INT64_C(946684800000000); /* 2000-01-01 - 1970-01-01 in µs */
    if (pg_us > INT64_MAX - epoch_diff) return INT64_MAX;
    if (pg_us == INT64_MIN) return INT64_MIN;
    return pg_us + epoch_diff;
}

static const char unknown_kind[] = "unknown";

const char *rc_pgo_kind_name(int kind)
{
    switch (kind) {
    case RC_PGO_BEGIN: return "Begin";
    case RC_PGO_COMMIT: return "Commit";
    case RC_PGO_ORIGIN: return "Origin";
    case RC_PGO_RELATION: return "Relation";
    case RC_PGO_TYPE: return "Type";
    case RC_PGO_INSERT: return "Insert";
    case RC_PGO_UPDATE: return "Update";
    case RC_PGO_DELETE: return "Delete";
    case RC_PGO_TRUNCATE: return "Truncate";
    case RC_PGO_MESSAGE: return "Message";
    case RC_PGO_STREAM_START: return "Stream Start";
    case RC_PGO_STREAM_STOP: return "Stream Stop";
    case RC_PGO_STREAM_COMMIT: return "Stream Commit";
    case RC_PGO_STREAM_ABORT: return "Stream Abort";
    default: return unknown_kind;
    }
}

/* ---- reading: bounds-checked big-endian fields, errors that name the field ---- */

typedef struct rd {
    const uint8_t *p;
    size_t len, pos;
    const char *kind; /* message kind name, NULL before it is known */
    rc_error *err;
    /* set while reading the columns of a Relation message or a tuple: errors name the column */
    const char *scope; /* "" for Relation columns, "new row", "old key", "old row" */
    unsigned col, ncols;
    const char *colname;
    /* decoding a held message again (rc_pgo_decode_row): the versions it was bound to */
    const rc_pg_relation *const *bound;
    uint32_t nbound;
} rd;

static rc_status rd_fail(rd *r, rc_status code, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static rc_status rd_fail(rd *r, rc_status code, size_t at, const char *fmt, ...)
{
    char what[200], where[120] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (r->scope && r->colname)
        snprintf(where, sizeof where, "%s%scolumn %u of %u \"%s\": ", r->scope, *r->scope ? " " : "",
                 r->col, r->ncols, r->colname);
    else if (r->scope)
        snprintf(where, sizeof where, "%s%scolumn %u of %u: ", r->scope, *r->scope ? " " : "",
                 r->col, r->ncols);
    return rc_error_set(r->err, code, at, "pgoutput%s%s: %s%s at byte %zu", r->kind ? " " : "",
                        r->kind ? r->kind : "", where, what, at);
}

static size_t rd_left(const rd *r) { return r->len - r->pos; }

static rc_status rd_need(rd *r, size_t n, const char *field)
{
    if (rd_left(r) >= n) return RC_OK;
    return rd_fail(r, RC_ERR_SYNTAX, r->pos, "%s: needs %zu byte%s, only %zu left (message truncated)",
                   field, n, n == 1 ? "" : "s", rd_left(r));
}

/* Nothing may follow the last field: extra bytes mean the layout was misread. */
static rc_status rd_end(rd *r)
{
    if (r->pos == r->len) return RC_OK;
    return rd_fail(r, RC_ERR_SYNTAX, r->pos, "%zu byte%s after the end of the message", rd_left(r),
                   rd_left(r) == 1 ? "" : "s");
}

static uint64_t rd_be(rd *r, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) v = v << 8 | r->p[r->pos + i];
    r->pos += n;
    return v;
}

/* A big-endian unsigned integer of n bytes (1, 2, 4 or 8) into *v, an integer of that size
 * (untouched when the message is too short). */
static rc_status rd_uint(rd *r, const char *field, void *v, size_t n)
{
    rc_status st = rd_need(r, n, field);
    if (st != RC_OK) return st;
    uint64_t x = rd_be(r, n);
    switch (n) {
    case 1: *(uint8_t *)v = (uint8_t)x; break;
    case 2: *(uint16_t *)v = (uint16_t)x; break;
    case 4: *(uint32_t *)v = (uint32_t)x; break;
    default: *(uint64_t *)v = x; break;
    }
    return RC_OK;
}

static rc_status rd_u8(rd *r, const char *field, uint8_t *v) { return rd_uint(r, field, v, sizeof *v); }
static rc_status rd_u16(rd *r, const char *field, uint16_t *v) { return rd_uint(r, field, v, sizeof *v); }
static rc_status rd_u32(rd *r, const char *field, uint32_t *v) { return rd_uint(r, field, v, sizeof *v); }
static rc_status rd_u64(rd *r, const char *field, uint64_t *v) { return rd_uint(r, field, v, sizeof *v); }

/* Two's complement without relying on implementation-defined conversions. */
static int64_t as_i64(uint64_t u)
{
    return u <= INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

static int32_t as_i32(uint32_t u)
{
    return u <= INT32_MAX ? (int32_t)u : -(int32_t)(~u) - 1;
}

static rc_status rd_i64(rd *r, const char *field, int64_t *v)
{
    uint64_t u = 0;
    rc_status st = rd_u64(r, field, &u);
    *v = as_i64(u);
    return st;
}

/* A NUL-terminated string, returned in place. */
static rc_status rd_str(rd *r, const char *field, const char **s)
{
    const uint8_t *nul = memchr(r->p + r->pos, 0, rd_left(r));
    if (!nul)
        return rd_fail(r, RC_ERR_SYNTAX, r->pos, "%s: no NUL before the end of the message (string not terminated)",
                       field);
    *s = (const char *)r->p + r->pos;
    r->pos = (size_t)(nul - r->p) + 1;
    return RC_OK;
}

/* An Int32 length that must be >= 0 and fit in what is left. */
static rc_status rd_len(rd *r, const char *field, uint32_t *n)
{
    size_t at = r->pos;
    rc_status st = rd_u32(r, field, n);
    if (st != RC_OK) return st;
    if (*n > INT32_MAX)
        return rd_fail(r, RC_ERR_SYNTAX, at, "%s %d is negative", field, as_i32(*n));
    if (*n > rd_left(r))
        return rd_fail(r, RC_ERR_SYNTAX, at, "%s %u past the end of the message (%zu bytes left)", field,
                       *n, rd_left(r));
    return RC_OK;
}

/* 'x' (0x78) for printable bytes, 0x07 otherwise: what an error shows of a type or kind byte. */
static const char *byte_text(uint8_t b, char buf[16])
{
    if (b > 0x20 && b < 0x7f)
        snprintf(buf, 16, "'%c' (0x%02x)", b, b);
    else
        snprintf(buf, 16, "0x%02x", b);
    return buf;
}

static const char *nsp_or_catalog(const char *nsp) { return *nsp ? nsp : "pg_catalog"; }

/* ---- message bodies ---- */

/* What errors call a tuple, by its marker byte. */
typedef struct tuple_names {
    const char *which, *count;
} tuple_names;

static const tuple_names *tuple_name(uint8_t marker)
{
    static const tuple_names n = {"new row", "new row column count"},
                             k = {"old key", "old key column count"},
                             o = {"old row", "old row column count"};
    return marker == 'N' ? &n : marker == 'K' ? &k : &o;
}

/* One column of a tuple, every field checked: the reader of columns the fast path of read_tuple
 * does not take, so that each malformed one gets its own message. */
static rc_status read_datum(rd *r, rc_pgo_datum *c)
{
    size_t at = r->pos;
    uint8_t kind = 0;
    rc_status st = rd_u8(r, "value kind", &kind);
    if (st != RC_OK) return st;
    c->kind = (char)kind;
    c->data = NULL;
    c->len = 0;
    switch (kind) {
    case RC_PGO_NULL:
    case RC_PGO_UNCHANGED: return RC_OK;
    case RC_PGO_TEXT:
    case RC_PGO_BINARY:
        if ((st = rd_len(r, kind == RC_PGO_TEXT ? "text length" : "binary length", &c->len)) != RC_OK) return st;
        c->data = r->p + r->pos;
        r->pos += c->len;
        return RC_OK;
    default: {
        char b[16];
        return rd_fail(r, RC_ERR_SYNTAX, at, "value kind %s is none of n, u, t, b", byte_text(kind, b));
    }
    }
}

static rc_status read_tuple(rd *r, const rc_pg_relation *rel, uint8_t marker, rc_arena *a,
                            rc_pgo_tuple *t)
{
    size_t at = r->pos;
    uint16_t n = 0;
    const char *which = tuple_name(marker)->which;
    rc_status st = rd_u16(r, tuple_name(marker)->count, &n);
    if (st != RC_OK) return st;
    if (n != rel->ncols)
        return rd_fail(r, RC_ERR_SCHEMA, at,
                       "%s has %u columns but relation %s.%s (OID %u) has %u (is a Relation message missing?)",
                       which, n, rel->nspname, rel->relname, rel->oid, rel->ncols);
    if (n > rd_left(r))
        return rd_fail(r, RC_ERR_SYNTAX, at, "%s: %u columns need at least %u bytes, only %zu left", which,
                       n, n, rd_left(r));
    rc_pgo_datum *cols = NULL;
    if (n && !(cols = rc_arena_alloc(a, n * sizeof *cols)))
        return rc_error_set(r->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    const uint8_t *p = r->p + r->pos, *end = r->p + r->len;
    for (unsigned i = 0; i < n; i++) {
        rc_pgo_datum *c = &cols[i];
        /* fast path, the hot loop of the capture: a well-formed column */
        if (p < end && (*p == RC_PGO_NULL || *p == RC_PGO_UNCHANGED)) {
            c->kind = (char)*p++;
            c->data = NULL;
            c->len = 0;
            continue;
        }
        if (end - p >= 5 && (*p == RC_PGO_TEXT || *p == RC_PGO_BINARY)) {
            uint32_t len = (uint32_t)p[1] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 8 | p[4];
            if (len <= INT32_MAX && len <= (size_t)(end - p - 5)) {
                c->kind = (char)*p;
                c->len = len;
                c->data = p + 5;
                p += 5 + (size_t)len;
                continue;
            }
        }
        /* anything else: the checked reader, with the column named in its error */
        r->pos = (size_t)(p - r->p);
        r->scope = which;
        r->col = i + 1;
        r->ncols = n;
        r->colname = rel->cols[i].name;
        if ((st = read_datum(r, c)) != RC_OK) return st;
        r->scope = NULL;
        r->colname = NULL;
        p = r->p + r->pos;
    }
    r->pos = (size_t)(p - r->p);
    t->ncols = n;
    t->cols = cols;
    return RC_OK;
}

/* The version of relation `oid` (the i-th of the message): the cache's current one, or the one
 * a held message was bound to when it was first decoded. */
static const rc_pg_relation *relation_of(const rc_pgo_decoder *d, const rd *r, uint32_t oid, uint32_t i)
{
    if (!r->bound) return oidmap_get(&d->rels, oid);
    return i < r->nbound && r->bound[i]->oid == oid ? r->bound[i] : NULL;
}

static rc_status lookup_relation(rc_pgo_decoder *d, rd *r, const rc_pg_relation **rel)
{
    size_t at = r->pos;
    uint32_t oid = 0;
    rc_status st = rd_u32(r, "relation OID", &oid);
    if (st != RC_OK) return st;
    if (!(*rel = relation_of(d, r, oid, 0)))
        return rd_fail(r, RC_ERR_SCHEMA, at, "relation OID %u unknown: no Relation message for it came before",
                       oid);
    return RC_OK;
}

/* Insert, Update, Delete: relation OID, then tuples each behind a marker byte. */
static rc_status read_change(rc_pgo_decoder *d, rd *r, uint8_t kind, rc_arena *a, rc_pgo_msg *m)
{
    const rc_pg_relation *rel = NULL;
    rc_status st = lookup_relation(d, r, &rel);
    if (st != RC_OK) return st;
    m->u.change.rel = rel;
    m->u.change.old_kind = 0;
    m->u.change.old_tuple = (rc_pgo_tuple){0, NULL};
    m->u.change.new_tuple = (rc_pgo_tuple){0, NULL};
    size_t at = r->pos;
    uint8_t marker = 0;
    if ((st = rd_u8(r, "tuple marker", &marker)) != RC_OK) return st;
    bool old_ok = kind != RC_PGO_INSERT, new_ok = kind != RC_PGO_DELETE;
    if ((marker == 'K' || marker == 'O') && old_ok) {
        m->u.change.old_kind = (char)marker;
        if ((st = read_tuple(r, rel, marker, a, &m->u.change.old_tuple)) != RC_OK) return st;
        if (!new_ok) return RC_OK;
        at = r->pos;
        if ((st = rd_u8(r, "new row marker", &marker)) != RC_OK) return st;
        if (marker != 'N') {
            char b[16];
            return rd_fail(r, RC_ERR_SYNTAX, at, "new row marker %s is not 'N'", byte_text(marker, b));
        }
    } else if (marker != 'N' || !new_ok) {
        char b[16];
        const char *want = kind == RC_PGO_INSERT ? "'N'" : kind == RC_PGO_UPDATE ? "'K', 'O' or 'N'" : "'K' or 'O'";
        return rd_fail(r, RC_ERR_SYNTAX, at, "tuple marker %s is not %s", byte_text(marker, b), want);
    }
    return read_tuple(r, rel, 'N', a, &m->u.change.new_tuple);
}

static bool same_relation(const rc_pg_relation *old, const rc_pg_relation *nw)
{
    if (old->replident != nw->replident || old->ncols != nw->ncols || strcmp(old->nspname, nw->nspname) ||
        strcmp(old->relname, nw->relname))
        return false;
    for (unsigned i = 0; i < nw->ncols; i++) {
        const rc_pg_column *a = &old->cols[i], *b = &nw->cols[i];
        if (a->flags != b->flags || a->type_oid != b->type_oid || a->typmod != b->typmod ||
            strcmp(a->name, b->name))
            return false;
    }
    return true;
}

/* One allocation holding the version, its columns and every string. */
static rc_pg_relation *relation_copy(const rc_pg_relation *src, uint64_t version)
{
    size_t size = sizeof *src + src->ncols * sizeof *src->cols + strlen(src->nspname) + 1 +
                  strlen(src->relname) + 1;
    for (unsigned i = 0; i < src->ncols; i++) size += strlen(src->cols[i].name) + 1;
    rc_pg_relation *rel = malloc(size);
    if (!rel) return NULL;
    rc_pg_column *cols = (rc_pg_column *)(rel + 1);
    char *s = (char *)(cols + src->ncols);
    rel->oid = src->oid;
    rel->replident = src->replident;
    rel->ncols = src->ncols;
    rel->cols = cols;
    rel->version = version;
    atomic_init(&rel->refs, 1);
    size_t n = strlen(src->nspname) + 1;
    rel->nspname = memcpy(s, src->nspname, n);
    s += n;
    n = strlen(src->relname) + 1;
    rel->relname = memcpy(s, src->relname, n);
    s += n;
    for (unsigned i = 0; i < src->ncols; i++) {
        cols[i] = src->cols[i];
        n = strlen(src->cols[i].name) + 1;
        cols[i].name = memcpy(s, src->cols[i].name, n);
        s += n;
    }
    return rel;
}

rc_pg_relation *rc_pg_relation_new(const rc_pg_relation *src, uint64_t version)
{
    return relation_copy(src, version);
}

enum { REL_COLUMN_MIN_BYTES = 1 + 1 + 4 + 4 }; /* flags, empty name, type OID, typmod */

static rc_status read_relation(rc_pgo_decoder *d, rd *r, rc_arena *a, rc_pgo_msg *m)
{
    /* the parsed message, strings in the input, columns in the arena; zeroed because GCC -O3
       does not see that each rd_* sets its field whenever it returns RC_OK */
    rc_pg_relation tmp = {0};
    size_t at = r->pos;
    uint8_t ri = 0;
    uint16_t n = 0;
    rc_status st;
    if ((st = rd_u32(r, "relation OID", &tmp.oid)) != RC_OK) return st;
    if (tmp.oid == 0) return rd_fail(r, RC_ERR_SYNTAX, at, "relation OID 0 is not a valid OID");
    if ((st = rd_str(r, "namespace", &tmp.nspname)) != RC_OK) return st;
    tmp.nspname = nsp_or_catalog(tmp.nspname);
    if ((st = rd_str(r, "relation name", &tmp.relname)) != RC_OK) return st;
    at = r->pos;
    if ((st = rd_u8(r, "replica identity", &ri)) != RC_OK) return st;
    if (ri != RC_PG_REPLIDENT_DEFAULT && ri != RC_PG_REPLIDENT_NOTHING && ri != RC_PG_REPLIDENT_FULL &&
        ri != RC_PG_REPLIDENT_INDEX) {
        char b[16];
        return rd_fail(r, RC_ERR_SYNTAX, at, "replica identity %s is none of d, n, f, i", byte_text(ri, b));
    }
    tmp.replident = (char)ri;
    at = r->pos;
    if ((st = rd_u16(r, "column count", &n)) != RC_OK) return st;
    if ((size_t)n * REL_COLUMN_MIN_BYTES > rd_left(r))
        return rd_fail(r, RC_ERR_SYNTAX, at, "column count %u needs at least %zu bytes, only %zu left", n,
                       (size_t)n * REL_COLUMN_MIN_BYTES, rd_left(r));
    rc_pg_column *cols = NULL;
    if (n && !(cols = rc_arena_alloc(a, n * sizeof *cols)))
        return rc_error_set(r->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    r->scope = "";
    r->ncols = n;
    for (unsigned i = 0; i < n; i++) {
        rc_pg_column *c = &cols[i];
        uint32_t typmod = 0;
        r->col = i + 1;
        if ((st = rd_u8(r, "flags", &c->flags)) != RC_OK || (st = rd_str(r, "name", &c->name)) != RC_OK)
            return st;
        r->colname = c->name;
        if ((st = rd_u32(r, "type OID", &c->type_oid)) != RC_OK || (st = rd_u32(r, "type modifier", &typmod)))
            return st;
        c->typmod = as_i32(typmod);
        r->colname = NULL;
    }
    r->scope = NULL;
    tmp.ncols = n;
    tmp.cols = cols;
    if ((st = rd_end(r)) != RC_OK) return st;

    rc_pg_relation *cur = oidmap_get(&d->rels, tmp.oid);
    m->u.relation.changed = !cur || !same_relation(cur, &tmp);
    if (!m->u.relation.changed) {
        m->u.relation.rel = cur;
        return RC_OK;
    }
    rc_pg_relation *rel = relation_copy(&tmp, d->last_version + 1);
    if (!rel || !oidmap_reserve(&d->rels)) {
        free(rel);
        return rc_error_set(r->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    d->last_version++;
    oidmap_put(&d->rels, rel->oid, rel);
    rc_pg_relation_release(cur); /* events that retained the old version keep it */
    m->u.relation.rel = rel;
    return RC_OK;
}

static rc_status read_type(rc_pgo_decoder *d, rd *r, rc_pgo_msg *m)
{
    size_t at = r->pos;
    uint32_t oid = 0;
    const char *nsp = NULL, *name = NULL; /* rd_str sets each on RC_OK; GCC -O3 does not see that */
    rc_status st;
    if ((st = rd_u32(r, "type OID", &oid)) != RC_OK) return st;
    if (oid == 0) return rd_fail(r, RC_ERR_SYNTAX, at, "type OID 0 is not a valid OID");
    if ((st = rd_str(r, "namespace", &nsp)) != RC_OK || (st = rd_str(r, "type name", &name)) != RC_OK)
        return st;
    if ((st = rd_end(r)) != RC_OK) return st;
    nsp = nsp_or_catalog(nsp);
    type_entry *cur = oidmap_get(&d->types, oid);
    if (cur && !strcmp(cur->t.nspname, nsp) && !strcmp(cur->t.typname, name)) {
        m->u.type.type = &cur->t;
        return RC_OK;
    }
    size_t ln = strlen(nsp) + 1, lt = strlen(name) + 1;
    type_entry *e = malloc(sizeof *e + ln + lt);
    if (!e || !oidmap_reserve(&d->types)) {
        free(e);
        return rc_error_set(r->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    e->t.oid = oid;
    e->t.nspname = memcpy(e->names, nsp, ln);
    e->t.typname = memcpy(e->names + ln, name, lt);
    e->retired_next = NULL;
    oidmap_put(&d->types, oid, e);
    if (cur) { /* renamed type: an earlier lookup may still hold the old names */
        cur->retired_next = d->retired;
        d->retired = cur;
    }
    m->u.type.type = &e->t;
    return RC_OK;
}

static rc_status read_truncate(rc_pgo_decoder *d, rd *r, rc_arena *a, rc_pgo_msg *m)
{
    size_t at = r->pos;
    uint32_t n = 0;
    rc_status st;
    if ((st = rd_u32(r, "relation count", &n)) != RC_OK ||
        (st = rd_u8(r, "options", &m->u.truncate.options)) != RC_OK)
        return st;
    if ((uint64_t)n * 4 > rd_left(r))
        return rd_fail(r, RC_ERR_SYNTAX, at, "relation count %u needs %llu bytes, only %zu left", n,
                       (unsigned long long)n * 4, rd_left(r));
    uint32_t *oids = NULL;
    const rc_pg_relation **rels = NULL;
    if (n && (!(oids = rc_arena_alloc(a, n * sizeof *oids)) || !(rels = rc_arena_alloc(a, n * sizeof *rels))))
        return rc_error_set(r->err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    for (uint32_t i = 0; i < n; i++) {
        at = r->pos;
        oids[i] = (uint32_t)rd_be(r, 4);
        if (!(rels[i] = relation_of(d, r, oids[i], i)))
            return rd_fail(r, RC_ERR_SCHEMA, at,
                           "relation %u of %u: OID %u unknown: no Relation message for it came before", i + 1,
                           n, oids[i]);
    }
    m->u.truncate.nrels = n;
    m->u.truncate.oids = oids;
    m->u.truncate.rels = rels;
    return RC_OK;
}

static rc_status read_message(rd *r, rc_pgo_msg *m)
{
    rc_status st;
    if ((st = rd_u8(r, "flags", &m->u.message.flags)) != RC_OK ||
        (st = rd_u64(r, "LSN", &m->u.message.lsn)) != RC_OK ||
        (st = rd_str(r, "prefix", &m->u.message.prefix)) != RC_OK ||
        (st = rd_len(r, "content length", &m->u.message.len)) != RC_OK)
        return st;
    m->u.message.content = r->p + r->pos;
    r->pos += m->u.message.len;
    return RC_OK;
}

/* Commit and Stream Commit share their fields after Stream Commit's xid. */
static rc_status read_commit_fields(rd *r, rc_pgo_msg *m)
{
    rc_status st;
    if ((st = rd_u8(r, "flags", &m->u.commit.flags)) != RC_OK ||
        (st = rd_u64(r, "commit LSN", &m->u.commit.commit_lsn)) != RC_OK ||
        (st = rd_u64(r, "end LSN", &m->u.commit.end_lsn)) != RC_OK)
        return st;
    return rd_i64(r, "commit time", &m->u.commit.commit_time);
}

/* Which kinds may come where: streaming kinds need version 2; Begin, Commit and the stream
 * delimiters never come inside a stream; Stream Stop only there. */
static rc_status check_place(const rc_pgo_decoder *d, rd *r, uint8_t t)
{
    bool v2 = t == RC_PGO_STREAM_START || t == RC_PGO_STREAM_STOP || t == RC_PGO_STREAM_COMMIT ||
              t == RC_PGO_STREAM_ABORT;
    if (v2 && d->proto < 2)
        return rd_fail(r, RC_ERR_SYNTAX, 0, "needs protocol version 2 (streaming), this session uses version %d",
                       d->proto);
    if (t == RC_PGO_STREAM_STOP && !d->in_stream)
        return rd_fail(r, RC_ERR_SYNTAX, 0, "outside a stream (no Stream Start before it)");
    if (d->in_stream && (t == RC_PGO_BEGIN || t == RC_PGO_COMMIT || t == RC_PGO_STREAM_START ||
                         t == RC_PGO_STREAM_COMMIT || t == RC_PGO_STREAM_ABORT))
        return rd_fail(r, RC_ERR_SYNTAX, 0, "inside the stream of transaction %u (no Stream Stop before it)",
                       d->stream_xid);
    return RC_OK;
}

rc_status rc_pgo_decode(rc_pgo_decoder *d, const uint8_t *msg, size_t len, uint64_t wal_start,
                        rc_arena *arena, rc_pgo_msg *out, rc_error *err)
{
    rd r = {.p = msg, .len = len, .err = err};
    if (len == 0) return rd_fail(&r, RC_ERR_SYNTAX, 0, "empty message (no type byte)");
    uint8_t t = msg[0];
    r.pos = 1;
    const char *name = rc_pgo_kind_name(t);
    if (name == unknown_kind) {
        char b[16];
        return rd_fail(&r, RC_ERR_SYNTAX, 0, "unknown message type %s", byte_text(t, b));
    }
    r.kind = name;
    rc_status st = check_place(d, &r, t);
    if (st != RC_OK) return st;
    memset(out, 0, sizeof *out);
    out->kind = (rc_pgo_kind)t;
    out->wal_start = wal_start;
    bool has_xid = d->in_stream && (t == RC_PGO_RELATION || t == RC_PGO_TYPE || t == RC_PGO_INSERT ||
                                    t == RC_PGO_UPDATE || t == RC_PGO_DELETE || t == RC_PGO_TRUNCATE ||
                                    t == RC_PGO_MESSAGE);
    if (has_xid) {
        if ((st = rd_u32(&r, "transaction id", &out->xid)) != RC_OK) return st;
        out->streamed = true;
    }
    uint8_t first = 0;
    switch (t) {
    case RC_PGO_BEGIN:
        if ((st = rd_u64(&r, "final LSN", &out->u.begin.final_lsn)) == RC_OK &&
            (st = rd_i64(&r, "commit time", &out->u.begin.commit_time)) == RC_OK)
            st = rd_u32(&r, "transaction id", &out->u.begin.xid);
        break;
    case RC_PGO_COMMIT: st = read_commit_fields(&r, out); break;
    case RC_PGO_ORIGIN:
        if ((st = rd_u64(&r, "commit LSN", &out->u.origin.commit_lsn)) == RC_OK)
            st = rd_str(&r, "origin name", &out->u.origin.name);
        break;
    case RC_PGO_RELATION: st = read_relation(d, &r, arena, out); break;
    case RC_PGO_TYPE: st = read_type(d, &r, out); break;
    case RC_PGO_INSERT:
    case RC_PGO_UPDATE:
    case RC_PGO_DELETE: st = read_change(d, &r, t, arena, out); break;
    case RC_PGO_TRUNCATE: st = read_truncate(d, &r, arena, out); break;
    case RC_PGO_MESSAGE: st = read_message(&r, out); break;
    case RC_PGO_STREAM_START:
        if ((st = rd_u32(&r, "transaction id", &out->u.stream_start.xid)) == RC_OK &&
            (st = rd_u8(&r, "first-segment flag", &first)) == RC_OK && first > 1)
            st = rd_fail(&r, RC_ERR_SYNTAX, r.pos - 1, "first-segment flag %u is neither 0 nor 1", first);
        out->u.stream_start.first_segment = first == 1;
        break;
    case RC_PGO_STREAM_STOP: break;
    case RC_PGO_STREAM_COMMIT:
        if ((st = rd_u32(&r, "transaction id", &out->u.commit.xid)) == RC_OK) st = read_commit_fields(&r, out);
        break;
    case RC_PGO_STREAM_ABORT:
        if ((st = rd_u32(&r, "transaction id", &out->u.stream_abort.xid)) == RC_OK)
            st = rd_u32(&r, "subtransaction id", &out->u.stream_abort.subxid);
        break;
    }
    /* (Relation and Type checked their end before changing the caches.) */
    if (st != RC_OK || (st = rd_end(&r)) != RC_OK) return st;
    if (t == RC_PGO_STREAM_START) {
        d->in_stream = true;
        d->stream_xid = out->u.stream_start.xid;
    } else if (t == RC_PGO_STREAM_STOP) {
        d->in_stream = false;
        d->stream_xid = 0;
    }
    return RC_OK;
}

rc_status rc_pgo_decode_row(const uint8_t *msg, size_t len, uint64_t wal_start, bool streamed,
                            const rc_pg_relation *const *rels, uint32_t nrels, rc_arena *arena,
                            rc_pgo_msg *out, rc_error *err)
{
    rd r = {.p = msg, .len = len, .err = err, .bound = rels, .nbound = nrels};
    uint8_t t = len ? msg[0] : 0;
    if (t != RC_PGO_INSERT && t != RC_PGO_UPDATE && t != RC_PGO_DELETE && t != RC_PGO_TRUNCATE) {
        char b[16];
        return rd_fail(&r, RC_ERR_SYNTAX, 0, "type %s is not a row message (Insert, Update, Delete, Truncate)",
                       byte_text(t, b));
    }
    r.pos = 1;
    r.kind = rc_pgo_kind_name(t);
    memset(out, 0, sizeof *out);
    out->kind = (rc_pgo_kind)t;
    out->wal_start = wal_start;
    rc_status st = RC_OK;
    if (streamed && (st = rd_u32(&r, "transaction id", &out->xid)) != RC_OK) return st;
    out->streamed = streamed;
    st = t == RC_PGO_TRUNCATE ? read_truncate(NULL, &r, arena, out) : read_change(NULL, &r, t, arena, out);
    return st != RC_OK ? st : rd_end(&r);
}
