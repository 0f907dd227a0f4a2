/* The records layout of convert's input (sources/records_in.h). */
#include <string.h>
#include "sources/records_in.h"

static const char layout[] = "a record is topic, key length, key, value length, value, headers, tab-separated (--input-layout records)";

/* One length-prefixed field at p[*at..n): its bytes (NULL for -1) into *f and *fn. *short_ is set
 * when the field ends past n. */
static rc_status sized(const char *p, size_t n, size_t *at, const char *what, const char **f, size_t *fn, bool *short_,
                       rc_error *err)
{
    size_t i = *at, len = 0, digits = 0;
    if (n - i >= 3 && !memcmp(p + i, "-1\t", 3)) {
        *f = NULL, *fn = 0;
        if (n - i < 4) return *short_ = true, rc_error_set(err, RC_ERR_SYNTAX, n, "the record ends after the %s length", what);
        if (p[i + 3] != '\t')
            return rc_error_set(err, RC_ERR_SYNTAX, i + 3, "a null %s (length -1) is an empty field: a tab must follow the tab after -1; %s", what, layout);
        *at = i + 4;
        return RC_OK;
    }
    for (; i < n && p[i] >= '0' && p[i] <= '9' && digits < 12; i++, digits++) len = len * 10 + (size_t)(p[i] - '0');
    if (!digits || i == n || p[i] != '\t') {
        if (i == n && digits) return *short_ = true, rc_error_set(err, RC_ERR_SYNTAX, n, "the record ends in the %s length", what);
        return rc_error_set(err, RC_ERR_SYNTAX, i, "the %s length must be a number of bytes or -1, followed by a tab; %s", what, layout);
    }
    i++;
    if (n - i < len + 1) {
        *short_ = true;
        return rc_error_set(err, RC_ERR_SYNTAX, n, "the record ends %zu bytes into its %s of %zu bytes: is the length right? %s",
                            n - i, what, len, layout);
    }
    if (p[i + len] != '\t')
        return rc_error_set(err, RC_ERR_SYNTAX, i + len, "no tab after the %s's %zu bytes: is the %s length right? %s", what, len, what, layout);
    *f = p + i, *fn = len;
    *at = i + len + 1;
    return RC_OK;
}

static rc_status split(const char *p, size_t n, rc_record_in *out, bool *short_, rc_error *err)
{
    *short_ = false;
    const char *tab = memchr(p, '\t', n);
    if (!tab) return rc_error_set(err, RC_ERR_SYNTAX, n, "there is no tab after the topic: %s", layout);
    size_t at = (size_t)(tab - p) + 1;
    out->rec = p;
    rc_status st = sized(p, n, &at, "key", &out->key, &out->key_n, short_, err);
    if (st == RC_OK) st = sized(p, n, &at, "value", &out->value, &out->value_n, short_, err);
    return st; /* the headers (the rest) tell the decoders nothing */
}

bool rc_record_short(const char *p, size_t n)
{
    rc_record_in r;
    rc_error e;
    bool short_;
    rc_error_clear(&e);
    return split(p, n, &r, &short_, &e) != RC_OK && short_;
}

rc_status rc_record_parse(const char *p, size_t n, rc_record_in *out, rc_error *err)
{
    bool short_;
    return split(p, n, out, &short_, err);
}

rc_status rc_record_decode(const rc_format *from, void *dec, const rc_record_in *r, rc_arena *a, rc_event_list *out,
                           rc_error *err)
{
    return from->decode_record ? from->decode_record(dec, r, a, out, err) : rc_record_value(from->decode, dec, r, a, out, err);
}
