/* The flags convert and capture share (flags.h): --to, -o, --sink, --topic, --server, --keys,
 * --exactly-once, --records, --tombstones, --include, --drop, --on-error, --on-loss, --flush-timeout,
 * --progress, --quiet, --metrics, --threads, --help, --config, --check. Their help is each command's (its table's
 * CLI_REF rows); the values land in the cli_run (its rc_run_spec) and the rc_pipeline. */
#include <stdlib.h>
#include <string.h>
#include "cli/flags.h"
#include "cli/run_opts.h"
#include "pipeline/metrics.h"

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

/* -o KEY=VALUE (or -oKEY=VALUE): a secret's value read from @FILE or env:NAME. */
static int take_option(cli_run *r, const cli_flag *f, const char *kv_in)
{
    (void)f;
    char *kv = (char *)kv_in;
    char *eq = kv ? strchr(kv, '=') : NULL;
    if (!eq || eq == kv) return cli_run_usage_error(r, "-o needs KEY=VALUE, got '%s'", kv ? kv : "");
    if (r->opts.count == CLI_MAX_OPTS) return cli_run_usage_error(r, "too many -o options%s", "");
    *eq = '\0';
    rc_error serr;
    rc_error_clear(&serr);
    size_t k = r->opts.count++;
    r->opt_items[k].key = kv;
    r->opt_items[k].value = eq + 1;
    r->secrets[k] = NULL;
    if (rc_option_is_secret(kv) && rc_option_secret_read(kv, eq + 1, &r->secrets[k], &serr) != RC_OK)
        return cli_run_usage_error(r, "%s", serr.message);
    if (r->secrets[k]) r->opt_items[k].value = r->secrets[k];
    return EXIT_OK;
}

static int set_include(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    rc_pipeline *c = r->c;
    c->include[c->ninclude++] = (rc_include_pat){.pattern = v, .db_only = !strchr(v, '.')};
    return EXIT_OK;
}

static int set_drop(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    if (!parse_drop(v, &r->c->drop)) return cli_run_usage_error(r, "--drop %s: kinds are ddl, truncate, heartbeat, transaction, snapshot", v);
    return EXIT_OK;
}

static int set_tombstones(cli_run *r, const cli_flag *f, const char *v)
{
    (void)v;
    r->spec.tomb = f->arg;
    return EXIT_OK;
}

static int set_quiet(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f, (void)v;
    r->c->quiet = true;
    return EXIT_OK;
}

static int set_progress(cli_run *r, const cli_flag *f, const char *v)
{
    if (!rc_pipeline_progress_option(r->c, v)) {
        char given[256];
        snprintf(given, sizeof given, v ? "%s=%s" : "%s", f->name, v);
        return cli_run_usage_error(r, "%s: the interval is a whole number with ms, s, m or h (10s, 500ms), or 0 for a line "
                                      "after every batch of lines", given);
    }
    return EXIT_OK;
}

static int set_server(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    r->c->server = v, r->c->server_forced = true;
    return EXIT_OK;
}

static int set_metrics(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    rc_metrics_addr addr;
    rc_error aerr;
    rc_error_clear(&aerr);
    if (rc_metrics_addr_parse(v, &addr, &aerr) != RC_OK) return cli_run_usage_error(r, "%s", aerr.message);
    r->c->metrics_addr = v;
    return EXIT_OK;
}

static int set_flush_timeout(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f;
    char *end;
    r->spec.flush_secs = strtol(v, &end, 10);
    if (*end || r->spec.flush_secs < 0 || r->spec.flush_secs > 86400)
        return cli_run_usage_error(r, "--flush-timeout needs seconds (0..86400), got '%s'", v);
    return EXIT_OK;
}

/* --exactly-once: the Kafka sink's -o kafka.exactly_once=true (transactions, tail reads, the skip
 * rule: kafka_tail.h), which rc_run_open checks (kafka:// and --server) and turns the order
 * header on for. */
static int set_exactly_once(cli_run *r, const cli_flag *f, const char *v)
{
    (void)f, (void)v;
    if (r->opts.count == CLI_MAX_OPTS) return cli_run_usage_error(r, "too many -o options%s", "");
    r->opt_items[r->opts.count++] = (rc_option){"kafka.exactly_once", "true"};
    return EXIT_OK;
}

#define SPEC(field) CLI_IN_RUN, offsetof(cli_run, spec.field)
/* In the order "did you mean" offers them (after the command's own): --threads first, then as
 * the commands listed them before this table. -o is offered by none. */
const cli_flag cli_run_flags[] = {
    {CLI_VALUE, "--threads", .set = cli_flag_threads, .base = CLI_IN_RUN, .off = offsetof(cli_run, threads)},
    {CLI_VALUE, "--to", .base = SPEC(to), .def = "native"},
    {CLI_VALUE, "--sink", .base = SPEC(sink_url), .def = "stdout"},
    {CLI_VALUE, "--topic", .base = SPEC(topic), .def = "debezium"},
    {CLI_VALUE, "--server", .set = set_server},
    {CLI_SWITCH, "--exactly-once", .set = set_exactly_once},
    {CLI_SWITCH, "--keys", .set = cli_flag_store_true, .base = SPEC(keys)},
    {CLI_SWITCH, "--records", .set = cli_flag_store_true, .base = SPEC(records)},
    {CLI_SWITCH, "--tombstones", .set = set_tombstones, .arg = 1},
    {CLI_SWITCH, "--no-tombstones", .set = set_tombstones, .arg = 0},
    {CLI_VALUE, "--flush-timeout", .set = set_flush_timeout},
    {CLI_VALUE, "--on-error", .base = SPEC(on_error), .def = "stop"},
    {CLI_VALUE, "--on-loss", .base = SPEC(on_loss), .def = "stop"},
    {CLI_VALUE, "--include", .set = set_include, .many = true},
    {CLI_VALUE, "--drop", .set = set_drop, .many = true},
    {CLI_OPTIONAL, "--progress", .set = set_progress},
    {CLI_VALUE, "--metrics", .set = set_metrics},
    {CLI_SWITCH, "--quiet", "-q", .set = set_quiet},
    {CLI_SWITCH, "--help", "-h", .set = cli_flag_help},
    {CLI_GLUED, "-o", .set = take_option, .many = true},
    {CLI_VALUE, "--config", .base = CLI_IN_RUN, .off = offsetof(cli_run, config_path),
     .help = "flags and -o options from FILE, one KEY = VALUE a line\n"
             "(docs/config.md): a key without a dot is a flag's name\n"
             "without --, one with a dot an -o option; input (convert's\n"
             "FILEs) and url (capture's URL) are the arguments; ${NAME}\n"
             "is an environment variable. The command line's flags and\n"
             "-o keys win over the file's"},
    {CLI_SWITCH, "--check", .set = cli_flag_store_true, .base = CLI_IN_RUN, .off = offsetof(cli_run, check),
     .help = "check the flags and options (--config's too), then say\n"
             "\"FILE: ok\" (exit 0) or what is wrong (exit 2), reading,\n"
             "connecting to and writing nothing"},
    {0}, /* CLI_END */
};
#undef SPEC
