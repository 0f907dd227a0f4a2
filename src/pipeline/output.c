/* The pipeline's output side: filters and encodes each item's events (holding the Canal
 * statement group), routes them (topic, key, headers), hands the messages to the sink in
 * stream order, reports bad items per --on-error, marks the sink with each item's position,
 * counts (rc_counts) what the summary and the progress line say. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline_impl.h"
#include "core/fmt.h"
#include "pipeline/order_key.h"
#include "core/log.h"

/* A bad item's error, at its line and byte: in a message over several lines (pretty-printed
 * JSON), the line of the input the offset falls in and the byte within that line. */
static void report(rc_pipeline *c, const rc_source_item *ln, const char *text, const rc_error *err)
{
    const char *file = ln->file;
    uint64_t lineno = ln->lineno, line_off = ln->file_off, col = err->offset;
    if (ln->lines > 1 && err->offset != RC_NO_OFFSET)
        for (size_t i = 0; i < err->offset && i < ln->n; i++)
            if (text[i] == '\n') lineno++, col = err->offset - i - 1;
    if (!rc_pipeline_error_shown(c)) return;
    rc_log_fields lf = {.level = "error", .file = file, .line = lineno, .code = rc_status_name(err->code)};
    if (!lineno) /* a database's message: the error names its place (table, LSN) */
        rc_logf_with(&lf, "rowcast: %s: %s error: %s\n", file, rc_status_name(err->code), err->message);
    else if (err->offset == RC_NO_OFFSET)
        rc_logf_with(&lf, "rowcast: %s:%llu: %s error: %s\n", file, (unsigned long long)lineno, rc_status_name(err->code),
                err->message);
    else
        rc_logf_with(&lf, "rowcast: %s:%llu:%llu (file offset %llu): %s error: %s\n", file, (unsigned long long)lineno,
                (unsigned long long)col + 1, (unsigned long long)(line_off + err->offset), rc_status_name(err->code),
                err->message);
}

/* An event the encoder declined because it is of a kind the format has no message for, with
 * the reason (a DDL in OGG's JSON): the line is not bad, the event is counted as not
 * expressible. A row goes to --on-loss (loss.c). */
static void report_unexpressible(rc_pipeline *c, const rc_source_item *ln, const rc_event *ev, const rc_error *err)
{
    if (!rc_pipeline_error_shown(c)) return;
    char at[128];
    rc_pipeline_where(ln, ev, at, sizeof at);
    rc_event_log_fields lf;
    rc_pipeline_log_fields(ln, ev, err, &lf);
    rc_logf_with(&lf.f, "rowcast: %s%s: %s error: %s; the event is not written (not expressible in %s)\n", ln->file, at,
            rc_status_name(err->code), err->message, c->to->name);
}

/* The origin of the message a grouping encoder emits: the group it held, copied into the
 * line's arena (the held copy itself is overwritten by the next group). */
static void held_set(rc_pipeline *c, const rc_event *ev)
{
    rc_held *h = &c->held;
    const rc_str *f[4] = {&ev->src.server, &ev->src.db, &ev->src.schema, &ev->src.table};
    for (int k = 0; k < 4; k++) {
        size_t n = f[k]->n < sizeof h->s[k] ? f[k]->n : sizeof h->s[k];
        if (n) memcpy(h->s[k], f[k]->p, n);
        h->n[k] = n;
    }
    h->op = ev->op;
}

static void held_origin(rc_pipeline *c, rc_arena *a, rc_out_rec *r)
{
    rc_str *f[4] = {&r->src.server, &r->src.db, &r->src.schema, &r->src.table};
    memset(&r->src, 0, sizeof r->src);
    for (int k = 0; k < 4; k++) {
        char *p = c->held.n[k] ? rc_arena_alloc(a, c->held.n[k]) : NULL;
        if (p) memcpy(p, c->held.s[k], c->held.n[k]), *f[k] = (rc_str){p, c->held.n[k]};
    }
    r->op = c->held.op;
}

