/* The text of a scrape (pipeline/metrics.h): Prometheus's text exposition format 0.0.4, every
 * family with its # HELP and # TYPE lines, in a fixed order, integers exact (never through a
 * double). docs/metrics.md lists the same metrics; the two change together. */
#include <stddef.h>
#include <stdio.h>
#include "core/fmt.h"
#include "pipeline/metrics.h"
#include "core/run_state.h"

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

/* A label value as the exposition format escapes it: backslash, double quote and line feed. */
static void label_value(rc_buf *b, const char *v)
{
    for (; *v; v++) {
        if (*v == '\\' || *v == '"') rc_buf_putc(b, '\\');
        if (*v == '\n') RC_BUF_LIT(b, "\\n");
        else rc_buf_putc(b, *v);
    }
}

/* name{key="value"} and name{key="value",key2="value2"} when key2 is given, and a space. */
static void labels(rc_buf *b, const char *name, const char *key, const char *value, const char *key2,
                   const char *value2)
{
    rc_buf_puts(b, name);
    rc_buf_putc(b, '{');
    rc_buf_puts(b, key);
    RC_BUF_LIT(b, "=\"");
    label_value(b, value);
    if (key2) {
        RC_BUF_LIT(b, "\",");
        rc_buf_puts(b, key2);
        RC_BUF_LIT(b, "=\"");
        label_value(b, value2);
    }
    RC_BUF_LIT(b, "\"} ");
}

/* name{key="value"} v, and name{key="value",key2="value2"} v when key2 is given. */
static void labelled(rc_buf *b, const char *name, const char *key, const char *value,
                     const char *key2, const char *value2, uint64_t v)
{
    labels(b, name, key, value, key2, value2);
    rc_fmt_u64(b, v);
    rc_buf_putc(b, '\n');
}

/* The incremental snapshots' families (a source that takes them): per table, by state, the
 * pause, the signals. */
