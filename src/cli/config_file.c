/* A config file's keys applied to a command's run through its flag tables (config_file.h). */
#include "cli/config_file.h"
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli/config_parse.h"
#include "core/log.h"
#include "core/names.h"
#include "rowcast/format.h"
#include "rowcast/source.h"

enum { FILE_MAX = 1 << 20 }; /* a config file is lines of text: anything bigger is not one */

struct cli_config_state {
    cli_config cfg;
    char *kv[CLI_CONFIG_MAX_KEYS]; /* "KEY=VALUE" of each -o key, which -o's setter splits in place */
    size_t nkv;
    bool used[CLI_CONFIG_MAX_KEYS]; /* each entry's value is the run's (the command line gave none) */
};

/* The bytes of `path` (malloc'd, their count in *n), else NULL and the reason in *why. */
static char *read_file(const char *path, size_t *n, const char **why)
{
    FILE *f = fopen(path, "rb");
    char *text = f ? malloc(FILE_MAX + 1) : NULL;
    *n = text ? fread(text, 1, FILE_MAX + 1, f) : 0;
    *why = !f ? strerror(errno) : !text ? "out of memory" : ferror(f) ? strerror(errno) : *n > FILE_MAX ? "larger than 1 MiB" : NULL;
    if (f) fclose(f);
    if (!*why) return text;
    free(text);
    return NULL;
}

/* A message about the key being applied (r->where says its line): EXIT_USAGE. */
__attribute__((format(printf, 2, 3))) static int say(const cli_run *r, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cli_run_usage_error(r, "%s", msg);
}

/* The file's bad lines, said in line order among its keys' errors (parse_errors_before). */
typedef struct parse_errors {
    const cli_run *r;
    struct {
        unsigned line;
        char text[400];
    } items[CLI_CONFIG_MAX_KEYS];
    size_t count, said;
} parse_errors;

static void line_error(void *ctx, unsigned line, unsigned col, const char *msg)
{
    parse_errors *pe = ctx;
    if (pe->count == CLI_CONFIG_MAX_KEYS) return;
    const char *path = pe->r->config_path;
    if (line) snprintf(pe->items[pe->count].text, sizeof pe->items->text, "%s:%u:%u: %s", path, line, col, msg);
    else snprintf(pe->items[pe->count].text, sizeof pe->items->text, "%s: %s", path, msg);
    pe->items[pe->count++].line = line;
}

/* Says the bad lines before `line`. */
static void parse_errors_before(parse_errors *pe, unsigned line)
{
    for (; pe->said < pe->count && pe->items[pe->said].line < line; pe->said++)
        rc_logf("rowcast %s: %s\n", pe->r->cmd, pe->items[pe->said].text);
}

/* A second line of a key that takes one value. */
static int twice(const cli_run *r, const cli_config_entry *e, const cli_config_entry *first)
{
    return say(r, "'%s' is given twice (line %u first); it takes one value", e->key, first->line);
}

static bool parsed(const cli_flag *f)
{
    return f->kind == CLI_SWITCH || f->kind == CLI_VALUE || f->kind == CLI_OPTIONAL;
}

/* A key that is no flag's name: the closest flag's, or what keys are. */
static int unknown_flag(const cli_run *r, const char *key)
{
    rc_suggest sg;
    rc_suggest_init(&sg, key);
    const cli_flag *const tables[] = {r->table, cli_run_flags};
    for (size_t t = 0; t < 2; t++)
        for (const cli_flag *f = tables[t]; f->kind; f++)
            if ((parsed(f) && !strncmp(f->name, "--", 2) && strcmp(f->name, "--config")) || f->kind == CLI_ARGS)
                rc_suggest_offer(&sg, f->name + (f->kind != CLI_ARGS) * 2);
    if (sg.best) return say(r, "unknown key '%s': did you mean '%s'?", key, sg.best);
    return say(r, "unknown key '%s': a key without a dot is a flag's name without '--' (rowcast help %s)", key, r->cmd);
}

