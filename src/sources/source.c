/* The source registry: picks the source of a run by its URLs' scheme, as sink.c picks sinks.
 * A URL without a scheme of a registered source (a file path, "-" for stdin) is the lines
 * source's. Each source declares its schemes (PostgreSQL: postgres:// and postgresql://;
 * MySQL/MariaDB: mysql:// and mariadb://), and for `capture` its options, flags and checks
 * (src/sources/NAME/NAME_source_decl.c). A source the command names (`convert --from
 * mysql-binlog`: binlog files) is found by its name. Adding a source: one line here. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "rowcast/source.h"
#include "sources/kafka/kafka_source.h"
#include "sources/mysql/my_binlog_file.h"
#include "sources/mysql/my_source.h"
#include "sources/pg/pg_conn.h"
#include "sources/pg/pg_source.h"
#include "sources/prefetch.h"

static const rc_source_ops *const all_sources[] = {&rc_source_lines, &rc_source_postgres, &rc_source_mysql, &rc_source_kafka};
/* sources chosen by name (rc_source_config.source), not by URL */
static const rc_source_ops *const named_sources[] = {&rc_source_mysql_binlog};
enum { NSOURCES = sizeof all_sources / sizeof *all_sources };

static bool listed(const char *const *list, const char *s)
{
    for (; list && *list; list++)
        if (!strcmp(*list, s)) return true;
    return false;
}

const rc_source_ops *rc_source_find(const char *url)
{
    const rc_source_ops *plain = NULL;
    for (size_t i = 0; i < NSOURCES; i++) {
        const rc_source_ops *o = all_sources[i];
        if (!o->schemes) plain = o;
        for (const char *const *s = o->schemes; s && *s; s++)
            if (!strncmp(url, *s, strlen(*s))) return o;
    }
    return plain;
}

/* The last flag given that another source reads and this one does not. */
static const char *refused_flag(const rc_source_ops *ops, const char *const *given)
{
    const char *refused = NULL;
    for (; given && *given; given++)
        for (size_t i = 0; i < NSOURCES; i++)
            if (all_sources[i] != ops && listed(all_sources[i]->flags, *given) && !listed(ops->flags, *given)) refused = *given;
    return refused;
}

/* An -o key of the source's prefix that its table lacks: refused with the list of them, where
 * the formats' "did you mean" sends the user to `rowcast formats --options`, which does not
 * list these. */
static rc_status unknown_option(const rc_source_ops *ops, const rc_options *opts, rc_error *err)
{
    size_t pl = ops->option_prefix ? strlen(ops->option_prefix) : 0;
    for (size_t k = 0; pl && opts && k < opts->count; k++) {
        const char *key = opts->items[k].key;
        const rc_option_desc *d = ops->options;
        while (d && d->key && strcmp(d->key, key)) d++;
        if (strncmp(key, ops->option_prefix, pl) || key[pl] != '.' || (d && d->key)) continue;
        char list[400] = ""; /* every key of the table (PostgreSQL: about 290 bytes), within err->message */
        for (d = ops->options; d && d->key; d++) {
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s%s", d == ops->options ? "" : ", ", d->key);
        }
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "unknown source option '%s': %s", key, list);
    }
    return RC_OK;
}

/* An -o key of another source's prefix. */
static const char *foreign_option(const rc_source_ops *ops, const rc_options *opts)
{
    for (size_t k = 0; opts && k < opts->count; k++)
        for (size_t i = 0; i < NSOURCES; i++) {
            const char *p = all_sources[i]->option_prefix, *key = opts->items[k].key;
            if (all_sources[i] != ops && p && !strncmp(key, p, strlen(p)) && key[strlen(p)] == '.') return key;
        }
    return NULL;
}

/* --until: caught-up, or a position of this source's kind. */
static rc_status until(const rc_source_ops *ops, rc_capture_config *cc, rc_error *err)
{
    if (!cc->until) return RC_OK;
    if (!strcmp(cc->until, "caught-up")) return cc->until_caught_up = true, RC_OK;
    if (ops->position_parse && ops->position_parse(cc->until, &cc->until_lsn)) return RC_OK;
    uint64_t pos;
    for (size_t i = 0; ops->until_refused && i < NSOURCES; i++)
        if (all_sources[i]->position_parse && all_sources[i]->position_parse(cc->until, &pos))
            return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "%s", ops->until_refused);
    return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "--until is caught-up or an LSN such as 0/16B3748, not '%s'", cc->until);
}

rc_status rc_source_check(const rc_source_ops *ops, const char *const *given, rc_capture_config *cc, const rc_options *opts,
                          rc_error *err)
{
    const char *flag = refused_flag(ops, given), *key = foreign_option(ops, opts);
    if (flag) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, ops->flag_refused, flag);
    if (key && !ops->option_refused) /* a source that says nothing of the others' options */
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "-o %s is an option of another source, not of %s", key, ops->name);
    if (key) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, ops->option_refused, key);
    rc_status st = until(ops, cc, err);
    if (st == RC_OK && ops->validate) st = ops->validate(cc, opts, err);
    if (st == RC_OK) st = unknown_option(ops, opts, err);
    if (st != RC_OK || !ops->options) return st;
    _Alignas(max_align_t) unsigned char parsed[256] = {0}; /* the source's options struct (0: its defaults) */
    if (ops->options_size > sizeof parsed) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "source %s: options too large", ops->name);
    if ((st = rc_options_parse(opts, ops->option_prefix, ops->options, parsed, err)) != RC_OK) return st;
    ops->configure(cc, parsed);
    return RC_OK;
}

void rc_source_url_shown(const char *url, char *out, size_t cap)
{
    snprintf(out, cap, "%s", url);
    rc_pg_url_mask(url, out, cap); /* user:PASSWORD@ and password= as *** */
}

const rc_source_ops *rc_source_lookup(const char *name, const char *url)
{
    for (size_t i = 0; name && i < sizeof named_sources / sizeof *named_sources; i++)
        if (!strcmp(named_sources[i]->name, name)) return named_sources[i];
    return name ? NULL : rc_source_find(url);
}

rc_status rc_source_open(const rc_source_config *cfg, const rc_pos *resume, rc_source **out, rc_error *err)
{
    const rc_source_ops *ops = rc_source_lookup(cfg->source, cfg->nurls ? cfg->urls[0] : "-");
    if (cfg->source && !ops) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "no source is named %s", cfg->source);
    if (!ops) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "no source reads %s", cfg->urls[0]);
    /* a source that lends two batches at once is read on a thread of its own (prefetch.c); the
     * lines source has its own */
    if (cfg->threaded && ops->two_batches) return rc_source_prefetch_open(ops, cfg, resume, out, err);
    return ops->open(cfg, resume, out, err);
}
