/* Kafka as a source (docs/design/kafka-source.md; docs/sources/kafka.md): `rowcast convert
 * kafka://HOST:PORT[,...]/TOPIC[,TOPIC...]?group=NAME` consumes the topics as a member of the
 * consumer group NAME and decodes each message as a record (key, value) with --from. An item's
 * position is the number of messages handed out before it and it (RC_POS_SEQ); an
 * acknowledgement of position S commits, for each partition, the offset after the last message
 * handed out before S: a partition's committed offset never passes a message whose records the
 * sink has not acknowledged (at least once, order kept per partition). */
#ifndef ROWCAST_SOURCES_KAFKA_SOURCE_H
#define ROWCAST_SOURCES_KAFKA_SOURCE_H

#include "rowcast/source.h"

extern const rc_source_ops rc_source_kafka;

#endif
