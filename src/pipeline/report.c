/* What a run says about itself on stderr: the progress line and the summary, both read
 * from the run's counts (rc_counts) and the sink's (rc_sink_stats), in the words that
 * docs/cli.md ("Counting") defines. On a terminal the progress line is redrawn in place and
 * cleared before anything else is printed; otherwise it is a plain line every interval, for
 * the logs of long jobs. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>
#include "pipeline_impl.h"
#include "core/hash.h"
#include "pipeline/metrics.h"
#include "core/log.h"

/* Seconds between progress lines unless --progress=INTERVAL says otherwise. */
#define PROGRESS_TTY_SECS 1.0
#define PROGRESS_LOG_SECS 10.0

double rc_pipeline_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

uint64_t rc_pipeline_undelivered(const rc_sink_stats *ss)
{
    uint64_t answered = ss->delivered + ss->dead_lettered + ss->failed;
    return ss->sent > answered ? ss->sent - answered : 0;
}

bool rc_pipeline_progress_option(rc_pipeline *c, const char *interval)
{
    c->progress = RC_PROGRESS_LINES; /* asked for; rc_pipeline_report_start picks the kind */
    c->progress_every = -1;       /* the kind's default */
    if (!interval) return true;
    char *end;
    unsigned long long n = strtoull(interval, &end, 10);
    if (end == interval || *interval == '-' || n > 86400ULL * 1000) return false;
    static const struct {
        const char *unit;
        double secs;
    } units[] = {{"ms", 0.001}, {"s", 1}, {"m", 60}, {"h", 3600}};
    for (size_t k = 0; k < sizeof units / sizeof *units; k++)
        if (!strcmp(end, units[k].unit) || (n == 0 && !*end)) {
            c->progress_every = (double)n * units[k].secs;
            return true;
        }
    return false;
}

void rc_pipeline_report_start(rc_pipeline *c)
{
    bool asked = c->progress != RC_PROGRESS_OFF, tty = isatty(2);
    /* messages on the same terminal would run into the line: there it is drawn only if asked for */
    bool by_default = !c->quiet && !(c->sink_stdout && isatty(1));
    c->progress = tty && (asked || by_default) ? RC_PROGRESS_TTY : asked ? RC_PROGRESS_LINES : RC_PROGRESS_OFF;
    if (c->progress_every < 0 || !asked) c->progress_every = tty ? PROGRESS_TTY_SECS : PROGRESS_LOG_SECS;
    struct winsize ws;
    c->tty_cols = c->progress == RC_PROGRESS_TTY && ioctl(2, TIOCGWINSZ, &ws) == 0 ? ws.ws_col : 0;
    /* the input size, for % and ETA, when the source knows it */
    c->src->ops->progress(c->src, &c->input_size, &c->start_off);
    c->t0 = c->last_progress = rc_pipeline_now();
}

/* n bytes in decimal units with one digit after the point, rounded (1 kB = 1000 B). */
static void human_bytes(char *out, size_t cap, uint64_t n)
{
    static const char *const units[] = {"kB", "MB", "GB", "TB", "PB"};
    if (n < 1000) {
        snprintf(out, cap, "%llu B", (unsigned long long)n);
        return;
    }
    uint64_t div = 1000;
    size_t u = 0;
    while (u + 1 < sizeof units / sizeof *units && n / div >= 1000) div *= 1000, u++;
    uint64_t tenths = n / (div / 10) + (n % (div / 10) >= div / 20);
    if (tenths >= 10000 && u + 1 < sizeof units / sizeof *units) /* 999.96 kB is 1.0 MB */
        div *= 1000, u++, tenths = n / (div / 10) + (n % (div / 10) >= div / 20);
    snprintf(out, cap, "%llu.%llu %s", (unsigned long long)(tenths / 10), (unsigned long long)(tenths % 10), units[u]);
}

