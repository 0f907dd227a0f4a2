/* The options convert and capture share (run_opts.h). */
#include "cli/run_opts.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "pipeline/metrics.h"
#include "core/names.h"

volatile sig_atomic_t cli_stop_signal;

/* The first SIGINT/SIGTERM stops the run after a flush; a second one means the user will not
 * wait for it: exit at once (the checkpoint file, renamed into place, stays as last stored). */
static void on_signal(int sig)
{
    static const char msg[] = "rowcast: a second signal: exiting now without waiting for deliveries; the checkpoint "
                              "stays where it was last stored\n";
    if (cli_stop_signal) {
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(128 + sig);
    }
    cli_stop_signal = sig;
}

static const char *const shared_flags[] = {"--to", "--sink", "--topic", "--server", "--keys", "--records", "--tombstones",
                                           "--no-tombstones", "--flush-timeout", "--on-error", "--on-loss", "--include", "--drop",
                                           "--progress", "--metrics", "--quiet", "--help", NULL};

int cli_run_usage_error(const cli_run *r, const char *fmt, const char *arg)
{
    fprintf(stderr, "rowcast %s: ", r->cmd);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see rowcast help %s)\n", r->cmd);
    return EXIT_USAGE;
}

int cli_run_unknown_flag(cli_run *r, const char *a)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(a, "="), a);
    rc_suggest sg;
    rc_suggest_init(&sg, name);
    for (const char *const *f = r->flags; f && *f; f++) rc_suggest_offer(&sg, *f);
    for (const char *const *f = shared_flags; *f; f++) rc_suggest_offer(&sg, *f);
    if (!sg.best) return cli_run_usage_error(r, "unknown or incomplete option '%s'", a);
    if (!strcmp(sg.best, name)) /* known: a value missing at the end of the line, or one given to a switch */
        return cli_run_usage_error(r, a[strlen(name)] == '=' ? "option '%s' takes no value" : "option '%s' needs a value", name);
    fprintf(stderr, "rowcast %s: unknown option '%s': did you mean '%s'?\n(see rowcast help %s)\n", r->cmd, a, sg.best, r->cmd);
    return EXIT_USAGE;
}

const char *cli_opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t l = strlen(name);
    if (strncmp(argv[*i], name, l) != 0) return NULL;
    if (argv[*i][l] == '=') return argv[*i] + l + 1;
    if (argv[*i][l] == '\0' && *i + 1 < argc) return argv[++*i];
    return NULL;
}

int cli_run_init(cli_run *r, rc_pipeline *c, const char *cmd, const char *const *flags, int argc)
{
    memset(r, 0, sizeof *r);
    r->cmd = cmd, r->flags = flags, r->c = c;
    r->to = "native", r->on_error = "stop", r->on_loss = "stop", r->sink_url = "stdout", r->topic = "debezium";
    r->tomb = -1;
    r->flush_secs = 30;
    r->opts = (rc_options){r->opt_items, 0};
    c->opts = &r->opts;
    c->command = cmd;
    c->stop = &cli_stop_signal;
    c->include = calloc((size_t)argc + 1, sizeof *c->include);
    if (c->include) return EXIT_OK;
    fprintf(stderr, "rowcast %s: out of memory\n", cmd);
    return EXIT_IO;
}

