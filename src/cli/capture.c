/* `rowcast capture URL`: a database source (src/sources/pg/pg_source.c for postgres://)
 * driven by the pipeline, with the output options convert has (run_opts.c). */
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/run_opts.h"
#include "pipeline/pipeline.h"
#include "sources/mysql/my_conn.h"
#include "sources/pg/pg_conn.h"

void cli_usage_capture(void)
{
    fputs("usage: rowcast capture postgres://USER@HOST:PORT/DB[?PARAMS] [OPTIONS]\n"
          "       rowcast capture mysql://USER@HOST:PORT[/DB][?PARAMS] [OPTIONS]   (or mariadb://)\n"
          "\n"
          "Captures the row changes of a PostgreSQL database through logical replication\n"
          "(pgoutput): a snapshot of the published tables, then every change as it commits,\n"
          "each event in the target format to the sink (default: stdout, native). The\n"
          "replication slot is the checkpoint: the server keeps every change after the end of\n"
          "the last transaction whose every message the sink acknowledged, and a new run\n"
          "resumes there; with --sink file:PATH the file's size there is kept in\n"
          "PATH.rowcast-state, and the file is cut back to it. See docs/sources/postgres.md.\n"
          "\n"
          "  --slot NAME            the replication slot (default rowcast): used as it is when\n"
          "                         it exists, else created (permanent, pgoutput)\n"
          "  --publication NAME     the publication (default rowcast): used as it is when it\n"
          "                         exists, else created FOR TABLE the tables --include\n"
          "                         matches (never FOR ALL TABLES). Each pattern must match\n"
          "                         a table it publishes: else exit 1, saying why\n"
          "  --snapshot MODE        initial: when the slot is created, first every row of the\n"
          "                         published tables as op read events (default); never:\n"
          "                         changes only; initial_only: the snapshot, then stop (no\n"
          "                         slot is kept)\n"
          "  --until caught-up|LSN  stop once every change committed before the start (or up\n"
          "                         to LSN, as 0/16B3748) is delivered and acknowledged\n"
          "  --max-events N         stop after N row events\n"
          "  --threads 1|2          2: read and decode the next batch of changes on a thread\n"
          "                         of its own while the last one is encoded and sent; 1: both\n"
          "                         on one thread (default: 2 for MySQL and MariaDB, 1 for\n"
          "                         PostgreSQL, as measured faster). The output is the same\n"
          "                         either way\n"
          "  --include SCHEMA.TABLE\n"
          "                         the tables to capture (shell patterns: public.*, *.orders;\n"
          "                         without a dot: a schema); repeatable\n"
          "  --metrics HOST:PORT    Prometheus metrics at http://HOST:PORT/metrics (as for\n"
          "                         convert; docs/metrics.md)\n"
          "\n"
          "The output options are convert's (rowcast help convert): --to, -o, --sink, --topic,\n"
          "--server, --keys, --records, --tombstones, --no-tombstones, --drop, --on-error,\n"
          "--on-loss, --flush-timeout, --progress, --quiet. The default topic is Debezium's\n"
          "{server}.{schema}.{table}, the default server name rowcast. --quiet also keeps the\n"
          "source's notices (snapshot done, resuming, the derived replica id, reconnecting)\n"
          "off stderr: warnings and errors only.\n"
          "\n"
          "  -o postgres.streaming=true\n"
          "                         protocol 2: large transactions arrive while in progress\n"
          "                         and are held until they commit (default false: the server\n"
          "                         sends each transaction when it commits)\n"
          "  -o postgres.stream.spill_bytes=N\n"
          "                         streamed transactions are held in memory up to N bytes\n"
          "                         (default 8 MiB), then in an unnamed temporary file\n"
          "  -o postgres.stream.spill_dir=DIR\n"
          "                         where those files are (default $TMPDIR, else /tmp)\n"
          "  -o postgres.stream.max_bytes=N\n"
          "                         held bytes, memory and files, at most (default 16 GiB)\n"
          "  -o postgres.heartbeat.interval=SECS\n"
          "                         write a logical message this often, so that the slot\n"
          "                         advances even when nothing on the server changes\n"
          "  -o postgres.publish.no_identity=skip|insert_only\n"
          "                         a table without replica identity (no primary key) in a\n"
          "                         publication rowcast creates: skip leaves it out, with a\n"
          "                         warning saying the fixes (default: in a publication of\n"
          "                         UPDATEs, PostgreSQL would refuse the application's own\n"
          "                         UPDATEs and DELETEs on it); insert_only captures its\n"
          "                         INSERTs and TRUNCATEs through a second publication\n"
          "                         NAME_inserts (publish = 'insert, truncate')\n"
          "  --help, -h             this text\n"
          "\n"
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
          "A pattern that matches no table is a warning here (a table created later is\n"
          "captured), an error for PostgreSQL.\n"
          "  --checkpoint PATH      the position of the last transaction the sink acknowledged,\n"
          "                         the schema history and a file sink's size there, written\n"
          "                         atomically; a run that finds the file resumes from it\n"
          "                         (--start ignored), the file cut back to that size\n"
          "  --start WHERE          without checkpoint and snapshot: current (default),\n"
          "                         earliest, FILE:POS (mysql-bin.000003:4), or a MariaDB GTID\n"
          "                         position (0-1-14)\n"
          "  --server-id N          the replica id announced to the server (default: derived\n"
          "                         from the host, port and checkpoint path, and printed)\n"
          "A server that cannot be reached at the start is an error at once (exit 3, the\n"
          "address in the message); a connection lost later is retried with backoff.\n"
          "The password comes from the URL, ?password-file=PATH, MYSQL_PWD, or the [client]\n"
          "group of ?defaults-file=PATH; TLS with ssl-mode=, ssl-ca=, ssl-cert=, ssl-key=,\n"
          "ssl-verify-server-cert= in PARAMS. The password is never printed.\n"
          "\n"
          "Exit status: 0 done (--until, --max-events, initial_only); 1 usage or setup error\n"
          "(the message says what to change); 2 bad data (--on-error=stop) or a row refused\n"
          "(--on-loss=stop or cut: the position stays before it); 3 I/O or delivery\n"
          "failure; 128+N stopped by signal N after flushing.\n",
          stdout);
}

