/* What a message a decoder refused looks like, when the cause is one people hit often: a
 * byte-order mark, compressed data, pretty-printed JSON (one message over many lines), or a
 * message of another format (Debezium read as Canal, OMS's Debezium read as Debezium's). The answer is a hint appended to the decoder's error, which
 * stays as it was: the hint says what to do, the error what is wrong and where. Recognition is
 * by tables in src/formats/sniff.c (magic bytes; the root members of each format's messages),
 * not by the decoders, which stay strict. */
#ifndef ROWCAST_SNIFF_H
#define ROWCAST_SNIFF_H

#include <stdbool.h>
#include <stddef.h>
#include "rowcast/error.h"
#include "rowcast/format.h"

/* For msg[0..n), which `from` (with options o) refused with err: writes a hint such as
 * "this looks like Debezium: use --from debezium" to out (NUL-terminated, cut to cap) and
 * returns true; false when nothing is recognised, or when the message looks like one `from`
 * reads as configured (then the error itself is the news). Thread-safe; allocates only while
 * it runs. */
bool rc_sniff_hint(const rc_format *from, const rc_options *o, const char *msg, size_t n, const rc_error *err, char *out,
                   size_t cap);

#endif
