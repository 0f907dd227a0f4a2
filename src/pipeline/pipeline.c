/* The pipeline's run (pipeline/pipeline.h): opens the source, takes its batches in order and
 * hands them to the output side (output.c), serves the sink while the source is idle, then
 * flushes, stores the last checkpoint and prints the summary. --include is include.c's. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline_impl.h"
#include "sinks/kafka_lead.h"
#include "sinks/sink_txn.h"
#include "sources/kafka/kafka_eos.h"
#include "core/run_state.h"
#include "pipeline/metrics.h"
#include "core/log.h"

enum { IDLE_MS = 100 }; /* the longest wait for a batch before the sink is served again */

void rc_pipeline_init(rc_pipeline *c)
{
    memset(c, 0, sizeof *c);
    c->command = "convert";
    c->item_word = "line";
    c->server = "rowcast";
    c->ck_interval = 0.2;
    c->flush_ms = 30000;
    c->ready_lag_s = RC_METRICS_READY_LAG_S;
    rc_arena_init(&c->arena);
    rc_buf_init(&c->msg, 0);
    rc_buf_init(&c->topic, 1 << 16);
    rc_buf_init(&c->pos, 1 << 13);
    rc_buf_init(&c->eos, 1 << 13);
    rc_buf_init(&c->topic_key, 1 << 16);
    rc_buf_init(&c->loss_msg, 0);
}

void rc_pipeline_fini(rc_pipeline *c)
{
    if (c->src) c->src->ops->close(c->src);
    c->src = NULL;
    rc_pipeline_metrics_stop(c);
    rc_kafka_lead_close(c->lead); /* after the sink's last commit: a standby takes over at once */
    c->lead = NULL;
    rc_pipeline_loss_fini(c);
    rc_pipeline_slot_free(c);
    free(c->recs);
    c->recs = NULL;
    rc_arena_fini(&c->arena);
    rc_buf_fini(&c->msg);
    rc_buf_fini(&c->topic);
    rc_buf_fini(&c->pos);
    rc_buf_fini(&c->eos);
    rc_buf_fini(&c->topic_key);
}

/* Serves the sink's delivery reports without waiting, and tells the source (and the
 * checkpoint) what they acknowledged: the source is idle (and the metrics endpoint gets the
 * numbers after them: a single-threaded source on a pipe has no idle tick). `now`: the source
 * waits only for acknowledgements (rc_source_ops.waiting), so the checkpoint waits for a file
 * sink's fsync and is stored at once (during the run it comes an interval behind; an --until
 * stops when everything is acknowledged, which would wait two intervals for it). */
static int serve_sink(rc_pipeline *c, bool now)
{
    rc_error perr;
    rc_error_clear(&perr);
    if (rc_sink_poll(c->sink, 0, &perr) == RC_OK) {
        rc_pipeline_publish(c);
        return rc_pipeline_checkpoint(c, now) == 0 ? RC_EXIT_OK : RC_EXIT_IO;
    }
    rc_pipeline_progress_clear(c);
    rc_logf("rowcast: %s\n", perr.message);
    rc_run_state_set(RC_RUN_FAILING);
    c->sink_failed = true;
    return RC_EXIT_IO;
}

