/* Pipeline assembly (run_open.h): what `convert` and `capture` (and a config file) share. */
#include "pipeline/run_open.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "core/names.h"
#include "pipeline_impl.h"
#include "sinks/kafka_dead_letter.h"
#include "sinks/sink_txn.h"
#include "core/log.h"

int rc_run_say(const rc_run_spec *spec, int status, bool see, const char *key, const char *msg)
{
    char at[400] = "";
    if (spec->origin) spec->origin(spec->origin_ctx, key, msg, at, sizeof at);
    rc_logf("rowcast %s: %s%s\n", spec->cmd, at, msg);
    if (see) rc_logf("(see rowcast help %s)\n", spec->cmd);
    return status;
}

/* A usage error about the value of `key` (NULL: the flag or option the message names). */
static int run_usage_at(const rc_run *r, const char *key, const char *fmt, const char *arg)
{
    char msg[768];
    snprintf(msg, sizeof msg, fmt, arg);
    return rc_run_say(&r->spec, RC_EXIT_USAGE, true, key, msg);
}

/* A usage error about the flag or option the message names. */
static int run_usage(const rc_run *r, const char *fmt, const char *arg)
{
    return run_usage_at(r, NULL, fmt, arg);
}

/* The spec, and a copy of its options that the run may add to (avro.framing, the format's
 * server option). */
static void run_init(rc_run *r, const rc_run_spec *spec, rc_pipeline *c)
{
    memset(r, 0, sizeof *r);
    r->spec = *spec, r->c = c;
    c->origin = spec->origin, c->origin_ctx = spec->origin_ctx; /* for the source's errors */
    size_t n = spec->opts && spec->opts->count < RC_RUN_MAX_OPTS ? spec->opts->count : RC_RUN_MAX_OPTS;
    if (n) memcpy(r->opt_items, spec->opts->items, n * sizeof *r->opt_items);
    r->opts = (rc_options){r->opt_items, n};
    c->opts = &r->opts;
}

/* An unknown or unreadable format of `key` (from, to), with the closest registered name. */
static int format_error(const rc_run *r, const char *key, const rc_format_name *f, const char *name, const char *cannot)
{
    const char *near = f ? NULL : rc_format_suggest(name);
    char msg[512];
    if (f) snprintf(msg, sizeof msg, "format '%s' cannot be %s (rowcast formats)", f->name, cannot);
    else if (near) snprintf(msg, sizeof msg, "unknown format '%s': did you mean '%s'? (rowcast formats)", name, near);
    else snprintf(msg, sizeof msg, "unknown format '%s' (rowcast formats)", name);
    return rc_run_say(&r->spec, RC_EXIT_USAGE, true, key, msg);
}

/* Says why -o `key` belongs to neither format of this run (nor to the Kafka sink or the
 * source): an option of a sink that is not in use, of another format, or a typo of one of the
 * formats' options. */
static int foreign_option(const rc_run *r, const char *key)
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
    return run_usage_at(r, key, "%s", msg);
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
static void server_name(rc_run *r)
{
    rc_pipeline *c = r->c;
    const char *key = NULL;
    for (const rc_option_desc *d = c->to->options; d && d->key; d++) {
        size_t n = strlen(d->key);
        if (n > 7 && !strcmp(d->key + n - 7, ".server")) key = d->key;
    }
    const char *v = key ? rc_options_get(&r->opts, key) : NULL;
    if (v) c->server = v, c->server_forced = true;
    else if (key && c->server_forced && r->opts.count < RC_RUN_MAX_OPTS) r->opt_items[r->opts.count++] = (rc_option){key, c->server};
}

static int check_options(rc_run *r)
{
    rc_pipeline *c = r->c;
    for (size_t k = 0; k < r->opts.count; k++) {
        const char *key = r->opts.items[k].key;
        bool ok = ((r->kafka || c->dead_url) && !strncmp(key, "kafka.", 6)) || (c->from && has_prefix(key, c->from->name)) || has_prefix(key, c->to->name);
        ok = ok || (r->spec.source_prefix && has_prefix(key, r->spec.source_prefix));
        if (!ok) return foreign_option(r, key);
    }
    return RC_EXIT_OK;
}

