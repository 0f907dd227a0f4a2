/* libFuzzer target: the hints for refused lines (src/formats/sniff.c) take any bytes, for
 * every readable format with and without the Debezium flavour option and for the kinds of
 * error the decoders give: a hint is NUL-terminated within its buffer, starts as one of the
 * documented kinds, and a line gets the same answer twice.
 * One input is tried with one (format, options, error) combination, picked from a hash of its
 * bytes, not with all of them: every call parses the whole message, and trying the 9 x 20-odd
 * combinations made one 64 KB input cost seconds under the sanitizers, so that the 20 s run of
 * CI ended inside its seed corpus without a single mutation (issue 22, item 6;
 * tests/fuzz/regressions/sniff-slow-64k-array). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "formats/sniff.h"

static bool known_start(const char *h)
{
    static const char *const starts[] = {"the line starts ",     "the line is ",      "the input is ",
                                         "the message goes on ", "the message ends ", "this looks like "};
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++)
        if (!strncmp(h, starts[i], strlen(starts[i]))) return true;
    return false;
}

/* The readable formats: those with a decoder, in rc_formats order. */
static size_t readers(const rc_format **out, size_t cap)
{
    size_t n = 0;
    for (const rc_format *const *f = rc_formats; *f && n < cap; f++)
        if ((*f)->decode) out[n++] = *f;
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const rc_option flavors[] = {{"debezium.flavor", "upstream"}, {"debezium.flavor", "oms"}};
    static const rc_format *fmts[64];
    static size_t nfmts;
    if (!nfmts) nfmts = readers(fmts, sizeof fmts / sizeof *fmts);
    uint64_t h = 1469598103934665603u; /* FNV-1a: any change of the input may pick another combination */
    for (size_t i = 0; i < size; i++) h = (h ^ data[i]) * 1099511628211u;
    const rc_format *f = fmts[h % nfmts];
    size_t k = (size_t)(h / nfmts % 3), e = (size_t)(h / nfmts / 3 % 3);
    rc_options o = {k ? &flavors[k - 1] : NULL, k ? 1 : 0};
    rc_error errs[3] = {{RC_ERR_SYNTAX, size, ""}, {RC_ERR_SCHEMA, 0, ""}, {RC_ERR_VALUE, RC_NO_OFFSET, ""}};
    const char *msg = (const char *)data;
    char a[160], b[160];
    memset(a, 'x', sizeof a);
    bool got = rc_sniff_hint(f, &o, msg, size, &errs[e], a, sizeof a);
    if (got && (!memchr(a, '\0', sizeof a) || !known_start(a))) abort();
    bool again = rc_sniff_hint(f, &o, msg, size, &errs[e], b, sizeof b);
    if (got != again || (got && strcmp(a, b))) abort();
    return 0;
}
