/* `rowcast convert`: decode messages line by line, encode each event, hand each message to the
 * sink (stdout, a file, Kafka). Bad input is reported with file, line and byte, and handled per
 * --on-error; with --checkpoint the input offset acknowledged by the sink is stored. */
#include <errno.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "rowcast/fmt.h"
#include "rowcast/format.h"
#include "rowcast/sink.h"

enum on_error { ON_STOP, ON_SKIP, ON_DEAD };
enum { MAX_OPTS = 128, MAX_SHOWN_ERRORS = 50 };

/* One message of the current line: key and value are ranges of conv.msg. */
typedef struct out_rec {
    rc_origin src;
    rc_op op;
    size_t koff, klen, voff, vlen, toff, tlen;
    bool has_key, null_value, has_topic; /* has_topic: the format names the topic (toff/tlen) */
    int32_t partition;                    /* >= 0: and the partition */
} out_rec;

/* The origin of the group a grouping encoder holds (canal.group). */
typedef struct held {
    char s[4][256];
    size_t n[4];
    rc_op op;
} held;

static volatile sig_atomic_t stop_signal;
static void on_signal(int sig) { stop_signal = sig; }

typedef struct conv {
    const rc_format *from, *to;
    void *dec, *enc;
    enum on_error on_error;
    const char *dead_path;
    FILE *dead;
    bool quiet, progress;
    bool need_keys;  /* the sink writes keys (Kafka, --keys, --records) */
    bool tombstones; /* send a tombstone where the format has one after a message */
    bool routed;     /* the sink needs topics and headers (Kafka, --records) */
    const char *topic_tmpl, *server;
    unsigned drop;        /* bit (1 << op) set: events of that operation are dropped (--drop) */
    const char **include; /* db.table patterns; NULL = every table */
    size_t ninclude;
    uint64_t filtered;
    rc_arena arena;
    rc_event_list events;
    rc_buf msg;   /* encoded keys and values of the current input line */
    rc_buf topic; /* topic and route of the record being sent */
    rc_buf pos;   /* the rowcast.position header of the current line */
    rc_buf topic_key; /* the origin c->topic was expanded for (route_of) */
    size_t topic_len;
    bool topic_cached;
    out_rec *recs;
    size_t nrecs, caprecs;
    held held;
    bool held_pending; /* the encoder holds events of lines already read */
    bool sink_failed;  /* a send failed (and was reported) */
    rc_sink *sink;
    const char *ck_path; /* --checkpoint */
    rc_checkpoint ck;
    bool ck_written;
    double ck_interval, ck_last;
    uint64_t end_off, end_line;
    /* counters */
    uint64_t lines, events_in, written, bad_lines, not_expressible, errors_shown;
    double t0, last_progress;
} conv;

