/* What every JSON decoder keeps between messages: the parsed message and the parsed-type
 * cache. A decoder embeds it and starts each message with rc_jsondec_parse.
 *
 * Lifetime: the events a decoder makes point only into the message text, the caller's arena
 * and the type cache (whose entries live as long as the decoder), never into the node array
 * (reused by the next message). So a caller may keep the events of many messages (a batch)
 * until it resets the arena. */
#ifndef ROWCAST_JSONDEC_H
#define ROWCAST_JSONDEC_H

#include <string.h>
#include "core/json.h"
#include "rowcast/types.h"
#include "rowcast/buf.h"
#include "core/vparse.h"

typedef struct rc_jsondec {
    rc_json json;
    rc_type_cache *types;
} rc_jsondec;

/* false when out of memory (nothing to free then). */
bool rc_jsondec_init(rc_jsondec *d);
void rc_jsondec_fini(rc_jsondec *d);

/* A decoder whose state begins with an rc_jsondec: `size` zeroed bytes with it initialised;
 * rc_jsondec_free releases it (NULL is fine). */
rc_status rc_jsondec_new(size_t size, void **out, rc_error *err);
void rc_jsondec_free(void *dec);

/* Members of a JSON object, for decoders. Absent or null: *out = {0} (*has false). Any other
 * type is a schema error naming the member and its byte. Strings point into the message text
 * or (unescaped) into the arena the message was parsed with; `a` is unused. */
rc_status rc_jsondec_str(const rc_json *j, uint32_t obj, const char *key, rc_arena *a, rc_str *out, rc_error *err);
rc_status rc_jsondec_i64(const rc_json *j, uint32_t obj, const char *key, int64_t *out, bool *has, rc_error *err);
/* The same for member value node v (0: absent) found by the caller, e.g. with
 * rc_json_members; `key` names it in errors. */
rc_status rc_jsondec_str_at(const rc_json *j, uint32_t v, const char *key, rc_str *out, rc_error *err);
rc_status rc_jsondec_i64_at(const rc_json *j, uint32_t v, const char *key, int64_t *out, bool *has, rc_error *err);
/* RC_OK when node i is of type t; else a schema error at its byte: "<what> must be a JSON <t>
 * (found <its type>)", `what` as the message names the member ("\"data\"", "a \"changed\" entry"). */
rc_status rc_jsondec_want(const rc_json *j, uint32_t i, rc_jtype t, const char *what, rc_error *err);
/* An integer member counting `unit` microseconds (1000: milliseconds, 1000000: seconds), as
 * microseconds; a range error naming it when that does not fit in int64. */
rc_status rc_jsondec_us_at(const rc_json *j, uint32_t v, const char *key, int64_t unit, int64_t *us, bool *has, rc_error *err);

/* What a decoder's functions pass around while they read one message: the parsed message, the
 * arena its events go into (rc_jsondec_parse's), and where an error goes. A decoder's own
 * context for a message holds it as its member `r`. */
typedef struct rc_jread {
    const rc_json *j;
    rc_arena *a;
    rc_error *err;
} rc_jread;

/* Node i of the message; whether node i (0: none) is a string, and a string equal to s.
 * Inline: readers call them for every member of a message. */
static inline const rc_jnode *rc_jread_node(const rc_jread *r, uint32_t i) { return &r->j->nodes[i]; }
static inline bool rc_jread_is_str(const rc_jread *r, uint32_t i) { return i && r->j->nodes[i].type == RC_J_STRING; }
static inline bool rc_jread_is(const rc_jread *r, uint32_t i, const char *s)
{
    const rc_jnode *n = &r->j->nodes[i];
    return i && n->type == RC_J_STRING && n->n == strlen(s) && !memcmp(n->s, s, n->n);
}

/* A value parser's failure st for node v: raised at v's byte with the parser's message in verr
 * ("out of memory" when it has none). */
rc_status rc_jread_raise(const rc_jread *r, const rc_jnode *v, rc_status st, const rc_error *verr);
/* Node vn as column col's value, parsed from its text by rc_value_from_text(vo): null is SQL
 * NULL, true and false "1" and "0", a string or number its text, an object or array its JSON
 * text written into `scratch` (reset first); with scratch NULL an object or array is RC_SKIP,
 * the caller's to report. A failure is raised at vn's byte. Inline: it is every JSON reader's
 * per-value path (called from another file it cost the canal reader 1.8% more instructions). */
static inline rc_status rc_jread_value(const rc_jread *r, const rc_column *col, uint32_t vn, const rc_vparse_opts *vo, rc_buf *scratch, rc_value *out)
{
    const rc_jnode *v = &r->j->nodes[vn];
    const char *s = v->s;
    size_t n = v->n;
    switch (v->type) {
    case RC_J_NULL: memset(out, 0, sizeof *out); return RC_OK;
    case RC_J_TRUE:
    case RC_J_FALSE: s = v->type == RC_J_TRUE ? "1" : "0", n = 1; break;
    case RC_J_OBJECT:
    case RC_J_ARRAY:
        if (!scratch) return RC_SKIP;
        rc_buf_reset(scratch);
        rc_json_write(r->j, vn, scratch);
        s = scratch->data, n = scratch->len;
        break;
    default: break; /* a string or a number: its text */
    }
    rc_error verr;
    rc_error_clear(&verr);
    rc_status st = rc_value_from_text(col, s, n, vo, r->a, out, &verr);
    return st == RC_OK ? RC_OK : rc_jread_raise(r, v, st, &verr);
}

/* rc_jsondec_parse for a message that must be a JSON object: anything else is a schema error
 * "<what> must be a JSON object (found <its type>)" at byte 0. On RC_OK *r reads it. */
rc_status rc_jsondec_object(rc_jsondec *d, const char *msg, size_t n, rc_arena *a, const char *what, rc_jread *r, rc_error *err);

/* Parses msg[0..n); strings with escapes are unescaped into `a`, the arena the decoder's events
 * live in. The previous message's nodes are gone; its events are not. */
rc_status rc_jsondec_parse(rc_jsondec *d, const char *msg, size_t n, rc_arena *a, rc_error *err);

#endif
