/* `rowcast convert`, shared by its four files: convert.c (options, setup, the run),
 * convert_in.c (reading lines and decoding them in batches, on a thread of its own with
 * --threads 2), convert_out.c (encoding, sending to the sink, errors, checkpoints) and
 * convert_report.c (the progress line and the summary).
 *
 * The input side fills a batch: up to BATCH_LINES lines, their text, and the events the
 * decoder made of them (in the batch's arena); the output side takes batches in order and
 * handles their lines in order. With two threads the next batch is decoded while the last one
 * is encoded: the decoder's state is touched only by the input side, the encoder's and the
 * sink's only by the output side, and a batch passes between them under a mutex. When the
 * input is a pipe or terminal with nothing more to read, the batch so far is handed over, so a
 * slow stream is converted line by line as it comes. */
#ifndef RC_CLI_CONVERT_H
#define RC_CLI_CONVERT_H

#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include "rowcast/format.h"
#include "rowcast/sink.h"

enum on_error { ON_STOP, ON_SKIP, ON_DEAD };
enum { BATCH_LINES = 64, BATCH_BYTES = 1 << 20, BATCHES = 3, IN_BUF = 1 << 20 };

extern volatile sig_atomic_t convert_stop_signal;

/* One input line of a batch. */
typedef struct in_line {
    const char *file;  /* the name errors use */
    size_t off, raw;   /* its bytes in the batch text, with the line end */
    size_t n;          /* without "\n" / "\r\n" */
    uint64_t lineno, file_off, end_off; /* line number; file offsets of its start and end */
    bool blank;
    bool filtered;             /* the reader skipped its message: a table --include leaves out */
    size_t ev_first, ev_count; /* its events in the batch's list */
    rc_status st;              /* the decoder's verdict */
    rc_error err;
} in_line;

typedef struct batch {
    _Alignas(64) char *text; /* each batch on cache lines of its own */
    size_t len, cap;
    in_line *lines;
    size_t n;
    rc_arena arena;
    rc_event_list events;
    bool last; /* no batch follows */
    int rc;    /* reading failed: the exit status (message already printed) */
} batch;

/* One message of the current line: key, value and a topic the format names are ranges of
 * conv.msg. */
typedef struct out_rec {
    rc_origin src;
    rc_op op;
    size_t koff, klen, voff, vlen, toff, tlen;
    bool has_key, null_value, has_topic;
    int32_t partition; /* >= 0: the format names the partition */
} out_rec;

/* What a run counts, in the words of docs/cli.md ("Counting"): each total is the sum of the
 * parts after it. The summary and the progress line read it (the sink counts what it was
 * handed and what became of it: rc_sink_stats); kept in one struct so that a pipeline module
 * with a metrics endpoint can take it over. Written by the output side only. */
typedef struct convert_counts {
    uint64_t lines;           /* input lines read, blank ones aside: */
    uint64_t converted;       /*   decoded and encoded, their messages written */
    uint64_t lines_filtered;  /*   the reader skipped the message (--include) */
    uint64_t bad;             /*   could not be converted (--on-error) */
    uint64_t interrupted;     /*   cut short by a sink failure or a signal */
    uint64_t events;          /* events of the converted lines: */
    uint64_t encoded;         /*   handed to the encoder */
    uint64_t filtered;        /*   excluded by --include or dropped by --drop */
    uint64_t not_expressible; /*   the target format has no message for them */
    uint64_t bytes;           /* input bytes of the lines handled, blank lines included */
} convert_counts;

/* An --include pattern; one without a dot names databases (`shop` = `shop.*`). */
typedef struct include_pat {
    const char *pattern;
    bool db_only;
    bool hit; /* matched an event (set by the output side's check only) */
} include_pat;

enum progress_mode { PROGRESS_OFF, PROGRESS_TTY, PROGRESS_LINES };

