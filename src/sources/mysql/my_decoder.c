/* The event decoder's state machine (my_decoder.h): which transaction it is in, the table maps
 * by id, the GTID set at the last transaction boundary, and what each event turns into.
 *
 * A transaction starts at its GTID event (MySQL GTID / ANONYMOUS_GTID / GTID_TAGGED, MariaDB
 * GTID) or, without GTIDs, at QUERY BEGIN, and ends at XID, QUERY COMMIT/ROLLBACK, XA_PREPARE,
 * or the DDL statement that is its only event; the position moves only where none is open, so
 * a checkpoint never points inside one.
 *
 * QUERY and TABLE_MAP events are read in my_decoder_query.c and my_decoder_tablemap.c
 * (my_decoder_int.h), the helpers all three use (transactions, events, a DDL's structure) in
 * my_decoder_common.c; this file holds the state, rows and the dispatch of one event. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "my_decoder_int.h"
#include "my_rows.h"
#include "my_value_int.h"
#include "core/fmt.h"

static const char *keep_str(rc_my_decoder *d, const char *s, size_t n) { return rc_arena_memdup(&d->keep, s, n); }

rc_status rc_my_decoder_new(const rc_my_decoder_config *cfg, rc_my_decoder **out, rc_error *err)
{
    rc_my_decoder *d = calloc(1, sizeof *d);
    if (!d) return rc_my_decoder_nomem(err);
    d->cfg = *cfg;
    rc_arena_init(&d->keep);
    rc_buf_init(&d->query, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&d->scratch, RC_BUF_DEFAULT_MAX);
    rc_buf_init(&d->payload, (size_t)1 << 30);
    rc_buf_init(&d->decl, 1 << 20);
    rc_buf_init(&d->key, 1 << 24);
    rc_my_fde_default(&d->fde);
    d->gtids = rc_my_gtid_set_new();
    d->cols = cfg->cols ? cfg->cols : rc_colcache_new();
    const char *f = cfg->file ? cfg->file : "";
    d->file = d->bfile = keep_str(d, f, d->file_len = strlen(f));
    d->boffset = 4;
    if (cfg->server.n) d->cfg.server = (rc_str){keep_str(d, cfg->server.p, cfg->server.n), cfg->server.n};
    if (!d->gtids || !d->cols || !d->file) {
        rc_my_decoder_free(d);
        return rc_my_decoder_nomem(err);
    }
    *out = d;
    return RC_OK;
}

static void maps_clear(rc_my_decoder *d)
{
    for (size_t i = 0; i < d->nmaps; i++) {
        rc_my_decoder_retire(d, d->maps[i].map);
        free(d->maps[i].body);
    }
    d->nmaps = 0;
}

void rc_my_decoder_free(rc_my_decoder *d)
{
    if (!d) return;
    maps_clear(d);
    free(d->maps);
    for (size_t i = 0; i < d->nretired; i++) rc_my_tablemap_free(d->retired[i]);
    free(d->retired);
    if (d->cols != d->cfg.cols) rc_colcache_free(d->cols);
    rc_my_gtid_set_free(d->gtids);
    rc_buf_fini(&d->query);
    rc_buf_fini(&d->scratch);
    rc_buf_fini(&d->payload);
    rc_buf_fini(&d->decl);
    rc_buf_fini(&d->key);
    rc_arena_fini(&d->keep);
    free(d);
}

void rc_my_decoder_position(const rc_my_decoder *d, rc_my_decoder_pos *out)
{
    out->file = d->bfile;
    out->offset = d->boffset;
    out->gtids = d->gtids;
    out->in_transaction = d->in_tx;
}

rc_status rc_my_decoder_set_file(rc_my_decoder *d, const char *file, rc_error *err)
{
    size_t fn = strlen(file);
    const char *f = keep_str(d, file, fn);
    if (!f) return rc_my_decoder_nomem(err);
    d->file = f, d->file_len = fn;
    if (!d->in_tx) d->bfile = f, d->boffset = 4;
    return RC_OK;
}

rc_status rc_my_decoder_set_gtids(rc_my_decoder *d, const rc_my_gtid_set *g, rc_error *err) { return rc_my_gtid_set_copy(d->gtids, g, err); }

/* --- rows --- */