void cli_usage_convert(void)
{
    fputs("usage: rowcast convert [OPTIONS] [FILE...]\n"
          "\n"
          "Reads messages, one per line, from each FILE (stdin when none, or '-') and sends\n"
          "each event in the target format to the sink: by default stdout, one message per\n"
          "line. Blank lines are ignored; a trailing '\\r' is removed.\n"
          "\n"
          "  --from FMT             input format (default: native)\n"
          "  --to FMT               output format (default: native)\n"
          "  -o KEY=VALUE           format option, repeatable (rowcast formats --options); with a\n"
          "                         Kafka sink, -o kafka.PROPERTY=VALUE passes any librdkafka\n"
          "                         property (security.protocol, compression.type, linger.ms...)\n"
          "  --sink URL             where messages go:\n"
          "                           stdout       (default)\n"
          "                           file:PATH    appended to PATH\n"
          "                           kafka://HOST:PORT[,HOST:PORT...]/TOPIC\n"
          "                                        an idempotent producer (acks=all); TOPIC is a\n"
          "                                        topic template (see --topic)\n"
          "  --topic TEMPLATE       topic of each message: {server}, {db}, {schema}, {table}, or\n"
          "                         the preset 'debezium' = {server}.{db}.{table} (default);\n"
          "                         characters Kafka does not allow become '_'\n"
          "  --server NAME          {server} for events that name none (default: rowcast)\n"
          "  --keys                 stdout/file: write each message's key instead of its value;\n"
          "                         \"null\" where the format or the table has none\n"
          "  --records              stdout/file: write each message as a Kafka record, tab-\n"
          "                         separated: topic, key length, key, value length, value,\n"
          "                         headers (what kcat -f '%t\\t%K\\t%k\\t%S\\t%s\\t%h\\n' prints;\n"
          "                         -1 for a null key or value)\n"
          "  --tombstones, --no-tombstones\n"
          "                         send a tombstone (same key, null value) where the format has\n"
          "                         one, as upstream Debezium after every delete (default: on for\n"
          "                         Kafka, off for stdout/file, where it is the line \"null\")\n"
          "  --checkpoint PATH      one input FILE only: resume from the offset stored in PATH,\n"
          "                         and store there the input offset up to which every message\n"
          "                         is acknowledged by the sink (never beyond an undelivered one)\n"
          "  --checkpoint-interval MS\n"
          "                         store the checkpoint at most this often (default 200)\n"
          "  --flush-timeout SECS   at the end or on SIGINT/SIGTERM, wait this long for\n"
          "                         outstanding deliveries (default 30)\n"
          "  --on-error=MODE        what to do with a line that cannot be converted:\n"
          "                           stop         report it and exit with status 2 (default)\n"
          "                           skip         report it, drop it and go on\n"
          "                           dead-letter:PATH\n"
          "                                        append the line unchanged to PATH and go on;\n"
          "                                        a message Kafka refuses for good is appended\n"
          "                                        there too (its value, one per line)\n"
          "  --include DB.TABLE     convert only events of matching tables (shell patterns: shop.*,\n"
          "                         *.orders); repeatable; events without a table always pass\n"
          "  --drop KINDS           drop events of these kinds (comma-separated): ddl, truncate,\n"
          "                         heartbeat, transaction (begin/commit markers), snapshot\n"
          "                         (snapshot reads); counted as filtered out. Tombstones in the\n"
          "                         input carry no event and are always dropped\n"
          "  --quiet, -q            no progress line and no summary on stderr\n"
          "  --help, -h             this text\n"
          "\n"
          "Kafka messages carry headers rowcast.op, rowcast.db, rowcast.table, rowcast.format and\n"
          "rowcast.position (FILE:OFFSET, the input line's byte offset). A message goes to\n"
          "the partition the Java client's default partitioner picks for its key (murmur2); a\n"
          "keyless message to the one picked for \"db.table\", so each table stays in order.\n"
          "\n"
          "Errors name the file, line and byte: FILE:LINE:COL (file offset N), where COL is the\n"
          "1-based byte column in the line and N the 0-based byte offset in the file.\n"
          "Events the target format has no message for (e.g. a heartbeat in a format without\n"
          "heartbeats) are not written and are counted in the summary.\n"
          "\n"
          "Exit status: 0 done; 1 usage; 2 bad input (--on-error=stop); 3 I/O or delivery\n"
          "failure (messages undelivered; the checkpoint stops before the first of them);\n"
          "128+N stopped by signal N after flushing.\n",
          stdout);
}

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void report(conv *c, const char *file, uint64_t lineno, uint64_t line_off, const rc_error *err)
{
    c->errors_shown++;
    if (c->errors_shown > MAX_SHOWN_ERRORS) {
        if (c->errors_shown == MAX_SHOWN_ERRORS + 1) fprintf(stderr, "rowcast: further errors are not shown\n");
        return;
    }
    if (c->progress) fputs("\r\033[K", stderr);
    if (err->offset == RC_NO_OFFSET)
        fprintf(stderr, "rowcast: %s:%llu: %s error: %s\n", file, (unsigned long long)lineno, rc_status_name(err->code),
                err->message);
    else
        fprintf(stderr, "rowcast: %s:%llu:%llu (file offset %llu): %s error: %s\n", file, (unsigned long long)lineno,
                (unsigned long long)err->offset + 1, (unsigned long long)(line_off + err->offset), rc_status_name(err->code),
                err->message);
}

static void show_progress(conv *c, bool final)
{
    double t = now_sec(), el = t - c->t0;
    if (el <= 0) el = 1e-9;
    rc_sink_stats ss;
    rc_sink_get_stats(c->sink, &ss);
    if (final) {
        if (c->progress) fputs("\r\033[K", stderr);
        fprintf(stderr,
                "rowcast: %llu lines, %llu events, %llu messages written (%llu bytes), %llu bad lines%s, "
                "%llu events not expressible in %s, %llu filtered out (events or messages); %.3f s, %.0f events/s\n",
                (unsigned long long)c->lines, (unsigned long long)c->events_in, (unsigned long long)c->written,
                (unsigned long long)ss.bytes, (unsigned long long)c->bad_lines,
                c->on_error == ON_DEAD ? " dead-lettered" : c->on_error == ON_SKIP ? " skipped" : "",
                (unsigned long long)c->not_expressible, c->to->name, (unsigned long long)(c->filtered + c->events.rejected), el,
                c->events_in / el);
        if (rc_sink_is_kafka(c->sink))
            fprintf(stderr, "rowcast: kafka: %llu messages sent, %llu delivered, %llu refused, %llu dead-lettered, %llu undelivered\n",
                    (unsigned long long)ss.sent, (unsigned long long)ss.delivered, (unsigned long long)ss.failed,
                    (unsigned long long)ss.dead_lettered, (unsigned long long)(ss.sent - ss.delivered - ss.dead_lettered));
        return;
    }
    fprintf(stderr, "\r\033[Krowcast: %llu events, %.0f events/s, %llu bytes", (unsigned long long)c->events_in,
            c->events_in / el, (unsigned long long)ss.bytes);
    c->last_progress = t;
}

