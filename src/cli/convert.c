/* `rowcast convert`: decode messages line by line, encode each event, write one message per
 * line. Bad input is reported with file, line and byte, and handled per --on-error. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/cli.h"
#include "rowcast/format.h"

enum on_error { ON_STOP, ON_SKIP, ON_DEAD };
enum { MAX_OPTS = 128, MAX_SHOWN_ERRORS = 50 };

typedef struct conv {
    const rc_format *from, *to;
    void *dec, *enc;
    enum on_error on_error;
    const char *dead_path;
    FILE *dead;
    bool quiet, progress;
    bool keys;       /* write each event's message key instead of its value */
    bool tombstones; /* write a "null" line where a tombstone message follows */
    unsigned drop;        /* bit (1 << op) set: events of that operation are dropped (--drop) */
    const char **include; /* db.table patterns; NULL = every table */
    size_t ninclude;
    uint64_t filtered;
    rc_arena arena;
    rc_event_list events;
    rc_buf msg;  /* encoded messages of the current input line */
    /* counters */
    uint64_t lines, events_in, written, bytes, bad_lines, not_expressible, errors_shown;
    double t0, last_progress;
} conv;

void cli_usage_convert(void)
{
    fputs("usage: rowcast convert [OPTIONS] [FILE...]\n"
          "\n"
          "Reads messages, one per line, from each FILE (stdin when none, or '-') and writes\n"
          "each event in the target format, one message per line, on stdout. Blank lines are\n"
          "ignored; a trailing '\\r' is removed.\n"
          "\n"
          "  --from FMT             input format (default: native)\n"
          "  --to FMT               output format (default: native)\n"
          "  -o KEY=VALUE           format option, repeatable (rowcast formats --options)\n"
          "  --on-error=MODE        what to do with a line that cannot be converted:\n"
          "                           stop         report it and exit with status 2 (default)\n"
          "                           skip         report it, drop it and go on\n"
          "                           dead-letter:PATH\n"
          "                                        append the line unchanged to PATH and go on\n"
          "  --include DB.TABLE     convert only events of matching tables (shell patterns: shop.*,\n"
          "                         *.orders); repeatable; events without a table always pass\n"
          "  --drop KINDS           drop events of these kinds (comma-separated): ddl, truncate,\n"
          "                         heartbeat, transaction (begin/commit markers), snapshot\n"
          "                         (snapshot reads); counted as filtered out. Tombstones in the\n"
          "                         input carry no event and are always dropped; --tombstones\n"
          "                         decides whether the output has them\n"
          "  --keys                 write each event's message key (the Kafka key) instead of its\n"
          "                         value; \"null\" where the format or the table has none\n"
          "  --tombstones           write a line \"null\" for each tombstone message (upstream\n"
          "                         Debezium writes one after every delete; a Kafka sink sends\n"
          "                         it as a null value)\n"
          "  --quiet, -q            no progress line and no summary on stderr\n"
          "  --help, -h             this text\n"
          "\n"
          "Errors name the file, line and byte: FILE:LINE:COL (file offset N), where COL is the\n"
          "1-based byte column in the line and N the 0-based byte offset in the file.\n"
          "Events the target format has no message for (e.g. a heartbeat in a format without\n"
          "heartbeats) are not written and are counted in the summary.\n",
          stdout);
}