static rc_status on_rows(rc_my_decoder *d, uint8_t type, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    rc_my_rows r;
    rc_status st = rc_my_rows_parse(&d->fde, type, b, n, &r, err);
    if (st != RC_OK) return st;
    tm_entry *e = rc_my_decoder_map_find(d, r.table_id);
    if (!e)
        return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "%s for table id %llu, which no TABLE_MAP_EVENT before it maps (a file read "
                            "from the middle of a transaction?)", rc_my_event_name(type), (unsigned long long)r.table_id);
    if (!e->accepted) {
        out->rejected++;
        return RC_OK;
    }
    if (e->refused)
        return rc_error_set(err, RC_ERR_SCHEMA, RC_NO_OFFSET, "%s of %.*s.%.*s, whose TABLE_MAP_EVENT at offset %llu disagrees with the "
                            "schema history: not decoded", rc_my_event_name(type), (int)e->map->db.n, e->map->db.p,
                            (int)e->map->table.n, e->map->table.p, (unsigned long long)e->offset);
    rc_my_tablemap *m = e->map;
    const rc_column *cols = e->cols;
    const void *cols_id = e->cols_id;
    const rc_str *dflts = e->dflts;
    if (!cols && (st = rc_my_decoder_build_columns(d, e, a, &cols, &cols_id, &dflts, err)) != RC_OK) return st;
    rc_str db = rc_my_decoder_arena_str(a, m->db), table = rc_my_decoder_arena_str(a, m->table), query = {NULL, 0};
    if (d->cfg.with_query && d->query.len) query = rc_my_decoder_arena_str(a, (rc_str){d->query.data, d->query.len});
    if (!db.p || !table.p || (d->cfg.with_query && d->query.len && !query.p)) return rc_my_decoder_nomem(err);
    size_t pos = r.rows_off;
    uint32_t row = 0;
    size_t nv = m->ncols ? m->ncols : 1;
    while (pos < n) {
        rc_value *before = r.present_before ? rc_arena_alloc(a, nv * sizeof *before) : NULL;
        rc_value *after = r.present_after ? rc_arena_alloc(a, nv * sizeof *after) : NULL;
        if ((r.present_before && !before) || (r.present_after && !after)) return rc_my_decoder_nomem(err);
        size_t at = pos;
        if ((st = rc_my_rows_next(&r, m, b, n, &pos, before, after, a, &d->scratch, err)) != RC_OK) return st;
        if (pos == at) return rc_error_set(err, RC_ERR_VALUE, at, "%s: a row of no bytes at byte %zu", rc_my_event_name(type), at);
        rc_event *ev = rc_my_decoder_new_event(d, r.op, out, a);
        if (!ev) return rc_my_decoder_nomem(err);
        ev->src.db = db, ev->src.table = table;
        ev->ncols = m->ncols, ev->cols = cols, ev->cols_id = cols_id, ev->dflts = dflts;
        ev->before = before, ev->after = after;
        ev->pos.row = row++, ev->pos.has_row = true;
        if (query.p) ev->pos.query = query;
    }
    return RC_OK;
}

/* --- one event --- */

/* checked: the event ends in the CRC32 the FDE announces (the events inside a payload have
 * none); sum: that CRC32 of ev[0..n-4) as the caller computed it, NULL: computed here. */
static rc_status feed_one(rc_my_decoder *d, const uint8_t *ev, size_t n, bool checked, const uint32_t *sum, rc_event_list *out,
                          rc_arena *a, rc_error *err);

static rc_status on_payload(rc_my_decoder *d, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    if (d->depth) return rc_error_set(err, RC_ERR_VALUE, 0, "TRANSACTION_PAYLOAD_EVENT inside another one");
    rc_my_payload t;
    rc_status st = rc_my_payload_parse(b, n, &t, err);
    if (st == RC_OK) st = rc_my_payload_inflate(&t, b, n, &d->payload, err);
    if (st != RC_OK) return st;
    d->depth++;
    const uint8_t *p = (const uint8_t *)d->payload.data;
    size_t pn = d->payload.len, i = 0;
    while (st == RC_OK && i < pn) {
        rc_my_header h;
        if (rc_my_header_parse(p + i, pn - i, &h, err) != RC_OK || h.size < RC_MY_HEADER_LEN || h.size > pn - i) {
            rc_error_clear(err);
            st = rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "TRANSACTION_PAYLOAD_EVENT: the event at byte %zu of its %zu decompressed "
                              "bytes does not fit in them", i, pn);
            break;
        }
        st = feed_one(d, p + i, h.size, false, NULL, out, a, err);
        if (st != RC_OK) {
            char inner[sizeof err->message];
            snprintf(inner, sizeof inner, "%s", err->message);
            rc_status code = err->code;
            rc_error_clear(err);
            rc_error_set(err, code, RC_NO_OFFSET, "in TRANSACTION_PAYLOAD_EVENT, its event at byte %zu: %s", i, inner);
        }
        i += h.size;
    }
    d->depth--;
    return st;
}