/* The format `given` names for --from or --to (`flag`): an old spelling says what it is now. */
static const rc_format_name *format_name(const rc_run *r, const char *flag, const char *given)
{
    const rc_format_name *old;
    const rc_format_name *n = rc_format_lookup(given, &old);
    if (old) rc_logf("rowcast: %s %s is now %s (%s)\n", flag, old->name, n->name, old->summary);
    return n;
}

/* The options side `n`'s format reads: the run's, then the option its name fixes, which wins
 * as the last occurrence of a key does (so `--from oms-debezium --to debezium` reads OMS's
 * flavour and writes Debezium's). The user's own value of that key is for the other side, whose
 * format reads it too; else it contradicts the name. */
static int side_options(rc_run *r, const rc_format_name *n, const rc_format *other, rc_option *items, rc_options *out)
{
    memcpy(items, r->opts.items, r->opts.count * sizeof *items);
    *out = (rc_options){items, r->opts.count};
    if (!n->fixed_key) return RC_EXIT_OK;
    const char *given = rc_options_get(&r->opts, n->fixed_key);
    if (given && strcmp(given, n->fixed_value) && !(other && has_prefix(n->fixed_key, other->name))) {
        char msg[256];
        snprintf(msg, sizeof msg, "%s is %s with -o %s=%s: -o %s=%s contradicts it", n->name, n->format->name, n->fixed_key, n->fixed_value,
                 n->fixed_key, given);
        return run_usage_at(r, n->fixed_key, "%s", msg);
    }
    items[out->count++] = (rc_option){n->fixed_key, n->fixed_value};
    return RC_EXIT_OK;
}

static rc_sink_layout sink_layout(const rc_run_spec *spec)
{
    return spec->keys ? RC_LAYOUT_KEYS : spec->records ? RC_LAYOUT_RECORDS : RC_LAYOUT_VALUES;
}

static int open_sink(rc_run *r)
{
    rc_pipeline *c = r->c;
    rc_error err;
    rc_error_clear(&err);
    rc_sink_config cfg = {.layout = sink_layout(&r->spec),
                          .binary = c->to->binary,
                          .dead_letter = c->dead,
                          .dead_path = c->dead_path,
                          .stop = c->stop,
                          .wait_ms = (int)r->spec.flush_secs * 1000,
                          .notice = rc_pipeline_sink_notice,
                          .notice_ctx = c};
    if (rc_sink_open_named(r->spec.sink_url, &r->opts, &cfg, c->server_forced ? c->server : NULL, &c->sink, &err) != RC_OK) {
        return rc_run_say(&r->spec, err.code == RC_ERR_USAGE ? RC_EXIT_USAGE : RC_EXIT_IO, false, "sink", err.message);
    }
    if (rc_sink_topic_template(c->sink)) {
        const char *tmpl;
        if (rc_topic_template(rc_sink_topic_template(c->sink), &tmpl, &err) != RC_OK) return run_usage_at(r, "sink", "%s", err.message);
        c->topic_tmpl = tmpl;
    }
    return RC_EXIT_OK;
}

/* --on-error and --on-loss: one dead-letter file for both, named by either (by both the same);
 * --on-loss=dead-letter alone takes --on-error's. */
