/* The text of a scrape (pipeline/metrics.h): Prometheus's text exposition format 0.0.4, every
 * family with its # HELP and # TYPE lines, in a fixed order, integers exact (never through a
 * double). docs/metrics.md lists the same metrics; the two change together. */
#include "core/fmt.h"
#include "pipeline/metrics.h"

static void family(rc_buf *b, const char *name, const char *type, const char *help)
{
    RC_BUF_LIT(b, "# HELP ");
    rc_buf_puts(b, name);
    rc_buf_putc(b, ' ');
    rc_buf_puts(b, help);
    RC_BUF_LIT(b, "\n# TYPE ");
    rc_buf_puts(b, name);
    rc_buf_putc(b, ' ');
    rc_buf_puts(b, type);
    rc_buf_putc(b, '\n');
}

static void sample(rc_buf *b, const char *name, uint64_t v)
{
    rc_buf_puts(b, name);
    rc_buf_putc(b, ' ');
    rc_fmt_u64(b, v);
    rc_buf_putc(b, '\n');
}

/* A family of one unlabelled sample. */
static void single(rc_buf *b, const char *name, const char *type, const char *help, uint64_t v)
{
    family(b, name, type, help);
    sample(b, name, v);
}

/* A family of one unlabelled sample, as a row of the tables below. */
typedef struct single_row {
    const char *name, *type, *help;
    uint64_t v;
} single_row;

static void singles(rc_buf *b, const single_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) single(b, rows[i].name, rows[i].type, rows[i].help, rows[i].v);
}

/* Seconds with six decimals from microseconds, exactly. */
static void seconds(rc_buf *b, int64_t us)
{
    uint64_t u = us < 0 ? (uint64_t)0 - (uint64_t)us : (uint64_t)us;
    if (us < 0) rc_buf_putc(b, '-');
    rc_fmt_u64(b, u / 1000000);
    char frac[7];
    uint64_t f = u % 1000000;
    for (int i = 5; i >= 0; i--) frac[i] = (char)('0' + f % 10), f /= 10;
    rc_buf_putc(b, '.');
    rc_buf_put(b, frac, 6);
}

void rc_metrics_format(const rc_metrics_values *v, int64_t now_us, rc_buf *b)
{
    const rc_counts *n = &v->n;
    const rc_sink_stats *s = &v->sink;
    const single_row input[] = {
        {"rowcast_input_items_total", "counter",
         "Input items read: lines for convert (blank ones aside), change messages for a database "
         "source.",
         n->lines},
        {"rowcast_input_bytes_total", "counter", "Input bytes of the items handled.", n->bytes},
        {"rowcast_errors_total", "counter",
         "Input items that could not be converted (handled per --on-error).", n->bad},
    };
    singles(b, input, sizeof input / sizeof *input);
    family(b, "rowcast_events_total", "counter", "Events handed to the encoder, by operation.");
    for (int op = 0; op < RC_OP_COUNT; op++) {
        RC_BUF_LIT(b, "rowcast_events_total{op=\"");
        rc_buf_puts(b, rc_op_name((rc_op)op));
        RC_BUF_LIT(b, "\"} ");
        rc_fmt_u64(b, n->by_op[op]);
        rc_buf_putc(b, '\n');
    }
    uint64_t answered = s->delivered + s->dead_lettered + s->failed;
    const single_row output[] = {
        {"rowcast_events_filtered_total", "counter",
         "Events excluded by --include or dropped by --drop.", n->filtered},
        {"rowcast_events_not_expressible_total", "counter",
         "Events the target format has no message for.", n->not_expressible},
        {"rowcast_rows_refused_total", "counter",
         "Rows with a value the target format cannot hold, left out or dead-lettered (--on-loss).",
         n->refused},
        {"rowcast_rows_cut_total", "counter",
         "Rows written with a value cut to what the target format holds (--on-loss=cut).", n->cut},
        {"rowcast_sink_messages_sent_total", "counter", "Messages handed to the sink.", s->sent},
        {"rowcast_sink_messages_acknowledged_total", "counter",
         "Messages the sink acknowledged (Kafka: delivery reports; stdout and file: flushed, a "
         "file fsync'ed).",
         s->delivered},
        {"rowcast_sink_messages_dead_lettered_total", "counter",
         "Messages refused for good and written to the dead-letter file.", s->dead_lettered},
        {"rowcast_sink_messages_failed_total", "counter",
         "Messages refused for good, not dead-lettered.", s->failed},
        {"rowcast_sink_bytes_total", "counter", "Key and value bytes handed to the sink.", s->bytes},
        {"rowcast_sink_queue_depth", "gauge",
         "Messages sent and not answered yet (sent - acknowledged - dead-lettered - failed).",
         s->sent > answered ? s->sent - answered : 0},
    };
    singles(b, output, sizeof output / sizeof *output);
    family(b, "rowcast_lag_seconds", "gauge",
           "Now minus the source time (commit time) of the last event the sink acknowledged; "
           "absent before the first.");
    if (v->has_delivered_ts) {
        RC_BUF_LIT(b, "rowcast_lag_seconds ");
        seconds(b, now_us - v->delivered_ts_us);
        rc_buf_putc(b, '\n');
    }
    const rc_source_stats *src = &v->source;
    family(b, "rowcast_source_ack_position", "gauge",
           "Last position acknowledged to the source as a number (PostgreSQL: the LSN); absent "
           "when there is none.");
    if (v->has_source && src->has_ack_position)
        sample(b, "rowcast_source_ack_position", src->ack_position);
    bool has = v->has_source;
    const single_row snapshot[] = {
        {"rowcast_snapshot_running", "gauge", "1 while the source reads its snapshot, else 0.",
         has && src->in_snapshot},
        {"rowcast_snapshot_tables", "gauge", "Tables in the snapshot.",
         has ? src->snapshot_tables_total : 0},
        {"rowcast_snapshot_tables_done", "gauge", "Tables of the snapshot read completely.",
         has ? src->snapshot_tables_done : 0},
        {"rowcast_snapshot_rows_total", "counter", "Rows the snapshot read.",
         has ? src->snapshot_rows_read : 0},
        {"rowcast_snapshot_rows_estimate", "gauge",
         "Rows the snapshot expects to read, estimated by the database.",
         has ? src->snapshot_rows_estimate : 0},
    };
    singles(b, snapshot, sizeof snapshot / sizeof *snapshot);
}
