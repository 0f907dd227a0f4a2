/* Upstream Debezium's heartbeat messages (HeartbeatImpl): topic __debezium-heartbeat.<server>,
 * partition 0, key {"serverName": <server>}, value {"ts_ms": <time>}, each with its Kafka
 * Connect schema (io.debezium.connector.common.ServerNameKey / .Heartbeat) when schemas are on.
 * The schemas carry "version":1 in the layouts where Debezium's envelope schemas do (3.x). */
#include "debezium_upstream.h"
#include "rowcast/fmt.h"
#include "rowcast/jsonw.h"

static void open_schema(rc_buf *b, bool schemas, bool versioned, const char *type, const char *field, const char *name)
{
    if (!schemas) return;
    RC_BUF_LIT(b, "{\"schema\":");
    rc_dbz_up_put_struct1_schema(b, name, versioned, type, field);
    RC_BUF_LIT(b, ",\"payload\":");
}

static rc_status done(rc_buf *b, bool schemas, rc_error *err)
{
    if (schemas) rc_buf_putc(b, '}');
    if (b->err != RC_OK) return rc_error_set(err, b->err, RC_NO_OFFSET, "output buffer: %s", rc_status_name(b->err));
    return RC_OK;
}

rc_status rc_dbz_hb_value(void *enc, const rc_event *ev, rc_buf *b, rc_error *err)
{
    bool schemas = rc_dbz_up_schemas(enc);
    open_schema(b, schemas, rc_dbz_up_compat(enc) >= 30, "int64", "ts_ms", "io.debezium.connector.common.Heartbeat");
    RC_BUF_LIT(b, "{\"ts_ms\":");
    int64_t t = ev->has_ts ? ev->ts_us : ev->has_proc ? ev->proc_us : 0;
    rc_fmt_i64(b, t / 1000);
    rc_buf_putc(b, '}');
    return done(b, schemas, err);
}

rc_status rc_dbz_hb_key(void *enc, const rc_event *ev, rc_buf *b, rc_error *err)
{
    bool schemas = rc_dbz_up_schemas(enc);
    open_schema(b, schemas, rc_dbz_up_compat(enc) >= 30, "string", "serverName", "io.debezium.connector.common.ServerNameKey");
    rc_str server = rc_dbz_up_server(enc, ev);
    RC_BUF_LIT(b, "{\"serverName\":");
    rc_jw_str(b, server.p, server.n);
    rc_buf_putc(b, '}');
    return done(b, schemas, err);
}

rc_status rc_dbz_hb_route(void *enc, const rc_event *ev, rc_buf *topic, int32_t *partition)
{
    if (ev->op != RC_OP_HEARTBEAT) return RC_SKIP;
    rc_str server = rc_dbz_up_server(enc, ev);
    RC_BUF_LIT(topic, "__debezium-heartbeat.");
    rc_buf_put(topic, server.p, server.n);
    *partition = 0;
    return RC_OK;
}