void cli_run_fini(cli_run *r)
{
    for (size_t k = 0; k < r->opts.count; k++) rc_option_secret_free(r->secrets[k]), r->secrets[k] = NULL;
    free(r->c->include);
    r->c->include = NULL;
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

/* -o KEY=VALUE (or -oKEY=VALUE): a secret's value read from @FILE or env:NAME. */
static int take_option(cli_run *r, const char *kv_in)
{
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

bool cli_run_flag(cli_run *r, int argc, char **argv, int *i, int *rc)
{
    rc_pipeline *c = r->c;
    const char *a = argv[*i], *v;
    char *end;
    if ((v = cli_opt_value(argc, argv, i, "--include"))) {
        c->include[c->ninclude++] = (rc_include_pat){.pattern = v, .db_only = !strchr(v, '.')};
    } else if ((v = cli_opt_value(argc, argv, i, "--drop"))) {
        if (!parse_drop(v, &c->drop)) *rc = cli_run_usage_error(r, "--drop %s: kinds are ddl, truncate, heartbeat, transaction, snapshot", v);
    } else if (!strcmp(a, "--tombstones") || !strcmp(a, "--no-tombstones")) {
        r->tomb = a[2] == 't';
    } else if (!strcmp(a, "--keys")) {
        r->keys = true;
    } else if (!strcmp(a, "--records")) {
        r->records = true;
    } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
        c->quiet = true;
    } else if (!strcmp(a, "--progress") || !strncmp(a, "--progress=", 11)) {
        if (!rc_pipeline_progress_option(c, a[10] ? a + 11 : NULL))
            *rc = cli_run_usage_error(r, "%s: the interval is a whole number with ms, s, m or h (10s, 500ms), or 0 for a line "
                                         "after every batch of lines", a);
    } else if ((v = cli_opt_value(argc, argv, i, "--to"))) {
        r->to = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--on-error"))) {
        r->on_error = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--on-loss"))) {
        r->on_loss = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--sink"))) {
        r->sink_url = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--topic"))) {
        r->topic = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--server"))) {
        c->server = v, c->server_forced = true;
    } else if ((v = cli_opt_value(argc, argv, i, "--metrics"))) {
        rc_metrics_addr addr;
        rc_error aerr;
        rc_error_clear(&aerr);
        if (rc_metrics_addr_parse(v, &addr, &aerr) != RC_OK) *rc = cli_run_usage_error(r, "%s", aerr.message);
        c->metrics_addr = v;
    } else if ((v = cli_opt_value(argc, argv, i, "--flush-timeout"))) {
        r->flush_secs = strtol(v, &end, 10);
        if (*end || r->flush_secs < 0 || r->flush_secs > 86400)
            *rc = cli_run_usage_error(r, "--flush-timeout needs seconds (0..86400), got '%s'", v);
    } else if (!strcmp(a, "-o") || !strncmp(a, "-o", 2)) {
        *rc = take_option(r, a[2] ? a + 2 : (*i + 1 < argc ? argv[++*i] : NULL));
    } else {
        return false;
    }
    return true;
}

/* An unknown or unreadable format, with the closest registered name. */
static int format_error(const cli_run *r, const rc_format_name *f, const char *name, const char *cannot)
{
    const char *near = f ? NULL : rc_format_suggest(name);
    if (f) fprintf(stderr, "rowcast %s: format '%s' cannot be %s (rowcast formats)\n", r->cmd, f->name, cannot);
    else if (near) fprintf(stderr, "rowcast %s: unknown format '%s': did you mean '%s'? (rowcast formats)\n", r->cmd, name, near);
    else fprintf(stderr, "rowcast %s: unknown format '%s' (rowcast formats)\n", r->cmd, name);
    fprintf(stderr, "(see rowcast help %s)\n", r->cmd);
    return EXIT_USAGE;
}

/* Says why -o `key` belongs to neither format of this run (nor to the Kafka sink or the
 * source): an option of a sink that is not in use, of another format, or a typo of one of the
 * formats' options. */
static int foreign_option(const cli_run *r, const char *key)
{
    const rc_pipeline *c = r->c;
    char msg[512];
    size_t pl = strcspn(key, ".");
    char prefix[64];
    snprintf(prefix, sizeof prefix, "%.*s", (int)pl, key);
    const rc_format *other = key[pl] ? rc_format_find(prefix) : NULL;
    const rc_format_name *other_name = other ? rc_format_name_of(other, NULL, NULL) : NULL;
    rc_suggest sg;
    rc_suggest_init(&sg, key);
    for (const rc_option_desc *d = c->from ? c->from->options : NULL; d && d->key; d++) rc_suggest_offer(&sg, d->key);
    for (const rc_option_desc *d = c->to->options; d && d->key; d++) rc_suggest_offer(&sg, d->key);
    if (!strcmp(prefix, "kafka") && key[pl])
        snprintf(msg, sizeof msg, "-o %s is a Kafka sink option: add --sink kafka://HOST:PORT/TOPIC", key);
    else if (other && other != c->from && other != c->to && c->from)
        snprintf(msg, sizeof msg, "-o %s is an option of format %s, which is neither the input (--from %s) nor the output (--to %s)",
                 key, other_name ? other_name->name : other->name, r->from_name->name, r->to_name->name);
    else if (other && other != c->to)
        snprintf(msg, sizeof msg, "-o %s is an option of format %s, which is not the output (--to %s)", key,
                 other_name ? other_name->name : other->name, r->to_name->name);
    else if (sg.best)
        snprintf(msg, sizeof msg, "option '%s' belongs to neither the input nor the output format: did you mean '%s'?", key, sg.best);
    else
        snprintf(msg, sizeof msg, r->kafka ? "option '%s' belongs to neither the input nor the output format nor kafka"
                                           : "option '%s' belongs to neither the input nor the output format", key);
    return cli_run_usage_error(r, "%s", msg);
}

static bool has_prefix(const char *key, const char *name)
{
    size_t l = strlen(name);
    return !strncmp(key, name, l) && key[l] == '.';
}

/* The server name the user gives, --server or the output format's own <format>.server option
 * (debezium.server), is the topic prefix of every message and the format's server name too
 * (Debezium's topic.prefix is its source.name): the option wins, --server becomes it when the
 * format has one. Without either, {server} is each event's own, else "rowcast". */
static void server_name(cli_run *r)
{
    rc_pipeline *c = r->c;
    const char *key = NULL;
    for (const rc_option_desc *d = c->to->options; d && d->key; d++) {
        size_t n = strlen(d->key);
        if (n > 7 && !strcmp(d->key + n - 7, ".server")) key = d->key;
    }
    const char *v = key ? rc_options_get(&r->opts, key) : NULL;
    if (v) c->server = v, c->server_forced = true;
    else if (key && c->server_forced && r->opts.count < CLI_MAX_OPTS) r->opt_items[r->opts.count++] = (rc_option){key, c->server};
}

static int check_options(cli_run *r)
{
    rc_pipeline *c = r->c;
    for (size_t k = 0; k < r->opts.count; k++) {
        const char *key = r->opts.items[k].key;
        bool ok = (r->kafka && !strncmp(key, "kafka.", 6)) || (c->from && has_prefix(key, c->from->name)) || has_prefix(key, c->to->name);
        for (const char *const *p = r->source_prefixes; !ok && p && *p; p++) ok = !strncmp(key, *p, strlen(*p));
        if (!ok) return foreign_option(r, key);
    }
    return EXIT_OK;
}

/* The format `given` names for --from or --to (`flag`): an old spelling says what it is now. */
static const rc_format_name *format_name(const cli_run *r, const char *flag, const char *given)
{
    const rc_format_name *old;
    const rc_format_name *n = rc_format_lookup(given, &old);
    if (old) fprintf(stderr, "rowcast: %s %s is now %s (%s)\n", flag, old->name, n->name, old->summary);
    return n;
}

/* The options side `n`'s format reads: the run's, then the option its name fixes, which wins
 * as the last occurrence of a key does (so `--from oms-debezium --to debezium` reads OMS's
 * flavour and writes Debezium's). The user's own value of that key is for the other side, whose
 * format reads it too; else it contradicts the name. */
static int side_options(cli_run *r, const rc_format_name *n, const rc_format *other, rc_option *items, rc_options *out)
{
    memcpy(items, r->opts.items, r->opts.count * sizeof *items);
    *out = (rc_options){items, r->opts.count};
    if (!n->fixed_key) return EXIT_OK;
    const char *given = rc_options_get(&r->opts, n->fixed_key);
    if (given && strcmp(given, n->fixed_value) && !(other && has_prefix(n->fixed_key, other->name))) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s is %s with -o %s=%s: -o %s=%s contradicts it", n->name, n->format->name, n->fixed_key, n->fixed_value,
                 n->fixed_key, given);
        return cli_run_usage_error(r, "%s", msg);
    }
    items[out->count++] = (rc_option){n->fixed_key, n->fixed_value};
    return EXIT_OK;
}