/* The --drop list as a set of operations; false for an unknown kind. */
static bool parse_drop(const char *list, unsigned *out)
{
    static const struct {
        const char *name;
        unsigned ops;
    } kinds[] = {{"ddl", 1u << RC_OP_DDL},
                 {"truncate", 1u << RC_OP_TRUNCATE},
                 {"heartbeat", 1u << RC_OP_HEARTBEAT},
                 {"transaction", 1u << RC_OP_BEGIN | 1u << RC_OP_COMMIT},
                 {"snapshot", 1u << RC_OP_READ}};
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        size_t k = 0;
        while (k < sizeof kinds / sizeof *kinds && !(strlen(kinds[k].name) == n && !strncmp(kinds[k].name, p, n))) k++;
        if (k == sizeof kinds / sizeof *kinds) return false;
        *out |= kinds[k].ops;
        p += n + (p[n] == ',');
    }
    return true;
}

/* Converts one line; RC_OK or the error (already described in err). Output is appended to
 * c->msg only; the caller writes it, so a failing line never produces partial output. */
/* True when the event's db.table matches one of the --include patterns (or there are none).
 * Events without a table (heartbeats, transaction markers) always pass. */
static bool table_included(void *ctx, rc_str db, rc_str table)
{
    const conv *c = ctx;
    if (!c->ninclude || !table.n) return true;
    char name[512];
    snprintf(name, sizeof name, "%.*s.%.*s", (int)db.n, db.p, (int)table.n, table.p);
    for (size_t i = 0; i < c->ninclude; i++)
        if (fnmatch(c->include[i], name, 0) == 0) return true;
    return false;
}

static bool included(const conv *c, const rc_event *ev) { return table_included((void *)c, ev->src.db, ev->src.table); }

/* The origin of the message a grouping encoder emits: the group it held, copied into the
 * line's arena (the held copy itself is overwritten by the next group). */
static void held_set(conv *c, const rc_event *ev)
{
    held *h = &c->held;
    const rc_str *f[4] = {&ev->src.server, &ev->src.db, &ev->src.schema, &ev->src.table};
    for (int k = 0; k < 4; k++) {
        size_t n = f[k]->n < sizeof h->s[k] ? f[k]->n : sizeof h->s[k];
        if (n) memcpy(h->s[k], f[k]->p, n);
        h->n[k] = n;
    }
    h->op = ev->op;
}

static void held_origin(conv *c, out_rec *r)
{
    rc_str *f[4] = {&r->src.server, &r->src.db, &r->src.schema, &r->src.table};
    memset(&r->src, 0, sizeof r->src);
    for (int k = 0; k < 4; k++) {
        char *p = c->held.n[k] ? rc_arena_alloc(&c->arena, c->held.n[k]) : NULL;
        if (p) memcpy(p, c->held.s[k], c->held.n[k]), *f[k] = (rc_str){p, c->held.n[k]};
    }
    r->op = c->held.op;
}

static out_rec *push_rec(conv *c)
{
    if (c->nrecs == c->caprecs) {
        size_t cap = c->caprecs ? c->caprecs * 2 : 16;
        out_rec *n = realloc(c->recs, cap * sizeof *n);
        if (!n) return NULL;
        c->recs = n, c->caprecs = cap;
    }
    out_rec *r = &c->recs[c->nrecs++];
    memset(r, 0, sizeof *r);
    r->partition = -1;
    return r;
}

/* Appends the message key of `ev` to c->msg into r; no key where the format or table has none. */
static rc_status put_key(conv *c, const rc_event *ev, out_rec *r, rc_error *err)
{
    if (!c->to->encode_key || !c->need_keys) return RC_OK;
    size_t mark = c->msg.len;
    rc_status st = c->to->encode_key(c->enc, ev, &c->msg, err);
    if (st == RC_SKIP) {
        c->msg.len = mark;
        return RC_OK;
    }
    if (st != RC_OK) return st;
    r->has_key = true, r->koff = mark, r->klen = c->msg.len - mark;
    return RC_OK;
}

/* Converts one line into c->recs (messages in c->msg); RC_OK or the error (already described
 * in err). Nothing is sent before the whole line converted, so a failing line never produces
 * partial output. */
