/* Sources: where change events come from, behind one interface that the pipeline drives
 * (pipeline/pipeline.h). A source hands over batches of items in stream order; an item is one
 * unit of input (a line of `convert`'s input; a replication message) with the events the
 * source decoded from it, its verdict (a bad item carries the decoder's error) and the
 * position after it, which the pipeline marks in the sink once the item's records are sent
 * (rowcast/position.h). Sources are picked by URL scheme (src/sources/source.c, like the
 * sinks): file paths and "-" (stdin) are the lines source (src/sources/lines.c).
 *
 * `next` waits at most timeout_ms for a batch and answers no batch (and no error) when the
 * source is idle, so that the pipeline still serves delivery reports (and, for database
 * sources, status updates and heartbeats) while nothing comes. Each batch is given back with
 * `release` before the next one is asked for, or, with a source that says `two_batches`,
 * before the batch after the next one. `ack` tells the source that everything up to a
 * position is delivered and stored (PostgreSQL: the flush LSN; the lines source keeps nothing:
 * its checkpoint file is the pipeline's). */
#ifndef ROWCAST_SOURCE_H
#define ROWCAST_SOURCE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include "rowcast/api.h"
#include "rowcast/arena.h"
#include "rowcast/event.h"
#include "rowcast/format.h"
#include "rowcast/position.h"

/* Why a comment block between messages is a bad item (rc_source_item.comment_fault);
 * RC_COMMENT_STRAY_END: a line that starts with the end of a comment when none is open (the
 * end of a comment that a message line inside it closed before). */
enum { RC_COMMENT_UNCLOSED_END = 1, RC_COMMENT_UNCLOSED_NEXT, RC_COMMENT_TEXT_AFTER, RC_COMMENT_STRAY_END };

/* An item's first order key, which the pipeline writes as the `rowcast.eos` header
 * (src/pipeline/order_key.h): the source (src: 'p' PostgreSQL, 'm' MySQL/MariaDB, 'l' the lines
 * source; 0: none), the kind ('e' a transaction's change, 'a' an incremental snapshot's read,
 * 's' an initial snapshot's row; none for lines), where (PostgreSQL: a the commit LSN;
 * MySQL/MariaDB: a the binlog file number, b the offset of the transaction's first event; lines:
 * a the byte offset of the line) and num, the number of the item's first event there (the
 * events of its transaction before it); the pipeline numbers the item's events after it. */
typedef struct rc_item_order {
    uint64_t a, b, num;
    char src, kind;
} rc_item_order;

/* One item of a batch. */
typedef struct rc_source_item {
    const char *file;  /* the name errors use (an input file, "<stdin>") */
    size_t off, raw;   /* its bytes in the batch text, with the line end (a database source:
                        * the text holds bad items only, and a good item's raw is the size of
                        * its message, for the byte counts) */
    size_t n;          /* without "\n" / "\r\n" */
    uint64_t lineno, file_off, end_off; /* item (line) number; stream offsets of its start and end */
    rc_pos end;   /* the position after it */
    bool blank;
    bool comment;  /* a comment block between messages (blank too when skipped, and counted) */
    uint8_t comment_fault;     /* RC_COMMENT_*: a comment block that is a bad item */
    size_t comment_at;         /* RC_COMMENT_TEXT_AFTER, _STRAY_END: the offset of that text */
    bool pretty;               /* a JSON message pretty-printed over several lines */
    unsigned lines;            /* how many lines of the input it spans (pretty-printed, a record) */
    bool filtered;             /* the source skipped its message: a table --include leaves out */
    bool inside;               /* `end` is the position before it, not after (a change inside a
                                * transaction carries the last boundary before it): a run resumed
                                * there reads it again, so the sink is not marked at it and a
                                * checkpoint's file sizes never count it */
    size_t ev_first, ev_count; /* its events in the batch's list */
    rc_item_order order;       /* its first event's order key (src 0: none) */
    rc_status st;              /* the decoder's verdict */
    rc_error err;
} rc_source_item;

