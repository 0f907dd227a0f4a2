/* The jansson-based peer encoder of the encode benchmark. */
#ifndef RC_BENCH_JANSSON_ENCODER_H
#define RC_BENCH_JANSSON_ENCODER_H

#include <stddef.h>
#include "rowcast/event.h"

/* Returns the native-format JSON of `ev` (malloc'd, caller frees) and its length. */
char *jansson_encode(const rc_event *ev, size_t *len);
/* The same for `canal -o canal.flavor=canal` and for OMS `debezium` (payload only), for the
 * standard workload's events. */
char *jansson_encode_canal(const rc_event *ev, size_t *len);
char *jansson_encode_debezium(const rc_event *ev, size_t *len);

#endif