static rc_out_rec *push_rec(rc_pipeline *c)
{
    if (c->nrecs == c->caprecs) {
        size_t cap = c->caprecs ? c->caprecs * 2 : 16;
        rc_out_rec *n = realloc(c->recs, cap * sizeof *n);
        if (!n) return NULL;
        c->recs = n, c->caprecs = cap;
    }
    rc_out_rec *r = &c->recs[c->nrecs++];
    memset(r, 0, sizeof *r);
    r->partition = -1;
    return r;
}

/* Appends the message key of `ev` to c->msg into r; no key where the format or table has none. */
static rc_status put_key(rc_pipeline *c, const rc_event *ev, rc_out_rec *r, rc_error *err)
{
    if (!c->to->encode_key || !c->need_keys) return RC_OK;
    size_t mark = c->msg.len;
    rc_status st = c->to->encode_key(c->enc, ev, &c->msg, err);
    if (st == RC_SKIP) {
        c->msg.len = mark;
        return RC_OK;
    }
    if (st != RC_OK) return st;
    r->has_key = true, r->koff = mark, r->klen = c->msg.len - mark;
    return RC_OK;
}

/* Encodes one message (a part of an event: rc_format.split) into c->recs: its value, key,
 * topic, header, and the tombstone after it; RC_SKIP (err says why when it is a value the
 * format cannot hold) or RC_PENDING as encode_value says. */
static rc_status encode_part(rc_pipeline *c, const rc_event *ev, const char *header, rc_str header_value, bool was_holding,
                             rc_arena *a, rc_error *err)
{
    size_t mark = c->msg.len;
    rc_status st = c->to->encode_value(c->enc, ev, &c->msg, err);
    if (st == RC_SKIP) c->msg.len = mark;
    if (st != RC_OK) return st;
    rc_out_rec *r = push_rec(c);
    if (!r) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    r->voff = mark, r->vlen = c->msg.len - mark;
    if (c->block_max) rc_buf_putc(&c->msg, '\n'); /* the line as the sink writes it (send_records) */
    if (was_holding) {
        held_origin(c, a, r); /* the group the encoder held: several rows, no one key */
        return RC_OK;
    }
    r->src = ev->src, r->op = ev->op, r->lsn = ev->pos.lsn;
    r->header = header, r->header_value = header_value;
    if ((st = put_key(c, ev, r, err)) != RC_OK) return st;
    size_t tm = c->msg.len;
    if (c->routed && c->to->route && c->to->route(c->enc, ev, &c->msg, &r->partition) == RC_OK)
        r->has_topic = true, r->toff = tm, r->tlen = c->msg.len - tm;
    if (c->tombstones && c->to->tombstone && c->to->tombstone(c->enc, ev)) {
        rc_out_rec *t = push_rec(c);
        if (!t) return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
        *t = c->recs[c->nrecs - 2]; /* with the message's header, as Debezium's tombstone */
        t->null_value = true;
        if (c->block_max) rc_buf_puts(&c->msg, "null\n");
    }
    return RC_OK;
}

/* -o kafka.order.header: the records a part of event `ev` of item `ln` made from `from` on get
 * their order key: the group the encoder held, its first event's; the event's own, numbered
 * after its records before (a line's: after the line's). What the encoder holds afterwards is
 * keyed by this event when it started holding here (not a row added to a group it holds). */
static void order_part(rc_pipeline *c, const rc_source_item *ln, uint64_t ev, size_t from, bool was_holding)
{
    for (size_t k = from; k < c->nrecs; k++) {
        rc_out_rec *r = &c->recs[k];
        if (was_holding) r->ord = c->held_ord, r->ord_ev = c->held_ord_ev, r->ord_rec = (unsigned)(k - from);
        else r->ord = ln->order, r->ord_ev = ev, r->ord_rec = c->ord_rec++;
    }
    if (c->to->holding && c->to->holding(c->enc) && (!was_holding || c->nrecs > from))
        c->held_ord = ln->order, c->held_ord_ev = ev;
}

