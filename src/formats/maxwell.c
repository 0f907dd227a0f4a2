/* Maxwell's daemon JSON (docs/formats/maxwell.md): the descriptor (its options, which both
 * sides read, are in maxwell_common.c). */
#include "formats/maxwell.h"

const rc_format rc_format_maxwell = {
    .name = "maxwell",
    .summary = "Maxwell's daemon JSON: insert/update/delete rows with data, old, xid/commit; bootstrap messages",
    .content_type = "application/json",
    .snapshot_edges = true, /* bootstrap-start and -complete */
    .options = rc_mx_options,
    .enc_new = rc_mx_enc_new,
    .enc_free = rc_mx_enc_free,
    .encode_value = rc_mx_encode,
    .flush = rc_mx_flush,
    .holding = rc_mx_holding,
    .split = rc_mx_split,
    .dec_new = rc_mx_dec_new,
    .dec_free = rc_mx_dec_free,
    .decode = rc_mx_decode,
};
