/* The metrics endpoint's server (pipeline/metrics.h): the address of --metrics, the listening
 * socket, and one thread that serves every connection with poll(). Each connection gets
 * RC_METRICS_TIMEOUT_MS for its request and the response, so a client that sends nothing, or
 * reads slowly, is cut off without stalling the others; a scrape is formatted from the copy
 * the pipeline published last, so the pipeline never waits for a client. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "pipeline/metrics.h"
#include "core/thread.h"
#include "core/run_state.h"

/* ---- the address ---- */

static rc_status addr_error(rc_error *err, const char *spec, const char *what)
{
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--metrics '%s': %s", spec, what);
}

static bool all_of(const char *s, size_t n, const char *set)
{
    for (size_t i = 0; i < n; i++)
        if (!s[i] || !strchr(set, s[i])) return false;
    return true;
}

#define DIGITS "0123456789"
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" DIGITS ".-_"

rc_status rc_metrics_addr_parse(const char *spec, rc_metrics_addr *out, rc_error *err)
{
    memset(out, 0, sizeof *out);
    const char *host = "127.0.0.1", *port;
    size_t hl = strlen(host);
    if (spec[0] == '[') {
        const char *close = strchr(spec, ']');
        if (!close)
            return addr_error(
                err, spec, "no ']' closes the IPv6 address: write [ADDRESS]:PORT, as [::1]:9470");
        host = spec + 1, hl = (size_t)(close - host);
        if (!hl || !all_of(host, hl, ":%" NAME_CHARS))
            return addr_error(
                err, spec,
                "not an IPv6 address in the brackets: write [ADDRESS]:PORT, as [::1]:9470");
        if (close[1] != ':')
            return addr_error(err, spec, "':PORT' expected after ']', as [::1]:9470");
        port = close + 2;
        out->ipv6 = true;
    } else {
        const char *colon = strrchr(spec, ':');
        if (colon && strchr(spec, ':') != colon)
            return addr_error(err, spec,
                              "an IPv6 address goes in brackets: [ADDRESS]:PORT, as [::1]:9470");
        if (!colon && !all_of(spec, strlen(spec), DIGITS))
            return addr_error(
                err, spec,
                "no port: give HOST:PORT (localhost:9470), :PORT or PORT (then on 127.0.0.1)");
        if (colon && colon > spec) host = spec, hl = (size_t)(colon - spec);
        if (!all_of(host, hl, NAME_CHARS))
            return addr_error(err, spec,
                              "the host is not a name or an address (an IPv6 address goes in "
                              "brackets: [::1]:9470)");
        port = colon ? colon + 1 : spec;
    }
    if (!*port)
        return addr_error(err, spec,
                          "the port is missing: give HOST:PORT, :PORT or PORT (0: any free port)");
    size_t pl = strlen(port);
    if (!all_of(port, pl, DIGITS) || pl > 5 || strtoul(port, NULL, 10) > 65535)
        return addr_error(err, spec, "the port is not a number from 0 to 65535 (0: any free port)");
    if (hl >= sizeof out->host)
        return addr_error(err, spec, "the host name is longer than 255 bytes");
    memcpy(out->host, host, hl);
    memcpy(out->port, port, pl);
    return RC_OK;
}

/* ---- the server ---- */

typedef struct client {
    int fd; /* -1: a free slot */
    int64_t deadline_ms;
    char in[RC_METRICS_REQUEST_MAX];
    size_t in_len;
    bool writing; /* the response is in `out` */
    rc_buf out;
    size_t out_off;
} client;

struct rc_metrics {
    int lfd, wake[2];
    pthread_t thread;
    bool started;
    pthread_mutex_t mu;
    rc_metrics_values v; /* under mu: the pipeline's last copy */
    bool fixed_now;      /* RC_METRICS_NOW_US (tests) */
    int64_t now_us;
    int64_t ready_lag_us; /* --ready-lag */
    unsigned port;
    int64_t accept_after_ms; /* accept() failed (EMFILE...): the listener rests until then */
    char url[128];
    rc_buf body; /* the server thread's scratch */
    client clients[RC_METRICS_CLIENTS];
};

static int64_t mono_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static bool set_flags(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl >= 0 && fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0 &&
           fcntl(fd, F_SETFD, FD_CLOEXEC) == 0;
}

static void client_close(client *c)
{
    if (c->fd < 0) return;
    shutdown(c->fd, SHUT_WR);
    close(c->fd);
    c->fd = -1;
}

static const char *reason(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 503:
        return "Service Unavailable";
    default:
        return "HTTP Version Not Supported"; /* 505 */
    }
}

