/* `rowcast capture URL`: the database source of the URL's scheme (the source registry,
 * src/sources/source.c, which also checks the flags and -o options that are the source's)
 * driven by the pipeline, with the output options convert has (run_opts.c). */
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/config_file.h"
#include "cli/run_opts.h"
#include "pipeline/pipeline.h"
#include "pipeline/state_store.h"
#include "sinks/kafka_lead.h"
#include "rowcast/source.h"
#include "core/log.h"

/* What capture's own flags set (flags.h: CLI_IN_CMD): the source's configuration, the flags
 * given that the source checks (rc_source_check), the URL. */
typedef struct capture_args {
    rc_capture_config cc;
    const char **given;
    size_t ngiven;
    const char *url;
    bool standby;      /* --standby */
    const char *lead_topic; /* --standby=kafka://...: the lead's topic, NULL: --checkpoint's */
    int takeover_s;    /* --takeover-after, 0: not given */
} capture_args;

/* A flag some source reads and others refuse (--slot, --checkpoint, ...): the source says. */
static int set_source_flag(cli_run *r, const cli_flag *f, const char *v)
{
    capture_args *ca = r->cmd_args;
    *(const char **)((char *)ca + f->off) = v;
    ca->given[ca->ngiven++] = f->name;
    return EXIT_OK;
}

static int set_server_id(cli_run *r, const cli_flag *f, const char *v)
{
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || !n || n > UINT32_MAX || v[0] == '-') return cli_run_usage_error(r, "--server-id needs a number 1-4294967295, got '%s'", v);
    capture_args *ca = r->cmd_args;
    ca->cc.server_id = (uint32_t)n, ca->given[ca->ngiven++] = f->name;
    return EXIT_OK;
}

static int set_snapshot(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    static const char *const modes[] = {[RC_SNAPSHOT_INITIAL] = "initial", [RC_SNAPSHOT_NEVER] = "never",
                                        [RC_SNAPSHOT_INITIAL_ONLY] = "initial_only", [RC_SNAPSHOT_INCREMENTAL] = "incremental"};
    capture_args *ca = r->cmd_args;
    for (int m = RC_SNAPSHOT_INITIAL; m <= RC_SNAPSHOT_INCREMENTAL; m++)
        if (!strcmp(v, modes[m])) return ca->cc.snapshot = m, EXIT_OK;
    return cli_run_usage_error(r, "--snapshot is initial, never, initial_only or incremental, not '%s'", v);
}

static int set_max_events(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    if (*end || !n || v[0] == '-') return cli_run_usage_error(r, "--max-events needs a positive number, got '%s'", v);
    ((capture_args *)r->cmd_args)->cc.max_events = n;
    return EXIT_OK;
}

static int set_standby(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    capture_args *ca = r->cmd_args;
    if (v && strncmp(v, "kafka://", 8))
        return cli_run_usage_error(r, "--standby=%s: the topic whose consumer group decides the lead, kafka://HOST:PORT/TOPIC", v);
    ca->standby = true, ca->lead_topic = v;
    return EXIT_OK;
}

static int set_takeover(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    char *end;
    long n = strtol(v, &end, 10);
    if (*end || n < 1 || n > RC_TAKEOVER_MAX_S || v[0] == '-' || v[0] == '+')
        return cli_run_usage_error(r, "--takeover-after needs whole seconds from 1 to 600, got '%s'", v);
    ((capture_args *)r->cmd_args)->takeover_s = (int)n;
    return EXIT_OK;
}

/* --standby and --takeover-after: the lead is decided in the group of the state topic, so the
 * state must be a Kafka one (the instances share it). */
