/* GTID sets, in both flavours: MariaDB's domain-server-seq list ("0-1-14,1-2-7": the last
 * sequence number per domain) and MySQL's UUID[:tag]:intervals ("3E11FA47-…:1-5:7,…" as
 * gtid_executed writes it, tags of 8.4+ included). Parsed from and written as the server's
 * own text, so that a checkpoint can hand it back to the server to resume from. */
#ifndef ROWCAST_MY_GTID_H
#define ROWCAST_MY_GTID_H

#include <stdbool.h>
#include <stdint.h>
#include "rowcast/buf.h"
#include "rowcast/error.h"
#include "rowcast/value.h"

typedef struct rc_my_gtid_set rc_my_gtid_set;

rc_my_gtid_set *rc_my_gtid_set_new(void);
void rc_my_gtid_set_free(rc_my_gtid_set *g);
rc_status rc_my_gtid_set_copy(rc_my_gtid_set *dst, const rc_my_gtid_set *src, rc_error *err);
bool rc_my_gtid_set_empty(const rc_my_gtid_set *g);
bool rc_my_gtid_set_is_mariadb(const rc_my_gtid_set *g);

/* Parses the server's text (either flavour; the empty text is the empty set). */
rc_status rc_my_gtid_set_parse(rc_my_gtid_set *g, const char *s, size_t n, rc_error *err);
/* Appends the server's text of the set. */
void rc_my_gtid_set_format(const rc_my_gtid_set *g, rc_buf *out);

/* Adds one transaction's GTID: MariaDB (domain, server, seq) or MySQL (uuid, tag, gno). */
rc_status rc_my_gtid_set_add_mariadb(rc_my_gtid_set *g, uint32_t domain, uint32_t server, uint64_t seq, rc_error *err);
rc_status rc_my_gtid_set_add_mysql(rc_my_gtid_set *g, const uint8_t uuid[16], rc_str tag, uint64_t gno, rc_error *err);
/* Adds MySQL's interval [start, end) (end exclusive, as PREVIOUS_GTIDS stores it). */
rc_status rc_my_gtid_set_add_mysql_range(rc_my_gtid_set *g, const uint8_t uuid[16], rc_str tag, uint64_t start, uint64_t end,
                                         rc_error *err);
/* Appends a UUID as MySQL writes it: lower-case hex, 8-4-4-4-12. */
void rc_my_gtid_uuid_format(const uint8_t uuid[16], rc_buf *out);

#endif