static const char *const capture_flags[] = {"--slot", "--publication", "--snapshot", "--until", "--max-events",
                                            "--checkpoint", "--start", "--server-id", "--threads", NULL};
static const char *const source_prefixes[] = {"postgres.", NULL};

/* The PostgreSQL source's -o options, read by rc_options_parse from the table below (0: the
 * source's default) and then put in rc_capture_config. */
typedef struct pg_options {
    int no_identity; /* 0 skip, 1 insert_only */
    bool streaming;
    long heartbeat_s, spill_bytes, max_bytes;
    const char *spill_dir;
} pg_options;

#define PG_OPT(key, type, max, field) {key, type, NULL, NULL, NULL, offsetof(pg_options, field), 0, max, NULL}
static const rc_option_desc pg_option_table[] = {
    PG_OPT("postgres.streaming", RC_OPT_BOOL, 0, streaming),
    PG_OPT("postgres.heartbeat.interval", RC_OPT_INT, 86400, heartbeat_s),
    PG_OPT("postgres.stream.spill_bytes", RC_OPT_INT, LONG_MAX, spill_bytes),
    PG_OPT("postgres.stream.max_bytes", RC_OPT_INT, LONG_MAX, max_bytes),
    PG_OPT("postgres.stream.spill_dir", RC_OPT_STRING, 0, spill_dir),
    {"postgres.publish.no_identity", RC_OPT_CHOICE, "skip|insert_only", "skip", NULL,
     offsetof(pg_options, no_identity), 0, 0, NULL},
    {0},
};
#undef PG_OPT

/* The source's -o options. An unknown key is refused with the list of them, where the formats'
 * "did you mean" sends the user to `rowcast formats --options`, which does not list these. */
