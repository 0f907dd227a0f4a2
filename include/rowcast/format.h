/* The format registry. Each format exports one descriptor; registry.c holds the only list.
 * The CLI, `rowcast formats`, the golden test runner and the benchmarks iterate over it. */
#ifndef ROWCAST_FORMAT_H
#define ROWCAST_FORMAT_H

#include <stddef.h>
#include "rowcast/api.h"
#include "rowcast/tz.h"
#include "rowcast/arena.h"
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/event.h"

/* `-o key=value` options as given on the command line. Formats read the keys they own
 * (prefixed with the format name, e.g. `canal.values`) and reject unknown ones. */
typedef struct rc_option {
    const char *key;
    const char *value;
} rc_option;

typedef struct rc_options {
    const rc_option *items;
    size_t count;
} rc_options;

/* Value of `key`, or NULL. */
RC_API const char *rc_options_get(const rc_options *o, const char *key);

/* Secrets (docs/cli.md, "Secrets"): an option is secret when the last dot-separated word of
 * its key contains "password", "passwd", "secret" or "token", or the key ends in the words
 * "key.pem", "jaas.config" or "oauthbearer.config" (kafka.sasl.password,
 * kafka.ssl.key.password, kafka.sasl.oauthbearer.client.secret, kafka.ssl.key.pem, ...).
 * Their values are never printed. */
RC_API bool rc_option_is_secret(const char *key);
/* The value of secret option `key` as given (`spec`): "@FILE" is the contents of FILE without
 * one trailing newline, "env:NAME" the environment variable NAME; *out is then a malloc'd
 * string the caller releases with rc_option_secret_free. Any other spec is the value itself
 * (*out = NULL). A file or variable that is missing or empty (or a file that holds a NUL byte
 * or more than 1 MiB) is RC_ERR_USAGE naming the option and the file or variable, never the
 * value. */
RC_API rc_status rc_option_secret_read(const char *key, const char *spec, char **out, rc_error *err);
/* Wipes and frees a value from rc_option_secret_read; NULL is a no-op. */
RC_API void rc_option_secret_free(char *value);

/* The type of an option's value, and of the field rc_options_parse stores it in. */
typedef enum rc_opt_type {
    RC_OPT_BOOL,   /* bool: true|1|yes or false|0|no */
    RC_OPT_CHOICE, /* int: the index of the value in `values` ("a|b|c") */
    RC_OPT_INT,    /* long, from min to max */
    RC_OPT_TZ,     /* rc_tz: "UTC", "+08:00", "Asia/Shanghai" (rowcast/tz.h) */
    RC_OPT_STRING, /* const char *: the value as given (it lives as long as the options) */
    RC_OPT_FUNC,   /* a value with rules of its own: `parse` reads it into the field */
} rc_opt_type;

/* One option a format understands: its format's table of these is the only place the key, its
 * type and choices and its default are written; rc_options_parse reads the options by it and
 * `rowcast formats --options` prints it. */
typedef struct rc_option_desc {
    const char *key;
    rc_opt_type type;
    /* CHOICE: the values, "a|b|c"; otherwise what --options shows after "=" (NULL: by type) */
    const char *values;
    /* The default, read as a given value would be. NULL (none), or a text in parentheses that
     * says what decides it ("(by debezium.version, else 3)"), when it is not one value: the
     * parse then leaves the field as the format set it before (its "not given" state, a CHOICE
     * -1, a STRING NULL) and the format resolves it after the parse. */
    const char *def;
    const char *help;
    size_t off;     /* offsetof the field in the format's options struct */
    long min, max;  /* INT */
    /* FUNC: reads `value` of option `key` into `field`; a bad value is RC_ERR_USAGE */
    rc_status (*parse)(const char *key, const char *value, void *field, rc_error *err);
} rc_option_desc;

/* A growable list of events a decoder fills from one input message (some formats carry
 * several rows per message). Events and everything they point to live in the arena. */