int rc_pipeline_run(rc_pipeline *c)
{
    int rc = RC_EXIT_OK;
    rc_error err;
    rc_error_clear(&err);
    const rc_source_ops *so = rc_source_lookup(c->source, c->nfiles ? c->files[0] : "-");
    if (so) { /* what the pipeline says and does by the source's kind */
        c->item_word = so->item_word ? so->item_word : c->item_word;
        c->include_schema = so->include_schema, c->database = so->database;
        c->acks = so->database || so->keeps_position;
        c->hold_per_file = so->keeps_position;
    }
    rc_source_config scfg = {.urls = c->files,
                             .nurls = c->nfiles,
                             .from = c->from,
                             .dec = c->dec,
                             .opts = c->opts,
                             .threaded = c->threaded,
                             .records = c->records_in,
                             .accept = c->ninclude ? rc_pipeline_table_included : NULL,
                             .accept_ctx = c,
                             .stop = c->stop,
                             .resume_name = c->ck_path,
                             .capture = c->capture,
                             .source = c->source};
    c->t0 = c->last_progress = rc_pipeline_now();
    rc_run_state_set(RC_RUN_STARTING); /* a database source says when it snapshots or streams */
    if (c->metrics_addr && !c->metrics && (rc = rc_pipeline_metrics_start(c)) != RC_EXIT_OK) return rc; /* a standby's runs */
    if ((rc = rc_pipeline_loss_start(c)) != RC_EXIT_OK) return rc;
    if (rc_source_open(&scfg, c->start.kind ? &c->start : NULL, &c->src, &err) != RC_OK) {
        rc_run_state_set(RC_RUN_FAILING);
        rc_pipeline_say(c, NULL, err.message); /* a source's -o value from a config file: its line */
        return err.code == RC_ERR_USAGE && c->database ? RC_EXIT_USAGE : RC_EXIT_IO;
    }
    if (rc_sink_txn_wants_source(c->sink)) { /* --exactly-once from a Kafka source: its offsets go in the transactions */
        rc_txn_source ts;
        if (!rc_kafka_source_txn(c->src, &ts)) {
            rc_logf("rowcast: -o kafka.exactly_once.source=true needs a Kafka source (--source kafka://...)\n");
            return RC_EXIT_USAGE;
        }
        rc_sink_txn_source(c->sink, &ts);
    }
    if (c->capture && (rc = rc_pipeline_capture_start(c)) != RC_EXIT_OK) return rc;
    if (!c->database) rc_run_state_set(RC_RUN_READING);
    /* values alone, one after the other: an item's lines go to a file sink as one block */
    c->block_max = c->need_keys || c->routed ? 0 : rc_sink_block_max(c->sink);
    rc_pipeline_report_start(c);
    while (rc == RC_EXIT_OK) {
        rc_batch *b = NULL;
        if (c->src->ops->next(c->src, IDLE_MS, &b, &err) != RC_OK) {
            rc_pipeline_progress_clear(c);
            rc_logf("rowcast: %s\n", err.message);
            rc = err.code == RC_ERR_USAGE && c->database ? RC_EXIT_USAGE : RC_EXIT_IO;
            break;
        }
        if (b && c->idle) { /* busy again: /ready no longer takes the source for caught up */
            c->idle = false;
            rc_pipeline_publish(c);
        }
        c->idle = !b;
        if (!b) { /* idle: nothing read for a while */
            if (*c->stop) break; /* stopped by a signal while waiting for input */
            /* a Kafka source with nothing to hand out (idle, or draining a revoke): what the
             * encoder holds goes, so that its message can be acknowledged (hold_per_file) */
            if (c->hold_per_file && c->held_pending && c->to->flush && (rc = rc_pipeline_flush_group(c)) != RC_EXIT_OK) break;
            rc = serve_sink(c, c->src->ops->waiting && c->src->ops->waiting(c->src));
            continue;
        }
        rc = rc_pipeline_output(c, b);
        bool last = b->last;
        /* the input is idle: let the output out (at once when the source waits for it) */
        if (rc == RC_EXIT_OK && !last && !rc_batch_full(b)) rc = serve_sink(c, c->src->ops->waiting && c->src->ops->waiting(c->src));
        c->src->ops->release(c->src, b);
        if (last || *c->stop) break;
    }
    rc_pipeline_progress_clear(c); /* what follows is said on lines of its own */
    rc_run_state_set(*c->stop ? RC_RUN_STOPPING : rc != RC_EXIT_OK ? RC_RUN_FAILING : RC_RUN_DONE);
    if (rc == RC_EXIT_OK && !*c->stop && c->to->flush) rc = rc_pipeline_flush_group(c);
    char lost[256];
    if (rc_run_lead_lost(lost, sizeof lost)) { /* --standby: the stop is the lost lead's, not a signal's */
        rc_logf("rowcast: lost the lead of --server %s (%s); stopping without writing\n", c->server, lost);
        if (rc == RC_EXIT_OK) rc = RC_EXIT_FENCED;
    } else if (*c->stop) {
        if (c->database)
            rc_logf("rowcast: %s: stopping; waiting up to %ld s for deliveries\n", *c->stop == SIGINT ? "SIGINT" : "SIGTERM",
                    c->flush_ms / 1000);
        else
            rc_logf("rowcast: %s: stopping after line %llu; waiting up to %ld s for deliveries\n",
                    *c->stop == SIGINT ? "SIGINT" : "SIGTERM", (unsigned long long)c->end_line, c->flush_ms / 1000);
        if (rc == RC_EXIT_OK) rc = 128 + *c->stop;
    }
    rc = rc_pipeline_finish(c, rc, c->flush_ms);
    if (rc != RC_EXIT_OK && (rc_sink_fenced(c->sink) || rc_run_lead_lost(NULL, 0))) rc = RC_EXIT_FENCED; /* another instance took over */
    rc_pipeline_slot_end(c, rc);
    rc_pipeline_incsnap_unfinished(c);
    /* closed after the last acknowledgement reached it (a database source tells the server) */
    c->src->ops->close(c->src);
    c->src = NULL;
    if (c->dead && fclose(c->dead) != 0 && rc == RC_EXIT_OK) {
        rc_logf("rowcast: closing dead-letter file %s: %s\n", c->dead_path, strerror(errno));
        rc = RC_EXIT_IO;
    }
    c->dead = NULL;
    rc_pipeline_summary(c);
    /* skip or dead-letter dropped every line: most likely the wrong --from, not a few bad lines
     * (each line's error is printed already; this says why the status is 2) */
    if (rc == RC_EXIT_OK && c->n.lines && c->n.bad == c->n.lines) {
        if (!c->quiet) rc_logf("rowcast: none of the %llu lines could be converted (--on-error=%s): exit status 2\n",
                (unsigned long long)c->n.lines, c->on_error == RC_ON_SKIP ? "skip" : "dead-letter");
        rc = RC_EXIT_DATA;
    }
    return rc;
}
