/* `rowcast convert`: its options, which configure the pipeline (pipeline/pipeline.h). The lines
 * source reads and decodes lines in batches (src/sources/lines.c), on a second thread with
 * --threads 2; the pipeline encodes them and sends them in input order to the sink
 * (src/pipeline/). Bad input is reported with file, line and byte, and handled per
 * --on-error; with --checkpoint the input offset acknowledged by the sink is stored. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "cli/config_file.h"
#include "cli/run_opts.h"
#include "pipeline/pipeline.h"
#include "core/log.h"

/* What convert's own flags set beside the run (flags.h: CLI_IN_CMD). */
typedef struct convert_args {
    long ck_ms; /* --checkpoint-interval */
    const char **files;
    size_t nfiles;
} convert_args;

static int set_input_layout(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    if (strcmp(v, "values") && strcmp(v, "records")) return cli_run_usage_error(r, "--input-layout is values or records, not '%s'", v);
    r->c->records_in = v[0] == 'r';
    return EXIT_OK;
}

static int set_checkpoint_interval(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    convert_args *ca = r->cmd_args;
    char *end;
    ca->ck_ms = strtol(v, &end, 10);
    if (*end || ca->ck_ms < 0 || ca->ck_ms > 3600000)
        return cli_run_usage_error(r, "--checkpoint-interval needs milliseconds (0..3600000), got '%s'", v);
    return EXIT_OK;
}

static int add_file(cli_run *r, const char *arg)
{
    convert_args *ca = r->cmd_args;
    ca->files[ca->nfiles++] = arg;
    return EXIT_OK;
}

/* --source URL: an input as a FILE argument is (a kafka:// URL reads like one) */
static int set_source(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    return add_file(r, v);
}

/* convert's flags and --help, in the help's order; the shared flags' help is here too
 * (CLI_REF rows), their parsing in run_flags.c. */