static int standby_args(cli_run *r, const capture_args *ca, rc_capture_config *cc, bool mysql, rc_pipeline *c)
{
    if (!ca->standby) {
        if (ca->takeover_s) return cli_run_usage_error(r, "--takeover-after is the time a --standby waits; give --standby too%s", "");
        return EXIT_OK;
    }
    bool kafka_state = rc_state_store_is_kafka(cc->checkpoint);
    if (!mysql && !ca->lead_topic)
        return cli_run_usage_error(r, "--standby of a PostgreSQL capture needs --standby=kafka://HOST:PORT/TOPIC: the slot is the "
                                      "state the instances share, and that topic's consumer group decides which one leads%s", "");
    if (mysql && !kafka_state)
        return cli_run_usage_error(r, "--standby needs --checkpoint kafka://HOST:PORT/TOPIC: the instances share the state there, and "
                                      "the topic's consumer group decides which one leads%s", "");
    c->standby = ca->lead_topic ? ca->lead_topic + 8 : cc->checkpoint + 8;
    cc->take_over = true; /* the slot's old reader is ended once this one leads */
    c->takeover_s = ca->takeover_s ? ca->takeover_s : RC_TAKEOVER_DEFAULT_S;
    return EXIT_OK;
}

static int set_url(cli_run *r, const char *arg)
{
    capture_args *ca = r->cmd_args;
    if (ca->url) return cli_run_usage_error(r, "one database URL only; '%s' is a second one", arg);
    ca->url = arg;
    return EXIT_OK;
}

/* capture's flags and --help, in the help's order; the shared flags' help is here too
 * (CLI_REF rows), their parsing in run_flags.c. The -o postgres.* rows are the PostgreSQL
 * source's options (src/sources/pg/pg_source_decl.c), said here for the help. */
