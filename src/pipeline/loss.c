/* --on-loss (pipeline/pipeline.h): a row the output format cannot hold stops the run, is left
 * out, goes to the dead-letter file, or is written as the vendor's own tool writes it. Nothing
 * here runs for a row the format writes as it is, but the cut totals' one test (output.c). */
#include <stdlib.h>
#include <string.h>
#include "pipeline_impl.h"
#include "core/log.h"

/* A database change's place in the log: "LSN 0/16B3748", "FILE:OFFSET"; "" when none. */
static void event_position(const rc_event *ev, char *at, size_t n)
{
    const rc_position *p = &ev->pos;
    at[0] = '\0';
    if (p->lsn.n)
        snprintf(at, n, "LSN %.*s", (int)(p->lsn.n < 40 ? p->lsn.n : 40), p->lsn.p);
    else if (p->file.n && p->has_offset)
        snprintf(at, n, "%.*s:%llu", (int)(p->file.n < 60 ? p->file.n : 60), p->file.p, (unsigned long long)p->offset);
}

void rc_pipeline_where(const rc_source_item *ln, const rc_event *ev, char *at, size_t n)
{
    at[0] = '\0';
    if (ln->lineno) {
        snprintf(at, n, ":%llu", (unsigned long long)ln->lineno);
        return;
    }
    char pos[128];
    event_position(ev, pos, sizeof pos);
    if (pos[0]) snprintf(at, n, " at %s", pos);
}

void rc_pipeline_log_fields(const rc_source_item *ln, const rc_event *ev, const rc_error *err, rc_event_log_fields *w)
{
    rc_str db = ev->src.schema.n ? ev->src.schema : ev->src.db;
    snprintf(w->table, sizeof w->table, "%.*s%s%.*s", (int)(db.n < 60 ? db.n : 60), db.p, db.n ? "." : "",
             (int)(ev->src.table.n < 90 ? ev->src.table.n : 90), ev->src.table.p);
    event_position(ev, w->position, sizeof w->position);
    w->f = (rc_log_fields){.level = "error",
                           .file = ln->file,
                           .line = ln->lineno,
                           .table = w->table[0] ? w->table : NULL,
                           .position = w->position[0] ? w->position : NULL,
                           .code = rc_status_name(err->code)};
}

/* The refused row as a native line (which holds every value) into the dead-letter file,
 * through the sink, which counts the file's size for the checkpoint. */
static rc_status dead_letter(rc_pipeline *c, const rc_event *ev, rc_error *err)
{
    rc_buf_reset(&c->loss_msg);
    rc_status st = c->loss_fmt->encode_value(c->loss_enc, ev, &c->loss_msg, err);
    if (st == RC_OK && c->loss_msg.err != RC_OK) st = rc_error_set(err, c->loss_msg.err, RC_NO_OFFSET, "dead-letter line: %s", rc_status_name(c->loss_msg.err));
    if (st != RC_OK) return st;
    return rc_sink_reject(c->sink, c->loss_msg.data, c->loss_msg.len, err);
}

int rc_pipeline_loss(rc_pipeline *c, const rc_source_item *ln, const rc_event *ev, const rc_error *err)
{
    static const char *const fate[] = {
        [RC_LOSS_STOP] = "the row is not written, and the run stops here (--on-loss=stop)",
        [RC_LOSS_SKIP] = "the row is not written (--on-loss=skip)",
        [RC_LOSS_DEAD] = "the row is not written: it goes to the dead-letter file as a native line (--on-loss=dead-letter)",
        [RC_LOSS_CUT] = "the row is not written, and the run stops here (--on-loss=cut: no cut is known for this value)",
    };
    char at[128];
    rc_pipeline_where(ln, ev, at, sizeof at);
    rc_str db = ev->src.schema.n ? ev->src.schema : ev->src.db;
    bool stop = c->on_loss == RC_LOSS_STOP || c->on_loss == RC_LOSS_CUT;
    if (stop) /* the item is cut short, its row counted (a refused row the run goes on after counts with its item) */
        c->n.interrupted++, c->n.events++, c->n.refused++;
    if (rc_pipeline_error_shown(c) || stop) { /* the one that stops the run is said past the first 50 too */
        rc_pipeline_progress_clear(c);
        rc_event_log_fields lf;
        rc_pipeline_log_fields(ln, ev, err, &lf);
        rc_logf_with(&lf.f, "rowcast: %s%s: %s error: table %.*s%s%.*s: %s; %s\n", ln->file, at, rc_status_name(err->code), (int)db.n, db.p,
                db.n ? "." : "", (int)ev->src.table.n, ev->src.table.p, err->message, fate[c->on_loss]);
    }
    if (stop) return RC_EXIT_DATA;
    if (c->on_loss != RC_LOSS_DEAD) return RC_EXIT_OK;
    rc_error derr;
    rc_error_clear(&derr);
    if (dead_letter(c, ev, &derr) == RC_OK) return RC_EXIT_OK;
    rc_pipeline_progress_clear(c);
    rc_logf("rowcast: %s\n", derr.message);
    return RC_EXIT_IO;
}

void rc_pipeline_loss_summary(const rc_pipeline *c)
{
    const rc_cut_log *l = &c->cuts;
    for (size_t i = 0; i < l->ncols; i++)
        rc_logf("%s%s.%s %llu row%s (to %s)", i ? ", " : "rowcast: cut (--on-loss=cut): ", l->cols[i].table,
                l->cols[i].column, (unsigned long long)l->cols[i].rows, l->cols[i].rows == 1 ? "" : "s", l->cols[i].unit);
    if (l->ncols) rc_logf("\n");
}

int rc_pipeline_loss_start(rc_pipeline *c)
{
    if (c->on_loss == RC_LOSS_CUT && c->to->set_cut) c->to->set_cut(c->enc, &c->cuts);
    if (c->on_loss != RC_LOSS_DEAD || c->loss_enc) return RC_EXIT_OK;
    rc_options none = {NULL, 0};
    rc_error err;
    rc_error_clear(&err);
    c->loss_fmt = rc_format_find("native");
    if (c->loss_fmt->enc_new(&none, &c->loss_enc, &err) == RC_OK) return RC_EXIT_OK;
    rc_logf("rowcast %s: %s\n", c->command, err.message);
    return RC_EXIT_IO;
}

void rc_pipeline_loss_fini(rc_pipeline *c)
{
    if (c->loss_enc) c->loss_fmt->enc_free(c->loss_enc);
    c->loss_enc = NULL;
    rc_buf_fini(&c->loss_msg);
    rc_cut_fini(&c->cuts);
}
