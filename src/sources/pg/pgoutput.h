/* pgoutput: the decoder of PostgreSQL's logical replication messages (protocol versions 1 and
 * 2, "Logical Replication Message Formats" of the PostgreSQL 15 documentation), and the caches
 * those messages need: relations by OID (from Relation messages) and type names by OID (from
 * Type messages).
 *
 * Input is the payload of one XLogData ('w') message of the replication stream, i.e. what
 * follows its 25-byte header, with the header's WAL start LSN. The connection reads and
 * strips that header; this module never touches the network.
 *
 * Memory. The caller owns the input buffer; tuple values and the strings of Origin, Message
 * and Truncate results point into it (no copy), so the buffer must outlive the decoded
 * message. The per-message arrays (one per tuple, not one per column) come from the arena the
 * caller passes, valid until it resets that arena. Relations and types are copied into the
 * decoder's caches.
 *
 * Relation lifetime. A Relation message for an OID already cached with a different content
 * (ALTER TABLE, REPLICA IDENTITY changed) installs a new version; the same content again
 * (pgoutput resends relations after every cache invalidation) keeps the cached version. A row
 * message is bound to the version current when it is decoded, which is the one pgoutput wrote
 * its tuples for (it sends a Relation message again, inside a stream too, whenever the schema
 * its next change uses may differ). Each version is reference-counted: the cache holds one
 * reference to the current version; a decoded message holds none, so its `rel` is valid only
 * until the next rc_pgo_decode or rc_pgo_free of that decoder. Whoever keeps an event longer
 * (a held streamed transaction, an event waiting for the sink) calls rc_pg_relation_retain
 * and later rc_pg_relation_release; a replaced version is freed with its last reference, even
 * after the decoder itself is freed. Type entries live until rc_pgo_free.
 *
 * Errors. Every malformed message is an error value: RC_ERR_SYNTAX (layout), RC_ERR_SCHEMA (a
 * row message for an unknown relation OID, or a tuple whose column count differs from its
 * relation's), RC_ERR_NOMEM; err->offset is the byte inside the message (0 = the type byte)
 * where the bad field starts, and the message names the kind and the field, e.g.
 * "pgoutput Insert: new row column 3 of 5 \"price\": text length 1000 past the end of the
 * message (4 bytes left) at byte 17". A failed decode changes no decoder state.
 *
 * Not thread-safe, except retain/release, which may run on another thread (sink callbacks). */
#ifndef ROWCAST_PG_PGOUTPUT_H
#define ROWCAST_PG_PGOUTPUT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rowcast/arena.h"
#include "rowcast/error.h"

/* Message kinds: the protocol's type byte. */
typedef enum rc_pgo_kind {
    RC_PGO_BEGIN = 'B',
    RC_PGO_COMMIT = 'C',
    RC_PGO_ORIGIN = 'O',
    RC_PGO_RELATION = 'R',
    RC_PGO_TYPE = 'Y',
    RC_PGO_INSERT = 'I',
    RC_PGO_UPDATE = 'U',
    RC_PGO_DELETE = 'D',
    RC_PGO_TRUNCATE = 'T',
    RC_PGO_MESSAGE = 'M',
    RC_PGO_STREAM_START = 'S', /* protocol version 2 from here */
    RC_PGO_STREAM_STOP = 'E',
    RC_PGO_STREAM_COMMIT = 'c',
    RC_PGO_STREAM_ABORT = 'A',
} rc_pgo_kind;

/* Name of a kind as the documentation writes it ("Stream Commit"); "unknown" otherwise. */
const char *rc_pgo_kind_name(int kind);

/* Relation messages: replica identity (pg_class.relreplident) and column flags. */
enum {
    RC_PG_REPLIDENT_DEFAULT = 'd', /* primary key */
    RC_PG_REPLIDENT_NOTHING = 'n',
    RC_PG_REPLIDENT_FULL = 'f',
    RC_PG_REPLIDENT_INDEX = 'i',
    RC_PG_COLUMN_KEY = 1, /* column flag: part of the replica identity (all columns if FULL) */
    RC_PG_COLUMN_NOT_NULL = 0x80, /* NOT NULL (pg_attribute.attnotnull): set by the catalog, never sent */
};