/* The response in c->out: status, headers, and the body in m->body (not sent for HEAD). */
static void respond(rc_metrics *m, client *c, int status, const char *type, bool head)
{
    char date[64];
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    static const char days[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
    static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    snprintf(date, sizeof date, "%s, %02d %s %04d %02d:%02d:%02d GMT", days[tm.tm_wday % 7],
             tm.tm_mday, months[tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
             tm.tm_sec);
    char hdr[512];
    int n = snprintf(hdr, sizeof hdr,
                     "HTTP/1.1 %d %s\r\nDate: %s\r\nContent-Type: %s\r\nContent-Length: "
                     "%zu\r\n%sConnection: close\r\n\r\n",
                     status, reason(status), date, type, m->body.len,
                     status == 405 ? "Allow: GET, HEAD\r\n" : "");
    rc_buf_reset(&c->out);
    rc_buf_put(&c->out, hdr, (size_t)n);
    if (!head) rc_buf_put(&c->out, m->body.data, m->body.len);
    c->writing = true;
    c->out_off = 0;
}

#define TEXT_PLAIN "text/plain; charset=utf-8"

/* A message body: "rowcast: WHAT\n". */
static void body_text(rc_metrics *m, const char *what, const char *p, size_t n, const char *rest)
{
    rc_buf_reset(&m->body);
    RC_BUF_LIT(&m->body, "rowcast: ");
    rc_buf_puts(&m->body, what);
    rc_buf_put(&m->body, p, n);
    rc_buf_puts(&m->body, rest);
    rc_buf_putc(&m->body, '\n');
}

static int64_t wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* What the request in c->in asks for, answered. */
static void answer(rc_metrics *m, client *c, const rc_http_request *req)
{
    bool get = req->method_len == 3 && !memcmp(req->method, "GET", 3);
    bool head = req->method_len == 4 && !memcmp(req->method, "HEAD", 4);
    if (!get && !head) {
        body_text(m, "method ", req->method, req->method_len, " is not served here: GET /metrics");
        respond(m, c, 405, TEXT_PLAIN, false);
        return;
    }
    bool metrics = req->path_len == 8 && !memcmp(req->path, "/metrics", 8);
    bool health = req->path_len == 7 && !memcmp(req->path, "/health", 7);
    bool ready = req->path_len == 6 && !memcmp(req->path, "/ready", 6);
    if (metrics || health || ready) {
        rc_metrics_values v;
        pthread_mutex_lock(&m->mu);
        v = m->v;
        v.ready_lag_us = m->ready_lag_us;
        pthread_mutex_unlock(&m->mu);
        v.has_state = true, v.state = (int)rc_run_state_get(), v.role = (int)rc_run_role_get();
        int64_t now = m->fixed_now ? m->now_us : wall_us();
        rc_buf_reset(&m->body);
        if (metrics) {
            rc_metrics_format(&v, now, &m->body);
            respond(m, c, 200, "text/plain; version=0.0.4; charset=utf-8", head);
        } else {
            respond(m, c, rc_metrics_probe(&v, ready, now, &m->body), "application/json", head);
        }
    } else {
        body_text(m, "no page ", req->path, req->path_len, " here: the metrics are at /metrics");
        respond(m, c, 404, TEXT_PLAIN, head);
    }
}

static void on_readable(rc_metrics *m, client *c)
{
    ssize_t got = recv(c->fd, c->in + c->in_len, sizeof c->in - c->in_len, 0);
    if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (got <= 0) { /* gone before its request was complete */
        client_close(c);
        return;
    }
    c->in_len += (size_t)got;
    rc_http_request req;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_http_request_parse(c->in, c->in_len, &req, &err);
    if (st == RC_OK) {
        answer(m, c, &req);
    } else if (st == RC_PENDING && c->in_len < sizeof c->in) {
        return;
    } else if (st == RC_PENDING) {
        body_text(m, "bad request: ", "", 0,
                  "the request line and headers are longer than 8192 bytes");
        respond(m, c, 400, TEXT_PLAIN, false);
    } else {
        body_text(m, st == RC_ERR_UNSUPPORTED ? "" : "bad request: ", err.message,
                  strlen(err.message), "");
        respond(m, c, st == RC_ERR_UNSUPPORTED ? 505 : 400, TEXT_PLAIN, false);
    }
    if (c->out.err != RC_OK || m->body.err != RC_OK)
        client_close(c); /* out of memory: no half answer */
}

static void on_writable(client *c)
{
    ssize_t put = send(c->fd, c->out.data + c->out_off, c->out.len - c->out_off, MSG_NOSIGNAL);
    if (put < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) return;
    if (put < 0) {
        client_close(c);
        return;
    }
    c->out_off += (size_t)put;
    if (c->out_off == c->out.len) client_close(c);
}

static void accept_all(rc_metrics *m)
{
    for (;;) {
        int fd = accept(m->lfd, NULL, NULL);
        if (fd < 0) {
            /* EAGAIN: no more. Out of descriptors (EMFILE...): the connection stays queued, and
             * polling the listener at once again would spin: it rests for a while */
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED)
                m->accept_after_ms = mono_ms() + 100;
            return;
        }
        if (!set_flags(fd)) {
            close(fd);
            continue;
        }
        client *c = NULL;
        for (size_t i = 0; i < RC_METRICS_CLIENTS && !c; i++)
            if (m->clients[i].fd < 0) c = &m->clients[i];
        if (!c) { /* every slot busy: say so at once, without reading the request */
            static const char body[] = "rowcast: too many connections at once; try again\n";
            char busy[256];
            int n = snprintf(busy, sizeof busy,
                             "HTTP/1.1 503 Service Unavailable\r\nContent-Type: " TEXT_PLAIN
                             "\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
                             sizeof body - 1, body);
            ssize_t w = send(fd, busy, (size_t)n, MSG_NOSIGNAL);
            (void)w;
            shutdown(fd, SHUT_WR);
            close(fd);
            continue;
        }
        c->fd = fd;
        c->in_len = 0;
        c->writing = false;
        c->deadline_ms = mono_ms() + RC_METRICS_TIMEOUT_MS;
    }
}

static void *serve(void *arg)
{
    rc_metrics *m = arg;
    struct pollfd p[2 + RC_METRICS_CLIENTS];
    client *of[2 + RC_METRICS_CLIENTS];
    for (;;) {
        int64_t now = mono_ms(), wait = -1;
        size_t np = 2;
        p[0] = (struct pollfd){.fd = m->wake[0], .events = POLLIN};
        p[1] = (struct pollfd){.fd = now < m->accept_after_ms ? -1 : m->lfd, .events = POLLIN};
        if (now < m->accept_after_ms) wait = m->accept_after_ms - now;
        for (size_t i = 0; i < RC_METRICS_CLIENTS; i++) {
            client *c = &m->clients[i];
            if (c->fd < 0) continue;
            if (now >= c->deadline_ms) { /* too slow: sent nothing, not all, or read too slowly */
                client_close(c);
                continue;
            }
            if (wait < 0 || c->deadline_ms - now < wait) wait = c->deadline_ms - now;
            of[np] = c;
            p[np++] = (struct pollfd){.fd = c->fd, .events = c->writing ? POLLOUT : POLLIN};
        }
        if (poll(p, (nfds_t)np, (int)wait) < 0 && errno != EINTR) break;
        if (p[0].revents) break; /* rc_metrics_free */
        for (size_t k = 2; k < np; k++) {
            client *c = of[k];
            if (!p[k].revents || c->fd < 0) continue;
            if (c->writing)
                on_writable(c);
            else
                on_readable(m, c);
        }
        if (p[1].revents & POLLIN) accept_all(m);
    }
    return NULL;
}

/* ---- start and stop ---- */

/* "ADDRESS:PORT" of a socket address, IPv6 in brackets. */
static void name_of(const struct sockaddr *sa, socklen_t len, char *out, size_t cap, unsigned *port)
{
    char host[64] = "?", serv[8] = "0"; /* numeric: INET6_ADDRSTRLEN and a zone; a port */
    if (getnameinfo(sa, len, host, sizeof host, serv, sizeof serv,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
        strcpy(host, "?"), strcpy(serv, "0");
    bool v6 = sa->sa_family == AF_INET6;
    snprintf(out, cap, "%s%s%s:%s", v6 ? "[" : "", host, v6 ? "]" : "", serv);
    if (port) *port = (unsigned)strtoul(serv, NULL, 10);
}

/* Why binding failed, and what to do about it. */
static rc_status bind_error(rc_error *err, const char *spec, const char *where, int e)
{
    const char *fix = e == EADDRINUSE ? "another program (or another rowcast) listens there: stop "
                                        "it, or pick another port (0: any free port)"
                      : e == EADDRNOTAVAIL
                          ? "the host is not an address of this machine: give one of its "
                            "addresses, 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)"
                      : e == EACCES ? "ports below 1024 need privileges: pick a port from 1024 up"
                                    : "pick another address";
    return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "--metrics '%s': cannot listen on %s: %s; %s",
                        spec, where, strerror(e), fix);
}

/* Listens on the first address of `a` that can be bound. */
static rc_status listen_on(rc_metrics *m, const char *spec, const rc_metrics_addr *a, rc_error *err)
{
    struct addrinfo hints = {.ai_family = a->ipv6 ? AF_INET6 : AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM,
                             .ai_flags =
                                 AI_PASSIVE | AI_NUMERICSERV | (a->ipv6 ? AI_NUMERICHOST : 0)};
    struct addrinfo *res = NULL;
    int g = getaddrinfo(a->host, a->port, &hints, &res);
    if (g != 0)
        return rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET,
                            "--metrics '%s': cannot resolve %s: %s; give an address (127.0.0.1, "
                            "[::1]) or a name this machine resolves",
                            spec, a->host, g == EAI_SYSTEM ? strerror(errno) : gai_strerror(g));
    int first_errno = 0;
    char where[96] = ""; /* name_of: an address and a port */
    for (struct addrinfo *ai = res; ai && m->lfd < 0; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol), one = 1;
        /* SO_REUSEADDR: a restart binds again while the last run's connections are in TIME_WAIT
         * (on Linux it never lets two processes listen on one port) */
        if (fd >= 0 && set_flags(fd) &&
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
            bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 64) == 0) {
            m->lfd = fd;
            break;
        }
        if (!first_errno)
            first_errno = errno, name_of(ai->ai_addr, ai->ai_addrlen, where, sizeof where, NULL);
        if (fd >= 0) close(fd);
    }
    freeaddrinfo(res);
    if (m->lfd < 0) return bind_error(err, spec, where, first_errno ? first_errno : EADDRNOTAVAIL);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(m->lfd, (struct sockaddr *)&ss, &sl) != 0)
        return bind_error(err, spec, a->host, errno);
    name_of((struct sockaddr *)&ss, sl, where, sizeof where, &m->port);
    snprintf(m->url, sizeof m->url, "http://%s/metrics", where);
    return RC_OK;
}

