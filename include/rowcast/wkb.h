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

#endif
