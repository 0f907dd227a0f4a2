/* Geometry values are WKT (or EWKT with "SRID=n;") text in the canonical event; formats that
 * carry binary geometry (Debezium's io.debezium.data.geometry.*) need well-known binary. */
#ifndef ROWCAST_WKB_H
#define ROWCAST_WKB_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"

typedef struct rc_wkb_info {
    bool has_srid;
    int32_t srid;
    bool is_point; /* a POINT: x and y are set */
    double x, y;
} rc_wkb_info;

/* Converts WKT/EWKT (POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON,
 * GEOMETRYCOLLECTION; 2D) to little-endian WKB appended to `out`. Errors name the byte. */
rc_status rc_wkt_to_wkb(const char *s, size_t n, rc_buf *out, rc_wkb_info *info, rc_error *err);

/* The reverse: WKB (either byte order, 2D) to WKT appended to `out`, coordinates in Java's
 * shortest double layout without ".0" (POINT(1 2.5)); with has_srid, "SRID=n;" first. */
rc_status rc_wkb_to_wkt(const unsigned char *p, size_t n, bool has_srid, int32_t srid, rc_buf *out, rc_error *err);

#endif
