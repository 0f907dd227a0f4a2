/* libFuzzer target: a sequence of binlog events into one event decoder (src/sources/mysql),
 * as a binlog file has them after its magic. The first byte chooses: bit 0, the harness
 * rewrites each event's CRC32 (when the last FORMAT_DESCRIPTION asks for checksums) so that
 * mutations get past the checksum into the event bodies; bit 1, a FORMAT_DESCRIPTION of MySQL
 * 8.0 (bit 2: with CRC32) or, with bit 3, of MariaDB 10.11 comes first. No input may crash;
 * every error names the file and the event's offset; every event made is encoded to native;
 * the same input read again by a fresh decoder gives the same events and errors. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rowcast/format.h"
#include "sources/mysql/my_decoder.h"
#include "sources/mysql/my_event.h"

/* A FORMAT_DESCRIPTION event of binlog version 4 written here (post-header lengths of 8.0). */
static size_t make_fde(uint8_t *out, bool mariadb, bool crc)
{
    /* as MySQL 8.0.27 writes them (go-mysql's TestTransactionPayloadEventDecode) */
    static const uint8_t post[] = {0x38, 0x0d, 0x00, 0x08, 0x00, 0x12, 0x00, 0x04, 0x04, 0x04, 0x04, 0x12, 0x00, 0x00, 0x5c, 0x00, 0x04, 0x1a, 0x08, 0x00, 0x00, 0x00, 0x08, 0x08, 0x08, 0x02, 0x00, 0x00, 0x00, 0x0a, 0x0a, 0x0a, 0x19, 0x19, 0x00, 0x12, 0x34, 0x00, 0x0a, 0x28, 0x00};
    size_t n = RC_MY_HEADER_LEN;
    memset(out, 0, 19);
    out[4] = RC_MYEV_FORMAT_DESCRIPTION;
    out[5] = 1;
    out[n++] = 4, out[n++] = 0;
    memset(out + n, 0, 50);
    const char *v = mariadb ? "10.11.6-MariaDB-log" : "8.0.32";
    memcpy(out + n, v, strlen(v));
    n += 50 + 4;
    out[n++] = RC_MY_HEADER_LEN;
    memcpy(out + n, post, sizeof post);
    n += sizeof post;
    out[n++] = crc ? 1 : 0;
    n += 4; /* the checksum (or four bytes of room when there is none) */
    uint32_t size = (uint32_t)n;
    memcpy(out + 9, &size, 4);
    uint32_t c = rc_my_crc32(0, out, n - 4);
    memcpy(out + n - 4, &c, 4);
    return n;
}

typedef struct run {
    char text[1 << 14]; /* what came out: ops and errors, for the second reading's comparison */
    size_t len;
} run;

static void note(run *r, const char *s)
{
    size_t k = strlen(s);
    if (r->len + k + 1 < sizeof r->text) memcpy(r->text + r->len, s, k), r->len += k, r->text[r->len++] = '\n';
}

static void read_all(uint8_t *buf, size_t n, bool fix, run *r, void *enc, rc_buf *msg)
{
    static rc_arena a;
    static bool init;
    if (!init) rc_arena_init(&a), init = true;
    rc_my_decoder_config cfg = {.file = "fuzz-bin.000001", .with_query = true};
    rc_my_decoder *d;
    if (rc_my_decoder_new(&cfg, &d, NULL) != RC_OK) abort();
    rc_event_list l = {0};
    bool crc = false;
    for (size_t at = 0; n - at >= RC_MY_HEADER_LEN;) {
        uint32_t size;
        memcpy(&size, buf + at + 9, 4);
        if (size < RC_MY_HEADER_LEN || size > n - at) break;
        uint8_t *ev = buf + at;
        if (ev[4] == RC_MYEV_FORMAT_DESCRIPTION) {
            rc_my_fde f;
            if (fix && size >= RC_MY_HEADER_LEN + 4) { /* its own CRC, computed with the in-use flag clear */
                uint8_t f17 = ev[17];
                ev[17] &= (uint8_t)~1u;
                uint32_t c = rc_my_crc32(0, ev, size - 4);
                ev[17] = f17;
                memcpy(ev + size - 4, &c, 4);
            }
            crc = rc_my_fde_parse(ev, size, &f, NULL) == RC_OK ? f.checksum : crc;
        } else if (fix && crc && size >= RC_MY_HEADER_LEN + 4) {
            uint32_t c = rc_my_crc32(0, ev, size - 4);
            memcpy(ev + size - 4, &c, 4);
        }
        l.count = 0;
        rc_error err;
        rc_error_clear(&err);
        rc_status st = rc_my_decoder_feed(d, ev, size, at + 4, &l, &a, &err);
        if (st != RC_OK) {
            char where[40]; /* the file may be another one's after a ROTATE: the offset is this event's */
            snprintf(where, sizeof where, " at offset %zu: ", at + 4);
            if (!strstr(err.message, where)) abort();
            note(r, err.message);
        }
        for (size_t i = 0; i < l.count; i++) {
            const rc_event *e = &l.items[i];
            if ((e->before || e->after) && !e->cols && e->ncols) abort();
            for (uint32_t c = 0; c < e->ncols; c++) {
                if (e->before && e->before[c].kind >= RC_V_KIND_COUNT) abort();
                if (e->after && e->after[c].kind >= RC_V_KIND_COUNT) abort();
            }
            rc_buf_reset(msg);
            rc_error_clear(&err);
            rc_status es = rc_format_find("native")->encode_value(enc, e, msg, &err);
            char t[64];
            snprintf(t, sizeof t, "%s %u %d %zu", rc_op_name(e->op), e->ncols, (int)es, msg->len);
            note(r, t);
        }
        rc_my_decoder_pos p;
        rc_my_decoder_position(d, &p);
        if (!p.file) abort();
        rc_arena_reset(&a);
        at += size;
    }
    rc_event_list_fini(&l);
    rc_my_decoder_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static void *enc;
    if (!enc) {
        rc_options o = {0};
        if (rc_format_find("native")->enc_new(&o, &enc, NULL) != RC_OK) abort();
    }
    if (!size) return 0;
    rc_buf msg;
    rc_buf_init(&msg, RC_BUF_DEFAULT_MAX);
    uint8_t flags = data[0];
    uint8_t *buf = malloc(size + 256);
    if (!buf) return 0;
    size_t n = 0;
    if (flags & 2) n = make_fde(buf, flags & 8, flags & 4);
    memcpy(buf + n, data + 1, size - 1);
    n += size - 1;
    static run r1, r2;
    r1.len = r2.len = 0;
    uint8_t *copy = malloc(n ? n : 1);
    if (!copy) return rc_buf_fini(&msg), free(buf), 0;
    memcpy(copy, buf, n);
    read_all(buf, n, flags & 1, &r1, enc, &msg);
    read_all(copy, n, flags & 1, &r2, enc, &msg);
    if (r1.len != r2.len || memcmp(r1.text, r2.text, r1.len)) abort();
    rc_buf_fini(&msg);
    free(copy);
    free(buf);
    return 0;
}
