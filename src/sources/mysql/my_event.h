/* The binlog's events one by one, for the event decoder (my_decoder.c) and its tests: the
 * common header, FORMAT_DESCRIPTION, the CRC32 check, and the bodies of the events that carry
 * state (QUERY, ROTATE, GTIDs of both servers, GTID sets, HEARTBEAT, XA_PREPARE,
 * TRANSACTION_PAYLOAD, ANNOTATE_ROWS / ROWS_QUERY, INCIDENT). TABLE_MAP is my_tablemap.c's,
 * the row events my_rows.c's. Parsers read a body (after the common header, without the
 * checksum) and name the byte where it is wrong, relative to the body. */
#ifndef ROWCAST_MY_EVENT_H
#define ROWCAST_MY_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/value.h"
#include "my_gtid.h"
#include "my_types.h" /* rc_my_le */

enum rc_my_event_type {
    RC_MYEV_UNKNOWN = 0,
    RC_MYEV_START_V3 = 1,
    RC_MYEV_QUERY = 2,
    RC_MYEV_STOP = 3,
    RC_MYEV_ROTATE = 4,
    RC_MYEV_INTVAR = 5,
    RC_MYEV_RAND = 13,
    RC_MYEV_USER_VAR = 14,
    RC_MYEV_FORMAT_DESCRIPTION = 15,
    RC_MYEV_XID = 16,
    RC_MYEV_BEGIN_LOAD_QUERY = 17,
    RC_MYEV_EXECUTE_LOAD_QUERY = 18,
    RC_MYEV_TABLE_MAP = 19,
    RC_MYEV_PRE_GA_WRITE_ROWS = 20,
    RC_MYEV_PRE_GA_UPDATE_ROWS = 21,
    RC_MYEV_PRE_GA_DELETE_ROWS = 22,
    RC_MYEV_WRITE_ROWS_V1 = 23,
    RC_MYEV_UPDATE_ROWS_V1 = 24,
    RC_MYEV_DELETE_ROWS_V1 = 25,
    RC_MYEV_INCIDENT = 26,
    RC_MYEV_HEARTBEAT = 27,
    RC_MYEV_IGNORABLE = 28,
    RC_MYEV_ROWS_QUERY = 29,
    RC_MYEV_WRITE_ROWS = 30,
    RC_MYEV_UPDATE_ROWS = 31,
    RC_MYEV_DELETE_ROWS = 32,
    RC_MYEV_GTID = 33,
    RC_MYEV_ANONYMOUS_GTID = 34,
    RC_MYEV_PREVIOUS_GTIDS = 35,
    RC_MYEV_TRANSACTION_CONTEXT = 36,
    RC_MYEV_VIEW_CHANGE = 37,
    RC_MYEV_XA_PREPARE = 38,
    RC_MYEV_PARTIAL_UPDATE_ROWS = 39,
    RC_MYEV_TRANSACTION_PAYLOAD = 40,
    RC_MYEV_HEARTBEAT_V2 = 41,
    RC_MYEV_GTID_TAGGED = 42,
    RC_MYEV_MARIA_ANNOTATE_ROWS = 160,
    RC_MYEV_MARIA_BINLOG_CHECKPOINT = 161,
    RC_MYEV_MARIA_GTID = 162,
    RC_MYEV_MARIA_GTID_LIST = 163,
    RC_MYEV_MARIA_START_ENCRYPTION = 164,
    RC_MYEV_MARIA_QUERY_COMPRESSED = 165,
};

enum { RC_MY_HEADER_LEN = 19, RC_MY_CHECKSUM_LEN = 4 };
enum { RC_MY_LOG_EVENT_IGNORABLE_F = 0x80 };

/* The event's name as the servers' documentation writes it ("WRITE_ROWS_EVENT"), NULL when
 * the type is unknown. */
const char *rc_my_event_name(uint8_t type);

typedef struct rc_my_header {
    uint32_t timestamp;
    uint8_t type;
    uint32_t server_id;
    uint32_t size;     /* the whole event: header, body, checksum */
    uint32_t next_pos; /* offset of the next event in the file (0 in an artificial event) */
    uint16_t flags;
} rc_my_header;

rc_status rc_my_header_parse(const uint8_t *p, size_t n, rc_my_header *h, rc_error *err);

/* FORMAT_DESCRIPTION: what the events after it look like. */
typedef struct rc_my_fde {
    uint16_t binlog_version;
    char server_version[51];
    uint8_t header_len;
    uint8_t post_len[256]; /* post-header length by event type (0 when not listed) */
    bool checksum;         /* CRC32 after every event (binlog_checksum=CRC32) */
    bool mariadb;
    unsigned version[3];   /* 8.0.32 -> {8, 0, 32} */
} rc_my_fde;

/* The FDE a server of binlog version 4 writes before it has told its own (what the first
 * event is read with). */
void rc_my_fde_default(rc_my_fde *f);
/* Reads the FDE event ev[0..n) (header included): it says itself whether it ends in a CRC32. */
rc_status rc_my_fde_parse(const uint8_t *ev, size_t n, rc_my_fde *f, rc_error *err);

uint32_t rc_my_crc32(uint32_t crc, const uint8_t *p, size_t n);

/* The live stream's reader thread sums each event as it comes (my_stream.c), so that the
 * decoder only compares: true, with the CRC32 of p[0..n-4) in *sum, for an event of a stream
 * whose events end in one. *sums is the stream's state, true at its start (the server's first,
 * artificial ROTATE comes before any FORMAT_DESCRIPTION and carries one); each
 * FORMAT_DESCRIPTION sets it. */