static double now_sec(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void report(conv *c, const char *file, uint64_t lineno, uint64_t line_off, const rc_error *err)
{
    c->errors_shown++;
    if (c->errors_shown > MAX_SHOWN_ERRORS) {
        if (c->errors_shown == MAX_SHOWN_ERRORS + 1) fprintf(stderr, "rowcast: further errors are not shown\n");
        return;
    }
    if (c->progress) fputs("\r\033[K", stderr);
    if (err->offset == RC_NO_OFFSET)
        fprintf(stderr, "rowcast: %s:%llu: %s error: %s\n", file, (unsigned long long)lineno, rc_status_name(err->code),
                err->message);
    else
        fprintf(stderr, "rowcast: %s:%llu:%llu (file offset %llu): %s error: %s\n", file, (unsigned long long)lineno,
                (unsigned long long)err->offset + 1, (unsigned long long)(line_off + err->offset), rc_status_name(err->code),
                err->message);
}

static void show_progress(conv *c, bool final)
{
    double t = now_sec(), el = t - c->t0;
    if (el <= 0) el = 1e-9;
    if (final) {
        if (c->progress) fputs("\r\033[K", stderr);
        fprintf(stderr,
                "rowcast: %llu lines, %llu events, %llu messages written (%llu bytes), %llu bad lines%s, "
                "%llu events not expressible in %s, %llu filtered out (events or messages); %.3f s, %.0f events/s\n",
                (unsigned long long)c->lines, (unsigned long long)c->events_in, (unsigned long long)c->written,
                (unsigned long long)c->bytes, (unsigned long long)c->bad_lines,
                c->on_error == ON_DEAD ? " dead-lettered" : c->on_error == ON_SKIP ? " skipped" : "",
                (unsigned long long)c->not_expressible, c->to->name, (unsigned long long)(c->filtered + c->events.rejected), el,
                c->events_in / el);
        return;
    }
    fprintf(stderr, "\r\033[Krowcast: %llu events, %.0f events/s, %llu bytes", (unsigned long long)c->events_in,
            c->events_in / el, (unsigned long long)c->bytes);
    c->last_progress = t;
}

/* The --drop list as a set of operations; false for an unknown kind. */
static bool parse_drop(const char *list, unsigned *out)
{
    static const struct {
        const char *name;
        unsigned ops;
    } kinds[] = {{"ddl", 1u << RC_OP_DDL},
                 {"truncate", 1u << RC_OP_TRUNCATE},
                 {"heartbeat", 1u << RC_OP_HEARTBEAT},
                 {"transaction", 1u << RC_OP_BEGIN | 1u << RC_OP_COMMIT},
                 {"snapshot", 1u << RC_OP_READ}};
    for (const char *p = list; *p;) {
        size_t n = strcspn(p, ",");
        size_t k = 0;
        while (k < sizeof kinds / sizeof *kinds && !(strlen(kinds[k].name) == n && !strncmp(kinds[k].name, p, n))) k++;
        if (k == sizeof kinds / sizeof *kinds) return false;
        *out |= kinds[k].ops;
        p += n + (p[n] == ',');
    }
    return true;
}

/* Converts one line; RC_OK or the error (already described in err). Output is appended to
 * c->msg only; the caller writes it, so a failing line never produces partial output. */
/* True when the event's db.table matches one of the --include patterns (or there are none).
 * Events without a table (heartbeats, transaction markers) always pass. */
static bool table_included(void *ctx, rc_str db, rc_str table)
{
    const conv *c = ctx;
    if (!c->ninclude || !table.n) return true;
    char name[512];
    snprintf(name, sizeof name, "%.*s.%.*s", (int)db.n, db.p, (int)table.n, table.p);
    for (size_t i = 0; i < c->ninclude; i++)
        if (fnmatch(c->include[i], name, 0) == 0) return true;
    return false;
}

static bool included(const conv *c, const rc_event *ev) { return table_included((void *)c, ev->src.db, ev->src.table); }

static rc_status convert_line(conv *c, const char *line, size_t n, rc_error *err)
{
    c->events.count = 0;
    rc_status st = c->from->decode(c->dec, line, n, &c->arena, &c->events, err);
    if (st != RC_OK) return st;
    c->events_in += c->events.count;
    for (size_t i = 0; i < c->events.count; i++) {
        if (!included(c, &c->events.items[i]) || (c->drop >> c->events.items[i].op & 1)) {
            c->filtered++;
            continue;
        }
        size_t mark = c->msg.len;
        if (c->keys) {
            /* the key of the event's message; "null" where the format or table has none */
            st = c->to->encode_key ? c->to->encode_key(c->enc, &c->events.items[i], &c->msg, err) : RC_SKIP;
            if (st == RC_SKIP) c->msg.len = mark, RC_BUF_LIT(&c->msg, "null"), st = RC_OK;
        } else {
            st = c->to->encode_value(c->enc, &c->events.items[i], &c->msg, err);
        }
        if (st == RC_SKIP) {
            c->msg.len = mark;
            c->not_expressible++;
            continue;
        }
        if (st == RC_PENDING) continue; /* held for a grouped message; written later */
        bool tomb = c->to->tombstone && c->to->tombstone(c->enc, &c->events.items[i]);
        if (st != RC_OK) return st;
        if (!c->to->binary) rc_buf_putc(&c->msg, '\n');
        if (tomb && c->tombstones) {
            /* the tombstone's key (with --keys) or its null value */
            size_t tm = c->msg.len;
            if (c->keys && c->to->encode_key(c->enc, &c->events.items[i], &c->msg, err) != RC_OK) c->msg.len = tm;
            if (!c->keys) RC_BUF_LIT(&c->msg, "null");
            rc_buf_putc(&c->msg, '\n');
            c->written++;
        }
        if (c->msg.err != RC_OK) return rc_error_set(err, c->msg.err, RC_NO_OFFSET, "output buffer: %s", rc_status_name(c->msg.err));
        c->written++;
    }
    return RC_OK;
}

static int convert_stream(conv *c, FILE *in, const char *name)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    uint64_t lineno = 0, off = 0;
    int rc = EXIT_OK;
    while ((got = getline(&line, &cap, in)) > 0) {
        lineno++;
        c->lines++;
        uint64_t line_off = off;
        off += (uint64_t)got;
        size_t n = (size_t)got;
        if (n && line[n - 1] == '\n') n--;
        if (n && line[n - 1] == '\r') n--;
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
        if (k == n) {
            c->lines--;
            continue;
        }
        rc_error err;
        rc_error_clear(&err);
        rc_buf_reset(&c->msg);
        rc_arena_reset(&c->arena);
        rc_status st = convert_line(c, line, n, &err);
        if (st == RC_OK) {
            if (c->msg.len && fwrite(c->msg.data, 1, c->msg.len, stdout) != c->msg.len) {
                fprintf(stderr, "rowcast: writing output: %s\n", strerror(errno));
                rc = EXIT_IO;
                break;
            }
            c->bytes += c->msg.len;
        } else {
            c->bad_lines++;
            report(c, name, lineno, line_off, &err);
            if (c->on_error == ON_STOP) {
                rc = EXIT_DATA;
                break;
            }
            if (c->on_error == ON_DEAD) {
                if (fwrite(line, 1, (size_t)got, c->dead) != (size_t)got ||
                    (line[got - 1] != '\n' && fputc('\n', c->dead) == EOF)) {
                    fprintf(stderr, "rowcast: writing dead-letter file %s: %s\n", c->dead_path, strerror(errno));
                    rc = EXIT_IO;
                    break;
                }
            }
        }
        if (c->progress && (c->lines & 1023) == 0 && now_sec() - c->last_progress >= 1.0) show_progress(c, false);
    }
    if (rc == EXIT_OK && ferror(in)) {
        fprintf(stderr, "rowcast: reading %s: %s\n", name, strerror(errno));
        rc = EXIT_IO;
    }
    free(line);
    return rc;
}