/* Whether -o `key` is an option of the format or source its prefix names, or of the Kafka sink
 * (kafka.*: any librdkafka property); the closest known keys offered to `sg`, where they are
 * listed in *where. */
static bool option_known(const char *key, rc_suggest *sg, const char **where)
{
    *where = "rowcast formats --options";
    char prefix[64], url[80];
    snprintf(prefix, sizeof prefix, "%.*s", (int)strcspn(key, "."), key);
    if (!strcmp(prefix, "kafka")) return true;
    snprintf(url, sizeof url, "%s://", prefix);
    const rc_format *f = rc_format_find(prefix);
    const rc_source_ops *src = f ? NULL : rc_source_find(url);
    if (!f && !(src && src->option_prefix && !strcmp(src->option_prefix, prefix))) {
        for (const rc_format_name *n = rc_format_names; n->name; n++)
            for (const rc_option_desc *d = n->format ? n->format->options : NULL; d && d->key; d++) rc_suggest_offer(sg, d->key);
        return false;
    }
    if (!f) *where = "rowcast help capture";
    for (const rc_option_desc *d = f ? f->options : src->options; d && d->key; d++) {
        if (!strcmp(d->key, key)) return true;
        rc_suggest_offer(sg, d->key);
    }
    return false;
}

/* A key with a dot: -o KEY=VALUE, unless the command line gave KEY (`cmd_opts`: its -o count);
 * *used when the file's value is the run's. */
static int option_entry(cli_run *r, const cli_config_entry *e, size_t cmd_opts, bool *used)
{
    for (size_t k = 0; k < cmd_opts; k++)
        if (!strcmp(r->opt_items[k].key, e->key)) return EXIT_OK;
    *used = true;
    rc_suggest sg;
    rc_suggest_init(&sg, e->key);
    const char *where;
    if (!option_known(e->key, &sg, &where)) {
        if (sg.best) return say(r, "unknown key '%s': did you mean '%s'? (%s)", e->key, sg.best, where);
        return say(r, "unknown key '%s': a key with a dot is an -o option (%s)", e->key, where);
    }
    struct cli_config_state *st = r->config;
    size_t kl = strlen(e->key), vl = strlen(e->value);
    char *kv = malloc(kl + vl + 2);
    if (!kv) return say(r, "out of memory");
    memcpy(kv, e->key, kl), kv[kl] = '=', memcpy(kv + kl + 1, e->value, vl + 1);
    st->kv[st->nkv++] = kv;
    return cli_flag_apply(r, cli_flag_find(r, "-o"), kv);
}

/* A flag's value: a switch's true or false (false: its --no- row, when it has one), an optional
 * value's true (the flag alone), false (not given) or value. */
static int flag_value(cli_run *r, const cli_flag *f, const cli_config_entry *e)
{
    const char *v = e->value;
    bool yes = !strcmp(v, "true"), no = !strcmp(v, "false");
    if (f->kind == CLI_SWITCH && !yes && !no) return say(r, "'%s' is a switch: its value is true or false", e->key);
    if (f->kind == CLI_SWITCH && no) {
        char name[80];
        snprintf(name, sizeof name, "--no-%s", e->key);
        const cli_flag *neg = cli_flag_find(r, name);
        return neg ? cli_flag_apply(r, neg, NULL) : EXIT_OK;
    }
    if (f->kind == CLI_SWITCH || (f->kind == CLI_OPTIONAL && yes)) return cli_flag_apply(r, f, NULL);
    if (f->kind == CLI_OPTIONAL && no) return EXIT_OK;
    if (!*v) return say(r, "'%s' needs a value", e->key);
    return cli_flag_apply(r, f, v);
}

/* A key without a dot: the positional arguments' key, else a flag, unless the command line gave
 * it (*used when the file's value is the run's); `dup` is an earlier line of the same key. */
