/* Time zones for the options that render or read wall-clock text (canal.timezone,
 * drs-json-c.timezone, shareplex.timezone): a fixed offset, or a named zone read from the
 * system's TZif files (tzdata: /usr/share/zoneinfo, or $TZDIR) with its daylight-saving rules,
 * including the POSIX rule that continues them after the last listed transition. */
#ifndef ROWCAST_TZ_H
#define ROWCAST_TZ_H

#include <stddef.h>
#include <stdint.h>
#include "rowcast/api.h"
#include "rowcast/error.h"

typedef struct rc_tzdata rc_tzdata;

typedef struct rc_tz {
    int32_t fixed;         /* seconds east of UTC, when zone is NULL */
    const rc_tzdata *zone; /* a named zone: loaded once per process and kept until exit */
} rc_tz;

/* "UTC", "Z", "+08:00", "-0530", "+8", or a zone name ("Asia/Shanghai", "America/New_York").
 * `what` names the option in errors. */
RC_API rc_status rc_tz_parse(const char *spec, const char *what, rc_tz *out, rc_error *err);

/* The zone's offset (seconds east of UTC) at the instant utc_sec. */
RC_API int32_t rc_tzdata_offset_at(const rc_tzdata *z, int64_t utc_sec);
static inline int32_t rc_tz_offset_at(const rc_tz *tz, int64_t utc_sec)
{
    return tz->zone ? rc_tzdata_offset_at(tz->zone, utc_sec) : tz->fixed;
}

/* The offset for a wall-clock time local_sec (seconds since 1970-01-01T00:00 of that clock), as
 * java.time resolves it: in an overlap (clocks set back) the earlier offset; in a gap (clocks
 * set forward) the offset before the gap, which moves the time later by the gap's length. The
 * instant is local_sec minus the offset. */
RC_API int32_t rc_tz_offset_of_local(const rc_tz *tz, int64_t local_sec);

/* A TZif file's bytes (RFC 8536, versions 1 to 4) into a zone; the fuzz target and the tests
 * use it directly. Free with rc_tzdata_free (rc_tz_parse's zones are never freed). */
RC_API rc_status rc_tzdata_parse(const unsigned char *p, size_t n, rc_tzdata **out, rc_error *err);
RC_API void rc_tzdata_free(rc_tzdata *z);

#endif
