/* Avro-valid schema names and collision detection (see names.h). */
#include <stdlib.h>
#include <string.h>
#include "core/names.h"

static bool name_char(char c, bool first)
{
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_') return true;
    return !first && c >= '0' && c <= '9';
}

bool rc_avro_fullname(rc_buf *out, const rc_str *parts, size_t n)
{
    bool clean = true;
    size_t start = out->len;
    for (size_t k = 0; k < n; k++) {
        if (k) rc_buf_putc(out, '.');
        for (size_t i = 0; i < parts[k].n; i++) {
            char c = parts[k].p[i];
            bool ok = name_char(c, out->len == start);
            if (!ok) clean = false;
            rc_buf_putc(out, ok ? c : '_');
        }
    }
    return clean;
}

typedef struct entry {
    char *adjusted, *original;
    size_t an, on;
    struct entry *next;
} entry;

enum { REG_BUCKETS = 1024 };

struct rc_name_registry {
    entry *buckets[REG_BUCKETS];
};

rc_name_registry *rc_name_registry_new(void) { return calloc(1, sizeof(rc_name_registry)); }

void rc_name_registry_free(rc_name_registry *r)
{
    if (!r) return;
    for (int i = 0; i < REG_BUCKETS; i++) {
        entry *e = r->buckets[i];
        while (e) {
            entry *next = e->next;
            free(e->adjusted);
            free(e->original);
            free(e);
            e = next;
        }
    }
    free(r);
}

static char *dup(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) memcpy(d, s, n), d[n] = '\0';
    return d;
}

rc_status rc_name_registry_add(rc_name_registry *r, const char *original, size_t on, const char *adjusted, size_t an,
                               rc_error *err)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < an; i++) h = (h ^ (unsigned char)adjusted[i]) * 1099511628211ull;
    entry **slot = &r->buckets[h % REG_BUCKETS];
    for (entry *e = *slot; e; e = e->next) {
        if (e->an != an || memcmp(e->adjusted, adjusted, an)) continue;
        if (e->on == on && !memcmp(e->original, original, on)) return RC_OK;
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET,
                            "schema name collision: \"%.*s\" and \"%.*s\" both become the Avro name \"%.*s\"", (int)e->on,
                            e->original, (int)on, original, (int)an, adjusted);
    }
    entry *e = calloc(1, sizeof *e);
    if (!e || !(e->adjusted = dup(adjusted, an)) || !(e->original = dup(original, on))) {
        if (e) free(e->adjusted), free(e);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    e->an = an, e->on = on, e->next = *slot;
    *slot = e;
    return RC_OK;
}

enum { NAME_MAX_LEN = 128 }; /* longer names are never near a typo worth suggesting */

static unsigned char lower(char c) { return (unsigned char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); }

size_t rc_name_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > NAME_MAX_LEN || m > NAME_MAX_LEN) return (size_t)-1;
    /* three rows of the dynamic-programming table: two back (for a swap), one back, this one */
    size_t rows[3][NAME_MAX_LEN + 1];
    size_t *pp = rows[0], *p = rows[1], *c = rows[2];
    for (size_t j = 0; j <= m; j++) p[j] = j;
    for (size_t i = 1; i <= n; i++) {
        c[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t cost = lower(a[i - 1]) != lower(b[j - 1]);
            size_t d = p[j - 1] + cost;
            if (p[j] + 1 < d) d = p[j] + 1;
            if (c[j - 1] + 1 < d) d = c[j - 1] + 1;
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]) && pp[j - 2] + 1 < d)
                d = pp[j - 2] + 1;
            c[j] = d;
        }
        size_t *t = pp;
        pp = p, p = c, c = t;
    }
    return p[m];
}

void rc_suggest_init(rc_suggest *s, const char *given) { *s = (rc_suggest){.given = given}; }

void rc_suggest_offer(rc_suggest *s, const char *candidate)
{
    size_t limit = strlen(s->given) / 3;
    if (limit < 1) limit = 1;
    if (limit > 4) limit = 4;
    size_t d = rc_name_distance(s->given, candidate);
    if (d > limit || (s->best && d >= s->best_d)) return;
    s->best = candidate, s->best_d = d;
}