typedef struct rc_pg_column {
    const char *name;
    uint32_t type_oid; /* pg_type OID: built-in ones are fixed, others come in Type messages */
    int32_t typmod;    /* atttypmod as sent: -1 when none, varchar(n) is n + 4, ... */
    uint8_t flags;     /* RC_PG_COLUMN_KEY, other bits as sent; RC_PG_COLUMN_NOT_NULL from the catalog */
} rc_pg_column;

/* One version of a relation, immutable once built. */
typedef struct rc_pg_relation {
    uint32_t oid;
    const char *nspname; /* schema; pgoutput sends "" for pg_catalog, kept as "pg_catalog" */
    const char *relname;
    char replident;      /* RC_PG_REPLIDENT_* */
    uint16_t ncols;      /* live columns as sent (no dropped or generated ones) */
    const rc_pg_column *cols;
    uint64_t version;    /* 1, 2, ... per decoder, in the order versions were installed */
    atomic_uint refs;    /* only rc_pg_relation_retain/release touch this */
} rc_pg_relation;

void rc_pg_relation_retain(const rc_pg_relation *rel);
/* A version built from `src` (its strings and columns copied, refs and version ignored) with
 * one reference and the given version number, for relations known from the catalog rather
 * than a Relation message (the snapshot): NULL when out of memory. Numbers at or above
 * RC_PG_RELATION_CATALOG_VERSION never meet a decoder's. */
rc_pg_relation *rc_pg_relation_new(const rc_pg_relation *src, uint64_t version);
#define RC_PG_RELATION_CATALOG_VERSION (UINT64_C(1) << 62)
/* Drops one reference; the last one frees the version. NULL is a no-op. */
void rc_pg_relation_release(const rc_pg_relation *rel);

typedef struct rc_pgo_typeinfo {
    uint32_t oid;
    const char *nspname; /* "pg_catalog" when sent as "" */
    const char *typname;
} rc_pgo_typeinfo;

/* A column value of a tuple. */
enum {
    RC_PGO_NULL = 'n',
    RC_PGO_UNCHANGED = 'u', /* unchanged TOAST value: not sent, and not NULL */
    RC_PGO_TEXT = 't',      /* the type's text output; not NUL-terminated */
    RC_PGO_BINARY = 'b',    /* the type's send function output (binary 'true') */
};

typedef struct rc_pgo_datum {
    const uint8_t *data; /* into the input buffer; NULL for 'n' and 'u' */
    uint32_t len;
    char kind;           /* RC_PGO_NULL, _UNCHANGED, _TEXT, _BINARY */
} rc_pgo_datum;

typedef struct rc_pgo_tuple {
    uint16_t ncols;            /* equals the relation's ncols */
    const rc_pgo_datum *cols;  /* from the arena */
} rc_pgo_tuple;

enum { RC_PGO_TRUNCATE_CASCADE = 1, RC_PGO_TRUNCATE_RESTART_IDENTITY = 2 };
enum { RC_PGO_MESSAGE_TRANSACTIONAL = 1 };