static rc_status on_gtid(rc_my_decoder *d, uint8_t type, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a, rc_error *err)
{
    rc_status st;
    rc_buf t;
    rc_buf_init(&t, sizeof d->gtid_text);
    if (type == RC_MYEV_MARIA_GTID) {
        if ((st = rc_maria_gtid_parse(b, n, &d->maria, err)) != RC_OK) return st;
        d->gtid_kind = 2, d->gtid_server = d->ev_server;
        d->standalone = d->maria.flags & RC_MARIA_FL_STANDALONE;
        d->gtid_len = (size_t)snprintf(d->gtid_text, sizeof d->gtid_text, "%u-%u-%llu", d->maria.domain, d->gtid_server,
                                       (unsigned long long)d->maria.seq);
    } else {
        if ((st = rc_my_gtid_ev_parse(type, b, n, &d->my, err)) != RC_OK) return st;
        d->gtid_kind = 1;
        d->gtid_len = 0;
        if (type != RC_MYEV_ANONYMOUS_GTID) {
            rc_my_gtid_ev_format(&d->my, &t);
            if (t.err == RC_OK && t.len < sizeof d->gtid_text) memcpy(d->gtid_text, t.data, t.len), d->gtid_len = t.len;
        }
    }
    rc_buf_fini(&t);
    rc_my_decoder_tx_begin(d);
    /* MariaDB's GTID event is the transaction's BEGIN (no QUERY BEGIN follows), unless the
     * transaction is one statement of its own (a DDL) */
    if (type == RC_MYEV_MARIA_GTID && !d->standalone) {
        d->in_begin = true;
        rc_my_decoder_tx_id(d);
        return rc_my_decoder_emit_tx(d, RC_OP_BEGIN, out, a, err);
    }
    return RC_OK;
}

static rc_status gtid_set_event(rc_my_decoder *d, uint8_t type, const uint8_t *b, size_t n, rc_error *err)
{
    rc_my_gtid_set *g = rc_my_gtid_set_new();
    if (!g) return rc_my_decoder_nomem(err);
    rc_status st = type == RC_MYEV_MARIA_GTID_LIST ? rc_maria_gtid_list_parse(b, n, g, err) : rc_my_previous_gtids_parse(b, n, g, err);
    /* the set before this file: it holds what came before, so it is the executed set when the
     * decoder has none yet (a resumed run's set is kept) */
    if (st == RC_OK && rc_my_gtid_set_empty(d->gtids)) st = rc_my_gtid_set_copy(d->gtids, g, err);
    rc_my_gtid_set_free(g);
    return st;
}

static rc_status refuse(const char *what, const char *why, rc_error *err)
{
    return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "%s cannot be read: %s", what, why);
}