static const cli_flag convert_table[] = {
    {CLI_TEXT, .help = "usage: rowcast convert [OPTIONS] [FILE...]\n"
                  "\n"
                  "Reads messages, one per line, from each FILE (stdin when none, or '-') and sends\n"
                  "each event in the target format to the sink: by default stdout, one message per\n"
                  "line. Blank lines are ignored; a trailing '\\r' is removed.\n"
                  "\n"},
    {CLI_VALUE, "--from", .metavar = "FMT", .base = CLI_IN_RUN, .off = offsetof(cli_run, spec.from), .def = "native",
     .help = "input format (default: native), or mysql-binlog: each FILE is\n"
             "a MySQL/MariaDB binary log, read event by event, several in\n"
             "the order the server wrote them (docs/sources/mysql-binlog.md)"},
    {CLI_VALUE, "--source", .metavar = "URL", .set = set_source,
     .help = "kafka://HOST:PORT[,HOST:PORT...]/TOPIC[,TOPIC...]?group=NAME: the\n"
             "topics' messages, as a member of consumer group NAME; each\n"
             "message's key is read with its value, offsets are committed once\n"
             "the sink acknowledged everything made from the messages before\n"
             "(at least once; with --exactly-once in the sink's transactions);\n"
             "-o kafka.* properties apply to the consumer too,\n"
             "-o kafka.source.stop=end ends the run when every assigned\n"
             "partition is read to its end (docs/sources/kafka.md)"},
    {CLI_VALUE, "--input-layout", .metavar = "values|records", .set = set_input_layout,
     .help = "records: each input line is a Kafka record as --records\n"
             "writes it and kcat -f '%t\\t%K\\t%k\\t%S\\t%s\\t%h\\n'\n"
             "prints; the key is read with the value (Debezium: the key\n"
             "columns are the primary key), a null value is a tombstone\n"
             "(no event). values (default): each line a message value"},
    {CLI_REF, "--to", .metavar = "FMT",
     .help = "output format (default: native)"},
    {CLI_REF, "-o", .metavar = "KEY=VALUE",
     .help = "format option, repeatable (rowcast formats --options); with a\n"
             "Kafka sink, -o kafka.PROPERTY=VALUE passes any librdkafka\n"
             "property (security.protocol, compression.type, linger.ms...).\n"
             "Secret options (password, passwd, secret or token in the\n"
             "key's last word; a key ending in key.pem, jaas.config or\n"
             "oauthbearer.config) also take @FILE (the file's contents\n"
             "without a trailing newline) or env:NAME, which ps does not\n"
             "show; their values are never printed"},
    {CLI_REF, "-o", .usage = "-o kafka.order.header=true",
     .help = "Kafka sink: each record gets header rowcast.eos, \"SERVER\n"
             "ORDER\": its place in its source's order, fixed-width hex\n"
             "that sorts as the source did (docs/sinks.md, Order keys;\n"
             "default false)"},
    {CLI_REF, "--sink", .metavar = "URL",
     .help = "where messages go:\n"
             "  stdout       (default)\n"
             "  file:PATH    appended to PATH\n"
             "  kafka://HOST:PORT[,HOST:PORT...]/TOPIC\n"
             "               an idempotent producer (acks=all); TOPIC is a\n"
             "               topic template (see --topic). With -o\n"
             "               kafka.transactions=true (needs --server NAME) a\n"
             "               transactional one, rowcast.NAME, committing every\n"
             "               -o kafka.transaction.ms=1000 or\n"
             "               kafka.transaction.records=500000; positions move\n"
             "               only after a commit: fencing, not exactly once\n"
             "               (--exactly-once is)"},
    {CLI_REF, "--topic", .metavar = "TEMPLATE",
     .help = "topic of each message: {server}, {db}, {schema}, {table},\n"
             "{collection} (schema.table, else db.table), or the preset\n"
             "'debezium' = {server}.{collection} (default: Debezium's\n"
             "prefix.schema.table for PostgreSQL, prefix.db.table for MySQL);\n"
             "characters Kafka does not allow become '_'"},
    {CLI_REF, "--server", .metavar = "NAME",
     .help = "{server} of every message, and the format's server name\n"
             "(debezium.server); without it, the event's server, else\n"
             "rowcast"},
    {CLI_REF, "--exactly-once",
     .help = "Kafka sink (needs --server NAME): after any kill and restart\n"
             "each change is in its topic once, in order per key, nothing\n"
             "lost, as a read_uncommitted consumer (kcat, the default of\n"
             "Kafka clients) sees it: transactions, rowcast.eos headers,\n"
             "and a restart reads back each partition's last record of\n"
             "NAME and skips what is there. Not for read_committed\n"
             "consumers (they miss the records of transactions a crash\n"
             "aborted), not with snapshots (capture: --snapshot never, or\n"
             "from a checkpoint or --start), convert: one input FILE\n"
             "(docs/sinks.md, Exactly once). With a Kafka --source instead:\n"
             "its offsets are committed in the transactions, for\n"
             "read_committed consumers, transactional.id\n"
             "rowcast.NAME.MEMBER (docs/sources/kafka.md, Exactly once)"},
    {CLI_REF, "--keys",
     .help = "stdout/file: write each message's key instead of its value;\n"
             "\"null\" where the format or the table has none"},
    {CLI_REF, "--records",
     .help = "stdout/file: write each message as a Kafka record, tab-\n"
             "separated: topic, key length, key, value length, value,\n"
             "headers (what kcat -f '%t\\t%K\\t%k\\t%S\\t%s\\t%h\\n' prints;\n"
             "-1 for a null key or value)"},
    {CLI_REF, "--tombstones", .usage = "--tombstones, --no-tombstones",
     .help = "send a tombstone (same key, null value) where the format has\n"
             "one, as upstream Debezium after every delete (default: on for\n"
             "Kafka, off for stdout/file, where it is the line \"null\")"},
    {CLI_VALUE, "--checkpoint", .metavar = "PATH", .base = CLI_IN_PIPELINE, .off = offsetof(rc_pipeline, ck_path),
     .help = "one input FILE only: resume from the offset stored in PATH,\n"
             "and store there the input offset up to which every message\n"
             "is acknowledged by the sink (never beyond an undelivered one),\n"
             "with the sizes of the file: output and dead-letter file there;\n"
             "a resumed run cuts them back to those sizes first"},
    {CLI_VALUE, "--checkpoint-interval", .metavar = "MS", .set = set_checkpoint_interval,
     .help = "store the checkpoint at most this often (default 200)"},
    {CLI_REF, "--threads", .metavar = "1|2",
     .help = "2: decode the next lines on a second thread while the last\n"
             "ones are encoded and sent (default 1); the output is the same"},
    {CLI_REF, "--flush-timeout", .metavar = "SECS",
     .help = "at the end or on SIGINT/SIGTERM, wait this long for\n"
             "outstanding deliveries, and for a Kafka cluster that does\n"
             "not answer at the start (default 30); a second signal\n"
             "exits at once"},
    {CLI_REF, "--on-error", .metavar = "=MODE",
     .help = "what to do with a line that cannot be converted:\n"
             "  stop         report it and exit with status 2 (default)\n"
             "  skip         report it, drop it and go on\n"
             "  dead-letter:PATH\n"
             "               append the line unchanged to PATH and go on;\n"
             "               a message Kafka refuses for good is appended\n"
             "               there too (its value, one per line)\n"
             "  dead-letter:kafka://HOST:PORT[,HOST:PORT...]/TOPIC\n"
             "               write it to TOPIC as a Kafka message (a Kafka\n"
             "               source's as it came: key, value, headers),\n"
             "               with headers naming where it was and the error;\n"
             "               the input's position moves past it only once\n"
             "               Kafka acknowledged it, a failed write stops the run"},
    {CLI_REF, "--on-loss", .metavar = "=MODE",
     .help = "what to do with a row that has a value the output format\n"
             "cannot hold (BIGINT UNSIGNED past int64 in upstream\n"
             "Debezium's long mode, microseconds in OMS Debezium):\n"
             "  stop         report it (table, column, the option that\n"
             "               keeps the value) and exit with status 2,\n"
             "               nothing of it written or acknowledged\n"
             "               (default)\n"
             "  skip         report it, leave it out, count it, go on\n"
             "  dead-letter[:PATH]\n"
             "               append it as a native line to PATH (alone:\n"
             "               to --on-error's dead-letter file) and go on\n"
             "  cut          write what the vendor's own tool writes\n"
             "               (OMS Debezium, DataWorks: milliseconds, the\n"
             "               finer digits cut off), counted per column;\n"
             "               a value no known cut fits stops the run"},
    {CLI_REF, "--include", .metavar = "DB.TABLE",
     .help = "convert only events of matching tables (shell patterns: shop.*,\n"
             "*.orders; a pattern without a dot is a database: shop =\n"
             "shop.*); repeatable; events without a table always pass; the\n"
             "summary names a pattern that matched no event"},
    {CLI_REF, "--drop", .metavar = "KINDS",
     .help = "drop events of these kinds (comma-separated): ddl, truncate,\n"
             "heartbeat, transaction (begin/commit markers), snapshot\n"
             "(snapshot reads); counted as filtered out. Tombstones in the\n"
             "input carry no event and are always dropped"},
    {CLI_REF, "--progress", .metavar = "INTERVAL",
     .help = "a progress line on stderr every INTERVAL (10s, 500ms, 2m; 0:\n"
             "after every batch of up to 64 lines): redrawn in place on a\n"
             "terminal (on by default there, every 1s, unless the messages\n"
             "go to that terminal too), else one line each time (default\n"
             "every 10s)"},
    {CLI_REF, "--metrics", .metavar = "HOST:PORT",
     .help = "serve Prometheus metrics at http://HOST:PORT/metrics while\n"
             "the run lasts (docs/metrics.md): HOST is a name, an IPv4\n"
             "address or an IPv6 address in brackets; :PORT or PORT alone\n"
             "is 127.0.0.1; port 0 takes a free one, said on stderr; /health\n"
             "and /ready answer probes there (docs/operations.md)"},
    {CLI_REF, "--ready-lag", .metavar = "SECONDS",
     .help = "/ready answers 503 when the last delivered change is older\n"
             "than this while more wait (default 60)"},
    {CLI_REF, "--log-format", .metavar = "text|json",
     .help = "messages on stderr as text (default) or one JSON object a\n"
             "line: time, level, message and the fields it names"},
    {CLI_REF, "--quiet",
     .help = "no summary and no terminal progress line on stderr (errors\n"
             "are still printed; --progress still writes progress)"},
    {CLI_REF, "--config", .metavar = "FILE"},
    {CLI_REF, .name = "--check"},
    {CLI_REF, "--help",
     .help = "this text"},
    {CLI_TEXT, .help = "\n"
                  "Kafka messages carry headers rowcast.op, rowcast.db, rowcast.table, rowcast.format and\n"
                  "rowcast.position (FILE:OFFSET, the input line's byte offset). A message goes to\n"
                  "the partition the Java client's default partitioner picks for its key (murmur2); a\n"
                  "keyless message to the one picked for \"db.table\", so each table stays in order.\n"
                  "\n"
                  "Errors name the file, line and byte: FILE:LINE:COL (file offset N), where COL is the\n"
                  "1-based byte column in the line and N the 0-based byte offset in the file.\n"
                  "Events the target format has no message for (e.g. a heartbeat in a format without\n"
                  "heartbeats) are not written and are counted in the summary; a row is --on-loss's.\n"
                  "\n"
                  "A pretty-printed JSON message is read over its lines; a comment block between\n"
                  "messages (a licence header: /* ... */) is skipped and counted.\n"
                  "Errors the cause of which is recognisable (a byte-order mark, compressed input, a\n"
                  "message cut short, another format's messages) end with what to do.\n"
                  "\n"
                  "Exit status: 0 done; 1 usage; 2 bad input (--on-error=stop, or every line bad with\n"
                  "skip or dead-letter) or a row refused (--on-loss=stop or cut); 3 I/O or delivery\n"
                  "failure (messages undelivered; the checkpoint stops before the first of them);\n"
                  "128+N stopped by signal N after flushing.\n"},

    {CLI_ARGS, .name = "input", .many = true},
    {0}, /* CLI_END */
};