static int open_sink(cli_run *r)
{
    rc_pipeline *c = r->c;
    rc_error err;
    rc_error_clear(&err);
    rc_sink_config cfg = {.layout = r->keys ? RC_LAYOUT_KEYS : r->records ? RC_LAYOUT_RECORDS : RC_LAYOUT_VALUES,
                          .binary = c->to->binary,
                          .dead_letter = c->dead,
                          .dead_path = c->dead_path,
                          .stop = &cli_stop_signal,
                          .wait_ms = (int)r->flush_secs * 1000,
                          .notice = rc_pipeline_sink_notice,
                          .notice_ctx = c};
    if (rc_sink_open(r->sink_url, &r->opts, &cfg, &c->sink, &err) != RC_OK) {
        fprintf(stderr, "rowcast %s: %s\n", r->cmd, err.message);
        return err.code == RC_ERR_USAGE ? EXIT_USAGE : EXIT_IO;
    }
    if (rc_sink_topic_template(c->sink)) {
        const char *tmpl;
        if (rc_topic_template(rc_sink_topic_template(c->sink), &tmpl, &err) != RC_OK) return cli_run_usage_error(r, "%s", err.message);
        c->topic_tmpl = tmpl;
    }
    return EXIT_OK;
}

/* --on-error and --on-loss: one dead-letter file for both, named by either (by both the same);
 * --on-loss=dead-letter alone takes --on-error's. */
