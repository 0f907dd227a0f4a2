/* Avro binary encoding primitives (Avro 1.11 specification) and the object container file
 * framing, shared by every Avro writer. */
#ifndef RC_FORMATS_AVRO_BIN_H
#define RC_FORMATS_AVRO_BIN_H

#include <stdint.h>
#include "rowcast/buf.h"

void rc_avro_long(rc_buf *b, int64_t v); /* zigzag varint; ints use the same encoding */
void rc_avro_string(rc_buf *b, const char *p, size_t n);
void rc_avro_double(rc_buf *b, double v); /* 8 bytes little-endian */

/* Object container file: the header (magic, metadata with the schema and codec null, sync
 * marker), then blocks of records each followed by the sync marker. */
void rc_avro_container_header(rc_buf *b, const char *schema, size_t schema_n, const uint8_t sync[16]);
void rc_avro_container_block(rc_buf *b, const char *records, size_t n, int64_t count, const uint8_t sync[16]);

#endif