/* Encodes the events of one line into c->recs (messages in c->msg) and counts them in `n`
 * (added to the run's counts once the line is sent); RC_OK or the error (already described in
 * err). Nothing is sent before the whole line converted, so a failing line never produces
 * partial output. */
static rc_status convert_line(rc_pipeline *c, const rc_source_item *ln, const rc_event *evs, size_t count, rc_arena *a, rc_counts *n, rc_error *err)
{
    rc_status st;
    c->nrecs = 0;
    c->ord_rec = 0;
    n->events = count;
    for (size_t i = 0; i < count; i++) {
        const rc_event *ev = &evs[i];
        if (ln->order.src != 'l') c->ord_rec = 0; /* records numbered per event; a line's per line */
        /* DB is the schema where there is no database, as the readers check it (Oracle, PostgreSQL);
         * PostgreSQL capture matches SCHEMA.TABLE */
        rc_str db = c->include_schema || !ev->src.db.n ? ev->src.schema : ev->src.db;
        /* an incremental snapshot's table edge goes only to a format that writes it */
        if (!rc_pipeline_event_included(c, db, ev->src.table) || (c->drop >> ev->op & 1) ||
            (!c->to->snapshot_edges && rc_event_snapshot_edge(ev))) {
            n->filtered++;
            continue;
        }
        rc_event_part parts[RC_MAX_PARTS];
        size_t np = c->to->split ? c->to->split(c->enc, ev, parts, a) : 0;
        size_t mark = c->msg.len, nrecs = c->nrecs;
        bool held_before = c->to->holding && c->to->holding(c->enc);
        rc_error_clear(err);
        st = RC_SKIP;
        for (size_t k = 0; k < (np ? np : 1); k++) { /* the parts, or the event as it is */
            /* asked for each part: a part may release what the encoder held (Maxwell's held row)
             * and the next be of the event itself */
            bool was_holding = c->to->holding && c->to->holding(c->enc);
            const rc_event *pev = np ? &parts[k].ev : ev;
            size_t from = c->nrecs;
            rc_status pst = encode_part(c, pev, np ? parts[k].header : NULL, np ? parts[k].header_value : (rc_str){0}, was_holding, a, err);
            if (c->order_header) order_part(c, ln, i, from, was_holding);
            /* what the encoder now holds came from this part: a message it writes later (the next
             * part's, the end's) goes where this part would */
            if ((pst == RC_OK || pst == RC_PENDING) && c->to->holding && c->to->holding(c->enc)) held_set(c, pev);
            if (pst == RC_SKIP && !err->message[0]) continue; /* no message for this part (skipped.operations) */
            if (pst == RC_SKIP || (pst != RC_OK && pst != RC_PENDING)) {
                st = pst;
                break;
            }
            st = pst;
        }
        if (st == RC_SKIP) { /* every part of the event, or none */
            c->msg.len = mark, c->nrecs = nrecs;
            rc_cut_drop(&c->cuts);
            if (err->message[0] && ev->op <= RC_OP_READ) { /* a row with a value the format cannot hold */
                if ((c->loss_rc = rc_pipeline_loss(c, ln, ev, err)) != RC_EXIT_OK) return err->code ? err->code : RC_ERR_UNSUPPORTED;
                n->refused++;
                rc_error_clear(err);
                continue;
            }
            n->not_expressible++;
            if (!err->message[0] && (ev->op == RC_OP_BEGIN || ev->op == RC_OP_COMMIT)) n->markers++;
            if (err->message[0]) report_unexpressible(c, ln, ev, err);
            rc_error_clear(err);
            continue;
        }
        if (st != RC_OK && st != RC_PENDING) {
            rc_cut_drop(&c->cuts); /* the line is bad: nothing of it is written, nothing cut */
            return st;
        }
        if (c->cuts.npending && (n->cut++, rc_cut_commit(&c->cuts, &ev->src)) != RC_OK)
            return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory counting the values cut");
        c->held_pending = c->to->holding && c->to->holding(c->enc);
        if ((ev->op == RC_OP_BEGIN || ev->op == RC_OP_COMMIT) && held_before && !c->held_pending) {
            /* a marker whose call only released what the encoder held (Maxwell's last row of a
             * transaction, written "commit":true then) has no message of its own */
            n->not_expressible++, n->markers++;
            continue;
        }
        n->encoded++;
        n->by_op[ev->op]++;
    }
    if (c->msg.err != RC_OK) return rc_error_set(err, c->msg.err, RC_NO_OFFSET, "output buffer: %s", rc_status_name(c->msg.err));
    return RC_OK;
}

