/* Positions in a source's stream, opaque to everything but the source kind that made them:
 * the sink's marks, the acknowledgement tracker and the checkpoint store carry them without
 * looking inside. Each kind defines what its bytes hold, how two positions compare and how a
 * position is written to and read from a checkpoint file (position.c holds the per-kind table).
 *
 * The lines source (`convert`): the byte offset of the next line and the number of the last
 * line, within one input; the input itself (its real path) is the stream a checkpoint names
 * once, not part of every position, because a position is made for every line.
 *
 * PostgreSQL: the end LSN of the last transaction whose events all came before (what may be
 * acknowledged to the server once they are delivered), and during the snapshot, with LSN 0,
 * the number of snapshot rows before. MySQL/MariaDB: binlog file number, offset, snapshot rows.
 *
 * Not rc_position (rowcast/event.h), which is what an event's message says about where it
 * came from upstream (binlog file, GTID, SCN...), for the formats to write. */
#ifndef ROWCAST_POSITION_H
#define ROWCAST_POSITION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "rowcast/api.h"
#include "rowcast/buf.h"
#include "rowcast/error.h"

typedef enum rc_pos_kind {
    RC_POS_NONE = 0, /* no position (a run that stores none) */
    RC_POS_LINES,    /* lines source: offset (u64), line (u64) */
    RC_POS_PG_LSN,   /* PostgreSQL: LSN (u64), snapshot rows (u64) */
    RC_POS_MYSQL,    /* MySQL/MariaDB: binlog file number (u64), offset (u64), snapshot rows (u64) */
    RC_POS_SEQ,      /* a Kafka source: messages handed out before (u64), 0 (u64) */
    RC_POS_KIND_COUNT
} rc_pos_kind;

enum { RC_POS_BYTES = 24 };

typedef struct rc_pos {
    uint8_t kind; /* rc_pos_kind */
    uint8_t len;  /* bytes used */
    uint8_t bytes[RC_POS_BYTES];
} rc_pos;

/* A position of two u64 fields (every kind so far), and field i of a position of `kind` (0
 * for a position of another kind). */
static inline rc_pos rc_pos_u64x2(rc_pos_kind kind, uint64_t a, uint64_t b)
{
    rc_pos p = {.kind = (uint8_t)kind, .len = 16};
    memcpy(p.bytes, &a, 8);
    memcpy(p.bytes + 8, &b, 8);
    return p;
}
static inline uint64_t rc_pos_u64(const rc_pos *p, rc_pos_kind kind, unsigned i)
{
    uint64_t v = 0;
    if (p->kind == kind) memcpy(&v, p->bytes + 8 * i, 8);
    return v;
}

/* A position of three u64 fields (MySQL's). */
static inline rc_pos rc_pos_u64x3(rc_pos_kind kind, uint64_t a, uint64_t b, uint64_t c)
{
    rc_pos p = rc_pos_u64x2(kind, a, b);
    memcpy(p.bytes + 16, &c, 8);
    p.len = 24;
    return p;
}

/* The lines source's position: `offset` is where the next line starts, `line` the number of
 * the last line before it. */
static inline rc_pos rc_pos_lines(uint64_t offset, uint64_t line) { return rc_pos_u64x2(RC_POS_LINES, offset, line); }
static inline uint64_t rc_pos_lines_offset(const rc_pos *p) { return rc_pos_u64(p, RC_POS_LINES, 0); }
static inline uint64_t rc_pos_lines_line(const rc_pos *p) { return rc_pos_u64(p, RC_POS_LINES, 1); }

/* PostgreSQL's: the end LSN of the last transaction before, and the snapshot rows before. */
static inline rc_pos rc_pos_pg(uint64_t lsn, uint64_t snapshot_rows) { return rc_pos_u64x2(RC_POS_PG_LSN, lsn, snapshot_rows); }
static inline uint64_t rc_pos_pg_lsn(const rc_pos *p) { return rc_pos_u64(p, RC_POS_PG_LSN, 0); }
static inline uint64_t rc_pos_pg_snapshot_rows(const rc_pos *p) { return rc_pos_u64(p, RC_POS_PG_LSN, 1); }

/* MySQL/MariaDB's: the binlog file's number (mysql-bin.000042: 42) and the offset of the end
 * of the last transaction whose events all came before, and during the snapshot (file 0,
 * offset 0) the snapshot rows before. The GTID set and the file's name at that point are the
 * source's to keep (they do not fit here); its checkpoint file holds them. */
static inline rc_pos rc_pos_mysql(uint64_t file_no, uint64_t offset, uint64_t snapshot_rows)
{
    return rc_pos_u64x3(RC_POS_MYSQL, file_no, offset, snapshot_rows);
}
static inline uint64_t rc_pos_mysql_file(const rc_pos *p) { return rc_pos_u64(p, RC_POS_MYSQL, 0); }
static inline uint64_t rc_pos_mysql_offset(const rc_pos *p) { return rc_pos_u64(p, RC_POS_MYSQL, 1); }
static inline uint64_t rc_pos_mysql_snapshot_rows(const rc_pos *p) { return rc_pos_u64(p, RC_POS_MYSQL, 2); }

/* <0, 0, >0 as a is before, at or after b in the stream; positions of different kinds order
 * by kind (they never meet in one run). */
RC_API int rc_pos_compare(const rc_pos *a, const rc_pos *b);
RC_API bool rc_pos_equal(const rc_pos *a, const rc_pos *b);
/* Appends the checkpoint-file lines of p ("KEY VALUE\n" each; lines: "offset N\nline N\n"). */
RC_API void rc_pos_format(const rc_pos *p, rc_buf *out);
/* Reads one checkpoint-file line KEY VALUE of kind `kind` into p (p->kind is set). Returns the
 * field's index among the kind's fields (0, 1...), -1 when KEY is not one of them, -2 when the
 * value is malformed. */
RC_API int rc_pos_parse_field(rc_pos *p, rc_pos_kind kind, const char *key, size_t kl, const char *v, size_t vl);
/* How many fields a checkpoint of `kind` needs (every one of them, once). */
RC_API unsigned rc_pos_fields(rc_pos_kind kind);

#endif