static void human_secs(char *out, size_t cap, double secs)
{
    unsigned long long s = secs < 0 ? 0 : secs > 359999 ? 359999 : (unsigned long long)(secs + 0.5);
    if (s < 60) snprintf(out, cap, "%llus", s);
    else if (s < 3600) snprintf(out, cap, "%llum%02llus", s / 60, s % 60);
    else snprintf(out, cap, "%lluh%02llum", s / 3600, s / 60 % 60);
}

/* A line being put together; text past its end is cut (it is far longer than any progress line). */
typedef struct text {
    char s[512];
    size_t n;
} text;

static void put(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = t->n < sizeof t->s ? vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap) : 0;
    va_end(ap);
    if (k > 0) t->n += (size_t)k;
    if (t->n >= sizeof t->s) t->n = sizeof t->s - 1;
}

/* A line on its own (logs, and always in --log-format=json), or redrawn in place on the
 * terminal. */
static void progress_out(rc_pipeline *c, text *l)
{
    if (c->progress == RC_PROGRESS_LINES || rc_log_get_format() == RC_LOG_JSON) {
        rc_logf("%s\n", l->s);
        return;
    }
    /* a line wider than the terminal would wrap, and \r would then redraw only its last row */
    if (c->tty_cols > 1 && l->n > (size_t)c->tty_cols - 1) l->n = (size_t)c->tty_cols - 1;
    rc_logf("\r\033[K%.*s", (int)l->n, l->s);
    c->progress_drawn = true;
}

/* While incremental snapshots are under way, after the rest: " | backfill TABLE READ/~ESTIMATE
 * (P%), chunk N, R rows/s[, paused][, Q queued]" for the table being read (R over the `dt`
 * seconds since the last line), or " | backfill[ paused,] Q queued" between tables. */
static void backfill_part(rc_pipeline *c, text *l, const rc_source_stats *st, double dt)
{
    const rc_source_incsnap *t = NULL;
    for (size_t i = 0; i < st->nincsnap && i < RC_SOURCE_INCSNAP_TABLES && !t; i++)
        if (st->incsnap[i].state == RC_INCSNAP_STATE_RUNNING || st->incsnap[i].state == RC_INCSNAP_STATE_PAUSED)
            t = &st->incsnap[i];
    uint64_t queued = st->incsnap_tables[RC_INCSNAP_STATE_QUEUED];
    if (!t && !queued) {
        c->backfill_table = 0;
        return;
    }
    put(l, " | backfill");
    if (t) {
        uint64_t id = rc_hash64(t->name, strlen(t->name), 1) | 1; /* 0: none */
        uint64_t since = id == c->backfill_table && c->backfill_rows <= t->rows_read ? c->backfill_rows : 0;
        c->backfill_table = id, c->backfill_rows = t->rows_read;
        put(l, " %s %llu", t->name, (unsigned long long)t->rows_read);
        if (t->estimate >= t->rows_read && t->estimate)
            put(l, "/~%llu (%llu%%)", (unsigned long long)t->estimate, (unsigned long long)(t->rows_read * 100 / t->estimate));
        else
            put(l, " rows");
        put(l, ", chunk %llu, %.0f rows/s", (unsigned long long)t->chunks, (double)(t->rows_read - since) / dt);
    }
    if (st->incsnap_paused) put(l, t ? ", paused" : " paused");
    if (queued) put(l, "%s%llu queued", t || st->incsnap_paused ? ", " : " ", (unsigned long long)queued);
}

/* At the stop (--until, --max-events, a signal, an error), before the source closes: the
 * incremental snapshots not finished, so that a run that stopped "caught up" does not look
 * complete while tables are half read. Their progress is in the state/checkpoint the source
 * keeps; the source said at the start whether it has one. */
