/* Helpers for the MySQL value tests (test_my_value.c, test_my_json.c): hex, a value's text,
 * and the peer byte-vector files of ../shared/testdata/peers (SOURCES.md, "Extracted byte
 * vectors"): one vector a line, "HEX<TAB>EXPECTED-JSON<TAB>TAG", comments starting with '#'. */
#ifndef RC_TEST_MY_VECTORS_H
#define RC_TEST_MY_VECTORS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/fmt.h"
#include "core/json.h"

#define PEERS RC_SOURCE_DIR "/../shared/testdata/peers/"

/* Hex text -> bytes in `out` (at most cap); returns the count. */
static inline size_t unhex(const char *h, size_t hn, uint8_t *out, size_t cap)
{
    size_t k = 0;
    for (size_t i = 0; i + 1 < hn && k < cap; i += 2) {
        unsigned v;
        sscanf(h + i, "%2x", &v);
        out[k++] = (uint8_t)v;
    }
    return k;
}

/* "kind:text" of a value, in a static buffer: the layouts of core/fmt.h (times and
 * datetimes with the fraction's trailing zeros dropped, timestamps as ISO UTC, bytes as hex). */
static inline const char *show(const rc_value *v)
{
    static char s[70000];
    rc_buf b;
    rc_buf_init(&b, 0);
    rc_buf_puts(&b, rc_vkind_name(v->kind));
    rc_buf_putc(&b, ':');
    switch (v->kind) {
    case RC_V_BOOL: rc_buf_puts(&b, v->b ? "true" : "false"); break;
    case RC_V_INT: rc_fmt_i64(&b, v->i); break;
    case RC_V_UINT:
    case RC_V_BITS: rc_fmt_u64(&b, v->u); break;
    case RC_V_DECIMAL: rc_fmt_dec_plain(&b, &v->dec); break;
    case RC_V_FLOAT32: rc_fmt_f32_java(&b, v->f32); break;
    case RC_V_FLOAT64: rc_fmt_f64_java(&b, v->f64); break;
    case RC_V_BYTES: rc_fmt_hex(&b, (const unsigned char *)v->s.p, v->s.n, false); break;
    case RC_V_DATE: rc_fmt_date(&b, &v->date); break;
    case RC_V_TIME: rc_fmt_time(&b, &v->time); break;
    case RC_V_DATETIME: rc_fmt_datetime(&b, &v->dt, ' ', true); break;
    case RC_V_TIMESTAMP: rc_fmt_ts_iso(&b, &v->ts); break;
    case RC_V_NULL:
    case RC_V_UNAVAILABLE: break;
    default: rc_buf_put(&b, v->s.p, v->s.n); break;
    }
    size_t n = b.len < sizeof s - 1 ? b.len : sizeof s - 1;
    memcpy(s, b.data, n);
    s[n] = '\0';
    rc_buf_fini(&b);
    return s;
}

/* One vector of a file: bytes, the expected JSON (parsed in j, root 0) and the tag. */
typedef struct vec {
    uint8_t bytes[70000];
    size_t n;
    rc_json j;
    char tag[200];
    const char *file;
} vec;

/* Calls fn for each vector of the file (a path below PEERS); returns how many there were.
 * Fails the test when the file is missing although ../shared is there. */
static inline unsigned each_vector(const char *rel, void (*fn)(vec *v, void *ctx), void *ctx)
{
    char path[1024];
    snprintf(path, sizeof path, "%s%s", PEERS, rel);
    FILE *f = fopen(path, "r");
    if (!f) fail_msg("missing vector file %s", path);
    static char line[200000];
    static vec v;
    rc_arena a;
    rc_arena_init(&a);
    unsigned count = 0;
    while (fgets(line, sizeof line, f)) {
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r')) line[--len] = '\0';
        if (!len || line[0] == '#') continue;
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (!t1 || !t2) fail_msg("%s: a line without three columns: %s", rel, line);
        v.n = unhex(line, (size_t)(t1 - line), v.bytes, sizeof v.bytes);
        snprintf(v.tag, sizeof v.tag, "%s", t2 + 1);
        v.file = rel;
        rc_arena_reset(&a);
        rc_json_init(&v.j, &a);
        rc_error err;
        rc_error_clear(&err);
        if (rc_json_parse(&v.j, t1 + 1, (size_t)(t2 - t1 - 1), &err) != RC_OK) fail_msg("%s %s: expected JSON: %s", rel, v.tag, err.message);
        fn(&v, ctx);
        rc_json_fini(&v.j);
        count++;
    }
    fclose(f);
    rc_arena_fini(&a);
    return count;
}

/* The expected object's member `key`: its string (or number text), NULL when absent/null. */
static inline const char *member(const vec *v, const char *key, char *buf, size_t cap)
{
    uint32_t i = rc_json_get(&v->j, 0, key);
    if (!i) return NULL;
    const rc_jnode *n = rc_json_node(&v->j, i);
    if (n->type == RC_J_NULL) return NULL;
    snprintf(buf, cap, "%.*s", (int)n->n, n->s);
    return buf;
}
static inline long member_int(const vec *v, const char *key, long dflt)
{
    char b[64];
    const char *s = member(v, key, b, sizeof b);
    return s ? strtol(s, NULL, 10) : dflt;
}

static inline bool peers_present(void)
{
    FILE *f = fopen(PEERS "SOURCES.md", "r");
    if (f) fclose(f);
    return f != NULL;
}

#endif
