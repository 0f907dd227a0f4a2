/* Command-line entry points shared by main.c and the subcommand files. */
#ifndef RC_CLI_H
#define RC_CLI_H

/* Exit statuses. */
enum { EXIT_OK = 0, EXIT_USAGE = 1, EXIT_DATA = 2, EXIT_IO = 3 };

int cli_convert(int argc, char **argv);
int cli_formats(int argc, char **argv);
int cli_types(int argc, char **argv);
void cli_usage_convert(void);

#endif