static int flag_entry(cli_run *r, const cli_config_entry *e, const cli_config_entry *dup, int (*positional)(cli_run *r, const char *arg),
                      bool *used)
{
    const cli_flag *args = cli_flag_args(r);
    char name[80];
    snprintf(name, sizeof name, "--%s", e->key);
    const cli_flag *f = args && !strcmp(e->key, args->name) ? args : strlen(e->key) < 64 ? cli_flag_find(r, name) : NULL;
    if (!f || (f != args && !parsed(f))) return unknown_flag(r, e->key);
    if (!strcmp(f->name, "--config")) return say(r, "a config file names no other one ('config')");
    if (dup && !f->many) return twice(r, e, dup);
    *used = f == args ? !r->npositional : !cli_flag_given(r, f);
    if (!*used) return EXIT_OK;
    return f == args ? positional(r, e->value) : flag_value(r, f, e);
}

int cli_config_load(cli_run *r, int (*positional)(cli_run *r, const char *arg))
{
    size_t n;
    const char *why;
    char *text = read_file(r->config_path, &n, &why);
    if (!text) {
        char msg[512];
        snprintf(msg, sizeof msg, "--config %s: cannot read it: %s", r->config_path, why);
        return cli_run_usage_error(r, "%s", msg);
    }
    if (!(r->config = calloc(1, sizeof *r->config))) {
        free(text);
        return say(r, "out of memory");
    }
    cli_config *cfg = &r->config->cfg;
    parse_errors *pe = malloc(sizeof *pe);
    if (pe) pe->r = r, pe->count = pe->said = 0;
    int bad = pe ? cli_config_parse(text, n, cfg, line_error, pe) : -1;
    free(text);
    if (bad < 0) {
        free(pe);
        return say(r, "out of memory");
    }
    size_t cmd_opts = r->opts.count;
    int rc = EXIT_OK;
    for (size_t i = 0; i < cfg->count && rc != CLI_DONE; i++) {
        const cli_config_entry *e = &cfg->items[i], *dup = NULL;
        for (size_t j = 0; j < i && !dup; j++)
            if (!strcmp(cfg->items[j].key, e->key)) dup = &cfg->items[j];
        parse_errors_before(pe, e->line);
        snprintf(r->where, sizeof r->where, "%s:%u", r->config_path, e->line);
        bool *used = &r->config->used[i];
        if (strchr(e->key, '.'))
            rc = dup ? twice(r, e, dup) : option_entry(r, e, cmd_opts, used);
        else rc = flag_entry(r, e, dup, positional, used);
        bad += rc != EXIT_OK && rc != CLI_DONE;
    }
    parse_errors_before(pe, ~0u);
    free(pe);
    r->where[0] = '\0';
    if (!bad) return rc;
    rc_logf("(see rowcast help %s; the file's format: docs/config.md)\n", r->cmd);
    return EXIT_USAGE;
}

void cli_config_free(cli_run *r)
{
    if (!r->config) return;
    for (size_t k = 0; k < r->config->nkv; k++) rc_option_secret_free(r->config->kv[k]);
    cli_config_fini(&r->config->cfg);
    free(r->config);
    r->config = NULL;
}

static bool word_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '-';
}

/* Where `name` ("--sink", "kafka.acks") is in `msg` as a word of its own (a sentence's '.' may
 * end it), else NULL. */
static const char *named_at(const char *msg, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(msg, name); p; p = strstr(p + 1, name)) {
        const char *end = p + n;
        if ((p == msg || !word_char(p[-1])) && (!word_char(*end) || (*end == '.' && !word_char(end[1])))) return p;
    }
    return NULL;
}

/* Whether `e` says where the message is from better than `best` (NULL: none yet), of the same
 * key: the line whose value the message shows (an --include pattern), else the later one. */
static bool better_line(const cli_config_entry *e, const cli_config_entry *best, const char *msg)
{
    return !best || !*best->value || !named_at(msg, best->value) || (*e->value && named_at(msg, e->value));
}

