/* The options `convert` and `capture` share — the output side of a run: --to, -o, --sink,
 * --topic, --server, --keys, --records, --tombstones, --include, --drop, --on-error, --on-loss,
 * --flush-timeout, --progress, --quiet, --metrics — parsed into an rc_pipeline and an
 * rc_run_spec, which rc_run_open (src/pipeline/run_open.c) turns into an encoder and an open sink.
 * Their flags are the table run_flags.c; each command has a table of its own (flags.h). */
#ifndef RC_CLI_RUN_OPTS_H
#define RC_CLI_RUN_OPTS_H

#include <signal.h>
#include "cli/cli.h"
#include "cli/flags.h"
#include "pipeline/run_open.h"
#include "pipeline/pipeline.h"

enum { CLI_MAX_OPTS = RC_RUN_MAX_OPTS };

typedef struct cli_run {
    const char *cmd; /* "convert", "capture": messages say "rowcast capture: ..." */
    const cli_flag *table; /* the command's own flags and help (flags.h) */
    void *cmd_args;        /* the command's own struct, where CLI_IN_CMD rows land */
    rc_pipeline *c;
    const char *threads; /* --threads as given (NULL: the source's default) */
    rc_run_spec spec; /* what the flags ask of the run (rc_run_open) */
    rc_option opt_items[CLI_MAX_OPTS];
    char *secrets[CLI_MAX_OPTS]; /* values read from @FILE / env:NAME */
    rc_options opts;
    rc_run run;
    /* the command line's flags in order, and how many positional arguments it gave: a config
     * file's keys do not replace them (cli_flag_given) */
    const cli_flag **given;
    size_t ngiven, npositional;
    const char *config_path; /* --config */
    bool check;              /* --check: validate, say "FILE: ok", run nothing */
    char where[320];         /* "FILE:LINE" while a config file's key is applied: said in errors */
    struct cli_config_state *config; /* the file's entries, which the run's values point into */
} cli_run;

/* Room for the positional arguments and repeatable flags of argc arguments and a config file's
 * keys: the size of the lists a command keeps them in. */
size_t cli_args_max(int argc);

/* The signal a run was stopped by (0: none); the handler's second signal exits at once. */
extern volatile sig_atomic_t cli_stop_signal;

/* The defaults (the flag tables' and the run's), and room for argc --include patterns.
 * EXIT_OK or EXIT_IO (out of memory). */
int cli_run_init(cli_run *r, rc_pipeline *c, const char *cmd, const cli_flag *table, void *cmd_args, int argc);
void cli_run_fini(cli_run *r);
/* "rowcast CMD: <message>\n(see rowcast help CMD)": EXIT_USAGE; while a config file's key is
 * applied, "rowcast CMD: FILE:LINE: <message>" (the file's loader says the "see" line once);
 * after, "FILE:LINE: " before the message too when it names a flag or -o key whose value is the
 * file's (cli_config_origin). */
int cli_run_usage_error(const cli_run *r, const char *fmt, const char *arg);
/* After parsing: the pipeline assembled from r->spec (rc_run_open: formats, encoder, decoder,
 * dead-letter file, sink). EXIT_OK or the status after a message. */
int cli_run_setup(cli_run *r);
/* The signal handlers: the first SIGINT/SIGTERM stops the run after a flush. */
void cli_run_start(cli_run *r);
/* Closes the sink and the formats' states. */
void cli_run_close(cli_run *r);

#endif
