/* Where rowcast's messages go (stderr), and the one place that decides their form:
 * --log-format=text (the default: each message as it always was, byte for byte) or json (one
 * object a line: time, level, message, and the fields the message names when the code has
 * them apart: command, file, line, table, position, code). docs/cli.md describes both.
 *
 * rc_logf takes what fprintf(stderr, ...) took: a message may be written in pieces, and in
 * json form a line is made an object once its '\n' is written. The level is the fields' when
 * given, else read from the line ("warning:" → warning, an "... error:" or a command's own
 * "rowcast CMD: " prefix → error, else info). */
#ifndef ROWCAST_LOG_H
#define ROWCAST_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

typedef enum rc_log_format { RC_LOG_TEXT, RC_LOG_JSON } rc_log_format;

/* "text" or "json"; false for anything else. */
bool rc_log_format_parse(const char *name, rc_log_format *out);
void rc_log_set_format(rc_log_format f);
rc_log_format rc_log_get_format(void);

/* What a message names, when the code has it apart; NULL (0 for line): not named. */
typedef struct rc_log_fields {
    const char *level; /* "error", "warning", "info"; NULL: read from the line */
    const char *file;
    uint64_t line;
    const char *table;
    const char *position;
    const char *code; /* the error's kind (rc_status_name) */
} rc_log_fields;

#if defined(__GNUC__)
#define RC_LOG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define RC_LOG_PRINTF(f, a)
#endif

void rc_logf(const char *fmt, ...) RC_LOG_PRINTF(1, 2);
/* rc_logf with the fields of the line this text completes. */
void rc_logf_with(const rc_log_fields *fields, const char *fmt, ...) RC_LOG_PRINTF(2, 3);
void rc_vlogf(const rc_log_fields *fields, const char *fmt, va_list ap);

#endif
