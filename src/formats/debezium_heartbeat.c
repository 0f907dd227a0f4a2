/* Upstream Debezium's heartbeat messages (HeartbeatImpl): topic __debezium-heartbeat.<server>,
 * partition 0, key {"serverName": <server>}, value {"ts_ms": <time>}, each with its Kafka
 * Connect schema (io.debezium.connector.common.ServerNameKey / .Heartbeat) when schemas are on.
 * The schemas carry "version":1 in the layouts where Debezium's envelope schemas do (3.x). */
#include <string.h>
#include "debezium_upstream.h"
#include "core/fmt.h"
#include "core/jsonw.h"

/* {"schema": <a struct of one required field, as JsonConverter writes it>, "payload": */
static void open_schema(rc_buf *b, bool schemas, bool versioned, const char *type, const char *field, const char *name)
{
    if (!schemas) return;
    RC_BUF_LIT(b, "{\"schema\":{\"type\":\"struct\",\"fields\":[{\"type\":\"");
    rc_buf_puts(b, type);
    RC_BUF_LIT(b, "\",\"optional\":false,\"field\":\"");
    rc_buf_puts(b, field);
    RC_BUF_LIT(b, "\"}],\"optional\":false,\"name\":\"");
    rc_buf_puts(b, name);
    rc_buf_putc(b, '"');
    if (versioned) RC_BUF_LIT(b, ",\"version\":1");
    RC_BUF_LIT(b, "},\"payload\":");
}

rc_status rc_dbz_hb_value(rc_buf *b, const rc_event *ev, bool schemas, bool versioned)
{
    open_schema(b, schemas, versioned, "int64", "ts_ms", "io.debezium.connector.common.Heartbeat");
    RC_BUF_LIT(b, "{\"ts_ms\":");
    int64_t t = ev->has_ts ? ev->ts_us : ev->has_proc ? ev->proc_us : 0;
    rc_fmt_i64(b, t / 1000);
    rc_buf_putc(b, '}');
    if (schemas) rc_buf_putc(b, '}');
    return RC_OK;
}

rc_status rc_dbz_hb_key(rc_buf *b, rc_str server, bool schemas, bool versioned)
{
    open_schema(b, schemas, versioned, "string", "serverName", "io.debezium.connector.common.ServerNameKey");
    RC_BUF_LIT(b, "{\"serverName\":");
    rc_jw_str(b, server.p, server.n);
    rc_buf_putc(b, '}');
    if (schemas) rc_buf_putc(b, '}');
    return RC_OK;
}

void rc_dbz_hb_topic(rc_buf *topic, rc_str server, const char *prefix, const char *delim, const char *hb_name)
{
    if (hb_name && *hb_name) {
        rc_buf_put(topic, hb_name, strlen(hb_name));
        return;
    }
    rc_buf_put(topic, prefix, strlen(prefix));
    rc_buf_put(topic, delim, strlen(delim));
    rc_buf_put(topic, server.p, server.n);
}
