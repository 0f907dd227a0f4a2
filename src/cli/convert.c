/* `rowcast convert`: its options, which configure the pipeline (rowcast/pipeline.h). The lines
 * source reads and decodes lines in batches (src/sources/lines.c), on a second thread with
 * --threads 2; the pipeline encodes them and sends them in input order to the sink
 * (src/pipeline/). Bad input is reported with file, line and byte, and handled per
 * --on-error; with --checkpoint the input offset acknowledged by the sink is stored. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli/cli.h"
#include "rowcast/metrics.h"
#include "rowcast/names.h"
#include "rowcast/pipeline.h"

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
          "                         property (security.protocol, compression.type, linger.ms...).\n"
          "                         Secret options (password, passwd, secret or token in the\n"
          "                         key's last word; a key ending in key.pem, jaas.config or\n"
          "                         oauthbearer.config) also take @FILE (the file's contents\n"
          "                         without a trailing newline) or env:NAME, which ps does not\n"
          "                         show; their values are never printed\n"
          "  --sink URL             where messages go:\n"
          "                           stdout       (default)\n"
          "                           file:PATH    appended to PATH\n"
          "                           kafka://HOST:PORT[,HOST:PORT...]/TOPIC\n"
          "                                        an idempotent producer (acks=all); TOPIC is a\n"
          "                                        topic template (see --topic)\n"
          "  --topic TEMPLATE       topic of each message: {server}, {db}, {schema}, {table}, or\n"
          "                         the preset 'debezium' = {server}.{db}.{table} (default);\n"
          "                         characters Kafka does not allow become '_'\n"
          "  --server NAME          {server} of every message, and the format's server name\n"
          "                         (debezium.server); without it, the event's server, else\n"
          "                         rowcast\n"
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
          "                         is acknowledged by the sink (never beyond an undelivered one),\n"
          "                         with the sizes of the file: output and dead-letter file there;\n"
          "                         a resumed run cuts them back to those sizes first\n"
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
          "                         *.orders; a pattern without a dot is a database: shop =\n"
          "                         shop.*); repeatable; events without a table always pass; the\n"
          "                         summary names a pattern that matched no event\n"
          "  --drop KINDS           drop events of these kinds (comma-separated): ddl, truncate,\n"
          "                         heartbeat, transaction (begin/commit markers), snapshot\n"
          "                         (snapshot reads); counted as filtered out. Tombstones in the\n"
          "                         input carry no event and are always dropped\n"
          "  --progress[=INTERVAL]  a progress line on stderr every INTERVAL (10s, 500ms, 2m; 0:\n"
          "                         after every batch of up to 64 lines): redrawn in place on a\n"
          "                         terminal (on by default there, every 1s, unless the messages\n"
          "                         go to that terminal too), else one line each time (default\n"
          "                         every 10s)\n"
          "  --metrics HOST:PORT    serve Prometheus metrics at http://HOST:PORT/metrics while\n"
          "                         the run lasts (docs/metrics.md): HOST is a name, an IPv4\n"
          "                         address or an IPv6 address in brackets; :PORT or PORT alone\n"
          "                         is 127.0.0.1; port 0 takes a free one, said on stderr\n"
          "  --quiet, -q            no summary and no terminal progress line on stderr (errors\n"
          "                         are still printed; --progress still writes progress)\n"
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
          "Errors the cause of which is recognisable (a byte-order mark, compressed or\n"
          "pretty-printed input, another format's messages) end with what to do.\n"
          "\n"
          "Exit status: 0 done; 1 usage; 2 bad input (--on-error=stop, or every line bad with\n"
          "skip or dead-letter); 3 I/O or delivery\n"
          "failure (messages undelivered; the checkpoint stops before the first of them);\n"
          "128+N stopped by signal N after flushing.\n",
          stdout);
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

/* The flags of convert, for "did you mean" (the parser below is the authority). */
static const char *const convert_flags[] = {
    "--from", "--to", "--sink", "--topic", "--server", "--keys", "--records", "--tombstones", "--no-tombstones",
    "--checkpoint", "--checkpoint-interval", "--threads", "--flush-timeout", "--on-error", "--include", "--drop",
    "--metrics", "--quiet", "--help", NULL};

static int usage_error(const char *fmt, const char *arg)
{
    fputs("rowcast convert: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(see rowcast help convert)\n", stderr);
    return EXIT_USAGE;
}

/* An unknown flag, with the closest known one. */
static int unknown_flag(const char *a)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
    rc_suggest sg;
    rc_suggest_init(&sg, name);
    for (const char *const *f = convert_flags; *f; f++) rc_suggest_offer(&sg, *f);
    if (!sg.best) return usage_error("unknown or incomplete option '%s'", a);
    if (!strcmp(sg.best, name)) /* known: a value missing at the end of the line, or one given to a switch */
        return usage_error(a[strlen(name)] == '=' ? "option '%s' takes no value" : "option '%s' needs a value", name);
    fprintf(stderr, "rowcast convert: unknown option '%s': did you mean '%s'?\n(see rowcast help convert)\n", a, sg.best);
    return EXIT_USAGE;
}

