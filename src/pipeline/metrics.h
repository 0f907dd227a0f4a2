/* The metrics endpoint (--metrics HOST:PORT): a small HTTP/1.1 server on a thread of its own
 * that answers GET /metrics with the run's numbers in Prometheus's text exposition format
 * 0.0.4 (docs/metrics.md lists every metric). Plain POSIX sockets, no library.
 *
 * The pipeline never waits for it: after each batch and on each idle tick it publishes a copy
 * of its numbers (rc_metrics_values) under a mutex, and the server formats a scrape from the
 * last copy. One thread serves every connection with poll(): several scrapes at once are
 * answered in turn, and a client that connects and sends nothing (or reads slowly) is cut off
 * after RC_METRICS_TIMEOUT_MS without holding up the others. A connection carries one request
 * and is closed after the response (Connection: close).
 *
 * Lag (rowcast_lag_seconds) is now minus the source time (rc_event.ts_us: the commit time of a
 * database change, the message's timestamp for `convert`) of the last event of the last
 * position the sink acknowledged: the pipeline notes, at each position it marks in the sink,
 * the number of records sent so far and the time of the latest event before that position
 * (rc_lag in pipeline/pipeline.h); once the sink has acknowledged every record before that
 * number, that time is the last delivered one. Before any event with a time is delivered
 * there is no lag sample. An idle source's lag grows with the clock: its last change is that
 * old (a database heartbeat keeps it small). `RC_METRICS_NOW_US` (µs since the epoch) in the
 * environment replaces the clock for the lag: tests only, so that a scrape is exact. */
#ifndef ROWCAST_METRICS_H
#define ROWCAST_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "pipeline/pipeline.h"
#include "rowcast/sink.h"
#include "rowcast/source.h"
#include "sinks/sink_txn.h"

enum {
    RC_METRICS_TIMEOUT_MS = 3000, /* a connection's request and response, at most */
    RC_METRICS_CLIENTS = 16,      /* connections served at once; more are answered 503 */
    RC_METRICS_REQUEST_MAX = 8192 /* bytes of a request's head (request line and headers) */
};

/* What a scrape reports: a copy of the pipeline's numbers. */
typedef struct rc_metrics_values {
    rc_counts n;
    rc_sink_stats sink;
    bool has_txn; /* the Kafka sink has transactions (-o kafka.transactions=true): */
    rc_sink_txn_stats txn;
    bool has_source; /* the source reports stats (rc_source_ops.stats) */
    rc_source_stats source;
    bool has_delivered_ts;   /* an event with a source time was delivered: */
    int64_t delivered_ts_us; /*   the time of the last one (see the lag above) */
    bool idle;               /* published on an idle tick: the source had nothing to read */
    /* the run's state and role (core/run_state.h), read by the server at each request;
     * without has_state (a scrape formatted alone) rowcast_state and rowcast_role are left out */
    bool has_state;
    int state, role;
    int64_t ready_lag_us; /* --ready-lag */
} rc_metrics_values;

/* /ready and /health (RC_METRICS_READY_LAG_S: --ready-lag's default, seconds):
 * /health is 200 while the process serves; /ready is 200 for a healthy standby, for a convert
 * reading its input, and for a capture streaming that is caught up: its lag is at most the
 * bound, or there is no lag sample yet, or the source is idle with every message acknowledged
 * (an idle database's lag grows with the clock); 503 otherwise (starting, snapshot,
 * reconnecting, lagging, stopping, failing, done). The body is one line of JSON with the state,
 * the role, the lag and, when not ready, the reason. Returns the status; the body in `out`. */
enum { RC_METRICS_READY_LAG_S = 60 };
int rc_metrics_probe(const rc_metrics_values *v, bool ready, int64_t now_us, rc_buf *out);

/* Appends the text of a scrape (the response body) for `v`, the lag taken at now_us. */
void rc_metrics_format(const rc_metrics_values *v, int64_t now_us, rc_buf *out);

/* --metrics HOST:PORT, split: HOST is a name, an IPv4 address or an IPv6 address in brackets
 * ([::1]:9470); ":PORT" and "PORT" alone are 127.0.0.1 (loopback by default). PORT is 0 to
 * 65535, 0 for any free port. */
typedef struct rc_metrics_addr {
    char host[256]; /* without the brackets */
    char port[6];
    bool ipv6; /* was written in brackets */
} rc_metrics_addr;

/* RC_OK, or RC_ERR_USAGE with what is wrong and how to write it (the message begins with
 * "--metrics 'SPEC': "). */
rc_status rc_metrics_addr_parse(const char *spec, rc_metrics_addr *out, rc_error *err);

typedef struct rc_metrics rc_metrics;

/* Parses `spec`, listens there and starts the server's thread. RC_ERR_USAGE for a malformed
 * address, RC_ERR_IO when the host does not resolve or the address cannot be bound (in use,
 * not this machine's, a privileged port): the message names the address and the fix. *out is
 * the caller's, for rc_metrics_free. */
rc_status rc_metrics_start(const char *spec, rc_metrics **out, rc_error *err);
/* /ready's bound on the lag (--ready-lag), in µs; RC_METRICS_READY_LAG_S s until set. */
void rc_metrics_set_ready_lag(rc_metrics *m, int64_t us);
/* Where it listens: "http://127.0.0.1:9470/metrics" (the port bound, when 0 was asked for). */
const char *rc_metrics_url(const rc_metrics *m);
unsigned rc_metrics_port(const rc_metrics *m);
/* Copies `v` for the next scrapes (the pipeline's thread; never waits for a scrape). */
void rc_metrics_publish(rc_metrics *m, const rc_metrics_values *v);
/* Stops the thread (connections in progress are closed) and frees everything; NULL: no-op. */
void rc_metrics_free(rc_metrics *m);

/* One HTTP request head, as the server reads it: the method, the path (the request target
 * without its query; an absolute-form target "http://host/p" is its path /p) and HTTP/1.x's
 * x; `head_len` bytes up to and including the blank line that ends the headers. Points into
 * the text given. */
typedef struct rc_http_request {
    const char *method, *path;
    size_t method_len, path_len;
    int minor;
    size_t head_len;
} rc_http_request;

/* Reads the request line and the header lines of text[0..n): RC_OK; RC_PENDING when the head
 * is not complete yet (and nothing seen so far is wrong); RC_ERR_SYNTAX for a malformed head
 * (400), RC_ERR_UNSUPPORTED for an HTTP version other than 1.x (505), with the reason in err
 * and the byte where it was found. A bare LF ends a line as CRLF does; empty lines before the
 * request line are skipped (RFC 9112 §2.2). */
rc_status rc_http_request_parse(const char *text, size_t n, rc_http_request *req, rc_error *err);

#endif
