/* `rowcast convert`: options and the run. Lines are read and decoded in batches (convert_in.c),
 * on a second thread with --threads 2, and encoded and sent in input order to the sink
 * (convert_out.c). Bad input is reported with file, line and byte, and handled per
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
#include "cli/convert.h"

enum { MAX_OPTS = 128 };

volatile sig_atomic_t convert_stop_signal;
/* The first SIGINT/SIGTERM stops the run after a flush; a second one means the user will not
 * wait for it: exit at once (the checkpoint file, renamed into place, stays as last stored). */
static void on_signal(int sig)
{
    static const char msg[] = "rowcast: a second signal: exiting now without waiting for deliveries; the checkpoint "
                              "stays where it was last stored\n";
    if (convert_stop_signal) {
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(128 + sig);
    }
    convert_stop_signal = sig;
}

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
          "  --threads 1|2          2: decode the next lines on a second thread while the last\n"
          "                         ones are encoded and sent (default 1); the output is the same\n"
          "  --flush-timeout SECS   at the end or on SIGINT/SIGTERM, wait this long for\n"
          "                         outstanding deliveries, and for a Kafka cluster that does\n"
          "                         not answer at the start (default 30); a second signal\n"
          "                         exits at once\n"
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

double convert_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
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

/* True when the event's db.table matches one of the --include patterns (or there are none).
 * Events without a table (heartbeats, transaction markers) always pass. */
bool convert_table_included(void *ctx, rc_str db, rc_str table)
{
    const conv *c = ctx;
    if (!c->ninclude || !table.n) return true;
    char name[512];
    snprintf(name, sizeof name, "%.*s.%.*s", (int)db.n, db.p, (int)table.n, table.p);
    for (size_t i = 0; i < c->ninclude; i++)
        if (fnmatch(c->include[i], name, 0) == 0) return true;
    return false;
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

int cli_convert(int argc, char **argv)
{
    conv c;
    memset(&c, 0, sizeof c);
    const char *from = "native", *to = "native", *on_error = "stop", *sink_url = "stdout", *topic = "debezium";
    int tomb = -1; /* -1: the sink's default */
    bool keys = false, records = false;
    long flush_secs = 30, ck_ms = 200;
    c.server = "rowcast";
    c.threaded = false;
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
        fprintf(stderr, "rowcast convert: out of memory\n");
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
        } else if ((v = opt_value(argc, argv, &i, "--threads"))) {
            if (strcmp(v, "1") && strcmp(v, "2")) rc = usage_error("--threads is 1 or 2, not '%s'", v);
            c.threaded = v[0] == '2';
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
                              .dead_path = c.dead_path,
                              .stop = &convert_stop_signal,
                              .wait_ms = (int)flush_secs * 1000,
                              .notice = convert_sink_notice,
                              .notice_ctx = &c};
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
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    c.t0 = c.last_progress = convert_now();
    if (!nfiles) files[nfiles++] = "-";
    c.files = files, c.nfiles = nfiles;
    c.start_off = start_off, c.start_line = start_line;
    rc = convert_input_start(&c);
    while (rc == EXIT_OK) {
        batch *b = convert_input_next(&c);
        if (!b) break; /* stopped by a signal while waiting for input */
        rc = convert_output(&c, b);
        bool last = b->last;
        if (rc == EXIT_OK && !last && b->n < BATCH_LINES) { /* the input is idle: let the output out */
            rc_error perr;
            rc_error_clear(&perr);
            if (rc_sink_poll(c.sink, 0, &perr) != RC_OK) {
                fprintf(stderr, "rowcast: %s\n", perr.message);
                c.sink_failed = true;
                rc = EXIT_IO;
            }
        }
        convert_input_done(&c, b);
        if (last || convert_stop_signal) break;
    }
    convert_input_stop(&c);
    if (rc == EXIT_OK && !convert_stop_signal && c.to->flush) rc = convert_flush_group(&c);
    if (convert_stop_signal) {
        fprintf(stderr, "rowcast: %s: stopping after line %llu; waiting up to %ld s for deliveries\n",
                convert_stop_signal == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)c.end_line, flush_secs);
        if (rc == EXIT_OK) rc = 128 + convert_stop_signal;
    }
    rc = convert_finish(&c, rc, flush_secs * 1000);
    if (c.dead && fclose(c.dead) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "rowcast: closing dead-letter file %s: %s\n", c.dead_path, strerror(errno));
        rc = EXIT_IO;
    }
    c.dead = NULL;
    if (!c.quiet) convert_progress(&c, true);
done:
    rc_sink_close(c.sink);
    if (c.dead) fclose(c.dead);
    if (c.dec) c.from->dec_free(c.dec);
    if (c.enc) c.to->enc_free(c.enc);
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