typedef struct rc_batch {
    _Alignas(64) char *text; /* each batch on cache lines of its own */
    size_t len, cap;
    rc_source_item *lines;
    size_t n;
    rc_arena arena;
    rc_event_list events;
    bool last; /* no batch follows */
    int rc;    /* reading failed: the exit status (the source printed the message) */
} rc_batch;

/* A full batch: RC_BATCH_ITEMS items, or (a database's items hold many rows: a MySQL ROWS
 * event tens) RC_BATCH_EVENTS events; less: the source had no more at hand. */
enum { RC_BATCH_ITEMS = 64, RC_BATCH_EVENTS = 512 };
static inline bool rc_batch_full(const rc_batch *b) { return b->n >= RC_BATCH_ITEMS || b->events.count >= RC_BATCH_EVENTS; }

/* The message a bad item came as (rc_source_ops.message), for a dead letter to Kafka: its
 * topic, partition and offset, its key and value (NULL: null) and its headers as they came, one
 * after the other, each a name length, the name, a value length (UINT32_MAX: a null value) and
 * the value, the lengths 4-byte unsigned in the host's order. */
typedef struct rc_source_message {
    const char *topic;
    int32_t partition;
    int64_t offset;
    const char *key, *value;
    size_t key_len, value_len;
    const char *headers;
    size_t headers_len;
} rc_source_message;

/* What `capture` asks of a database source (--snapshot, --until, ...). */
enum rc_snapshot_mode {
    RC_SNAPSHOT_AUTO = 0,     /* initial when the slot is created, else none */
    RC_SNAPSHOT_INITIAL,      /* said: as AUTO, and an existing slot is mentioned */
    RC_SNAPSHOT_NEVER,        /* stream only */
    RC_SNAPSHOT_INITIAL_ONLY, /* the snapshot, then stop */
    RC_SNAPSHOT_INCREMENTAL,  /* the first run streams at once and reads every included table in
                               * resumable chunks between watermarks (incremental snapshots) */
};

typedef struct rc_capture_config {
    const char *slot, *publication; /* PostgreSQL */
    const char *server;             /* logical server name: rc_origin.server */
    int snapshot;                   /* enum rc_snapshot_mode */
    bool until_caught_up;           /* stop once what was committed at the start is acknowledged */
    const char *until;              /* --until as given (caught-up, a position): the source's
                                     * validate reads it into until_caught_up / until_lsn */
    uint64_t until_lsn;             /* the same for a position (PostgreSQL: an LSN); 0: none */
    uint64_t max_events;            /* stop after this many row events; 0: no limit */
    bool streaming;                 /* PostgreSQL protocol 2: large transactions streamed */
    uint64_t spill_bytes, stream_max_bytes; /* held streamed changes: in memory, in all (0: defaults) */
    const char *spill_dir;          /* where they spill (NULL: $TMPDIR, else /tmp) */
    double heartbeat_s;             /* a heartbeat write this often; 0: none */
    bool no_identity_inserts;       /* tables without replica identity: their INSERTs (else left out) */
    const char *const *include;     /* --include patterns (SCHEMA.TABLE, fnmatch) */
    size_t ninclude;
    /* MySQL/MariaDB: the checkpoint file (NULL: none), --start (NULL: current), the replica id
     * (0: derived from the host, port and checkpoint path) */
    const char *checkpoint, *start;
    uint32_t server_id;
    /* --standby, once this instance leads: a source whose reader is exclusive takes it from the
     * old leader (PostgreSQL: the walsender holding the slot is ended, pg_terminate_backend) */
    bool take_over;
    void (*notice)(void *ctx, const char *msg); /* what the source says as it happens */
    void *notice_ctx;
} rc_capture_config;

