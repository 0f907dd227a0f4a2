/* --exactly-once, Kafka to Kafka (docs/sources/kafka.md, Exactly once; docs/design/kafka-source.md
 * §4): the Kafka source's side of the sink's transactions. The pipeline asks for it when the sink
 * wants it (rc_sink_txn_wants_source) and hands it to the sink; from then on the consumer commits
 * no offset itself: each transaction carries the offsets of the messages whose records it holds. */
#ifndef ROWCAST_SOURCES_KAFKA_EOS_H
#define ROWCAST_SOURCES_KAFKA_EOS_H

#include <stdbool.h>
#include "rowcast/source.h"
#include "sinks/sink_txn.h"

/* Fills `out` and turns the source's own commits off; false when `src` is not a Kafka source. */
bool rc_kafka_source_txn(rc_source *src, rc_txn_source *out);

#endif
