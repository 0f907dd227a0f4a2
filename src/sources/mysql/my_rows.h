/* Row events: WRITE/UPDATE/DELETE_ROWS v1 (23-25, MariaDB; 20-22 of MySQL 5.1 alike) and v2
 * (30-32, with the extra-data block), PARTIAL_UPDATE_ROWS (39). rc_my_rows_parse reads the
 * event's head; rc_my_rows_next then reads one row (one image, two for updates) at a time, with
 * the columns of the event's TABLE_MAP. */
#ifndef ROWCAST_MY_ROWS_H
#define ROWCAST_MY_ROWS_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/buf.h"
#include "rowcast/event.h"
#include "my_event.h"
#include "my_tablemap.h"

typedef struct rc_my_rows {
    uint8_t type;
    rc_op op;       /* RC_OP_INSERT, UPDATE or DELETE */
    bool partial;   /* PARTIAL_UPDATE_ROWS */
    uint64_t table_id;
    uint16_t flags; /* 1: STMT_END_F (the statement's last rows event) */
    uint32_t ncols;
    const uint8_t *present_before, *present_after; /* column bitmaps (NULL when the event has no such image) */
    uint32_t held_before, held_after;              /* the columns each bitmap holds (one NULL bit each per row) */
    /* version 2's extra data */
    bool has_partition;
    uint32_t partition_id, source_partition_id;
    bool has_ndb;
    uint8_t ndb_format;
    const uint8_t *ndb_data;
    size_t ndb_len;
    size_t rows_off; /* where the rows start in the body */
} rc_my_rows;

rc_status rc_my_rows_parse(const rc_my_fde *f, uint8_t type, const uint8_t *b, size_t n, rc_my_rows *r, rc_error *err);

/* Reads the row at b[*pos] (advancing *pos): before and/or after image into before[0..ncols)
 * and after[0..ncols) as the event's kind has them (the other left alone); columns an image
 * leaves out are RC_V_UNAVAILABLE. `scratch` holds a partially updated JSON document's text
 * on its way into `a`. */
rc_status rc_my_rows_next(const rc_my_rows *r, const rc_my_tablemap *m, const uint8_t *b, size_t n, size_t *pos, rc_value *before,
                          rc_value *after, rc_arena *a, rc_buf *scratch, rc_error *err);

#endif