typedef struct rc_event_list {
    rc_event *items;
    size_t count, cap;
    /* Optional table filter set by the caller: decoders ask it as soon as they know a
     * message's database and table, and skip the rest of the message when it says no, so
     * that rows of excluded tables are never parsed (--include). */
    bool (*accept)(void *ctx, rc_str db, rc_str table);
    void *accept_ctx;
    size_t rejected; /* messages the filter skipped */
} rc_event_list;

/* True when the caller's filter accepts the table (or there is no filter). */
RC_API bool rc_event_list_accepts(rc_event_list *l, rc_str db, rc_str table);

RC_API rc_event *rc_event_list_push(rc_event_list *l);
RC_API void rc_event_list_fini(rc_event_list *l);

/* One message of an event that a format writes as several (rc_format.split). */
typedef struct rc_event_part {
    rc_event ev;         /* the event the message is encoded from, as any event is */
    const char *header;  /* a header the message (and a tombstone after it) carries; NULL: none */
    rc_str header_value;
} rc_event_part;
enum { RC_MAX_PARTS = 4 }; /* Maxwell: a held row, bootstrap-complete or -start, the row, bootstrap-complete */

/* One Kafka record as `convert --input-layout records` reads it (sources/records_in.h): the
 * key and the value, each NULL when null, pointing into the record's text `rec`. */
typedef struct rc_record_in {
    const char *rec;
    const char *key, *value;
    size_t key_n, value_n;
} rc_record_in;

/* Decodes the value of record r with `decode` (a format's decode), error offsets moved from the
 * value to the record; a null value (a tombstone) is no event. For the decode_record of formats
 * that then read the key, and for the formats without one. */
RC_API rc_status rc_record_value(rc_status (*decode)(void *, const char *, size_t, rc_arena *, rc_event_list *, rc_error *), void *dec,
                                 const rc_record_in *r, rc_arena *a, rc_event_list *out, rc_error *err);

/* --on-loss=cut (rc_format.set_cut): the values an encoder wrote as the vendor's own tool does,
 * cutting what the format cannot hold (a datetime's microseconds to OMS Debezium's
 * milliseconds), counted per table and column for the summary. The encoder notes each cut of
 * the event it is encoding (rc_cut_note); the pipeline then adds the event's notes to the totals
 * (rc_cut_commit) when the event is written, or forgets them (rc_cut_drop). */
enum { RC_CUT_PENDING = 16 };
typedef struct rc_cut_col {
    char *table, *column; /* "db.table", the column's name: owned */
    const char *unit;     /* what the values were cut to ("milliseconds"): static */
    uint64_t rows;
} rc_cut_col;
typedef struct rc_cut_log {
    struct {
        rc_str column;
        const char *unit;
    } pending[RC_CUT_PENDING]; /* the event's cuts, one per column */
    size_t npending;
    rc_cut_col *cols;
    size_t ncols, cap;
} rc_cut_log;
/* A value of column c cut to `unit` (a static string) in the event being encoded. */
RC_API void rc_cut_note(rc_cut_log *log, const rc_column *c, const char *unit);
/* The event was written: its cuts count for table `src` (RC_ERR_NOMEM when the totals cannot
 * grow: the cut is then not counted, which the caller says). */
RC_API rc_status rc_cut_commit(rc_cut_log *log, const rc_origin *src);
static inline void rc_cut_drop(rc_cut_log *log) { log->npending = 0; }
RC_API void rc_cut_fini(rc_cut_log *log);

