/* The pipeline's full state behind the opaque handle of rowcast/pipeline.h (which embedding
 * programs make with rc_pipeline_new, pipeline_api.c; the CLI fills one in place).
 *
 * The pipeline: source -> filter (--include, --drop) -> encoder -> route (topic, key, headers)
 * -> sink -> acknowledged position (checkpoint), with the Canal statement grouping, the run's
 * counters, the progress line and the summary. `convert` (src/cli) only configures it: it
 * fills an rc_pipeline (formats, sink, options) and calls rc_pipeline_run; `capture` will do
 * the same with a database source. Files: src/pipeline/pipeline.c (the run loop), include.c
 * (--include), output.c (encoding, grouping, routing, sending, bad items), checkpoint.c (the
 * checkpoint store), checkpoint_file.c (its text), report.c (progress and summary, and what the
 * metrics endpoint is given), messages.c (the progress line cleared and the cap on errors shown,
 * before a message), lag.c (the time of the last delivered event); the --metrics endpoint is
 * pipeline/metrics.h's (metrics.c, metrics_text.c, http_request.c).
 *
 * With --threads 2 the source decodes the next batch while the pipeline encodes the last one:
 * the decoder's state is touched only by the source, the encoder's and the sink's only by the
 * pipeline (see src/sources/lines.c). */
#ifndef RC_PIPELINE_PIPELINE_H
#define RC_PIPELINE_PIPELINE_H

#include <signal.h>
#include <stdio.h>
#include "rowcast/format.h"
#include "rowcast/pipeline.h"
#include "rowcast/position.h"
#include "rowcast/sink.h"
#include "rowcast/source.h"

enum rc_on_error { RC_ON_STOP, RC_ON_SKIP, RC_ON_DEAD };
/* --on-loss: what becomes of a row the output format cannot hold (a value it has no way to
 * write, docs/cli.md "Rows the format cannot hold"): the run stops before it (exit 2, nothing
 * of it written nor acknowledged), it is left out (counted), it goes to the dead-letter file
 * as a native line, or the value is written as the vendor's own tool writes it (cut), where
 * the format knows that (rc_format.set_cut), the run stopping at any other. */
enum rc_on_loss { RC_LOSS_STOP, RC_LOSS_SKIP, RC_LOSS_DEAD, RC_LOSS_CUT };

/* What a run counts, in the words of docs/cli.md ("Counting"): each total is the sum of the
 * parts after it. The summary and the progress line read it (the sink counts what it was
 * handed and what became of it: rc_sink_stats); a metrics endpoint reads the same struct.
 * Written by the pipeline's thread only. */
typedef struct rc_counts {
    uint64_t lines;           /* input lines (items) read, blank ones aside: */
    uint64_t converted;       /*   decoded and encoded, their messages written */
    uint64_t lines_filtered;  /*   the reader skipped the message (--include) */
    uint64_t bad;             /*   could not be converted (--on-error) */
    uint64_t interrupted;     /*   cut short by a sink failure, a signal or --on-loss=stop */
    uint64_t events;          /* events of the converted lines: */
    uint64_t encoded;         /*   handed to the encoder */
    uint64_t filtered;        /*   excluded by --include or dropped by --drop */
    uint64_t not_expressible; /*   the target format has no message for them, of which */
    uint64_t markers;         /*     transaction BEGIN/COMMIT markers (formats without them) */
    uint64_t refused;         /*   rows with a value the format cannot hold (--on-loss) */
    uint64_t cut;             /* encoded rows with a value cut to what the format holds (--on-loss=cut) */
    uint64_t bytes;           /* input bytes of the lines handled, blank lines included */
    uint64_t by_op[RC_OP_COUNT]; /* events of the converted lines by operation */
    uint64_t multiline;       /* items that are one message over several lines (pretty-printed) */
    uint64_t comments;        /* comment blocks between messages, skipped (not in lines) */
} rc_counts;

/* The source time of the last delivered event, for the lag (pipeline/metrics.h; lag.c): at
 * each position marked in the sink, the number of records sent so far and the time of the
 * latest event before the position; once the sink acknowledged that many records, the time is
 * delivered. When the ring is full the newest entry replaces the last one (it covers more
 * records and is later): the lag is then coarser, never early. */
enum { RC_LAG_MARKS = 256 };
typedef struct rc_lag {
    struct {
        uint64_t sent;
        int64_t ts_us;
    } marks[RC_LAG_MARKS];
    uint64_t head, tail;
    bool pending;       /* an event with a time came since the last mark: */
    int64_t pending_us; /*   the latest one's */
    bool known;         /* an event with a time was delivered: */
    int64_t ts_us;      /*   the last one's */
} rc_lag;

/* An --include pattern; one without a dot names databases (`shop` = `shop.*`). */
typedef struct rc_include_pat {
    const char *pattern;
    bool db_only;
    bool hit; /* matched an event (set by the pipeline's check only) */
} rc_include_pat;