/* The topic of record `o` then its route ("db.table", empty without a table) in c->topic, the
 * topic's length in c->topic_len. Consecutive records of one table reuse the last expansion. */
static bool route_of(rc_pipeline *c, const rc_out_rec *o)
{
    const rc_str *f[4] = {&o->src.server, &o->src.db, &o->src.schema, &o->src.table};
    if (!o->has_topic && c->topic_cached) {
        const char *k = c->topic_key.data;
        size_t n = c->topic_key.len, at = 0, i = 0;
        for (; i < 4 && at + sizeof(size_t) <= n; i++) {
            size_t l;
            memcpy(&l, k + at, sizeof l);
            at += sizeof l;
            if (l != f[i]->n || at + l > n || (l && memcmp(k + at, f[i]->p, l))) break;
            at += l;
        }
        if (i == 4) return true;
    }
    rc_buf_reset(&c->topic);
    if (o->has_topic) rc_buf_put(&c->topic, c->msg.data + o->toff, o->tlen);
    else {
        rc_origin src = o->src;
        if (c->server_forced) src.server = (rc_str){c->server, strlen(c->server)};
        rc_topic_expand(c->topic_tmpl, &src, c->server, &c->topic);
    }
    c->topic_len = c->topic.len;
    if (o->src.table.n) {
        rc_buf_put(&c->topic, o->src.db.p, o->src.db.n);
        rc_buf_putc(&c->topic, '.');
        rc_buf_put(&c->topic, o->src.table.p, o->src.table.n);
    }
    c->topic_cached = !o->has_topic;
    rc_buf_reset(&c->topic_key);
    for (int i = 0; c->topic_cached && i < 4; i++) {
        rc_buf_put(&c->topic_key, &f[i]->n, sizeof f[i]->n);
        rc_buf_put(&c->topic_key, f[i]->p, f[i]->n);
    }
    return c->topic.err == RC_OK && c->topic_key.err == RC_OK;
}

/* With a sink that takes blocks (c->block_max): whether c->msg holds the records and nothing
 * else, each line as the sink writes it (the value and "\n", "null\n" for a tombstone), and
 * their bytes. Not so for a group an encoder wrote at the end (flush), nor one it held. */
static bool one_block(const rc_pipeline *c, uint64_t *bytes)
{
    size_t at = 0;
    *bytes = 0;
    for (size_t i = 0; i < c->nrecs; i++) {
        const rc_out_rec *o = &c->recs[i];
        if (o->null_value ? at + 5 > c->msg.len || memcmp(c->msg.data + at, "null\n", 5)
                          : o->voff != at || at + o->vlen >= c->msg.len || c->msg.data[at + o->vlen] != '\n')
            return false;
        at += o->null_value ? 5 : o->vlen + 1;
        *bytes += o->null_value ? 0 : o->vlen;
    }
    return at == c->msg.len;
}

/* The rowcast.eos header's value of record o in c->eos: "SERVER ORDER"; false when the order
 * key does not fit its width (more records from one event than it numbers). */
static bool order_value(rc_pipeline *c, const rc_out_rec *o)
{
    char key[RC_ORDER_KEY_MAX];
    size_t n = rc_order_key(&o->ord, o->ord_ev, o->ord_rec, key);
    rc_buf_reset(&c->eos);
    rc_buf_puts(&c->eos, c->server);
    rc_buf_putc(&c->eos, ' ');
    rc_buf_put(&c->eos, key, n);
    return n && c->eos.err == RC_OK;
}

