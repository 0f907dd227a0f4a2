/* Per-decoder JSON state (see jsondec.h). */
#include <stdlib.h>
#include "rowcast/jsondec.h"

bool rc_jsondec_init(rc_jsondec *d)
{
    if (!(d->types = rc_type_cache_new())) return false;
    rc_arena_init(&d->arena);
    rc_json_init(&d->json, &d->arena);
    return true;
}

void rc_jsondec_fini(rc_jsondec *d)
{
    if (!d->types) return; /* never initialised */
    rc_type_cache_free(d->types);
    rc_json_fini(&d->json);
    rc_arena_fini(&d->arena);
    d->types = NULL;
}

rc_status rc_jsondec_parse(rc_jsondec *d, const char *msg, size_t n, rc_error *err)
{
    rc_arena_reset(&d->arena);
    rc_type_cache_message(d->types);
    return rc_json_parse(&d->json, msg, n, err);
}

rc_status rc_jsondec_new(size_t size, void **out, rc_error *err)
{
    rc_jsondec *d = calloc(1, size < sizeof *d ? sizeof *d : size);
    if (!d || !rc_jsondec_init(d)) {
        free(d);
        return rc_error_set(err, RC_ERR_NOMEM, RC_NO_OFFSET, "out of memory");
    }
    *out = d;
    return RC_OK;
}

void rc_jsondec_free(void *dec)
{
    if (!dec) return;
    rc_jsondec_fini(dec);
    free(dec);
}