void rc_pipeline_incsnap_unfinished(rc_pipeline *c)
{
    rc_source_stats st = {0};
    if (c->quiet || !c->src || !c->src->ops->stats) return;
    c->src->ops->stats(c->src, &st);
    if (!st.has_incsnap) return;
    text l = {0};
    size_t shown = 0;
    for (size_t i = 0; i < st.nincsnap && i < RC_SOURCE_INCSNAP_TABLES && shown < 5; i++) { /* the running first */
        const rc_source_incsnap *t = &st.incsnap[i];
        if (t->state != RC_INCSNAP_STATE_RUNNING && t->state != RC_INCSNAP_STATE_PAUSED && t->state != RC_INCSNAP_STATE_QUEUED)
            continue;
        put(&l, "%s%s (", shown++ ? ", " : "", t->name);
        if (t->state == RC_INCSNAP_STATE_QUEUED)
            put(&l, "queued");
        else if (t->estimate >= t->rows_read && t->estimate)
            put(&l, "%llu of ~%llu rows read", (unsigned long long)t->rows_read, (unsigned long long)t->estimate);
        else
            put(&l, "%llu rows read", (unsigned long long)t->rows_read);
        put(&l, ")");
    }
    uint64_t more = st.incsnap_tables[RC_INCSNAP_STATE_QUEUED] + st.incsnap_tables[RC_INCSNAP_STATE_RUNNING] +
                    st.incsnap_tables[RC_INCSNAP_STATE_PAUSED];
    if (!shown) return;
    if (more > shown) put(&l, " and %llu more", (unsigned long long)(more - shown));
    rc_logf("rowcast: stopped before the incremental snapshot%s finished: %.*s%s; the next run from the same state "
            "resumes %s (at most one chunk read again)\n", shown == 1 ? "" : "s", (int)l.n, l.s,
            st.incsnap_paused ? " (paused)" : "", shown == 1 ? "it" : "them");
}

/* A database source's line: during the snapshot the table, the rows against the planner's
 * estimate and their rate; then the events, their rate and the last acknowledged position;
 * the incremental snapshot's after either. */
static void capture_line(rc_pipeline *c, text *l, double el, double dt, const rc_sink_stats *ss)
{
    rc_source_stats st = {0};
    if (c->src && c->src->ops->stats) c->src->ops->stats(c->src, &st);
    if (st.in_snapshot) {
        uint64_t table = st.snapshot_tables_done + (st.snapshot_tables_done < st.snapshot_tables_total);
        put(l, "snapshot table %llu/%llu, %llu rows", (unsigned long long)table, (unsigned long long)st.snapshot_tables_total,
            (unsigned long long)st.snapshot_rows_read);
        if (st.snapshot_rows_estimate >= st.snapshot_rows_read && st.snapshot_rows_estimate)
            put(l, " of ~%llu (%llu%%)", (unsigned long long)st.snapshot_rows_estimate,
                (unsigned long long)(st.snapshot_rows_read * 100 / st.snapshot_rows_estimate));
        put(l, ", %.0f rows/s", (double)st.snapshot_rows_read / el);
        if (st.snapshot_rows_estimate > st.snapshot_rows_read && st.snapshot_rows_read) {
            char eta[32];
            human_secs(eta, sizeof eta, (double)(st.snapshot_rows_estimate - st.snapshot_rows_read) * el / (double)st.snapshot_rows_read);
            put(l, ", ETA %s", eta);
        }
    } else {
        put(l, "%llu event%s, %.0f events/s, %llu message%s written, %llu delivered", (unsigned long long)c->n.events,
            plural(c->n.events), (double)c->n.events / el, (unsigned long long)ss->sent, plural(ss->sent),
            (unsigned long long)ss->delivered);
        if (st.has_ack_position) put(l, ", acknowledged %s", st.ack_position_text);
    }
    if (st.has_incsnap) backfill_part(c, l, &st, dt);
}

/* A source with partitions (Kafka): the messages after their committed offsets, and the
 * longest time behind of one. */
static void lag_part(rc_pipeline *c, text *l)
{
    rc_source_stats st = {0};
    if (!c->src || !c->src->ops->stats) return;
    c->src->ops->stats(c->src, &st);
    if (!st.has_parts) return;
    int64_t ms = 0;
    for (size_t i = 0; i < st.nparts && i < RC_SOURCE_PARTS; i++)
        if (st.parts[i].lag_ms > ms) ms = st.parts[i].lag_ms;
    put(l, ", lag %llu message%s (%lld.%lld s)", (unsigned long long)st.lag_total, plural(st.lag_total), (long long)(ms / 1000),
        (long long)(ms % 1000 / 100));
}