static rc_status dispatch(rc_my_decoder *d, const rc_my_header *h, const uint8_t *b, size_t n, rc_event_list *out, rc_arena *a,
                          rc_error *err)
{
    rc_status st;
    switch (h->type) {
    case RC_MYEV_QUERY: return rc_my_decoder_on_query(d, b, n, out, a, err);
    case RC_MYEV_XID:
        if (n < 8) return rc_error_set(err, RC_ERR_VALUE, 0, "XID_EVENT of %zu bytes (8 expected)", n);
        if ((st = rc_my_decoder_emit_tx(d, RC_OP_COMMIT, out, a, err)) != RC_OK) return st;
        return rc_my_decoder_tx_end(d, err);
    case RC_MYEV_XA_PREPARE: {
        rc_my_xa_prepare x;
        if ((st = rc_my_xa_prepare_parse(b, n, &x, err)) != RC_OK) return st;
        if ((st = rc_my_decoder_emit_tx(d, RC_OP_COMMIT, out, a, err)) != RC_OK) return st;
        return rc_my_decoder_tx_end(d, err);
    }
    case RC_MYEV_TABLE_MAP: return rc_my_decoder_on_table_map(d, b, n, out, a, err);
    case RC_MYEV_PRE_GA_WRITE_ROWS: case RC_MYEV_PRE_GA_UPDATE_ROWS: case RC_MYEV_PRE_GA_DELETE_ROWS:
    case RC_MYEV_WRITE_ROWS_V1: case RC_MYEV_UPDATE_ROWS_V1: case RC_MYEV_DELETE_ROWS_V1:
    case RC_MYEV_WRITE_ROWS: case RC_MYEV_UPDATE_ROWS: case RC_MYEV_DELETE_ROWS: case RC_MYEV_PARTIAL_UPDATE_ROWS:
        return on_rows(d, h->type, b, n, out, a, err);
    case RC_MYEV_GTID: case RC_MYEV_ANONYMOUS_GTID: case RC_MYEV_GTID_TAGGED: case RC_MYEV_MARIA_GTID:
        return on_gtid(d, h->type, b, n, out, a, err);
    case RC_MYEV_PREVIOUS_GTIDS: case RC_MYEV_MARIA_GTID_LIST: return gtid_set_event(d, h->type, b, n, err);
    case RC_MYEV_ROTATE: {
        rc_my_rotate r;
        if ((st = rc_my_rotate_parse(&d->fde, b, n, &r, err)) != RC_OK) return st;
        const char *f = keep_str(d, r.file.p, r.file.n);
        if (!f) return rc_my_decoder_nomem(err);
        d->file = f, d->file_len = strlen(f); /* a NUL in the name ends it, as everywhere the name is used */
        if (!d->in_tx) d->bfile = f, d->boffset = r.position, d->rotated = true;
        return RC_OK;
    }
    case RC_MYEV_TRANSACTION_PAYLOAD: return on_payload(d, b, n, out, a, err);
    case RC_MYEV_ROWS_QUERY: case RC_MYEV_MARIA_ANNOTATE_ROWS: {
        rc_str sql;
        if ((st = rc_my_rows_query_parse(h->type, b, n, &sql, err)) != RC_OK) return st;
        rc_buf_reset(&d->query);
        rc_buf_put(&d->query, sql.p, sql.n);
        return RC_OK;
    }
    case RC_MYEV_HEARTBEAT: case RC_MYEV_HEARTBEAT_V2: {
        rc_my_heartbeat hb;
        return rc_my_heartbeat_parse(h->type, b, n, &hb, err);
    }
    case RC_MYEV_INCIDENT: {
        rc_my_incident in;
        if ((st = rc_my_incident_parse(&d->fde, b, n, &in, err)) != RC_OK) return st;
        return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "INCIDENT_EVENT %u (%.*s): the server lost events here; what follows cannot "
                            "be trusted to be complete (resynchronise the target)", in.type, (int)(in.message.n > 200 ? 200 : in.message.n),
                            in.message.p);
    }
    case RC_MYEV_STOP: case RC_MYEV_MARIA_BINLOG_CHECKPOINT: case RC_MYEV_INTVAR: case RC_MYEV_RAND: case RC_MYEV_USER_VAR:
    case RC_MYEV_IGNORABLE: case RC_MYEV_TRANSACTION_CONTEXT: case RC_MYEV_VIEW_CHANGE: case RC_MYEV_BEGIN_LOAD_QUERY:
    case 9: /* APPEND_BLOCK: the file of a statement-based LOAD DATA, refused at its EXECUTE_LOAD_QUERY */
        return RC_OK;
    case RC_MYEV_EXECUTE_LOAD_QUERY:
        return refuse("statement-based LOAD DATA (EXECUTE_LOAD_QUERY_EVENT)", "its rows are not in the binlog; set binlog_format=ROW", err);
    case RC_MYEV_MARIA_START_ENCRYPTION:
        return refuse("START_ENCRYPTION_EVENT", "the binlog is encrypted (encrypt_binlog=ON); read it through the server", err);
    case RC_MYEV_MARIA_QUERY_COMPRESSED: case 166: case 167: case 168: case 169: case 170: case 171:
        return refuse(rc_my_event_name(h->type), "MariaDB's compressed events (log_bin_compress=ON) are not read here", err);
    default:
        if (h->flags & RC_MY_LOG_EVENT_IGNORABLE_F) return RC_OK; /* the server says a reader may skip it */
        if (rc_my_event_name(h->type))
            return refuse(rc_my_event_name(h->type), "an event of MySQL before 5.0 (binlog version 3) is not read here", err);
        return rc_error_set(err, RC_ERR_UNSUPPORTED, RC_NO_OFFSET, "event type %u is not known and not marked ignorable "
                            "(LOG_EVENT_IGNORABLE_F): a newer server's event?", h->type);
    }
}