typedef struct rc_source_config {
    const char *const *urls; /* file paths, "-" */
    size_t nurls;
    const rc_format *from; /* the lines source's decoder */
    void *dec;
    const rc_options *opts;
    bool threaded;           /* decode the next batch on a thread of its own (the lines source's
                              * own; a two_batches source's: sources/prefetch.c) */
    bool records;            /* the lines source: each item a Kafka record (sources/records_in.h) */
    bool (*accept)(void *ctx, rc_str db, rc_str table); /* tables the source keeps (--include), NULL: all */
    void *accept_ctx;
    volatile sig_atomic_t *stop; /* set by a signal: stop reading */
    const char *resume_name;     /* where the resume position comes from (messages) */
    const rc_capture_config *capture; /* database sources only */
    const char *source; /* a source the command names ("mysql-binlog": convert --from mysql-binlog),
                         * NULL: the one of the URLs' scheme */
} rc_source_config;

typedef struct rc_source rc_source;

/* What a source says about itself on the metrics endpoint (pipeline/metrics.h): the last
 * position acknowledged to it as a number (PostgreSQL: the flush LSN as an integer), and the
 * progress of its snapshot (tables, rows read, rows expected: an estimate such as
 * pg_class.reltuples). */
typedef enum rc_source_incsnap_state {
    RC_INCSNAP_STATE_QUEUED,
    RC_INCSNAP_STATE_RUNNING,
    RC_INCSNAP_STATE_PAUSED, /* running, held by a pause-snapshot signal */
    RC_INCSNAP_STATE_DONE,
    RC_INCSNAP_STATE_STOPPED,
    RC_INCSNAP_STATES
} rc_source_incsnap_state;

/* Signals by type (execute-snapshot, stop-snapshot, pause-snapshot, resume-snapshot, any other
 * type: "unknown") and result: ok (acted on), error (malformed, or a table refused), ignored
 * (nothing to do: the table is being snapshotted already, no snapshot to stop, paused already). */
enum { RC_SIGNAL_TYPES = 5, RC_SIGNAL_RESULTS = 3 };
enum { RC_SIGNAL_OK, RC_SIGNAL_ERROR, RC_SIGNAL_IGNORED };

/* One table of the incremental snapshots (docs/design/incremental-snapshots.md §7), by value:
 * the stats are copied between threads. */
enum { RC_SOURCE_INCSNAP_TABLES = 32, RC_SOURCE_INCSNAP_NAME = 200 };
typedef struct rc_source_incsnap {
    char name[RC_SOURCE_INCSNAP_NAME]; /* "schema.table" (cut at a character) */
    rc_source_incsnap_state state;
    uint64_t rows_read, rows_emitted, rows_dropped, estimate, chunks, rereads;
} rc_source_incsnap;

/* One partition a Kafka source is assigned (the lag metrics, docs/metrics.md): the offset the
 * group committed last (-1: none yet), the partition's high watermark (-1: not known yet), the
 * messages between them, and now minus the timestamp of the last message handed out (-1: none). */
enum { RC_SOURCE_PARTS = 64, RC_SOURCE_PART_TOPIC = 128 };
typedef struct rc_source_part {
    char topic[RC_SOURCE_PART_TOPIC];
    int32_t partition;
    int64_t committed, high;
    uint64_t lag;
    int64_t lag_ms;
} rc_source_part;

typedef struct rc_source_stats {
    uint64_t ack_position;
    bool has_ack_position; /* false: nothing acknowledged yet, or positions are not numbers */
    char ack_position_text[32]; /* the same as the source writes it (PostgreSQL: "0/16B3748") */
    uint64_t snapshot_tables_total, snapshot_tables_done;
    uint64_t snapshot_rows_read, snapshot_rows_estimate;
    bool in_snapshot;
    /* incremental snapshots, when the source takes them (a signal table is set): the tables by
     * state, whether paused, the signals read, and up to RC_SOURCE_INCSNAP_TABLES tables (the
     * running and queued ones first) in the order they were queued */
    bool has_incsnap, incsnap_paused;
    uint64_t incsnap_tables[RC_INCSNAP_STATES];
    uint64_t signals[RC_SIGNAL_TYPES][RC_SIGNAL_RESULTS];
    size_t nincsnap;
    rc_source_incsnap incsnap[RC_SOURCE_INCSNAP_TABLES];
    /* a Kafka source: its assigned partitions (up to RC_SOURCE_PARTS; lag_total counts them
     * all), its rebalances by kind (assign, revoke, lost) and the time spent draining revokes */
    bool has_parts;
    size_t nparts;
    rc_source_part parts[RC_SOURCE_PARTS];
    uint64_t lag_total;
    uint64_t rebalances[3];
    int64_t drain_us;
} rc_source_stats;

