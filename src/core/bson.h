/* The document value of the canonical event (docs/design/documents.md): a BSON-faithful tree,
 * each of BSON's types kept apart (int32, int64, double and decimal128 never mixed), members in
 * their order; and the change of a collection an event carries in rc_event.doc. Everything is
 * borrowed, usually from the arena of the event. */
#ifndef ROWCAST_BSON_H
#define ROWCAST_BSON_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/error.h"
#include "rowcast/value.h"

typedef enum rc_bson_kind {
    RC_B_DOUBLE = 0,
    RC_B_STRING,
    RC_B_DOCUMENT,
    RC_B_ARRAY,
    RC_B_BINARY,
    RC_B_UNDEFINED,
    RC_B_OBJECTID,
    RC_B_BOOL,
    RC_B_DATE,
    RC_B_NULL,
    RC_B_REGEX,
    RC_B_CODE,
    RC_B_SYMBOL,
    RC_B_INT32,
    RC_B_TIMESTAMP,
    RC_B_INT64,
    RC_B_DECIMAL128,
    RC_B_MINKEY,
    RC_B_MAXKEY,
    RC_B_CODE_SCOPE, /* JavaScript code with a scope (deprecated in BSON, still read and written) */
    RC_B_KIND_COUNT
} rc_bson_kind;

struct rc_bson_member;

typedef struct rc_bson {
    rc_bson_kind kind;
    union {
        double f64;
        int32_t i32;
        int64_t i64;  /* int64; date: milliseconds since the epoch */
        bool b;
        rc_str s;     /* string, code, symbol; decimal128: its text as written ("1.10", "NaN") */
        uint8_t oid[12];
        struct {
            uint32_t t, i;
        } ts;
        struct {
            rc_str data;
            uint8_t subtype;
        } bin;
        struct {
            rc_str pattern, options;
        } re;
        struct {
            const struct rc_bson_member *items; /* an array's keys are empty */
            uint32_t n;
        } doc;
        struct {
            rc_str code;
            const struct rc_bson *scope; /* a document */
        } cws;
    };
} rc_bson;

typedef struct rc_bson_member {
    rc_str key;
    rc_bson val;
} rc_bson_member;

/* "double", "int64", "objectId", ... (the names of MongoDB's $type). */
const char *rc_bson_kind_name(rc_bson_kind k);
/* Deep equality: kinds, keys in order, doubles bitwise (NaN equals itself). */
bool rc_bson_equal(const rc_bson *a, const rc_bson *b);
/* The member of document d named key (the first such), NULL when none. */
const rc_bson *rc_bson_get(const rc_bson *d, const char *key);

/* An int32 or int64 from 0 to 2^32-1 (a timestamp's half, a size) into *out; false otherwise. */
bool rc_bson_u32(const rc_bson *x, uint32_t *out);

/* An array cut to a new size by an update (a change stream's truncatedArrays). */
typedef struct rc_doc_truncated {
    rc_str field;
    uint32_t new_size;
} rc_doc_truncated;

/* The change of one document (rc_event.doc); what each op carries: docs/design/documents.md. */
typedef struct rc_doc_change {
    const rc_bson *full;  /* insert, read, replace: the document; update: after, when known */
    const rc_bson *key;   /* the filter or document key; delete: the deleted document's key */
    const rc_bson *set;   /* update: fields set (a document of dotted paths), NULL: none */
    const rc_bson *unset; /* update: fields removed, their names and the values written (true) */
    const rc_bson *before; /* the document before the change (a pre-image), when the source sent it */
    const rc_doc_truncated *truncated;
    uint32_t ntruncated;
    bool replace;     /* an update that replaced the whole document */
    bool unset_first; /* the source wrote $unset before $set */
    bool has_cluster_time;
    uint32_t cluster_t, cluster_i; /* the oplog entry's timestamp: seconds, increment */
    /* What Debezium's MongoDB connector says of the change and no other member holds
     * (docs/formats/debezium-mongodb.md): its source block's rs (the replica set), lsid (the
     * session of a transaction), stxnid (1.x: a sharded transaction's id), h (1.x: the oplog
     * entry's hash), tord (1.x: its order in a transaction), wallTime (ms); and the "$v" of a
     * 1.x patch (the oplog's update format). Empty or has_* false: not said. */
    rc_str rs, lsid, stxnid;
    int64_t h, tord, wall_ms;
    int32_t patch_v;
    bool has_h, has_tord, has_wall, has_patch_v;
} rc_doc_change;

bool rc_doc_change_equal(const rc_doc_change *a, const rc_doc_change *b);
/* For the encoders of rows, given a document change: RC_SKIP with the error that `format`
 * cannot express it (rc_event_refuse_unavailable says it for the encoders that call that). */
rc_status rc_doc_refuse(const char *format, rc_error *err);

#endif
