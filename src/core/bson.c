/* The document value tree: names of its kinds, deep equality, member lookup, and the equality
 * of a document change (rc_event_equal's share of it). */
#include <string.h>
#include "rowcast/error.h"
#include "core/bson.h"

static const char *const kind_names[RC_B_KIND_COUNT] = {
    "double", "string", "object", "array",  "binData", "undefined",  "objectId", "bool",   "date",   "null",
    "regex",  "javascript", "symbol", "int", "timestamp", "long", "decimal", "minKey", "maxKey", "javascriptWithScope",
};

const char *rc_bson_kind_name(rc_bson_kind k) { return (unsigned)k < RC_B_KIND_COUNT ? kind_names[k] : "?"; }

static bool str_eq(rc_str a, rc_str b) { return a.n == b.n && (!a.n || !memcmp(a.p, b.p, a.n)); }

bool rc_bson_equal(const rc_bson *a, const rc_bson *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case RC_B_DOUBLE: return !memcmp(&a->f64, &b->f64, sizeof a->f64);
    case RC_B_STRING:
    case RC_B_CODE:
    case RC_B_SYMBOL:
    case RC_B_DECIMAL128: return str_eq(a->s, b->s);
    case RC_B_DOCUMENT:
    case RC_B_ARRAY:
        if (a->doc.n != b->doc.n) return false;
        for (uint32_t i = 0; i < a->doc.n; i++)
            if (!str_eq(a->doc.items[i].key, b->doc.items[i].key) || !rc_bson_equal(&a->doc.items[i].val, &b->doc.items[i].val))
                return false;
        return true;
    case RC_B_BINARY: return a->bin.subtype == b->bin.subtype && str_eq(a->bin.data, b->bin.data);
    case RC_B_OBJECTID: return !memcmp(a->oid, b->oid, sizeof a->oid);
    case RC_B_BOOL: return a->b == b->b;
    case RC_B_DATE:
    case RC_B_INT64: return a->i64 == b->i64;
    case RC_B_INT32: return a->i32 == b->i32;
    case RC_B_REGEX: return str_eq(a->re.pattern, b->re.pattern) && str_eq(a->re.options, b->re.options);
    case RC_B_TIMESTAMP: return a->ts.t == b->ts.t && a->ts.i == b->ts.i;
    case RC_B_CODE_SCOPE: return str_eq(a->cws.code, b->cws.code) && rc_bson_equal(a->cws.scope, b->cws.scope);
    default: return true; /* null, undefined, minKey, maxKey */
    }
}

const rc_bson *rc_bson_get(const rc_bson *d, const char *key)
{
    if (!d || d->kind != RC_B_DOCUMENT) return NULL;
    size_t n = strlen(key);
    for (uint32_t i = 0; i < d->doc.n; i++)
        if (d->doc.items[i].key.n == n && !memcmp(d->doc.items[i].key.p, key, n)) return &d->doc.items[i].val;
    return NULL;
}

bool rc_bson_u32(const rc_bson *x, uint32_t *out)
{
    int64_t i = x->kind == RC_B_INT32 ? x->i32 : x->kind == RC_B_INT64 ? x->i64 : -1;
    if (i < 0 || i > UINT32_MAX) return false;
    *out = (uint32_t)i;
    return true;
}

rc_status rc_doc_refuse(const char *format, rc_error *err)
{
    /* a document has no columns: no row layout holds it (docs/design/documents.md) */
    rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                 "a document change (MongoDB) is not expressible in %s, whose messages carry rows of columns; write it as debezium, drs-dds, "
                 "mongo-change-stream or native",
                 format);
    return RC_SKIP;
}

static bool opt_equal(const rc_bson *a, const rc_bson *b) { return !a == !b && (!a || rc_bson_equal(a, b)); }

bool rc_doc_change_equal(const rc_doc_change *a, const rc_doc_change *b)
{
    if (!opt_equal(a->full, b->full) || !opt_equal(a->key, b->key) || !opt_equal(a->set, b->set) || !opt_equal(a->unset, b->unset) ||
        !opt_equal(a->before, b->before))
        return false;
    if (a->replace != b->replace || a->unset_first != b->unset_first || a->has_cluster_time != b->has_cluster_time) return false;
    if (a->has_cluster_time && (a->cluster_t != b->cluster_t || a->cluster_i != b->cluster_i)) return false;
    if (!str_eq(a->rs, b->rs) || !str_eq(a->lsid, b->lsid) || !str_eq(a->stxnid, b->stxnid)) return false;
    if (a->has_h != b->has_h || a->has_tord != b->has_tord || a->has_wall != b->has_wall || a->has_patch_v != b->has_patch_v) return false;
    if ((a->has_h && a->h != b->h) || (a->has_tord && a->tord != b->tord) || (a->has_wall && a->wall_ms != b->wall_ms) ||
        (a->has_patch_v && a->patch_v != b->patch_v))
        return false;
    if (a->ntruncated != b->ntruncated) return false;
    for (uint32_t i = 0; i < a->ntruncated; i++)
        if (!str_eq(a->truncated[i].field, b->truncated[i].field) || a->truncated[i].new_size != b->truncated[i].new_size) return false;
    return true;
}
