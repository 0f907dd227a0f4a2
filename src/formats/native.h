/* rowcast's own lossless JSON-lines format (docs/native-format.md): internal interface
 * between the writer, the reader and the registry. */
#ifndef RC_FORMATS_NATIVE_H
#define RC_FORMATS_NATIVE_H

#include "rowcast/format.h"

extern const rc_format rc_format_native;

rc_status rc_native_encode(void *enc, const rc_event *ev, rc_buf *out, rc_error *err);
rc_status rc_native_dec_new(const rc_options *opts, void **out, rc_error *err);
void rc_native_dec_free(void *dec);
rc_status rc_native_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

/* The "document" member (native_doc.c): written after the event's other members; read from its
 * text (the object, at byte `off` of the line); what each op's document must carry. */
struct rc_doc_change;
void rc_native_put_doc(rc_buf *b, const struct rc_doc_change *d, bool *first);
rc_status rc_native_read_doc(const char *text, size_t n, size_t off, rc_arena *a, const struct rc_doc_change **out, rc_error *err);
rc_status rc_native_doc_check(const rc_event *ev, size_t at, rc_error *err);

#endif
