/* The flag tables' engine (flags.h): parsing, "did you mean", defaults, --help. */
#include "cli/flags.h"
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cli/run_opts.h"
#include "core/names.h"
#include "core/log.h"

static bool is_flag(const cli_flag *f)
{
    return f->kind != CLI_TEXT && f->kind != CLI_REF && f->kind != CLI_ARGS;
}

static void *target(cli_run *r, const cli_flag *f)
{
    char *base = f->base == CLI_IN_PIPELINE ? (char *)r->c : f->base == CLI_IN_CMD ? (char *)r->cmd_args : (char *)r;
    return base + f->off;
}

int cli_flag_apply(cli_run *r, const cli_flag *f, const char *value)
{
    if (f->set) return f->set(r, f, value);
    *(const char **)target(r, f) = value;
    return EXIT_OK;
}

void cli_flags_defaults(cli_run *r)
{
    const cli_flag *const tables[] = {cli_run_flags, r->table}; /* the command's win */
    for (size_t t = 0; t < 2; t++)
        for (const cli_flag *f = tables[t]; f && f->kind; f++)
            if (is_flag(f) && f->def) *(const char **)target(r, f) = f->def;
}

/* Whether argv[*i] is flag `f`: true with its value in *value (moving *i past a separate one). */
static bool match(const cli_flag *f, int argc, char **argv, int *i, const char **value)
{
    const char *a = argv[*i];
    size_t l = strlen(f->name);
    bool exact = !strcmp(a, f->name) || (f->alias && !strcmp(a, f->alias)), with_eq = !strncmp(a, f->name, l) && a[l] == '=';
    *value = NULL;
    switch (f->kind) {
    case CLI_SWITCH: return exact;
    case CLI_OPTIONAL:
        if (with_eq) *value = a + l + 1;
        return exact || with_eq;
    case CLI_VALUE:
        if (with_eq) *value = a + l + 1;
        else if (exact && *i + 1 < argc) *value = argv[++*i];
        return *value != NULL;
    case CLI_GLUED:
        if (strncmp(a, f->name, l)) return false;
        *value = a[l] ? a + l : *i + 1 < argc ? argv[++*i] : NULL;
        return true;
    default: return false;
    }
}

static const cli_flag *find(const cli_flag *table, int argc, char **argv, int *i, const char **value)
{
    for (const cli_flag *f = table; f && f->kind; f++)
        if (is_flag(f) && match(f, argc, argv, i, value)) return f;
    return NULL;
}

int cli_flags_parse(cli_run *r, int argc, char **argv, int (*positional)(cli_run *r, const char *arg))
{
    int rc = EXIT_OK;
    for (int i = 1; rc == EXIT_OK && i < argc; i++) {
        const char *a = argv[i], *v;
        /* the shared flags first, as the commands did: no name of one is another's prefix */
        const cli_flag *f = find(cli_run_flags, argc, argv, &i, &v);
        if (!f) f = find(r->table, argc, argv, &i, &v);
        if (f) rc = cli_flag_apply(r, f, v), r->given[r->ngiven++] = f;
        else if (a[0] == '-' && a[1]) rc = cli_flags_unknown(r, a);
        else rc = positional(r, a), r->npositional++;
    }
    return rc;
}

const cli_flag *cli_flag_find(const cli_run *r, const char *name)
{
    const cli_flag *const tables[] = {cli_run_flags, r->table};
    for (size_t t = 0; t < 2; t++)
        for (const cli_flag *f = tables[t]; f && f->kind; f++)
            if (is_flag(f) && (!strcmp(f->name, name) || (f->alias && !strcmp(f->alias, name)))) return f;
    return NULL;
}

const cli_flag *cli_flag_args(const cli_run *r)
{
    for (const cli_flag *f = r->table; f && f->kind; f++)
        if (f->kind == CLI_ARGS) return f;
    return NULL;
}