static rc_status feed_one(rc_my_decoder *d, const uint8_t *ev, size_t n, bool checked, const uint32_t *sum, rc_event_list *out,
                          rc_arena *a, rc_error *err)
{
    rc_my_header h;
    rc_status st = rc_my_header_parse(ev, n, &h, err);
    if (st != RC_OK) return st;
    if (h.size != n)
        return rc_error_set(err, RC_ERR_VALUE, 9, "the event's header says %u bytes, %zu were given (a cut or corrupted event)", h.size, n);
    if (h.type == RC_MYEV_FORMAT_DESCRIPTION) {
        rc_my_fde f;
        if ((st = rc_my_fde_parse(ev, n, &f, err)) != RC_OK) return st;
        if (d->in_tx) return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "FORMAT_DESCRIPTION_EVENT inside a transaction");
        if (!d->have_fde || strcmp(f.server_version, d->fde.server_version)) {
            const char *v = keep_str(d, f.server_version, strlen(f.server_version));
            if (!v) return rc_my_decoder_nomem(err);
            d->version = (rc_str){v, strlen(v)};
        }
        d->fde = f, d->have_fde = true;
        maps_clear(d); /* a new file: table ids start over */
        return RC_OK;
    }
    size_t hl = d->fde.header_len;
    size_t tail = checked && d->fde.checksum ? RC_MY_CHECKSUM_LEN : 0;
    if (n < hl + tail) return rc_error_set(err, RC_ERR_VALUE, 0, "%zu-byte event is shorter than its header and checksum", n);
    if (tail) {
        uint32_t want = (uint32_t)rc_my_le(ev + n - 4, 4), got = sum ? *sum : rc_my_crc32(0, ev, n - 4);
        if (want != got) {
            const char *name = rc_my_event_name(h.type);
            char t[16];
            snprintf(t, sizeof t, "type %u", h.type);
            return rc_error_set(err, RC_ERR_VALUE, RC_NO_OFFSET, "checksum mismatch in %s (stored %08x, computed %08x): the event is "
                                "corrupted", name ? name : t, want, got);
        }
    }
    d->ev_ts = h.timestamp, d->ev_server = h.server_id;
    return dispatch(d, &h, ev + hl, n - hl - tail, out, a, err);
}

static rc_status feed_at(rc_my_decoder *d, const uint8_t *ev, size_t n, uint64_t offset, const uint32_t *sum, rc_event_list *out,
                         rc_arena *a, rc_error *err)
{
    d->ev_offset = offset;
    size_t first = out->count;
    rc_error e2;
    rc_error_clear(&e2);
    rc_status st = feed_one(d, ev, n, true, sum, out, a, &e2);
    if (st != RC_OK) {
        out->count = first; /* a failed event keeps no events */
        return rc_error_set(err, st, RC_NO_OFFSET, "%s at offset %llu: %s", d->file, (unsigned long long)offset, e2.message);
    }
    /* offset 0: an event without a position (log_pos 0: the FORMAT_DESCRIPTION a server sends
     * when a dump starts inside a file, "do not move your position") leaves the boundary where
     * it is (it was taken for the file's start + its size: the stream went back to offset 252) */
    if (!d->in_tx && !d->rotated && offset) d->bfile = d->file, d->boffset = offset + n;
    d->rotated = false;
    return RC_OK;
}

rc_status rc_my_decoder_feed(rc_my_decoder *d, const uint8_t *ev, size_t n, uint64_t offset, rc_event_list *out, rc_arena *a,
                             rc_error *err)
{
    return feed_at(d, ev, n, offset, NULL, out, a, err);
}

rc_status rc_my_decoder_feed_summed(rc_my_decoder *d, const uint8_t *ev, size_t n, uint64_t offset, uint32_t sum, rc_event_list *out,
                                    rc_arena *a, rc_error *err)
{
    return feed_at(d, ev, n, offset, &sum, out, a, err);
}