/* Sends the records of one line (or the final group) to the sink: as one block when the sink
 * takes them so (a file's: written without a copy), else one at a time. */
static rc_status send_records(rc_pipeline *c, const char *file, uint64_t line_off, rc_error *err)
{
    uint64_t bytes;
    if (c->block_max && c->nrecs && c->nrecs <= c->block_max && one_block(c, &bytes))
        return rc_sink_send_block(c->sink, &c->msg, c->nrecs, bytes, err);
    if (c->routed) { /* the source position header: input file and line offset */
        rc_buf_reset(&c->pos);
        rc_buf_puts(&c->pos, file);
        rc_buf_putc(&c->pos, ':');
        rc_fmt_u64(&c->pos, line_off);
    }
    for (size_t i = 0; i < c->nrecs; i++) {
        const rc_out_rec *o = &c->recs[i];
        rc_record r;
        memset(&r, 0, sizeof r);
        r.partition = o->partition;
        if (o->has_key) r.key = c->msg.data + o->koff, r.key_len = o->klen;
        if (!o->null_value) r.value = c->msg.data + o->voff, r.value_len = o->vlen;
        if (c->routed) {
            if (!route_of(c, o)) return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET, "topic name too long");
            r.topic = c->topic.data, r.topic_len = c->topic_len;
            r.route = c->topic.data + c->topic_len, r.route_len = c->topic.len - c->topic_len;
            rc_header *h = r.headers;
            const char *op = rc_op_name(o->op);
            *h++ = (rc_header){"rowcast.op", op, strlen(op)};
            if (o->src.db.n) *h++ = (rc_header){"rowcast.db", o->src.db.p, o->src.db.n};
            if (o->src.table.n) *h++ = (rc_header){"rowcast.table", o->src.table.p, o->src.table.n};
            *h++ = (rc_header){"rowcast.format", c->to->name, strlen(c->to->name)};
            if (c->database) { /* the change's LSN (a snapshot row has none) */
                if (o->lsn.n) *h++ = (rc_header){"rowcast.position", o->lsn.p, o->lsn.n};
            } else {
                *h++ = (rc_header){"rowcast.position", c->pos.data, c->pos.len};
            }
            if (o->ord.src && c->order_header) {
                if (!order_value(c, o))
                    return rc_error_set(err, RC_ERR_LIMIT, RC_NO_OFFSET, "-o kafka.order.header: no order key for record %u of event %llu (at most %d records per event)",
                                        o->ord_rec, (unsigned long long)o->ord_ev, RC_ORDER_RECORDS);
                *h++ = (rc_header){"rowcast.eos", c->eos.data, c->eos.len};
            }
            if (o->header) *h++ = (rc_header){o->header, o->header_value.p, o->header_value.n};
            r.nheaders = (size_t)(h - r.headers);
        }
        rc_status st = rc_sink_send(c->sink, &r, err);
        if (st != RC_OK) return st;
    }
    return RC_OK;
}

static int flush_held(rc_pipeline *c, const char *file, uint64_t off);

/* Handles one decoded batch in stream order: bad items per --on-error, the others encoded and
 * sent; marks every item's end position in the sink, for the checkpoint. */
