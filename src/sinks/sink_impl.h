/* What every sink implementation provides; sink.c dispatches and keeps the tracker. */
#ifndef ROWCAST_SINKS_SINK_IMPL_H
#define ROWCAST_SINKS_SINK_IMPL_H

#include "rowcast/sink.h"
#include "tracker.h"

typedef struct sink_ops {
    const char *scheme; /* URL prefix: "stdout", "file:", "kafka://" */
    rc_status (*open)(rc_sink *s, const char *rest, const rc_options *opts, rc_error *err);
    /* Sends record number `seq`; may call sink_poll-like waits itself for back-pressure. */
    rc_status (*send)(rc_sink *s, const rc_record *r, uint64_t seq, rc_error *err);
    rc_status (*poll)(rc_sink *s, int timeout_ms, rc_error *err);
    rc_status (*flush)(rc_sink *s, int timeout_ms, rc_error *err);
    /* Makes what was sent durable and acknowledges it (file sinks); NULL when acknowledgements
     * come from the destination. */
    rc_status (*sync)(rc_sink *s, rc_error *err);
    void (*close)(rc_sink *s);
    /* The checkpoint's sync, when it need not wait (NULL: sync): asks for durability of what
     * was sent and acknowledges what is durable already. */
    rc_status (*sync_start)(rc_sink *s, rc_error *err);
    /* Records seq .. seq+n-1 as one block of the bytes the sink writes for them (values, each
     * with its "\n"): the sink may take block's memory and give it other memory of its own
     * (rc_sink_send_block). NULL: records one at a time only; also when blocks() says no. */
    rc_status (*send_block)(rc_sink *s, rc_buf *block, uint64_t seq, size_t n, rc_error *err);
    bool (*blocks)(const rc_sink *s);
    /* What open would refuse of the URL's rest and the options, with nothing opened or
     * connected to (rc_sink_check); NULL: nothing to check. */
    rc_status (*check)(const char *rest, const rc_options *opts, rc_error *err);
} sink_ops;

struct rc_sink {
    const sink_ops *ops;
    void *impl;
    rc_sink_config cfg;
    tracker tr;
    rc_sink_stats stats;
    const char *topic_template; /* kafka: the part of the URL after the hosts */
    const char *name;           /* --server when given (rc_sink_open_named), else NULL */
    /* The files appended to and their sizes now: output is set by the file sink, which adds
     * every byte it writes; dead_letter counts what rc_sink_reject writes. */
    rc_sink_state state;
    FILE *out;          /* the file sink's output (cut back by rc_sink_restore); else NULL */
    bool dead_unsynced; /* written since the last fsync */
};

extern const sink_ops rc_sink_file_ops, rc_sink_stdout_ops, rc_sink_kafka_ops;

/* The helpers below are in sink_common.c, shared by sink.c and the sinks. */

/* Starts tracking a file the sink appends to (open as `fd`): its real path and its size now. */
rc_status rc_sink_file_track(rc_sink_file *f, const char *path, int fd, rc_error *err);

/* Writes a refused record to the dead-letter file: its value (or "null"), one per line. */
rc_status rc_sink_dead_letter(rc_sink *s, const void *value, size_t len, rc_error *err);

#endif
