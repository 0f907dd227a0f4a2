/* The pipeline, for a program that embeds rowcast: reads the messages of one format from files
 * (or stdin), one a line, and writes each change event they hold as the messages of another
 * format to a sink the program opened, as `rowcast convert --from F --to T [FILE...]` does;
 * its summary goes to stderr unless quiet. An opaque handle: its configuration is the struct
 * below, the run's state is the library's own (src/pipeline/pipeline.h).
 *
 *     rc_pipeline_config cfg = {.from = rc_format_find("native"), .to = rc_format_find("canal"),
 *                               .inputs = files, .ninputs = n, .sink = sink, .quiet = true};
 *     rc_pipeline *p;
 *     if (rc_pipeline_new(&cfg, &p, &err) == RC_OK) status = rc_pipeline_run(p);
 *     rc_pipeline_free(p);
 *     rc_sink_close(sink);
 */
#ifndef ROWCAST_PIPELINE_H
#define ROWCAST_PIPELINE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "rowcast/api.h"
#include "rowcast/error.h"
#include "rowcast/format.h"
#include "rowcast/sink.h"

typedef struct rc_pipeline rc_pipeline;

typedef struct rc_pipeline_config {
    const char *name;            /* messages say "rowcast NAME: ..." (NULL: "convert") */
    const rc_format *from;       /* the input's format: it must decode (rc_format_find) */
    const rc_format *to;         /* the output's format: it must encode */
    const rc_options *from_opts; /* the options each format reads ("canal.flavor", ...; NULL: none) */
    const rc_options *to_opts;
    const char *const *inputs;   /* files of one message a line, "-" for stdin (none: stdin) */
    size_t ninputs;
    rc_sink *sink;               /* where the messages go, opened by the program (rc_sink_open) */
    rc_sink_layout layout;       /* the layout the sink was opened with (keys are made for KEYS, RECORDS) */
    volatile sig_atomic_t *stop; /* set (by a signal handler) to stop the run; NULL: runs to the end */
    bool quiet;                  /* no summary on stderr */
} rc_pipeline_config;

/* A pipeline for cfg: the formats' decoder and encoder made with their options, the sink's
 * topic template read. cfg's strings, options, inputs and sink are borrowed: they must outlive
 * the pipeline. RC_ERR_USAGE for a format that cannot decode or encode or a missing sink;
 * the formats' own errors (an unknown option value). *out is NULL on an error. */
RC_API rc_status rc_pipeline_new(const rc_pipeline_config *cfg, rc_pipeline **out, rc_error *err);
/* Runs to the end of the inputs (or *stop, or a failure), flushes the sink, prints the summary
 * unless quiet: the exit status `rowcast convert` would have (0: all converted; docs/cli.md). */
RC_API int rc_pipeline_run(rc_pipeline *p);
/* Frees the pipeline and the formats' states; not the sink (rc_sink_close, after this). NULL:
 * nothing. */
RC_API void rc_pipeline_free(rc_pipeline *p);

#endif
