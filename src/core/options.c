/* `-o key=value` options (typed readers, secrets) and the per-message event list. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/format.h"
#include "core/names.h"

enum { SECRET_MAX = 1 << 20 }; /* a key or a JAAS line is kilobytes; anything bigger is not one */

const char *rc_options_get(const rc_options *o, const char *key)
{
    const char *v = NULL;
    for (size_t i = 0; o && i < o->count; i++) /* the last occurrence wins */
        if (strcmp(o->items[i].key, key) == 0) v = o->items[i].value;
    return v;
}

rc_status rc_options_check(const rc_options *o, const char *prefix, const rc_option_desc *known, rc_error *err)
{
    size_t pl = strlen(prefix);
    for (size_t i = 0; o && i < o->count; i++) {
        const char *k = o->items[i].key;
        if (strncmp(k, prefix, pl) != 0 || k[pl] != '.') continue;
        bool ok = false;
        rc_suggest sg;
        rc_suggest_init(&sg, k);
        for (const rc_option_desc *d = known; d && d->key; d++) {
            if (strcmp(d->key, k) == 0) ok = true;
            rc_suggest_offer(&sg, d->key);
        }
        if (ok) continue;
        if (sg.best)
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "unknown option '%s': did you mean '%s'? (rowcast formats --options)", k,
                                sg.best);
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "unknown option '%s' (see rowcast formats --options)", k);
    }
    return RC_OK;
}

bool rc_option_is_secret(const char *key)
{
    static const char *const words[] = {"password", "passwd", "secret", "token"};
    static const char *const endings[] = {"key.pem", "jaas.config", "oauthbearer.config"};
    const char *dot = strrchr(key, '.');
    const char *last = dot ? dot + 1 : key;
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strstr(last, words[i])) return true;
    size_t kl = strlen(key);
    for (size_t i = 0; i < sizeof endings / sizeof *endings; i++) {
        size_t el = strlen(endings[i]);
        if (kl >= el && !strcmp(key + kl - el, endings[i]) && (kl == el || key[kl - el - 1] == '.')) return true;
    }
    return false;
}

/* Zeroes a secret before its memory is freed: through volatile, so the stores are not dropped
 * as dead (explicit_bzero is not in C11 / POSIX). */
static void wipe(char *p, size_t n)
{
    volatile char *v = p;
    while (n--) *v++ = 0;
}

/* The contents of `path` without one trailing newline, malloc'd; messages name the file only. */
static rc_status secret_file(const char *key, const char *path, char **out, rc_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=@%s: cannot read %s: %s", key, path, path, strerror(errno));
    char *v = malloc(SECRET_MAX + 1);
    size_t n = v ? fread(v, 1, SECRET_MAX + 1, f) : 0;
    bool failed = v && ferror(f);
    fclose(f);
    rc_status st = RC_OK;
    if (!v) st = rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    else if (failed) st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=@%s: cannot read %s", key, path, path);
    else if (n > SECRET_MAX) st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=@%s: %s is larger than 1 MiB", key, path, path);
    else if (memchr(v, '\0', n)) st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=@%s: %s holds a NUL byte", key, path, path);
    if (st == RC_OK) {
        if (n && v[n - 1] == '\n') n--;
        if (n && v[n - 1] == '\r') n--;
        v[n] = '\0';
        if (!n) st = rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=@%s: %s is empty", key, path, path);
    }
    if (st != RC_OK) {
        if (v) wipe(v, n);
        free(v);
        return st;
    }
    *out = v;
    return RC_OK;
}

rc_status rc_option_secret_read(const char *key, const char *spec, char **out, rc_error *err)
{
    *out = NULL;
    if (spec[0] == '@') {
        if (!spec[1]) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=@: a file name must follow '@'", key);
        return secret_file(key, spec + 1, out, err);
    }
    if (strncmp(spec, "env:", 4) != 0) return RC_OK;
    const char *name = spec + 4, *v = name[0] ? getenv(name) : NULL;
    if (!name[0]) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=env:: a variable name must follow 'env:'", key);
    if (!v) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=env:%s: the environment variable %s is not set", key, name, name);
    if (!v[0]) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s=env:%s: the environment variable %s is empty", key, name, name);
    if (!(*out = strdup(v))) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    return RC_OK;
}

void rc_option_secret_free(char *value)
{
    if (!value) return;
    /* the value dies with the process anyway; this keeps it out of later heap reuse and core dumps */
    wipe(value, strlen(value));
    free(value);
}

bool rc_event_list_accepts(rc_event_list *l, rc_str db, rc_str table)
{
    if (!l->accept || !table.n || l->accept(l->accept_ctx, db, table)) return true;
    l->rejected++;
    return false;
}

rc_event *rc_event_list_push(rc_event_list *l)
{
    if (l->count == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        rc_event *n = realloc(l->items, cap * sizeof *n);
        if (!n) return NULL;
        l->items = n;
        l->cap = cap;
    }
    rc_event *e = &l->items[l->count++];
    memset(e, 0, sizeof *e);
    return e;
}

void rc_event_list_fini(rc_event_list *l)
{
    free(l->items);
    l->items = NULL;
    l->count = l->cap = 0;
}