static rc_status convert_line(conv *c, const char *line, size_t n, rc_error *err)
{
    c->events.count = 0;
    c->nrecs = 0;
    rc_status st = c->from->decode(c->dec, line, n, &c->arena, &c->events, err);
    if (st != RC_OK) return st;
    c->events_in += c->events.count;
    for (size_t i = 0; i < c->events.count; i++) {
        const rc_event *ev = &c->events.items[i];
        if (!included(c, ev) || (c->drop >> ev->op & 1)) {
            c->filtered++;
            continue;
        }
        size_t mark = c->msg.len;
        bool was_holding = c->to->holding && c->to->holding(c->enc);
        st = c->to->encode_value(c->enc, ev, &c->msg, err);
        if (st == RC_SKIP) {
            c->msg.len = mark;
            c->not_expressible++;
            continue;
        }
        if (st != RC_OK && st != RC_PENDING) return st;
        if (st == RC_OK) {
            out_rec *r = push_rec(c);
            if (!r) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
            r->voff = mark, r->vlen = c->msg.len - mark;
            if (was_holding) {
                held_origin(c, r); /* the group the encoder held: several rows, no one key */
            } else {
                r->src = ev->src, r->op = ev->op;
                if ((st = put_key(c, ev, r, err)) != RC_OK) return st;
                size_t tm = c->msg.len;
                if (c->routed && c->to->route && c->to->route(c->enc, ev, &c->msg, &r->partition) == RC_OK)
                    r->has_topic = true, r->toff = tm, r->tlen = c->msg.len - tm;
                if (c->tombstones && c->to->tombstone && c->to->tombstone(c->enc, ev)) {
                    out_rec *t = push_rec(c);
                    if (!t) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
                    *t = c->recs[c->nrecs - 2];
                    t->null_value = true;
                }
            }
        }
        c->held_pending = c->to->holding && c->to->holding(c->enc);
        if (c->held_pending) held_set(c, ev); /* the encoder now holds this event */
    }
    if (c->msg.err != RC_OK) return rc_error_set(err, c->msg.err, RC_NO_OFFSET, "output buffer: %s", rc_status_name(c->msg.err));
    return RC_OK;
}

/* The topic of record `o` then its route ("db.table", empty without a table) in c->topic, the
 * topic's length in c->topic_len. Consecutive records of one table reuse the last expansion. */
static bool route_of(conv *c, const out_rec *o)
{
    const rc_str *f[4] = {&o->src.server, &o->src.db, &o->src.schema, &o->src.table};
    if (!o->has_topic && c->topic_cached) {
        const char *k = c->topic_key.data;
        size_t n = c->topic_key.len, at = 0, i = 0;
        for (; i < 4 && at + sizeof(size_t) <= n; i++) {
            size_t l;
            memcpy(&l, k + at, sizeof l);
            at += sizeof l;
            if (l != f[i]->n || at + l > n || (l && memcmp(k + at, f[i]->p, l))) break;
            at += l;
        }
        if (i == 4) return true;
    }
    rc_buf_reset(&c->topic);
    if (o->has_topic) rc_buf_put(&c->topic, c->msg.data + o->toff, o->tlen);
    else rc_topic_expand(c->topic_tmpl, &o->src, c->server, &c->topic);
    c->topic_len = c->topic.len;
    if (o->src.table.n) {
        rc_buf_put(&c->topic, o->src.db.p, o->src.db.n);
        rc_buf_putc(&c->topic, '.');
        rc_buf_put(&c->topic, o->src.table.p, o->src.table.n);
    }
    c->topic_cached = !o->has_topic;
    rc_buf_reset(&c->topic_key);
    for (int i = 0; c->topic_cached && i < 4; i++) {
        rc_buf_put(&c->topic_key, &f[i]->n, sizeof f[i]->n);
        rc_buf_put(&c->topic_key, f[i]->p, f[i]->n);
    }
    return c->topic.err == RC_OK && c->topic_key.err == RC_OK;
}

/* Sends the records of one line (or the final group) to the sink. */
static rc_status send_records(conv *c, const char *file, uint64_t line_off, rc_error *err)
{
    if (c->routed) { /* the source position header: input file and line offset */
        rc_buf_reset(&c->pos);
        rc_buf_puts(&c->pos, file);
        rc_buf_putc(&c->pos, ':');
        rc_fmt_u64(&c->pos, line_off);
    }
    for (size_t i = 0; i < c->nrecs; i++) {
        const out_rec *o = &c->recs[i];
        rc_record r;
        memset(&r, 0, sizeof r);
        r.partition = o->partition;
        if (o->has_key) r.key = c->msg.data + o->koff, r.key_len = o->klen;
        if (!o->null_value) r.value = c->msg.data + o->voff, r.value_len = o->vlen;
        if (c->routed) {
            if (!route_of(c, o)) return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET, "topic name too long");
            r.topic = c->topic.data, r.topic_len = c->topic_len;
            r.route = c->topic.data + c->topic_len, r.route_len = c->topic.len - c->topic_len;
            rc_header *h = r.headers;
            const char *op = rc_op_name(o->op);
            *h++ = (rc_header){"rowcast.op", op, strlen(op)};
            if (o->src.db.n) *h++ = (rc_header){"rowcast.db", o->src.db.p, o->src.db.n};
            if (o->src.table.n) *h++ = (rc_header){"rowcast.table", o->src.table.p, o->src.table.n};
            *h++ = (rc_header){"rowcast.format", c->to->name, strlen(c->to->name)};
            *h++ = (rc_header){"rowcast.position", c->pos.data, c->pos.len};
            r.nheaders = (size_t)(h - r.headers);
        }
        rc_status st = rc_sink_send(c->sink, &r, err);
        if (st != RC_OK) return st;
        c->written++;
    }
    return RC_OK;
}

