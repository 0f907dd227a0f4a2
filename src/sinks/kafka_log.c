/* See kafka_log.h. librdkafka says a connection failed in lines of facility FAIL such as
 *   127.0.0.1:1/bootstrap: Connect to ipv4#127.0.0.1:1 failed: Connection refused (after 0ms
 *   in state CONNECT, 140 identical error(s) suppressed)
 * and repeats them at every retry (reconnect.backoff.ms); what is said once is keyed by the
 * broker's HOST:PORT and the cause, without the "(after ...)" part that changes each time. */
#include <stdio.h>
#include <string.h>
#include "kafka_log.h"

/* Causes librdkafka gives (a text in its message) and what the user should check. */
static const struct {
    const char *needle, *cause, *hint;
} causes[] = {
    /* a working connection closed (librdkafka's text then suggests security.protocol, which
     * would be wrong advice: the connection worked) */
    {"in state UP", "lost the connection", "librdkafka reconnects and resends (check the broker if this goes on)"},
    {"Connection refused", "connection refused",
     "nothing listens there: check the host and port in --sink and that Kafka runs there (librdkafka keeps trying)"},
    {"Failed to resolve", "host name not found", "check the host name in --sink (librdkafka keeps trying)"},
    {"timed out", "no answer", "check the address in --sink and any firewall on the way (librdkafka keeps trying)"},
    {"security.protocol", "closed the connection while connecting",
     "check -o kafka.security.protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL) against the broker's listener on that port"},
    {"SSL", "TLS failed", "check -o kafka.security.protocol and -o kafka.ssl.*"},
    {"SASL", "authentication failed", "check -o kafka.sasl.mechanism, kafka.sasl.username and kafka.sasl.password"},
    {"Disconnected", "disconnected", "librdkafka reconnects (check the broker if this goes on)"},
};

static uint64_t hash(uint64_t h, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)p[i]) * 1099511628211u; /* FNV-1a */
    return h;
}

/* True the first time a hash is seen; past KAFKA_LOG_SEEN distinct ones, nothing new is said
 * (a flood of distinct lines is not worth more). */
static bool first_time(kafka_log *l, uint64_t h)
{
    for (size_t i = 0; i < l->nseen; i++)
        if (l->seen[i] == h) return false;
    if (l->nseen == KAFKA_LOG_SEEN) return false;
    l->seen[l->nseen++] = h;
    return true;
}

static void say(const kafka_log *l, const char *text)
{
    if (l->cfg->notice) l->cfg->notice(l->cfg->notice_ctx, RC_SINK_NOTICE_BROKER, text);
}

/* `what` is librdkafka's text after the broker's name, of which the first `wl` bytes come before
 * "(after ...)" */
static void broker_failed(kafka_log *l, const char *host, size_t hl, const char *what, size_t wl)
{
    size_t k = 0;
    while (k < sizeof causes / sizeof *causes && !strstr(what, causes[k].needle)) k++;
    const char *cause = k < sizeof causes / sizeof *causes ? causes[k].cause : NULL;
    size_t i = 0;
    while (i < l->nbrokers && !(strlen(l->brokers[i].name) == hl && !memcmp(l->brokers[i].name, host, hl))) i++;
    if (i == l->nbrokers && i < KAFKA_LOG_BROKERS && hl < sizeof l->brokers[i].name) {
        memcpy(l->brokers[i].name, host, hl);
        l->brokers[i].name[hl] = '\0';
        l->nbrokers++;
    }
    if (i < l->nbrokers) l->brokers[i].cause = cause ? cause : "failed";
    char text[1024];
    if (cause)
        snprintf(text, sizeof text, "kafka: broker %.*s: %s; %s", (int)hl, host, cause, causes[k].hint);
    else
        snprintf(text, sizeof text, "kafka: broker %.*s: %.*s; check the address in --sink and -o kafka.security.protocol (librdkafka keeps trying)",
                 (int)hl, host, (int)wl, what);
    if (first_time(l, hash(hash(14695981039346656037u, host, hl), cause ? cause : what, cause ? strlen(cause) : wl))) say(l, text);
}

void rc_kafka_log_line(kafka_log *l, int level, const char *fac, const char *text)
{
    if (!strncmp(text, "[thrd:", 6) && strstr(text, "]: ")) text = strstr(text, "]: ") + 3; /* the thread: not for users */
    const char *after = strstr(text, " (after ");
    size_t n = after ? (size_t)(after - text) : strlen(text);
    const char *colon = strstr(text, ": ");
    if (!strcmp(fac, "FAIL") && colon && (size_t)(colon - text) < n) {
        /* "HOST:PORT/NAME: what", or with a security protocol other than PLAINTEXT
         * "sasl_plaintext://HOST:PORT/NAME: what": the broker as HOST:PORT, without the
         * protocol and librdkafka's /bootstrap or /ID suffix */
        const char *host = text;
        const char *scheme = strstr(text, "://");
        if (scheme && scheme < colon) host = scheme + 3;
        size_t hl = (size_t)(colon - host);
        const char *slash = memchr(host, '/', hl);
        const char *what = colon + 2;
        broker_failed(l, host, slash ? (size_t)(slash - host) : hl, what, (size_t)(text + n - what));
        return;
    }
    /* debug lines (-o kafka.debug=...) are asked for: every one is shown */
    if (level < 7 && !first_time(l, hash(hash(14695981039346656037u, fac, strlen(fac)), text, n))) return;
    char line[1024];
    snprintf(line, sizeof line, "kafka: librdkafka %s: %s", fac, text);
    say(l, line);
}

bool rc_kafka_log_unreachable(const kafka_log *l, char *out, size_t n)
{
    size_t len = strlen(out);
    for (size_t i = 0; i < l->nbrokers && len < n; i++) {
        int w = snprintf(out + len, n - len, "%s%s (%s)", i ? ", " : "", l->brokers[i].name, l->brokers[i].cause);
        if (w < 0) break;
        len += (size_t)w;
    }
    return l->nbrokers > 0;
}