int rc_pipeline_output(rc_pipeline *c, rc_batch *b)
{
    for (size_t i = 0; i < b->n; i++) {
        const rc_source_item *ln = &b->lines[i];
        if (*c->stop) return RC_EXIT_OK;
        /* a Kafka source: what the encoder holds (Maxwell's row waiting for its transaction's
         * end) is of one partition's message, and an item of another partition does not end
         * it: it goes now, named by its own message, and the items before are marked (else
         * the held row would carry the next partition's position, and nothing would be marked
         * while every message leaves a row held) */
        if (c->hold_per_file && c->held_pending && strcmp(c->held_file, ln->file)) {
            int frc = flush_held(c, c->held_file, c->held_off);
            if (frc != RC_EXIT_OK) return frc;
        }
        c->end_off = ln->end_off, c->end_line = ln->lineno, c->end_pos = ln->end;
        c->n.bytes += ln->raw;
        if (ln->blank) {
            c->n.comments += ln->comment;
            if (!c->held_pending) rc_sink_mark(c->sink, &ln->end);
            continue;
        }
        c->n.lines++;
        c->n.multiline += ln->pretty;
        rc_error err = ln->err;
        rc_buf_reset(&c->msg);
        rc_status st = ln->st;
        rc_counts n = {0};
        if (st == RC_OK && err.message[0]) { /* the reader's notice (rc_error_notice), not an error */
            rc_pipeline_progress_clear(c);
            rc_logf("rowcast: %s:%llu: warning: %s\n", ln->file, (unsigned long long)ln->lineno, err.message);
        }
        if (st == RC_OK && ln->filtered && !ln->ev_count) {
            c->n.lines_filtered++;
        } else if (st == RC_OK && (st = convert_line(c, ln, b->events.items + ln->ev_first, ln->ev_count, &b->arena, &n, &err)) == RC_OK) {
            if (send_records(c, ln->file, ln->file_off, &err) != RC_OK) {
                c->n.interrupted++;
                if (*c->stop) return RC_EXIT_OK; /* a signal ended the wait for room: main says so */
                rc_pipeline_progress_clear(c);
                rc_logf("rowcast: %s:%llu: %s\n", ln->file, (unsigned long long)ln->lineno, err.message);
                c->sink_failed = true;
                return RC_EXIT_IO;
            }
            c->n.converted++;
            c->n.events += n.events, c->n.encoded += n.encoded;
            c->n.filtered += n.filtered, c->n.not_expressible += n.not_expressible, c->n.markers += n.markers;
            c->n.refused += n.refused, c->n.cut += n.cut;
            for (int k = 0; k < RC_OP_COUNT; k++) c->n.by_op[k] += n.by_op[k];
            rc_pipeline_lag_events(c, b->events.items + ln->ev_first, ln->ev_count);
            if (c->held_pending && n.encoded) /* the encoder holds this item's (hold_per_file) */
                snprintf(c->held_file, sizeof c->held_file, "%s", ln->file), c->held_off = ln->file_off;
        }
        if (c->loss_rc) return c->loss_rc; /* --on-loss: said, nothing of the item written nor marked */
        if (st != RC_OK) {
            c->n.bad++;
            report(c, ln, b->text + ln->off, &err);
            if (c->on_error == RC_ON_STOP) return RC_EXIT_DATA;
            rc_error derr;
            rc_error_clear(&derr);
            if (c->on_error == RC_ON_DEAD && rc_pipeline_dead_letter(c, b, i, &err, &derr) != RC_EXIT_OK) {
                rc_pipeline_progress_clear(c);
                rc_logf("rowcast: %s\n", derr.message);
                return RC_EXIT_IO;
            }
        }
        /* a grouping encoder still holding events: this line is not complete yet; an item
         * inside a transaction ends at no position of its own (the sink's sizes at a mark
         * are where a resumed run cuts its file back to) */
        if (!c->held_pending) {
            if (!ln->inside) rc_sink_mark(c->sink, &ln->end);
            rc_pipeline_lag_mark(c);
        }
        if (rc_pipeline_checkpoint(c, false) != 0) return RC_EXIT_IO;
    }
    rc_pipeline_progress(c);
    return b->rc;
}

/* Sends what a grouping encoder holds, as from `file` at `off` (the rowcast.position header),
 * and marks the end of the last item handed: the end of the input, or an item of another file
 * (a Kafka partition) coming next. */
