/* libFuzzer target: the pgoutput decoder (src/sources/pg/pgoutput.c) must accept or reject any
 * bytes without crashing or reading outside the message; an error has a pgoutput message and an
 * offset inside the message; an accepted row message has one value per relation column, each
 * inside the message.
 *
 * Input: the first byte picks protocol version 1 or 2 (its low bit); the rest is a sequence of
 * messages, each behind a 2-byte big-endian length (the last one takes what is left). The
 * decoders and their relation caches persist across inputs, so a row message finds the
 * relations of earlier inputs (and of the four installed at start); a few relation versions
 * stay retained across inputs, released later, as a held event would. Each input starts outside
 * a stream. Seeds:
 * tests/fuzz/seeds/pgoutput-* (messages captured from PostgreSQL 15).
 * Every accepted message also goes through pg_events (src/sources/pg/pg_events.c): it makes
 * events that the native encoder writes, or an error with a message; held streamed
 * transactions are dropped at the start of each input (a new session). They spill past 256
 * bytes, to files in a temporary directory of the run (removed at exit), and a Stream Commit
 * is drained in batches of 3 events. */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "formats/native.h"
#include "sources/pg/pg_events.h"
#include <unistd.h>

enum { RESET_EVERY = 20000, HELD = 8 };

static rc_pgo_decoder *decoders[2];
static rc_pg_events *events[2];
static rc_event_list evs;
static rc_buf line;
static const rc_pg_relation *held[HELD];
static unsigned held_next;
static unsigned runs;
static rc_arena arena;
static char spill_dir[] = "/tmp/fuzz-pgspill-XXXXXX";

static void remove_spill_dir(void)
{
    rmdir(spill_dir); /* empty: spill files have no name */
}

/* Relation OID n: "s.t<n>", n columns, the first a key. */
static void install(rc_pgo_decoder *d, uint32_t oid)
{
    uint8_t b[256];
    size_t n = 0;
    b[n++] = 'R';
    for (int i = 3; i >= 0; i--) b[n++] = (uint8_t)(oid >> (8 * i));
    memcpy(b + n, "s\0t\0d", 5);
    n += 5;
    b[n++] = 0;
    b[n++] = (uint8_t)oid;
    for (uint32_t c = 0; c < oid; c++) {
        b[n++] = c == 0;
        b[n++] = (uint8_t)('a' + c);
        b[n++] = 0;
        memcpy(b + n, "\0\0\0\x19\xff\xff\xff\xff", 8);
        n += 8;
    }
    rc_pgo_msg m;
    rc_error err;
    rc_error_clear(&err);
    if (rc_pgo_decode(d, b, n, 0, &arena, &m, &err) != RC_OK) abort();
}

static void fresh_decoders(void)
{
    for (int v = 0; v < 2; v++) {
        rc_pgo_free(decoders[v]);
        rc_pg_events_free(events[v]); /* its column lists hold relation references */
        if (!(decoders[v] = rc_pgo_new(v + 1))) abort();
        rc_pg_events_opts o = {.server = "s",
                               .db = "d",
                               .stream_max_bytes = 1 << 20,
                               .spill_bytes = 256,
                               .spill_dir = spill_dir};
        if (!(events[v] = rc_pg_events_new(&o, NULL))) abort();
        for (uint32_t oid = 1; oid <= 4; oid++) install(decoders[v], oid);
    }
}

static void hold(const rc_pg_relation *rel)
{
    const rc_pg_relation *old = held[held_next];
    if (old) {
        /* the version must still be whole */
        for (unsigned i = 0; i < old->ncols; i++)
            if (strlen(old->cols[i].name) > 65535) abort();
        rc_pg_relation_release(old);
    }
    rc_pg_relation_retain(rel);
    held[held_next] = rel;
    held_next = (held_next + 1) % HELD;
}

static void check_tuple(const rc_pgo_tuple *t, const rc_pg_relation *rel, const uint8_t *msg, size_t len)
{
    if (t->ncols != rel->ncols) abort();
    for (unsigned i = 0; i < t->ncols; i++) {
        const rc_pgo_datum *c = &t->cols[i];
        if (c->kind == RC_PGO_TEXT || c->kind == RC_PGO_BINARY) {
            if (c->data < msg || c->data + c->len > msg + len) abort();
        } else if ((c->kind != RC_PGO_NULL && c->kind != RC_PGO_UNCHANGED) || c->data || c->len) {
            abort();
        }
    }
}

