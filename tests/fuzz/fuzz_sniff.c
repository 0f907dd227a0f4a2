/* libFuzzer target: the hints for refused lines (src/formats/sniff.c) take any bytes, for
 * every readable format with and without the Debezium flavour option and for the kinds of
 * error the decoders give: a hint is NUL-terminated within its buffer, starts as one of the
 * documented kinds, and a line gets the same answer twice. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/sniff.h"

static bool known_start(const char *h)
{
    static const char *const starts[] = {"the line starts ", "the line is ", "the input is ", "the message goes on ", "this looks like "};
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++)
        if (!strncmp(h, starts[i], strlen(starts[i]))) return true;
    return false;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const rc_option flavors[] = {{"debezium.flavor", "upstream"}, {"debezium.flavor", "oms"}};
    const char *msg = (const char *)data;
    for (const rc_format *const *f = rc_formats; *f; f++) {
        if (!(*f)->decode) continue;
        for (size_t k = 0; k < 3; k++) {
            rc_options o = {k ? &flavors[k - 1] : NULL, k ? 1 : 0};
            rc_error errs[3] = {{RC_ERR_SYNTAX, size, ""}, {RC_ERR_SCHEMA, 0, ""}, {RC_ERR_VALUE, RC_NO_OFFSET, ""}};
            for (size_t e = 0; e < 3; e++) {
                char a[160], b[160];
                memset(a, 'x', sizeof a);
                bool got = rc_sniff_hint(*f, &o, msg, size, &errs[e], a, sizeof a);
                if (got && (!memchr(a, '\0', sizeof a) || !known_start(a))) abort();
                bool again = rc_sniff_hint(*f, &o, msg, size, &errs[e], b, sizeof b);
                if (got != again || (got && strcmp(a, b))) abort();
            }
        }
    }
    return 0;
}