bool rc_my_event_sum(const uint8_t *p, size_t n, bool *sums, uint32_t *sum);

/* MySQL's packed integer (length-encoded: < 0xfb one byte, 0xfc 2, 0xfd 3, 0xfe 8). False when
 * it runs past n or starts with 0xfb/0xff. */
bool rc_my_packed(const uint8_t *p, size_t n, size_t *i, uint64_t *v);
/* The MySQL serialization library's variable-length unsigned integer (tagged GTIDs). */
bool rc_my_varlen(const uint8_t *p, size_t n, size_t *i, uint64_t *v);

typedef struct rc_my_query {
    uint32_t thread_id, exec_time;
    uint16_t error_code;
    rc_str db, sql;
    bool has_sql_mode, has_charset;
    uint64_t sql_mode;
    uint16_t charset_client, collation_connection, collation_server;
    rc_str time_zone;
} rc_my_query;

rc_status rc_my_query_parse(const rc_my_fde *f, const uint8_t *b, size_t n, rc_my_query *q, rc_error *err);

typedef struct rc_my_rotate {
    uint64_t position;
    rc_str file;
} rc_my_rotate;

rc_status rc_my_rotate_parse(const rc_my_fde *f, const uint8_t *b, size_t n, rc_my_rotate *r, rc_error *err);

/* MySQL's GTID_LOG_EVENT / ANONYMOUS_GTID_LOG_EVENT (33, 34) and GTID_TAGGED_LOG_EVENT (42). */
typedef struct rc_my_gtid_ev {
    uint8_t flags;
    uint8_t uuid[16];
    char tag[33];
    uint64_t gno;
    uint64_t last_committed, sequence_number;
    uint64_t immediate_commit_ts, original_commit_ts; /* µs since the epoch, 0 when absent */
    uint64_t transaction_length;
    uint32_t immediate_server_version, original_server_version; /* 0 when absent */
} rc_my_gtid_ev;

rc_status rc_my_gtid_ev_parse(uint8_t type, const uint8_t *b, size_t n, rc_my_gtid_ev *g, rc_error *err);
/* "uuid:gno" or "uuid:tag:gno". */
void rc_my_gtid_ev_format(const rc_my_gtid_ev *g, rc_buf *out);

/* MariaDB's GTID event (162). */
enum { RC_MARIA_FL_STANDALONE = 1, RC_MARIA_FL_GROUP_COMMIT_ID = 2, RC_MARIA_FL_PREPARED_XA = 64, RC_MARIA_FL_COMPLETED_XA = 128 };
typedef struct rc_maria_gtid {
    uint64_t seq;
    uint32_t domain;
    uint8_t flags;
    uint64_t commit_id; /* when FL_GROUP_COMMIT_ID */
} rc_maria_gtid;

rc_status rc_maria_gtid_parse(const uint8_t *b, size_t n, rc_maria_gtid *g, rc_error *err);

/* GTID_LIST (MariaDB) and PREVIOUS_GTIDS (MySQL, tagged or not) into a set (replacing it). */
rc_status rc_maria_gtid_list_parse(const uint8_t *b, size_t n, rc_my_gtid_set *g, rc_error *err);
rc_status rc_my_previous_gtids_parse(const uint8_t *b, size_t n, rc_my_gtid_set *g, rc_error *err);

/* HEARTBEAT (27: the body is the file name; the position is the header's next_pos) and
 * HEARTBEAT_V2 (41: typed fields). */
typedef struct rc_my_heartbeat {
    rc_str file;
    uint64_t position;
    bool has_position;
} rc_my_heartbeat;

rc_status rc_my_heartbeat_parse(uint8_t type, const uint8_t *b, size_t n, rc_my_heartbeat *h, rc_error *err);

typedef struct rc_my_xa_prepare {
    bool one_phase;
    int32_t format_id;
    rc_str gtrid, bqual;
} rc_my_xa_prepare;

rc_status rc_my_xa_prepare_parse(const uint8_t *b, size_t n, rc_my_xa_prepare *x, rc_error *err);

/* TRANSACTION_PAYLOAD: the header fields and where the payload starts in the body. */
enum { RC_MY_COMPRESSION_ZSTD = 0, RC_MY_COMPRESSION_NONE = 255 };
typedef struct rc_my_payload {
    uint64_t payload_size, uncompressed_size;
    uint64_t compression; /* RC_MY_COMPRESSION_* */
    size_t data_off;      /* offset of the payload in the body */
} rc_my_payload;

rc_status rc_my_payload_parse(const uint8_t *b, size_t n, rc_my_payload *t, rc_error *err);
/* The payload's events, decompressed into out (reset first). */
rc_status rc_my_payload_inflate(const rc_my_payload *t, const uint8_t *b, size_t n, rc_buf *out, rc_error *err);

/* ANNOTATE_ROWS (160) and ROWS_QUERY (29): the statement. */
rc_status rc_my_rows_query_parse(uint8_t type, const uint8_t *b, size_t n, rc_str *sql, rc_error *err);

typedef struct rc_my_incident {
    uint16_t type;
    rc_str message;
} rc_my_incident;

rc_status rc_my_incident_parse(const rc_my_fde *f, const uint8_t *b, size_t n, rc_my_incident *in, rc_error *err);

#endif