/* A value as an error message may show it: a secret's never is. */
static const char *shown(const char *key, const char *v) { return rc_option_is_secret(key) ? "(secret)" : v; }

/* The typed readers of one value `v` of option `key`. */
static rc_status read_bool(const char *key, const char *v, bool *out, rc_error *err)
{
    if (!strcmp(v, "true") || !strcmp(v, "1") || !strcmp(v, "yes")) return *out = true, RC_OK;
    if (!strcmp(v, "false") || !strcmp(v, "0") || !strcmp(v, "no")) return *out = false, RC_OK;
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s must be true or false, not '%s'", key, shown(key, v));
}

static rc_status read_choice(const char *key, const char *v, const char *choices, int *out, rc_error *err)
{
    size_t vl = strlen(v);
    int idx = 0;
    for (const char *p = choices;; idx++) {
        const char *bar = strchr(p, '|');
        size_t l = bar ? (size_t)(bar - p) : strlen(p);
        if (l == vl && !strncmp(p, v, l)) return *out = idx, RC_OK;
        if (!bar) break;
        p = bar + 1;
    }
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s must be one of %s, not '%s'", key, choices, shown(key, v));
}

static rc_status read_int(const char *key, const char *v, long min, long max, long *out, rc_error *err)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (!*v || *end || errno || x < min || x > max)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s must be an integer from %ld to %ld, not '%s'", key, min,
                            max, shown(key, v));
    *out = x;
    return RC_OK;
}

rc_status rc_options_bool(const rc_options *o, const char *key, bool *out, rc_error *err)
{
    const char *v = rc_options_get(o, key);
    return v ? read_bool(key, v, out, err) : RC_OK;
}

rc_status rc_options_choice(const rc_options *o, const char *key, const char *choices, int *out, rc_error *err)
{
    const char *v = rc_options_get(o, key);
    return v ? read_choice(key, v, choices, out, err) : RC_OK;
}

rc_status rc_options_int(const rc_options *o, const char *key, long min, long max, long *out, rc_error *err)
{
    const char *v = rc_options_get(o, key);
    return v ? read_int(key, v, min, max, out, err) : RC_OK;
}

rc_status rc_options_tz(const rc_options *o, const char *key, rc_tz *out, rc_error *err)
{
    const char *v = rc_options_get(o, key);
    return v ? rc_tz_parse(v, key, out, err) : RC_OK;
}

/* Reads value `v` of option d into its field. */
static rc_status read_value(const rc_option_desc *d, const char *v, char *field, rc_error *err)
{
    switch (d->type) {
    case RC_OPT_BOOL: return read_bool(d->key, v, (bool *)field, err);
    case RC_OPT_CHOICE: return read_choice(d->key, v, d->values, (int *)field, err);
    case RC_OPT_INT: return read_int(d->key, v, d->min, d->max, (long *)field, err);
    case RC_OPT_TZ: return rc_tz_parse(v, d->key, (rc_tz *)field, err);
    case RC_OPT_STRING: *(const char **)field = v; return RC_OK;
    case RC_OPT_FUNC: return d->parse(d->key, v, field, err);
    }
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "option %s has no type", d->key);
}

/* A default that is one value (not NULL, not a "(...)" text saying what decides it). */
static bool default_is_value(const rc_option_desc *d) { return d->def && d->def[0] != '('; }

rc_status rc_options_parse(const rc_options *o, const char *prefix, const rc_option_desc *table, void *target, rc_error *err)
{
    rc_status st = rc_options_check(o, prefix, table, err);
    if (st != RC_OK) return st;
    /* every default first: two keys may share a field (an alias), and a given value of either wins */
    for (const rc_option_desc *d = table; d->key; d++) {
        if (default_is_value(d) && (st = read_value(d, d->def, (char *)target + d->off, err)) != RC_OK) return st;
    }
    /* then the given values in command-line order, each key's last occurrence only: of two
     * aliases the one given last wins, as of one key given twice */
    for (size_t i = 0; o && i < o->count; i++) {
        const char *k = o->items[i].key;
        size_t j = i + 1;
        while (j < o->count && strcmp(o->items[j].key, k)) j++;
        if (j < o->count) continue; /* given again later */
        const rc_option_desc *d = table;
        while (d->key && strcmp(d->key, k)) d++;
        if (d->key && (st = read_value(d, o->items[i].value, (char *)target + d->off, err)) != RC_OK) return st;
    }
    return RC_OK;
}

const char *rc_option_values(const rc_option_desc *d)
{
    if (d->values) return d->values;
    switch (d->type) {
    case RC_OPT_BOOL: return "true|false";
    case RC_OPT_INT: return "N";
    case RC_OPT_TZ: return "UTC|+HH:MM|Area/City";
    default: return "TEXT";
    }
}

const char *rc_option_type_name(const rc_option_desc *d, char *buf, size_t cap)
{
    switch (d->type) {
    case RC_OPT_BOOL: return "boolean";
    case RC_OPT_CHOICE: return "choice";
    case RC_OPT_INT: snprintf(buf, cap, "integer from %ld to %ld", d->min, d->max); return buf;
    case RC_OPT_TZ: return "time zone";
    case RC_OPT_STRING: return "text";
    case RC_OPT_FUNC: break;
    }
    return "text";
}