static int failure_policies(rc_run *r)
{
    rc_pipeline *c = r->c;
    const char *oe = r->spec.on_error, *ol = r->spec.on_loss;
    if (!strcmp(oe, "stop")) c->on_error = RC_ON_STOP;
    else if (!strcmp(oe, "skip")) c->on_error = RC_ON_SKIP;
    else if (!strncmp(oe, "dead-letter:", 12) && rc_dead_kafka_is(oe + 12)) c->on_error = RC_ON_DEAD, c->dead_url = oe + 12;
    else if (!strncmp(oe, "dead-letter:", 12) && oe[12]) c->on_error = RC_ON_DEAD, c->dead_path = oe + 12;
    else return run_usage_at(r, "on-error", "--on-error must be stop, skip or dead-letter:PATH, not '%s'", oe);
    if (!strcmp(ol, "stop")) c->on_loss = RC_LOSS_STOP;
    else if (!strcmp(ol, "skip")) c->on_loss = RC_LOSS_SKIP;
    else if (!strcmp(ol, "cut")) c->on_loss = RC_LOSS_CUT;
    else if (strncmp(ol, "dead-letter", 11) || (ol[11] && (ol[11] != ':' || !ol[12])))
        return run_usage_at(r, "on-loss", "--on-loss must be stop, skip, dead-letter, dead-letter:PATH or cut, not '%s'", ol);
    else if (!ol[11] && !c->dead_path)
        return run_usage_at(r, "on-loss", "--on-loss=dead-letter needs a dead-letter file: --on-loss=dead-letter:PATH, or "
                                      "--on-error=dead-letter:PATH%s", "");
    else if (ol[11] && c->dead_path && strcmp(c->dead_path, ol + 12))
        return run_usage_at(r, "on-loss", "--on-error and --on-loss name two dead-letter files; a run writes one: give one "
                                      "PATH, or --on-loss=dead-letter to use --on-error's%s", "");
    else c->on_loss = RC_LOSS_DEAD, c->dead_path = ol[11] ? ol + 12 : c->dead_path;
    return RC_EXIT_OK;
}

int rc_run_open(rc_run *r, const rc_run_spec *spec, rc_pipeline *c)
{
    run_init(r, spec, c);
    int rc = failure_policies(r);
    if (rc != RC_EXIT_OK) return rc;
    r->kafka = !strncmp(r->spec.sink_url, "kafka://", 8);
    if (r->spec.keys && r->spec.records) return run_usage_at(r, "records", "--keys and --records exclude each other%s", "");
    if (r->kafka && (r->spec.keys || r->spec.records))
        return run_usage_at(r, "sink", "--keys and --records are layouts of stdout and file sinks, not of %s", r->spec.sink_url);
    if (r->spec.from) {
        r->from_name = format_name(r, "--from", r->spec.from);
        c->from = r->from_name ? r->from_name->format : NULL;
        if (!c->from || !c->from->decode) return format_error(r, "from", r->from_name, r->spec.from, "read");
    }
    r->to_name = format_name(r, "--to", r->spec.to);
    c->to = r->to_name ? r->to_name->format : NULL;
    if (!c->to || !c->to->encode_value) return format_error(r, "to", r->to_name, r->spec.to, "written");
    const char *eos_opt = rc_options_get(&r->opts, "kafka.exactly_once"); /* --exactly-once (kafka_tail.h) */
    bool eos = eos_opt && !strcmp(eos_opt, "true");
    if (eos && !r->kafka) return run_usage(r, "--exactly-once is into Kafka: give --sink kafka://HOST:PORT/TOPIC (not %s)", r->spec.sink_url);
    if (c->standby && !eos)
        return run_usage(r, "--standby needs --exactly-once: the fence against an old leader is the exactly-once sink's "
                            "transactional producer%s", "");
    /* every -o key must belong to one of the formats, to the Kafka sink, or to the source */
    rc = check_options(r);
    if (rc != RC_EXIT_OK) return rc;
    const char *order = rc_options_get(&r->opts, "kafka.order.header"); /* the rowcast.eos header */
    if (order && strcmp(order, "true") && strcmp(order, "false"))
        return run_usage_at(r, "kafka.order.header", "-o kafka.order.header=%s: true or false", order);
    c->order_header = (order && !strcmp(order, "true")) || eos;
    /* one Avro record per Kafka message: an object container per message makes no sense there */
    if (r->kafka && !strcmp(c->to->name, "avro") && !rc_options_get(&r->opts, "avro.framing") && r->opts.count < RC_RUN_MAX_OPTS)
        r->opt_items[r->opts.count++] = (rc_option){"avro.framing", "raw"};
    server_name(r);
    if (eos && !c->server_forced)
        return run_usage_at(r, "exactly-once", "--exactly-once needs --server NAME: the name is the capture's identity in Kafka (its records' "
                            "order keys and its transactional.id rowcast.NAME)%s", "");
    rc_error err;
    rc_error_clear(&err);
    const char *tmpl;
    if (rc_topic_template(r->spec.topic, &tmpl, &err) != RC_OK) return run_usage_at(r, "topic", "%s", err.message);
    c->topic_tmpl = tmpl;
    if ((c->from && (rc = side_options(r, r->from_name, c->to, r->side_items[0], &r->from_opts)) != RC_EXIT_OK) ||
        (rc = side_options(r, r->to_name, c->from, r->side_items[1], &r->to_opts)) != RC_EXIT_OK)
        return rc;
    if (c->from) c->opts = &r->from_opts; /* the source's decoder and its hints read them */
    if (rc_run_formats_new(c, &r->from_opts, &r->to_opts, &err) != RC_OK) /* an option's value, which the message names */
        return rc_run_say(&r->spec, RC_EXIT_USAGE, false, NULL, err.message);
    if (r->spec.check && rc_sink_check(r->spec.sink_url, &r->opts, &err) != RC_OK) /* nothing opened, nothing connected to */
        return rc_run_say(&r->spec, RC_EXIT_USAGE, false, "sink", err.message);
    if (r->spec.check) return RC_EXIT_OK;
    if (c->dead_path && !(c->dead = fopen(c->dead_path, "a"))) {
        char msg[4400];
        snprintf(msg, sizeof msg, "cannot open dead-letter file %s: %s", c->dead_path, strerror(errno));
        return rc_run_say(&r->spec, RC_EXIT_IO, false, r->spec.on_error && strstr(r->spec.on_error, c->dead_path) ? "on-error" : "on-loss", msg);
    }
    if (c->dead_url && rc_dead_kafka_open(c->dead_url, &r->opts, c->stop, &c->dead_kafka, &err) != RC_OK)
        return rc_run_say(&r->spec, err.code == RC_ERR_USAGE ? RC_EXIT_USAGE : RC_EXIT_IO, false, "on-error", err.message);
    if (c->standby && (rc = rc_pipeline_standby(c, &r->opts)) != RC_EXIT_OK) return rc; /* before the sink fences the leader */
    if ((rc = open_sink(r)) != RC_EXIT_OK) return rc;
    rc_run_routing(c, r->kafka, sink_layout(&r->spec), r->spec.tomb);
    rc_run_topics(c);
    c->sink_stdout = !strcmp(r->spec.sink_url, "stdout");
    c->flush_ms = r->spec.flush_secs * 1000;
    return RC_EXIT_OK;
}

