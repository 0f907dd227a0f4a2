/* Fuzz target for the metrics endpoint's parsers: the HTTP request head (what any client on
 * the network may send) and the --metrics address. A head that is accepted is accepted again
 * when given alone, with the same method, path and version; every shorter prefix of it is
 * pending (a request that arrives in pieces is read as one); a refusal names a byte of the
 * input. An accepted address has a port of 0..65535 and a host that fits. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pipeline/metrics.h"

static bool in(const char *p, size_t n, const uint8_t *data, size_t size)
{
    return (const uint8_t *)p >= data && (const uint8_t *)p + n <= data + size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    rc_http_request req, again;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_http_request_parse(text, size, &req, &err);
    if (st == RC_OK) {
        if (req.head_len > size || !req.method_len || !in(req.method, req.method_len, data, size))
            abort();
        if (!(req.path_len == 1 && req.path[0] == '/') && !in(req.path, req.path_len, data, size))
            abort();
        if (rc_http_request_parse(text, req.head_len, &again, &err) != RC_OK ||
            again.head_len != req.head_len || again.method != req.method ||
            again.path_len != req.path_len || again.minor != req.minor)
            abort();
        for (size_t k = req.head_len > 64 ? req.head_len - 64 : 0; k < req.head_len; k++)
            if (rc_http_request_parse(text, k, &again, &err) != RC_PENDING) abort();
    } else if (st == RC_ERR_SYNTAX || st == RC_ERR_UNSUPPORTED) {
        if (err.offset >= size || !err.message[0]) abort();
    } else if (st != RC_PENDING) {
        abort();
    }
    char *spec = malloc(size + 1);
    if (!spec) return 0;
    memcpy(spec, data, size);
    spec[size] = '\0';
    rc_metrics_addr a;
    rc_error_clear(&err);
    if (rc_metrics_addr_parse(spec, &a, &err) == RC_OK) {
        if (!a.port[0] || strtoul(a.port, NULL, 10) > 65535 || !a.host[0] ||
            strlen(a.host) >= sizeof a.host)
            abort();
    } else if (err.code != RC_ERR_USAGE || strncmp(err.message, "--metrics '", 11) != 0) {
        abort();
    }
    free(spec);
    return 0;
}