/* The origin of the group a grouping encoder holds (canal.group). */
typedef struct held {
    char s[4][256];
    size_t n[4];
    rc_op op;
} held;

typedef struct conv {
    const rc_format *from, *to;
    const rc_options *opts; /* the -o options (the input side's hints read them) */
    void *dec, *enc;
    enum on_error on_error;
    const char *dead_path;
    FILE *dead;
    bool quiet;
    enum progress_mode progress;
    double progress_every; /* seconds between progress lines (0: after every batch) */
    bool need_keys, tombstones, routed;
    const char *topic_tmpl, *server;
    bool server_forced; /* server names every message's {server}, not only those of events naming none */
    unsigned drop;
    include_pat *include;
    size_t ninclude;
    /* input side (on cache lines of its own: the two threads write their sides per line) */
    _Alignas(64) const char **files;
    size_t nfiles, file_i;
    FILE *in;
    const char *in_name;
    uint64_t in_off, in_line;
    bool in_may_wait; /* the input is a pipe or terminal: reading may block */
    char *linebuf; /* getline's */
    size_t linecap;
    uint64_t start_off, start_line; /* from the checkpoint */
    bool threaded;
    pthread_t reader;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    batch batches[BATCHES];
    size_t full_head, full_count, free_head, free_count; /* two FIFO rings of batch indexes */
    size_t full_q[BATCHES], free_q[BATCHES];
    bool stop; /* the output side wants no more batches */
    /* output side */
    _Alignas(64) rc_arena arena; /* the final group (flush) */
    rc_buf msg, topic, pos, topic_key;
    size_t topic_len;
    bool topic_cached;
    out_rec *recs;
    size_t nrecs, caprecs;
    held held;
    bool held_pending, sink_failed;
    rc_sink *sink;
    const char *ck_path;
    rc_checkpoint ck;
    bool ck_written;
    double ck_interval, ck_last;
    uint64_t end_off, end_line;
    convert_counts n;
    uint64_t errors_shown;
    uint64_t input_size;  /* bytes of all inputs, 0 when unknown (a pipe): for % and ETA */
    uint64_t progress_at; /* n.bytes at the last progress line */
    bool progress_drawn;  /* a terminal progress line is on the screen */
    bool sink_stdout;     /* the messages go to stdout */
    int tty_cols;
    uint64_t dead_notices; /* messages the sink dead-lettered, each with its reason (the first 50 shown) */
    double t0, last_progress;
} conv;

double convert_now(void);
bool convert_table_included(void *ctx, rc_str db, rc_str table); /* the reader's --include check */
bool convert_event_included(conv *c, rc_str db, rc_str table);  /* the output side's */

/* convert_in.c */
int convert_input_start(conv *c);            /* EXIT_OK, or a status after a message */
batch *convert_input_next(conv *c);          /* the next decoded batch (in order); NULL when a
                                              * signal came while waiting for one */
void convert_input_done(conv *c, batch *b);  /* the output side is through with b */
void convert_input_stop(conv *c);            /* no more batches wanted: joins the reader,
                                              * closes the input, frees the batches */

/* convert_out.c */
int convert_output(conv *c, batch *b);       /* EXIT_OK or the status to stop with */
int convert_flush_group(conv *c);
int convert_finish(conv *c, int rc, long flush_ms);

/* convert_report.c: the progress line and the summary (docs/cli.md) */
bool convert_progress_option(conv *c, const char *interval); /* --progress[=INTERVAL] */
void convert_report_start(conv *c);  /* before the first line: the clock, the input size */
void convert_progress(conv *c);      /* after a batch: a progress line when one is due */
void convert_progress_clear(conv *c); /* before any other message on stderr */
void convert_summary(conv *c);       /* at the end */
uint64_t convert_undelivered(const rc_sink_stats *ss); /* written, but no answer came */
void convert_sink_notice(void *ctx, rc_sink_notice kind, const char *text); /* rc_sink_config.notice */

#endif
