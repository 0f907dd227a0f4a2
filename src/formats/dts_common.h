/* The DTS Avro Record (docs/formats/oms-avro.md; avro_test.sh decodes it with avro-c):
 * what rowcast writes for an event and for each value, shared by the binary `avro` and the
 * JSON `avro-json` writers so that both always agree. */
#ifndef RC_FORMATS_DTS_COMMON_H
#define RC_FORMATS_DTS_COMMON_H

#include "rowcast/buf.h"
#include "rowcast/event.h"
#include "rowcast/format.h"

/* Branches of the image item union, in schema order (the union index). */
typedef enum dts_branch {
    DTS_NULL = 0,
    DTS_INTEGER,
    DTS_CHARACTER,
    DTS_DECIMAL,
    DTS_FLOAT,
    DTS_TIMESTAMP,
    DTS_DATETIME,
    DTS_TSTZ,
    DTS_BINARY_GEOMETRY,
    DTS_TEXT_GEOMETRY,
    DTS_BINARY_OBJECT,
    DTS_TEXT_OBJECT,
    DTS_EMPTY_OBJECT,
} dts_branch;

/* Operation enum symbols, in schema order. */
enum { DTS_OP_INSERT = 0, DTS_OP_UPDATE, DTS_OP_DELETE, DTS_OP_DDL, DTS_OP_BEGIN, DTS_OP_COMMIT, DTS_OP_HEARTBEAT = 8, DTS_OP_INIT = 16 };

enum { DTS_DT_YEAR, DTS_DT_MONTH, DTS_DT_DAY, DTS_DT_HOUR, DTS_DT_MINUTE, DTS_DT_SECOND, DTS_DT_MICROS, DTS_DT_N };

/* One image item. Text fields point into the caller's scratch buffer or the event. */
typedef struct dts_val {
    dts_branch br;
    rc_str text;   /* Integer/Decimal value, Character/Object/Geometry value, */
    rc_str type;   /* Object/Geometry type name; Character charset; TSTZ timezone */
    int32_t precision, scale;
    double f;      /* Float */
    int64_t ts_sec; /* Timestamp */
    int32_t ts_micros;
    int32_t dt[DTS_DT_N]; /* DateTime fields; dt_has bit i set when present */
    unsigned dt_has;
    char type_buf[32];
} dts_val;

/* Maps one column value; `scratch` holds the rendered text until the next call. */
void rc_dts_value(const rc_column *col, const rc_value *v, rc_buf *scratch, dts_val *out);

/* Record-level fields. */
typedef struct dts_record {
    int op;           /* DTS_OP_* or -1 when the format has no record for the event */
    int64_t id, source_ts, process_ms;
    rc_str position;  /* sourcePosition = safeSourcePosition */
    int source_type;  /* SourceType enum index */
    const char *source_version;
    rc_str source_version_s; /* when the event names its version */
} dts_record;

/* Fills the record-level fields; `pos_scratch` receives a composed position when needed.
 * `seq` is the writer's own counter for records without a sequence. */
void rc_dts_record_of(const rc_event *ev, uint64_t seq, rc_buf *pos_scratch, dts_record *r);

/* objectName "db.table" and the pk_uk_info tag text, into `b`. */
void rc_dts_object_name(rc_buf *b, const rc_event *ev);
void rc_dts_pk_info(rc_buf *b, const rc_event *ev);
/* A DDL event's statement, the afterImages of its record: its text, or for a truncate without
 * one "TRUNCATE TABLE db.table", made in `scratch` (reset first; valid until its next use). */
rc_str rc_dts_ddl_text(rc_buf *scratch, const rc_event *ev);


#endif
