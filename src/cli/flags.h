/* The flags of a command, as one static table per command (as Redis's config table and
 * librdkafka's rdkafka_conf.c): each row is a flag's name, short alias, kind of argument and
 * metavar, where its value lands (an offset, or a setter), its default and its help. The table
 * drives parsing (--name VALUE, --name=VALUE, switches), "did you mean" (rc_suggest), the
 * --help text (which the man page and the bash completion read: packaging/gen-*.sh), and
 * cli_flag_find (a flag by name: a config file's keys, config_file.c).
 *
 * The flags `convert` and `capture` share (--to, -o, --sink, ...: run_flags.c) are one table
 * both parse; each command's own table holds its own flags and, as CLI_REF rows, the help its
 * --help gives a shared flag (which differs between the two: capture's --include names
 * SCHEMA.TABLE). Free text of the help (the usage line, paragraphs) are CLI_TEXT rows. */
#ifndef RC_CLI_FLAGS_H
#define RC_CLI_FLAGS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cli_run cli_run;
typedef struct cli_flag cli_flag;

typedef enum cli_flag_kind {
    CLI_END = 0,
    CLI_TEXT,     /* no flag: `help` is help text printed as it is */
    CLI_SWITCH,   /* --name (or its alias) */
    CLI_VALUE,    /* --name VALUE, --name=VALUE */
    CLI_OPTIONAL, /* --name, --name=VALUE */
    CLI_GLUED,    /* -o KEY=VALUE, -oKEY=VALUE */
    CLI_REF,      /* help for a flag of the shared table (`name`), not parsed from this row;
                   * without help of its own, the shared row's */
    CLI_ARGS,     /* the command's positional arguments: `name` is their key in a config file
                   * (`many`: several lines of it are several arguments) */
} cli_flag_kind;

/* Where a row's value lands: `off` is an offset in the cli_run, in the run's rc_pipeline, or in
 * the command's own struct (cli_run.cmd_args). */
typedef enum cli_flag_base { CLI_IN_RUN, CLI_IN_PIPELINE, CLI_IN_CMD } cli_flag_base;

/* Applies a flag's value (NULL for a switch, or an optional value not given): EXIT_OK, a usage
 * status after the message, or CLI_DONE (--help: printed, nothing to run). */
typedef int (*cli_flag_setter)(cli_run *r, const cli_flag *f, const char *value);
enum { CLI_DONE = -1 };

struct cli_flag {
    cli_flag_kind kind;
    const char *name;    /* "--slot"; CLI_TEXT: NULL */
    const char *alias;   /* "-q", or NULL */
    const char *metavar; /* "NAME" (--slot NAME), "=MODE" (--on-error=MODE), NULL: none */
    const char *help;    /* the description's lines, '\n' between them; NULL: not in the help */
    cli_flag_setter set; /* NULL: the value (a string) is stored at `off` */
    cli_flag_base base;
    size_t off;
    const char *def;   /* the value stored at `off` before parsing (cli_flags_defaults) */
    int arg;           /* the setter's own argument (--tombstones 1, --no-tombstones 0) */
    const char *usage; /* the help's left column when it is not name and metavar */
    bool many;         /* repeatable: each occurrence adds (--include); else the last one wins */
};

/* The shared flags of convert and capture (run_flags.c), NULL-ended by CLI_END. */
extern const cli_flag cli_run_flags[];

/* Stores each row's `def` (the command's table, then the shared one) where it lands. */
void cli_flags_defaults(cli_run *r);
/* Parses argv[1..]: each flag of the command's table (r->table) or the shared one applied (and
 * kept in r->given: cli_flag_given), each other argument given to `positional` (counted in
 * r->npositional). A --config file is the command's to read after (config_file.h). EXIT_OK, CLI_DONE (--help printed), or the usage
 * status after the message. */
int cli_flags_parse(cli_run *r, int argc, char **argv, int (*positional)(cli_run *r, const char *arg));
/* The row of flag `name` (--name or its alias) in the shared table or the command's, else NULL. */
const cli_flag *cli_flag_find(const cli_run *r, const char *name);
/* The command's CLI_ARGS row (its positional arguments' key), else NULL. */
const cli_flag *cli_flag_args(const cli_run *r);
/* Applies row `f` with `value` (NULL: a switch): EXIT_OK, CLI_DONE, or the usage status after
 * the message. */
int cli_flag_apply(cli_run *r, const cli_flag *f, const char *value);
/* Whether the command line gave flag `f`, or one that lands in the same place (--no-tombstones
 * for --tombstones): a config file's value of it is then not used. */
bool cli_flag_given(const cli_run *r, const cli_flag *f);
/* An unknown flag, with the closest known one (the command's and the shared ones). */
int cli_flags_unknown(cli_run *r, const char *a);
/* The --help text of a table, on stdout. */
void cli_flags_help(const cli_flag *table);

/* Setters the tables share. */
int cli_flag_store_true(cli_run *r, const cli_flag *f, const char *value); /* a bool at `off` */
int cli_flag_threads(cli_run *r, const cli_flag *f, const char *value);    /* 1|2, as a string at `off` */
int cli_flag_help(cli_run *r, const cli_flag *f, const char *value);      /* the command's --help */

#endif
