/* Internals of the event decoder (my_decoder.c): its state and the helpers its parts share:
 * QUERY events (my_decoder_query.c) and TABLE_MAP events (my_decoder_tablemap.c). Not for the
 * rest of the source: it uses my_decoder.h. */
#ifndef ROWCAST_MY_DECODER_INT_H
#define ROWCAST_MY_DECODER_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "my_decoder.h"
#include "my_event.h"
#include "my_tablemap.h"
#include "rowcast/buf.h"
#include "core/colcache.h"

typedef struct tm_entry {
    rc_my_tablemap *map;
    bool accepted;
    bool refused; /* the history disagreed with it: its rows are refused too */
    uint64_t offset; /* of the TABLE_MAP, for that message */
    uint8_t *body;   /* the event's body: the same TABLE_MAP again (every transaction sends it) is */
    size_t bodyn;    /* recognised, not parsed and completed again */
    uint64_t gen;    /* the history's generation it was completed with */
    const rc_column *cols; /* from the column cache (NULL: build per event, the cache is full) */
    const void *cols_id;
    const rc_str *dflts; /* the columns' defaults (rc_event.dflts), with cols */
} tm_entry;

struct rc_my_decoder {
    rc_my_decoder_config cfg;
    rc_my_fde fde;
    bool have_fde;
    rc_str version;       /* the FDE's server version, in keep */
    const char *file;     /* current binlog file (in keep) */
    size_t file_len;      /* its strlen, for every event's position */
    const char *bfile;    /* the boundary's */
    uint64_t boffset;
    bool in_tx, in_begin; /* a transaction is open; it began with BEGIN (so a DDL does not end it) */
    bool standalone;      /* MariaDB GTID flag: the transaction is one statement, no BEGIN */
    rc_my_gtid_set *gtids;
    /* the open transaction's GTID, added to gtids at its end */
    int gtid_kind; /* 0 none, 1 MySQL, 2 MariaDB */
    rc_my_gtid_ev my;
    rc_maria_gtid maria;
    uint32_t gtid_server;
    char gtid_text[96];
    size_t gtid_len;
    uint64_t thread;
    bool has_thread;
    /* Debezium's MySQL transaction id of the open BEGIN…COMMIT (MySqlOffsetContext): the GTID,
     * or without one "file=<binlog>,pos=<offset of the BEGIN>" */
    char txid_text[128];
    size_t txid_len;
    rc_buf query; /* the last ANNOTATE_ROWS / ROWS_QUERY statement */
    tm_entry *maps;
    size_t nmaps, capmaps;
    /* replaced table maps: events still held may point at their ENUM/SET labels, so they live
     * as long as the decoder (one per structure change, not one per transaction) */
    rc_my_tablemap **retired;
    size_t nretired, capretired;
    uint64_t gen; /* DDL statements applied to the history */
    rc_colcache *cols;
    rc_arena keep; /* file names and versions events point at: as long as the decoder */
    rc_buf scratch, payload, decl, key;
    int depth;    /* inside a TRANSACTION_PAYLOAD */
    bool rotated; /* a ROTATE set the boundary (the new file, its position) */
    uint64_t ev_offset;
    uint32_t ev_ts;
    uint32_t ev_server;
};


/* ---- my_decoder_common.c ---- */
rc_status rc_my_decoder_nomem(rc_error *err);
bool rc_my_decoder_retire(rc_my_decoder *d, rc_my_tablemap *m);
void rc_my_decoder_tx_begin(rc_my_decoder *d);
rc_status rc_my_decoder_tx_end(rc_my_decoder *d, rc_error *err);
rc_event *rc_my_decoder_new_event(rc_my_decoder *d, rc_op op, rc_event_list *out, rc_arena *a);
rc_str rc_my_decoder_arena_str(rc_arena *a, rc_str s);
rc_status rc_my_decoder_ddl_structure(rc_my_decoder *d, rc_event *ev, rc_arena *a, rc_error *err);

/* ---- my_decoder_query.c ---- */
void rc_my_decoder_tx_id(rc_my_decoder *d);
rc_status rc_my_decoder_emit_tx(rc_my_decoder *d, rc_op op, rc_event_list *out, rc_arena *a, rc_error *err);
rc_status rc_my_decoder_on_query(rc_my_decoder *d, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err);

/* ---- my_decoder_tablemap.c ---- */
rc_status rc_my_decoder_build_columns(rc_my_decoder *d, tm_entry *e, rc_arena *a, const rc_column **cols_out, const void **id_out,
                                     const rc_str **dflts_out, rc_error *err);
tm_entry *rc_my_decoder_map_find(rc_my_decoder *d, uint64_t id);
rc_status rc_my_decoder_on_table_map(rc_my_decoder *d, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err);

#endif