static const cli_flag capture_table[] = {
    {CLI_TEXT, .help = "usage: rowcast capture postgres://USER@HOST:PORT/DB[?PARAMS] [OPTIONS]\n"
                  "       rowcast capture mysql://USER@HOST:PORT[/DB][?PARAMS] [OPTIONS]   (or mariadb://)\n"
                  "\n"
                  "Captures the row changes of a PostgreSQL database through logical replication\n"
                  "(pgoutput): a snapshot of the published tables, then every change as it commits,\n"
                  "each event in the target format to the sink (default: stdout, native). The\n"
                  "replication slot is the checkpoint: the server keeps every change after the end of\n"
                  "the last transaction whose every message the sink acknowledged, and a new run\n"
                  "resumes there; with --sink file:PATH the file's size there is kept in\n"
                  "PATH.rowcast-state, and the file is cut back to it. With -o postgres.signal.table\n"
                  "or --snapshot incremental (incremental snapshots), --checkpoint PATH names the file\n"
                  "that keeps their progress (default:\n"
                  "$XDG_STATE_HOME/rowcast/pg-HOST-PORT-DB-SLOT.state; kafka://HOST:PORT/TOPIC with\n"
                  "--server NAME: a record in that topic); otherwise --checkpoint is\n"
                  "MySQL's. With incremental snapshots, a table that comes to match --include while\n"
                  "capturing (checked every 5 s), or after a restart with a wider --include, is\n"
                  "added to rowcast's publication and read in chunks (a user's publication is never\n"
                  "altered: the ALTER PUBLICATION to run is said). See docs/sources/postgres.md.\n"
                  "\n"},
    {CLI_VALUE, "--slot", .metavar = "NAME", .set = set_source_flag, .base = CLI_IN_CMD, .off = offsetof(capture_args, cc.slot),
     .help = "the replication slot (default rowcast): used as it is when\n"
             "it exists, else created (permanent, pgoutput)"},
    {CLI_VALUE, "--publication", .metavar = "NAME", .set = set_source_flag, .base = CLI_IN_CMD, .off = offsetof(capture_args, cc.publication),
     .help = "the publication (default rowcast): used as it is when it\n"
             "exists, else created FOR TABLE the tables --include\n"
             "matches (never FOR ALL TABLES). Each pattern must match\n"
             "a table it publishes: else exit 1, saying why"},
    {CLI_VALUE, "--snapshot", .metavar = "MODE", .set = set_snapshot,
     .help = "initial: when the slot is created, first every row of the\n"
             "published tables as op read events (default; one\n"
             "transaction: a kill starts it over); never: changes only;\n"
             "initial_only: the snapshot, then stop (no slot is kept);\n"
             "incremental (PostgreSQL): the slot is created and streamed\n"
             "from at once while every table is read in key-ordered\n"
             "chunks (op read): resumable after a kill (--checkpoint),\n"
             "no long transaction; not one point-in-time image, slower\n"
             "than COPY (docs/BENCHMARKS.md)"},
    {CLI_VALUE, "--until", .metavar = "caught-up|LSN", .base = CLI_IN_CMD, .off = offsetof(capture_args, cc.until),
     .help = "stop once every change committed before the start (or up\n"
             "to LSN, as 0/16B3748) is delivered and acknowledged"},
    {CLI_VALUE, "--max-events", .metavar = "N", .set = set_max_events,
     .help = "stop after N row events"},
    {CLI_REF, "--threads", .metavar = "1|2",
     .help = "2: read and decode the next batch of changes on a thread\n"
             "of its own while the last one is encoded and sent; 1: both\n"
             "on one thread (default: 2 for MySQL and MariaDB, 1 for\n"
             "PostgreSQL, as measured faster). The output is the same\n"
             "either way"},
    {CLI_REF, "--include", .metavar = "SCHEMA.TABLE",
     .help = "the tables to capture (shell patterns: public.*, *.orders;\n"
             "without a dot: a schema); repeatable"},
    {CLI_REF, "--metrics", .metavar = "HOST:PORT",
     .help = "Prometheus metrics at http://HOST:PORT/metrics, and the\n"
             "probes /health and /ready (as for convert; docs/metrics.md)"},
    {CLI_REF, "--ready-lag", .metavar = "SECONDS",
     .help = "/ready's bound on the lag (as for convert; default 60)"},
    {CLI_REF, "--log-format", .metavar = "text|json",
     .help = "json: each message on stderr one JSON object with its\n"
             "table, position and error code where it names them"},
    {CLI_TEXT, .help = "\n"
                  "The output options are convert's (rowcast help convert): --to, -o, --sink, --topic,\n"
                  "--server, --exactly-once, --keys, --records, --tombstones, --no-tombstones, --drop,\n"
                  "--on-error, --on-loss, --flush-timeout, --progress, --quiet. The default topic is\n"
                  "Debezium's (the preset 'debezium'), the default server name rowcast. --quiet also\n"
                  "keeps the source's notices (snapshot done, resuming, the derived replica id,\n"
                  "reconnecting) off stderr: warnings and errors only.\n"
                  "\n"},
    {CLI_REF, "-o", .usage = "-o postgres.streaming=true",
     .help = "protocol 2: large transactions arrive while in progress\n"
             "and are held until they commit (default false: the server\n"
             "sends each transaction when it commits)"},
    {CLI_REF, "-o", .usage = "-o postgres.stream.spill_bytes=N",
     .help = "streamed transactions are held in memory up to N bytes\n"
             "(default 8 MiB), then in an unnamed temporary file"},
    {CLI_REF, "-o", .usage = "-o postgres.stream.spill_dir=DIR",
     .help = "where those files are (default $TMPDIR, else /tmp)"},
    {CLI_REF, "-o", .usage = "-o postgres.stream.max_bytes=N",
     .help = "held bytes, memory and files, at most (default 16 GiB)"},
    {CLI_REF, "-o", .usage = "-o postgres.heartbeat.interval=SECS",
     .help = "write a logical message this often, so that the slot\n"
             "advances even when nothing on the server changes"},
    {CLI_REF, "-o", .usage = "-o postgres.publish.no_identity=skip|insert_only",
     .help = "a table without replica identity (no primary key) in a\n"
             "publication rowcast creates: skip leaves it out, with a\n"
             "warning saying the fixes (default: in a publication of\n"
             "UPDATEs, PostgreSQL would refuse the application's own\n"
             "UPDATEs and DELETEs on it); insert_only captures its\n"
             "INSERTs and TRUNCATEs through a second publication\n"
             "NAME_inserts (publish = 'insert, truncate')"},
    {CLI_REF, "-o", .usage = "-o postgres.signal.table=SCHEMA.TABLE",
     .help = "incremental snapshots on a signal row in that table\n"
             "(execute-snapshot, stop-, pause-, resume-snapshot; rowcast\n"
             "prints the CREATE TABLE to run when it is missing)"},
    {CLI_REF, "-o", .usage = "-o postgres.snapshot.chunk.rows=N",
     .help = "rows an incremental snapshot chunk reads (default 65536;\n"
             "a chunk also ends past 8 MiB)"},
    {CLI_REF, "-o", .usage = "-o postgres.snapshot.flush=true|false",
     .help = "the chunks' watermarks committed with synchronous_commit =\n"
             "local on rowcast's own session (default true; false: the\n"
             "server's setting, ~wal_writer_delay a chunk when it is off)"},
    {CLI_REF, "-o", .usage = "-o postgres.snapshot.read_ahead=true|false",
     .help = "send the next chunk's query while the last chunk's rows\n"
             "are written (default true; false: one chunk after the\n"
             "other, slower: docs/BENCHMARKS.md)"},
    {CLI_REF, "--config", .metavar = "FILE"},
    {CLI_REF, .name = "--check"},
    {CLI_REF, "--help",
     .help = "this text"},
    {CLI_TEXT, .help = "\n"
                  "The password comes from libpq: PGPASSWORD, ~/.pgpass, passfile=; TLS with\n"
                  "sslmode=verify-full&sslrootcert=... in PARAMS. A password written in the URL is\n"
                  "never printed.\n"
                  "\n"
                  "MySQL and MariaDB (docs/sources/mysql.md): a consistent snapshot of the tables\n"
                  "(--include DB.TABLE; the URL's DB alone when it names one), then the binlog read\n"
                  "as a replica (binlog_format=ROW; privileges REPLICATION SLAVE, REPLICATION CLIENT,\n"
                  "SELECT). --snapshot, --until caught-up, --max-events, --include as above (the\n"
                  "snapshot is taken unless --start is given); --slot and --publication are\n"
                  "PostgreSQL's. Without --checkpoint, every run starts afresh (said at the start).\n"
                  "The initial snapshot is one read view: a run killed during it takes it again\n"
                  "(the view ends with its session). --snapshot incremental (MariaDB): streams from\n"
                  "the first second and reads the tables in key-ordered chunks, no long read view,\n"
                  "resumable at the next chunk with --checkpoint; not one point-in-time image (the\n"
                  "reads and the stream interleave); tables need a primary or unique NOT NULL key.\n"
                  "A pattern that matches no table is a warning here (a table created later is\n"
                  "captured), an error for PostgreSQL.\n"},
    {CLI_VALUE, "--checkpoint", .metavar = "PATH", .set = set_source_flag, .base = CLI_IN_CMD, .off = offsetof(capture_args, cc.checkpoint),
     .help = "the position of the last transaction the sink acknowledged,\n"
             "the schema history, the incremental snapshots' progress and\n"
             "a file sink's size there, written atomically; a run that\n"
             "finds the file resumes from it (--start ignored), the file\n"
             "cut back to that size. MySQL/MariaDB: kafka://HOST:PORT/TOPIC\n"
             "keeps it in a Kafka topic instead (record rowcast/NAME/state,\n"
             "needs --server NAME; docs/sinks.md, State in Kafka)"},
    {CLI_VALUE, "--start", .metavar = "WHERE", .set = set_source_flag, .base = CLI_IN_CMD, .off = offsetof(capture_args, cc.start),
     .help = "without checkpoint and snapshot: current (default),\n"
             "earliest, FILE:POS (mysql-bin.000003:4), or a MariaDB GTID\n"
             "position (0-1-14)"},
    {CLI_OPTIONAL, "--standby", .metavar = "kafka://HOST:PORT/TOPIC", .set = set_standby,
     .help = "one of several instances of this capture (same --server,\n"
             "--exactly-once) on other machines: it waits until it leads,\n"
             "then captures; the lead moves when the active one ends\n"
             "(docs/operations.md, A standby that takes over). The lead\n"
             "is decided in the consumer group of --checkpoint's topic\n"
             "(MySQL/MariaDB: kafka:// there is needed), or of the TOPIC\n"
             "given (PostgreSQL: needed; the slot's old walsender is\n"
             "ended). A leader that lost the lead exits 4 unwritten"},
    {CLI_VALUE, "--takeover-after", .metavar = "SECONDS", .set = set_takeover,
     .help = "--standby: how long an active instance may be silent\n"
             "before another takes over (default 30; the group session\n"
             "is 0.3 of it: a real broker's least session, 6 s, makes the\n"
             "least value 20)"},
    {CLI_VALUE, "--server-id", .metavar = "N", .set = set_server_id,
     .help = "the replica id announced to the server (default: derived\n"
             "from the host, port and checkpoint path, and printed)"},
    {CLI_REF, "-o", .usage = "-o mysql.signal.table=DB.TABLE",
     .help = "incremental snapshots on a signal row in that table (as\n"
             "postgres.signal.table)"},
    {CLI_REF, "-o", .usage = "-o mysql.snapshot.chunk.rows=N",
     .help = "rows an incremental snapshot chunk reads (default 16384;\n"
             "a chunk also ends past 16 MiB)"},
    {CLI_REF, "-o", .usage = "-o mysql.snapshot.unacked.chunks=N",
     .help = "chunks handed to the sink and not yet acknowledged, at\n"
             "most (default 1: a kill reads at most one chunk again;\n"
             "more is faster and repeats up to N)"},
    {CLI_REF, "-o", .usage = "-o mysql.snapshot.watermark=auto|point|table",
     .help = "how a chunk is framed in the binlog: point (MariaDB's read\n"
             "view position, nothing written), table (two rows INSERTed\n"
             "into the signal table a chunk), auto (default: point on\n"
             "MariaDB, table on MySQL)"},
    {CLI_TEXT, .help = "A server that cannot be reached at the start is an error at once (exit 3, the\n"
                  "address in the message); a connection lost later is retried with backoff.\n"
                  "The password comes from the URL, ?password-file=PATH, MYSQL_PWD, or the [client]\n"
                  "group of ?defaults-file=PATH; TLS with ssl-mode=, ssl-ca=, ssl-cert=, ssl-key=,\n"
                  "ssl-verify-server-cert= in PARAMS. The password is never printed.\n"
                  "\n"
                  "Exit status: 0 done (--until, --max-events, initial_only); 1 usage or setup error\n"
                  "(the message says what to change); 2 bad data (--on-error=stop) or a row refused\n"
                  "(--on-loss=stop or cut: the position stays before it); 3 I/O or delivery\n"
                  "failure; 128+N stopped by signal N after flushing.\n"},

    {CLI_ARGS, .name = "url"},
    {0}, /* CLI_END */
};