static void incsnap(rc_buf *b, const rc_source_stats *src)
{
    static const struct {
        const char *name, *type, *help;
        size_t off;
    } per_table[] = {
        {"rowcast_incremental_snapshot_rows_read_total", "counter",
         "Rows the incremental snapshot of a table read, by table.",
         offsetof(rc_source_incsnap, rows_read)},
        {"rowcast_incremental_snapshot_rows_emitted_total", "counter",
         "Rows of a table's incremental snapshot handed out as reads, by table.",
         offsetof(rc_source_incsnap, rows_emitted)},
        {"rowcast_incremental_snapshot_rows_dropped_total", "counter",
         "Rows read that the window dropped (the stream changed their key meanwhile), by table.",
         offsetof(rc_source_incsnap, rows_dropped)},
        {"rowcast_incremental_snapshot_rows_estimate", "gauge",
         "Rows a table's incremental snapshot expects to read, estimated by the database.",
         offsetof(rc_source_incsnap, estimate)},
        {"rowcast_incremental_snapshot_chunks_total", "counter",
         "Chunks of a table the incremental snapshot read, by table.",
         offsetof(rc_source_incsnap, chunks)},
    };
    for (size_t f = 0; f < sizeof per_table / sizeof *per_table; f++) {
        family(b, per_table[f].name, per_table[f].type, per_table[f].help);
        for (size_t i = 0; i < src->nincsnap && i < RC_SOURCE_INCSNAP_TABLES; i++) {
            const rc_source_incsnap *t = &src->incsnap[i];
            uint64_t v;
            memcpy(&v, (const char *)t + per_table[f].off, sizeof v);
            labelled(b, per_table[f].name, "table", t->name, NULL, NULL, v);
        }
    }
    static const char *const states[RC_INCSNAP_STATES] = {"queued", "running", "paused", "done",
                                                          "stopped"};
    family(b, "rowcast_incremental_snapshot_tables", "gauge",
           "Tables of the incremental snapshots, by state.");
    for (int k = 0; k < RC_INCSNAP_STATES; k++)
        labelled(b, "rowcast_incremental_snapshot_tables", "state", states[k], NULL, NULL,
                 src->incsnap_tables[k]);
    single(b, "rowcast_incremental_snapshot_paused", "gauge",
           "1 while a pause-snapshot signal holds the incremental snapshots, else 0.",
           src->incsnap_paused);
    static const char *const types[RC_SIGNAL_TYPES] = {
        "execute-snapshot", "stop-snapshot", "pause-snapshot", "resume-snapshot", "unknown"};
    static const char *const results[RC_SIGNAL_RESULTS] = {"ok", "error", "ignored"};
    family(b, "rowcast_signals_total", "counter", "Signal rows read, by type and result.");
    for (int t = 0; t < RC_SIGNAL_TYPES; t++)
        for (int r = 0; r < RC_SIGNAL_RESULTS; r++)
            labelled(b, "rowcast_signals_total", "type", types[t], "result", results[r],
                     src->signals[t][r]);
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

/* A Kafka source's families: per assigned partition its committed offset, high watermark and
 * lag (messages, seconds); its rebalances by kind and the time its drains took. */
static void kafka_source(rc_buf *b, const rc_source_stats *src)
{
    static const char *const fam[][3] = {
        {"rowcast_kafka_source_committed_offset", "gauge",
         "The offset this member committed last for an assigned partition, as the cluster "
         "confirmed it; absent before the first."},
        {"rowcast_kafka_source_high_watermark", "gauge",
         "An assigned partition's high watermark (the offset after its last message); absent "
         "before it is known."},
        {"rowcast_kafka_source_lag", "gauge",
         "Messages of an assigned partition after its committed offset."},
        {"rowcast_kafka_source_lag_seconds", "gauge",
         "Now minus the timestamp of the last message handed out of an assigned partition, "
         "while it has more; else 0."},
    };
    for (size_t f = 0; f < sizeof fam / sizeof *fam; f++) {
        family(b, fam[f][0], fam[f][1], fam[f][2]);
        for (size_t i = 0; i < src->nparts && i < RC_SOURCE_PARTS; i++) {
            const rc_source_part *p = &src->parts[i];
            int64_t v = f == 0 ? p->committed : f == 1 ? p->high : f == 2 ? (int64_t)p->lag : p->lag_ms;
            char part[16];
            snprintf(part, sizeof part, "%d", (int)p->partition);
            if (v < 0) continue;
            labels(b, fam[f][0], "topic", p->topic, "partition", part);
            if (f == 3) seconds(b, v * 1000);
            else rc_fmt_u64(b, (uint64_t)v);
            rc_buf_putc(b, '\n');
        }
    }
    single(b, "rowcast_kafka_source_lag_total", "gauge",
           "Messages after the committed offsets of every assigned partition.", src->lag_total);
    static const char *const kinds[3] = {"assign", "revoke", "lost"};
    family(b, "rowcast_kafka_source_rebalances_total", "counter",
           "Rebalances this member took part in, by kind: assign, revoke (drained first), lost "
           "(the session timed out).");
    for (int k = 0; k < 3; k++)
        labelled(b, "rowcast_kafka_source_rebalances_total", "kind", kinds[k], NULL, NULL,
                 src->rebalances[k]);
    family(b, "rowcast_kafka_source_drain_seconds_total", "counter",
           "Time spent draining revoked partitions (waiting for the acknowledgements of what was "
           "handed out).");
    RC_BUF_LIT(b, "rowcast_kafka_source_drain_seconds_total ");
    seconds(b, src->drain_us);
    rc_buf_putc(b, '\n');
}

/* The Kafka sink's transactions (-o kafka.transactions=true): counted by result, and the time
 * spent committing them (the flush and EndTxn, which the run waits for) as a summary's sum and
 * count. */
static void transactions(rc_buf *b, const rc_sink_txn_stats *t)
{
    family(b, "rowcast_kafka_transactions_total", "counter",
           "Kafka transactions ended, by result (committed; aborted after an error).");
    labelled(b, "rowcast_kafka_transactions_total", "result", "committed", NULL, NULL, t->committed);
    labelled(b, "rowcast_kafka_transactions_total", "result", "aborted", NULL, NULL, t->aborted);
    family(b, "rowcast_kafka_transaction_seconds", "summary",
           "Time spent committing Kafka transactions (the flush and EndTxn), which the run waits for.");
    RC_BUF_LIT(b, "rowcast_kafka_transaction_seconds_sum ");
    seconds(b, t->commit_us);
    rc_buf_putc(b, '\n');
    sample(b, "rowcast_kafka_transaction_seconds_count", t->committed);
    if (!t->eos) return;
    family(b, "rowcast_eos_skipped_total", "counter",
           "--exactly-once: records of the replay after a restart found in Kafka already, not written again.");
    sample(b, "rowcast_eos_skipped_total", t->eos_skipped);
}

/* Whether /ready answers 200, and why not in `why` ("" when ready). */
static bool is_ready(const rc_metrics_values *v, int64_t now_us, char *why, size_t cap)
{
    why[0] = '\0';
    bool bad = v->state == RC_RUN_FAILING || v->state == RC_RUN_STOPPING || v->state == RC_RUN_DONE;
    if (v->role == RC_ROLE_STANDBY) {
        if (bad) snprintf(why, cap, "standby %s", rc_run_state_name((rc_run_state)v->state));
        return !bad;
    }
    if (v->state == RC_RUN_READING) return true;
    if (v->state != RC_RUN_STREAMING) {
        snprintf(why, cap, "%s", rc_run_state_name((rc_run_state)v->state));
        return false;
    }
    uint64_t answered = v->sink.delivered + v->sink.dead_lettered + v->sink.failed;
    bool idle = v->idle && v->sink.sent <= answered;
    if (!v->has_delivered_ts || idle || now_us - v->delivered_ts_us <= v->ready_lag_us) return true;
    snprintf(why, cap, "lagging: more than --ready-lag %lld s behind", (long long)(v->ready_lag_us / 1000000));
    return false;
}

static void run_state(rc_buf *b, const rc_metrics_values *v, int64_t now_us)
{
    family(b, "rowcast_state", "gauge", "1 for the run's current state, 0 for the others.");
    for (int k = 0; k < RC_RUN_STATES; k++)
        labelled(b, "rowcast_state", "state", rc_run_state_name((rc_run_state)k), NULL, NULL, k == v->state);
    family(b, "rowcast_role", "gauge", "1 for the run's role (active; standby: a --standby waiting for the lead), 0 for the others.");
    for (int k = 0; k < RC_RUN_ROLES; k++)
        labelled(b, "rowcast_role", "role", rc_run_role_name((rc_run_role)k), NULL, NULL, k == v->role);
    char why[128];
    single(b, "rowcast_ready", "gauge", "1 while /ready answers 200, else 0.", is_ready(v, now_us, why, sizeof why));
}

static void json_field(rc_buf *b, const char *name, const char *value)
{
    RC_BUF_LIT(b, ",\"");
    rc_buf_puts(b, name);
    RC_BUF_LIT(b, "\":\"");
    rc_buf_puts(b, value); /* names of ours and messages without quotes or backslashes */
    rc_buf_putc(b, '"');
}

int rc_metrics_probe(const rc_metrics_values *v, bool ready_probe, int64_t now_us, rc_buf *b)
{
    char why[128];
    bool ready = is_ready(v, now_us, why, sizeof why);
    bool ok = ready_probe ? ready : true;
    RC_BUF_LIT(b, "{\"status\":\"");
    rc_buf_puts(b, ready_probe ? (ready ? "ready" : "not ready") : "alive");
    rc_buf_putc(b, '"');
    json_field(b, "state", rc_run_state_name((rc_run_state)v->state));
    json_field(b, "role", rc_run_role_name((rc_run_role)v->role));
    if (v->has_delivered_ts) {
        RC_BUF_LIT(b, ",\"lag_seconds\":");
        seconds(b, now_us - v->delivered_ts_us);
    }
    if (ready_probe) {
        RC_BUF_LIT(b, ",\"ready_lag_seconds\":");
        rc_fmt_i64(b, v->ready_lag_us / 1000000);
    }
    if (ready_probe && !ready) json_field(b, "reason", why);
    RC_BUF_LIT(b, "}\n");
    return ok ? 200 : 503;
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
    for (int op = 0; op < RC_OP_COUNT; op++)
        labelled(b, "rowcast_events_total", "op", rc_op_name((rc_op)op), NULL, NULL, n->by_op[op]);
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
    if (v->has_txn) transactions(b, &v->txn);
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
    if (has && src->has_incsnap) incsnap(b, src);
    if (has && src->has_parts) kafka_source(b, src);
    if (v->has_state) run_state(b, v, now_us);
}
