/* Upstream Debezium: the encoder's entry. Each event kind goes to the writer of its message (change
 * events here, heartbeats in debezium_heartbeat.c, transaction markers and DDL events in
 * debezium_topics.c); the envelope, source blocks, key and Kafka
 * Connect JSON schemas are those of Debezium's MySQL, PostgreSQL and SQL Server connectors, in
 * the layout of the Debezium release asked for (debezium.compat, debezium.version). The parts:
 * debezium_up_options.c (options, the encoder), debezium_up_types.c (column types), debezium_up_values.c and
 * debezium_up_avro.c (values), debezium_up_source.c (source blocks), debezium_up_schemas.c
 * (names, schemas), debezium_up_names.c (name adjustment), debezium_up_tx.c (transaction
 * blocks), debezium_up_keys.c (keys).
 * See docs/formats/debezium.md. */
#include <string.h>
#include "core/bson.h"
#include "formats/debezium_up_enc.h"
#include "formats/enc_event.h"

/* skipped.operations; by default Debezium 2.x's "t" for PostgreSQL (its truncate events). */
static bool skipped(const up_enc *e, const rc_event *ev, int conn)
{
    if (e->skip_set) return e->skip_ops >> ev->op & 1;
    return ev->op == RC_OP_TRUNCATE && conn == CONN_POSTGRES && e->compat >= 20;
}

/* The transaction block; null without metadata, tested here as that is the common case. */
static void put_tx(up_enc *e, rc_buf *b, const rc_event *ev)
{
    if (e->tx_meta && ev->pos.txid.n) rc_dbz_up_put_transaction(e, b, ev);
    else RC_BUF_LIT(b, "null");
}

/* A change event's value: {before, after, source, [transaction,] op, ts_ms[, ts_us, ts_ns]}. */
static rc_status change_value(up_enc *e, const rc_event *ev, const char *op, rc_buf *b, rc_error *err)
{
    int conn = connector_of(ev->src.kind);
    if (skipped(e, ev, conn)) return RC_SKIP;
    if (conn < 0)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "upstream Debezium has no connector layout for %s sources here",
                            rc_dbkind_name(ev->src.kind));
    if (e->compat < 10 && conn != CONN_MYSQL)
        return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET,
                            "rowcast knows the Debezium 0.x layout of the MySQL connector only; -o debezium.compat=1 writes %s events "
                            "in the 1.0 layout",
                            rc_dbkind_name(ev->src.kind));
    rc_status st = rc_dbz_open_envelope(e, e->value_slots, false, ev, conn, b, err);
    if (st != RC_OK) return st;
    bool has_before = ev->op == RC_OP_UPDATE || ev->op == RC_OP_DELETE;
    bool has_after = ev->op == RC_OP_INSERT || ev->op == RC_OP_READ || ev->op == RC_OP_UPDATE;
    RC_BUF_LIT(b, "{\"before\":");
    if ((st = rc_dbz_up_put_image(e, b, ev, has_before ? ev->before : NULL, err)) != RC_OK) return st;
    RC_BUF_LIT(b, ",\"after\":");
    if ((st = rc_dbz_up_put_image(e, b, ev, has_after ? ev->after : NULL, err)) != RC_OK) return st;
    RC_BUF_LIT(b, ",\"source\":");
    rc_dbz_put_source(e, b, ev, conn);
    if (e->compat >= 26) {
        RC_BUF_LIT(b, ",\"transaction\":");
        put_tx(e, b, ev);
    }
    us_text proc;
    us_text_memo(&e->us_last, &proc, ev->has_proc ? ev->proc_us : ev->has_ts ? ev->ts_us : 0);
    char *w = rc_buf_reserve(b, 160); /* op and times: at most 110 bytes, and 24 of slack */
    if (!w) return RC_OK;             /* the buffer's error: written() reports it */
    char *o = RAW_LIT(w, ",\"op\":\"");
    o = raw_put(o, op, strlen(op));
    o = raw_ms(RAW_LIT(o, "\",\"ts_ms\":"), &proc);
    if (e->compat >= 26) {
        o = raw_us(RAW_LIT(o, ",\"ts_us\":"), &proc);
        o = raw_ns(RAW_LIT(o, ",\"ts_ns\":"), &proc);
    }
    rc_buf_commit(b, (size_t)(o - w));
    if (e->compat < 26 && e->compat >= 10) {
        RC_BUF_LIT(b, ",\"transaction\":");
        put_tx(e, b, ev);
    }
    rc_buf_putc(b, '}');
    if (e->schemas) rc_buf_putc(b, '}');
    return RC_OK;
}