void cli_usage_capture(void)
{
    cli_flags_help(capture_table);
}

/* The argument is no database URL a source reads: say what it looks like, never showing a
 * password. */
static int not_a_url(cli_run *r, const char *arg)
{
    if (strstr(arg, "://")) {
        char shown[256];
        rc_source_url_shown(arg, shown, sizeof shown);
        return cli_run_usage_error(r, "%s is not a database URL rowcast reads: capture reads postgres://USER@HOST:PORT/DB "
                                      "and mysql://USER@HOST:PORT[/DB] (mariadb:// too)", shown);
    }
    if (strchr(arg, '=')) /* libpq's key=value form: it may hold password=, so none of it is shown */
        return cli_run_usage_error(r, "a key=value connection string is not a database URL: capture reads "
                                      "postgres://USER@HOST:PORT/DB[?PARAMS] (libpq's parameters go after the ?)%s", "");
    return cli_run_usage_error(r, "%s is not a database URL: capture reads postgres://USER@HOST:PORT/DB (files are "
                                  "for rowcast convert)", arg);
}

/* --quiet: the warnings only (what the source does, the replica id it chose, a connection it
 * got back, are not said); errors are the run's own messages */
static void source_notice(void *ctx, const char *msg)
{
    const rc_pipeline *c = ctx;
    if (c->quiet && strncmp(msg, "warning: ", 9)) return;
    rc_pipeline_sink_notice(ctx, RC_SINK_NOTICE_BROKER, msg); /* said on a line of its own, as the sink's notices */
}

