/* The source registry: picks the source of a run by its URLs' scheme, as sink.c picks sinks.
 * A URL without a scheme of a registered source (a file path, "-" for stdin) is the lines
 * source's. PostgreSQL: postgres:// and postgresql://; MySQL/MariaDB: mysql:// and mariadb://. A
 * source the command names (`convert --from mysql-binlog`: binlog files) is found by its name. */
#include <string.h>
#include "rowcast/source.h"
#include "sources/mysql/my_binlog_file.h"
#include "sources/mysql/my_source.h"
#include "sources/pg/pg_source.h"
#include "sources/prefetch.h"

static const rc_source_ops *const all_sources[] = {&rc_source_lines, &rc_source_postgres, &rc_source_postgresql,
                                                   &rc_source_mysql, &rc_source_mariadb};
/* sources chosen by name (rc_source_config.source), not by URL */
static const rc_source_ops *const named_sources[] = {&rc_source_mysql_binlog};

const rc_source_ops *rc_source_find(const char *url)
{
    const rc_source_ops *plain = NULL;
    for (size_t i = 0; i < sizeof all_sources / sizeof *all_sources; i++) {
        const rc_source_ops *o = all_sources[i];
        if (!o->scheme) plain = o;
        else if (!strncmp(url, o->scheme, strlen(o->scheme))) return o;
    }
    return plain;
}

rc_status rc_source_open(const rc_source_config *cfg, const rc_pos *resume, rc_source **out, rc_error *err)
{
    const rc_source_ops *ops = NULL;
    for (size_t i = 0; cfg->source && i < sizeof named_sources / sizeof *named_sources; i++)
        if (!strcmp(named_sources[i]->name, cfg->source)) ops = named_sources[i];
    if (cfg->source && !ops) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "no source is named %s", cfg->source);
    if (!ops) ops = rc_source_find(cfg->nurls ? cfg->urls[0] : "-");
    if (!ops) return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET, "no source reads %s", cfg->urls[0]);
    /* a source that lends two batches at once is read on a thread of its own (prefetch.c); the
     * lines source has its own */
    if (cfg->threaded && ops->two_batches) return rc_source_prefetch_open(ops, cfg, resume, out, err);
    return ops->open(cfg, resume, out, err);
}
