/* What the PostgreSQL source declares for `capture` (rowcast/source.h): its URL schemes, its
 * -o postgres.* options, the capture flags only it reads, its --until position (an LSN), its
 * check of --slot, and its traits. The source itself is pg_source.c. */
#include <limits.h>
#include <stddef.h>
#include <string.h>
#include "sources/pg/pg_conn.h"
#include "sources/pg/pg_source_decl.h"

const char *const rc_pg_schemes[] = {"postgres://", "postgresql://", NULL};
/* --checkpoint: the incremental snapshots' state file, only with -o postgres.signal.table or
 * --snapshot incremental (rc_pg_validate) */
const char *const rc_pg_flags[] = {"--slot", "--publication", "--checkpoint", NULL};

const char rc_pg_flag_refused[] = "%s is MySQL's and MariaDB's: PostgreSQL's position is its replication slot (--slot)";

#define PG_OPT(key, type, max, field) {key, type, NULL, NULL, NULL, offsetof(rc_pg_capture_options, field), 0, max, NULL}
const rc_option_desc rc_pg_options[] = {
    PG_OPT("postgres.streaming", RC_OPT_BOOL, 0, streaming),
    PG_OPT("postgres.heartbeat.interval", RC_OPT_INT, 86400, heartbeat_s),
    PG_OPT("postgres.stream.spill_bytes", RC_OPT_INT, LONG_MAX, spill_bytes),
    PG_OPT("postgres.stream.max_bytes", RC_OPT_INT, LONG_MAX, max_bytes),
    PG_OPT("postgres.stream.spill_dir", RC_OPT_STRING, 0, spill_dir),
    PG_OPT("postgres.signal.table", RC_OPT_STRING, 0, signal_table),
    PG_OPT("postgres.snapshot.chunk.rows", RC_OPT_INT, 1 << 20, chunk_rows),
    {"postgres.snapshot.flush", RC_OPT_BOOL, NULL, "true",
     "incremental snapshots: rowcast's SQL session commits its watermarks with synchronous_commit = local, so that a "
     "chunk does not wait for the WAL writer (wal_writer_delay) on a server with synchronous_commit = off, nor for a "
     "synchronous standby (synchronous_standby_names); false: the server's setting (with a synchronous standby down, "
     "every watermark waits for it)", .off = offsetof(rc_pg_capture_options, flush)},
    {"postgres.snapshot.read_ahead", RC_OPT_BOOL, NULL, "true",
     "incremental snapshots: the next chunk's query is sent as soon as the last chunk's rows are queued, and the "
     "server runs it while they are encoded (docs/BENCHMARKS.md, session 24: 0.52-0.54x the initial snapshot's rate "
     "with 65536-row chunks, against 0.36-0.43x for 16384-row chunks read one after the other)",
     .off = offsetof(rc_pg_capture_options, read_ahead)},
    {"postgres.publish.no_identity", RC_OPT_CHOICE, "skip|insert_only", "skip", NULL, offsetof(rc_pg_capture_options, no_identity), 0, 0, NULL},
    {0},
};
#undef PG_OPT

/* --until's position: an LSN past 0/0. */
bool rc_pg_until_parse(const char *text, uint64_t *lsn)
{
    return rc_pg_lsn_parse(text, lsn) && *lsn;
}

rc_status rc_pg_validate(rc_capture_config *cc, const rc_options *opts, rc_error *err)
{
    rc_pg_capture_options po = {0};
    rc_error oerr;
    rc_error_clear(&oerr);
    if (cc->checkpoint && cc->snapshot != RC_SNAPSHOT_INCREMENTAL && (!opts || rc_options_parse(opts, "postgres", rc_pg_options, &po, &oerr) == RC_OK) && !po.signal_table)
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--checkpoint is MySQL's and MariaDB's: PostgreSQL's position is its replication slot (--slot); "
                            "for PostgreSQL it names only the state file of incremental snapshots (-o postgres.signal.table, "
                            "--snapshot incremental)");
    if (!cc->slot) cc->slot = "rowcast";
    if (!cc->publication) cc->publication = "rowcast";
    /* before connecting: a bad name would fail only after the publication was created */
    if (!rc_pg_slot_name_ok(cc->slot))
        return rc_error_set(err, RC_ERR_USAGE, RC_NO_OFFSET,
                            "--slot '%s' is not a slot name: use lower-case letters, digits and _ (at most 63)", cc->slot);
    return RC_OK;
}

void rc_pg_configure(rc_capture_config *cc, const void *options)
{
    const rc_pg_capture_options *o = options;
    cc->streaming = o->streaming;
    cc->heartbeat_s = (double)o->heartbeat_s;
    cc->spill_bytes = (uint64_t)o->spill_bytes, cc->stream_max_bytes = (uint64_t)o->max_bytes;
    cc->spill_dir = o->spill_dir;
    cc->no_identity_inserts = o->no_identity == 1;
}
