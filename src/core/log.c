/* rowcast's messages on stderr (core/log.h): as they are (text), or one JSON object a line. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/fmt.h"
#include "core/jsonw.h"
#include "core/log.h"

static rc_log_format format = RC_LOG_TEXT;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static rc_buf pending; /* json: the start of a line written in pieces */
static rc_log_fields pending_fields;
static bool has_fields;

bool rc_log_format_parse(const char *name, rc_log_format *out)
{
    if (!strcmp(name, "text"))
        *out = RC_LOG_TEXT;
    else if (!strcmp(name, "json"))
        *out = RC_LOG_JSON;
    else
        return false;
    return true;
}

static void emit_json(const char *p, size_t n, const rc_log_fields *f);

/* At exit, json: a message whose last line had no '\n' yet is still said. */
static void flush_pending(void)
{
    pthread_mutex_lock(&mu);
    if (pending.len) emit_json(pending.data, pending.len, has_fields ? &pending_fields : NULL);
    pending.len = 0;
    pthread_mutex_unlock(&mu);
}

void rc_log_set_format(rc_log_format f)
{
    static bool registered;
    if (f == RC_LOG_JSON && !registered) registered = atexit(flush_pending) == 0;
    format = f;
}

rc_log_format rc_log_get_format(void)
{
    return format;
}

/* "2026-12-06T20:16:37.123456Z" */
static void put_time(rc_buf *b)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    char t[40];
    int n =
        snprintf(t, sizeof t, "%04d-%02d-%02dT%02d:%02d:%02d.%06ldZ", tm.tm_year + 1900,
                 tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000);
    rc_buf_put(b, t, (size_t)n);
}

static bool contains(const char *p, size_t n, const char *what)
{
    size_t w = strlen(what);
    for (size_t i = 0; i + w <= n; i++)
        if (!memcmp(p + i, what, w)) return true;
    return false;
}

static void field_str(rc_buf *b, const char *name, const char *p, size_t n)
{
    RC_BUF_LIT(b, ",\"");
    rc_buf_puts(b, name);
    RC_BUF_LIT(b, "\":");
    rc_jw_str(b, p, n);
}

/* One line of text (without its '\n') as an object. */
static void emit_json(const char *p, size_t n, const rc_log_fields *f)
{
    rc_buf b;
    rc_buf_init(&b, 0);
    RC_BUF_LIT(&b, "{\"time\":\"");
    put_time(&b);
    rc_buf_putc(&b, '"');
    /* "rowcast: MESSAGE" or "rowcast COMMAND: MESSAGE" */
    const char *cmd = NULL;
    size_t cmdn = 0;
    if (n >= 9 && !memcmp(p, "rowcast: ", 9)) {
        p += 9, n -= 9;
    } else if (n > 8 && !memcmp(p, "rowcast ", 8)) {
        size_t k = 8;
        while (k < n && p[k] >= 'a' && p[k] <= 'z') k++;
        if (k > 8 && k + 1 < n && p[k] == ':' && p[k + 1] == ' ')
            cmd = p + 8, cmdn = k - 8, p += k + 2, n -= k + 2;
    }
    const char *level = f && f->level                                                    ? f->level
                        : contains(p, n, "warning:")                                     ? "warning"
                        : cmd || contains(p, n, " error:") || contains(p, n, " error (") ? "error"
                                                                                         : "info";
    field_str(&b, "level", level, strlen(level));
    field_str(&b, "message", p, n);
    if (cmd) field_str(&b, "command", cmd, cmdn);
    if (f) {
        if (f->file) field_str(&b, "file", f->file, strlen(f->file));
        if (f->line) {
            RC_BUF_LIT(&b, ",\"line\":");
            rc_fmt_u64(&b, f->line);
        }
        if (f->table) field_str(&b, "table", f->table, strlen(f->table));
        if (f->position) field_str(&b, "position", f->position, strlen(f->position));
        if (f->code) field_str(&b, "code", f->code, strlen(f->code));
    }
    RC_BUF_LIT(&b, "}\n");
    if (b.err == RC_OK) fwrite(b.data, 1, b.len, stderr);
    rc_buf_fini(&b);
}

void rc_vlogf(const rc_log_fields *fields, const char *fmt, va_list ap)
{
    if (format == RC_LOG_TEXT) {
        vfprintf(stderr, fmt, ap);
        return;
    }
    char small[1024];
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(small, sizeof small, fmt, copy);
    va_end(copy);
    if (n < 0) return;
    pthread_mutex_lock(&mu);
    if (!pending.data && !pending.cap) rc_buf_init(&pending, 0);
    if ((size_t)n < sizeof small) {
        rc_buf_put(&pending, small, (size_t)n);
    } else { /* longer than the stack's buffer: formatted again into the line's */
        char *w = rc_buf_reserve(&pending, (size_t)n + 1);
        if (w) {
            vsnprintf(w, (size_t)n + 1, fmt, ap);
            pending.len += (size_t)n;
        }
    }
    if (fields) pending_fields = *fields, has_fields = true;
    size_t start = 0;
    for (size_t i = 0; i < pending.len; i++) {
        if (pending.data[i] != '\n') continue;
        emit_json(pending.data + start, i - start, has_fields ? &pending_fields : NULL);
        has_fields = false;
        start = i + 1;
    }
    if (start) {
        memmove(pending.data, pending.data + start, pending.len - start);
        pending.len -= start;
    }
    fflush(stderr);
    pthread_mutex_unlock(&mu);
}

void rc_logf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rc_vlogf(NULL, fmt, ap);
    va_end(ap);
}

void rc_logf_with(const rc_log_fields *fields, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rc_vlogf(fields, fmt, ap);
    va_end(ap);
}
