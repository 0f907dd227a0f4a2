/* The DataWorks reader (dataworks_read.c), for the dataworks format's descriptor. */
#ifndef RC_FORMATS_DATAWORKS_READ_H
#define RC_FORMATS_DATAWORKS_READ_H

#include "rowcast/format.h"

rc_status rc_dw_decode(void *dec, const char *msg, size_t n, rc_arena *a, rc_event_list *out, rc_error *err);

/* What the DataWorks 2.0 and "aliyun" readers share (dataworks_aliyun_read.c). */
#include "core/json.h"
#include "core/jsondec.h"
/* Member `key` of object node `obj` that must be an object, or absent/null unless required
 * (*out 0 then). */
rc_status rc_dw_object(const rc_jread *r, uint32_t obj, const char *key, bool required, uint32_t *out);
/* payload.<key>.<inner>, the object of an image's values: 0 when payload.<key> is null or
 * absent; an error when that lacks an <inner> object. */
rc_status rc_dw_image(const rc_jread *r, uint32_t payload, const char *key, const char *inner, uint32_t *out);
/* The names a layout gives its column list and key list, and what its unknown-type error adds. */
typedef struct rc_dw_names {
    const char *list_key, *pk_key; /* members of "schema": "column" / "pk", "dataColumn" / "primaryKey" */
    const char *types;             /* appended to "unknown DataWorks column type ..." */
} rc_dw_names;
/* The declaration of a column whose type member is node `ty`, or NULL for an unknown type. */
typedef const char *(*rc_dw_decl_fn)(const void *ctx, const rc_json *j, uint32_t ty, rc_str name);
/* schema.<list_key> ({"name", "type"} entries) and schema.<pk_key> (names, or null) of object
 * node `schema` into ev's columns, copied into `a`, types declared by `decl`. */
rc_status rc_dw_columns(const rc_json *j, uint32_t schema, const rc_dw_names *names, rc_dw_decl_fn decl, const void *dctx, rc_family fam,
                        rc_type_cache *types, rc_arena *a, rc_event *ev, rc_error *err);

#endif
