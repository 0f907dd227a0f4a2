/* `rowcast snapshot URL TABLE...`: writes one signal row into the capture's signal table, so
 * that a running capture (-o postgres.signal.table / -o mysql.signal.table) snapshots the
 * tables incrementally (docs/design/incremental-snapshots.md §2), or stops, pauses or resumes
 * its snapshots. The connection, the catalog and the INSERT are the source's
 * (rc_source_ops.write_signal, found by the URL's scheme); this file holds the flags, the id
 * and the words. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/run_opts.h"
#include "rowcast/source.h"
#include "core/log.h"

/* What snapshot's own flags set (flags.h: CLI_IN_CMD), and its arguments. */
typedef struct snapshot_args {
    bool stop, pause, resume;
    const char *url;
    const char **patterns;
    size_t npatterns;
} snapshot_args;

static int set_arg(cli_run *r, const char *arg)
{
    snapshot_args *sa = r->cmd_args;
    if (!sa->url) sa->url = arg;
    else sa->patterns[sa->npatterns++] = arg;
    return EXIT_OK;
}

#define SWITCH(name, field, text) {CLI_SWITCH, name, .set = cli_flag_store_true, .base = CLI_IN_CMD, .off = offsetof(snapshot_args, field), .help = text}
static const cli_flag snapshot_table[] = {
    {CLI_TEXT, .help = "usage: rowcast snapshot postgres://USER@HOST:PORT/DB[?PARAMS] SCHEMA.TABLE... [OPTIONS]\n"
                  "       rowcast snapshot mysql://USER@HOST:PORT[/DB][?PARAMS] DB.TABLE... [OPTIONS]   (or mariadb://)\n"
                  "\n"
                  "Asks a running capture for an incremental snapshot of tables, without writing SQL:\n"
                  "writes one execute-snapshot row into the signal table that the capture reads\n"
                  "(its -o postgres.signal.table or -o mysql.signal.table, given here the same way).\n"
                  "The capture then reads the tables' rows in chunks, as op read events, while it\n"
                  "streams. TABLE is a pattern as for capture's --include (shell patterns: public.*,\n"
                  "shop.order*; without a dot: a schema or database), expanded against the server's\n"
                  "tables into the list the signal names (the signal table left out). The signal's id,\n"
                  "rowcast-MILLISECONDS-PID (the time since 1970 and this process's id: unique), is\n"
                  "printed on stdout; what was written, on stderr.\n"
                  "\n"},
    SWITCH("--stop", stop, "stop-snapshot: the capture drops the chunk in flight and\n"
                           "ends the snapshot of the TABLEs given, else of every table"),
    SWITCH("--pause", pause, "pause-snapshot: the chunk in flight ends, no next one\n"
                             "starts (no TABLE)"),
    SWITCH("--resume", resume, "resume-snapshot: paused snapshots go on (no TABLE)"),
    {CLI_REF, "-o", .usage = "-o postgres.signal.table=SCHEMA.TABLE",
     .help = "the signal table (PostgreSQL): the capture's; rowcast never\n"
             "creates it: when it is missing, the message gives the\n"
             "CREATE TABLE to run"},
    {CLI_REF, "-o", .usage = "-o mysql.signal.table=DB.TABLE",
     .help = "the same for MySQL and MariaDB"},
    {CLI_REF, "--help",
     .help = "this text"},
    {CLI_TEXT, .help = "\n"
                  "The connection is capture's: the same URL, password sources (PGPASSWORD, ~/.pgpass,\n"
                  "passfile=; MYSQL_PWD, ?password-file=, ?defaults-file=) and TLS parameters; the\n"
                  "password is never printed. PostgreSQL: the role needs what capture's needs (the\n"
                  "REPLICATION attribute) and INSERT on the signal table; MySQL and MariaDB: INSERT on\n"
                  "it.\n"
                  "\n"
                  "Exit status: 0 written; 1 usage or setup error (no signal table, a missing one, a\n"
                  "refused privilege: the message says what to change); 2 a TABLE pattern that\n"
                  "matches no table (the message names it and the tables near it); 3 the server could\n"
                  "not be reached or failed.\n"},
    {0}, /* CLI_END */
};
#undef SWITCH

void cli_usage_snapshot(void)
{
    cli_flags_help(snapshot_table);
}

/* A flag of convert's and capture's output side (--to, --sink, ...): not snapshot's. */
static int foreign_flag(cli_run *r, int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-o")) i++; /* its value may start with '-' */
        if (a[0] != '-' || !strncmp(a, "-o", 2)) continue;
        size_t n = strcspn(a, "=");
        for (const cli_flag *f = cli_run_flags; f->kind; f++)
            if (strcmp(f->name, "--help") && ((strlen(f->name) == n && !strncmp(a, f->name, n)) || (f->alias && !strcmp(a, f->alias))))
                return cli_run_usage_error(r, "%s is an output option of convert and capture: snapshot writes a signal row only", f->name);
    }
    return EXIT_OK;
}