void rc_pipeline_progress(rc_pipeline *c)
{
    rc_pipeline_publish(c);
    uint64_t moved = c->database ? c->n.lines : c->n.bytes; /* a database's messages have no size here */
    if (c->progress == RC_PROGRESS_OFF || moved == c->progress_at) return;
    double t = rc_pipeline_now(), el = t - c->t0, dt = t - c->last_progress;
    if (dt < c->progress_every) return;
    c->last_progress = t;
    c->progress_at = moved;
    if (el <= 0) el = 1e-9;
    rc_sink_stats ss;
    rc_sink_get_stats(c->sink, &ss);
    if (c->database) {
        text l = {.n = 0};
        put(&l, "rowcast: ");
        if (c->progress == RC_PROGRESS_LINES) put(&l, "progress at %.1f s: ", el);
        capture_line(c, &l, el, dt > 0 ? dt : 1e-9, &ss);
        progress_out(c, &l);
        return;
    }
    uint64_t done = c->start_off + c->n.bytes; /* a resumed run began at start_off */
    bool sized = c->input_size && done <= c->input_size;
    bool lines = c->progress == RC_PROGRESS_LINES;
    char read[32], total[32], eta[32];
    text l = {.n = 0};
    put(&l, "rowcast: ");
    if (lines) put(&l, "progress at %.1f s: %llu line%s, ", el, (unsigned long long)c->n.lines, plural(c->n.lines));
    human_bytes(read, sizeof read, done);
    put(&l, "%s", read);
    if (sized) {
        human_bytes(total, sizeof total, c->input_size);
        put(&l, " of %s read (%llu%%)", total, (unsigned long long)(done * 100 / c->input_size));
    } else {
        put(&l, " read");
    }
    put(&l, ", %llu event%s, %.0f events/s", (unsigned long long)c->n.events, plural(c->n.events), (double)c->n.events / el);
    if (lines) put(&l, ", %llu message%s written", (unsigned long long)ss.sent, plural(ss.sent));
    lag_part(c, &l);
    if (sized) {
        human_secs(eta, sizeof eta, (double)(c->input_size - done) * el / (double)c->n.bytes);
        put(&l, ", ETA %s", eta);
    }
    progress_out(c, &l);
}

void rc_pipeline_say(const rc_pipeline *c, const char *key, const char *msg)
{
    char at[400] = "";
    if (c->origin) c->origin(c->origin_ctx, key, msg, at, sizeof at);
    rc_logf("rowcast %s: %s%s\n", c->command, at, msg);
}

int rc_pipeline_metrics_start(rc_pipeline *c)
{
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_metrics_start(c->metrics_addr, &c->metrics, &err);
    if (st != RC_OK) {
        rc_logf("rowcast %s: %s\n", c->command, err.message);
        if (st == RC_ERR_USAGE) rc_logf("(see rowcast help %s)\n", c->command);
        return st == RC_ERR_USAGE ? RC_EXIT_USAGE : RC_EXIT_IO;
    }
    rc_metrics_set_ready_lag(c->metrics, (int64_t)c->ready_lag_s * 1000000);
    /* also with --quiet: with port 0 nothing else says where it is */
    rc_logf("rowcast: metrics on %s\n", rc_metrics_url(c->metrics));
    return RC_EXIT_OK;
}

/* A copy of the numbers for the endpoint: the pipeline's counts, the sink's, the source's, and
 * the time of the last delivered event. */