void cli_config_origin(const void *ctx, const char *key, const char *msg, char *out, size_t cap)
{
    const cli_run *r = ctx;
    const struct cli_config_state *st = r->config;
    const cli_flag *args = cli_flag_args(r);
    const cli_config_entry *best = NULL;
    const char *best_at = NULL;
    *out = '\0';
    if (key && !strncmp(key, "--", 2)) key += 2;
    for (size_t i = 0; st && i < st->cfg.count; i++) { /* the earliest key the message names */
        const cli_config_entry *e = &st->cfg.items[i];
        char name[80];
        snprintf(name, sizeof name, "%s%s", strchr(e->key, '.') ? "" : "--", e->key);
        const char *at = st->used[i] && !(args && !strcmp(e->key, args->name)) ? named_at(msg, name) : NULL;
        if (at && (!best_at || at < best_at || (at == best_at && better_line(e, best, msg)))) best = e, best_at = at;
    }
    for (size_t i = 0; st && !best_at && key && i < st->cfg.count; i++) /* else the line of `key` */
        if (st->used[i] && !strcmp(st->cfg.items[i].key, key) && better_line(&st->cfg.items[i], best, msg)) best = &st->cfg.items[i];
    if (best && best_at) snprintf(out, cap, "%s:%u: ", r->config_path, best->line);
    else if (best) snprintf(out, cap, "%s:%u: %s: ", r->config_path, best->line, best->key);
}

/* --check: each input FILE the file names (not "-", stdin, nor a URL: capture's, a Kafka source's)
 * is there and readable, each one that is not said with its line; nothing opened. */
static int inputs_readable(const cli_run *r)
{
    const struct cli_config_state *st = r->config;
    const cli_flag *args = cli_flag_args(r);
    int rc = EXIT_OK;
    for (size_t i = 0; st && args && i < st->cfg.count; i++) {
        const char *v = st->cfg.items[i].value;
        if (!st->used[i] || strcmp(st->cfg.items[i].key, args->name) || !strcmp(v, "-") || strstr(v, "://")) continue;
        struct stat sb;
        int e = access(v, R_OK) ? errno : stat(v, &sb) ? errno : S_ISDIR(sb.st_mode) ? EISDIR : 0;
        if (!e) continue;
        char msg[PATH_MAX + 128];
        snprintf(msg, sizeof msg, "cannot open %s: %s", v, strerror(e));
        rc = rc_run_say(&r->spec, EXIT_USAGE, false, args->name, msg);
    }
    return rc;
}

int cli_config_checked(const cli_run *r, int rc)
{
    if (rc == EXIT_OK) rc = inputs_readable(r);
    if (rc != EXIT_OK) return EXIT_DATA;
    printf("%s: ok\n", r->config_path ? r->config_path : "the command line");
    return EXIT_OK;
}

static void quiet(void *ctx, unsigned line, unsigned col, const char *msg)
{
    (void)ctx, (void)line, (void)col, (void)msg;
}

int cli_config_cmd(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "check")) {
        rc_logf("rowcast config: usage: rowcast config check FILE\n");
        return EXIT_USAGE;
    }
    if (argc != 3) {
        rc_logf("rowcast config check: one FILE, the config file to check\n");
        return EXIT_USAGE;
    }
    /* capture's when the file names a database (`url`), else convert's */
    size_t n;
    const char *why;
    char *text = read_file(argv[2], &n, &why);
    bool capture = false;
    cli_config cfg;
    if (text && cli_config_parse(text, n, &cfg, quiet, NULL) >= 0)
        for (size_t i = 0; i < cfg.count; i++) capture = capture || !strcmp(cfg.items[i].key, "url");
    if (text) cli_config_fini(&cfg);
    free(text);
    char cmd[] = "capture", opt[] = "--config", check[] = "--check";
    char *args[] = {capture ? cmd : strcpy(cmd, "convert"), opt, argv[2], check, NULL};
    return capture ? cli_capture(4, args) : cli_convert(4, args);
}
