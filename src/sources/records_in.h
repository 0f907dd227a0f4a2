/* `convert --input-layout records`: one Kafka record per item, as `convert --records` writes it
 * and `kcat -C -f '%t\t%K\t%k\t%S\t%s\t%h\n'` prints (docs/sinks.md): topic, key length, key,
 * value length, value, headers, tab-separated, -1 for a null key or value. The lengths say where
 * the key and the value end, so these may hold tabs and newlines; the headers end at the line
 * end. */
#ifndef ROWCAST_RECORDS_IN_H
#define ROWCAST_RECORDS_IN_H

#include <stdbool.h>
#include "rowcast/format.h"

/* True when the n bytes at p end before the key or value that the record's lengths announce:
 * the record goes on on the next line (a key or value holding a newline). */
bool rc_record_short(const char *p, size_t n);

/* Splits the record in p[0..n) (without its final newline) into *out; a record that does not
 * have the layout is RC_ERR_SYNTAX with the byte offset in p and what to do. */
rc_status rc_record_parse(const char *p, size_t n, rc_record_in *out, rc_error *err);

/* Decodes a record with `from`: its decode_record, or, for formats without one, the value alone
 * (a null value: no event), error offsets moved to the record. */
rc_status rc_record_decode(const rc_format *from, void *dec, const rc_record_in *r, rc_arena *a, rc_event_list *out,
                           rc_error *err);

#endif
