/* Upstream Debezium: the transaction block of change events (provide.transaction.metadata). */
#include <stdlib.h>
#include <string.h>
#include "formats/debezium_up_enc.h"
#include "rowcast/hash.h"
#include "rowcast/jsonw.h"

/* The per-transaction counts start again when the event's transaction is not the last one's. */
void rc_dbz_tx_enter(up_enc *e, const rc_event *ev)
{
    rc_str tx = ev->pos.txid;
    if (e->tx_of.len != tx.n || memcmp(e->tx_of.data, tx.p, tx.n)) {
        rc_buf_reset(&e->tx_of);
        rc_buf_put(&e->tx_of, tx.p, tx.n);
        e->tx_ntables = 0;
        e->tx_extra = 0;
    }
}

/* The event's position among the events of its table in its transaction, from 1: counted per
 * table since the transaction's first event (the events of one transaction come together). */
static uint64_t table_order(up_enc *e, const rc_event *ev)
{
    rc_dbz_tx_enter(e, ev);
    uint64_t h = ev->src.table.n ? rc_hash64(ev->src.table.p, ev->src.table.n, 1) : 1; /* absent names have p NULL */
    if (ev->src.schema.n) h = rc_hash64(ev->src.schema.p, ev->src.schema.n, h);
    if (ev->src.db.n) h = rc_hash64(ev->src.db.p, ev->src.db.n, h);
    for (size_t i = 0; i < e->tx_ntables; i++)
        if (e->tx_tables[i].hash == h) return ++e->tx_tables[i].count;
    if (e->tx_ntables == e->tx_cap) {
        size_t cap = e->tx_cap ? e->tx_cap * 2 : 8;
        struct tx_table *t = realloc(e->tx_tables, cap * sizeof *t);
        if (!t) return ev->pos.has_tx_index ? (uint64_t)ev->pos.tx_index + 1 : 1;
        e->tx_tables = t, e->tx_cap = cap;
    }
    e->tx_tables[e->tx_ntables++] = (struct tx_table){h, 1};
    return 1;
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
    uint64_t lsn;
    RC_BUF_LIT(b, "{\"id\":\"");
    rc_jw_str_body(b, ev->pos.txid.p, ev->pos.txid.n);
    if (e->compat >= 20 && connector_of(ev->src.kind) == CONN_POSTGRES && rc_dbz_lsn_value(ev->pos.lsn, &lsn)) {
        rc_buf_putc(b, ':');
        rc_fmt_u64(b, lsn);
    }
    RC_BUF_LIT(b, "\",\"total_order\":");
    rc_fmt_u64(b, order);
    RC_BUF_LIT(b, ",\"data_collection_order\":");
    rc_fmt_u64(b, table_order(e, ev));
    rc_buf_putc(b, '}');
}
