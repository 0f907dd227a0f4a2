/* A config file's lines into entries (config_parse.h). */
#include "cli/config_parse.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/format.h"

typedef struct line_ctx {
    cli_config_error_fn error;
    void *ctx;
    unsigned line;
} line_ctx;

static bool is_blank(char ch) { return ch == ' ' || ch == '\t'; }

static bool is_key_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
}

static bool is_name_char(char ch, bool first)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || (!first && ch >= '0' && ch <= '9');
}

static void say(const line_ctx *l, size_t col, const char *fmt, const char *arg)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, arg);
    l->error(l->ctx, l->line, (unsigned)col + 1, msg);
}

/* A growing string; `failed` once memory ran out. */
typedef struct text_buf {
    char *p;
    size_t len, cap;
    bool failed;
} text_buf;

static void put(text_buf *b, const char *s, size_t n)
{
    if (b->failed) return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->len + n + 1) * 2;
        char *p = realloc(b->p, cap);
        if (!p) {
            b->failed = true;
            return;
        }
        b->p = p, b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

/* value[0..n) with ${NAME} expanded and $$ as $ into `out`; false after saying why (`col0`: the
 * value's 0-based column in its line). */
static bool expand(const line_ctx *l, const char *v, size_t n, size_t col0, text_buf *out)
{
    put(out, "", 0);
    for (size_t i = 0; i < n; i++) {
        if (v[i] != '$' || i + 1 == n || (v[i + 1] != '$' && v[i + 1] != '{')) {
            put(out, v + i, 1);
            continue;
        }
        if (v[i + 1] == '$') {
            put(out, "$", 1), i++;
            continue;
        }
        size_t s = i + 2, e = s;
        while (e < n && is_name_char(v[e], e == s)) e++;
        if (e == n || v[e] != '}' || e == s) {
            say(l, col0 + i, e == s ? "'${' needs a variable name (letters, digits, '_'), then '}'%s" : "'${' without its '}'%s", "");
            return false;
        }
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)(e - s), v + s);
        const char *env = getenv(name);
        if (!env) {
            say(l, col0 + i, "the environment variable %s is not set", name);
            return false;
        }
        put(out, env, strlen(env));
        i = e;
    }
    return true;
}

static char *dup_n(const char *s, size_t n)
{
    char *p = malloc(n + 1);
    if (p) memcpy(p, s, n), p[n] = '\0';
    return p;
}

/* One line (without its '\n' and '\r'): an entry appended, nothing (blank, comment), or an error. */
static int one_line(const line_ctx *l, const char *s, size_t n, cli_config *out)
{
    size_t k = 0;
    while (k < n && is_blank(s[k])) k++;
    if (k == n || s[k] == '#') return 0;
    const char *nul = memchr(s, '\0', n);
    if (nul) return say(l, (size_t)(nul - s), "a NUL byte%s", ""), 1;
    size_t ke = k;
    while (ke < n && is_key_char(s[ke])) ke++;
    size_t eq = ke;
    while (eq < n && is_blank(s[eq])) eq++;
    if (!memchr(s + k, '=', n - k)) return say(l, n, "a line is KEY = VALUE, and this one has no '='%s", ""), 1;
    if (ke == k && s[k] == '=') return say(l, k, "no key before '='%s", ""), 1;
    if (s[eq] != '=') {
        char ch[8];
        snprintf(ch, sizeof ch, (unsigned char)s[eq] < 0x20 || (unsigned char)s[eq] >= 0x7f ? "\\x%02x" : "%c", (unsigned char)s[eq]);
        return say(l, eq, "a key is letters, digits, '.', '_' and '-', then '=': found '%s'", ch), 1;
    }
    if (out->count == CLI_CONFIG_MAX_KEYS) return say(l, k, "more than 512 keys%s", ""), 1;
    size_t vs = eq + 1, ve = n;
    while (vs < ve && is_blank(s[vs])) vs++;
    while (ve > vs && is_blank(s[ve - 1])) ve--;
    text_buf value = {0};
    if (!expand(l, s + vs, ve - vs, vs, &value)) {
        free(value.p);
        return 1;
    }
    char *key = dup_n(s + k, ke - k);
    if (!key || value.failed) {
        free(key), free(value.p);
        return -1;
    }
    out->items[out->count++] = (cli_config_entry){key, value.p, l->line, (unsigned)vs + 1};
    return 0;
}

int cli_config_parse(const char *text, size_t n, cli_config *out, cli_config_error_fn error, void *ctx)
{
    memset(out, 0, sizeof *out);
    line_ctx l = {error, ctx, 0};
    int bad = 0;
    if (!(out->items = calloc(CLI_CONFIG_MAX_KEYS, sizeof *out->items))) return error(ctx, 0, 0, "out of memory"), -1;
    for (size_t at = 0; at < n;) {
        const char *nl = memchr(text + at, '\n', n - at);
        size_t len = nl ? (size_t)(nl - (text + at)) : n - at, end = len;
        if (end && text[at + end - 1] == '\r') end--;
        l.line++;
        int r = one_line(&l, text + at, end, out);
        if (r < 0) return error(ctx, 0, 0, "out of memory"), -1;
        bad += r;
        at += len + 1;
    }
    return bad;
}

void cli_config_fini(cli_config *c)
{
    /* a value may be a secret (`kafka.sasl.password = ${PW}`): wiped before it is freed */
    for (size_t i = 0; i < c->count; i++) free(c->items[i].key), rc_option_secret_free(c->items[i].value);
    free(c->items);
    memset(c, 0, sizeof *c);
}
