/* What the pipeline's files share (see pipeline/pipeline.h for the files). */
#ifndef ROWCAST_PIPELINE_IMPL_H
#define ROWCAST_PIPELINE_IMPL_H

#include "pipeline/pipeline.h"
#include "core/log.h"

/* include.c: --include, on the source's thread (writes nothing) and on the pipeline's (marks
 * the patterns that matched, for the summary) */
bool rc_pipeline_table_included(void *ctx, rc_str db, rc_str table);
bool rc_pipeline_event_included(rc_pipeline *c, rc_str db, rc_str table);

/* messages.c */
enum { RC_MAX_SHOWN_ERRORS = 50 };
/* Counts an error message about to be said: true when it is to be shown (the progress line
 * cleared), false past the first RC_MAX_SHOWN_ERRORS (the first time saying so). */
bool rc_pipeline_error_shown(rc_pipeline *c);
/* output.c */
int rc_pipeline_output(rc_pipeline *c, rc_batch *b); /* EXIT_OK or the status to stop with */
int rc_pipeline_flush_group(rc_pipeline *c);
int rc_pipeline_finish(rc_pipeline *c, int rc, long flush_ms);
/* dead_letter.c: bad item i of b (why: its error) to the dead-letter file or Kafka topic;
 * EXIT_OK, else EXIT_IO with the error in err. */
int rc_pipeline_dead_letter(rc_pipeline *c, const rc_batch *b, size_t i, const rc_error *why, rc_error *err);

/* loss.c: --on-loss. Where item ln's event ev is, for a message ("FILE:LINE", "FILE at LSN
 * X"), into at[n]; a row the format refused (err: why): the message, then RC_EXIT_OK when the
 * run goes on (skipped, dead-lettered), else the status to stop with; the cut values' totals
 * in the summary; the encoder's cut log and the dead-letter encoder set up (EXIT status) and
 * freed. */
void rc_pipeline_where(const rc_source_item *ln, const rc_event *ev, char *at, size_t n);
/* The log fields of an event's message (core/log.h, --log-format=json): level error, the item's
 * file and line, SCHEMA.TABLE and the position (an LSN, FILE:OFFSET) in `w`, the error's code. */
typedef struct rc_event_log_fields {
    rc_log_fields f;
    char table[160], position[80];
} rc_event_log_fields;
void rc_pipeline_log_fields(const rc_source_item *ln, const rc_event *ev, const rc_error *err, rc_event_log_fields *w);
int rc_pipeline_loss(rc_pipeline *c, const rc_source_item *ln, const rc_event *ev, const rc_error *err);
void rc_pipeline_loss_summary(const rc_pipeline *c);
int rc_pipeline_loss_start(rc_pipeline *c);
void rc_pipeline_loss_fini(rc_pipeline *c);

/* checkpoint.c: stores the sink's safe position when it moved (at most every interval, or
 * now); 0, or -1 after a message */
int rc_pipeline_checkpoint(rc_pipeline *c, bool now);
/* capture, with the source open and before any output: cuts the sink's files back to the
 * sizes stored with the position the source resumes from (MySQL's checkpoint; a PostgreSQL
 * slot's state file, slot_state.c) and gives the source the state it starts from. EXIT
 * status after a message. */
int rc_pipeline_capture_start(rc_pipeline *c);
/* cut_back.c: a file of a resumed run against the one a store (`what` PATH) recorded: the same
 * file (or none on both sides), at least as long as recorded; false after saying why not. */
bool rc_pipeline_file_resumable(const rc_pipeline *c, const char *what, const char *path, const rc_sink_file *now,
                                const rc_sink_file *want, bool output);
/* capture: cuts the sink's files back to `want`, the sizes the store `what` PATH recorded
 * ("checkpoint", "state file"): a file shorter than recorded is refused with both sizes; a
 * file the store did not record is appended to as it is; each cut said. EXIT status. */
int rc_pipeline_cut_back(rc_pipeline *c, const char *what, const char *path, const rc_sink_state *want);

/* slot_state.c: the sizes of a capture's output file at the positions of a PostgreSQL slot,
 * in a file beside it (docs/sinks.md). start: reads it, cuts the file back to the slot's
 * position, stores the start (EXIT status after a message); store: adds a position, durable
 * before the slot is told (0, or -1 after a message); end: after the run (a snapshot-only run
 * delivered whole leaves nothing to cut back to); free: fini's. */
int rc_pipeline_slot_start(rc_pipeline *c);
int rc_pipeline_slot_store(rc_pipeline *c, const rc_pos *pos, const rc_sink_state *st);
void rc_pipeline_slot_end(rc_pipeline *c, int rc);
void rc_pipeline_slot_free(rc_pipeline *c);

/* report.c: the progress line and the summary (docs/cli.md) */
void rc_pipeline_report_start(rc_pipeline *c);   /* before the first line: the clock, the input size */
void rc_pipeline_progress(rc_pipeline *c);       /* after a batch: a progress line when one is due */
void rc_pipeline_progress_clear(rc_pipeline *c); /* before any other message on stderr (messages.c) */
void rc_pipeline_summary(rc_pipeline *c);        /* at the end */
void rc_pipeline_incsnap_unfinished(rc_pipeline *c); /* at the stop, the source still open */
uint64_t rc_pipeline_undelivered(const rc_sink_stats *ss); /* written, but no answer came */
/* --metrics: starts the server (EXIT status after a message), publishes the numbers (after a
 * batch, on an idle tick), stops it (fini) */
int rc_pipeline_metrics_start(rc_pipeline *c);
/* report.c: "rowcast CMD: MSG", with the FILE:LINE of the config-file value it names (key: the
 * flag or option it is about, NULL: the first one the message names) */
void rc_pipeline_say(const rc_pipeline *c, const char *key, const char *msg);
/* standby.c: --standby: waits as a standby until this instance leads its --server (c->lead
 * keeps the lead from then on; rc_pipeline_fini leaves the group); opts: the run's -o options
 * (kafka.*). RC_EXIT_OK once leading, the stop's status on a signal, or the error's after its
 * message. */
int rc_pipeline_standby(rc_pipeline *c, const rc_options *opts);
void rc_pipeline_publish(rc_pipeline *c);
void rc_pipeline_metrics_stop(rc_pipeline *c);

/* lag.c: the time of the last delivered event (rc_lag): the latest event time of an item
 * handled, noted at the next position marked in the sink, delivered once the sink
 * acknowledged every record before it (settle) */
void rc_pipeline_lag_events(rc_pipeline *c, const rc_event *evs, size_t n);
void rc_pipeline_lag_mark(rc_pipeline *c);
void rc_pipeline_lag_settle(rc_pipeline *c);

#endif