/* The -o options: the source's own (its prefix), checked as capture checks them (another
 * source's is refused in capture's words). */
static int check_options(cli_run *r, const rc_source_ops *src)
{
    rc_capture_config cc = {0};
    rc_error err;
    rc_error_clear(&err);
    if (rc_source_check(src, NULL, &cc, &r->opts, &err) != RC_OK) return cli_run_usage_error(r, "%s", err.message);
    size_t pl = strlen(src->option_prefix);
    for (size_t k = 0; k < r->opts.count; k++) {
        const char *key = r->opts.items[k].key;
        if (strncmp(key, src->option_prefix, pl) || key[pl] != '.')
            return cli_run_usage_error(r, "-o %s is no option of snapshot: it takes the source's, as -o postgres.signal.table=SCHEMA.TABLE "
                                          "or -o mysql.signal.table=DB.TABLE", key);
    }
    return EXIT_OK;
}

/* What was asked: the signal's type, and whether TABLEs fit it. */
static int signal_type(cli_run *r, const snapshot_args *sa, const char **type)
{
    int n = sa->stop + sa->pause + sa->resume;
    if (n > 1) return cli_run_usage_error(r, "one of --stop, --pause and --resume at a time%s", "");
    *type = sa->stop ? "stop-snapshot" : sa->pause ? "pause-snapshot" : sa->resume ? "resume-snapshot" : "execute-snapshot";
    if ((sa->pause || sa->resume) && sa->npatterns)
        return cli_run_usage_error(r, "%s takes no TABLE: it pauses or resumes the capture's snapshots as a whole",
                                   sa->pause ? "--pause" : "--resume");
    if (!n && !sa->npatterns)
        return cli_run_usage_error(r, "which tables? give one or more SCHEMA.TABLE (DB.TABLE) patterns after the URL%s", "");
    return EXIT_OK;
}

static int write_signal(const rc_source_ops *src, const snapshot_args *sa, const rc_options *opts, const char *type)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    char id[64], said[600];
    snprintf(id, sizeof id, "rowcast-%lld-%ld", (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000, (long)getpid());
    rc_error err;
    rc_error_clear(&err);
    rc_status st = src->write_signal(sa->url, opts, type, sa->patterns, sa->npatterns, id, said, sizeof said, &err);
    if (st != RC_OK) {
        rc_logf("rowcast snapshot: %s\n", err.message);
        return st == RC_ERR_USAGE ? EXIT_USAGE : st == RC_ERR_SCHEMA ? EXIT_DATA : EXIT_IO;
    }
    printf("%s\n", id);
    rc_logf("rowcast snapshot: signal %s written to %s\n", id, said);
    return fflush(stdout) ? EXIT_IO : EXIT_OK;
}

int cli_snapshot(int argc, char **argv)
{
    rc_pipeline c;
    rc_pipeline_init(&c);
    cli_run r;
    snapshot_args sa = {.patterns = calloc((size_t)argc + 1, sizeof *sa.patterns)};
    int rc = cli_run_init(&r, &c, "snapshot", snapshot_table, &sa, argc);
    if (rc == EXIT_OK && !sa.patterns) {
        rc_logf("rowcast snapshot: out of memory\n");
        rc = EXIT_IO;
    }
    if (rc == EXIT_OK) rc = foreign_flag(&r, argc, argv);
    if (rc == EXIT_OK) rc = cli_flags_parse(&r, argc, argv, set_arg);
    const char *type = NULL;
    const rc_source_ops *src = NULL;
    if (rc == EXIT_OK && !sa.url)
        rc = cli_run_usage_error(&r, "which database? give postgres://USER@HOST:PORT/DB or mysql://USER@HOST:PORT, then the tables%s", "");
    if (rc == EXIT_OK) rc = signal_type(&r, &sa, &type);
    if (rc == EXIT_OK && (!(src = rc_source_find(sa.url)) || !src->write_signal)) {
        char shown[256];
        rc_source_url_shown(sa.url, shown, sizeof shown);
        rc = cli_run_usage_error(&r, "%s is not a database URL rowcast writes signals to: postgres://USER@HOST:PORT/DB or "
                                     "mysql://USER@HOST:PORT[/DB] (mariadb:// too)", strstr(sa.url, "://") || !strchr(sa.url, '=') ? shown : "a key=value string");
    }
    if (rc == EXIT_OK) rc = check_options(&r, src);
    if (rc == EXIT_OK) rc = write_signal(src, &sa, &r.opts, type);
    if (rc == CLI_DONE) rc = EXIT_OK; /* --help */
    cli_run_fini(&r);
    rc_pipeline_fini(&c);
    free(sa.patterns);
    return rc;
}