/* An unknown or unreadable format, with the closest registered name. */
static int format_error(const rc_format *f, const char *name, const char *cannot)
{
    const char *near = f ? NULL : rc_format_suggest(name);
    if (f) fprintf(stderr, "rowcast convert: format '%s' cannot be %s (rowcast formats)\n", f->name, cannot);
    else if (near) fprintf(stderr, "rowcast convert: unknown format '%s': did you mean '%s'? (rowcast formats)\n", name, near);
    else fprintf(stderr, "rowcast convert: unknown format '%s' (rowcast formats)\n", name);
    fputs("(see rowcast help convert)\n", stderr);
    return EXIT_USAGE;
}

/* Says why -o `key` belongs to neither format of this run (nor to the Kafka sink): an option of
 * a sink that is not in use, of another format, or a typo of one of the two formats' options. */
static int foreign_option(const rc_pipeline *c, const char *key, bool kafka)
{
    char msg[512];
    size_t pl = strcspn(key, ".");
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%.*s", (int)pl, key);
    const rc_format *other = key[pl] ? rc_format_find(prefix) : NULL;
    rc_suggest sg;
    rc_suggest_init(&sg, key);
    for (const rc_option_desc *d = c->from->options; d && d->key; d++) rc_suggest_offer(&sg, d->key);
    for (const rc_option_desc *d = c->to->options; d && d->key; d++) rc_suggest_offer(&sg, d->key);
    if (!strcmp(prefix, "kafka") && key[pl])
        snprintf(msg, sizeof msg, "-o %s is a Kafka sink option: add --sink kafka://HOST:PORT/TOPIC", key);
    else if (other && other != c->from && other != c->to)
        snprintf(msg, sizeof msg, "-o %s is an option of format %s, which is neither the input (--from %s) nor the output (--to %s)",
                 key, other->name, c->from->name, c->to->name);
    else if (sg.best)
        snprintf(msg, sizeof msg, "option '%s' belongs to neither the input nor the output format: did you mean '%s'?", key, sg.best);
    else
        snprintf(msg, sizeof msg, kafka ? "option '%s' belongs to neither the input nor the output format nor kafka"
                                        : "option '%s' belongs to neither the input nor the output format", key);
    return usage_error("%s", msg);
}

