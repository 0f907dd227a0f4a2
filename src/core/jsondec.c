/* Per-decoder JSON state (see jsondec.h). */
#include <stdlib.h>
#include <string.h>
#include "rowcast/buf.h"
#include "core/fmt.h"
#include "core/jsondec.h"

bool rc_jsondec_init(rc_jsondec *d)
{
    if (!(d->types = rc_type_cache_new())) return false;
    rc_json_init(&d->json, NULL);
    return true;
}

void rc_jsondec_fini(rc_jsondec *d)
{
    if (!d->types) return; /* never initialised */
    rc_type_cache_free(d->types);
    rc_json_fini(&d->json);
    d->types = NULL;
}

rc_status rc_jsondec_parse(rc_jsondec *d, const char *msg, size_t n, rc_arena *a, rc_error *err)
{
    d->json.arena = a;
    return rc_json_parse(&d->json, msg, n, err);
}

rc_status rc_jsondec_object(rc_jsondec *d, const char *msg, size_t n, rc_arena *a, const char *what, rc_jread *r, rc_error *err)
{
    rc_status st = rc_jsondec_parse(d, msg, n, a, err);
    if (st != RC_OK) return st;
    rc_jtype t = (rc_jtype)d->json.nodes[0].type;
    if (t != RC_J_OBJECT) return rc_error_set(err, RC_ERR_SCHEMA, 0, "%s must be a JSON object (found %s)", what, rc_jtype_name(t));
    *r = (rc_jread){&d->json, a, err};
    return RC_OK;
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

rc_status rc_jsondec_str(const rc_json *j, uint32_t obj, const char *key, rc_arena *a, rc_str *out, rc_error *err)
{
    (void)a;
    return rc_jsondec_str_at(j, rc_json_get(j, obj, key), key, out, err);
}

rc_status rc_jsondec_str_at(const rc_json *j, uint32_t v, const char *key, rc_str *out, rc_error *err)
{
    *out = (rc_str){0};
    if (!v || j->nodes[v].type == RC_J_NULL) return RC_OK;
    const rc_jnode *n = &j->nodes[v];
    if (n->type != RC_J_STRING)
        return rc_error_set(err, RC_ERR_SCHEMA, n->off, "\"%s\" must be a string (found %s)", key, rc_jtype_name((rc_jtype)n->type));
    *out = (rc_str){n->s, n->n}; /* the message text or the arena: both outlive the events */
    return RC_OK;
}

rc_status rc_jsondec_want(const rc_json *j, uint32_t i, rc_jtype t, const char *what, rc_error *err)
{
    const rc_jnode *n = &j->nodes[i];
    if (n->type == t) return RC_OK;
    return rc_error_set(err, RC_ERR_SCHEMA, n->off, "%s must be a JSON %s (found %s)", what, rc_jtype_name(t), rc_jtype_name((rc_jtype)n->type));
}

rc_status rc_jsondec_i64(const rc_json *j, uint32_t obj, const char *key, int64_t *out, bool *has, rc_error *err)
{
    return rc_jsondec_i64_at(j, rc_json_get(j, obj, key), key, out, has, err);
}

rc_status rc_jsondec_i64_at(const rc_json *j, uint32_t v, const char *key, int64_t *out, bool *has, rc_error *err)
{
    *has = false;
    if (!v || j->nodes[v].type == RC_J_NULL) return RC_OK;
    const rc_jnode *n = &j->nodes[v];
    if (n->type != RC_J_NUMBER || rc_parse_i64(n->s, n->n, out) != RC_OK)
        return rc_error_set(err, RC_ERR_SCHEMA, n->off, "\"%s\" must be an integer (found %s)", key,
                            n->type == RC_J_NUMBER ? "a number out of range" : rc_jtype_name((rc_jtype)n->type));
    *has = true;
    return RC_OK;
}

rc_status rc_jsondec_us_at(const rc_json *j, uint32_t v, const char *key, int64_t unit, int64_t *us, bool *has, rc_error *err)
{
    int64_t x;
    rc_status st = rc_jsondec_i64_at(j, v, key, &x, has, err);
    if (st != RC_OK || !*has) return st;
    if (__builtin_mul_overflow(x, unit, us))
        return rc_error_set(err, RC_ERR_RANGE, j->nodes[v].off, "\"%s\" is out of range: %lld %s is beyond int64 microseconds", key, (long long)x,
                            unit == 1000 ? "milliseconds" : unit == 1000000 ? "seconds" : "units");
    return RC_OK;
}

rc_status rc_jread_raise(const rc_jread *r, const rc_jnode *v, rc_status st, const rc_error *verr)
{
    return rc_error_set(r->err, st, v->off, "%s", verr->message[0] ? verr->message : "out of memory");
}

