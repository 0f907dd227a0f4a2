/* The public pipeline (rowcast/pipeline.h): an opaque rc_pipeline made from an
 * rc_pipeline_config, for programs that embed rowcast. The CLI fills the full struct itself
 * (src/cli/run_opts.c); this file does for a program what its setup does for a command line:
 * the formats' states, the topic template, the keys and tombstones a Kafka sink wants, with
 * the pieces of rc_run_open (run_open.c) that make them. */
#include <stdlib.h>
#include <string.h>
#include "pipeline/pipeline.h"
#include "pipeline/run_open.h"

static volatile sig_atomic_t never_stopped;
static const char *const stdin_only[] = {"-"};
static const rc_options no_options = {NULL, 0};

static rc_status check_config(const rc_pipeline_config *cfg, rc_error *err)
{
    if (!cfg->from || !cfg->from->decode)
        return rc_error_set(err, RC_ERR_USAGE, 0, "rc_pipeline_new: .from must be a format that decodes (%s)",
                            cfg->from ? cfg->from->name : "NULL");
    if (!cfg->to || !cfg->to->encode_value)
        return rc_error_set(err, RC_ERR_USAGE, 0, "rc_pipeline_new: .to must be a format that encodes (%s)",
                            cfg->to ? cfg->to->name : "NULL");
    if (!cfg->sink) return rc_error_set(err, RC_ERR_USAGE, 0, "rc_pipeline_new: .sink must be an open sink (NULL)");
    return RC_OK;
}

/* The configuration into p, as the CLI's setup and start fill it (src/cli/run_opts.c). */
static rc_status configure(rc_pipeline *p, const rc_pipeline_config *cfg, rc_error *err)
{
    bool kafka = rc_sink_is_kafka(cfg->sink);
    if (cfg->name) p->command = cfg->name;
    p->from = cfg->from, p->to = cfg->to;
    p->opts = cfg->from_opts ? cfg->from_opts : &no_options;
    p->files = cfg->ninputs ? (const char **)cfg->inputs : (const char **)stdin_only;
    p->nfiles = cfg->ninputs ? cfg->ninputs : 1;
    p->sink = cfg->sink;
    p->sink_stdout = !kafka; /* perhaps stdout: no progress line unless asked, as convert to stdout */
    rc_run_routing(p, kafka, cfg->layout, -1);
    p->quiet = cfg->quiet;
    p->stop = cfg->stop ? cfg->stop : &never_stopped;
    const char *tmpl = rc_sink_topic_template(cfg->sink);
    if (rc_topic_template(tmpl ? tmpl : "debezium", &p->topic_tmpl, err) != RC_OK) return err->code;
    if (rc_run_formats_new(p, p->opts, cfg->to_opts ? cfg->to_opts : &no_options, err) != RC_OK) return err->code;
    rc_run_topics(p);
    return RC_OK;
}

rc_status rc_pipeline_new(const rc_pipeline_config *cfg, rc_pipeline **out, rc_error *err)
{
    *out = NULL;
    if (check_config(cfg, err) != RC_OK) return err->code;
    rc_pipeline *p = aligned_alloc(_Alignof(rc_pipeline), sizeof *p);
    if (!p) return rc_error_set(err, RC_ERR_IO, 0, "rc_pipeline_new: out of memory");
    rc_pipeline_init(p);
    if (configure(p, cfg, err) != RC_OK) {
        rc_pipeline_free(p);
        return err->code;
    }
    *out = p;
    return RC_OK;
}

void rc_pipeline_free(rc_pipeline *p)
{
    if (!p) return;
    rc_pipeline_fini(p);
    rc_run_formats_free(p);
    free(p);
}
