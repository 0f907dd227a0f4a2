/* CloudEvents data in Avro, reader side (cloudevents_avro.c): the .avsc of the data record and
 * its binary read as Kafka Connect JSON for the Debezium reader. */
#ifndef RC_FORMATS_CLOUDEVENTS_AVRO_H
#define RC_FORMATS_CLOUDEVENTS_AVRO_H

#include "rowcast/buf.h"
#include "rowcast/error.h"

typedef struct rc_ce_avro rc_ce_avro;

/* Reads the schema file at path (kept by the caller for the schema's life): RC_ERR_USAGE naming
 * the file (and its byte) when it is not the schema of a {before, after} record rowcast reads. */
rc_status rc_ce_avro_load(const char *path, rc_ce_avro **out, rc_error *err);
void rc_ce_avro_free(rc_ce_avro *s);
/* The Kafka Connect envelope schema of the record (a JSON object). */
const char *rc_ce_avro_schema(const rc_ce_avro *s, size_t *n);
/* Appends "before":...,"after":... read from the wire format bytes p[0..n) (magic byte, schema
 * id, the record), decoded from base64 text whose first character is at offset `off`: an
 * error points at the character that holds the bad byte. */
rc_status rc_ce_avro_images(const rc_ce_avro *s, const unsigned char *p, size_t n, size_t off, rc_buf *out, rc_error *err);

#endif