void rc_run_close(rc_run *r)
{
    rc_pipeline *c = r->c;
    if (!c) return; /* never opened */
    rc_sink_close(c->sink);
    c->sink = NULL;
    if (c->dead) fclose(c->dead);
    c->dead = NULL;
    rc_dead_kafka_close(c->dead_kafka);
    c->dead_kafka = NULL;
    rc_run_formats_free(c);
}

rc_status rc_run_formats_new(rc_pipeline *c, const rc_options *from_opts, const rc_options *to_opts, rc_error *err)
{
    if (c->from && c->from->dec_new(from_opts, &c->dec, err) != RC_OK) return err->code;
    return c->to->enc_new(to_opts, &c->enc, err);
}

void rc_run_formats_free(rc_pipeline *c)
{
    if (c->dec) c->from->dec_free(c->dec);
    if (c->enc) c->to->enc_free(c->enc);
    c->dec = c->enc = NULL;
}

void rc_run_topics(rc_pipeline *c)
{
    if (c->enc && c->to->set_topics) c->to->set_topics(c->enc, c->topic_tmpl);
}

void rc_run_routing(rc_pipeline *c, bool kafka, rc_sink_layout layout, int tomb)
{
    c->need_keys = kafka || layout != RC_LAYOUT_VALUES;
    c->routed = kafka || layout == RC_LAYOUT_RECORDS;
    c->tombstones = tomb < 0 ? kafka : tomb;
}