static int failure_policies(cli_run *r)
{
    rc_pipeline *c = r->c;
    const char *oe = r->on_error, *ol = r->on_loss;
    if (!strcmp(oe, "stop")) c->on_error = RC_ON_STOP;
    else if (!strcmp(oe, "skip")) c->on_error = RC_ON_SKIP;
    else if (!strncmp(oe, "dead-letter:", 12) && oe[12]) c->on_error = RC_ON_DEAD, c->dead_path = oe + 12;
    else return cli_run_usage_error(r, "--on-error must be stop, skip or dead-letter:PATH, not '%s'", oe);
    if (!strcmp(ol, "stop")) c->on_loss = RC_LOSS_STOP;
    else if (!strcmp(ol, "skip")) c->on_loss = RC_LOSS_SKIP;
    else if (!strcmp(ol, "cut")) c->on_loss = RC_LOSS_CUT;
    else if (strncmp(ol, "dead-letter", 11) || (ol[11] && (ol[11] != ':' || !ol[12])))
        return cli_run_usage_error(r, "--on-loss must be stop, skip, dead-letter, dead-letter:PATH or cut, not '%s'", ol);
    else if (!ol[11] && !c->dead_path)
        return cli_run_usage_error(r, "--on-loss=dead-letter needs a dead-letter file: --on-loss=dead-letter:PATH, or "
                                      "--on-error=dead-letter:PATH%s", "");
    else if (ol[11] && c->dead_path && strcmp(c->dead_path, ol + 12))
        return cli_run_usage_error(r, "--on-error and --on-loss name two dead-letter files; a run writes one: give one "
                                      "PATH, or --on-loss=dead-letter to use --on-error's%s", "");
    else c->on_loss = RC_LOSS_DEAD, c->dead_path = ol[11] ? ol + 12 : c->dead_path;
    return EXIT_OK;
}

int cli_run_setup(cli_run *r)
{
    rc_pipeline *c = r->c;
    int rc = failure_policies(r);
    if (rc != EXIT_OK) return rc;
    r->kafka = !strncmp(r->sink_url, "kafka://", 8);
    if (r->keys && r->records) return cli_run_usage_error(r, "--keys and --records exclude each other%s", "");
    if (r->kafka && (r->keys || r->records))
        return cli_run_usage_error(r, "--keys and --records are layouts of stdout and file sinks, not of %s", r->sink_url);
    if (r->from) {
        r->from_name = format_name(r, "--from", r->from);
        c->from = r->from_name ? r->from_name->format : NULL;
        if (!c->from || !c->from->decode) return format_error(r, r->from_name, r->from, "read");
    }
    r->to_name = format_name(r, "--to", r->to);
    c->to = r->to_name ? r->to_name->format : NULL;
    if (!c->to || !c->to->encode_value) return format_error(r, r->to_name, r->to, "written");
    /* every -o key must belong to one of the formats, to the Kafka sink, or to the source */
    rc = check_options(r);
    if (rc != EXIT_OK) return rc;
    /* one Avro record per Kafka message: an object container per message makes no sense there */
    if (r->kafka && !strcmp(c->to->name, "avro") && !rc_options_get(&r->opts, "avro.framing") && r->opts.count < CLI_MAX_OPTS)
        r->opt_items[r->opts.count++] = (rc_option){"avro.framing", "raw"};
    server_name(r);
    rc_error err;
    rc_error_clear(&err);
    const char *tmpl;
    if (rc_topic_template(r->topic, &tmpl, &err) != RC_OK) return cli_run_usage_error(r, "%s", err.message);
    c->topic_tmpl = tmpl;
    if ((c->from && (rc = side_options(r, r->from_name, c->to, r->side_items[0], &r->from_opts)) != EXIT_OK) ||
        (rc = side_options(r, r->to_name, c->from, r->side_items[1], &r->to_opts)) != EXIT_OK)
        return rc;
    if (c->from) c->opts = &r->from_opts; /* the source's decoder and its hints read them */
    if ((c->from && c->from->dec_new(&r->from_opts, &c->dec, &err) != RC_OK) || c->to->enc_new(&r->to_opts, &c->enc, &err) != RC_OK) {
        fprintf(stderr, "rowcast %s: %s\n", r->cmd, err.message);
        return EXIT_USAGE;
    }
    if (c->dead_path && !(c->dead = fopen(c->dead_path, "a"))) {
        fprintf(stderr, "rowcast %s: cannot open dead-letter file %s: %s\n", r->cmd, c->dead_path, strerror(errno));
        return EXIT_IO;
    }
    return open_sink(r);
}

void cli_run_start(cli_run *r)
{
    rc_pipeline *c = r->c;
    c->need_keys = r->kafka || r->keys || r->records;
    c->routed = r->kafka || r->records;
    c->sink_stdout = !strcmp(r->sink_url, "stdout");
    c->tombstones = r->tomb < 0 ? r->kafka : r->tomb;
    c->flush_ms = r->flush_secs * 1000;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

void cli_run_close(cli_run *r)
{
    rc_pipeline *c = r->c;
    rc_sink_close(c->sink);
    c->sink = NULL;
    if (c->dead) fclose(c->dead);
    c->dead = NULL;
    if (c->dec) c->from->dec_free(c->dec);
    if (c->enc) c->to->enc_free(c->enc);
    c->dec = c->enc = NULL;
}