/* An error of pg_events: a message, the status, an offset inside the message or none, and
 * nothing appended. */
static void check_error(rc_status st, const rc_error *err, size_t len)
{
    if (!err->message[0] || err->code != st || (err->offset != RC_NO_OFFSET && err->offset > len)) abort();
    if (evs.count) abort();
}

static void encode_events(void)
{
    rc_error err;
    rc_error_clear(&err);
    if (!line.max) rc_buf_init(&line, RC_BUF_DEFAULT_MAX);
    for (size_t i = 0; i < evs.count; i++) {
        rc_buf_reset(&line);
        if (rc_native_encode(NULL, &evs.items[i], &line, &err) != RC_OK) abort();
    }
}

static void to_events(rc_pg_events *e, const rc_pgo_msg *m, const uint8_t *msg, size_t len)
{
    rc_error err;
    rc_error_clear(&err);
    evs.count = 0;
    rc_status st = rc_pg_events_add(e, m, msg, len, &arena, &evs, &err);
    if (st != RC_OK) {
        check_error(st, &err, len);
        return;
    }
    encode_events();
    while (rc_pg_events_pending(e)) {
        evs.count = 0;
        rc_error_clear(&err);
        if ((st = rc_pg_events_drain(e, 3, &arena, &evs, &err)) != RC_OK) {
            check_error(st, &err, len);
            return;
        }
        if (evs.count == 0 || evs.count > 3) abort();
        encode_events();
    }
}

static void one(rc_pgo_decoder *d, rc_pg_events *e, const uint8_t *msg, size_t len)
{
    rc_pgo_msg m;
    rc_error err;
    rc_error_clear(&err);
    rc_status st = rc_pgo_decode(d, msg, len, 1, &arena, &m, &err);
    if (st != RC_OK) {
        if (err.code != st) abort();
        if (st != RC_ERR_NOMEM && (strncmp(err.message, "pgoutput", 8) || err.offset > len)) abort();
        return;
    }
    if (m.wal_start != 1) abort();
    to_events(e, &m, msg, len);
    switch (m.kind) {
    case RC_PGO_RELATION:
        if (rc_pgo_relation(d, m.u.relation.rel->oid) != m.u.relation.rel) abort();
        hold(m.u.relation.rel);
        break;
    case RC_PGO_TYPE:
        if (rc_pgo_type(d, m.u.type.type->oid) != m.u.type.type) abort();
        break;
    case RC_PGO_INSERT:
    case RC_PGO_UPDATE:
    case RC_PGO_DELETE:
        if (m.u.change.old_kind) check_tuple(&m.u.change.old_tuple, m.u.change.rel, msg, len);
        if (m.kind != RC_PGO_DELETE) check_tuple(&m.u.change.new_tuple, m.u.change.rel, msg, len);
        hold(m.u.change.rel);
        break;
    case RC_PGO_TRUNCATE:
        for (uint32_t i = 0; i < m.u.truncate.nrels; i++)
            if (m.u.truncate.rels[i]->oid != m.u.truncate.oids[i]) abort();
        break;
    case RC_PGO_MESSAGE:
        if (m.u.message.content + m.u.message.len > msg + len) abort();
        break;
    default: break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!runs && (!mkdtemp(spill_dir) || atexit(remove_spill_dir))) abort();
    if (runs++ % RESET_EVERY == 0) fresh_decoders(); /* bounded cache growth */
    if (size == 0) return 0;
    rc_pgo_decoder *d = decoders[data[0] & 1];
    rc_pg_events *e = events[data[0] & 1];
    rc_pgo_session_reset(d); /* each input starts outside a stream; the caches stay */
    rc_pg_events_session_reset(e);
    size_t pos = 1;
    while (pos < size) {
        size_t n = size - pos;
        if (n >= 2) {
            size_t framed = (size_t)data[pos] << 8 | data[pos + 1];
            pos += 2;
            n = framed < size - pos ? framed : size - pos;
        } else {
            n = size - pos;
        }
        /* a copy of exactly n bytes, so that ASan sees any read past the message */
        uint8_t *copy = malloc(n ? n : 1);
        if (!copy) abort();
        memcpy(copy, data + pos, n);
        one(d, e, copy, n);
        free(copy);
        rc_arena_reset(&arena);
        pos += n;
    }
    return 0;
}