/* The --include answer for the last table the output side checked. */
typedef struct rc_include_cache {
    char db[128], t[128];
    size_t dbn, tn;
    bool in, valid;
} rc_include_cache;

enum rc_progress_mode { RC_PROGRESS_OFF, RC_PROGRESS_TTY, RC_PROGRESS_LINES };

/* The origin of the group a grouping encoder holds (canal.group). */
typedef struct rc_held {
    char s[4][256];
    size_t n[4];
    rc_op op;
} rc_held;

/* One message of the current item: key, value and a topic the format names are ranges of
 * p->msg. */
typedef struct rc_out_rec {
    rc_origin src;
    rc_op op;
    rc_str lsn; /* capture: the event's position upstream, for the rowcast.position header */
    const char *header; /* a header of the format's (rc_event_part), NULL: none */
    rc_str header_value;
    size_t koff, klen, voff, vlen, toff, tlen;
    bool has_key, null_value, has_topic;
    int32_t partition; /* >= 0: the format names the partition */
    /* -o kafka.order.header: the order key (pipeline/order_key.h) of the item it came from, its
     * event there and its record in that event (a line source's: in the line) */
    rc_item_order ord;
    uint64_t ord_ev;
    unsigned ord_rec;
} rc_out_rec;

/* A checkpoint (docs/sinks.md): where the source stands (the input's real path and the
 * position: for the lines source the byte offset of the first line not yet acknowledged and
 * the number of the last acknowledged line) and, apart from it, the sink state at that
 * position. Text, one field per line:
 *   rowcast-checkpoint 2 / input PATH / offset N / line N / output SIZE PATH / dead-letter SIZE PATH
 * (the last two when the run tracks those files). Version 1 files, without the sink state, are
 * still read; rowcast writes version 2. */
typedef struct rc_checkpoint {
    int version;
    char input[RC_PATH_MAX];
    rc_pos pos; /* RC_POS_LINES */
    rc_sink_state sink;
} rc_checkpoint;

/* Parses the text of a checkpoint file; an error names the byte where the problem is. */
rc_status rc_checkpoint_parse(const char *text, size_t n, rc_checkpoint *ck, rc_error *err);
/* Appends the file's text for ck (what rc_checkpoint_write stores: version 2). */
void rc_checkpoint_format(const rc_checkpoint *ck, rc_buf *b);
/* Reads PATH: RC_OK, RC_SKIP when there is no such file, or an error naming PATH (and the
 * line and byte for a malformed file). */
rc_status rc_checkpoint_read(const char *path, rc_checkpoint *ck, rc_error *err);
/* Writes PATH.tmp (fsync'ed when `sync`), then renames it over PATH: a reader sees the old or
 * the new checkpoint, never a torn one. */
rc_status rc_checkpoint_write(const char *path, const rc_checkpoint *ck, bool sync, rc_error *err);
/* A sink state as text, the checkpoint's lines "output SIZE PATH" and "dead-letter SIZE PATH"
 * (a database source that keeps a checkpoint of its own stores it: rowcast/source.h,
 * ack_state), and back (an error names the byte). */
void rc_sink_state_format(const rc_sink_state *st, rc_buf *b);
rc_status rc_sink_state_parse(const char *text, size_t n, rc_sink_state *st, rc_error *err);