static int source_options(cli_run *r, rc_capture_config *cc)
{
    for (size_t k = 0; k < r->opts.count; k++) {
        const char *key = r->opts.items[k].key;
        const rc_option_desc *d = pg_option_table;
        while (d->key && strcmp(d->key, key)) d++;
        if (strncmp(key, "postgres.", 9) || d->key) continue;
        char fmt[256] = "unknown source option '%s': "; /* the keys hold no '%' */
        for (d = pg_option_table; d->key; d++) {
            size_t n = strlen(fmt);
            snprintf(fmt + n, sizeof fmt - n, "%s%s", d == pg_option_table ? "" : ", ", d->key);
        }
        return cli_run_usage_error(r, fmt, key);
    }
    rc_error err;
    rc_error_clear(&err);
    pg_options o = {0};
    if (rc_options_parse(&r->opts, "postgres", pg_option_table, &o, &err) != RC_OK) return cli_run_usage_error(r, "%s", err.message);
    cc->streaming = o.streaming;
    cc->heartbeat_s = (double)o.heartbeat_s;
    cc->spill_bytes = (uint64_t)o.spill_bytes, cc->stream_max_bytes = (uint64_t)o.max_bytes;
    cc->spill_dir = o.spill_dir;
    cc->no_identity_inserts = o.no_identity == 1;
    return EXIT_OK;
}

