/* The run convert and capture share (run_opts.h): its defaults, its signal handlers, and the
 * hand-over of what the flags asked to rc_run_open. */
#include "cli/run_opts.h"
#include "cli/config_file.h"
#include "cli/config_parse.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/log.h"

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

int cli_run_usage_error(const cli_run *r, const char *fmt, const char *arg)
{
    char msg[1024];
    snprintf(msg, sizeof msg, fmt, arg);
    if (!r->where[0]) return rc_run_say(&r->spec, EXIT_USAGE, true, NULL, msg); /* a config file's value: its line */
    rc_logf("rowcast %s: %s: %s\n", r->cmd, r->where, msg);
    return EXIT_USAGE;
}

size_t cli_args_max(int argc)
{
    return (size_t)argc + CLI_CONFIG_MAX_KEYS + 1;
}

int cli_run_init(cli_run *r, rc_pipeline *c, const char *cmd, const cli_flag *table, void *cmd_args, int argc)
{
    memset(r, 0, sizeof *r);
    r->cmd = cmd, r->table = table, r->cmd_args = cmd_args, r->c = c;
    cli_flags_defaults(r);
    r->spec.tomb = -1;
    r->spec.flush_secs = 30;
    r->spec.cmd = cmd, r->spec.origin = cli_config_origin, r->spec.origin_ctx = r;
    r->opts = (rc_options){r->opt_items, 0};
    c->opts = &r->opts;
    c->command = cmd;
    c->stop = &cli_stop_signal;
    c->include = calloc(cli_args_max(argc), sizeof *c->include);
    r->given = calloc((size_t)argc + 1, sizeof *r->given);
    if (c->include && r->given) return EXIT_OK;
    rc_logf("rowcast %s: out of memory\n", cmd);
    return EXIT_IO;
}

void cli_run_fini(cli_run *r)
{
    for (size_t k = 0; k < r->opts.count; k++) rc_option_secret_free(r->secrets[k]), r->secrets[k] = NULL;
    free(r->c->include);
    r->c->include = NULL;
    free(r->given);
    r->given = NULL;
    cli_config_free(r);
}

int cli_run_setup(cli_run *r)
{
    r->spec.cmd = r->cmd, r->spec.opts = &r->opts, r->spec.check = r->check;
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