int cli_capture(int argc, char **argv)
{
    rc_pipeline c;
    rc_pipeline_init(&c);
    cli_run r;
    capture_args ca = {.given = calloc(cli_args_max(argc), sizeof *ca.given)};
    const char **patterns = calloc(cli_args_max(argc), sizeof *patterns);
    int rc = cli_run_init(&r, &c, "capture", capture_table, &ca, argc);
    if (rc == EXIT_OK && (!patterns || !ca.given)) {
        rc_logf("rowcast capture: out of memory\n");
        rc = EXIT_IO;
    }
    r.spec.topic = "debezium";
    if (rc == EXIT_OK) rc = cli_flags_parse(&r, argc, argv, set_url);
    if (rc == EXIT_OK && r.config_path) rc = cli_config_load(&r, set_url); /* after the command line, which wins */
    if (rc == CLI_DONE) { /* --help */
        rc = EXIT_OK;
        goto done;
    }
    const char *url = ca.url;
    rc_capture_config cc = ca.cc;
    if (rc == EXIT_OK && !url)
        rc = cli_run_usage_error(&r, "which database? give postgres://USER@HOST:PORT/DB or mysql://USER@HOST:PORT%s", "");
    const rc_source_ops *src = rc == EXIT_OK ? rc_source_find(url) : NULL;
    if (rc == EXIT_OK && (!src || !src->database)) rc = not_a_url(&r, url);
    rc_error err;
    rc_error_clear(&err);
    if (rc == EXIT_OK && rc_source_check(src, ca.given, &cc, &r.opts, &err) != RC_OK) rc = cli_run_usage_error(&r, "%s", err.message);
    if (rc == EXIT_OK && rc_state_store_is_kafka(cc.checkpoint) && !c.server_forced) /* the state's key: rowcast/NAME/state */
        rc = cli_run_usage_error(&r, "--checkpoint %s needs --server NAME: the state is the record rowcast/NAME/state, and two "
                                     "captures must not share one", cc.checkpoint);
    if (rc == EXIT_OK) rc = standby_args(&r, &ca, &cc, src->option_prefix && !strcmp(src->option_prefix, "mysql"), &c);
    if (rc == EXIT_OK) {
        r.spec.source_prefix = src->option_prefix;
        c.threaded = r.threads ? !strcmp(r.threads, "2") : src->threaded;
        rc = cli_run_setup(&r);
    }
    if (r.check) {
        rc = cli_config_checked(&r, rc);
        goto done;
    }
    if (rc != EXIT_OK) goto done;
    for (size_t k = 0; k < c.ninclude; k++) patterns[k] = c.include[k].pattern;
    cc.include = patterns, cc.ninclude = c.ninclude;
    cc.server = c.server;
    cc.notice = source_notice, cc.notice_ctx = &c;
    c.capture = &cc;
    /* what the sink delivered, made durable (a file sink's fsync) and acknowledged to the server
     * once a second: pg_recvlogical's is every 10 s, Debezium's offset flush every 60 s */
    c.ck_interval = 1.0;
    cli_run_start(&r);
    c.files = &url, c.nfiles = 1;
    rc = rc_pipeline_run(&c);
done:
    cli_run_close(&r);
    cli_run_fini(&r);
    rc_pipeline_fini(&c);
    free(patterns);
    free(ca.given);
    return rc;
}
