/* TABLE_MAP events: a table's id, names and column descriptions (rc_my_col) with every
 * optional-metadata field (binlog_row_metadata=FULL/MINIMAL), completed from and checked
 * against the schema history (my_tablemap.c). The decoder keeps one per table id. */
#ifndef ROWCAST_MY_TABLEMAP_H
#define ROWCAST_MY_TABLEMAP_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/error.h"
#include "my_event.h"
#include "my_schema.h"
#include "my_types.h"

typedef struct rc_my_tablemap {
    uint64_t table_id;
    uint16_t flags;
    rc_str db, table;
    uint32_t ncols;
    rc_my_col *cols;
    /* optional metadata as the event had it (has_*: the field was present) */
    bool has_signedness, has_charsets, has_names, has_enum_labels, has_set_labels, has_pk, has_visibility, has_geometry;
    bool *visible;          /* ncols, when has_visibility */
    uint8_t *geometry_type; /* ncols (0 GEOMETRY ... 7 GEOMETRYCOLLECTION), when has_geometry */
    uint32_t npk;
    uint32_t *pk, *pk_prefix; /* key columns in key order, their prefix lengths (0: whole column) */
    uint16_t *enum_set_collation; /* ncols, 0 where none */
    rc_arena arena;           /* everything above */
} rc_my_tablemap;

/* Parses a TABLE_MAP body (post-header and payload). `mariadb`: written by MariaDB (its
 * charset lists also cover GEOMETRY columns). The map owns its memory: rc_my_tablemap_free. */
rc_status rc_my_tablemap_parse(const rc_my_fde *f, bool mariadb, const uint8_t *b, size_t n, rc_my_tablemap **out, rc_error *err);
void rc_my_tablemap_free(rc_my_tablemap *m);

/* The table id of a TABLE_MAP or rows event body (6 bytes, or 4 for a post-header of 6). */
uint64_t rc_my_table_id(const rc_my_fde *f, uint8_t type, const uint8_t *b);

/* Fills in from the history's structure what the binlog left out (names, enum/set labels,
 * signedness, declared types) and checks the two agree: column count, and each column's binlog
 * type against its declaration (RC_ERR_SCHEMA naming the table and both structures). */
rc_status rc_my_tablemap_complete(rc_my_tablemap *m, const rc_my_table *t, rc_error *err);

#endif
