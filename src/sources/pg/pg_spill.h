/* pg_spill: the held changes of one streamed (protocol 2) transaction, for pg_events.c.
 *
 * A change is held as a record: the raw pgoutput message (what rc_pgo_decode accepted), its
 * WAL start, its subtransaction and the relation versions it was decoded against, not as the
 * events built from it, so that it costs its message's size and can go to disk as it is. At
 * Stream Commit the records are read back once, in order, and decoded again
 * (rc_pgo_decode_row), one at a time.
 *
 * Records stay in memory until the owner moves them to the transaction's spill file
 * (rc_pg_spill_flush: pg_events does when the memory of all held transactions passes its
 * threshold); later records go to memory and are appended to the file by the next flush, so
 * the file holds the oldest records and memory the newest. The file is created in the given
 * directory with O_TMPFILE (mkstemp and an immediate unlink where the file system lacks it):
 * it has no name, and nothing is left behind when the process ends, however it ends.
 *
 * Relation versions: each distinct version a record names gets one reference
 * (rc_pg_relation_retain), released by rc_pg_spill_free, so that a record read back decodes
 * against the column list it was sent for, whatever ALTER TABLE came since.
 *
 * Errors name the transaction and the directory of its (unnamed) file, and say what to do:
 * a full disk is RC_ERR_IO, never a silent loss. */
#ifndef ROWCAST_SOURCES_PG_SPILL_H
#define ROWCAST_SOURCES_PG_SPILL_H

#include <stdbool.h>
#include <stdint.h>
#include "sources/pg/pgoutput.h"

typedef struct rc_pg_spill rc_pg_spill;

/* Transaction `xid` (the top-level one), its file (if any) to be in `dir`, which must
 * outlive it. NULL when out of memory. */
rc_pg_spill *rc_pg_spill_new(uint32_t xid, const char *dir);
/* Closes the file (the system frees it), frees the records, releases the relation versions. */
void rc_pg_spill_free(rc_pg_spill *s);

uint32_t rc_pg_spill_xid(const rc_pg_spill *s);
/* Bytes of records in memory; bytes in the file (0 when none). */
size_t rc_pg_spill_mem_bytes(const rc_pg_spill *s);
uint64_t rc_pg_spill_file_bytes(const rc_pg_spill *s);
bool rc_pg_spill_has_file(const rc_pg_spill *s);

/* What a record of a message of `len` bytes naming `nrels` relations costs (memory or file). */
size_t rc_pg_spill_record_size(size_t len, uint32_t nrels);

/* Appends a record, in memory; its bytes are copied. On error nothing changes. */
rc_status rc_pg_spill_add(rc_pg_spill *s, const uint8_t *msg, size_t len, uint64_t wal_start,
                          uint32_t subxid, const rc_pg_relation *const *rels, uint32_t nrels,
                          rc_error *err);

/* Moves the records in memory to the end of the file (created at the first flush). On error
 * (the file cannot be created, a write fails: RC_ERR_IO) the records stay in memory and the
 * file as it was. */
rc_status rc_pg_spill_flush(rc_pg_spill *s, rc_error *err);

/* Subtransaction `subxid` aborted: its records are skipped when read back. */
rc_status rc_pg_spill_skip_sub(rc_pg_spill *s, uint32_t subxid, rc_error *err);

/* Reading back (after the last add; a transaction with a file is flushed first, so that its
 * records are all in the file). */
typedef struct rc_pg_spill_rec {
    const uint8_t *msg; /* the message, valid until the next read, seek or free */
    size_t len;
    uint64_t wal_start;
    uint32_t subxid;
    const rc_pg_relation *const *rels; /* valid as msg is */
    uint32_t nrels;
} rc_pg_spill_rec;

/* The next record not skipped into *r, r->msg NULL after the last one. RC_ERR_IO when the file
 * cannot be read back. */
rc_status rc_pg_spill_next(rc_pg_spill *s, rc_pg_spill_rec *r, rc_error *err);
/* Where the next read starts, and a return there (to read a batch again after an error). */
uint64_t rc_pg_spill_tell(const rc_pg_spill *s);
void rc_pg_spill_seek(rc_pg_spill *s, uint64_t pos);

#endif
