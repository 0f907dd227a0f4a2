/* Upstream Debezium: the transaction block of change events (provide.transaction.metadata). */
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "core/jsonw.h"

/* The count of extra messages (key-changing updates) starts again when the event's transaction
 * is not the last one's; the per-table counts are rc_dbz_tx's (debezium_topics.c). */
void rc_dbz_tx_enter(up_enc *e, const rc_event *ev)
{
    rc_str tx = ev->pos.txid;
    if (e->tx_of.len != tx.n || memcmp(e->tx_of.data, tx.p, tx.n)) {
        rc_buf_reset(&e->tx_of);
        rc_buf_put(&e->tx_of, tx.p, tx.n);
        e->tx_extra = 0;
    }
}

/* The transaction block, or null when metadata is off or the event has no transaction. The
 * PostgreSQL connector of 2.x and later writes the id as "<txId>:<this event's LSN>"
 * (PostgresTransactionMonitor), 1.x the txId alone. */
void rc_dbz_up_put_transaction(void *p, rc_buf *b, const rc_event *ev)
{
    up_enc *e = p;
    if (!e->tx_meta || !ev->pos.txid.n) {
        RC_BUF_LIT(b, "null");
        return;
    }
    rc_dbz_tx_enter(e, ev);
    /* the messages before it in the transaction: its index and one more for each key-changing
     * update before it (rc_dbz_up_split), modulo 2^32 as the index is */
    uint64_t order = ev->pos.has_tx_index ? (uint64_t)(uint32_t)(ev->pos.tx_index + e->tx_extra) + 1 : 1;
    RC_BUF_LIT(b, "{\"id\":\"");
    rc_dbz_put_tx_id(e, b, ev);
    RC_BUF_LIT(b, "\",\"total_order\":");
    rc_fmt_u64(b, order);
    RC_BUF_LIT(b, ",\"data_collection_order\":");
    rc_fmt_u64(b, rc_dbz_tx_count(e->tx, ev));
    rc_buf_putc(b, '}');
}
