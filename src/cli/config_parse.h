/* A config file's text read into its entries (docs/config.md): one `key = value` a line, blank
 * lines and whole-line `#` comments skipped, `${NAME}` in a value replaced by the environment
 * variable NAME (`$$` is one `$`). What a key means (a flag, an -o option, the positional
 * arguments) is config_file.c's; this file knows no flag, so that the fuzz target
 * (tests/fuzz/fuzz_config.c) links it alone. Errors never show a value: it may be a secret. */
#ifndef RC_CLI_CONFIG_PARSE_H
#define RC_CLI_CONFIG_PARSE_H

#include <stddef.h>

/* More entries than this are refused (the commands size their lists for them: cli_args_max). */
enum { CLI_CONFIG_MAX_KEYS = 512 };

typedef struct cli_config_entry {
    char *key;   /* "sink", "kafka.transaction.ms": letters, digits, '.', '_', '-' */
    char *value; /* blanks around it removed, ${NAME} expanded */
    unsigned line, value_col; /* 1-based: the line, and the byte column where the value starts */
} cli_config_entry;

typedef struct cli_config {
    cli_config_entry *items;
    size_t count;
} cli_config;

/* Called for each bad line: 1-based line and byte column, the message (no value in it). */
typedef void (*cli_config_error_fn)(void *ctx, unsigned line, unsigned col, const char *msg);

/* Reads `n` bytes of `text` into `out` (zeroed first; its entries owned by it, in the file's
 * order). Every bad line is said to `error` and skipped, the next ones read; returns the number
 * of bad lines (-1: out of memory, said as a bad line 0). */
int cli_config_parse(const char *text, size_t n, cli_config *out, cli_config_error_fn error, void *ctx);
/* Frees the entries (the values wiped first); a zeroed cli_config is a no-op. */
void cli_config_fini(cli_config *c);

#endif
