/* A program of a user of the installed library, as use_rowcast.c, through the opaque pipeline
 * (rowcast/pipeline.h) only: converts FILE (native events, one a line) to a few formats on the
 * library's stdout sink, as `rowcast convert -q --from native --to FORMAT FILE` does, then
 * shows the error of a configuration the pipeline refuses. install_test.sh compares its output
 * with use_pipeline.out and (but the last line) with what the installed rowcast writes. */
#include <stdio.h>
#include "rowcast/error.h"
#include "rowcast/format.h"
#include "rowcast/pipeline.h"
#include "rowcast/sink.h"

/* FILE from native to `to` (with options `opts`) on stdout: the pipeline's exit status, or 1
 * after saying why the pipeline was not made. */
static int convert(const char *file, const char *to, const rc_options *opts)
{
    const rc_options none = {NULL, 0};
    const rc_sink_config scfg = {.layout = RC_LAYOUT_VALUES};
    rc_error err;
    rc_error_clear(&err);
    rc_sink *sink;
    if (rc_sink_open("stdout", &none, &scfg, &sink, &err) != RC_OK) {
        printf("use_pipeline: %s\n", err.message);
        return 1;
    }
    const char *inputs[] = {file};
    const rc_pipeline_config cfg = {.name = "use_pipeline",
                                    .from = rc_format_find("native"),
                                    .to = rc_format_find(to),
                                    .to_opts = opts,
                                    .inputs = inputs,
                                    .ninputs = 1,
                                    .sink = sink,
                                    .layout = scfg.layout,
                                    .quiet = true};
    rc_pipeline *p;
    int rc = 1;
    if (rc_pipeline_new(&cfg, &p, &err) == RC_OK)
        rc = rc_pipeline_run(p);
    else
        printf("use_pipeline: %s\n", err.message);
    rc_pipeline_free(p);
    rc_sink_close(sink);
    fflush(stdout);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: use_pipeline FILE\n");
        return 2;
    }
    const rc_option up[] = {{"debezium.bigint.unsigned.handling.mode", "precise"}};
    const rc_options upstream = {up, 1};
    if (convert(argv[1], "canal", NULL) || convert(argv[1], "debezium", &upstream)) return 1;
    /* no format of that name: refused, the message says which field */
    return convert(argv[1], "no-such-format", NULL) == 1 ? 0 : 1;
}
