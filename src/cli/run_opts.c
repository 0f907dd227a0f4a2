/* The options convert and capture share (run_opts.h); rc_run_open (src/pipeline/run_open.c)
 * assembles the run from them. */
#include "cli/run_opts.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rowcast/metrics.h"
#include "rowcast/names.h"

volatile sig_atomic_t cli_stop_signal;

/* The first SIGINT/SIGTERM stops the run after a flush; a second one means the user will not
 * wait for it: exit at once (the checkpoint file, renamed into place, stays as last stored). */
static void on_signal(int sig)
{
    static const char msg[] = "rowcast: a second signal: exiting now without waiting for deliveries; the checkpoint "
                              "stays where it was last stored\n";
    if (cli_stop_signal) {
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(128 + sig);
    }
    cli_stop_signal = sig;
}

static const char *const shared_flags[] = {"--to", "--sink", "--topic", "--server", "--keys", "--records", "--tombstones",
                                           "--no-tombstones", "--flush-timeout", "--on-error", "--on-loss", "--include", "--drop",
                                           "--progress", "--metrics", "--quiet", "--help", NULL};

int cli_run_usage_error(const cli_run *r, const char *fmt, const char *arg)
{
    return rc_run_usage(r->cmd, fmt, arg);
}

int cli_run_unknown_flag(cli_run *r, const char *a)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
    rc_suggest sg;
    rc_suggest_init(&sg, name);
    for (const char *const *f = r->flags; f && *f; f++) rc_suggest_offer(&sg, *f);
    for (const char *const *f = shared_flags; *f; f++) rc_suggest_offer(&sg, *f);
    if (!sg.best) return cli_run_usage_error(r, "unknown or incomplete option '%s'", a);
    if (!strcmp(sg.best, name)) /* known: a value missing at the end of the line, or one given to a switch */
        return cli_run_usage_error(r, a[strlen(name)] == '=' ? "option '%s' takes no value" : "option '%s' needs a value", name);
    fprintf(stderr, "rowcast %s: unknown option '%s': did you mean '%s'?\n(see rowcast help %s)\n", r->cmd, a, sg.best, r->cmd);
    return EXIT_USAGE;
}

const char *cli_opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t l = strlen(name);
    if (strncmp(argv[*i], name, l) != 0) return NULL;
    if (argv[*i][l] == '=') return argv[*i] + l + 1;
    if (argv[*i][l] == '\0' && *i + 1 < argc) return argv[++*i];
    return NULL;
}

int cli_run_init(cli_run *r, rc_pipeline *c, const char *cmd, const char *const *flags, int argc)
{
    memset(r, 0, sizeof *r);
    r->cmd = cmd, r->flags = flags, r->c = c;
    r->spec.to = "native", r->spec.on_error = "stop", r->spec.on_loss = "stop", r->spec.sink_url = "stdout", r->spec.topic = "debezium";
    r->spec.tomb = -1;
    r->spec.flush_secs = 30;
    r->opts = (rc_options){r->opt_items, 0};
    c->opts = &r->opts;
    c->command = cmd;
    c->stop = &cli_stop_signal;
    c->include = calloc((size_t)argc + 1, sizeof *c->include);
    if (c->include) return EXIT_OK;
    fprintf(stderr, "rowcast %s: out of memory\n", cmd);
    return EXIT_IO;
}

void cli_run_fini(cli_run *r)
{
    for (size_t k = 0; k < r->opts.count; k++) rc_option_secret_free(r->secrets[k]), r->secrets[k] = NULL;
    free(r->c->include);
    r->c->include = NULL;
}

/* The --drop list as a set of operations; false for an unknown kind. */
static bool parse_drop(const char *list, unsigned *out)
{
    static const struct {
        const char *name;
        unsigned ops;
    } kinds[] = {{"ddl", 1u << RC_OP_DDL},
                 {"truncate", 1u << RC_OP_TRUNCATE},
                 {"heartbeat", 1u << RC_OP_HEARTBEAT},
                 {"transaction", 1u << RC_OP_BEGIN | 1u << RC_OP_COMMIT},
                 {"snapshot", 1u << RC_OP_READ}};
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        size_t k = 0;
        while (k < sizeof kinds / sizeof *kinds && !(strlen(kinds[k].name) == n && !strncmp(kinds[k].name, p, n))) k++;
        if (k == sizeof kinds / sizeof *kinds) return false;
        *out |= kinds[k].ops;
        p += n + (p[n] == ',');
    }
    return true;
}