/* RC_METRICS_NOW_US: the clock of the lag, for tests. */
static rc_status fixed_clock(rc_metrics *m, rc_error *err)
{
    const char *now = getenv("RC_METRICS_NOW_US");
    if (!now) return RC_OK;
    char *end;
    errno = 0;
    long long v = strtoll(now, &end, 10);
    if (!*now || *end || errno)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "RC_METRICS_NOW_US='%s' is not microseconds since the epoch (a setting "
                            "for tests: unset it)",
                            now);
    m->fixed_now = true, m->now_us = v;
    return RC_OK;
}

rc_status rc_metrics_start(const char *spec, rc_metrics **out, rc_error *err)
{
    *out = NULL;
    rc_metrics_addr a;
    rc_status st = rc_metrics_addr_parse(spec, &a, err);
    if (st != RC_OK) return st;
    rc_metrics *m = calloc(1, sizeof *m);
    if (!m) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    m->lfd = m->wake[0] = m->wake[1] = -1;
    m->ready_lag_us = (int64_t)RC_METRICS_READY_LAG_S * 1000000;
    pthread_mutex_init(&m->mu, NULL);
    rc_buf_init(&m->body, 0);
    for (size_t i = 0; i < RC_METRICS_CLIENTS; i++)
        m->clients[i].fd = -1, rc_buf_init(&m->clients[i].out, 0);
    if ((st = fixed_clock(m, err)) != RC_OK || (st = listen_on(m, spec, &a, err)) != RC_OK) {
        rc_metrics_free(m);
        return st;
    }
    if (pipe(m->wake) != 0 || !set_flags(m->wake[0]) || !set_flags(m->wake[1])) {
        rc_error_set(err, RC_ERR_IO, RC_NO_OFFSET, "--metrics: cannot make a pipe: %s",
                     strerror(errno));
        rc_metrics_free(m);
        return RC_ERR_IO;
    }
    /* signals stay with the pipeline's thread: a SIGINT must interrupt its read, not this poll */
    if ((st = rc_thread_start(&m->thread, serve, m, 0, err, "--metrics: cannot start the server's thread")) != RC_OK) {
        rc_metrics_free(m);
        return st;
    }
    m->started = true;
    *out = m;
    return RC_OK;
}

const char *rc_metrics_url(const rc_metrics *m)
{
    return m->url;
}
unsigned rc_metrics_port(const rc_metrics *m)
{
    return m->port;
}

void rc_metrics_set_ready_lag(rc_metrics *m, int64_t us)
{
    pthread_mutex_lock(&m->mu);
    m->ready_lag_us = us;
    pthread_mutex_unlock(&m->mu);
}

void rc_metrics_publish(rc_metrics *m, const rc_metrics_values *v)
{
    pthread_mutex_lock(&m->mu);
    m->v = *v;
    pthread_mutex_unlock(&m->mu);
}

void rc_metrics_free(rc_metrics *m)
{
    if (!m) return;
    if (m->started) {
        ssize_t w = write(m->wake[1], "x", 1);
        (void)w;
        pthread_join(m->thread, NULL);
    }
    for (size_t i = 0; i < RC_METRICS_CLIENTS; i++)
        client_close(&m->clients[i]), rc_buf_fini(&m->clients[i].out);
    if (m->lfd >= 0) close(m->lfd);
    if (m->wake[0] >= 0) close(m->wake[0]), close(m->wake[1]);
    rc_buf_fini(&m->body);
    pthread_mutex_destroy(&m->mu);
    free(m);
}