struct rc_pipeline {
    /* configuration (the CLI's) */
    const char *command;        /* "convert": setup messages say "rowcast convert: ..." */
    const rc_format *from, *to;
    const rc_options *opts;     /* the -o options (the source's hints read them) */
    void *dec, *enc;
    enum rc_on_error on_error;
    enum rc_on_loss on_loss;
    const char *dead_path;
    FILE *dead;
    const char *dead_url;             /* --on-error=dead-letter:kafka://HOSTS/TOPIC, else NULL */
    struct rc_dead_kafka *dead_kafka; /* its producer (sinks/kafka_dead_letter.h), from open to close */
    bool quiet;
    enum rc_progress_mode progress;
    double progress_every; /* seconds between progress lines (0: after every batch) */
    bool need_keys, tombstones, routed;
    const char *topic_tmpl, *server;
    bool server_forced; /* server names every message's {server}, not only those of events naming none */
    unsigned drop;
    rc_include_pat *include;
    size_t ninclude;
    rc_include_cache include_last;
    const rc_capture_config *capture; /* `capture`: the database source's settings */
    /* The source's traits (rc_source_ops), set by rc_pipeline_run from the source it opens: */
    const char *item_word; /* what an item is in the summary ("line", "message") */
    bool include_schema;   /* --include matches SCHEMA.TABLE (PostgreSQL capture), not DB.TABLE */
    bool database;         /* a database's capture: no input bytes, a position of its own */
    bool acks;             /* the source is told every acknowledged position (a database, a Kafka group) */
    const char *source; /* a source by name (rc_source_config.source), NULL: by the URLs */
    const char **files; /* the source's URLs: file paths, "-" */
    size_t nfiles;
    bool threaded;
    bool records_in; /* convert --input-layout records */
    volatile sig_atomic_t *stop; /* set by a signal handler */
    rc_sink *sink;
    const char *ck_path;
    double ck_interval;
    long flush_ms;
    bool sink_stdout; /* the messages go to stdout */
    const char *metrics_addr; /* --metrics HOST:PORT (pipeline/metrics.h); NULL: no endpoint */
    long ready_lag_s;         /* --ready-lag: /ready's bound on the lag, seconds */
    bool idle;                /* the source's last read gave nothing (/ready: caught up) */
    /* --standby: the state topic (HOST:PORT/TOPIC) whose group decides the lead, NULL: none;
     * --takeover-after; the membership while the run leads (standby.c) */
    /* where a flag's or -o option's value came from ("FILE:LINE: ", config_file.c), for errors
     * said after setup (the source's); NULL: the command line only */
    void (*origin)(const void *ctx, const char *key, const char *msg, char *out, size_t cap);
    const void *origin_ctx;
    const char *standby;
    int takeover_s;
    struct rc_kafka_lead *lead;
    /* the run */
    rc_source *src;
    rc_pos start; /* where this run began (the checkpoint's position) */
    _Alignas(64) rc_arena arena; /* the final group (flush) */
    rc_buf msg, topic, pos, topic_key;
    size_t topic_len;
    bool topic_cached;
    rc_out_rec *recs;
    size_t nrecs, caprecs;
    size_t block_max; /* the sink takes an item's records as one block of up to this many (0: no) */
    rc_held held;   /* the Canal statement grouping (canal.group): the group held, */
    bool held_pending; /* and whether the encoder holds one now */
    /* a source keeping its own position (a Kafka group): what the encoder holds is sent before
     * an item of another file (partition); the item it holds is held_file's at held_off */
    bool hold_per_file;
    char held_file[192];
    uint64_t held_off;
    bool order_header; /* -o kafka.order.header=true: the rowcast.eos header on every record */
    rc_item_order held_ord; /* the order key of what the encoder holds (its first event's), */
    uint64_t held_ord_ev;
    unsigned ord_rec;       /* and the records of the event (a line's: the line) numbered so far */
    rc_buf eos;             /* the header's value */
    bool sink_failed;
    rc_checkpoint ck;
    bool ck_written;
    double ck_last;
    uint64_t end_off, end_line; /* the last item handled: its end offset, its number */
    rc_pos end_pos;        /* and the position after it */
    rc_counts n;
    uint64_t errors_shown;
    uint64_t input_size;  /* bytes of all inputs, 0 when unknown (a pipe): for % and ETA */
    uint64_t start_off;   /* where in them the run began */
    uint64_t progress_at; /* n.bytes at the last progress line */
    bool progress_drawn;  /* a terminal progress line is on the screen */
    int tty_cols;
    uint64_t dead_notices; /* messages the sink dead-lettered, each with its reason (the first 50 shown) */
    double t0, last_progress;
    uint64_t backfill_table, backfill_rows; /* the last progress line's incremental snapshot: its
                                             * table (a hash of the name) and rows read, for rows/s */
    struct rc_metrics *metrics; /* the --metrics server, from the start of the run to fini */
    struct rc_slot_state *slot_state; /* capture from a PostgreSQL slot to a file: the file's sizes
                                       * at the slot's positions (slot_state.c), run to fini */
    rc_lag lag;
    rc_cut_log cuts;  /* --on-loss=cut: the values the encoder cut (given to it by set_cut) */
    const rc_format *loss_fmt; /* --on-loss=dead-letter: native, */
    void *loss_enc;   /*   its encoder of the rows refused, */
    rc_buf loss_msg;  /*   and the line it wrote */
    int loss_rc;      /* the exit status --on-loss stopped the run with (0: it did not) */
};

/* Sets the defaults and the buffers (before the configuration is filled in). */
void rc_pipeline_init(rc_pipeline *p);
void rc_pipeline_fini(rc_pipeline *p); /* frees what the pipeline allocated; not the sink */
/* --checkpoint at the start, with the sink open (checkpoint.c). EXIT status after a message. */
int rc_pipeline_checkpoint_start(rc_pipeline *p, const char *input, const char *sink_url);
/* rc_pipeline_run (rowcast/pipeline.h) also stores the last checkpoint when there is one. */
double rc_pipeline_now(void);
/* rc_sink_config.notice, with the pipeline as ctx: what the sink says as it happens, on a line
 * of its own (output.c). */
void rc_pipeline_sink_notice(void *ctx, rc_sink_notice kind, const char *text);
/* --progress[=INTERVAL]: false when INTERVAL is not one (report.c). */
bool rc_pipeline_progress_option(rc_pipeline *p, const char *interval);

#endif