bool cli_flag_given(const cli_run *r, const cli_flag *f)
{
    for (size_t i = 0; i < r->ngiven; i++) {
        const cli_flag *g = r->given[i];
        if (g == f || (g->set && g->set == f->set && g->base == f->base && g->off == f->off)) return true;
    }
    return false;
}

/* The long names "did you mean" offers: the command's own, then the shared ones. */
static void offer(rc_suggest *sg, const cli_flag *table)
{
    for (const cli_flag *f = table; f && f->kind; f++)
        if (is_flag(f) && !strncmp(f->name, "--", 2)) rc_suggest_offer(sg, f->name);
}

int cli_flags_unknown(cli_run *r, const char *a)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
    rc_suggest sg;
    rc_suggest_init(&sg, name);
    offer(&sg, r->table);
    offer(&sg, cli_run_flags);
    if (!sg.best) return cli_run_usage_error(r, "unknown or incomplete option '%s'", a);
    if (!strcmp(sg.best, name)) /* known: a value missing at the end of the line, or one given to a switch */
        return cli_run_usage_error(r, a[strlen(name)] == '=' ? "option '%s' takes no value" : "option '%s' needs a value", name);
    rc_logf("rowcast %s: unknown option '%s': did you mean '%s'?\n(see rowcast help %s)\n", r->cmd, a, sg.best, r->cmd);
    return EXIT_USAGE;
}

/* A row's left column: its usage, else the name with its metavar or alias. */
static void usage_of(const cli_flag *f, const cli_flag *def, char *out, size_t cap)
{
    const char *mv = f->metavar ? f->metavar : "";
    if (f->usage) snprintf(out, cap, "%s", f->usage);
    else if (def->kind == CLI_OPTIONAL) snprintf(out, cap, "%s[=%s]", f->name, mv);
    else if (def->kind == CLI_SWITCH && def->alias) snprintf(out, cap, "%s, %s", f->name, def->alias);
    else snprintf(out, cap, "%s%s%s", f->name, *mv && *mv != '=' ? " " : "", mv);
}

/* The shared flag a CLI_REF row gives the help of. */
static const cli_flag *shared(const char *name)
{
    for (const cli_flag *f = cli_run_flags; f->kind; f++)
        if (!strcmp(f->name, name)) return f;
    return NULL;
}

void cli_flags_help(const cli_flag *table)
{
    enum { COLUMN = 25 }; /* where descriptions start */
    for (const cli_flag *f = table; f->kind; f++) {
        if (f->kind == CLI_TEXT) {
            fputs(f->help, stdout);
            continue;
        }
        const cli_flag *def = f->kind == CLI_REF && shared(f->name) ? shared(f->name) : f;
        const char *h = f->help ? f->help : f->kind == CLI_REF ? def->help : NULL; /* the shared row's own, when it has one */
        if (!h) continue;
        char left[128];
        usage_of(f, def, left, sizeof left);
        size_t n = strcspn(h, "\n");
        if (strlen(left) + 4 <= COLUMN) printf("  %-*s%.*s\n", COLUMN - 2, left, (int)n, h); /* two spaces at least */
        else printf("  %s\n%*s%.*s\n", left, COLUMN, "", (int)n, h);
        for (h += n; *h; h += n) {
            h++; /* the '\n' */
            n = strcspn(h, "\n");
            printf("%*s%.*s\n", COLUMN, "", (int)n, h);
        }
    }
}

int cli_flag_store_true(cli_run *r, const cli_flag *f, const char *value)
{
    (void)value;
    *(bool *)target(r, f) = true;
    return EXIT_OK;
}

int cli_flag_threads(cli_run *r, const cli_flag *f, const char *value)
{
    if (strcmp(value, "1") && strcmp(value, "2")) return cli_run_usage_error(r, "--threads is 1 or 2, not '%s'", value);
    *(const char **)target(r, f) = value;
    return EXIT_OK;
}

int cli_flag_help(cli_run *r, const cli_flag *f, const char *value)
{
    (void)f, (void)value;
    cli_flags_help(r->table);
    return CLI_DONE;
}