static int flush_held(rc_pipeline *c, const char *file, uint64_t off)
{
    rc_error err;
    rc_error_clear(&err);
    rc_buf_reset(&c->msg);
    rc_arena_reset(&c->arena);
    c->nrecs = 0;
    rc_status st = c->to->flush(c->enc, &c->msg, &err);
    if (st == RC_SKIP) return RC_EXIT_OK;
    if (st != RC_OK) {
        rc_logf("rowcast: %s error: %s\n", rc_status_name(err.code), err.message);
        return RC_EXIT_DATA;
    }
    rc_out_rec *r = push_rec(c);
    if (!r) {
        rc_logf("rowcast: out of memory sending the last %s group\n", c->to->name);
        return RC_EXIT_IO;
    }
    r->voff = 0, r->vlen = c->msg.len;
    r->ord = c->held_ord, r->ord_ev = c->held_ord_ev;
    held_origin(c, &c->arena, r);
    c->held_pending = false;
    if (send_records(c, file, off, &err) != RC_OK) {
        rc_logf("rowcast: %s\n", err.message);
        return RC_EXIT_IO;
    }
    rc_sink_mark(c->sink, &c->end_pos);
    rc_pipeline_lag_mark(c);
    return RC_EXIT_OK;
}

/* Sends the group a grouping encoder still holds (end of input): named by the item it is of
 * (hold_per_file), or as "-" at the end of the input. */
int rc_pipeline_flush_group(rc_pipeline *c)
{
    return c->hold_per_file ? flush_held(c, c->held_file, c->held_off) : flush_held(c, "-", c->end_off);
}

/* What the sink says as it happens (a broker out of reach, a message dead-lettered and why);
 * dead-letter reasons past the first RC_MAX_SHOWN_ERRORS are counted, and the count said at the end. */
void rc_pipeline_sink_notice(void *ctx, rc_sink_notice kind, const char *text)
{
    rc_pipeline *c = ctx;
    if (kind == RC_SINK_NOTICE_DEAD_LETTER && ++c->dead_notices > RC_MAX_SHOWN_ERRORS) return;
    rc_pipeline_progress_clear(c);
    rc_logf("rowcast: %s\n", text);
}

/* Waits for outstanding deliveries, stores the final checkpoint and says what was not
 * delivered. Returns the exit status given, or RC_EXIT_IO when something is undelivered. */
int rc_pipeline_finish(rc_pipeline *c, int rc, long flush_ms)
{
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_sink_flush(c->sink, (int)flush_ms, &err);
    if (c->dead_notices > RC_MAX_SHOWN_ERRORS)
        rc_logf("rowcast: %llu messages refused by Kafka went to the dead-letter file %s; the reasons of the %llu after the first %d are not shown\n",
                (unsigned long long)c->dead_notices, c->dead_path, (unsigned long long)(c->dead_notices - RC_MAX_SHOWN_ERRORS),
                RC_MAX_SHOWN_ERRORS);
    if ((c->ck_path || c->acks) && rc_pipeline_checkpoint(c, true) != 0 && rc == RC_EXIT_OK) rc = RC_EXIT_IO;
    if (st != RC_OK) {
        rc_sink_stats ss;
        rc_sink_get_stats(c->sink, &ss);
        if (!c->sink_failed) rc_logf("rowcast: %s\n", err.message);
        uint64_t undelivered = rc_pipeline_undelivered(&ss);
        rc_logf("rowcast: %llu of %llu messages written were not delivered (%llu undelivered, %llu refused)",
                (unsigned long long)(undelivered + ss.failed), (unsigned long long)ss.sent, (unsigned long long)undelivered,
                (unsigned long long)ss.failed);
        if (c->ck_path && c->ck_written)
            rc_logf("; checkpoint %s at input offset %llu (line %llu)", c->ck_path, (unsigned long long)rc_pos_lines_offset(&c->ck.pos),
                    (unsigned long long)rc_pos_lines_line(&c->ck.pos));
        rc_logf("\n");
        if (rc == RC_EXIT_OK || rc >= 128) rc = RC_EXIT_IO;
    }
    return rc;
}

