/* Pipeline assembly: from what a run asks (rc_run_spec: the formats, the sink, the failure
 * policies, the -o options), the formats looked up, the -o keys checked, the server name and
 * topic set, the encoder (and decoder) made, the dead-letter file and the sink opened, into an
 * rc_pipeline. `convert`, `capture` and a config file share it; the command's name is in the
 * spec, so that messages say "rowcast capture: ...". */
#ifndef ROWCAST_PIPELINE_RUN_OPEN_H
#define ROWCAST_PIPELINE_RUN_OPEN_H

#include "rowcast/format.h"
#include "pipeline/pipeline.h"

enum { RC_RUN_MAX_OPTS = 128 };

typedef struct rc_run_spec {
    const char *cmd;       /* "convert", "capture" */
    const char *from, *to; /* format names (from NULL: a source that is no decoder's) */
    const char *on_error, *on_loss, *sink_url, *topic;
    int tomb;              /* --tombstones 1, --no-tombstones 0, -1: the sink's default */
    bool keys, records;
    long flush_secs;
    const char *source_prefix; /* the -o KEY prefix the source reads ("postgres"), NULL: none */
    const rc_options *opts;    /* the -o options (copied: the run adds to them) */
    bool check; /* only check (`--check`): everything but the dead-letter file and the sink opened */
    /* Where a value the run refuses came from, said before the message (NULL: the command line,
     * nothing said): "FILE:LINE: " of a config file's key in `out` (src/cli/config_file.h);
     * `key` is the flag (without --) or -o key the message is about, NULL: the one it names. */
    void (*origin)(const void *ctx, const char *key, const char *msg, char *out, size_t cap);
    const void *origin_ctx;
} rc_run_spec;

/* A run's assembly state; rc_run_close frees what it opened. */
typedef struct rc_run {
    rc_run_spec spec;
    rc_pipeline *c;
    bool kafka; /* the sink is kafka:// */
    rc_option opt_items[RC_RUN_MAX_OPTS];
    rc_options opts;
    /* the names --from and --to gave (rc_format_names), and the options each side's format
     * reads: opts, then the option its name fixes (oms-debezium's debezium.flavor=oms) */
    const rc_format_name *from_name, *to_name;
    rc_option side_items[2][RC_RUN_MAX_OPTS + 1];
    rc_options from_opts, to_opts;
} rc_run;

/* Fills `c` (its formats, encoder, decoder when spec->from, dead-letter file, sink, routing)
 * from `spec`: RC_EXIT_OK, or the exit status after a message on stderr. c->opts points at the
 * run's options. Call rc_run_close either way. */
int rc_run_open(rc_run *r, const rc_run_spec *spec, rc_pipeline *c);
/* Closes the sink, the dead-letter file and the formats' states; a run never opened (zeroed)
 * is a no-op. */
void rc_run_close(rc_run *r);
/* The pieces of rc_run_open that rc_pipeline_new (the public API, pipeline_api.c) shares:
 * the decoder (when c->from) and the encoder made with their options (RC_OK, or the format's
 * error); both freed (and NULL); the keys and tombstones the sink wants: keys for Kafka and the
 * KEYS and RECORDS layouts, routing for Kafka and RECORDS, tombstones as `tomb` says (1, 0; -1:
 * for Kafka only). */
rc_status rc_run_formats_new(rc_pipeline *c, const rc_options *from_opts, const rc_options *to_opts, rc_error *err);
void rc_run_formats_free(rc_pipeline *c);
void rc_run_routing(rc_pipeline *c, bool kafka, rc_sink_layout layout, int tomb);
/* Tells the encoder the topic template (rc_format.set_topics), once the sink has said its own. */
void rc_run_topics(rc_pipeline *c);
/* "rowcast CMD: <msg>" on stderr, after where the value of `key` (NULL: of the flag or option
 * `msg` names) came from when spec->origin knows it; then "(see rowcast help CMD)" when `see`.
 * Returns `status`. */
int rc_run_say(const rc_run_spec *spec, int status, bool see, const char *key, const char *msg);

#endif