static int usage_error(const char *fmt, const char *arg)
{
    fputs("rowcast convert: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\n(see rowcast help convert)\n", stderr);
    return EXIT_USAGE;
}

/* Accepts "--name value" and "--name=value"; returns the value or NULL. */
static const char *opt_value(int argc, char **argv, int *i, const char *name)
{
    size_t l = strlen(name);
    if (strncmp(argv[*i], name, l) != 0) return NULL;
    if (argv[*i][l] == '=') return argv[*i] + l + 1;
    if (argv[*i][l] == '\0' && *i + 1 < argc) return argv[++*i];
    return NULL;
}

int cli_convert(int argc, char **argv)
{
    conv c;
    memset(&c, 0, sizeof c);
    const char *from = "native", *to = "native", *on_error = "stop";
    static rc_option opt_items[MAX_OPTS];
    rc_options opts = {opt_items, 0};
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    size_t nfiles = 0;
    if (!files) return EXIT_IO;
    int rc = EXIT_OK;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            cli_usage_convert();
            free(files);
            return EXIT_OK;
        } else if ((v = opt_value(argc, argv, &i, "--include"))) {
            c.include = c.include ? c.include : calloc((size_t)argc, sizeof *c.include);
            if (!c.include) {
                free(files);
                return EXIT_IO;
            }
            c.include[c.ninclude++] = v;
        } else if ((v = opt_value(argc, argv, &i, "--drop"))) {
            if (!parse_drop(v, &c.drop)) {
                fprintf(stderr, "rowcast convert: --drop %s: kinds are ddl, truncate, heartbeat, transaction, snapshot\n", v);
                free(files);
                free(c.include);
                return EXIT_USAGE;
            }
        } else if (!strcmp(a, "--tombstones")) {
            c.tombstones = true;
        } else if (!strcmp(a, "--keys")) {
            c.keys = true;
        } else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
            c.quiet = true;
        } else if ((v = opt_value(argc, argv, &i, "--from"))) {
            from = v;
        } else if ((v = opt_value(argc, argv, &i, "--to"))) {
            to = v;
        } else if ((v = opt_value(argc, argv, &i, "--on-error"))) {
            on_error = v;
        } else if (!strcmp(a, "-o") || !strncmp(a, "-o", 2)) {
            const char *kv = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
            char *eq = kv ? strchr(kv, '=') : NULL;
            if (!eq || eq == kv) {
                free(files);
                return usage_error("-o needs KEY=VALUE, got '%s'", kv ? kv : "");
            }
            if (opts.count == MAX_OPTS) {
                free(files);
                return usage_error("too many -o options%s", "");
            }
            *eq = '\0';
            opt_items[opts.count].key = kv;
            opt_items[opts.count++].value = eq + 1;
        } else if (a[0] == '-' && a[1]) {
            free(files);
            return usage_error("unknown or incomplete option '%s'", a);
        } else {
            files[nfiles++] = a;
        }
    }
    if (!strcmp(on_error, "stop")) c.on_error = ON_STOP;
    else if (!strcmp(on_error, "skip")) c.on_error = ON_SKIP;
    else if (!strncmp(on_error, "dead-letter:", 12) && on_error[12]) c.on_error = ON_DEAD, c.dead_path = on_error + 12;
    else {
        free(files);
        return usage_error("--on-error must be stop, skip or dead-letter:PATH, not '%s'", on_error);
    }
    c.from = rc_format_find(from);
    c.to = rc_format_find(to);
    if (!c.from || !c.from->decode) {
        free(files);
        return usage_error(c.from ? "format '%s' cannot be read (rowcast formats)" : "unknown format '%s' (rowcast formats)", from);
    }
    if (!c.to || !c.to->encode_value) {
        free(files);
        return usage_error(c.to ? "format '%s' cannot be written (rowcast formats)" : "unknown format '%s' (rowcast formats)", to);
    }
    /* every -o key must belong to one of the two formats */
    for (size_t k = 0; k < opts.count; k++) {
        const char *key = opts.items[k].key;
        size_t fl = strlen(c.from->name), tl = strlen(c.to->name);
        if (!((!strncmp(key, c.from->name, fl) && key[fl] == '.') || (!strncmp(key, c.to->name, tl) && key[tl] == '.'))) {
            free(files);
            return usage_error("option '%s' belongs to neither the input nor the output format", key);
        }
    }
    rc_error err;
    rc_error_clear(&err);
    if (c.from->dec_new(&opts, &c.dec, &err) != RC_OK || c.to->enc_new(&opts, &c.enc, &err) != RC_OK) {
        fprintf(stderr, "rowcast convert: %s\n", err.message);
        if (c.dec) c.from->dec_free(c.dec);
        free(files);
        return EXIT_USAGE;
    }
    if (c.on_error == ON_DEAD && !(c.dead = fopen(c.dead_path, "a"))) {
        fprintf(stderr, "rowcast convert: cannot open dead-letter file %s: %s\n", c.dead_path, strerror(errno));
        rc = EXIT_IO;
    }
    static char outbuf[1 << 20];
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    rc_arena_init(&c.arena);
    rc_buf_init(&c.msg, 0);
    c.progress = !c.quiet && isatty(2);
    if (c.ninclude) c.events.accept = table_included, c.events.accept_ctx = &c;
    c.t0 = c.last_progress = now_sec();
    if (!nfiles) files[nfiles++] = "-";
    for (size_t k = 0; rc == EXIT_OK && k < nfiles; k++) {
        bool is_stdin = !strcmp(files[k], "-");
        FILE *in = is_stdin ? stdin : fopen(files[k], "rb");
        if (!in) {
            fprintf(stderr, "rowcast convert: cannot open %s: %s\n", files[k], strerror(errno));
            rc = EXIT_IO;
            break;
        }
        rc = convert_stream(&c, in, is_stdin ? "<stdin>" : files[k]);
        if (!is_stdin) fclose(in);
    }
    if (rc == EXIT_OK && c.to->flush) {
        /* the last grouped message the encoder still holds */
        rc_buf_reset(&c.msg);
        rc_status st = c.to->flush(c.enc, &c.msg, &err);
        if (st == RC_OK) {
            if (!c.to->binary) rc_buf_putc(&c.msg, '\n');
            if (fwrite(c.msg.data, 1, c.msg.len, stdout) != c.msg.len) rc = EXIT_IO;
            c.written++;
            c.bytes += c.msg.len;
        } else if (st != RC_SKIP) {
            fprintf(stderr, "rowcast: %s error: %s\n", rc_status_name(err.code), err.message);
            rc = EXIT_DATA;
        }
    }
    if (fflush(stdout) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "rowcast: writing output: %s\n", strerror(errno));
        rc = EXIT_IO;
    }
    if (c.dead && fclose(c.dead) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "rowcast: closing dead-letter file %s: %s\n", c.dead_path, strerror(errno));
        rc = EXIT_IO;
    }
    if (!c.quiet) show_progress(&c, true);
    c.from->dec_free(c.dec);
    c.to->enc_free(c.enc);
    rc_event_list_fini(&c.events);
    free(c.include);
    rc_arena_fini(&c.arena);
    rc_buf_fini(&c.msg);
    free(files);
    return rc;
}
