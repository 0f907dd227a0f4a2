/* Command-line entry points shared by main.c and the subcommand files. */
#ifndef RC_CLI_H
#define RC_CLI_H

#include "rowcast/error.h"

/* Exit statuses: the pipeline's (rowcast/error.h; a run's status is decided there). */
enum { EXIT_OK = RC_EXIT_OK, EXIT_USAGE = RC_EXIT_USAGE, EXIT_DATA = RC_EXIT_DATA, EXIT_IO = RC_EXIT_IO };

int cli_convert(int argc, char **argv);
int cli_capture(int argc, char **argv);
int cli_formats(int argc, char **argv);
int cli_types(int argc, char **argv);
int cli_snapshot(int argc, char **argv);
void cli_usage_convert(void);
void cli_usage_capture(void);
void cli_usage_snapshot(void);

#endif
