/* MongoDB Extended JSON v2 (canonical and relaxed) and the shell mode of the Java driver
 * (ObjectId("…"), NumberLong(…), ISODate("…"), ...: what Huawei DRS writes), read into and
 * written from the document value tree (core/bson.h). docs/design/documents.md says the
 * grammar; numbers are read by their BSON type from their text, never through a double
 * unless the type is Double. */
#ifndef ROWCAST_EJSON_H
#define ROWCAST_EJSON_H

#include "rowcast/arena.h"
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "core/bson.h"

enum { RC_EJSON_MAX_DEPTH = 100 }; /* BSON's own nesting limit */

/* Reads the one value of p[0..n) (white space around it allowed), any of the three modes,
 * into `out`, allocating in `a`. Errors are RC_ERR_SYNTAX or RC_ERR_VALUE (RC_ERR_RANGE for a
 * number beyond its type, RC_ERR_LIMIT past RC_EJSON_MAX_DEPTH) at a byte offset into p. */
rc_status rc_ejson_read(const char *p, size_t n, rc_arena *a, rc_bson *out, rc_error *err);
/* The same for a value that begins at p[0] and is followed by more text: *end is the offset
 * of the byte after it (a value embedded in a JSON message). */
rc_status rc_ejson_read_prefix(const char *p, size_t n, size_t *end, rc_arena *a, rc_bson *out, rc_error *err);

typedef enum rc_ejson_mode {
    RC_EJSON_CANONICAL, /* every type kept: {"$numberInt":"1"}; no spaces */
    RC_EJSON_RELAXED,   /* numbers as JSON numbers where JSON has them; no spaces */
    RC_EJSON_SHELL,     /* the Java driver's JsonMode.SHELL: ObjectId("…"); ": " and ", " */
    RC_EJSON_STRICT,    /* the Java driver's legacy JsonMode.STRICT as Debezium's MongoDB connector
                         * writes it (indented with empty strings): {"$numberLong": "5"},
                         * {"$date": ms}, {"$binary": "…", "$type": "00"}, {"$regex": …, "$options":
                         * …}; ": " after a name, "," alone between members and elements */
    RC_EJSON_JAVA_CANONICAL, /* canonical as the Java driver's toJson() writes it: ": " and ", " */
    RC_EJSON_JAVA_RELAXED,   /* relaxed, the same */
} rc_ejson_mode;

void rc_ejson_write(rc_buf *b, const rc_bson *v, rc_ejson_mode mode);

/* Whether s is Decimal128 text: [sign] digits [. digits] [e [sign] digits] with at most 34
 * significant digits and the exponent in range, or NaN / Infinity / Inf with a sign. */
bool rc_decimal128_text_ok(const char *s, size_t n);

#endif