/* A change event's key: {"<key column>": <value>, ...}, none (a null key) without a key. */
static rc_status change_key(up_enc *e, const rc_event *ev, rc_buf *b, rc_error *err)
{
    const rc_value *img = ev->op == RC_OP_DELETE ? ev->before : ev->after;
    if (!img || !rc_enc_has_pk(ev)) return RC_SKIP; /* no key: Debezium writes a null key */
    int conn = connector_of(ev->src.kind);
    if (conn < 0) return RC_SKIP;
    rc_status st = rc_dbz_open_envelope(e, e->key_slots, true, ev, conn, b, err);
    if (st != RC_OK) return st;
    if ((st = rc_dbz_put_key_fields(e, b, ev, img, err)) != RC_OK) return st;
    rc_dbz_naming_key(e, ev, b); /* the regex strategy's topic.key.field.name */
    if (e->schemas) rc_buf_putc(b, '}');
    return RC_OK;
}

static rc_status written(rc_status st, rc_buf *b, rc_error *err)
{
    return st == RC_OK ? rc_enc_finish(b, err) : st;
}

/* The message of each event kind: a new kind is one case here (and in rc_dbz_up_key and
 * rc_dbz_hb_route for its key and topic). */
rc_status rc_dbz_up_encode(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    up_enc *e = p;
    if (ev->doc) return written(rc_dbz_mongo_value(e, ev, b, err), b, err); /* the MongoDB connector's envelope */
    rc_event conv;
    if (e->bc_on) ev = rc_dbz_boolconv(e, ev, &conv); /* converters=boolean */
    const char *op = rc_dbz_up_op(ev);
    if (op) return written(change_value(e, ev, op, b, err), b, err);
    switch (ev->op) {
    case RC_OP_HEARTBEAT: return written(rc_dbz_hb_value(b, ev, e->schemas, e->compat >= 30), b, err);
    case RC_OP_DDL:
    case RC_OP_BEGIN:
    case RC_OP_COMMIT: return rc_dbz_topics_has(e, ev) ? written(rc_dbz_topics_value(e, ev, b, err), b, err) : RC_SKIP;
    default: return RC_SKIP;
    }
}

rc_status rc_dbz_up_key(void *p, const rc_event *ev, rc_buf *b, rc_error *err)
{
    up_enc *e = p;
    rc_event conv;
    if (e->bc_on) ev = rc_dbz_boolconv(e, ev, &conv); /* converters=boolean */
    switch (ev->op) {
    case RC_OP_HEARTBEAT: return written(rc_dbz_hb_key(b, server_of(e, ev), e->schemas, e->compat >= 30), b, err);
    case RC_OP_DDL:
    case RC_OP_BEGIN:
    case RC_OP_COMMIT: return rc_dbz_topics_has(e, ev) ? written(rc_dbz_topics_key(e, ev, b, err), b, err) : RC_SKIP;
    default: return written(ev->doc ? rc_dbz_mongo_key_put(e, ev, b, err) : change_key(e, ev, b, err), b, err);
    }
}

/* The topic of the messages that do not go to the table's topic as --topic's template names it:
 * the heartbeats, transaction and schema-change messages, and with the unicode and regex
 * topic.naming.strategy the tables' own. */
rc_status rc_dbz_hb_route(void *p, const rc_event *ev, rc_buf *topic, int32_t *partition)
{
    switch (ev->op) {
    case RC_OP_HEARTBEAT: {
        const up_enc *e = p;
        rc_dbz_hb_topic(topic, server_of(p, ev), e->topic_hb_prefix, e->topic_delim, e->topic_hb_name);
        *partition = 0;
        return RC_OK;
    }
    case RC_OP_DDL:
    case RC_OP_BEGIN:
    case RC_OP_COMMIT:
        if (!rc_dbz_topics_has(p, ev)) return RC_SKIP;
        rc_dbz_topics_topic(p, ev, topic, partition);
        return RC_OK;
    default: return rc_dbz_naming_topic(p, ev, topic) ? RC_OK : RC_SKIP;
    }
}

rc_str rc_dbz_up_server(void *p, const rc_event *ev) { return server_of(p, ev); }

bool rc_dbz_up_tombstone(void *p, const rc_event *ev)
{
    up_enc *e = p;
    return e->tombstones && ev->op == RC_OP_DELETE && (ev->doc || connector_of(ev->src.kind) >= 0);
}
