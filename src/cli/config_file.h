/* `--config FILE` of convert and capture, and `rowcast config check FILE` (docs/config.md): a
 * file's keys applied through the commands' flag tables (flags.h), as the command line's flags
 * are: a key without a dot is a flag's name without `--`, a key with a dot an -o option, the
 * table's CLI_ARGS row names the positional arguments' key (input, url). The command line's
 * flags win over the file's: a flag it gave (its whole list, for a repeatable one), an -o key it
 * gave. Errors say "FILE:LINE" and never a value. */
#ifndef RC_CLI_CONFIG_FILE_H
#define RC_CLI_CONFIG_FILE_H

#include "cli/run_opts.h"

/* Reads r->config_path and applies its keys to `r` (positional values to `positional`), each
 * bad line or value said; EXIT_OK, CLI_DONE (help = true), or EXIT_USAGE after the messages.
 * The run's values point into what it read: cli_config_free after the run. */
int cli_config_load(cli_run *r, int (*positional)(cli_run *r, const char *arg));
/* Where the value a message refuses came from (rc_run_spec.origin; ctx: the cli_run): "FILE:LINE: "
 * in `out` when the file's value of the earliest flag ("--sink") or -o key the message names is
 * the run's, else "FILE:LINE: KEY: " when the file's value of `key` (a flag's name, an -o key,
 * url, input; NULL: none) is; else "" (the command line's). Of a repeatable key, the line whose
 * value the message shows. */
void cli_config_origin(const void *ctx, const char *key, const char *msg, char *out, size_t cap);
/* Frees what cli_config_load read (none: a no-op). */
void cli_config_free(cli_run *r);
/* The end of a --check: "FILE: ok" on stdout and 0 when `rc` is EXIT_OK, else 2 (the errors
 * are said). */
int cli_config_checked(const cli_run *r, int rc);
/* `rowcast config check FILE`: the file checked as capture's when it has a `url` key, else as
 * convert's (their --check). */
int cli_config_cmd(int argc, char **argv);

#endif
