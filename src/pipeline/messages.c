/* What comes before a message on stderr during a run: the progress line cleared, and the cap on
 * the errors shown. A file of its own, which references no other, so that the files that say
 * something (output.c, loss.c, checkpoint.c, slot_state.c, pipeline.c) and report.c, which
 * draws the progress line, do not reference each other through it. */
#include <stdio.h>
#include "pipeline_impl.h"
#include "core/log.h"

void rc_pipeline_progress_clear(rc_pipeline *c)
{
    if (!c->progress_drawn) return;
    fputs("\r\033[K", stderr);
    c->progress_drawn = false;
}

bool rc_pipeline_error_shown(rc_pipeline *c)
{
    if (++c->errors_shown > RC_MAX_SHOWN_ERRORS + 1) return false;
    rc_pipeline_progress_clear(c);
    if (c->errors_shown <= RC_MAX_SHOWN_ERRORS) return true;
    rc_logf("rowcast: further errors are not shown\n");
    return false;
}