/* Encoder and decoder state is private to each format and passed as void *. */
typedef struct rc_format {
    /* the prefix of its -o keys and its name for rc_format_find; the names --to and --from
     * take are rc_format_names' (OMS's "default" is oms-default there) */
    const char *name;
    const char *summary;
    const char *content_type;
    bool binary; /* messages are bytes, not text lines: no newline between them on stdout */
    /* the format has messages for the table edges of an incremental snapshot (Maxwell's
     * bootstrap-start/-complete: rc_event_snapshot_edge); false: the pipeline drops them, and a
     * program calling encode_value itself must not give it one (an edge has no row image) */
    bool snapshot_edges;
    const rc_option_desc *options; /* terminated by {NULL} */

    /* Encoder side (NULL when the format cannot encode). */
    rc_status (*enc_new)(const rc_options *opts, void **out, rc_error *err);
    void (*enc_free)(void *enc);
    /* Appends the message value for `ev`; RC_SKIP when the format has no message for it. */
    rc_status (*encode_value)(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
    /* Appends the message key; NULL when the format has no key. */
    rc_status (*encode_key)(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
    /* Formats that group several events into one message (canal.group) hold the last group:
     * encode_value then appends at most one message, the previous group's, and returns
     * RC_PENDING when it appended none. flush appends the held message at the end of the
     * stream (RC_SKIP when there is none). NULL for formats that never hold events. */
    rc_status (*flush)(void *enc, rc_buf *out, rc_error *err);
    /* True while the encoder holds events of a message not emitted yet (grouping); NULL for
     * formats that never hold events. */
    bool (*holding)(void *enc);
    /* True when a tombstone (the same key, a null value) follows this event's message, as
     * Debezium writes after a delete. NULL for formats without tombstones. */
    bool (*tombstone)(void *enc, const rc_event *ev);
    /* Formats that write some events as several messages (upstream Debezium: an UPDATE that
     * changes the primary key is a delete, its tombstone and a create) fill parts[0..n) (n <=
     * RC_MAX_PARTS, header values in `a`) and return n, each part then encoded in turn as an
     * event of its own; 0: the event is one message. NULL for formats that never split. */
    size_t (*split)(void *enc, const rc_event *ev, rc_event_part *parts, rc_arena *a);
    /* Where the format sends this event's message when not to the table's topic (upstream
     * Debezium: heartbeats to __debezium-heartbeat.<server>, partition 0): appends the topic
     * name and sets *partition (-1: the partitioner decides); RC_SKIP: the table's topic. NULL
     * for formats that always use the table's topic. */
    rc_status (*route)(void *enc, const rc_event *ev, rc_buf *topic, int32_t *partition);
    /* The topic template (--topic, rc_topic_template's) the tables' topics have, told once
     * after enc_new, for formats whose own naming starts from it (upstream Debezium's unicode and
     * regex topic.naming.strategy, which then name the tables' topics in `route`). NULL for the
     * others; a program that calls encode itself may leave it uncalled (the "debezium" preset). */
    void (*set_topics)(void *enc, const char *tmpl);
    /* --on-loss=cut: from now on write what the vendor's own tool writes where the value does
     * not fit the format and the tool is known to cut it, noting each cut in `cuts` (which
     * outlives the encoder); a value with no known cut is still refused. NULL: the format cuts
     * nothing. */
    void (*set_cut)(void *enc, rc_cut_log *cuts);

    /* Decoder side (NULL when the format cannot be read). */
    rc_status (*dec_new)(const rc_options *opts, void **out, rc_error *err);
    void (*dec_free)(void *dec);
    /* Decodes one message into zero or more events appended to `out`, allocating in `a`.
     * Events may point into msg and into `a` (and into caches the decoder keeps for its whole
     * life), so the caller keeps both until it is done with the events; nothing points into
     * memory the decoder reuses for the next message. Error offsets are byte offsets into
     * msg. Returning RC_OK, it may leave a notice in err (rc_error_notice: what the reader
     * cannot know and the user should), which the caller says once. */
    rc_status (*decode)(void *dec, const char *msg, size_t n, rc_arena *a,
                        rc_event_list *out, rc_error *err);
    /* Decodes a record's value with its key, for formats whose key tells what the value does
     * not (Debezium: the key struct names the primary key columns, and is the row of a delete
     * without before image); a null value (a tombstone) is no event. Error offsets are byte
     * offsets into r->rec. NULL: the value is decoded alone and the key ignored. */
    rc_status (*decode_record)(void *dec, const rc_record_in *r, rc_arena *a, rc_event_list *out, rc_error *err);
} rc_format;

/* All registered formats, terminated by NULL. */
RC_API extern const rc_format *const rc_formats[];

/* A name `--from` and `--to` take (docs/formats/README.md): each output is named after the
 * tool that writes it. A name selects a format, and for a flavour of a format (oms-debezium:
 * debezium as OceanBase OMS writes it) also fixes one of its options; an old spelling of
 * before the rule (default, avro, ...) names the current one it stands for. */
typedef struct rc_format_name {
    const char *name;
    const rc_format *format; /* NULL: an input that is not a format of messages (mysql-binlog) */
    /* the option the name fixes (the flavour): the format reads it as if given last, on the
     * side (--from or --to) that names it; NULL: none */
    const char *fixed_key, *fixed_value;
    const char *vendor;  /* whose tool writes it: `rowcast formats` lists the names by it */
    const char *summary; /* NULL: the format's; of an old spelling, what it names */
    const char *now;     /* an old spelling: the current name it stands for; NULL: current */
} rc_format_name;
/* Every name, current ones first, in the order `rowcast formats` lists them; ends at a NULL name. */
RC_API extern const rc_format_name rc_format_names[];
/* The current name that `name` (matched without case) selects, NULL when there is none; *old
 * (optional) is the old spelling's entry when `name` is one, else NULL. */
RC_API const rc_format_name *rc_format_lookup(const char *name, const rc_format_name **old);
/* The format of that name (a format's own, or a current name that fixes no option, or an old
 * spelling of one), matched without case; NULL when there is none. */
RC_API const rc_format *rc_format_find(const char *name);
/* The current name of format f that fixes option key=value, else f's name that fixes none
 * (key NULL: that one); NULL when f has neither. */
RC_API const rc_format_name *rc_format_name_of(const rc_format *f, const char *key, const char *value);
/* The current name closest to an unknown `name` ("did you mean", core/names.h), or NULL. */
RC_API const char *rc_format_suggest(const char *name);

/* Typed option readers: a missing key leaves *out at its default; a bad value is
 * RC_ERR_USAGE naming the key and the accepted values. */
RC_API rc_status rc_options_bool(const rc_options *o, const char *key, bool *out, rc_error *err);
/* `choices` is "a|b|c"; *out is the index of the value given. */
RC_API rc_status rc_options_choice(const rc_options *o, const char *key, const char *choices, int *out, rc_error *err);
RC_API rc_status rc_options_int(const rc_options *o, const char *key, long min, long max, long *out, rc_error *err);
/* A time zone (rowcast/tz.h): "UTC", "Z", "+08:00", "-0530", "+8", or a zone name like
 * "Asia/Shanghai" (tzdata). */
RC_API rc_status rc_options_tz(const rc_options *o, const char *key, rc_tz *out, rc_error *err);

/* Checks that every option key in `o` starting with `prefix` is one of `known`; used by
 * formats to reject typos. */
RC_API rc_status rc_options_check(const rc_options *o, const char *prefix, const rc_option_desc *known,
                                  rc_error *err);

/* Reads the options of `table` (terminated by {NULL}) from `o` into the struct at `target`:
 * rejects a key of `prefix` that is not in the table (rc_options_check), stores every option's
 * default, then every given value (the last occurrence of a key wins) by its type. A bad value
 * is RC_ERR_USAGE naming the key and what it accepts. */
RC_API rc_status rc_options_parse(const rc_options *o, const char *prefix, const rc_option_desc *table, void *target, rc_error *err);
/* What --options shows after "-o KEY=": the choices, or what the value is ("N", "ZONE"). */
RC_API const char *rc_option_values(const rc_option_desc *d);
/* The type as --options names it: "boolean", "choice", "integer from 0 to 9", ... (in buf). */
RC_API const char *rc_option_type_name(const rc_option_desc *d, char *buf, size_t cap);

#endif