typedef struct rc_source_ops {
    const char *name;
    /* The URL prefixes it claims ("postgres://", "postgresql://"), NULL-ended; NULL: the source
     * of plain paths, or one a command names (rc_source_config.source). */
    const char *const *schemes;
    /* What a database source declares for `capture` (src/sources/NAME/NAME_source_decl.c), so
     * that the command line holds no source's knowledge. rc_source_check applies it in this
     * order: the capture flags only this source reads (one of another source's is refused with
     * `flag_refused`, "%s" the flag); an -o key of another source's prefix (`option_refused`);
     * --until (caught-up, else a position `position_parse` reads; another source's position is
     * refused with `until_refused`); `validate` (names; RC_OK, or RC_ERR_USAGE with the
     * message); an unknown key of its own `option_prefix`.*; then its `options` table is read
     * by rc_options_parse into a zeroed struct of `options_size` bytes (0: the source's
     * defaults), which `configure` puts in `cc`. */
    const char *const *flags;
    const char *flag_refused;
    const char *option_refused;
    bool (*position_parse)(const char *text, uint64_t *out);
    const char *until_refused;
    rc_status (*validate)(rc_capture_config *cc, const rc_options *opts, rc_error *err);
    const char *option_prefix;
    const rc_option_desc *options;
    size_t options_size;
    void (*configure)(rc_capture_config *cc, const void *options);
    /* Traits the pipeline asks rather than knowing the source: what an item is called in the
     * summary ("line", "message"), whether --include matches SCHEMA.TABLE (else DB.TABLE), the
     * --threads default (true: 2), whether it is a database's capture (rc_source_config.capture
     * is then required). */
    const char *item_word;
    bool include_schema;
    bool threaded;
    bool database;
    /* -o keys of this prefix the source reads too, which are not its own (kafka.*: the Kafka
     * source's consumer takes the sink's properties): accepted for `convert` without a sink of
     * that kind, never refused for other sources (unlike option_prefix). NULL: none. */
    const char *reads_prefix;
    /* The source keeps its position itself (a Kafka group's committed offsets): `ack` is told
     * every acknowledged position as a database source's is, with no checkpoint file. */
    bool keeps_position;
    /* -o KEY, VALUE pairs (NULL-ended) a run from this source takes unless it sets KEY itself:
     * what the source needs of the sink (the Kafka source bounds the producer's queue,
     * kafka_source_memory.c). NULL: none. */
    const char *const *sink_defaults;
    /* `resume` (NULL: from the start) is a position of this source's kind. */
    rc_status (*open)(const rc_source_config *cfg, const rc_pos *resume, rc_source **out, rc_error *err);
    rc_status (*next)(rc_source *s, int timeout_ms, rc_batch **out, rc_error *err);
    void (*release)(rc_source *s, rc_batch *b);
    void (*ack)(rc_source *s, const rc_pos *pos);
    /* For the progress line: the stream's size when known (0: unknown), and where this run
     * began in it. */
    void (*progress)(const rc_source *s, uint64_t *size, uint64_t *start);
    void (*close)(rc_source *s); /* stops reading (joins its threads), frees everything */
    /* For the metrics endpoint, asked on the pipeline's thread after each batch and idle tick;
     * NULL: the source has none (the lines source). */
    void (*stats)(const rc_source *s, rc_source_stats *out);
    /* True while the source reads nothing more until what it handed out is acknowledged (the
     * end of a snapshot, an --until target): an idle pipeline then stores the checkpoint at
     * once rather than at its interval, so that the wait is short. NULL: never (the lines
     * source: an idle input keeps the interval, a trickle of lines is not a checkpoint each). */
    bool (*waiting)(const rc_source *s);
    /* The pipeline may hold the batch `next` gave last (encoding it on a thread of its own)
     * while it asks for the next one: the source fills a second batch meanwhile, and nothing
     * the held batch's events point at changes (sources/db_phases.h). False: each batch is
     * given back before the next is asked for. */
    bool two_batches;
    /* Optional: a source that stores its position itself (a checkpoint file of its own: MySQL's)
     * stores the sink state beside it (rc_sink_state_format's text, pipeline/pipeline.h), so that
     * a resumed run cuts the sink's files back to what they held there. `ack_state` is `ack`
     * with the sink state at `pos`; with `pos` NULL it is the state where this run starts,
     * given before anything is written (where a run that stops before its first
     * acknowledgement is cut back to). `stored_state`: the state the source's checkpoint held
     * at open (the source keeps it), NULL when it holds none. */
    void (*ack_state)(rc_source *s, const rc_pos *pos, const char *state);
    const char *(*stored_state)(const rc_source *s);
    /* Optional: a source whose position the server keeps (a PostgreSQL slot): true with the
     * position a run streaming from it resumes after, false for a fresh start (a snapshot, a
     * new slot). The pipeline keeps the sink state of such a source in a file of its own. */
    bool (*resumes_at)(const rc_source *s, rc_pos *pos);
    /* Optional: true when the run goes on from a position the source stored itself (MySQL's
     * --checkpoint, a file or a Kafka record), whatever sink state it holds. */
    bool (*resumed)(const rc_source *s);
    /* Optional: `rowcast snapshot` (src/cli/snapshot.c). Connects to `url` as `capture` does and
     * INSERTs one signal row (id `id`, `type`: execute-snapshot, stop-snapshot, pause-snapshot or
     * resume-snapshot) into the signal table the source's -o option names (the capture's), for
     * the tables the --include-style `patterns` match on the server (none: no data-collections).
     * `said` gets what was written, for the message. RC_OK; RC_ERR_USAGE with the fix (no signal
     * table option, the table missing: the CREATE TABLE to run); RC_ERR_SCHEMA a pattern that
     * matches no table, with what is near it; RC_ERR_IO or RC_ERR_RETRY the server. */
    rc_status (*write_signal)(const char *url, const rc_options *opts, const char *type, const char *const *patterns,
                              size_t npatterns, const char *id, char *said, size_t said_cap, rc_error *err);
    /* Optional: the message item `i` of `b` (the batch `next` gave last) came as, for a dead
     * letter to Kafka (the Kafka source). NULL: the item's text is what came (a line). */
    void (*message)(const rc_source *s, const rc_batch *b, size_t i, rc_source_message *out);
} rc_source_ops;

struct rc_source {
    const rc_source_ops *ops;
};

RC_API extern const rc_source_ops rc_source_lines;

/* The source of cfg->urls[0]'s scheme (all URLs of one run are of one source). */
RC_API const rc_source_ops *rc_source_find(const char *url);
/* The source a command names (`name`: rc_source_config.source), else that of `url`'s scheme;
 * NULL: none. */
RC_API const rc_source_ops *rc_source_lookup(const char *name, const char *url);
/* A database source's checks of what `capture` asked (`given`: the capture flags given, in
 * order, NULL-ended), in the order rc_source_ops says, completing `cc`. RC_OK or RC_ERR_USAGE
 * with the message. */
RC_API rc_status rc_source_check(const rc_source_ops *ops, const char *const *given, rc_capture_config *cc, const rc_options *opts,
                                 rc_error *err);
/* What a message may show of a database URL that no source reads: its password (user:PASSWORD@,
 * password=) as ***. */
RC_API void rc_source_url_shown(const char *url, char *out, size_t cap);
RC_API rc_status rc_source_open(const rc_source_config *cfg, const rc_pos *resume, rc_source **out, rc_error *err);

#endif
