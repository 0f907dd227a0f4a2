/* A JSON reader for decoders. It parses one document into a flat array of nodes that is
 * reused from document to document. Numbers are handed over as their original text, so
 * `10223372036854775806` and 300-digit decimals survive; strings are unescaped (into the
 * reader's scratch memory) and checked to be valid UTF-8. Every node records the byte
 * offset where it starts, and errors give the offset of the offending byte. */
#ifndef ROWCAST_JSON_H
#define ROWCAST_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/error.h"

typedef enum rc_jtype { RC_J_NULL = 0, RC_J_FALSE, RC_J_TRUE, RC_J_NUMBER, RC_J_STRING, RC_J_ARRAY, RC_J_OBJECT, RC_J_MEMO } rc_jtype;

/* One node. For arrays, children are the elements; for objects, children alternate key
 * (a string node) and value. `next` is the index of the next sibling (0 = none; node 0 is
 * always the root, which has no siblings). */
typedef struct rc_jnode {
    uint8_t type;  /* rc_jtype */
    uint32_t next;
    uint32_t first; /* first child, 0 if none */
    uint32_t count; /* arrays: elements; objects: members */
    size_t off;     /* byte offset of the node's first character */
    const char *s;  /* strings: unescaped bytes; numbers, arrays, objects and memo nodes: the
                     * original text (a container's from its bracket to its closing bracket) */
    size_t n;
} rc_jnode;

/* A value the caller has seen before (see rc_json.memo): when a member of the root object
 * named `key` has a value whose text is exactly `text` (a whole array or object, as it appeared
 * in an earlier document), the reader does not parse it again but makes one RC_J_MEMO node
 * (s/n: the text in this document, count: the memo's index). A JSON array or object ends at
 * its own closing bracket, so text that begins with `text` has that very value there; `text`
 * must have been read without error before. */
typedef struct rc_json_memo {
    const char *key;
    size_t keyn;
    const char *text; /* NULL or n == 0: not in use */
    size_t n;
} rc_json_memo;

struct rc_buf;
/* Makes text[0..n) (read without error) memo m's text, copied into `copy`, a buffer the caller
 * keeps with the memo and reuses; false when out of memory (m is then not in use). */
bool rc_json_memo_keep(rc_json_memo *m, struct rc_buf *copy, const char *text, size_t n);

typedef struct rc_json {
    rc_jnode *nodes;
    uint32_t nnodes, cap;
    uint32_t max_depth;
    rc_arena *arena; /* unescaped strings that contained escapes */
    const rc_json_memo *memo; /* values to recognise instead of parsing (none: NULL) */
    unsigned nmemo;
} rc_json;

void rc_json_init(rc_json *j, rc_arena *arena);
void rc_json_fini(rc_json *j);

/* Parses exactly one JSON value (surrounding whitespace allowed) from p[0..n). Returns the
 * root node (index 0) on success. */
rc_status rc_json_parse(rc_json *j, const char *p, size_t n, rc_error *err);

static inline const rc_jnode *rc_json_node(const rc_json *j, uint32_t i) { return &j->nodes[i]; }

/* Object member lookup by key; returns the value node index or 0 when absent. */
uint32_t rc_json_get(const rc_json *j, uint32_t obj, const char *key);

/* Member names a decoder looks up together, in one pass over an object (rc_json_members)
 * instead of one pass per name. */
enum { RC_JKEYS_MAX = 32 };
typedef struct rc_jkeys {
    const char *const *names;
    unsigned n;
    uint8_t len[RC_JKEYS_MAX];
    uint8_t slot[64]; /* by a hash of length, first and last byte: index + 1, 0 empty */
} rc_jkeys;

/* names[0..n): distinct, 1 to 255 bytes, n <= RC_JKEYS_MAX; the array must outlive k. */
void rc_jkeys_init(rc_jkeys *k, const char *const *names, unsigned n);
/* out[i] = the value node of the first member of object obj named k->names[i] (as
 * rc_json_get), 0 when there is none or obj is not an object. */
void rc_json_members(const rc_json *j, uint32_t obj, const rc_jkeys *k, uint32_t *out);
/* As rc_json_members, for a reader that accepts no other names: returns the key node of the
 * first member (in document order) whose name is not one of k's or repeats an earlier one
 * (then *repeated is set), 0 when every member is known and unique (out is then complete). */
uint32_t rc_json_members_strict(const rc_json *j, uint32_t obj, const rc_jkeys *k, uint32_t *out, bool *repeated);

const char *rc_jtype_name(rc_jtype t);

struct rc_buf;
/* Writes the value at node i as compact JSON (numbers as their original text, strings with
 * the shared escaping; a memo node as its text), e.g. to keep a nested JSON column as text. */
void rc_json_write(const rc_json *j, uint32_t i, struct rc_buf *out);

#endif