static void free_secrets(char **secrets, size_t n)
{
    for (size_t k = 0; k < n; k++) rc_option_secret_free(secrets[k]), secrets[k] = NULL;
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

/* The server name the user gives, --server or the output format's own <format>.server option
 * (debezium.server), is the topic prefix of every message and the format's server name too
 * (Debezium's topic.prefix is its source.name): the option wins, --server becomes it when the
 * format has one. Without either, {server} is each event's own, else "rowcast". */
static void server_name(rc_pipeline *c, rc_options *opts, rc_option *items)
{
    const char *key = NULL;
    for (const rc_option_desc *d = c->to->options; d && d->key; d++) {
        size_t n = strlen(d->key);
        if (n > 7 && !strcmp(d->key + n - 7, ".server")) key = d->key;
    }
    const char *v = key ? rc_options_get(opts, key) : NULL;
    if (v) c->server = v, c->server_forced = true;
    else if (key && c->server_forced && opts->count < MAX_OPTS) items[opts->count++] = (rc_option){key, c->server};
}

int cli_convert(int argc, char **argv)
{
    rc_pipeline c;
    rc_pipeline_init(&c);
    const char *from = "native", *to = "native", *on_error = "stop", *sink_url = "stdout", *topic = "debezium";
    int tomb = -1; /* -1: the sink's default */
    bool keys = false, records = false;
    long flush_secs = 30, ck_ms = 200;
    c.stop = &convert_stop_signal;
    static rc_option opt_items[MAX_OPTS];
    static char *secrets[MAX_OPTS]; /* values read from @FILE / env:NAME */
    rc_options opts = {opt_items, 0};
    c.opts = &opts;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    c.include = calloc((size_t)argc + 1, sizeof *c.include);
    size_t nfiles = 0;
    int rc = EXIT_OK;
    if (!files || !c.include) {
        free(files), free(c.include);
        rc_pipeline_fini(&c);
        fprintf(stderr, "rowcast convert: out of memory\n");
        return EXIT_IO;
    }
    for (int i = 1; rc == EXIT_OK && i < argc; i++) {
        const char *a = argv[i], *v;
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cli_usage_convert();
            free(files), free(c.include);
            rc_pipeline_fini(&c);
            free_secrets(secrets, opts.count);
            return EXIT_OK;
        } else if ((v = opt_value(argc, argv, &i, "--include"))) {
            c.include[c.ninclude++] = (rc_include_pat){.pattern = v, .db_only = !strchr(v, '.')};
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
        } else if (!strcmp(a, "--progress") || !strncmp(a, "--progress=", 11)) {
            if (!rc_pipeline_progress_option(&c, a[10] ? a + 11 : NULL))
                rc = usage_error("%s: the interval is a whole number with ms, s, m or h (10s, 500ms), or 0 for a line "
                                 "after every batch of lines", a);
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
            c.server = v, c.server_forced = true;
        } else if ((v = opt_value(argc, argv, &i, "--metrics"))) {
            rc_metrics_addr addr;
            rc_error aerr;
            rc_error_clear(&aerr);
            if (rc_metrics_addr_parse(v, &addr, &aerr) != RC_OK) rc = usage_error("%s", aerr.message);
            c.metrics_addr = v;
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
                rc_error serr;
                rc_error_clear(&serr);
                size_t k = opts.count++;
                opt_items[k].key = kv;
                opt_items[k].value = eq + 1;
                secrets[k] = NULL;
                if (rc_option_is_secret(kv) && rc_option_secret_read(kv, eq + 1, &secrets[k], &serr) != RC_OK)
                    rc = usage_error("%s", serr.message);
                else if (secrets[k]) opt_items[k].value = secrets[k];
            }
        } else if (a[0] == '-' && a[1]) {
            rc = unknown_flag(a);
        } else {
            files[nfiles++] = a;
        }
    }
    if (rc == EXIT_OK) {
        if (!strcmp(on_error, "stop")) c.on_error = RC_ON_STOP;
        else if (!strcmp(on_error, "skip")) c.on_error = RC_ON_SKIP;
        else if (!strncmp(on_error, "dead-letter:", 12) && on_error[12]) c.on_error = RC_ON_DEAD, c.dead_path = on_error + 12;
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
        if (!c.from || !c.from->decode) rc = format_error(c.from, from, "read");
        else if (!c.to || !c.to->encode_value) rc = format_error(c.to, to, "written");
    }
    /* every -o key must belong to one of the two formats, or to the Kafka sink */
    for (size_t k = 0; rc == EXIT_OK && k < opts.count; k++) {
        const char *key = opts.items[k].key;
        size_t fl = strlen(c.from->name), tl = strlen(c.to->name);
        if (kafka && !strncmp(key, "kafka.", 6)) continue;
        if (!((!strncmp(key, c.from->name, fl) && key[fl] == '.') || (!strncmp(key, c.to->name, tl) && key[tl] == '.')))
            rc = foreign_option(&c, key, kafka);
    }
    /* one Avro record per Kafka message: an object container per message makes no sense there */
    if (rc == EXIT_OK && kafka && !strcmp(c.to->name, "avro") && !rc_options_get(&opts, "avro.framing") && opts.count < MAX_OPTS)
        opt_items[opts.count++] = (rc_option){"avro.framing", "raw"};
    if (rc == EXIT_OK) server_name(&c, &opts, opt_items);
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
    if (rc == EXIT_OK && c.on_error == RC_ON_DEAD && !(c.dead = fopen(c.dead_path, "a"))) {
        fprintf(stderr, "rowcast convert: cannot open dead-letter file %s: %s\n", c.dead_path, strerror(errno));
        rc = EXIT_IO;
    }
    if (rc == EXIT_OK) {
        rc_sink_config cfg = {.layout = keys ? RC_LAYOUT_KEYS : records ? RC_LAYOUT_RECORDS : RC_LAYOUT_VALUES,
                              .binary = c.to->binary,
                              .dead_letter = c.dead,
                              .dead_path = c.dead_path,
                              .stop = &convert_stop_signal,
                              .wait_ms = (int)flush_secs * 1000,
                              .notice = rc_pipeline_sink_notice,
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
    if (rc == EXIT_OK && c.ck_path) {
        c.ck_interval = (double)ck_ms / 1000.0;
        rc = rc_pipeline_checkpoint_start(&c, files[0], kafka ? NULL : sink_url);
    }
    if (rc != EXIT_OK) goto done;
    c.need_keys = kafka || keys || records;
    c.routed = kafka || records;
    c.sink_stdout = !strcmp(sink_url, "stdout");
    c.tombstones = tomb < 0 ? kafka : tomb;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    if (!nfiles) files[nfiles++] = "-";
    c.files = files, c.nfiles = nfiles;
    c.flush_ms = flush_secs * 1000;
    rc = rc_pipeline_run(&c);
done:
    rc_sink_close(c.sink);
    if (c.dead) fclose(c.dead);
    if (c.dec) c.from->dec_free(c.dec);
    if (c.enc) c.to->enc_free(c.enc);
    free(c.include);
    rc_pipeline_fini(&c);
    free(files);
    free_secrets(secrets, opts.count);
    return rc;
}
