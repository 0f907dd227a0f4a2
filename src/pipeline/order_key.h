/* Order keys: the `rowcast.eos` header's text (docs/sinks.md, "Order keys";
 * docs/design/exactly-once.md §2.1), fixed-width lower-case hex whose byte order (memcmp,
 * sort) is the order of the records in their source's stream:
 *   PostgreSQL     p LSN(16) KIND(1) NUMBER(11) RECORD(2)                   31 bytes
 *   MySQL/MariaDB  m FILE(8) OFFSET(16) KIND(1) NUMBER(11) RECORD(2)        39 bytes
 *   lines          l OFFSET(16) RECORD(2)                                   19 bytes
 * (without the spaces). LSN: the transaction's commit LSN; FILE, OFFSET: the binlog file's
 * number and the offset of the transaction's first event; KIND: 'a' an incremental snapshot's
 * read (at the emit point: before the next transaction's changes, 'a' < 'e'), 'e' a
 * transaction's change, 's' an initial snapshot's row (at position 0); NUMBER: the event's in its
 * transaction (BEGIN 0), or the read's at its emit point; OFFSET of lines: the line's byte
 * offset in its input. RECORD numbers the records one event makes (Debezium's delete and
 * tombstone: 00, 01); for lines, the records the line makes. The item hands over the first
 * key (rowcast/source.h, rc_item_order); the numbers never pass through a double. */
#ifndef ROWCAST_PIPELINE_ORDER_KEY_H
#define ROWCAST_PIPELINE_ORDER_KEY_H

#include <stddef.h>
#include <stdint.h>
#include "rowcast/source.h"

enum { RC_ORDER_KEY_MAX = 40, RC_ORDER_RECORDS = 256 };
#define RC_ORDER_NUMBER_MAX ((UINT64_C(1) << 44) - 1)

/* Writes the key of record `record` of event `event` (counted from the item's first) of an
 * item whose first key is `o` into out (not NUL-terminated); its length, 0 when the item has
 * no order (src 0), or a field does not fit its width (a number past RC_ORDER_NUMBER_MAX, a
 * record past RC_ORDER_RECORDS - 1, a binlog file number past 32 bits). */
size_t rc_order_key(const rc_item_order *o, uint64_t event, unsigned record,
                    char out[RC_ORDER_KEY_MAX]);

/* The KIND of an order key of n bytes ('e', 'a', 's'), 0 for one without (lines) or not a key. */
char rc_order_key_kind(const char *key, size_t n);

#endif
