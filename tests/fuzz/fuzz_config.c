/* libFuzzer target: the config file reader (src/cli/config_parse.c, --config FILE) takes any
 * bytes: every line is an entry, skipped, or one error; an entry's key is non-empty and of the
 * key characters, its value holds no line end, the entries' lines increase, and every error
 * names a line of the input and a column within it (or past its end by one: "no '='"). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cli/config_parse.h"

typedef struct seen {
    size_t lines, errors;
    const uint8_t *data;
    size_t size;
} seen;

static void on_error(void *ctx, unsigned line, unsigned col, const char *msg)
{
    seen *s = ctx;
    if (!line || line > s->lines || !col || !msg[0] || strlen(msg) > 255) abort();
    s->errors++;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    setenv("ROWCAST_FUZZ", "value with ${NOT_EXPANDED} and $$", 1); /* an expanded value is not expanded again */
    setenv("E", "", 1);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    seen s = {1, 0, data, size};
    for (size_t i = 0; i < size; i++) s.lines += data[i] == '\n';
    cli_config c;
    int bad = cli_config_parse((const char *)data, size, &c, on_error, &s);
    if (bad < 0 || (size_t)bad != s.errors || c.count + (size_t)bad > s.lines || c.count > CLI_CONFIG_MAX_KEYS) abort();
    unsigned last = 0;
    for (size_t i = 0; i < c.count; i++) {
        const cli_config_entry *e = &c.items[i];
        if (!e->key[0] || strspn(e->key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(e->key)) abort();
        if (strchr(e->value, '\n') || e->line <= last || !e->value_col) abort();
        last = e->line;
    }
    cli_config_fini(&c);
    return 0;
}