void rc_pipeline_publish(rc_pipeline *c)
{
    if (!c->metrics) return;
    rc_pipeline_lag_settle(c);
    rc_metrics_values v = {.n = c->n, .has_delivered_ts = c->lag.known, .delivered_ts_us = c->lag.ts_us, .idle = c->idle};
    rc_sink_get_stats(c->sink, &v.sink);
    v.has_txn = rc_sink_txn_stats_get(c->sink, &v.txn);
    if (c->src && c->src->ops->stats) {
        v.has_source = true;
        c->src->ops->stats(c->src, &v.source);
    }
    rc_metrics_publish(c->metrics, &v);
}

void rc_pipeline_metrics_stop(rc_pipeline *c)
{
    rc_metrics_free(c->metrics);
    c->metrics = NULL;
}

/* --include patterns that matched no event: most likely a misspelt name. */
static void report_unmatched(const rc_pipeline *c)
{
    for (size_t i = 0; i < c->ninclude; i++) {
        const rc_include_pat *p = &c->include[i];
        if (p->hit) continue;
        if (p->db_only)
            rc_logf("rowcast: --include '%s' matched no event (as %s.*: a pattern without a dot names databases)\n",
                    p->pattern, p->pattern);
        else
            rc_logf("rowcast: --include '%s' matched no event\n", p->pattern);
    }
}

void rc_pipeline_summary(rc_pipeline *c)
{
    rc_pipeline_progress_clear(c);
    if (c->quiet) return;
    double el = rc_pipeline_now() - c->t0;
    if (el <= 0) el = 1e-9;
    rc_sink_stats ss;
    rc_sink_get_stats(c->sink, &ss);
    const rc_counts *n = &c->n;
    if (!c->database) report_unmatched(c); /* an idle capture matches nothing, and says nothing wrong */
    const char *fate = !n->bad ? "" : c->on_error == RC_ON_SKIP ? " (skipped)" : c->on_error == RC_ON_DEAD ? " (dead-lettered)" : " (stopped there)";
    rc_logf("rowcast: %llu %s%s read: %llu converted, %llu filtered out, %llu bad%s", (unsigned long long)n->lines,
            c->item_word, plural(n->lines), (unsigned long long)n->converted, (unsigned long long)n->lines_filtered, (unsigned long long)n->bad,
            fate);
    if (n->interrupted) rc_logf(", %llu interrupted", (unsigned long long)n->interrupted);
    if (n->multiline) rc_logf("; %llu of them pretty-printed over several lines", (unsigned long long)n->multiline);
    if (n->comments) rc_logf("; %llu comment block%s skipped", (unsigned long long)n->comments, plural(n->comments));
    /* a format without transaction markers writes no message for BEGIN/COMMIT: said apart,
     * since nothing of the data is missing */
    rc_logf("\nrowcast: %llu event%s decoded: %llu encoded, %llu filtered out, %llu not expressible in %s",
            (unsigned long long)n->events, plural(n->events), (unsigned long long)n->encoded, (unsigned long long)n->filtered,
            (unsigned long long)(n->not_expressible - n->markers), c->to->name);
    if (n->markers) rc_logf(", %llu transaction marker%s (BEGIN/COMMIT) it has no message for", (unsigned long long)n->markers, plural(n->markers));
    if (n->refused) {
        static const char *const loss_fate[] = {"stopped there", "skipped", "dead-lettered", "stopped there"};
        rc_logf(", %llu row%s with a value it cannot hold (%s: --on-loss)", (unsigned long long)n->refused, plural(n->refused),
                loss_fate[c->on_loss]);
    }
    rc_logf("\n");
    rc_pipeline_loss_summary(c);
    rc_logf("rowcast: %llu message%s written (%llu byte%s): %llu delivered, %llu dead-lettered, %llu refused, %llu undelivered\n",
            (unsigned long long)ss.sent, plural(ss.sent), (unsigned long long)ss.bytes, plural(ss.bytes),
            (unsigned long long)ss.delivered, (unsigned long long)ss.dead_lettered, (unsigned long long)ss.failed,
            (unsigned long long)rc_pipeline_undelivered(&ss));
    rc_logf("rowcast: %.3f s, %.0f events/s\n", el, (double)n->events / el);
}
