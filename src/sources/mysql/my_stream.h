/* The binlog stream of a MySQL/MariaDB capture: a replica connection through libmariadb's
 * replication API (mariadb_rpl_*), read on a thread of its own so that the source can wait
 * for events with a timeout (the API only blocks) while the pipeline serves its sink. The
 * thread hands whole events over through a queue bounded in bytes: memory stays flat when the
 * sink is slower than the server.
 *
 * Before the dump request the session sets @master_binlog_checksum (the events then carry
 * their CRC32, which the thread computes and the decoder compares with the stored one), @mariadb_slave_capability=4 (MariaDB's GTID and
 * annotate events), @master_heartbeat_period, and for a start by GTID @slave_connect_state
 * (docs/sources/mysql.md). */
#ifndef ROWCAST_SOURCES_MY_STREAM_H
#define ROWCAST_SOURCES_MY_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "sources/mysql/my_conn.h"

typedef struct rc_my_stream_start {
    const char *file;   /* binlog file to start in ("" with gtids) */
    uint64_t offset;    /* and the offset (4: the file's first event) */
    const char *gtids;  /* MariaDB: start after this GTID position (NULL or "": by file:offset) */
    uint32_t server_id; /* the replica id this connection announces */
    double heartbeat_s; /* the server sends a heartbeat after this long without events */
} rc_my_stream_start;

/* One event as the server framed it: header, body, checksum. */
typedef struct rc_my_raw_event {
    const uint8_t *data;
    size_t n;
    uint8_t type;
    uint64_t log_pos; /* the header's end position (0 in artificial events) */
    bool summed;      /* the reader thread computed sum: the CRC32 of data[0..n-4) */
    uint32_t sum;
} rc_my_raw_event;

typedef struct rc_my_stream rc_my_stream;

/* Connects (a session of its own) and sends the dump request. What the server refuses later
 * (a purged binlog: error 1236) comes with the first rc_my_stream_next. */
rc_status rc_my_stream_open(const rc_my_url *u, const rc_my_stream_start *start, rc_my_stream **out, rc_error *err);
/* The next event within timeout_ms (*got false when none came). The event is valid until the
 * next call. A failure of the connection: RC_ERR_RETRY for one that may pass (lost, server
 * shutting down), else RC_ERR_IO; *server_errno is the server's error number (1236 ...) or 0. */
rc_status rc_my_stream_next(rc_my_stream *s, int timeout_ms, rc_my_raw_event *ev, bool *got, unsigned *server_errno,
                            rc_error *err);
void rc_my_stream_close(rc_my_stream *s);

#endif