/* Stores the sink's safe position when it moved (at most every interval, or now). */
static int maybe_checkpoint(conv *c, bool now)
{
    if (!c->ck_path) return 0;
    double t = now_sec();
    if (!now && t - c->ck_last < c->ck_interval) return 0;
    c->ck_last = t;
    uint64_t off, line;
    if (!rc_sink_checkpoint(c->sink, &off, &line)) {
        if (!now || c->ck_written) return 0;
        off = c->ck.offset, line = c->ck.line; /* nothing acknowledged at all: store where we began */
    } else if (c->ck_written && off == c->ck.offset) {
        return 0;
    }
    c->ck.offset = off, c->ck.line = line;
    c->ck_written = true;
    rc_error err;
    rc_error_clear(&err);
    if (rc_checkpoint_write(c->ck_path, &c->ck, now, &err) == RC_OK) return 0;
    fprintf(stderr, "rowcast: %s\n", err.message);
    return -1;
}

static int convert_stream(conv *c, FILE *in, const char *name, uint64_t off, uint64_t lineno)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    int rc = EXIT_OK;
    while (!stop_signal && (got = getline(&line, &cap, in)) > 0) {
        lineno++;
        c->lines++;
        uint64_t line_off = off;
        off += (uint64_t)got;
        size_t n = (size_t)got;
        if (n && line[n - 1] == '\n') n--;
        if (n && line[n - 1] == '\r') n--;
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
        if (k == n) {
            c->lines--;
            if (!c->held_pending) rc_sink_mark(c->sink, off, lineno);
            continue;
        }
        rc_error err;
        rc_error_clear(&err);
        rc_buf_reset(&c->msg);
        rc_arena_reset(&c->arena);
        rc_status st = convert_line(c, line, n, &err);
        if (st == RC_OK) {
            if ((st = send_records(c, name, line_off, &err)) != RC_OK) {
                fprintf(stderr, "rowcast: %s:%llu: %s\n", name, (unsigned long long)lineno, err.message);
                c->sink_failed = true;
                rc = EXIT_IO;
                break;
            }
        } else {
            c->bad_lines++;
            report(c, name, lineno, line_off, &err);
            if (c->on_error == ON_STOP) {
                rc = EXIT_DATA;
                break;
            }
            if (c->on_error == ON_DEAD) {
                if (fwrite(line, 1, (size_t)got, c->dead) != (size_t)got ||
                    (line[got - 1] != '\n' && fputc('\n', c->dead) == EOF) || fflush(c->dead) != 0) {
                    fprintf(stderr, "rowcast: writing dead-letter file %s: %s\n", c->dead_path, strerror(errno));
                    rc = EXIT_IO;
                    break;
                }
            }
        }
        /* a grouping encoder still holding events: this line is not complete yet */
        if (!c->held_pending) rc_sink_mark(c->sink, off, lineno);
        if (maybe_checkpoint(c, false) != 0) {
            rc = EXIT_IO;
            break;
        }
        if (c->progress && (c->lines & 1023) == 0 && now_sec() - c->last_progress >= 1.0) show_progress(c, false);
    }
    if (rc == EXIT_OK && !stop_signal && ferror(in)) {
        fprintf(stderr, "rowcast: reading %s: %s\n", name, strerror(errno));
        rc = EXIT_IO;
    }
    c->end_off = off, c->end_line = lineno;
    free(line);
    return rc;
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("rowcast convert: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(see rowcast help convert)\n", stderr);
    return EXIT_USAGE;
}

/* Accepts "--name value" and "--name=value"; returns the value or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t l = strlen(name);
    if (strncmp(argv[*i], name, l) != 0) return NULL;
    if (argv[*i][l] == '=') return argv[*i] + l + 1;
    if (argv[*i][l] == '\0' && *i + 1 < argc) return argv[++*i];
    return NULL;
}

/* True when `off` is within the file and a line starts there (the byte before is '\n'); leaves
 * the stream positioned at `off`. */
