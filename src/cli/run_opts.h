/* The options `convert` and `capture` share — the output side of a run: --to, -o, --sink,
 * --topic, --server, --keys, --records, --tombstones, --include, --drop, --on-error, --on-loss,
 * --flush-timeout, --progress, --quiet, --metrics — parsed into an rc_pipeline, checked, and
 * turned into an encoder and an open sink (run_opts.c). Each command parses its own flags
 * first and hands every other one to cli_run_flag. */
#ifndef RC_CLI_RUN_OPTS_H
#define RC_CLI_RUN_OPTS_H

#include <signal.h>
#include "cli/cli.h"
#include "pipeline/pipeline.h"

enum { CLI_MAX_OPTS = 128 };

typedef struct cli_run {
    const char *cmd; /* "convert", "capture": messages say "rowcast capture: ..." */
    const char *const *flags; /* the command's own flags, for "did you mean" */
    const char *const *source_prefixes; /* -o KEY prefixes the source reads ("postgres."), NULL-ended */
    rc_pipeline *c;
    const char *from, *to, *on_error, *on_loss, *sink_url, *topic;
    int tomb; /* -1: the sink's default */
    bool keys, records, kafka;
    long flush_secs;
    rc_option opt_items[CLI_MAX_OPTS];
    char *secrets[CLI_MAX_OPTS]; /* values read from @FILE / env:NAME */
    rc_options opts;
    /* the names --from and --to gave (rc_format_names), and the options each side's format
     * reads: opts, then the option its name fixes (oms-debezium's debezium.flavor=oms) */
    const rc_format_name *from_name, *to_name;
    rc_option side_items[2][CLI_MAX_OPTS + 1];
    rc_options from_opts, to_opts;
} cli_run;

/* The signal a run was stopped by (0: none); the handler's second signal exits at once. */
extern volatile sig_atomic_t cli_stop_signal;

/* Defaults, and room for argc --include patterns. EXIT_OK or EXIT_IO (out of memory). */
int cli_run_init(cli_run *r, rc_pipeline *c, const char *cmd, const char *const *flags, int argc);
void cli_run_fini(cli_run *r);
/* argv[*i] when it is a shared flag: true, with *rc set on a usage error (after the message);
 * false when it is not one of them. */
bool cli_run_flag(cli_run *r, int argc, char **argv, int *i, int *rc);
/* An unknown flag, with the closest known one (the command's and the shared ones). */
int cli_run_unknown_flag(cli_run *r, const char *a);
/* "rowcast CMD: <message>\n(see rowcast help CMD)": EXIT_USAGE. */
int cli_run_usage_error(const cli_run *r, const char *fmt, const char *arg);
/* After parsing: the formats (c->from may stay NULL: a database source), the -o keys, the
 * server name, the topic, the encoder (and the decoder when --from), the dead-letter file and
 * the sink. EXIT_OK or the status after a message. */
int cli_run_setup(cli_run *r);
/* Routing and tombstones from the sink, the signal handlers, the flush timeout. */
void cli_run_start(cli_run *r);
/* Closes the sink and the formats' states. */
void cli_run_close(cli_run *r);

/* Accepts "--name value" and "--name=value"; returns the value or NULL. */
const char *cli_opt_value(int argc, char **argv, int *i, const char *name);

#endif