/* -o KEY=VALUE (or -oKEY=VALUE): a secret's value read from @FILE or env:NAME. */
static int take_option(cli_run *r, const char *kv_in)
{
    char *kv = (char *)kv_in;
    char *eq = kv ? strchr(kv, '=') : NULL;
    if (!eq || eq == kv) return cli_run_usage_error(r, "-o needs KEY=VALUE, got '%s'", kv ? kv : "");
    if (r->opts.count == CLI_MAX_OPTS) return cli_run_usage_error(r, "too many -o options%s", "");
    *eq = '\0';
    rc_error serr;
    rc_error_clear(&serr);
    size_t k = r->opts.count++;
    r->opt_items[k].key = kv;
    r->opt_items[k].value = eq + 1;
    r->secrets[k] = NULL;
    if (rc_option_is_secret(kv) && rc_option_secret_read(kv, eq + 1, &r->secrets[k], &serr) != RC_OK)
        return cli_run_usage_error(r, "%s", serr.message);
    if (r->secrets[k]) r->opt_items[k].value = r->secrets[k];
    return EXIT_OK;
}

bool cli_run_flag(cli_run *r, int argc, char **argv, int *i, int *rc)
{
    rc_pipeline *c = r->c;
    const char *a = argv[*i], *v;
    char *end;
    if ((v = cli_opt_value(argc, argv, i, "--include"))) {
        c->include[c->ninclude++] = (rc_include_pat){.pattern = v, .db_only = !strchr(v, '.')};
    } else if ((v = cli_opt_value(argc, argv, i, "--drop"))) {
        if (!parse_drop(v, &c->drop)) *rc = cli_run_usage_error(r, "--drop %s: kinds are ddl, truncate, heartbeat, transaction, snapshot", v);
    } else if (!strcmp(a, "--tombstones") || !strcmp(a, "--no-tombstones")) {
        r->spec.tomb = a[2] == 't';
    } else if (!strcmp(a, "--keys")) {
        r->spec.keys = true;
    } else if (!strcmp(a, "--records")) {
        r->spec.records = true;
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
        c->quiet = true;
    } else if (!strcmp(a, "--progress") || !strncmp(a, "--progress=", 11)) {
        if (!rc_pipeline_progress_option(c, a[10] ? a + 11 : NULL))
            *rc = cli_run_usage_error(r, "%s: the interval is a whole number with ms, s, m or h (10s, 500ms), or 0 for a line "
                                         "after every batch of lines", a);
    } else if ((v = cli_opt_value(argc, argv, i, "--to"))) {
        r->spec.to = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--on-error"))) {
        r->spec.on_error = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--on-loss"))) {
        r->spec.on_loss = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--sink"))) {
        r->spec.sink_url = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--topic"))) {
        r->spec.topic = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--server"))) {
        c->server = v, c->server_forced = true;
    } else if ((v = cli_opt_value(argc, argv, i, "--metrics"))) {
        rc_metrics_addr addr;
        rc_error aerr;
        rc_error_clear(&aerr);
        if (rc_metrics_addr_parse(v, &addr, &aerr) != RC_OK) *rc = cli_run_usage_error(r, "%s", aerr.message);
        c->metrics_addr = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--flush-timeout"))) {
        r->spec.flush_secs = strtol(v, &end, 10);
        if (*end || r->spec.flush_secs < 0 || r->spec.flush_secs > 86400)
            *rc = cli_run_usage_error(r, "--flush-timeout needs seconds (0..86400), got '%s'", v);
    } else if (!strcmp(a, "-o") || !strncmp(a, "-o", 2)) {
        *rc = take_option(r, a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : NULL));
    } else {
        return false;
    }
    return true;
}

int cli_run_setup(cli_run *r)
{
    r->spec.cmd = r->cmd, r->spec.opts = &r->opts;
    return rc_run_open(&r->run, &r->spec, r->c);
}

void cli_run_start(cli_run *r)
{
    (void)r;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void cli_run_close(cli_run *r)
{
    rc_run_close(&r->run);
}