static bool at_line_start(FILE *in, uint64_t off)
{
    return fseeko(in, (off_t)off - 1, SEEK_SET) == 0 && fgetc(in) == '\n' && fseeko(in, (off_t)off, SEEK_SET) == 0;
}

/* Sends the group a grouping encoder still holds (end of input). */
static int flush_group(conv *c)
{
    rc_error err;
    rc_error_clear(&err);
    rc_buf_reset(&c->msg);
    rc_arena_reset(&c->arena);
    c->nrecs = 0;
    rc_status st = c->to->flush(c->enc, &c->msg, &err);
    if (st == RC_SKIP) return EXIT_OK;
    if (st != RC_OK) {
        fprintf(stderr, "rowcast: %s error: %s\n", rc_status_name(err.code), err.message);
        return EXIT_DATA;
    }
    out_rec *r = push_rec(c);
    if (!r) return EXIT_IO;
    r->voff = 0, r->vlen = c->msg.len;
    held_origin(c, r);
    c->held_pending = false;
    if (send_records(c, "-", c->end_off, &err) != RC_OK) {
        fprintf(stderr, "rowcast: %s\n", err.message);
        return EXIT_IO;
    }
    rc_sink_mark(c->sink, c->end_off, c->end_line);
    return EXIT_OK;
}

/* Waits for outstanding deliveries, stores the final checkpoint and says what was not
 * delivered. Returns the exit status given, or EXIT_IO when something is undelivered. */
static int finish(conv *c, int rc, long flush_ms)
{
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_sink_flush(c->sink, (int)flush_ms, &err);
    if (c->ck_path && maybe_checkpoint(c, true) != 0 && rc == EXIT_OK) rc = EXIT_IO;
    if (st != RC_OK) {
        rc_sink_stats ss;
        rc_sink_get_stats(c->sink, &ss);
        if (!c->sink_failed) fprintf(stderr, "rowcast: %s\n", err.message);
        fprintf(stderr, "rowcast: %llu of %llu messages sent are undelivered",
                (unsigned long long)(ss.sent - ss.delivered - ss.dead_lettered), (unsigned long long)ss.sent);
        if (c->ck_path && c->ck_written)
            fprintf(stderr, "; checkpoint %s at input offset %llu (line %llu)", c->ck_path, (unsigned long long)c->ck.offset,
                    (unsigned long long)c->ck.line);
        fputc('\n', stderr);
        if (rc == EXIT_OK || rc >= 128) rc = EXIT_IO;
    }
    return rc;
}