/* LSNs are uint64; times are the server's TimestampTz: microseconds since 2000-01-01 UTC. */
typedef struct rc_pgo_msg {
    rc_pgo_kind kind;
    uint64_t wal_start; /* the XLogData header's WAL start (0/0 for Relation and Type) */
    bool streamed;      /* inside Stream Start .. Stream Stop: `xid` was sent */
    uint32_t xid;       /* when streamed: the (sub)transaction of this message; else 0 */
    union {
        struct {
            uint64_t final_lsn;
            int64_t commit_time;
            uint32_t xid;
        } begin;
        struct { /* Commit and Stream Commit */
            uint32_t xid; /* Stream Commit only */
            uint8_t flags;
            uint64_t commit_lsn;
            uint64_t end_lsn;
            int64_t commit_time;
        } commit;
        struct {
            uint64_t commit_lsn; /* on the origin server */
            const char *name;    /* into the input */
        } origin;
        struct {
            const rc_pg_relation *rel; /* the cached version */
            bool changed;              /* a new version was installed (first one included) */
        } relation;
        struct {
            const rc_pgo_typeinfo *type; /* the cache entry */
        } type;
        struct { /* Insert, Update, Delete */
            const rc_pg_relation *rel;
            char old_kind;         /* 'K' old key, 'O' old row, 0 none (Insert, some Updates) */
            rc_pgo_tuple old_tuple; /* when old_kind */
            rc_pgo_tuple new_tuple; /* Insert and Update */
        } change;
        struct {
            uint32_t nrels;
            uint8_t options; /* RC_PGO_TRUNCATE_* */
            const uint32_t *oids;             /* from the arena */
            const rc_pg_relation *const *rels; /* the cached versions, same order */
        } truncate;
        struct {
            uint8_t flags; /* RC_PGO_MESSAGE_TRANSACTIONAL */
            uint64_t lsn;
            const char *prefix; /* into the input */
            const uint8_t *content;
            uint32_t len;
        } message;
        struct {
            uint32_t xid;
            bool first_segment;
        } stream_start;
        struct {
            uint32_t xid;
            uint32_t subxid; /* equals xid when the whole transaction aborted */
        } stream_abort;
    } u;
} rc_pgo_msg;

typedef struct rc_pgo_decoder rc_pgo_decoder;

/* proto_version is what START_REPLICATION asked for: 1, or 2 (streaming). NULL when out of
 * memory or the version is not 1 or 2. */
rc_pgo_decoder *rc_pgo_new(int proto_version);
/* Drops the cache's references (retained relation versions stay) and frees types. */
void rc_pgo_free(rc_pgo_decoder *d);

/* Decodes one message. `arena` must not be NULL. On error `out` is unspecified and the decoder
 * unchanged. */
rc_status rc_pgo_decode(rc_pgo_decoder *d, const uint8_t *msg, size_t len, uint64_t wal_start,
                        rc_arena *arena, rc_pgo_msg *out, rc_error *err);

/* Decodes again a row message (Insert, Update, Delete, Truncate) that rc_pgo_decode accepted
 * before, bound to the relation versions it was bound to then rather than to the cache's
 * current ones: rels[0..nrels) is the change's relation, or Truncate's relations in order
 * (the caller keeps references on them). `streamed`: the message has the stream's xid field.
 * How a held streamed change is read back at Stream Commit (pg_spill.h); no decoder state. */
rc_status rc_pgo_decode_row(const uint8_t *msg, size_t len, uint64_t wal_start, bool streamed,
                            const rc_pg_relation *const *rels, uint32_t nrels, rc_arena *arena,
                            rc_pgo_msg *out, rc_error *err);

/* A new replication session (reconnect): not inside a stream any more. Caches stay; the
 * server sends every relation again before using it. */
void rc_pgo_session_reset(rc_pgo_decoder *d);
bool rc_pgo_in_stream(const rc_pgo_decoder *d);

/* The current version of a relation, or NULL. Valid as a decoded message's `rel` is. */
const rc_pg_relation *rc_pgo_relation(const rc_pgo_decoder *d, uint32_t oid);
/* A type sent in a Type message, or NULL (built-in types are never sent). */
const rc_pgo_typeinfo *rc_pgo_type(const rc_pgo_decoder *d, uint32_t oid);

/* TimestampTz (µs since 2000-01-01) to µs since 1970-01-01, saturating at the int64 range
 * (PostgreSQL's ±infinity are INT64_MIN and INT64_MAX and stay so). */
int64_t rc_pg_time_to_unix_us(int64_t pg_us);

#endif