/* The argument is no postgres:// URL: say what it looks like, never showing a password. */
static int not_a_url(cli_run *r, const char *arg)
{
    if (strstr(arg, "://")) {
        char shown[256];
        snprintf(shown, sizeof shown, "%s", arg);
        rc_pg_url_mask(arg, shown, sizeof shown); /* user:PASSWORD@ and password= as *** */
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
    rc_capture_config cc = {.slot = "rowcast", .publication = "rowcast"};
    const char *url = NULL, *pg_only = NULL, *my_only = NULL;
    const char **patterns = calloc((size_t)argc + 1, sizeof *patterns);
    int rc = cli_run_init(&r, &c, "capture", capture_flags, argc);
    const char *threads = NULL; /* --threads as given; else 2 for MySQL and MariaDB, 1 for PostgreSQL */
    if (rc == EXIT_OK && !patterns) {
        fprintf(stderr, "rowcast capture: out of memory\n");
        rc = EXIT_IO;
    }
    r.source_prefixes = source_prefixes;
    r.topic = "{server}.{schema}.{table}";
    for (int i = 1; rc == EXIT_OK && i < argc; i++) {
        const char *a = argv[i], *v;
        char *end;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cli_usage_capture();
            goto done;
        } else if (cli_run_flag(&r, argc, argv, &i, &rc)) {
            continue;
        } else if ((v = cli_opt_value(argc, argv, &i, "--slot"))) {
            cc.slot = v, pg_only = "--slot";
        } else if ((v = cli_opt_value(argc, argv, &i, "--publication"))) {
            cc.publication = v, pg_only = "--publication";
        } else if ((v = cli_opt_value(argc, argv, &i, "--checkpoint"))) {
            cc.checkpoint = v, my_only = "--checkpoint";
        } else if ((v = cli_opt_value(argc, argv, &i, "--start"))) {
            cc.start = v, my_only = "--start";
        } else if ((v = cli_opt_value(argc, argv, &i, "--server-id"))) {
            unsigned long long n = strtoull(v, &end, 10);
            if (*end || !n || n > UINT32_MAX || v[0] == '-')
                rc = cli_run_usage_error(&r, "--server-id needs a number 1-4294967295, got '%s'", v);
            cc.server_id = (uint32_t)n, my_only = "--server-id";
        } else if ((v = cli_opt_value(argc, argv, &i, "--snapshot"))) {
            if (!strcmp(v, "initial")) cc.snapshot = RC_SNAPSHOT_INITIAL;
            else if (!strcmp(v, "never")) cc.snapshot = RC_SNAPSHOT_NEVER;
            else if (!strcmp(v, "initial_only")) cc.snapshot = RC_SNAPSHOT_INITIAL_ONLY;
            else rc = cli_run_usage_error(&r, "--snapshot is initial, never or initial_only, not '%s'", v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--until"))) {
            if (!strcmp(v, "caught-up")) cc.until_caught_up = true;
            else if (!rc_pg_lsn_parse(v, &cc.until_lsn) || !cc.until_lsn)
                rc = cli_run_usage_error(&r, "--until is caught-up or an LSN such as 0/16B3748, not '%s'", v);
        } else if ((v = cli_opt_value(argc, argv, &i, "--threads"))) {
            if (strcmp(v, "1") && strcmp(v, "2")) rc = cli_run_usage_error(&r, "--threads is 1 or 2, not '%s'", v);
            threads = v;
        } else if ((v = cli_opt_value(argc, argv, &i, "--max-events"))) {
            unsigned long long n = strtoull(v, &end, 10);
            if (*end || !n || v[0] == '-') rc = cli_run_usage_error(&r, "--max-events needs a positive number, got '%s'", v);
            cc.max_events = n;
        } else if (a[0] == '-' && a[1]) {
            rc = cli_run_unknown_flag(&r, a);
        } else if (url) {
            rc = cli_run_usage_error(&r, "one database URL only; '%s' is a second one", a);
        } else {
            url = a;
        }
    }
    if (rc == EXIT_OK && !url)
        rc = cli_run_usage_error(&r, "which database? give postgres://USER@HOST:PORT/DB or mysql://USER@HOST:PORT%s", "");
    bool mysql = rc == EXIT_OK && rc_my_is_url(url);
    if (rc == EXIT_OK && !mysql && !rc_pg_is_url(url)) rc = not_a_url(&r, url);
    if (rc == EXIT_OK && mysql && pg_only)
        rc = cli_run_usage_error(&r, "%s is PostgreSQL's: MySQL and MariaDB have no slots or publications (the position "
                                     "is kept in --checkpoint PATH)", pg_only);
    if (rc == EXIT_OK && !mysql && my_only)
        rc = cli_run_usage_error(&r, "%s is MySQL's and MariaDB's: PostgreSQL's position is its replication slot (--slot)",
                                 my_only);
    for (size_t k = 0; rc == EXIT_OK && mysql && k < r.opts.count; k++)
        if (!strncmp(r.opts.items[k].key, "postgres.", 9))
            rc = cli_run_usage_error(&r, "-o %s is PostgreSQL's: MySQL and MariaDB have no postgres.* options", r.opts.items[k].key);
    /* measured (docs/BENCHMARKS.md, session 10): a binlog's decoding runs beside its encoding on
     * the second core; PostgreSQL's walsender needs that core, and the hand-overs cost more than
     * the overlap gives */
    c.threaded = threads ? !strcmp(threads, "2") : mysql;
    if (rc == EXIT_OK && mysql && cc.until_lsn)
        rc = cli_run_usage_error(&r, "--until takes caught-up for MySQL and MariaDB (an LSN is PostgreSQL's)%s", "");
    /* before connecting: a bad name would fail only after the publication was created */
    if (rc == EXIT_OK && !mysql && !rc_pg_slot_name_ok(cc.slot))
        rc = cli_run_usage_error(&r, "--slot '%s' is not a slot name: use lower-case letters, digits and _ (at most 63)",
                                 cc.slot);
    if (rc == EXIT_OK) rc = source_options(&r, &cc);
    if (rc == EXIT_OK) rc = cli_run_setup(&r);
    if (rc != EXIT_OK) goto done;
    for (size_t k = 0; k < c.ninclude; k++) patterns[k] = c.include[k].pattern;
    cc.include = patterns, cc.ninclude = c.ninclude;
    cc.server = c.server;
    cc.notice = source_notice, cc.notice_ctx = &c;
    c.capture = &cc;
    /* what the sink delivered, made durable (a file sink's fsync) and acknowledged to the server
     * once a second: pg_recvlogical's is every 10 s, Debezium's offset flush every 60 s */
    c.ck_interval = 1.0;
    c.item_word = "message";
    c.include_schema = !mysql; /* PostgreSQL's --include is SCHEMA.TABLE, MySQL's DB.TABLE */
    cli_run_start(&r);
    c.files = &url, c.nfiles = 1;
    rc = rc_pipeline_run(&c);
done:
    cli_run_close(&r);
    cli_run_fini(&r);
    rc_pipeline_fini(&c);
    free(patterns);
    return rc;
}