void cli_usage_convert(void)
{
    cli_flags_help(convert_table);
}

int cli_convert(int argc, char **argv)
{
    rc_pipeline c;
    rc_pipeline_init(&c);
    cli_run r;
    convert_args ca = {.ck_ms = 200, .files = calloc(cli_args_max(argc), sizeof *ca.files)};
    int rc = cli_run_init(&r, &c, "convert", convert_table, &ca, argc);
    if (rc == EXIT_OK && !ca.files) {
        rc_logf("rowcast convert: out of memory\n");
        rc = EXIT_IO;
    }
    if (rc == EXIT_OK) rc = cli_flags_parse(&r, argc, argv, add_file);
    if (rc == EXIT_OK && r.config_path) rc = cli_config_load(&r, add_file); /* after the command line, which wins */
    if (rc == CLI_DONE) { /* --help */
        rc = EXIT_OK;
        goto done;
    }
    const char **files = ca.files;
    size_t nfiles = ca.nfiles;
    c.threaded = r.threads && r.threads[0] == '2';
    if (rc == EXIT_OK && !strcasecmp(r.spec.from, "mysql-binlog")) { /* not a format: a source of its own */
        r.spec.from = NULL, c.source = "mysql-binlog";
        if (c.ck_path) rc = cli_run_usage_error(&r, "--checkpoint is not supported with --from mysql-binlog: convert the files again, "
                                                "or capture from the server (rowcast capture mysql://...) to resume%s", "");
        if (!nfiles) rc = cli_run_usage_error(&r, "--from mysql-binlog needs binlog FILEs%s", "");
        if (c.records_in) rc = cli_run_usage_error(&r, "--input-layout records reads lines, not binlog files (--from mysql-binlog)%s", "");
    }
    if (rc == EXIT_OK && c.ck_path && nfiles != 1) rc = cli_run_usage_error(&r, "--checkpoint needs exactly one input FILE (a file it can seek in)%s", "");
    if (rc == EXIT_OK && c.ck_path && !strcmp(files[0], "-")) rc = cli_run_usage_error(&r, "--checkpoint needs a FILE, not stdin%s", "");
    const rc_source_ops *so = nfiles ? rc_source_lookup(c.source, files[0]) : NULL;
    if (so && (so->option_prefix || so->reads_prefix)) /* its -o keys (the Kafka source: kafka.*) */
        r.spec.source_prefix = so->option_prefix ? so->option_prefix : so->reads_prefix;
    bool own_position = so && so->keeps_position; /* a Kafka source: its group's committed offsets */
    if (rc == EXIT_OK && c.ck_path && own_position)
        rc = cli_run_usage_error(&r, "--checkpoint and a %s source: its position is its own (a Kafka group's committed offsets)", so->name);
    /* --exactly-once: order keys are byte offsets of the input, which a pipe or a second input
     * starts again at 0 (the skip rule would drop their records) */
    /* --exactly-once from a Kafka source: the consumer's offsets go in the sink's transactions
     * (docs/sources/kafka.md, Exactly once): no order keys, no skip rule */
    bool eos_source = own_position && rc_options_get(&r.opts, "kafka.exactly_once");
    if (rc == EXIT_OK && eos_source && r.opts.count == CLI_MAX_OPTS) rc = cli_run_usage_error(&r, "too many -o options%s", "");
    else if (rc == EXIT_OK && eos_source) r.opt_items[r.opts.count++] = (rc_option){"kafka.exactly_once.source", "true"};
    for (size_t i = 0; rc == EXIT_OK && so && so->sink_defaults && so->sink_defaults[i]; i += 2) { /* a user's -o wins */
        if (rc_options_get(&r.opts, so->sink_defaults[i])) continue;
        if (r.opts.count == CLI_MAX_OPTS) rc = cli_run_usage_error(&r, "too many -o options%s", "");
        else r.opt_items[r.opts.count++] = (rc_option){so->sink_defaults[i], so->sink_defaults[i + 1]};
    }
    if (rc == EXIT_OK && !own_position && rc_options_get(&r.opts, "kafka.exactly_once") && (nfiles != 1 || !strcmp(files[0], "-")))
        rc = cli_run_usage_error(&r, "--exactly-once needs exactly one input FILE, not stdin (its order keys are byte offsets in "
                                     "it, which another input or a pipe read again start at 0)%s", "");
    if (rc == EXIT_OK) rc = cli_run_setup(&r);
    const char *order = rc_options_get(&r.opts, "kafka.order.header");
    if (eos_source) c.order_header = order && !strcmp(order, "true"); /* --exactly-once's order keys are a capture's */
    if (r.check) {
        rc = cli_config_checked(&r, rc);
        goto done;
    }
    if (rc == EXIT_OK && c.ck_path) {
        c.ck_interval = (double)ca.ck_ms / 1000.0;
        rc = rc_pipeline_checkpoint_start(&c, files[0], r.run.kafka ? NULL : r.spec.sink_url);
    }
    if (rc != EXIT_OK) goto done;
    cli_run_start(&r);
    if (!nfiles) files[nfiles++] = "-";
    c.files = files, c.nfiles = nfiles;
    rc = rc_pipeline_run(&c);
done:
    cli_run_close(&r);
    cli_run_fini(&r);
    rc_pipeline_fini(&c);
    free(ca.files);
    return rc;
}