int cli_convert(int argc, char **argv)
{
    conv c;
    memset(&c, 0, sizeof c);
    const char *from = "native", *to = "native", *on_error = "stop", *sink_url = "stdout", *topic = "debezium";
    int tomb = -1; /* -1: the sink's default */
    bool keys = false, records = false;
    long flush_secs = 30, ck_ms = 200;
    c.server = "rowcast";
    rc_arena_init(&c.arena);
    rc_buf_init(&c.msg, 0);
    rc_buf_init(&c.topic, 1 << 16);
    rc_buf_init(&c.pos, 1 << 13);
    rc_buf_init(&c.topic_key, 1 << 16);
    static rc_option opt_items[MAX_OPTS];
    rc_options opts = {opt_items, 0};
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    c.include = calloc((size_t)argc + 1, sizeof *c.include);
    size_t nfiles = 0;
    int rc = EXIT_OK;
    if (!files || !c.include) {
        free(files), free(c.include);
        return EXIT_IO;
    }
    for (int i = 1; rc == EXIT_OK && i < argc; i++) {
        const char *a = argv[i], *v;
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cli_usage_convert();
            free(files), free(c.include);
            return EXIT_OK;
        } else if ((v = opt_value(argc, argv, &i, "--include"))) {
            c.include[c.ninclude++] = v;
        } else if ((v = opt_value(argc, argv, &i, "--drop"))) {
            if (!parse_drop(v, &c.drop)) rc = usage_error("--drop %s: kinds are ddl, truncate, heartbeat, transaction, snapshot", v);
        } else if (!strcmp(a, "--tombstones") || !strcmp(a, "--no-tombstones")) {
            tomb = a[2] == 't';
        } else if (!strcmp(a, "--keys")) {
            keys = true;
        } else if (!strcmp(a, "--records")) {
            records = true;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            c.quiet = true;
        } else if ((v = opt_value(argc, argv, &i, "--from"))) {
            from = v;
        } else if ((v = opt_value(argc, argv, &i, "--to"))) {
            to = v;
        } else if ((v = opt_value(argc, argv, &i, "--on-error"))) {
            on_error = v;
        } else if ((v = opt_value(argc, argv, &i, "--sink"))) {
            sink_url = v;
        } else if ((v = opt_value(argc, argv, &i, "--topic"))) {
            topic = v;
        } else if ((v = opt_value(argc, argv, &i, "--server"))) {
            c.server = v;
        } else if ((v = opt_value(argc, argv, &i, "--checkpoint"))) {
            c.ck_path = v;
        } else if ((v = opt_value(argc, argv, &i, "--checkpoint-interval"))) {
            ck_ms = strtol(v, &end, 10);
            if (*end || ck_ms < 0 || ck_ms > 3600000) rc = usage_error("--checkpoint-interval needs milliseconds (0..3600000), got '%s'", v);
        } else if ((v = opt_value(argc, argv, &i, "--flush-timeout"))) {
            flush_secs = strtol(v, &end, 10);
            if (*end || flush_secs < 0 || flush_secs > 86400) rc = usage_error("--flush-timeout needs seconds (0..86400), got '%s'", v);
        } else if (!strcmp(a, "-o") || !strncmp(a, "-o", 2)) {
            const char *kv = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
            char *eq = kv ? strchr(kv, '=') : NULL;
            if (!eq || eq == kv) rc = usage_error("-o needs KEY=VALUE, got '%s'", kv ? kv : "");
            else if (opts.count == MAX_OPTS) rc = usage_error("too many -o options%s", "");
            else {
                *eq = '\0';
                opt_items[opts.count].key = kv;
                opt_items[opts.count++].value = eq + 1;
            }
        } else if (a[0] == '-' && a[1]) {
            rc = usage_error("unknown or incomplete option '%s'", a);
        } else {
            files[nfiles++] = a;
        }
    }
    if (rc == EXIT_OK) {
        if (!strcmp(on_error, "stop")) c.on_error = ON_STOP;
        else if (!strcmp(on_error, "skip")) c.on_error = ON_SKIP;
        else if (!strncmp(on_error, "dead-letter:", 12) && on_error[12]) c.on_error = ON_DEAD, c.dead_path = on_error + 12;
        else rc = usage_error("--on-error must be stop, skip or dead-letter:PATH, not '%s'", on_error);
    }
    bool kafka = !strncmp(sink_url, "kafka://", 8);
    if (rc == EXIT_OK && keys && records) rc = usage_error("--keys and --records exclude each other%s", "");
    if (rc == EXIT_OK && kafka && (keys || records)) rc = usage_error("--keys and --records are layouts of stdout and file sinks, not of %s", sink_url);
    if (rc == EXIT_OK && c.ck_path && nfiles != 1) rc = usage_error("--checkpoint needs exactly one input FILE (a file it can seek in)%s", "");
    if (rc == EXIT_OK && c.ck_path && !strcmp(files[0], "-")) rc = usage_error("--checkpoint needs a FILE, not stdin%s", "");
    if (rc == EXIT_OK) {
        c.from = rc_format_find(from);
        c.to = rc_format_find(to);
        if (!c.from || !c.from->decode)
            rc = usage_error(c.from ? "format '%s' cannot be read (rowcast formats)" : "unknown format '%s' (rowcast formats)", from);
        else if (!c.to || !c.to->encode_value)
            rc = usage_error(c.to ? "format '%s' cannot be written (rowcast formats)" : "unknown format '%s' (rowcast formats)", to);
    }
    /* every -o key must belong to one of the two formats, or to the Kafka sink */
    for (size_t k = 0; rc == EXIT_OK && k < opts.count; k++) {
        const char *key = opts.items[k].key;
        size_t fl = strlen(c.from->name), tl = strlen(c.to->name);
        if (kafka && !strncmp(key, "kafka.", 6)) continue;
        if (!((!strncmp(key, c.from->name, fl) && key[fl] == '.') || (!strncmp(key, c.to->name, tl) && key[tl] == '.')))
            rc = usage_error(kafka ? "option '%s' belongs to neither the input nor the output format nor kafka"
                                   : "option '%s' belongs to neither the input nor the output format", key);
    }
    /* one Avro record per Kafka message: an object container per message makes no sense there */
    if (rc == EXIT_OK && kafka && !strcmp(c.to->name, "avro") && !rc_options_get(&opts, "avro.framing") && opts.count < MAX_OPTS)
        opt_items[opts.count++] = (rc_option){"avro.framing", "raw"};
    rc_error err;
    rc_error_clear(&err);
    if (rc == EXIT_OK) {
        const char *tmpl;
        if (rc_topic_template(topic, &tmpl, &err) != RC_OK) rc = usage_error("%s", err.message);
        c.topic_tmpl = tmpl;
    }
    if (rc == EXIT_OK && (c.from->dec_new(&opts, &c.dec, &err) != RC_OK || c.to->enc_new(&opts, &c.enc, &err) != RC_OK)) {
        fprintf(stderr, "rowcast convert: %s\n", err.message);
        rc = EXIT_USAGE;
    }
    if (rc == EXIT_OK && c.on_error == ON_DEAD && !(c.dead = fopen(c.dead_path, "a"))) {
        fprintf(stderr, "rowcast convert: cannot open dead-letter file %s: %s\n", c.dead_path, strerror(errno));
        rc = EXIT_IO;
    }
    uint64_t start_off = 0, start_line = 0;
    if (rc == EXIT_OK && c.ck_path) {
        rc_status got = rc_checkpoint_read(c.ck_path, &c.ck, &err);
        if (got != RC_OK && got != RC_SKIP) {
            fprintf(stderr, "rowcast convert: %s\n", err.message);
            rc = EXIT_IO;
        } else if (got == RC_OK && strcmp(c.ck.input, files[0]) != 0) {
            fprintf(stderr, "rowcast convert: checkpoint %s is for input %s, not %s\n", c.ck_path, c.ck.input, files[0]);
            rc = EXIT_USAGE;
        } else if (got == RC_OK) {
            start_off = c.ck.offset, start_line = c.ck.line, c.ck_written = true;
        } else if (strlen(files[0]) >= sizeof c.ck.input) {
            rc = usage_error("input path too long for a checkpoint: %s", files[0]);
        } else {
            strcpy(c.ck.input, files[0]);
        }
        c.ck_interval = (double)ck_ms / 1000.0;
    }
    if (rc == EXIT_OK) {
        rc_sink_config cfg = {.layout = keys ? RC_LAYOUT_KEYS : records ? RC_LAYOUT_RECORDS : RC_LAYOUT_VALUES,
                              .binary = c.to->binary,
                              .dead_letter = c.dead,
                              .dead_path = c.dead_path};
        if (rc_sink_open(sink_url, &opts, &cfg, &c.sink, &err) != RC_OK) {
            fprintf(stderr, "rowcast convert: %s\n", err.message);
            rc = err.code == RC_ERR_USAGE ? EXIT_USAGE : EXIT_IO;
        } else if (rc_sink_topic_template(c.sink)) {
            const char *tmpl;
            if (rc_topic_template(rc_sink_topic_template(c.sink), &tmpl, &err) != RC_OK) rc = usage_error("%s", err.message);
            c.topic_tmpl = tmpl;
        }
    }
    if (rc != EXIT_OK) goto done;
    c.need_keys = kafka || keys || records;
    c.routed = kafka || records;
    c.tombstones = tomb < 0 ? kafka : tomb;
    c.progress = !c.quiet && isatty(2);
    if (c.ninclude) c.events.accept = table_included, c.events.accept_ctx = &c;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    c.t0 = c.last_progress = now_sec();
    if (!nfiles) files[nfiles++] = "-";
    for (size_t k = 0; rc == EXIT_OK && !stop_signal && k < nfiles; k++) {
        bool is_stdin = !strcmp(files[k], "-");
        FILE *in = is_stdin ? stdin : fopen(files[k], "rb");
        if (!in) {
            fprintf(stderr, "rowcast convert: cannot open %s: %s\n", files[k], strerror(errno));
            rc = EXIT_IO;
            break;
        }
        if (start_off && !at_line_start(in, start_off)) {
            fprintf(stderr, "rowcast convert: checkpoint %s: offset %llu is not the start of a line of %s (a changed or "
                    "shorter input?)\n", c.ck_path, (unsigned long long)start_off, files[k]);
            rc = EXIT_USAGE;
        } else {
            rc = convert_stream(&c, in, is_stdin ? "<stdin>" : files[k], start_off, start_line);
        }
        if (!is_stdin) fclose(in);
    }
    if (rc == EXIT_OK && !stop_signal && c.to->flush) rc = flush_group(&c);
    if (stop_signal) {
        fprintf(stderr, "rowcast: %s: stopping after line %llu; waiting up to %ld s for deliveries\n",
                stop_signal == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)c.end_line, flush_secs);
        if (rc == EXIT_OK) rc = 128 + stop_signal;
    }
    rc = finish(&c, rc, flush_secs * 1000);
    if (c.dead && fclose(c.dead) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "rowcast: closing dead-letter file %s: %s\n", c.dead_path, strerror(errno));
        rc = EXIT_IO;
    }
    c.dead = NULL;
    if (!c.quiet) show_progress(&c, true);
done:
    rc_sink_close(c.sink);
    if (c.dead) fclose(c.dead);
    if (c.dec) c.from->dec_free(c.dec);
    if (c.enc) c.to->enc_free(c.enc);
    rc_event_list_fini(&c.events);
    free(c.include);
    free(c.recs);
    rc_arena_fini(&c.arena);
    rc_buf_fini(&c.msg);
    rc_buf_fini(&c.topic);
    rc_buf_fini(&c.pos);
    rc_buf_fini(&c.topic_key);
    free(files);
    return rc;
}
