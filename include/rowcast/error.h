/* Errors: one status enum for the whole library, a string table beside it, and an error
 * record carrying a message and the byte offset where the problem was found. The library
 * never aborts on input data: bad input is returned as a status with a position. */
#ifndef ROWCAST_ERROR_H
#define ROWCAST_ERROR_H

#include <stddef.h>
#include "rowcast/api.h"

typedef enum rc_status {
    RC_OK = 0,
    RC_SKIP,            /* not an error: the format has no message for this event */
    RC_PENDING,         /* not an error: the event went into a message that is not complete
                         * yet (grouping); it is written by a later call or by flush */
    RC_ERR_NOMEM,       /* allocation failed */
    RC_ERR_LIMIT,       /* a size cap (output buffer, nesting depth) was reached */
    RC_ERR_SYNTAX,      /* input is not well-formed JSON */
    RC_ERR_UTF8,        /* input text is not valid UTF-8 */
    RC_ERR_SCHEMA,      /* a required field is missing, unknown or of the wrong JSON type */
    RC_ERR_TYPE,        /* an unknown or malformed column type declaration */
    RC_ERR_VALUE,       /* a value does not match its declared column type */
    RC_ERR_RANGE,       /* a number is outside the range of its type */
    RC_ERR_UNSUPPORTED, /* the target format cannot express this event */
    RC_ERR_IO,          /* reading or writing a file failed */
    RC_ERR_USAGE,       /* bad option or argument */
    /* A failure that may pass: a source lost its connection, a server is starting or a slot
     * is still held by the process before us. Neither bad input (the data is fine) nor fatal
     * (the setup is fine): the caller closes the source and opens it again from the last
     * acknowledged position, with backoff. PostgreSQL's connection (src/sources/pg: RC_PG_RETRY)
     * maps to it; nothing returns it yet. */
    RC_ERR_RETRY,
    RC_STATUS_COUNT
} rc_status;

/* Filled by fallible functions when non-NULL. `offset` is a byte offset into the input
 * message the function was given (or (size_t)-1 when no position applies). */
typedef struct rc_error {
    rc_status code;
    size_t offset;
    /* room for a message that names a database URL, a table and the statement that fixes it */
    char message[512];
} rc_error;

#define RC_NO_OFFSET ((size_t)-1)

/* The command's exit statuses: the pipeline's run decides them, and a source whose reading
 * failed hands one over (rc_batch.rc) after printing why. */
enum { RC_EXIT_OK = 0, RC_EXIT_USAGE = 1, RC_EXIT_DATA = 2, RC_EXIT_IO = 3 };

/* Short stable name of a status, e.g. "syntax". */
RC_API const char *rc_status_name(rc_status s);

/* Records the first error only (later calls keep the earlier message) and returns `code`,
 * so callers can write `return rc_error_set(err, RC_ERR_VALUE, off, "...")`. */
RC_API rc_status rc_error_set(rc_error *err, rc_status code, size_t offset, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A notice, not an error: the code stays RC_OK and the message is set (when it is empty). A
 * decoder that returns RC_OK may leave one (rowcast/format.h, decode): the caller says it. */
RC_API void rc_error_notice(rc_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Clears an error record before reuse (inline: the MySQL row decoder clears one per value, and
 * a call each was 2% of its instructions). */
static inline void rc_error_clear(rc_error *err)
{
    if (!err) return;
    err->code = RC_OK;
    err->offset = RC_NO_OFFSET;
    err->message[0] = '\0';
}

#endif
