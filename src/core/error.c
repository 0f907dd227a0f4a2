/* Status names and the error record. */
#include <stdarg.h>
#include <stdio.h>
#include "rowcast/error.h"

static const char *const status_names[RC_STATUS_COUNT] = {
    [RC_OK] = "ok",
    [RC_SKIP] = "skip",
    [RC_PENDING] = "pending",
    [RC_ERR_NOMEM] = "out of memory",
    [RC_ERR_LIMIT] = "limit",
    [RC_ERR_SYNTAX] = "syntax",
    [RC_ERR_UTF8] = "utf-8",
    [RC_ERR_SCHEMA] = "schema",
    [RC_ERR_TYPE] = "type",
    [RC_ERR_VALUE] = "value",
    [RC_ERR_RANGE] = "range",
    [RC_ERR_UNSUPPORTED] = "unsupported",
    [RC_ERR_IO] = "io",
    [RC_ERR_USAGE] = "usage",
    [RC_ERR_RETRY] = "retry",
};

const char *rc_status_name(rc_status s)
{
    if ((unsigned)s >= RC_STATUS_COUNT) return "unknown";
    return status_names[s];
}

rc_status rc_error_set(rc_error *err, rc_status code, size_t offset, const char *fmt, ...)
{
    if (!err || err->code != RC_OK) return code;
    err->code = code;
    err->offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return code;
}

void rc_error_notice(rc_error *err, const char *fmt, ...)
{
    if (!err || err->code != RC_OK || err->message[0]) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
}
